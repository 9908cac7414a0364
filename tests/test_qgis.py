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
import sqlite3
import subprocess
from pathlib import Path

import map_fixtures as fx
import pytest

from wetland_gis.io.layers import write_layer
from wetland_gis.io.qgis_styles import GPKG_VERSION, styled_layers
from wetland_gis.mapping.symbology import OUTCOME_COLORS

SYSTEM_PYTHON = Path("/usr/bin/python3")

PROBE = r"""
import json, sys
from qgis.core import QgsApplication, QgsVectorLayer
app = QgsApplication([], False)
app.initQgis()
out = []
for path, layer in json.loads(sys.argv[1]):
    vl = QgsVectorLayer(f"{path}|layername={layer}", layer, "ogr")
    r = vl.renderer()
    cats = []
    if r is not None and r.type() == "categorizedSymbol":
        cats = [[c.value(), c.label(), c.symbol().color().name()] for c in r.categories()]
    out.append({
        "layer": layer, "valid": vl.isValid(), "count": vl.featureCount(),
        "crs": vl.crs().authid(), "renderer": r.type() if r else None,
        "attr": r.classAttribute() if r is not None and hasattr(r, "classAttribute") else None,
        "labels": vl.labelsEnabled(), "categories": cats,
        "abstract": vl.metadata().abstract(),
    })
print("RESULT" + json.dumps(out), flush=True)
app.exitQgis()
"""


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


def _open_in_qgis(layers: list[tuple[Path, str]]) -> dict[str, dict]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["QT_QPA_PLATFORM"] = "offscreen"
    done = subprocess.run(
        [str(SYSTEM_PYTHON), "-c", PROBE, json.dumps([[str(p), n] for p, n in layers])],
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
    )
    line = next((x for x in done.stdout.splitlines() if x.startswith("RESULT")), None)
    assert line is not None, done.stderr[-2000:]
    return {r["layer"]: r for r in json.loads(line[len("RESULT") :])}


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
    assert colours == {k: v.lower() for k, v in OUTCOME_COLORS.items()}
    assert "De minimis exempt" in [label for _, label, _ in impacts["categories"]]
    assert "Minn. Stat. ch. 103G" in impacts["abstract"]  # the layer description
    assert result["shoreland_zones"]["attr"] == "zone"
    assert result["sites"]["attr"] == result["banks"]["attr"] == "best_tier"


@pytest.mark.slow
@pytest.mark.qgis
def test_qgis_opens_the_demo_outputs(tmp_path) -> None:
    _require_qgis()
    from wetland_gis.commands import run_assess, run_site

    root = Path(__file__).resolve().parents[1] / "sample_data"
    project = root / "projects" / "crow_wing"
    assessment, _ = run_assess(
        project / "impacts.gpkg",
        tmp_path / "assessed.gpkg",
        context=root / "synthetic_context.gpkg",
        as_of="2024-05-01",
    )
    run_site(
        tmp_path / "assessed.gpkg",
        tmp_path / "siting",
        sites=project / "candidate_sites.gpkg",
        banks=root / "synthetic_bank_credits.csv",
        context=assessment.context,
        as_of="2024-05-01",
    )
    result = _open_in_qgis(
        [(tmp_path / "assessed.gpkg", "impacts"), (tmp_path / "siting" / "siting.gpkg", "sites")]
    )
    assert result["impacts"]["valid"] and result["impacts"]["count"] == len(assessment.impacts)
    assert result["impacts"]["renderer"] == "categorizedSymbol"
    assert result["impacts"]["attr"] == "outcome"
    assert result["sites"]["valid"] and result["sites"]["crs"] == "EPSG:26915"
