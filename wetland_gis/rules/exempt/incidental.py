"""Incidental wetlands, Minn. Stat. § 103G.2241, subd. 5, clauses (1) to (4).

A wetland is incidental when it was created *solely* as a result of beaver dam
construction (1), blockage of culverts through roadways maintained by a public or private
entity (2), actions by public or private entities taken for a purpose other than creating
the wetland (3), or any combination of those (4). The fact ``created_by`` is the set of
what created the wetland; ``other`` in it (a naturally occurring wetland, or another
cause) means not solely.
"""

from __future__ import annotations

from wetland_gis.parameters import ParameterSet
from wetland_gis.rules.exempt.facts import ExemptionFacts
from wetland_gis.rules.exempt.model import Day, ExemptionResult, RuleFunction, start

_WORDS = {
    "beaver_dam": "beaver dam construction",
    "culvert_blockage": "blockage of culverts through roadways maintained by a public or "
    "private entity",
    "other_purpose": "actions by public or private entities that were taken for a purpose "
    "other than creating the wetland",
}


def _created_solely(
    function: RuleFunction,
    facts: ExemptionFacts,
    params: ParameterSet | None,
    day: Day,
    causes: frozenset[str] | None,
) -> ExemptionResult:
    """Test that the wetland was created solely by ``causes`` (``None``: two or more)."""
    run = start(function, facts, params, day)
    given = run.fact("created_by")
    if causes is None:
        want = "any combination of clauses (1) to (3): " + "; ".join(_WORDS.values())
        holds = None if given is None else ("other" not in given and len(given) > 1)
    else:
        want = " and ".join(_WORDS[c] for c in sorted(causes))
        holds = None if given is None else given == causes
    shown = "not known" if given is None else ", ".join(sorted(given))
    run.cond(
        holds,
        f"The wetland was created solely as a result of {want} (given: {shown}).",
        "created_by",
        defining=True,
    )
    return run.result()


def beaver_dam_wetland(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 5(1): a wetland created solely by beaver dam construction.

    Examples
    --------
    >>> f = ExemptionFacts(created_by=frozenset({"beaver_dam"}))
    >>> beaver_dam_wetland(f, day="2024-05-01").outcome.value
    'exempt'
    """
    return _created_solely(beaver_dam_wetland, facts, params, day, frozenset({"beaver_dam"}))


def culvert_blockage_wetland(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 5(2): a wetland created solely by blocked culverts through maintained roadways.

    Examples
    --------
    >>> f = ExemptionFacts(created_by=frozenset({"culvert_blockage", "other"}))
    >>> culvert_blockage_wetland(f, day="2024-05-01").outcome.value
    'not_exempt'
    """
    return _created_solely(
        culvert_blockage_wetland, facts, params, day, frozenset({"culvert_blockage"})
    )


def other_purpose_wetland(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 5(3): a wetland created solely by actions taken for another purpose.

    Examples
    --------
    >>> other_purpose_wetland(ExemptionFacts(), day="2024-05-01").outcome.value
    'not_applied'
    """
    return _created_solely(other_purpose_wetland, facts, params, day, frozenset({"other_purpose"}))


def combined_incidental_wetland(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 5(4): a wetland created solely by a combination of clauses (1) to (3).

    Examples
    --------
    >>> f = ExemptionFacts(created_by=frozenset({"beaver_dam", "culvert_blockage"}))
    >>> combined_incidental_wetland(f, day="2024-05-01").outcome.value
    'exempt'
    """
    return _created_solely(combined_incidental_wetland, facts, params, day, None)
