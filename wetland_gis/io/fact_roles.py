"""The optional per-wetland fact columns of an impact layer, by role (docs/data_schema.md).

Kept in a module of its own, with no imports, so the command line can name the options
(``--<role>-field``) without loading pandas, and :func:`wetland_gis.assess` reads the same
list.
"""

from __future__ import annotations

__all__ = ["FACT_FIELD_ROLES"]

#: Roles of :data:`wetland_gis.io.fields.DEFAULT_NAMES` that carry a fact of one wetland.
FACT_FIELD_ROLES = (
    "impact_kind",
    "land_use",
    "wetland_acres",
    "partial",
    "duration",
    "isolated",
    "runoff_retention",
    "wetland_id",
    "owner",
    "owns_whole_wetland",
    "portion_sqft",
    "prior_sqft_since_1992",
    "bottomland_hardwood",
    "banked",
    "used_for_credit",
    "partial_share",
    "pw_inventory_id",
    "wetland_source",
)
