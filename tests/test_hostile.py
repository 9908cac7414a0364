"""Hostile text in every input, through every command and the Python API (issue 19, part 1).

An applicant's shapefile may hold any text. Each value of the corpus in ``tests/hostile.py``
(template syntax that would create the folder :data:`hostile.CANARY` in the working
directory, markup, CSV formulas, XML entities, very long text, control characters, bidi
marks, NUL) is written into the ids and attributes of a copy of the Crow Wing sample, of the
candidate sites, of the bank listing and of the water-use points; then ``assess``, ``site``,
``map``, ``report`` (HTML and ``--pdf``), ``water-use`` and ``screen`` run on them, and the
Python API's ``Assessment.explore()`` and ``Assessment.report()``. Nothing may run (the
canary folder is never made, no template expression is evaluated), every output must stay
valid (GeoPackage, HTML, CSV, JSON, QML as XML) and the values must read back as written.
"""

from __future__ import annotations

import csv
import html
import json
import os
import re
import sqlite3
import warnings
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import geopandas as gpd
import hostile
import pandas as pd
import pyogrio
import pytest
from shapely import affinity

import wetland_gis as wg
from wetland_gis.cli import main
from wetland_gis.errors import WetlandGISWarning
from wetland_gis.io.csv_cells import neutralise, restore, restore_frame, write_csv
from wetland_gis.mapping._format import inert_json

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "sample_data"
CONTEXT = DATA / "synthetic_context.gpkg"
CROW_WING = DATA / "projects" / "crow_wing"
PROJECT = hostile.TEMPLATE_PAYLOADS[0]
"""The project name of the hostile impacts (it reaches titles, summaries and the report)."""


# --------------------------------------------------------------------------- inputs


def _hostile_impacts() -> gpd.GeoDataFrame:
    """The Crow Wing impacts, one copy per hostile value, moved apart, the value as id."""
    base = gpd.read_file(CROW_WING / "impacts.gpkg")
    rows = []
    values = hostile.ALL
    for i, value in enumerate(values):
        row = base.iloc[i % len(base)].copy()
        row["impact_id"] = value
        row["project"] = PROJECT
        row["notes"] = values[-1 - i]  # a free column kept through to every output
        row["geometry"] = affinity.translate(
            row.geometry, xoff=(i // 6) * 150.0, yoff=(i % 6) * 150.0
        )
        rows.append(row)
    return gpd.GeoDataFrame(rows, crs=base.crs).reset_index(drop=True)


def _hostile_sites() -> gpd.GeoDataFrame:
    sites = gpd.read_file(CROW_WING / "candidate_sites.gpkg")
    sites["site_id"] = [hostile.SHORT[i] for i in range(len(sites))]
    return sites


def _hostile_banks() -> pd.DataFrame:
    banks = pd.read_csv(DATA / "synthetic_bank_credits.csv", dtype={"account": str})
    n = len(banks)
    banks["bank_name"] = [hostile.SHORT[-1 - i] for i in range(n)]
    banks["account"] = [
        hostile.CSV_PAYLOADS[i % len(hostile.CSV_PAYLOADS)] + f" {i}" for i in range(n)
    ]
    return banks


def _hostile_points() -> pd.DataFrame:
    points = pd.read_csv(DATA / "water_use" / "appropriations.csv")
    n = len(points)
    points["permit_id"] = [hostile.SHORT[i % len(hostile.SHORT)] + f" #{i}" for i in range(n)]
    points["entity"] = [hostile.SHORT[-1 - (i % len(hostile.SHORT))] for i in range(n)]
    return points


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Write the hostile inputs and run every command on them, inside their folder."""
    folder = tmp_path_factory.mktemp("hostile")
    before = Path.cwd()
    os.chdir(folder)  # the payloads would make the canary folder here
    try:
        _hostile_impacts().to_file(folder / "impacts.gpkg")
        _hostile_sites().to_file(folder / "sites.gpkg")
        _hostile_banks().to_csv(folder / "banks.csv", index=False, lineterminator="\r\n")
        _hostile_points().to_csv(folder / "points.csv", index=False, lineterminator="\r\n")
        commands = {
            "assess": [
                "assess", folder / "impacts.gpkg", "--context", CONTEXT,
                "--out", folder / "assessed.gpkg", "--as-of", "2024-05-01", "--quiet",
            ],
            "site": [
                "site", folder / "assessed.gpkg", "--sites", folder / "sites.gpkg",
                "--banks", folder / "banks.csv", "--context", CONTEXT,
                "--out-dir", folder / "siting",
            ],
            "map": [
                "map", folder / "assessed.gpkg", "--siting", folder / "siting",
                "--context", CONTEXT, "--out", folder / "map.html",
            ],
            "report": [
                "report", folder / "assessed.gpkg", "--siting", folder / "siting",
                "--map", folder / "map.html", "--out", folder / "report.html",
                "--pdf", folder / "report.pdf",
            ],
            "water-use": [
                "water-use", folder / "points.csv", "--out", folder / "water.gpkg",
                "--as-of", "2024-05-01",
            ],
            "screen": [
                "screen", folder / "impacts.gpkg", "--context", CONTEXT,
                "--out", folder / "screened.parquet", "--as-of", "2024-05-01",
            ],
            # issue 35: the hostile layer as construction limits and as the wetlands
            "impacts": [
                "impacts", folder / "impacts.gpkg", "--wetlands", folder / "impacts.gpkg",
                "--out", folder / "cut.gpkg", "--quiet",
            ],
            "compare": [
                "compare", folder / "impacts.gpkg", "no-build", "--name", PROJECT,
                "--name", "no-build", "--context", CONTEXT, "--as-of", "2024-05-01",
                "--out", folder / "compare",
            ],
        }  # fmt: skip
        codes = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", WetlandGISWarning)
            for name, argv in commands.items():
                codes[name] = main([str(a) for a in argv])
                assert not Path(hostile.CANARY).exists(), f"`{name}` ran a template payload"
        yield {"folder": folder, "codes": codes}
    finally:
        os.chdir(before)


def _text_outputs(folder: Path) -> list[Path]:
    return [
        p
        for p in sorted(folder.rglob("*"))
        if p.suffix in {".html", ".csv", ".json"} and p.name not in {"banks.csv", "points.csv"}
    ]


# --------------------------------------------------------------------------- the canary


@pytest.mark.parametrize("large", [False, True], ids=["small_map", "large_map_clustered"])
def test_a_template_payload_in_a_map_element_is_never_run(tmp_path, monkeypatch, large) -> None:
    """The defect of issue 19: folium compiled a feature's JSON as a template."""
    from wetland_gis.mapping import save_map, tep_map

    monkeypatch.chdir(tmp_path)
    impacts = _hostile_impacts()
    impacts["outcome"] = "replacement_required"
    # large: above the threshold, the markers sit in a MarkerCluster (issue 21)
    m = tep_map(impacts, title=PROJECT, large_above=0 if large else len(impacts))
    page = save_map(m, tmp_path / "m.html").read_text("utf-8")
    assert ("L.markerClusterGroup(" in page) is large
    assert not (tmp_path / hostile.CANARY).exists()
    assert hostile.EVALUATED not in page
    assert re.search(r"\{\{|\{%|\{#", _scripts(page)) is None


@pytest.mark.slow
@pytest.mark.pdf
def test_every_command_succeeds_and_nothing_ran(run: dict[str, Any]) -> None:
    assert run["codes"] == dict.fromkeys(run["codes"], 0)
    assert not (run["folder"] / hostile.CANARY).exists()


@pytest.mark.slow
@pytest.mark.pdf
def test_no_output_holds_an_evaluated_template(run: dict[str, Any]) -> None:
    outputs = _text_outputs(run["folder"])
    assert {p.suffix for p in outputs} == {".html", ".csv", ".json"}
    for path in outputs:
        assert hostile.EVALUATED not in path.read_text("utf-8"), path.name


# --------------------------------------------------------------------------- valid outputs


class _Strict(HTMLParser):
    """Collects the text and the tags of a page (the parser never executes anything)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.tags: list[str] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self._in_script = tag == "script"
        for name, _ in attrs:
            assert not name.startswith("on"), f"an event handler attribute {name!r}"

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        (self.scripts if self._in_script else self.text).append(data)


def _parse(page: str) -> _Strict:
    parser = _Strict()
    parser.feed(page)
    parser.close()
    return parser


def _scripts(page: str) -> str:
    return "\n".join(_parse(page).scripts)


@pytest.mark.slow
@pytest.mark.pdf
def test_the_report_shows_every_id_as_text(run: dict[str, Any]) -> None:
    page = (run["folder"] / "report.html").read_text("utf-8")
    parsed = _parse(page)
    text = "".join(parsed.text)
    for value in hostile.SHORT:
        shown = value.replace("\r\n", "\n").replace("\r", "\n")
        assert shown.strip() in text.replace("\r", "\n"), value
    # the report's own tags only: no script or image came from a value
    assert parsed.tags.count("iframe") <= 1  # the embedded map


@pytest.mark.slow
@pytest.mark.pdf
def test_the_pdf_is_a_pdf(run: dict[str, Any]) -> None:
    pdf = (run["folder"] / "report.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-") and b"%%EOF" in pdf[-64:]


@pytest.mark.slow
@pytest.mark.pdf
def test_the_map_data_reads_back_as_the_escaped_ids(run: dict[str, Any]) -> None:
    page = (run["folder"] / "map.html").read_text("utf-8")
    scripts = _scripts(page)
    assert re.search(r"\{\{|\{%|\{#", scripts) is None
    # every id is in the page's JSON, HTML-escaped, and reads back exactly
    strings = set()
    for literal in re.findall(r'"(?:[^"\\]|\\.)*"', scripts):
        try:
            strings.add(json.loads(literal))
        except ValueError:  # a string of the inlined Leaflet, not JSON
            continue
    for value in hostile.SHORT:
        assert html.escape(value) in strings, value


@pytest.mark.slow
@pytest.mark.pdf
def test_the_geopackages_open_and_keep_the_values(run: dict[str, Any]) -> None:
    folder = run["folder"]
    impacts = pyogrio.read_dataframe(folder / "assessed.gpkg", layer="impacts")
    assert set(impacts["impact_id"]) == set(hostile.ALL)
    assert set(impacts["project"]) == {PROJECT}
    for path in (
        folder / "assessed.gpkg",
        folder / "siting" / "siting.gpkg",
        folder / "water.gpkg",
    ):
        with sqlite3.connect(path) as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            names = [r[0] for r in db.execute("SELECT table_name FROM gpkg_contents")]
            assert all(n.isidentifier() for n in names), names
            styles = []
            if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'layer_styles'").fetchone():
                styles = db.execute("SELECT styleQML, styleSLD FROM layer_styles").fetchall()
        if path.name == "assessed.gpkg":
            assert styles, "the impacts layer has its QGIS style"
        for qml, sld in styles:
            for doc in (qml, sld):
                if doc:
                    ET.fromstring(doc)  # well-formed XML


@pytest.mark.slow
@pytest.mark.pdf
def test_the_csvs_parse_and_no_cell_reads_as_a_formula(run: dict[str, Any]) -> None:
    csvs = [p for p in _text_outputs(run["folder"]) if p.suffix == ".csv"]
    names = {p.name for p in csvs}
    assert {"assessed_summary.csv", "assessed_projects.csv", "ranking.csv"} <= names
    assert {"allocation.csv", "water_fees.csv"} <= names
    seen_quoted = 0
    for path in csvs:
        with path.open(newline="", encoding="utf-8") as handle:
            rows = list(csv.reader(handle))
        width = len(rows[0])
        for row in rows:
            assert len(row) == width, f"{path.name}: a row was split"
            for cell in row:
                if cell[:1] in {"=", "+", "-", "@", "\t", "\r"}:
                    float(cell)  # only a plain number may begin so
                seen_quoted += cell.startswith("'=") or cell.startswith("'@")
    assert seen_quoted > 0


@pytest.mark.slow
@pytest.mark.pdf
def test_a_csv_id_reads_back_neutralised_and_readable(run: dict[str, Any]) -> None:
    path = run["folder"] / "siting" / "allocation.csv"
    with path.open(newline="", encoding="utf-8") as handle:
        ids = {row["impact_id"] for row in csv.DictReader(handle)}
    for value in hostile.CSV_PAYLOADS:
        assert "'" + value in ids, value  # shown as the text, behind the quote
    # and the package reads its own CSV back to the values as written
    assert set(restore_frame(pd.read_csv(path))["impact_id"]) == set(hostile.ALL)


@pytest.mark.slow
@pytest.mark.pdf
def test_the_manifests_are_json_with_the_values(run: dict[str, Any]) -> None:
    for path in run["folder"].rglob("*manifest.json"):
        json.loads(path.read_text("utf-8"))
    decisions = json.loads((run["folder"] / "assessed_decisions.json").read_text("utf-8"))
    assert {d["impact_id"] for d in decisions} - {""} == set(hostile.ALL)


@pytest.mark.slow
@pytest.mark.pdf
def test_the_screened_inventory_keeps_the_values(run: dict[str, Any]) -> None:
    screened = gpd.read_parquet(run["folder"] / "screened.parquet")
    assert set(screened["impact_id"]) == set(hostile.ALL)


# --------------------------------------------------------------------------- Python API


@pytest.fixture(scope="module")
def assessment() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WetlandGISWarning)
        return wg.assess(_hostile_impacts(), context=CONTEXT, as_of="2024-05-01")


def test_explore_and_report_run_nothing(assessment: Any, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    page = assessment.explore()._repr_html_()  # what Jupyter shows
    assessment.report(tmp_path / "r.html")  # the PDF of the same page: see `report --pdf`
    assert not (tmp_path / hostile.CANARY).exists()
    assert hostile.EVALUATED not in page
    assert hostile.EVALUATED not in (tmp_path / "r.html").read_text("utf-8")


def test_a_nul_in_an_id_is_replaced_and_said_never_cut_silently(tmp_path, monkeypatch, capsys):
    """GeoParquet holds a NUL; GDAL would cut the text there: U+FFFD and a warning instead."""
    monkeypatch.chdir(tmp_path)
    impacts = _hostile_impacts().iloc[:2].copy()
    impacts.loc[0, "impact_id"] = hostile.NUL
    impacts.to_parquet(tmp_path / "nul.parquet")
    code = main(
        [
            "assess", str(tmp_path / "nul.parquet"), "--context", str(CONTEXT),
            "--out", str(tmp_path / "a.gpkg"), "--as-of", "2024-05-01", "--quiet",
        ]
    )  # fmt: skip
    assert code == 0
    ids = pyogrio.read_dataframe(tmp_path / "a.gpkg", layer="impacts")["impact_id"]
    assert hostile.NUL.replace("\x00", "\ufffd") in set(ids)
    err = capsys.readouterr().err
    assert "layer 'impacts': this format cannot hold a NUL" in err and "impact_id (1 rows)" in err
    assert ".wetland-gis-tmp" not in err  # the file's name, not the staging folder


# --------------------------------------------------------------------------- unit rules


@pytest.mark.parametrize("value", hostile.ALL + (hostile.NUL,), ids=range(len(hostile.ALL) + 1))
def test_inert_json_has_no_template_delimiter_and_reads_back(value: str) -> None:
    text = inert_json({"wg_popup": value, value: [value, {"k": value}]})
    assert re.search(r"\{\{|\{%|\{#|%\}|#\}", text) is None
    assert json.loads(text) == {"wg_popup": value, value: [value, {"k": value}]}


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("=1+1", "'=1+1"),
        ("+1+1", "'+1+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(1,1)", "'@SUM(1,1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("'=1", "''=1"),  # a quote already there: one more, taken away on reading
        ("-5", "-5"),  # a plain number is a number, not a formula
        ("-1.5e3", "-1.5e3"),
        ("W-1", "W-1"),
        ("'quoted", "'quoted"),
        (-5, -5),
        (None, None),
    ],
    ids=lambda v: repr(v),
)
def test_owasp_csv_rule(cell: Any, written: Any) -> None:
    assert neutralise(cell) == written
    assert restore(neutralise(cell)) == cell


def test_a_csv_keeps_numbers_numbers_and_quotes_formulas(tmp_path) -> None:
    frame = pd.DataFrame(
        {"=id": ['=HYPERLINK("x")', "-5", "ok"], "credits": [-1.25, 0.0, 3.5], "n": [-2, 0, 1]}
    )
    path = write_csv(frame, tmp_path / "t.csv")
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["'=id", "credits", "n"]
    assert rows[1] == ['\'=HYPERLINK("x")', "-1.25", "-2"]
    assert rows[2] == ["-5", "0.0", "0"]
    back = restore_frame(pd.read_csv(path))
    assert list(back.columns) == ["=id", "credits", "n"]
    assert back["credits"].tolist() == [-1.25, 0.0, 3.5]


# --------------------------------------------------------------------------- in Chromium

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

# each popup and tooltip as Leaflet shows it (its HTML parsed in a detached element, so an
# <img onerror> that escaped would fire), with the page's own text
_SHOWN_TEXT = """() => {
    const texts = [document.body.innerText];
    const show = (content) => {
        if (typeof content !== "string") { return; }
        const div = document.createElement("div");
        div.innerHTML = content;
        texts.push(div.textContent);
    };
    for (const name of Object.keys(window)) {
        const m = window[name];
        if (!name.startsWith("map_") || !m || typeof m.eachLayer !== "function") { continue; }
        m.eachLayer((layer) => {
            if (layer.getPopup && layer.getPopup()) { show(layer.getPopup().getContent()); }
            if (layer.getTooltip && layer.getTooltip()) { show(layer.getTooltip().getContent()); }
        });
    }
    return texts;
}"""


# open, as a click does, the popup of the impact whose escaped id is the argument
_OPEN_POPUP = """(wgId) => {
    for (const name of Object.keys(window)) {
        const m = window[name];
        if (!name.startsWith("map_") || !m || typeof m.eachLayer !== "function") { continue; }
        let done = false;
        m.eachLayer((layer) => {
            const p = layer.feature && layer.feature.properties;
            if (!done && p && p.wg_layer === "impacts" && p.wg_id === wgId) {
                layer.openPopup();
                done = true;
            }
        });
        if (done) { return true; }
    }
    return false;
}"""


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _visit(chromium: Any, path: Path) -> tuple[list[str], list[str], list[str], Any]:
    """Open ``path``; return the dialogs, the requests that left, the texts, and the page."""
    context = chromium.new_context()
    page = context.new_page()
    dialogs: list[str] = []
    left: list[str] = []

    def route(r: Any) -> None:
        if r.request.url.startswith(("file:", "data:", "about:")):
            r.continue_()
        else:
            left.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    page.wait_for_timeout(500)
    texts = [t.replace("\r\n", "\n").replace("\r", "\n") for t in page.evaluate(_SHOWN_TEXT)]
    return dialogs, left, texts, page


def _shown(value: str) -> str:
    """A value as a browser shows it in text (line ends normalised, ends trimmed)."""
    return value.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "\ufffd").strip()


@pytest.mark.slow
@pytest.mark.pdf
@pytest.mark.browser
@pytest.mark.parametrize("name", ["map.html", "report.html", "water_map.html"])
def test_in_chromium_no_dialog_no_request_and_the_ids_as_text(
    chromium: Any, run: dict[str, Any], name: str
) -> None:
    dialogs, left, texts, page = _visit(chromium, run["folder"] / name)
    try:
        assert dialogs == [] and left == []
        everything = "\n".join(texts)
        values = hostile.SHORT if name != "water_map.html" else hostile.SHORT[:8]
        for value in values:
            assert _shown(value).split("\n")[0] in everything, (name, value)
        assert hostile.EVALUATED not in everything
        if name == "map.html":  # the popup of the impact whose id is a template, opened
            opened = page.evaluate(_OPEN_POPUP, html.escape(hostile.MATH))
            assert opened
            popup = page.locator(".leaflet-popup-content")
            popup.wait_for(timeout=5_000)
            assert f"Impact {hostile.MATH}" in popup.inner_text()
            page.wait_for_timeout(300)
        assert dialogs == [] and left == []
    finally:
        page.context.close()


def test_a_map_file_name_that_reads_as_a_script_url_is_linked_as_a_file() -> None:
    import map_fixtures as fx

    from wetland_gis.mapping import render_report

    page = render_report(fx.summary(), fx.impacts(), map_href="javascript:alert(1)")
    assert 'href="javascript:' not in page
    assert 'href="./javascript%3Aalert%281%29"' in page
    assert "javascript:alert(1)" in page  # the name itself is still shown


@pytest.mark.parametrize("value", hostile.SHORT, ids=range(len(hostile.SHORT)))
def test_a_qgis_style_holds_any_text_as_xml_text(value: str) -> None:
    from wetland_gis.io.qgis_styles import Category, LayerStyle, qml, sld

    text = value.replace("\x00", "")
    xml_safe = "".join(c for c in text if c in "\t\n\r" or ord(c) >= 0x20)  # XML 1.0 chars
    style = LayerStyle("outcome", (Category(xml_safe, xml_safe, "#123456"),), "fill", "impact_id")
    for doc in (qml(style), sld(style, xml_safe or "impacts")):
        root = ET.fromstring(doc)
        as_text = xml_safe.replace("\r\n", "\n").replace("\r", "\n")  # XML's line ends
        assert any(e.get("label") == xml_safe or e.text == as_text for e in root.iter())


def test_a_value_in_a_message_cannot_drive_the_terminal(capsys) -> None:
    from wetland_gis.cli import run_guarded
    from wetland_gis.errors import InputError

    value = "C-1\x1b[2J\x1b]0;owned\x07 \u202etxt.exe"

    def fail() -> None:
        raise InputError(f"impacts.gpkg, row 1: impact_id {value} is repeated")

    assert run_guarded("assess", fail) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err and "\u202e" not in err
    assert "C-1\\x1b[2J\\x1b]0;owned\\x07 \\u202etxt.exe" in err
