"""The geometry of issue 35: construction limits cut into impacts (geometry/footprint.py).

Tiny hand-made boxes whose answers are obvious, then hypothesis properties of the cut:
the areas of a project's impacts on a wetland add up to area((footprint - existing) &
wetland) within :data:`AREA_RTOL`, a temporary part never overlaps a permanent one, no
impact lies outside its wetland.
"""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import example, given, settings, strategies as st

from wetland_gis.geometry import footprint as fp

#: UTM 15N in Crow Wing County: the magnitudes the cut works at.
X0, Y0 = 430_000.0, 5_150_000.0


def box(x0: float, y0: float, x1: float, y1: float) -> shapely.Polygon:
    return shapely.box(X0 + x0, Y0 + y0, X0 + x1, Y0 + y1)


def areas(geoms) -> list[float]:
    return [round(float(a), 6) for a in shapely.area(geoms)]


def tolerance(*reference: float) -> float:
    """The documented tolerance of the area identities (fp.AREA_RTOL)."""
    return fp.AREA_RTOL * max(1.0, *reference) + 1e-6


# ------------------------------------------------------------------ hand-made cases


def test_existing_ground_is_no_new_impact():
    net = fp.net_parts(
        np.array([box(0, 0, 100, 30)]),
        np.array([0]),
        np.array([0]),
        np.array([box(0, 10, 200, 14)]),
    )
    assert areas(net.geometry) == [2600.0]
    assert net.existing_sqm.round(6).tolist() == [400.0]


def test_a_temporary_part_counts_only_where_no_permanent_part_lies():
    temporary, permanent = box(50, 0, 150, 10), box(0, 0, 100, 10)
    # the temporary part comes first in the layer: the rank, not the order, decides
    net = fp.net_parts(np.array([temporary, permanent]), np.array([0, 0]), np.array([1, 0]))
    assert areas(net.geometry) == [500.0, 1000.0]
    assert net.overlaps == [(0, 1, pytest.approx(500.0))]


def test_overlapping_parts_of_the_same_kind_and_duration_are_not_counted_twice():
    a, b = box(0, 0, 100, 10), box(50, 0, 150, 10)
    net = fp.net_parts(np.array([a, b]), np.array([0, 0]), np.array([0, 0]))
    assert areas(net.geometry) == [1000.0, 500.0]  # the earlier part keeps the overlap


def test_parts_of_different_projects_are_each_counted():
    a, b = box(0, 0, 100, 10), box(50, 0, 150, 10)
    net = fp.net_parts(np.array([a, b]), np.array([0, 1]), np.array([0, 0]))
    assert areas(net.geometry) == [1000.0, 1000.0]
    assert net.overlaps == []


def test_parts_that_only_touch_are_not_overlaps():
    a, b = box(0, 0, 100, 10), box(100, 0, 200, 10)  # a pipeline split every 100 m
    net = fp.net_parts(np.array([a, b]), np.array([0, 0]), np.array([0, 0]))
    assert areas(net.geometry) == [1000.0, 1000.0]
    assert net.overlaps == []


def test_one_piece_per_part_and_wetland_whose_polygons_share_an_id():
    wetlands = np.array([box(0, 0, 50, 10), box(50, 0, 80, 10), box(80, 0, 200, 10)])
    pieces = fp.cut_by_wetlands(np.array([box(40, 0, 90, 10)]), wetlands, np.array([3, 3, 4]))
    assert pieces.wetland.tolist() == [3, 4]
    assert areas(pieces.geometry) == [400.0, 100.0]
    assert [p.tolist() for p in pieces.polygons] == [[0, 1], [2]]


def test_a_part_touching_a_wetland_only_along_its_edge_gives_no_impact():
    pieces = fp.cut_by_wetlands(
        np.array([box(0, 0, 10, 10)]), np.array([box(10, 0, 20, 10)]), np.array([0])
    )
    assert len(pieces.part) == 0


def test_a_sliver_is_kept_however_small():
    # 0.1 m x 0.5 m = 0.05 sq m (0.54 sq ft): an impact all the same
    pieces = fp.cut_by_wetlands(
        np.array([box(0, 0, 10, 10)]), np.array([box(9.9, 5, 20, 5.5)]), np.array([0])
    )
    assert areas(pieces.geometry) == [0.05]


def test_the_drained_area_is_the_lines_buffer():
    line = shapely.LineString([(X0, Y0), (X0 + 100, Y0)])
    buffer = fp.lateral_effect(np.array([line]), np.array([10.0]))[0]
    exact = 100 * 20 + np.pi * 10**2
    assert shapely.area(buffer) == pytest.approx(exact, rel=5e-4)
    assert shapely.area(buffer) <= exact  # the rounding is toward the line


# ------------------------------------------------------------------ properties

coordinate = st.floats(0, 100, allow_nan=False, allow_infinity=False).map(lambda v: round(v, 3))


@st.composite
def polygon(draw):
    """A convex polygon (a hull of 3 to 6 points), or a box."""
    if draw(st.booleans()):
        x0, x1 = sorted((draw(coordinate), draw(coordinate)))
        y0, y1 = sorted((draw(coordinate), draw(coordinate)))
        return box(x0, y0, x1 + 1, y1 + 1)
    points = draw(st.lists(st.tuples(coordinate, coordinate), min_size=3, max_size=6))
    hull = shapely.convex_hull(shapely.MultiPoint([(X0 + x, Y0 + y) for x, y in points]))
    return hull if hull.geom_type == "Polygon" else shapely.buffer(hull, 1.0)


@st.composite
def scene(draw):
    """Parts of two projects, existing ground and a delineation of non-overlapping wetlands."""
    n = draw(st.integers(1, 6))
    parts = [draw(polygon()) for _ in range(n)]
    project = [draw(st.integers(0, 1)) for _ in range(n)]
    rank = [draw(st.integers(0, 1)) for _ in range(n)]
    existing = [draw(polygon()) for _ in range(draw(st.integers(0, 2)))]
    # wetlands: shrunk cells of a 4 x 4 grid of 25 m (never overlapping), ids shared
    cells = draw(st.lists(st.integers(0, 15), min_size=1, max_size=8, unique=True))
    wetlands, groups = [], []
    for cell in cells:
        cx, cy = (cell % 4) * 25.0, (cell // 4) * 25.0
        inset = draw(st.floats(0, 10).map(lambda v: round(v, 3)))
        wetlands.append(box(cx + inset, cy + inset / 2, cx + 25 - inset / 3, cy + 25))
        groups.append(draw(st.integers(0, 3)))
    return parts, project, rank, existing, wetlands, groups


def _cut(parts, project, rank, existing, wetlands, groups):
    parts_a = np.array(parts, dtype=object)
    net = fp.net_parts(parts_a, np.array(project), np.array(rank), np.array(existing, dtype=object))
    pieces = fp.cut_by_wetlands(net.geometry, np.array(wetlands, dtype=object), np.array(groups))
    return net, pieces


SQUARE_IN_CORNER = (
    [box(0, 0, 30, 30), box(10, 10, 40, 40)],
    [0, 0],
    [1, 0],
    [box(5, 5, 12, 12)],
    [box(0, 0, 25, 25), box(25, 0, 50, 25)],
    [0, 0],
)


def _wetland_unions(wetlands, groups):
    """Return the union of the wetland polygons of each group, by group."""
    return {
        g: shapely.union_all([w for w, k in zip(wetlands, groups, strict=True) if k == g])
        for g in set(groups)
    }


def _add_up_to_the_footprint(case, net, pieces):
    parts, project, rank, existing, wetlands, groups = case
    existing_union = shapely.union_all(existing) if existing else shapely.Polygon()
    unions = _wetland_unions(wetlands, groups)
    for p in set(project):
        footprint = shapely.union_all([g for g, q in zip(parts, project, strict=True) if q == p])
        ground = shapely.difference(footprint, existing_union)
        for g in set(groups):
            expected = shapely.area(shapely.intersection(ground, unions[g]))
            mine = [
                k
                for k in range(len(pieces.part))
                if project[pieces.part[k]] == p and pieces.wetland[k] == g
            ]
            total = float(shapely.area(pieces.geometry[mine]).sum()) if mine else 0.0
            assert total == pytest.approx(
                expected, abs=tolerance(expected, shapely.area(footprint))
            )


def _apart_and_inside_their_wetland(case, net, pieces):
    parts, project, rank, existing, wetlands, groups = case
    for a in range(len(parts)):
        for b in range(len(parts)):
            if a != b and project[a] == project[b] and rank[a] == 1 and rank[b] == 0:
                shared = shapely.area(shapely.intersection(net.geometry[a], net.geometry[b]))
                assert shared <= tolerance(shapely.area(parts[a]))
    unions = _wetland_unions(wetlands, groups)
    for geom, g in zip(pieces.geometry, pieces.wetland, strict=True):
        outside = shapely.area(shapely.difference(geom, unions[int(g)]))
        assert outside <= tolerance(shapely.area(geom))
        assert shapely.area(geom) > 0


@pytest.mark.parametrize(
    "invariant",
    [
        pytest.param(
            _add_up_to_the_footprint,
            id="impacts on a wetland add up to the footprint within it",
        ),
        pytest.param(
            _apart_and_inside_their_wetland,
            id="temporary never overlaps permanent and no impact lies outside its wetland",
        ),
    ],
)
@settings(max_examples=60)
@given(scene())
@example(SQUARE_IN_CORNER)
def test_the_cut_keeps_its_invariants(invariant, case):
    net, pieces = _cut(*case)
    # every piece names one of the footprint's parts and one of the wetland groups it was cut by
    assert set(pieces.part) <= set(range(len(case[0])))
    assert {int(g) for g in pieces.wetland} <= set(case[5])
    invariant(case, net, pieces)
