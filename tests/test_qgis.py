"""The GeoPackages the project writes, opened in real QGIS (Debian's python3-qgis).

Each layer is loaded by QGIS's OGR provider in a subprocess of Debian's /usr/bin/python3
with ``QT_QPA_PLATFORM=offscreen``: it must be valid, hold every feature, be in
EPSG:26915 and load its default style from ``layer_styles`` (a categorised renderer on
``outcome`` for the impacts). Skipped with a message when QGIS is missing, except under
``CI=true`` (``.ci/run`` installs python3-qgis), where that is a failure.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import map_fixtures as fx
import pytest
from qgis_helpers import SYSTEM_PYTHON, run_in_qgis_python

from wetland_gis.io.layers import write_layer
from wetland_gis.io.qgis_styles import GPKG_VERSION, NULL_COLOR, styled_layers
from wetland_gis.mapping.symbology import OUTCOME_COLORS

#: The start of a script run by QGIS's Python on ``[[path, layer], ...]`` (its argument):
#: each layer opened as ``vl`` with its renderer ``r``; the body appends to ``out``.
_PROBE_START = r"""
import json, sys
from qgis.core import QgsApplication, QgsVectorLayer, QgsRenderContext
app = QgsApplication([], False)
app.initQgis()
out = []
for path, layer in json.loads(sys.argv[1]):
    vl = QgsVectorLayer(f"{path}|layername={layer}", layer, "ogr")
    r = vl.renderer()
"""
#: The end of it: ``out`` printed after ``RESULT`` on one line.
_PROBE_END = r"""print("RESULT" + json.dumps(out), flush=True)
app.exitQgis()
"""

PROBE = (
    _PROBE_START
    + r"""    cats = []
    if r is not None and r.type() == "categorizedSymbol":
        cats = [[c.value(), c.label(), c.symbol().color().name()] for c in r.categories()]
    out.append({
        "layer": layer, "valid": vl.isValid(), "count": vl.featureCount(),
        "crs": vl.crs().authid(), "renderer": r.type() if r else None,
        "attr": r.classAttribute() if r is not None and hasattr(r, "classAttribute") else None,
        "labels": vl.labelsEnabled(), "categories": cats,
        "abstract": vl.metadata().abstract(),
    })
"""
    + _PROBE_END
)


def _require_qgis() -> None:
    ok = (
        SYSTEM_PYTHON.exists()
        and subprocess.run(
            [str(SYSTEM_PYTHON), "-c", "import qgis.core"],
            capture_output=True,
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        ).returncode
        == 0
    )
    if not ok:
        pytest.skip("the QGIS test needs Debian's python3-qgis (apt-get install python3-qgis)")


def _probe(script: str, layers: list[tuple[Path, str]], timeout: float) -> dict[str, dict]:
    """Run ``script`` in QGIS's Python on ``layers``; return its answer by layer name."""
    args = ["-c", script, json.dumps([[str(p), n] for p, n in layers])]
    return {r["layer"]: r for r in run_in_qgis_python(args, timeout=timeout)}


def _open_in_qgis(layers: list[tuple[Path, str]]) -> dict[str, dict]:
    return _probe(PROBE, layers, 180)


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("qgis")
    assessed = folder / "assessed.gpkg"
    write_layer(fx.impacts().dropna(subset=["geometry"]), assessed, layer="impacts")
    write_layer(fx.zones(), assessed, layer="shoreland_zones")
    siting = folder / "siting.gpkg"
    write_layer(fx.sites(), siting, layer="sites")
    banks = fx.banks().to_crs("EPSG:26915")
    banks["best_tier"] = [2, None]
    write_layer(banks, siting, layer="banks")
    return {"assessed": assessed, "siting": siting}


def test_geopackage_version_is_one_qgis_3_22_opens_without_warning(outputs) -> None:
    con = sqlite3.connect(outputs["assessed"])
    try:
        app_id = con.execute("PRAGMA application_id").fetchone()[0]
        version = con.execute("PRAGMA user_version").fetchone()[0]
    finally:
        con.close()
    assert app_id == 0x47504B47  # "GPKG"
    major, minor = GPKG_VERSION.split(".")
    assert version == int(major) * 10000 + int(minor) * 100 == 10200


def test_every_layer_has_a_default_qml_and_sld_style_and_a_description(outputs) -> None:
    styles = styled_layers(outputs["assessed"]) | styled_layers(outputs["siting"])
    assert set(styles) == {"impacts", "shoreland_zones", "sites", "banks"}
    for name, style in styles.items():
        assert style["default"], name
        assert "<renderer-v2" in style["qml"] and "StyledLayerDescriptor" in style["sld"]
    assert 'attr="outcome"' in styles["impacts"]["qml"]
    assert 'fieldName="impact_id"' in styles["impacts"]["qml"]
    con = sqlite3.connect(outputs["assessed"])
    try:
        rows = dict(con.execute("SELECT table_name, description FROM gpkg_contents"))
    finally:
        con.close()
    assert "Minn. Stat. ch. 103G" in rows["impacts"]
    assert "protection zone" in rows["shoreland_zones"]


def test_rewriting_a_layer_keeps_one_style_row(outputs, tmp_path) -> None:
    path = tmp_path / "again.gpkg"
    for _ in range(2):
        write_layer(fx.impacts().dropna(subset=["geometry"]), path, layer="impacts")
    con = sqlite3.connect(path)
    try:
        n = con.execute("SELECT COUNT(*) FROM layer_styles WHERE f_table_name = 'impacts'")
        assert n.fetchone()[0] == 1
    finally:
        con.close()


@pytest.mark.qgis
def test_qgis_opens_every_layer_styled(outputs) -> None:
    _require_qgis()
    result = _open_in_qgis(
        [
            (outputs["assessed"], "impacts"),
            (outputs["assessed"], "shoreland_zones"),
            (outputs["siting"], "sites"),
            (outputs["siting"], "banks"),
        ]
    )
    expected = {"impacts": len(fx.OUTCOMES), "shoreland_zones": 2, "sites": 2, "banks": 2}
    for name, count in expected.items():
        layer = result[name]
        assert layer["valid"], name
        assert layer["count"] == count, name
        assert layer["crs"] == "EPSG:26915", name
        assert layer["renderer"] == "categorizedSymbol", name
    impacts = result["impacts"]
    assert impacts["attr"] == "outcome"
    assert impacts["labels"] is True
    colours = {value: color for value, _, color in impacts["categories"]}
    null = colours.pop("")  # the NULL (not assessed) category, drawn in grey
    assert colours == {k: v.lower() for k, v in OUTCOME_COLORS.items()}
    assert null == NULL_COLOR.lower()
    assert "De minimis exempt" in [label for _, label, _ in impacts["categories"]]
    assert "Minn. Stat. ch. 103G" in impacts["abstract"]  # the layer description
    assert result["shoreland_zones"]["attr"] == "zone"
    assert result["sites"]["attr"] == result["banks"]["attr"] == "best_tier"


@pytest.mark.pdf
@pytest.mark.slow
@pytest.mark.qgis
def test_qgis_opens_the_demo_outputs(demo_run: Any) -> None:
    _require_qgis()
    # the demo's Crow Wing run: assess and site (tests/session_fixtures.py)
    folder = demo_run.out / "crow_wing"
    assessment = demo_run.assessments["crow_wing"]
    result = _open_in_qgis(
        [(folder / "assessed.gpkg", "impacts"), (folder / "siting" / "siting.gpkg", "sites")]
    )
    assert result["impacts"]["valid"] and result["impacts"]["count"] == len(assessment.impacts)
    assert result["impacts"]["renderer"] == "categorizedSymbol"
    assert result["impacts"]["attr"] == "outcome"
    assert result["sites"]["valid"] and result["sites"]["crs"] == "EPSG:26915"


RENDER_PROBE = (
    _PROBE_START
    + r"""    unrendered = 0
    if r is not None and vl.isSpatial():
        ctx = QgsRenderContext()
        r.startRender(ctx, vl.fields())
        unrendered = sum(1 for f in vl.getFeatures() if not r.willRenderFeature(f, ctx))
        r.stopRender(ctx)
    fields = [f.name() for f in vl.fields() if f.name() != "fid"]
    no_alias = [n for n in fields if not vl.attributeAlias(vl.fields().indexOf(n))]
    hidden = [
        n for n in fields
        if vl.editorWidgetSetup(vl.fields().indexOf(n)).type() == "Hidden"
    ]
    out.append({
        "layer": layer, "valid": vl.isValid(), "count": vl.featureCount(),
        "unrendered": unrendered, "fields": len(fields), "no_alias": no_alias,
        "hidden": hidden, "abstract": vl.metadata().abstract(),
        "alias": {n: vl.attributeAlias(vl.fields().indexOf(n)) for n in fields},
    })
"""
    + _PROBE_END
)


def _probe_render(layers: list[tuple[Path, str]]) -> dict[str, dict]:
    return _probe(RENDER_PROBE, layers, 300)


@pytest.fixture
def demo_outputs(demo_run: Any) -> dict[str, Path]:
    """The sample projects' GeoPackages: assess and site, screen and water-use.

    They are the demo's (one run for the whole session: tests/session_fixtures.py): the
    Crow Wing sample assessed and sited, the water-use sample screened as of 2026-06-01
    and the bundled NWI sample screened.
    """
    assert demo_run.code == 0
    folder = demo_run.out
    gpkg = next(p for p in demo_run.screen["files"] if Path(p).suffix == ".gpkg")
    return {
        "assessed": folder / "crow_wing" / "assessed.gpkg",
        "siting": folder / "crow_wing" / "siting" / "siting.gpkg",
        "water_use": folder / "water_use" / "water_use_2026.gpkg",
        "screen": Path(gpkg),
    }


@pytest.mark.pdf
@pytest.mark.qgis
@pytest.mark.slow
def test_qgis_renders_every_feature_and_names_every_field(demo_outputs) -> None:
    """Every feature is drawn (NULL categories included); every field has an alias."""
    _require_qgis()
    layers = [
        (demo_outputs["assessed"], "impacts"),
        (demo_outputs["assessed"], "decisions"),
        (demo_outputs["siting"], "sites"),
        (demo_outputs["siting"], "banks"),
        (demo_outputs["water_use"], "appropriations"),
        (demo_outputs["water_use"], "fees"),
        (demo_outputs["screen"], "wetlands"),
    ]
    result = _probe_render(layers)
    for name, _ in [(n, p) for p, n in layers]:
        layer = result[name]
        assert layer["valid"] and layer["count"] > 0, name
        assert layer["unrendered"] == 0, f"{name}: {layer['unrendered']} features not drawn"
        assert layer["fields"] > 0 and layer["no_alias"] == [], (name, layer["no_alias"])
        assert "written by wetland_gis." not in layer["abstract"], name  # not the generic one
        assert "wetland_gis" in layer["abstract"], name
    assert result["wetlands"]["count"] == 1556  # the 676 not assessed are drawn as well
    assert "wg_row" in result["impacts"]["hidden"] and "outcome" not in result["impacts"]["hidden"]
    assert result["impacts"]["alias"]["replace_acres"] == "Replacement required (wetland acres)"
    assert "inputs" in result["decisions"]["hidden"]


def test_the_water_use_style_lists_only_water_use_outcomes(tmp_path) -> None:
    from wetland_gis.labels import label
    from wetland_gis.water_use.screening import OUTCOME_COLORS as WATER_COLORS

    points = fx.impacts().dropna(subset=["geometry"]).copy()
    points = points.set_geometry(points.geometry.centroid)[["geometry"]]
    points["permit_id"] = [f"P-{i}" for i in range(len(points))]
    points["outcome"] = ["permit_required"] * (len(points) - 1) + [None]
    path = tmp_path / "water.gpkg"
    write_layer(points, path, layer="appropriations")
    style = styled_layers(path)["appropriations"]["qml"]
    values = re.findall(r'<category render="true" value="([^"]*)" label="([^"]*)"', style)
    assert {v for v, _ in values} == set(WATER_COLORS) | {""}
    assert not {v for v, _ in values} & (set(OUTCOME_COLORS) - set(WATER_COLORS))
    for value, text in values:
        if value:
            assert text == label(value) and text[0].isupper(), value


#: The section of docs/data_schema.md documenting each layer of field_aliases.csv.
SCHEMA_SECTIONS = {
    "impacts": "## Classified impacts (output of `assess`)",
    "decisions": "### The `decisions` table (trace of every rule step)",
}


def _documented(section: str) -> set[str]:
    text = (Path(__file__).resolve().parents[1] / "docs" / "data_schema.md").read_text("utf-8")
    body = text.split(section, 1)[1]
    body = re.split(r"\n#{2,3} ", body, maxsplit=1)[0]
    names: set[str] = set()
    for line in body.splitlines():
        if line.startswith("| `"):
            names |= set(re.findall(r"`([A-Za-z_0-9]+)`", line.split("|")[1]))
    return names


@pytest.mark.parametrize("layer", sorted(SCHEMA_SECTIONS))
def test_field_aliases_are_in_step_with_the_data_schema(layer: str) -> None:
    """wetland_gis/data/field_aliases.csv and docs/data_schema.md name the same columns."""
    import csv

    path = Path(__file__).resolve().parents[1] / "wetland_gis" / "data" / "field_aliases.csv"
    with path.open(encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if r["layer"] == layer]
    aliased = {r["column"] for r in rows}
    documented = _documented(SCHEMA_SECTIONS[layer])
    assert documented - aliased == set(), "documented columns without an alias"
    assert aliased - documented == set(), "aliased columns missing from docs/data_schema.md"
    assert all(r["alias"].strip() and r["technical"] in ("yes", "no") for r in rows)
