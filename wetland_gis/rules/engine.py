"""The project decision engine: the one place the order of the rules lives.

:func:`decide_project` takes the plain facts of every impact of one project
(:class:`~wetland_gis.rules.facts.ImpactFacts`), the analyst's :class:`Claims`, the
parameter tree and the date, and returns a :class:`ProjectDecision`: the project's
outcome, each impact's outcome and amounts, and the ordered trace of every rule step
(:mod:`wetland_gis.rules.trace`). :func:`decide_projects` decides many projects into one
trace. Nothing here reads files or geometry.

The order
---------
Per impact, then per project:

1. ``impact_kind`` — § 103G.222, subd. 1(a): drains and fills are regulated; an
   excavation is regulated only in the permanently and semipermanently flooded areas of
   types 3, 4 and 5; a partial drain counts the partly drained area at the percentage
   of Minn. R. 8420.0522, subp. 2.
2. ``calcareous_fen`` — § 103G.223, first: prohibited whatever the impact kind.
3. ``public_waters_wetland`` — § 103G.201 (the inventory), § 103G.005, subd. 15a (size,
   the fallback), 19(b): no de minimis; replacement at the ratios of § 103G.222, subd. 1(f),
   (g) "for a wetland or public waters wetland"; DNR public-waters-work permit (§ 103G.245,
   subd. 1(2), 7) or § 103G.221 for a drain; ``public_waters_work`` — a fill or an
   excavation below the OHWL of a public water needs the permit too (an excavation the WCA
   does not regulate included: "by any means, including filling, excavating");
   ``exemption_standards`` — banked wetlands and wetlands used for credit (Minn. R.
   8420.0420, subp. 1).
4. ``de_minimis.paragraph`` (subd. 9(e)), ``de_minimis.amount``, ``de_minimis.total``,
   ``de_minimis.cumulative`` (subd. 9(f), per landowner's portion of a wetland),
   ``de_minimis.project`` and ``de_minimis.impact``.
5. ``exemption.*`` and ``road.*`` — every other exemption of § 103G.2241 tried on the
   project, the one that carries it, and the public road paragraph (§ 103G.222, subd. 1(l),
   (m)): :func:`wetland_gis.rules.exempt.project.other_exemptions`.
6. ``replacement.ratio`` and ``replacement.credits`` — every impact of a project that is
   not de minimis (Minn. R. 8420.0420, subp. 1: "the entire amount of impact must be
   replaced").
7. ``procedure.public_comment`` and ``procedure.sequencing`` (WCA wetland area only,
   § 103G.005, subd. 19(b)).
8. ``reading.*`` — each open reading the answer used (:data:`READINGS`), with the other
   reading's result beside it when it differs.

Each rule is a function of the module of its topic (:mod:`~wetland_gis.rules.scope`,
:mod:`~wetland_gis.rules.public_waters`, :mod:`~wetland_gis.rules.de_minimis`,
:mod:`~wetland_gis.rules.exempt`, :mod:`~wetland_gis.rules.replacement`,
:mod:`~wetland_gis.rules.procedure`, :mod:`~wetland_gis.rules.readings`) reading the working
impacts and the rule book of :mod:`~wetland_gis.rules.kernel`; this module only orders them
and holds no legal text. Rule ids are defined once, in :mod:`wetland_gis.rules.registry`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from wetland_gis.enums import ImpactOutcome, Outcome, ProjectOutcome
from wetland_gis.errors import RulesInputError
from wetland_gis.parameters import ParameterSet, as_date, default_parameters
from wetland_gis.rules.de_minimis import de_minimis_impact, de_minimis_steps
from wetland_gis.rules.exempt.project import other_exemptions
from wetland_gis.rules.facts import ImpactFacts, check_impacts
from wetland_gis.rules.kernel import (
    CLAUSE_READINGS as CLAUSE_READINGS,
    EXEMPT_OUTCOMES,
    ONE_CLAUSE as ONE_CLAUSE,
    PER_CLAUSE as PER_CLAUSE,
    READINGS as READINGS,
    ROUTE_BOTH as ROUTE_BOTH,
    ROUTE_PUBLIC_WATERS as ROUTE_PUBLIC_WATERS,
    ROUTE_WCA,
    ROUTES as ROUTES,
    Claims,
    DeMinimisTotal,
    Impact,
    ImpactDecision,
    ProjectDecision,
    RuleBook,
    dec,
    rule_book,
)
from wetland_gis.rules.procedure import procedure_steps
from wetland_gis.rules.public_waters import (
    public_waters_steps,
    public_waters_work,
    route,
    wca_sqft,
)
from wetland_gis.rules.readings import alternatives, within_reach
from wetland_gis.rules.replacement import replacement_steps
from wetland_gis.rules.scope import calcareous_fen, exemption_standards, impact_kind
from wetland_gis.rules.trace import TraceLog


def decide_project(
    impacts: Sequence[ImpactFacts],
    claims: Claims | None = None,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
    *,
    project: str = "project",
) -> ProjectDecision:
    """Decide one project: every impact's outcome, the project's, and the trace.

    Parameters
    ----------
    impacts : sequence of ImpactFacts
        The project's impacts (ids unique). A project is what the local government unit
        defines; it may not be split to gain exemptions (§ 103G.005, subd. 14d).
    claims : Claims, optional
        The analyst's claims and readings (default: none claimed).
    params : ParameterSet, optional
        The parameter tree (default: the shipped one).
    as_of : str or date, optional
        Date the law is applied as of (default: today).
    project : str, default "project"
        The project's name, written in the trace.

    Returns
    -------
    ProjectDecision

    Raises
    ------
    RulesInputError
        On an empty project, duplicate impact ids or bad facts.

    Examples
    --------
    >>> from wetland_gis.rules import ImpactFacts, decide_project
    >>> fill = ImpactFacts(impact_id="A", wetland_type=2, cedar_tamarack=False,
    ...                    sqft_setback=0, sqft_protection=0, sqft_outside=9_000,
    ...                    pct_class="greater_than_80_percent", metro=False,
    ...                    impact_kind="fill", owns_whole_wetland=True)
    >>> decide_project([fill], as_of="2024-05-01").outcome.value
    'de_minimis_exempt'
    """
    return decide_projects({project: impacts}, claims, params, as_of)[0]


def decide_projects(
    projects: Mapping[str, Sequence[ImpactFacts]] | Iterable[tuple[str, Sequence[ImpactFacts]]],
    claims: Claims | None = None,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
) -> list[ProjectDecision]:
    """Decide many projects into one shared trace (parameters are read once).

    Parameters
    ----------
    projects : mapping or iterable of (name, impacts)
        The impacts of each project.
    claims, params, as_of
        As for :func:`decide_project`.

    Returns
    -------
    list of ProjectDecision
        In the order given; all share one :class:`~wetland_gis.rules.trace.TraceLog`.
    """
    claims = claims if claims is not None else Claims()
    params = params if params is not None else default_parameters()
    day = as_date(as_of)
    book = rule_book(params, day, claims)
    log = TraceLog()
    items = projects.items() if isinstance(projects, Mapping) else projects
    return [_decide(str(name), list(facts), book, log) for name, facts in items]


def _check(facts: list[ImpactFacts], project: str) -> None:
    if not facts:
        raise RulesInputError(f"project {project!r} has no impacts: give at least one")
    check_impacts(facts, project)


def _decide(
    project: str,
    facts: list[ImpactFacts],
    book: RuleBook,
    log: TraceLog,
    *,
    with_alternatives: bool = True,
) -> ProjectDecision:
    """Decide one project into ``log``: the rules in their order, then the project."""
    _check(facts, project)
    start = len(log)
    concerns: set[str] = set()  # the open readings (READINGS) this project's answer uses
    work = [Impact(f) for f in facts]

    # 1. impact kind; 2. calcareous fens first; 3. public waters wetlands, banked wetlands
    _scope_steps(project, work, book, log)
    # 4. de minimis
    scope = [w for w in work if w.regulated and w.in_scope]
    dm_outcome, totals_out = _de_minimis(project, scope, book, log, concerns)

    # 5. other exemptions (rules/exempt): every one tried, one carries the project; roads
    wca = wca_sqft(work)  # the WCA wetland area (§ 103G.005, subd. 19(b)), for 5 and 7
    step5 = other_exemptions(project, work, book, log, dm_outcome, wca)
    if step5.scope_reading_applies:  # one exemption covers only some impacts (subp. 1 C)
        concerns.add("exemption_scope_reading")
    if step5.unit_reading_applies:  # the clauses of one subdivision (subd. 11(b), subp. 1 C)
        concerns.add("exemption_unit_reading")

    # 6. replacement
    replacement_steps(project, work, book, log)

    # 7. procedure
    comment, sequencing, sequencing_alt = procedure_steps(
        project, work, scope, wca, book, log, concerns
    )

    # the project
    outcome = _project_outcome(work)
    totals = _project_totals(work, wca, dm_outcome, comment, sequencing)
    decisions = tuple(_impact_decision(w) for w in work)
    if with_alternatives and concerns:
        # 8. the open readings the answer used
        totals["alternatives"] = alternatives(
            project,
            facts,
            book,
            log,
            concerns,
            outcome,
            totals,
            dm_outcome,
            within_reach(scope, book),
            sequencing_alt,
            _decide_alone,
        )
    else:
        totals["alternatives"] = {}
    return ProjectDecision(
        project,
        outcome,
        decisions,
        MappingProxyType(totals),
        tuple(totals_out),
        log,
        (start, len(log)),
        step5.carrying,
        None if step5.road is None else step5.road.route.value,
    )


def _scope_steps(project: str, work: list[Impact], book: RuleBook, log: TraceLog) -> None:
    """Decide steps 1-3: the impact kind, calcareous fens first, public waters, banked."""
    for w in work:
        impact_kind(project, w, book, log)
    for w in work:
        calcareous_fen(project, w, log)
    for w in work:
        if not w.regulated:  # an excavation that is not a drain or fill: the DNR permit
            public_waters_work(project, w, log)
        elif not public_waters_steps(project, w, log):
            exemption_standards(project, w, log)


def _de_minimis(
    project: str, scope: list[Impact], book: RuleBook, log: TraceLog, concerns: set[str]
) -> tuple[Outcome, list[DeMinimisTotal]]:
    """Decide step 4: subd. 9 on the impacts in scope, then each impact's answer."""
    totals: list[DeMinimisTotal] = []
    outcome = Outcome.NOT_APPLIED
    conditional_reason = ""
    if scope:
        outcome, conditional_reason, totals = de_minimis_steps(
            project, scope, book, log, concerns=concerns
        )
    for w in scope:
        de_minimis_impact(project, w, outcome, conditional_reason, log)
    return outcome, totals


#: The project's outcome: the first of these any impact has (the worst first).
_PROJECT_OUTCOMES = (
    (ImpactOutcome.PROHIBITED, ProjectOutcome.PROHIBITED),
    (ImpactOutcome.REPLACEMENT_REQUIRED, ProjectOutcome.REPLACEMENT_REQUIRED),
    (ImpactOutcome.EXEMPT_CONDITIONAL, ProjectOutcome.EXEMPT_CONDITIONAL),
    (ImpactOutcome.EXEMPT, ProjectOutcome.EXEMPT),
    (ImpactOutcome.DE_MINIMIS_CONDITIONAL, ProjectOutcome.DE_MINIMIS_CONDITIONAL),
    (ImpactOutcome.DE_MINIMIS_EXEMPT, ProjectOutcome.DE_MINIMIS_EXEMPT),
)


def _project_outcome(work: list[Impact]) -> ProjectOutcome:
    """Return the project's outcome: the worst of its impacts' (Minn. R. 8420.0420, subp. 1)."""
    outcomes = {w.outcome for w in work}
    for impact_outcome, project_outcome in _PROJECT_OUTCOMES:
        if impact_outcome in outcomes:
            return project_outcome
    return ProjectOutcome.NO_DRAIN_OR_FILL


def _project_totals(
    work: list[Impact], wca: Decimal, dm_outcome: Outcome, comment: Any, sequencing: Any
) -> dict[str, Any]:
    """Return the project's areas, acres and procedure answers (``ProjectDecision.totals``)."""
    counted = sum((w.counted for w in work if w.regulated), Decimal(0))
    exempt = sum((w.counted for w in work if w.outcome in EXEMPT_OUTCOMES), Decimal(0))
    public_waters = sum(
        (w.counted for w in work if w.regulated and w.f.public_waters_wetland), Decimal(0)
    )
    return {
        "total_sqft": float(sum((w.area for w in work), Decimal(0))),
        "counted_sqft": float(counted),
        "wca_sqft": float(wca),
        "exempt_sqft": float(exempt),
        "public_waters_sqft": float(public_waters),
        "not_regulated_sqft": float(sum((w.area for w in work if not w.regulated), Decimal(0))),
        "replace_acres": float(sum((dec(w.acres) for w in work if w.acres), Decimal(0))),
        "de_minimis": dm_outcome.value,
        "public_waters_permit": any(route(w) != ROUTE_WCA for w in work),
        "public_comment": comment,
        "sequencing_on_site": sequencing,
    }


def _impact_decision(w: Impact) -> ImpactDecision:
    """Return one impact's decision as the engine left it."""
    return ImpactDecision(
        impact_id=w.f.impact_id,
        outcome=w.outcome,
        area_sqft=float(w.area),
        counted_sqft=float(w.counted),
        de_minimis=w.dm,
        allowance_sqft=None if w.allow is None else float(w.allow),
        ratio=w.ratio,
        replace_acres=w.acres,
        exemptions=tuple(w.exemptions),
        route=route(w),
        multiplier=w.multiplier,
        replacement_by=w.replacement_by,
        replace_acres_if_fails=w.acres_if_fails,
    )


def _decide_alone(
    project: str, facts: list[ImpactFacts], book: RuleBook, log: TraceLog
) -> ProjectDecision:
    """Decide a project under another reading (without the readings' alternatives)."""
    return _decide(project, facts, book, log, with_alternatives=False)
