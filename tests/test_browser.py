"""The saved map and report in a real browser (Debian chromium), with the network blocked.

Skipped with a message when /usr/bin/chromium or Playwright is missing, except on CI
(env ``CI=true``), where a missing browser is a failure. Screenshots go to
``test-artifacts/`` at the repository root.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
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
    """Return playwright's ``sync_playwright``, or skip saying what is missing (fails on CI)."""
    missing = []
    if not CHROMIUM.exists():
        missing.append(f"{CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
        missing.append("the playwright Python package (pip install playwright)")
    if missing:
        pytest.skip("browser tests need " + " and ".join(missing))
    return sync_playwright


def keep_offline(page: Any, blocked: list[str]) -> None:
    """Let ``page`` load ``file://`` and ``data:`` URLs only; abort others, noted in ``blocked``."""

    def route(r: Any) -> None:
        url = r.request.url
        if url.startswith(("file://", "data:")):
            r.continue_()
        else:
            blocked.append(url)
            r.abort()

    page.route("**/*", route)


@contextmanager
def chromium_page(viewport: dict[str, int] = VIEWPORT) -> Iterator[Any]:
    """Yield a new page of a Chromium of its own, closed after (skips without one)."""
    sync_playwright = _require_browser()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser.new_page(viewport=viewport)
        browser.close()


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
    m = tep_map(fx.impacts(), **fx.map_layers(), title="TEP review map: Gull Lake road")
    map_path = save_map(m, folder / "tep_map.html")
    report_path = write_report(
        folder / "tep_report.html",
        fx.summary(),
        fx.impacts(),
        **fx.report_tables(),
        map_html=map_path,
    )
    point_map = save_map(
        tep_map(_point_impacts(), title="Point impacts"), folder / "points" / "point_map.html"
    )
    return {"map": map_path, "report": report_path, "points": point_map}


def _point_impacts():
    """The drawn impacts as points: Leaflet would draw them with its PNG marker."""
    impacts = fx.impacts().dropna(subset=["geometry"]).copy()
    return impacts.set_geometry(impacts.geometry.centroid)


class _Watch:
    """What a page did: console errors, script errors, dialogs, blocked requests."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.blocked: list[str] = []
        self.requests: list[str] = []


@pytest.fixture
def page(browser: Any) -> Iterator[tuple[Any, _Watch]]:
    context = browser.new_context(viewport=VIEWPORT)
    pg = context.new_page()
    watch = _Watch()

    def on_dialog(d: Any) -> None:
        watch.dialogs.append(d.message)
        d.dismiss()

    keep_offline(pg, watch.blocked)
    pg.on("request", lambda req: watch.requests.append(req.url))
    pg.on("console", lambda msg: msg.type == "error" and watch.errors.append(msg.text))
    pg.on("pageerror", lambda exc: watch.errors.append(str(exc)))
    pg.on("dialog", on_dialog)
    yield pg, watch
    context.close()


def _open_map(pg: Any, path: Path) -> None:
    pg.goto(path.as_uri())
    pg.wait_for_selector('path[data-wg-layer="impacts"]', state="attached", timeout=15_000)


@pytest.fixture
def map_page(page: tuple[Any, _Watch], files: dict[str, Path]) -> tuple[Any, _Watch]:
    """The page with the fixture's map open."""
    _open_map(page[0], files["map"])
    return page


def _open_popup(pg: Any, path: Path, impact_id: str) -> Any:
    """Open the map at ``path``, click impact ``impact_id`` and return its popup's content."""
    _open_map(pg, path)
    pg.locator(f'path[data-wg-layer="impacts"][data-wg-id="{impact_id}"]').click()
    popup = pg.locator(".leaflet-popup-content")
    popup.wait_for(timeout=5_000)
    return popup


def test_map_draws_offline_with_no_error(map_page: tuple[Any, _Watch]) -> None:
    pg, watch = map_page
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


def test_impacts_are_filled_with_their_outcome_colour(map_page: tuple[Any, _Watch]) -> None:
    from wetland_gis.mapping.symbology import OUTCOME_COLORS

    pg, _ = map_page
    for impact_id, outcome in fx.OUTCOMES.items():
        selector = f'path[data-wg-layer="impacts"][data-wg-id="{impact_id}"]'
        fill = pg.locator(selector).get_attribute("fill")
        assert fill.lower() == OUTCOME_COLORS[outcome].lower()


def test_click_on_an_impact_opens_its_decision_chain(
    page: tuple[Any, _Watch], files: dict[str, Path]
) -> None:
    pg, watch = page
    popup = _open_popup(pg, files["map"], "I-2")
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
    popup = _open_popup(pg, files["map"], "I-5")
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
    from wetland_gis.mapping.report import SECTIONS

    pg, watch = page
    pg.goto(files["report"].as_uri())
    headings = pg.locator("h2").all_inner_texts()
    assert headings == [h for _, h in SECTIONS]
    assert "Gull Lake road" in pg.locator("#answer").inner_text()
    frame = pg.frame_locator("iframe.map")
    frame.locator('path[data-wg-layer="impacts"]').first.wait_for(state="attached", timeout=15_000)
    assert frame.locator('path[data-wg-layer="impacts"]').count() == len(fx.OUTCOMES)
    # the map is also linked by its path relative to the report
    assert pg.locator("a.map-link").get_attribute("href") == "tep_map.html"
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


def test_report_citation_refs_link_to_the_citation_list(
    page: tuple[Any, _Watch], files: dict[str, Path]
) -> None:
    pg, _ = page
    pg.goto(files["report"].as_uri())
    ref = pg.locator("#decisions sup.cite a").first
    target = ref.get_attribute("href")
    assert target.startswith("#cite-")
    assert pg.locator(f"#citations li{target}").count() == 1


def test_map_requests_no_file_of_any_kind(page: tuple[Any, _Watch], files: dict[str, Path]) -> None:
    pg, watch = page
    for name in ("map", "points"):
        watch.requests.clear()
        pg.goto(files[name].as_uri())
        pg.wait_for_selector(
            'path[data-wg-layer="impact_markers"]', state="attached", timeout=15_000
        )
        pg.wait_for_timeout(500)
        assert watch.requests == [files[name].as_uri()], name
    # point impacts are circle markers, never Leaflet's PNG marker (a broken image offline)
    assert pg.locator("img.leaflet-marker-icon").count() == 0
    assert pg.locator('path[data-wg-layer="impacts"]').count() == len(fx.OUTCOMES)
    assert watch.errors == [] and watch.blocked == []


def test_the_page_has_a_title(map_page: tuple[Any, _Watch]) -> None:
    pg, _ = map_page
    assert pg.title() == "TEP review map: Gull Lake road"


def test_impact_ids_are_permanent_labels_at_project_zoom(map_page: tuple[Any, _Watch]) -> None:
    pg, _ = map_page
    labels = pg.locator(".leaflet-tooltip.wg-id-label")
    assert sorted(labels.all_inner_texts()) == sorted(fx.OUTCOMES)
    assert all(labels.nth(i).is_visible() for i in range(labels.count()))
    # zoomed far out they give way (the map would be all labels)
    pg.evaluate(
        "() => { const m = Object.values(window).find(v => v instanceof L.Map);"
        " m.setZoom(m.getZoom() - 4, {animate: false}); }"
    )
    pg.wait_for_timeout(300)
    assert not labels.first.is_visible()


def _map_object(pg: Any) -> str:
    return "Object.values(window).find(v => v instanceof L.Map)"


def _view_covers(pg: Any, selector: str) -> bool:
    """Whether every element of ``selector`` lies inside the map container on screen."""
    return pg.evaluate(
        """(sel) => {
            const box = document.querySelector('.leaflet-container').getBoundingClientRect();
            return [...document.querySelectorAll(sel)].every(el => {
                const r = el.getBoundingClientRect();
                return r.left >= box.left && r.right <= box.right &&
                       r.top >= box.top && r.bottom <= box.bottom;
            });
        }""",
        selector,
    )


def test_opening_view_shows_impacts_and_allocated_options_and_zooms_to_all(
    map_page: tuple[Any, _Watch],
) -> None:
    pg, _ = map_page
    assert _view_covers(pg, 'path[data-wg-layer="impacts"]')
    assert _view_covers(pg, 'path[data-wg-layer="sites"][data-wg-id="S1"]')
    assert _view_covers(pg, 'path[data-wg-layer="banks"][data-wg-id="1234"]')
    assert not _view_covers(pg, 'path[data-wg-layer="banks"][data-wg-id="5678"]')
    pg.locator("button.wg-zoom-options").click()
    pg.wait_for_timeout(800)
    assert _view_covers(pg, 'path[data-wg-layer="banks"], path[data-wg-layer="sites"]')
    pg.locator("button.wg-zoom-project").click()
    pg.wait_for_timeout(800)
    assert not _view_covers(pg, 'path[data-wg-layer="banks"][data-wg-id="5678"]')


def test_phone_opens_fitted_with_the_legend_behind_a_button(
    browser: Any, files: dict[str, Path]
) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        _open_map(pg, files["map"])
        pg.wait_for_timeout(500)
        assert _view_covers(pg, 'path[data-wg-layer="impacts"]')
        assert pg.evaluate(f"{_map_object(pg)}.getZoom()") >= 13
        assert not pg.locator(".wg-legend").is_visible()
        button = pg.locator("button.wg-legend-toggle")
        assert button.is_visible() and button.get_attribute("aria-expanded") == "false"
        ARTIFACTS.mkdir(exist_ok=True)
        pg.screenshot(path=str(ARTIFACTS / "tep_map_phone.png"))
        button.click()
        assert pg.locator(".wg-legend").is_visible()
        assert "Impact location marker" in pg.locator(".wg-legend").inner_text()
        pg.screenshot(path=str(ARTIFACTS / "tep_map_phone_legend.png"))
        assert errors == []
    finally:
        context.close()


def test_each_impact_also_has_a_clickable_marker(map_page: tuple[Any, _Watch]) -> None:
    pg, watch = map_page
    markers = pg.locator('path[data-wg-layer="impact_markers"]')
    assert markers.count() == pg.locator('path[data-wg-layer="impacts"]').count()
    pg.locator('path[data-wg-layer="impact_markers"][data-wg-id="I-2"]').click(force=True)
    popup = pg.locator(".leaflet-popup-content")
    popup.wait_for(timeout=5_000)
    assert "Impact I-2" in popup.inner_text()
    assert watch.errors == []
