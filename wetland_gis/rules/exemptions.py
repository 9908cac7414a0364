"""The area tests of four exemptions of Minn. Stat. § 103G.2241 other than de minimis.

Each function answers only the part of an exemption that a map can answer (type and
size), with outcome ``ELIGIBLE`` or ``NOT_ELIGIBLE``; every other condition of the
exemption is listed in the decision's ``verify`` items for the local government unit.

* :func:`pasture_exemption` — subd. 1(2), agricultural pasture land.
* :func:`drainage_exemption` — subd. 2(b), land assessed drainage benefits.
* :func:`utility_exemption` — subd. 6(a)(1), utilities.
* :func:`wildlife_spoil_exemption` — subd. 10(1), spoil from wildlife habitat projects.
* :func:`exemption_candidates` — every one of these whose area test an impact passes.

An activity is exempt if it qualifies for any one exemption (subd. 11(b)), but an
exemption may not be combined with the de minimis exemption on a project (subd. 9(g)),
and no exemption applies to calcareous fens, to wetlands in the wetland bank or to
wetlands already used for replacement credit (Minn. R. 8420.0420, subp. 1).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from decimal import Decimal

from wetland_gis.decision import Decision
from wetland_gis.enums import ImpactKind, Outcome, WetlandType
from wetland_gis.errors import RulesInputError
from wetland_gis.parameters import ParameterSet
from wetland_gis.rules import registry as R
from wetland_gis.rules.facts import (
    PERCENT,
    SQFT_PER_ACRE,
    ImpactFacts,
    Trace,
    check_area,
    check_flag,
    exact,
    fmt_number,
    fmt_sqft,
    wetland_type_of,
)
from wetland_gis.rules.kernel import O_CONDITIONAL, O_ELIGIBLE, Impact, RuleBook, dec
from wetland_gis.rules.trace import TraceLog

__all__ = [
    "pasture_exemption",
    "drainage_exemption",
    "utility_exemption",
    "wildlife_spoil_exemption",
    "exemption_candidates",
    "other_exemptions",
]

_EXEMPTION = "exemptions."
_CONDITIONS = (
    "Exemption conditions: erosion control, no blocking of fish passage, and compliance "
    "with all other requirements (§ 103G.2241, subd. 11(a))."
)
_NOT_COMBINED = (
    "This exemption may not be combined with the de minimis exemption on a project "
    "(§ 103G.2241, subd. 9(g))."
)
_EXCLUDED = (
    "The wetland is not a calcareous fen, not deposited in the wetland bank and not already "
    "used for replacement credit (Minn. R. 8420.0420, subp. 1)."
)


def _types(values: list[int]) -> str:
    return ", ".join(str(v) for v in values)


def _type_lists(trace: Trace, exemption: str, sized: str) -> tuple[list[int], list[int], str]:
    """Return an exemption's any-size types, its size-limited types and its limit's key.

    The keys are ``<exemption>_any_size_types``, ``<exemption>_<sized>_types`` and
    ``<exemption>_<sized>_max_acres`` (pasture: ``small``; drainage: ``limited``); the
    any-size list's citation is recorded.
    """
    any_size_key = f"{_EXEMPTION}{exemption}_any_size_types"
    any_size = list(trace.value(any_size_key))
    limited = list(trace.value(f"{_EXEMPTION}{exemption}_{sized}_types"))
    trace.cite_key(any_size_key)
    return any_size, limited, f"{_EXEMPTION}{exemption}_{sized}_max_acres"


def _not_covered(trace: Trace, exemption: str, covered: list[int], label: str) -> Decision:
    """Return NOT_ELIGIBLE: the exemption covers the types ``covered`` only."""
    trace.because(f"The {exemption} exemption covers types {_types(covered)} only, not a {label}.")
    return trace.decide(Outcome.NOT_ELIGIBLE, False)


def pasture_exemption(
    wetland_type: WetlandType | int,
    wetland_acres: float | None,
    *,
    bottomland_hardwood: bool = False,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
) -> Decision:
    """Return the area test of the pasture exemption, § 103G.2241, subd. 1(2).

    Parameters
    ----------
    wetland_type : WetlandType or int
        Circular 39 type of the wetland.
    wetland_acres : float or None
        Size of the whole wetland (not of the impact), in acres; ``None`` if unknown.
    bottomland_hardwood : bool, default False
        A bottomland hardwood type 1 wetland, which the exemption excepts.
    params : ParameterSet, optional
        Parameter tree (default: the shipped one).
    as_of : str or date, optional
        Date the law is applied as of (default: today).

    Returns
    -------
    Decision
        ``ELIGIBLE`` for a type 1 wetland of any size (not bottomland hardwood) or a type 2
        or 6 wetland under the size limit; ``NOT_ELIGIBLE`` otherwise; ``NOT_ASSESSED`` for
        a type 2 or 6 wetland of unknown size. ``value`` is ``True`` when eligible.

    Notes
    -----
    The size limit is "less than": a wetland exactly at the limit is not eligible.

    Examples
    --------
    >>> pasture_exemption(2, 1.5, as_of="2024-01-01").outcome.value
    'eligible'
    """
    trace = Trace("pasture_exemption", params, as_of)
    wtype = wetland_type_of(wetland_type)
    check_flag(bottomland_hardwood, "bottomland_hardwood")
    size = None if wetland_acres is None else check_area(wetland_acres, "wetland_acres")
    any_size, small, key = _type_lists(trace, "pasture", "small")
    limit = trace.value(key)
    trace.check(
        "The wetland is on agricultural pasture land that remains in the same use: pasture is "
        "an area grazed by domesticated livestock, or planted with annually seeded crops in "
        "a crop rotation seeding of grasses or legumes, in the years that § 103G.005, "
        "subd. 14a sets.",
        _CONDITIONS,
        _NOT_COMBINED,
        _EXCLUDED,
    )
    label = f"type {int(wtype)} wetland"
    if size is not None:
        trace.amounts["wetland_acres"] = size
    if int(wtype) in any_size:
        if bottomland_hardwood:
            trace.because(f"A bottomland hardwood {label} is excepted from the pasture exemption.")
            return trace.decide(Outcome.NOT_ELIGIBLE, False)
        trace.because(f"A {label} on pasture land qualifies whatever its size.")
        trace.check(f"The {label} is not a bottomland hardwood wetland.")
        return trace.decide(Outcome.ELIGIBLE, True)
    if int(wtype) not in small:
        return _not_covered(trace, "pasture", any_size + small, label)
    trace.amounts["limit_acres"] = float(limit)
    if size is None:
        trace.because(
            f"A {label} qualifies if it is less than {fmt_number(limit)} acres; its size is "
            "not known."
        )
        trace.check(f"Measure the whole {label}: it must be under {fmt_number(limit)} acres.")
        return trace.decide(Outcome.NOT_ASSESSED, False)
    return trace.decide_limit(
        key,
        size,
        within=f"A {label} of {fmt_number(size)} acres is less than {fmt_number(limit)} acres.",
        beyond=f"A {label} of {fmt_number(size)} acres is not less than {fmt_number(limit)} acres.",
    )


def drainage_exemption(
    wetland_type: WetlandType | int,
    drained_sqft: float,
    incorporated: bool | None,
    *,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
) -> Decision:
    """Return the area test of the drainage exemption, § 103G.2241, subd. 2(b).

    Parameters
    ----------
    wetland_type : WetlandType or int
        Circular 39 type of the wetland drained.
    drained_sqft : float
        Area drained, in square feet.
    incorporated : bool or None
        Whether the wetland is in an incorporated area (the exemption needs an
        unincorporated area); ``None`` if unknown (then a verify item).
    params : ParameterSet, optional
        Parameter tree (default: the shipped one).
    as_of : str or date, optional
        Date the law is applied as of (default: today).

    Returns
    -------
    Decision
        ``ELIGIBLE`` for draining a type 1 wetland, or type 2 or 6 wetland up to the acre
        limit, outside an incorporated area; ``NOT_ELIGIBLE`` otherwise.

    Notes
    -----
    The acre limit is "up to": exactly at the limit is eligible.
    """
    trace = Trace("drainage_exemption", params, as_of)
    wtype = wetland_type_of(wetland_type)
    area = check_area(drained_sqft, "drained_sqft")
    if incorporated is not None:
        check_flag(incorporated, "incorporated")
    acres = exact(area) / SQFT_PER_ACRE
    trace.amounts.update(drained_sqft=area, drained_acres=float(acres))
    any_size, limited, key = _type_lists(trace, "drainage", "limited")
    limit = trace.value(key)
    trace.check(
        "The activity is draining (not filling), on land assessed drainage benefits for a "
        "public drainage system (§ 103G.2241, subd. 2(b)).",
        "Subd. 2(b)(1): during the 20-year period that ended January 1, 1992, an expenditure "
        "was made from the drainage system account, or the system was repaired or maintained "
        "as approved by the drainage authority, or no repair or maintenance was required "
        "(§ 103E.705, subd. 1).",
        "Subd. 2(b)(2): the wetlands are not drained for conversion to platted lots, planned "
        "unit, commercial or industrial developments, or development with more than one "
        "residential unit per 40 acres (with the family-residence exception); a conversion "
        "within the period after drainage set in subd. 2(b) requires replacement.",
        "The local government unit may require a deed restriction against nonagricultural use "
        "(§ 103G.222, subd. 1(d)).",
        _CONDITIONS,
        _NOT_COMBINED,
        _EXCLUDED,
    )
    label = f"type {int(wtype)} wetland"
    if incorporated:
        trace.because("The drainage exemption applies only in an unincorporated area.")
        return trace.decide(Outcome.NOT_ELIGIBLE, False)
    if incorporated is None:
        trace.check("The wetland is in an unincorporated area.")
    if int(wtype) in any_size:
        trace.because(f"Draining a {label} qualifies whatever its size.")
        return trace.decide(Outcome.ELIGIBLE, True)
    if int(wtype) not in limited:
        return _not_covered(trace, "drainage", any_size + limited, label)
    trace.amounts["limit_acres"] = float(limit)
    return trace.decide_limit(
        key,
        acres,
        within=(
            f"Draining {fmt_number(float(acres))} acres of {label} is within "
            f"{fmt_number(limit)} acres."
        ),
        beyond=(
            f"Draining {fmt_number(float(acres))} acres of {label} is more than "
            f"{fmt_number(limit)} acres."
        ),
    )


def utility_exemption(
    altered_sqft: float,
    *,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
) -> Decision:
    """Return the area test of the utility exemption, § 103G.2241, subd. 6(a)(1).

    Parameters
    ----------
    altered_sqft : float
        Wetland area the project significantly modifies or alters, in square feet.
    params : ParameterSet, optional
        Parameter tree (default: the shipped one).
    as_of : str or date, optional
        Date the law is applied as of (default: today).

    Returns
    -------
    Decision
        ``ELIGIBLE`` when the area is less than the acre limit, else ``NOT_ELIGIBLE``.

    Notes
    -----
    The limit is "less than": exactly one-half acre (21,780 square feet) is not eligible.
    """
    trace = Trace("utility_exemption", params, as_of)
    area = check_area(altered_sqft, "altered_sqft")
    acres = exact(area) / SQFT_PER_ACRE
    key = _EXEMPTION + "utility_max_acres"
    limit = trace.value(key)
    trace.amounts.update(altered_sqft=area, altered_acres=float(acres), limit_acres=float(limit))
    trace.cite_key(key)
    trace.check(
        "The work is new placement or maintenance, repair, enhancement or replacement of a "
        "utility or utility-type service (§ 103G.005, subd. 15h), including pipelines.",
        "Subd. 6(a)(1)(i): the direct and indirect impacts have been avoided and minimized to "
        "the extent possible.",
        _CONDITIONS,
        _NOT_COMBINED,
        _EXCLUDED,
    )
    return trace.decide_limit(
        key,
        acres,
        within=(
            f"The project alters {fmt_sqft(area)} ({fmt_number(float(acres))} acres) of "
            f"wetland, less than {fmt_number(limit)} acre."
        ),
        beyond=(
            f"The project alters {fmt_sqft(area)} ({fmt_number(float(acres))} acres) of wetland, "
            f"not less than {fmt_number(limit)} acre."
        ),
    )


def wildlife_spoil_exemption(
    deposition_sqft: float,
    wetland_acres: float | None,
    *,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
) -> Decision:
    """Return the area test of the wildlife spoil exemption, § 103G.2241, subd. 10(1).

    Parameters
    ----------
    deposition_sqft : float
        Area of spoil deposition in the wetland, in square feet.
    wetland_acres : float or None
        Size of the whole wetland, in acres (``> 0``); ``None`` if unknown.
    params : ParameterSet, optional
        Parameter tree (default: the shipped one).
    as_of : str or date, optional
        Date the law is applied as of (default: today).

    Returns
    -------
    Decision
        ``ELIGIBLE`` when the deposition does not exceed the lesser of the percentage of
        the wetland area and the acre limit; ``NOT_ELIGIBLE`` otherwise; ``NOT_ASSESSED``
        when the wetland's size is unknown. ``amounts["limit_sqft"]`` is the lesser limit.

    Notes
    -----
    Both limits are "does not exceed": exactly at the lesser limit is eligible.
    """
    trace = Trace("wildlife_spoil_exemption", params, as_of)
    area = check_area(deposition_sqft, "deposition_sqft")
    acres = exact(area) / SQFT_PER_ACRE
    key_pct = _EXEMPTION + "wildlife_spoil_max_percent"
    key_acres = _EXEMPTION + "wildlife_spoil_max_acres"
    pct = trace.value(key_pct)
    max_acres = trace.value(key_acres)
    trace.amounts.update(deposition_sqft=area, deposition_acres=float(acres))
    trace.cite_key(key_pct)
    trace.check(
        "The spoil results from excavation within the wetland for a wildlife habitat "
        "improvement project and is stabilized and permanently seeded to prevent erosion "
        "(subd. 10(1)(i)).",
        "Subd. 10(1)(ii): no adverse impact on any species designated as endangered or "
        "threatened under state or federal law.",
        "Subd. 10(1)(iii): the soil and water conservation district certifies the wildlife "
        "habitat improvement.",
        _CONDITIONS,
        _NOT_COMBINED,
        _EXCLUDED,
    )
    if wetland_acres is None:
        trace.because(
            f"The deposition may not exceed {fmt_number(pct)} percent of the wetland area or "
            f"{fmt_number(max_acres)} acre, whichever is less; the wetland's size is not known."
        )
        trace.check("Measure the whole wetland to find the percentage limit of subd. 10(1)(i).")
        return trace.decide(Outcome.NOT_ASSESSED, False)
    size = check_area(wetland_acres, "wetland_acres", positive=True)
    share = acres / exact(size) * PERCENT
    limit_acres = min(exact(pct) * exact(size) / PERCENT, exact(max_acres))
    trace.amounts.update(
        wetland_acres=size,
        deposition_percent=float(share),
        limit_acres=float(limit_acres),
        limit_sqft=float(limit_acres * SQFT_PER_ACRE),
    )
    ok = trace.passes(key_pct, share) and trace.passes(key_acres, acres)
    words = (
        f"Spoil on {fmt_sqft(area)} ({fmt_number(float(share))} percent of a "
        f"{fmt_number(size)} acre wetland)"
    )
    lesser = (
        f"the lesser of {fmt_number(pct)} percent of the wetland and {fmt_number(max_acres)} "
        f"acre, {fmt_sqft(float(limit_acres * SQFT_PER_ACRE))}"
    )
    if ok:
        trace.because(f"{words} does not exceed {lesser}.")
        return trace.decide(Outcome.ELIGIBLE, True)
    trace.because(f"{words} exceeds {lesser}.")
    return trace.decide(Outcome.NOT_ELIGIBLE, False)


def exemption_candidates(
    impact: ImpactFacts,
    *,
    wetland_acres: float | None = None,
    incorporated: bool | None = None,
    bottomland_hardwood: bool = False,
    project_sqft: float | None = None,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
) -> tuple[Decision, ...]:
    """Return the decisions of every exemption whose area test ``impact`` passes.

    Parameters
    ----------
    impact : ImpactFacts
        The impact; its whole area is the area drained, altered or deposited on.
    wetland_acres : float, optional
        Size of the whole wetland in acres (for the pasture and wildlife spoil tests; those
        are skipped for types whose test needs it when it is unknown).
    incorporated : bool, optional
        Whether the wetland is in an incorporated area (``None``: unknown, left to verify).
    bottomland_hardwood : bool, default False
        A bottomland hardwood type 1 wetland (excepted from the pasture exemption).
    project_sqft : float, optional
        Wetland area the whole project significantly modifies or alters, in square feet
        (at least the impact's area). The utility test is of the project ("the proposed
        project significantly modifies or alters less than one-half acre", subd.
        6(a)(1)(ii)); without it only the impact's area is tested and a verify item says so.
    params : ParameterSet, optional
        Parameter tree (default: the shipped one).
    as_of : str or date, optional
        Date the law is applied as of (default: today).

    Returns
    -------
    tuple of Decision
        The ``ELIGIBLE`` decisions, in the order pasture, drainage (a drain only), utility,
        wildlife spoil (a fill or an impact of unknown kind only), as the engine lists them.
        Empty for a calcareous fen, a banked wetland, a wetland used for replacement credit
        (Minn. R. 8420.0420, subp. 1) or a public waters wetland (outside the WCA).

    Notes
    -----
    Passing the area test is not an exemption: each decision lists what a person must
    still verify. None of these may be combined with the de minimis exemption on a project
    (§ 103G.2241, subd. 9(g)); the activity is exempt if it qualifies for any one of them
    (subd. 11(b)).
    """
    if not isinstance(impact, ImpactFacts):
        raise RulesInputError(f"impact must be ImpactFacts, got {type(impact).__name__}")
    if (
        impact.calcareous_fen
        or impact.banked
        or impact.used_for_replacement_credit
        or impact.public_waters_wetland
    ):
        return ()
    area = impact.area_sqft
    if project_sqft is not None:
        project_sqft = check_area(project_sqft, "project_sqft")
        if exact(project_sqft) < impact.exact_area:
            raise RulesInputError(
                f"project_sqft ({project_sqft}) is less than the impact's own area "
                f"({area}); it is the area of the whole project, this impact included"
            )
    pasture = pasture_exemption(
        impact.wetland_type,
        wetland_acres,
        bottomland_hardwood=bottomland_hardwood,
        params=params,
        as_of=as_of,
    )
    drainage = drainage_exemption(
        impact.wetland_type, area, incorporated, params=params, as_of=as_of
    )
    if "limit_acres" in drainage.amounts:
        limited = " or ".join(
            str(t) for t in drainage.parameters[_EXEMPTION + "drainage_limited_types"]
        )
        drainage = replace(
            drainage,
            verify=(
                *drainage.verify,
                "Only this impact's area was tested against the acre limit of subd. 2(b): add "
                f"the other type {limited} wetland the same draining affects.",
            ),
        )
    utility = utility_exemption(
        area if project_sqft is None else project_sqft, params=params, as_of=as_of
    )
    if project_sqft is None:
        utility = replace(
            utility,
            verify=(
                *utility.verify,
                "Only this impact's area was tested: the whole project must significantly "
                f"modify or alter less than {fmt_number(utility.amounts['limit_acres'])} acre "
                "of wetland (subd. 6(a)(1)(ii)); add the project's other impacts.",
            ),
        )
    spoil = wildlife_spoil_exemption(area, wetland_acres, params=params, as_of=as_of)
    # as the engine decides (rules/engine.py, _exemption_candidates): the drainage exemption
    # (subd. 2) concerns a drain, the wildlife spoil exemption (subd. 10) a deposition
    kind = impact.impact_kind
    decisions = (
        pasture,
        *((drainage,) if kind is ImpactKind.DRAIN else ()),
        utility,
        *((spoil,) if kind in (ImpactKind.FILL, ImpactKind.UNKNOWN) else ()),
    )
    return tuple(d for d in decisions if d.outcome is Outcome.ELIGIBLE)


# --- the engine's step "5. other exemptions" (rules/engine.py orders it) ----------------

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


def other_exemptions(
    project: str, work: list[Impact], book: RuleBook, log: TraceLog, dm_outcome: Outcome
) -> None:
    """Write the area tests of the other exemptions, and why they are not applied."""
    add = log.add
    replaced = dm_outcome not in (Outcome.EXEMPT, Outcome.CONDITIONAL)
    # § 103G.005, subd. 19(b): "for the purposes of regulation under this chapter, the term
    # wetlands does not include public waters wetlands": the WCA thresholds that count
    # "square feet of wetland" (utility exemption, public comment, sequencing) count only
    # the WCA wetland area
    wca_sqft = sum(
        (w.counted for w in work if w.regulated and not w.f.public_waters_wetland), Decimal(0)
    )
    for w in work:
        if w.regulated and not w.f.public_waters_wetland and not w.ineligible:
            _area_tests(project, w, book, log, replaced or w.lost)
    if any(w.regulated and not w.f.public_waters_wetland for w in work):
        if wca_sqft < book.utility_max_sqft:
            add(
                project=project,
                impact_id="",
                rule_id=R.EXEMPTION_UTILITY,
                citation=book.cite["utility_max_acres"],
                outcome=O_ELIGIBLE,
                value=float(wca_sqft),
                reason=f"The project alters {fmt_sqft(float(wca_sqft))}, less than the utility "
                "exemption's area limit (area test only): it applies only to utility work, is "
                "not applied unless the applicant relies on it"
                + (
                    "; the project needs replacement unless it is relied on and confirmed."
                    if replaced
                    else "."
                ),
                verify=(_V_UTILITY, _V_NOT_COMBINED),
                inputs={"project_sqft": float(wca_sqft)},
                parameters=book.exemption_params["utility"],
            )


def _area_tests(project: str, w: Impact, book: RuleBook, log: TraceLog, replaced: bool) -> None:
    """Write a step for each other exemption whose area test the impact passes."""
    f = w.f
    t = int(f.wetland_type)
    land = (f.land_use or "").strip().lower()
    why = (
        "it is not applied: the applicant has not relied on it and its other conditions "
        "are for the local government unit"
        + (
            "; the impact needs replacement unless the exemption is relied on and confirmed."
            if replaced
            else "."
        )
    )
    acres = f.wetland_acres
    if land != "nonagricultural":
        ok = None
        if t in book.pasture_any:
            ok = f.bottomland_hardwood is not True
            extra = (
                (f"The type {t} wetland is not a bottomland hardwood wetland.",)
                if f.bottomland_hardwood is None
                else ()
            )
            size = "whatever its size"
        elif t in book.pasture_small and acres is not None:
            ok = dec(acres) < book.pasture_max_acres
            extra = ()
            size = f"of {fmt_number(acres)} acres, under {fmt_number(book.pasture_max_acres)}"
        if ok:
            w.exemptions.append(R.EXEMPTION_PASTURE)
            log.add(
                project=project,
                impact_id=w.iid,
                rule_id=R.EXEMPTION_PASTURE,
                citation=book.cite["pasture_any_size_types"],
                outcome=O_ELIGIBLE,
                value=None,
                reason=f"A type {t} wetland {size} passes the area test of the pasture exemption "
                f"if the land is agricultural pasture that remains in the same use; {why}",
                verify=(_V_PASTURE, *extra, _V_NOT_COMBINED),
                inputs={"land_use": land or None, "wetland_acres": acres},
                parameters=book.exemption_params["pasture"],
            )
    if f.impact_kind is ImpactKind.DRAIN and f.incorporated is not True:
        ok = t in book.drain_any or (t in book.drain_limited and w.counted <= book.drain_max_sqft)
        # at the 50 percent floor only (Minn. R. 8420.0522, subp. 2): conditional on the share
        on_share = (
            ok and t not in book.drain_any and w.share_unknown and w.area > book.drain_max_sqft
        )
        if ok:
            w.exemptions.append(R.EXEMPTION_DRAINAGE)
            notes: tuple[str, ...] = (
                ("The wetland is in an unincorporated area.",) if f.incorporated is None else ()
            )
            if on_share:
                notes = (
                    *notes,
                    "The area test passes only at the minimum share of the partly drained "
                    "area (Minn. R. 8420.0522, subp. 2): the assessed share must keep it within "
                    f"{fmt_sqft(float(book.drain_max_sqft))} (column partial_share).",
                )
            log.add(
                project=project,
                impact_id=w.iid,
                rule_id=R.EXEMPTION_DRAINAGE,
                citation=book.cite["drainage_any_size_types"],
                outcome=O_CONDITIONAL if on_share else O_ELIGIBLE,
                value=float(w.counted),
                reason=f"Draining {fmt_sqft(float(w.counted))} of type {t} wetland passes the area "
                f"test of the drainage exemption; {why}",
                verify=(_V_DRAINAGE, *notes, _V_NOT_COMBINED),
                inputs={"incorporated": f.incorporated},
                parameters=book.exemption_params["drainage"],
            )
    if f.impact_kind in (ImpactKind.FILL, ImpactKind.UNKNOWN) and acres:
        limit = min(dec(acres) * book.sqft_per_acre * book.spoil_pct / PERCENT, book.spoil_max_sqft)
        if w.counted <= limit:
            w.exemptions.append(R.EXEMPTION_WILDLIFE_SPOIL)
            log.add(
                project=project,
                impact_id=w.iid,
                rule_id=R.EXEMPTION_WILDLIFE_SPOIL,
                citation=book.cite["wildlife_spoil_max_percent"],
                outcome=O_ELIGIBLE,
                value=float(w.counted),
                reason=f"A deposition of {fmt_sqft(float(w.counted))} is within "
                f"{fmt_sqft(float(limit))} and passes the area test of the wildlife habitat "
                f"spoil exemption, if the fill is spoil of a wildlife habitat project; {why}",
                verify=(_V_WILDLIFE, _V_NOT_COMBINED),
                inputs={"wetland_acres": acres},
                parameters=book.exemption_params["wildlife_spoil"],
            )
