"""Input and output: vector layers, attribute field mapping, wetland type reading.

See :mod:`wetland_gis.io.layers` (read and write GeoPackage, shapefile, GeoJSON,
GeoParquet, CSV), :mod:`wetland_gis.io.fields` (which column holds what) and
:mod:`wetland_gis.io.wetland_types` (Circular 39 types from text or Cowardin codes).
"""

from __future__ import annotations

from wetland_gis.io.fields import FieldMapping, resolve_fields
from wetland_gis.io.layers import (
    LayerRead,
    list_layers,
    read_layer,
    shapefile_field_names,
    write_layer,
)
from wetland_gis.io.wetland_types import (
    COWARDIN_CROSSWALK,
    TypeReading,
    infer_from_cowardin,
    parse_wetland_type,
    reading_for,
)

__all__ = [
    "LayerRead",
    "read_layer",
    "write_layer",
    "list_layers",
    "shapefile_field_names",
    "FieldMapping",
    "resolve_fields",
    "TypeReading",
    "parse_wetland_type",
    "infer_from_cowardin",
    "reading_for",
    "COWARDIN_CROSSWALK",
]
