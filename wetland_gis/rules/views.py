"""Views of the engine's decision: answers read from :func:`~wetland_gis.rules.decide_project`.

:func:`de_minimis` answers "is this project de minimis?" (Minn. Stat. § 103G.2241, subd. 9)
by deciding the project with the engine and reading the answer from its decision and trace
(:func:`de_minimis_view`). There is one implementation of subd. 9, the engine's
(:func:`wetland_gis.rules.de_minimis.de_minimis_steps`); this module reads it and imports
the engine, which imports no view.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from wetland_gis.decision import Decision
from wetland_gis.enums import ImpactOutcome, Outcome, ShorelandZone
from wetland_gis.parameters import ParameterSet, as_date
from wetland_gis.rules import registry as R
from wetland_gis.rules.de_minimis import NO_AMOUNT_POOL, SETBACK_POOL
from wetland_gis.rules.engine import decide_project
from wetland_gis.rules.facts import ImpactFacts, check_area, check_choice, check_flag
from wetland_gis.rules.kernel import (
    LIMIT_REACHED,
    ONE_CLAUSE,
    ROUTE_PUBLIC_WATERS,
    Claims,
    ImpactDecision,
    ProjectDecision,
)

#: Default reading of subd. 9(e) on a project touching several zones.
MOST_RESTRICTIVE = "most_restrictive"
#: The readings of subd. 9(e) on a project touching several zones. The ``per_zone``
#: reading was removed (issue 13): it added the amounts of (a), (b) and (c) together.
MULTI_ZONE_READINGS = (MOST_RESTRICTIVE,)


@dataclass(frozen=True)
class DeMinimisGroup:
    """One project total compared with one allowance.

    Parameters
    ----------
    name : str
        The total's name: a type group (``"types_1_2_6_7"``, ``"types_3_4_5_8_cedar"``),
        ``"setback_zone"`` (subd. 9(c), all types), ``"no_amount"``, or, under the
        ``per_zone`` reading, ``"<type group>:<zone>"``.
    type_groups : tuple of str
        The type groups whose area is in the total.
    zones : tuple of ShorelandZone
        Under ``most_restrictive``, the zone whose amount binds; under ``per_zone``, the
        zone whose area is totalled.
    impact_ids : tuple
        The impacts in the total.
    total_sqft : float
        The project's area in the total.
    allowance_sqft : float
        The amount the total is held to (the smallest of its members' amounts).
    citations : tuple of str
        The paragraphs giving the amount.
    within_allowance : bool
        ``total_sqft <= allowance_sqft``.
    cumulative_total_sqft, cumulative_limit_sqft : float or None
        Subd. 9(f): prior area since 1992 plus this total, and the greatest of the three
        limits; ``None`` when not evaluated (no amount to compare).
    exempt : bool
        Within the allowance, within the cumulative limit, and not combined with another
        exemption.
    reasons : tuple of str
        Plain-English reasons.
    """

    name: str
    type_groups: tuple[str, ...]
    zones: tuple[ShorelandZone, ...]
    impact_ids: tuple[Hashable, ...]
    total_sqft: float
    allowance_sqft: float
    citations: tuple[str, ...]
    within_allowance: bool
    cumulative_total_sqft: float | None
    cumulative_limit_sqft: float | None
    exempt: bool
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True)
class DeMinimisResult:
    """The de minimis answer for a project.

    Parameters
    ----------
    project : Decision
        The project's de minimis outcome as the engine decided it (``EXEMPT``,
        ``CONDITIONAL``, ``NOT_EXEMPT``, ``NOT_APPLIED``); ``value`` is ``True`` when exempt.
    by_impact : Mapping[impact_id, Decision]
        One decision per impact, in input order: ``EXEMPT``, ``CONDITIONAL``,
        ``NOT_EXEMPT``, ``PROHIBITED`` (calcareous fen), ``OUT_OF_SCOPE`` (public waters
        wetland) or ``NOT_REGULATED`` (an excavation that is not a drain or fill).
    groups : tuple of DeMinimisGroup
        Each project total and the allowance it was compared with (read from
        ``ProjectDecision.de_minimis_totals``; ``zones`` is empty, ``cumulative_limit_sqft``
        ``None`` and ``reasons`` empty: the trace's steps hold them).
    """

    project: Decision
    by_impact: Mapping[Hashable, Decision] = field(default_factory=dict)
    groups: tuple[DeMinimisGroup, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_impact", MappingProxyType(dict(self.by_impact)))
        object.__setattr__(self, "groups", tuple(self.groups))

    @property
    def exempt(self) -> bool:
        """Return whether the whole project is de minimis exempt."""
        return self.project.outcome is Outcome.EXEMPT


# --- the project: a view of the engine's decision ----------------------------------------

#: The engine's de minimis totals (``DeMinimisTotal.name``) by this function's group names.
_GROUP_NAMES = {"c": SETBACK_POOL, "no_amount": NO_AMOUNT_POOL}


def de_minimis(
    impacts: Sequence[ImpactFacts],
    *,
    multi_zone_reading: str = MOST_RESTRICTIVE,
    cumulative_sqft_since_1992: float = 0.0,
    landowner_portion_sqft: float | None = None,
    owns_entire_wetland: bool | None = True,
    other_exemption_claimed: bool = False,
    shoreland_increase: bool = False,
    setback_increase: bool = False,
    local_limit_sqft: float | None = None,
    clause_reading: str = ONE_CLAUSE,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
    cumulative_limit_reading: str = LIMIT_REACHED,
) -> DeMinimisResult:
    """Return the de minimis answer of a project (subd. 9), read from the engine's decision.

    A thin view of :func:`wetland_gis.rules.decide_project`: the facts of a one-project
    call are built from the arguments, and the answer is read from the
    :class:`~wetland_gis.rules.kernel.ProjectDecision` and its trace. There is one
    implementation of subd. 9, the engine's (:func:`de_minimis_steps`).

    Parameters
    ----------
    impacts : sequence of ImpactFacts
        The project's impacts (ids unique). A project is what the local government unit
        defines; it may not be split to gain exemptions (§ 103G.005, subd. 14d).
    multi_zone_reading : {"most_restrictive"}, default "most_restrictive"
        How subd. 9(e) applies when the project touches several zones: every impact is held
        to the paragraph of the most restrictive zone it touches (the only reading).
    cumulative_sqft_since_1992 : float, default 0
        The landowner's prior area drained or filled since the date of subd. 9(f), where an
        impact gives none (``prior_sqft_since_1992``).
    landowner_portion_sqft : float, optional
        Size of the landowner's portion of the wetland (subd. 9(f)(2)), where an impact
        gives none (``portion_sqft``); unknown if ``None``.
    owns_entire_wetland : bool or None, default True
        Whether the landowner owns the entire wetland (subd. 9(f)(1)), where an impact gives
        none. ``None`` (unknown) is answered as the engine answers it: an exemption that
        holds only if the landowner owns it is ``CONDITIONAL``, with a verify item naming
        the fact.
    other_exemption_claimed : bool, default False
        Another exemption of § 103G.2241 is claimed on the project (subd. 9(g)).
    shoreland_increase, setback_increase : bool, default False
        The subd. 9(b) and 9(c) increases (see :func:`de_minimis_allowance`).
    local_limit_sqft : float, optional
        A more restrictive local standard (subd. 9(i)), applied to every amount.
    clause_reading : {"one_clause", "per_clause"}, default "one_clause"
        The open reading of subd. 9(e) for the clauses of one paragraph
        (:class:`~wetland_gis.rules.kernel.Claims`).
    params : ParameterSet, optional
        Parameter tree (default: the shipped one).
    as_of : str or date, optional
        Date the law is applied as of (default: today).
    cumulative_limit_reading : {"reached", "exceeded"}, default "reached"
        The open reading of subd. 9(f) at exactly the (f)(2) or (f)(3) limit
        (:class:`~wetland_gis.rules.kernel.Claims`).

    Returns
    -------
    DeMinimisResult
        ``project``: the project's de minimis outcome (``EXEMPT``, ``CONDITIONAL``,
        ``NOT_EXEMPT``, or ``NOT_APPLIED`` when no impact is in scope); ``value`` is
        ``True`` when it is ``EXEMPT``. ``by_impact``: each impact's, ``PROHIBITED`` for a
        calcareous fen, ``OUT_OF_SCOPE`` for a public waters wetland, ``NOT_REGULATED`` for
        an excavation that is not a drain or fill. ``groups``: the totals compared.

    Raises
    ------
    RulesInputError
        On an empty project, duplicate impact ids, an unknown reading or bad numbers.

    Examples
    --------
    >>> from wetland_gis.rules import ImpactFacts
    >>> fill = ImpactFacts(impact_id="A", wetland_type=2, cedar_tamarack=False,
    ...                    sqft_setback=0, sqft_protection=0, sqft_outside=9_000,
    ...                    pct_class="greater_than_80_percent", metro=False)
    >>> de_minimis([fill], as_of="2024-05-01").project.outcome.value
    'exempt'
    """
    check_choice(multi_zone_reading, MULTI_ZONE_READINGS, "multi_zone_reading")
    check_area(cumulative_sqft_since_1992, "cumulative_sqft_since_1992")
    if landowner_portion_sqft is not None:
        check_area(landowner_portion_sqft, "landowner_portion_sqft")
    if owns_entire_wetland is not None:
        check_flag(owns_entire_wetland, "owns_entire_wetland")
    claims = Claims(
        other_exemption_claimed=other_exemption_claimed,
        shoreland_increase=shoreland_increase,
        setback_increase=setback_increase,
        local_limit_sqft=local_limit_sqft,
        prior_sqft_since_1992=cumulative_sqft_since_1992,
        owns_whole_wetland=owns_entire_wetland,
        clause_reading=clause_reading,
        cumulative_limit_reading=cumulative_limit_reading,
    )
    facts = [
        f
        if f.portion_sqft is not None or landowner_portion_sqft is None
        else replace(f, portion_sqft=landowner_portion_sqft)
        for f in impacts
    ]
    day = as_date(as_of)
    decision = decide_project(facts, claims, params, day, project="de_minimis")
    return de_minimis_view(decision, day.isoformat())


def de_minimis_view(decision: ProjectDecision, as_of: str = "") -> DeMinimisResult:
    """Return the de minimis answer of a project read from its engine decision.

    Parameters
    ----------
    decision : ProjectDecision
        The engine's decision of the project.
    as_of : str, optional
        The ISO date it was decided as of (written in each ``Decision``).

    Returns
    -------
    DeMinimisResult
    """
    steps = decision.steps()
    for step, citations in zip(steps, decision.citations(), strict=True):
        step["citations"] = citations  # the citations as data, never split from the text
    mine: dict[Hashable, list[dict[str, Any]]] = {}
    project_steps = []
    for s in steps:
        if s["impact_id"]:
            mine.setdefault(s["impact_id"], []).append(s)
        elif str(s["rule_id"]).startswith("de_minimis."):
            project_steps.append(s)
    cumulative: dict[str, float] = {}  # subd. 9(f): prior plus the portion's total, by impact
    for s in project_steps:
        if s["rule_id"] == R.DE_MINIMIS_CUMULATIVE:
            for i in s["inputs"]["impact_ids"]:
                cumulative[str(i)] = s["value"]
    by_impact = {
        d.impact_id: _impact_view(d, mine, project_steps, cumulative, as_of)
        for d in decision.impacts
    }
    totals = decision.totals
    outcome = Outcome(totals["de_minimis"])
    project = _view(
        "de_minimis",
        outcome,
        steps,
        {
            "total_sqft": totals["wca_sqft"],
            "exempt_sqft": totals["exempt_sqft"] if outcome is Outcome.EXEMPT else 0.0,
            "not_exempt_sqft": totals["wca_sqft"]
            - (totals["exempt_sqft"] if outcome is Outcome.EXEMPT else 0.0),
            "out_of_scope_sqft": totals["public_waters_sqft"],
        },
        outcome is Outcome.EXEMPT,
        as_of,
    )
    groups = tuple(
        DeMinimisGroup(
            name=_group_name(t.name),
            type_groups=_type_groups(t.name),
            zones=(),
            impact_ids=t.impact_ids,
            total_sqft=t.total_sqft,
            allowance_sqft=t.allowance_sqft,
            citations=t.citations,
            within_allowance=t.within,
            cumulative_total_sqft=max(
                (cumulative[str(i)] for i in t.impact_ids if str(i) in cumulative), default=None
            ),
            cumulative_limit_sqft=None,
            exempt=t.within and outcome in (Outcome.EXEMPT, Outcome.CONDITIONAL),
        )
        for t in decision.de_minimis_totals
    )
    return DeMinimisResult(project, by_impact, groups)


def _impact_view(
    d: ImpactDecision,
    mine: Mapping[Hashable, list[dict[str, Any]]],
    project_steps: list[dict[str, Any]],
    cumulative: Mapping[str, float],
    as_of: str,
) -> Decision:
    """Return one impact's de minimis answer: its own steps and the project's it was decided by."""
    if d.outcome is ImpactOutcome.PROHIBITED:
        outcome = Outcome.PROHIBITED
    elif d.route == ROUTE_PUBLIC_WATERS:
        outcome = Outcome.OUT_OF_SCOPE
    elif d.outcome is ImpactOutcome.NOT_A_DRAIN_OR_FILL:
        outcome = Outcome.NOT_REGULATED
    else:
        outcome = d.de_minimis or Outcome.NOT_APPLIED
    own = mine.get(str(d.impact_id), []) + (project_steps if d.de_minimis is not None else [])
    iid = str(d.impact_id)
    return _view(
        "de_minimis_impact",
        outcome,
        own,
        {
            "area_sqft": d.area_sqft,
            "counted_sqft": d.counted_sqft,
            "exempt_sqft": d.counted_sqft if outcome is Outcome.EXEMPT else 0.0,
            "not_exempt_sqft": 0.0 if outcome is Outcome.EXEMPT else d.counted_sqft,
            **({"cumulative_total_sqft": cumulative[iid]} if iid in cumulative else {}),
        },
        d.allowance_sqft,
        as_of,
    )


def _type_groups(name: str) -> tuple[str, ...]:
    """Return the type group of a per-clause total ``"<paragraph>:<type group>"``, if any."""
    _, colon, group = name.partition(":")
    return (group,) if colon else ()


def _group_name(name: str) -> str:
    """Return this function's name of an engine total: the type group, or the pool."""
    groups = _type_groups(name)
    return groups[0] if groups else _GROUP_NAMES.get(name, name)


def _view(
    question: str,
    outcome: Outcome,
    steps: list[dict[str, Any]],
    amounts: dict[str, Any],
    value: Any,
    as_of: str,
) -> Decision:
    """Return a ``Decision`` gathering the citations, reasons and checks of trace steps."""
    parameters: dict[str, Any] = {}
    for s in steps:
        parameters.update(s["parameters"])
    return Decision(
        question=question,
        outcome=outcome,
        amounts=amounts,
        citations=tuple(c for s in steps for c in s["citations"]),
        reasons=tuple(s["reason"] for s in steps),
        parameters=parameters,
        verify=tuple(v for s in steps for v in s["verify"]),
        as_of=as_of,
        value=value,
    )
