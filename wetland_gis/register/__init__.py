"""The LGU's decision register (issue 22): dated decisions that ``assess`` reads.

A GeoPackage file by default (QGIS opens it), or PostgreSQL with PostGIS for an office;
one schema (:mod:`wetland_gis.register.schema`), append-only. See docs/register.md.

Names are imported on first use, so the command line names ``register`` without loading
SQLAlchemy or pandas.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wetland_gis._lazy import lazy_exports

if TYPE_CHECKING:
    from wetland_gis.register.schema import DECISION_KINDS, SCHEMA_VERSION
    from wetland_gis.register.store import (
        REGISTER_ENV,
        CreditRecord,
        DecisionRecord,
        ImpactRecord,
        Register,
        RegisterError,
        RegisterUpgradeRequired,
        RegisterVersionError,
    )

_LAZY: dict[str, str | None] = {
    "DECISION_KINDS": "wetland_gis.register.schema",
    "SCHEMA_VERSION": "wetland_gis.register.schema",
    "REGISTER_ENV": "wetland_gis.register.store",
    "Register": "wetland_gis.register.store",
    "DecisionRecord": "wetland_gis.register.store",
    "ImpactRecord": "wetland_gis.register.store",
    "CreditRecord": "wetland_gis.register.store",
    "RegisterError": "wetland_gis.register.store",
    "RegisterVersionError": "wetland_gis.register.store",
    "RegisterUpgradeRequired": "wetland_gis.register.store",
}

__all__ = [
    "DECISION_KINDS",
    "SCHEMA_VERSION",
    "REGISTER_ENV",
    "Register",
    "DecisionRecord",
    "ImpactRecord",
    "CreditRecord",
    "RegisterError",
    "RegisterVersionError",
    "RegisterUpgradeRequired",
]


__getattr__, __dir__ = lazy_exports(__name__, _LAZY, __all__)
