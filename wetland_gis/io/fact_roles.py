"""The optional per-wetland fact columns of an impact layer, by role (docs/data_schema.md).

Read from the one rule spec (:data:`wetland_gis.rules.spec.FACTS`, the facts marked
``fact_role``), in a module of its own so the command line can name the options
(``--<role>-field``) without loading pandas, and :func:`wetland_gis.assess` reads the same
list.
"""

from __future__ import annotations

from wetland_gis.rules.spec import FACTS

#: Roles of :data:`wetland_gis.io.fields.DEFAULT_NAMES` that carry a fact of one wetland.
FACT_FIELD_ROLES = tuple(f.key for f in FACTS.values() if f.fact_role)
