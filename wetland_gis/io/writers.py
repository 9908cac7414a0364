"""The format writers behind :func:`wetland_gis.io.layers.write_layer` and the SafeWriter.

:func:`write_frame` writes one layer straight to a path, in the format given by the
extension (or ``driver``): GeoPackage (styled for QGIS), GeoParquet, GeoJSON, CSV (geometry
as WKT) and shapefile (field names cut to 10 characters, listed in ``<stem>.fieldmap.csv``).
It does not protect an existing file: :class:`wetland_gis.io.safe_write.SafeWriter` stages
what it writes and swaps it in, and :func:`~wetland_gis.io.layers.write_layer` uses it.
"""

from __future__ import annotations

import csv
import json
import warnings
from collections.abc import Iterable
from enum import Enum
from pathlib import Path
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd
import pyogrio
import shapely

from wetland_gis.errors import OutputError, OutputTruncationWarning
from wetland_gis.io.checksums import shapefile_parts
from wetland_gis.io.csv_cells import neutralise, write_csv
from wetland_gis.io.qgis_styles import gpkg_dataset_options, style_layer

#: Extensions written, and the driver names accepted for ``driver=``.
WRITE_FORMATS: dict[str, tuple[str, ...]] = {
    ".gpkg": ("gpkg", "geopackage"),
    ".parquet": ("parquet", "geoparquet"),
    ".geojson": ("geojson",),
    ".csv": ("csv",),
    ".shp": ("esri shapefile", "shapefile", "shp"),
}

#: Longest DBF field name, in bytes.
SHAPEFILE_FIELD_LIMIT = 10
#: Name of the geometry column in CSV output.
WKT_COLUMN = "geometry_wkt"

_SHAPEFILE_SIDECARS = (".shp", ".shx", ".dbf", ".prj", ".cpg", ".qix", ".sbn", ".sbx")

DBF_TEXT_BYTES = 254
"""The most bytes a shapefile (DBF) text field holds."""


def _fit_bytes(text: str, limit: int) -> str:
    """Cut ``text`` so its UTF-8 encoding is at most ``limit`` bytes."""
    while len(text.encode("utf-8")) > limit:
        text = text[:-1]
    return text


def shapefile_field_names(columns: Iterable[Any]) -> dict[str, str]:
    """Map column names to unique DBF field names of at most 10 bytes.

    Parameters
    ----------
    columns : iterable
        Column names, in order (converted with ``str``).

    Returns
    -------
    dict
        ``{full name: short name}`` in input order. Names that already fit and are
        unique (DBF names are case-insensitive) are kept as they are; a longer name is
        cut to 10 characters (``sqft_protection`` -> ``sqft_prote``) and, when that is
        taken, given a numbered suffix (``sqft_pro_1``). The result depends only on
        the input, and a mapping's output mapped again is unchanged.

    Examples
    --------
    >>> shapefile_field_names(["sqft_protection", "sqft_protected", "id"])
    {'sqft_protection': 'sqft_prote', 'sqft_protected': 'sqft_pro_1', 'id': 'id'}
    """
    names = [str(c) for c in columns]
    limit = SHAPEFILE_FIELD_LIMIT
    used: set[str] = set()
    result: dict[str, str] = {}
    # Names that already fit keep their spelling (first come, first kept).
    for name in names:
        fits = name and len(name.encode("utf-8")) <= limit
        if fits and name.lower() not in used and name not in result:
            result[name] = name
            used.add(name.lower())
    for name in names:
        if name in result:
            continue
        base = _fit_bytes(name, limit) or "field"
        short = base
        number = 0
        while short.lower() in used:
            number += 1
            suffix = f"_{number}"
            short = _fit_bytes(base, limit - len(suffix)) + suffix
        result[name] = short
        used.add(short.lower())
    return {name: result[name] for name in dict.fromkeys(names)}


def _plain(value: Any) -> Any:
    """Turn enums, lists and dicts into values every format can store."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        return "; ".join(str(_plain(v)) for v in items)
    if isinstance(value, dict):
        return json.dumps(
            {str(k): _plain(v) for k, v in value.items()}, ensure_ascii=False, default=str
        )
    if isinstance(value, np.generic):
        return value.item()
    return value


#: Value types :func:`_plain` gives back unchanged (``bool`` is not an ``Enum``).
_STORABLE = frozenset({str, bool, int, float})


def _plain_column(series: pd.Series) -> pd.Series:
    """Return ``series`` with object values made storable and a storable dtype."""
    if isinstance(series.dtype, pd.CategoricalDtype):
        series = series.astype(object)
    if series.dtype != object:
        return series
    kinds = {type(v) for v in series.dropna()}
    if kinds <= _STORABLE:  # every value is stored as it is: _plain would change none
        values = series
    else:
        values = series.map(_plain, na_action="ignore")
        kinds = {type(v) for v in values.dropna()}
    if not kinds:
        return values
    if kinds <= {bool}:
        return values.astype("boolean")
    if kinds <= {int}:
        return values.astype("Int64")
    if kinds <= {int, float}:
        return values.astype(float)
    if kinds <= {str}:
        return values
    return values.map(str, na_action="ignore")


def _storable(gdf: pd.DataFrame, *, keep_lists: bool = False) -> pd.DataFrame:
    """Return a copy whose attribute columns every writer accepts."""
    # copy-on-write (pandas 3): the columns replaced here are new; the others are shared
    # with ``gdf`` until either is written, so a large layer is not copied whole
    frame = gdf.copy(deep=False)
    geometry = frame.geometry.name if isinstance(frame, gpd.GeoDataFrame) else None
    for column in frame.columns:
        if column == geometry:
            continue
        if isinstance(frame[column].dtype, gpd.array.GeometryDtype):
            frame[column] = shapely.to_wkt(np.asarray(frame[column].values))
            continue
        if not keep_lists:
            frame[column] = _plain_column(frame[column])
    return frame


NUL_REPLACEMENT = "\ufffd"
"""What a NUL character of a text value becomes in a GeoPackage, shapefile or GeoJSON."""


def _replace_nul(frame: pd.DataFrame, where: str) -> None:
    r"""Replace each NUL of a text cell by U+FFFD, in place, and warn naming the columns.

    GDAL writes text as C strings: a value ``"a\x00b"`` would be cut to ``"a"`` silently.
    """
    replaced = {}
    for column in frame.columns:
        series = frame[column]
        if not (
            pd.api.types.is_object_dtype(series.dtype) or isinstance(series.dtype, pd.StringDtype)
        ):
            continue
        try:
            hit = series.str.contains("\x00", regex=False, na=False).astype(bool)
        except AttributeError:  # an object column that holds no text
            continue
        if hit.any():
            frame.loc[hit, column] = series[hit].str.replace("\x00", NUL_REPLACEMENT, regex=False)
            replaced[str(column)] = int(hit.sum())
    if replaced:
        warnings.warn(
            f"{where}: this format cannot hold a NUL character in text; it was replaced by "
            f"U+FFFD in " + ", ".join(f"{k} ({n} rows)" for k, n in replaced.items()),
            OutputTruncationWarning,
            stacklevel=4,
        )


def _usable_fid(series: pd.Series) -> bool:
    """Return True when a "fid" column can serve as the GeoPackage feature id."""
    return (
        pd.api.types.is_integer_dtype(series.dtype)
        and not series.isna().any()
        and series.is_unique
        and bool((series > 0).all())
    )


def has_geometry(frame: pd.DataFrame) -> bool:
    """Return True when ``frame`` is a GeoDataFrame with an active geometry column."""
    if not isinstance(frame, gpd.GeoDataFrame):
        return False
    try:
        return frame.geometry.name in frame.columns
    except AttributeError:  # a GeoDataFrame whose geometry column was dropped
        return False


def write_format(path: Path, driver: str | None) -> str:
    """Return the extension of the format to write ``path`` in (``driver`` wins), or raise."""
    if driver is not None:
        key = driver.strip().lower()
        for ext, names in WRITE_FORMATS.items():
            if key in names:
                return ext
        allowed = sorted({n for names in WRITE_FORMATS.values() for n in names})
        raise OutputError(f"`driver` was {driver!r} but is expected to be in {allowed}")
    ext = path.suffix.lower()
    if ext not in WRITE_FORMATS:
        raise OutputError(
            f"cannot write {path}: unsupported extension {ext or '(none)'}; "
            f"use one of {', '.join(WRITE_FORMATS)}"
        )
    return ext


def _write_shapefile(
    frame: gpd.GeoDataFrame, path: Path, declared: dict[str, Any] | None = None
) -> list[Path]:
    geometry = frame.geometry.name
    families = {t.replace("Multi", "") for t in frame.geometry.geom_type.dropna().unique()}
    if len(families) > 1:
        raise OutputError(
            f"cannot write {path}: a shapefile holds one geometry type but the layer mixes "
            f"{', '.join(sorted(families))}; write a GeoPackage (.gpkg) instead"
        )
    columns = [c for c in frame.columns if c != geometry]
    mapping = shapefile_field_names(columns)
    for column in columns:
        series = frame[column]
        if series.dtype == bool:
            frame[column] = series.astype(int)
        elif isinstance(series.dtype, pd.BooleanDtype):
            frame[column] = series.astype("Int64")
    truncated = _truncate_dbf_text(frame, columns)
    frame = frame.rename(columns=mapping)
    for old in shapefile_parts(path, _SHAPEFILE_SIDECARS) if path.exists() else []:
        old.unlink()
    frame.to_file(path, driver="ESRI Shapefile", encoding="UTF-8", **(declared or {}))
    fieldmap = path.with_name(f"{path.stem}.fieldmap.csv")
    with fieldmap.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["full_name", "short_name", "values_truncated"])
        # the names are the user's: one beginning like a formula is quoted (csv_cells)
        writer.writerows(
            (neutralise(k), neutralise(v), truncated.get(k, 0)) for k, v in mapping.items()
        )
    if truncated:
        warnings.warn(
            f"{path}: a shapefile text field holds at most {DBF_TEXT_BYTES} bytes; values of "
            + ", ".join(f"{k} ({n} rows)" for k, n in truncated.items())
            + " were cut (counted in the .fieldmap.csv). Write a GeoPackage to keep them whole.",
            OutputTruncationWarning,
            stacklevel=3,
        )
    return [*shapefile_parts(path, _SHAPEFILE_SIDECARS), fieldmap]


def _truncate_dbf_text(frame: pd.DataFrame, columns: list[Any]) -> dict[str, int]:
    """Cut text longer than a DBF field holds, in place; return the count per column."""
    counts = {}
    for column in columns:
        series = frame[column]
        if series.dtype != object and not pd.api.types.is_string_dtype(series):
            continue
        long = series.map(lambda v: isinstance(v, str) and len(v.encode("utf-8")) > DBF_TEXT_BYTES)
        if long.any():
            frame.loc[long, column] = series[long].map(lambda v: _fit_bytes(v, DBF_TEXT_BYTES))
            counts[str(column)] = int(long.sum())
    return counts


def write_frame(
    gdf: pd.DataFrame,
    path: str | Path,
    *,
    layer: str | None = None,
    driver: str | None = None,
    geometry_type: str | None = None,
) -> list[Path]:
    """Write a layer straight to ``path`` (the format writers behind :func:`write_layer`).

    Parameters
    ----------
    gdf, path, layer, driver
        As :func:`write_layer`; ``path`` is written in place (callers stage it).
    geometry_type : str, optional
        The geometry type to declare (``"Polygon"``, ``"MultiPolygon"``); polygons are
        promoted to multi-polygons for ``"MultiPolygon"``.

    Returns
    -------
    list of Path
        Every file written.
    """
    path = Path(path).expanduser()
    ext = write_format(path, driver)
    _check_column_names(gdf, path, ext)
    spatial = has_geometry(gdf)
    if ext not in (".csv", ".gpkg") and not spatial:
        raise OutputError(f"cannot write {path}: a GeoDataFrame with a geometry is expected")
    path.parent.mkdir(parents=True, exist_ok=True)
    frame = _storable(gdf)
    if ext in (".gpkg", ".shp", ".geojson"):  # written by GDAL, which cuts text at a NUL
        _replace_nul(frame, path.name if layer is None else f"{path.name}, layer {layer!r}")
    declared = {}
    if spatial and geometry_type:
        declared = {
            "geometry_type": geometry_type,
            "promote_to_multi": geometry_type.startswith("Multi"),
        }
    if ext == ".csv":
        _write_csv_layer(frame, path, spatial)
        return [path]
    if ext == ".parquet":
        frame.to_parquet(path)
        return [path]
    if ext == ".geojson":
        if path.exists():
            path.unlink()
        # Keep JSON-looking text (dict columns) as text, as in the other formats.
        frame.to_file(
            path, driver="GeoJSON", layer_options={"AUTODETECT_JSON_STRINGS": "NO"}, **declared
        )
        return [path]
    if ext == ".gpkg":
        _write_geopackage(frame, path, layer or path.stem, spatial, declared)
        return [path]
    return _write_shapefile(frame, path, declared)


def _check_column_names(gdf: pd.DataFrame, path: Path, ext: str) -> None:
    """Refuse duplicated column names, and in a GeoPackage names differing only in case."""
    duplicated = sorted({str(c) for c in gdf.columns[gdf.columns.duplicated()]})
    if duplicated:
        raise OutputError(f"cannot write {path}: duplicated column names {duplicated}")
    if ext == ".gpkg":  # GeoPackage (SQLite) column names ignore case
        folded = pd.Index([str(c).lower() for c in gdf.columns]).duplicated(keep=False)
        clash = [str(c) for c, same in zip(gdf.columns, folded, strict=True) if same]
        if clash:
            raise OutputError(
                f"cannot write {path}: columns {clash} differ only in case, which a "
                "GeoPackage does not tell apart; rename one of them"
            )


def _write_csv_layer(frame: pd.DataFrame, path: Path, spatial: bool) -> None:
    """Write a CSV, the geometry (when ``spatial``) as WKT in :data:`WKT_COLUMN`."""
    if spatial:
        geometry = frame.geometry.name
        wkt = shapely.to_wkt(np.asarray(frame.geometry.values))
        frame = pd.DataFrame(frame.drop(columns=geometry))
        frame[WKT_COLUMN] = wkt
    write_csv(frame, path)


def _write_geopackage(
    frame: pd.DataFrame, path: Path, layer: str, spatial: bool, declared: dict[str, Any]
) -> None:
    """Write ``layer`` of a GeoPackage (an attribute table when not ``spatial``), styled.

    A unique integer ``fid`` column is the feature id; another ``fid`` column is kept as
    plain data. The layer gets QGIS's default style and its description.
    """
    options = {}
    taken = {str(c).lower() for c in frame.columns}
    fid = next((c for c in frame.columns if str(c).lower() == "fid"), None)
    if fid is not None and _usable_fid(frame[fid]):
        options["FID"] = str(fid)  # the key keeps the column's spelling
    elif fid is not None:
        # Keep a "fid" column that cannot be the GeoPackage key as plain data.
        key = "gpkg_fid"
        while key in taken:
            key = f"_{key}"
        options["FID"] = key
    dataset = gpkg_dataset_options(path)
    if not spatial:  # an attribute table (no geometry column)
        pyogrio.write_dataframe(
            pd.DataFrame(frame),
            path,
            layer=layer,
            driver="GPKG",
            layer_options=options,
            dataset_options=dataset,
        )
    else:
        frame.to_file(
            path,
            driver="GPKG",
            layer=layer,
            layer_options=options,
            dataset_options=dataset,
            **declared,
        )
    style_layer(path, layer, frame)  # QGIS default style and description
