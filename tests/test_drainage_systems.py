"""The ``drainage_systems`` context layer: public drainage systems, § 103G.2241, subd. 2.

An impact touching a system (any overlap, distance 0) carries the system ids in
``drainage_system``; a drain on one gets a verify item, because the subd. 2 exemptions
turn on drainage-system facts no layer holds.
"""

from __future__ import annotations

import warnings

import geopandas as gpd
import pytest
from shapely.geometry import LineString, Point, box

import wetland_gis as wg
from wetland_gis.assess import AssessOptions
from wetland_gis.context import load_context, validate_layer
from wetland_gis.errors import ContextError
from wetland_gis.geometry.classify import classify_impacts

FT = 0.3048
CRS = "EPSG:26915"
AS_OF = "2024-05-01"
SUBD_2 = "Minn. Stat. § 103G.2241, subd. 2"


@pytest.fixture(scope="module")
def crow_wing():
    ctx = load_context(as_of=AS_OF)
    p = ctx.counties.set_index("NAME").geometry.loc["Crow Wing"].representative_point()
    return p.x, p.y


def square(x0, y0, side_ft=100.0):
    return box(x0, y0, x0 + side_ft * FT, y0 + side_ft * FT)


def systems(geoms, ids, **cols):
    return gpd.GeoDataFrame({"system_id": ids, **cols}, geometry=list(geoms), crs=CRS)


def impacts(*geoms):
    n = len(geoms)
    return gpd.GeoDataFrame(
        {
            "impact_id": [f"I{i}" for i in range(n)],
            "wg_row": list(range(n)),
            "status": ["assessed"] * n,
        },
        geometry=list(geoms),
        crs=CRS,
    )


def classify(imp, layer):
    layers = {} if layer is None else {"drainage_systems": layer}
    ctx = load_context(layers=layers, as_of=AS_OF)
    return classify_impacts(imp, ctx, as_of=AS_OF)


# ----------------------------------------------------------------------------- the layer


def test_lines_and_polygons_are_accepted_and_ids_keep_their_text():
    layer = systems(
        [LineString([(0, 0), (10, 0)]), box(0, 0, 5, 5)],
        ["CD 12", 7.0],
        AUTHORITY=["Crow Wing County", None],
    )
    out, _ = validate_layer(layer, "drainage_systems")
    assert out["system_id"].tolist() == ["CD 12", "7"]
    assert "authority" in out.columns


def test_points_are_an_error_naming_the_layer_and_the_kinds():
    with pytest.raises(ContextError, match=r"'drainage_systems'.*line or polygon.*\['Point'\]"):
        validate_layer(systems([Point(0, 0)], ["CD 1"]), "drainage_systems")


def test_a_missing_system_id_is_an_error_with_the_fix():
    layer = gpd.GeoDataFrame({"ditch": ["CD 1"]}, geometry=[box(0, 0, 1, 1)], crs=CRS)
    with pytest.raises(ContextError, match="missing the required field 'system_id'"):
        validate_layer(layer, "drainage_systems")


def test_an_empty_system_id_is_an_error():
    with pytest.raises(ContextError, match="'system_id' is empty in 1 row"):
        validate_layer(systems([box(0, 0, 1, 1)], [None]), "drainage_systems")


# ------------------------------------------------------------------------ classification

# id, the system geometry relative to a 100 ft impact square at (x, y), expected column
TOUCH_CASES = [
    ("subd-2-polygon-overlaps", lambda x, y: square(x + 50 * FT, y, 100), "CD 12"),
    (
        "subd-2-ditch-line-crosses",
        lambda x, y: LineString([(x - 10, y + 10), (x + 50, y + 10)]),
        "CD 12",
    ),
    (
        "subd-2-line-on-the-edge-distance-0",
        lambda x, y: LineString([(x + 100 * FT, y - 10), (x + 100 * FT, y + 50)]),
        "CD 12",
    ),
    ("subd-2-polygon-sharing-a-corner", lambda x, y: square(x + 100 * FT, y + 100 * FT), "CD 12"),
    (
        "subd-2-one-foot-away-is-not-touching",
        lambda x, y: LineString([(x + 101 * FT, y - 10), (x + 101 * FT, y + 50)]),
        "",
    ),
]


@pytest.mark.parametrize(
    ("make", "expected"), [c[1:] for c in TOUCH_CASES], ids=[c[0] for c in TOUCH_CASES]
)
def test_any_overlap_at_distance_0_is_touching(crow_wing, make, expected):
    x, y = crow_wing
    out = classify(impacts(square(x, y)), systems([make(x, y)], ["CD 12"])).gdf
    assert out["drainage_system"].iloc[0] == expected


def test_every_touched_system_is_listed_once_in_id_order(crow_wing):
    x, y = crow_wing
    line = LineString([(x - 10, y + 5), (x + 50, y + 5)])
    layer = systems([line, square(x, y), line.parallel_offset(1)], ["JD 3", "CD 12", "JD 3"])
    imp = impacts(square(x, y), square(x + 1000, y))
    out = classify(imp, layer).gdf
    assert out["drainage_system"].tolist() == ["CD 12; JD 3", ""]


def test_without_the_layer_the_column_is_empty_and_recorded(crow_wing):
    x, y = crow_wing
    result = classify(impacts(square(x, y)), None)
    assert result.gdf["drainage_system"].iloc[0] is None
    assert any(
        r.startswith("drainage_systems: layer not given") and SUBD_2 in r for r in result.records
    )


def test_rows_not_assessed_stay_empty(crow_wing):
    x, y = crow_wing
    imp = impacts(square(x, y))
    imp["status"] = ["not_assessed"]
    out = classify(imp, systems([square(x, y)], ["CD 12"])).gdf
    assert out["drainage_system"].iloc[0] is None


# ------------------------------------------------------------------- assess: verify item


def _assess(crow_wing, kinds, layer):
    x, y = crow_wing
    imp = gpd.GeoDataFrame(
        {
            "impact_id": [f"I{i}" for i in range(len(kinds))],
            "wetland_type": [2] * len(kinds),
            "impact_kind": kinds,
            "project": ["P"] * len(kinds),
        },
        geometry=[square(x + 500 * i, y) for i in range(len(kinds))],
        crs=CRS,
    )
    layers = {} if layer is None else {"drainage_systems": layer}
    ctx = load_context(layers=layers, as_of=AS_OF)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return wg.assess(imp, ctx, as_of=AS_OF, options=AssessOptions(assume_no_public_waters=True))


def _verify(assessment, impact_id):
    rows = assessment.trace[
        (assessment.trace["impact_id"] == impact_id)
        & (assessment.trace["rule_id"] == "facts.context")
    ]
    return [v for vs in rows["verify"] for v in vs], rows


def test_a_drain_on_a_system_must_verify_the_subd_2_facts(crow_wing):
    x, y = crow_wing
    a = _assess(
        crow_wing,
        ["drain", "fill"],
        systems([LineString([(x - 10, y + 5), (x + 600, y + 5)])], ["CD 12"]),
    )
    assert a.impacts["drainage_system"].tolist() == ["CD 12", "CD 12"]
    drain, rows = _verify(a, "I0")
    note = [v for v in drain if "drainage system CD 12" in v]
    assert len(note) == 1 and SUBD_2 in note[0] and "subd. 2(b)" in note[0]
    assert "subd. 2(c)" in note[0] and "drainage authority" in note[0]
    assert rows["inputs"].iloc[0]["drainage_system"] == "CD 12"
    fill, _ = _verify(a, "I1")
    assert not any("drainage system" in v for v in fill)


def test_a_drain_off_every_system_gets_no_drainage_item(crow_wing):
    x, y = crow_wing
    a = _assess(crow_wing, ["drain"], systems([square(x + 5000, y)], ["CD 12"]))
    assert a.impacts["drainage_system"].iloc[0] == ""
    verify, _ = _verify(a, "I0")
    assert not any("drainage system" in v for v in verify)


def test_without_the_layer_assess_records_it_and_guesses_nothing(crow_wing):
    a = _assess(crow_wing, ["drain"], None)
    assert a.impacts["drainage_system"].isna().all()
    assert any(r.startswith("drainage_systems: layer not given") for r in a.manifest.records)
    verify, _ = _verify(a, "I0")
    assert not any("touches public drainage system" in v for v in verify)
