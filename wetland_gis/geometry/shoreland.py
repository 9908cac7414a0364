"""Shoreland split: how much of each impact is in the setback zone, protection zone, outside.

The zones are measured exactly from the ordinary high water level (OHWL) of the public
waters near each impact, never from a statewide buffer:

1. the spatial index of the public waters is queried with each impact's box grown by the
   largest distance and the exact distance of each candidate decides, for every impact at
   once, the waters within reach (the pairs of a ``predicate="dwithin"`` query);
2. a pair whose impact lies wholly within a zone distance of the water (its centroid's
   distance plus its radius) is decided by distance alone, with no geometry;
3. for the other pairs the water is clipped to the impact's bounding box grown by the
   distance (exact: no farther part of the water can be within the distance of the
   impact), buffered (``quad_segs=32``: exact along the straight offsets) and
   intersected with the impact; the round joins, where a plain buffer falls inside the
   true circle, are added back as thin sectors drawn outside the circle
   (:data:`ARC_QUAD_SEGS`), so a zone is never too small and is exact to well under
   0.1 sq ft (``tests/test_zone_exactness.py``, ``docs/scale.md``); all vectorized over
   the pairs;
4. the pieces of each impact are unioned (grouped in one pass) and measured.

Legal rules (all distances and sizes are read from the parameters):

* Shoreland wetland protection zone, Minn. Stat. § 103G.005, subd. 15f: within
  ``shoreland.protection_zone.basin_distance`` of a public water basin and
  ``watercourse_distance`` of a watercourse. Where the local government unit (layer
  ``lgus``) has no approved shoreland ordinance (subd. 15f(2)) only basins of at least
  ``no_ordinance_basin_min_acres_municipal`` acres within municipalities and
  ``no_ordinance_basin_min_acres_unincorporated`` acres in unincorporated areas count;
  every watercourse of the layer (the public waters inventory) counts.
* Shoreland building setback zone (§ 103G.2241, subd. 9(c), "as defined in the local
  shoreland management ordinance"): within the setback of each water, which is the
  state minimum structure setback of Minn. R. 6120.3300 (``shoreland.structure_setback``,
  by ``shore_class`` and ``sewered``), raised to the water's ``setback_ft`` or the LGU's
  ``setback_ft`` when they are larger. A local ordinance may set larger setbacks; a
  smaller local value is below the state minimum and is ignored (recorded).
* The setback zone is the part of an impact within the setback of any counted water;
  the protection zone is the part within the protection distance of a counted water but
  outside every setback zone; outside is the rest.

Choices (documented in ``docs/context.md``): the area waterward of a basin's OHWL counts
as within the setback (distance 0); a water not counted for the protection zone (a small
basin where there is no ordinance) has no setback zone either, since the shoreland rules
do not classify it; an impact is governed by the LGU that covers most of it (the smallest
LGU on a tie, so a city wins over the county around it) and is "incorporated" when most
of it is inside a city; where no LGU covers an impact the ordinance case (15f(1), every
water in the layers) is used and recorded for verification; a water whose ``sewered`` is
empty takes the unsewered (larger) setback.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

from wetland_gis.context_layers import ContextLayers
from wetland_gis.enums import ShorelandZone
from wetland_gis.errors import InputError
from wetland_gis.geometry.cleaning import note_rows, row_label
from wetland_gis.geometry.overlay import (
    all_overlaps,
    check_same_projected_crs,
    covered_share,
    union_by_group,
)
from wetland_gis.parameters import ParameterSet, default_parameters
from wetland_gis.units import FOOT_M, SQFT_PER_ACRE, SQFT_PER_SQM

NEAREST_SEARCH_FT = 5280.0
"""Radius (feet) within which the nearest public water is reported (a reporting choice)."""

QUAD_SEGS = 32
"""Segments per quarter circle of the zone buffers along the straight offsets.

A buffer at this resolution puts its vertices on the circle, so on a round join it is
short of the true zone by up to ``d * (1 - cos(pi / 128))``, 0.03 % of the distance
(0.3 ft at 1,000 ft); over an impact that edge can be hundreds of feet long, so the
area error would reach tens of square feet. The joins are therefore added back at
:data:`ARC_QUAD_SEGS` (see :func:`zone_buffer` and ``docs/scale.md``).
"""

ARC_QUAD_SEGS = 2048
"""Segments per quarter circle of the arcs that restore the round joins of the zones.

They circumscribe the circle, so a zone is never too small; the excess is at most
``d * (sec(pi / 8192) - 1)`` (7.4e-8 of the distance: 0.00007 ft at 1,000 ft) times the
length of the zone edge inside the impact, i.e. below 0.05 sq ft for a 150 m impact at
the 1,000 ft edge, and always on the stricter side. Only the arc facing each impact is
drawn. 0 turns the correction off (plain buffers at :data:`QUAD_SEGS`, as a geopandas
script draws them).
"""


def zone_buffer(
    geoms: np.ndarray | shapely.Geometry, distance: float | np.ndarray, quad_segs: int = QUAD_SEGS
) -> np.ndarray:
    """Return buffer polygons that contain the true zone (they circumscribe the circle).

    A GEOS buffer puts its vertices on the circle of radius ``distance``, so its chords
    cut inside the true zone and the zone comes out too small (the lenient side). Here
    the radius is ``distance / cos(pi / (4 * quad_segs))``: each chord of a round join is
    then tangent to the true circle, so the polygon contains every point within
    ``distance``; it errs toward the stricter zone only, by at most
    ``distance * (sec(pi / (4 * quad_segs)) - 1)`` everywhere along its edge. (The split
    itself is sharper: see :data:`ARC_QUAD_SEGS`.)

    Parameters
    ----------
    geoms : geometry or array of geometries
    distance : float or array of float
        Zone distance in CRS units.
    quad_segs : int, default :data:`QUAD_SEGS`
        Segments per quarter circle.

    Returns
    -------
    numpy.ndarray of shapely geometries
    """
    grow = 1.0 / np.cos(np.pi / (4 * quad_segs))
    return shapely.buffer(geoms, np.asarray(distance, dtype=float) * grow, quad_segs=quad_segs)


SHORELAND_COLUMNS = (
    "sqft_setback",
    "sqft_protection",
    "sqft_outside",
    "zone",
    "nearest_pw",
    "nearest_pw_ft",
)
"""The columns :func:`shoreland_split` gives, in the order of ``docs/data_schema.md``."""

_PROTECTION = "shoreland.protection_zone."


@dataclass(frozen=True)
class ShorelandSplit:
    """Result of :func:`shoreland_split`.

    Attributes
    ----------
    frame : pandas.DataFrame
        Indexed like the impacts: :data:`SHORELAND_COLUMNS`, then ``lgu_name``,
        ``shoreland_ordinance`` and ``incorporated`` (the jurisdiction used).
    records : tuple of str
        What was assumed or could not be known, for the run manifest.
    """

    frame: pd.DataFrame
    records: tuple[str, ...]


# ------------------------------------------------------------------------- public waters


def public_waters(
    context: ContextLayers,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
) -> gpd.GeoDataFrame:
    """Return the public water basins and watercourses as one frame with their distances.

    Parameters
    ----------
    context : Context
        Its ``public_water_basins`` and ``public_watercourses`` (either may be absent).
    params : ParameterSet, optional
        Default: the shipped parameters.
    as_of : str or date, optional
        Date the parameters are read for (default today).

    Returns
    -------
    GeoDataFrame
        Columns ``pw_id``, ``pw_name``, ``kind`` (``basin`` or ``watercourse``),
        ``shore_class``, ``sewered`` (nullable bool), ``setback_ft`` (the water's local
        value or NaN), ``acres`` (basins: the field, else the area of all features with
        the same ``pw_id``; NaN for watercourses), ``state_setback_ft`` (Minn. R. 6120.3300
        by class and sewer, unsewered when ``sewered`` is empty),
        ``sewered_setback_ft`` (the sewered value, to tell whether an unknown ``sewered``
        matters), ``protection_ft`` (§ 103G.005, subd. 15f) and the OHWL geometry, in the
        context CRS.

    Raises
    ------
    InputError
        When a ``shore_class`` has no row in the setback table.
    """
    params = params if params is not None else default_parameters()
    table = params.value("shoreland.structure_setback", as_of)
    frames = []
    for layer_name, kind, dist_key in (
        ("public_water_basins", "basin", "basin_distance"),
        ("public_watercourses", "watercourse", "watercourse_distance"),
    ):
        layer = context.get(layer_name)
        if layer is None or len(layer) == 0:
            continue
        frame = _water_attributes(layer, kind)
        unknown = sorted(set(frame["shore_class"]) - set(table))
        if unknown:
            raise InputError(
                f"{layer_name}: shore_class {unknown} has no row in the setback table "
                f"shoreland.structure_setback ({params.citation('shoreland.structure_setback')}); "
                f"the table has {sorted(table)}"
            )
        _state_setbacks(frame, table)
        frame["protection_ft"] = float(params.value(_PROTECTION + dist_key, as_of))
        frames.append(gpd.GeoDataFrame(frame, geometry=layer.geometry.to_numpy(), crs=layer.crs))
    if not frames:
        return gpd.GeoDataFrame(
            {c: [] for c in _WATER_COLUMNS}, geometry=[], crs=context.counties.crs
        )
    return gpd.GeoDataFrame(pd.concat(frames, ignore_index=True), crs=frames[0].crs)


#: The columns of :func:`public_waters`, before the geometry.
_WATER_COLUMNS = (
    "pw_id",
    "pw_name",
    "kind",
    "shore_class",
    "sewered",
    "setback_ft",
    "acres",
    "state_setback_ft",
    "sewered_setback_ft",
    "protection_ft",
)


def _optional(layer: gpd.GeoDataFrame, column: str, dtype: str) -> Any:
    """Return ``column`` of ``layer`` as ``dtype`` (``"object"``, ``"boolean"``, ``"float"``).

    An absent column is unknown on every row: None, NA or NaN.
    """
    n = len(layer)
    if dtype == "boolean":
        if column in layer:
            return layer[column].astype("boolean").to_numpy()
        return pd.array([pd.NA] * n, dtype="boolean")
    if dtype == "float":
        return layer[column].astype(float).to_numpy() if column in layer else np.full(n, np.nan)
    return (
        layer[column].to_numpy(dtype=object) if column in layer else np.full(n, None, dtype=object)
    )


def _water_attributes(layer: gpd.GeoDataFrame, kind: str) -> pd.DataFrame:
    """Return the attributes of a public waters layer of ``kind`` (basin or watercourse).

    A basin's ``acres`` is its field, else the area of all its features with the same
    ``pw_id``; a watercourse has none (NaN).
    """
    frame = pd.DataFrame(
        {
            "pw_id": layer["pw_id"].to_numpy(dtype=object),
            "pw_name": _optional(layer, "pw_name", "object"),
            "kind": kind,
            "shore_class": layer["shore_class"].to_numpy(dtype=object),
            "sewered": _optional(layer, "sewered", "boolean"),
            "setback_ft": _optional(layer, "setback_ft", "float"),
        }
    )
    if kind != "basin":
        frame["acres"] = np.nan
        return frame
    unit_m = float(layer.crs.axis_info[0].unit_conversion_factor)
    sq_m = layer.geometry.area.to_numpy() * unit_m * unit_m
    by_id = pd.Series(sq_m).groupby(frame["pw_id"].to_numpy()).transform("sum")
    computed = by_id.to_numpy() * SQFT_PER_SQM / SQFT_PER_ACRE
    given = _optional(layer, "acres", "float")
    frame["acres"] = np.where(np.isnan(given), computed, given)
    return frame


def _state_setbacks(frame: pd.DataFrame, table: Mapping[str, Any]) -> None:
    """Add the Minn. R. 6120.3300 setbacks by ``shore_class``: as sewered (or not), and sewered.

    A water whose ``sewered`` is empty takes the unsewered setback.
    """
    sewer = frame["sewered"].fillna(False).to_numpy(dtype=bool)
    classes = pd.Series(frame["shore_class"].to_numpy(dtype=object))
    sewered_ft = classes.map({c: float(row["sewer"]) for c, row in table.items()})
    unsewered_ft = classes.map({c: float(row["no_sewer"]) for c, row in table.items()})
    frame["state_setback_ft"] = np.where(
        sewer, sewered_ft.to_numpy(dtype=float), unsewered_ft.to_numpy(dtype=float)
    )
    frame["sewered_setback_ft"] = sewered_ft.to_numpy(dtype=float)


# ---------------------------------------------------------------------------- jurisdiction


def impact_jurisdiction(
    impacts: gpd.GeoDataFrame,
    context: ContextLayers,
) -> pd.DataFrame:
    """Return the LGU and the incorporated status that govern each impact.

    Parameters
    ----------
    impacts : GeoDataFrame
        Impact polygons in the context CRS.
    context : Context
        Its ``lgus`` and ``incorporated_areas`` layers (either may be absent).

    Returns
    -------
    pandas.DataFrame
        Indexed like ``impacts``: ``lgu_name``, ``shoreland_ordinance`` (nullable bool),
        ``lgu_setback_ft`` (float), ``n_lgus`` (LGUs overlapping), ``incorporated``
        (nullable bool: most of the impact inside a city; NA without the layer) and
        ``incorporated_share`` (0-1).

    Notes
    -----
    The LGU is the one covering the largest part of the impact; on a tie (overlapping
    LGU polygons, e.g. a county drawn around its cities) the smallest LGU wins.
    """
    n = len(impacts)
    out = pd.DataFrame(
        {
            "lgu_name": pd.Series([None] * n, dtype=object),
            "shoreland_ordinance": pd.array([pd.NA] * n, dtype="boolean"),
            "lgu_setback_ft": np.full(n, np.nan),
            "n_lgus": np.zeros(n, dtype=int),
            "incorporated": pd.array([pd.NA] * n, dtype="boolean"),
            "incorporated_share": np.full(n, np.nan),
        }
    )
    lgus = context.get("lgus")
    if lgus is not None and len(lgus) and n:
        fields = ["lgu_name", "shoreland_ordinance"]
        if "setback_ft" in lgus:
            fields.append("setback_ft")
        ov = all_overlaps(impacts, lgus, fields)
        if len(ov):
            ov = ov.reset_index(drop=True)
            ov["lgu_area"] = lgus.geometry.area.to_numpy()[lgus.index.get_indexer(ov["feature"])]
            ov["share_key"] = -np.round(ov["overlap_share"].to_numpy(), 9)
            ov = ov.sort_values(["target_pos", "share_key", "lgu_area"], kind="stable")
            counts = ov.groupby("target_pos").size()
            best = ov.drop_duplicates("target_pos")
            pos = best["target_pos"].to_numpy()
            out.loc[pos, "lgu_name"] = best["lgu_name"].to_numpy()
            out.loc[pos, "shoreland_ordinance"] = best["shoreland_ordinance"].to_numpy()
            if "setback_ft" in best:
                out.loc[pos, "lgu_setback_ft"] = best["setback_ft"].astype(float).to_numpy()
            out.loc[counts.index.to_numpy(), "n_lgus"] = counts.to_numpy()
    cities = context.get("incorporated_areas")
    if cities is not None and n:
        share = covered_share(impacts, cities).to_numpy()
        out["incorporated_share"] = share
        inc = pd.array(share >= 0.5, dtype="boolean")
        inc[np.isnan(share)] = pd.NA
        out["incorporated"] = inc
    out.index = impacts.index
    return out


# ------------------------------------------------------------------------------ the split


@dataclass(frozen=True)
class _Pairs:
    """Impact x water pairs within reach, with their zone distances in CRS units."""

    imp: np.ndarray
    wat: np.ndarray
    dist: np.ndarray  # CRS units, exact
    setback: np.ndarray  # CRS units
    protection: np.ndarray  # CRS units
    counted: np.ndarray  # bool: the water has zones for this impact
    setback_ft: np.ndarray


def _passes(
    param_key: str, amounts: np.ndarray, params: ParameterSet, as_of: str | dt.date | None
) -> np.ndarray:
    """Ask the parameter about each distinct amount once (a few basins, many pairs)."""
    param = params[param_key]
    values, inverse = np.unique(amounts, return_inverse=True)
    answers = np.array([param.passes(float(a), as_of) for a in values], dtype=bool)
    return answers[inverse].reshape(np.shape(amounts))


DWITHIN_BAND = 1e-9
"""Relative band about the reach in which :func:`_within_reach` asks ``dwithin`` itself.

The plain and the prepared distance of GEOS take the minimum of the same
segment-to-segment distances and differ by a few units in the last place at most;
a pair whose distance is within this share of the reach is decided by
:func:`shapely.dwithin`, so the pairs are those of an index query with
``predicate="dwithin"`` (a tolerance of the arithmetic, not a legal number).
"""


def _within_reach(
    igeom: np.ndarray, wgeom: np.ndarray, tree: gpd.sindex.SpatialIndex, reach: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (impact, water, exact distance) of the pairs within ``reach`` (CRS units).

    The index is queried with each impact's box grown by ``reach`` (the box query that
    ``predicate="dwithin"`` runs first, in the same order) and the distance of every
    candidate is measured once: it decides the pair and is the distance kept. (The
    ``dwithin`` query measured the pairs it kept a second time.)
    """
    b = shapely.bounds(igeom)
    boxes = shapely.box(b[:, 0] - reach, b[:, 1] - reach, b[:, 2] + reach, b[:, 3] + reach)
    imp, wat = tree.query(boxes)
    dist = shapely.distance(igeom[imp], wgeom[wat])
    keep = dist <= reach
    edge = np.flatnonzero(np.abs(dist - reach) <= DWITHIN_BAND * reach)
    if len(edge):
        keep[edge] = shapely.dwithin(igeom[imp[edge]], wgeom[wat[edge]], reach)
    return imp[keep], wat[keep], dist[keep]


def _pairs(
    impacts: gpd.GeoDataFrame,
    waters: gpd.GeoDataFrame,
    juris: pd.DataFrame,
    params: ParameterSet,
    as_of: str | dt.date | None,
    search_ft: float,
    records: list[str],
) -> _Pairs:
    unit_m = check_same_projected_crs(impacts, waters)
    ft = FOOT_M / unit_m  # CRS units per foot
    local_lgu = np.nan_to_num(juris["lgu_setback_ft"].to_numpy(dtype=float), nan=0.0)
    water_local = np.nan_to_num(waters["setback_ft"].to_numpy(dtype=float), nan=0.0)
    state = waters["state_setback_ft"].to_numpy(dtype=float)
    prot = waters["protection_ft"].to_numpy(dtype=float)
    reach_ft = max(
        float(np.max(np.maximum(np.maximum(state, water_local), prot))),
        float(local_lgu.max()) if len(local_lgu) else 0.0,
        float(search_ft),
    )
    igeom = np.asarray(impacts.geometry.array, dtype=object)
    wgeom = np.asarray(waters.geometry.array, dtype=object)
    imp, wat, dist = _within_reach(igeom, wgeom, waters.sindex, reach_ft * ft)

    # setback of each pair: the state minimum raised by larger local values
    given = np.maximum(water_local[wat], local_lgu[imp])
    below = (given > 0) & (given < state[wat])
    note_rows(
        records,
        impacts,
        np.unique(imp[below]),
        lambda rows: (
            "shoreland: a local setback_ft below the state minimum of Minn. R. "
            f"6120.3300 was ignored for {rows} (a local ordinance may set "
            "larger setbacks, not smaller); verify the local ordinance"
        ),
    )
    setback_ft = np.maximum(state[wat], given)

    # which waters count (§ 103G.005, subd. 15f(2) where there is no approved ordinance)
    ordinance = pd.array(juris["shoreland_ordinance"], dtype="boolean")
    inc_known = pd.array(juris["incorporated"], dtype="boolean")
    no_ord = (~ordinance.fillna(True)).to_numpy(dtype=bool)[imp]
    basin = waters["kind"].to_numpy()[wat] == "basin"
    acres = waters["acres"].to_numpy(dtype=float)[wat]
    counted = np.ones(len(imp), dtype=bool)
    check = no_ord & basin
    if check.any():
        unincorporated = (~inc_known.fillna(True)).to_numpy(dtype=bool)[imp[check]]
        ok_muni = _passes(
            _PROTECTION + "no_ordinance_basin_min_acres_municipal", acres[check], params, as_of
        )
        ok_uninc = _passes(
            _PROTECTION + "no_ordinance_basin_min_acres_unincorporated", acres[check], params, as_of
        )
        counted[check] = np.where(unincorporated, ok_uninc, ok_muni)
        unknown_inc = inc_known.isna()[imp[check]]
        note_rows(
            records,
            impacts,
            np.unique(imp[check][unknown_inc]),
            lambda rows: (
                "shoreland: no incorporated_areas layer (or no answer) for impacts "
                "in an LGU without an approved shoreland ordinance; the municipal basin size of "
                f"§ 103G.005, subd. 15f(2)(i) (the smaller) was used for {rows}; verify"
            ),
        )
    return _Pairs(
        imp=imp,
        wat=wat,
        dist=dist,
        setback=setback_ft * ft,
        protection=prot[wat] * ft,
        counted=counted,
        setback_ft=setback_ft,
    )


def _zone_pieces(
    igeom: np.ndarray, wgeom: np.ndarray, imp: np.ndarray, wat: np.ndarray, dist: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Return (impact position, piece) whose union per impact, cut to it, is its zone part.

    For each pair the water is clipped to the impact's box grown by the distance (no
    farther part of it can be within the distance of the impact), buffered at
    :data:`QUAD_SEGS` and clipped to the impact's bounding box. That polygon is exact
    along the straight offsets and short on the round joins; the joins are then added
    back as sectors, drawn at :data:`ARC_QUAD_SEGS` and circumscribing the circle, about
    every vertex of the water whose circle crosses the impact (see :func:`zone_buffer`
    and ``docs/scale.md`` for the bound); where a vertex's circle holds the whole impact
    the piece is the impact's box. All steps are vectorized over the pairs.

    The pieces are cut to the impact's box, not to the impact: two pieces cut to a thin
    sliver share its long edges, and the union of such slivers lost area to GEOS's
    snapping (0.005 sq ft of 8, issue 30); the box-cut pieces are unioned and the union
    is then cut to the impact once (:func:`_union_area_by_impact`).
    """
    if len(imp) == 0:
        return imp, np.empty(0, dtype=object)
    own = igeom[imp]
    bounds = shapely.bounds(own)
    frame = shapely.box(bounds[:, 0], bounds[:, 1], bounds[:, 2], bounds[:, 3])
    pad = dist * 1.01  # beyond the circumscribing polygons: the clip is exact
    window = shapely.box(
        bounds[:, 0] - pad, bounds[:, 1] - pad, bounds[:, 2] + pad, bounds[:, 3] + pad
    )
    near = shapely.intersection(wgeom[wat], window)
    pieces = shapely.intersection(shapely.buffer(near, dist, quad_segs=QUAD_SEGS), frame)
    if not ARC_QUAD_SEGS:
        return imp, pieces
    cx, cy, a0, a1, which = _fans(near)
    d = dist[which]
    pts = shapely.points(cx, cy)
    reaches = shapely.distance(pts, own[which]) < d
    # a vertex whose circle holds the whole impact (its farthest vertex within ``d``) puts
    # the whole impact in the zone; the plain buffer's chords would cut off the far end of
    # a sliver reaching the circle, and the sector is not needed (issue 30)
    holds = reaches & (shapely.hausdorff_distance(pts, own[which]) <= d)
    whole = np.unique(which[holds])
    crossing = reaches & ~holds
    cx, cy, a0, a1, which, d = (v[crossing] for v in (cx, cy, a0, a1, which, d))
    a0, a1, keep = _clip_to_box(cx, cy, a0, a1, bounds[which])
    cx, cy, a0, a1, which, d = (v[keep] for v in (cx, cy, a0, a1, which, d))
    disks = np.empty(len(cx), dtype=object)
    for sl in _arc_batches(a0, a1):  # a few million arc vertices at a time
        disks[sl] = shapely.intersection(
            _arc_pies(cx[sl], cy[sl], d[sl], a0[sl], a1[sl]), frame[which[sl]]
        )
    return np.concatenate([imp, imp[whole], imp[which]]), np.concatenate(
        [pieces, frame[whole], disks]
    )


ARC_BATCH_VERTICES = 1_000_000
"""Arc vertices drawn at a time (:func:`_arc_batches`): a memory bound, not a result.

At 200,000 impacts the arcs have some 25 million vertices; drawn at once their numpy
temporaries took over 2 GiB and were slower (fresh pages for every array). Each
sector is drawn whole in one batch, with the same coordinates.
"""


def _arc_batches(a0: np.ndarray, a1: np.ndarray) -> list[slice]:
    """Cut the sectors into runs of about :data:`ARC_BATCH_VERTICES` vertices."""
    if len(a0) == 0:
        return []
    step = np.pi / (2 * max(ARC_QUAD_SEGS, 1))
    npts = np.maximum(np.ceil((a1 - a0) / step), 1) + 2  # as _arc_pies draws them
    start = np.cumsum(npts) - npts  # first vertex of each sector
    edges = np.flatnonzero(np.diff(start // ARC_BATCH_VERTICES)) + 1
    bounds = np.r_[0, edges, len(a0)]
    return [slice(int(b0), int(b1)) for b0, b1 in zip(bounds[:-1], bounds[1:], strict=True)]


def _fans(near: np.ndarray) -> tuple[np.ndarray, ...]:
    """Return the round joins of the buffers of ``near``: centre, angle range, owner.

    A buffer's boundary is round only at a vertex where the outline turns away from the
    buffered side (a convex corner of a polygon, the outer side of a bend of a line, the
    two ends of a line), between the outward normals of the two edges; elsewhere it is
    the straight offset, which the plain buffer draws exactly. Polygons are normalized
    first (exterior clockwise, holes counter-clockwise: the inside is on the right).
    """
    parts, owner = shapely.get_parts(near, return_index=True)
    kind = shapely.get_type_id(parts)
    out = []
    polys = kind == 3
    if polys.any():
        rings, r_owner = shapely.get_rings(shapely.normalize(parts[polys]), return_index=True)
        xy, r = shapely.get_coordinates(rings, return_index=True)
        last = np.r_[r[1:] != r[:-1], True]  # drop the closing vertex of each ring
        xy, r = xy[~last], r[~last]
        out.append(_ring_fans(xy, r, owner[polys][r_owner][r], closed=True))
    lines = kind == 1
    if lines.any():
        xy, r = shapely.get_coordinates(parts[lines], return_index=True)
        out.append(_ring_fans(xy, r, owner[lines][r], closed=False))
    if not out:
        e = np.empty(0)
        return e, e, e, e, np.empty(0, dtype=np.intp)
    return tuple(np.concatenate(col) for col in zip(*out, strict=True))


def _ring_fans(
    xy: np.ndarray, ring: np.ndarray, owner: np.ndarray, closed: bool
) -> tuple[np.ndarray, ...]:
    """Return (x, y, a0, a1, owner) of the round joins along rings or lines of vertices."""
    n = len(xy)
    start = np.r_[True, ring[1:] != ring[:-1]]
    end = np.r_[ring[1:] != ring[:-1], True]
    first = np.maximum.accumulate(np.where(start, np.arange(n), 0))
    last_of = np.minimum.accumulate(np.where(end, np.arange(n), n)[::-1])[::-1]
    prev = np.where(start, last_of, np.arange(n) - 1)
    nxt = np.where(end, first, np.arange(n) + 1)
    e1 = xy - xy[prev]  # edge into the vertex (wraps round a ring)
    e2 = xy[nxt] - xy  # edge out of it
    th1 = np.arctan2(e1[:, 1], e1[:, 0])
    th2 = np.arctan2(e2[:, 1], e2[:, 0])
    cross = e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0]
    half = np.pi / 2
    turn = np.abs((th2 - th1 + np.pi) % (2 * np.pi) - np.pi)
    # right turn: the left side bulges, the fan runs from the left normal of e1 clockwise
    # to that of e2, i.e. counter-clockwise from th2 + pi/2; left turn: the right side,
    # counter-clockwise from the right normal of e1 (th1 - pi/2)
    a0 = np.where(cross < 0, th2 + half, th1 - half)
    a1 = a0 + turn
    if closed:
        fan = cross < 0
    else:  # both sides of a line are outside; its ends have half-disk caps
        fan = (cross != 0) | start | end
        a0 = np.where(start, th2 + half, np.where(end, th1 - half, a0))
        a1 = np.where(start | end, a0 + np.pi, a1)
    return xy[fan, 0], xy[fan, 1], a0[fan], a1[fan], owner[fan]


def _clip_to_box(
    cx: np.ndarray, cy: np.ndarray, a0: np.ndarray, a1: np.ndarray, bounds: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Narrow each fan to the directions of the impact's box; say which fans remain."""
    x0, y0, x1, y1 = bounds.T
    inside = (cx >= x0) & (cx <= x1) & (cy >= y0) & (cy <= y1)
    ang = np.arctan2(
        np.stack([y0, y0, y1, y1], 1) - cy[:, None], np.stack([x0, x1, x1, x0], 1) - cx[:, None]
    )
    mid = (a0 + a1) / 2
    rel = (ang - mid[:, None] + np.pi) % (2 * np.pi) - np.pi  # the box spans < pi from outside
    lo = np.where(inside, a0, np.maximum(a0, mid + rel.min(axis=1)))
    hi = np.where(inside, a1, np.minimum(a1, mid + rel.max(axis=1)))
    return lo, hi, hi > lo


def _arc_pies(
    cx: np.ndarray, cy: np.ndarray, radius: np.ndarray, a0: np.ndarray, a1: np.ndarray
) -> np.ndarray:
    """Return sectors about each centre, angles ``a0`` to ``a1``, containing the disk's part.

    The arc is drawn with chords tangent to the circle (vertices at
    ``radius / cos(step / 2)``, ``step`` at most pi / (2 * ARC_QUAD_SEGS)), so the sector
    contains the disk's sector and exceeds the circle by at most
    ``radius * (sec(step / 2) - 1)``. Built with numpy for all centres at once.
    """
    if len(cx) == 0:
        return np.empty(0, dtype=object)
    step = np.pi / (2 * ARC_QUAD_SEGS)
    m = np.maximum(np.ceil((a1 - a0) / step).astype(np.int64), 1)
    big = radius / np.cos(step / 2)
    # each ring: the centre, arc points k = 0..m, the centre again (closed); the arc
    # points are computed alone, written in place, and the rings made in one call
    narc = m + 1
    ends = np.cumsum(narc + 2)
    starts = ends - (narc + 2)
    idx = np.repeat(np.arange(len(cx)), narc)
    k = np.arange(len(idx)) - np.repeat(np.cumsum(narc) - narc, narc)
    t = k * ((a1 - a0) / m)[idx]
    t += a0[idx]
    r = big[idx]
    xy = np.empty((int(ends[-1]), 2))
    arc = np.ones(len(xy), dtype=bool)
    arc[starts] = False
    arc[ends - 1] = False
    for col, centre, trig in ((0, cx, np.cos), (1, cy, np.sin)):
        v = trig(t)
        v *= r
        v += centre[idx]
        xy[arc, col] = v
        xy[starts, col] = centre
        xy[ends - 1, col] = centre
    offsets = np.r_[0, ends]
    return shapely.from_ragged_array(
        shapely.GeometryType.POLYGON, xy, (offsets, np.arange(len(cx) + 1))
    )


def _reach_beyond(
    igeom: np.ndarray, imp: np.ndarray, wgeom: np.ndarray, wat: np.ndarray
) -> np.ndarray:
    """Return, per pair, a distance no point of the impact is farther than from the water.

    Any point of an impact is within (distance of its centroid to the water) + (largest
    distance from the centroid to a vertex) of the water: a pair within that bound of a
    zone distance needs no geometry, the whole impact is in the zone. Only the impacts
    of the pairs are measured.
    """
    cen = np.empty(len(igeom), dtype=object)
    radius = np.zeros(len(igeom))
    some = np.zeros(len(igeom), dtype=bool)
    some[imp] = True
    cen[some] = shapely.centroid(igeom[some])
    radius[some] = shapely.hausdorff_distance(cen[some], igeom[some])
    return shapely.distance(cen[imp], wgeom[wat]) + radius[imp]


def _union_area_by_impact(
    n: int, imp: np.ndarray, parts: np.ndarray, igeom: np.ndarray
) -> np.ndarray:
    """Return the area of each impact covered by the union of its ``parts`` (0 where none).

    The parts of an impact (cut to its box by :func:`_zone_pieces`) are unioned, and the
    union is intersected with the impact once.
    """
    area = np.zeros(n)
    if len(imp) == 0:
        return area
    counts = np.bincount(imp, minlength=n)
    single = counts[imp] == 1
    area[imp[single]] = shapely.area(shapely.intersection(parts[single], igeom[imp[single]]))
    many = np.flatnonzero(~single)
    if len(many):
        for groups, unions in union_by_group(imp[many], parts[many]):
            area[groups] = shapely.area(shapely.intersection(unions, igeom[groups]))
    return area


def shoreland_split(
    impacts: gpd.GeoDataFrame,
    context: ContextLayers,
    *,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
    jurisdiction: pd.DataFrame | None = None,
    search_ft: float = NEAREST_SEARCH_FT,
) -> ShorelandSplit:
    """Split each impact into its shoreland setback, protection and outside square feet.

    Parameters
    ----------
    impacts : GeoDataFrame
        Impact polygons in the context CRS (EPSG:26915).
    context : Context
        Uses ``public_water_basins``, ``public_watercourses``, ``lgus`` and
        ``incorporated_areas``.
    params : ParameterSet, optional
        Default: the shipped parameters.
    as_of : str or date, optional
        Date the parameters are read for (default today).
    jurisdiction : DataFrame, optional
        The result of :func:`impact_jurisdiction` when the caller has it already.
    search_ft : float, default :data:`NEAREST_SEARCH_FT`
        Radius within which ``nearest_pw`` is reported.

    Returns
    -------
    ShorelandSplit
        ``frame`` indexed like ``impacts``: ``sqft_setback``, ``sqft_protection``,
        ``sqft_outside`` (their sum is the area in international square feet by
        construction: the zones are clipped to the area and ``sqft_outside`` is the rest,
        so the sum differs from the area by floating-point rounding only),
        ``zone`` (a :class:`~wetland_gis.enums.ShorelandZone` value: the most restrictive
        zone the impact reaches, by exact distance), ``nearest_pw`` (``pw_id``) and
        ``nearest_pw_ft`` (None beyond ``search_ft``), ``lgu_name``,
        ``shoreland_ordinance``, ``incorporated``. Without either public waters layer the
        split, zone and nearest water are None and a record says so.

    Raises
    ------
    InputError
        When impacts and context are not in the same projected CRS.

    Examples
    --------
    See ``tests/test_shoreland.py``; the module docstring states the rules.
    """
    params = params if params is not None else default_parameters()
    records: list[str] = []
    n = len(impacts)
    juris = jurisdiction if jurisdiction is not None else impact_jurisdiction(impacts, context)
    juris = juris.reset_index(drop=True)
    frame = _unknown_split(n, juris)
    if not _note_missing_layers(records, impacts, context, juris):
        return _split(frame, impacts, records)

    waters = public_waters(context, params, as_of)
    area_sqft = np.zeros(n)
    if n:
        unit_m = check_same_projected_crs(impacts, waters)
        area_sqft = shapely.area(np.asarray(impacts.geometry.array)) * unit_m**2 * SQFT_PER_SQM
    if n == 0 or len(waters) == 0:
        frame["sqft_setback"] = 0.0
        frame["sqft_protection"] = 0.0
        frame["sqft_outside"] = area_sqft
        frame["zone"] = ShorelandZone.OUTSIDE.value
        return _split(frame, impacts, records)

    pairs = _pairs(impacts, waters, juris, params, as_of, search_ft, records)
    unit_m = check_same_projected_crs(impacts, waters)
    ft = FOOT_M / unit_m
    igeom = np.asarray(impacts.geometry.array, dtype=object)
    wgeom = np.asarray(waters.geometry.array, dtype=object)
    _note_waterward(records, impacts, waters, pairs, igeom, wgeom)
    _nearest_water(frame, waters, pairs, search_ft * ft, ft)
    zoned = _zoned(pairs)
    s_area, d_area = _zone_sqft(pairs, zoned, igeom, wgeom, area_sqft, unit_m**2 * SQFT_PER_SQM)
    frame["sqft_setback"] = s_area
    frame["sqft_protection"] = d_area - s_area
    frame["sqft_outside"] = np.maximum(area_sqft - s_area - (d_area - s_area), 0.0)
    frame["zone"] = _most_restrictive_zone(pairs, zoned, s_area, d_area)
    _note_unknown_sewer(records, impacts, waters, pairs)
    return _split(frame, impacts, records)


def _split(frame: pd.DataFrame, impacts: gpd.GeoDataFrame, records: list[str]) -> ShorelandSplit:
    """Return the split of ``impacts``: ``frame`` on their index, and the records."""
    frame.index = impacts.index
    return ShorelandSplit(frame, tuple(records))


def _unknown_split(n: int, juris: pd.DataFrame) -> pd.DataFrame:
    """Return the split of ``n`` impacts with every area, zone and nearest water unknown."""
    return pd.DataFrame(
        {
            "sqft_setback": np.full(n, np.nan),
            "sqft_protection": np.full(n, np.nan),
            "sqft_outside": np.full(n, np.nan),
            "zone": pd.Series([None] * n, dtype=object),
            "nearest_pw": pd.Series([None] * n, dtype=object),
            "nearest_pw_ft": np.full(n, np.nan),
            "lgu_name": juris["lgu_name"].to_numpy(dtype=object),
            "shoreland_ordinance": juris["shoreland_ordinance"].array,
            "incorporated": juris["incorporated"].array,
        }
    )


def _note_missing_layers(
    records: list[str], impacts: gpd.GeoDataFrame, context: ContextLayers, juris: pd.DataFrame
) -> bool:
    """Record the public waters and LGU layers missing, and the impacts no LGU governs.

    Returns
    -------
    bool
        False when neither public waters layer is given: the split cannot be measured.
    """
    have = {
        layer: context.get(layer) is not None
        for layer in ("public_water_basins", "public_watercourses")
    }
    if not any(have.values()):
        records.append(
            "shoreland: no public_water_basins or public_watercourses layer; the shoreland "
            "split, zone and nearest public water are unknown (None)"
        )
        return False
    for layer, given in have.items():
        if not given:
            records.append(
                f"shoreland: no {layer} layer; the zones were measured from the other public "
                "waters layer only: verify"
            )
    if context.get("lgus") is None:
        records.append(
            "shoreland: no lgus layer; every public water in the layers was counted as under "
            "an approved shoreland ordinance (§ 103G.005, subd. 15f(1)): verify"
        )
    elif len(impacts):
        note_rows(
            records,
            impacts,
            np.flatnonzero(juris["lgu_name"].isna().to_numpy()),
            lambda rows: (
                f"shoreland: no LGU polygon covers {rows}; every public water counted as "
                "under an approved shoreland ordinance (§ 103G.005, subd. 15f(1)): verify"
            ),
        )
        note_rows(
            records,
            impacts,
            np.flatnonzero(juris["n_lgus"].to_numpy() > 1),
            lambda rows: (
                f"shoreland: {rows} overlap more than one LGU; the LGU "
                "covering most of each was used"
            ),
        )
    return True


def _note_waterward(
    records: list[str],
    impacts: gpd.GeoDataFrame,
    waters: gpd.GeoDataFrame,
    pairs: _Pairs,
    igeom: np.ndarray,
    wgeom: np.ndarray,
) -> None:
    """Record the impacts reaching inside a basin (waterward of its OHWL): a public water."""
    touch = np.flatnonzero((waters["kind"].to_numpy()[pairs.wat] == "basin") & (pairs.dist == 0))
    inside = touch[
        shapely.relate_pattern(igeom[pairs.imp[touch]], wgeom[pairs.wat[touch]], "2********")
    ]
    if not len(inside):
        return
    basins = sorted({str(v) for v in waters["pw_id"].to_numpy(dtype=object)[pairs.wat[inside]]})
    records.append(
        f"shoreland: {row_label(impacts, np.unique(pairs.imp[inside]))} lie (partly) waterward "
        f"of the OHWL of public water basin(s) {', '.join(basins[:10])}: in a public "
        "water; check DNR jurisdiction (the part inside the basin counts in the setback "
        "zone)"
    )


def _nearest_water(
    frame: pd.DataFrame, waters: gpd.GeoDataFrame, pairs: _Pairs, search: float, ft: float
) -> None:
    """Set ``nearest_pw`` and ``nearest_pw_ft``: any water, counted or not, within ``search``.

    ``search`` is in CRS units, ``ft`` the CRS units of a foot.
    """
    within = pairs.dist <= search
    if not within.any():
        return
    order = np.lexsort((pairs.wat[within], pairs.dist[within], pairs.imp[within]))
    imp_w, wat_w, dist_w = (
        pairs.imp[within][order],
        pairs.wat[within][order],
        pairs.dist[within][order],
    )
    first = np.unique(imp_w, return_index=True)[1]
    nearest = frame["nearest_pw"].to_numpy(dtype=object).copy()
    nearest[imp_w[first]] = waters["pw_id"].to_numpy(dtype=object)[wat_w[first]]
    frame["nearest_pw"] = nearest
    nearest_ft = frame["nearest_pw_ft"].to_numpy(dtype=float).copy()
    nearest_ft[imp_w[first]] = dist_w[first] / ft
    frame["nearest_pw_ft"] = nearest_ft


def _zoned(pairs: _Pairs) -> np.ndarray:
    """Return the pairs of a counted water within the larger of its two zone distances."""
    return pairs.counted & (pairs.dist <= np.maximum(pairs.setback, pairs.protection))


def _zone_sqft(
    pairs: _Pairs,
    zoned: np.ndarray,
    igeom: np.ndarray,
    wgeom: np.ndarray,
    area_sqft: np.ndarray,
    sqft_per_unit: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Return the sq ft of each impact within a setback, and within the protection reach.

    The protection reach is the part within the protection or the setback distance of a
    counted water (so it holds the setback zone). An impact wholly within a zone distance
    of one water is decided by distance alone; the others are cut
    (:func:`_zone_pieces`).
    """
    n = len(igeom)
    imp_sel, wat_sel, dist_sel = pairs.imp[zoned], pairs.wat[zoned], pairs.dist[zoned]
    setback_sel = pairs.setback[zoned]
    reach_sel = np.maximum(setback_sel, pairs.protection[zoned])
    beyond = _reach_beyond(igeom, imp_sel, wgeom, wat_sel)
    whole_s = np.zeros(n, dtype=bool)
    whole_d = np.zeros(n, dtype=bool)
    np.logical_or.at(whole_s, imp_sel, beyond <= setback_sel)
    np.logical_or.at(whole_d, imp_sel, beyond <= reach_sel)
    whole_d |= whole_s
    need = ~whole_s[imp_sel] & (dist_sel <= setback_sel)
    pi, pieces = _zone_pieces(igeom, wgeom, imp_sel[need], wat_sel[need], setback_sel[need])
    s_area = np.where(
        whole_s, area_sqft, _union_area_by_impact(n, pi, pieces, igeom) * sqft_per_unit
    )
    need = ~whole_d[imp_sel]
    pi, pieces = _zone_pieces(igeom, wgeom, imp_sel[need], wat_sel[need], reach_sel[need])
    d_area = np.where(
        whole_d, area_sqft, _union_area_by_impact(n, pi, pieces, igeom) * sqft_per_unit
    )
    s_area = np.minimum(s_area, area_sqft)
    d_area = np.clip(d_area, s_area, area_sqft)
    return s_area, d_area


def _most_restrictive_zone(
    pairs: _Pairs, zoned: np.ndarray, s_area: np.ndarray, d_area: np.ndarray
) -> np.ndarray:
    """Return the zone of each impact: the most restrictive it reaches, by exact distance."""
    n = len(s_area)
    in_setback = np.zeros(n, dtype=bool)
    in_prot = np.zeros(n, dtype=bool)
    np.logical_or.at(in_setback, pairs.imp[zoned], pairs.dist[zoned] <= pairs.setback[zoned])
    np.logical_or.at(in_prot, pairs.imp[zoned], pairs.dist[zoned] <= pairs.protection[zoned])
    in_setback |= s_area > 0
    in_prot |= (d_area - s_area) > 0
    return np.where(
        in_setback,
        ShorelandZone.BUILDING_SETBACK.value,
        np.where(in_prot, ShorelandZone.PROTECTION.value, ShorelandZone.OUTSIDE.value),
    ).astype(object)


def _note_unknown_sewer(
    records: list[str], impacts: gpd.GeoDataFrame, waters: gpd.GeoDataFrame, pairs: _Pairs
) -> None:
    """Record the impacts near a water whose empty ``sewered`` changes its setback."""
    sewer_matters = waters["sewered"].isna().to_numpy() & (
        waters["sewered_setback_ft"].to_numpy() != waters["state_setback_ft"].to_numpy()
    )
    unsewered = _zoned(pairs) & sewer_matters[pairs.wat]
    note_rows(
        records,
        impacts,
        np.unique(pairs.imp[unsewered]),
        lambda rows: (
            f"shoreland: sewered is empty for public waters near {rows}; the "
            "unsewered (larger) setback of Minn. R. 6120.3300 was used: verify"
        ),
    )


# -------------------------------------------------------------------------------- the map


def zones_for_map(
    impacts: gpd.GeoDataFrame,
    context: ContextLayers,
    *,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
    jurisdiction: pd.DataFrame | None = None,
    pad_ft: float | None = None,
) -> gpd.GeoDataFrame:
    """Return the setback and protection zone polygons around the waters near the impacts.

    Parameters
    ----------
    impacts : GeoDataFrame
        Impact polygons in the context CRS.
    context : Context
        As for :func:`shoreland_split`.
    params : ParameterSet, optional
        Default: the shipped parameters.
    as_of : str or date, optional
        Date the parameters are read for (default today).
    jurisdiction : DataFrame, optional
        The result of :func:`impact_jurisdiction`, when known.
    pad_ft : float, optional
        How far beyond the impacts the zones are drawn; default: the largest protection
        distance of the waters involved. The zones are exact inside that window.

    Returns
    -------
    GeoDataFrame
        One row per water and zone: ``pw_id``, ``pw_name``, ``kind``, ``shore_class``,
        ``zone`` (``ShorelandZone`` value), ``inner_ft`` and ``outer_ft`` (the band of
        distances from the OHWL), geometry (the band, on land: the basin itself is
        removed). Only waters counted for at least one impact are drawn, at the largest
        setback used for them. Empty when no water is within reach.
    """
    params = params if params is not None else default_parameters()
    cols = ["pw_id", "pw_name", "kind", "shore_class", "zone", "inner_ft", "outer_ft"]
    waters = public_waters(context, params, as_of)
    empty = gpd.GeoDataFrame({c: [] for c in cols}, geometry=[], crs=impacts.crs)
    if len(impacts) == 0 or len(waters) == 0:
        return empty
    juris = jurisdiction if jurisdiction is not None else impact_jurisdiction(impacts, context)
    juris = juris.reset_index(drop=True)
    pairs = _pairs(impacts, waters, juris, params, as_of, 0.0, [])
    sel = _zoned(pairs)
    if not sel.any():
        return empty
    unit_m = check_same_projected_crs(impacts, waters)
    ft = FOOT_M / unit_m
    igeom = np.asarray(impacts.geometry.array, dtype=object)
    wgeom = np.asarray(waters.geometry.array, dtype=object)
    used = pd.DataFrame(
        {
            "wat": pairs.wat[sel],
            "imp": pairs.imp[sel],
            "setback": pairs.setback[sel],
            "protection": pairs.protection[sel],
        }
    )
    rows = []
    for w, grp in used.groupby("wat", sort=True):
        s, d = float(grp["setback"].max()), float(grp["protection"].max())
        pad = (pad_ft * ft) if pad_ft is not None else d
        x0, y0, x1, y1 = shapely.total_bounds(igeom[grp["imp"].to_numpy()])
        window = shapely.box(x0 - pad, y0 - pad, x1 + pad, y1 + pad)
        reach = max(s, d)
        near = shapely.intersection(
            wgeom[w],
            shapely.box(x0 - pad - reach, y0 - pad - reach, x1 + pad + reach, y1 + pad + reach),
        )
        within_s = shapely.buffer(near, s, quad_segs=QUAD_SEGS)
        buf_s = shapely.intersection(within_s, window)
        buf_d = shapely.intersection(shapely.buffer(near, d, quad_segs=QUAD_SEGS), window)
        water = waters.iloc[w]
        if water["kind"] == "basin":
            buf_s = shapely.difference(buf_s, near)
        ring = shapely.difference(buf_d, within_s)
        base = {c: water[c] for c in ("pw_id", "pw_name", "kind", "shore_class")}
        rows.append(
            {
                **base,
                "zone": ShorelandZone.BUILDING_SETBACK.value,
                "inner_ft": 0.0,
                "outer_ft": s / ft,
                "geometry": buf_s,
            }
        )
        if d > s:
            rows.append(
                {
                    **base,
                    "zone": ShorelandZone.PROTECTION.value,
                    "inner_ft": s / ft,
                    "outer_ft": d / ft,
                    "geometry": ring,
                }
            )
    out = gpd.GeoDataFrame(rows, geometry="geometry", crs=impacts.crs)
    return out.loc[~out.geometry.is_empty].reset_index(drop=True)
