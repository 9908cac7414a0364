"""Water appropriation screening under Minn. Stat. § 103G.271 (a statute of its own).

Two parts, as for the wetland rules: :mod:`wetland_gis.water_use.rules` is the rules
core (pure functions on plain values, both editions of § 103G.271 held in
``parameters/water_use.yaml``; it imports no geometry library), whose parts by topic live
beside it (the framework, editions, facts, permit, restrictions, fees, fee totals and
schedules), and :mod:`wetland_gis.water_use.screening` reads a layer of points of
appropriation, computes the spatial facts (county, aquifer, distance) and returns a
:class:`WaterUseResult`.

The names of :mod:`~wetland_gis.water_use.screening` are imported on first use, so
``import wetland_gis.water_use.rules`` loads no geometry library.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wetland_gis._lazy import lazy_exports

if TYPE_CHECKING:
    from wetland_gis.water_use.screening import (
        INPUT_COLUMNS,
        METRES_PER_MILE,
        MONTH_COLUMNS,
        WATER_CAVEATS,
        WORK_CRS,
        WaterUseResult,
        geodesic_miles,
        read_appropriations,
        water_use,
        water_use_map,
    )

__all__ = [
    "water_use",
    "read_appropriations",
    "WaterUseResult",
    "INPUT_COLUMNS",
    "MONTH_COLUMNS",
    "METRES_PER_MILE",
    "WORK_CRS",
    "geodesic_miles",
    "water_use_map",
    "WATER_CAVEATS",
]


#: Public name -> the module that defines it: every name is the screening module's.
_LAZY: dict[str, str | None] = dict.fromkeys(__all__, "wetland_gis.water_use.screening")

__getattr__, __dir__ = lazy_exports(__name__, _LAZY, __all__)
