"""The TEP map's own stylesheet, script and templates: where they live, how they reach the page."""

from __future__ import annotations

import ast
import hashlib
import html
import importlib
import json
import re
import tomllib
from importlib.resources import files
from pathlib import Path

import map_fixtures as fx
import pytest
from helpers import docstring_ids

from wetland_gis.mapping import save_map, tep_map

ROOT = Path(__file__).resolve().parents[1]
MAPPING = ROOT / "wetland_gis" / "mapping"
ASSETS = MAPPING / "assets"
# the module (the package exports the function of the same name)
tep_map_module = importlib.import_module("wetland_gis.mapping.tep_map")
OWN_FILES = (
    "assets/tep_map.css",
    "assets/tep_map.js",
    "templates/tep_decorations.js.j2",
    "templates/tep_legend.html.j2",
    "templates/tep_zone_popup.html.j2",
)


def _legend_in_page(page: str) -> str:
    """The legend HTML as the page's script receives it (the third decorate argument)."""
    start = page.index("wetlandGis.decorate(")
    decoder = json.JSONDecoder()
    rest = page[start:].split(",", 1)[1].lstrip()  # after the map variable
    _, end = decoder.raw_decode(rest)  # the marker icons
    legend, _ = decoder.raw_decode(rest[end:].lstrip(", \n"))
    return legend


# --------------------------------------------------------------------------- the module


def _string_constants(source: str) -> list[str]:
    """Every string literal of a module that is not a docstring."""
    tree = ast.parse(source)
    docstrings = docstring_ids(tree)
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


def test_tep_map_module_holds_no_css_javascript_or_html() -> None:
    source = (MAPPING / "tep_map.py").read_text(encoding="utf-8")
    for needle in ("<style", "<script", "function(", "function (", "innerHTML", "{%"):
        assert needle not in source, needle
    strings = _string_constants(source)
    assert strings  # the check reads the literals
    tag = re.compile(r"<(div|span|ul|ol|li|h\d|p|table|tr|td|th|br|details)\b", re.I)
    assert [s for s in strings if tag.search(s)] == []
    css_rule = re.compile(r"[.#][\w-]+\s*\{[^}]*:")
    assert [s for s in strings if css_rule.search(s)] == []


def test_own_files_are_not_html_in_disguise() -> None:
    css = (ASSETS / "tep_map.css").read_text(encoding="utf-8")
    js = (ASSETS / "tep_map.js").read_text(encoding="utf-8")
    assert ".wg-legend {" in css and "</style" not in css.lower()
    assert "var wetlandGis" in js and "</script" not in js.lower()


def test_a_script_end_tag_in_the_script_is_broken_up(monkeypatch) -> None:
    monkeypatch.setattr(tep_map_module, "_package_text", lambda *_: 'a = "</script>";')
    assert tep_map_module._page_script() == 'a = "<\\/script>";'


def test_each_own_file_is_read_once() -> None:
    tep_map_module._package_text.cache_clear()
    tep_map_module._decorations_template.cache_clear()
    tep_map(fx.impacts())
    tep_map(fx.impacts(), zones=fx.zones())
    info = tep_map_module._package_text.cache_info()
    # tep_map.css, tep_map.js and the decorations macro template (the legend and zone
    # popup templates are held by jinja2's own cache with auto_reload off)
    assert info.misses == 3 and info.hits >= 1
    assert tep_map_module._templates().auto_reload is False


# --------------------------------------------------------------------------- the page


def test_saved_page_holds_the_legend_rendered_from_the_template(tmp_path) -> None:
    m = tep_map(
        fx.impacts(), zones=fx.zones(), sites=fx.sites(), banks=fx.banks(), context=fx.context()
    )
    text = save_map(m, tmp_path / "map.html").read_text(encoding="utf-8")
    legend = _legend_in_page(text)
    assert legend == fx.decorations(m).legend_html
    template = (MAPPING / "templates" / "tep_legend.html.j2").read_text(encoding="utf-8")
    for phrase in (
        "Impact location marker (filled with the outcome colour), labelled with the impact id",
        "Labels: best siting tier, credits allocated",
        "No basemap (works offline).",
        "<h5>Boundaries and waters</h5>",
    ):
        assert phrase in template and phrase in legend
    assert "<h4>TEP review map</h4>" in legend
    assert "1 impact has no drawable geometry; see the report." in legend


def test_saved_page_inlines_the_stylesheet_and_script(tmp_path) -> None:
    text = save_map(tep_map(fx.impacts()), tmp_path / "map.html").read_text(encoding="utf-8")
    css = (ASSETS / "tep_map.css").read_text(encoding="utf-8")
    js = (ASSETS / "tep_map.js").read_text(encoding="utf-8")
    assert f"<style>{css}" in text and f"<script>{js}</script>" in text
    assert ".leaflet-container { background: #F4F1EA; }" in text  # basemap "none"
    assert "(wetlandGis.onEachFeature)(feature, layer);" in text
    # the script is defined in the header, before the layers that call it
    assert text.index("var wetlandGis") < text.index("wetlandGis.decorate(")
    assert text.index("var wetlandGis") < text.index("</head>")


def test_with_a_basemap_the_page_has_no_plain_background() -> None:
    page = tep_map(fx.impacts(), basemap="osm").get_root().render()
    assert ".leaflet-container { background:" not in page


@pytest.mark.parametrize(
    ("argument", "value"),
    [
        pytest.param("title", fx.XSS, id="legend-title"),
        pytest.param("title", fx.XSS_IMG, id="legend-title-img"),
        pytest.param("siting_reading", fx.XSS, id="siting-reading"),
        pytest.param("outcome", fx.XSS, id="unknown-outcome"),
    ],
)
def test_legend_template_escapes_every_value(argument: str, value: str) -> None:
    args = {"title": "t", "counts": {}, "siting_reading": None}
    if argument == "outcome":
        args["counts"] = {value: 1}
    else:
        args[argument] = value
    legend = tep_map_module._legend_html(
        args["title"], args["counts"], 0, [], [], 0, 0, "none", args["siting_reading"]
    )
    assert value not in legend
    assert value in html.unescape(legend)  # there as text for a person to read


def test_zone_popup_template_escapes_the_attributes_once() -> None:
    zones = fx.zones()
    zones["pw_id"] = fx.XSS
    m = tep_map(fx.impacts(), zones=zones)
    popups = [
        f["properties"]["wg_popup"]
        for c in m._children.values()
        if hasattr(c, "data") and isinstance(c.data, dict)
        for f in c.data.get("features", [])
        if f["properties"]["wg_layer"] == "zones"
    ]
    assert popups
    for popup in popups:
        assert popup.startswith('<div class="wg-popup"><h4>Shoreland')
        assert fx.XSS not in popup
        assert html.escape(fx.XSS) in popup  # escaped once, not twice
        assert "&amp;lt;" not in popup


# --------------------------------------------------------------------------- packaging


def test_sha256sums_lists_every_asset_with_its_hash() -> None:
    listed = {}
    for line in (ASSETS / "SHA256SUMS").read_text(encoding="utf-8").splitlines():
        digest, name = line.split(maxsplit=1)
        listed[name.removeprefix("./")] = digest
    on_disk = {
        p.relative_to(ASSETS).as_posix(): p
        for p in ASSETS.rglob("*")
        if p.is_file() and p.name not in ("SHA256SUMS", "LICENSES.md")
    }
    fix = (
        "regenerate: (cd wetland_gis/mapping/assets && find . -type f ! -name SHA256SUMS "
        "! -name LICENSES.md | sort | xargs sha256sum > SHA256SUMS)"
    )
    assert set(listed) == set(on_disk), fix
    for name, path in on_disk.items():
        assert hashlib.sha256(path.read_bytes()).hexdigest() == listed[name], f"{name}: {fix}"
    assert {"tep_map.css", "tep_map.js"} <= set(listed)


@pytest.mark.parametrize("name", OWN_FILES)
def test_installed_package_holds_the_map_file(name: str) -> None:
    resource = files("wetland_gis.mapping").joinpath(*name.split("/"))
    assert resource.is_file()
    assert resource.read_text(encoding="utf-8").strip()
    # and setuptools ships it: a package-data glob of pyproject.toml matches it
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = project["tool"]["setuptools"]["package-data"]["wetland_gis"]
    package = ROOT / "wetland_gis"
    shipped = {p for g in globs for p in package.glob(g) if p.is_file()}
    assert MAPPING / name in shipped
