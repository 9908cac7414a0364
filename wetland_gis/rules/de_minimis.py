"""The de minimis exemption, Minn. Stat. § 103G.2241, subd. 9.

Two questions:

* :func:`de_minimis_allowance` — how many square feet of one wetland type, in one
  shoreland zone, in one percentage-area class, in or out of the 11-county metropolitan
  area, a project may drain or fill without a replacement plan, and which paragraph says so.
* :func:`de_minimis` — whether each impact of a project, and the project, is exempt:
  impacts are totalled by type group, each total is compared with its allowance, and the
  limits of paragraphs (e) to (i) and Minn. R. 8420.0420, subp. 1 are applied.

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
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from functools import partial
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
from wetland_gis.errors import RulesInputError
from wetland_gis.parameters import ParameterSet
from wetland_gis.rules import registry as R
from wetland_gis.rules.amounts import TYPES_1_2_6_7, TYPES_3_4_5_8_CEDAR, amount_table, type_group
from wetland_gis.rules.facts import (
    PERCENT,
    ZONE_ORDER,
    ImpactFacts,
    Trace,
    check_area,
    check_choice,
    check_flag,
    check_impacts,
    exact,
    fmt_number,
    fmt_sqft,
    percentage_class_of,
    wetland_type_of,
    zone_of,
    zone_words,
)
from wetland_gis.rules.kernel import (
    KIND_VALUE,
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
    DeMinimisTotal,
    Impact,
    RuleBook,
    dec,
)
from wetland_gis.rules.public_waters import OUTSIDE_WCA, route, with_permit_reason
from wetland_gis.rules.replacement import WHOLE_PROJECT
from wetland_gis.rules.scope import CALCAREOUS_FENS, EXEMPTION_STANDARDS
from wetland_gis.rules.trace import TraceLog

__all__ = [
    "de_minimis_allowance",
    "de_minimis",
    "DeMinimisResult",
    "DeMinimisGroup",
    "MOST_RESTRICTIVE",
    "MULTI_ZONE_READINGS",
    "TYPES_1_2_6_7",
    "TYPES_3_4_5_8_CEDAR",
    "SETBACK_POOL",
    "NO_AMOUNT_POOL",
]

#: Default reading of subd. 9(e) on a project touching several zones.
MOST_RESTRICTIVE = "most_restrictive"
#: The readings of subd. 9(e) on a project touching several zones. The ``per_zone``
#: reading was removed (issue 13): it added the amounts of (a), (b) and (c) together.
MULTI_ZONE_READINGS = (MOST_RESTRICTIVE,)

#: Subd. 9(c) gives its amount for "wetland" of any type: one total for all types.
SETBACK_POOL = "setback_zone"
#: Impacts to which no paragraph gives an amount (type 7 in a metro less than 50 percent area).
NO_AMOUNT_POOL = "no_amount"

SUBD9 = "Minn. Stat. § 103G.2241, subd. 9"
_STAT = "Minn. Stat. § 103G.2241, "
_DE_MINIMIS = "de_minimis."
_VERIFY_H = "Property has not been divided to increase the amounts of paragraph (a) (subd. 9(h))."
_RANK = {zone: i for i, zone in enumerate(ZONE_ORDER)}


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
        Whether the whole project is exempt (``value`` is ``True`` or ``False``).
    by_impact : Mapping[impact_id, Decision]
        One decision per impact, in input order: ``EXEMPT``, ``NOT_EXEMPT``,
        ``PROHIBITED`` (calcareous fen) or ``OUT_OF_SCOPE`` (public waters wetland).
    groups : tuple of DeMinimisGroup
        Each project total and the allowance it was compared with.
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


# --- the allowance of one type in one zone -----------------------------------------------


def _short(citation: str) -> str:
    """Return ``subd. 9(a)(1)`` from ``Minn. Stat. § 103G.2241, subd. 9(a)(1)``."""
    return citation.replace(_STAT, "")


def _label(wetland_type: WetlandType, cedar: bool) -> str:
    kind = "white cedar and tamarack " if cedar else ""
    return f"type {int(wetland_type)} {kind}wetland"


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
    used: dict[str, Any] = {}

    def get(key: str) -> Any:
        value = trace.value(_DE_MINIMIS + key)
        used[_DE_MINIMIS + key] = trace.used[_DE_MINIMIS + key]
        return value

    def cite(key: str) -> str:
        return trace.citation(_DE_MINIMIS + key)

    group = type_group(wetland_type, cedar, trace.params, trace.day)
    get("type_groups.types_1_2_6_7")
    get("type_groups.types_3_4_5_8")
    label = _label(wetland_type, cedar)
    where = zone_words(zone)
    cites: list[str] = []
    reasons: list[str] = []
    verify: list[str] = []
    has_amount = True

    table = amount_table(trace.params, trace.day)
    increased = (
        setback_increase if zone is ShorelandZone.BUILDING_SETBACK else shoreland_increase
    ) and zone is not ShorelandZone.OUTSIDE
    base = table.lookup(int(wetland_type), cedar, zone, pct_class, metro, False)
    entry = table.lookup(int(wetland_type), cedar, zone, pct_class, metro, increased)
    amount: float
    if entry is None:
        amount = 0
        has_amount = False
        listed = get("type_groups.metro_less_than_50")
        cites.append(cite("type_groups.metro_less_than_50"))
        cites.append(cite("outside_zone.types_1_2_6_7_less_than_50"))
        types = ", ".join(str(t) for t in listed)
        reasons.append(
            f"A {label} {where} in a less than 50 percent area within the 11-county "
            f"metropolitan area has no de minimis amount: subd. 9(d)(2) lists types "
            f"{types} only, and (a)(3) excepts the metropolitan area."
        )
    else:
        shown = base if base is not None else entry
        amount = shown.sqft
        used[shown.key] = trace.used[shown.key] = amount
        cites.append(shown.citation)
        place = (
            ""
            if shown.zone is not ShorelandZone.OUTSIDE
            else {
                PercentageArea.GREATER_THAN_80: " in a greater than 80 percent area",
                PercentageArea.FROM_50_TO_80: " in a 50 to 80 percent area",
                PercentageArea.LESS_THAN_50: " in a less than 50 percent area",
            }[pct_class]
        )
        if shown.paragraph == "d":
            place += " within the 11-county metropolitan area"
        any_type = " of wetland of any type" if shown.paragraph == "c" else ""
        reasons.append(
            f"For a {label} {where}{place}, {_short(shown.citation)} allows "
            f"{fmt_sqft(amount)}{any_type}."
        )
        if entry is not shown:
            amount = entry.sqft
            used[entry.key] = trace.used[entry.key] = amount
            cites.append(entry.citation)
            if entry.paragraph == "c":
                reasons.append(
                    f"Increased to {fmt_sqft(amount)} under subd. 9(c) because permanent water "
                    "runoff retention or infiltration measures are established in proximity."
                )
                verify.append(
                    "The shoreland management authority has approved the permanent water "
                    "runoff retention or infiltration measures in proximity (subd. 9(c))."
                )
            else:
                reasons.append(
                    f"In a greater than 80 percent area the clause (1) amount is increased "
                    f"to {fmt_sqft(amount)} under subd. 9(b)."
                )
                verify.append(
                    "For the subd. 9(b) increase: the wetland is isolated and determined to "
                    "have no direct surficial connection to the public water, or permanent "
                    "runoff retention or infiltration measures are established in proximity "
                    "as approved by the shoreland management authority."
                )
                verify.append(
                    f"The subd. 9(b) increase is up to {fmt_sqft(amount)}: if a smaller "
                    "amount is approved, enter it as local_limit_sqft."
                )
        elif increased and zone is ShorelandZone.PROTECTION:
            if group == TYPES_3_4_5_8_CEDAR:
                reasons.append(
                    "The subd. 9(b) increase applies only to the clause (1) amount of types "
                    "1, 2, 6 and 7, not to this wetland."
                )
            else:
                reasons.append(
                    "The subd. 9(b) increase is available only in a greater than 80 percent "
                    "area; it is not applied here."
                )
        if zone is ShorelandZone.BUILDING_SETBACK:
            verify.append(
                "The shoreland building setback zone is the one defined in the local shoreland "
                "management ordinance (subd. 9(c)), which may be larger than the state minimum."
            )
        if zone is ShorelandZone.OUTSIDE:
            verify.append(_VERIFY_H)
            if cedar and group == TYPES_3_4_5_8_CEDAR:
                reasons.append(
                    "White cedar and tamarack wetlands are excluded from the larger amounts "
                    "of subd. 9(a)(1)-(3) and (d)(1); they take the clause (4) amount."
                )
            listed = get("type_groups.metro_less_than_50")
            if metro and group == TYPES_3_4_5_8_CEDAR:
                if (
                    cedar
                    and pct_class is PercentageArea.LESS_THAN_50
                    and int(wetland_type) in listed
                ):
                    types = ", ".join(str(t) for t in listed)
                    reasons.append(
                        f"Subd. 9(d)(2) names type {types} wetland without repeating the "
                        "white cedar and tamarack exclusion of (a)(1)-(3) and (d)(1); this "
                        "white cedar and tamarack wetland is kept at the (a)(4) amount, which "
                        "names white cedar and tamarack wetland."
                    )
                    verify.append(
                        "Subd. 9(d)(2) does not exclude white cedar and tamarack wetlands: the "
                        "(a)(4) amount was applied; the local government unit should confirm "
                        "that the larger (d)(2) amount does not apply."
                    )
                else:
                    reasons.append(
                        "Subd. 9(d) gives no amount for these wetlands, so (a)(4) applies in "
                        "the 11-county metropolitan area too."
                    )
            elif metro and pct_class is PercentageArea.GREATER_THAN_80:
                reasons.append(
                    "Subd. 9(d) covers only 50 to 80 and less than 50 percent areas of the "
                    "metropolitan area, so (a)(1) applies."
                )
            elif metro and shown.paragraph == "d":
                replaced = "(a)(2)" if pct_class is PercentageArea.FROM_50_TO_80 else "(a)(3)"
                reasons.append(
                    f"Within the metropolitan area {_short(shown.citation)} replaces {replaced}"
                    + (" there." if replaced == "(a)(3)" else ".")
                )
    if local_limit is not None:
        if local_limit < amount:
            amount = local_limit
            cites.append(f"{SUBD9}(i)")
            reasons.append(
                f"A more restrictive local standard of {fmt_sqft(local_limit)} applies "
                "(subd. 9(i))."
            )
        else:
            reasons.append(
                f"The local standard of {fmt_sqft(local_limit)} is not more restrictive."
            )
    else:
        verify.append(
            "Whether a local ordinance or similar local control is more restrictive; if so the "
            "local standard applies (subd. 9(i))."
        )
    return _Amount(
        sqft=float(amount),
        group=group,
        zone=zone,
        has_amount=has_amount,
        citations=tuple(cites),
        reasons=tuple(reasons),
        verify=tuple(verify),
        parameters=MappingProxyType(used),
    )


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


# --- the project -------------------------------------------------------------------------


@dataclass(frozen=True)
class _Part:
    """Area of one impact in one project total.

    ``counted_only`` marks the area of an impact that has no amount of its own (a type 7
    wetland in a metropolitan less than 50 percent area, held to the outside zone) but
    still counts in the total its type group is held to, when that total's paragraph
    covers it ((b)(1) and (c) name type 7 or any wetland). It does not decide the impact.
    """

    impact: ImpactFacts
    sqft: Fraction
    amount: _Amount
    pool: str
    counted_only: bool = False


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
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
) -> DeMinimisResult:
    """Decide the de minimis exemption for every impact of a project (subd. 9).

    Parameters
    ----------
    impacts : sequence of ImpactFacts
        The project's impacts (ids unique). A project is what the local government unit
        defines; it may not be split to gain exemptions (§ 103G.005, subd. 14d).
    multi_zone_reading : {"most_restrictive"}, default "most_restrictive"
        How subd. 9(e) ("the amounts listed in paragraphs (a), (b), and (c) may not be
        combined on a project") applies when the project touches several zones. See Notes.
    cumulative_sqft_since_1992 : float, default 0
        Area of the landowner's portion of the wetland already drained or filled since
        the date of subd. 9(f) (parameter ``de_minimis.cumulative.since``).
    landowner_portion_sqft : float, optional
        Size of the landowner's portion of the wetland, for the percentage limit of
        subd. 9(f)(2); unknown if ``None``.
    owns_entire_wetland : bool or None, default True
        Whether the landowner owns the entire wetland (subd. 9(f)(1)). ``None`` (unknown)
        is answered as the engine does: decided both ways, and where the answers differ the
        project and the impacts exempt only if the landowner owns it are ``CONDITIONAL``,
        with a verify item naming the fact.
    other_exemption_claimed : bool, default False
        Another exemption of § 103G.2241 is claimed on the project (subd. 9(g)).
    shoreland_increase, setback_increase : bool, default False
        The subd. 9(b) and 9(c) increases (see :func:`de_minimis_allowance`).
    local_limit_sqft : float, optional
        A more restrictive local standard (subd. 9(i)), applied to every amount.
    params : ParameterSet, optional
        Parameter tree (default: the shipped one).
    as_of : str or date, optional
        Date the law is applied as of (default: today).

    Returns
    -------
    DeMinimisResult
        ``project`` (``value`` True when every impact in scope is exempt), ``by_impact``
        and ``groups``.

    Raises
    ------
    RulesInputError
        On an empty project, duplicate impact ids, an unknown reading or bad numbers.

    Notes
    -----
    * Totals. Impact areas are totalled by type group: types 1, 2, 6, 7 (not white cedar
      or tamarack) and types 3, 4, 5, 8 with white cedar and tamarack wetlands. An area is
      compared "at most": a total equal to the amount is exempt, one square foot over is
      not. Where a total exceeds its amount, every impact in it is not exempt and the
      entire amount must be replaced, not only the excess (Minn. R. 8420.0420, subp. 1).
    * Subd. 9(e), ``most_restrictive`` (the only reading). "The amounts listed in
      paragraphs (a), (b), and (c) may not be combined on a project": every impact of the
      project, of every type group, is held to the smallest amount the zones the project
      touches give it (setback < protection < outside, except that a type 7 wetland in a
      metropolitan less than 50 percent area has no amount outside the protection zone).
      The ``per_zone`` reading, which added the amounts of several paragraphs together,
      was removed (issue 13).
    * Minn. R. 8420.0420, subp. 1: when any total exceeds its amount the project is not
      exempt and every impact of it, of every type group, must be replaced.
    * This function answers the de minimis question alone. The project's decision, in the
      order of every rule, is :func:`wetland_gis.rules.decide_project`.
    * Subd. 9(c) gives its amount for "wetland" of any type, so every area held to the
      setback-zone amount forms one total across both type groups.
    * Type 7 wetlands in a metropolitan less than 50 percent area outside the protection
      zone have no amount (subd. 9(d)(2) lists types 1, 2, 6); they are not exempt and are
      not counted in a (d)(2) total of types 1, 2, 6. Under ``most_restrictive`` their area
      still counts in the total their type group is held to in the protection zone ((b)(1),
      "type 1, 2, 6, or 7 wetland") or the setback zone ((c), any wetland).
    * Totals and the cumulative limit are computed exactly from the areas as written
      (:func:`~wetland_gis.rules.facts.exact`): fills of 652.2, 1,101.9, 101.1 and 144.8
      sq ft are exactly 2,000 sq ft.
    * Subd. 9(f). A total stays exempt only while the prior area since 1992 plus the total
      is at most the greatest of: the total's amount (if the landowner owns the entire
      wetland), the percentage of the landowner's portion, and the floor. The tool does not
      know in which wetland the prior area lies, so it adds it to every total (conservative).
    * Calcareous fens (§ 103G.223) are prohibited, and wetlands in the bank or already used
      for replacement credit are not exempt (Minn. R. 8420.0420, subp. 1); their areas still
      count in the project's totals. Public waters wetlands are out of scope (§ 103G.005,
      subd. 15a, 19(b)) and are not counted.
    """
    if owns_entire_wetland is None:
        return _unknown_ownership(
            impacts,
            multi_zone_reading=multi_zone_reading,
            cumulative_sqft_since_1992=cumulative_sqft_since_1992,
            landowner_portion_sqft=landowner_portion_sqft,
            other_exemption_claimed=other_exemption_claimed,
            shoreland_increase=shoreland_increase,
            setback_increase=setback_increase,
            local_limit_sqft=local_limit_sqft,
            params=params,
            as_of=as_of,
        )
    trace = Trace("de_minimis", params, as_of)
    items = _check_project(impacts, multi_zone_reading)
    cumulative = check_area(cumulative_sqft_since_1992, "cumulative_sqft_since_1992")
    portion = (
        None
        if landowner_portion_sqft is None
        else check_area(landowner_portion_sqft, "landowner_portion_sqft", positive=True)
    )
    local = None if local_limit_sqft is None else check_area(local_limit_sqft, "local_limit_sqft")
    for name, flag in (
        ("owns_entire_wetland", owns_entire_wetland),
        ("other_exemption_claimed", other_exemption_claimed),
        ("shoreland_increase", shoreland_increase),
        ("setback_increase", setback_increase),
    ):
        check_flag(flag, name)

    in_scope = [f for f in items if not f.public_waters_wetland]
    out_scope = [f for f in items if f.public_waters_wetland]

    def amount_for(f: ImpactFacts, zone: ShorelandZone) -> _Amount:
        return _allowance(
            trace,
            f.wetland_type,
            zone,
            f.pct_class,
            f.metro,
            cedar=f.cedar_tamarack,
            shoreland_increase=shoreland_increase,
            setback_increase=setback_increase,
            local_limit=local,
        )

    groups_of = {
        f.impact_id: type_group(f.wetland_type, f.cedar_tamarack, trace.params, trace.day)
        for f in in_scope
    }
    parts = _parts(in_scope, groups_of, multi_zone_reading, amount_for)

    # The cumulative rule of subd. 9(f).
    since = trace.value(_DE_MINIMIS + "cumulative.since")
    pct_portion = trace.value(_DE_MINIMIS + "cumulative.percent_of_portion")
    floor = trace.value(_DE_MINIMIS + "cumulative.floor")
    cumulative_keys = tuple(
        _DE_MINIMIS + k
        for k in ("cumulative.since", "cumulative.percent_of_portion", "cumulative.floor")
    )

    pools: dict[str, list[_Part]] = {}
    for part in parts:
        pools.setdefault(part.pool, []).append(part)
    results: dict[str, DeMinimisGroup] = {}
    for name, members in pools.items():
        results[name] = _evaluate_pool(
            name,
            members,
            cumulative=cumulative,
            portion=portion,
            owns_entire=owns_entire_wetland,
            other_exemption=other_exemption_claimed,
            pct_portion=pct_portion,
            floor=floor,
            since=since,
        )

    multi_zone = {
        g: zones for g, zones in _zones_by_group(in_scope, groups_of).items() if len(zones) > 1
    }
    parts_of: dict[Hashable, list[_Part]] = {}
    for part in parts:
        parts_of.setdefault(part.impact.impact_id, []).append(part)
    by_impact: dict[Hashable, Decision] = {}
    for f in items:
        if f.public_waters_wetland:
            by_impact[f.impact_id] = _out_of_scope(f, trace)
            continue
        own = parts_of[f.impact_id]
        mine = [results[p.pool] for p in own]
        # Minn. R. 8420.0420, subp. 1: a failed total of the project fails every impact
        others = [g for g in results.values() if not g.exempt and g not in mine]
        by_impact[f.impact_id] = _impact_decision(
            f,
            own,
            mine + others,
            trace=trace,
            reading=multi_zone_reading,
            multi_zone=multi_zone.get(groups_of[f.impact_id], ()),
            other_exemption=other_exemption_claimed,
            cumulative=cumulative,
            cumulative_keys=cumulative_keys,
        )

    project = _project_decision(
        trace,
        in_scope=in_scope,
        out_scope=out_scope,
        by_impact=by_impact,
        groups=list(results.values()),
        reading=multi_zone_reading,
        multi_zone=multi_zone,
        cumulative=cumulative,
        since=since,
        owns_entire=owns_entire_wetland,
        portion=portion,
        other_exemption=other_exemption_claimed,
    )
    return DeMinimisResult(project=project, by_impact=by_impact, groups=tuple(results.values()))


_V_OWNERSHIP = (
    "Whether the landowner owns the entire wetland (subd. 9(f)(1); column "
    "owns_whole_wetland): the project is exempt only if so."
)


def _unknown_ownership(impacts: Sequence[ImpactFacts], **kwargs: Any) -> DeMinimisResult:
    """Decide with the ownership fact unknown: both ways; conditional where they differ."""
    owns = de_minimis(impacts, owns_entire_wetland=True, **kwargs)
    not_owns = de_minimis(impacts, owns_entire_wetland=False, **kwargs)
    if owns.project.outcome is not_owns.project.outcome:
        return not_owns
    project = replace(
        owns.project,
        outcome=Outcome.CONDITIONAL,
        value=False,
        reasons=(
            *owns.project.reasons,
            "The project is de minimis only if the landowner owns the entire wetland; "
            "otherwise: " + " ".join(not_owns.project.reasons),
        ),
        verify=(*owns.project.verify, _V_OWNERSHIP),
    )
    by_impact = {}
    for iid, d in owns.by_impact.items():
        other = not_owns.by_impact[iid]
        by_impact[iid] = (
            replace(d, outcome=Outcome.CONDITIONAL, verify=(*d.verify, _V_OWNERSHIP))
            if d.outcome is not other.outcome
            else other
        )
    return DeMinimisResult(project, by_impact, not_owns.groups)


def _check_project(impacts: Sequence[ImpactFacts], reading: str) -> list[ImpactFacts]:
    check_choice(reading, MULTI_ZONE_READINGS, "multi_zone_reading")
    if isinstance(impacts, ImpactFacts):
        impacts = [impacts]
    items = list(impacts)
    if not items:
        raise RulesInputError("impacts is empty: a project needs at least one ImpactFacts")
    check_impacts(items)
    return items


def _zones_by_group(
    impacts: Sequence[ImpactFacts], groups_of: Mapping[Hashable, str]
) -> dict[str, tuple[ShorelandZone, ...]]:
    zones: dict[str, set[ShorelandZone]] = {}
    for f in impacts:
        zones.setdefault(groups_of[f.impact_id], set()).update(f.zones)
    return {g: tuple(z for z in ZONE_ORDER if z in zs) for g, zs in zones.items()}


def _parts(
    impacts: Sequence[ImpactFacts],
    groups_of: Mapping[Hashable, str],
    reading: str,
    amount_for: Any,
) -> list[_Part]:
    parts: list[_Part] = []
    if reading == MOST_RESTRICTIVE:
        # subd. 9(e), across type groups too: every impact is held to the amounts of the
        # most restrictive zone any impact of the project touches
        touched = tuple(z for z in ZONE_ORDER if any(f.sqft_in(z) > 0 for f in impacts))
        zones_of = {g: touched for g in set(groups_of.values())}
        for f in impacts:
            group = groups_of[f.impact_id]
            zones = zones_of[group] or (ShorelandZone.OUTSIDE,)
            options = [amount_for(f, z) for z in zones]
            # The smallest amount binds; on a tie, the zone first in the statutory order.
            binding = min(options, key=lambda a: (a.sqft, _RANK[a.zone]))
            if not binding.has_amount:
                # No amount binds this impact, but its wetland is still "type 1, 2, 6, or 7
                # wetland" of (b)(1) and "wetland" of (c): it counts in the total the rest
                # of its group is held to there (not in a (d)(2) total, which lists types
                # 1, 2 and 6 only). Added first, so that the "no_amount" total, which
                # decides the impact, comes after it in the project's groups.
                counted = [a for a in options if a.has_amount]
                if counted:
                    shadow = min(counted, key=lambda a: (a.sqft, _RANK[a.zone]))
                    parts.append(_Part(f, f.exact_area, shadow, _pool(shadow, None), True))
            parts.append(_Part(f, f.exact_area, binding, _pool(binding, None)))
    else:
        for f in impacts:
            zones = f.zones or (ShorelandZone.OUTSIDE,)
            for zone in zones:
                amount = amount_for(f, zone)
                parts.append(_Part(f, exact(f.sqft_in(zone)), amount, _pool(amount, zone)))
    # A total made only of counted area decides no impact: leave it out.
    deciding = {p.pool for p in parts if not p.counted_only}
    return [p for p in parts if p.pool in deciding]


def _pool(amount: _Amount, zone: ShorelandZone | None) -> str:
    if not amount.has_amount:
        return NO_AMOUNT_POOL
    if amount.zone is ShorelandZone.BUILDING_SETBACK:
        return SETBACK_POOL
    if zone is None:
        return amount.group
    return f"{amount.group}:{zone.value}"


def _evaluate_pool(
    name: str,
    members: list[_Part],
    *,
    cumulative: float,
    portion: float | None,
    owns_entire: bool,
    other_exemption: bool,
    pct_portion: float,
    floor: float,
    since: dt.date,
) -> DeMinimisGroup:
    exact_total = sum((p.sqft for p in members), Fraction(0))
    total = float(exact_total)
    allowance = min(p.amount.sqft for p in members)
    citations = tuple(dict.fromkeys(c for p in members for c in p.amount.citations))
    ids = tuple(dict.fromkeys(p.impact.impact_id for p in members))
    type_groups = tuple(dict.fromkeys(p.amount.group for p in members))
    zones = tuple(z for z in ZONE_ORDER if any(p.amount.zone is z for p in members))
    reasons: list[str] = []
    within = exact_total <= exact(allowance)
    # the group's identity and total; each return gives the outcome fields
    group = partial(DeMinimisGroup, name, type_groups, zones, ids, total, allowance, citations)
    if name == NO_AMOUNT_POOL:
        reasons.append(
            f"{fmt_sqft(total)} of the project lies where no paragraph of subd. 9 gives an "
            "amount, so none of it is de minimis."
        )
        return group(
            within_allowance=exact_total <= 0,
            cumulative_total_sqft=None,
            cumulative_limit_sqft=None,
            exempt=exact_total <= 0 and not other_exemption,
            reasons=tuple(reasons),
        )
    amounts = {p.amount.sqft for p in members}
    if len(amounts) > 1:
        reasons.append(
            "The impacts in this total have different amounts ("
            + ", ".join(fmt_sqft(a) for a in sorted(amounts))
            + "); the total is held to the smallest."
        )
    relation = "within" if within else "over"
    reasons.append(
        f"Project total {fmt_sqft(total)} is {relation} the amount of {fmt_sqft(allowance)}."
    )
    limits: list[Fraction] = []
    if owns_entire:
        limits.append(exact(allowance))
    if portion is not None:
        limits.append(exact(portion) * exact(pct_portion) / PERCENT)
    limits.append(exact(floor))
    exact_limit = max(limits)
    exact_cumulative = exact(cumulative) + exact_total
    cumulative_ok = exact_cumulative <= exact_limit
    limit = float(exact_limit)
    cumulative_total = float(exact_cumulative)
    if within and not cumulative_ok:
        reasons.append(
            f"Subd. 9(f): {fmt_sqft(cumulative)} already drained or filled of the landowner's "
            f"portion since {since.isoformat()} plus this {fmt_sqft(total)} is "
            f"{fmt_sqft(cumulative_total)}, more than the greatest of the subd. 9(f) limits "
            f"({fmt_sqft(limit)}): the exemption no longer applies."
        )
    exempt = within and cumulative_ok and not other_exemption
    return group(
        within_allowance=within,
        cumulative_total_sqft=cumulative_total,
        cumulative_limit_sqft=limit,
        exempt=exempt,
        reasons=tuple(reasons),
    )


def _out_of_scope(f: ImpactFacts, parent: Trace) -> Decision:
    trace = Trace("de_minimis_impact", parent.params, parent.day)
    trace.amounts.update(area_sqft=f.area_sqft, not_exempt_sqft=0.0)
    trace.cite("Minn. Stat. § 103G.005, subd. 15a", OUTSIDE_WCA)
    trace.because(
        f'Impact {f.impact_id!r} is to a public waters wetland, which is not a "wetland" '
        "regulated by the Wetland Conservation Act (§ 103G.005, subd. 19(b)); it goes to the "
        "DNR public waters process and is not counted in the de minimis totals."
    )
    trace.check("The DNR public waters inventory confirms the public waters wetland.")
    return trace.decide(Outcome.OUT_OF_SCOPE, None)


def _describe(f: ImpactFacts) -> str:
    zones = "; ".join(
        f"{fmt_sqft(f.sqft_in(z))} {zone_words(z)}" for z in ZONE_ORDER if f.sqft_in(z) > 0
    )
    kind = f"type {int(f.wetland_type)}" + (" white cedar and tamarack" if f.cedar_tamarack else "")
    return f"Impact {f.impact_id!r}: {fmt_sqft(f.area_sqft)} of {kind} wetland" + (
        f" ({zones})." if zones else "."
    )


def _impact_decision(
    f: ImpactFacts,
    own: list[_Part],
    pools: list[DeMinimisGroup],
    *,
    trace: Trace,
    reading: str,
    multi_zone: tuple[ShorelandZone, ...],
    other_exemption: bool,
    cumulative: float,
    cumulative_keys: tuple[str, ...],
) -> Decision:
    out = Trace("de_minimis_impact", trace.params, trace.day)
    area = f.area_sqft
    out.amounts["area_sqft"] = area
    for z in ZONE_ORDER:
        out.amounts[f"sqft_{z.name.lower()}"] = f.sqft_in(z)
    out.because(_describe(f))
    for part in own:
        if part.counted_only:
            continue
        out.used.update(part.amount.parameters)
        out.cite(*part.amount.citations)
        out.because(*part.amount.reasons)
        out.check(part.amount.verify)
    for part in own:
        if part.counted_only:
            out.used.update(part.amount.parameters)
            out.because(
                f"Its area still counts in the project's total held to "
                f"{fmt_sqft(part.amount.sqft)} {zone_words(part.amount.zone)} "
                f"({', '.join(_short(c) for c in part.amount.citations)}), whose words cover "
                "this wetland."
            )
    allowance = min(p.amount.sqft for p in own if not p.counted_only)
    out.amounts["allowance_sqft"] = allowance

    if multi_zone:
        out.cite(f"{SUBD9}(e)")
        words = ", ".join(zone_words(z) for z in multi_zone)
        if reading == MOST_RESTRICTIVE:
            out.because(
                f"The project's impacts of this type group lie {words}; the amounts of "
                "paragraphs (a), (b) and (c) may not be combined (subd. 9(e)), so this impact "
                f"is held to the most restrictive amount, {fmt_sqft(allowance)}."
            )
        else:
            out.because(
                f"The project's impacts of this type group lie {words}; under the per-zone "
                "reading of subd. 9(e) each zone's area is held to its own amount."
            )
            out.check(
                "The per-zone reading of subd. 9(e) was chosen: the local government unit "
                "must confirm that each zone's area may be held to its own amount on one "
                "project (the default reading holds all of it to the most restrictive)."
            )

    for pool in pools:
        out.because(*(f"{_pool_words(pool)}: {r}" for r in pool.reasons))
    failed = [p for p in pools if not p.exempt]
    ineligible = f.calcareous_fen or f.banked or f.used_for_replacement_credit

    if f.calcareous_fen:
        out.cite(CALCAREOUS_FENS, EXEMPTION_STANDARDS)
        out.because(
            "A calcareous fen may not be filled, drained or otherwise degraded unless the "
            "commissioner of natural resources decides under an approved management plan "
            "(§ 103G.223); no exemption applies to it (Minn. R. 8420.0420, subp. 1)."
        )
        out.check("The calcareous fen identification (commissioner's order in the State Register).")
    if f.banked:
        out.cite(EXEMPTION_STANDARDS)
        out.because(
            "The wetland is deposited in the wetland bank: exemptions do not apply "
            "(Minn. R. 8420.0420, subp. 1)."
        )
    if f.used_for_replacement_credit:
        out.cite(EXEMPTION_STANDARDS)
        out.because(
            "The wetland has already been used for replacement credit: exemptions do not "
            "apply (Minn. R. 8420.0420, subp. 1)."
        )
    if other_exemption:
        out.cite(f"{SUBD9}(g)")
        out.because(
            "Another exemption of § 103G.2241 is claimed on this project, and the de minimis "
            "exemption may not be combined with it (subd. 9(g))."
        )
        out.check(
            "If the other exemption is not relied on, run the de minimis test again without it."
        )

    exempt = not ineligible and not other_exemption and not failed
    if exempt:
        out.because(f"Impact {f.impact_id!r} is de minimis: no replacement plan is required.")
        out.check(
            "Exemption conditions: erosion control, no blocking of fish passage, and "
            "compliance with all other requirements (§ 103G.2241, subd. 11(a))."
        )
        out.amounts["not_exempt_sqft"] = 0.0
        return out.decide(Outcome.EXEMPT, allowance)

    for pool in failed:
        if not pool.within_allowance:
            out.cite(*pool.citations)
            if pool.name != NO_AMOUNT_POOL:
                out.cite(EXEMPTION_STANDARDS)
                out.because(
                    f"The project total of {fmt_sqft(pool.total_sqft)} exceeds the amount of "
                    f"{fmt_sqft(pool.allowance_sqft)}, so the whole impact is not exempt: all "
                    f"{fmt_sqft(area)} must be replaced, not only the excess "
                    "(Minn. R. 8420.0420, subp. 1)."
                )
        elif (
            pool.cumulative_limit_sqft is not None
            and pool.cumulative_total_sqft is not None
            and pool.cumulative_total_sqft > pool.cumulative_limit_sqft
        ):
            out.cite(f"{SUBD9}(f)")
            for key in cumulative_keys:
                out.used[key] = trace.used[key]
            out.amounts["cumulative_total_sqft"] = pool.cumulative_total_sqft
            out.amounts["cumulative_limit_sqft"] = pool.cumulative_limit_sqft
    out.amounts["not_exempt_sqft"] = area
    if cumulative:
        out.amounts["cumulative_sqft_since_1992"] = cumulative
    outcome = Outcome.PROHIBITED if f.calcareous_fen else Outcome.NOT_EXEMPT
    out.because(
        f"Impact {f.impact_id!r} is not de minimis"
        + (": it is prohibited." if f.calcareous_fen else ": replacement is required.")
    )
    return out.decide(outcome, 0.0 if ineligible else allowance)


def _pool_words(pool: DeMinimisGroup) -> str:
    if pool.name == SETBACK_POOL:
        return "Setback-zone total (all types, subd. 9(c))"
    if pool.name == NO_AMOUNT_POOL:
        return "Area without an amount"
    group, _, zone = pool.name.partition(":")
    words = "types 1, 2, 6, 7" if group == TYPES_1_2_6_7 else "types 3, 4, 5, 8 and cedar"
    if zone:
        return f"Total of {words} {zone_words(ShorelandZone(zone))}"
    return f"Total of {words}"


def _project_decision(
    trace: Trace,
    *,
    in_scope: list[ImpactFacts],
    out_scope: list[ImpactFacts],
    by_impact: Mapping[Hashable, Decision],
    groups: list[DeMinimisGroup],
    reading: str,
    multi_zone: Mapping[str, tuple[ShorelandZone, ...]],
    cumulative: float,
    since: dt.date,
    owns_entire: bool,
    portion: float | None,
    other_exemption: bool,
) -> Decision:
    for decision in by_impact.values():
        trace.cite(*decision.citations)
        trace.check(decision.verify)
    trace.cite(f"{SUBD9}(f)")

    def total(items: list[ImpactFacts]) -> float:
        return float(sum((f.exact_area for f in items), Fraction(0)))

    exempt_items = [f for f in in_scope if by_impact[f.impact_id].outcome is Outcome.EXEMPT]
    other_items = [f for f in in_scope if by_impact[f.impact_id].outcome is not Outcome.EXEMPT]
    trace.amounts.update(
        total_sqft=total(in_scope),
        out_of_scope_sqft=total(out_scope),
        exempt_sqft=total(exempt_items),
        not_exempt_sqft=total(other_items),
        cumulative_sqft_since_1992=cumulative,
    )
    if multi_zone:
        trace.cite(f"{SUBD9}(e)")
    for g in groups:
        trace.because(
            f"{_pool_words(g)} ({', '.join(str(i) for i in g.impact_ids)}): "
            f"{fmt_sqft(g.total_sqft)} against {fmt_sqft(g.allowance_sqft)}: "
            + ("exempt." if g.exempt else "not exempt.")
        )
    reading_words = (
        "every impact of a type group is held to the most restrictive amount of the zones the "
        "group touches"
        if reading == MOST_RESTRICTIVE
        else "each zone's area is held to that zone's own amount (alternative reading)"
    )
    if multi_zone:
        trace.because(f"Subd. 9(e) reading: {reading_words}.")
    ownership = "owns" if owns_entire else "does not own"
    portion_words = (
        f"a portion of {fmt_sqft(portion)}" if portion is not None else "portion size unknown"
    )
    trace.because(
        f"Subd. 9(f): {fmt_sqft(cumulative)} drained or filled since {since.isoformat()}; "
        f"the landowner {ownership} the entire wetland ({portion_words})."
    )
    trace.check(
        "The landowner's cumulative area drained or filled since "
        f"{since.isoformat()} and the ownership of the wetland (subd. 9(f)).",
        "The project is the whole project as defined by the local government unit, not split "
        "into components or phases to gain exemptions (§ 103G.005, subd. 14d).",
        "Wetland types, white cedar and tamarack status and zone boundaries come from a "
        "delineation reviewed by the Technical Evaluation Panel (§ 103G.2242, subd. 2).",
    )
    if any(f.sqft_outside > 0 for f in in_scope):
        trace.check(_VERIFY_H)
    if portion is None and not owns_entire:
        trace.check(
            "The size of the landowner's portion of the wetland, for the percentage limit of "
            "subd. 9(f)(2)."
        )
    counted = [f for f in in_scope if f.calcareous_fen or f.banked or f.used_for_replacement_credit]
    if counted and len(counted) < len(in_scope):
        trace.check(
            "Impacts to calcareous fens, banked wetlands or wetlands used for replacement "
            "credit are counted in the project totals (they are drained or filled as part of "
            "the project); the local government unit should confirm."
        )
    if other_exemption:
        trace.cite(f"{SUBD9}(g)")
    if not in_scope:
        trace.because("Every impact is to a public waters wetland: outside the WCA.")
        return trace.decide(Outcome.OUT_OF_SCOPE, False)
    exempt = all(by_impact[f.impact_id].outcome is Outcome.EXEMPT for f in in_scope)
    if exempt:
        trace.because("Every impact in scope is de minimis: the project needs no replacement plan.")
        return trace.decide(Outcome.EXEMPT, True)
    trace.because(
        "At least one impact is not de minimis: the project needs a replacement plan for "
        f"{fmt_sqft(trace.amounts['not_exempt_sqft'])}"
        + (
            " (calcareous fen impacts are prohibited)."
            if any(f.calcareous_fen for f in in_scope)
            else "."
        )
    )
    return trace.decide(Outcome.NOT_EXEMPT, False)


# --- the engine's steps (rules/engine.py orders them) -----------------------------------

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

    Subd. 9(e) (the paragraph), the amount of each impact (9(a)-(d), (i)), the totals,
    9(f) per landowner's portion of a wetland, 9(g) and the project's answer. Returns the
    de minimis outcome, the condition text of a conditional answer and the totals.
    """
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
            outcome=O_CLASSIFIED,
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
                outcome=O_NOT_ELIGIBLE,
                value=0.0,
                reason=why_none,
                verify=(),
                inputs={
                    "wetland_type": t,
                    "cedar_tamarack": cedar,
                    "zone": ZONE_VALUE[zone],
                    "pct_class": PCT_VALUE[f.pct_class],
                    "metro": f.metro,
                    "impact_kind": KIND_VALUE[f.impact_kind],
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
            outcome=O_ELIGIBLE,
            value=float(allow),
            reason=(_r_amount, (kind, allow, entry.citation, note)),
            verify=verify,
            inputs={
                "wetland_type": t,
                "cedar_tamarack": cedar,
                "zone": ZONE_VALUE[zone],
                "pct_class": PCT_VALUE[f.pct_class],
                "metro": f.metro,
                "increased": increased,
            },
            parameters={entry.key: entry.sqft},
        )

    # the totals
    pools: dict[str, list[Impact]] = {}
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
            outcome=O_CLASSIFIED,
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
        add(
            project=project,
            impact_id="",
            rule_id=R.DE_MINIMIS_TOTAL,
            citation="; ".join(cites) or SUBD9,
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

    # Subd. 9(f): per landowner's portion of a wetland
    conditional: list[str] = []
    cumulative_ok = True
    if all_within:
        # one landowner's portion of one wetland; without a wetland id, the impacts of one
        # landowner in one de minimis total are taken as one wetland (docs/decisions.md)
        owners: dict[tuple[str, str], list[Impact]] = {}
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
        citation=SUBD9 if w.dm is not Outcome.NOT_EXEMPT else f"{SUBD9}; {WHOLE_PROJECT}",
        outcome=OUTCOME_VALUE[w.dm],
        value=allow,
        reason=reason,
        verify=verify,
        inputs=inputs_dm,
    )


def _amount_of(w: Impact) -> Decimal:
    """Return the de minimis amount looked up for an impact in a de minimis total."""
    if w.allow is None:  # pragma: no cover - de_minimis_steps sets it for every impact in scope
        raise AssertionError(f"impact {w.iid!r}: its de minimis amount was not looked up")
    return w.allow


def _cumulative(
    project: str, owner: str, wetland: str, members: list[Impact], book: RuleBook, log: TraceLog
) -> tuple[bool, str]:
    """Subd. 9(f) for one landowner's portion of one wetland: (passes, condition text)."""
    claims = book.claims
    priors = [w.f.prior_sqft_since_1992 for w in members if w.f.prior_sqft_since_1992 is not None]
    prior_known = bool(priors) or claims.prior_sqft_since_1992 is not None
    prior = dec(max(priors)) if priors else dec(claims.prior_sqft_since_1992 or 0)
    owns_values = {w.f.owns_whole_wetland for w in members} - {None}
    owns = False if False in owns_values else True if owns_values else claims.owns_whole_wetland
    portions = [w.f.portion_sqft for w in members if w.f.portion_sqft is not None]
    portion = dec(min(portions)) if portions else None
    sizes = [w.f.wetland_acres for w in members if w.f.wetland_acres is not None]
    if portion is None and owns is True and sizes:
        portion = dec(min(sizes)) * book.sqft_per_acre  # the whole wetland is the portion
    total = sum((w.counted for w in members), Decimal(0))
    cumulative = prior + total
    applicable = min(_amount_of(w) for w in members)
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
            O_EXEMPT,
            f"Subd. 9(f): {who} has {fmt_sqft(float(cumulative))} drained or filled since "
            f"{book.since.isoformat()} (impacts {ids}), within "
            f"{fmt_sqft(float(limit_known))}, a limit that holds whoever owns the wetland.",
            verify,
        )
        return True, ""
    if cumulative <= applicable and owns is True:
        step(
            O_EXEMPT,
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
            O_CONDITIONAL,
            f"Subd. 9(f): {who} is exempt only if {condition}",
            (
                *verify,
                "Who owns the wetland and the size of each landowner's portion "
                "(columns owner, owns_whole_wetland, portion_sqft).",
            ),
        )
        return True, condition
    step(
        O_NOT_EXEMPT,
        f"Subd. 9(f): {who} has {fmt_sqft(float(cumulative))} drained or filled since "
        f"{book.since.isoformat()}, more than the greatest of the limits that apply "
        f"({fmt_sqft(float(max(limit_known, applicable) if owns else limit_known))}): "
        "the exemption no longer applies to this portion.",
        verify,
    )
    return False, ""


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
