"""The rules kernel: what every rule of the engine reads and writes.

The engine (:mod:`wetland_gis.rules.engine`) orders the rules; each rule lives in the
module of its topic and reads the working impacts (:class:`Impact`) and the rule book
(:class:`RuleBook`, the parameters read once per tree, date and claims), and writes
keyword-built steps into the one :class:`~wetland_gis.rules.trace.TraceLog`. This module
holds the analyst's :class:`Claims`, the decisions returned (:class:`ImpactDecision`,
:class:`ProjectDecision`), the rule book, the working impact and the outcome words. It
imports no rule module, so every rule module may import it.

Every figure is an exact :class:`decimal.Decimal` of the number as written (:func:`dec`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from wetland_gis.enums import (
    ImpactKind,
    ImpactOutcome,
    Outcome,
    PercentageArea,
    ProjectOutcome,
    ShorelandZone,
    WetlandType,
)
from wetland_gis.errors import RulesInputError
from wetland_gis.parameters import LIMIT_TESTS, ParameterSet
from wetland_gis.rules.amounts import AmountEntry, AmountTable, amount_table, type_group
from wetland_gis.rules.exempt.binding import (
    EACH_CLAUSE,
    EXEMPTION_UNIT_READINGS,
    WHOLE_SUBDIVISION as WHOLE_SUBDIVISION,
)
from wetland_gis.rules.exempt.facts import ExemptionClaims
from wetland_gis.rules.facts import SQFT_PER_ACRE, ImpactFacts, check_choice, exact
from wetland_gis.rules.trace import TraceLog

#: Subd. 9(e) default: the whole project is held to the smallest clause amount it uses.
ONE_CLAUSE = "one_clause"

#: Alternative: the clauses of the one paragraph a project uses are totalled apart.
PER_CLAUSE = "per_clause"

CLAUSE_READINGS = (ONE_CLAUSE, PER_CLAUSE)

#: Subp. 1 C default: an exemption makes impacts exempt only when it covers the whole
#: project (every impact in the WCA's scope).
WHOLE_PROJECT = "whole_project"

#: Alternative: the impacts one exemption covers are exempt, only the rest replaced.
COVERED_IMPACTS = "covered_impacts"

EXEMPTION_SCOPE_READINGS = (WHOLE_PROJECT, COVERED_IMPACTS)

#: Subd. 9(f) default: the exemption "no longer applies ... when the cumulative area ... is"
#: the limit of (f)(2) or (f)(3): a cumulative area that reaches it is not exempt.
LIMIT_REACHED = "reached"

#: Alternative: only a cumulative area over the limit ends the exemption.
LIMIT_EXCEEDED = "exceeded"

CUMULATIVE_LIMIT_READINGS = (LIMIT_REACHED, LIMIT_EXCEEDED)
#: Subd. 11(b), subp. 1 C: ``EACH_CLAUSE`` (the default, each clause of § 103G.2241 is one
#: exemption) or ``WHOLE_SUBDIVISION`` (the clauses of one subdivision are one), the
#: readings of :func:`wetland_gis.rules.exempt.decide_exemptions`, imported above.


#: The open readings of the text (docs/rules.md, "Open readings"): for each ``Claims``
#: field, its choices, the default first. The default is the reading under which the tool
#: never says "exempt" (or a smaller area, ratio or amount) where the other would not; a
#: project the reading concerns gets a ``reading.<field>`` step naming it, with the
#: alternative's outcome beside it when it differs.
READINGS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        # subd. 9(e) names paragraphs, not the clauses of one paragraph
        "clause_reading": CLAUSE_READINGS,
        # subd. 9(a)(2)-(3), (d)(2): a type with no amount in its own zone, on a project held
        # to another zone's paragraph by 9(e)
        "no_amount_reading": ("own_zone", "governing_paragraph"),
        # § 103G.222, subd. 1(b): "the applicable amount" of subd. 9(a) of a mixed project
        "sequencing_reading": ("smallest_amount", "most_area"),
        # subd. 9(c): the increase "if permanent water runoff retention or infiltration
        # measures are established in proximity", when one setback impact lacks the fact
        "setback_increase_reading": ("every_impact", "any_impact"),
        # subd. 9(a)-(d) give amounts for "draining or filling"; § 103G.222, subd. 1(a)
        # brings excavation under the replacement sections
        "excavation_reading": ("no_amount", "as_drain_or_fill"),
        # Minn. R. 8420.0420, subp. 1 C; § 103G.2241, subd. 11(b): an exemption that covers
        # only some impacts of a project
        "exemption_scope_reading": EXEMPTION_SCOPE_READINGS,
        # subd. 9(f): "no longer applies ... when the cumulative area ... is the greatest
        # of": a cumulative area exactly at the (f)(2) or (f)(3) limit
        "cumulative_limit_reading": CUMULATIVE_LIMIT_READINGS,
        # § 103G.2241, subd. 11(b) "any one of the exemptions"; Minn. R. 8420.0420, subp. 1 C:
        # are the clauses of one subdivision one exemption or several
        "exemption_unit_reading": EXEMPTION_UNIT_READINGS,
    }
)


#: Permit routes of an impact (``ImpactDecision.route``).
ROUTE_WCA = "WCA"

ROUTE_PUBLIC_WATERS = "DNR public waters"

ROUTE_BOTH = "WCA and DNR public waters"

ROUTES = (ROUTE_WCA, ROUTE_PUBLIC_WATERS, ROUTE_BOTH)


#: An exact decimal of a figure as written: the one exact-number function of the rules core.
dec = exact

# the outcome words of the trace
O_CLASSIFIED = Outcome.CLASSIFIED.value

O_CONDITIONAL = Outcome.CONDITIONAL.value

O_ELIGIBLE = Outcome.ELIGIBLE.value

O_EXEMPT = Outcome.EXEMPT.value

O_NOT_ELIGIBLE = Outcome.NOT_ELIGIBLE.value

O_NOT_EXEMPT = Outcome.NOT_EXEMPT.value

O_NOT_REGULATED = Outcome.NOT_REGULATED.value

O_PROHIBITED = Outcome.PROHIBITED.value

O_REGULATED = Outcome.REGULATED.value

O_REQUIRED = Outcome.REQUIRED.value
#: The impact outcomes whose area counts as exempt (de minimis or another exemption).
EXEMPT_OUTCOMES = (
    ImpactOutcome.DE_MINIMIS_EXEMPT,
    ImpactOutcome.DE_MINIMIS_CONDITIONAL,
    ImpactOutcome.EXEMPT,
    ImpactOutcome.EXEMPT_CONDITIONAL,
)

KIND_VALUE = {k: k.value for k in ImpactKind}

OUTCOME_VALUE = {o: o.value for o in Outcome}

ZONE_VALUE = {z: z.value for z in ShorelandZone}

PCT_VALUE = {p: p.value for p in PercentageArea}


@dataclass(frozen=True, kw_only=True)
class Claims:
    """What the analyst claims or chooses for a run; none of it is a legal number.

    Parameters
    ----------
    other_exemption_claimed : bool, default False
        Another § 103G.2241 exemption is relied on for the project (subd. 9(g)): the de
        minimis exemption is then not applied.
    shoreland_increase, setback_increase : bool, default False
        Claim the subd. 9(b) or 9(c) increase for every wetland of the run (the per-wetland
        ``isolated`` and ``runoff_retention`` facts claim it for one wetland).
    local_limit_sqft : float, optional
        A more restrictive local standard (subd. 9(i)), applied to every amount.
    prior_sqft_since_1992 : float, optional
        Default of the landowner's prior area (subd. 9(f)) where an impact gives none.
    owns_whole_wetland : bool, optional
        Default of the ownership fact where an impact gives none (``None``: unknown).
    after_the_fact : bool, default False
        § 103G.222, subd. 1(n): the plan is sought after the wetland was affected.
    after_the_fact_multiplier : float, default 1
        The local government unit's multiplier under subd. 1(n).
    clause_reading : {"one_clause", "per_clause"}, default "one_clause"
        How the clauses of the one paragraph of subd. 9 a project uses are totalled
        (docs/rules.md, "Open readings").
    no_amount_reading : {"own_zone", "governing_paragraph"}, default "own_zone"
        An impact whose type has no amount in its own zone (type 7 outside the protection
        zone in a metropolitan less than 50 percent area) keeps no amount when another
        impact holds the project to another zone's paragraph; or takes that paragraph's.
    sequencing_reading : {"smallest_amount", "most_area"}, default "smallest_amount"
        Which type's subd. 9(a) amount is "the applicable amount" of § 103G.222, subd. 1(b)
        on a project of several types.
    setback_increase_reading : {"every_impact", "any_impact"}, default "every_impact"
        The subd. 9(c) increase holds for the project's setback total only when every
        setback impact has the runoff fact; or when any has it.
    excavation_reading : {"no_amount", "as_drain_or_fill"}, default "no_amount"
        A regulated excavation (§ 103G.222, subd. 1(a)) has no de minimis amount (subd. 9
        speaks of "draining or filling"); or the amounts of a drain or fill.
    exemption_scope_reading : {"whole_project", "covered_impacts"}, default "whole_project"
        Minn. R. 8420.0420, subp. 1 C: a project is exempt under an exemption other than
        de minimis only when that one exemption covers every impact in the WCA's scope (an
        exemption covering only some impacts exempts none); or the impacts it covers are
        exempt and only the rest replaced.
    cumulative_limit_reading : {"reached", "exceeded"}, default "reached"
        Subd. 9(f): "This exemption no longer applies to a landowner's portion of a wetland
        when the cumulative area drained or filled ... is the greatest of" the limits: a
        cumulative area exactly at the (f)(2) or (f)(3) limit (five percent of the portion,
        400 square feet) is not exempt (``reached``); or only one over it is not
        (``exceeded``). The (f)(1) limit, "the applicable area listed in paragraph (a), (b),
        or (c)", is the amount those paragraphs allow in full, so reaching it is exempt.
    exemption_unit_reading : {"each_clause", "whole_subdivision"}, default "each_clause"
        § 103G.2241, subd. 11(b), Minn. R. 8420.0420, subp. 1 C: each clause of § 103G.2241
        is one exemption (subd. 6(a)(1) for one impact and 6(a)(2) for another are two, not
        combined); or the clauses of one subdivision together are one exemption.
    exemptions : ExemptionClaims, optional
        The analyst's claims for the other exemptions of § 103G.2241 (an approval, a
        permit, a finding): they fill each impact's claim facts it does not give.
    """

    other_exemption_claimed: bool = False
    shoreland_increase: bool = False
    setback_increase: bool = False
    local_limit_sqft: float | None = None
    prior_sqft_since_1992: float | None = None
    owns_whole_wetland: bool | None = None
    after_the_fact: bool = False
    after_the_fact_multiplier: float = 1.0
    clause_reading: str = ONE_CLAUSE
    no_amount_reading: str = "own_zone"
    sequencing_reading: str = "smallest_amount"
    setback_increase_reading: str = "every_impact"
    excavation_reading: str = "no_amount"
    exemption_scope_reading: str = WHOLE_PROJECT
    exemption_unit_reading: str = EACH_CLAUSE
    exemptions: ExemptionClaims | None = None
    cumulative_limit_reading: str = LIMIT_REACHED

    def __post_init__(self) -> None:
        for name, choices in READINGS.items():
            check_choice(getattr(self, name), choices, name)

    def readings(self) -> dict[str, str]:
        """Return the reading chosen for each open reading, by ``Claims`` field."""
        return {name: getattr(self, name) for name in READINGS}


@dataclass(frozen=True)
class ImpactDecision:
    """The decision for one impact of a project.

    Parameters
    ----------
    impact_id : hashable
        The impact's id.
    outcome : ImpactOutcome
        The headline outcome.
    area_sqft, counted_sqft : float
        The impact's area, and the area counted toward the totals and replacement (a
        partial drain counts a share; an excavation that is not a drain or fill counts 0).
    de_minimis : Outcome or None
        ``EXEMPT``, ``CONDITIONAL``, ``NOT_EXEMPT`` or ``NOT_APPLIED``; ``None`` when the
        de minimis test does not concern the impact.
    allowance_sqft : float or None
        The de minimis amount the impact was held to.
    ratio, replace_acres : float or None
        The replacement ratio and acres, when replacement is required.
    exemptions : tuple of str
        The rule id of the exemption of § 103G.2241 other than de minimis that carries the
        impact (outcome ``EXEMPT`` or ``EXEMPT_CONDITIONAL``); empty when none does.
    route : str
        ``"WCA"``, ``"DNR public waters"`` (public waters wetlands) or ``"WCA and DNR public
        waters"`` (a fill below the ordinary high water level).
    multiplier : float or None
        The after-the-fact multiplier of § 103G.222, subd. 1(n) inside ``ratio`` (1 when the
        plan is not after the fact), when replacement is required: siting divides it out to
        add a siting option's adjustments (``priority.option_ratio``).
    replacement_by : str or None
        ``"board"`` when the board replaces the wetland of a public road project
        (§ 103G.222, subd. 1(m): siting skips it), ``"state_dot"`` for a state road;
        ``None``: the applicant replaces (or no replacement).
    replace_acres_if_fails : float or None
        For an impact exempt only on a condition (``DE_MINIMIS_CONDITIONAL``,
        ``EXEMPT_CONDITIONAL``): the replacement acres owed if the missing fact fails (its
        counted area at the ratio of § 103G.222, subd. 1(f), (g), (n), step
        ``replacement.if_fails``); ``None`` for any other outcome.
    """

    impact_id: Hashable
    outcome: ImpactOutcome
    area_sqft: float
    counted_sqft: float
    de_minimis: Outcome | None = None
    allowance_sqft: float | None = None
    ratio: float | None = None
    replace_acres: float | None = None
    exemptions: tuple[str, ...] = ()
    route: str = "WCA"
    multiplier: float | None = None
    replacement_by: str | None = None
    replace_acres_if_fails: float | None = None


@dataclass(frozen=True)
class DeMinimisTotal:
    """One project total compared with one de minimis amount.

    Parameters
    ----------
    name : str
        ``"<paragraph>:<type group>"``, ``"c"`` (subd. 9(c), all types), ``"<paragraph>"``
        under the ``one_clause`` reading, or ``"no_amount"``.
    impact_ids : tuple
        The impacts in the total.
    total_sqft, allowance_sqft : float
        The total and the amount it is held to (the smallest of its members' amounts).
    citations : tuple of str
        The clauses giving the amounts.
    within : bool
        ``total <= allowance``, compared exactly.
    """

    name: str
    impact_ids: tuple[Hashable, ...]
    total_sqft: float
    allowance_sqft: float
    citations: tuple[str, ...]
    within: bool


@dataclass(frozen=True)
class ProjectDecision:
    """The decision for a project, and the trace of every rule step.

    Parameters
    ----------
    project : str
        The project's name.
    outcome : ProjectOutcome
        The headline outcome.
    impacts : tuple of ImpactDecision
        One per impact, in input order.
    totals : Mapping[str, Any]
        ``total_sqft`` (area of every impact), ``counted_sqft`` (drained or filled, as
        counted), ``wca_sqft`` (of it, the WCA wetland area, without public waters
        wetlands, § 103G.005, subd. 19(b): the area the procedure thresholds count),
        ``exempt_sqft``, ``replace_acres``, ``public_waters_sqft``, ``public_waters_permit``
        (an impact needs the public-waters-work permit),
        ``not_regulated_sqft``, ``public_comment`` and ``sequencing_on_site`` (outcome
        values or None), ``de_minimis`` (the project's de minimis outcome value).
    de_minimis_totals : tuple of DeMinimisTotal
        The totals compared with amounts.
    log : TraceLog
        The trace (shared by every project of a :func:`decide_projects` call).
    span : tuple of int
        This project's rows ``start, stop`` in ``log``.
    exemption : str or None
        The rule id of the one exemption of § 103G.2241 other than de minimis that carries
        the project (``None``: none does).
    road : str or None
        The road paragraph's answer (a ``RoadRoute`` value), when road facts are given.
    """

    project: str
    outcome: ProjectOutcome
    impacts: tuple[ImpactDecision, ...]
    totals: Mapping[str, Any]
    de_minimis_totals: tuple[DeMinimisTotal, ...]
    log: TraceLog = field(repr=False, compare=False)
    span: tuple[int, int] = (0, 0)
    exemption: str | None = None
    road: str | None = None

    @property
    def by_impact(self) -> dict[Hashable, ImpactDecision]:
        """Return the impact decisions by impact id."""
        return {d.impact_id: d for d in self.impacts}

    @property
    def trace(self) -> Any:
        """Return this project's trace steps as a DataFrame (``TRACE_COLUMNS``)."""
        return self.log.frame(*self.span)

    def steps(self) -> list[dict[str, Any]]:
        """Return this project's trace steps as dictionaries."""
        return list(self.log.records(*self.span))

    def citations(self) -> list[tuple[str, ...]]:
        """Return the citations of this project's trace steps as data, one tuple per step."""
        return self.log.citations(*self.span)


# --- the rule book: parameters read once per tree, date and claims ----------------------


class RuleBook:
    """Every parameter value the engine uses, read once per tree, date and claims.

    Figures are exact decimals (:class:`decimal.Decimal`) of the numbers as written.
    """

    def __init__(self, params: ParameterSet, day: dt.date, claims: Claims) -> None:
        self.params = params
        self.day = day
        self.claims = claims
        v = params.value
        self.table: AmountTable = amount_table(params, day)
        self.group_of = {
            (int(t), cedar): type_group(t, cedar, params, day)
            for t in WetlandType
            for cedar in (False, True)
        }
        self.since = v("de_minimis.cumulative.since", day)
        self.pct_portion = dec(v("de_minimis.cumulative.percent_of_portion", day))
        self.floor = dec(v("de_minimis.cumulative.floor", day))
        self.cumulative_params = MappingProxyType(
            {
                "de_minimis.cumulative.since": self.since.isoformat(),
                "de_minimis.cumulative.percent_of_portion": v(
                    "de_minimis.cumulative.percent_of_portion", day
                ),
                "de_minimis.cumulative.floor": v("de_minimis.cumulative.floor", day),
            }
        )
        self.cite_cumulative = params.citation("de_minimis.cumulative.since")
        self.excavation_types = frozenset(int(t) for t in v("replacement.excavation_types", day))
        self.cite_excavation = params.citation("replacement.excavation_types")
        self.partial_pct = dec(v("replacement.partial_drainage_min_percent", day))
        self.partial_params = MappingProxyType(
            {
                "replacement.partial_drainage_min_percent": v(
                    "replacement.partial_drainage_min_percent", day
                )
            }
        )
        self.sqft_per_acre = Decimal(SQFT_PER_ACRE)
        p = "procedure."
        self.comment_threshold = dec(v(p + "public_comment_threshold", day))
        self.comment_comparison = params[p + "public_comment_threshold"].comparison
        self.sequencing_allowance = dec(v(p + "sequencing_allowance", day))
        self.sequencing_comparison = params[p + "sequencing_allowance"].comparison
        self.local = None if claims.local_limit_sqft is None else dec(claims.local_limit_sqft)
        #: answers the rules keep for the run (keyed by the rule's own key), e.g. the
        #: ratio of a class and land use: a rule's answer depends only on its key
        self.memo: dict[Hashable, Any] = {}


def rule_book(params: ParameterSet, day: dt.date, claims: Claims) -> RuleBook:
    """Return the rule book of a tree, date and claims, kept on the tree (its memo)."""
    books = params.memo().setdefault(RuleBook, {})
    book = books.get((day, claims))
    if book is None:
        book = books[(day, claims)] = RuleBook(params, day, claims)
    return book


def passes(comparison: str | None, amount: Decimal, limit: Decimal) -> bool:
    """Return whether ``amount`` passes a parameter's limit test (``LIMIT_TESTS``)."""
    test = LIMIT_TESTS.get(comparison or "")
    if test is None:
        raise RulesInputError(f"comparison {comparison!r} is not a limit comparison")
    return test(amount, limit)


class Impact:
    """Working state of one impact while its project is decided (the rules write it)."""

    __slots__ = (
        "f",
        "iid",
        "area",
        "counted",
        "regulated",
        "in_scope",
        "entry",
        "pool",
        "allow",
        "outcome",
        "dm",
        "ratio",
        "multiplier",
        "acres",
        "exemptions",
        "replacement_by",
        "acres_if_fails",
        "ineligible",
        "share_unknown",
        "lost",
        "potential",
    )

    def __init__(self, f: ImpactFacts) -> None:
        self.f = f
        self.iid = str(f.impact_id)
        parts = [dec(a) for a in (f.sqft_setback, f.sqft_protection, f.sqft_outside) if a]
        self.area = sum(parts[1:], parts[0]) if parts else Decimal(0)
        self.counted = self.area
        self.regulated = True
        self.in_scope = True
        self.entry: AmountEntry | None = None
        self.pool = ""
        self.allow: Decimal | None = None
        self.outcome = ImpactOutcome.REPLACEMENT_REQUIRED
        self.dm: Outcome | None = None
        self.ratio: float | None = None
        self.multiplier: float | None = None
        self.acres: float | None = None
        self.exemptions: list[str] = []
        self.replacement_by: str | None = None
        self.acres_if_fails: float | None = None
        self.ineligible = False
        self.share_unknown = False
        self.lost = False
        self.potential = Decimal(0)
