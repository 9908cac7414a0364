"""Read and write the vector layers that QGIS users exchange with wetland_gis.

Reading: shapefile (a ``.shp``, a folder holding one, or a ``.zip`` holding one; the
``.cpg`` encoding is honoured), GeoPackage and Esri File Geodatabase (a ``.gdb`` folder, by
GDAL's OpenFileGDB driver; one named layer), GeoJSON and GeoParquet.
Every layer must carry a CRS; :func:`read_layer` says how to fix one that does not.

Writing (:func:`write_layer`) picks the format from the extension: GeoPackage (the
default for QGIS), GeoParquet, GeoJSON, CSV (geometry as WKT) and shapefile, whose
field names are cut to 10 characters without collisions and listed in a
``<stem>.fieldmap.csv`` beside it, through the SafeWriter (:mod:`wetland_gis.io.safe_write`,
which never leaves a user's file half written) and the format writers of
:mod:`wetland_gis.io.writers`.
"""

from __future__ import annotations

import json
import warnings
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import geopandas as gpd
import numpy as np
import pandas as pd
import pyogrio
from pyproj import CRS
from pyproj.exceptions import CRSError

from wetland_gis.errors import (
    EmptyLayerWarning,
    InputError,
    LayerNotFoundError,
    MissingCRSError,
)
from wetland_gis.io.checksums import file_sha256
from wetland_gis.io.safe_write import SafeWriter
from wetland_gis.io.writers import (
    SHAPEFILE_FIELD_LIMIT as SHAPEFILE_FIELD_LIMIT,
    WKT_COLUMN as WKT_COLUMN,
    WRITE_FORMATS as WRITE_FORMATS,
    has_geometry,
    shapefile_field_names as shapefile_field_names,
    write_frame as write_frame,
)

if TYPE_CHECKING:
    from wetland_gis.manifest import Manifest

#: Extensions read, and what they are.
READ_FORMATS: dict[str, str] = {
    ".gpkg": "GeoPackage",
    ".shp": "shapefile",
    ".zip": "zipped shapefile",
    ".geojson": "GeoJSON",
    ".json": "GeoJSON",
    ".parquet": "GeoParquet",
    ".geoparquet": "GeoParquet",
    ".gdb": "Esri File Geodatabase",
}

#: Formats that hold several layers (``--layer`` names one): GeoPackage, File Geodatabase.
MULTI_LAYER_FORMATS = frozenset({".gpkg", ".gdb"})

_ASSUME_CRS_FIX = (
    "pass --assume-crs EPSG:26915 (the CRS the coordinates are in; recorded in the manifest), "
    "or in QGIS set it (Layer > Set CRS) and save a copy (Export > Save Features As)"
)


@dataclass(frozen=True, eq=False)
class LayerRead:
    """A layer read from disk, with what is needed to cite it in a manifest.

    Parameters
    ----------
    gdf : GeoDataFrame
        The features, with a CRS.
    source : str
        The path as given (for a folder, the shapefile found in it).
    layer : str or None
        The GeoPackage layer read; None for single-layer formats.
    sha256 : str
        Hex digest of the file; for a shapefile, of all its sidecar files (see
        :func:`read_layer`).
    crs : str or None
        The CRS as read from the file (e.g. ``"EPSG:26915"``); None when the file had
        none and ``assume_crs`` was used.
    records : list of str
        Notes for the report, e.g. ``"CRS assumed EPSG:26915 by --assume-crs"``.
    crs_override : dict or None
        ``{"layer", "old", "new"}`` when ``override_crs`` replaced the file's CRS
        (``old`` is None for a file without one).
    rows : ndarray of int or None
        With ``mask`` or ``fids``: the input row number (from 1, as QGIS numbers features:
        a GeoPackage's fid) of each feature read; None when every feature was read.
    total : int or None
        With ``mask`` or ``fids``: how many features the layer holds.
    """

    gdf: gpd.GeoDataFrame
    source: str
    layer: str | None
    sha256: str
    crs: str | None
    records: list[str] = field(default_factory=list)
    crs_override: dict[str, Any] | None = None
    rows: np.ndarray | None = None
    total: int | None = None


# --------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------


def _supported_text() -> str:
    return ", ".join(f"{ext} ({name})" for ext, name in READ_FORMATS.items())


def _shapefile_in_folder(folder: Path) -> Path:
    shps = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() == ".shp")
    if len(shps) == 1:
        return shps[0]
    if not shps:
        raise InputError(
            f"folder {folder} holds no shapefile (.shp); give the path of a file "
            f"instead (supported: {_supported_text()})"
        )
    raise InputError(
        f"folder {folder} holds {len(shps)} shapefiles ({', '.join(p.name for p in shps)}); "
        "give the path of the one to read"
    )


def _shapefile_in_zip(path: Path) -> str:
    try:
        with zipfile.ZipFile(path) as archive:
            members = [
                n
                for n in archive.namelist()
                if n.lower().endswith(".shp") and not n.startswith("__MACOSX")
            ]
    except zipfile.BadZipFile as err:
        raise InputError(f"cannot read {path}: not a valid zip archive ({err})") from err
    unsafe = [
        n
        for n in members
        if n.startswith(("/", "\\"))
        or ".." in n.replace("\\", "/").split("/")
        or (len(n) > 1 and n[1] == ":")
    ]
    if unsafe:
        raise InputError(
            f"zip archive {path} holds a shapefile whose name points outside the archive "
            f"({unsafe[0]!r}); such an archive is not read: unzip it with a tool you trust "
            "and give the path of the .shp"
        )
    if len(members) == 1:
        return members[0]
    if not members:
        raise InputError(f"zip archive {path} holds no shapefile (.shp)")
    raise InputError(
        f"zip archive {path} holds {len(members)} shapefiles ({', '.join(members)}); "
        "unzip it and give the path of the one to read"
    )


def _check_exists(path: Path) -> None:
    if not path.exists():
        raise InputError(f"input file not found: {path}")


def _is_shapefile_folder(path: Path) -> bool:
    """Return whether ``path`` is a folder read as the shapefile in it (not a ``.gdb``)."""
    return path.is_dir() and path.suffix.lower() != ".gdb"


def _format_of(path: Path) -> str:
    ext = path.suffix.lower()
    if ext not in READ_FORMATS:
        raise InputError(
            f"cannot read {path}: unsupported format {ext or '(no extension)'}; "
            f"supported formats: {_supported_text()}"
        )
    return ext


def list_layers(path: str | Path) -> list[str]:
    """Return the names of the layers in a file.

    Parameters
    ----------
    path : str or Path
        A GeoPackage, shapefile (``.shp``, a folder holding one, or a ``.zip``),
        GeoJSON or GeoParquet file.

    Returns
    -------
    list of str
        Every layer of a GeoPackage (attribute-only tables included, QGIS's
        ``layer_styles`` table left out); for single-layer
        formats, the one layer name (the file stem, or the shapefile's in a zip).

    Raises
    ------
    InputError
        When the file is missing, unreadable or of an unsupported format.
    """
    path = Path(path).expanduser()
    _check_exists(path)
    if _is_shapefile_folder(path):
        return [_shapefile_in_folder(path).stem]
    ext = _format_of(path)
    if ext in MULTI_LAYER_FORMATS:
        try:
            names = [str(name) for name in pyogrio.list_layers(path)[:, 0]]
            return [n for n in names if n != "layer_styles"]  # QGIS styles, not data
        except Exception as err:  # pyogrio raises DataSourceError and others
            raise InputError(f"cannot read {path} as {_a(READ_FORMATS[ext])}: {err}") from err
    if ext == ".zip":
        return [Path(_shapefile_in_zip(path)).stem]
    return [path.stem]


def _a(name: str) -> str:
    """Return ``name`` with its article ("a GeoPackage", "an Esri File Geodatabase")."""
    return ("an " if name[0].lower() in "aeiou" else "a ") + name


def _layer_error(path: Path, layers: list[str], asked: str | None) -> LayerNotFoundError:
    listing = ", ".join(repr(n) for n in layers)
    how = f"name one: --layer {layers[0]} on the command line, or layer={layers[0]!r} in Python"
    if asked is None:
        return LayerNotFoundError(f"{path} holds {len(layers)} layers ({listing}); {how}")
    return LayerNotFoundError(
        f"layer {asked!r} is not in {path}; available layers: {listing}; {how}"
    )


def _pick_layer(path: Path, layers: list[str], asked: str | None) -> str:
    if not layers:
        raise InputError(f"{path} holds no layers")
    if asked is None:
        if len(layers) == 1:
            return layers[0]
        raise _layer_error(path, layers, None)
    if asked in layers:
        return asked
    folded = [n for n in layers if n.lower() == str(asked).lower()]
    if len(folded) == 1:
        return folded[0]
    raise _layer_error(path, layers, asked)


def _crs_text(crs: Any) -> str:
    crs = CRS.from_user_input(crs)
    authority = crs.to_authority()
    if authority is not None:
        return f"{authority[0]}:{authority[1]}"
    return crs.to_string()


def read_layer(
    path: str | Path,
    layer: str | None = None,
    *,
    assume_crs: str | int | None = None,
    require_crs: bool = True,
    crs_fix: str = _ASSUME_CRS_FIX,
    override_crs: str | int | None = None,
    mask: Any = None,
    mask_crs: Any = None,
    fids: Sequence[int] | None = None,
) -> LayerRead:
    """Read a vector layer and check that it has a CRS.

    Parameters
    ----------
    path : str or Path
        A shapefile (``.shp``; a folder holding exactly one ``.shp``; or a ``.zip``
        holding exactly one shapefile), a GeoPackage (``.gpkg``), an Esri File
        Geodatabase (a ``.gdb`` folder, read by GDAL's OpenFileGDB driver), GeoJSON
        (``.geojson``/``.json``) or GeoParquet (``.parquet``) file.
    layer : str, optional
        The GeoPackage or File Geodatabase layer to read; may be omitted when the file
        holds only one.
        For single-layer formats it must be omitted or equal the layer name.
    assume_crs : str or int, optional
        CRS to set when the file has none (``--assume-crs``), e.g. ``"EPSG:26915"``.
        It applies only to a layer without a CRS: ignored, with a record, when the file
        has one (a wrong one is replaced with ``override_crs``). A GeoJSON without a ``crs``
        member has none: without ``assume_crs`` it is read as WGS 84 (RFC 7946), with a
        record, when its coordinates are degrees.
    require_crs : bool, default True
        False returns a layer without CRS as read (the caller checks it, e.g. the
        context loader with its own message).
    crs_fix : str, optional
        The fix a missing-CRS message ends with (default: set it in QGIS or pass
        ``--assume-crs``).
    override_crs : str or int, optional
        CRS that replaces the file's own (``--override-crs``), for a layer whose
        ``.prj`` or CRS is wrong: the coordinates are kept and declared to be in this
        CRS (``GeoDataFrame.set_crs(..., allow_override=True)``), recorded with the old
        and the new CRS (:attr:`LayerRead.crs_override`). Not with ``assume_crs``.
    mask : shapely geometry, optional
        Read only the features intersecting it (GDAL's spatial filter, by the layer's
        spatial index), e.g. the wetlands near a project's footprint; given in
        ``mask_crs`` and transformed to the layer's CRS. A layer without a CRS, and a
        GeoParquet file, are read whole. :attr:`LayerRead.rows` says which rows were read.
    mask_crs : CRS, optional
        The CRS of ``mask`` (default: the layer's).
    fids : sequence of int, optional
        Read only these features (GDAL feature ids: a GeoPackage's fid, a shapefile's
        0-based record number). Not with ``mask``.

    Returns
    -------
    LayerRead
        The layer, its source, layer name, SHA-256 and CRS as read, and records.

    Raises
    ------
    InputError
        When the file is missing, unreadable, of an unsupported format, has no
        geometry, or a folder/zip holds no shapefile or several.
    LayerNotFoundError
        When ``layer`` is missing and the GeoPackage holds several layers, or ``layer``
        is not in the file; the message lists the layers.
    MissingCRSError
        When the layer has no CRS and ``assume_crs`` is not given, or is a GeoJSON
        without a ``crs`` member whose coordinates are not longitude/latitude.

    Notes
    -----
    A GeoPackage's feature id is returned as a first column ``fid`` (as QGIS shows
    it), a File Geodatabase's as ``OBJECTID``, unless the layer already has a column of
    that name; the index is 0-based.
    The SHA-256 is :func:`wetland_gis.io.checksums.file_sha256`: a shapefile's covers its
    sidecar files (``.shp``, ``.shx``, ``.dbf``, ``.prj``, ``.cpg``) in that order, each
    preceded by its file name; a ``.gdb`` folder's covers its files by name; a zip is
    hashed as one file.
    """
    if override_crs is not None and assume_crs is not None:
        raise InputError(
            f"--assume-crs {assume_crs} and --override-crs {override_crs} were both given: "
            "--assume-crs applies only to a layer without a CRS, --override-crs replaces the "
            "layer's CRS; give one of them"
        )
    given = Path(path).expanduser()
    _check_exists(given)
    source = _shapefile_in_folder(given) if _is_shapefile_folder(given) else given
    ext = _format_of(source)
    layer_name, read_path = _layer_to_read(source, ext, layer)
    where = f"{source}" + (f" (layer {layer_name!r})" if layer_name else "")
    partial = (mask is not None or fids is not None) and ext not in (".parquet", ".geoparquet")
    gdf, total = _read_features(read_path, layer_name, ext, where, partial, mask, mask_crs, fids)
    gdf, rows = _number_rows(gdf, source, layer_name, ext, partial)

    records: list[str] = []
    if ext in (".geojson", ".json") and gdf.crs is not None and not _geojson_has_crs(source):
        # GDAL reads a GeoJSON without a "crs" member as EPSG:4326 whatever its
        # coordinates are: the file itself declares no CRS.
        gdf = _geojson_without_crs(gdf, where, assume_crs, records, crs_fix)
    crs_read = None if gdf.crs is None else _crs_text(gdf.crs)
    override = None
    if override_crs is not None:
        gdf, override = _override_crs(gdf, where, crs_read, override_crs, records)
    elif gdf.crs is None and not require_crs and assume_crs is None:
        pass
    elif gdf.crs is None:
        if assume_crs is None:
            hint = " (the .prj file is missing)" if ext in (".shp", ".zip") else ""
            raise MissingCRSError(f"{where} has no coordinate reference system{hint}: {crs_fix}")
        try:
            assumed = _crs_text(assume_crs)
        except CRSError as err:
            raise InputError(f"--assume-crs {assume_crs!r} is not a valid CRS: {err}") from err
        gdf = gdf.set_crs(assumed)
        records.append(f"CRS assumed {assumed} by --assume-crs for {where}")
    elif assume_crs is not None:
        records.append(
            f"--assume-crs {assume_crs} ignored for {where}: it applies only to a layer "
            f"without a CRS, and this one has {crs_read} (--override-crs replaces a wrong one)"
        )

    return LayerRead(
        gdf=gdf,
        source=str(source),
        layer=layer_name,
        sha256=file_sha256(source),
        crs=crs_read,
        records=records,
        crs_override=override,
        rows=rows,
        total=total,
    )


def warn_if_empty(gdf: pd.DataFrame, source: str, manifest: Manifest | None = None) -> None:
    """Warn (and record) when an input layer has no features: the outputs will be empty.

    Parameters
    ----------
    gdf : DataFrame
        The layer as read.
    source : str
        Its file and layer, for the message.
    manifest : Manifest, optional
        Where the record goes.

    Warns
    -----
    EmptyLayerWarning
        When ``gdf`` has no rows (``wetland-gis --strict`` then exits 3).
    """
    if len(gdf):
        return
    msg = (
        f"{source} has no features: nothing was assessed and the outputs are empty; check "
        "the file, the --layer and any filter applied when it was exported"
    )
    if manifest is not None:
        manifest.add_records([msg])
    warnings.warn(msg, EmptyLayerWarning, stacklevel=3)


def _layer_to_read(source: Path, ext: str, layer: str | None) -> tuple[str | None, str | Path]:
    """Return the layer name to read (None for a single-layer format) and the path GDAL reads.

    Raises
    ------
    LayerNotFoundError
        When ``layer`` is not in the file, or is missing and the file holds several.
    """
    if ext in MULTI_LAYER_FORMATS:
        return _pick_layer(source, list_layers(source), layer), source
    if ext == ".zip":
        member = _shapefile_in_zip(source)
        _pick_layer(source, [Path(member).stem], layer)
        return None, f"/vsizip/{source.resolve().as_posix()}/{member}"
    _pick_layer(source, [source.stem], layer)
    return None, source


def _read_features(
    read_path: str | Path,
    layer_name: str | None,
    ext: str,
    where: str,
    partial: bool,
    mask: Any,
    mask_crs: Any,
    fids: Sequence[int] | None,
) -> tuple[gpd.GeoDataFrame, int | None]:
    """Read the features (those meeting ``mask``, or ``fids``, when ``partial``).

    Returns the features and, when ``partial``, how many the layer holds. A partial read
    and a multi-layer format keep the feature id as the index.

    Raises
    ------
    InputError
        When the layer cannot be read or has no geometry column.
    """
    options: dict[str, Any] = {}
    total = None
    try:
        if partial:
            info = pyogrio.read_info(read_path, layer=layer_name)
            total = int(info.get("features") or 0)
            if mask is not None and info.get("crs"):
                if mask_crs is not None:
                    mask = gpd.GeoSeries([mask], crs=mask_crs).to_crs(info["crs"]).iloc[0]
                options["mask"] = mask
            if fids is not None:
                options["fids"] = np.asarray(list(fids), dtype=np.int64)
        if ext in (".parquet", ".geoparquet"):
            gdf = gpd.read_parquet(read_path)
        else:
            gdf = gpd.read_file(
                read_path,
                layer=layer_name,
                fid_as_index=partial or ext in MULTI_LAYER_FORMATS,
                **options,
            )
    except InputError:
        raise
    except Exception as err:  # pyogrio/pyarrow raise several unrelated classes
        raise InputError(f"cannot read {where}: {err}") from err
    if not has_geometry(gdf):
        raise InputError(f"{where} has no geometry column; a spatial layer is expected")
    return gdf, total


def _number_rows(
    gdf: gpd.GeoDataFrame, source: Path, layer_name: str | None, ext: str, partial: bool
) -> tuple[gpd.GeoDataFrame, np.ndarray | None]:
    """Return the features on a 0-based index, and the input row of each when ``partial``.

    Rows are numbered as QGIS numbers them: the fid (a FileGDB's OBJECTID), else the
    record + 1. A multi-layer format's feature id becomes a first column (``fid``, or a
    FileGDB's ``OBJECTID``, as ArcGIS shows it) unless the layer has one of that name.
    """
    rows = None
    if partial:
        fid = gdf.index.to_numpy(dtype=np.int64)
        rows = fid if ext in MULTI_LAYER_FORMATS else fid + 1
        if ext not in MULTI_LAYER_FORMATS:
            gdf = gdf.reset_index(drop=True)
    if ext in MULTI_LAYER_FORMATS:
        fid_name = pyogrio.read_info(source, layer=layer_name).get("fid_column") or "fid"
        if not {str(c).lower() for c in gdf.columns} & {"fid", fid_name.lower()}:
            gdf.insert(0, fid_name, gdf.index.to_numpy())  # the fid QGIS shows as a field
        gdf = gdf.reset_index(drop=True)
    return gdf, rows


def _override_crs(
    gdf: gpd.GeoDataFrame,
    where: str,
    crs_read: str | None,
    override_crs: str | int,
    records: list[str],
) -> tuple[gpd.GeoDataFrame, dict[str, Any]]:
    """Declare the coordinates to be in ``override_crs``; return the layer and the change."""
    try:
        new = _crs_text(override_crs)
    except CRSError as err:
        raise InputError(f"--override-crs {override_crs!r} is not a valid CRS: {err}") from err
    records.append(
        f"CRS overridden by --override-crs for {where}: {crs_read or 'no CRS'} replaced by "
        f"{new} (the coordinates were kept and declared to be in {new})"
    )
    return gdf.set_crs(new, allow_override=True), {"layer": where, "old": crs_read, "new": new}


def _geojson_has_crs(path: Path) -> bool:
    """Return whether a GeoJSON file has a (non-null) top-level ``crs`` member."""
    try:
        with path.open("rb") as handle:
            data = json.load(handle)
    except (OSError, ValueError):  # not one JSON document (e.g. GeoJSONSeq): trust GDAL
        return True
    return isinstance(data, dict) and data.get("crs") is not None


def _geojson_without_crs(
    gdf: gpd.GeoDataFrame,
    where: str,
    assume_crs: str | int | None,
    records: list[str],
    crs_fix: str = _ASSUME_CRS_FIX,
) -> gpd.GeoDataFrame:
    """Give a GeoJSON without a ``crs`` member its CRS: WGS 84 by RFC 7946, or assumed."""
    if assume_crs is not None:
        return gdf.set_crs(None, allow_override=True)  # assume_crs is applied by the caller
    minx, miny, maxx, maxy = gdf.total_bounds
    if (
        len(gdf) == 0
        or np.isnan(minx)
        or (-180 <= minx <= maxx <= 180 and -90 <= miny <= maxy <= 90)
    ):
        records.append(
            f"{where} has no crs member: read as WGS 84 longitude/latitude (EPSG:4326), "
            "as RFC 7946 defines GeoJSON"
        )
        return gdf
    raise MissingCRSError(
        f"{where} has no crs member, so GeoJSON means WGS 84 longitude/latitude (RFC 7946), "
        f"but its coordinates (x {minx:.6g} to {maxx:.6g}, y {miny:.6g} to {maxy:.6g}) are "
        f"not degrees: {crs_fix}"
    )


# --------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------


def write_layer(
    gdf: pd.DataFrame,
    path: str | Path,
    *,
    layer: str | None = None,
    driver: str | None = None,
    overwrite: bool = True,
) -> list[Path]:
    """Write a layer in the format given by the file extension (or ``driver``).

    The file is written beside the target and moved into place when complete
    (:class:`wetland_gis.io.safe_write.SafeWriter`): an error while writing leaves an
    existing file as it was.

    Parameters
    ----------
    gdf : GeoDataFrame
        The layer. A plain DataFrame is accepted for ``.csv``, and for ``.gpkg`` as an
        attribute table.
    path : str or Path
        ``.gpkg`` (GeoPackage, QGIS's default), ``.parquet`` (GeoParquet),
        ``.geojson``, ``.csv`` (geometry as WKT in column ``geometry_wkt``) or
        ``.shp``. Parent folders are created. Writing into an existing GeoPackage
        replaces the layer of that name only and keeps every other layer.
    layer : str, optional
        GeoPackage layer name; defaults to the file stem. Other formats ignore it.
    driver : str, optional
        Format to use whatever the extension: ``"GPKG"``, ``"GeoParquet"``,
        ``"GeoJSON"``, ``"CSV"`` or ``"ESRI Shapefile"``.
    overwrite : bool, default True
        Replace an existing file of another format (e.g. a ``.parquet``); with False
        such a file is an :class:`OutputError`.

    Returns
    -------
    list of Path
        Every file written (for a shapefile: its sidecars and ``<stem>.fieldmap.csv``).

    Raises
    ------
    OutputError
        For an unsupported extension or driver, a non-spatial frame for a spatial
        format, a shapefile asked to hold several geometry types, or a GeoPackage
        asked to hold columns whose names differ only in case.

    Notes
    -----
    A unique integer ``fid`` column becomes the GeoPackage feature id (and is read
    back as ``fid``); any other ``fid`` column is written as plain data. Enum values
    are written as their values, lists/tuples as ``"; "``-joined text and
    dicts as JSON, in every format. For a shapefile, booleans become integers 0/1,
    field names are cut to 10 characters by :func:`shapefile_field_names` (the full
    names are in ``<stem>.fieldmap.csv``), and text is UTF-8 with a ``.cpg`` file.
    """
    with SafeWriter("write_layer", overwrite=overwrite) as writer:
        files = writer.layer(gdf, path, layer=layer, driver=driver)
    return files
