"""Largest-overlap and all-overlap joins on tiny hand-made layers."""

from __future__ import annotations

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
import shapely
from hypothesis import given, settings, strategies as st
from shapely.geometry import LineString, Point, box

from wetland_gis.errors import FieldMappingError, InputError
from wetland_gis.geometry.overlay import SQFT_PER_SQM, all_overlaps, largest_overlap

CRS = "EPSG:26915"


@pytest.fixture
def two_counties() -> gpd.GeoDataFrame:
    return gpd.GeoDataFrame(
        {"NAME": ["Wright", "Hennepin"], "code": [171, 53]},
        geometry=[box(0, 0, 100, 100), box(100, 0, 200, 100)],
        crs=CRS,
    )


def test_a_square_straddling_two_counties_takes_the_larger_part(two_counties):
    targets = gpd.GeoDataFrame({"id": ["a"]}, geometry=[box(60, 10, 110, 20)], index=[7], crs=CRS)
    out = largest_overlap(targets, two_counties, ["NAME", "code"])
    assert list(out.index) == [7]
    assert out.loc[7, "NAME"] == "Wright"
    assert out.loc[7, "code"] == 171
    assert out.loc[7, "overlap_share"] == pytest.approx(0.8)
    assert out.loc[7, "n_overlaps"] == 2


def test_nothing_overlapping_gives_missing_values_and_zero_count(two_counties):
    targets = gpd.GeoDataFrame(geometry=[box(10, 10, 20, 20), box(500, 500, 510, 510)], crs=CRS)
    out = largest_overlap(targets, two_counties, ["NAME", "code"])
    assert out["NAME"].iloc[0] == "Wright"
    assert pd.isna(out["NAME"].iloc[1])
    assert pd.isna(out["code"].iloc[1])
    assert str(out["code"].dtype) == "Int64"
    assert np.isnan(out["overlap_share"].iloc[1])
    assert list(out["n_overlaps"]) == [1, 0]


def test_touching_a_boundary_only_is_not_an_overlap(two_counties):
    targets = gpd.GeoDataFrame(geometry=[box(90, 10, 100, 20)], crs=CRS)
    out = largest_overlap(targets, two_counties, ["NAME"])
    assert out["NAME"].iloc[0] == "Wright"
    assert out["n_overlaps"].iloc[0] == 1
    assert out["overlap_share"].iloc[0] == pytest.approx(1.0)


def test_exact_tie_goes_to_the_first_feature(two_counties):
    targets = gpd.GeoDataFrame(geometry=[box(90, 10, 110, 20)], crs=CRS)
    out = largest_overlap(targets, two_counties, ["NAME"])
    assert out["NAME"].iloc[0] == "Wright"
    assert out["overlap_share"].iloc[0] == pytest.approx(0.5)


def test_points_and_lines_join_by_intersection(two_counties):
    targets = gpd.GeoDataFrame(
        geometry=[Point(150, 50), LineString([(80, 50), (180, 50)])], crs=CRS
    )
    out = largest_overlap(targets, two_counties, ["NAME"])
    assert list(out["NAME"]) == ["Hennepin", "Hennepin"]
    assert out["overlap_share"].iloc[0] == 1.0
    assert out["overlap_share"].iloc[1] == pytest.approx(0.8)


def test_empty_targets_and_empty_layer(two_counties):
    none = gpd.GeoDataFrame({"NAME": []}, geometry=[], crs=CRS)
    out = largest_overlap(none, two_counties, ["NAME"])
    assert len(out) == 0 and "overlap_share" in out
    targets = gpd.GeoDataFrame(geometry=[box(0, 0, 1, 1)], crs=CRS)
    out = largest_overlap(targets, none, ["NAME"])
    assert pd.isna(out["NAME"].iloc[0]) and out["n_overlaps"].iloc[0] == 0


def test_all_overlaps_lists_every_part_in_square_feet(two_counties):
    targets = gpd.GeoDataFrame(
        geometry=[box(60, 10, 110, 20), box(10, 10, 20, 20)], index=["x", "y"], crs=CRS
    )
    out = all_overlaps(targets, two_counties, ["NAME"])
    assert list(out.index) == ["x", "x", "y"]
    assert list(out["NAME"]) == ["Wright", "Hennepin", "Wright"]
    assert list(out["target_pos"]) == [0, 0, 1]
    assert list(out["feature"]) == [0, 1, 0]
    assert out["overlap_sqft"].iloc[0] == pytest.approx(400 * SQFT_PER_SQM)
    assert out["overlap_sqft"].iloc[1] == pytest.approx(100 * SQFT_PER_SQM)
    assert out["overlap_share"].tolist() == pytest.approx([0.8, 0.2, 1.0])


def test_square_feet_use_the_international_foot():
    assert SQFT_PER_SQM == pytest.approx(10.763910416709722, rel=1e-15)


def test_different_crs_is_an_error_with_the_fix(two_counties):
    targets = gpd.GeoDataFrame(geometry=[box(0, 0, 1, 1)], crs="EPSG:26914")
    with pytest.raises(InputError, match="to_crs"):
        largest_overlap(targets, two_counties, ["NAME"])


def test_geographic_crs_is_an_error(two_counties):
    targets = gpd.GeoDataFrame(geometry=[box(0, 0, 1, 1)], crs="EPSG:4326")
    layer = two_counties.set_crs("EPSG:4326", allow_override=True)
    with pytest.raises(InputError, match="geographic"):
        all_overlaps(targets, layer, ["NAME"])


def test_missing_crs_is_an_error(two_counties):
    targets = gpd.GeoDataFrame(geometry=[box(0, 0, 1, 1)])
    with pytest.raises(InputError, match="no CRS"):
        largest_overlap(targets, two_counties, ["NAME"])


def test_unknown_field_names_the_fields_the_layer_has(two_counties):
    targets = gpd.GeoDataFrame(geometry=[box(0, 0, 1, 1)], crs=CRS)
    with pytest.raises(FieldMappingError, match=r"\['nope'\].*'NAME'"):
        largest_overlap(targets, two_counties, ["nope"])


def test_covered_share_unions_overlapping_features():
    from wetland_gis.geometry.overlay import covered_share

    layer = gpd.GeoDataFrame(
        geometry=[box(0, 0, 10, 10), box(5, 0, 15, 10), box(100, 100, 110, 110)], crs=CRS
    )
    targets = gpd.GeoDataFrame(
        geometry=[box(0, 0, 20, 10), box(50, 50, 60, 60), box(100, 100, 120, 110)], crs=CRS
    )
    share = covered_share(targets, layer)
    assert share.tolist() == pytest.approx([0.75, 0.0, 0.5])


def test_text_fields_are_none_where_nothing_overlaps(two_counties):
    targets = gpd.GeoDataFrame(geometry=[box(500, 500, 510, 510)], crs=CRS)
    out = largest_overlap(targets, two_counties, ["NAME"])
    assert out["NAME"].iloc[0] is None


# --- issue 14: the inside-a-feature shortcut and the grouped overlap flags -------------


def test_measures_from_the_inside_shortcut_equal_the_intersections():
    rng = np.random.default_rng(5)
    x, y = rng.uniform(-20, 220, 300), rng.uniform(-20, 120, 300)
    w, h = rng.uniform(0.5, 40, 300), rng.uniform(0.5, 40, 300)
    import shapely

    targets = gpd.GeoDataFrame(geometry=list(shapely.box(x, y, x + w, y + h)), crs=CRS)
    layer = gpd.GeoDataFrame(
        {"NAME": ["a", "b", "c"]},
        geometry=[box(0, 0, 100, 100), box(100, 0, 200, 100), LineString([(0, 50), (200, 50)])],
        crs=CRS,
    )
    got = all_overlaps(targets, layer, ["NAME"])
    geoms = targets.geometry.to_numpy()[got["target_pos"].to_numpy()]
    feats = layer.geometry.loc[got["feature"].to_numpy()].to_numpy()
    inter = [g.intersection(f) for g, f in zip(geoms, feats, strict=True)]
    poly = got["NAME"].isin(["a", "b"]).to_numpy()
    want = np.array([i.area for i in inter]) * SQFT_PER_SQM
    assert np.allclose(got["overlap_sqft"].to_numpy()[poly], want[poly], rtol=1e-12)
    share = np.array([i.area for i in inter]) / np.array([g.area for g in geoms])
    assert np.allclose(
        got["overlap_share"].to_numpy()[poly], np.clip(share, 0, 1)[poly], rtol=1e-12
    )
    assert got["overlap_share"].isna().to_numpy()[~poly].all()  # a polygon has no length share


def test_flag_overlaps_notes_each_pair_on_both_rows_in_order():
    from wetland_gis.geometry.overlay import flag_overlaps

    gdf = gpd.GeoDataFrame(
        {
            "impact_id": ["A", "B", "C", "D"],
            "wg_row": [0, 1, 2, 3],
            "status": ["assessed", "assessed", "assessed", "not_assessed"],
            "repairs": ["ring closed", None, "", None],
        },
        geometry=[box(0, 0, 10, 10), box(5, 0, 15, 10), box(8, 0, 20, 10), box(0, 0, 30, 30)],
        crs=CRS,
    )
    records: list[str] = []
    with pytest.warns(Warning, match="3 pair"):
        flag_overlaps(gdf, "impact_id", records)
    a, b, c, d = gdf["repairs"].tolist()
    assert a.startswith("ring closed; overlaps B by ") and "overlaps C by" in a
    assert b.index("overlaps A") < b.index("overlaps C")
    assert c.startswith("overlaps A by") and pd.isna(d)
    assert len(records) == 1


#: Target boxes (x, y, width, height) over the three overlapping counties of _three_counties.
_BOXES = st.lists(
    st.tuples(st.floats(-20, 200), st.floats(-20, 120), st.floats(0.5, 60), st.floats(0.5, 60)),
    min_size=1,
    max_size=30,
)


def _three_counties() -> gpd.GeoDataFrame:
    """Three counties, the third overlapping both others (so targets have several overlaps)."""
    return gpd.GeoDataFrame(
        {"NAME": ["Wright", "Hennepin", "Carver"]},
        geometry=[box(0, 0, 100, 100), box(100, 0, 200, 100), box(50, 50, 150, 150)],
        crs=CRS,
    )


def _box_targets(boxes, index=None) -> gpd.GeoDataFrame:
    return gpd.GeoDataFrame(
        {"id": range(len(boxes))},
        geometry=[box(x, y, x + w, y + h) for x, y, w, h in boxes],
        index=index,
        crs=CRS,
    )


@settings(max_examples=40, deadline=None)
@given(_BOXES)
def test_the_query_side_never_changes_a_join(boxes):
    """Querying from the layer's side (few large features) gives the same joins."""
    import wetland_gis.geometry.overlay as overlay

    layer = _three_counties()
    targets = _box_targets(boxes)
    saved = overlay.LAYER_SIDE_RATIO
    try:
        overlay.LAYER_SIDE_RATIO = 10**9  # always from the targets' side
        ref_l = largest_overlap(targets, layer, ["NAME"])
        ref_a = all_overlaps(targets, layer, ["NAME"])
        overlay.LAYER_SIDE_RATIO = 0  # always from the layer's side
        got_l = largest_overlap(targets, layer, ["NAME"])
        got_a = all_overlaps(targets, layer, ["NAME"])
    finally:
        overlay.LAYER_SIDE_RATIO = saved
    pd.testing.assert_frame_equal(got_l, ref_l)
    pd.testing.assert_frame_equal(got_a, ref_a)


def test_union_by_group_equals_one_union_all_per_group(monkeypatch):
    from shapely.geometry import box as _box

    from wetland_gis.geometry import overlay
    from wetland_gis.geometry.overlay import union_by_group

    geoms = np.array(
        [
            _box(0, 0, 2, 2),
            _box(10, 0, 11, 1),
            _box(1, 1, 3, 3),
            _box(5, 5, 6, 6),
            _box(10.5, 0, 12, 1),
        ],
        dtype=object,
    )
    group = np.array([4, 1, 4, 7, 1])
    monkeypatch.setattr(overlay, "UNION_BATCH", 2)  # two batches
    batches = list(union_by_group(group, geoms))
    assert [b[0].tolist() for b in batches] == [[1, 4], [7]]
    for groups, unions in batches:
        for g, u in zip(groups, unions, strict=True):
            expected = shapely.union_all(geoms[group == g])
            assert shapely.to_wkb(u) == shapely.to_wkb(expected)
    assert list(union_by_group(np.empty(0, dtype=int), np.empty(0, dtype=object))) == []


def test_a_join_leaves_the_layer_geometries_unprepared(two_counties):
    targets = gpd.GeoDataFrame(geometry=[box(60, 10, 110, 20), box(10, 10, 20, 20)], crs=CRS)
    largest_overlap(targets, two_counties, ["NAME"])
    all_overlaps(targets, two_counties, ["NAME"])
    assert not shapely.is_prepared(np.asarray(two_counties.geometry.array)).any()


def test_a_layer_prepared_by_the_caller_stays_prepared(two_counties):
    geoms = np.asarray(two_counties.geometry.array)
    shapely.prepare(geoms)
    targets = gpd.GeoDataFrame(geometry=[box(60, 10, 110, 20)], crs=CRS)
    out = largest_overlap(targets, two_counties, ["NAME"])
    assert out["NAME"].tolist() == ["Wright"]
    assert shapely.is_prepared(geoms).all()
    shapely.destroy_prepared(geoms)


def test_box_pairs_that_do_not_intersect_are_dropped():
    # the boxes of the triangle and the square meet, the shapes do not
    from shapely.geometry import Polygon

    layer = gpd.GeoDataFrame(
        {"NAME": ["tri"]}, geometry=[Polygon([(0, 0), (10, 0), (0, 10)])], crs=CRS
    )
    targets = gpd.GeoDataFrame(geometry=[box(8, 8, 9, 9), box(1, 1, 2, 2)], crs=CRS)
    out = largest_overlap(targets, layer, ["NAME"])
    assert out["n_overlaps"].tolist() == [0, 1]
    assert out["NAME"].tolist() == [None, "tri"]


def test_flag_overlaps_labels_a_missing_id_by_its_row():
    from wetland_gis.geometry.overlay import flag_overlaps

    gdf = gpd.GeoDataFrame(
        {
            "impact_id": ["A", None, 7],
            "wg_row": [0, 11, 12],
            "status": ["assessed"] * 3,
            "repairs": [None, None, None],
        },
        geometry=[box(0, 0, 10, 10), box(5, 0, 15, 10), box(100, 0, 110, 10)],
        crs=CRS,
    )
    with pytest.warns(Warning, match="1 pair"):
        flag_overlaps(gdf, "impact_id", [])
    a, b, c = gdf["repairs"].tolist()
    assert a.startswith("overlaps row 11 by 538.2 sq ft")
    assert b.startswith("overlaps A by 538.2 sq ft")
    assert c is None


@settings(max_examples=40, deadline=None)
@given(_BOXES)
def test_largest_overlap_is_the_first_ranked_row_of_all_overlaps(boxes):
    """One ranking (by target, largest overlap first, then layer order) serves both joins:
    a target's largest overlap is its first row of ``all_overlaps``, with the same share,
    and ``n_overlaps`` counts its rows."""
    layer = _three_counties()
    targets = _box_targets(boxes, index=[f"t{i}" for i in range(len(boxes))])
    best = largest_overlap(targets, layer, ["NAME"])
    every = all_overlaps(targets, layer, ["NAME"])
    first = every.groupby("target_pos", sort=True).head(1)
    hit = best[best["n_overlaps"] > 0]
    assert list(first.index) == list(hit.index)
    assert list(first["NAME"]) == list(hit["NAME"])
    assert np.array_equal(first["overlap_share"].to_numpy(), hit["overlap_share"].to_numpy())
    counts = every.groupby("target_pos").size()
    assert list(counts) == list(hit["n_overlaps"])
