"""The exemption clauses of the spec, each bound to the function that decides it.

:data:`CLAUSES` holds every rule of :data:`wetland_gis.rules.spec.RULE_SPECS` of kind
``exemption`` or ``procedure``, in the spec's order (the order of the text), with its
function: the spec names the function (``module.name`` in :mod:`wetland_gis.rules.exempt`)
and this module imports the module that holds it. A new exemption is its function in the
module of its topic and one spec entry; nothing is added here.
"""

from __future__ import annotations

import importlib

from wetland_gis.rules import spec
from wetland_gis.rules.exempt.model import RuleSpec, bind

_PACKAGE = "wetland_gis.rules.exempt."


def bound(rule: spec.Rule) -> RuleSpec:
    """Return ``rule`` bound to its function (the spec's ``function``, ``module.name``)."""
    module, name = rule.function.rsplit(".", 1)
    return bind(getattr(importlib.import_module(_PACKAGE + module), name))


#: Every exemption clause (and the subd. 6(b) procedure), in the order of the text.
CLAUSES: tuple[RuleSpec, ...] = tuple(bound(r) for r in spec.rules_of("exemption", "procedure"))
