"""Geometry: the working CRS, input cleaning and spatial measurements."""
