"""Federal approvals, Minn. Stat. § 103G.2241, subd. 3."""

from __future__ import annotations

from wetland_gis.parameters import ParameterSet
from wetland_gis.rules.exempt.facts import ExemptionFacts
from wetland_gis.rules.exempt.model import Day, ExemptionResult, Flag, decide_flags

#: Subd. 3, in the order of the text.
_FEDERAL = (
    Flag(
        "federal_authorization",
        "The activity is authorized under the federal Clean Water Act, section 404, or the "
        "Rivers and Harbors Act, section 10, regulations (the analyst's claim).",
        defining=True,
    ),
    Flag(
        "federal_rules_state_approved",
        "Those regulations meet minimum state standards under chapter 103G and sections "
        "103A.202 and 103B.3355 and have been approved by the Board of Water and Soil "
        "Resources, the commissioners of natural resources and agriculture, and the "
        "Pollution Control Agency (the analyst's claim).",
    ),
)


def federal_approval(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 3: activities authorized under federal regulations the state has approved.

    Both conditions are claims: that the activity is authorized under Clean Water Act
    section 404 or Rivers and Harbors Act section 10 regulations, and that those
    regulations meet minimum state standards and were approved by the board, the
    commissioners of natural resources and agriculture and the Pollution Control Agency.

    Examples
    --------
    >>> federal_approval(ExemptionFacts(federal_authorization=True), day="2024-05-01").unknown
    ('federal_rules_state_approved',)
    """
    return decide_flags(federal_approval, facts, params, day, *_FEDERAL)
