"""Checks of the shipped sample data (sample_data/).

The synthetic layers are made by sample_data/make_synthetic.py; these tests read
the committed outputs, rerun the script once into a temporary folder to prove it
is deterministic and that the committed files are current, and check that every
intended situation of the two sample projects holds geometrically.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import sqlite3
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pyogrio
import pytest
import rasterio
import shapely
from rasterio import features

from wetland_gis.io.bank_listing import BANK_FIELDS, PROGRAMS

SAMPLE = Path(__file__).resolve().parents[1] / "sample_data"
CONTEXT = SAMPLE / "synthetic_context.gpkg"
WRIGHT = SAMPLE / "projects" / "wright_metro"
CROW_WING = SAMPLE / "projects" / "crow_wing"
FOOT = 0.3048
SQFT = FOOT * FOOT
ACRE = 43_560 * SQFT

REAL_FILES = [
    "mn_counties_cb2016_500k.geojson",
    "mn_state_cb2016_500k.geojson",
    "metc_metro7_counties_ctus_2020.gpkg",
    "metc_metro7_counties_ctus_2020.metadata.xml",
    "crow_wing_lidar_dem_1m.tif",
    "crow_wing_lidar_sink_1m.tif",
    "nwi_sample_DC_wetlands.gpkg",
    "mn_dnr_basin_shoreland_classes_2019_wright_crowwing_hennepin.csv",
    "LICENSE.lidar-package.txt",
    "LICENSE.mn-dnr-general.txt",
    "LICENSE.plotly-geo.txt",
    "LICENSE.stactools-fws-nwi.txt",
]

# docs/data_schema.md: required fields, then optional ones written by the script.
SCHEMA = {
    "major_watersheds": ("Polygon", ["major", "major_name"]),
    "minor_watersheds": ("Polygon", ["minor", "major"]),
    "bank_service_areas": ("Polygon", ["bsa", "bsa_name"]),
    "percentage_overrides": ("Polygon", ["pct_class", "citation", "major"]),
    "public_water_basins": (
        "Polygon",
        ["pw_id", "shore_class", "pw_name", "acres", "sewered", "setback_ft"],
    ),
    "public_watercourses": (
        "LineString",
        ["pw_id", "shore_class", "pw_name", "sewered", "setback_ft"],
    ),
    "incorporated_areas": ("Polygon", ["name"]),
    "lgus": ("Polygon", ["lgu_name", "shoreland_ordinance", "setback_ft"]),
    "calcareous_fens": ("Polygon", ["fen_name"]),
}
NAME_FIELDS = {
    "major_watersheds": "major_name",
    "bank_service_areas": "bsa_name",
    "percentage_overrides": "citation",
    "public_water_basins": "pw_name",
    "public_watercourses": "pw_name",
    "incorporated_areas": "name",
    "lgus": "lgu_name",
    "calcareous_fens": "fen_name",
    "minor_watersheds": "minor_name",
}
IMPACT_FIELDS = [
    "impact_id",
    "project",
    "circ39",
    "attribute",
    "cedar_tam",
    "impact",
    "land_use",
    "wetland_ac",
]
SITE_FIELDS = ["site_id", "action", "circ39", "credit_ac", "cost_usd"]
BANK_COLUMNS = [*BANK_FIELDS, "lon", "lat"]
SEVEN_COUNTY_METRO = {"Anoka", "Carver", "Dakota", "Hennepin", "Ramsey", "Scott", "Washington"}


def _load_script():
    spec = importlib.util.spec_from_file_location("make_synthetic", SAMPLE / "make_synthetic.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def ctx() -> dict[str, gpd.GeoDataFrame]:
    return {name: gpd.read_file(CONTEXT, layer=name) for name in SCHEMA}


@pytest.fixture(scope="module")
def counties() -> gpd.GeoDataFrame:
    return gpd.read_file(SAMPLE / "mn_counties_cb2016_500k.geojson").to_crs(26915)


@pytest.fixture(scope="module")
def state() -> shapely.Geometry:
    return gpd.read_file(SAMPLE / "mn_state_cb2016_500k.geojson").to_crs(26915).union_all()


@pytest.fixture(scope="module")
def wright_impacts() -> gpd.GeoDataFrame:
    return gpd.read_file(WRIGHT / "impacts.gpkg", layer="impacts").set_index("impact_id")


@pytest.fixture(scope="module")
def lake_a(ctx) -> shapely.Geometry:
    lakes = ctx["public_water_basins"]
    return lakes.loc[lakes["pw_name"] == "Synthetic Lake A"].geometry.iloc[0]


def _county_of(counties: gpd.GeoDataFrame, geom: shapely.Geometry) -> str:
    return counties["NAME"].iloc[int(np.argmax(counties.geometry.intersection(geom).area))]


def _holder(layer: gpd.GeoDataFrame, geom: shapely.Geometry, field: str) -> object:
    """Field value of the single feature that covers ``geom`` (fails otherwise)."""
    hit = layer[layer.geometry.covers(geom)]
    assert len(hit) == 1, f"{geom.geom_type} lies in {len(hit)} {field} features"
    return hit[field].iloc[0]


# --------------------------------------------------------------------------- files


def test_real_files_are_shipped_unchanged():
    readme = (SAMPLE / "README.md").read_text(encoding="utf-8")
    for name in REAL_FILES:
        path = SAMPLE / name
        assert path.is_file(), name
        if not name.startswith("LICENSE"):
            assert hashlib.sha256(path.read_bytes()).hexdigest() in readme, name


def test_synthetic_outputs_are_small():
    made = [
        SAMPLE / "synthetic_context.gpkg",
        SAMPLE / "synthetic_bank_credits.csv",
        SAMPLE / "synthetic_bank_credits.gpkg",
        *sorted((SAMPLE / "projects").rglob("*.*")),
    ]
    for path in made:
        assert path.stat().st_size < 2 * 1024 * 1024, path


def test_readme_names_every_shipped_file():
    readme = (SAMPLE / "README.md").read_text(encoding="utf-8")
    assert "never" in readme.lower() and "SYNTHETIC" in readme
    for path in SAMPLE.iterdir():
        if path.is_file() and path.name not in {"README.md"}:
            assert path.name in readme, path.name


# --------------------------------------------------------------------------- determinism


@pytest.mark.slow
def test_script_is_deterministic_and_committed_outputs_are_current(tmp_path):
    script = _load_script()
    first, second = tmp_path / "a", tmp_path / "b"
    script.main(first)
    script.main(second)
    layers = [("synthetic_context.gpkg", name) for name in SCHEMA] + [
        ("synthetic_bank_credits.gpkg", "bank_credits"),
        ("projects/wright_metro/impacts.gpkg", "impacts"),
        ("projects/wright_metro/candidate_sites.gpkg", "candidate_sites"),
        ("projects/crow_wing/impacts.gpkg", "impacts"),
        ("projects/crow_wing/candidate_sites.gpkg", "candidate_sites"),
        ("projects/wright_metro/impacts.shp", None),
        ("projects/crow_wing/candidate_sites.shp", None),
        ("projects/crow_wing_farm/impacts.gpkg", "impacts"),
        ("projects/county_road/impacts.gpkg", "impacts"),
        ("projects/county_road/impacts.shp", None),
    ]
    for rel, layer in layers:
        a, b, shipped = (gpd.read_file(d / rel, layer=layer) for d in (first, second, SAMPLE))
        # Two runs: byte-identical geometry and identical attributes.
        assert list(a.geometry.to_wkb()) == list(b.geometry.to_wkb()), rel
        pd.testing.assert_frame_equal(a.drop(columns="geometry"), b.drop(columns="geometry"))
        # The committed files are what the script writes now (rerun it after a change).
        assert a.geom_equals_exact(shipped.geometry, tolerance=1e-6).all(), rel
        pd.testing.assert_frame_equal(a.drop(columns="geometry"), shipped.drop(columns="geometry"))
    for rel in ("synthetic_bank_credits.csv",):
        assert (first / rel).read_bytes() == (second / rel).read_bytes()
        assert (first / rel).read_text() == (SAMPLE / rel).read_text()


# --------------------------------------------------------------------------- context layers


def test_context_layers_follow_the_schema(ctx):
    listed = {name for name, _ in pyogrio.list_layers(CONTEXT)}
    assert listed == set(SCHEMA)
    assert "counties" not in listed  # the real county layer is the default
    for name, (geom_type, fields) in SCHEMA.items():
        gdf = ctx[name]
        assert gdf.crs.to_epsg() == 26915, name
        assert set(fields) <= {c.lower() for c in gdf.columns}, name
        assert len(gdf) > 0 and gdf.is_valid.all() and not gdf.is_empty.any(), name
        assert set(gdf.geometry.geom_type.str.replace("Multi", "")) == {geom_type}, name


def test_every_synthetic_layer_and_name_says_synthetic(ctx):
    for name, field in NAME_FIELDS.items():
        assert ctx[name][field].str.contains("SYNTHETIC", case=False).all(), name
    with sqlite3.connect(CONTEXT) as con:
        descriptions = dict(con.execute("SELECT table_name, description FROM gpkg_contents"))
    for name in SCHEMA:
        assert "SYNTHETIC" in descriptions[name] and "never" in descriptions[name], name


def test_context_values_are_in_the_allowed_sets(ctx):
    basins = ctx["public_water_basins"]
    assert set(basins["shore_class"]) <= {
        "natural_environment",
        "recreational_development",
        "general_development",
    }
    assert set(ctx["public_watercourses"]["shore_class"]) <= {
        "remote",
        "forested",
        "transition",
        "agricultural",
        "urban",
        "tributary",
    }
    assert set(ctx["percentage_overrides"]["pct_class"]) <= {
        "greater_than_80_percent",
        "50_to_80_percent",
        "less_than_50_percent",
    }
    # Acres are the real polygon areas.
    np.testing.assert_allclose(basins["acres"], basins.area / ACRE, atol=0.06)
    assert ctx["lgus"]["shoreland_ordinance"].astype(bool).all()


def test_bank_service_areas_are_unions_of_whole_counties(ctx, counties):
    bsas = ctx["bank_service_areas"]
    assert 8 <= len(bsas) <= 10
    assert bsas["bsa"].is_unique
    for _, county in counties.iterrows():
        share = bsas.geometry.intersection(county.geometry).area / county.geometry.area
        assert share.max() > 0.9999, county["NAME"]
    hennepin = counties.loc[counties["NAME"] == "Hennepin"].geometry.iloc[0]
    assert _holder(bsas, hennepin.representative_point(), "bsa") == 7  # the one known fact


@pytest.mark.parametrize("name", ["bank_service_areas", "major_watersheds", "minor_watersheds"])
def test_layers_tile_the_state_without_gaps_or_overlaps(ctx, state, name):
    geoms = ctx[name].geometry.to_numpy()
    assert abs(shapely.union_all(geoms).area - state.area) < 1e-6 * state.area
    left, right = shapely.STRtree(geoms).query(geoms, predicate="intersects")
    pairs = left < right
    overlap = shapely.area(shapely.intersection(geoms[left[pairs]], geoms[right[pairs]])).sum()
    assert overlap < 10.0  # square metres, over the whole state: numerical noise only


def test_watersheds_nest(ctx):
    bsas, majors, minors = (
        ctx[n] for n in ("bank_service_areas", "major_watersheds", "minor_watersheds")
    )
    assert majors["major"].is_unique and majors["major"].between(1, 81).all()
    assert majors.groupby("bsa").size().between(3, 8).all()
    for _, row in majors.iterrows():
        share = bsas.geometry.intersection(row.geometry).area / row.geometry.area
        assert share.max() >= 0.999, row["major"]
        assert bsas["bsa"].iloc[int(np.argmax(share))] == row["bsa"]
    assert minors["minor"].is_unique
    by_major = majors.set_index("major").geometry
    for _, row in minors.iterrows():
        assert row["minor"].split("-")[0] == str(row["major"])
        within = by_major[row["major"]].intersection(row.geometry).area / row.geometry.area
        assert within >= 0.999, row["minor"]


def test_override_is_part_of_one_major_in_a_less_than_50_county_far_from_wright(
    ctx, counties, wright_impacts
):
    overrides = ctx["percentage_overrides"]
    assert len(overrides) == 1
    row = overrides.iloc[0]
    assert row["pct_class"] == "greater_than_80_percent"
    assert row["citation"] == (
        "SYNTHETIC example of a reclassification under Minn. R. 8420.0117, subp. 2"
    )
    majors = ctx["major_watersheds"].set_index("major")
    assert majors.geometry[row["major"]].intersection(row.geometry).area >= (
        0.999 * row.geometry.area
    )
    assert row.geometry.area < 0.5 * majors.geometry[row["major"]].area  # only a part
    assert _county_of(counties, row.geometry) == "Polk"  # less than 50 (Minn. R. 8420.0117)
    assert row.geometry.distance(wright_impacts.union_all()) > 200_000


# --------------------------------------------------------------------------- projects


@pytest.mark.parametrize("folder", [WRIGHT, CROW_WING])
@pytest.mark.parametrize(
    "name,fields", [("impacts", IMPACT_FIELDS), ("candidate_sites", SITE_FIELDS)]
)
def test_project_files_are_handed_over_as_from_qgis(folder, name, fields):
    shp = folder / f"{name}.shp"
    for ext in (".shp", ".shx", ".dbf", ".prj", ".cpg"):
        assert shp.with_suffix(ext).is_file(), shp.with_suffix(ext)
    assert shp.with_suffix(".cpg").read_text().strip().upper() == "UTF-8"
    info = pyogrio.read_info(shp)
    assert all(len(f) <= 10 for f in info["fields"])
    assert list(info["fields"]) == fields
    from_shp = gpd.read_file(shp)
    from_gpkg = gpd.read_file(folder / f"{name}.gpkg", layer=name)
    assert from_shp.crs.to_epsg() == from_gpkg.crs.to_epsg() == 26915
    assert list(from_gpkg.columns[:-1]) == fields
    # The shapefile stores exterior rings clockwise: compare normalized geometries.
    assert from_shp.normalize().geom_equals_exact(from_gpkg.normalize(), tolerance=1e-6).all()
    assert from_gpkg.is_valid.all() and (from_gpkg.geom_type == "Polygon").all()


def test_wright_impacts_are_in_wright_county_and_one_minor(ctx, counties, wright_impacts):
    assert 6 <= len(wright_impacts) <= 8
    wright = counties.loc[counties["NAME"] == "Wright"].geometry.iloc[0]
    assert wright_impacts.within(wright).all()
    assert set(wright_impacts["project"]) == {"Wright metro sample"}
    minors = {_holder(ctx["minor_watersheds"], g, "minor") for g in wright_impacts.geometry}
    assert len(minors) == 1


def test_wright_impacts_carry_the_forms_people_type(wright_impacts):
    assert set(wright_impacts["circ39"]) >= {"2", "Type 3", "T7", "type 3/4", "6", ""}
    pem = wright_impacts[wright_impacts["circ39"].fillna("") == ""]
    assert len(pem) == 1 and pem["attribute"].iloc[0] == "PEM1C"
    assert (wright_impacts["land_use"] == "agricultural").sum() == 1
    assert set(wright_impacts["impact"]) <= {"fill", "drain", "excavate"}
    assert set(wright_impacts["cedar_tam"]) <= {0, 1}
    assert (wright_impacts["wetland_ac"] * ACRE > wright_impacts.area).all()


def test_wright_intended_situations(ctx, wright_impacts, lake_a):
    g = wright_impacts.geometry
    river = ctx["public_watercourses"].geometry.iloc[0]
    zone = lake_a.buffer(1_000 * FOOT, quad_segs=64)  # shoreland wetland protection zone
    # W-1: a type 2 of about 700 sq ft outside every shoreland zone.
    assert g["W-1"].area / SQFT == pytest.approx(700, abs=5)
    for name in ("W-1", "W-2", "W-3", "W-6", "W-7"):
        assert g[name].distance(lake_a) > 1_000 * FOOT, name
        assert g[name].distance(river) > 300 * FOOT, name
    # W-2: a type 3 of about 0.3 acre.
    assert g["W-2"].area / ACRE == pytest.approx(0.3, abs=0.005)
    assert wright_impacts.loc["W-3", "circ39"] == "T7"
    # W-4 straddles the 1,000 ft line: a real share on each side.
    inside = g["W-4"].intersection(zone).area / g["W-4"].area
    assert 0.2 < inside < 0.8
    # W-5 lies wholly within 50 ft (the smallest state setback) of the OHWL, outside the lake.
    assert lake_a.buffer(50 * FOOT).contains(g["W-5"])
    assert not g["W-5"].intersects(lake_a)
    # W-6 is inside the calcareous fen.
    fen = ctx["calcareous_fens"].geometry.iloc[0]
    assert g["W-6"].intersects(fen) and fen.contains(g["W-6"])
    # The synthetic city covers part of the project, not all of it.
    city = ctx["incorporated_areas"].geometry.iloc[0]
    flags = g.intersects(city)
    assert flags.any() and not flags.all()
    basin = ctx["public_water_basins"].set_index("pw_name").loc["Synthetic Lake A"]
    assert basin["shore_class"] == "recreational_development" and not basin["sewered"]
    assert ctx["public_watercourses"]["shore_class"].iloc[0] == "agricultural"
    assert (ctx["lgus"]["lgu_name"].str.contains("Wright County")).any()


def test_wright_candidate_sites_cover_every_siting_tier(ctx, counties, wright_impacts):
    sites = gpd.read_file(WRIGHT / "candidate_sites.gpkg").set_index("site_id")
    acres = sites.area / ACRE
    assert 5 <= len(sites) <= 6 and acres.between(1, 10).all()
    assert (sites["credit_ac"] <= acres).all()
    assert set(sites["action"]) <= {"restoration", "creation"}
    bsas, majors, minors = (
        ctx[n] for n in ("bank_service_areas", "major_watersheds", "minor_watersheds")
    )
    impact = wright_impacts.geometry["W-2"]
    home = {
        f: _holder(layer, impact, f)
        for layer, f in ((minors, "minor"), (majors, "major"), (bsas, "bsa"))
    }
    where = {
        sid: {
            f: _holder(layer, g, f)
            for layer, f in ((minors, "minor"), (majors, "major"), (bsas, "bsa"))
        }
        for sid, g in sites.geometry.items()
    }
    assert where["S-1"]["minor"] == home["minor"]
    assert where["S-2"]["major"] == home["major"] and where["S-2"]["minor"] != home["minor"]
    assert where["S-3"]["bsa"] == home["bsa"] and where["S-3"]["major"] != home["major"]
    assert where["S-4"]["bsa"] != home["bsa"]
    assert ctx["percentage_overrides"].geometry.iloc[0].contains(sites.geometry["S-5"])
    assert _county_of(counties, sites.geometry["S-6"]) == "Isanti"  # greater than 80 county


def test_crow_wing_impacts_inside_the_dem_and_outside_the_shoreland_zone(ctx, counties):
    impacts = gpd.read_file(CROW_WING / "impacts.gpkg").set_index("impact_id")
    with rasterio.open(SAMPLE / "crow_wing_lidar_dem_1m.tif") as dem:
        box = shapely.box(*dem.bounds)
    assert impacts.within(box).all()
    crow_wing = counties.loc[counties["NAME"] == "Crow Wing"].geometry.iloc[0]
    assert impacts.within(crow_wing).all()
    area = impacts.area / SQFT
    assert area["C-1"] == pytest.approx(6_000, abs=10) and area["C-1"] < 10_000
    assert area["C-2"] / 43_560 == pytest.approx(0.4, abs=0.005)
    lakes = ctx["public_water_basins"].set_index("pw_name")
    lake = lakes.geometry["Synthetic Lake B"]
    assert lakes.loc["Synthetic Lake B", "shore_class"] == "natural_environment"
    assert crow_wing.contains(lake)
    assert (impacts.distance(lake) >= 1_200 * FOOT).all()
    lgus = ctx["lgus"]
    assert _holder(lgus, impacts.union_all(), "lgu_name").endswith("Crow Wing County")


def test_crow_wing_sites_sit_on_depressions():
    sites = gpd.read_file(CROW_WING / "candidate_sites.gpkg")
    assert 3 <= len(sites) <= 4
    assert (sites["credit_ac"] <= sites.area / ACRE).all()
    with rasterio.open(SAMPLE / "crow_wing_lidar_sink_1m.tif") as src:
        sink = src.read(1)
        is_sink = (sink > 0) & (sink != src.nodata)
        for geom in sites.geometry:
            inside = features.geometry_mask([geom], sink.shape, src.transform, invert=True)
            assert is_sink[inside].mean() > 0.95


# --------------------------------------------------------------------------- bank credits


def test_bank_credit_listing(ctx, counties):
    csv = pd.read_csv(SAMPLE / "synthetic_bank_credits.csv", dtype={"circ39": str})
    assert list(csv.columns) == BANK_COLUMNS
    assert 8 <= len(csv) <= 12
    assert csv["bank_name"].str.startswith("Synthetic Bank").all()
    assert csv["account"].str.fullmatch(r"\d{4}-S").all() and csv["account"].is_unique
    assert set(csv["program"]) <= set(PROGRAMS.values())
    points = gpd.GeoDataFrame(
        csv, geometry=gpd.points_from_xy(csv["lon"], csv["lat"]), crs=4326
    ).to_crs(26915)
    for _, row in points.iterrows():
        assert _holder(counties, row.geometry, "NAME") == row["county"]
        assert _holder(ctx["major_watersheds"], row.geometry, "major") == row["major"]
        assert _holder(ctx["bank_service_areas"], row.geometry, "bsa") == row["bsa"]
        low, high = (15_000, 100_000) if row["county"] in SEVEN_COUNTY_METRO else (5_000, 15_000)
        assert low <= row["price"] <= high, row["bank_name"]
    gpkg = gpd.read_file(SAMPLE / "synthetic_bank_credits.gpkg", layer="bank_credits")
    pd.testing.assert_frame_equal(gpkg.drop(columns="geometry"), csv, check_dtype=False)
    assert (gpkg.distance(points.geometry) < 0.5).all()


def test_bank_credits_cover_the_siting_situations(ctx, wright_impacts):
    csv = pd.read_csv(SAMPLE / "synthetic_bank_credits.csv")
    majors, bsas = ctx["major_watersheds"], ctx["bank_service_areas"]
    impact = wright_impacts.geometry["W-2"]
    major, bsa = _holder(majors, impact, "major"), _holder(bsas, impact, "bsa")
    assert ((csv["major"] == major) & (csv["bsa"] == bsa)).sum() >= 1
    assert ((csv["major"] != major) & (csv["bsa"] == bsa)).sum() >= 1
    assert (csv["bsa"] != bsa).sum() >= 3
    assert (csv["county"] == "Crow Wing").sum() >= 1
    override = ctx["percentage_overrides"].geometry.iloc[0]
    points = gpd.points_from_xy(csv["lon"], csv["lat"], crs=4326).to_crs(26915)
    assert sum(override.contains(p) for p in points) == 1


# --------------------------------------------------------------------------- GeoPackage version

#: The synthetic GeoPackages the generators write (the real files are shipped as published).
SYNTHETIC_GPKG = (
    "synthetic_context.gpkg",
    "synthetic_bank_credits.gpkg",
    "projects/wright_metro/impacts.gpkg",
    "projects/wright_metro/candidate_sites.gpkg",
    "projects/crow_wing/impacts.gpkg",
    "projects/crow_wing/candidate_sites.gpkg",
    "projects/wright_metro/alternatives/reduced.gpkg",
    "projects/wright_metro/alternatives/avoid.gpkg",
    "projects/crow_wing/alternatives/reduced.gpkg",
    "projects/crow_wing/alternatives/avoid.gpkg",
    "water_use/appropriations.gpkg",
    "water_use/synthetic_mt_simon_hinckley.gpkg",
)


def _gpkg_header(path: Path) -> tuple[int, int]:
    """Return (application_id, user_version) from the SQLite header (bytes 68 and 60)."""
    head = path.read_bytes()[:100]
    return int.from_bytes(head[68:72], "big"), int.from_bytes(head[60:64], "big")


@pytest.mark.parametrize("rel", SYNTHETIC_GPKG)
def test_sample_geopackages_are_version_1_2(rel: str) -> None:
    """QGIS 3.22 / GDAL 3.6 open GeoPackage 1.2 without a warning (1.4 warns), as the outputs."""
    from wetland_gis.io.qgis_styles import GPKG_VERSION

    app_id, version = _gpkg_header(SAMPLE / rel)
    assert app_id == 0x47504B47  # "GPKG"
    major, minor = (int(x) for x in GPKG_VERSION.split("."))
    assert version == major * 10000 + minor * 100 == 10200, rel


def test_water_use_script_writes_the_committed_samples(tmp_path: Path) -> None:
    """make_water_use.py rewrites the shipped water-use samples: same content, version 1.2."""
    spec = importlib.util.spec_from_file_location(
        "make_water_use", SAMPLE / "water_use" / "make_water_use.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(tmp_path)
    for rel in ("appropriations.gpkg", "synthetic_mt_simon_hinckley.gpkg"):
        new, shipped = (gpd.read_file(d / rel) for d in (tmp_path, SAMPLE / "water_use"))
        assert new.geom_equals_exact(shipped.geometry, tolerance=1e-6).all(), rel
        pd.testing.assert_frame_equal(
            new.drop(columns="geometry"), shipped.drop(columns="geometry")
        )
        assert _gpkg_header(tmp_path / rel) == _gpkg_header(SAMPLE / "water_use" / rel)


def test_the_docs_keep_the_cities_of_the_shipped_met_council_file():
    # issue 30: docs/context.md said CTU_TYPE = 'CITY'; the 2020 file codes C, T and U, so
    # that filter kept no feature and every metro impact would have read unincorporated
    text = (SAMPLE.parent / "docs" / "context.md").read_text("utf-8")
    (code,) = set(re.findall(r"CTU_TYPE = '(\w+)'", text))
    path = SAMPLE / "metc_metro7_counties_ctus_2020.gpkg"
    every = pyogrio.read_dataframe(path, layer="ctus", read_geometry=False)
    for value in every["CTU_TYPE"].unique():
        assert f"`{value}`" in text, f"docs/context.md does not say what CTU_TYPE {value} is"
    kept = every[every["CTU_TYPE"] == code]
    assert len(kept) > 100  # the metro's cities
    assert not kept["CTU_NAME"].str.endswith("Twp.").any()
    assert (
        every.loc[every["CTU_TYPE"] != code, "CTU_NAME"]
        .str.contains(r"Twp\.|\(unorg\.\)", regex=True)
        .all()
    )


def features_sha256(path: Path) -> str:
    """Return a SHA-256 of every layer's CRS, schema, feature ids, geometries and attributes.

    What a conversion of the file's container (its GeoPackage version) must not change;
    ``sample_data/README.md`` lists it for each converted file.
    """
    from pyogrio.raw import read

    def plain(value: object) -> object:
        return value.item() if isinstance(value, np.generic) else value

    digest = hashlib.sha256()
    for layer in sorted(str(n) for n in pyogrio.list_layers(path)[:, 0]):
        meta, fids, geoms, fields = read(path, layer=layer, return_fids=True)
        schema = zip(meta["fields"], meta["dtypes"], strict=True)
        digest.update(f"{layer}|{meta['crs']}|{meta['geometry_type']}|".encode())
        digest.update("|".join(f"{n}:{d}" for n, d in schema).encode())
        for i in range(len(fids)):
            digest.update(str(int(fids[i])).encode() + b"\0" + bytes(geoms[i] or b""))
            digest.update(repr([plain(f[i]) for f in fields]).encode())
    return digest.hexdigest()


#: GeoPackage's application_id ("GPKG") and the user_version of version 1.2.
GPKG_APPLICATION_ID = 0x47504B47
GPKG_1_2 = 10200


@pytest.mark.parametrize(
    "name", ["metc_metro7_counties_ctus_2020.gpkg", "nwi_sample_DC_wetlands.gpkg"]
)
def test_the_real_geopackages_are_version_1_2_with_their_features_unchanged(name):
    # issue 30: shipped as GeoPackage 1.4, which GDAL 3.6 (Debian 12's QGIS 3.22) opens
    # with "may only be partially supported"; converted, features unchanged
    path = SAMPLE / name
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        app, version = (
            db.execute(f"PRAGMA {p}").fetchone()[0] for p in ("application_id", "user_version")
        )
    assert (app, version) == (GPKG_APPLICATION_ID, GPKG_1_2)
    readme = (SAMPLE / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith(f"| `{name}` | `"))
    assert f"`{features_sha256(path)}` |" in row


def test_no_shipped_geopackage_is_newer_than_1_2():
    shipped = sorted(SAMPLE.rglob("*.gpkg")) + sorted(
        (SAMPLE.parent / "wetland_gis").rglob("*.gpkg")
    )
    assert shipped
    for path in shipped:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            assert db.execute("PRAGMA user_version").fetchone()[0] <= GPKG_1_2, path
