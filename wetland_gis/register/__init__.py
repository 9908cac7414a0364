"""The LGU's decision register (issue 22): dated decisions that ``assess`` reads.

A GeoPackage file by default (QGIS opens it), or PostgreSQL with PostGIS for an office;
one schema (:mod:`wetland_gis.register.schema`), append-only. See docs/register.md.
"""

from __future__ import annotations

from wetland_gis.register.schema import DECISION_KINDS, SCHEMA_VERSION
from wetland_gis.register.store import (
    REGISTER_ENV,
    CreditRecord,
    DecisionRecord,
    ImpactRecord,
    Register,
    RegisterError,
    RegisterVersionError,
)

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
]
