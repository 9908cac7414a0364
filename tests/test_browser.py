"""The saved map and report in a real browser (Debian chromium), with the network blocked.

Skipped with a message when /usr/bin/chromium or Playwright is missing, except on CI
(env ``CI=true``), where a missing browser is a failure. Screenshots go to
``test-artifacts/`` at the repository root.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import map_fixtures as fx
import pytest

from wetland_gis.mapping import save_map, tep_map, write_report

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
VIEWPORT = {"width": 1280, "height": 860}


def _require_browser() -> Any:
    """Return playwright's ``sync_playwright``, or skip (fail on CI) saying what is missing."""
    missing = []
    if not CHROMIUM.exists():
        missing.append(f"{CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
        missing.append("the playwright Python package (pip install playwright)")
    if missing:
        message = "browser tests need " + " and ".join(missing)
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{message}; CI=true, so this is an error, not a skip", pytrace=False)
        pytest.skip(message)
    return sync_playwright


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_playwright = _require_browser()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("tep")
    m = tep_map(
        fx.impacts(),
        zones=fx.zones(),
        sites=fx.sites(),
        banks=fx.banks(),
        allocation=fx.allocation(),
        context=fx.context(),
        title="TEP review map: Gull Lake road",
    )
    map_path = save_map(m, folder / "tep_map.html")
    report_path = write_report(
        folder / "tep_report.html",
        fx.summary(),
        fx.impacts(),
        decisions=fx.decisions(),
        ranking=fx.ranking(),
        allocation=fx.allocation(),
        unmet=fx.unmet(),
        manifest=fx.manifest(),
        map_html=map_path.read_text(encoding="utf-8"),
    )
    return {"map": map_path, "report": report_path}


class _Watch:
    """What a page did: console errors, script errors, dialogs, blocked requests."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.blocked: list[str] = []


@pytest.fixture
def page(browser: Any) -> Iterator[tuple[Any, _Watch]]:
    context = browser.new_context(viewport=VIEWPORT)
    pg = context.new_page()
    watch = _Watch()

    def route(r: Any) -> None:
        url = r.request.url
        if url.startswith(("file://", "data:")):
            r.continue_()
        else:
            watch.blocked.append(url)
            r.abort()

    def on_dialog(d: Any) -> None:
        watch.dialogs.append(d.message)
        d.dismiss()

    pg.route("**/*", route)
    pg.on("console", lambda msg: msg.type == "error" and watch.errors.append(msg.text))
    pg.on("pageerror", lambda exc: watch.errors.append(str(exc)))
    pg.on("dialog", on_dialog)
    yield pg, watch
    context.close()


def _open_map(pg: Any, path: Path) -> None:
    pg.goto(path.as_uri())
    pg.wait_for_selector('path[data-wg-layer="impacts"]', state="attached", timeout=15_000)


def test_map_draws_offline_with_no_error(page: tuple[Any, _Watch], files: dict[str, Path]) -> None:
    pg, watch = page
    _open_map(pg, files["map"])
    assert pg.evaluate('typeof L !== "undefined"')
    assert pg.evaluate("typeof L.Control.Measure") == "function"
    assert pg.evaluate("typeof L.Control.FullScreen") == "function"
    assert pg.locator('path[data-wg-layer="impacts"]').count() == len(fx.OUTCOMES)
    assert pg.locator('path[data-wg-layer="zones"]').count() == 2
    assert pg.locator('path[data-wg-layer="sites"]').count() == 2
    assert pg.locator(".leaflet-control-scale").count() == 1
    assert pg.locator(".leaflet-control-layers").count() == 1
    assert pg.locator(".wg-legend").inner_text().count("(1)") >= 4
    assert watch.errors == [] and watch.blocked == [] and watch.dialogs == []
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / "tep_map.png"))


def test_impacts_are_filled_with_their_outcome_colour(
    page: tuple[Any, _Watch], files: dict[str, Path]
) -> None:
    from wetland_gis.mapping.symbology import OUTCOME_COLORS

    pg, _ = page
    _open_map(pg, files["map"])
    for impact_id, outcome in fx.OUTCOMES.items():
        selector = f'path[data-wg-layer="impacts"][data-wg-id="{impact_id}"]'
        fill = pg.locator(selector).get_attribute("fill")
        assert fill.lower() == OUTCOME_COLORS[outcome].lower()


def test_click_on_an_impact_opens_its_decision_chain(
    page: tuple[Any, _Watch], files: dict[str, Path]
) -> None:
    pg, watch = page
    _open_map(pg, files["map"])
    pg.locator('path[data-wg-layer="impacts"][data-wg-id="I-2"]').click()
    popup = pg.locator(".leaflet-popup-content")
    popup.wait_for(timeout=5_000)
    text = popup.inner_text()
    assert "Impact I-2" in text and "Replacement required" in text
    assert fx.RATIO_CITATION in text
    assert "Minn. Stat. § 103G.222, subd. 3(a)" in text
    pg.wait_for_timeout(600)  # let the map pan the popup into view
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / "tep_map_popup.png"))
    assert watch.errors == [] and watch.dialogs == []


def test_script_in_an_attribute_shows_as_text_and_never_runs(
    page: tuple[Any, _Watch], files: dict[str, Path]
) -> None:
    pg, watch = page
    _open_map(pg, files["map"])
    pg.locator('path[data-wg-layer="impacts"][data-wg-id="I-5"]').click()
    popup = pg.locator(".leaflet-popup-content")
    popup.wait_for(timeout=5_000)
    assert fx.XSS in popup.inner_text()  # visible, as text
    assert popup.locator("script").count() == 0
    pg.locator(".leaflet-popup-close-button").click()
    pg.locator(".leaflet-popup").wait_for(state="detached", timeout=5_000)
    pg.locator('path[data-wg-layer="impacts"][data-wg-id="I-2"]').click()
    pg.locator(".leaflet-popup-content h4", has_text="Impact I-2").wait_for(timeout=5_000)
    pg.locator(".leaflet-popup-content details").evaluate("d => { d.open = true; }")
    assert fx.XSS_IMG in pg.locator(".leaflet-popup-content").inner_text()
    assert pg.locator(".leaflet-popup-content img").count() == 0
    pg.wait_for_timeout(300)
    assert watch.dialogs == []
    assert watch.errors == []


def test_report_renders_with_the_embedded_map(
    page: tuple[Any, _Watch], files: dict[str, Path]
) -> None:
    pg, watch = page
    pg.goto(files["report"].as_uri())
    headings = pg.locator("h2").all_inner_texts()
    assert headings == [
        "Project summary",
        "Impacts",
        "Decisions",
        "What a person must still verify",
        "Replacement siting",
        "Map",
        "Run manifest",
    ]
    assert fx.XSS in pg.locator("#summary").inner_text()
    frame = pg.frame_locator("iframe.map")
    frame.locator('path[data-wg-layer="impacts"]').first.wait_for(state="attached", timeout=15_000)
    assert frame.locator('path[data-wg-layer="impacts"]').count() == len(fx.OUTCOMES)
    pg.wait_for_timeout(300)
    assert watch.errors == [] and watch.blocked == [] and watch.dialogs == []
    ARTIFACTS.mkdir(exist_ok=True)
    # an iframe off screen is not painted in a full-page capture: shoot it on its own too
    pg.locator("iframe.map").scroll_into_view_if_needed()
    pg.wait_for_timeout(500)
    pg.locator("iframe.map").screenshot(path=str(ARTIFACTS / "tep_report_map.png"))
    pg.screenshot(path=str(ARTIFACTS / "tep_report.png"), full_page=True)
    pg.emulate_media(media="print")
    pg.screenshot(path=str(ARTIFACTS / "tep_report_print.png"), full_page=True)


def test_each_impact_also_has_a_clickable_marker(
    page: tuple[Any, _Watch], files: dict[str, Path]
) -> None:
    pg, watch = page
    _open_map(pg, files["map"])
    markers = pg.locator('path[data-wg-layer="impact_markers"]')
    assert markers.count() == pg.locator('path[data-wg-layer="impacts"]').count()
    pg.locator('path[data-wg-layer="impact_markers"][data-wg-id="I-2"]').click(force=True)
    popup = pg.locator(".leaflet-popup-content")
    popup.wait_for(timeout=5_000)
    assert "Impact I-2" in popup.inner_text()
    assert watch.errors == []
