"""Colours of coded outcomes, as plain values: the map, the report and the QGIS styles read them.

A palette is presentation, so it lives at the bottom of the package: this module imports
only the enums, and :mod:`wetland_gis.io.qgis_styles` and the water-use map
(:func:`wetland_gis.water_use.water_use_map`) both read it without importing each other.
The keys are the stable outcome strings written to output files (as :mod:`wetland_gis.labels`
keys their labels). The impacts' palette of the WCA map (:data:`OUTCOME_COLORS`, its dash
patterns and the shoreland zones' styles) is here too; :mod:`wetland_gis.mapping.symbology`
adds the labels and the context layers' styles.

Examples
--------
>>> WATER_USE_OUTCOME_COLORS["prohibited"]
'#c0392b'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from wetland_gis.enums import ImpactOutcome, ShorelandZone

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

# Okabe & Ito (2008) colour-universal palette: distinguishable with every common form of
# colour-vision deficiency. Dash patterns add a second, colour-free cue.
OUTCOME_COLORS: dict[str, str] = {
    ImpactOutcome.DE_MINIMIS_EXEMPT.value: "#009E73",  # bluish green
    ImpactOutcome.DE_MINIMIS_CONDITIONAL.value: "#56B4E9",  # sky blue
    ImpactOutcome.EXEMPT.value: "#0072B2",  # blue
    ImpactOutcome.EXEMPT_CONDITIONAL.value: "#004D80",  # dark blue (Okabe-Ito blue, darker), dashed
    ImpactOutcome.NOT_A_DRAIN_OR_FILL.value: "#F0E442",  # yellow
    ImpactOutcome.REPLACEMENT_REQUIRED.value: "#E69F00",  # orange
    ImpactOutcome.PROHIBITED.value: "#D55E00",  # vermillion
    ImpactOutcome.OUT_OF_WCA_SCOPE.value: "#CC79A7",  # reddish purple
    ImpactOutcome.NOT_ASSESSED.value: "#999999",  # grey
}
"""Fill colour of an impact by its ``outcome`` (an :class:`ImpactOutcome` value)."""

OUTCOME_DASH: dict[str, str | None] = {
    ImpactOutcome.DE_MINIMIS_EXEMPT.value: None,
    ImpactOutcome.DE_MINIMIS_CONDITIONAL.value: "4 2",
    ImpactOutcome.EXEMPT.value: None,
    ImpactOutcome.EXEMPT_CONDITIONAL.value: "4 2",
    ImpactOutcome.NOT_A_DRAIN_OR_FILL.value: "1 3",
    ImpactOutcome.REPLACEMENT_REQUIRED.value: None,
    ImpactOutcome.PROHIBITED.value: None,
    ImpactOutcome.OUT_OF_WCA_SCOPE.value: "6 3",
    ImpactOutcome.NOT_ASSESSED.value: "2 3",
}
"""Outline dash pattern of an impact by outcome (solid when None)."""


@dataclass(frozen=True)
class ZoneStyle:
    """How a shoreland zone is drawn and named.

    Parameters
    ----------
    label : str
        Name in the legend, popups and report.
    color : str
        Outline and fill colour.
    fill_opacity : float
        Fill opacity, 0-1.
    dash : str or None
        SVG dash pattern of the outline.
    citation : str
        The provision that defines the zone.
    """

    label: str
    color: str
    fill_opacity: float
    dash: str | None
    citation: str


ZONE_STYLES: dict[str, ZoneStyle] = {
    ShorelandZone.PROTECTION.value: ZoneStyle(
        "Shoreland wetland protection zone",
        "#0072B2",
        0.06,
        "8 4",
        "Minn. Stat. § 103G.005, subd. 15f",
    ),
    ShorelandZone.BUILDING_SETBACK.value: ZoneStyle(
        "Shoreland building setback zone",
        "#0072B2",
        0.18,
        None,
        "Minn. Stat. § 103G.2241, subd. 9(c)",
    ),
}
"""Style and defining citation of each drawn shoreland zone (``zone`` column values)."""


def zone_style(zone: str) -> ZoneStyle:
    """Return the style of a ``zone`` value; an unknown value gets a grey, dashed style."""
    known = ZONE_STYLES.get(str(zone))
    if known is not None:
        return known
    return ZoneStyle(str(zone).replace("_", " "), "#666666", 0.08, "3 3", "")
