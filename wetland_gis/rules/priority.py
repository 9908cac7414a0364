"""Where replacement may be sited: the priority order of Minn. Stat. § 103G.222, subd. 3.

Pure rules on plain values, no geometry. A place is a :class:`SitingPlace` (minor
watershed, major watershed, bank service area, percentage-area class); the geometry
step (:mod:`wetland_gis.siting.rank`) produces one for each impact and each option.

* :func:`siting_tier` - the tier of one replacement option for one impact
  (subd. 3(a)(1)-(4)), with the greater-than-80-percent exclusion (subd. 3(a), first
  sentence) and the banking rule that the order begins at clause (3) (subd. 3(c)).
* :func:`next_tier_condition` - whether the applicant may seek replacement at the next
  level because the higher levels have no opportunity or too little (subd. 3(d)); the
  reasonableness test of subd. 3(e) is left to the Technical Evaluation Panel.
* :func:`siting_priority` - the level of an option in its method's own order (subd. 3(c)).
* :func:`option_ratio` - the decided ratio of an impact with the user's adjustments for
  its relation to one option (Minn. R. 8420.0522); the ratio itself is never decided here.
* :func:`replacement_action_eligibility` - whether a project-specific site's action may
  be used for replacement (subd. 1(i); § 103G.2242, subd. 12(c)).

Unknown place values are never guessed: the tier given is the best one that can be
proved from what is known, and a verify item names the missing value.

Examples
--------
>>> impact = SitingPlace(minor="07001", major=7, bsa=2)
>>> option = SitingPlace(minor="07002", major=7, bsa=2)
>>> siting_tier(impact, option, is_bank=False, as_of="2024-05-01").value
<SitingTier.SAME_MAJOR_WATERSHED: 2>
>>> siting_tier(impact, option, is_bank=True, as_of="2024-05-01").value
<SitingTier.SAME_BANK_SERVICE_AREA: 3>
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from wetland_gis.decision import Decision
from wetland_gis.enums import Outcome, PercentageArea, SitingTier
from wetland_gis.errors import RulesInputError
from wetland_gis.names import key_of
from wetland_gis.parameters import RATIO_CONDITIONS, Adjustments, default_parameters
from wetland_gis.rules.facts import Trace, exact, fmt_number, percentage_class_of
from wetland_gis.rules.replacement import adjust_ratio
from wetland_gis.rules.spec import question

# The citations each question writes, from its entry in the rule spec (rules/spec.py).
_SITING, _NEXT, _ACTION = (
    question(q) for q in ("siting_tier", "next_tier_condition", "replacement_action")
)
#: Impacted wetlands outside a greater than 80 percent area must not be replaced in one.
CITE_EXCLUSION = _SITING.clause("3(a)")
#: A bank service area can itself be a greater than 80 percent area for replacement.
CITE_BSA_CLASS = _SITING.clause("10b")
#: The four siting priorities, by tier.
CITE_TIER = {tier: _SITING.clause(f"3(a)({int(tier)})") for tier in SitingTier}
#: Replacement by wetland banking begins at clause (3).
CITE_BANKING = _SITING.clause("3(c)")
#: Default reading of subd. 3(c): "Notwithstanding paragraph (a), clauses (1) and (2), the
#: priority order for replacement by wetland banking begins at paragraph (a), clause (3)."
#: Banking has its own priority order, which starts at clause (3): a bank credit in the
#: impact's bank service area meets the siting priority and is not outranked by
#: project-specific sites; between them the applicant chooses (cost, then distance).
BANKING_OWN_ORDER = "banking_own_order"
#: Stricter alternative: one priority order for every option; a same-bank-service-area
#: credit (clause (3)) comes after project-specific sites of clauses (1) and (2).
SINGLE_ORDER = "single_order"
SITING_READINGS = (BANKING_OWN_ORDER, SINGLE_ORDER)
#: The applicant may seek opportunities at the next level only when none are available.
CITE_NEXT_LEVEL = _NEXT.clause("3(d)")
#: What "reasonable, practicable, and environmentally beneficial" means.
CITE_REASONABLE = _NEXT.clause("3(e)")
CITE_COLLABORATE = _NEXT.clause("3(f)")
CITE_ACTIONS = _ACTION.clause("1(i)")
CITE_CREDIT_ACTIONS = _ACTION.clause("12(c)")

_WATERSHED = (
    "a watershed is one of the 81 major watershed units (Minn. Stat. § 103G.005, subd. 17a)"
)


#: Replacement actions the statute names, with the clause naming each and where it applies:
#: ``"anywhere"``, ``"greater_than_80"`` (only in a greater than 80 percent area) or
#: ``"never"`` (not eligible anywhere). Values of the sites' ``action`` field are read
#: with :func:`normalise_action`.
class _ReplacementActions(Mapping[str, tuple[str, str, str]]):
    """The replacement actions of the parameter tree (``replacement.actions``), read lazily.

    A view of the shipped tree's value in force today: action -> (where, citation, words).
    :func:`replacement_action_eligibility` reads the tree on its decision date.
    """

    def _table(self) -> dict[str, tuple[str, str, str]]:
        return _actions_of(default_parameters().value(_ACTIONS_KEY))

    def __getitem__(self, key: str) -> tuple[str, str, str]:
        return self._table()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())


_ACTIONS_KEY = "replacement.actions"


def _actions_of(table: Mapping[str, Mapping[str, str]]) -> dict[str, tuple[str, str, str]]:
    return {k: (v["where"], v["reference"], v["description"]) for k, v in table.items()}


REPLACEMENT_ACTIONS: Mapping[str, tuple[str, str, str]] = _ReplacementActions()

_ACTION_ALIASES = {
    "restore": "restoration",
    "restored": "restoration",
    "wetland_restoration": "restoration",
    "create": "creation",
    "created": "creation",
    "excavation": "creation",
    "wetland_creation": "creation",
    "dike_along_ditch": "ditch_dike",
    "dam_along_ditch": "ditch_dike",
    "ditch_dam": "ditch_dike",
    "buffers": "buffer",
    "upland_buffer": "buffer",
    "vegetative_restoration": "vegetative_cover",
    "easement": "terminated_easement",
    "storm_water_pond": "stormwater_pond",
    "water_quality_pond": "stormwater_pond",
    "riparian": "stream_riparian",
    "stream_restoration": "stream_riparian",
    "conversion": "type_conversion",
}

_STORMWATER_VERIFY = (
    "that the storm water pond pretreats runoff, is associated with a project that impacts a "
    "wetland, is credited on the replacement of wetland functions under an approved storm "
    "water management plan (Minn. Stat. § 103G.2242, subd. 12(c)(4)) and functions as a "
    "wetland (§ 103G.222, subd. 1(e))"
)


@dataclass(frozen=True)
class SitingPlace:
    """Where an impact or a replacement option lies, in the terms of subd. 3.

    Parameters
    ----------
    minor : str or None
        Minor watershed id (DNR Level 7), as text (a number read from a file is text
        without a decimal point, ``7001.0`` is ``"7001"``; see
        :func:`wetland_gis.siting.rank.siting_place`).
    major : int or None
        Major watershed number, 1-81 (§ 103G.005, subd. 17a; DNR Level 4).
    bsa : int, str or None
        Wetland bank service area number (text when it is not a number).
    pct_class : PercentageArea or None
        Percentage-area class of the place (§ 103G.005, subd. 10a, 10b, 10h). For a bank
        the class may be that of its bank service area (subd. 10b, "for purposes of
        wetland replacement").

    ``None`` means "unknown". The values are parsed ones: the rules core does not read a
    user's text (:func:`wetland_gis.siting.rank.siting_place` reads a file's values,
    where NaN, ``pd.NA`` and blank text mean "unknown").

    Raises
    ------
    RulesInputError
        On a value of another type (a major watershed that is not a whole number, ...) or
        a percentage class not in :class:`~wetland_gis.enums.PercentageArea`.
    """

    minor: str | None = None
    major: int | None = None
    bsa: int | str | None = None
    pct_class: PercentageArea | None = None

    def __post_init__(self) -> None:
        """Check the values are parsed ones (read user text with ``siting_place``)."""
        if self.minor is not None and not isinstance(self.minor, str):
            raise RulesInputError(
                f"minor watershed {self.minor!r} is not an id (text); read it with "
                "wetland_gis.siting.rank.siting_place"
            )
        if self.major is not None and (
            isinstance(self.major, bool) or not isinstance(self.major, int)
        ):
            raise RulesInputError(
                f"major watershed {self.major!r} is not a whole number; give the DNR major "
                "watershed number 1-81"
            )
        if self.bsa is not None and (
            isinstance(self.bsa, bool) or not isinstance(self.bsa, int | str)
        ):
            raise RulesInputError(
                f"bank service area {self.bsa!r} is not a whole number or an id (text)"
            )
        if self.pct_class is not None:
            object.__setattr__(self, "pct_class", percentage_class_of(self.pct_class))


def _same(a: Any, b: Any) -> bool | None:
    """Return True/False when both are known, None when either is unknown."""
    if a is None or b is None:
        return None
    return a == b


def siting_tier(
    impact: SitingPlace,
    option: SitingPlace,
    *,
    is_bank: bool,
    as_of: str | dt.date | None = None,
) -> Decision:
    """Return the siting priority of one replacement option for one impact.

    Parameters
    ----------
    impact : SitingPlace
        Where the impacted wetland lies.
    option : SitingPlace
        Where the replacement (a project-specific site or banked credits) lies.
    is_bank : bool
        True for wetland bank credits: their priority order begins at clause (3)
        (subd. 3(c)).
    as_of : str or date, optional
        Date of the decision (default today).

    Returns
    -------
    Decision
        ``question="siting_tier"``. ``outcome`` is ``Outcome.EXCLUDED`` (``value`` None)
        when the impact lies outside a greater than 80 percent area and the option inside
        one (subd. 3(a), first sentence); otherwise ``Outcome.RANKED`` with ``value`` the
        :class:`~wetland_gis.enums.SitingTier`. ``amounts`` holds ``tier`` and, as 1/0,
        ``same_minor_watershed`` and ``same_major_watershed`` where known (a tie-breaker
        among banks of one tier). ``verify`` names every unknown value that could change
        the answer.

    Notes
    -----
    With unknown values the tier is the best one that is *proved*: a site whose minor
    watershed is unknown but whose major watershed is the impact's is tier 2, with a
    verify item saying it is tier 1 if the minor watersheds match. Tier 4 ("another bank
    service area") is the last level and needs no proof.

    Examples
    --------
    >>> gt80 = PercentageArea.GREATER_THAN_80
    >>> lt50 = PercentageArea.LESS_THAN_50
    >>> d = siting_tier(SitingPlace(bsa=7, pct_class=lt50), SitingPlace(bsa=7, pct_class=gt80),
    ...                 is_bank=True, as_of="2024-05-01")
    >>> d.outcome.value
    'excluded'
    """
    trace = Trace("siting_tier", None, as_of)
    if not isinstance(impact, SitingPlace) or not isinstance(option, SitingPlace):
        raise RulesInputError("siting_tier needs two SitingPlace values (impact, option)")
    if not isinstance(is_bank, bool):
        raise RulesInputError(f"is_bank must be True or False, got {is_bank!r}")

    if _excluded_by_percentage_area(impact, option, trace):
        return trace.decide(Outcome.EXCLUDED, None)

    same = _Shared.of(impact, option)
    for name, flag in (("same_minor_watershed", same.minor), ("same_major_watershed", same.major)):
        if flag is not None:
            trace.amounts[name] = float(flag)

    tier = _bank_tier(same, trace) if is_bank else _site_tier(same, trace)
    trace.amounts["tier"] = float(int(tier))
    return trace.decide(Outcome.RANKED, tier)


def siting_priority(tier: SitingTier | int, *, is_bank: bool, reading: str) -> int:
    """Return the priority level of an option in the order it is ranked in (1 is first).

    Parameters
    ----------
    tier : SitingTier or int
        The option's tier (:func:`siting_tier`).
    is_bank : bool
        Whether the option is wetland bank credit.
    reading : {"banking_own_order", "single_order"}
        The reading of § 103G.222, subd. 3(c) (:data:`SITING_READINGS`).

    Returns
    -------
    int
        Under ``banking_own_order`` each method has its own order and the level is the
        option's place in it: a project-specific site's level is its tier (clauses (1) to
        (4)); banking's order begins at clause (3), so a credit in the impact's bank
        service area is level 1 of the banking order and one in another service area
        level 2. Levels of the two methods are not compared with each other: between the
        best site and the best bank credit the applicant chooses (cheapest first, then
        nearest; :func:`wetland_gis.siting.allocate.allocate`). Under ``single_order`` the
        level is the tier, one order for every option.

    Examples
    --------
    >>> siting_priority(3, is_bank=True, reading="banking_own_order")
    1
    >>> siting_priority(4, is_bank=True, reading="banking_own_order")
    2
    >>> siting_priority(2, is_bank=False, reading="banking_own_order")
    2
    >>> siting_priority(3, is_bank=True, reading="single_order")
    3
    """
    if reading not in SITING_READINGS:
        raise RulesInputError(
            f"siting reading {reading!r} is not one of {list(SITING_READINGS)} "
            "(docs/siting.md, subd. 3(c))"
        )
    level = int(_tier_of(tier))
    if reading == BANKING_OWN_ORDER and is_bank:
        if level < int(SitingTier.SAME_BANK_SERVICE_AREA):
            raise RulesInputError(
                f"bank credits are never tier {level}: the priority order for replacement by "
                "wetland banking begins at clause (3) (§ 103G.222, subd. 3(c))"
            )
        return level - int(SitingTier.SAME_BANK_SERVICE_AREA) + 1
    return level


def option_ratio(
    decided_ratio: float,
    *,
    after_the_fact_multiplier: float = 1.0,
    adjustments: Adjustments | None = None,
    conditions: Collection[str] = (),
    as_of: str | dt.date | None = None,
) -> Decision:
    """Return the ratio at which one option replaces an impact, from the decided ratio.

    The replacement ratio of an impact is decided once, by the rules engine
    (:func:`wetland_gis.rules.decide_project`; § 103G.222, subd. 1(f), (g), (n)), and
    written by ``assess`` in the columns ``ratio`` and ``atf_multiplier``. Siting never
    decides it again: it only adds the user's ratio adjustments (Minn. R. 8420.0522,
    supplied in the adjustments table) that hold for the relation between the impact and
    one option (in kind, in advance, outside the watershed, ...).

    Parameters
    ----------
    decided_ratio : float
        The impact's ratio as decided (after the subd. 1(n) multiplier), 0 or more.
    after_the_fact_multiplier : float, default 1
        The subd. 1(n) multiplier inside ``decided_ratio`` (1 when the plan is not
        after the fact), at least 1.
    adjustments : Adjustments, optional
        The user's ratio adjustments; none by default.
    conditions : collection of str
        The relation's conditions (:data:`wetland_gis.parameters.RATIO_CONDITIONS`).
    as_of : str or date, optional
        Date of the decision (default today).

    Returns
    -------
    Decision
        ``question="option_ratio"``, ``value`` the ratio. With no adjustment for the
        relation it is ``decided_ratio`` itself. Otherwise it is
        ``max(0, decided_ratio / multiplier + adjustments) * multiplier``: the adjustments
        are part of "the replacement ratio otherwise required" that subd. 1(n) multiplies,
        as in :func:`~wetland_gis.rules.replacement.replacement_ratio` (a test holds the
        two equal). ``amounts`` has ``decided_ratio``, ``adjustment_total``,
        ``after_the_fact_multiplier`` and ``ratio``.

    Raises
    ------
    RulesInputError
        On a negative or non-finite ratio, a multiplier below 1, or an unknown condition.

    Examples
    --------
    >>> option_ratio(4.0, after_the_fact_multiplier=2.0, as_of="2024-05-01").value
    4.0
    """
    trace = Trace("option_ratio", None, as_of)
    ratio = _number(decided_ratio, "decided_ratio", least=0.0)
    mult = _number(after_the_fact_multiplier, "after_the_fact_multiplier", least=1.0)
    items = (conditions,) if isinstance(conditions, str) else tuple(conditions)
    unknown = sorted(set(items) - RATIO_CONDITIONS)
    if unknown:
        raise RulesInputError(
            f"conditions {unknown} are not known; expected some of {sorted(RATIO_CONDITIONS)}"
        )
    if adjustments is not None and not isinstance(adjustments, Adjustments):
        raise RulesInputError(
            "adjustments must be an Adjustments table (wetland_gis.parameters.load_adjustments)"
        )
    trace.because(
        f"The impact's replacement ratio as decided by assess: {fmt_number(ratio)}"
        + (f" (after-the-fact multiplier {fmt_number(mult)}, subd. 1(n))." if mult != 1 else ".")
    )
    base, added, applied = adjust_ratio(trace, exact(ratio) / exact(mult), adjustments, items)
    value = float(base * exact(mult)) if applied else ratio
    trace.amounts.update(
        decided_ratio=ratio,
        adjustment_total=float(added),
        after_the_fact_multiplier=mult,
        ratio=value,
    )
    return trace.decide(Outcome.CLASSIFIED, value)


def _number(value: Any, name: str, *, least: float, kind: str = "a number") -> float:
    """Return ``value`` as a finite float ``>= least``; ``kind`` says what it must be."""
    if isinstance(value, bool):
        raise RulesInputError(f"{name} must be {kind}, got {value!r}")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise RulesInputError(f"{name} must be {kind}, got {value!r}") from None
    if not math.isfinite(number) or number < least:
        raise RulesInputError(f"{name} must be a finite number {least:g} or more, got {value!r}")
    return number


def _excluded_by_percentage_area(impact: SitingPlace, option: SitingPlace, trace: Trace) -> bool:
    gt80 = PercentageArea.GREATER_THAN_80
    if impact.pct_class is not None and impact.pct_class is not gt80 and option.pct_class is gt80:
        trace.cite(CITE_EXCLUSION, CITE_BSA_CLASS)
        trace.because(
            "The impact lies outside a greater than 80 percent area and the option inside "
            "one: impacted wetlands outside a greater than 80 percent area must not be "
            "replaced in a greater than 80 percent area."
        )
        return True
    if option.pct_class is gt80 and impact.pct_class is None:
        trace.cite(CITE_EXCLUSION)
        trace.check(
            "the percentage-area class of the impact: it is unknown, and the option lies in "
            "a greater than 80 percent area, where an impact outside such an area must not "
            "be replaced (§ 103G.222, subd. 3(a))"
        )
    elif option.pct_class is None and impact.pct_class is not gt80:
        trace.cite(CITE_EXCLUSION)
        trace.check(
            "the percentage-area class of the option (county, watershed or, for "
            "replacement, bank service area, § 103G.005, subd. 10b): it is unknown; if it is "
            "a greater than 80 percent area the option cannot replace an impact outside one "
            "(§ 103G.222, subd. 3(a))"
        )
    return False


@dataclass(frozen=True)
class _Shared:
    """What an option shares with the impact: True or False where both are known, else None."""

    impact: SitingPlace
    option: SitingPlace
    minor: bool | None
    major: bool | None
    bsa: bool | None

    @classmethod
    def of(cls, impact: SitingPlace, option: SitingPlace) -> _Shared:
        """Compare the two places; a shared minor watershed lies in one major watershed."""
        minor = _same(impact.minor, option.minor)
        major = _same(impact.major, option.major)
        if minor:
            major = True if major is None else major
        return cls(impact, option, minor, major, _same(impact.bsa, option.bsa))

    def missing(self, attr: str) -> str:
        """Return which of the impact and the option do not know ``attr``."""
        places = (("impact", self.impact), ("option", self.option))
        return " and ".join(w for w, p in places if getattr(p, attr) is None)


def _bank_service_area_tier(same: _Shared, trace: Trace, unknown: str) -> SitingTier:
    """Return tier 3 (same bank service area as the impact) or tier 4, with the reason.

    ``unknown`` is the reason's opening when the bank service area is not known.
    """
    if same.bsa:
        trace.because(f"Same bank service area ({same.impact.bsa}) as the impact: tier 3.")
        return SitingTier.SAME_BANK_SERVICE_AREA
    trace.because(
        f"In another bank service area ({same.option.bsa}) than the impact "
        f"({same.impact.bsa}): tier 4."
        if same.bsa is False
        else f"{unknown}: tier 4."
    )
    return SitingTier.OTHER_BANK_SERVICE_AREA


def _site_tier(same: _Shared, trace: Trace) -> SitingTier:
    if same.minor:
        tier = SitingTier.SAME_MINOR_WATERSHED
        trace.because(f"Same minor watershed ({same.impact.minor}) as the impact: tier 1.")
    elif same.major:
        tier = SitingTier.SAME_MAJOR_WATERSHED
        trace.because(f"Same major watershed ({same.impact.major}) as the impact: tier 2.")
    else:
        tier = _bank_service_area_tier(
            same, trace, "No shared watershed or bank service area is known"
        )
    trace.cite(CITE_TIER[tier])
    # say what unknown value could raise the tier
    if tier > SitingTier.SAME_MINOR_WATERSHED and same.minor is None:
        trace.check(
            f"the minor watershed of the {same.missing('minor')}: it is unknown; "
            "in the same minor watershed as the impact the option is tier 1 "
            "(§ 103G.222, subd. 3(a)(1))"
        )
    if tier > SitingTier.SAME_MAJOR_WATERSHED and same.major is None:
        trace.check(
            f"the major watershed of the {same.missing('major')}: it is unknown; "
            f"in the same major watershed the option is tier 2 (subd. 3(a)(2); {_WATERSHED})"
        )
    if tier > SitingTier.SAME_BANK_SERVICE_AREA and same.bsa is None:
        trace.check(
            f"the bank service area of the {same.missing('bsa')}: it is unknown; "
            "in the same bank service area the option is tier 3 (§ 103G.222, subd. 3(a)(3))"
        )
    return tier


def _bank_tier(same: _Shared, trace: Trace) -> SitingTier:
    trace.cite(CITE_BANKING)
    trace.because(
        "Wetland bank credits: the priority order for replacement by wetland banking begins "
        "at the bank service area level (clause (3)), so a bank is never tier 1 or 2."
    )
    shared = "minor watershed" if same.minor else "major watershed" if same.major else None
    tier = _bank_service_area_tier(same, trace, "The bank service area is not known to be the same")
    if same.bsa is None:
        trace.check(
            f"the bank service area of the {same.missing('bsa')}: it is "
            "unknown; in the same bank service area the credits are tier 3 "
            "(§ 103G.222, subd. 3(a)(3), (c))"
        )
    if shared:
        trace.because(
            f"The bank is in the same {shared} as the impact: not a higher tier for banked "
            f"credits, but a tie-breaker among tier {int(tier)} options "
            "(same major watershed)."
        )
    elif same.major is None and tier == SitingTier.SAME_BANK_SERVICE_AREA:
        trace.check(
            f"the major watershed of the {same.missing('major')}: unknown; a bank "
            "in the same major watershed is preferred among tier 3 options (tie-breaker only)"
        )
    trace.cite(CITE_TIER[tier])
    return tier


def _tier_of(value: Any) -> SitingTier:
    try:
        return SitingTier(int(value))
    except (TypeError, ValueError):
        raise RulesInputError(
            f"siting tier {value!r} is not one of {[int(t) for t in SitingTier]}"
        ) from None


def next_tier_condition(
    need_acres: float,
    available_acres: Mapping[Any, float],
    *,
    options: Mapping[Any, int] | None = None,
    as_of: str | dt.date | None = None,
    tolerance: float = 1e-9,
) -> Decision:
    """Say, for one impact, down to which siting level the applicant may go (subd. 3(d)).

    The applicant may seek opportunities at the next level only "when reasonable,
    practicable, and environmentally beneficial replacement opportunities are not
    available" at the higher one. Walking the tiers in order, the requirement still
    unmet after a tier is the amount that may be sought at the next.

    Parameters
    ----------
    need_acres : float
        Acres of impact to be replaced (impact acres, not credits: ratios may differ by
        option).
    available_acres : Mapping[int or SitingTier, float]
        Acres of the impact that the listed, non-excluded opportunities of each tier can
        replace (credits available divided by their ratio). Missing tiers count as 0.
    options : Mapping[int or SitingTier, int], optional
        Number of listed opportunities per tier, to tell "no opportunity listed" from
        "listed, but without credits". Default: a tier with acres has opportunities.
    as_of : str or date, optional
        Date of the decision (default today).
    tolerance : float, default 1e-9
        Acres below which a remainder counts as met.

    Returns
    -------
    Decision
        ``question="next_tier_condition"``. ``value`` is the lowest (last) tier the
        applicant may reach: the tier at which the requirement is met, or tier 4 when
        it is not met at any level. ``outcome`` is ``Outcome.ELIGIBLE`` when at least one
        higher tier had no opportunity or was short (the applicant may go on to a next
        level), ``Outcome.NOT_ELIGIBLE`` when tier 1 meets the whole requirement.
        ``amounts`` has ``need_acres``, ``tier_N_available_acres``, ``tier_N_short_acres``
        (what is still unmet after tier N) and ``unmet_acres``.

    Raises
    ------
    RulesInputError
        On a negative or non-finite amount or an unknown tier.

    Notes
    -----
    Whether a listed opportunity is "reasonable, practicable, and environmentally
    beneficial" (subd. 3(e)(1)-(4)) is for the Technical Evaluation Panel: it is a verify
    item, never decided here. A listed opportunity the TEP finds unreasonable also opens
    the next level; an opportunity the TEP knows of but that is not listed closes it.

    Examples
    --------
    >>> d = next_tier_condition(2.0, {1: 0.5, 3: 10.0}, as_of="2024-05-01")
    >>> int(d.value), d.amounts["tier_1_short_acres"], d.amounts["tier_2_short_acres"]
    (3, 1.5, 1.5)
    """
    trace = Trace("next_tier_condition", None, as_of)
    need = _acres(need_acres, "need_acres")
    avail: dict[SitingTier, float] = {t: 0.0 for t in SitingTier}
    for key, value in available_acres.items():
        avail[_tier_of(key)] += _acres(value, f"available acres of tier {key}")
    counts: dict[SitingTier, int | None] = {t: None for t in SitingTier}
    for key, value in (options or {}).items():
        counts[_tier_of(key)] = int(value)

    trace.cite(CITE_NEXT_LEVEL)
    trace.amounts["need_acres"] = need
    remaining = need
    reached = SitingTier.SAME_MINOR_WATERSHED
    opened = False
    for tier in SitingTier:
        label = f"Tier {int(tier)} ({tier.label})"
        a = avail[tier]
        n = counts[tier] if counts[tier] is not None else (1 if a > 0 else 0)
        trace.amounts[f"tier_{int(tier)}_available_acres"] = a
        if remaining <= tolerance:
            if tier == SitingTier.SAME_MINOR_WATERSHED:
                trace.because("Nothing to replace: no siting level needs to be opened.")
            continue
        reached = tier
        if n == 0:
            trace.because(
                f"{label}: no replacement opportunity listed for the "
                f"{fmt_number(remaining)} acres still to replace; the applicant may seek "
                "opportunities at the next level."
            )
            trace.check(
                f"that no reasonable, practicable and environmentally beneficial replacement "
                f"opportunity exists at tier {int(tier)} ({tier.label}) beyond those listed "
                "(§ 103G.222, subd. 3(d), (e), (f))"
            )
        elif a + tolerance < remaining:
            trace.because(
                f"{label}: {fmt_number(a)} acres of replacement available for the "
                f"{fmt_number(remaining)} acres still to replace - short by "
                f"{fmt_number(remaining - a)} acres, which may be sought at the next level."
            )
        else:
            trace.because(
                f"{label}: {fmt_number(a)} acres available for the {fmt_number(remaining)} "
                "acres still to replace - the requirement is met at this level, so the lower "
                "levels are not open unless these opportunities are found not reasonable, "
                "practicable and environmentally beneficial."
            )
        if n and a > 0:
            trace.check(
                f"that the tier {int(tier)} opportunities are reasonable, practicable and "
                "environmentally beneficial: they take advantage of naturally occurring "
                "hydrogeomorphological conditions, are likely to become functional wetlands "
                "in perpetuity, do not adversely affect other important habitat, and are "
                "available and capable of being done (§ 103G.222, subd. 3(e)(1)-(4); for "
                "the TEP)"
            )
        remaining = max(0.0, remaining - a)
        trace.amounts[f"tier_{int(tier)}_short_acres"] = remaining
        if remaining > tolerance:
            opened = True
    trace.amounts["unmet_acres"] = remaining if remaining > tolerance else 0.0
    if remaining > tolerance:
        trace.because(
            f"{fmt_number(remaining)} acres cannot be replaced with the opportunities listed "
            "at any level."
        )
    trace.cite(CITE_REASONABLE)
    if opened:
        trace.cite(CITE_COLLABORATE)
    return trace.decide(Outcome.ELIGIBLE if opened else Outcome.NOT_ELIGIBLE, reached)


def _acres(value: Any, name: str) -> float:
    return _number(value, name, least=0.0, kind="a number of acres")


def normalise_action(value: Any) -> str | None:
    """Return a site's replacement action as a key of :data:`REPLACEMENT_ACTIONS`.

    Parameters
    ----------
    value : str or None
        The ``action`` attribute (case, spaces and dashes do not matter; a few aliases
        such as ``"restored"`` or ``"excavation"`` are understood).

    Returns
    -------
    str or None
        The normalised name (an unknown action is returned normalised, not rejected);
        ``None`` for None or blank text (a reader of a file turns its NaN into None first,
        with :func:`wetland_gis.io.values.is_blank`).
    """
    if value is None:
        return None
    key = key_of(str(value))
    return None if key is None else _ACTION_ALIASES.get(key, key)


def _named_action(
    trace: Trace, key: str, where: str, cite: str, words: str, pct: PercentageArea | None
) -> Decision:
    """Return the eligibility of an action the statute names (never, anywhere, or > 80 %)."""
    if where == "never":
        trace.cite(cite)
        trace.because(f"The action is {words}, which is not eligible for wetland replacement.")
        return trace.decide(Outcome.NOT_ELIGIBLE, False)
    if where == "anywhere":
        trace.cite(cite)
        trace.because(f"The action is {words}, eligible for replacement ({cite}).")
        if key == "stormwater_pond":
            trace.check(_STORMWATER_VERIFY)
        return trace.decide(Outcome.ELIGIBLE, True)
    trace.cite(cite)  # "greater_than_80"
    if pct is PercentageArea.GREATER_THAN_80:
        trace.because(f"The action is {words}, eligible in a greater than 80 percent area.")
        return trace.decide(Outcome.ELIGIBLE, True)
    if pct is None:
        trace.check(
            f"the percentage-area class of the site: {words} is eligible only in a greater "
            f"than 80 percent area ({cite})"
        )
        return trace.decide(Outcome.NOT_ASSESSED, None)
    trace.because(
        f"The action is {words}, eligible only in a greater than 80 percent area; the site "
        "is not in one."
    )
    return trace.decide(Outcome.NOT_ELIGIBLE, False)


def replacement_action_eligibility(
    action: Any,
    pct_class: PercentageArea | str | None,
    *,
    rule_actions: Mapping[str, str] | Collection[str] = (),
    as_of: str | dt.date | None = None,
) -> Decision:
    """Return whether a project-specific site's action may be used for replacement.

    Parameters
    ----------
    action : str or None
        The site's ``action`` (see :data:`REPLACEMENT_ACTIONS` and :func:`normalise_action`).
    pct_class : PercentageArea, str or None
        Percentage-area class where the site lies: outside a greater than 80 percent area
        only the actions of § 103G.222, subd. 1(i) and § 103G.2242, subd. 12(c) are
        eligible.
    rule_actions : Mapping[str, str] or collection of str, optional
        Further actions "established in rule" (§ 103G.2242, subd. 12(c)), e.g. the keys of
        the user's ``credit_percentages`` table (Minn. R. 8420.0526), with the reference
        the user gave for each.
    as_of : str or date, optional
        Date of the decision (default today).

    Returns
    -------
    Decision
        ``question="replacement_action"``; ``outcome`` ``ELIGIBLE`` (``value`` True),
        ``NOT_ELIGIBLE`` (``value`` False), or ``NOT_ASSESSED`` (``value`` None) when the
        action or the percentage class needed to decide is unknown.

    Examples
    --------
    >>> replacement_action_eligibility("restoration", "less_than_50_percent",
    ...                                as_of="2024-05-01").value
    True
    >>> replacement_action_eligibility("preservation", "less_than_50_percent",
    ...                                as_of="2024-05-01").value
    False
    """
    trace = Trace("replacement_action", None, as_of)
    key = normalise_action(action)
    pct = None if pct_class is None else percentage_class_of(pct_class)
    gt80 = pct is PercentageArea.GREATER_THAN_80
    refs = (
        dict(rule_actions)
        if isinstance(rule_actions, Mapping)
        else {normalise_action(a): "user table" for a in rule_actions}
    )
    refs = {normalise_action(k): v for k, v in refs.items()}
    if key is None:
        trace.cite(CITE_ACTIONS)
        trace.check(
            "the site's replacement action: it is not given; outside a greater than 80 percent "
            "area only restored or created wetlands and the actions of § 103G.2242, "
            "subd. 12(c) are eligible (§ 103G.222, subd. 1(i))"
        )
        return trace.decide(Outcome.NOT_ASSESSED, None)
    actions = _actions_of(trace.value(_ACTIONS_KEY))
    where, cite, words = actions.get(key, (None, "", ""))
    if where in ("never", "anywhere", "greater_than_80"):
        return _named_action(trace, key, where, cite, words, pct)
    # an action the statute does not name
    if key in refs:
        trace.cite(CITE_CREDIT_ACTIONS)
        trace.because(
            f"The action {key!r} is eligible for credit under the rule the user cited "
            f"({refs[key]}), as § 103G.2242, subd. 12(c) allows for actions established in rule."
        )
        trace.check(f"the rule the user cited for the action {key!r}: {refs[key]}")
        return trace.decide(Outcome.ELIGIBLE, True)
    trace.cite(CITE_ACTIONS)
    if gt80:
        trace.because(
            f"The action {key!r} is not named in § 103G.222, subd. 1(i), but that limit does not "
            "apply in a greater than 80 percent area."
        )
        trace.check(f"that the rules (Minn. R. 8420.0526) give credit for the action {key!r}")
        return trace.decide(Outcome.ELIGIBLE, True)
    if pct is None:
        trace.check(
            f"the percentage-area class of the site: the action {key!r} is eligible only in a "
            "greater than 80 percent area unless a rule makes it eligible (§ 103G.222, "
            "subd. 1(i); § 103G.2242, subd. 12(c))"
        )
        return trace.decide(Outcome.NOT_ASSESSED, None)
    trace.because(
        f"Outside a greater than 80 percent area only restored or created wetlands and the "
        f"actions of § 103G.2242, subd. 12(c) may be used for replacement; {key!r} is not one "
        "of them. If a rule makes it eligible, add it with its reference to the "
        "credit_percentages table of the adjustments file."
    )
    return trace.decide(Outcome.NOT_ELIGIBLE, False)
