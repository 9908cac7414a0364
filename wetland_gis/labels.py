"""Human labels of the enum values and column names a person reads in a report or map.

The enums (:mod:`wetland_gis.enums`) hold the stable values written to files
(``not_exempt``, ``shoreland_wetland_protection_zone``); this table says how each one
reads. Output files keep the values; the report, the map and the PDF show the labels.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any

from wetland_gis.enums import (
    ImpactKind,
    ImpactOutcome,
    Outcome,
    PercentageArea,
    ProjectOutcome,
    ShorelandZone,
    SitingTier,
    StatusCode,
)
from wetland_gis.rules.registry import (
    DE_MINIMIS_IMPACT,
    DE_MINIMIS_PROJECT,
    PROCEDURE_PUBLIC_COMMENT,
    PROCEDURE_SEQUENCING,
    REPLACEMENT_RATIO,
    RULES,
)

VALUE_LABELS: Mapping[str, str] = {
    # ImpactOutcome: the headline outcome of an impact
    ImpactOutcome.DE_MINIMIS_EXEMPT.value: "De minimis exempt",
    ImpactOutcome.REPLACEMENT_REQUIRED.value: "Replacement required",
    ImpactOutcome.PROHIBITED.value: "Prohibited",
    ImpactOutcome.OUT_OF_WCA_SCOPE.value: "Out of WCA scope",
    ImpactOutcome.NOT_ASSESSED.value: "Not assessed",
    ImpactOutcome.DE_MINIMIS_CONDITIONAL.value: "De minimis exempt only if a missing fact holds",
    ImpactOutcome.NOT_A_DRAIN_OR_FILL.value: "Not a drain or fill",
    ImpactOutcome.EXEMPT_CONDITIONAL.value: "Exempt only if a missing fact holds",
    ProjectOutcome.NO_DRAIN_OR_FILL.value: "No drain or fill",
    "no_impact": "No wetland impact",
    # Outcome: one decision of the rules core
    Outcome.EXEMPT.value: "Exempt",
    Outcome.NOT_EXEMPT.value: "Not exempt",
    Outcome.ELIGIBLE.value: "Eligible",
    Outcome.NOT_ELIGIBLE.value: "Not eligible",
    Outcome.REQUIRED.value: "Required",
    Outcome.NOT_REQUIRED.value: "Not required",
    Outcome.OUT_OF_SCOPE.value: "Out of scope",
    Outcome.CLASSIFIED.value: "Classified",
    Outcome.RANKED.value: "Ranked",
    Outcome.EXCLUDED.value: "Excluded",
    Outcome.NOT_ASSESSED.value: "Not assessed",
    Outcome.CONDITIONAL.value: "Conditional",
    Outcome.REGULATED.value: "Regulated",
    Outcome.NOT_REGULATED.value: "Not regulated",
    Outcome.NOT_APPLIED.value: "Not applied",
    # ImpactKind
    ImpactKind.FILL.value: "Fill",
    ImpactKind.DRAIN.value: "Drain",
    ImpactKind.EXCAVATE.value: "Excavate",
    ImpactKind.UNKNOWN.value: "Impact kind not given",
    # named readings (docs/rules.md, docs/siting.md)
    "banking_own_order": "banking has its own priority order from clause (3) (default)",
    "single_order": "one priority order for sites and banks (stricter)",
    "one_clause": "the smallest clause amount of a paragraph for the project (default)",
    "per_clause": "each clause of a paragraph on its own (alternative)",
    "own_zone": "no amount in its own zone stays no amount (default)",
    "governing_paragraph": "the governing paragraph's amount for every type (alternative)",
    "smallest_amount": "the smallest (a) amount of the project's types (default)",
    "most_area": "the (a) amount of the type with the most area (alternative)",
    "every_impact": "the (c) increase only if every setback impact qualifies (default)",
    "any_impact": "the (c) increase if any setback impact qualifies (alternative)",
    "no_amount": "no de minimis amount for an excavation (default)",
    "as_drain_or_fill": "an excavation takes the drain or fill amounts (alternative)",
    # ShorelandZone
    ShorelandZone.BUILDING_SETBACK.value: "Shoreland building setback zone",
    ShorelandZone.PROTECTION.value: "Shoreland wetland protection zone",
    ShorelandZone.OUTSIDE.value: "Outside the shoreland wetland protection zone",
    # PercentageArea
    PercentageArea.GREATER_THAN_80.value: "Greater than 80 percent area",
    PercentageArea.FROM_50_TO_80.value: "50 to 80 percent area",
    PercentageArea.LESS_THAN_50.value: "Less than 50 percent area",
    # processing status of a row, and StatusCode: why a row is not assessed
    "assessed": "Assessed",
    StatusCode.EMPTY_GEOMETRY.value: "empty or null geometry",
    StatusCode.NOT_FINITE.value: "coordinates or area not finite",
    StatusCode.NOT_POLYGON.value: "not a polygon",
    StatusCode.INVALID_GEOMETRY.value: "invalid geometry with no area after repair",
    StatusCode.WETLAND_TYPE.value: "wetland type",
    StatusCode.CEDAR_TAMARACK_FLAG.value: "white cedar / tamarack flag",
    StatusCode.OUTSIDE_COUNTIES.value: "outside the county layer",
    StatusCode.SHORELAND_ZONE_UNKNOWN.value: "shoreland zone unknown",
    StatusCode.NO_POINT.value: "no point",
    StatusCode.NOT_A_POINT.value: "not a point",
    StatusCode.COORDINATE_BLANK.value: "lon or lat blank",
    StatusCode.COORDINATE_NOT_A_NUMBER.value: "coordinate not a number",
    StatusCode.COORDINATES_SWAPPED.value: "longitude and latitude swapped",
    StatusCode.COORDINATES_OUT_OF_RANGE.value: "coordinates out of range",
    StatusCode.OUTSIDE_MINNESOTA.value: "outside Minnesota",
    StatusCode.APPROPRIATION_FACTS.value: "appropriation facts",
    StatusCode.OTHER.value: "other",
    # siting option kinds
    "site": "Project-specific site",
    "bank": "Wetland bank",
    # WaterOutcome (wetland_gis.water_use.rules): the headline outcome of a water use
    "permit_not_required": "Permit not required",
    "permit_required": "Permit required",
    "local_approval": "Local approval",
    "must_be_terminated": "Must be terminated",
    "permit_conditions_apply": "Permit conditions apply",
    "verify": "Verify",
    "indeterminate": "Indeterminate",
    "not_applicable": "Not applicable",
    "allowed": "Allowed",
    "fee": "Fee",
    "no_fee": "No fee",
    "fee_waived": "Fee waived",
    "schedule": "Schedule",
}
"""How each enum value (and a few other coded values) reads for a person."""

RULE_LABELS: Mapping[str, str] = {
    # the legacy decision questions of the library functions (Decision.question): the label
    # of the engine's rule that decides the same question (rules/spec.py) ...
    "de_minimis": RULES[DE_MINIMIS_PROJECT].label,
    "de_minimis_impact": RULES[DE_MINIMIS_IMPACT].label,
    # ... or, where no rule of the spec has the label these were shown with, that label
    # (the spec's question labels say what is answered: "Acres of replacement")
    "pasture_exemption": "Pasture exemption",
    "wildlife_spoil_exemption": "Wildlife habitat spoil exemption",
    "replacement_ratio": RULES[REPLACEMENT_RATIO].label,
    "replacement_required": "Replacement required",
    "public_comment_required": RULES[PROCEDURE_PUBLIC_COMMENT].label,
    "sequencing_without_alternatives_analysis": RULES[PROCEDURE_SEQUENCING].label,
    # the trace's rule ids: from the one registry (wetland_gis/rules/registry.py)
    **{rule_id: entry.label for rule_id, entry in RULES.items()},
}
"""How a trace ``rule_id`` (or a legacy decision ``question``) reads; others are spelled out."""

COLUMN_LABELS: Mapping[str, str] = {
    "project": "Project",
    "impacts": "Impacts",
    "assessed": "Assessed",
    "total_sqft": "Total area (sq ft)",
    "total_reported": "Total area",
    "out_of_scope_sqft": "Area out of WCA scope (sq ft)",
    "de_minimis": "De minimis exemption",
    "exempt_sqft": "Area exempt (sq ft)",
    "replace_acres": "Replacement (acres)",
    "public_comment": RULES[PROCEDURE_PUBLIC_COMMENT].label,
    "sequencing_on_site": "On-site sequencing without alternatives analysis",
    "citations": "Citations",
    "verify": "To verify",
}
"""How a column of the project or impact tables reads."""

_SITING_TIER_LABELS = {int(t): f"Tier {int(t)}: {t.label}" for t in SitingTier}


def label(value: Any) -> str:
    """Return how a coded value reads for a person.

    Parameters
    ----------
    value : Enum, str or Any
        An enum member or its value; unknown text has its underscores replaced.

    Returns
    -------
    str

    Examples
    --------
    >>> label("not_exempt")
    'Not exempt'
    >>> label("some_new_value")
    'some new value'
    """
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, bool):
        return "Yes" if value else "No"
    text = str(value)
    if text in VALUE_LABELS:
        return VALUE_LABELS[text]
    return text.replace("_", " ")


def tier_label(tier: Any) -> str:
    """Return ``"Tier 1: same minor watershed"`` for a siting tier (text for others)."""
    try:
        return _SITING_TIER_LABELS[int(float(tier))]
    except (TypeError, ValueError, KeyError):
        return str(tier)


def rule_label(rule_id: str) -> str:
    """Return how a trace rule id reads (``de_minimis.amount`` reads "De minimis amount")."""
    if rule_id in RULE_LABELS:
        return RULE_LABELS[rule_id]
    text = str(rule_id).replace(".", ": ").replace("_", " ")
    return text[:1].upper() + text[1:]


def column_label(column: str) -> str:
    """Return how a table column reads (unknown columns have their underscores replaced)."""
    return COLUMN_LABELS.get(column, str(column).replace("_", " "))
