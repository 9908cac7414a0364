"""The HTML report on a phone (Chromium at 390 x 844): no page-level sideways scroll.

A wide table scrolls inside its own box. Skipped with a message when /usr/bin/chromium or
Playwright is missing, except on CI (``CI=true``), where a missing browser is a failure.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import map_fixtures as fx
import pytest
from test_browser import chromium_page, keep_offline

from wetland_gis.mapping import write_report

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def _phone_widths(path: Path) -> dict[str, object]:
    with chromium_page(PHONE) as page:
        keep_offline(page, [])
        page.goto(path.as_uri())
        out = page.evaluate(
            """() => ({
              page: document.documentElement.scrollWidth,
              tables: Array.from(document.querySelectorAll('table')).map(t => ({
                right: t.getBoundingClientRect().right,
                scrolls: t.scrollWidth > t.clientWidth,
                overflow: getComputedStyle(t).overflowX,
              })),
            })"""
        )
    return out


def _check(widths: dict) -> None:
    assert widths["page"] <= PHONE["width"], "the page scrolls sideways on a phone"
    for table in widths["tables"]:
        assert table["right"] <= PHONE["width"] + 0.5, "a table sticks out of the page"
        if table["scrolls"]:
            assert table["overflow"] == "auto", "a wide table scrolls in its own box"


def test_fixture_report_fits_a_phone(tmp_path: Path) -> None:
    report = write_report(tmp_path / "r.html", fx.summary(), fx.impacts(), **fx.report_tables())
    widths = _phone_widths(report)
    _check(widths)
    assert widths["tables"], "the fixture report has its tables"
    assert widths["page"] <= PHONE["width"]


@pytest.mark.pdf
@pytest.mark.slow
def test_sample_report_fits_a_phone(demo_run: Any) -> None:
    """The Wright sample (its plan and impacts tables were 943 px wide)."""
    # the demo's report of the Wright sample (tests/session_fixtures.py)
    report = demo_run.projects["wright_metro"]["report"]
    widths = _phone_widths(report)
    _check(widths)
    assert any(t["scrolls"] for t in widths["tables"]), "the wide tables scroll in their box"


@pytest.mark.pdf
@pytest.mark.slow
def test_open_legend_hides_no_label_on_the_desktop(demo_run: Any) -> None:
    """Wright: the long label of bank 1202-S ran under the open legend (1280 x 860)."""
    # the demo's map of the Wright sample, with its siting (tests/session_fixtures.py)
    path = demo_run.projects["wright_metro"]["map"]
    with chromium_page() as page:
        page.goto(path.as_uri())
        page.wait_for_selector(".wg-legend-box", state="visible", timeout=15_000)
        page.wait_for_timeout(500)
        found = page.evaluate(
            """() => {
              const lb = document.querySelector('.wg-legend-box').getBoundingClientRect();
              return Array.from(document.querySelectorAll('.leaflet-tooltip-pane .wg-label'))
                .map(t => [t.innerText, t.getBoundingClientRect()])
                .map(([text, r]) => [text, r.right > lb.left && r.left < lb.right
                                           && r.bottom > lb.top && r.top < lb.bottom]);
            }"""
        )
        collapsed = page.evaluate(
            "document.querySelector('.wg-legend-box').classList.contains('wg-collapsed')"
        )
    assert not collapsed, "the legend is open on the desktop"
    assert any("1202-S" in text for text, _ in found), "the bank is labelled"
    assert [text for text, hidden in found if hidden] == []
