"""An input layer with no features: a warning, empty outputs, and ``--strict`` exits 3."""

from __future__ import annotations

from pathlib import Path

import geopandas as gpd
import pytest
from helpers import CONTEXT
from layer_helpers import assess_cli_quietly
from shapely.geometry import Polygon

from wetland_gis.cli import main
from wetland_gis.errors import EmptyLayerWarning

AS_OF = "2024-05-01"


def _impacts(tmp_path: Path, n: int) -> Path:
    square = Polygon([(420000, 5090000), (420020, 5090000), (420020, 5090020), (420000, 5090020)])
    layer = gpd.GeoDataFrame(
        {"impact_id": [f"W-{i}" for i in range(n)], "wetland_type": ["3"] * n},
        geometry=[square] * n,
        crs="EPSG:26915",
    )
    path = tmp_path / f"impacts{n}.gpkg"
    layer.to_file(path, layer="impacts")
    return path


def _run(tmp_path, impacts, *extra):
    return assess_cli_quietly(tmp_path, impacts, *extra)[0]


@pytest.mark.parametrize(
    ("n", "strict", "code"),
    [
        pytest.param(0, False, 0, id="no features: warning, exit 0"),
        pytest.param(0, True, 3, id="no features with --strict: exit 3"),
        pytest.param(1, True, 0, id="one feature assessed with --strict: exit 0"),
    ],
)
def test_an_empty_impact_layer_warns_and_strict_exits_3(tmp_path, capsys, n, strict, code):
    impacts = _impacts(tmp_path, n)
    assert _run(tmp_path, impacts, *(["--strict"] if strict else [])) == code
    err = capsys.readouterr().err
    warned = "has no features: nothing was assessed and the outputs are empty" in err
    assert warned == (n == 0)
    if n == 0:
        assert err.count("has no features: nothing was assessed") == 1  # once
        assert (tmp_path / "out" / "a.gpkg").exists()
    assert ("--strict: the input layer has no features; exit 3" in err) == (code == 3)


def test_the_python_api_warns_on_an_empty_layer(tmp_path):
    import wetland_gis as wg

    with pytest.warns(EmptyLayerWarning, match="impacts0.gpkg .*has no features"):
        result = wg.assess(_impacts(tmp_path, 0), CONTEXT, as_of=AS_OF)
    assert len(result.impacts) == 0
    assert any("has no features" in r for r in result.manifest.records)


def test_an_empty_water_use_csv_warns_and_strict_exits_3(tmp_path, capsys):
    path = tmp_path / "points.csv"
    path.write_text("permit_id,source,lon,lat\n", "utf-8")
    out = tmp_path / "wu.gpkg"
    code = main(["water-use", str(path), "--out", str(out), "--as-of", "2026-06-01", "--strict"])
    err = capsys.readouterr().err
    assert code == 3 and "points.csv has no features" in err
