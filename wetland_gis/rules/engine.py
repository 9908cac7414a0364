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
   subd. 1(2), 7) or § 103G.221 for a drain; ``public_waters_work`` — a fill below the OHWL
   of a public water needs the permit too; ``exemption_standards`` — banked wetlands and
   wetlands used for credit (Minn. R. 8420.0420, subp. 1).
4. ``de_minimis.paragraph`` (subd. 9(e)), ``de_minimis.amount``, ``de_minimis.total``,
   ``de_minimis.cumulative`` (subd. 9(f), per landowner's portion of a wetland),
   ``de_minimis.project`` and ``de_minimis.impact``.
5. ``exemption.*`` and ``road.*`` — every other exemption of § 103G.2241 tried on the
   project, the one that carries it, and the public road paragraph (§ 103G.222, subd. 1(l),
   (m)): :func:`wetland_gis.rules.exempt.project.decide_other_exemptions`.
6. ``replacement.ratio`` and ``replacement.credits`` — every impact of a project that is
   not de minimis (Minn. R. 8420.0420, subp. 1: "the entire amount of impact must be
   replaced").
7. ``procedure.public_comment`` and ``procedure.sequencing`` (WCA wetland area only,
   § 103G.005, subd. 19(b)).
8. ``reading.*`` — each open reading the answer used (:data:`READINGS`), with the other
   reading's result beside it when it differs.

Rule ids are defined once, in :mod:`wetland_gis.rules.registry`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
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
from wetland_gis.parameters import LIMIT_TESTS, ParameterSet, as_date, default_parameters
from wetland_gis.rules import registry as R
from wetland_gis.rules.amounts import AmountEntry, AmountTable, amount_table
from wetland_gis.rules.de_minimis import (
    CALCAREOUS_FENS,
    EXEMPTION_STANDARDS,
    SUBD9,
    type_group,
)
from wetland_gis.rules.exempt import ExemptionClaims
from wetland_gis.rules.exempt.project import decide_other_exemptions
from wetland_gis.rules.facts import (
    PERCENT,
    SQFT_PER_ACRE,
    ImpactFacts,
    check_choice,
    check_impacts,
    fmt_number,
    fmt_sqft,
    zone_words,
)
from wetland_gis.rules.procedure import (
    public_comment_required,
    sequencing_without_alternatives_analysis,
)
from wetland_gis.rules.public_waters import OUTSIDE_WCA
from wetland_gis.rules.replacement import replacement_ratio
from wetland_gis.rules.trace import TraceLog

__all__ = [
    "Claims",
    "ImpactDecision",
    "DeMinimisTotal",
    "ProjectDecision",
    "decide_project",
    "decide_projects",
    "PER_CLAUSE",
    "ONE_CLAUSE",
    "CLAUSE_READINGS",
    "READINGS",
    "ROUTE_WCA",
    "ROUTE_PUBLIC_WATERS",
    "ROUTE_BOTH",
    "ROUTES",
]

#: Subd. 9(e) default: the whole project is held to the smallest clause amount it uses.
ONE_CLAUSE = "one_clause"
#: Alternative: the clauses of the one paragraph a project uses are totalled apart.
PER_CLAUSE = "per_clause"
CLAUSE_READINGS = (ONE_CLAUSE, PER_CLAUSE)

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
    }
)

PUBLIC_WATERS_DRAINING = "Minn. Stat. § 103G.221"
PUBLIC_WATERS_PERMIT = "Minn. Stat. § 103G.245"
PUBLIC_WATERS_WORK = "Minn. Stat. § 103G.245, subd. 1(2)"
PUBLIC_WATERS_INVENTORY = "Minn. Stat. § 103G.201"
#: Permit routes of an impact (``ImpactDecision.route``).
ROUTE_WCA = "WCA"
ROUTE_PUBLIC_WATERS = "DNR public waters"
ROUTE_BOTH = "WCA and DNR public waters"
ROUTES = (ROUTE_WCA, ROUTE_PUBLIC_WATERS, ROUTE_BOTH)
PARTIAL_DRAINAGE = "Minn. R. 8420.0522, subp. 2"
#: "the entire amount of impact must be replaced" (not only the excess)
WHOLE_PROJECT = "Minn. R. 8420.0420, subp. 1 A"

_O_CLASSIFIED = Outcome.CLASSIFIED.value
_O_CONDITIONAL = Outcome.CONDITIONAL.value
_O_ELIGIBLE = Outcome.ELIGIBLE.value
_O_EXEMPT = Outcome.EXEMPT.value
_O_NOT_ELIGIBLE = Outcome.NOT_ELIGIBLE.value
_O_NOT_EXEMPT = Outcome.NOT_EXEMPT.value
_O_NOT_REGULATED = Outcome.NOT_REGULATED.value
_O_PROHIBITED = Outcome.PROHIBITED.value
_O_REGULATED = Outcome.REGULATED.value
_O_REQUIRED = Outcome.REQUIRED.value
_KIND_VALUE = {k: k.value for k in ImpactKind}
_OUTCOME_VALUE = {o: o.value for o in Outcome}
_ZONE_VALUE = {z: z.value for z in ShorelandZone}
_PCT_VALUE = {p: p.value for p in PercentageArea}
_AGRICULTURAL = frozenset({"agricultural", "pasture"})
#: The impact outcomes whose area counts as exempt (de minimis or another exemption).
_EXEMPT_OUTCOMES = (
    ImpactOutcome.DE_MINIMIS_EXEMPT,
    ImpactOutcome.DE_MINIMIS_CONDITIONAL,
    ImpactOutcome.EXEMPT,
    ImpactOutcome.EXEMPT_CONDITIONAL,
)
_FAMILY_ZONE = {
    "c": ShorelandZone.BUILDING_SETBACK,
    "b": ShorelandZone.PROTECTION,
    "a": ShorelandZone.OUTSIDE,
}
_ZONE_FAMILY = {z: f for f, z in _FAMILY_ZONE.items()}
_FAMILY_ORDER = ("c", "b", "a")

_V_DELINEATION = (
    "Wetland types, white cedar and tamarack status and zone boundaries come from a "
    "delineation reviewed by the Technical Evaluation Panel (§ 103G.2242, subd. 2)."
)
_V_WHOLE_PROJECT = (
    "The project is the whole project as defined by the local government unit, not split "
    "into components or phases to gain exemptions (§ 103G.005, subd. 14d)."
)
_V_DIVISION = "Property has not been divided to increase the amounts of paragraph (a) (subd. 9(h))."
_V_LOCAL = (
    "Whether a local ordinance or similar local control is more restrictive; if so the "
    "local standard applies (subd. 9(i))."
)
_V_CONDITIONS = (
    "Exemption conditions: erosion control, no blocking of fish passage, and compliance "
    "with all other requirements (§ 103G.2241, subd. 11(a))."
)
_V_SETBACK = (
    "The shoreland building setback zone is the one defined in the local shoreland "
    "management ordinance (subd. 9(c)); where no approved ordinance exists, the state "
    "minimum structure setbacks of Minn. R. 6120.3300 stand in for it (docs/decisions.md)."
)
_V_PWW_WAIVER = (
    "The DNR may waive the public-waters-work permit if the local government unit makes a "
    "replacement, no-loss or exemption determination under §§ 103G.222 to 103G.2372 "
    "(§ 103G.245, subd. 5(b)); check with the DNR area hydrologist."
)
_V_PWW_INVENTORY = (
    "The wetland was taken as a public waters wetland by its type and size alone "
    "(§ 103G.005, subd. 15a); the DNR public waters inventory (§ 103G.201) is the authority: "
    "give its id (column pw_inventory_id) or confirm with the DNR."
)
_V_OHWL = (
    "Where the ordinary high water level of the public water lies and whether the DNR "
    "claims jurisdiction (check with the DNR area hydrologist)."
)
_V_SPOIL = (
    "Where the excavated spoil is placed: spoil placed in a wetland is a fill, and an "
    "excavation that drains the wetland is a drain (§ 103G.222, subd. 1(a))."
)
_V_FLOODED = (
    "Whether the excavated area is permanently or semipermanently flooded (then the "
    "replacement sections apply, § 103G.222, subd. 1(a)); it was treated as flooded."
)
_V_REGIME = (
    "Whether the excavated area is permanently or semipermanently flooded, as determined by "
    "the Technical Evaluation Panel (§ 103G.2242, subd. 2): the NWI water regime says it is "
    "not; if the panel agrees, the excavation alone is not a drain or fill (§ 103G.222, "
    "subd. 1(a)) and needs no replacement (give flooded = false)."
)
_V_SHARE = (
    "The share counted for the partly drained area was not assessed: the minimum of Minn. R. "
    "8420.0522, subp. 2 was counted; give the share determined by an assessment acceptable "
    "to the Technical Evaluation Panel (column partial_share)."
)
_V_KIND = (
    "The impact kind was not given: the impact was decided as a drain or fill; give "
    "'fill', 'drain' or 'excavate' (column impact_kind)."
)
_V_PARTIAL = (
    "The share counted for the partly drained area is at least the parameter's percentage "
    "of the remaining wetland area, as determined by an assessment acceptable to the "
    "Technical Evaluation Panel (Minn. R. 8420.0522, subp. 2); it may be larger."
)
_V_LAND_USE = (
    "Land use not given: the impact was treated as on nonagricultural land "
    "(§ 103G.222, subd. 1(f)); confirm."
)
_V_FEN = "The calcareous fen identification (commissioner's order in the State Register)."
_V_NOT_COMBINED = (
    "Exemptions may not be combined on a project (Minn. R. 8420.0420, subp. 1; "
    "§ 103G.2241, subd. 9(g)): relying on this exemption excludes the de minimis exemption "
    "for the project."
)
_V_PASTURE = (
    "The wetland is on agricultural pasture land that remains in the same use (§ 103G.2241, "
    "subd. 1(2); pasture as defined in § 103G.005, subd. 14a)."
)
_V_DRAINAGE = (
    "The land is assessed drainage benefits for a public drainage system and the "
    "conditions of § 103G.2241, subd. 2(b)(1), (2) hold."
)
_V_WILDLIFE = (
    "The spoil comes from excavation within the wetland for a wildlife habitat improvement "
    "project certified by the soil and water conservation district (§ 103G.2241, "
    "subd. 10(1))."
)
_V_UTILITY = (
    "The work is placement or maintenance of a utility or utility-type service and its "
    "impacts were avoided and minimized (§ 103G.2241, subd. 6(a)(1))."
)


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
    exemptions: ExemptionClaims | None = None

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
        ``"WCA"`` or ``"DNR public waters"`` (public waters wetlands).
    replacement_by : str or None
        ``"board"`` when the board replaces the wetland of a public road project
        (§ 103G.222, subd. 1(m): siting skips it), ``"state_dot"`` for a state road;
        ``None``: the applicant replaces (or no replacement).
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
    replacement_by: str | None = None


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


# --- the rule book: parameters read once per tree, date and claims ----------------------


class _RuleBook:
    """Every parameter value the engine uses, read once, with exact decimals."""

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
        self.pct_portion = _dec(v("de_minimis.cumulative.percent_of_portion", day))
        self.floor = _dec(v("de_minimis.cumulative.floor", day))
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
        self.partial_pct = _dec(v("replacement.partial_drainage_min_percent", day))
        self.partial_params = MappingProxyType(
            {
                "replacement.partial_drainage_min_percent": v(
                    "replacement.partial_drainage_min_percent", day
                )
            }
        )
        self.sqft_per_acre = Decimal(SQFT_PER_ACRE)
        e = "exemptions."
        self.pasture_any = frozenset(int(t) for t in v(e + "pasture_any_size_types", day))
        self.pasture_small = frozenset(int(t) for t in v(e + "pasture_small_types", day))
        self.pasture_max_acres = _dec(v(e + "pasture_small_max_acres", day))
        self.drain_any = frozenset(int(t) for t in v(e + "drainage_any_size_types", day))
        self.drain_limited = frozenset(int(t) for t in v(e + "drainage_limited_types", day))
        self.drain_max_sqft = _dec(v(e + "drainage_limited_max_acres", day)) * self.sqft_per_acre
        self.utility_max_sqft = _dec(v(e + "utility_max_acres", day)) * self.sqft_per_acre
        self.spoil_pct = _dec(v(e + "wildlife_spoil_max_percent", day))
        self.spoil_max_sqft = _dec(v(e + "wildlife_spoil_max_acres", day)) * self.sqft_per_acre
        self.cite = {
            k: params.citation(e + k)
            for k in (
                "pasture_any_size_types",
                "drainage_any_size_types",
                "utility_max_acres",
                "wildlife_spoil_max_percent",
            )
        }
        self.exemption_params = {
            "pasture": {
                e + k: _listed(v(e + k, day))
                for k in (
                    "pasture_any_size_types",
                    "pasture_small_types",
                    "pasture_small_max_acres",
                )
            },
            "drainage": {
                e + k: _listed(v(e + k, day))
                for k in (
                    "drainage_any_size_types",
                    "drainage_limited_types",
                    "drainage_limited_max_acres",
                )
            },
            "utility": {e + "utility_max_acres": v(e + "utility_max_acres", day)},
            "wildlife_spoil": {
                e + k: v(e + k, day)
                for k in ("wildlife_spoil_max_percent", "wildlife_spoil_max_acres")
            },
        }
        p = "procedure."
        self.comment_threshold = _dec(v(p + "public_comment_threshold", day))
        self.comment_comparison = params[p + "public_comment_threshold"].comparison
        self.sequencing_allowance = _dec(v(p + "sequencing_allowance", day))
        self.sequencing_comparison = params[p + "sequencing_allowance"].comparison
        self._procedure: dict[tuple[str, bool], tuple[str, tuple, dict, str]] = {}
        self.local = None if claims.local_limit_sqft is None else _dec(claims.local_limit_sqft)
        self._ratios: dict[tuple[PercentageArea, bool], tuple[float, str, str, tuple, dict]] = {}

    def procedure(
        self, rule: str, passes: bool, total: float, applicable: float | None
    ) -> tuple[str, tuple, dict, str]:
        """Return (citation, verify, parameters, outcome) of a procedure step.

        They depend only on whether the limit is passed, so the rule's function is called
        once per outcome and its answer kept; the reason is rendered from it when needed.
        """
        key = (rule, passes)
        got = self._procedure.get(key)
        if got is None:
            if rule == "public_comment":
                d = public_comment_required(total, params=self.params, as_of=self.day)
            else:
                d = sequencing_without_alternatives_analysis(
                    total, applicable or 0.0, params=self.params, as_of=self.day
                )
            got = ("; ".join(d.citations), tuple(d.verify), dict(d.parameters), d.outcome.value)
            self._procedure[key] = got
        return got

    def ratio(self, pct: PercentageArea, agricultural: bool) -> tuple[float, str, str, tuple, dict]:
        """Return (ratio, citation, reason, verify, parameters) for a class and land use."""
        key = (pct, agricultural)
        got = self._ratios.get(key)
        if got is None:
            d = replacement_ratio(
                pct,
                agricultural,
                after_the_fact=self.claims.after_the_fact,
                after_the_fact_multiplier=self.claims.after_the_fact_multiplier,
                params=self.params,
                as_of=self.day,
            )
            got = (
                float(d.value),
                "; ".join(d.citations),
                " ".join(d.reasons),
                tuple(d.verify),
                dict(d.parameters),
            )
            self._ratios[key] = got
        return got


def _book(params: ParameterSet, day: dt.date, claims: Claims) -> _RuleBook:
    """Return the rule book of a tree, date and claims, kept on the tree (its memo)."""
    books = params.memo().setdefault(_RuleBook, {})
    book = books.get((day, claims))
    if book is None:
        book = books[(day, claims)] = _RuleBook(params, day, claims)
    return book


def _dec(value: Any) -> Decimal:
    """Return a figure as an exact decimal of the number as written."""
    if isinstance(value, Decimal):
        return value
    if isinstance(value, int):
        return Decimal(value)
    return Decimal(repr(float(value)))


def _listed(value: Any) -> Any:
    return list(value) if isinstance(value, (list, tuple)) else value


# --- the engine --------------------------------------------------------------------------


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
    book = _book(params, day, claims)
    log = TraceLog()
    items = projects.items() if isinstance(projects, Mapping) else projects
    return [_decide(str(name), list(facts), book, log) for name, facts in items]


def _check(facts: list[ImpactFacts], project: str) -> None:
    if not facts:
        raise RulesInputError(f"project {project!r} has no impacts: give at least one")
    check_impacts(facts, project)


class _Impact:
    """Working state of one impact while its project is decided."""

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
        "acres",
        "exemptions",
        "ineligible",
        "replacement_by",
        "share_unknown",
        "lost",
        "potential",
    )

    def __init__(self, f: ImpactFacts) -> None:
        self.f = f
        self.iid = str(f.impact_id)
        parts = [_dec(a) for a in (f.sqft_setback, f.sqft_protection, f.sqft_outside) if a]
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
        self.acres: float | None = None
        self.exemptions: list[str] = []
        self.ineligible = False
        self.replacement_by: str | None = None
        self.share_unknown = False
        self.lost = False
        self.potential = Decimal(0)


def _decide(
    project: str,
    facts: list[ImpactFacts],
    book: _RuleBook,
    log: TraceLog,
    *,
    alternatives: bool = True,
) -> ProjectDecision:
    _check(facts, project)
    start = len(log)
    concerns: set[str] = set()  # the open readings (READINGS) this project's answer uses
    add = log.add
    work = [_Impact(f) for f in facts]

    # 1. impact kind -------------------------------------------------------------------
    for w in work:
        f = w.f
        kind = f.impact_kind
        inputs: dict[str, Any] = {
            "impact_kind": _KIND_VALUE[kind],
            "wetland_type": int(f.wetland_type),
            "area_sqft": float(w.area),
        }
        if f.public_waters_wetland:
            # not a "wetland" of § 103G.222, subd. 1(a) (§ 103G.005, subd. 19(b)): draining
            # needs replacement (§ 103G.221), filling or excavating a permit (§ 103G.245)
            cite = PUBLIC_WATERS_DRAINING if kind is ImpactKind.DRAIN else PUBLIC_WATERS_WORK
            add(
                project=project,
                impact_id=w.iid,
                rule_id=R.IMPACT_KIND,
                citation=cite,
                outcome=_O_REGULATED,
                value=inputs["area_sqft"],
                reason=(_r_kind_pww, (_KIND_VALUE[kind], w.area, cite)),
                verify=(_V_KIND,) if kind is ImpactKind.UNKNOWN else (),
                inputs=inputs,
            )
        elif kind is ImpactKind.EXCAVATE:
            listed = int(f.wetland_type) in book.excavation_types
            inputs["flooded"] = f.flooded
            inputs["water_regime_flooded"] = f.water_regime_flooded
            if listed and f.flooded is None and f.water_regime_flooded is False:
                # the NWI water regime is evidence, not a determination (the TEP determines,
                # § 103G.2242, subd. 2): decided as regulated, conditionally
                add(
                    project=project,
                    impact_id=w.iid,
                    rule_id=R.IMPACT_KIND,
                    citation=book.cite_excavation,
                    outcome=_O_CONDITIONAL,
                    value=float(w.area),
                    reason=f"Excavation in a type {int(f.wetland_type)} wetland whose NWI water "
                    "regime says it is not permanently or semipermanently flooded: that is "
                    "evidence, not a determination; the replacement sections apply to "
                    "excavation in "
                    "permanently and semipermanently flooded areas of types "
                    + ", ".join(str(t) for t in sorted(book.excavation_types))
                    + " (§ 103G.222, subd. 1(a)), so it was decided as covered unless the "
                    "Technical Evaluation Panel determines the area is not flooded.",
                    verify=(_V_REGIME,),
                    inputs=inputs,
                    parameters={"replacement.excavation_types": sorted(book.excavation_types)},
                )
            elif listed and f.flooded is not False:
                add(
                    project=project,
                    impact_id=w.iid,
                    rule_id=R.IMPACT_KIND,
                    citation=book.cite_excavation,
                    outcome=_O_REGULATED,
                    value=float(w.area),
                    reason=f"Excavation in a type {int(f.wetland_type)} wetland: the replacement "
                    "sections apply to excavation in permanently and semipermanently flooded "
                    "areas of types "
                    + ", ".join(str(t) for t in sorted(book.excavation_types))
                    + " (§ 103G.222, subd. 1(a)).",
                    verify=(_V_FLOODED,)
                    if f.flooded is None and f.water_regime_flooded is None
                    else (),
                    inputs=inputs,
                    parameters={"replacement.excavation_types": sorted(book.excavation_types)},
                )
            else:
                w.regulated = False
                w.counted = Decimal(0)
                w.outcome = ImpactOutcome.NOT_A_DRAIN_OR_FILL
                where = (
                    f"a type {int(f.wetland_type)} wetland"
                    if not listed
                    else "an area that is not permanently or semipermanently flooded"
                )
                add(
                    project=project,
                    impact_id=w.iid,
                    rule_id=R.IMPACT_KIND,
                    citation=book.cite_excavation,
                    outcome=_O_NOT_REGULATED,
                    value=0.0,
                    reason=f"Excavation alone in {where} is not a drain or fill: the replacement "
                    "sections cover excavation only in permanently and semipermanently "
                    "flooded areas of types "
                    + ", ".join(str(t) for t in sorted(book.excavation_types))
                    + " (§ 103G.222, subd. 1(a)).",
                    verify=(_V_SPOIL,),
                    inputs=inputs,
                    parameters={"replacement.excavation_types": sorted(book.excavation_types)},
                )
        elif kind is ImpactKind.DRAIN and f.partial:
            floor = book.partial_pct / PERCENT
            share = None if f.partial_share is None else _dec(f.partial_share)
            w.share_unknown = share is None or share < floor
            w.counted = w.area * (floor if w.share_unknown or share is None else share)
            inputs["partial"] = True
            inputs["partial_share"] = f.partial_share
            add(
                project=project,
                impact_id=w.iid,
                rule_id=R.IMPACT_KIND,
                citation=PARTIAL_DRAINAGE,
                outcome=_O_REGULATED,
                value=float(w.counted),
                reason=(
                    f"Partial drainage: the partly drained area of {fmt_sqft(float(w.area))} "
                    f"counts at least {fmt_number(book.partial_pct)} percent, "
                    f"{fmt_sqft(float(w.counted))} (Minn. R. 8420.0522, subp. 2; the totally "
                    "drained area counts whole)."
                    if w.share_unknown
                    else f"Partial drainage: the partly drained area of {fmt_sqft(float(w.area))} "
                    f"counts at the assessed share of {fmt_number(float(f.partial_share or 0))}, "
                    f"{fmt_sqft(float(w.counted))} (Minn. R. 8420.0522, subp. 2)."
                ),
                verify=(_V_PARTIAL, _V_SHARE) if w.share_unknown else (),
                inputs=inputs,
                parameters=book.partial_params,
            )
        else:
            what = {ImpactKind.FILL: "A fill", ImpactKind.DRAIN: "A drain"}.get(
                kind, "An impact of unknown kind"
            )
            add(
                project=project,
                impact_id=w.iid,
                rule_id=R.IMPACT_KIND,
                citation="Minn. Stat. § 103G.222, subd. 1(a)",
                outcome=_O_REGULATED,
                value=inputs["area_sqft"],
                reason=(_r_kind, (what, w.area)),
                verify=(_V_KIND,) if kind is ImpactKind.UNKNOWN else (),
                inputs=inputs,
            )

    # 2. calcareous fens first: § 103G.223 "may not be filled, drained, or otherwise
    # degraded, wholly or partially, by any activity", whatever the impact kind step said
    for w in work:
        f = w.f
        if not f.calcareous_fen:
            continue
        if not w.regulated:  # an excavation: it degrades the fen all the same
            w.regulated = True
            w.counted = w.area
        w.ineligible = True
        w.outcome = ImpactOutcome.PROHIBITED
        add(
            project=project,
            impact_id=w.iid,
            rule_id=R.CALCAREOUS_FEN,
            citation=CALCAREOUS_FENS,
            outcome=_O_PROHIBITED,
            value=float(w.counted),
            reason=f"A calcareous fen may not be filled, drained or otherwise degraded, wholly or "
            f"partially, by any activity (a {_KIND_VALUE[f.impact_kind]} here), unless the "
            "commissioner decides under an approved management plan (§ 103G.223); no "
            "exemption applies to it (Minn. R. 8420.0420, subp. 1).",
            verify=(_V_FEN,),
            inputs={"calcareous_fen": True, "impact_kind": _KIND_VALUE[f.impact_kind]},
        )

    # 3. public waters wetlands; banked wetlands, wetlands used for credit ------------
    for w in work:
        f = w.f
        if not w.regulated:
            continue
        if f.public_waters_wetland:
            w.in_scope = False
            if f.pw_inventory_id:
                cites = [PUBLIC_WATERS_INVENTORY, "§ 103G.005, subd. 19(b)"]
                what = f"Wetland {f.pw_inventory_id!r} of the DNR public waters inventory"
            else:  # the size test of subd. 15a, the fallback
                cites = [OUTSIDE_WCA + ", 15a"]
                what = "By its type and size, the wetland"
            if f.impact_kind is ImpactKind.DRAIN:
                cites.append("§ 103G.221")
                work_words = "it may not be drained without replacement (§ 103G.221)"
            else:
                cites.append("§ 103G.245, subd. 1(2), 7")
                work_words = (
                    "filling or excavating it changes the cross section of public waters and "
                    "needs a DNR public-waters-work permit (§ 103G.245, subd. 1(2)), issued "
                    "with provisions to compensate for the change (subd. 7)"
                )
            add(
                project=project,
                impact_id=w.iid,
                rule_id=R.PUBLIC_WATERS_WETLAND,
                citation="; ".join(
                    c.replace("Minn. Stat. ", "") if i else c for i, c in enumerate(cites)
                ),
                outcome=_O_REQUIRED,
                value=float(w.counted),
                reason=f'{what} is a public waters wetland: not a "wetland" for regulation under '
                "the chapter (§ 103G.005, subd. 19(b)), so no de minimis amount applies; "
                f"{work_words}; it is replaced at the ratios of § 103G.222, subd. 1(f), (g) "
                '"for a wetland or public waters wetland".',
                verify=(_V_PWW_WAIVER,) if f.pw_inventory_id else (_V_PWW_INVENTORY, _V_PWW_WAIVER),
                inputs={
                    "public_waters_wetland": True,
                    "pw_inventory_id": f.pw_inventory_id,
                    "wetland_acres": f.wetland_acres,
                },
            )
            continue
        if f.below_ohwl and f.impact_kind is not ImpactKind.DRAIN:
            add(
                project=project,
                impact_id=w.iid,
                rule_id=R.PUBLIC_WATERS_WORK,
                citation=PUBLIC_WATERS_WORK,
                outcome=_O_REQUIRED,
                value=float(w.counted),
                reason="The impact lies on or waterward of the ordinary high water level of a "
                "public water: filling or excavating there changes the cross section of public "
                "waters and needs a DNR public-waters-work permit (§ 103G.245, subd. 1(2)) "
                "besides the WCA decision.",
                verify=(_V_OHWL,),
                inputs={"below_ohwl": True, "impact_kind": _KIND_VALUE[f.impact_kind]},
            )
        if f.banked or f.used_for_replacement_credit:
            w.ineligible = True
            what = (
                "deposited in the wetland bank"
                if f.banked
                else "already used for replacement credit"
            )
            add(
                project=project,
                impact_id=w.iid,
                rule_id=R.EXEMPTION_STANDARDS,
                citation=EXEMPTION_STANDARDS,
                outcome=_O_NOT_EXEMPT,
                value=None,
                reason=f"The wetland is {what}: exemptions do not apply to it (Minn. R. 8420.0420, "
                "subp. 1).",
                verify=(),
                inputs={"banked": f.banked, "used_for_credit": f.used_for_replacement_credit},
            )

    # 4. de minimis ----------------------------------------------------------------------
    scope = [w for w in work if w.regulated and w.in_scope]
    totals_out: list[DeMinimisTotal] = []
    dm_outcome = Outcome.NOT_APPLIED
    conditional_reason = ""
    if scope:
        dm_outcome, conditional_reason, totals_out = _de_minimis(
            project, scope, book, log, concerns=concerns
        )

    # the headline of each impact in scope
    for w in scope:
        if w.outcome is ImpactOutcome.PROHIBITED:
            w.dm = Outcome.NOT_EXEMPT
            continue
        if w.lost:  # subd. 9(f): this landowner's portion only
            w.outcome, w.dm = ImpactOutcome.REPLACEMENT_REQUIRED, Outcome.NOT_EXEMPT
        elif dm_outcome is Outcome.EXEMPT:
            w.outcome, w.dm = ImpactOutcome.DE_MINIMIS_EXEMPT, Outcome.EXEMPT
        elif dm_outcome is Outcome.CONDITIONAL:
            w.outcome, w.dm = ImpactOutcome.DE_MINIMIS_CONDITIONAL, Outcome.CONDITIONAL
        else:
            w.outcome, w.dm = ImpactOutcome.REPLACEMENT_REQUIRED, Outcome.NOT_EXEMPT
        allow = None if w.allow is None else float(w.allow)
        if w.dm is Outcome.EXEMPT:
            reason: Any = (_r_exempt, (w.iid,))
            verify: tuple[str, ...] = (_V_CONDITIONS,)
        elif w.dm is Outcome.CONDITIONAL:
            reason = (_r_conditional, (w.iid, conditional_reason))
            verify = (_V_CONDITIONS,)
        else:
            reason = (_r_lost if w.lost else _r_replace, (w.iid, w.counted))
            verify = ()
        inputs_dm: dict[str, Any] = {"counted_sqft": float(w.counted), "pool": w.pool}
        if _route(w) == ROUTE_BOTH:  # the permit is part of the headline, not a verify line
            reason = (_r_with_permit, (reason,))
            inputs_dm["route"] = ROUTE_BOTH
        add(
            project=project,
            impact_id=w.iid,
            rule_id=R.DE_MINIMIS_IMPACT,
            citation=SUBD9 if w.dm is not Outcome.NOT_EXEMPT else f"{SUBD9}; {WHOLE_PROJECT}",
            outcome=_OUTCOME_VALUE[w.dm],
            value=allow,
            reason=reason,
            verify=verify,
            inputs=inputs_dm,
        )

    # 5. other exemptions (rules/exempt): every one tried, one carries the project ------
    project_sqft = sum((w.counted for w in work if w.regulated), Decimal(0))
    # § 103G.005, subd. 19(b): "for the purposes of regulation under this chapter, the term
    # wetlands does not include public waters wetlands": the WCA thresholds that count
    # "square feet of wetland" (public comment, sequencing) count only the WCA wetland area
    wca_sqft = sum(
        (w.counted for w in work if w.regulated and not w.f.public_waters_wetland), Decimal(0)
    )
    wca = [w for w in work if w.regulated and not w.f.public_waters_wetland]
    step5 = decide_other_exemptions(
        project,
        # a partial drain counted at the floor share: its area is not known (None)
        [(w.iid, w.f, None if w.share_unknown else float(w.counted)) for w in wca],
        de_minimis=dm_outcome,
        claims=book.claims.exemptions,
        params=book.params,
        day=book.day,
        log=log,
        wca_sqft=float(wca_sqft),
    )
    for w in wca:
        answer = step5.of(w.iid)
        if answer.outcome is not None:
            w.outcome = answer.outcome
        w.exemptions = list(answer.exemptions)
        w.replacement_by = answer.replacement_by

    # 6. replacement ---------------------------------------------------------------------
    for w in work:
        if not w.regulated or w.outcome not in (ImpactOutcome.REPLACEMENT_REQUIRED,):
            continue
        f = w.f
        land = (f.land_use or "").strip().lower() or None
        agricultural = land in _AGRICULTURAL
        ratio, cite, why, verify, used = book.ratio(f.pct_class, agricultural)
        if land is None:
            verify = (*verify, _V_LAND_USE)
        w.ratio = ratio
        add(
            project=project,
            impact_id=w.iid,
            rule_id=R.REPLACEMENT_RATIO,
            citation=cite,
            outcome=_O_REQUIRED,
            value=ratio,
            reason=why,
            verify=verify,
            inputs={"pct_class": _PCT_VALUE[f.pct_class], "land_use": land},
            parameters=used,
        )
        acres = w.counted / book.sqft_per_acre * _dec(ratio)
        w.acres = float(acres)
        add(
            project=project,
            impact_id=w.iid,
            rule_id=R.REPLACEMENT_CREDITS,
            citation=f"{cite}; {WHOLE_PROJECT}",
            outcome=_O_REQUIRED,
            value=w.acres,
            reason=(_r_credits, (w.counted, book.sqft_per_acre, ratio, w.acres)),
            verify=(),
            inputs={"counted_sqft": float(w.counted), "ratio": ratio},
        )

    # 7. procedure -------------------------------------------------------------------------
    # a WCA replacement plan (§ 103G.2242); a public waters wetland is replaced under the
    # public waters work permit (§ 103G.245, subd. 7)
    needs_plan = any(w.acres for w in work if not w.f.public_waters_wetland)
    comment = sequencing = sequencing_alt = None
    regulated_sqft = float(wca_sqft)
    if needs_plan:
        passes = _passes(book.comment_comparison, wca_sqft, book.comment_threshold)
        cite, verify, used, outcome_value = book.procedure(
            "public_comment", passes, regulated_sqft, None
        )
        comment = outcome_value
        add(
            project=project,
            impact_id="",
            rule_id=R.PROCEDURE_PUBLIC_COMMENT,
            citation=cite,
            outcome=outcome_value,
            value=regulated_sqft,
            reason=(_r_public_comment, (regulated_sqft, book.params, book.day)),
            verify=verify,
            inputs={"total_sqft": regulated_sqft},
            parameters=used,
        )
        applicable = _applicable_a_amount(scope, book, concerns)
        if applicable is not None:
            excess = wca_sqft - applicable.exact
            passes = _passes(book.sequencing_comparison, excess, book.sequencing_allowance)
            cite, verify, used, outcome_value = book.procedure(
                "sequencing", passes, regulated_sqft, float(applicable.sqft)
            )
            sequencing = outcome_value
            if "sequencing_reading" in concerns:  # the other reading's answer, directly
                other = next(
                    c for c in READINGS["sequencing_reading"] if c != book.claims.sequencing_reading
                )
                alt_entry = _applicable_a_amount(scope, book, set(), reading=other)
                if alt_entry is not None:
                    alt_pass = _passes(
                        book.sequencing_comparison,
                        wca_sqft - alt_entry.exact,
                        book.sequencing_allowance,
                    )
                    *_, sequencing_alt = book.procedure(
                        "sequencing", alt_pass, regulated_sqft, float(alt_entry.sqft)
                    )
            add(
                project=project,
                impact_id="",
                rule_id=R.PROCEDURE_SEQUENCING,
                citation=cite,
                outcome=outcome_value,
                value=regulated_sqft,
                reason=(
                    _r_sequencing,
                    (regulated_sqft, float(applicable.sqft), book.params, book.day),
                ),
                verify=verify,
                inputs={
                    "total_sqft": regulated_sqft,
                    "applicable_amount_sqft": applicable.sqft,
                    "applicable_amount_key": applicable.key,
                },
                parameters=used,
            )

    # the project ---------------------------------------------------------------------------
    outcomes = {w.outcome for w in work}
    if ImpactOutcome.PROHIBITED in outcomes:
        outcome = ProjectOutcome.PROHIBITED
    elif ImpactOutcome.REPLACEMENT_REQUIRED in outcomes:
        outcome = ProjectOutcome.REPLACEMENT_REQUIRED
    elif ImpactOutcome.EXEMPT_CONDITIONAL in outcomes:
        outcome = ProjectOutcome.EXEMPT_CONDITIONAL
    elif ImpactOutcome.EXEMPT in outcomes:
        outcome = ProjectOutcome.EXEMPT
    elif ImpactOutcome.DE_MINIMIS_CONDITIONAL in outcomes:
        outcome = ProjectOutcome.DE_MINIMIS_CONDITIONAL
    elif ImpactOutcome.DE_MINIMIS_EXEMPT in outcomes:
        outcome = ProjectOutcome.DE_MINIMIS_EXEMPT
    else:
        outcome = ProjectOutcome.NO_DRAIN_OR_FILL
    total_area = sum((w.area for w in work), Decimal(0))
    exempt = sum(
        (w.counted for w in work if w.outcome in _EXEMPT_OUTCOMES),
        Decimal(0),
    )
    totals: dict[str, Any] = {
        "total_sqft": float(total_area),
        "counted_sqft": float(project_sqft),
        "wca_sqft": regulated_sqft,
        "exempt_sqft": float(exempt),
        "public_waters_sqft": float(
            sum((w.counted for w in work if w.regulated and w.f.public_waters_wetland), Decimal(0))
        ),
        "not_regulated_sqft": float(sum((w.area for w in work if not w.regulated), Decimal(0))),
        "replace_acres": float(sum((_dec(w.acres) for w in work if w.acres), Decimal(0))),
        "de_minimis": dm_outcome.value,
        "public_waters_permit": any(_route(w) != ROUTE_WCA for w in work),
        "public_comment": comment,
        "sequencing_on_site": sequencing,
    }
    decisions = tuple(
        ImpactDecision(
            impact_id=w.f.impact_id,
            outcome=w.outcome,
            area_sqft=float(w.area),
            counted_sqft=float(w.counted),
            de_minimis=w.dm,
            allowance_sqft=None if w.allow is None else float(w.allow),
            ratio=w.ratio,
            replace_acres=w.acres,
            exemptions=tuple(w.exemptions),
            route=_route(w),
            replacement_by=w.replacement_by,
        )
        for w in work
    )
    if alternatives and concerns:
        # the most a looser reading could hold exempt: per type group (or the one (c)
        # total), the largest amount any of its impacts could be given
        best: dict[str, Decimal] = {}
        for w in scope:
            g = "c" if w.pool == "c" else book.group_of[(int(w.f.wetland_type), w.f.cedar_tamarack)]
            best[g] = max(best.get(g, Decimal(0)), w.potential)
        blocked = book.claims.other_exemption_claimed or any(w.ineligible for w in scope)
        within_reach = not blocked and sum((w.counted for w in scope), Decimal(0)) <= sum(
            best.values(), Decimal(0)
        )
        totals["alternatives"] = _alternatives(
            project,
            facts,
            book,
            log,
            concerns,
            outcome,
            totals,
            dm_outcome,
            within_reach,
            sequencing_alt,
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


_READING_WORDS = {
    "clause_reading": (
        "§ 103G.2241, subd. 9(e)",
        '"The amounts listed in paragraphs (a), (b), and (c) may not be combined on a '
        'project" names paragraphs, not the clauses of one paragraph',
    ),
    "no_amount_reading": (
        "§ 103G.2241, subd. 9(a)(2)-(3), (d)(2), (e)",
        'an impact whose type has no amount in its own zone ("except within the 11-county '
        'metropolitan area"; (d)(2) lists types 1, 2 and 6) lies in a project held to another '
        "zone's paragraph",
    ),
    "sequencing_reading": (
        "§ 103G.222, subd. 1(b), last sentence",
        '"the applicable amount in section 103G.2241, subdivision 9, paragraph (a)" of a '
        "project of several wetland types",
    ),
    "setback_increase_reading": (
        "§ 103G.2241, subd. 9(c)",
        'the amount "may be increased to 100 square feet if permanent water runoff retention '
        'or infiltration measures are established in proximity": not every setback impact '
        "has the fact",
    ),
    "excavation_reading": (
        "§ 103G.2241, subd. 9(a)-(d); § 103G.222, subd. 1(a)",
        'the de minimis amounts are for "draining or filling"; an excavation is under the '
        "replacement sections by § 103G.222, subd. 1(a)",
    ),
}


def _alternatives(
    project: str,
    facts: list[ImpactFacts],
    book: _RuleBook,
    log: TraceLog,
    concerns: set[str],
    outcome: ProjectOutcome,
    totals: Mapping[str, Any],
    dm_outcome: Outcome,
    within_reach: bool,
    sequencing_alt: str | None,
) -> dict[str, dict[str, Any]]:
    """Write a ``reading.<name>`` step for each open reading the project's answer used.

    The project is decided again under the other reading (into a scratch trace) when that
    can change the answer; when its outcome or amounts differ they are shown beside the
    default's. The readings of subd. 9 change only the de minimis answer: a looser reading
    cannot help a project already exempt, one held out by a fen or another exemption, or one
    whose area is beyond every amount it could be given (``within_reach``); a stricter one
    cannot change a project that is not exempt. The sequencing reading changes only the
    sequencing answer.
    """
    out: dict[str, dict[str, Any]] = {}
    claims = book.claims
    exempt = dm_outcome in (Outcome.EXEMPT, Outcome.CONDITIONAL)
    for name in sorted(concerns):
        chosen = getattr(claims, name)
        other = next(c for c in READINGS[name] if c != chosen)
        default = READINGS[name][0]
        looser = chosen == default
        if name == "sequencing_reading":  # decided beside the default's, in the same run
            can_differ = False
            differs_seq = sequencing_alt != totals["sequencing_on_site"]
        elif looser:
            can_differ = within_reach and dm_outcome is not Outcome.EXEMPT
        else:
            can_differ = exempt
        alt_outcome = outcome
        alt_acres = totals["replace_acres"]
        alt_seq = totals["sequencing_on_site"]
        differs = False
        if name == "sequencing_reading":
            alt_seq, differs = sequencing_alt, differs_seq
        if can_differ:
            changed: dict[str, Any] = {name: other}  # one reading changed
            alt_claims = replace(claims, **changed)
            alt_book = _book(book.params, book.day, alt_claims)
            alt = _decide(project, facts, alt_book, TraceLog(), alternatives=False)
            keys = ("replace_acres", "exempt_sqft", "sequencing_on_site", "de_minimis")
            differs = alt.outcome is not outcome or any(alt.totals[k] != totals[k] for k in keys)
            alt_outcome = alt.outcome
            alt_acres = alt.totals["replace_acres"]
            alt_seq = alt.totals["sequencing_on_site"]
        cite, words = _READING_WORDS[name]
        reason = (
            f"Open reading of {cite}: {words}. This answer reads it as {chosen!r}"
            + (" (the default)" if chosen == default else f" (the default is {default!r})")
            + (
                f"; under {other!r} the project would be {alt_outcome.value} (replacement "
                f"{fmt_number(alt_acres)} acres instead of "
                f"{fmt_number(totals['replace_acres'])}; on-site sequencing "
                f"{alt_seq} instead of {totals['sequencing_on_site']})."
                if differs
                else f"; under {other!r} the answer is the same."
            )
        )
        entry = {
            "reading": chosen,
            "alternative": other,
            "differs": differs,
            "alternative_outcome": alt_outcome.value,
            "alternative_replace_acres": alt_acres,
            "alternative_sequencing_on_site": alt_seq,
        }
        out[name] = entry
        log.add(
            project=project,
            impact_id="",
            rule_id=R.READING_RULES[name],
            citation="Minn. Stat. " + cite,
            outcome=_O_CLASSIFIED,
            value=alt_acres if differs else None,
            reason=reason,
            verify=(
                f"Which reading of {cite} the local government unit applies "
                f"(Claims.{name}); the alternative's result is shown beside this one.",
            )
            if differs
            else (),
            inputs=entry,
        )
    return out


def _depends_on_share(project: str, scope: list[_Impact], book: _RuleBook) -> bool:
    """Whether the de minimis answer changes when each unassessed partial drain counts whole.

    Minn. R. 8420.0522, subp. 2 counts "at least 50 percent" of a partly drained area "as
    determined by an assessment acceptable to the technical evaluation panel": without the
    assessment the floor is counted, and an exemption that holds only at the floor is
    conditional on the assessment.
    """
    probe = []
    for w in scope:
        c = _Impact(w.f)
        c.counted = w.area if w.share_unknown else w.counted
        c.regulated, c.in_scope, c.ineligible = w.regulated, w.in_scope, w.ineligible
        probe.append(c)
    outcome, _, _ = _de_minimis(project, probe, book, TraceLog(), probing=True)
    if outcome not in (Outcome.EXEMPT, Outcome.CONDITIONAL):
        return True
    return any(c.lost for c, w in zip(probe, scope, strict=True) if w.share_unknown)


def _de_minimis(
    project: str,
    scope: list[_Impact],
    book: _RuleBook,
    log: TraceLog,
    *,
    probing: bool = False,
    concerns: set[str] | None = None,
) -> tuple[Outcome, str, list[DeMinimisTotal]]:
    """Decide subd. 9 for the impacts in scope; write the steps; return the outcome."""
    add = log.add
    claims = book.claims
    table = book.table
    concerns = concerns if concerns is not None else set()
    # Subd. 9(e): one paragraph for the project, the most restrictive it touches.
    touched = set()
    for w in scope:
        f = w.f
        if f.sqft_setback:
            touched.add("c")
        if f.sqft_protection:
            touched.add("b")
        if f.sqft_outside:
            touched.add("a")
    touched = touched or {"a"}
    family = next(fam for fam in _FAMILY_ORDER if fam in touched)
    zone = _FAMILY_ZONE[family]
    if len(touched) > 1:
        used = ", ".join(f"({p})" for p in sorted(touched))
        add(
            project=project,
            impact_id="",
            rule_id=R.DE_MINIMIS_PARAGRAPH,
            citation=f"{SUBD9}(e)",
            outcome=_O_CLASSIFIED,
            value=None,
            reason=f'The project drains or fills wetland under paragraphs {used} of subd. 9; "the '
            'amounts listed in paragraphs (a), (b), and (c) may not be combined on a project" '
            f"(subd. 9(e)), so every impact of the project, of every type, is held to the "
            f"paragraph ({family}) amounts of the most restrictive zone it touches, "
            f"{zone_words(zone)}.",
            verify=(),
            inputs={"paragraphs": sorted(touched), "governing": family},
        )
    local = book.local
    for w in scope:
        f = w.f
        if zone is ShorelandZone.BUILDING_SETBACK:
            increased = bool(f.runoff_retention) or claims.setback_increase
        elif zone is ShorelandZone.PROTECTION:
            increased = bool(f.isolated or f.runoff_retention) or claims.shoreland_increase
        else:
            increased = False
        t, cedar = int(f.wetland_type), f.cedar_tamarack
        entry = table.lookup(t, cedar, zone, f.pct_class, f.metro, increased)
        # the largest amount any reading could give it (bounds the readings' alternatives)
        w.potential = Decimal(0) if entry is None else entry.exact
        where = zone
        if (
            entry is not None
            and zone is not ShorelandZone.OUTSIDE
            and f.sqft_outside
            and table.lookup(t, cedar, ShorelandZone.OUTSIDE, f.pct_class, f.metro, False) is None
        ):
            # open reading: no amount in its own zone, on a project held to another paragraph
            concerns.add("no_amount_reading")
            if claims.no_amount_reading == "own_zone":
                entry, where = None, ShorelandZone.OUTSIDE
        excavation = f.impact_kind is ImpactKind.EXCAVATE and entry is not None
        if excavation:
            concerns.add("excavation_reading")
            if claims.excavation_reading == "no_amount":
                entry = None
        w.entry = entry
        kind = f"type {t}" + (" white cedar and tamarack" if cedar else "")
        if entry is None:
            w.pool = "no_amount"
            w.allow = Decimal(0)
            if excavation:
                cite_none = f"{SUBD9}(a)-(d); Minn. Stat. § 103G.222, subd. 1(a)"
                why_none = (
                    f"An excavation in a {kind} wetland has no de minimis amount under the "
                    "excavation_reading 'no_amount': subd. 9(a)-(d) give amounts for "
                    '"draining or filling", and § 103G.222, subd. 1(a) brings the excavation '
                    "under the replacement sections."
                )
            else:
                cite_none = f"{SUBD9}(a)(3), (d)(2)"
                why_none = (
                    f"A {kind} wetland {zone_words(where)} in a less than 50 percent area within "
                    "the 11-county metropolitan area has no de minimis amount: subd. 9(a)(3) "
                    'gives its amount "except within the 11-county metropolitan area" and '
                    "(d)(2) lists types 1, 2 and 6 only"
                    + (
                        "; it keeps no amount though the project is held to paragraph "
                        f"({family}) (no_amount_reading 'own_zone')."
                        if where is not zone
                        else "."
                    )
                )
            add(
                project=project,
                impact_id=w.iid,
                rule_id=R.DE_MINIMIS_AMOUNT,
                citation=cite_none,
                outcome=_O_NOT_ELIGIBLE,
                value=0.0,
                reason=why_none,
                verify=(),
                inputs={
                    "wetland_type": t,
                    "cedar_tamarack": cedar,
                    "zone": _ZONE_VALUE[zone],
                    "pct_class": _PCT_VALUE[f.pct_class],
                    "metro": f.metro,
                    "impact_kind": _KIND_VALUE[f.impact_kind],
                },
            )
            continue
        allow = entry.exact
        cite = entry.citation
        note = ""
        verify: tuple[str, ...] = ()
        if entry.increases is not None:
            note = (
                " (the increase of the clause, claimed because "
                + ("the wetland is isolated or " if entry.paragraph == "b" else "")
                + "permanent runoff retention or infiltration measures are in proximity; "
                "the shoreland management authority must approve them)"
            )
            verify = (
                f"The condition of the {cite.replace('Minn. Stat. § 103G.2241, ', '')} "
                f"increase holds for wetland {f.wetland_id or w.iid!r}; the amount is "
                '"up to" the increase: a smaller approved amount is entered as '
                "local_limit_sqft.",
            )
        if zone is ShorelandZone.BUILDING_SETBACK:
            verify = (*verify, _V_SETBACK)
        if local is not None and local < allow:
            allow = local
            cite = f"{cite}; {SUBD9}(i)"
            note += f"; a more restrictive local standard of {fmt_sqft(float(local))} applies"
        w.allow = allow
        group = book.group_of[(t, cedar)]
        if family == "c":
            w.pool = "c"
        elif claims.clause_reading == ONE_CLAUSE:
            w.pool = family
        else:
            w.pool = f"{family}:{group}"
        add(
            project=project,
            impact_id=w.iid,
            rule_id=R.DE_MINIMIS_AMOUNT,
            citation=cite,
            outcome=_O_ELIGIBLE,
            value=float(allow),
            reason=(_r_amount, (kind, allow, entry.citation, note)),
            verify=verify,
            inputs={
                "wetland_type": t,
                "cedar_tamarack": cedar,
                "zone": _ZONE_VALUE[zone],
                "pct_class": _PCT_VALUE[f.pct_class],
                "metro": f.metro,
                "increased": increased,
            },
            parameters={entry.key: entry.sqft},
        )

    # the totals
    pools: dict[str, list[_Impact]] = {}
    for w in scope:
        pools.setdefault(w.pool, []).append(w)
    all_within = True
    out: list[DeMinimisTotal] = []
    clause_groups = {
        book.group_of[(int(w.f.wetland_type), w.f.cedar_tamarack)]
        for w in scope
        if w.entry is not None
    }
    if family != "c" and len(clause_groups) > 1:
        concerns.add("clause_reading")
        held = (
            "under the one_clause reading (the default) the whole project is held to the "
            "smallest clause amount it uses"
            if claims.clause_reading == ONE_CLAUSE
            else "under the per_clause reading each clause's total is held to its own amount"
        )
        add(
            project=project,
            impact_id="",
            rule_id=R.DE_MINIMIS_CLAUSES,
            citation=f"{SUBD9}({family})",
            outcome=_O_CLASSIFIED,
            value=None,
            reason=f"The project uses several clauses of paragraph ({family}); subd. 9(e) forbids "
            "combining paragraphs (a), (b) and (c) and does not name the clauses of one "
            f"paragraph: {held}.",
            verify=(),
            inputs={"clause_reading": claims.clause_reading},
        )
    setback = pools.get("c", [])
    if len({w.entry.increases is not None for w in setback if w.entry is not None}) > 1:
        concerns.add("setback_increase_reading")
    for name, members in pools.items():
        total = sum((w.counted for w in members), Decimal(0))
        allowance = (
            max(_allowance(w) for w in members)
            if name == "c" and claims.setback_increase_reading == "any_impact"
            else min(_allowance(w) for w in members)
        )
        within = name != "no_amount" and total <= allowance
        all_within = all_within and within
        cites = tuple(dict.fromkeys(w.entry.citation for w in members if w.entry is not None))
        ids = tuple(w.f.impact_id for w in members)
        out.append(DeMinimisTotal(name, ids, float(total), float(allowance), cites, within))
        several = len({w.allow for w in members}) > 1
        reason: Any = (_r_total, (name, total, cites, within, allowance, several))
        add(
            project=project,
            impact_id="",
            rule_id=R.DE_MINIMIS_TOTAL,
            citation="; ".join(cites) or SUBD9,
            outcome=_O_EXEMPT if within else _O_NOT_EXEMPT,
            value=float(total),
            reason=reason,
            verify=(),
            inputs={
                "total": name,
                "impact_ids": [str(i) for i in ids],
                "allowance_sqft": float(allowance),
            },
        )

    # Subd. 9(f): per landowner's portion of a wetland
    conditional: list[str] = []
    cumulative_ok = True
    if all_within:
        # one landowner's portion of one wetland; without a wetland id, the impacts of one
        # landowner in one de minimis total are taken as one wetland (docs/decisions.md)
        owners: dict[tuple[str, str], list[_Impact]] = {}
        for w in scope:
            owners.setdefault((w.f.owner or "", w.f.wetland_id or f"\0{w.pool}"), []).append(w)
        for (owner, wetland), members in owners.items():
            ok, cond = _cumulative(project, owner, wetland, members, book, log)
            if not ok:  # "no longer applies to a landowner's portion": that portion only
                for w in members:
                    w.lost = True
            if cond:
                conditional.append(cond)
    lost = [w for w in scope if w.lost]
    cumulative_ok = len(lost) < len(scope)

    ineligible = [w for w in scope if w.ineligible]
    unassessed = [w for w in scope if w.share_unknown]
    if (
        not probing
        and unassessed
        and all_within
        and cumulative_ok
        and not any(w.lost for w in unassessed)
        and not ineligible
        and not claims.other_exemption_claimed
        and _depends_on_share(project, scope, book)
    ):
        conditional.append(
            "the assessed share of the partly drained area of impact(s) "
            + ", ".join(repr(w.iid) for w in unassessed)
            + " keeps the project within its amounts: it was counted at the "
            f"{fmt_number(book.partial_pct)} percent minimum, and counted whole it is not "
            "de minimis (Minn. R. 8420.0522, subp. 2; column partial_share)."
        )
    if claims.other_exemption_claimed:
        outcome = Outcome.NOT_EXEMPT
        reason = (
            "Another exemption of § 103G.2241 is relied on for this project, and the de "
            "minimis exemption may not be combined with it (subd. 9(g); Minn. R. "
            "8420.0420, subp. 1): the de minimis exemption is not applied."
        )
    elif not all_within:
        outcome = Outcome.NOT_EXEMPT
        reason = (
            "The project exceeds the amount allowed: it is not de minimis and the entire "
            "amount of every impact must be replaced (Minn. R. 8420.0420, subp. 1 A)."
        )
    elif not cumulative_ok:
        outcome = Outcome.NOT_EXEMPT
        reason = (
            "The cumulative limit of subd. 9(f) is passed for every landowner's portion of "
            "the project's wetlands: the exemption no longer applies and the project's impacts "
            "must be replaced."
        )
    elif ineligible:
        outcome = Outcome.NOT_EXEMPT
        reason = (
            "The project includes impacts to which no exemption applies (calcareous fen, "
            "banked wetland or wetland used for credit, Minn. R. 8420.0420, subp. 1): the "
            "project is not exempt and its other impacts must be replaced."
        )
    elif conditional:
        outcome = Outcome.CONDITIONAL
        reason = "The project is de minimis only if: " + " ".join(conditional)
    else:
        outcome = Outcome.EXEMPT
        reason = "Every impact in scope is de minimis: the project needs no replacement plan."
    if lost and outcome in (Outcome.EXEMPT, Outcome.CONDITIONAL):
        reason = (
            "The cumulative limit of subd. 9(f) is passed for the landowner's portion of "
            f'impact(s) {", ".join(repr(w.iid) for w in lost)}: the exemption "no longer '
            "applies to a landowner's portion\", which must be replaced; it does not reach the "
            "other landowners' impacts. "
            + (
                reason.replace(
                    "Every impact in scope is", "Every other impact in scope is"
                ).replace(": the project needs no replacement plan", "")
            )
        )
    add(
        project=project,
        impact_id="",
        rule_id=R.DE_MINIMIS_PROJECT,
        citation=f"{SUBD9}; {WHOLE_PROJECT}" if outcome is Outcome.NOT_EXEMPT else SUBD9,
        outcome=outcome.value,
        value=None,
        reason=reason,
        verify=(_V_WHOLE_PROJECT, _V_DELINEATION, _V_DIVISION, _V_LOCAL)
        if book.local is None
        else (_V_WHOLE_PROJECT, _V_DELINEATION, _V_DIVISION),
        inputs={
            "other_exemption_claimed": claims.other_exemption_claimed,
            "clause_reading": claims.clause_reading,
        },
    )
    cond_text = ("only if " + " ".join(conditional)) if conditional else ""
    return outcome, cond_text, out


def _allowance(w: _Impact) -> Decimal:
    """Return the de minimis amount looked up for an impact in a de minimis total."""
    if w.allow is None:  # pragma: no cover - _de_minimis sets it for every impact in scope
        raise AssertionError(f"impact {w.iid!r}: its de minimis amount was not looked up")
    return w.allow


def _cumulative(
    project: str, owner: str, wetland: str, members: list[_Impact], book: _RuleBook, log: TraceLog
) -> tuple[bool, str]:
    """Subd. 9(f) for one landowner's portion of one wetland: (passes, condition text)."""
    claims = book.claims
    priors = [w.f.prior_sqft_since_1992 for w in members if w.f.prior_sqft_since_1992 is not None]
    prior_known = bool(priors) or claims.prior_sqft_since_1992 is not None
    prior = _dec(max(priors)) if priors else _dec(claims.prior_sqft_since_1992 or 0)
    owns_values = {w.f.owns_whole_wetland for w in members} - {None}
    owns = False if False in owns_values else True if owns_values else claims.owns_whole_wetland
    portions = [w.f.portion_sqft for w in members if w.f.portion_sqft is not None]
    portion = _dec(min(portions)) if portions else None
    sizes = [w.f.wetland_acres for w in members if w.f.wetland_acres is not None]
    if portion is None and owns is True and sizes:
        portion = _dec(min(sizes)) * book.sqft_per_acre  # the whole wetland is the portion
    total = sum((w.counted for w in members), Decimal(0))
    cumulative = prior + total
    applicable = min(_allowance(w) for w in members)
    limit_known = book.floor
    if portion is not None:
        limit_known = max(limit_known, portion * book.pct_portion / PERCENT)
    named = not wetland.startswith("\0")
    who = (f"landowner {owner!r}" if owner else "the landowner") + (
        f" on wetland {wetland!r}" if named else ""
    )
    verify: list[str] = []
    if not prior_known:
        headroom = max(limit_known, applicable if owns is not False else limit_known) - total
        verify.append(
            f"The area {who} has drained or filled since {book.since.isoformat()} was not "
            f"given (column prior_sqft_since_1992): the exemption holds only while it is at "
            f"most {fmt_sqft(float(max(headroom, Decimal(0))))} (subd. 9(f))."
        )
    if not named:
        verify.append(
            "No wetland id was given (column wetland_id): the impacts of one landowner in one "
            "de minimis total were taken as one wetland for subd. 9(f)."
        )
    inputs = {
        "owner": owner or None,
        "wetland_id": wetland if named else None,
        "prior_sqft_since_1992": float(prior) if prior_known else None,
        "owns_whole_wetland": owns,
        "portion_sqft": None if portion is None else float(portion),
        "cumulative_sqft": float(cumulative),
        "impact_ids": [w.iid for w in members],
    }
    cite = book.cite_cumulative
    ids = ", ".join(repr(w.iid) for w in members)

    def step(outcome: str, reason: str, checks: Sequence[str]) -> None:
        log.add(
            project=project,
            impact_id="",
            rule_id=R.DE_MINIMIS_CUMULATIVE,
            citation=cite,
            outcome=outcome,
            value=float(cumulative),
            reason=reason,
            verify=tuple(checks),
            inputs=inputs,
            parameters=book.cumulative_params,
        )

    if cumulative <= limit_known:
        step(
            _O_EXEMPT,
            f"Subd. 9(f): {who} has {fmt_sqft(float(cumulative))} drained or filled since "
            f"{book.since.isoformat()} (impacts {ids}), within "
            f"{fmt_sqft(float(limit_known))}, a limit that holds whoever owns the wetland.",
            verify,
        )
        return True, ""
    if cumulative <= applicable and owns is True:
        step(
            _O_EXEMPT,
            f"Subd. 9(f): {who} owns the entire wetland, so the limit is the applicable "
            f"amount, {fmt_sqft(float(applicable))}; {fmt_sqft(float(cumulative))} drained "
            "or filled is within it.",
            (*verify, f"{who[0].upper() + who[1:]} owns the entire wetland (subd. 9(f)(1))."),
        )
        return True, ""
    missing = []
    if cumulative <= applicable and owns is None:
        missing.append("the landowner owns the entire wetland")
    if portion is None:
        need = cumulative * PERCENT / book.pct_portion
        missing.append(
            f"the landowner's portion of the wetland is at least {fmt_sqft(float(need))} "
            f"({fmt_number(book.pct_portion)} percent of it is then "
            f"{fmt_sqft(float(cumulative))})"
        )
    if missing:
        condition = (
            f"{' or '.join(missing)} ({who}, impacts {ids}: {fmt_sqft(float(cumulative))} "
            f"drained or filled since {book.since.isoformat()}); otherwise the limit is "
            f"{fmt_sqft(float(limit_known))} and the exemption does not apply (subd. 9(f))."
        )
        step(
            _O_CONDITIONAL,
            f"Subd. 9(f): {who} is exempt only if {condition}",
            (
                *verify,
                "Who owns the wetland and the size of each landowner's portion "
                "(columns owner, owns_whole_wetland, portion_sqft).",
            ),
        )
        return True, condition
    step(
        _O_NOT_EXEMPT,
        f"Subd. 9(f): {who} has {fmt_sqft(float(cumulative))} drained or filled since "
        f"{book.since.isoformat()}, more than the greatest of the limits that apply "
        f"({fmt_sqft(float(max(limit_known, applicable) if owns else limit_known))}): "
        "the exemption no longer applies to this portion.",
        verify,
    )
    return False, ""


def _route(w: _Impact) -> str:
    """Return the permit route of an impact (§ 103G.245, subd. 1(2); subd. 19(b))."""
    if not w.regulated:
        return ROUTE_WCA
    if w.f.public_waters_wetland:
        return ROUTE_PUBLIC_WATERS
    if w.f.below_ohwl and w.f.impact_kind is not ImpactKind.DRAIN:
        return ROUTE_BOTH
    return ROUTE_WCA


def _passes(comparison: str | None, amount: Decimal, limit: Decimal) -> bool:
    test = LIMIT_TESTS.get(comparison or "")
    if test is None:
        raise RulesInputError(f"comparison {comparison!r} is not a limit comparison")
    return test(amount, limit)


def _r_public_comment(total: float, params: ParameterSet, day: dt.date) -> str:
    return " ".join(public_comment_required(total, params=params, as_of=day).reasons)


def _r_sequencing(total: float, applicable: float, params: ParameterSet, day: dt.date) -> str:
    return " ".join(
        sequencing_without_alternatives_analysis(
            total, applicable, params=params, as_of=day
        ).reasons
    )


def _short(citation: str) -> str:
    return citation.replace("Minn. Stat. § 103G.2241, ", "")


def _r_kind(what: str, area: Decimal) -> str:
    return (
        f"{what} of {fmt_sqft(float(area))}: wetlands must not be drained or filled "
        "unless replaced or exempt (§ 103G.222, subd. 1(a))."
    )


def _r_with_permit(reason: Any) -> str:
    text = reason if isinstance(reason, str) else reason[0](*reason[1])
    return (
        f"{text} The work lies below the ordinary high water level of a public water "
        "and also needs a DNR public-waters-work permit (§ 103G.245, subd. 1(2))."
    )


def _r_kind_pww(kind: str, area: Decimal, citation: str) -> str:
    return (
        f"A {kind} of {fmt_sqft(float(area))} in a public waters wetland: it is decided under "
        f"{citation.replace('Minn. Stat. ', '')}, not as a wetland of § 103G.222, subd. 1(a)."
    )


def _r_amount(kind: str, allow: Decimal, citation: str, note: str) -> str:
    return f"A {kind} wetland is held to {fmt_sqft(float(allow))} under {_short(citation)}{note}."


def _r_exempt(iid: str) -> str:
    return f"Impact {iid!r} is de minimis: no replacement plan is required."


def _r_conditional(iid: str, condition: str) -> str:
    return f"Impact {iid!r} is de minimis {condition}"


def _r_lost(iid: str, counted: Decimal) -> str:
    return (
        f"Impact {iid!r} is in a landowner's portion past the cumulative limit of subd. 9(f): "
        f'the exemption "no longer applies to a landowner\'s portion", so its '
        f"{fmt_sqft(float(counted))} must be replaced."
    )


def _r_replace(iid: str, counted: Decimal) -> str:
    return (
        f"Impact {iid!r} is not de minimis: the project is not exempt, so the whole "
        f"{fmt_sqft(float(counted))} must be replaced, not only the excess (Minn. R. "
        '8420.0420, subp. 1 A: "the entire amount of impact must be replaced").'
    )


def _r_credits(counted: Decimal, per_acre: Decimal, ratio: float, acres: float) -> str:
    return (
        f"{fmt_sqft(float(counted))} ({fmt_number(float(counted / per_acre))} acres) at a "
        f"ratio of {fmt_number(ratio)} requires {fmt_number(acres)} acres of replacement."
    )


def _r_total(
    name: str,
    total: Decimal,
    cites: tuple[str, ...],
    within: bool,
    allowance: Decimal,
    several: bool,
) -> str:
    if name == "no_amount":
        return (
            f"{fmt_sqft(float(total))} of the project lies where no paragraph of subd. 9 "
            "gives an amount, so the project is not de minimis."
        )
    relation = "within" if within else "over"
    smallest = " (the smallest of its impacts' amounts)" if several else ""
    return (
        f"Project total {fmt_sqft(float(total))} of {', '.join(_short(c) for c in cites)} "
        f"is {relation} the amount of {fmt_sqft(float(allowance))}{smallest}."
    )


def _applicable_a_amount(
    scope: list[_Impact], book: _RuleBook, concerns: set[str], *, reading: str | None = None
) -> AmountEntry | None:
    """Return "the applicable amount" of subd. 9(a) for on-site sequencing.

    § 103G.222, subd. 1(b), last sentence, measures the on-site sequencing allowance from
    "the applicable amount in section 103G.2241, subdivision 9, paragraph (a)". On a project
    of several types the text is open (``sequencing_reading``): the smallest of their
    amounts (default), or the amount of the type covering most of the project's area.
    ``None`` when the project mixes places of different classes, has no wetland in scope,
    or a type with no amount (left to the LGU).
    """
    places = {(w.f.pct_class, w.f.metro) for w in scope}
    if len(places) != 1:
        return None
    pct, metro = next(iter(places))
    by_type: dict[tuple[int, bool], Decimal] = {}
    for w in scope:
        key = (int(w.f.wetland_type), w.f.cedar_tamarack)
        by_type[key] = by_type.get(key, Decimal(0)) + w.counted
    lookup = book.table.lookup
    entries = {k: lookup(k[0], k[1], ShorelandZone.OUTSIDE, pct, metro, False) for k in by_type}
    known = {k: e for k, e in entries.items() if e is not None}
    if not known:
        return None
    if len({e.exact for e in known.values()}) > 1:
        concerns.add("sequencing_reading")
    if (reading or book.claims.sequencing_reading) == "smallest_amount":
        return min(known.values(), key=lambda e: e.exact)
    (t, cedar), _ = max(by_type.items(), key=lambda kv: kv[1])
    return entries[(t, cedar)]
