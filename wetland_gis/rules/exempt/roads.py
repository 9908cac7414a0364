"""Public road projects, Minn. Stat. § 103G.222, subd. 1 (l) and (m): replacement by the board.

This is not an exemption of § 103G.2241: the wetlands are still replaced, by the board
(or, for a state project, by the Department of Transportation), and the road authority
needs no replacement plan of its own.

* Paragraph (m): the repair, rehabilitation, reconstruction or replacement of a currently
  serviceable existing state, city, county or town public road, necessary (as the public
  transportation authority determines) to meet state or federal design or safety
  standards, needs no replacement plan, provided the authority minimizes (clause 1) and
  reports (clause 2, or clause 3 for minor and emergency maintenance): these are the
  verify items the authority owes. New roads and roads expanded solely for additional
  traffic capacity lanes are excluded.
* Paragraph (l): for a new public transportation project, or one expanded solely for
  additional traffic capacity, the authority may purchase credits from the board at the
  board's cost; an airport project is not a "transportation project".

Siting is skipped only for impacts the board replaces (:attr:`RoadResult.skip_siting`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from enum import Enum

from wetland_gis.enums import Outcome
from wetland_gis.parameters import ParameterSet
from wetland_gis.rules.exempt.model import (
    ConditionStatus,
    Day,
    ExemptionResult,
    RuleRun,
    all_of,
    any_of,
    check_area,
    optional_choice,
    optional_date,
    optional_flag,
    start,
)
from wetland_gis.rules.spec import FACTS, road_fact

#: Kinds of road project: the four of paragraph (m), and the two it excludes.
ROAD_PROJECT_KINDS = frozenset(road_fact("project_kind").choices)
_COVERED_KINDS = ("repair", "rehabilitation", "reconstruction", "replacement")
_EXCLUDED_KINDS = ("new_road", "capacity_expansion")
#: Road authorities: the four public roads of paragraph (m), or ``other`` (not covered: a
#: private road, or an authority that is not a state, city, county or town).
ROAD_AUTHORITIES = frozenset(road_fact("road_authority").choices)
_PUBLIC_AUTHORITIES = ("state", "city", "county", "town")

#: Default impact-layer (or project) column of each road fact (ten characters at most),
#: from the spec (:data:`wetland_gis.rules.spec.FACTS`).
ROAD_FACT_COLUMNS = {f.name: f.column for f in FACTS.values() if f.group == "road"}


class RoadRoute(str, Enum):
    """Who replaces the wetlands of a public road project."""

    BOARD_REPLACES = "board_replaces"
    STATE_DOT_REPLACES = "state_dot_replaces"
    CREDITS_FROM_BOARD = "credits_from_board"
    NOT_COVERED = "not_covered"
    UNKNOWN = "unknown"


@dataclass(frozen=True, kw_only=True)
class RoadFacts:
    """The facts of a public road project (every one optional: ``None`` is unknown).

    Parameters
    ----------
    project_id : str, optional
        The project (reported only).
    project_kind : str, optional
        One of :data:`ROAD_PROJECT_KINDS`.
    road_authority : str, optional
        One of :data:`ROAD_AUTHORITIES`: whose public road (``other``: not a state, city,
        county or town public road).
    currently_serviceable : bool, optional
        The existing road is currently serviceable.
    design_safety_necessary : bool, optional
        **Claim.** The work is necessary, as determined by the public transportation
        authority, to meet state or federal design or safety standards or requirements.
    airport : bool, optional
        An airport project (not a "transportation project" of paragraph (l)).
    minor_or_emergency : bool, optional
        Minor and emergency maintenance work (clause 3).
    project_sqft : float, optional
        Wetland the project fills or drains, square feet (clause 3's limit).
    minimized : bool, optional
        **Claim.** The authority minimizes the amount of wetland filling or draining of the
        project and considers mitigating important site-specific wetland functions on site
        (clause 1).
    report_date : date, optional
        The date the authority submitted its project-specific reports (to the board, the
        technical evaluation panel, the commissioner and members of the public requesting
        a copy: clause 2; to the board: clause 3).
    construction_date : date, optional
        The date construction starts (clause 2), or the activity commenced (clause 3).
    annual_meeting : bool, optional
        The authority convened the annual meeting of the parties required to receive
        notice that reviewed this project among those of the upcoming year (clause 2's
        alternative to the reports).
    """

    project_id: str | None = None
    project_kind: str | None = None
    road_authority: str | None = None
    currently_serviceable: bool | None = None
    design_safety_necessary: bool | None = None
    airport: bool | None = None
    minor_or_emergency: bool | None = None
    project_sqft: float | None = None
    minimized: bool | None = None
    report_date: dt.date | None = None
    construction_date: dt.date | None = None
    annual_meeting: bool | None = None

    def __post_init__(self) -> None:
        optional_choice(self.project_kind, ROAD_PROJECT_KINDS, "project_kind")
        optional_choice(self.road_authority, ROAD_AUTHORITIES, "road_authority")
        for name in (
            "currently_serviceable",
            "design_safety_necessary",
            "airport",
            "minor_or_emergency",
            "minimized",
            "annual_meeting",
        ):
            optional_flag(getattr(self, name), name)
        check_area(self.project_sqft, "project_sqft")
        for name in ("report_date", "construction_date"):
            object.__setattr__(self, name, optional_date(getattr(self, name), name))

    @property
    def impact_id(self) -> None:
        """A road answer is of the project, not of one impact."""
        return None


@dataclass(frozen=True, kw_only=True)
class RoadResult(ExemptionResult):
    """The answer of the road paragraph: a result with the route and the siting flag.

    Parameters
    ----------
    route : RoadRoute
        Who replaces: the board (paragraph (m)), the Department of Transportation (a state
        project), credits the authority may buy from the board (paragraph (l)), not covered
        (an ordinary replacement plan), or unknown.
    skip_siting : bool
        True only when the board replaces (outcome ``NOT_REQUIRED``): no replacement site is
        sought for these impacts.
    reports : tuple of str
        What the road authority owes (clauses 1 to 3), also among the verify items.
    """

    route: RoadRoute = RoadRoute.UNKNOWN
    skip_siting: bool = False
    reports: tuple[str, ...] = ()


def _owed(run: RuleRun, facts: RoadFacts) -> list[str]:
    """Return the clauses (1) to (3) the road authority must meet, as verify items."""
    before = run.value("road_projects.report_days_before_construction")
    after = run.value("road_projects.report_days_after_commencing")
    key = "road_projects.minor_emergency_max_sqft"
    limit = run.value(key)
    items = [
        "§ 103G.222, subd. 1(m)(1): the authority minimizes the amount of wetland filling or "
        "draining associated with the project and considers mitigating important "
        "site-specific wetland functions on site.",
    ]
    clause2 = (
        "§ 103G.222, subd. 1(m)(2): the authority submits project-specific reports to the "
        "board, the technical evaluation panel, the commissioner of natural resources and "
        f"members of the public requesting a copy at least {before} days prior to "
        "construction, indicating the location, amount and type of wetlands to be filled or "
        "drained, or alternatively convenes an annual meeting of the parties required to "
        "receive notice to review the projects to be commenced during the upcoming year."
    )
    clause3 = (
        f"§ 103G.222, subd. 1(m)(3): for minor and emergency maintenance work impacting less "
        f"than {limit:,} square feet, the authority submits a project-specific report to the "
        f"board within {after} days of commencing the activity, indicating the location, "
        "amount and type of wetlands filled or drained."
    )
    minor = facts.minor_or_emergency
    area = facts.project_sqft
    under = None if area is None else run.passes(key, area)
    if minor is True and under is True:
        items.append(clause3)
    elif minor is False or under is False:
        items.append(clause2)
    else:
        items.append(
            clause2 + " (Or clause 3, if the work is minor or emergency maintenance "
            f"impacting less than {limit:,} square feet.)"
        )
    items += [
        "§ 103G.222, subd. 1(m): those required to receive notice may appeal the authority's "
        "minimization, delineation and on-site mitigation decisions to the board "
        "(§ 103G.2242, subd. 9); the technical evaluation panel reviews minimization and "
        "delineation decisions when asked.",
        "§ 103G.222, subd. 1(m): wetland areas of public waters are replaced by the board "
        "only if authorized by the commissioner or a delegated authority.",
    ]
    return items


def road_replacement(
    facts: RoadFacts, params: ParameterSet | None = None, day: Day = None
) -> RoadResult:
    """§ 103G.222, subd. 1(l), (m): who replaces the wetlands of a public road project.

    Returns
    -------
    RoadResult
        ``NOT_REQUIRED`` (no replacement plan of the authority: the board, or for a state
        road the Department of Transportation, replaces), ``REQUIRED`` (a replacement plan;
        for a new or capacity project, credits may be bought from the board) or
        ``CONDITIONAL`` (a fact is not known; siting is not skipped).

    Examples
    --------
    >>> f = RoadFacts(project_kind="reconstruction", road_authority="county",
    ...     currently_serviceable=True, design_safety_necessary=True)
    >>> r = road_replacement(f, day="2024-05-01")
    >>> r.outcome.value, r.route.value, r.skip_siting  # clauses (1)-(3) not known
    ('conditional', 'board_replaces', False)
    >>> import datetime as dt
    >>> f = RoadFacts(project_kind="reconstruction", road_authority="county",
    ...     currently_serviceable=True, design_safety_necessary=True, minimized=True,
    ...     minor_or_emergency=False, report_date=dt.date(2024, 3, 1),
    ...     construction_date=dt.date(2024, 4, 15))
    >>> r = road_replacement(f, day="2024-05-01")
    >>> r.outcome.value, r.route.value, r.skip_siting
    ('not_required', 'board_replaces', True)
    """
    run = start(road_replacement, facts, params, day)
    kind = run.fact("project_kind")
    if kind in _EXCLUDED_KINDS:
        run.cond(
            False,
            "Paragraph (m) excludes new roads and roads expanded solely for additional "
            f"traffic capacity lanes (given: {kind}).",
            "project_kind",
            citation=run.clause("(m)"),
        )
        return _credits(run)
    run.cond(
        None if kind is None else kind in _COVERED_KINDS,
        "The project is the repair, rehabilitation, reconstruction or replacement of an "
        f"existing road (given: {kind or 'not known'}).",
        "project_kind",
    )
    authority = run.fact("road_authority")
    run.cond(
        None if authority is None else authority != "other",
        "The road is a state, city, county or town public road"
        + ("" if authority is None else f" (given: {authority})")
        + ".",
        "road_authority",
    )
    run.flag("currently_serviceable", "The existing public road is currently serviceable.")
    run.flag(
        "design_safety_necessary",
        "The work is necessary, as determined by the public transportation authority, to "
        "meet state or federal design or safety standards or requirements (the "
        "authority's claim).",
    )
    statuses = {c.status for c in run.conditions}
    if ConditionStatus.FAILED in statuses:
        run.note("Not a road project of paragraph (m): a replacement plan is required.")
        return _road(
            run.result(Outcome.REQUIRED), route=RoadRoute.NOT_COVERED, skip=False, reports=()
        )
    _authority_duties(run, facts)
    outcome = run.outcome()
    statuses = {c.status for c in run.conditions}
    if ConditionStatus.FAILED in statuses:
        run.note(
            'Paragraph (m) "only applies to authorities for public transportation projects '
            'that" minimize and report as clauses (1) to (3) say: a condition the authority '
            "has not met takes the project out of paragraph (m), and the ordinary "
            "replacement plan is required (with its public notice and sequencing)."
        )
        return _road(
            run.result(Outcome.REQUIRED), route=RoadRoute.NOT_COVERED, skip=False, reports=()
        )
    return _replaced(run, facts, authority, outcome)


def _replaced(
    run: RuleRun, facts: RoadFacts, authority: str | None, outcome: Outcome
) -> RoadResult:
    """Paragraph (m): the board (a state road: the Department of Transportation) replaces.

    The authority owes the reports of clauses (1) to (3), the answer's verify items.
    """
    route = (
        RoadRoute.STATE_DOT_REPLACES
        if authority == "state"
        else (RoadRoute.BOARD_REPLACES if authority is not None else RoadRoute.UNKNOWN)
    )
    reports = _owed(run, facts)
    run.check(*reports)
    if route is RoadRoute.STATE_DOT_REPLACES:
        run.note(
            "A state public transportation project: the Department of Transportation is "
            "responsible for replacing the wetlands."
        )
    else:
        run.note(
            "Paragraph (m): the board must replace the wetlands drained or filled by public "
            "transportation projects on existing roads; the authority needs no replacement "
            "plan."
        )
    final = Outcome.NOT_REQUIRED if outcome is Outcome.EXEMPT else Outcome.CONDITIONAL
    if final is Outcome.CONDITIONAL:
        run.notes[-1] = "If the conditions not known hold: " + run.notes[-1]
    return _road(
        run.result(final),
        route=route,
        skip=final is Outcome.NOT_REQUIRED and route is RoadRoute.BOARD_REPLACES,
        reports=tuple(reports),
    )


def _credits(run: RuleRun) -> RoadResult:
    """Paragraph (l): a new or capacity project; the authority may buy credits from the board.

    A replacement plan is required either way; paragraph (l) only says where a *public
    transportation authority* may get the credits, for a *public transportation project*
    that is not an airport project. A private (``other``) or airport project, or one
    whose authority is not known, takes the ordinary replacement path (credits the
    applicant finds). An unknown authority leaves the route unknown; an unknown airport
    status of a public road authority's road project is a verify item.
    """
    authority = run.fact("road_authority")
    public = run.cond(
        None if authority is None else authority in _PUBLIC_AUTHORITIES,
        "The project is a new public transportation project of a public transportation "
        "authority (a state, city, county or town road authority)"
        + ("" if authority is None else f" (given: {authority})")
        + ".",
        "road_authority",
        citation=run.clause("(l)"),
    )
    airport = run.fact("airport")
    not_airport = run.cond(
        None if airport is None else not airport,
        '"Transportation project" does not include an airport project'
        + ("" if airport is None else f" (given: airport {'yes' if airport else 'no'})")
        + ".",
        "airport",
        citation=run.clause("(l)"),
    )
    if public is True and not_airport is not False:  # airport unknown: a verify item
        route = RoadRoute.CREDITS_FROM_BOARD
        run.note(
            "Paragraph (l): for a new public transportation project, or one expanded "
            "solely for additional traffic capacity, the public transportation "
            "authority may purchase credits from the board at the cost to the board to "
            "establish credits; a replacement plan is required."
        )
    elif public is False or not_airport is False:
        route = RoadRoute.NOT_COVERED
        run.note(
            "Paragraph (l) is only for public transportation authorities and public "
            "transportation projects, not an airport project: the ordinary replacement "
            "plan, with credits the applicant provides (§ 103G.222, § 103G.2242)."
        )
        if authority == "other":
            run.check(
                "§ 103G.222, subd. 1(l): if the project's authority is a public "
                "transportation authority other than a state, city, county or town road "
                "authority, it may purchase credits from the board; confirm who the "
                "authority is."
            )
    else:
        route = RoadRoute.UNKNOWN
        run.note(
            "Whether paragraph (l) lets the authority purchase credits from the board "
            "depends on the facts not known; a replacement plan is required either way."
        )
    if public is None:
        run.check(
            "§ 103G.222, subd. 1(l): the project is a public transportation project of a "
            "public transportation authority (not a private road)."
        )
    if not_airport is None:
        run.check("§ 103G.222, subd. 1(l): the project is not an airport project.")
    # the conditions of (l) say who provides credits, not whether to replace: required
    return _road(run.result(Outcome.REQUIRED), route=route, skip=False, reports=())


def _authority_duties(run: RuleRun, facts: RoadFacts) -> None:
    """Record the conditions of paragraph (m), clauses (1) to (3), decided with their facts.

    "This paragraph only applies to authorities for public transportation projects that"
    minimize (clause 1) and report (clause 2: at least the parameter's days before
    construction, or the annual meeting; clause 3, for minor and emergency maintenance
    impacting less than the parameter's square feet: within the parameter's days of
    commencing). A failed condition takes the project out of paragraph (m); an unknown one
    keeps the answer conditional.
    """
    run.flag(
        "minimized",
        "The authority minimizes the amount of wetland filling or draining associated with "
        "the project and considers mitigating important site-specific wetland functions on "
        "site (the authority's claim).",
        citation=run.clause("(m)(1)"),
    )
    before_key = "road_projects.report_days_before_construction"
    after_key = "road_projects.report_days_after_commencing"
    size_key = "road_projects.minor_emergency_max_sqft"
    before, after, limit = run.value(before_key), run.value(after_key), run.value(size_key)
    minor = run.fact("minor_or_emergency")
    area = facts.project_sqft
    under = None if area is None else run.passes(size_key, area)
    clause3 = all_of(minor, under)  # True: clause (3); False: clause (2); None: not known
    report, start_day = run.fact("report_date"), run.fact("construction_date")
    meeting = run.fact("annual_meeting")
    lead = None if report is None or start_day is None else (start_day - report).days
    if lead is not None:
        run.amounts["report_days_before_construction"] = float(lead)
    timely = None if lead is None else run.passes(before_key, lead)
    c2 = any_of(meeting, timely)
    c3 = None if lead is None else run.passes(after_key, -lead)
    given = (
        f" (given: report {_day(report)}, construction {_day(start_day)}, annual meeting "
        f"{'not known' if meeting is None else ('yes' if meeting else 'no')})"
    )
    text2 = (
        "The authority submitted project-specific reports to the board, the technical "
        "evaluation panel, the commissioner of natural resources and members of the public "
        f"requesting a copy at least {before} days prior to construction, or convened the "
        "annual meeting of the parties required to receive notice that reviewed the project"
    )
    text3 = (
        f"For minor and emergency maintenance work impacting less than {limit:,} square "
        f"feet, the authority submitted a project-specific report to the board within {after} "
        "days of commencing the activity"
    )
    facts_read = ("report_date", "construction_date", "annual_meeting", "minor_or_emergency")
    if clause3 is True:
        run.cond(c3, text3 + given + ".", *facts_read, citation=run.clause("(m)(3)"))
    elif clause3 is False:
        run.cond(c2, text2 + given + ".", *facts_read, citation=run.clause("(m)(2)"))
    else:
        holds = (
            True if c2 is True and c3 is True else (False if c2 is False and c3 is False else None)
        )
        run.cond(
            holds,
            f"{text2}; or, if the work is minor or emergency maintenance (not known), "
            f"{text3[0].lower()}{text3[1:]}{given}.",
            *facts_read,
            citation=run.clause("(m)(2), (3)"),
        )


def _day(value: dt.date | None) -> str:
    return "not known" if value is None else value.isoformat()


def _road(
    base: ExemptionResult, *, route: RoadRoute, skip: bool, reports: tuple[str, ...]
) -> RoadResult:
    fields = {name: getattr(base, name) for name in base.__dataclass_fields__}
    return RoadResult(**fields, route=route, skip_siting=skip, reports=reports)
