"""The working coordinate reference system: areas and distances in metres, UTM 15N.

Every area and distance is computed in NAD83 / UTM zone 15N (EPSG:26915), the CRS of
most Minnesota state data. Layers in any other CRS are reprojected, and the
reprojection is recorded; a layer without a CRS is an error with the fix.
"""

from __future__ import annotations

import geopandas as gpd
from pyproj import CRS

from wetland_gis.errors import MissingCRSError

__all__ = ["WORKING_CRS", "to_working_crs", "crs_label"]

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
    return crs.name or crs.to_string()


def to_working_crs(
    gdf: gpd.GeoDataFrame, *, source: str
) -> tuple[gpd.GeoDataFrame, list[str]]:
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
            f"{source} has no coordinate reference system: define the projection in QGIS "
            "(Layer > Set CRS) or pass --assume-crs EPSG:26915"
        )
    target = CRS.from_user_input(WORKING_CRS)
    if CRS.from_user_input(gdf.crs).equals(target):
        return gdf, []
    before = crs_label(gdf.crs)
    return gdf.to_crs(target), [f"{source}: reprojected from {before} to {WORKING_CRS}"]
