"""Forestry, Minn. Stat. § 103G.2241, subd. 7, clauses (1) and (2)."""

from __future__ import annotations

from wetland_gis.parameters import ParameterSet
from wetland_gis.rules.exempt.facts import ExemptionFacts
from wetland_gis.rules.exempt.model import Day, ExemptionResult, Flag, RuleRun, optional_flag, start

#: Subd. 7(1) and 7(2) alike.
_LIMITS_IMPACT = Flag(
    "limits_impact",
    "The activity limits the impact on the hydrologic and biologic characteristics of "
    "the wetland (the analyst's claim).",
)

#: Subd. 7(1), in the order of the text, but for "no drainage" (:func:`_no_drainage`).
_CROSSING = (
    Flag(
        "silviculture_crossing",
        "The activity is temporarily crossing or entering the wetland to perform "
        "silvicultural activities, including timber harvest as part of a forest management "
        "activity.",
        defining=True,
    ),
    _LIMITS_IMPACT,
    Flag(
        "dikes_ditches_tile",
        "The activities do not result in the construction of dikes, drainage ditches or "
        "tile lines.",
        want=False,
    ),
    Flag(
        "buildings",
        "The activities do not result in the construction of buildings.",
        want=False,
    ),
)

#: Subd. 7(2), in the order of the text, but for "no drainage" (:func:`_no_drainage`).
_FOREST_ROAD = (
    Flag(
        "forest_road",
        "The activity is permanent access for forest roads across the wetland.",
        defining=True,
    ),
    _LIMITS_IMPACT,
    Flag(
        "dikes_ditches_tile",
        "The construction activities do not result in the access becoming a dike, drainage "
        "ditch or tile line.",
        want=False,
    ),
    Flag(
        "filling_avoided",
        "Filling is avoided wherever possible (the analyst's claim).",
    ),
)


def _no_drainage(run: RuleRun, text: str) -> bool | None:
    """Record "no drainage": an impact that is a drain fails it, whatever the flag says.

    The ``results_in_drainage`` fact says so, or the impact's kind does: a ``drain`` impact
    is drainage of the wetland, so the clause fails (not exempt), never "conditional".
    """
    drains = optional_flag(run.fact("results_in_drainage"), "results_in_drainage")
    kind = run.fact("impact_kind")
    holds = False if kind == "drain" or drains is True else (True if drains is False else None)
    return run.cond(
        holds,
        f"{text} (given: results in drainage {_word(drains)}, impact kind {kind or 'not known'}).",
        "results_in_drainage",
        "impact_kind",
    )


def _word(value: bool | None) -> str:
    return "not known" if value is None else ("yes" if value else "no")


def silviculture_temporary_crossing(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 7(1): temporarily crossing or entering a wetland for silvicultural activities.

    Examples
    --------
    >>> f = ExemptionFacts(silviculture_crossing=True, limits_impact=True,
    ...     dikes_ditches_tile=False, buildings=False, results_in_drainage=False)
    >>> silviculture_temporary_crossing(f, day="2024-05-01").outcome.value
    'exempt'
    """
    run = start(silviculture_temporary_crossing, facts, params, day)
    run.flags(*_CROSSING)
    _no_drainage(
        run,
        "The timber harvesting and other silvicultural practices do not result in the "
        "drainage of the wetland or public waters",
    )
    return run.result()


def forest_road_access(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 7(2): permanent access for forest roads across wetlands.

    Examples
    --------
    >>> f = ExemptionFacts(forest_road=True, limits_impact=True, dikes_ditches_tile=False,
    ...     filling_avoided=None, results_in_drainage=False)
    >>> forest_road_access(f, day="2024-05-01").unknown
    ('filling_avoided',)
    >>> drain = ExemptionFacts(forest_road=True, impact_kind="drain")
    >>> forest_road_access(drain, day="2024-05-01").outcome.value
    'not_exempt'
    """
    run = start(forest_road_access, facts, params, day)
    run.flags(*_FOREST_ROAD)
    _no_drainage(run, "There is no drainage of the wetland or public waters")
    return run.result()
