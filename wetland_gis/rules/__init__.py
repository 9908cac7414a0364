"""The rules core: the Wetland Conservation Act as pure functions on plain values.

Every function takes plain values (types, zones, classes, square feet), reads every legal
number from the dated parameter tree (``params``, default the shipped one, ``as_of``,
default today) and returns an immutable :class:`~wetland_gis.decision.Decision` with the
citation of every rule that fired, plain-English reasons, the parameters used and what a
person must still verify. No geometry is imported here.

Examples
--------
>>> from wetland_gis.rules import ImpactFacts, de_minimis, percentage_area_of_county
>>> pct = percentage_area_of_county("Crow Wing", as_of="2024-05-01").value
>>> fill = ImpactFacts(impact_id="A", wetland_type=2, cedar_tamarack=False, sqft_setback=0,
...                    sqft_protection=0, sqft_outside=10_000, pct_class=pct, metro=False)
>>> de_minimis([fill], as_of="2024-05-01").project.outcome.value
'exempt'
"""

from __future__ import annotations

from wetland_gis.rules.counties import county_classes
from wetland_gis.rules.de_minimis import de_minimis_allowance
from wetland_gis.rules.engine import (
    CLAUSE_READINGS,
    ONE_CLAUSE,
    PER_CLAUSE,
    READINGS,
    Claims,
    DeMinimisTotal,
    ImpactDecision,
    ProjectDecision,
    decide_project,
    decide_projects,
)
from wetland_gis.rules.exempt import (
    EXEMPTION_RULES,
    ExemptionClaims,
    ExemptionFacts,
    RoadFacts,
    decide_exemptions,
    road_replacement,
)
from wetland_gis.rules.exempt.project import decide_other_exemptions
from wetland_gis.rules.facts import PERCENT, SQFT_PER_ACRE, ZONE_ORDER, ImpactFacts
from wetland_gis.rules.metro import in_metropolitan_area
from wetland_gis.rules.percentage_area import (
    normalise_county,
    percentage_area_from_figures,
    percentage_area_of_county,
)
from wetland_gis.rules.priority import (
    REPLACEMENT_ACTIONS,
    SitingPlace,
    next_tier_condition,
    normalise_action,
    replacement_action_eligibility,
    siting_tier,
)
from wetland_gis.rules.procedure import (
    BANK_TRANSACTIONS,
    bank_fees,
    public_comment_required,
    revised_application_requires_notice,
    sequencing_without_alternatives_analysis,
)
from wetland_gis.rules.public_waters import public_waters_wetland
from wetland_gis.rules.replacement import replacement_ratio, replacement_required
from wetland_gis.rules.trace import TRACE_COLUMNS, TraceLog
from wetland_gis.rules.views import (
    MOST_RESTRICTIVE,
    MULTI_ZONE_READINGS,
    DeMinimisGroup,
    DeMinimisResult,
    de_minimis,
)

__all__ = [
    # the project decision engine (the rule order)
    "decide_project",
    "decide_projects",
    "Claims",
    "ProjectDecision",
    "ImpactDecision",
    "DeMinimisTotal",
    "PER_CLAUSE",
    "ONE_CLAUSE",
    "READINGS",
    "CLAUSE_READINGS",
    "TRACE_COLUMNS",
    "TraceLog",
    # facts
    "ImpactFacts",
    "PERCENT",
    "SQFT_PER_ACRE",
    "ZONE_ORDER",
    # where the impact is
    "percentage_area_from_figures",
    "percentage_area_of_county",
    "normalise_county",
    "in_metropolitan_area",
    "county_classes",
    "public_waters_wetland",
    # de minimis
    "de_minimis_allowance",
    "de_minimis",
    "DeMinimisResult",
    "DeMinimisGroup",
    "MOST_RESTRICTIVE",
    "MULTI_ZONE_READINGS",
    # other exemptions (wetland_gis/rules/exempt)
    "EXEMPTION_RULES",
    "ExemptionFacts",
    "ExemptionClaims",
    "RoadFacts",
    "decide_exemptions",
    "decide_other_exemptions",
    "road_replacement",
    # replacement
    "replacement_ratio",
    "replacement_required",
    # procedure
    "sequencing_without_alternatives_analysis",
    "public_comment_required",
    "revised_application_requires_notice",
    "bank_fees",
    "BANK_TRANSACTIONS",
    # replacement siting (wetland_gis/rules/priority.py)
    "SitingPlace",
    "siting_tier",
    "next_tier_condition",
    "replacement_action_eligibility",
    "normalise_action",
    "REPLACEMENT_ACTIONS",
]
