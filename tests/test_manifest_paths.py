"""A manifest names the package's own files by package-relative name, a user's by path (issue 30).

The install location of ``wca.yaml`` or of the bundled counties is the machine's, not the
run's: recorded as ``wetland_gis:<path>`` with the file's SHA-256, so two machines running
the same inputs write the same manifest inputs.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import geopandas as gpd
import pytest
from shapely.geometry import box

import wetland_gis as wg
from wetland_gis.errors import WetlandGISWarning
from wetland_gis.manifest import PACKAGE_PREFIX, Manifest, file_sha256, recorded_path
from wetland_gis.parameters import default_parameters

PACKAGE = Path(wg.__file__).resolve().parent


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        pytest.param(
            PACKAGE / "parameters" / "wca.yaml",
            "wetland_gis:parameters/wca.yaml",
            id="the parameter tree",
        ),
        pytest.param(
            PACKAGE / "data" / "mn_counties_cb2016_500k.geojson",
            "wetland_gis:data/mn_counties_cb2016_500k.geojson",
            id="bundled counties",
        ),
        pytest.param("impacts.gpkg", "impacts.gpkg", id="a user's relative path as given"),
        pytest.param("postgresql://db/reg", "postgresql://db/reg", id="a URL as given"),
        pytest.param("", "", id="none"),
        pytest.param(
            "wetland_gis:parameters/wca.yaml",
            "wetland_gis:parameters/wca.yaml",
            id="read back from an earlier manifest (site, report)",
        ),
    ],
)
def test_a_package_file_is_recorded_by_its_package_relative_name(path, expected):
    assert recorded_path(path) == expected


def test_a_user_file_keeps_its_absolute_path(tmp_path):
    assert recorded_path(tmp_path / "impacts.gpkg") == str(tmp_path / "impacts.gpkg")


def test_an_assess_manifest_holds_no_install_location(sample_data, tmp_path):
    c = gpd.read_file(sample_data.path("projects/crow_wing/impacts.gpkg")).geometry.iloc[0]
    gdf = gpd.GeoDataFrame(
        {"impact_id": ["A"], "circ39": ["2"]},
        geometry=[box(c.centroid.x, c.centroid.y, c.centroid.x + 20, c.centroid.y + 20)],
        crs="EPSG:26915",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WetlandGISWarning)
        a = wg.assess(gdf, None, as_of="2024-05-01")
    written = a.manifest.write(tmp_path / "m.json")
    text = written.read_text("utf-8")
    assert str(PACKAGE) not in text and PACKAGE.as_posix() not in text
    data = json.loads(text)
    assert data["parameters"]["source"] == "wetland_gis:parameters/wca.yaml"
    assert data["parameters"]["sha256"] == default_parameters().sha256
    (counties,) = [i for i in data["inputs"] if i["path"].startswith(PACKAGE_PREFIX)]
    shipped = PACKAGE / counties["path"].removeprefix(PACKAGE_PREFIX)
    assert counties["sha256"] == file_sha256(shipped)
    # the run itself still knows where the file is (its outputs may not replace it)
    assert any(Path(i.path).resolve() == shipped for i in a.manifest.inputs)


def test_the_recorded_form_is_only_the_written_one():
    m = Manifest(command="assess", as_of="2024-05-01", parameters_source=str(PACKAGE / "x.yaml"))
    assert m.parameters_source == str(PACKAGE / "x.yaml")
    assert m.to_dict()["parameters"]["source"] == "wetland_gis:x.yaml"
