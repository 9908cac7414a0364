"""Colours of coded outcomes, as plain values: the map, the report and the QGIS styles read them.

A palette is presentation, so it lives at the bottom of the package: this module imports
nothing, and :mod:`wetland_gis.io.qgis_styles` and the water-use map
(:func:`wetland_gis.water_use.water_use_map`) both read it without importing each other.
The keys are the stable outcome strings written to output files (as :mod:`wetland_gis.labels`
keys their labels). The impacts' palette of the WCA map is
:data:`wetland_gis.mapping.symbology.OUTCOME_COLORS`.

Examples
--------
>>> WATER_USE_OUTCOME_COLORS["prohibited"]
'#c0392b'
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["WATER_USE_OUTCOME_COLORS"]

#: Fill colour of each headline outcome of a water use (a ``WaterOutcome`` value), in the
#: order of the map's legend and the QGIS style's categories.
WATER_USE_OUTCOME_COLORS: Mapping[str, str] = MappingProxyType(
    {
        "prohibited": "#c0392b",
        "must_be_terminated": "#8e44ad",
        "indeterminate": "#7f8c8d",
        "verify": "#f39c12",
        "permit_conditions_apply": "#2980b9",
        "local_approval": "#16a085",
        "permit_required": "#2c3e50",
        "permit_not_required": "#27ae60",
        "not_assessed": "#ffffff",
    }
)
