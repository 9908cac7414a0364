"""Text contrast of the report and the map meets WCAG 2 AA, 4.5:1 (issue 30).

The badge "Exempt if a fact holds (another exemption)" was dark text on dark navy. Every
badge of the report and of the map's popups is rendered for every outcome and its
background and text colours measured; every text colour of the report's and the map's
stylesheets is measured against the backgrounds it is drawn on.
"""

from __future__ import annotations

import re
from pathlib import Path

import map_fixtures as fx
import pytest

import wetland_gis.mapping as mapping
from wetland_gis.enums import ImpactOutcome
from wetland_gis.mapping.popups import impact_popup_html
from wetland_gis.mapping.report import render_report
from wetland_gis.mapping.symbology import OUTCOME_COLORS, contrast_ratio

AA = 4.5
MAPPING = Path(mapping.__file__).parent
OUTCOMES = [*OUTCOME_COLORS, "an outcome no palette knows"]


def _css_vars(css: str) -> dict[str, str]:
    return dict(re.findall(r"(--[\w-]+):\s*(#[0-9A-Fa-f]{3,6})", css))


def _text_colors(css: str) -> list[tuple[str, str, str | None]]:
    """Return (selector, text colour, own background or None) of every rule setting one."""
    found = []
    names = _css_vars(css)
    for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        color = re.search(r"(?<![-\w])color:\s*(#[0-9A-Fa-f]{3,6}|var\((--[\w-]+)\))", body)
        if not color:
            continue
        background = re.search(r"background(?:-color)?:\s*(#[0-9A-Fa-f]{3,6})", body)
        value = names[color[2]] if color[2] else color[1]
        found.append((selector.strip(), value, background[1] if background else None))
    return found


def _badges(page: str, tag: str) -> list[tuple[str, str, str]]:
    """Return (label, background, text colour) of each badge ``<span class="{tag}">``."""
    out = []
    for style, text in re.findall(rf'<span class="{tag}" style="([^"]*)">(.*?)</span>', page):
        background = re.search(r"background:\s*(#[0-9A-Fa-f]{3,6})", style)[1]
        color = re.search(r"(?<![-\w])color:\s*(#[0-9A-Fa-f]{3,6})", style)
        out.append((text, background, color[1] if color else None))
    return out


def test_every_report_badge_reads_at_aa_contrast() -> None:
    impacts = fx.impacts().iloc[[0] * len(OUTCOMES)].reset_index(drop=True)
    impacts["impact_id"] = [f"I-{k}" for k in range(len(OUTCOMES))]
    impacts["outcome"] = OUTCOMES
    page = render_report(None, impacts, figure=False)
    ink = _css_vars(page)["--ink"]  # the text colour a badge inherits without its own
    badges = _badges(page, "outcome")
    assert len(badges) >= len(OUTCOMES)
    weak = [(t, b, c or ink) for t, b, c in badges if contrast_ratio(b, c or ink) < AA]
    assert not weak, f"badges under {AA}:1: {weak}"


@pytest.mark.parametrize("outcome", OUTCOMES)
def test_every_popup_badge_reads_at_aa_contrast(outcome) -> None:
    page = impact_popup_html({"outcome": outcome}, impact_id="I-1")
    ((label, background, color),) = _badges(page, "wg-outcome")
    color = color or "#333333"  # Leaflet's popup text colour
    assert contrast_ratio(background, color) >= AA, (label, background, color)


@pytest.mark.parametrize(
    ("sheet", "backgrounds"),
    [
        pytest.param("templates/report.html.j2", ("#ffffff", "--band"), id="report"),
        pytest.param("assets/tep_map.css", ("#ffffff",), id="map"),
    ],
)
def test_every_stylesheet_text_colour_reads_at_aa_contrast(sheet, backgrounds) -> None:
    css = (MAPPING / sheet).read_text("utf-8")
    names = _css_vars(css)
    found = _text_colors(css)
    assert found, f"no text colour found in {sheet}"
    weak = []
    for selector, color, own in found:
        for background in [own] if own else [names.get(b, b) for b in backgrounds]:
            if contrast_ratio(color, background) < AA:
                weak.append((selector, color, background))
    assert not weak, f"text under {AA}:1 in {sheet}: {weak}"


def test_the_darkest_outcome_colour_gets_light_text() -> None:
    from wetland_gis.mapping.symbology import outcome_text_color

    assert outcome_text_color(ImpactOutcome.EXEMPT_CONDITIONAL.value) == "#ffffff"
