"""Input and output: vector layers, attribute field mapping, wetland types, values.

See :mod:`wetland_gis.io.layers` (read and write GeoPackage, shapefile, GeoJSON,
GeoParquet, CSV), :mod:`wetland_gis.io.fields` (which column holds what),
:mod:`wetland_gis.io.wetland_types` (Circular 39 types from text or Cowardin codes) and
:mod:`wetland_gis.io.values` (blank, boolean, number, id, county name: one parser),
:mod:`wetland_gis.io.bank_listing` (the bank credit listing) and
:mod:`wetland_gis.io.candidate_sites` (candidate replacement sites).

The names below are imported when first used, so ``wetland_gis.io.values`` can be
imported without loading geopandas.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wetland_gis._lazy import lazy_exports

if TYPE_CHECKING:
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

#: Public name -> the module that defines it.
_LAZY: dict[str, str | None] = {
    "LayerRead": "wetland_gis.io.layers",
    "read_layer": "wetland_gis.io.layers",
    "write_layer": "wetland_gis.io.layers",
    "list_layers": "wetland_gis.io.layers",
    "shapefile_field_names": "wetland_gis.io.layers",
    "FieldMapping": "wetland_gis.io.fields",
    "resolve_fields": "wetland_gis.io.fields",
    "TypeReading": "wetland_gis.io.wetland_types",
    "parse_wetland_type": "wetland_gis.io.wetland_types",
    "infer_from_cowardin": "wetland_gis.io.wetland_types",
    "reading_for": "wetland_gis.io.wetland_types",
    "COWARDIN_CROSSWALK": "wetland_gis.io.wetland_types",
}

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


__getattr__, __dir__ = lazy_exports(__name__, _LAZY, __all__)
