"""The working coordinate reference system: areas and distances in metres, UTM 15N.

Every area and distance is computed in NAD83 / UTM zone 15N (EPSG:26915), the CRS of
most Minnesota state data. Layers in any other CRS are reprojected, and the
reprojection is recorded; a layer without a CRS is an error with the fix.
"""

from __future__ import annotations

import geopandas as gpd
import numpy as np
import shapely
from pyproj import CRS
from pyproj.exceptions import ProjError

from wetland_gis.errors import InputError, MissingCRSError

#: NAD83 / UTM zone 15N.
WORKING_CRS = "EPSG:26915"


def crs_label(crs: object) -> str:
    """Return a short label of a CRS, e.g. ``"EPSG:4269"``.

    Parameters
    ----------
    crs : pyproj.CRS, str or int
        Anything :meth:`pyproj.CRS.from_user_input` accepts.

    Returns
    -------
    str
        ``"AUTHORITY:CODE"`` when the CRS has one, else its PROJ/WKT name.
    """
    crs = CRS.from_user_input(crs)
    authority = crs.to_authority()
    if authority is not None:
        return f"{authority[0]}:{authority[1]}"
    if crs.name and crs.name.lower() != "unknown":
        return crs.name
    return crs.to_string()


def to_working_crs(gdf: gpd.GeoDataFrame, *, source: str) -> tuple[gpd.GeoDataFrame, list[str]]:
    """Reproject a layer to the working CRS (EPSG:26915) and record it.

    Parameters
    ----------
    gdf : GeoDataFrame
        The layer; it must have a CRS.
    source : str
        Name of the file or layer, used in the record and in errors.

    Returns
    -------
    gdf : GeoDataFrame
        The layer in EPSG:26915 (the same object when it already was).
    records : list of str
        ``["<source>: reprojected from EPSG:4269 to EPSG:26915"]``, or empty.

    Raises
    ------
    MissingCRSError
        When the layer has no CRS.
    InputError
        When the CRS cannot be transformed to EPSG:26915 (a local engineering CRS), or
        some coordinates are not valid in it (e.g. metres in a layer declared in
        degrees), naming the rows.

    Examples
    --------
    >>> import geopandas as gpd
    >>> from shapely.geometry import Point
    >>> layer = gpd.GeoDataFrame(geometry=[Point(-94.0, 46.0)], crs="EPSG:4269")
    >>> to_working_crs(layer, source="demo")[1]
    ['demo: reprojected from EPSG:4269 to EPSG:26915']
    """
    if gdf.crs is None:
        raise MissingCRSError(
            f"{source} has no coordinate reference system: pass --assume-crs EPSG:26915 "
            "(the CRS the coordinates are in), or in QGIS set it (Layer > Set CRS) and save "
            "a copy (Export > Save Features As)"
        )
    target = CRS.from_user_input(WORKING_CRS)
    if CRS.from_user_input(gdf.crs).equals(target):
        return gdf, []
    before = crs_label(gdf.crs)
    try:
        out = gdf.to_crs(target)
    except ProjError as err:
        raise InputError(
            f"{source} is in {before}, which cannot be transformed to {WORKING_CRS} ({err}); "
            "a local or engineering CRS has no tie to the earth: georeference the layer "
            "and save it in a real CRS (e.g. EPSG:26915) in QGIS (Export > Save Features As)"
        ) from err
    geoms = np.asarray(out.geometry.array, dtype=object)
    present = ~(shapely.is_missing(geoms) | shapely.is_empty(geoms))
    lost = np.zeros(len(geoms), dtype=bool)
    lost[present] = ~np.isfinite(shapely.bounds(geoms[present])).all(axis=1)
    if lost.any():
        rows = np.flatnonzero(lost)
        x, y = shapely.get_coordinates(gdf.geometry.array[rows[0]])[0]
        raise InputError(
            f"{source}: the coordinates of {len(rows)} row(s) (rows "
            f"{', '.join(str(r + 1) for r in rows[:10])}{' ...' if len(rows) > 10 else ''}; "
            f"row {rows[0] + 1} starts at x={x:.6g}, y={y:.6g}) are not valid in its CRS "
            f"{before} and cannot be transformed to {WORKING_CRS}: the layer's CRS (its .prj) "
            "is wrong. Pass --override-crs with the CRS the coordinates are really in, e.g. "
            "--override-crs EPSG:26915 for UTM 15N metres (override_crs= in Python; recorded "
            "in the manifest), or in QGIS set it (Layer > Set CRS) and save a copy (Export > "
            "Save Features As)"
        )
    return out, [f"{source}: reprojected from {before} to {WORKING_CRS}"]
