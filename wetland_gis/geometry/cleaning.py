"""Check and repair impact polygons, row by row, without ever dropping a row.

Each input row comes out once, in input order, with four added columns
(docs/data_schema.md, "Classified impacts"):

``wg_row``
    the 0-based input row number;
``status``
    ``"assessed"`` (may go on to the rules) or ``"not_assessed"``;
``status_reason``
    why a row is not assessed ("empty or null geometry", "expected a polygon, got
    LineString", ...), empty otherwise;
``repairs``
    what was changed or flagged on the row ("Z coordinates dropped", "invalid geometry
    (Self-intersection[1 1]) repaired with make_valid", "duplicate impact id 'A' (also
    row 4)"), ``"; "``-joined;
``wg_input_wkt``
    the input geometry as WKT on the rows whose geometry is not polygonal (a point, a
    line, a collection without a polygon), empty otherwise. Written layers hold
    polygons only (:func:`polygon_output`): such a row keeps its attributes with a null
    geometry, and this column says what it was.

The checks are vectorised shapely 2 calls over the whole geometry array.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

from wetland_gis.enums import ImpactOutcome, StatusCode
from wetland_gis.errors import InputError, InputRepairWarning
from wetland_gis.io.fields import resolve_fields

__all__ = [
    "CleanResult",
    "clean_polygons",
    "ASSESSED",
    "NOT_ASSESSED",
    "ADDED_COLUMNS",
    "EMPTY_REASON",
    "WKT_IN_COLUMN",
    "polygon_output",
    "measurable",
    "row_label",
    "note_rows",
]

#: Status of a row that may go on to the rules.
ASSESSED = "assessed"
#: Status of a row that cannot be assessed; ``status_reason`` says why.
NOT_ASSESSED = ImpactOutcome.NOT_ASSESSED.value
#: Columns added after the input columns, in this order.
ADDED_COLUMNS = ("wg_row", "status", "status_code", "status_reason", "repairs", "wg_input_wkt")
#: Column holding the WKT of an input geometry that is not polygonal.
WKT_IN_COLUMN = "wg_input_wkt"
#: Reason given for coordinates that are not finite numbers.
NOT_FINITE_REASON = (
    "coordinates are not finite numbers (NaN or infinite): check the layer's geometry "
    "and CRS in QGIS"
)
#: Reason given for coordinates so large that the area is not a finite number.
ABSURD_REASON = (
    "the area is not a finite number: the coordinates are far outside any projected CRS "
    "(check the layer's CRS in QGIS, Layer > Set CRS)"
)
#: Reason given for null and empty geometries.
EMPTY_REASON = "empty or null geometry"

_TYPE_NAMES = np.array(
    [
        "Point",
        "LineString",
        "LinearRing",
        "Polygon",
        "MultiPoint",
        "MultiLineString",
        "MultiPolygon",
        "GeometryCollection",
    ],
    dtype=object,
)
_POLYGONAL = (3, 6)
_COLLECTION = 7
_MULTI_OR_COLLECTION = (4, 5, 6, 7)
_LIST_ROWS = 10


@dataclass(frozen=True, eq=False)
class CleanResult:
    """Cleaned impact polygons and the layer-level record of what was done.

    Parameters
    ----------
    gdf : GeoDataFrame
        Every input row, in input order, with the input columns first and then
        ``wg_row``, ``status``, ``status_reason`` and ``repairs``.
    records : list of str
        One line per kind of repair or rejection, naming the source and the rows.
    """

    gdf: gpd.GeoDataFrame
    records: list[str] = field(default_factory=list)

    @property
    def assessed(self) -> gpd.GeoDataFrame:
        """Return the rows whose status is ``"assessed"``."""
        return self.gdf[self.gdf["status"] == ASSESSED]


def _append(notes: np.ndarray, mask: np.ndarray, text: object) -> None:
    """Append ``text`` (a string or an array of strings) to ``notes`` where ``mask``."""
    texts = np.broadcast_to(np.asarray(text, dtype=object), notes.shape)
    extend = mask & (notes != "")
    notes[extend] = notes[extend] + "; " + texts[extend]
    start = mask & (notes == "")
    notes[start] = texts[start]


def _rows(values: Sequence[object] | np.ndarray) -> str:
    """List the first values for a message: ``"3, 7, 9"``, then ``" and 12 more"``."""
    shown = ", ".join(str(v) for v in values[:_LIST_ROWS])
    more = len(values) - _LIST_ROWS
    return shown + (f" and {more} more" if more > 0 else "")


def row_label(frame: pd.DataFrame, positions: Sequence[int] | np.ndarray) -> str:
    """Name the rows at ``positions`` of ``frame`` for a message.

    Parameters
    ----------
    frame : DataFrame
        Rows that carry ``wg_row`` (the input row, :data:`ADDED_COLUMNS`), or else are
        named by their index label.
    positions : sequence of int
        0-based positions in ``frame``.

    Returns
    -------
    str
        ``"wg_row 3, 7"`` (or ``"index ..."``), the first ten, then ``" and N more"``.

    Examples
    --------
    >>> row_label(pd.DataFrame({"wg_row": [4, 5, 6]}), [0, 2])
    'wg_row 4, 6'
    """
    name = "wg_row" if "wg_row" in frame else "index"
    column = frame["wg_row"].to_numpy() if name == "wg_row" else frame.index.to_numpy()
    return f"{name} {_rows(column[np.asarray(positions, dtype=np.int64)])}"


def note_rows(
    records: list[str],
    frame: pd.DataFrame,
    positions: Sequence[int] | np.ndarray,
    message: Callable[[str], str],
) -> bool:
    """Append ``message(rows)`` to ``records`` when there are rows at ``positions``.

    Parameters
    ----------
    records : list of str
        The run's records (what was assumed or could not be known).
    frame : DataFrame
        The rows named, as :func:`row_label`.
    positions : sequence of int
        0-based positions in ``frame``; none: nothing is appended.
    message : callable
        Builds the record from the rows' label (``"wg_row 3, 7"``).

    Returns
    -------
    bool
        True when a record was appended.

    Examples
    --------
    >>> records = []
    >>> note_rows(records, pd.DataFrame({"wg_row": [4, 5]}), [1], lambda rows: f"{rows} lie out")
    True
    >>> records
    ['wg_row 5 lie out']
    """
    if not len(positions):
        return False
    records.append(message(row_label(frame, positions)))
    return True


def _polygonal_parts(geoms: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Keep the polygonal parts of each geometry.

    Returns the merged geometries (a Polygon for one part, a MultiPolygon for several,
    None for none), the number of polygons kept and the number of parts dropped.
    """
    n = len(geoms)
    parts, index = shapely.get_parts(geoms, return_index=True)
    while True:  # flatten nested multi-part geometries and collections, level by level
        nested = np.isin(shapely.get_type_id(parts), _MULTI_OR_COLLECTION)
        if not nested.any():
            break
        sub, sub_index = shapely.get_parts(parts[nested], return_index=True)
        parts = np.concatenate([parts[~nested], sub])
        index = np.concatenate([index[~nested], index[nested][sub_index]])
    polygon = (shapely.get_type_id(parts) == 3) & ~shapely.is_empty(parts)
    kept = np.bincount(index[polygon], minlength=n)
    dropped = np.bincount(index[~polygon], minlength=n)
    merged = np.full(n, None, dtype=object)
    if polygon.any():
        order = np.argsort(index[polygon], kind="stable")
        shapely.multipolygons(parts[polygon][order], indices=index[polygon][order], out=merged)
        single = kept == 1
        merged[single] = shapely.get_geometry(merged[single], 0)
    return merged, kept, dropped


def clean_polygons(
    gdf: gpd.GeoDataFrame,
    *,
    source: str,
    id_field: str | None = None,
) -> CleanResult:
    """Check, repair and flag impact polygons; every row is kept.

    Parameters
    ----------
    gdf : GeoDataFrame
        The impacts layer (any CRS; reproject first with
        :func:`wetland_gis.geometry.crs.to_working_crs`).
    source : str
        Name of the file or layer, used in records and the warning.
    id_field : str, optional
        Column holding the impact id, checked for duplicates. By default the first
        of the default id names (``impact_id``, ``id``, ``fid``) found, if any.

    Returns
    -------
    CleanResult
        The rows with ``wg_row``, ``status``, ``status_reason`` and ``repairs`` added,
        and one record per kind of repair or rejection.

    Raises
    ------
    InputError
        When ``gdf`` has no geometry column, or already has a column named like one
        of the added columns.
    FieldMappingError
        When ``id_field`` is not a column of ``gdf``.

    Warns
    -----
    InputRepairWarning
        Once, summarising every repair and rejection, when there is any.

    Notes
    -----
    Per row, in this order:

    * null or empty geometry: not assessed, "empty or null geometry";
    * coordinates that are NaN or infinite, or so large that the area overflows: not
      assessed, with the fix (check the CRS); the geometry is set to null and its WKT
      kept in ``wg_input_wkt`` (nothing can measure, overlay or draw it);
    * Z or M coordinates: dropped with :func:`shapely.force_2d` (recorded);
    * GeometryCollection: its polygonal parts are kept (recorded); with none it is not
      assessed;
    * points and lines: not assessed, "expected a polygon, got LineString"; the input
      geometry's WKT is kept in ``wg_input_wkt``;
    * invalid polygons: repaired with :func:`shapely.make_valid`, keeping the polygonal
      parts; recorded with the :func:`shapely.is_valid_reason`; not assessed when no
      area remains;
    * duplicate impact ids: recorded in ``repairs`` on each row sharing the id; the rows
      are still assessed.
    """
    if not isinstance(gdf, gpd.GeoDataFrame):
        raise InputError(f"{source}: a GeoDataFrame with polygon geometries is expected")
    try:
        geometry_name = gdf.geometry.name
    except AttributeError as err:
        raise InputError(f"{source} has no geometry column") from err
    clash = [c for c in ADDED_COLUMNS if c in gdf.columns]
    if clash:
        raise InputError(
            f"{source} already has column(s) {clash}, which wetland_gis adds to its output; "
            "rename them in the input (e.g. in QGIS, Layer Properties > Fields)"
        )
    # None: the first of the default id names found (resolve_fields' own default)
    id_column = resolve_fields([str(c) for c in gdf.columns], impact_id=id_field).impact_id

    n = len(gdf)
    geoms = np.asarray(gdf.geometry.values, dtype=object).copy()
    reasons = np.full(n, "", dtype=object)
    codes = np.full(n, StatusCode.ASSESSED.value, dtype=object)
    repairs = np.full(n, "", dtype=object)
    records: list[str] = []

    def reject(mask: np.ndarray, reason: object, code: StatusCode) -> None:
        fresh = mask & (reasons == "")
        _append(reasons, fresh, reason)
        codes[fresh] = code.value

    input_wkt = np.full(n, None, dtype=object)

    # 1. Null or empty geometry.
    empty = shapely.is_missing(geoms) | shapely.is_empty(geoms)
    reject(empty, EMPTY_REASON, StatusCode.EMPTY_GEOMETRY)
    present = ~empty

    # 1b. Coordinates that are not finite, or so large that no area can be measured.
    finite = np.ones(n, dtype=bool)
    if present.any():
        coords, where = shapely.get_coordinates(geoms[present], include_z=False, return_index=True)
        bad_coord = ~np.isfinite(coords).all(axis=1)
        bad_rows = np.zeros(int(present.sum()), dtype=bool)
        bad_rows[where[bad_coord]] = True
        finite[np.flatnonzero(present)[bad_rows]] = False
    reject(present & ~finite, NOT_FINITE_REASON, StatusCode.NOT_FINITE)
    with np.errstate(all="ignore"):
        area = shapely.area(geoms)
    reject(present & finite & ~np.isfinite(area), ABSURD_REASON, StatusCode.NOT_FINITE)
    unusable = present & ~(finite & np.isfinite(area))
    present &= ~unusable

    # 2. Z and M coordinates.
    has_z = shapely.has_z(geoms) & present
    has_m = shapely.has_m(geoms) & present
    flat = has_z | has_m
    if flat.any():
        geoms[flat] = shapely.force_2d(geoms[flat])
        _append(repairs, has_z, "Z coordinates dropped")
        _append(repairs, has_m, "M values dropped")
        records.append(
            f"{source}: Z/M coordinates dropped on {flat.sum()} row(s) "
            f"(rows {_rows(np.flatnonzero(flat))})"
        )

    # 3. GeometryCollections: keep their polygonal parts.
    type_id = shapely.get_type_id(geoms)
    collection = (type_id == _COLLECTION) & present
    if collection.any():
        merged, kept, dropped = _polygonal_parts(geoms[collection])
        rows = np.flatnonzero(collection)
        usable = kept > 0
        geoms[rows[usable]] = merged[usable]
        note = (
            "kept the polygonal parts of a GeometryCollection ("
            + dropped.astype(str).astype(object)
            + " other part(s) dropped)"
        )
        mask = np.zeros(n, dtype=bool)
        mask[rows[usable]] = True
        full_note = np.full(n, "", dtype=object)
        full_note[rows] = note
        _append(repairs, mask, full_note)
        none = np.zeros(n, dtype=bool)
        none[rows[~usable]] = True
        reject(
            none,
            "expected a polygon, got GeometryCollection with no polygonal part",
            StatusCode.NOT_POLYGON,
        )
        if usable.any():
            records.append(
                f"{source}: polygonal parts of GeometryCollections kept on "
                f"{usable.sum()} row(s) (rows {_rows(rows[usable])})"
            )
        type_id = shapely.get_type_id(geoms)

    # 4. Points and lines.
    not_polygon = present & ~np.isin(type_id, _POLYGONAL) & (reasons == "")
    kept_as_wkt = (present & ~np.isin(type_id, _POLYGONAL)) | (
        ~empty & ~measurable(np.asarray(gdf.geometry.values, dtype=object))
    )
    if kept_as_wkt.any():
        original = np.asarray(gdf.geometry.values, dtype=object)
        input_wkt[kept_as_wkt] = shapely.to_wkt(original[kept_as_wkt])
    if not_polygon.any():
        names = np.full(n, "", dtype=object)
        names[not_polygon] = "expected a polygon, got " + _TYPE_NAMES[type_id[not_polygon]]
        reject(not_polygon, names, StatusCode.NOT_POLYGON)

    # 5. Invalid polygons.
    candidate = (reasons == "") & present
    invalid = np.zeros(n, dtype=bool)
    invalid[candidate] = ~shapely.is_valid(geoms[candidate])
    if invalid.any():
        rows = np.flatnonzero(invalid)
        why = shapely.is_valid_reason(geoms[rows]).astype(object)
        merged, kept, _ = _polygonal_parts(shapely.make_valid(geoms[rows]))
        usable = kept > 0
        geoms[rows[usable]] = merged[usable]
        fixed = np.zeros(n, dtype=bool)
        fixed[rows[usable]] = True
        lost = np.zeros(n, dtype=bool)
        lost[rows[~usable]] = True
        why_all = np.full(n, "", dtype=object)
        why_all[rows] = why
        _append(repairs, fixed, "invalid geometry (" + why_all + ") repaired with make_valid")
        reject(
            lost,
            "invalid geometry (" + why_all + ") has no area after make_valid",
            StatusCode.INVALID_GEOMETRY,
        )
        if usable.any():
            records.append(
                f"{source}: {usable.sum()} invalid geometry(ies) repaired with "
                f"make_valid (rows {_rows(rows[usable])})"
            )

    # 6. Duplicate or missing impact ids (attributes; the rows stay assessed).
    if id_column is not None:
        ids = gdf[id_column].reset_index(drop=True)
        blank = ids.isna().to_numpy() | (ids.astype(str).str.strip() == "").to_numpy()
        duplicate = ids.duplicated(keep=False).to_numpy() & ~blank
        if duplicate.any():
            dup_note = np.full(n, "", dtype=object)
            positions = pd.Series(np.flatnonzero(duplicate), index=ids[duplicate].to_numpy())
            for value, group in positions.groupby(level=0, sort=False):
                rows = group.to_numpy()
                for row in rows:
                    others = ", ".join(str(r) for r in rows if r != row)
                    dup_note[row] = f"duplicate impact id {value!r} (also row {others})"
            _append(repairs, duplicate, dup_note)
            records.append(
                f"{source}: duplicate impact ids in column {id_column!r} on "
                f"{duplicate.sum()} rows (rows {_rows(np.flatnonzero(duplicate))}); "
                "each is still assessed"
            )
        if blank.any():
            _append(repairs, blank, f"no impact id in column {id_column!r}")
            records.append(
                f"{source}: {blank.sum()} row(s) without an impact id in "
                f"column {id_column!r} (rows {_rows(np.flatnonzero(blank))})"
            )

    rejected = reasons != ""
    if rejected.any():
        summary = []
        for reason in dict.fromkeys(reasons[rejected]):
            rows = np.flatnonzero(reasons == reason)
            summary.append(
                f"{source}: {len(rows)} row(s) not assessed: {reason} (rows {_rows(rows)})"
            )
        records[:0] = summary

    # a geometry that cannot be measured cannot be drawn or overlaid either: its WKT is
    # kept in wg_input_wkt and the row gets a null geometry (its reason says why)
    geoms[unusable] = None
    out = gdf.copy()
    out[geometry_name] = gpd.GeoSeries(geoms, index=gdf.index, crs=gdf.crs)
    out["wg_row"] = np.arange(n, dtype="int64")
    out["status"] = np.where(rejected, NOT_ASSESSED, ASSESSED)
    out["status_code"] = codes.astype(str)
    out["status_reason"] = reasons.astype(str)
    out["repairs"] = repairs.astype(str)
    out[WKT_IN_COLUMN] = pd.Series(input_wkt, index=gdf.index, dtype=object)
    if records:
        warnings.warn(
            f"{len(records)} input repair/rejection record(s): " + " | ".join(records),
            InputRepairWarning,
            stacklevel=2,
        )
    return CleanResult(gdf=out, records=records)


def measurable(geoms: np.ndarray) -> np.ndarray:
    """Return, per geometry, whether its coordinates and its area are finite numbers.

    Missing and empty geometries count as measurable (there is nothing to measure).
    """
    geoms = np.asarray(geoms, dtype=object)
    ok = np.ones(len(geoms), dtype=bool)
    present = ~(shapely.is_missing(geoms) | shapely.is_empty(geoms))
    if not present.any():
        return ok
    coords, where = shapely.get_coordinates(geoms[present], return_index=True)
    bad = np.zeros(int(present.sum()), dtype=bool)
    bad[where[~np.isfinite(coords).all(axis=1)]] = True
    with np.errstate(all="ignore"):
        bad |= ~np.isfinite(shapely.area(geoms[present]))
    ok[np.flatnonzero(present)[bad]] = False
    return ok


def polygon_output(frame: pd.DataFrame) -> tuple[pd.DataFrame, str | None]:
    """Return a polygon layer ready to write, and the geometry type to declare.

    Parameters
    ----------
    frame : GeoDataFrame
        A layer whose rows should be polygons (impacts, zones, sites). A plain
        DataFrame is returned unchanged.

    Returns
    -------
    (GeoDataFrame, str or None)
        A copy in which every row whose geometry is present but not a Polygon or
        MultiPolygon, or has coordinates or an area that are not finite numbers (which no
        map can draw and a shapefile refuses), has a null geometry and its WKT in
        :data:`WKT_IN_COLUMN` (kept when the cleaning step already filled it);
        and ``"MultiPolygon"`` when any row is a MultiPolygon, else ``"Polygon"``. So
        the layer opens in QGIS as one polygon layer, and every row keeps its attributes.
    """
    if not isinstance(frame, gpd.GeoDataFrame):
        return frame, None
    try:
        geoms = np.asarray(frame.geometry.values, dtype=object)
    except AttributeError:  # a GeoDataFrame without an active geometry column
        return frame, None
    type_id = shapely.get_type_id(geoms)
    present = ~(shapely.is_missing(geoms) | shapely.is_empty(geoms))
    other = present & ~(np.isin(type_id, _POLYGONAL) & measurable(geoms))
    out = frame
    if other.any():
        out = frame.copy()
        wkt = (
            out[WKT_IN_COLUMN].astype(object)
            if WKT_IN_COLUMN in out
            else pd.Series(None, index=out.index, dtype=object)
        )
        missing = other & wkt.isna().to_numpy()
        wkt[missing] = shapely.to_wkt(geoms[missing])
        out[WKT_IN_COLUMN] = wkt
        kept = geoms.copy()
        kept[other] = None
        out[out.geometry.name] = gpd.GeoSeries(kept, index=out.index, crs=out.crs)
    multi = bool((type_id[present & ~other] == _POLYGONAL[1]).any())
    return out, "MultiPolygon" if multi else "Polygon"
