"""Water appropriation screening (§ 103G.271) of a layer of points of appropriation.

:func:`water_use` reads a layer of points (GeoPackage, shapefile, GeoJSON or CSV with
``lon``/``lat``), computes the spatial facts (the county from the county layer, hence the
metropolitan county of § 473.121, subd. 4 and the seven-county area; the Mt. Simon-Hinckley
aquifer from a user-supplied layer or a column; the **geodesic** miles to a bulk-sale
destination with :class:`pyproj.Geod`), hands plain values to the pure rules of
:mod:`wetland_gis.water_use.rules` and returns a :class:`WaterUseResult`: the points with
their outcome, the decision trace, the fee table, the schedules and a manifest.

Every input row is in the output with a ``status`` and a ``status_reason``; a row that
cannot be read is ``not_assessed`` with the column and the fix in its reason.

The public names of this module are listed once, in ``wetland_gis.water_use.__all__``: the
package imports them from here on first use.

Examples
--------
>>> r = water_use("sample_data/water_use/appropriations.gpkg", as_of="2026-06-01")
>>> len(r.points) == len(r.points["permit_id"])
True
"""

from __future__ import annotations

import datetime as dt
import functools
import html
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import geopandas as gpd
import numpy as np
import pandas as pd
from pyproj import Geod

from wetland_gis.context import DEFAULT_COUNTIES_PATH, Context, as_context
from wetland_gis.enums import StatusCode
from wetland_gis.errors import FieldMappingError, InputError, OutputError, RulesInputError
from wetland_gis.geometry.cleaning import ASSESSED, NOT_ASSESSED
from wetland_gis.geometry.crs import WORKING_CRS, to_working_crs
from wetland_gis.io.layers import read_layer, warn_if_empty
from wetland_gis.io.safe_write import SafeWriter
from wetland_gis.io.values import is_blank, parse_bool, parse_number
from wetland_gis.labels import label
from wetland_gis.manifest import InputRecord, Manifest, file_sha256
from wetland_gis.palette import WATER_USE_OUTCOME_COLORS
from wetland_gis.parameters import ParameterSet, as_date, load_parameters
from wetland_gis.rules.trace import TRACE_COLUMNS
from wetland_gis.water_use import rules
from wetland_gis.water_use.editions import STATUTE
from wetland_gis.water_use.restrictions import county_in_list
from wetland_gis.water_use.rules import (
    MONTHS,
    RULE_IDS,
    Appropriation,
    FeeReadings,
    ScreeningResult,
    WaterDecision,
    WaterOutcome,
)

if TYPE_CHECKING:
    import folium

#: The international mile in metres (a unit conversion, not a legal number).
METRES_PER_MILE = 1609.344
#: Areas and overlays in NAD83 / UTM zone 15N, as everywhere in wetland_gis.
WORK_CRS = WORKING_CRS
_LONLAT = "EPSG:4326"
_GEOD = Geod(ellps="WGS84")

#: Monthly volume columns, January to December.
MONTH_COLUMNS: tuple[str, ...] = tuple(f"gal_{m[:3]}" for m in MONTHS)

_FLAG_FIELDS = (
    "general_permit",
    "hydro_structure_existing",
    "nonconsumptive",
    "stormwater_facility",
    "local_permit",
    "commissioner_requires",
    "potable",
    "no_feasible_alternative",
    "conservation_plan",
    "bulk_sale",
    "public_water_supply",
    "solely_public_supply",
    "property_interest",
    "supply_requirements_met",
    "increase_volume",
    "nature_preserve_discharge",
    "existing_system",
    "returns_all_water",
    "health_pca_approval",
    "area_of_concern",
    "data_center",
    "supplies_data_center",
    "returns_to_source",
)

#: Input columns: name -> (kind, description). Shapefile names cut to 10 characters match.
INPUT_COLUMNS: dict[str, tuple[str, str]] = {
    "permit_id": ("text", "permit or source id (required, unique)"),
    "entity": ("text", "permittee; the caps of subd. 6(d) sum an entity's permits"),
    "entity_type": ("choice", "one of " + ", ".join(rules.ENTITY_TYPES)),
    "permits_held": ("int", "permits the entity holds, hydropower excluded (subd. 6(d)(2))"),
    "use": ("choice", "one of " + ", ".join(rules.USES)),
    "source": ("choice", "groundwater or surface"),
    "permit_action": ("choice", "new, modified or existing (blank: new, recorded)"),
    "aquifer": ("text", "aquifer if known, e.g. 'Mt. Simon-Hinckley' (overrides --aquifer)"),
    "annual_gallons": ("number", "gallons appropriated in the year"),
    "gallons_per_day": ("number", "largest daily amount, gallons"),
    **{
        c: ("number", f"gallons used in {m.capitalize()}")
        for c, m in zip(MONTH_COLUMNS, MONTHS, strict=True)
    },
    "dest_lon": ("number", "bulk-sale destination longitude (WGS 84)"),
    "dest_lat": ("number", "bulk-sale destination latitude (WGS 84)"),
    "once_through": ("choice", "blank or one of " + ", ".join(rules.ONCE_THROUGH_KINDS)),
    "distribution_system": ("text", "common distribution system id (subd. 6(h))"),
    "persons_served": ("number", "persons a domestic supply serves (subd. 1(b)(1))"),
    "irrigation_suspended_days": ("number", "longest suspension May 1-Oct 1, days (6(f))"),
    **{
        f: ("flag", "true / false / blank (= unknown); see docs/water_use.md") for f in _FLAG_FIELDS
    },
    "notified_year": ("int", "year notified of the need for a permit (subd. 6a)"),
    "first_unpermitted_year": ("int", "first year of unpermitted appropriation (6a)"),
    "unpaid_usd": ("number", "unpaid fee balance (subd. 6(e))"),
    "fee_due_date": ("date", "original due date of the unpaid fee (6(e))"),
    "second_notice_date": ("date", "date the second notice was sent (6(e))"),
}

#: Said in every water-use manifest.
WATER_CAVEATS = (
    "wetland_gis screens and explains; the DNR decides water-use permits and fees. Every "
    "outcome is a screening result to be verified.",
    f"Two editions of {STATUTE} are held: Minnesota Statutes 2018 (applied "
    "2018-01-01 to 2018-12-31) and the text as amended through 1Sp2025 (applied from "
    "2026-01-01). These are edition dates chosen by wetland_gis, not effective dates; between "
    "them a value that differs is never chosen (outcome 'indeterminate').",
    "Definitions outside chapter 103G (public water supply, § 144.382; data center, § 216B.02; "
    "agency, § 16B.01) and the intermediate amount of subd. 4(b) are not held: they are "
    "user-supplied facts.",
)

_MT_SIMON = re.compile(r"\b(mt\.?|mount)\s*simon", re.IGNORECASE)
_LON = ("lon", "longitude", "x", "lng")
_LAT = ("lat", "latitude", "y")


class _RowError(ValueError):
    """A cell of one row that cannot be read; the message names the column and the fix."""


def geodesic_miles(lon1: Any, lat1: Any, lon2: Any, lat2: Any) -> np.ndarray:
    """Return geodesic distances in miles on the WGS 84 ellipsoid (:class:`pyproj.Geod`).

    Examples
    --------
    >>> round(float(geodesic_miles(-93.0, 45.0, -93.0, 46.0)[0]), 1)
    69.1
    """
    _, _, metres = _GEOD.inv(
        np.atleast_1d(lon1), np.atleast_1d(lat1), np.atleast_1d(lon2), np.atleast_1d(lat2)
    )
    return np.asarray(metres, dtype=float) / METRES_PER_MILE


# --------------------------------------------------------------------------- reading


def _match_columns(columns: list[str]) -> dict[str, str]:
    """Map each known input column to the file's column (exact, case-insensitive or cut)."""
    lower = {str(c).lower(): str(c) for c in columns}
    out = {}
    for name in INPUT_COLUMNS:
        if name in lower:
            out[name] = lower[name]
        elif name[:10] in lower and len(name) > 10:
            out[name] = lower[name[:10]]
    return out


def _lon_lat_columns(columns: list[str]) -> tuple[str, str] | None:
    """Return a CSV's longitude and latitude columns (:data:`_LON`, :data:`_LAT`), or None."""
    lower = {str(c).lower(): str(c) for c in columns}
    lon = next((lower[c] for c in _LON if c in lower), None)
    lat = next((lower[c] for c in _LAT if c in lower), None)
    return (lon, lat) if lon is not None and lat is not None else None


def _read_csv(path: Path) -> tuple[gpd.GeoDataFrame, list[str]]:
    try:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig")
    except Exception as err:  # pandas raises several parser classes
        raise InputError(f"cannot read {path} as CSV: {err}") from err
    lon, lat = _lon_lat_columns(list(frame.columns)) or (None, None)
    if lon is None or lat is None:
        raise FieldMappingError(
            f"{path}: a CSV of points needs longitude and latitude columns (one of {_LON} and "
            f"one of {_LAT}, WGS 84 degrees); found columns {list(frame.columns)}. Add them, or "
            "export the layer from QGIS as a GeoPackage."
        )
    x = pd.to_numeric(frame[lon].map(lambda v: parse_number(v, errors="coerce")))
    y = pd.to_numeric(frame[lat].map(lambda v: parse_number(v, errors="coerce")))
    bad = x.isna() | y.isna() | ~x.between(-180, 180) | ~y.between(-90, 90)
    points = gpd.points_from_xy(x.where(~bad, 0.0), y.where(~bad, 0.0))
    geometry = np.asarray(points, dtype=object)
    geometry[bad.to_numpy()] = None  # a real null, not NaN: the row has no point
    gdf = gpd.GeoDataFrame(frame, geometry=gpd.GeoSeries(geometry, crs=_LONLAT), crs=_LONLAT)
    records = [f"{path}: CSV columns {lon!r}/{lat!r} read as WGS 84 longitude/latitude (EPSG:4326)"]
    return gdf, records


@functools.lru_cache(maxsize=1)
def _minnesota() -> Any:
    """Return the Minnesota state boundary in lon/lat (prepared): the shipped counties' union.

    The US Census Bureau 2016 cartographic boundary (1:500,000) of
    :data:`wetland_gis.context.DEFAULT_COUNTIES_PATH`; it follows the Lake Superior shore.
    """
    import shapely

    shape = gpd.read_file(DEFAULT_COUNTIES_PATH).to_crs(_LONLAT).geometry.union_all()
    shapely.prepare(shape)
    return shape


def _minnesota_extent() -> str:
    """Return the longitude and latitude range of Minnesota, for messages."""
    minx, miny, maxx, maxy = _minnesota().bounds
    return (
        f"Minnesota lies at longitude {minx:.1f} to {maxx:.1f}, latitude {miny:.1f} to {maxy:.1f}"
    )


def coordinate_problem(
    lon: Any, lat: Any, *, lon_column: str = "lon", lat_column: str = "lat"
) -> str:
    """Return why a CSV row's longitude and latitude give no point, with the fix.

    Parameters
    ----------
    lon, lat : object
        The cells as read.
    lon_column, lat_column : str
        The columns' names, for the message.

    Returns
    -------
    str
        The reason; empty when the cells are a valid longitude and latitude (whether the
        point lies in Minnesota is :func:`outside_minnesota`'s question).

    Examples
    --------
    >>> coordinate_problem("", "46.4")[:26]
    'lon is blank: give the poi'
    >>> coordinate_problem("46.4", "-94.6")[:32]
    'longitude and latitude swapped: '
    """
    return coordinate_issue(lon, lat, lon_column=lon_column, lat_column=lat_column)[1]


def coordinate_issue(
    lon: Any, lat: Any, *, lon_column: str = "lon", lat_column: str = "lat"
) -> tuple[StatusCode, str]:
    """Return the status code and the reason of :func:`coordinate_problem`.

    The code is what the end-of-run tally groups by (``enums.StatusCode``); the reason is
    the sentence a person reads. A valid pair gives ``(StatusCode.ASSESSED, "")``.

    Examples
    --------
    >>> coordinate_issue("", "46.4")[0].value
    'coordinate_blank'
    >>> coordinate_issue("-94.6", "46.4")
    (<StatusCode.ASSESSED: 'assessed'>, '')
    """
    extent = _minnesota_extent()
    for value, column in ((lon, lon_column), (lat, lat_column)):
        if is_blank(value):
            return StatusCode.COORDINATE_BLANK, (
                f"{column} is blank: give the point's longitude and latitude in WGS 84 "
                f"decimal degrees ({extent})"
            )
        if parse_number(value, errors="coerce") is None:
            return StatusCode.COORDINATE_NOT_A_NUMBER, (
                f"coordinate not a number: {column} {value!r}; write WGS 84 decimal "
                f"degrees ({extent})"
            )
    x = cast(float, parse_number(lon, errors="coerce"))
    y = cast(float, parse_number(lat, errors="coerce"))
    if -180 <= x <= 180 and -90 <= y <= 90:
        return StatusCode.ASSESSED, ""
    given = f"{lon_column} {x:g}, {lat_column} {y:g}"
    if -90 <= x <= 90 and -180 <= y <= 180:
        return StatusCode.COORDINATES_SWAPPED, (
            f"longitude and latitude swapped: {given}, and a latitude cannot exceed 90 "
            f"degrees; swap the two values ({extent})"
        )
    return StatusCode.COORDINATES_OUT_OF_RANGE, (
        f"coordinates out of range: {given} is not a longitude (-180 to 180) and latitude "
        f"(-90 to 90); write WGS 84 decimal degrees ({extent})"
    )


def outside_minnesota(lon: float, lat: float) -> str:
    """Return why a point at ``lon``, ``lat`` (WGS 84) is outside Minnesota, or ``""``.

    The boundary is :func:`_minnesota`'s. A point whose longitude with the other sign, or
    whose coordinates swapped, would lie in Minnesota gets that hint.

    Examples
    --------
    >>> outside_minnesota(-94.6, 46.4)
    ''
    >>> outside_minnesota(94.6, 46.4)[:75]
    'outside Minnesota: longitude 94.6, latitude 46.4; check the sign of the lon'
    """
    import shapely

    mn = _minnesota()
    if shapely.covers(mn, shapely.Point(lon, lat)):
        return ""
    given = f"outside Minnesota: longitude {lon:g}, latitude {lat:g}"
    if shapely.covers(mn, shapely.Point(-lon, lat)):
        return (
            f"{given}; check the sign of the longitude (west of Greenwich it is negative: "
            f"{-lon:g} lies in Minnesota)"
        )
    if shapely.covers(mn, shapely.Point(lat, lon)) or shapely.covers(mn, shapely.Point(-lat, lon)):
        return f"{given}; the longitude and latitude look swapped: swap the two values"
    return (
        f"{given}; check the coordinates and the layer's CRS ({_minnesota_extent()}; "
        "boundary: US Census Bureau 2016, 1:500,000, along the Lake Superior shore)"
    )


def _row_labels(gdf: pd.DataFrame, *, csv: bool) -> list[str]:
    """Return each row's label: ``row N`` (1-based, as QGIS numbers features), and where it is.

    A CSV row adds its line in the file; a GeoPackage row whose ``fid`` is not ``N`` adds
    the fid QGIS shows.
    """
    n = len(gdf)
    if csv:
        return [f"row {i + 1} (line {i + 2} of the CSV)" for i in range(n)]
    fid = next((c for c in gdf.columns if str(c).lower() == "fid"), None)
    labels = []
    for i in range(n):
        value = parse_number(gdf[fid].iat[i], errors="coerce") if fid is not None else None
        extra = f" (fid {value:g})" if value is not None and value != i + 1 else ""
        labels.append(f"row {i + 1}{extra}")
    return labels


def read_appropriations(
    path: str | Path,
    layer: str | None = None,
    *,
    assume_crs: str | None = None,
    override_crs: str | None = None,
) -> tuple[gpd.GeoDataFrame, InputRecord, list[str]]:
    """Read a layer of points of appropriation.

    Parameters
    ----------
    path : str or Path
        GeoPackage, shapefile, GeoJSON, GeoParquet, or CSV with ``lon``/``lat`` columns
        (WGS 84).
    layer : str, optional
        GeoPackage layer.
    assume_crs : str, optional
        CRS for a layer without one (recorded); only for a layer without a CRS.
    override_crs : str, optional
        CRS replacing a layer's wrong one (recorded with the old); not for a CSV, whose
        lon/lat are WGS 84.

    Returns
    -------
    (GeoDataFrame, InputRecord, list of str)
        The rows as read (all of them), the manifest record and notes.

    Raises
    ------
    InputError, MissingCRSError, LayerNotFoundError, FieldMappingError
        The file cannot be read, has no CRS, the layer is not in it, or the ``permit_id``
        column is missing.
    """
    path = Path(path)
    if path.suffix.lower() == ".csv":
        if not path.exists():
            raise InputError(f"{path} does not exist")
        if override_crs is not None or assume_crs is not None:
            raise InputError(
                f"{path}: --override-crs and --assume-crs do not apply to a CSV: its lon/lat "
                "columns are WGS 84 degrees (EPSG:4326); leave the option out"
            )
        gdf, records = _read_csv(path)
        record = InputRecord(
            "appropriations", str(path), None, file_sha256(path), _LONLAT, len(gdf)
        )
    else:
        read = read_layer(path, layer, assume_crs=assume_crs, override_crs=override_crs)
        gdf, records = read.gdf, list(read.records)
        record = InputRecord(
            "appropriations", read.source, read.layer, read.sha256, read.crs, len(gdf)
        )
    matched = _match_columns(list(gdf.columns))
    if "permit_id" not in matched:
        where = f"{path}" + (f" (layer {record.layer!r})" if record.layer else "")
        raise FieldMappingError(
            f"{where}: no 'permit_id' column; the columns are "
            f"{[c for c in gdf.columns if c != 'geometry']}. Add a permit_id column "
            "(docs/water_use.md lists every column)."
        )
    return gdf.reset_index(drop=True), record, records


def _flag(value: Any, column: str) -> bool | None:
    flag = parse_bool(value, errors="coerce")
    if flag is not None or is_blank(value):
        return flag
    raise _RowError(
        f"{column} {value!r} is not true/false (write true, false, or leave blank for unknown)"
    )


def _row_number(value: Any, column: str, *, signed: bool = False) -> float | None:
    """Return a finite number, 0 or more unless ``signed`` (a coordinate), or None if blank."""
    if is_blank(value):
        return None
    number = parse_number(value, errors="coerce")
    if number is None:
        hint = "decimal degrees" if signed else "write digits, e.g. 1500000"
        raise _RowError(f"{column} {value!r} is not a finite number ({hint})")
    if number < 0 and not signed:
        raise _RowError(f"{column} {value!r} must be a finite number 0 or more")
    return number


def _int(value: Any, column: str) -> int | None:
    number = _row_number(value, column)
    if number is None:
        return None
    if number != int(number):
        raise _RowError(f"{column} {value!r} must be a whole number")
    return int(number)


def _choice(value: Any, column: str, allowed: tuple[str, ...]) -> str | None:
    if is_blank(value):
        return None
    text = str(value).strip().lower().replace(" ", "_").replace("-", "_")
    if text not in allowed:
        raise _RowError(f"{column} {value!r} is not one of {list(allowed)}")
    return text


def _date(value: Any, column: str) -> dt.date | None:
    if is_blank(value):
        return None
    try:
        return as_date(str(value).strip()[:10])
    except Exception as err:  # ParameterError from as_date
        raise _RowError(f"{column} {value!r} is not a date (write YYYY-MM-DD)") from err


def _cell(row: pd.Series, cols: dict[str, str], name: str) -> Any:
    """Return the cell of input column ``name`` (matched by :func:`_match_columns`), or None."""
    return row[cols[name]] if name in cols else None


def _row_facts(row: pd.Series, cols: dict[str, str]) -> tuple[dict[str, Any], list[str]]:
    """Return the Appropriation keyword arguments of one row, and notes."""
    get = functools.partial(_cell, row, cols)
    notes = []
    pid = get("permit_id")
    if is_blank(pid):
        raise _RowError("permit_id is blank (every row needs a permit or source id)")
    kw: dict[str, Any] = {"permit_id": str(pid).strip()}
    kw["entity"] = "" if is_blank(get("entity")) else str(get("entity")).strip()
    for name, allowed, default in (
        ("entity_type", rules.ENTITY_TYPES, "other"),
        ("use", rules.USES, "other"),
        ("source", rules.SOURCES, None),
        ("permit_action", rules.PERMIT_ACTIONS, "new"),
    ):
        value = _choice(get(name), name, allowed)
        if value is None:
            if default is None:
                raise _RowError(f"{name} is blank: write groundwater or surface")
            notes.append(f"{name} blank: read as {default!r}")
            value = default
        kw[name] = value
    kw["once_through"] = _choice(get("once_through"), "once_through", rules.ONCE_THROUGH_KINDS)
    for name in (
        "annual_gallons",
        "gallons_per_day",
        "persons_served",
        "irrigation_suspended_days",
    ):
        kw[name] = _row_number(get(name), name)
    kw["permits_held"] = _int(get("permits_held"), "permits_held")
    if kw["permits_held"] == 0:
        raise _RowError("permits_held 0: an entity holding this permit holds at least 1")
    months = [_row_number(get(c), c) for c in MONTH_COLUMNS]
    given = [m is not None for m in months]
    if any(given) and not all(given):
        missing = [c for c, g in zip(MONTH_COLUMNS, given, strict=True) if not g]
        raise _RowError(
            f"monthly volumes are partly given; missing {missing} (give all 12 or none)"
        )
    kw["monthly_gallons"] = tuple(months) if all(given) else None
    for name in _FLAG_FIELDS:
        flag = _flag(get(name), name)
        kw[name] = bool(flag) if name == "general_permit" else flag
    system = get("distribution_system")
    kw["distribution_system"] = None if is_blank(system) else str(system).strip()
    return kw, notes


def _extras(row: pd.Series, cols: dict[str, str]) -> dict[str, Any]:
    """Return the facts of one row that are not the rules' facts: schedules, destination."""
    get = functools.partial(_cell, row, cols)
    return {
        "notified_year": _int(get("notified_year"), "notified_year"),
        "first_unpermitted_year": _int(get("first_unpermitted_year"), "first_unpermitted_year"),
        "unpaid_usd": _row_number(get("unpaid_usd"), "unpaid_usd"),
        "fee_due_date": _date(get("fee_due_date"), "fee_due_date"),
        "second_notice_date": _date(get("second_notice_date"), "second_notice_date"),
        "dest_lon": _row_number(get("dest_lon"), "dest_lon", signed=True),
        "dest_lat": _row_number(get("dest_lat"), "dest_lat", signed=True),
        "aquifer": None if is_blank(get("aquifer")) else str(get("aquifer")).strip(),
    }


# --------------------------------------------------------------------------- spatial facts


def _counties_of(points: gpd.GeoSeries, counties: gpd.GeoDataFrame) -> pd.Series:
    layer = counties[["NAME", "geometry"]].to_crs(WORK_CRS)
    frame = gpd.GeoDataFrame({"geometry": points}, crs=WORK_CRS)
    ok = ~(frame.geometry.isna() | frame.geometry.is_empty)
    joined = gpd.sjoin(frame[ok], layer, how="left", predicate="within")
    joined = joined[~joined.index.duplicated(keep="first")]
    out = pd.Series([None] * len(frame), index=frame.index, dtype=object)
    names = joined["NAME"]
    out.loc[names.index] = names.where(names.notna(), None)
    return out


def _in_aquifer(points: gpd.GeoSeries, aquifer: gpd.GeoDataFrame) -> pd.Series:
    """Return whether each point lies in the aquifer extent (both in the working CRS)."""
    extent = aquifer.geometry.union_all()
    ok = ~(points.isna() | points.is_empty)
    out = pd.Series([None] * len(points), index=points.index, dtype=object)
    out.loc[ok] = points[ok].intersects(extent).astype(bool).to_numpy()
    return out


# --------------------------------------------------------------------------- the result


@dataclass
class WaterUseResult:
    """The result of :func:`water_use`.

    Attributes
    ----------
    points : GeoDataFrame
        Every input row (EPSG:26915) with the spatial facts, ``status``,
        ``status_reason``, the headline ``outcome``, each rule's outcome, the fees and the
        rendered ``reasons``/``citations``/``verify`` text.
    decisions : DataFrame
        The trace table (project, impact_id, seq, rule_id, citation, outcome, value, reason,
        verify, inputs, parameters; plus edition and flags).
    fees : DataFrame
        The fee table: one row per assessed permit.
    schedules : DataFrame
        The subd. 6a past-year and subd. 6(e) penalty schedules (long form).
    screening : ScreeningResult or None
        The rules' decision objects.
    manifest : Manifest
    """

    points: gpd.GeoDataFrame
    decisions: pd.DataFrame
    fees: pd.DataFrame
    schedules: pd.DataFrame
    screening: ScreeningResult | None
    manifest: Manifest
    extra_decisions: list[WaterDecision] = field(default_factory=list)

    def write(
        self,
        out: str | Path,
        *,
        overwrite: bool = False,
        map_html: str | Path | None = None,
    ) -> list[Path]:
        """Write the GeoPackage and the tables and manifest beside it, safely.

        The GeoPackage holds the layers ``appropriations`` (points), ``decisions`` and
        ``fees`` (attribute tables); beside it are ``<stem>_fees.csv``,
        ``<stem>_schedules.csv``, ``<stem>_decisions.json`` and ``<stem>_manifest.json``.
        Every file is staged and moved into place only when all are complete; in an
        existing GeoPackage only these three layers are replaced, the others are kept.

        Parameters
        ----------
        out : str or Path
            The GeoPackage (``.gpkg``).
        overwrite : bool
            Replace existing files that an earlier ``water-use`` did not write there.
        map_html : str or Path, optional
            Also write the offline map of the points to this HTML file.

        Returns
        -------
        list of Path

        Raises
        ------
        OutputError
            When ``out`` is not a ``.gpkg``, an output is an input of the run, or a file
            would be replaced without ``overwrite``.
        """
        out = Path(out)
        if not out.suffix:
            out = out.with_suffix(".gpkg")
        if out.suffix.lower() != ".gpkg":
            raise OutputError(
                f"water-use writes a GeoPackage (points, decisions and fees in one file): "
                f"{out} has the extension {out.suffix!r}; give a .gpkg path"
            )
        stem = out.with_suffix("")
        manifest = Path(f"{stem}_manifest.json")
        table = self.decisions_table()
        page = None
        if map_html is not None:
            from wetland_gis.mapping.offline import make_self_contained

            page = make_self_contained(self.explore().get_root().render())
        with SafeWriter.for_run("water-use", self.manifest, manifest, overwrite=overwrite) as w:
            w.layer(self.points, out, layer="appropriations")
            w.layer(table, out, layer="decisions")
            w.layer(self.fees, out, layer="fees")
            w.csv(self.fees, f"{stem}_fees.csv")
            w.csv(self.schedules, f"{stem}_schedules.csv")
            w.json(table.to_dict(orient="records"), f"{stem}_decisions.json")
            if page is not None and map_html is not None:  # page is made for map_html
                w.text(page, map_html)
            w.manifest(self.manifest, manifest)
        return list(w.written)

    def decisions_table(self) -> pd.DataFrame:
        """Return the trace table with verify/inputs/parameters/flags as JSON text."""
        table = self.decisions.copy()
        for col in ("verify", "inputs", "parameters", "flags"):
            table[col] = [json.dumps(v, ensure_ascii=False, default=str) for v in table[col]]
        return table

    def explore(self, **kwargs: Any) -> folium.Map:
        """Return the offline map of the points (see :func:`water_use_map`)."""
        return water_use_map(self, **kwargs)


#: Column of each rule's outcome on the points layer (10 characters at most).
_OUTCOME_COLUMNS = {
    "permit_required": "permit_out",
    "mt_simon_hinckley": "msh_out",
    "bulk_sale": "bulk_out",
    "once_through": "once_out",
    "surface_water_levels": "swl_out",
    "data_center": "dc_out",
}
#: The trace contract's columns, then the water-use ones (the edition, the rule's flags).
_TRACE_COLUMNS = (*TRACE_COLUMNS, "edition", "flags")


def water_use(
    points: str | Path,
    *,
    layer: str | None = None,
    as_of: str | dt.date | None = None,
    context: str | Path | Context | None = None,
    aquifer: str | Path | gpd.GeoDataFrame | None = None,
    aquifer_layer: str | None = None,
    assume_crs: str | None = None,
    parameters: str | Path | ParameterSet | None = None,
    readings: FeeReadings | None = None,
    override_crs: str | None = None,
) -> WaterUseResult:
    """Screen a layer of points of appropriation under § 103G.271.

    Parameters
    ----------
    points : str or Path
        The layer (columns: :data:`INPUT_COLUMNS`, docs/water_use.md).
    layer : str, optional
        GeoPackage layer of ``points``.
    as_of : str or date, optional
        Application (fee year) date, default today.
    context : str, Path or Context, optional
        Context with a ``counties`` layer (default: the shipped Minnesota counties).
    aquifer : str, Path or GeoDataFrame, optional
        Polygons of the Mt. Simon-Hinckley aquifer extent; without it, and without an
        ``aquifer`` column value, the aquifer is unknown (the rules ask to verify).
    aquifer_layer : str, optional
        GeoPackage layer of ``aquifer``.
    assume_crs : str, optional
        CRS for a points layer without one (recorded); only for a layer without a CRS.
    override_crs : str, optional
        CRS replacing the points layer's wrong one (``--override-crs``; recorded with
        the old one in the manifest's ``settings["crs_overrides"]``).
    parameters : str, Path or ParameterSet, optional
        A water-use parameter tree replacing ``water_use.yaml``.
    readings : FeeReadings, optional
        The named readings of the fee schedule.

    Returns
    -------
    WaterUseResult

    Raises
    ------
    InputError
        A file cannot be read, has no CRS, or lacks the ``permit_id`` column.
    """
    params = _water_parameters(parameters)
    readings = readings or FeeReadings()
    day = as_date(as_of)
    rules.editions_for(day, params)  # refuse a date before the first edition at once
    gdf, record, records = read_appropriations(
        points, layer, assume_crs=assume_crs, override_crs=override_crs
    )
    manifest = _start_manifest(gdf, record, records, day, params, readings, override_crs)
    ctx = as_context(context, as_of=day)  # the county lists are in the WCA tree, not params
    manifest.add_records(ctx.records)

    cols = _match_columns(list(gdf.columns))
    out, reprojected = to_working_crs(gdf, source=record.path)
    manifest.add_records(reprojected)
    rows = _RowStatus(out.index, _row_labels(gdf, csv=Path(record.path).suffix.lower() == ".csv"))
    lonlat = _place_points(gdf, out.geometry, record, rows)
    good = gpd.GeoSeries(out.geometry.where(rows.status == ASSESSED, None), crs=WORK_CRS)
    lonlat = lonlat.where(rows.status == ASSESSED, None)
    county = _counties_of(good, ctx.counties)
    in_aquifer, aquifer_source = _aquifer_facts(aquifer, aquifer_layer, good, manifest)
    spatial = _SpatialFacts(county, lonlat, in_aquifer, aquifer_source)
    read = _read_rows(out, cols, rows, spatial, params)
    for k, v in read.columns.items():
        out[k] = v
    out["status"] = rows.status
    out["status_code"] = rows.code
    out["status_reason"] = rows.reason
    return _result(out, read, day, params, readings, manifest)


def _water_parameters(parameters: str | Path | ParameterSet | None) -> ParameterSet:
    """Return the parameter tree given (a tree or its file), else the shipped one."""
    if isinstance(parameters, ParameterSet):
        return parameters
    return load_parameters(parameters) if parameters else rules.water_use_parameters()


def _start_manifest(
    gdf: gpd.GeoDataFrame,
    record: InputRecord,
    records: list[str],
    day: dt.date,
    params: ParameterSet,
    readings: FeeReadings,
    override_crs: str | None,
) -> Manifest:
    """Return the run's manifest: the points read, the readings and the editions applied."""
    manifest = Manifest(
        command="water-use",
        as_of=day.isoformat(),
        parameters_source=params.source,
        parameters_sha256=params.sha256,
        assumptions=list(WATER_CAVEATS),
    )
    manifest.add_input(record)
    manifest.add_records(records)
    points_where = record.path + (f" (layer {record.layer})" if record.layer else "")
    warn_if_empty(gdf, points_where, manifest)
    manifest.settings = {
        **(
            {"crs_overrides": [{"layer": points_where, "old": record.crs, "new": override_crs}]}
            if override_crs is not None
            else {}
        ),
        "boundary_reading": readings.boundary,
        "irrigation_minimum_reading": readings.irrigation_minimum,
        "editions": [vars(e) for e in rules.editions(params)],
    }
    return manifest


class _RowStatus:
    """The status, status code and reason of every input row (each stays in the output).

    The code is what the end-of-run tally groups by (``enums.StatusCode``), the reason the
    sentence a person reads; :meth:`refuse` sets all three, the reason after the row's label.
    """

    def __init__(self, index: pd.Index, labels: list[str]) -> None:
        self.status = pd.Series(ASSESSED, index=index, dtype=object)
        self.code = pd.Series(StatusCode.ASSESSED.value, index=index, dtype=object)
        self.reason = pd.Series("", index=index, dtype=object)
        self.labels = labels

    def assessed(self, pos: int) -> bool:
        """Return whether the row at position ``pos`` is still to be assessed."""
        return bool(self.status.iat[pos] == ASSESSED)

    def refuse(self, pos: int, code: StatusCode, why: str) -> None:
        """Mark the row at position ``pos`` not assessed, with its code and reason."""
        self.status.iat[pos] = NOT_ASSESSED
        self.code.iat[pos] = code.value
        self.reason.iat[pos] = f"{self.labels[pos]}: {why}"


def _place_points(
    gdf: gpd.GeoDataFrame, geom: gpd.GeoSeries, record: InputRecord, rows: _RowStatus
) -> gpd.GeoSeries:
    """Refuse the rows without a point in Minnesota; return the points in lon/lat.

    A row without a (valid) location says why (a CSV's cells: :func:`coordinate_issue`),
    a geometry that is not a point says how to convert it, and a point outside Minnesota
    says what to check (:func:`outside_minnesota`); it is never assessed with a fee and no
    county.
    """
    missing = geom.isna() | geom.is_empty
    lon_lat = _lon_lat_columns(list(gdf.columns)) if record.path.lower().endswith(".csv") else None
    for i in np.flatnonzero(missing.to_numpy()):
        kind, problem = StatusCode.NO_POINT, ""
        if lon_lat is not None:
            lon_col, lat_col = lon_lat
            found, problem = coordinate_issue(
                gdf[lon_col].iat[i], gdf[lat_col].iat[i], lon_column=lon_col, lat_column=lat_col
            )
            kind = found if problem else kind
        rows.refuse(
            int(i),
            kind,
            problem
            or "no point: the row has no (valid) location; give the point of "
            "appropriation (CSV: lon/lat in WGS 84 degrees)",
        )
    kinds = geom.geom_type.fillna("")
    wrong = ~missing & (kinds != "Point")
    for i, k in zip(np.flatnonzero(wrong.to_numpy()), kinds[wrong], strict=True):
        rows.refuse(
            int(i),
            StatusCode.NOT_A_POINT,
            f"geometry is {k}, not a point of appropriation: convert it to a "
            "point in QGIS (Vector > Geometry Tools > Centroids) and record that you did",
        )
    lonlat = gpd.GeoSeries(geom.where(rows.status == ASSESSED, None), crs=WORK_CRS).to_crs(_LONLAT)
    placed = (rows.status == ASSESSED).to_numpy()
    inside = np.zeros(len(placed), dtype=bool)
    if placed.any():  # one vectorised test; the hint only for the points outside
        import shapely

        inside[placed] = shapely.covers(_minnesota(), lonlat.to_numpy()[placed])
    for i in np.flatnonzero(placed & ~inside):
        p = lonlat.iat[i]
        outside = outside_minnesota(p.x, p.y)
        if outside:  # never assessed with a fee and no county
            rows.refuse(int(i), StatusCode.OUTSIDE_MINNESOTA, outside)
    return lonlat


def _aquifer_facts(
    aquifer: str | Path | gpd.GeoDataFrame | None,
    aquifer_layer: str | None,
    good: gpd.GeoSeries,
    manifest: Manifest,
) -> tuple[pd.Series, str]:
    """Return whether each point lies in the ``--aquifer`` polygons, and where that is from.

    Without a layer every point is unknown (None). The layer is recorded in the manifest.
    """
    if aquifer is None:
        return pd.Series([None] * len(good), index=good.index, dtype=object), "unknown"
    if isinstance(aquifer, gpd.GeoDataFrame):
        aq, aq_source = aquifer, "the aquifer layer"
        manifest.add_input(InputRecord("aquifer", "<GeoDataFrame>", None, "", str(aq.crs), len(aq)))
    else:
        read = read_layer(aquifer, aquifer_layer)
        aq, aq_source = read.gdf, read.source
        manifest.add_input(
            InputRecord("aquifer", read.source, read.layer, read.sha256, read.crs, len(aq))
        )
        manifest.add_records(read.records)
    aq, reprojected = to_working_crs(aq, source=aq_source)
    manifest.add_records(reprojected)
    return _in_aquifer(good, aq), "aquifer layer"


@dataclass(frozen=True)
class _SpatialFacts:
    """What the layers say about each point: county, lon/lat, inside the aquifer polygons."""

    county: pd.Series
    lonlat: gpd.GeoSeries
    in_aquifer: pd.Series
    aquifer_source: str


@dataclass
class _ReadRows:
    """The rows read into appropriations, by row index, and the columns of spatial facts."""

    facts: dict[int, Appropriation] = field(default_factory=dict)
    extras: dict[int, dict[str, Any]] = field(default_factory=dict)
    notes: dict[int, list[str]] = field(default_factory=dict)
    columns: dict[str, list[Any]] = field(default_factory=dict)


#: The columns of spatial facts a row gets (None where not known).
_FACT_COLUMNS = ("county", "metro_county", "seven_county", "in_msh", "msh_source", "dest_miles")


def _read_rows(
    out: gpd.GeoDataFrame,
    cols: dict[str, str],
    rows: _RowStatus,
    spatial: _SpatialFacts,
    params: ParameterSet,
) -> _ReadRows:
    """Return each placed row as an :class:`Appropriation`; refuse a row that cannot be read.

    A cell that cannot be read, a repeated permit id, a point in no county of the county
    layer, one destination coordinate or facts the rules refuse: the row is not assessed,
    with the column and the fix in its reason.
    """
    read = _ReadRows(columns={k: [None] * len(out) for k in _FACT_COLUMNS})
    first = rules.editions(params)[0].applies_from
    metro = params.value("water_use.metropolitan_county.counties", first)
    seven = params.value("water_use.seven_county_area.counties", first)
    seen: dict[str, int] = {}
    for pos, idx in enumerate(out.index):
        row = out.loc[idx]
        name = spatial.county.loc[idx]
        read.columns["county"][pos] = name
        if name is not None:
            read.columns["metro_county"][pos] = county_in_list(name, metro)
            read.columns["seven_county"][pos] = county_in_list(name, seven)
        try:
            kw, row_notes = _row_facts(row, cols)
            extra = _extras(row, cols)
        except _RowError as err:
            if rows.assessed(pos):
                rows.refuse(pos, StatusCode.APPROPRIATION_FACTS, str(err))
            continue
        if kw["permit_id"] in seen:
            rows.refuse(
                pos,
                StatusCode.APPROPRIATION_FACTS,
                f"permit_id {kw['permit_id']!r} repeats row "
                f"{seen[kw['permit_id']] + 1}; give each permit or source its own id",
            )
            continue
        seen[kw["permit_id"]] = pos
        if rows.assessed(pos):
            _read_row(pos, idx, name, kw, extra, rows, spatial, read)
            if idx in read.facts:
                read.notes[idx] = row_notes
    return read


def _read_row(
    pos: int,
    idx: int,
    county: str | None,
    kw: dict[str, Any],
    extra: dict[str, Any],
    rows: _RowStatus,
    spatial: _SpatialFacts,
    read: _ReadRows,
) -> None:
    """Add the appropriation of one placed row with its spatial facts, or refuse the row."""
    if county is None:  # in Minnesota but in no county of a user's county layer
        rows.refuse(
            pos,
            StatusCode.OUTSIDE_COUNTIES,
            "the point lies in no county of the county layer (the county "
            "decides the metropolitan-county rules): give a counties layer that covers it, "
            "or leave --context out to use the shipped Minnesota counties",
        )
        return
    msh, src = None, spatial.aquifer_source
    if extra["aquifer"] is not None:
        msh, src = bool(_MT_SIMON.search(extra["aquifer"])), "aquifer column"
    elif spatial.in_aquifer.loc[idx] is not None:
        msh = bool(spatial.in_aquifer.loc[idx])
    read.columns["in_msh"][pos], read.columns["msh_source"][pos] = msh, src
    if (extra["dest_lon"] is None) != (extra["dest_lat"] is None):
        rows.refuse(
            pos, StatusCode.APPROPRIATION_FACTS, "give both dest_lon and dest_lat, or neither"
        )
        return
    miles = None
    if extra["dest_lon"] is not None:
        p = spatial.lonlat.loc[idx]
        miles = float(geodesic_miles(p.x, p.y, extra["dest_lon"], extra["dest_lat"])[0])
    read.columns["dest_miles"][pos] = miles
    try:
        read.facts[idx] = Appropriation(
            county=county, mt_simon_hinckley=msh, destination_miles=miles, **kw
        )
    except RulesInputError as err:
        rows.refuse(pos, StatusCode.APPROPRIATION_FACTS, str(err))
        return
    read.extras[idx] = extra


def _result(
    out: gpd.GeoDataFrame,
    read: _ReadRows,
    day: dt.date,
    params: ParameterSet,
    readings: FeeReadings,
    manifest: Manifest,
) -> WaterUseResult:
    """Return the result: the rules' decisions on the rows read, as layers and tables."""
    facts = read.facts
    screening = (
        rules.screen(facts.values(), as_of=day, params=params, readings=readings) if facts else None
    )
    extra_decisions = _schedules(facts, read.extras, day, params, readings)
    decisions = _trace_table(facts, screening, extra_decisions)
    out = _decorate(out, facts, screening, read.notes, decisions)
    fees = _fee_table(out, facts, screening)
    schedules = pd.DataFrame(
        [
            {"permit_id": d.subject, "rule_id": d.rule_id, "outcome": d.outcome.value, **row}
            for d in extra_decisions
            for row in d.schedule
        ],
        columns=[
            "permit_id",
            "rule_id",
            "outcome",
            "year",
            "month",
            "edition",
            "fee_usd",
            "penalty_usd",
            "note",
        ],
    )
    points_out = gpd.GeoDataFrame(out, geometry=out.geometry.name, crs=out.crs)
    return WaterUseResult(
        points_out, decisions, fees, schedules, screening, manifest, extra_decisions
    )


def _schedules(
    facts: Mapping[int, Appropriation],
    extras: Mapping[int, dict[str, Any]],
    day: dt.date,
    params: ParameterSet,
    readings: FeeReadings,
) -> list[WaterDecision]:
    out = []
    for idx, a in facts.items():
        e = extras[idx]
        if e["notified_year"] is not None:
            out.append(
                rules.past_unpermitted_fees(
                    a,
                    e["notified_year"],
                    first_unpermitted_year=e["first_unpermitted_year"],
                    params=params,
                    readings=readings,
                )
            )
        if e["unpaid_usd"] is not None and e["fee_due_date"] and e["second_notice_date"]:
            out.append(
                rules.late_payment_penalty(
                    e["unpaid_usd"],
                    e["fee_due_date"],
                    e["second_notice_date"],
                    day,
                    subject=a.permit_id,
                    params=params,
                )
            )
    return out


def _trace_table(
    facts: Mapping[int, Appropriation],
    screening: ScreeningResult | None,
    extra: list[WaterDecision],
) -> pd.DataFrame:
    entity_of = {a.permit_id: a.entity for a in facts.values()}
    systems = {a.distribution_system: a.entity for a in facts.values() if a.distribution_system}
    rows = []
    decisions = list(screening.decisions) if screening else []
    decisions += extra
    seq: dict[str, int] = {}
    for d in decisions:
        if d.subject in entity_of:
            project, impact = entity_of[d.subject], d.subject
        else:  # an entity cap or a distribution system's surcharge: project-level
            project, impact = systems.get(d.subject, d.subject), ""
        seq[project] = seq.get(project, 0) + 1
        row = d.trace_row()
        rows.append(
            {
                "project": project,
                "impact_id": impact,
                "seq": seq[project],
                **row,
                "edition": d.edition,
                "flags": list(d.flags),
            }
        )
    return pd.DataFrame(rows, columns=list(_TRACE_COLUMNS))


def _decorate(
    out: pd.DataFrame,
    facts: Mapping[int, Appropriation],
    screening: ScreeningResult | None,
    notes: Mapping[int, list[str]],
    decisions: pd.DataFrame,
) -> pd.DataFrame:
    out = out.copy()
    n = len(out)
    cols: dict[str, list[Any]] = {
        k: [None] * n
        for k in (
            "outcome",
            *(_OUTCOME_COLUMNS.values()),
            "fee_usd",
            "fee_clause",
            "fee_bound",
            "cap_usd",
            "surch_usd",
            "total_usd",
            "edition",
            "reasons",
            "citations",
            "verify",
        )
    }
    for pos, idx in enumerate(out.index):
        if idx not in facts or screening is None:
            cols["outcome"][pos] = WaterOutcome.NOT_ASSESSED.value
            cols["reasons"][pos] = out.at[idx, "status_reason"]
            continue
        a = facts[idx]
        mine = screening.for_permit(a.permit_id)
        by_rule = {d.rule_id: d for d in mine}
        cols["outcome"][pos] = rules.headline(mine).value
        for rule, col in _OUTCOME_COLUMNS.items():
            cols[col][pos] = by_rule[RULE_IDS[rule]].outcome.value
        fee = by_rule[RULE_IDS["fee"]]
        total = by_rule[RULE_IDS["total"]]
        cols["fee_usd"][pos] = fee.value
        cols["fee_clause"][pos] = fee.amounts.get("clause")
        cols["fee_bound"][pos] = "fee_at_boundary" in fee.flags
        cols["total_usd"][pos] = total.value
        cols["cap_usd"][pos] = total.amounts.get("fee_after_cap")
        cols["surch_usd"][pos] = total.amounts.get("surcharge")
        cols["edition"][pos] = fee.edition
        # rendered for people, from the decisions; never parsed back
        lines = [*notes.get(idx, [])]
        cites: list[str] = []
        checks: list[str] = []
        for d in mine:
            if d.outcome in (WaterOutcome.NOT_APPLICABLE,):
                continue
            lines.append(f"[{d.rule_id}] {d.outcome.value}: " + " ".join(d.reasons))
            cites += d.citations
            checks += d.verify
        cols["reasons"][pos] = "\n".join(lines)
        cols["citations"][pos] = "; ".join(dict.fromkeys(cites))
        cols["verify"][pos] = "\n".join(dict.fromkeys(checks))
    for k, v in cols.items():
        out[k] = v
    return out


def _fee_table(
    out: pd.DataFrame, facts: Mapping[int, Appropriation], screening: ScreeningResult | None
) -> pd.DataFrame:
    rows = []
    for a in facts.values():
        if screening is None:
            break
        fee = screening.decision(a.permit_id, "fee")
        total = screening.decision(a.permit_id, "total")
        rows.append(
            {
                "permit_id": a.permit_id,
                "entity": a.entity,
                "use": a.use,
                "annual_gallons": a.annual_gallons,
                "edition": fee.edition,
                "fee_outcome": fee.outcome.value,
                "clause": fee.amounts.get("clause"),
                "rate": fee.amounts.get("rate"),
                "fee_usd": fee.value,
                "fee_at_boundary": "fee_at_boundary" in fee.flags,
                "fee_other_reading_usd": fee.amounts.get("fee_other_reading"),
                "irrigation_reading": fee.amounts.get("irrigation_minimum_reading"),
                "irrigation_reading_differs": "irrigation_reading_differs" in fee.flags,
                "irrigation_other_reading": fee.amounts.get("irrigation_alternative_reading"),
                "fee_irrigation_other_usd": fee.amounts.get("fee_irrigation_alternative"),
                "fee_after_cap_usd": total.amounts.get("fee_after_cap"),
                "surcharge_usd": total.amounts.get("surcharge"),
                "total_usd": total.value,
                "total_outcome": total.outcome.value,
                "fee_2018_usd": fee.amounts.get("value_2018"),
                "fee_2025_usd": fee.amounts.get("value_2025"),
            }
        )
    return pd.DataFrame(
        rows,
        columns=[
            "permit_id",
            "entity",
            "use",
            "annual_gallons",
            "edition",
            "fee_outcome",
            "clause",
            "rate",
            "fee_usd",
            "fee_at_boundary",
            "fee_other_reading_usd",
            "irrigation_reading",
            "irrigation_reading_differs",
            "irrigation_other_reading",
            "fee_irrigation_other_usd",
            "fee_after_cap_usd",
            "surcharge_usd",
            "total_usd",
            "total_outcome",
            "fee_2018_usd",
            "fee_2025_usd",
        ],
    )


# --------------------------------------------------------------------------- map

#: The ``<title>`` of the water-use map page.
MAP_TITLE = f"Water appropriation screening map ({STATUTE})"


def outcome_label(outcome: str) -> str:
    """Return how a water-use outcome reads for a person (``"Permit required"``).

    Parameters
    ----------
    outcome : str
        A :class:`WaterOutcome` value.

    Returns
    -------
    str
    """
    return label(outcome)


#: Fill colour of each headline outcome on the map (the palette :mod:`wetland_gis.palette`
#: holds, which the QGIS styles read too).
OUTCOME_COLORS = WATER_USE_OUTCOME_COLORS

_ON_EACH = """
function (feature, layer) {
    var p = feature.properties || {};
    if (p.wg_popup) { layer.bindPopup(p.wg_popup, {maxWidth: 480, maxHeight: 360}); }
    if (p.wg_tooltip) { layer.bindTooltip(p.wg_tooltip, {sticky: true}); }
}
"""


def _ring(lon: float, lat: float, miles: float, n: int = 181) -> list[list[float]]:
    """Return a geodesic circle as [lon, lat] pairs (pyproj Geod.fwd)."""
    azimuths = np.linspace(0.0, 360.0, n)
    lons, lats, _ = _GEOD.fwd(
        np.full(n, lon), np.full(n, lat), azimuths, np.full(n, miles * METRES_PER_MILE)
    )
    return [[round(float(x), 6), round(float(y), 6)] for x, y in zip(lons, lats, strict=True)]


def water_use_map(
    result: WaterUseResult,
    *,
    self_contained: bool = True,
    params: ParameterSet | None = None,
    title: str = MAP_TITLE,
) -> folium.Map:
    """Return a folium map of the points by outcome, with bulk-sale distance rings.

    Each point is filled with the colour of its outcome (:data:`OUTCOME_COLORS`); the
    legend lists the outcomes present, by their labels (:func:`wetland_gis.labels.label`),
    with their counts. Each bulk-sale source (``bulk_sale`` true) gets geodesic rings at
    the distances of subd. 4b (50 and 100 miles, read from the parameter tree) and a line
    to its destination. The page loads no script from the network (vendored Leaflet);
    its ``<title>`` is ``title``.

    Returns
    -------
    folium.Map
    """
    import folium
    from folium.utilities import JsCode

    from wetland_gis.mapping.offline import use_vendored_assets

    params = params or rules.water_use_parameters()
    last = rules.editions(params)[-1].applies_from
    radii = [
        params.value("water_use.bulk_sale.distance_miles", last),
        params.value("water_use.bulk_sale.public_supply_miles", last),
    ]
    pts = result.points.to_crs(_LONLAT)
    m = folium.Map(location=[46.3, -94.2], zoom_start=6, tiles=None, control_scale=True)
    features, rings = _map_features(pts, radii)
    if rings:
        folium.GeoJson(
            {"type": "FeatureCollection", "features": rings},
            name=f"Bulk sale: {' and '.join(f'{float(r):g}' for r in radii)} mile rings",
            style_function=lambda f: {
                "color": "#c0392b",
                "weight": 1.5,
                "dashArray": "6 4",
                "fill": False,
            },
            on_each_feature=JsCode(_ON_EACH),
        ).add_to(m)
    folium.GeoJson(
        {"type": "FeatureCollection", "features": features},
        name="Points of appropriation",
        marker=folium.CircleMarker(radius=7, fill=True),  # fill: folium's default is none
        style_function=lambda f: {
            "fill": True,
            "color": "#333333",
            "weight": 1,
            "fillOpacity": 0.9,
            "fillColor": OUTCOME_COLORS.get(f["properties"]["outcome"], "#ffffff"),
        },
        on_each_feature=JsCode(_ON_EACH),
    ).add_to(m)
    _add_legend(m, pts, title)
    folium.LayerControl(collapsed=True).add_to(m)
    ok = pts[~(pts.geometry.isna() | pts.geometry.is_empty)]
    if len(ok):
        minx, miny, maxx, maxy = ok.total_bounds
        m.fit_bounds([[miny, minx], [maxy, maxx]], max_zoom=12)
    use_vendored_assets(m, [], self_contained=self_contained)
    return m


def _map_features(
    pts: gpd.GeoDataFrame, radii: list[Any]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return the GeoJSON features of the points, and the rings and lines of bulk sales."""
    from shapely.geometry.base import BaseGeometry

    features = []
    rings = []
    for _, row in pts.iterrows():
        g = row.geometry
        if not isinstance(g, BaseGeometry) or g.is_empty or g.geom_type != "Point":
            continue
        features.append(_point_feature(row, g))
        if _flag_safe(row.get("bulk_sale")):
            rings += _bulk_sale_lines(row, g, radii)
    return features, rings


def _point_feature(row: pd.Series, g: Any) -> dict[str, Any]:
    """Return a point's feature: its outcome, popup (reasons, what to verify) and tooltip."""
    outcome = str(row.get("outcome"))
    popup = (
        f"<b>{html.escape(str(row.get('permit_id')))}</b> "
        f"({html.escape(str(row.get('entity') or ''))})<br>"
        f"outcome: <b>{html.escape(outcome)}</b><br>"
        f"total fee: {html.escape(str(row.get('total_usd')))} USD "
        f"(edition {html.escape(str(row.get('edition')))})<br>"
        "<pre style='white-space:pre-wrap'>"
        f"{html.escape(str(row.get('reasons') or ''))}</pre>"
        f"<i>verify:</i><pre style='white-space:pre-wrap'>"
        f"{html.escape(str(row.get('verify') or ''))}</pre>"
    )
    return {
        "type": "Feature",
        "geometry": {"type": "Point", "coordinates": [g.x, g.y]},
        "properties": {
            "wg_popup": popup,
            "wg_tooltip": html.escape(f"{row.get('permit_id')}: {outcome}"),
            "outcome": outcome,
        },
    }


def _bulk_sale_lines(row: pd.Series, g: Any, radii: list[Any]) -> list[dict[str, Any]]:
    """Return a bulk-sale source's geodesic rings at ``radii`` and its line to the destination."""
    lines = [
        _line_feature(_ring(g.x, g.y, float(r)), f"{row.get('permit_id')}: {r:g} miles (geodesic)")
        for r in radii
    ]
    dlon, dlat = row.get("dest_lon"), row.get("dest_lat")
    if not is_blank(dlon) and not is_blank(dlat):
        lines.append(
            _line_feature(
                [[g.x, g.y], [float(dlon), float(dlat)]],
                f"{row.get('permit_id')}: destination, "
                f"{float(row.get('dest_miles') or 0):.1f} miles",
            )
        )
    return lines


def _line_feature(coordinates: list[list[float]], tooltip: str) -> dict[str, Any]:
    """Return a line feature with its tooltip (escaped: input text is never markup)."""
    return {
        "type": "Feature",
        "geometry": {"type": "LineString", "coordinates": coordinates},
        "properties": {"wg_tooltip": html.escape(tooltip)},
    }


def _add_legend(m: folium.Map, pts: gpd.GeoDataFrame, title: str) -> None:
    """Add the legend (the outcomes present, with their counts) and the page's title."""
    from branca.element import Element, Figure

    counts = pts["outcome"].astype(str).value_counts().to_dict()
    legend = "".join(
        f"<li data-wg-outcome='{html.escape(o)}'><span class='wg-swatch' style='display:"
        "inline-block;width:12px;height:12px;border-radius:50%;"
        f"border:1px solid #333;background:{OUTCOME_COLORS.get(o, '#ffffff')}'></span> "
        f"{html.escape(outcome_label(o))} ({counts[o]})</li>"
        for o in [*OUTCOME_COLORS, *sorted(set(counts) - set(OUTCOME_COLORS))]
        if counts.get(o, 0)
    )
    figure = cast(Figure, m.get_root())  # a folium Map's root is its Figure
    figure.title = html.escape(title)  # branca does not escape
    figure.html.add_child(
        Element(
            "<div class='wg-legend' style='position:fixed;bottom:20px;right:10px;z-index:9999;"
            "background:#fff;"
            "padding:6px 10px;border-radius:6px;font:12px sans-serif'><b>Water use (§ 103G.271)"
            f"</b><ul style='list-style:none;margin:0;padding:0'>{legend}</ul>"
            "<small>Screening only: the DNR decides.</small></div>"
        )
    )


def _flag_safe(value: Any) -> bool:
    try:
        return _flag(value, "bulk_sale") is True
    except _RowError:
        return False


def field_names() -> list[str]:
    """Return the names of :class:`Appropriation`'s fields (for documentation tests)."""
    return [f.name for f in fields(Appropriation)]
