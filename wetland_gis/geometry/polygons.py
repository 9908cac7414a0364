"""What a polygon layer can hold: measurable geometries, and polygon layers ready to write.

The readers and writers of :mod:`wetland_gis.io` and the cleaning step of
:mod:`wetland_gis.geometry.cleaning` share these checks: a geometry whose coordinates or area
are not finite numbers cannot be measured, drawn or written to a shapefile; a polygon layer
keeps such rows, and rows that are not polygons, with a null geometry and their WKT.
"""

from __future__ import annotations

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely

#: Column holding the WKT of an input geometry that is not polygonal.
WKT_IN_COLUMN = "wg_input_wkt"

#: The shapely type ids of Polygon and MultiPolygon.
POLYGONAL = (3, 6)


def finite_coordinates(geoms: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Return, per geometry, whether its x and y are finite numbers (True where not ``present``)."""
    finite = np.ones(len(geoms), dtype=bool)
    if present.any():
        coords, where = shapely.get_coordinates(geoms[present], include_z=False, return_index=True)
        bad = np.zeros(int(present.sum()), dtype=bool)
        bad[where[~np.isfinite(coords).all(axis=1)]] = True
        finite[np.flatnonzero(present)[bad]] = False
    return finite


def measurable(geoms: np.ndarray) -> np.ndarray:
    """Return, per geometry, whether its coordinates and its area are finite numbers.

    Missing and empty geometries count as measurable (there is nothing to measure).
    """
    geoms = np.asarray(geoms, dtype=object)
    present = ~(shapely.is_missing(geoms) | shapely.is_empty(geoms))
    ok = finite_coordinates(geoms, present)
    if present.any():
        with np.errstate(all="ignore"):
            ok[present] &= np.isfinite(shapely.area(geoms[present]))
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
    other = present & ~(np.isin(type_id, POLYGONAL) & measurable(geoms))
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
    multi = bool((type_id[present & ~other] == POLYGONAL[1]).any())
    return out, "MultiPolygon" if multi else "Polygon"
