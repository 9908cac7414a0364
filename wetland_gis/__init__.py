"""wetland_gis: Minnesota Wetland Conservation Act screening for GIS analysts."""

__version__ = "0.1.0"
