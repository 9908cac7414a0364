"""Site suitability from rasters: depression depth and storage, and class shares.

These are *attributes* that support the Technical Evaluation Panel's look at whether a
site "takes advantage of naturally occurring hydrogeomorphological conditions and
requires minimal landscape alteration" (Minn. Stat. § 103G.222, subd. 3(e)(1)). They are
not legal decisions: a deep natural depression is not thereby a reasonable, practicable
and environmentally beneficial opportunity, and every output row says so.

Each site is read through a window of the raster (:func:`rasterio.windows.from_bounds`)
and masked with :func:`rasterio.features.geometry_mask` after its polygon is reprojected
to the raster's CRS, so only the cells under the sites are ever read.

Depression method
-----------------
The cells of a site are those whose centres lie inside its polygon (if none does, every
cell the polygon touches). Its *boundary cells* are the site cells with at least one of
their four neighbours outside the site. The *spill elevation* is the lowest valid
elevation among the boundary cells: water held inside the polygon cannot rise above it
without flowing out across the boundary there. Every site cell below the spill
elevation holds ``spill - z`` of water, so

* ``store_m3 = sum(max(0, spill - z)) * cell area`` (and ``store_acft`` in acre-feet),
* ``dmax_m = max(spill - z)``, ``dmean_m`` = mean of ``spill - z`` over the ponded cells
  (those below spill), ``pond_m2`` their area.

This is the storage of the polygon filled to its lowest rim. It is exact when the site
holds one basin; an interior sub-basin whose own rim is higher than the spill would hold
more (a priority-flood fill counts that), so the figure is a lower bound of the
depressional storage inside the polygon. The polygon's rim is taken as given: terrain
outside the site is not looked at.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd
import rasterio
from affine import Affine
from rasterio.features import geometry_mask
from rasterio.windows import Window, from_bounds
from scipy import ndimage

from wetland_gis.errors import InputError, MissingCRSError

#: One acre-foot in cubic metres: 43,560 cubic feet of 0.3048 m (a unit conversion).
CUBIC_METRES_PER_ACRE_FOOT = 43_560 * 0.3048**3

#: Written on every output row.
SUITABILITY_CAVEAT = (
    "site attribute supporting Minn. Stat. § 103G.222, subd. 3(e)(1) (naturally occurring "
    "hydrogeomorphological conditions); not a legal decision - the TEP decides"
)

#: Columns of :func:`depression_summary` (10 characters at most, for shapefiles).
DEPRESSION_COLUMNS = (
    "dem_cells",
    "nodata_sh",
    "z_min_m",
    "z_mean_m",
    "z_max_m",
    "spill_m",
    "dmax_m",
    "dmean_m",
    "pond_cells",
    "pond_m2",
    "store_m3",
    "store_acft",
    "dem_note",
    "dem_caveat",
)

_CROSS = ndimage.generate_binary_structure(2, 1)


def _open(path: str | Path) -> rasterio.io.DatasetReader:
    path = Path(path)
    if not path.is_file():
        raise InputError(f"raster {path} does not exist; give the path of a GeoTIFF")
    try:
        src = rasterio.open(path)
    except rasterio.errors.RasterioIOError as exc:
        raise InputError(f"cannot read raster {path}: {exc}") from exc
    if src.crs is None:
        src.close()
        raise MissingCRSError(
            f"raster {path} has no CRS; assign one with `gdal_edit.py -a_srs EPSG:26915 {path}`"
        )
    return src


def _in_raster_crs(sites: gpd.GeoDataFrame, src: rasterio.io.DatasetReader) -> gpd.GeoSeries:
    if sites.crs is None:
        raise MissingCRSError(
            "the sites have no CRS; set it with `set_crs()` (their true CRS) before reading rasters"
        )
    return sites.geometry.to_crs(src.crs)


def _cells(
    src: rasterio.io.DatasetReader, geom: Any
) -> tuple[np.ma.MaskedArray | None, np.ndarray | None, str]:
    """Return (values, inside mask, note) of one polygon, read through a window."""
    if geom is None or geom.is_empty:
        return None, None, "no geometry"
    full = Window(0, 0, src.width, src.height)
    win = from_bounds(*geom.bounds, transform=src.transform)
    col0, row0 = math.floor(win.col_off), math.floor(win.row_off)
    col1 = math.ceil(win.col_off + win.width)
    row1 = math.ceil(win.row_off + win.height)
    win = Window(col0, row0, max(col1 - col0, 1), max(row1 - row0, 1))
    try:
        win = win.intersection(full)
    except rasterio.errors.WindowError:
        return None, None, "outside the raster"
    if win.width <= 0 or win.height <= 0:
        return None, None, "outside the raster"
    values = src.read(1, window=win, masked=True)
    values = np.ma.masked_invalid(values.astype("float64"))
    shape = (int(win.height), int(win.width))
    transform = src.transform @ Affine.translation(win.col_off, win.row_off)
    inside = geometry_mask([geom], out_shape=shape, transform=transform, invert=True)
    note = ""
    if not inside.any():
        inside = geometry_mask(
            [geom], out_shape=shape, transform=transform, invert=True, all_touched=True
        )
        note = "no cell centre inside the polygon: every touched cell used"
    if not geom.within(_bounds_polygon(src)):
        note = "; ".join(n for n in (note, "the site extends beyond the raster") if n)
    return values, inside, note


def _bounds_polygon(src: rasterio.io.DatasetReader) -> Any:
    from shapely.geometry import box

    return box(*src.bounds)


def depression_summary(
    sites: gpd.GeoDataFrame, dem_path: str | Path, *, z_unit_m: float = 1.0
) -> pd.DataFrame:
    """Summarise the DEM under each site: elevations, spill level, depth and storage.

    Parameters
    ----------
    sites : GeoDataFrame
        Site polygons, in any CRS (each is reprojected to the DEM's CRS).
    dem_path : str or Path
        A single-band elevation raster (e.g. a bare-earth lidar DEM GeoTIFF) with a CRS.
    z_unit_m : float, default 1.0
        Metres per elevation unit (0.3048 for a DEM in feet). Horizontal units are read
        from the raster's CRS.

    Returns
    -------
    pandas.DataFrame
        Indexed like ``sites``, columns :data:`DEPRESSION_COLUMNS`: cell count, share of
        the site's cells without data, minimum / mean / maximum elevation (m), spill
        elevation (m), maximum and mean depth below spill (m), ponded cells and area
        (m²), storage (m³ and acre-feet), a note and the caveat that these are
        attributes, not decisions. Values are NaN where the site has no valid cell.
        The method is described in the module docstring.

    Raises
    ------
    InputError
        When the raster cannot be read.
    MissingCRSError
        When the raster or the sites have no CRS.
    """
    if not (isinstance(z_unit_m, (int, float)) and z_unit_m > 0):
        raise InputError(f"z_unit_m must be a positive number of metres, got {z_unit_m!r}")
    rows = []
    with _open(dem_path) as src:
        geoms = _in_raster_crs(sites, src)
        xy_m = float(src.crs.linear_units_factor[1]) if src.crs.is_projected else float("nan")
        if not src.crs.is_projected:
            raise InputError(
                f"DEM {dem_path} is in a geographic CRS ({src.crs}); cell areas need metres. "
                "Reproject it, e.g. `gdalwarp -t_srs EPSG:26915 in.tif out.tif`"
            )
        cell_m2 = abs(src.transform.a * src.transform.e) * xy_m * xy_m
        for geom in geoms:
            rows.append(_depression(src, geom, cell_m2, float(z_unit_m)))
    out = pd.DataFrame(rows, index=sites.index, columns=list(DEPRESSION_COLUMNS))
    return out


def _depression(src: Any, geom: Any, cell_m2: float, z_m: float) -> dict[str, Any]:
    nan = float("nan")
    row: dict[str, Any] = dict.fromkeys(DEPRESSION_COLUMNS, nan)
    row.update(dem_cells=0, pond_cells=0, dem_caveat=SUITABILITY_CAVEAT)
    values, inside, note = _cells(src, geom)
    if values is None or inside is None:
        row["dem_note"] = note
        row["nodata_sh"] = 1.0 if note != "no geometry" else nan
        return row
    valid = inside & ~np.ma.getmaskarray(values)
    n_cells = int(inside.sum())
    row["dem_cells"] = n_cells
    row["nodata_sh"] = 1.0 - valid.sum() / n_cells if n_cells else nan
    notes = [note] if note else []
    if not valid.any():
        row["dem_note"] = "; ".join([*notes, "no valid elevation under the site"])
        return row
    z = np.ma.getdata(values) * z_m
    zin = z[valid]
    row.update(z_min_m=float(zin.min()), z_mean_m=float(zin.mean()), z_max_m=float(zin.max()))
    boundary = inside & ~ndimage.binary_erosion(inside, structure=_CROSS, border_value=0)
    rim = boundary & valid
    if not rim.any():
        row["dem_note"] = "; ".join([*notes, "no valid elevation on the site boundary"])
        return row
    if (boundary & ~valid).any():
        notes.append("some boundary cells have no data: the spill may be lower")
    spill = float(z[rim].min())
    depth = np.where(valid, spill - z, 0.0)
    ponded = valid & (depth > 0)
    volume = float(depth[ponded].sum() * cell_m2)
    row.update(
        spill_m=spill,
        dmax_m=float(depth[ponded].max()) if ponded.any() else 0.0,
        dmean_m=float(depth[ponded].mean()) if ponded.any() else 0.0,
        pond_cells=int(ponded.sum()),
        pond_m2=float(ponded.sum() * cell_m2),
        store_m3=volume,
        store_acft=volume / CUBIC_METRES_PER_ACRE_FOOT,
        dem_note="; ".join(notes),
    )
    return row


def categorical_share(
    sites: gpd.GeoDataFrame,
    raster_path: str | Path,
    classes: Iterable[float] | Callable[[np.ndarray], np.ndarray],
    *,
    prefix: str = "cls",
) -> pd.DataFrame:
    """Return the share of each site's cells that fall in the given raster classes.

    Parameters
    ----------
    sites : GeoDataFrame
        Site polygons, in any CRS.
    raster_path : str or Path
        A single-band categorical raster (e.g. hydric soil rating, a sink / depression
        raster) with a CRS.
    classes : iterable of numbers, or callable
        The cell values that count (e.g. hydric soil codes), or a function taking the
        array of cell values and returning a boolean array (e.g. ``lambda v: v > 0``
        for the sample sink raster, whose cells outside sinks are nodata).
    prefix : str, default "cls"
        Prefix of the output columns.

    Returns
    -------
    pandas.DataFrame
        Indexed like ``sites``: ``{prefix}_cells`` (cells of the site),
        ``{prefix}_in`` (cells in the classes), ``{prefix}_share`` (share of all the
        site's cells: nodata counts as not in the classes), ``{prefix}_valid`` (share of
        the cells with data), ``{prefix}_nodata`` (share without data) and
        ``{prefix}_note`` with the caveat that these are attributes, not decisions.

    Raises
    ------
    InputError
        When the raster cannot be read or ``classes`` is empty.
    MissingCRSError
        When the raster or the sites have no CRS.
    """
    if callable(classes):
        test = classes
    else:
        wanted = np.array(list(classes), dtype="float64")
        if wanted.size == 0:
            raise InputError(
                "`classes` is empty: give the cell values that count, or a "
                "function such as `lambda v: v > 0`"
            )

        def test(v: np.ndarray) -> np.ndarray:
            return np.isin(v, wanted)

    names = [f"{prefix}_{s}" for s in ("cells", "in", "share", "valid", "nodata", "note")]
    rows = []
    with _open(raster_path) as src:
        for geom in _in_raster_crs(sites, src):
            values, inside, note = _cells(src, geom)
            if values is None or inside is None:
                rows.append(
                    [
                        0,
                        0,
                        float("nan"),
                        float("nan"),
                        float("nan"),
                        "; ".join((note, SUITABILITY_CAVEAT)),
                    ]
                )
                continue
            valid = inside & ~np.ma.getmaskarray(values)
            hit = np.zeros(valid.shape, bool)
            if valid.any():
                hit[valid] = np.asarray(test(np.ma.getdata(values)[valid]), dtype=bool)
            n, n_valid, n_in = int(inside.sum()), int(valid.sum()), int(hit.sum())
            rows.append(
                [
                    n,
                    n_in,
                    n_in / n if n else float("nan"),
                    n_in / n_valid if n_valid else float("nan"),
                    1.0 - n_valid / n if n else float("nan"),
                    "; ".join(x for x in (note, SUITABILITY_CAVEAT) if x),
                ]
            )
    return pd.DataFrame(rows, index=sites.index, columns=names)
