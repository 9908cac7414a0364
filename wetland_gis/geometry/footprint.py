"""From construction limits to impact polygons: exact, vectorised set operations.

The step an analyst does by hand in QGIS before an assessment, as pure functions on
shapely 2 geometry arrays in the working CRS (EPSG:26915, metres); the reading of the
layers, their attributes and the manifest are :mod:`wetland_gis.impacts`.

1. :func:`net_parts`: each footprint part minus the already developed ground
   (``existing``) and minus the parts that come before it in its project, so that within
   one project every piece of ground is counted once: a permanent part before a temporary
   one (a temporary part counts only where no permanent part lies), then layer order (a
   part overlapping an earlier part of the same kind and duration is not counted twice).
2. :func:`cut_by_wetlands`: each net part intersected with each wetland (all the polygons
   sharing a wetland id are one wetland), one piece per (part, wetland).
3. :func:`lateral_effect`: a drainage line's buffer by its lateral effect distance.

Exactness: the pieces of a project are disjoint, so the areas of its impacts on a
wetland add up to ``area((union of its parts - existing) & wetland)`` up to the floating
point of GEOS (:data:`AREA_RTOL`; tested by a hypothesis property in
``tests/test_footprint_geometry.py``). Pieces of zero area (a part that only touches a
wetland along its edge) are not impacts; any piece with area is kept, however small.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely

from wetland_gis.geometry.cleaning import _polygonal_parts

AREA_RTOL = 1e-9
"""Relative tolerance of the area identities (GEOS double precision, not law).

The areas of a project's impacts on a wetland equal the area of (footprint - existing)
& wetland to within ``AREA_RTOL`` times the larger of that area and the footprint's area,
plus 1e-6 square metres: what the rounding of the overlay's coordinates can move.
"""

BUFFER_QUAD_SEGS = 16
"""Segments per quarter circle of a drainage buffer's round ends and corners (QGIS uses 5).

The polygon's area is within 0.05 percent of the true buffer's; the rounding is toward the
line (the polygon lies inside the exact buffer).
"""


@dataclass(frozen=True, eq=False)
class NetParts:
    """The footprint parts after the existing ground and the earlier parts are removed.

    Attributes
    ----------
    geometry : ndarray of shapely geometries
        Per part, what it counts (a polygon, a multipolygon, or an empty polygon).
    existing_sqm : ndarray of float
        Per part, the area removed as existing ground (square metres).
    overlaps : list of tuple
        ``(part, earlier part, square metres)``: each overlap of a part with an earlier
        part of its project, removed from the later one.
    """

    geometry: np.ndarray
    existing_sqm: np.ndarray
    overlaps: list[tuple[int, int, float]]


@dataclass(frozen=True, eq=False)
class Pieces:
    """The impacts: one piece of a net part within one wetland.

    Attributes
    ----------
    part : ndarray of int
        The part (position in the parts array) of each piece.
    wetland : ndarray of int
        The wetland group (a code of the wetland id) of each piece.
    polygons : list of ndarray of int
        Per piece, the positions of the wetland polygons it lies in.
    geometry : ndarray of shapely geometries
        The piece (polygonal, area greater than 0).
    """

    part: np.ndarray
    wetland: np.ndarray
    polygons: list[np.ndarray]
    geometry: np.ndarray


def union_by_group(geoms: np.ndarray, group: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the union of the geometries of each group.

    Parameters
    ----------
    geoms : ndarray of shapely geometries
    group : ndarray of int
        The group of each geometry.

    Returns
    -------
    (ndarray of int, ndarray of shapely geometries)
        The groups, sorted, and the union of each. A group of one geometry is that
        geometry (no overlay); larger groups are unioned one by one.

    Examples
    --------
    >>> g, u = union_by_group(np.array([shapely.box(0, 0, 1, 1), shapely.box(1, 0, 2, 1),
    ...                                 shapely.box(5, 5, 6, 6)]), np.array([0, 0, 1]))
    >>> g.tolist(), [round(float(a), 6) for a in shapely.area(u)]
    ([0, 1], [2.0, 1.0])
    """
    group = np.asarray(group)
    if not len(group):
        return np.array([], dtype=np.int64), np.array([], dtype=object)
    order = np.argsort(group, kind="stable")
    sorted_group = group[order]
    starts = np.flatnonzero(np.r_[True, sorted_group[1:] != sorted_group[:-1]])
    ends = np.r_[starts[1:], len(order)]
    out = np.empty(len(starts), dtype=object)
    single = (ends - starts) == 1
    out[single] = geoms[order[starts[single]]]
    for k in np.flatnonzero(~single):
        out[k] = shapely.union_all(geoms[order[starts[k] : ends[k]]])
    return sorted_group[starts], out


def interior_overlaps(
    left: np.ndarray, right: np.ndarray, tree: shapely.STRtree | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Return the pairs ``(i, j)`` of ``left[i]`` and ``right[j]`` whose interiors meet.

    Touching along an edge or at a point is not an overlap.

    Parameters
    ----------
    left, right : ndarray of shapely geometries
    tree : STRtree, optional
        An index of ``right`` (built when not given).

    Returns
    -------
    (ndarray of int, ndarray of int)
    """
    tree = tree if tree is not None else shapely.STRtree(right)
    i, j = tree.query(left, predicate="intersects")
    if not len(i):
        return i, j
    inner = shapely.relate_pattern(left[i], right[j], "T********")
    return i[inner], j[inner]


def _polygonal(geoms: np.ndarray) -> np.ndarray:
    """Return the polygonal part of each geometry (an empty polygon when it has none)."""
    if not len(geoms):
        return geoms
    types = shapely.get_type_id(geoms)
    out = np.asarray(geoms, dtype=object).copy()
    odd = ~np.isin(types, (3, 6)) | shapely.is_empty(geoms)
    if odd.any():
        merged, kept, _ = _polygonal_parts(geoms[odd])
        merged[kept == 0] = shapely.Polygon()
        out[odd] = merged
    return out


def net_parts(
    parts: np.ndarray,
    project: np.ndarray,
    rank: np.ndarray,
    existing: np.ndarray | None = None,
) -> NetParts:
    """Remove the existing ground and the earlier parts of the same project from each part.

    Parameters
    ----------
    parts : ndarray of shapely polygons
        The footprint parts, valid, in the working CRS; their position is their order.
    project : ndarray
        The project of each part (any hashable code); parts of different projects are
        never compared.
    rank : ndarray of int
        The precedence class of each part: lower first (0 permanent, 1 temporary). Within
        a class, the earlier position comes first.
    existing : ndarray of shapely polygons, optional
        Already developed ground (an existing road): no part counts it.

    Returns
    -------
    NetParts

    Examples
    --------
    >>> perm, temp = shapely.box(0, 0, 10, 10), shapely.box(5, 0, 15, 10)
    >>> net = net_parts(np.array([temp, perm]), np.array([1, 1]), np.array([1, 0]))
    >>> [round(float(a), 6) for a in shapely.area(net.geometry)], net.overlaps
    ([50.0, 100.0], [(0, 1, 50.0)])
    """
    parts = np.asarray(parts, dtype=object)
    n = len(parts)
    project = np.asarray(project)
    rank = np.asarray(rank)
    net = parts.copy()
    existing_sqm = np.zeros(n)
    if existing is not None and len(existing):
        existing = np.asarray(existing, dtype=object)
        i, j = interior_overlaps(parts, existing)
        if len(i):
            touched, union = union_by_group(existing[j], i)
            cut = shapely.difference(parts[touched], union)
            existing_sqm[touched] = shapely.area(parts[touched]) - shapely.area(cut)
            net[touched] = cut
    overlaps: list[tuple[int, int, float]] = []
    if n > 1:
        i, j = interior_overlaps(parts, parts)
        before = (i != j) & (project[i] == project[j])
        before &= (rank[j] < rank[i]) | ((rank[j] == rank[i]) & (j < i))
        i, j = i[before], j[before]
        if len(i):
            areas = shapely.area(shapely.intersection(parts[i], parts[j]))
            overlaps = [
                (int(a), int(b), float(s)) for a, b, s in zip(i, j, areas, strict=True) if s > 0
            ]
            later, union = union_by_group(parts[j], i)
            net[later] = shapely.difference(net[later], union)
    return NetParts(geometry=_polygonal(net), existing_sqm=existing_sqm, overlaps=overlaps)


def cut_by_wetlands(net: np.ndarray, wetlands: np.ndarray, wetland_group: np.ndarray) -> Pieces:
    """Intersect each net part with each wetland: one piece per (part, wetland group).

    Parameters
    ----------
    net : ndarray of shapely geometries
        The net parts (:func:`net_parts`).
    wetlands : ndarray of shapely polygons
        The wetland polygons, valid, not overlapping one another.
    wetland_group : ndarray of int
        The wetland (a code of its id) of each polygon: the polygons sharing an id are one
        wetland, and a part gives one piece in it.

    Returns
    -------
    Pieces
        Sorted by part, then wetland; only pieces with an area greater than 0.

    Examples
    --------
    >>> net = np.array([shapely.box(0, 0, 10, 10)])
    >>> wl = np.array([shapely.box(5, 5, 20, 20), shapely.box(-5, -5, 2, 2)])
    >>> p = cut_by_wetlands(net, wl, np.array([7, 8]))
    >>> p.wetland.tolist(), [round(float(a), 6) for a in shapely.area(p.geometry)]
    ([7, 8], [25.0, 4.0])
    """
    net = np.asarray(net, dtype=object)
    wetlands = np.asarray(wetlands, dtype=object)
    wetland_group = np.asarray(wetland_group, dtype=np.int64)
    empty = Pieces(
        np.array([], dtype=np.int64), np.array([], dtype=np.int64), [], np.array([], dtype=object)
    )
    if not len(net) or not len(wetlands):
        return empty
    present = ~shapely.is_empty(net)
    i, j = interior_overlaps(net[present], wetlands)
    if not len(i):
        return empty
    i = np.flatnonzero(present)[i]
    pieces = _polygonal(shapely.intersection(net[i], wetlands[j]))
    group = wetland_group[j]
    # one code per (part, wetland group)
    key = i.astype(np.int64) * (int(wetland_group.max()) + 1) + group
    keys, merged = union_by_group(pieces, key)
    first = np.unique(key, return_index=True)[1]
    part = i[first]
    wet = group[first]
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]
    bounds = (
        np.searchsorted(sorted_key, keys, side="left"),
        np.searchsorted(sorted_key, keys, side="right"),
    )
    polygons = [np.sort(j[order[a:b]]) for a, b in zip(*bounds, strict=True)]
    merged = _polygonal(merged)
    keep = shapely.area(merged) > 0
    return Pieces(
        part=part[keep],
        wetland=wet[keep],
        polygons=[p for p, k in zip(polygons, keep, strict=True) if k],
        geometry=merged[keep],
    )


def lateral_effect(lines: np.ndarray, distance_m: np.ndarray) -> np.ndarray:
    """Return the area a drainage line affects: its buffer by its lateral effect distance.

    Parameters
    ----------
    lines : ndarray of shapely lines
    distance_m : ndarray of float
        The lateral effect distance of each line (metres, greater than 0; user-supplied:
        the law held gives none).

    Returns
    -------
    ndarray of shapely polygons
        Round ends and joins, :data:`BUFFER_QUAD_SEGS` segments a quarter circle.

    Examples
    --------
    >>> area = shapely.area(lateral_effect(np.array([shapely.LineString([(0, 0), (100, 0)])]),
    ...                                    np.array([10.0])))[0]
    >>> round(float(area) / (100 * 20 + 3.141592653589793 * 100), 3)
    1.0
    """
    return shapely.buffer(np.asarray(lines, dtype=object), distance_m, quad_segs=BUFFER_QUAD_SEGS)
