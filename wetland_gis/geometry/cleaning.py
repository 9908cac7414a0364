"""Check and repair impact polygons, row by row, without ever dropping a row.

Each input row comes out once, in input order, with four added columns
(docs/data_schema.md, "Classified impacts"):

``wg_row``
    the input row number, from 1 as QGIS numbers features (the ``fid`` of a GeoPackage
    written in the usual way; records and messages name rows by it);
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

from wetland_gis.enums import ASSESSED, NOT_ASSESSED, StatusCode
from wetland_gis.errors import InputError, InputRepairWarning
from wetland_gis.geometry.polygons import (
    POLYGONAL,
    WKT_IN_COLUMN,
    finite_coordinates,
    measurable as measurable,
    polygon_output as polygon_output,
)
from wetland_gis.io.fields import resolve_fields

#: Columns added after the input columns, in this order.
ADDED_COLUMNS = ("wg_row", "status", "status_code", "status_reason", "repairs", "wg_input_wkt")
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
    row_numbers: Sequence[int] | np.ndarray | None = None,
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
    row_numbers : sequence of int, optional
        The input row number of each row, when ``gdf`` is a part of a larger layer (a
        partition of :mod:`wetland_gis.partitioned`): ``wg_row`` and the records name
        these. Default: ``1 .. n``, as QGIS numbers features.

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
    geometry_name, id_column = _check_layer(gdf, source, id_field)
    n = len(gdf)
    label = np.arange(1, n + 1, dtype="int64") if row_numbers is None else np.asarray(row_numbers)
    if len(label) != n:
        raise InputError(f"{source}: {len(label)} row numbers given for {n} rows")
    rows = _Rows(source, label, np.asarray(gdf.geometry.values, dtype=object).copy())
    empty = shapely.is_missing(rows.geoms) | shapely.is_empty(rows.geoms)
    rows.reject(empty, EMPTY_REASON, StatusCode.EMPTY_GEOMETRY)
    unusable = _reject_unmeasurable(rows, ~empty)
    present = ~empty & ~unusable
    _drop_z_and_m(rows, present)
    _keep_polygonal_parts(rows, present)
    _reject_not_polygons(rows, present, unusable, np.asarray(gdf.geometry.values, dtype=object))
    _repair_invalid(rows, present)
    if id_column is not None:
        _flag_ids(rows, gdf[id_column].reset_index(drop=True), id_column)
    rows.records[:0] = _rejection_summary(rows)

    # a geometry that cannot be measured cannot be drawn or overlaid either: its WKT is
    # kept in wg_input_wkt and the row gets a null geometry (its reason says why)
    rows.geoms[unusable] = None
    out = gdf.copy()
    out[geometry_name] = gpd.GeoSeries(rows.geoms, index=gdf.index, crs=gdf.crs)
    out["wg_row"] = label.astype("int64")
    out["status"] = np.where(rows.reasons != "", NOT_ASSESSED, ASSESSED)
    out["status_code"] = rows.codes.astype(str)
    out["status_reason"] = rows.reasons.astype(str)
    out["repairs"] = rows.repairs.astype(str)
    out[WKT_IN_COLUMN] = pd.Series(rows.input_wkt, index=gdf.index, dtype=object)
    if rows.records:
        warnings.warn(
            f"{len(rows.records)} input repair/rejection record(s): " + " | ".join(rows.records),
            InputRepairWarning,
            stacklevel=2,
        )
    return CleanResult(gdf=out, records=rows.records)


def _check_layer(
    gdf: gpd.GeoDataFrame, source: str, id_field: str | None
) -> tuple[str, str | None]:
    """Return the geometry column and the impact id column of ``gdf``, or raise.

    Raises
    ------
    InputError
        When ``gdf`` is not a GeoDataFrame with a geometry column, or already has a column
        named like one of :data:`ADDED_COLUMNS`.
    FieldMappingError
        When ``id_field`` is not a column of ``gdf``.
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
    return geometry_name, id_column


class _Rows:
    """The rows of :func:`clean_polygons` while its checks run, one array per column.

    ``geoms`` is repaired in place; ``reasons`` and ``codes`` hold the first rejection of
    each row (empty: assessed); ``repairs`` the ``"; "``-joined repairs; ``input_wkt`` the
    WKT kept of a geometry that is not polygonal; ``records`` one line per kind of repair.
    """

    def __init__(self, source: str, label: np.ndarray, geoms: np.ndarray) -> None:
        n = len(geoms)
        self.source = source
        self.label = label
        self.geoms = geoms
        self.reasons = np.full(n, "", dtype=object)
        self.codes = np.full(n, StatusCode.ASSESSED.value, dtype=object)
        self.repairs = np.full(n, "", dtype=object)
        self.input_wkt = np.full(n, None, dtype=object)
        self.records: list[str] = []

    def __len__(self) -> int:
        return len(self.geoms)

    def reject(self, mask: np.ndarray, reason: object, code: StatusCode) -> None:
        """Mark the rows of ``mask`` not assessed, unless an earlier check rejected them."""
        fresh = mask & (self.reasons == "")
        _append(self.reasons, fresh, reason)
        self.codes[fresh] = code.value

    def rows(self, positions: np.ndarray) -> str:
        """Return the input row numbers at ``positions`` for a record (:func:`_rows`)."""
        return _rows(self.label[positions])

    def mask(self, positions: np.ndarray) -> np.ndarray:
        """Return a mask over every row, True at ``positions``."""
        out = np.zeros(len(self), dtype=bool)
        out[positions] = True
        return out

    def spread(self, positions: np.ndarray, values: object) -> np.ndarray:
        """Return a text column over every row: ``values`` at ``positions``, else ``""``."""
        out = np.full(len(self), "", dtype=object)
        out[positions] = values
        return out


def _reject_unmeasurable(rows: _Rows, present: np.ndarray) -> np.ndarray:
    """Reject coordinates that are not finite, or so large that no area can be measured.

    Returns the rows rejected: nothing can measure, overlay or draw their geometry.
    """
    finite = finite_coordinates(rows.geoms, present)
    rows.reject(present & ~finite, NOT_FINITE_REASON, StatusCode.NOT_FINITE)
    with np.errstate(all="ignore"):
        area = shapely.area(rows.geoms)
    rows.reject(present & finite & ~np.isfinite(area), ABSURD_REASON, StatusCode.NOT_FINITE)
    return present & ~(finite & np.isfinite(area))


def _drop_z_and_m(rows: _Rows, present: np.ndarray) -> None:
    """Drop Z and M coordinates (recorded)."""
    has_z = shapely.has_z(rows.geoms) & present
    has_m = shapely.has_m(rows.geoms) & present
    flat = has_z | has_m
    if not flat.any():
        return
    rows.geoms[flat] = shapely.force_2d(rows.geoms[flat])
    _append(rows.repairs, has_z, "Z coordinates dropped")
    _append(rows.repairs, has_m, "M values dropped")
    rows.records.append(
        f"{rows.source}: Z/M coordinates dropped on {flat.sum()} row(s) "
        f"(rows {rows.rows(np.flatnonzero(flat))})"
    )


def _keep_polygonal_parts(rows: _Rows, present: np.ndarray) -> None:
    """Keep the polygonal parts of GeometryCollections; reject one without any."""
    collection = (shapely.get_type_id(rows.geoms) == _COLLECTION) & present
    if not collection.any():
        return
    merged, kept, dropped = _polygonal_parts(rows.geoms[collection])
    at = np.flatnonzero(collection)
    usable = kept > 0
    rows.geoms[at[usable]] = merged[usable]
    note = (
        "kept the polygonal parts of a GeometryCollection ("
        + dropped.astype(str).astype(object)
        + " other part(s) dropped)"
    )
    _append(rows.repairs, rows.mask(at[usable]), rows.spread(at, note))
    rows.reject(
        rows.mask(at[~usable]),
        "expected a polygon, got GeometryCollection with no polygonal part",
        StatusCode.NOT_POLYGON,
    )
    if usable.any():
        rows.records.append(
            f"{rows.source}: polygonal parts of GeometryCollections kept on "
            f"{usable.sum()} row(s) (rows {rows.rows(at[usable])})"
        )


def _reject_not_polygons(
    rows: _Rows, present: np.ndarray, unusable: np.ndarray, original: np.ndarray
) -> None:
    """Reject points and lines; keep the input WKT of these and of unmeasurable rows."""
    type_id = shapely.get_type_id(rows.geoms)
    other = present & ~np.isin(type_id, POLYGONAL)
    kept_as_wkt = other | unusable
    if kept_as_wkt.any():
        rows.input_wkt[kept_as_wkt] = shapely.to_wkt(original[kept_as_wkt])
    not_polygon = other & (rows.reasons == "")
    if not_polygon.any():
        names = np.full(len(rows), "", dtype=object)
        names[not_polygon] = "expected a polygon, got " + _TYPE_NAMES[type_id[not_polygon]]
        rows.reject(not_polygon, names, StatusCode.NOT_POLYGON)


def _repair_invalid(rows: _Rows, present: np.ndarray) -> None:
    """Repair invalid polygons with :func:`shapely.make_valid`; reject those left without area."""
    candidate = (rows.reasons == "") & present
    invalid = np.zeros(len(rows), dtype=bool)
    invalid[candidate] = ~shapely.is_valid(rows.geoms[candidate])
    if not invalid.any():
        return
    at = np.flatnonzero(invalid)
    why = rows.spread(at, shapely.is_valid_reason(rows.geoms[at]).astype(object))
    merged, kept, _ = _polygonal_parts(shapely.make_valid(rows.geoms[at]))
    usable = kept > 0
    rows.geoms[at[usable]] = merged[usable]
    _append(
        rows.repairs,
        rows.mask(at[usable]),
        "invalid geometry (" + why + ") repaired with make_valid",
    )
    rows.reject(
        rows.mask(at[~usable]),
        "invalid geometry (" + why + ") has no area after make_valid",
        StatusCode.INVALID_GEOMETRY,
    )
    if usable.any():
        rows.records.append(
            f"{rows.source}: {usable.sum()} invalid geometry(ies) repaired with "
            f"make_valid (rows {rows.rows(at[usable])})"
        )


def _flag_ids(rows: _Rows, ids: pd.Series, id_column: str) -> None:
    """Record duplicate and missing impact ids (attributes: the rows stay assessed)."""
    blank = ids.isna().to_numpy() | (ids.astype(str).str.strip() == "").to_numpy()
    duplicate = ids.duplicated(keep=False).to_numpy() & ~blank
    if duplicate.any():
        dup_note = np.full(len(rows), "", dtype=object)
        positions = pd.Series(np.flatnonzero(duplicate), index=ids[duplicate].to_numpy())
        for value, group in positions.groupby(level=0, sort=False):
            same = group.to_numpy()
            for row in same:
                others = ", ".join(str(rows.label[r]) for r in same if r != row)
                dup_note[row] = f"duplicate impact id {value!r} (also row {others})"
        _append(rows.repairs, duplicate, dup_note)
        rows.records.append(
            f"{rows.source}: duplicate impact ids in column {id_column!r} on "
            f"{duplicate.sum()} rows (rows {rows.rows(np.flatnonzero(duplicate))}); "
            "each is still assessed"
        )
    if blank.any():
        _append(rows.repairs, blank, f"no impact id in column {id_column!r}")
        rows.records.append(
            f"{rows.source}: {blank.sum()} row(s) without an impact id in "
            f"column {id_column!r} (rows {rows.rows(np.flatnonzero(blank))})"
        )


def _rejection_summary(rows: _Rows) -> list[str]:
    """Return one record per reason of rejection, naming its rows, in order of first row."""
    summary = []
    for reason in dict.fromkeys(rows.reasons[rows.reasons != ""]):
        at = np.flatnonzero(rows.reasons == reason)
        summary.append(
            f"{rows.source}: {len(at)} row(s) not assessed: {reason} (rows {rows.rows(at)})"
        )
    return summary
