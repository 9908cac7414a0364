"""Symbology of the TEP map and report: colours, dash patterns, labels and layer styles.

Colours of impacts follow the Okabe & Ito (2008) colour-universal palette; dash patterns
give a second cue that does not depend on colour.
"""

from __future__ import annotations

from wetland_gis.context_layers import DRAWN_LAYERS, LAYER_SPECS, MapStyle, map_layers as map_layers
from wetland_gis.enums import ImpactOutcome
from wetland_gis.palette import (
    OUTCOME_COLORS,
    OUTCOME_DASH as OUTCOME_DASH,
    ZONE_STYLES as ZONE_STYLES,
    ZoneStyle as ZoneStyle,
    zone_style as zone_style,
)

OUTCOME_LABELS: dict[str, str] = {
    ImpactOutcome.DE_MINIMIS_EXEMPT.value: "De minimis exempt",
    ImpactOutcome.DE_MINIMIS_CONDITIONAL.value: "De minimis if a fact holds",
    ImpactOutcome.EXEMPT.value: "Exempt (another exemption)",
    ImpactOutcome.EXEMPT_CONDITIONAL.value: "Exempt if a fact holds (another exemption)",
    ImpactOutcome.NOT_A_DRAIN_OR_FILL.value: "Not a drain or fill",
    ImpactOutcome.REPLACEMENT_REQUIRED.value: "Replacement required",
    ImpactOutcome.PROHIBITED.value: "Prohibited",
    ImpactOutcome.OUT_OF_WCA_SCOPE.value: "Out of WCA scope",
    ImpactOutcome.NOT_ASSESSED.value: "Not assessed",
}
"""How each outcome reads in the legend, popups and tooltips."""


ContextLayer = MapStyle
"""How one reference layer is drawn (the :class:`~wetland_gis.context_layers.MapStyle`)."""

CONTEXT_LAYERS: dict[str, ContextLayer] = {
    name: style for name in DRAWN_LAYERS if (style := LAYER_SPECS[name].map) is not None
}
"""Reference layers drawn from ``context`` (by key, bottom to top); other keys are ignored.

Read from the layer registry (:data:`~wetland_gis.context_layers.LAYER_SPECS`): a layer
is drawn when its spec has a ``map`` style, in the order of its ``stack``."""

PROJECT_LAYERS: dict[str, ContextLayer] = {
    # the layers the impacts were cut from (`wetland-gis impacts`, issue 35), bottom to top
    "parcels": MapStyle("Parcels (owners)", "Parcel", ("owner",), "#7F7F7F", 1.2, "2 4", stack=0),
    "delineation": MapStyle(
        "Wetland delineation",
        "Wetland",
        ("wetland_id", "circ39", "attribute"),
        "#009E73",
        1.6,
        None,
        boundaries=False,
        fill="#009E73",
        stack=1,
    ),
    "existing": MapStyle(
        "Existing developed ground (no new impact)",
        "Existing",
        (),
        "#000000",
        1.2,
        None,
        boundaries=False,
        fill="#666666",
        stack=2,
    ),
    "footprint": MapStyle(
        "Footprint (construction limits)",
        "Part",
        ("part_id", "duration", "status"),
        "#CC79A7",
        2.2,
        "6 3",
        stack=3,
    ),
    "drainage": MapStyle(
        "Drainage lines (ditch, tile)",
        "Drainage line",
        ("part_id", "status"),
        "#0072B2",
        3.0,
        None,
        stack=4,
    ),
}
"""The layers an impact layer was cut from, drawn on the map so a TEP member can switch each
on and off (key: the GeoPackage layer of ``wetland-gis impacts``; bottom to top)."""

NWI_DELINEATION_TITLE = "NWI wetlands (a screening, not a delineation)"
"""The delineation layer's title when the wetlands are NWI mapping."""

SITE_COLOR = "#F0E442"  # yellow
BANK_COLOR = "#56B4E9"  # sky blue


def relative_luminance(color: str) -> float:
    """Return the WCAG 2 relative luminance of a ``#rrggbb`` (or ``#rgb``) colour.

    Examples
    --------
    >>> relative_luminance("#ffffff"), relative_luminance("#000")
    (1.0, 0.0)
    """
    hexa = color.lstrip("#")
    if len(hexa) == 3:
        hexa = "".join(c * 2 for c in hexa)
    if len(hexa) != 6:
        raise ValueError(f"colour {color!r} is not #rrggbb or #rgb")
    channels = [int(hexa[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: str, b: str) -> float:
    """Return the WCAG 2 contrast ratio of two colours (1 to 21; AA text needs 4.5).

    Examples
    --------
    >>> round(contrast_ratio("#000000", "#ffffff"), 1)
    21.0
    """
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


#: The two text colours a label on a coloured background may take.
_INKS = ("#000000", "#ffffff")


def text_color(background: str) -> str:
    """Return black or white, whichever reads better on ``background`` (WCAG contrast).

    Every badge and label drawn on an outcome colour (report, popups) takes its text colour
    from here, so dark text never sits on a dark fill (issue 30).

    Examples
    --------
    >>> text_color("#004D80"), text_color("#F0E442")
    ('#ffffff', '#000000')
    """
    return max(_INKS, key=lambda ink: contrast_ratio(ink, background))


def outcome_text_color(outcome: str) -> str:
    """Return the text colour of a badge filled with an outcome's colour."""
    return text_color(outcome_color(outcome))


def outcome_color(outcome: str) -> str:
    """Return the fill colour of an outcome; unknown outcomes get the not-assessed grey."""
    return OUTCOME_COLORS.get(outcome, OUTCOME_COLORS[ImpactOutcome.NOT_ASSESSED.value])


def outcome_label(outcome: str) -> str:
    """Return how an outcome reads; an unknown value is shown as it is."""
    return OUTCOME_LABELS.get(outcome, outcome or "no outcome")
