"""Wetland restoration, Minn. Stat. § 103G.2241, subd. 4, clauses (1) and (2)."""

from __future__ import annotations

from wetland_gis.parameters import ParameterSet
from wetland_gis.rules.exempt.facts import ExemptionFacts
from wetland_gis.rules.exempt.model import Day, ExemptionResult, Flag, decide_flags

#: Subd. 4(1), in the order of the text.
_CONSERVATION = (
    Flag(
        "restored_for_conservation",
        "The wetland was restored or created for conservation purposes under a contract or "
        "easement.",
        defining=True,
    ),
    Flag(
        "contract_right_to_drain",
        "The contract or easement provides the landowner with the right to drain the "
        "restored or created wetland (the analyst's claim).",
    ),
)


def conservation_restoration(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 4(1): a wetland restored for conservation under a contract with a right to drain.

    Examples
    --------
    >>> f = ExemptionFacts(restored_for_conservation=True, contract_right_to_drain=False)
    >>> conservation_restoration(f, day="2024-05-01").outcome.value
    'not_exempt'
    """
    return decide_flags(conservation_restoration, facts, params, day, *_CONSERVATION)


#: Subd. 4(2), in the order of the text.
_LANDOWNER = (
    Flag(
        "restored_by_landowner",
        "The wetland was restored or created by a landowner.",
        defining=True,
    ),
    Flag(
        "restored_without_assistance",
        "It was restored or created without any assistance or financing from public "
        "agencies or private entities other than the landowner (the analyst's claim).",
    ),
    Flag(
        "used_for_replacement_credit",
        "The wetland has not been used for wetland replacement.",
        want=False,
    ),
    Flag("banked", "The wetland has not been deposited in the state wetland bank.", want=False),
)


def landowner_restoration(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 4(2): a wetland the landowner restored unaided, never used for replacement.

    Examples
    --------
    >>> f = ExemptionFacts(restored_by_landowner=True, restored_without_assistance=True,
    ...                    used_for_replacement_credit=False, banked=True)
    >>> landowner_restoration(f, day="2024-05-01").outcome.value
    'not_exempt'
    """
    return decide_flags(landowner_restoration, facts, params, day, *_LANDOWNER)
