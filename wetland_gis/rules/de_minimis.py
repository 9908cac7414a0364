"""The de minimis exemption, Minn. Stat. § 103G.2241, subd. 9.

Two questions:

* :func:`de_minimis_allowance` — how many square feet of one wetland type, in one
  shoreland zone, in one percentage-area class, in or out of the 11-county metropolitan
  area, a project may drain or fill without a replacement plan, and which paragraph says so.
* whether each impact of a project, and the project, is exempt: the engine's subd. 9
  steps, :func:`de_minimis_steps` (the paragraph of 9(e), each impact's amount, the totals,
  9(f) per landowner's portion, 9(g)) and :func:`de_minimis_impact` (each impact's
  headline); :func:`wetland_gis.rules.views.de_minimis` is the view of that answer.

Which amount applies
--------------------
* Building setback zone, any type: (c), or the (c) increase.
* Shoreland wetland protection zone: types 1, 2, 6, 7 (b)(1), or the (b) increase in a
  greater than 80 percent area; types 3, 4, 5, 8 and white cedar/tamarack (b)(2).
* Outside the protection zone, types 3, 4, 5, 8 and white cedar/tamarack: (a)(4), in the
  metropolitan area too.
* Outside, types 1, 2, 6, 7 (not cedar): (a)(1) in a greater than 80 percent area (metro
  too); (a)(2) or, in the 11-county metropolitan area, (d)(1) in a 50 to 80 percent area;
  (a)(3) or, in the metropolitan area, (d)(2) in a less than 50 percent area. (d)(2) lists
  types 1, 2 and 6 only: type 7 has no amount there.

The amounts themselves are read from the parameter tree (``de_minimis.*``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from types import MappingProxyType
from typing import Any

from wetland_gis.decision import Decision
from wetland_gis.enums import (
    ImpactKind,
    ImpactOutcome,
    Outcome,
    PercentageArea,
    ShorelandZone,
    WetlandType,
)
from wetland_gis.parameters import ParameterSet
from wetland_gis.rules import registry as R
from wetland_gis.rules.amounts import (
    TYPES_1_2_6_7 as TYPES_1_2_6_7,
    TYPES_3_4_5_8_CEDAR,
    AmountEntry,
    amount_table,
    type_group,
)
from wetland_gis.rules.facts import (
    PERCENT,
    Trace,
    check_area,
    check_flag,
    fmt_number,
    fmt_sqft,
    percentage_class_of,
    wetland_type_of,
    zone_of,
    zone_words,
)
from wetland_gis.rules.kernel import (
    KIND_VALUE,
    LIMIT_REACHED,
    O_CLASSIFIED,
    O_CONDITIONAL,
    O_ELIGIBLE,
    O_EXEMPT,
    O_NOT_ELIGIBLE,
    O_NOT_EXEMPT,
    ONE_CLAUSE,
    OUTCOME_VALUE,
    PCT_VALUE,
    ROUTE_BOTH,
    ZONE_VALUE,
    Claims,
    DeMinimisTotal,
    Impact,
    RuleBook,
    dec,
)
from wetland_gis.rules.public_waters import route, with_permit_reason
from wetland_gis.rules.replacement import WHOLE_PROJECT
from wetland_gis.rules.spec import cite
from wetland_gis.rules.trace import Citation, TraceLog

#: Subd. 9(c) gives its amount for "wetland" of any type: one total for all types.
SETBACK_POOL = "setback_zone"
#: Impacts to which no paragraph gives an amount (type 7 in a metro less than 50 percent area).
NO_AMOUNT_POOL = "no_amount"

SUBD9 = cite("103G.2241", "9")
_STAT = cite("103G.2241") + ", "
_DE_MINIMIS = "de_minimis."


@dataclass(frozen=True)
class _Amount:
    """The de minimis amount for one type, zone and place, with how it was found."""

    sqft: float
    group: str
    zone: ShorelandZone
    has_amount: bool
    citations: tuple[str, ...]
    reasons: tuple[str, ...]
    verify: tuple[str, ...]
    parameters: Mapping[str, Any]


# --- the allowance of one type in one zone -----------------------------------------------


def _short(citation: str) -> str:
    """Return ``subd. 9(a)(1)`` from ``Minn. Stat. § 103G.2241, subd. 9(a)(1)``."""
    return citation.replace(_STAT, "")


def _label(wetland_type: WetlandType, cedar: bool) -> str:
    kind = "white cedar and tamarack " if cedar else ""
    return f"type {int(wetland_type)} {kind}wetland"


class _Record:
    """The citations, reasons, checks and parameters one allowance gathers, in order."""

    def __init__(self, trace: Trace) -> None:
        self.trace = trace
        self.used: dict[str, Any] = {}
        self.cites: list[str] = []
        self.reasons: list[str] = []
        self.verify: list[str] = []

    def get(self, key: str) -> Any:
        """Return de minimis parameter ``key``, recording it."""
        value = self.trace.value(_DE_MINIMIS + key)
        self.used[_DE_MINIMIS + key] = self.trace.used[_DE_MINIMIS + key]
        return value

    def cite(self, key: str) -> str:
        """Return the citation of de minimis parameter ``key``."""
        return self.trace.citation(_DE_MINIMIS + key)

    def amount(self, entry: AmountEntry) -> float:
        """Return the amount of a table entry, recording its parameter and citation."""
        self.used[entry.key] = self.trace.used[entry.key] = entry.sqft
        self.cites.append(entry.citation)
        return entry.sqft


_PLACE_WORDS = {
    PercentageArea.GREATER_THAN_80: " in a greater than 80 percent area",
    PercentageArea.FROM_50_TO_80: " in a 50 to 80 percent area",
    PercentageArea.LESS_THAN_50: " in a less than 50 percent area",
}


def _allowance(
    trace: Trace,
    wetland_type: WetlandType,
    zone: ShorelandZone,
    pct_class: PercentageArea,
    metro: bool,
    *,
    cedar: bool,
    shoreland_increase: bool,
    setback_increase: bool,
    local_limit: float | None,
) -> _Amount:
    rec = _Record(trace)
    group = type_group(wetland_type, cedar, trace.params, trace.day)
    rec.get("type_groups.types_1_2_6_7")
    rec.get("type_groups.types_3_4_5_8")
    label = _label(wetland_type, cedar)
    table = amount_table(trace.params, trace.day)
    increased = (
        setback_increase if zone is ShorelandZone.BUILDING_SETBACK else shoreland_increase
    ) and zone is not ShorelandZone.OUTSIDE
    base = table.lookup(int(wetland_type), cedar, zone, pct_class, metro, False)
    entry = table.lookup(int(wetland_type), cedar, zone, pct_class, metro, increased)
    amount: float = 0
    if entry is None:
        _no_amount_words(rec, label, zone)
    else:
        shown = base if base is not None else entry
        amount = _clause_words(rec, shown, label, zone, pct_class)
        if entry is not shown:
            amount = _increase_words(rec, entry)
        elif increased and zone is ShorelandZone.PROTECTION:
            rec.reasons.append(
                "The subd. 9(b) increase applies only to the clause (1) amount of types "
                "1, 2, 6 and 7, not to this wetland."
                if group == TYPES_3_4_5_8_CEDAR
                else "The subd. 9(b) increase is available only in a greater than 80 percent "
                "area; it is not applied here."
            )
        if zone is ShorelandZone.BUILDING_SETBACK:
            rec.verify.append(
                "The shoreland building setback zone is the one defined in the local shoreland "
                "management ordinance (subd. 9(c)), which may be larger than the state minimum."
            )
        if zone is ShorelandZone.OUTSIDE:
            _outside_words(rec, shown, wetland_type, pct_class, metro, cedar, group)
    amount = _local_standard(rec, amount, local_limit)
    return _Amount(
        sqft=float(amount),
        group=group,
        zone=zone,
        has_amount=entry is not None,
        citations=tuple(rec.cites),
        reasons=tuple(rec.reasons),
        verify=tuple(rec.verify),
        parameters=MappingProxyType(rec.used),
    )


def _no_amount_words(rec: _Record, label: str, zone: ShorelandZone) -> None:
    """Subd. 9(a)(3), (d)(2): the types with no amount in a metropolitan < 50 percent area."""
    listed = rec.get("type_groups.metro_less_than_50")
    rec.cites.append(rec.cite("type_groups.metro_less_than_50"))
    rec.cites.append(rec.cite("outside_zone.types_1_2_6_7_less_than_50"))
    types = ", ".join(str(t) for t in listed)
    rec.reasons.append(
        f"A {label} {zone_words(zone)} in a less than 50 percent area within the 11-county "
        f"metropolitan area has no de minimis amount: subd. 9(d)(2) lists types "
        f"{types} only, and (a)(3) excepts the metropolitan area."
    )


def _clause_words(
    rec: _Record, shown: AmountEntry, label: str, zone: ShorelandZone, pct_class: PercentageArea
) -> float:
    """Subd. 9(a)-(d): the clause's amount for the type, zone and place; return it."""
    amount = rec.amount(shown)
    place = "" if shown.zone is not ShorelandZone.OUTSIDE else _PLACE_WORDS[pct_class]
    if shown.paragraph == "d":
        place += " within the 11-county metropolitan area"
    any_type = " of wetland of any type" if shown.paragraph == "c" else ""
    rec.reasons.append(
        f"For a {label} {zone_words(zone)}{place}, {_short(shown.citation)} allows "
        f"{fmt_sqft(amount)}{any_type}."
    )
    return amount


def _increase_words(rec: _Record, entry: AmountEntry) -> float:
    """Subd. 9(b), (c): the increased amount, and what the increase needs; return it."""
    amount = rec.amount(entry)
    if entry.paragraph == "c":
        rec.reasons.append(
            f"Increased to {fmt_sqft(amount)} under subd. 9(c) because permanent water "
            "runoff retention or infiltration measures are established in proximity."
        )
        rec.verify.append(
            "The shoreland management authority has approved the permanent water "
            "runoff retention or infiltration measures in proximity (subd. 9(c))."
        )
        return amount
    rec.reasons.append(
        f"In a greater than 80 percent area the clause (1) amount is increased "
        f"to {fmt_sqft(amount)} under subd. 9(b)."
    )
    rec.verify.append(
        "For the subd. 9(b) increase: the wetland is isolated and determined to "
        "have no direct surficial connection to the public water, or permanent "
        "runoff retention or infiltration measures are established in proximity "
        "as approved by the shoreland management authority."
    )
    rec.verify.append(
        f"The subd. 9(b) increase is up to {fmt_sqft(amount)}: if a smaller "
        "amount is approved, enter it as local_limit_sqft."
    )
    return amount


def _outside_words(
    rec: _Record,
    shown: AmountEntry,
    wetland_type: WetlandType,
    pct_class: PercentageArea,
    metro: bool,
    cedar: bool,
    group: str,
) -> None:
    """Subd. 9(a), (d), (h) outside the zone: white cedar, the metropolitan area, division."""
    rec.verify.append(_V_DIVISION)
    if cedar and group == TYPES_3_4_5_8_CEDAR:
        rec.reasons.append(
            "White cedar and tamarack wetlands are excluded from the larger amounts "
            "of subd. 9(a)(1)-(3) and (d)(1); they take the clause (4) amount."
        )
    listed = rec.get("type_groups.metro_less_than_50")
    if metro and group == TYPES_3_4_5_8_CEDAR:
        if cedar and pct_class is PercentageArea.LESS_THAN_50 and int(wetland_type) in listed:
            types = ", ".join(str(t) for t in listed)
            rec.reasons.append(
                f"Subd. 9(d)(2) names type {types} wetland without repeating the "
                "white cedar and tamarack exclusion of (a)(1)-(3) and (d)(1); this "
                "white cedar and tamarack wetland is kept at the (a)(4) amount, which "
                "names white cedar and tamarack wetland."
            )
            rec.verify.append(
                "Subd. 9(d)(2) does not exclude white cedar and tamarack wetlands: the "
                "(a)(4) amount was applied; the local government unit should confirm "
                "that the larger (d)(2) amount does not apply."
            )
        else:
            rec.reasons.append(
                "Subd. 9(d) gives no amount for these wetlands, so (a)(4) applies in "
                "the 11-county metropolitan area too."
            )
    elif metro and pct_class is PercentageArea.GREATER_THAN_80:
        rec.reasons.append(
            "Subd. 9(d) covers only 50 to 80 and less than 50 percent areas of the "
            "metropolitan area, so (a)(1) applies."
        )
    elif metro and shown.paragraph == "d":
        replaced = "(a)(2)" if pct_class is PercentageArea.FROM_50_TO_80 else "(a)(3)"
        rec.reasons.append(
            f"Within the metropolitan area {_short(shown.citation)} replaces {replaced}"
            + (" there." if replaced == "(a)(3)" else ".")
        )


def _local_standard(rec: _Record, amount: float, local_limit: float | None) -> float:
    """Subd. 9(i): a more restrictive local standard; return the amount it leaves."""
    if local_limit is None:
        rec.verify.append(_V_LOCAL)
        return amount
    if local_limit < amount:
        rec.cites.append(rec.trace.rule.clause("(i)"))
        rec.reasons.append(
            f"A more restrictive local standard of {fmt_sqft(local_limit)} applies (subd. 9(i))."
        )
        return local_limit
    rec.reasons.append(f"The local standard of {fmt_sqft(local_limit)} is not more restrictive.")
    return amount


def de_minimis_allowance(
    wetland_type: WetlandType | int,
    zone: ShorelandZone,
    pct_class: PercentageArea,
    metro: bool,
    *,
    cedar_tamarack: bool = False,
    shoreland_increase: bool = False,
    setback_increase: bool = False,
    local_limit_sqft: float | None = None,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
) -> Decision:
    """Return the de minimis amount for one wetland type in one zone (subd. 9).

    Parameters
    ----------
    wetland_type : WetlandType or int
        Circular 39 type 1-8.
    zone : ShorelandZone
        Shoreland building setback zone (subd. 9(c)), shoreland wetland protection zone
        beyond the setback (9(b)), or outside the protection zone (9(a), (d)).
    pct_class : PercentageArea
        Percentage-area class of the place.
    metro : bool
        In the 11-county metropolitan area (subd. 9(d)).
    cedar_tamarack : bool, default False
        A white cedar and tamarack wetland: never the larger amounts of (a)(1)-(3), (d)(1).
    shoreland_increase : bool, default False
        Claim the subd. 9(b) increase (greater than 80 percent areas, clause (1) types only):
        the wetland is isolated with no direct surficial connection to the public water,
        or approved permanent runoff retention or infiltration measures are in proximity.
    setback_increase : bool, default False
        Claim the subd. 9(c) increase (approved retention or infiltration measures).
    local_limit_sqft : float, optional
        A more restrictive local standard (subd. 9(i)); it applies when smaller.
    params : ParameterSet, optional
        Parameter tree (default: the shipped one).
    as_of : str or date, optional
        Date the law is applied as of (default: today).

    Returns
    -------
    Decision
        ``value`` is the square feet allowed (``0`` where no paragraph gives an amount);
        outcome ``ELIGIBLE`` when the amount is above 0, else ``NOT_ELIGIBLE``. The
        citations name the paragraph and clause that apply.

    Notes
    -----
    The traps: type 7 in a metropolitan less than 50 percent area has no amount outside
    the protection zone (subd. 9(d)(2) lists types 1, 2 and 6); white cedar and tamarack
    wetlands always take the 100 square foot amounts; subd. 9(d) replaces (a)(2) and (a)(3)
    inside the 11 metropolitan counties but not (a)(1) or (a)(4). Amounts are compared
    "up to": an area equal to the amount is within it.

    Examples
    --------
    >>> from wetland_gis.enums import PercentageArea, ShorelandZone
    >>> d = de_minimis_allowance(2, ShorelandZone.OUTSIDE, PercentageArea.GREATER_THAN_80,
    ...                          False, as_of="2024-01-01")
    >>> d.value, d.citations[0]
    (10000.0, 'Minn. Stat. § 103G.2241, subd. 9(a)(1)')
    """
    trace = Trace("de_minimis_allowance", params, as_of)
    wtype = wetland_type_of(wetland_type)
    zone = zone_of(zone)
    pct = percentage_class_of(pct_class)
    check_flag(metro, "metro")
    for name, flag in (
        ("cedar_tamarack", cedar_tamarack),
        ("shoreland_increase", shoreland_increase),
        ("setback_increase", setback_increase),
    ):
        check_flag(flag, name)
    local = None if local_limit_sqft is None else check_area(local_limit_sqft, "local_limit_sqft")
    amount = _allowance(
        trace,
        wtype,
        zone,
        pct,
        metro,
        cedar=cedar_tamarack,
        shoreland_increase=shoreland_increase,
        setback_increase=setback_increase,
        local_limit=local,
    )
    trace.cite(*amount.citations)
    trace.because(*amount.reasons)
    trace.check(amount.verify)
    trace.amounts["allowance_sqft"] = amount.sqft
    outcome = Outcome.ELIGIBLE if amount.sqft > 0 else Outcome.NOT_ELIGIBLE
    return trace.decide(outcome, amount.sqft)


# --- the engine's steps (rules/engine.py orders them) -----------------------------------

_FAMILY_ZONE = {
    "c": ShorelandZone.BUILDING_SETBACK,
    "b": ShorelandZone.PROTECTION,
    "a": ShorelandZone.OUTSIDE,
}


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


def _depends_on_share(project: str, scope: list[Impact], book: RuleBook) -> bool:
    """Whether the de minimis answer changes when each unassessed partial drain counts whole.

    Minn. R. 8420.0522, subp. 2 counts "at least 50 percent" of a partly drained area "as
    determined by an assessment acceptable to the technical evaluation panel": without the
    assessment the floor is counted, and an exemption that holds only at the floor is
    conditional on the assessment.
    """
    probe = []
    for w in scope:
        c = Impact(w.f)
        c.counted = w.area if w.share_unknown else w.counted
        c.regulated, c.in_scope, c.ineligible = w.regulated, w.in_scope, w.ineligible
        probe.append(c)
    outcome, _, _ = de_minimis_steps(project, probe, book, TraceLog(), probing=True)
    if outcome not in (Outcome.EXEMPT, Outcome.CONDITIONAL):
        return True
    return any(c.lost for c, w in zip(probe, scope, strict=True) if w.share_unknown)


def de_minimis_steps(
    project: str,
    scope: list[Impact],
    book: RuleBook,
    log: TraceLog,
    *,
    probing: bool = False,
    concerns: set[str] | None = None,
) -> tuple[Outcome, str, list[DeMinimisTotal]]:
    """Decide subd. 9 for the impacts in scope; write the steps; return the outcome.

    Subd. 9(e) (the paragraph), the amount of each impact (9(a)-(d), (i)), the remainder of
    Minn. R. 8420.0420, subp. 1 B(4), the totals, 9(f) per landowner's portion of a wetland,
    9(g) and the project's answer, each a step of its own. Returns the de minimis outcome,
    the condition text of a conditional answer and the totals.
    """
    concerns = concerns if concerns is not None else set()
    family = _governing_paragraph(project, scope, log)
    for w in scope:
        _impact_amount(project, w, family, book, log, concerns)
    # Minn. R. 8420.0420, subp. 1 B(4): the remainder of a wetland impacted before
    remainder_conditions = _remainder(project, scope, book, log, _FAMILY_ZONE[family])
    all_within, out = _totals(project, scope, family, book, log, concerns)
    conditional = _portions(project, scope, book, log, concerns) if all_within else []
    conditional.extend(remainder_conditions)
    share = _share_condition(project, scope, book, all_within) if not probing else None
    if share:
        conditional.append(share)
    outcome = _project_answer(project, scope, book, log, all_within, conditional)
    cond_text = ("only if " + " ".join(conditional)) if conditional else ""
    return outcome, cond_text, out


def _governing_paragraph(project: str, scope: list[Impact], log: TraceLog) -> str:
    """Subd. 9(e): return the one paragraph of the project, the most restrictive it touches."""
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
    if len(touched) > 1:
        used = ", ".join(f"({p})" for p in sorted(touched))
        _reading_note(
            log,
            project,
            rule_id=R.DE_MINIMIS_PARAGRAPH,
            paragraph="e",
            reason=f'The project drains or fills wetland under paragraphs {used} of subd. 9; "the '
            'amounts listed in paragraphs (a), (b), and (c) may not be combined on a project" '
            f"(subd. 9(e)), so every impact of the project, of every type, is held to the "
            f"paragraph ({family}) amounts of the most restrictive zone it touches, "
            f"{zone_words(_FAMILY_ZONE[family])}.",
            inputs={"paragraphs": sorted(touched), "governing": family},
        )
    return family


def _reading_note(
    log: TraceLog,
    project: str,
    *,
    rule_id: str,
    paragraph: str,
    reason: str,
    inputs: dict[str, Any],
) -> None:
    """Write a project-level step saying how subd. 9(e) is read (no value, nothing to verify).

    ``paragraph`` is the paragraph of subd. 9 it cites (``"e"``, or the paragraph whose
    clauses it speaks of).
    """
    log.add(
        project=project,
        impact_id="",
        rule_id=rule_id,
        citation=f"{SUBD9}({paragraph})",
        outcome=O_CLASSIFIED,
        value=None,
        reason=reason,
        verify=(),
        inputs=inputs,
    )


def _increased(w: Impact, zone: ShorelandZone, claims: Claims) -> bool:
    """Subd. 9(b), (c): whether the impact takes the increase of its zone's clause."""
    f = w.f
    if zone is ShorelandZone.BUILDING_SETBACK:
        return bool(f.runoff_retention) or claims.setback_increase
    if zone is ShorelandZone.PROTECTION:
        return bool(f.isolated or f.runoff_retention) or claims.shoreland_increase
    return False


def _impact_amount(
    project: str, w: Impact, family: str, book: RuleBook, log: TraceLog, concerns: set[str]
) -> None:
    """Subd. 9(a)-(d), (i): the amount one impact is held to, under the project's paragraph."""
    f, claims, table = w.f, book.claims, book.table
    zone = _FAMILY_ZONE[family]
    increased = _increased(w, zone, claims)
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
    inputs = {
        "wetland_type": t,
        "cedar_tamarack": cedar,
        "zone": ZONE_VALUE[zone],
        "pct_class": PCT_VALUE[f.pct_class],
        "metro": f.metro,
    }
    if entry is None:
        _no_amount(project, w, family, where, excavation, inputs, log)
    else:
        _amount(project, w, family, entry, book, log, {**inputs, "increased": increased})


def _no_amount(
    project: str,
    w: Impact,
    family: str,
    where: ShorelandZone,
    excavation: bool,
    inputs: dict[str, Any],
    log: TraceLog,
) -> None:
    """Write the step of an impact no paragraph gives an amount (an excavation, or (d)(2))."""
    f = w.f
    zone = _FAMILY_ZONE[family]
    kind = f"type {int(f.wetland_type)}" + (" white cedar and tamarack" if f.cedar_tamarack else "")
    w.pool = "no_amount"
    w.allow = Decimal(0)
    cite_none: Citation
    if excavation:
        cite_none = (f"{SUBD9}(a)-(d)", R.RULES[R.IMPACT_KIND].citations[0])
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
    log.add(
        project=project,
        impact_id=w.iid,
        rule_id=R.DE_MINIMIS_AMOUNT,
        citation=cite_none,
        outcome=O_NOT_ELIGIBLE,
        value=0.0,
        reason=why_none,
        verify=(),
        inputs={**inputs, "impact_kind": KIND_VALUE[f.impact_kind]},
    )


def _amount(
    project: str,
    w: Impact,
    family: str,
    entry: AmountEntry,
    book: RuleBook,
    log: TraceLog,
    inputs: dict[str, Any],
) -> None:
    """Write the step of an impact's amount: its clause, the increase, a local standard."""
    f, claims, local = w.f, book.claims, book.local
    t, cedar = int(f.wetland_type), f.cedar_tamarack
    kind = f"type {t}" + (" white cedar and tamarack" if cedar else "")
    allow = entry.exact
    cite: Citation = entry.citation
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
            f"The condition of the {_short(entry.citation)} "
            f"increase holds for wetland {f.wetland_id or w.iid!r}; the amount is "
            '"up to" the increase: a smaller approved amount is entered as '
            "local_limit_sqft.",
        )
    if _FAMILY_ZONE[family] is ShorelandZone.BUILDING_SETBACK:
        verify = (*verify, _V_SETBACK)
    if local is not None and local < allow:
        allow = local
        cite = (entry.citation, f"{SUBD9}(i)")
        note += f"; a more restrictive local standard of {fmt_sqft(float(local))} applies"
    w.allow = allow
    if family == "c":
        w.pool = "c"
    elif claims.clause_reading == ONE_CLAUSE:
        w.pool = family
    else:
        w.pool = f"{family}:{book.group_of[(t, cedar)]}"
    log.add(
        project=project,
        impact_id=w.iid,
        rule_id=R.DE_MINIMIS_AMOUNT,
        citation=cite,
        outcome=O_ELIGIBLE,
        value=float(allow),
        reason=(_r_amount, (kind, allow, entry.citation, note)),
        verify=verify,
        inputs=inputs,
        parameters={entry.key: entry.sqft},
    )


def _clause_step(
    project: str, scope: list[Impact], family: str, book: RuleBook, log: TraceLog
) -> bool:
    """Subd. 9(e) on the clauses of one paragraph: write the reading's step when it matters."""
    claims = book.claims
    clause_groups = {
        book.group_of[(int(w.f.wetland_type), w.f.cedar_tamarack)]
        for w in scope
        if w.entry is not None
    }
    if family == "c" or len(clause_groups) <= 1:
        return False
    held = (
        "under the one_clause reading (the default) the whole project is held to the "
        "smallest clause amount it uses"
        if claims.clause_reading == ONE_CLAUSE
        else "under the per_clause reading each clause's total is held to its own amount"
    )
    _reading_note(
        log,
        project,
        rule_id=R.DE_MINIMIS_CLAUSES,
        paragraph=family,
        reason=f"The project uses several clauses of paragraph ({family}); subd. 9(e) forbids "
        "combining paragraphs (a), (b) and (c) and does not name the clauses of one "
        f"paragraph: {held}.",
        inputs={"clause_reading": claims.clause_reading},
    )
    return True


def _totals(
    project: str,
    scope: list[Impact],
    family: str,
    book: RuleBook,
    log: TraceLog,
    concerns: set[str],
) -> tuple[bool, list[DeMinimisTotal]]:
    """Subd. 9(a)-(e): each total of the project against its amount; whether all are within."""
    claims = book.claims
    pools: dict[str, list[Impact]] = {}
    for w in scope:
        pools.setdefault(w.pool, []).append(w)
    if _clause_step(project, scope, family, book, log):
        concerns.add("clause_reading")
    setback = pools.get("c", [])
    if len({w.entry.increases is not None for w in setback if w.entry is not None}) > 1:
        concerns.add("setback_increase_reading")
    all_within = True
    out: list[DeMinimisTotal] = []
    for name, members in pools.items():
        total = sum((w.counted for w in members), Decimal(0))
        allowance = (
            max(_amount_of(w) for w in members)
            if name == "c" and claims.setback_increase_reading == "any_impact"
            else min(_amount_of(w) for w in members)
        )
        within = name != "no_amount" and total <= allowance
        all_within = all_within and within
        cites = tuple(dict.fromkeys(w.entry.citation for w in members if w.entry is not None))
        ids = tuple(w.f.impact_id for w in members)
        out.append(DeMinimisTotal(name, ids, float(total), float(allowance), cites, within))
        several = len({w.allow for w in members}) > 1
        reason: Any = (_r_total, (name, total, cites, within, allowance, several))
        log.add(
            project=project,
            impact_id="",
            rule_id=R.DE_MINIMIS_TOTAL,
            citation=tuple(cites) or SUBD9,
            outcome=O_EXEMPT if within else O_NOT_EXEMPT,
            value=float(total),
            reason=reason,
            verify=(),
            inputs={
                "total": name,
                "impact_ids": [str(i) for i in ids],
                "allowance_sqft": float(allowance),
            },
        )
    return all_within, out


def _portions(
    project: str, scope: list[Impact], book: RuleBook, log: TraceLog, concerns: set[str]
) -> list[str]:
    """Subd. 9(f): each landowner's portion of a wetland; return the conditions it leaves.

    One landowner's portion of one wetland; without a wetland id, the impacts of one
    landowner in one de minimis total are taken as one wetland (docs/decisions.md). A
    portion past its limit is lost ("no longer applies to a landowner's portion"): that
    portion only.
    """
    conditional: list[str] = []
    owners: dict[tuple[str, str], list[Impact]] = {}
    for w in scope:
        owners.setdefault((w.f.owner or "", w.f.wetland_id or f"\0{w.pool}"), []).append(w)
    for (owner, wetland), members in owners.items():
        ok, cond = _cumulative(project, owner, wetland, members, book, log, concerns)
        if not ok:
            for w in members:
                w.lost = True
        if cond:
            conditional.append(cond)
    return conditional


def _share_condition(
    project: str, scope: list[Impact], book: RuleBook, all_within: bool
) -> str | None:
    """Minn. R. 8420.0522, subp. 2: the condition an unassessed partial drain leaves, if any."""
    unassessed = [w for w in scope if w.share_unknown]
    lost = [w for w in scope if w.lost]
    if (
        unassessed
        and all_within
        and len(lost) < len(scope)
        and not any(w.lost for w in unassessed)
        and not any(w.ineligible for w in scope)
        and not book.claims.other_exemption_claimed
        and _depends_on_share(project, scope, book)
    ):
        return (
            "the assessed share of the partly drained area of impact(s) "
            + ", ".join(repr(w.iid) for w in unassessed)
            + " keeps the project within its amounts: it was counted at the "
            f"{fmt_number(book.partial_pct)} percent minimum, and counted whole it is not "
            "de minimis (Minn. R. 8420.0522, subp. 2; column partial_share)."
        )
    return None


def _project_outcome(
    scope: list[Impact], book: RuleBook, all_within: bool, conditional: list[str]
) -> tuple[Outcome, str]:
    """Subd. 9(g) and Minn. R. 8420.0420, subp. 1: the project's answer and its reason."""
    others = any(w.lost for w in scope)  # the answer is of the other landowners' impacts
    every = "Every other impact in scope is" if others else "Every impact in scope is"
    if book.claims.other_exemption_claimed:
        return Outcome.NOT_EXEMPT, (
            "Another exemption of § 103G.2241 is relied on for this project, and the de "
            "minimis exemption may not be combined with it (subd. 9(g); Minn. R. "
            "8420.0420, subp. 1): the de minimis exemption is not applied."
        )
    if not all_within:
        return Outcome.NOT_EXEMPT, (
            "The project exceeds the amount allowed: it is not de minimis and the entire "
            "amount of every impact must be replaced (Minn. R. 8420.0420, subp. 1)."
        )
    if all(w.lost for w in scope):
        return Outcome.NOT_EXEMPT, (
            "The cumulative limit of subd. 9(f) is passed for every landowner's portion of "
            "the project's wetlands: the exemption no longer applies and the project's impacts "
            "must be replaced."
        )
    if any(w.ineligible for w in scope):
        return Outcome.NOT_EXEMPT, (
            "The project includes impacts to which no exemption applies (calcareous fen, "
            "banked wetland or wetland used for credit, Minn. R. 8420.0420, subp. 1; the "
            "remainder of a wetland partly impacted so that it would newly qualify, subp. 1 "
            "B(4)): the project is not exempt and its other impacts must be replaced."
        )
    if conditional:
        return Outcome.CONDITIONAL, "The project is de minimis only if: " + " ".join(conditional)
    done = "." if others else ": the project needs no replacement plan."
    return Outcome.EXEMPT, f"{every} de minimis{done}"


def _project_answer(
    project: str,
    scope: list[Impact],
    book: RuleBook,
    log: TraceLog,
    all_within: bool,
    conditional: list[str],
) -> Outcome:
    """Write the project's de minimis step; return its outcome."""
    claims = book.claims
    outcome, reason = _project_outcome(scope, book, all_within, conditional)
    lost = [w for w in scope if w.lost]
    if lost and outcome in (Outcome.EXEMPT, Outcome.CONDITIONAL):
        reason = (
            "The cumulative limit of subd. 9(f) is passed for the landowner's portion of "
            f'impact(s) {", ".join(repr(w.iid) for w in lost)}: the exemption "no longer '
            "applies to a landowner's portion\", which must be replaced; it does not reach the "
            "other landowners' impacts. " + reason
        )
    log.add(
        project=project,
        impact_id="",
        rule_id=R.DE_MINIMIS_PROJECT,
        citation=(SUBD9, WHOLE_PROJECT) if outcome is Outcome.NOT_EXEMPT else SUBD9,
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
    return outcome


def de_minimis_impact(
    project: str, w: Impact, dm_outcome: Outcome, conditional_reason: str, log: TraceLog
) -> None:
    """Write the de minimis headline of one impact in scope (``w.outcome``, ``w.dm``)."""
    add = log.add
    if w.outcome is ImpactOutcome.PROHIBITED:
        w.dm = Outcome.NOT_EXEMPT
        return
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
    if route(w) == ROUTE_BOTH:  # the permit is part of the headline, not a verify line
        reason = (with_permit_reason, (reason,))
        inputs_dm["route"] = ROUTE_BOTH
    add(
        project=project,
        impact_id=w.iid,
        rule_id=R.DE_MINIMIS_IMPACT,
        citation=SUBD9 if w.dm is not Outcome.NOT_EXEMPT else (SUBD9, WHOLE_PROJECT),
        outcome=OUTCOME_VALUE[w.dm],
        value=allow,
        reason=reason,
        verify=verify,
        inputs=inputs_dm,
    )


_REMAINDER = R.rule(R.DE_MINIMIS_REMAINDER).citations[0]

_V_REMAINDER = (
    "Whether the wetland's earlier partial drain or fill left a remainder that qualifies for "
    "a de minimis amount it would not have had before that impact (a type 3 wetland partly "
    "drained to type 2 takes 10,000 sq ft, not 100): if so no exemption applies (Minn. R. "
    "8420.0420, subp. 1 B(4)); give the answer in column remainder."
)


def _remainder(
    project: str, scope: list[Impact], book: RuleBook, log: TraceLog, zone: ShorelandZone
) -> list[str]:
    """Minn. R. 8420.0420, subp. 1 B(4) for de minimis; return the conditions it leaves.

    No exemption applies to "a wetland that was partially impacted so that its remainder
    would qualify when the exemption would not have applied before that impact": where an
    exemption's condition is the state of the wetland after an earlier partial impact, the
    earlier impact counts. The de minimis amount depends on the wetland's type (and white
    cedar and tamarack status): a remainder known to newly qualify (``remainder`` yes) has
    no amount (``w.ineligible``); where an earlier drain or fill of the landowner's portion
    is known (a prior area since 1992 above 0) and the answer is not given, an impact whose
    amount another type would not have had there is exempt only on that condition.
    """
    claims = book.claims
    table = book.table
    out: list[str] = []
    for w in scope:
        f = w.f
        said = None if f.exemption is None else f.exemption.remainder_newly_qualifies
        if said is False or w.entry is None:
            continue
        prior = f.prior_sqft_since_1992
        if prior is None:
            prior = claims.prior_sqft_since_1992
        inputs = {
            "remainder_newly_qualifies": said,
            "prior_sqft_since_1992": prior,
            "wetland_id": f.wetland_id,
            "allowance_sqft": None if w.allow is None else float(w.allow),
        }
        if said is True:
            w.ineligible = True
            log.add(
                project=project,
                impact_id=w.iid,
                rule_id=R.DE_MINIMIS_REMAINDER,
                citation=_REMAINDER,
                outcome=O_NOT_EXEMPT,
                value=0.0,
                reason="The wetland was partially impacted before so that its remainder "
                "would qualify for an exemption that would not have applied before that "
                "impact: no exemption applies to it, de minimis included (Minn. R. "
                "8420.0420, subp. 1 B(4)).",
                verify=(),
                inputs=inputs,
            )
            continue
        if not prior:  # no earlier partial impact known on the portion
            continue
        # the smallest amount any wetland type would have had in this place
        least = min(
            (
                Decimal(0) if e is None else e.exact
                for t in WetlandType
                for cedar in (False, True)
                for e in (table.lookup(int(t), cedar, zone, f.pct_class, f.metro, False),)
            ),
            default=Decimal(0),
        )
        if w.allow is None or w.allow <= least:
            continue  # every type would have had this amount: the remainder changes nothing
        where = f"wetland {f.wetland_id!r}" if f.wetland_id else f"the wetland of impact {w.iid!r}"
        condition = (
            f"the earlier drain or fill of {where} ({fmt_sqft(float(prior))} since "
            f"{book.since.isoformat()}) did not leave a remainder that qualifies for the "
            f"{fmt_sqft(float(w.allow))} amount when the wetland would not have before that "
            "impact (Minn. R. 8420.0420, subp. 1 B(4); column remainder)."
        )
        out.append(condition)
        log.add(
            project=project,
            impact_id=w.iid,
            rule_id=R.DE_MINIMIS_REMAINDER,
            citation=_REMAINDER,
            outcome=O_CONDITIONAL,
            value=float(w.allow),
            reason=f"Impact {w.iid!r} is de minimis only if {condition}",
            verify=(_V_REMAINDER,),
            inputs={**inputs, "least_amount_sqft": float(least)},
        )
    return out


def _amount_of(w: Impact) -> Decimal:
    """Return the de minimis amount looked up for an impact in a de minimis total."""
    if w.allow is None:  # pragma: no cover - de_minimis_steps sets it for every impact in scope
        raise AssertionError(f"impact {w.iid!r}: its de minimis amount was not looked up")
    return w.allow


@dataclass(frozen=True)
class _Portion:
    """Subd. 9(f): the figures of one landowner's portion of one wetland."""

    who: str
    named: bool
    ids: str
    prior: Decimal
    prior_known: bool
    owns: bool | None
    portion: Decimal | None
    total: Decimal
    applicable: Decimal
    limit_known: Decimal

    @property
    def cumulative(self) -> Decimal:
        """The area drained or filled since the date of subd. 9(f), this project's included."""
        return self.prior + self.total


def _portion_of(owner: str, wetland: str, members: list[Impact], book: RuleBook) -> _Portion:
    """Return the figures of subd. 9(f) for one landowner's portion of one wetland."""
    claims = book.claims
    priors = [w.f.prior_sqft_since_1992 for w in members if w.f.prior_sqft_since_1992 is not None]
    owns_values = {w.f.owns_whole_wetland for w in members} - {None}
    owns = False if False in owns_values else True if owns_values else claims.owns_whole_wetland
    portions = [w.f.portion_sqft for w in members if w.f.portion_sqft is not None]
    portion = dec(min(portions)) if portions else None
    sizes = [w.f.wetland_acres for w in members if w.f.wetland_acres is not None]
    if portion is None and owns is True and sizes:
        portion = dec(min(sizes)) * book.sqft_per_acre  # the whole wetland is the portion
    limit_known = book.floor
    if portion is not None:
        limit_known = max(limit_known, portion * book.pct_portion / PERCENT)
    named = not wetland.startswith("\0")
    return _Portion(
        who=(f"landowner {owner!r}" if owner else "the landowner")
        + (f" on wetland {wetland!r}" if named else ""),
        named=named,
        ids=", ".join(repr(w.iid) for w in members),
        prior=dec(max(priors)) if priors else dec(claims.prior_sqft_since_1992 or 0),
        prior_known=bool(priors) or claims.prior_sqft_since_1992 is not None,
        owns=owns,
        portion=portion,
        total=sum((w.counted for w in members), Decimal(0)),
        applicable=min(_amount_of(w) for w in members),
        limit_known=limit_known,
    )


def _portion_checks(p: _Portion, book: RuleBook) -> list[str]:
    """Return what a person checks of a portion: the prior area, the wetland id."""
    verify: list[str] = []
    if not p.prior_known:
        below = "less than" if book.claims.cumulative_limit_reading == LIMIT_REACHED else "at most"
        by_amount = p.owns is not False and p.applicable > p.limit_known
        headroom = (p.applicable if by_amount else p.limit_known) - p.total
        verify.append(
            f"The area {p.who} has drained or filled since {book.since.isoformat()} was not "
            f"given (column prior_sqft_since_1992): the exemption holds only while it is "
            f"{'at most' if by_amount else below} "
            f"{fmt_sqft(float(max(headroom, Decimal(0))))} (subd. 9(f))."
        )
    if not p.named:
        verify.append(
            "No wetland id was given (column wetland_id): the impacts of one landowner in one "
            "de minimis total were taken as one wetland for subd. 9(f)."
        )
    return verify


def _within_reason(p: _Portion, book: RuleBook, reached: bool) -> str:
    """Return why a portion within the (f)(2)/(f)(3) limit stays exempt."""
    cumulative, limit = p.cumulative, p.limit_known
    below = "less than" if reached else "at most"
    return (
        f"Subd. 9(f): {p.who} has {fmt_sqft(float(cumulative))} drained or filled since "
        f"{book.since.isoformat()} (impacts {p.ids}), "
        + (
            f"{below} {fmt_sqft(float(limit))}"
            if cumulative == limit or reached
            else f"within {fmt_sqft(float(limit))}"
        )
        + ", a limit that holds whoever owns the wetland"
        + (
            " (cumulative_limit_reading 'exceeded': reaching it is still exempt)."
            if cumulative == limit
            else "."
        )
    )


def _missing_condition(p: _Portion, book: RuleBook, reached: bool) -> str | None:
    """Return the condition under which a portion past the known limit is still exempt."""
    cumulative = p.cumulative
    missing = []
    if cumulative <= p.applicable and p.owns is None:
        missing.append("the landowner owns the entire wetland")
    if p.portion is None:
        need = cumulative * PERCENT / book.pct_portion
        missing.append(
            f"the landowner's portion of the wetland is {'more than' if reached else 'at least'} "
            f"{fmt_sqft(float(need))} ({fmt_number(book.pct_portion)} percent of it is then "
            f"{'more than ' if reached else ''}{fmt_sqft(float(cumulative))})"
        )
    if not missing:
        return None
    at_limit = (
        " (exactly at it: the exemption no longer applies under the cumulative_limit_reading "
        "'reached')"
        if cumulative == p.limit_known and reached
        else ""
    )
    return (
        f"{' or '.join(missing)} ({p.who}, impacts {p.ids}: {fmt_sqft(float(cumulative))} "
        f"drained or filled since {book.since.isoformat()}); otherwise the limit is "
        f"{fmt_sqft(float(p.limit_known))}{at_limit} and the exemption does not apply "
        "(subd. 9(f))."
    )


def _past_reason(p: _Portion, book: RuleBook) -> str:
    """Return why a portion past every limit that applies is no longer exempt."""
    cumulative = p.cumulative
    limit = max(p.limit_known, p.applicable) if p.owns else p.limit_known
    return (
        f"Subd. 9(f): {p.who} has {fmt_sqft(float(cumulative))} drained or filled since "
        f"{book.since.isoformat()}, "
        + (
            f"which reaches the limit of {fmt_sqft(float(limit))}: under the "
            "cumulative_limit_reading 'reached' (the default), the exemption \"no longer "
            'applies ... when the cumulative area ... is" the limit'
            if cumulative == limit
            else f"more than the greatest of the limits that apply ({fmt_sqft(float(limit))})"
        )
        + ": the exemption no longer applies to this portion."
    )


def _cumulative(
    project: str,
    owner: str,
    wetland: str,
    members: list[Impact],
    book: RuleBook,
    log: TraceLog,
    concerns: set[str],
) -> tuple[bool, str]:
    """Subd. 9(f) for one landowner's portion of one wetland: (passes, condition text).

    The (f)(2) and (f)(3) limits are compared under ``Claims.cumulative_limit_reading``
    (default ``reached``: exactly at the limit the exemption no longer applies); the (f)(1)
    limit, the paragraph's own amount, at most (docs/rules.md, "Open readings").
    """
    reached = book.claims.cumulative_limit_reading == LIMIT_REACHED
    p = _portion_of(owner, wetland, members, book)
    cumulative = p.cumulative
    if cumulative == p.limit_known:  # exactly at the (f)(2) or (f)(3) limit: an open reading
        concerns.add("cumulative_limit_reading")
    verify = _portion_checks(p, book)
    inputs = {
        "owner": owner or None,
        "wetland_id": wetland if p.named else None,
        "prior_sqft_since_1992": float(p.prior) if p.prior_known else None,
        "owns_whole_wetland": p.owns,
        "portion_sqft": None if p.portion is None else float(p.portion),
        "cumulative_sqft": float(cumulative),
        "impact_ids": [w.iid for w in members],
    }

    def step(outcome: str, reason: str, checks: Sequence[str]) -> None:
        log.add(
            project=project,
            impact_id="",
            rule_id=R.DE_MINIMIS_CUMULATIVE,
            citation=book.cite_cumulative,
            outcome=outcome,
            value=float(cumulative),
            reason=reason,
            verify=tuple(checks),
            inputs=inputs,
            parameters=book.cumulative_params,
        )

    if cumulative < p.limit_known if reached else cumulative <= p.limit_known:
        step(O_EXEMPT, _within_reason(p, book, reached), verify)
        return True, ""
    if cumulative <= p.applicable and p.owns is True:
        step(
            O_EXEMPT,
            f"Subd. 9(f): {p.who} owns the entire wetland, so the limit is the applicable "
            f"amount, {fmt_sqft(float(p.applicable))}; {fmt_sqft(float(cumulative))} drained "
            "or filled is within it.",
            (*verify, f"{p.who[0].upper() + p.who[1:]} owns the entire wetland (subd. 9(f)(1))."),
        )
        return True, ""
    condition = _missing_condition(p, book, reached)
    if condition is not None:
        step(
            O_CONDITIONAL,
            f"Subd. 9(f): {p.who} is exempt only if {condition}",
            (
                *verify,
                "Who owns the wetland and the size of each landowner's portion "
                "(columns owner, owns_whole_wetland, portion_sqft).",
            ),
        )
        return True, condition
    step(O_NOT_EXEMPT, _past_reason(p, book), verify)
    return False, ""


@cache  # a few dozen distinct texts (one per amount, kind and note) for thousands of impacts
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
        '8420.0420, subp. 1: "the entire amount of impact must be replaced").'
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
