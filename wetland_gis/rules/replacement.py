"""Replacement ratio and replacement acres, Minn. Stat. § 103G.222, subd. 1.

* :func:`replacement_ratio` — two acres replaced per acre drained or filled on
  nonagricultural land (subd. 1(f)); one acre on agricultural land or in a greater than
  80 percent area (subd. 1(g)); the user's rule adjustments (Minn. R. 8420.0522, supplied
  in the adjustments table, never shipped); and the after-the-fact multiplier the local
  government unit may require, at most twice the ratio otherwise required (subd. 1(n)).
* :func:`replacement_required` — acres of replacement for an area at a ratio.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Collection
from decimal import Decimal

from wetland_gis.decision import Decision
from wetland_gis.enums import ImpactOutcome, Outcome, PercentageArea
from wetland_gis.errors import RulesInputError
from wetland_gis.parameters import RATIO_CONDITIONS, Adjustments, ParameterSet, as_date
from wetland_gis.rules import registry as R
from wetland_gis.rules.facts import (
    SQFT_PER_ACRE,
    Trace,
    check_area,
    check_flag,
    class_words,
    exact,
    fmt_number,
    fmt_sqft,
    percentage_class_of,
)
from wetland_gis.rules.kernel import O_REQUIRED, PCT_VALUE, Impact, RuleBook, dec
from wetland_gis.rules.spec import question, short_cite
from wetland_gis.rules.trace import TraceLog

_REPLACEMENT = "replacement."
#: Subd. 1(c): a wetland in a cultivated field is replaced by restoration only.
CULTIVATED_FIELD = question("replacement_required").clause("1(c)")
#: Subd. 1(d): the deed restriction the LGU may require (named in a verify item).
DEED_RESTRICTION = question("replacement_required").clause("1(d)")


def replacement_ratio(
    pct_class: PercentageArea,
    agricultural_land: bool,
    *,
    after_the_fact: bool = False,
    after_the_fact_multiplier: float = 1.0,
    adjustments: Adjustments | None = None,
    conditions: Collection[str] = (),
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
) -> Decision:
    """Return the replacement ratio for an impact (§ 103G.222, subd. 1(f), (g), (n)).

    Parameters
    ----------
    pct_class : PercentageArea
        Percentage-area class of the impact.
    agricultural_land : bool
        Whether the wetland is on agricultural land (§ 103G.005, subd. 2a).
    after_the_fact : bool, default False
        The replacement plan is sought after the project already affected the wetland.
    after_the_fact_multiplier : float, default 1.0
        The multiple of the ratio otherwise required that the local government unit
        requires; between 1 and the maximum of subd. 1(n). Only with ``after_the_fact``.
    adjustments : Adjustments, optional
        The user's ratio adjustments (Minn. R. 8420.0522), from
        :func:`wetland_gis.parameters.load_adjustments`. None are applied by default.
    conditions : collection of str
        The conditions that hold (``in_advance``, ``in_kind``, ``out_of_kind``,
        ``outside_major_watershed``, ``outside_bank_service_area``, ``same_minor_watershed``);
        each adjustment whose ``when`` is among them is added.
    params : ParameterSet, optional
        Parameter tree (default: the shipped one).
    as_of : str or date, optional
        Date the law is applied as of (default: today).

    Returns
    -------
    Decision
        ``value`` is the ratio (acres replaced per acre drained or filled), never below 0.

    Raises
    ------
    RulesInputError
        On an unknown condition, a multiplier above the subd. 1(n) maximum or below 1, or a
        multiplier without ``after_the_fact``.

    Notes
    -----
    The ratio is ``(base + user adjustments, at least 0) x after-the-fact multiplier``:
    the adjustments are part of "the replacement ratio otherwise required" that subd. 1(n)
    multiplies.

    Examples
    --------
    >>> from wetland_gis.enums import PercentageArea
    >>> replacement_ratio(PercentageArea.LESS_THAN_50, False, as_of="2024-01-01").value
    2.0
    """
    trace = Trace("replacement_ratio", params, as_of)
    pct = percentage_class_of(pct_class)
    check_flag(agricultural_land, "agricultural_land")
    check_flag(after_the_fact, "after_the_fact")
    wanted = _conditions(conditions)
    if adjustments is not None and not isinstance(adjustments, Adjustments):
        raise RulesInputError(
            "adjustments must be an Adjustments table (wetland_gis.parameters.load_adjustments)"
        )
    multiplier = _multiplier(trace, after_the_fact, after_the_fact_multiplier)

    if agricultural_land or pct is PercentageArea.GREATER_THAN_80:
        key = _REPLACEMENT + "ratio_agricultural_or_greater_than_80"
        why = []
        if agricultural_land:
            why.append("on agricultural land")
        if pct is PercentageArea.GREATER_THAN_80:
            why.append(f"in a {class_words(pct)}")
        where = " and ".join(why)
    else:
        key = _REPLACEMENT + "ratio_nonagricultural"
        where = f"on nonagricultural land in a {class_words(pct)}"
    base = trace.value(key)
    trace.cite_key(key)
    trace.because(
        f"A wetland {where}: {fmt_number(base)} acre(s) replaced per acre drained or filled "
        f"({short_cite(trace.citation(key))})."
    )
    trace.check(
        "Whether the wetland is on agricultural land (§ 103G.005, subd. 2a) is decided by "
        "the local government unit."
    )

    ratio, added, _ = adjust_ratio(trace, exact(base), adjustments, wanted)
    table = adjustments.ratio if adjustments is not None else ()
    matched = {adj.when for adj in table}
    for name in sorted(wanted - matched):
        trace.because(f"No adjustment for the condition {name!r} is in the adjustments table.")
    if not table:
        trace.check(
            "Ratio adjustments of Minn. R. 8420.0522 (in advance, in kind, siting) are not "
            "included: supply them in an adjustments table if they apply."
        )

    if after_the_fact:
        trace.cite_key(_REPLACEMENT + "after_the_fact_max_multiplier")
        trace.because(
            f"After the fact: the local government unit requires {fmt_number(multiplier)} "
            "times the ratio otherwise required (at most "
            f"{fmt_number(trace.value(_REPLACEMENT + 'after_the_fact_max_multiplier'))} times)."
        )
        trace.check("The after-the-fact multiplier is the local government unit's decision.")
        ratio *= exact(multiplier)

    trace.amounts.update(
        base_ratio=float(base),
        adjustment_total=float(added),
        after_the_fact_multiplier=float(multiplier),
        ratio=float(ratio),
    )
    return trace.decide(Outcome.CLASSIFIED, float(ratio))


def adjust_ratio(
    trace: Trace,
    ratio: Decimal,
    adjustments: Adjustments | None,
    conditions: Collection[str],
) -> tuple[Decimal, Decimal, bool]:
    """Add the user's ratio adjustments whose condition holds (Minn. R. 8420.0522).

    The one implementation of the adjustments: :func:`replacement_ratio` adds them to the
    base ratio, :func:`wetland_gis.rules.priority.option_ratio` to the decided ratio of an
    impact for one siting option. Both multiply the result by the subd. 1(n) multiplier
    afterwards (the adjustments are part of "the replacement ratio otherwise required").

    Parameters
    ----------
    trace : Trace
        The decision's trace (citations, reasons and verify items are written to it).
    ratio : Decimal
        The ratio before the adjustments.
    adjustments : Adjustments or None
        The user's adjustments table.
    conditions : collection of str
        The conditions that hold.

    Returns
    -------
    tuple of (Decimal, Decimal, bool)
        The adjusted ratio (never below 0), the adjustments' total, and whether any applied.
    """
    added = exact(0)
    applied = False
    for adj in adjustments.ratio if adjustments is not None else ():
        if adj.when not in conditions:
            continue
        applied = True
        ratio += exact(adj.add)
        added += exact(adj.add)
        trace.cite(adj.reference)
        trace.used[f"adjustment.{adj.when}"] = adj.add
        trace.because(f"User-supplied adjustment for {adj.when!r}: {adj.add:+g} ({adj.reference}).")
        trace.check(
            f"The user-supplied ratio adjustment for {adj.when!r} ({adj.reference}) matches "
            "the rule in force and the Technical Evaluation Panel's findings."
        )
    if ratio < 0:
        trace.because("The adjusted ratio would be below 0; it is set to 0.")
        ratio = exact(0)
    return ratio, added, applied


def _conditions(conditions: Collection[str]) -> set[str]:
    items = (conditions,) if isinstance(conditions, str) else tuple(conditions)
    unknown = [c for c in items if c not in RATIO_CONDITIONS]
    if unknown:
        raise RulesInputError(
            f"conditions {unknown} are not known; expected some of {sorted(RATIO_CONDITIONS)}"
        )
    return set(items)


def _multiplier(trace: Trace, after_the_fact: bool, multiplier: float) -> float:
    if isinstance(multiplier, bool) or not isinstance(multiplier, (int, float)):
        raise RulesInputError(f"after_the_fact_multiplier must be a number, got {multiplier!r}")
    value = float(multiplier)
    key = _REPLACEMENT + "after_the_fact_max_multiplier"
    if not after_the_fact:
        if value != 1:
            raise RulesInputError(
                f"after_the_fact_multiplier is {multiplier!r} but after_the_fact is False; "
                "the multiplier of Minn. Stat. § 103G.222, subd. 1(n) applies only to a "
                "replacement plan sought after the wetland was affected"
            )
        return value
    most = trace.value(key)
    if not math.isfinite(value) or value < 1 or not trace.passes(key, value):
        raise RulesInputError(
            f"after_the_fact_multiplier {multiplier!r} is outside 1 to {fmt_number(most)}: "
            f"parameter {key!r} ({trace.citation(key)}) lets the local government unit "
            f"require a ratio not exceeding {fmt_number(most)} times the ratio otherwise "
            f"required, as of {trace.day.isoformat()}"
        )
    return value


def replacement_required(
    area_sqft: float,
    ratio: Decision,
    *,
    cultivated_field: bool = False,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
) -> Decision:
    """Return the acres of replacement required for an impact.

    Parameters
    ----------
    area_sqft : float
        Area drained or filled that must be replaced, in square feet (the whole impact
        when it is not exempt, Minn. R. 8420.0420, subp. 1).
    ratio : Decision
        The answer of :func:`replacement_ratio`.
    cultivated_field : bool, default False
        The wetland is in a cultivated field: replacement by restoration only
        (§ 103G.222, subd. 1(c)).
    params : ParameterSet, optional
        Parameter tree (default: the shipped one).
    as_of : str or date, optional
        Date the law is applied as of (default: the ratio's date; a different date is
        refused).

    Returns
    -------
    Decision
        ``value`` is the acres of replacement: ``area_sqft / SQFT_PER_ACRE * ratio``;
        outcome ``REQUIRED`` when above 0, else ``NOT_REQUIRED``. Citations, parameters and
        verify items of the ratio are carried over.

    Examples
    --------
    >>> from wetland_gis.enums import PercentageArea
    >>> r = replacement_ratio(PercentageArea.LESS_THAN_50, False, as_of="2024-01-01")
    >>> replacement_required(43560, r).value
    2.0
    """
    area = check_area(area_sqft, "area_sqft")
    check_flag(cultivated_field, "cultivated_field")
    if not isinstance(ratio, Decision) or ratio.question != "replacement_ratio":
        raise RulesInputError(
            "ratio must be the Decision returned by replacement_ratio(), got "
            f"{type(ratio).__name__}"
        )
    value = ratio.value
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise RulesInputError(f"ratio.value must be a number 0 or more, got {value!r}")
    day = as_date(as_of) if as_of is not None else as_date(ratio.as_of)
    if day.isoformat() != ratio.as_of:
        raise RulesInputError(
            f"the ratio was decided as of {ratio.as_of} but as_of is {day.isoformat()}; "
            "decide both as of the same date"
        )
    trace = Trace("replacement_required", params, day)
    trace.cite(*ratio.citations)
    trace.used.update(ratio.parameters)
    trace.because(*ratio.reasons)
    trace.check(ratio.verify)
    acres = exact(area) / SQFT_PER_ACRE * exact(value)
    trace.amounts.update(
        area_sqft=area,
        area_acres=float(exact(area) / SQFT_PER_ACRE),
        ratio=float(value),
        replacement_acres=float(acres),
    )
    trace.because(
        f"{fmt_sqft(area)} ({fmt_number(float(exact(area) / SQFT_PER_ACRE))} acres) at a ratio "
        f"of {fmt_number(value)} requires {fmt_number(float(acres))} acres of replacement."
    )
    if cultivated_field:
        trace.cite(CULTIVATED_FIELD)
        trace.because(
            "The wetland is in a cultivated field: replacement must be by restoration only, "
            "without regard to the priority order of § 103G.222, subd. 1(b) (subd. 1(c))."
        )
        trace.check(
            "Subd. 1(c) condition: the altered wetland is not converted to a nonagricultural "
            "use for the period that paragraph sets; the local government unit may require "
            f"a deed restriction ({DEED_RESTRICTION})."
        )
    else:
        trace.check(
            "Whether the wetland is in a cultivated field (then restoration only, "
            f"{CULTIVATED_FIELD})."
        )
    outcome = Outcome.REQUIRED if acres > 0 else Outcome.NOT_REQUIRED
    return trace.decide(outcome, float(acres))


# --- the engine's steps (rules/engine.py orders them) -----------------------------------

#: "the entire amount of impact must be replaced" (not only the excess)
WHOLE_PROJECT = R.rule(R.REPLACEMENT_CREDITS).clause("entire amount")

_AGRICULTURAL = frozenset({"agricultural", "pasture"})


_V_LAND_USE = (
    "Land use not given: the impact was treated as on nonagricultural land "
    "(§ 103G.222, subd. 1(f)); confirm."
)


def ratio_answer(
    book: RuleBook, pct: PercentageArea, agricultural: bool
) -> tuple[float, tuple[str, ...], str, tuple, dict, float]:
    """Return (ratio, citations, reason, verify, parameters, multiplier) for a class and land use.

    :func:`replacement_ratio` is called once per class and land use of a run and its
    answer kept in the rule book's memo.
    """
    key = ("replacement_ratio", pct, agricultural)
    got = book.memo.get(key)
    if got is None:
        claims = book.claims
        d = replacement_ratio(
            pct,
            agricultural,
            after_the_fact=claims.after_the_fact,
            after_the_fact_multiplier=claims.after_the_fact_multiplier,
            params=book.params,
            as_of=book.day,
        )
        got = (
            float(d.value),
            tuple(d.citations),
            " ".join(d.reasons),
            tuple(d.verify),
            dict(d.parameters),
            float(d.amounts["after_the_fact_multiplier"]),
        )
        book.memo[key] = got
    return got


#: The impact outcomes exempt only on a condition: what is owed if it fails is kept.
_CONDITIONAL = (ImpactOutcome.DE_MINIMIS_CONDITIONAL, ImpactOutcome.EXEMPT_CONDITIONAL)

#: ``duration`` of a temporary impact (the joint application's "permanent or temporary").
TEMPORARY = "temporary"

_V_TEMPORARY = (
    "Temporary impact (duration = temporary): the rule on temporary impacts is not in the "
    "reference material of this tool, so it is replaced like a permanent drain or fill at "
    "the full ratio; the local government unit must confirm the restoration -- the wetland's "
    "hydrology, soils and vegetation returned to their condition before the impact, by the "
    "date and under the assurance it sets -- before it accepts anything less than this "
    "replacement."
)


def replacement_steps(project: str, work: list[Impact], book: RuleBook, log: TraceLog) -> None:
    """§ 103G.222, subd. 1(f), (g), (n): the ratio and credits of every impact to replace.

    Minn. R. 8420.0420, subp. 1 (the general exemption standard): "the entire amount of
    impact must be replaced". An impact exempt only on a condition gets the replacement it
    would owe if the condition fails (``w.acres_if_fails``, step ``replacement.if_fails``).
    A temporary impact is replaced at the same ratio, with a verify item naming the
    restoration the local government unit must confirm (the ratio is never lowered on it).
    """
    add = log.add
    for w in work:
        if w.regulated and w.outcome in _CONDITIONAL:
            _if_fails(project, w, book, log)
        if not w.regulated or w.outcome not in (ImpactOutcome.REPLACEMENT_REQUIRED,):
            continue
        f = w.f
        land = (f.land_use or "").strip().lower() or None
        agricultural = land in _AGRICULTURAL
        ratio, cite, why, verify, used, multiplier = ratio_answer(book, f.pct_class, agricultural)
        if land is None:
            verify = (*verify, _V_LAND_USE)
        if (f.duration or "").strip().lower() == TEMPORARY:
            verify = (*verify, _V_TEMPORARY)
        w.ratio = ratio
        w.multiplier = multiplier
        add(
            project=project,
            impact_id=w.iid,
            rule_id=R.REPLACEMENT_RATIO,
            citation=cite,
            outcome=O_REQUIRED,
            value=ratio,
            reason=why,
            verify=verify,
            inputs={"pct_class": PCT_VALUE[f.pct_class], "land_use": land},
            parameters=used,
        )
        acres = w.counted / book.sqft_per_acre * dec(ratio)
        w.acres = float(acres)
        add(
            project=project,
            impact_id=w.iid,
            rule_id=R.REPLACEMENT_CREDITS,
            citation=(*cite, WHOLE_PROJECT),
            outcome=O_REQUIRED,
            value=w.acres,
            reason=(_r_credits, (w.counted, book.sqft_per_acre, ratio, w.acres)),
            verify=(),
            inputs={"counted_sqft": float(w.counted), "ratio": ratio},
        )


def _if_fails(project: str, w: Impact, book: RuleBook, log: TraceLog) -> None:
    """Write the replacement a conditionally exempt impact owes if its condition fails.

    Its counted area at the ratio it would be replaced at (§ 103G.222, subd. 1(f), (g),
    (n)); Minn. R. 8420.0420, subp. 1: when the exemption does not apply, "the entire
    amount of impact must be replaced".
    """
    f = w.f
    land = (f.land_use or "").strip().lower() or None
    ratio, cite, _, _, used, _ = ratio_answer(book, f.pct_class, land in _AGRICULTURAL)
    acres = w.counted / book.sqft_per_acre * dec(ratio)
    w.acres_if_fails = float(acres)
    log.add(
        project=project,
        impact_id=w.iid,
        rule_id=R.REPLACEMENT_IF_FAILS,
        citation=(*cite, WHOLE_PROJECT),
        outcome=Outcome.CONDITIONAL.value,
        value=w.acres_if_fails,
        reason=(_r_if_fails, (w.iid, w.counted, book.sqft_per_acre, ratio, w.acres_if_fails)),
        verify=(_V_LAND_USE,) if land is None else (),
        inputs={
            "counted_sqft": float(w.counted),
            "ratio": ratio,
            "pct_class": PCT_VALUE[f.pct_class],
            "land_use": land,
            "outcome": w.outcome.value,
        },
        parameters=used,
    )


def _r_if_fails(iid: str, counted: Decimal, per_acre: Decimal, ratio: float, acres: float) -> str:
    return (
        f"If the condition of its exemption fails, impact {iid!r} is not exempt and its "
        f"{fmt_sqft(float(counted))} ({fmt_number(float(counted / per_acre))} acres) must be "
        f"replaced at a ratio of {fmt_number(ratio)}: {fmt_number(acres)} acres of replacement "
        "(Minn. R. 8420.0420, subp. 1)."
    )


def _r_credits(counted: Decimal, per_acre: Decimal, ratio: float, acres: float) -> str:
    return (
        f"{fmt_sqft(float(counted))} ({fmt_number(float(counted / per_acre))} acres) at a "
        f"ratio of {fmt_number(ratio)} requires {fmt_number(acres)} acres of replacement."
    )
