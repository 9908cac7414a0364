"""Every exemption of Minn. Stat. § 103G.2241 (but de minimis), and the road paragraph.

One function per clause, in the module of its subdivision: :mod:`.agriculture` (subd. 1),
:mod:`.drainage` (subd. 2), :mod:`.federal` (subd. 3), :mod:`.restoration` (subd. 4),
:mod:`.incidental` (subd. 5), :mod:`.utilities` (subd. 6), :mod:`.forestry` (subd. 7),
:mod:`.wildlife` (subd. 10); the binding rules in :mod:`.binding`; the replacement of
public road projects by the board (§ 103G.222, subd. 1 (l), (m)) in :mod:`.roads`.

:data:`EXEMPTION_RULES` is the registry: each rule's entry in the one rule spec
(:mod:`wetland_gis.rules.spec`: id, label, citations, keyed sub-citations, parameter keys
and facts) bound to its function. A rule id is written in the spec and nowhere else in the
package; a function finds its entry with :func:`spec_of`.

Examples
--------
>>> from wetland_gis.rules.exempt import RULES_BY_ID, ExemptionFacts, decide_exemptions
>>> clean = dict(calcareous_fen=False, banked=False, used_for_replacement_credit=False,
...              remainder_newly_qualifies=False)
>>> a = ExemptionFacts(impact_id="A", sewage_system_repair=True, **clean)
>>> b = ExemptionFacts(impact_id="B", duck_blind=True, **clean)
>>> answer = decide_exemptions([a, b], day="2024-05-01")
>>> answer.outcome.value, [RULES_BY_ID[r].label for r in answer.refused_combination]
('not_exempt', ['Duck blinds'])
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from wetland_gis.rules import spec
from wetland_gis.rules.exempt import (  # noqa: F401 - each topic is an attribute of the package
    agriculture,
    binding,
    drainage,
    federal,
    forestry,
    incidental,
    restoration,
    roads,
    utilities,
    wildlife,
)
from wetland_gis.rules.exempt.binding import (
    ImpactExemptions,
    ProjectExemptions,
    binding_exclusions,
    decide_exemptions,
)
from wetland_gis.rules.exempt.clauses import CLAUSES, bound
from wetland_gis.rules.exempt.facts import (
    CLAIMS,
    FACT_COLUMNS,
    ExemptionClaims,
    ExemptionFacts,
)
from wetland_gis.rules.exempt.model import (
    Condition,
    ConditionStatus,
    ExemptionResult,
    RuleFunction,
    RuleSpec,
    bind,
)
from wetland_gis.rules.exempt.roads import RoadFacts, RoadResult, RoadRoute, road_replacement

__all__ = [
    "EXEMPTION_RULES",
    "RULES_BY_ID",
    "spec_of",
    "ExemptionFacts",
    "ExemptionClaims",
    "FACT_COLUMNS",
    "CLAIMS",
    "ExemptionResult",
    "Condition",
    "ConditionStatus",
    "RuleSpec",
    "ImpactExemptions",
    "ProjectExemptions",
    "binding_exclusions",
    "decide_exemptions",
    "RoadFacts",
    "RoadResult",
    "RoadRoute",
    "road_replacement",
]

#: The registry: every rule of this subpackage, exemptions first in the order of the text,
#: each the spec's entry (:mod:`wetland_gis.rules.spec`) bound to its function.
EXEMPTION_RULES: tuple[RuleSpec, ...] = (
    *CLAUSES,
    *(bound(r) for r in spec.rules_of("binding", "road")),
)

#: The registry by rule id.
RULES_BY_ID: Mapping[str, RuleSpec] = MappingProxyType({s.rule_id: s for s in EXEMPTION_RULES})


def spec_of(function: RuleFunction) -> RuleSpec:
    """Return the registry entry of a rule function.

    Raises
    ------
    RulesInputError
        When the function has no entry in the spec.
    """
    return bind(function)
