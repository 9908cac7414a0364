"""The water-use map in a real browser (Debian chromium): outcome colours, legend, title.

Skipped with a message when /usr/bin/chromium or Playwright is missing, except on CI
(``CI=true``), where a missing browser is a failure.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from test_browser import chromium_page, keep_offline

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def water_map(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    from wetland_gis.commands import run_water_use
    from wetland_gis.demo import WATER_USE_AQUIFER, WATER_USE_SAMPLE

    root = Path(__file__).resolve().parents[1]
    out = tmp_path_factory.mktemp("water") / "water_use.gpkg"
    result, _ = run_water_use(
        root / WATER_USE_SAMPLE, out, as_of="2026-06-01", aquifer=root / WATER_USE_AQUIFER
    )
    return out.with_name("water_use_map.html"), result


def test_water_use_map_fills_points_by_outcome_with_a_matching_legend(water_map) -> None:
    from wetland_gis.labels import label
    from wetland_gis.water_use.screening import MAP_TITLE, OUTCOME_COLORS

    path, result = water_map
    with chromium_page() as page:
        blocked: list[str] = []
        errors: list[str] = []
        keep_offline(page, blocked)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(path.as_uri())
        page.wait_for_selector("path.leaflet-interactive", state="attached", timeout=15_000)
        title = page.title()
        fills = page.eval_on_selector_all(
            "path.leaflet-interactive",
            "els => els.map(e => [e.getAttribute('fill'), e.getAttribute('fill-opacity')])",
        )
        legend = page.locator(".wg-legend li").all_inner_texts()
    assert title == MAP_TITLE
    points = result.points.dropna(subset=["geometry"])
    expected = Counter(OUTCOME_COLORS[o].lower() for o in points["outcome"].astype(str))
    drawn = Counter(f.lower() for f, _ in fills if f and f != "none")
    assert drawn == expected, "each point is filled with its outcome's colour"
    counts = points["outcome"].astype(str).value_counts()
    legend = [text.strip() for text in legend]
    assert sorted(legend) == sorted(f"{label(o)} ({n})" for o, n in counts.items())
    assert all(text[0].isupper() for text in legend)
    assert blocked == [] and errors == []
