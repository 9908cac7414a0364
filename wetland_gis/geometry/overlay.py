"""Attribute joins by overlap: which feature of a layer covers each target the most.

Both functions work on whole frames at once: candidate pairs come from a spatial index
query (the pairs whose boxes meet), element-wise predicates on the prepared layer
features keep those that intersect and find the targets wholly inside a feature, and the
overlap of every other pair is measured with vectorized :func:`shapely.intersection`;
there is no Python loop over rows.

The measure of an overlap depends on the dimension of the pair: area when both the
target and the layer feature are polygons, length when the lower of the two is a line,
and a count of 1 when one of them is a point (a point "overlaps" a feature it
intersects). Touching along a boundary only (an intersection of zero area between two
polygons) is not an overlap.

Examples
--------
>>> import geopandas as gpd
>>> from shapely.geometry import box
>>> targets = gpd.GeoDataFrame(geometry=[box(0, 0, 10, 10)], crs="EPSG:26915")
>>> layer = gpd.GeoDataFrame(
...     {"NAME": ["West", "East"]},
...     geometry=[box(-5, -5, 3, 15), box(3, -5, 20, 15)],
...     crs="EPSG:26915",
... )
>>> largest_overlap(targets, layer, ["NAME"])
   NAME  overlap_share  n_overlaps
0  East            0.7           2
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator, Sequence

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

from wetland_gis.errors import FieldMappingError, InputError, InputRepairWarning
from wetland_gis.units import FOOT_M as FOOT_M, SQFT_PER_ACRE as SQFT_PER_ACRE, SQFT_PER_SQM


def geometry_dimension(geoms: np.ndarray | gpd.GeoSeries) -> np.ndarray:
    """Return the topological dimension of each geometry (0 point, 1 line, 2 polygon).

    Collections take the highest dimension of their parts; empty or missing
    geometries give -1.

    Parameters
    ----------
    geoms : array of shapely geometries or GeoSeries

    Returns
    -------
    numpy.ndarray of int
    """
    arr = np.asarray(geoms, dtype=object)
    dim = shapely.get_dimensions(arr)
    dim = np.where(shapely.is_empty(arr) | shapely.is_missing(arr), -1, dim)
    return dim.astype(int)


def check_same_projected_crs(targets: gpd.GeoDataFrame, layer: gpd.GeoDataFrame) -> float:
    """Check that both frames share one projected CRS; return metres per CRS unit.

    Parameters
    ----------
    targets, layer : GeoDataFrame

    Returns
    -------
    float
        The length of one CRS unit in metres (1.0 for UTM).

    Raises
    ------
    InputError
        When a CRS is missing, geographic, or the two differ.
    """
    if targets.crs is None or layer.crs is None:
        which = "targets" if targets.crs is None else "layer"
        raise InputError(
            f"the {which} frame has no CRS; set it with `set_crs()` (the data's true CRS) "
            "and reproject both frames to EPSG:26915 with `to_crs()`"
        )
    if not targets.crs.equals(layer.crs):
        raise InputError(
            f"targets are in {targets.crs.to_string()} but the layer is in "
            f"{layer.crs.to_string()}; use `to_crs()` to reproject both to EPSG:26915"
        )
    if not targets.crs.is_projected:
        raise InputError(
            f"CRS {targets.crs.to_string()} is geographic: overlaps cannot be measured in "
            "degrees; use `to_crs('EPSG:26915')` to reproject both frames"
        )
    return float(targets.crs.axis_info[0].unit_conversion_factor)


def _check_fields(layer: gpd.GeoDataFrame, fields: Sequence[str]) -> list[str]:
    fields = list(fields)
    missing = [f for f in fields if f not in layer.columns]
    if missing:
        have = [c for c in layer.columns if c != layer.geometry.name]
        raise FieldMappingError(
            f"field(s) {missing} not in the layer; it has {have}. "
            "Rename the layer's columns or pass the names it has."
        )
    return fields


LAYER_SIDE_RATIO = 100
"""Query from the layer's side when it has this many times fewer features than the targets.

An index query prepares the geometry it is given: from the impacts' side each small
impact is prepared and tested against a whole county or bank service area (every
vertex of it), from the layer's side each large feature is prepared once and the
impacts within its box are tested against its index. With a layer of few, large
features (counties, major watersheds, bank service areas) the second is 3 to 10 times
faster at 200,000 impacts; with many small features (minor watersheds) the first.
The pairs are the same either way (``benchmarks/README.md``).
"""


def _candidates(
    targets: gpd.GeoDataFrame, layer: gpd.GeoDataFrame, order_free: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Return the (target, layer) positions of the candidate pairs.

    ``order_free``: the caller does not depend on the order of the pairs (it sorts them
    totally), so the query may run from the layer's side (:data:`LAYER_SIDE_RATIO`), on
    the targets' cached index, and gives the pairs whose boxes meet: :func:`_pairs`
    tests them. Without it, the pairs that intersect, in the layer index's order.
    """
    tgeom = np.asarray(targets.geometry.array, dtype=object)
    if not order_free:
        tpos, lpos = layer.sindex.query(tgeom, predicate="intersects")
        return tpos, lpos
    if len(layer) * LAYER_SIDE_RATIO <= len(tgeom):
        lpos, tpos = targets.sindex.query(np.asarray(layer.geometry.array, dtype=object))
        return tpos, lpos
    tpos, lpos = layer.sindex.query(tgeom)
    return tpos, lpos


@contextlib.contextmanager
def _prepared(geoms: np.ndarray) -> Iterator[None]:
    """Prepare the geometries not yet prepared for the block, release them after.

    The layer's own geometry objects are prepared in place (no copy), so a layer must not
    be joined from two threads at once; the package runs a join in one thread.
    """
    fresh = geoms[~shapely.is_prepared(geoms)]
    shapely.prepare(fresh)
    try:
        yield
    finally:
        shapely.destroy_prepared(fresh)


def _pairs(
    targets: gpd.GeoDataFrame, layer: gpd.GeoDataFrame, *, order_free: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return (target positions, layer positions, overlap measure, pair dimension).

    Only pairs whose overlap has a positive measure are kept. The measure is in CRS
    units (area, length) or 1 for point pairs. With ``order_free`` the pairs come in
    any order (see :func:`_candidates`); without it, in the index's order.

    One index query per layer gives the candidate pairs. The layer features among them
    are prepared once, and element-wise predicates find the targets lying wholly inside
    a feature (:func:`shapely.contains_properly`), whose overlap is their own measure
    (most impacts are far from any boundary), and, with ``order_free``, which of the
    other pairs intersect at all. Only the pairs left, the targets crossing a boundary,
    are intersected, in one vectorized :func:`shapely.intersection` call.
    """
    empty_i = np.empty(0, dtype=np.intp)
    if len(targets) == 0 or len(layer) == 0:
        return empty_i, empty_i, np.empty(0), np.empty(0, dtype=int)
    tgeom = np.asarray(targets.geometry.array, dtype=object)
    lgeom = np.asarray(layer.geometry.array, dtype=object)
    tpos, lpos = _candidates(targets, layer, order_free)
    if len(tpos) == 0:
        return empty_i, empty_i, np.empty(0), np.empty(0, dtype=int)
    tdim_all = geometry_dimension(tgeom)
    ldim_all = geometry_dimension(lgeom)
    used = np.zeros(len(lgeom), dtype=bool)
    used[lpos] = True
    with _prepared(lgeom[used]):
        need = np.minimum(tdim_all[tpos], ldim_all[lpos]) >= 1
        inside = _inside_pairs(tgeom, lgeom, tpos, lpos, need & (ldim_all[lpos] == 2))
        if order_free:  # box pairs: keep those that intersect
            hit = inside.copy()
            rest = np.flatnonzero(~inside)
            hit[rest] = shapely.intersects(lgeom[lpos[rest]], tgeom[tpos[rest]])
            tpos, lpos, inside = tpos[hit], lpos[hit], inside[hit]
    dim = np.minimum(tdim_all[tpos], ldim_all[lpos])
    measure = np.ones(len(tpos), dtype=float)
    need = dim >= 1
    if need.any():
        own = np.where(tdim_all == 2, shapely.area(tgeom), shapely.length(tgeom))
        measure[inside] = own[tpos[inside]]
        cut = need & ~inside
        if cut.any():
            inter = shapely.intersection(tgeom[tpos[cut]], lgeom[lpos[cut]])
            measure[cut] = np.where(dim[cut] == 2, shapely.area(inter), shapely.length(inter))
    keep = measure > 0
    return tpos[keep], lpos[keep], measure[keep], dim[keep]


def _inside_pairs(
    tgeom: np.ndarray, lgeom: np.ndarray, tpos: np.ndarray, lpos: np.ndarray, test: np.ndarray
) -> np.ndarray:
    """Return a mask of the pairs whose target lies in the interior of the layer feature.

    Only the pairs of ``test`` are tested, element-wise with
    :func:`shapely.contains_properly` (the layer features prepared by the caller, as an
    index query from the layer's side would prepare them). An index query over the
    targets found the same pairs, then matched them back to the candidates with
    ``np.unique`` and ``np.isin`` on int64 keys, whose hash tables took seconds at
    200,000 impacts.
    """
    inside = np.zeros(len(tpos), dtype=bool)
    sel = np.flatnonzero(test)
    if len(sel):
        inside[sel] = shapely.contains_properly(lgeom[lpos[sel]], tgeom[tpos[sel]])
    return inside


def _target_measure(targets: gpd.GeoDataFrame, tpos: np.ndarray, dim: np.ndarray) -> np.ndarray:
    """Return the target's own measure in the dimension of each pair (NaN if none)."""
    geom = np.asarray(targets.geometry.array, dtype=object)[tpos]
    tdim = geometry_dimension(geom)
    out = np.full(len(tpos), np.nan)
    same = tdim == dim
    out[same & (dim == 2)] = shapely.area(geom[same & (dim == 2)])
    out[same & (dim == 1)] = shapely.length(geom[same & (dim == 1)])
    out[same & (dim == 0)] = 1.0
    return out


def _ranked_pairs(
    targets: gpd.GeoDataFrame, layer: gpd.GeoDataFrame, fields: Sequence[str]
) -> tuple[float, list[str], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Check the frames and fields, and return the overlapping pairs in rank order.

    Returns ``(metres per CRS unit, fields, target positions, layer positions, overlap
    measure, pair dimension)``, the pairs (:func:`_pairs`) ordered by target, then largest
    overlap first, then the layer's order (so a tie goes to the first feature).
    """
    unit_m = check_same_projected_crs(targets, layer)
    fields = _check_fields(layer, fields)
    tpos, lpos, measure, dim = _pairs(targets, layer, order_free=True)
    order = np.lexsort((lpos, -measure, tpos))
    return unit_m, fields, tpos[order], lpos[order], measure[order], dim[order]


def _shares(
    targets: gpd.GeoDataFrame, tpos: np.ndarray, measure: np.ndarray, dim: np.ndarray
) -> np.ndarray:
    """Return each pair's overlap as a share (0-1) of its target's own measure."""
    if not len(tpos):
        return np.empty(0)
    return np.clip(measure / _target_measure(targets, tpos, dim), 0.0, 1.0)


def _take(values: pd.Series, lpos: np.ndarray, tpos: np.ndarray, n: int) -> pd.Series:
    """Place ``values[lpos]`` at target positions ``tpos`` of a length-``n`` column."""
    col = values.reset_index(drop=True).iloc[lpos]
    col.index = tpos
    if len(tpos) < n:
        if pd.api.types.is_bool_dtype(col.dtype):
            col = col.astype("boolean")
        elif pd.api.types.is_integer_dtype(col.dtype):
            col = col.astype("Int64")
    out = col.reindex(np.arange(n))
    if out.dtype == object or pd.api.types.is_string_dtype(out.dtype):
        out = pd.Series(
            np.where(out.notna(), out.to_numpy(dtype=object), None), index=out.index, dtype=object
        )
    return out


def largest_overlap(
    targets: gpd.GeoDataFrame, layer: gpd.GeoDataFrame, fields: Sequence[str]
) -> pd.DataFrame:
    """Return, for each target, the fields of the layer feature that overlaps it the most.

    Parameters
    ----------
    targets : GeoDataFrame
        Impact polygons (or points or lines), in a projected CRS.
    layer : GeoDataFrame
        Reference layer in the same CRS (counties, watersheds, ...).
    fields : sequence of str
        Columns of ``layer`` to carry over.

    Returns
    -------
    pandas.DataFrame
        Indexed like ``targets``: the ``fields`` of the feature with the largest overlap,
        ``overlap_share`` (overlap / target area, length, or 1 for points; 0-1) and
        ``n_overlaps`` (how many features overlap the target). Fields and share are
        missing (NaN, None or ``pd.NA``) where nothing overlaps; ``n_overlaps`` is then 0.
        Integer and boolean fields become the nullable ``Int64`` and ``boolean`` dtypes
        when some target has no overlap.

    Raises
    ------
    InputError
        When the two frames are not in the same projected CRS.
    FieldMappingError
        When a field is not a column of ``layer``.

    Notes
    -----
    Ties (two features overlapping exactly as much) go to the first feature in the layer's
    order, so the answer is deterministic.
    """
    _, fields, tpos, lpos, measure, dim = _ranked_pairs(targets, layer, fields)
    n = len(targets)
    # best pair per target: the first of its ranked pairs
    first = np.unique(tpos, return_index=True)[1] if len(tpos) else np.empty(0, int)
    best_t, best_l = tpos[first], lpos[first]
    counts = np.bincount(tpos, minlength=n) if n else np.zeros(0, dtype=int)

    out = pd.DataFrame(index=np.arange(n))
    for field in fields:
        out[field] = _take(layer[field], best_l, best_t, n)
    share = np.full(n, np.nan)
    share[best_t] = _shares(targets, best_t, measure[first], dim[first])
    out["overlap_share"] = share
    out["n_overlaps"] = counts.astype(int)
    out.index = targets.index
    return out


def all_overlaps(
    targets: gpd.GeoDataFrame, layer: gpd.GeoDataFrame, fields: Sequence[str]
) -> pd.DataFrame:
    """Return one row per target and layer feature that overlap.

    Used to record impacts that straddle counties or watersheds.

    Parameters
    ----------
    targets : GeoDataFrame
        Impact polygons (or points or lines), in a projected CRS.
    layer : GeoDataFrame
        Reference layer in the same CRS.
    fields : sequence of str
        Columns of ``layer`` to carry over.

    Returns
    -------
    pandas.DataFrame
        Index: the target's index label (repeated when it overlaps several features).
        Columns: ``target_pos`` (0-based position of the target), ``feature`` (the layer
        feature's index label), the ``fields``, ``overlap_sqft`` (square feet of overlap,
        international foot; NaN for line or point overlaps), ``overlap_share`` (0-1, as in
        :func:`largest_overlap`). Rows are ordered by target, then largest overlap first.
        Targets that overlap nothing have no row.

    Raises
    ------
    InputError, FieldMappingError
        As :func:`largest_overlap` (the same checks of the CRS and the fields).
    """
    unit_m, fields, tpos, lpos, measure, dim = _ranked_pairs(targets, layer, fields)
    out = layer[fields].iloc[lpos].reset_index(drop=True)
    out.insert(0, "feature", layer.index.to_numpy()[lpos])
    out.insert(0, "target_pos", tpos.astype(int))
    out["overlap_sqft"] = np.where(dim == 2, measure * unit_m * unit_m * SQFT_PER_SQM, np.nan)
    out["overlap_share"] = _shares(targets, tpos, measure, dim)
    out.index = pd.Index(targets.index.to_numpy()[tpos], name=targets.index.name)
    return out


UNION_BATCH = 1_024
"""Groups unioned per call by :func:`union_by_group`: a memory bound, not a result.

``union_all`` first copies the geometries of every row it is given into collections,
and the unions are held until measured: all the shoreland pieces at once (200,000
impacts) took 0.4 GiB more than a call per impact.
"""


def union_by_group(group: np.ndarray, geoms: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Yield groups (ascending) and the union of the geometries of each, a batch at a time.

    The geometries of a group are unioned in their order in ``geoms`` with
    :func:`shapely.union_all`, :data:`UNION_BATCH` groups per call: they are laid out as
    the rows of a 2-D array padded with None, which ``union_all`` skips, so each row gives
    the union of the group alone, as a call per group would (without a Python loop over
    the groups). The caller measures each batch and lets it go, so the unions of all the
    groups are never held at once.

    Parameters
    ----------
    group : numpy.ndarray of int
        The group of each geometry.
    geoms : numpy.ndarray of shapely geometries

    Yields
    ------
    groups : numpy.ndarray of int
    unions : numpy.ndarray of shapely geometries
    """
    if len(group) == 0:
        return
    order = np.argsort(group, kind="stable")
    g = group[order]
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    sizes = np.diff(np.r_[starts, len(g)])
    grid = np.full((len(starts), int(sizes.max())), None, dtype=object)
    grid[np.repeat(np.arange(len(starts)), sizes), np.arange(len(g)) - np.repeat(starts, sizes)] = (
        geoms[order]
    )
    for b0 in range(0, len(starts), UNION_BATCH):
        rows = slice(b0, b0 + UNION_BATCH)
        yield g[starts[rows]], shapely.union_all(grid[rows], axis=1)


def covered_share(targets: gpd.GeoDataFrame, layer: gpd.GeoDataFrame) -> pd.Series:
    """Return the share (0-1) of each target's area covered by the features of ``layer``.

    Overlapping features are not counted twice: the overlaps of one target are unioned
    before they are measured (only for targets that overlap two or more features).

    Parameters
    ----------
    targets : GeoDataFrame
        Polygons in a projected CRS.
    layer : GeoDataFrame
        Polygons in the same CRS (e.g. incorporated areas).

    Returns
    -------
    pandas.Series of float
        Indexed like ``targets``; 0 where nothing overlaps, NaN for a target of zero area.

    Raises
    ------
    InputError
        When the two frames are not in the same projected CRS.
    """
    check_same_projected_crs(targets, layer)
    n = len(targets)
    tgeom = np.asarray(targets.geometry.array, dtype=object)
    own = shapely.area(tgeom) if n else np.empty(0)
    covered = np.zeros(n)
    tpos, lpos, measure, dim = _pairs(targets, layer)
    poly = dim == 2
    tpos, lpos, measure = tpos[poly], lpos[poly], measure[poly]
    counts = np.bincount(tpos, minlength=n) if n else np.zeros(0, dtype=int)
    single = counts[tpos] == 1
    np.add.at(covered, tpos[single], measure[single])
    lgeom = np.asarray(layer.geometry.array, dtype=object)
    many = np.flatnonzero(counts[tpos] > 1)
    if len(many):
        for groups, unions in union_by_group(tpos[many], lgeom[lpos[many]]):
            covered[groups] = shapely.area(shapely.intersection(tgeom[groups], unions))
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(own > 0, np.clip(covered / own, 0.0, 1.0), np.nan)
    return pd.Series(share, index=targets.index, name="covered_share")


def self_overlaps(frame: gpd.GeoDataFrame, *, min_sqft: float = 0.01) -> pd.DataFrame:
    """Return the pairs of polygons of one layer that overlap each other.

    Two impact polygons drawn over the same ground count that ground twice in a project's
    totals; this finds such pairs so the overlap can be recorded for a person to check.

    Parameters
    ----------
    frame : GeoDataFrame
        Polygons in a projected CRS.
    min_sqft : float, default 0.01
        Overlaps smaller than this (in square feet) are ignored as digitising noise
        (a measurement tolerance, not a legal number).

    Returns
    -------
    DataFrame
        Columns ``left``, ``right`` (positions in ``frame``, ``left < right``) and
        ``overlap_sqft``.
    """
    unit_m = check_same_projected_crs(frame, frame)
    geoms = np.asarray(frame.geometry.array, dtype=object)
    left, right = frame.sindex.query(frame.geometry, predicate="intersects")
    keep = left < right
    left, right = left[keep], right[keep]
    order = np.lexsort((right, left))  # by position, whatever the index's inner order
    left, right = left[order], right[order]
    area = shapely.area(shapely.intersection(geoms[left], geoms[right]))
    sqft = area * unit_m * unit_m * SQFT_PER_SQM
    big = sqft >= min_sqft
    return pd.DataFrame({"left": left[big], "right": right[big], "overlap_sqft": sqft[big]})


def _labels(ids: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Return ``str(id)``, or ``"row <wg_row>"`` where the id is missing (object array)."""
    missing = np.asarray(pd.isna(ids), dtype=bool)
    out = np.empty(len(ids), dtype=object)
    out[~missing] = [str(i) for i in ids[~missing]]
    out[missing] = [f"row {r}" for r in rows[missing]]
    return out


def flag_overlaps(
    gdf: gpd.GeoDataFrame, id_field: str | None, records: list[str], *, status: str = "assessed"
) -> None:
    """Record impacts drawn over each other: their shared area counts in each of them.

    Each impact of an overlapping pair gets "overlaps <other> by <n> sq ft: ..." in its
    ``repairs`` column (after what is there), all rows at once; a record and an
    :class:`~wetland_gis.errors.InputRepairWarning` give the count.

    Parameters
    ----------
    gdf : GeoDataFrame
        The cleaned impacts with ``status``, ``wg_row`` and ``repairs``; changed in place.
    id_field : str, optional
        Column of the impact ids (labels in the notes); ``wg_row`` when None.
    records : list of str
        Receives the manifest record.
    status : str, default "assessed"
        The status of the rows checked.
    """
    sel = np.flatnonzero((gdf["status"] == status).to_numpy())
    if len(sel) < 2:
        return
    assessed = gdf.iloc[sel]
    pairs = self_overlaps(assessed)
    if pairs.empty:
        return
    ids = (assessed[id_field] if id_field else assessed["wg_row"]).to_numpy(dtype=object)
    rows = assessed["wg_row"].to_numpy()
    labels = _labels(ids, rows)
    left = pairs["left"].to_numpy()
    right = pairs["right"].to_numpy()
    sqft = [f"{v:,.1f}" for v in pairs["overlap_sqft"].to_numpy()]
    who = np.concatenate([left, right])
    other = np.concatenate([labels[right], labels[left]])
    amount = np.array(sqft + sqft, dtype=object)
    order = np.lexsort((np.tile(np.arange(len(left)), 2), who))
    text = (
        "overlaps "
        + other[order]
        + " by "
        + amount[order]
        + (" sq ft: the shared area is counted in each")
    )
    # the notes of each impact, in pair order, joined (rows sorted by impact above)
    who_s = who[order]
    starts = np.flatnonzero(np.r_[True, who_s[1:] != who_s[:-1]])
    pos = sel[who_s[starts]]
    notes = text.tolist()
    ends = np.r_[starts[1:], len(notes)].tolist()
    new = np.array(
        ["; ".join(notes[a:b]) for a, b in zip(starts.tolist(), ends, strict=True)], dtype=object
    )
    col = gdf.columns.get_loc("repairs")
    old = gdf.iloc[pos, col].to_numpy(dtype=object)
    has_old = np.array([isinstance(o, str) and bool(o) for o in old], dtype=bool)
    gdf.iloc[pos, col] = np.where(has_old, old.astype(str) + "; " + new, new)
    msg = (
        f"{len(pairs)} pair(s) of impact polygons overlap (e.g. {labels[left[0]]} "
        f"and {labels[right[0]]}): the shared area is counted in each impact and "
        "in the project totals; check the digitising (see the `repairs` column)"
    )
    records.append(msg)
    warnings.warn(msg, InputRepairWarning, stacklevel=3)
