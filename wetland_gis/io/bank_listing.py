"""Read and check a wetland bank credit listing (CSV or a vector file).

The listing (docs/data_schema.md, "Wetland bank credit listing") is one of the two kinds of
replacement option of :mod:`wetland_gis.siting`; the other, candidate project-specific
sites, is read by :mod:`wetland_gis.io.candidate_sites`. Values are read with
:mod:`wetland_gis.io.values`; every bad row is reported with its file line and fix.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import geopandas as gpd
import pandas as pd
import shapely

from wetland_gis.context_layers import MAJOR_WATERSHED_IDS
from wetland_gis.enums import PercentageArea
from wetland_gis.errors import FieldMappingError, InputError
from wetland_gis.geometry.crs import WORKING_CRS, to_working_crs
from wetland_gis.io.fields import match_columns
from wetland_gis.io.values import is_blank, parse_id, parse_number, parse_whole_number

#: Columns of the bank credit listing (docs/data_schema.md), required in the file.
BANK_FIELDS = (
    "bank_name",
    "account",
    "county",
    "major",
    "bsa",
    "circ39",
    "credits",
    "price",
    "program",
)
#: Other names accepted for a listing column (matched case-insensitively).
BANK_ALIASES: Mapping[str, tuple[str, ...]] = {
    "circ39": ("credit_type", "plant_community", "community", "circ39_class", "wetland_type"),
    "account": ("account_no", "account_number"),
    "bank_name": ("bank",),
    "lon": ("longitude", "lng"),
    "lat": ("latitude",),
}
#: Credit programs of a listing row, by lower-case spelling.
PROGRAMS: Mapping[str, str] = {"wca": "WCA", "404": "404", "both": "both"}


def read_bank_listing(path: str | Path, *, layer: str | None = None) -> gpd.GeoDataFrame:
    """Read and check a wetland bank credit listing (CSV or a vector file).

    Parameters
    ----------
    path : str or Path
        A CSV with the columns of ``docs/data_schema.md`` ("Wetland bank credit listing")
        and optional ``lon``/``lat`` (WGS 84 degrees), or a GeoPackage (or other vector
        file) with those columns and point or polygon geometry.
    layer : str, optional
        The layer of a multi-layer GeoPackage.

    Returns
    -------
    GeoDataFrame
        In EPSG:26915, one row per listing row, with the documented columns normalised
        (``major`` and ``bsa`` nullable integers, ``credits`` and ``price`` floats,
        ``program`` one of ``WCA``, ``404``, ``both``), ``option_id`` (the account; made
        unique with ``-2``, ``-3``... when an account has several rows), ``wg_row``
        (the data row, from 1) and every other column as read. Rows without a location have
        an empty geometry.

    Raises
    ------
    FieldMappingError
        When a documented column is missing; the message names the file and the columns.
    InputError
        When a value is invalid; the message lists each row (data row from 1, and file
        line), the value and the fix.
    """
    path = Path(path)
    if not path.is_file():
        raise InputError(
            f"bank credit listing {path} does not exist; give the path of a "
            "CSV or GeoPackage (docs/data_schema.md)"
        )
    if path.suffix.lower() == ".csv":
        try:
            frame = pd.read_csv(path, dtype=str, keep_default_na=False, skipinitialspace=True)
        except (OSError, pd.errors.ParserError, UnicodeDecodeError) as exc:
            raise InputError(f"cannot read bank credit listing {path}: {exc}") from exc
        return prepare_banks(frame, source=str(path), line_offset=2)
    from wetland_gis.io.layers import read_layer

    read = read_layer(path, layer)
    return prepare_banks(read.gdf, source=str(path), line_offset=None)


def prepare_banks(
    frame: pd.DataFrame, *, source: str = "bank listing", line_offset: int | None = None
) -> gpd.GeoDataFrame:
    """Check and normalise a bank credit listing already in memory.

    Parameters
    ----------
    frame : DataFrame or GeoDataFrame
        The listing; a GeoDataFrame must have a CRS. A plain DataFrame may carry
        ``lon``/``lat``.
    source : str
        Name used in messages.
    line_offset : int, optional
        Added to the row's 0-based position to give the file line (2 for a CSV with a
        header).

    Returns
    -------
    GeoDataFrame
        See :func:`read_bank_listing`.

    Raises
    ------
    FieldMappingError, InputError
        See :func:`read_bank_listing`.
    """
    cols = _listing_columns(frame, source)
    geo = isinstance(frame, gpd.GeoDataFrame)
    if geo and frame.crs is None:
        raise InputError(f"{source} has no CRS: set it in QGIS (Layer > Set CRS) and save again")
    problems: list[str] = []
    rows = []
    for n, rec in enumerate(frame.reset_index(drop=True).to_dict("records")):
        # row from 1, as QGIS numbers features; n is the position
        where = f"row {n + 1}" + (f" (line {n + line_offset})" if line_offset is not None else "")
        get = {name: rec[col] for name, col in cols.items()}
        row: dict[str, Any] = {"wg_row": n + 1}
        row.update(_listing_row(get, where, problems))
        row["_lon"], row["_lat"] = _location(
            get, where, problems, given=not geo and ("lon" in cols or "lat" in cols)
        )
        rows.append(row)
    if problems:
        shown = problems[:20]
        more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
        raise InputError(
            f"{source}: {len(problems)} problem(s) in the bank credit listing:\n  - "
            + "\n  - ".join(shown)
            + more
        )
    out = pd.DataFrame(rows)
    extra = frame.reset_index(drop=True).drop(
        columns=[c for c in cols.values()] + ([frame.geometry.name] if geo else []), errors="ignore"
    )
    out = pd.concat([out, extra], axis=1)
    if geo:
        gdf = gpd.GeoDataFrame(
            out, geometry=frame.geometry.reset_index(drop=True).values, crs=frame.crs
        )
        gdf, _ = to_working_crs(gdf, source=source)
    else:
        points = [
            shapely.Point(x, y)
            if parse_number(x, errors="coerce") is not None
            and parse_number(y, errors="coerce") is not None
            else None
            for x, y in zip(out["_lon"], out["_lat"], strict=True)
        ]
        gdf = gpd.GeoDataFrame(out, geometry=points, crs="EPSG:4326").to_crs(WORKING_CRS)
    gdf = gdf.drop(columns=["_lon", "_lat"])
    for name in ("major", "bsa"):
        gdf[name] = pd.array(gdf[name].tolist(), dtype="Int64")
    gdf["option_id"] = _unique_ids(gdf["account"].tolist())
    return gdf


def _listing_columns(frame: pd.DataFrame, source: str) -> dict[str, str]:
    """Return the column of each listing field found in ``frame`` (by name or alias).

    Raises
    ------
    FieldMappingError
        When a column of :data:`BANK_FIELDS` is missing.
    """
    cols = match_columns(
        frame.columns, (*BANK_FIELDS, "lon", "lat", "pct_class", "minor"), BANK_ALIASES
    )
    missing = [f for f in BANK_FIELDS if f not in cols]
    if missing:
        have = [str(c) for c in frame.columns if c != getattr(frame, "_geometry_column_name", None)]
        raise FieldMappingError(
            f"{source}: the bank credit listing lacks column(s) {missing} (it has {have}); add "
            "them, named as in docs/data_schema.md - values may be blank where unknown, except "
            "account, credits, price and program"
        )
    return cols


def _text(value: Any) -> str | None:
    """Return ``value`` as stripped text, or None when it is blank."""
    return None if is_blank(value) else str(value).strip()


def _listing_row(get: Mapping[str, Any], where: str, problems: list[str]) -> dict[str, Any]:
    """Return the documented fields of one listing row, read; append its problems."""
    row: dict[str, Any] = {}
    account = get["account"]
    if is_blank(account):
        problems.append(f"{where}: account is blank; give the bank account number")
    row["account"] = None if is_blank(account) else parse_id(account)
    row["bank_name"] = _text(get["bank_name"])
    row["county"] = _text(get["county"])
    for name in ("credits", "price"):
        value = parse_number(get[name], errors="coerce")
        if value is None or value < 0:
            problems.append(
                f"{where}: {name} {get[name]!r} is not a non-negative number; write "
                f"it as a plain number such as 2.5"
            )
        row[name] = value if value is not None and value >= 0 else float("nan")
    major = get["major"]
    row["major"] = parse_whole_number(major, errors="coerce")
    lo, hi = MAJOR_WATERSHED_IDS
    if not is_blank(major) and (row["major"] is None or not lo <= row["major"] <= hi):
        problems.append(
            f"{where}: major {major!r} is not a major watershed number "
            f"{lo}-{hi}; leave it blank if unknown"
        )
    bsa = get["bsa"]
    row["bsa"] = parse_whole_number(bsa, errors="coerce")
    if not is_blank(bsa) and row["bsa"] is None:
        problems.append(
            f"{where}: bsa {bsa!r} is not a bank service area number; leave it blank if unknown"
        )
    row["circ39"] = _text(get["circ39"])
    program = str(get["program"]).strip().lower() if not is_blank(get["program"]) else ""
    if program not in PROGRAMS:
        problems.append(
            f"{where}: program {get['program']!r} is not one of {sorted(set(PROGRAMS.values()))}"
        )
    row["program"] = PROGRAMS.get(program)
    row["minor"] = parse_id(get.get("minor"))
    row["pct_class"] = _percentage_class(get.get("pct_class"), where, problems)
    return row


def _percentage_class(pct: Any, where: str, problems: list[str]) -> str | None:
    """Return the percentage class of a row (None when blank); a bad one is a problem."""
    if is_blank(pct):
        return None
    try:
        return PercentageArea(str(pct).strip()).value
    except ValueError:
        problems.append(
            f"{where}: pct_class {pct!r} is not one of {[c.value for c in PercentageArea]}"
        )
        return None


def _location(
    get: Mapping[str, Any], where: str, problems: list[str], *, given: bool
) -> tuple[float | None, float | None]:
    """Return a row's ``lon`` and ``lat``; when ``given`` (a CSV's columns), check them."""
    lon = parse_number(get.get("lon"), errors="coerce")
    lat = parse_number(get.get("lat"), errors="coerce")
    if given:
        lon_blank, lat_blank = is_blank(get.get("lon")), is_blank(get.get("lat"))
        if lon_blank != lat_blank or (not lon_blank and (lon is None or lat is None)):
            problems.append(f"{where}: give both lon and lat as decimal degrees, or neither")
        elif lon is not None and lat is not None and (abs(lat) > 90 or abs(lon) > 180):
            problems.append(
                f"{where}: lon {lon} / lat {lat} are not degrees (were "
                "they swapped, or written in metres?)"
            )
    return lon, lat


def _unique_ids(ids: list[Any]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for value in ids:
        key = str(value)
        seen[key] = seen.get(key, 0) + 1
        out.append(key if seen[key] == 1 else f"{key}-{seen[key]}")
    return out
