"""A wrong ``.prj``: ``--override-crs`` replaces the CRS, recorded with the old one (issue 19).

``--assume-crs`` applies only to a layer without a CRS; the wrong-CRS message names
``--override-crs``, a fix that rewrites the CRS (QGIS "Layer > Set CRS" alone does not).
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import geopandas as gpd
import pytest
from helpers import CONTEXT
from layer_helpers import assess_cli_quietly
from shapely.geometry import Polygon

import wetland_gis as wg
from wetland_gis.cli import main
from wetland_gis.commands import read_assessed
from wetland_gis.errors import InputError
from wetland_gis.io.layers import read_layer

AS_OF = "2024-05-01"
SQUARE = Polygon([(420000, 5090000), (420020, 5090000), (420020, 5090020), (420000, 5090020)])


def _wrong_prj(tmp_path: Path) -> Path:
    """UTM 15N metres in a shapefile whose .prj says WGS 84 degrees (a wrong .prj)."""
    layer = gpd.GeoDataFrame(
        {"impact_id": ["W-1"], "wetland_ty": ["3"]}, geometry=[SQUARE], crs="EPSG:4326"
    )
    path = tmp_path / "impacts.shp"
    layer.to_file(path)
    return path


_assess = assess_cli_quietly


def test_a_wrong_prj_is_an_error_whose_fix_is_override_crs(tmp_path, capsys):
    code, _ = _assess(tmp_path, _wrong_prj(tmp_path))
    err = capsys.readouterr().err
    assert code == 2 and "the layer's CRS (its .prj) is wrong" in err
    assert "--override-crs EPSG:26915" in err and "Export > Save Features As" in err


def test_override_crs_replaces_the_wrong_crs_and_the_manifest_records_both(tmp_path, capsys):
    code, out = _assess(tmp_path, _wrong_prj(tmp_path), "--override-crs", "EPSG:26915")
    assert code == 0, capsys.readouterr().err
    manifest = json.loads((out.parent / "a_manifest.json").read_text("utf-8"))
    (override,) = manifest["settings"]["crs_overrides"]
    assert (override["old"], override["new"]) == ("EPSG:4326", "EPSG:26915")
    assert any("replaced by EPSG:26915" in r for r in manifest["records"])
    impacts = read_assessed(out)["impacts"]
    assert impacts["status"].tolist() == ["assessed"]
    assert impacts.geometry.iloc[0].area == pytest.approx(400.0)  # kept, not transformed


def test_assume_crs_does_not_replace_a_crs_and_says_so(tmp_path):
    read = read_layer(_wrong_prj(tmp_path), assume_crs="EPSG:26915")
    assert read.gdf.crs.to_epsg() == 4326 and read.crs_override is None
    assert any("applies only to a layer without a CRS" in r for r in read.records)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        pytest.param({"override_crs": "EPSG:26915"}, None, id="override a wrong CRS"),
        pytest.param(
            {"override_crs": "not a crs"},
            "--override-crs 'not a crs' is not a valid CRS",
            id="bad CRS",
        ),
        pytest.param(
            {"override_crs": "EPSG:26915", "assume_crs": "EPSG:26915"},
            "give one of them",
            id="both",
        ),
    ],
)
def test_read_layer_override_crs(tmp_path, kwargs, error):
    path = _wrong_prj(tmp_path)
    if error:
        with pytest.raises(InputError, match=error):
            read_layer(path, **kwargs)
    else:
        read = read_layer(path, **kwargs)
        assert read.gdf.crs.to_epsg() == 26915
        assert read.crs_override == {"layer": str(path), "old": "EPSG:4326", "new": "EPSG:26915"}


def test_the_python_api_takes_override_crs_like_assume_crs(tmp_path):
    frame = gpd.GeoDataFrame(
        {"impact_id": ["W-1"], "wetland_type": ["3"]}, geometry=[SQUARE], crs="EPSG:4326"
    )
    options = wg.AssessOptions(assume_no_public_waters=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wg.WetlandGISWarning)
        result = wg.assess(frame, CONTEXT, as_of=AS_OF, override_crs="EPSG:26915", options=options)
        shp = wg.assess(
            _wrong_prj(tmp_path), CONTEXT, as_of=AS_OF, override_crs="EPSG:26915", options=options
        )
    assert result.manifest.settings["crs_overrides"][0]["new"] == "EPSG:26915"
    assert result.impacts["status"].tolist() == shp.impacts["status"].tolist() == ["assessed"]


def test_the_partitioned_engine_keeps_the_override_record(tmp_path):
    from wetland_gis.partitioned import assess_partitioned

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wg.WetlandGISWarning)
        result = assess_partitioned(
            _wrong_prj(tmp_path),
            CONTEXT,
            engine="chunks",
            chunk_size=1,
            as_of=AS_OF,
            override_crs="EPSG:26915",
            options=wg.AssessOptions(assume_no_public_waters=True),
            progress_bar=False,
        )
    assert result.manifest.settings["crs_overrides"][0]["old"] == "EPSG:4326"


def test_cli_refuses_assume_and_override_together(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(
            [
                "assess",
                "x.shp",
                "--out",
                "o.gpkg",
                "--assume-crs",
                "EPSG:26915",
                "--override-crs",
                "EPSG:26915",
            ]
        )
    assert exit_.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_water_use_csv_refuses_a_crs_option(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("permit_id,source,lon,lat\nA,surface,-94.05,46.45\n", "utf-8")
    with pytest.raises(InputError, match="do not apply to a CSV"):
        wg.water_use(path, as_of="2026-06-01", override_crs="EPSG:4326")
