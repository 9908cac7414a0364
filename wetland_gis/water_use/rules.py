"""Water appropriation under Minn. Stat. § 103G.271, as pure functions on plain values.

The rules take an :class:`Appropriation` (plain values: gallons, use, source, county,
aquifer, miles to a destination, and the facts the law leaves to a person as ``True``,
``False`` or ``None`` = unknown), read every legal number from the dated parameter tree
``water_use.yaml`` and return :class:`WaterDecision` objects shaped like the project's
trace contract (rule id, citation, inputs, parameters, outcome, value, reason, verify).
No geometry is imported here: :mod:`wetland_gis.water_use` computes the spatial facts.

This module screens a set of appropriations (:func:`screen`) and is where the public names
of the rules core are imported from. The parts live beside it, one job each: the statute
and its editions (``editions.py``), the facts (``facts.py``), the rule framework
(``framework.py``: the rule registry, the decision, running a rule under each edition),
whether a permit is required (``permit.py``), the restrictions (``restrictions.py``), one
permit's fee (``fees.py``), the caps, surcharge and totals over permits (``fee_totals.py``)
and the schedules of past years and late payment (``schedules.py``).

Two editions. Each rule is evaluated under the edition that applies on the application date
(``as_of``). Between the editions (see ``water_use.editions``) it is evaluated under both:
when the answers agree that answer is given (saying so); when they differ the outcome is
``indeterminate``, both answers and both figures are named and neither is used, because the
date each change took effect is not in the text held here.

Examples
--------
>>> a = Appropriation("P-1", annual_gallons=900_000, gallons_per_day=5_000)
>>> permit_required(a, as_of="2026-06-01").outcome.value
'permit_not_required'
>>> processing_fee(Appropriation("P-2", annual_gallons=120_000_000),
...                as_of="2018-06-01").value
480.0
>>> processing_fee(Appropriation("P-2", annual_gallons=120_000_000),
...                as_of="2022-06-01").outcome.value
'indeterminate'
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any

from wetland_gis.errors import RulesInputError
from wetland_gis.parameters import ParameterSet, as_date
from wetland_gis.water_use.amounts import (
    _exact_or_none,
    _usd as _usd,  # a fee as a reason writes it
    exact as exact,
)
from wetland_gis.water_use.editions import (
    WATER_USE_PARAMETERS_PATH as WATER_USE_PARAMETERS_PATH,
    Edition,
    editions as editions,
    editions_for,
    water_use_parameters,
)
from wetland_gis.water_use.facts import (
    BOUNDARY_READINGS as BOUNDARY_READINGS,
    ENTITY_TYPES as ENTITY_TYPES,
    IRRIGATION_MINIMUM_READINGS as IRRIGATION_MINIMUM_READINGS,
    MONTHS as MONTHS,
    ONCE_THROUGH_KINDS as ONCE_THROUGH_KINDS,
    PERMIT_ACTIONS as PERMIT_ACTIONS,
    SOURCES as SOURCES,
    USES as USES,
    Appropriation,
    FeeReadings,
)
from wetland_gis.water_use.fee_totals import _entity_caps, _surcharges, _totals
from wetland_gis.water_use.fees import _fee, processing_fee as processing_fee
from wetland_gis.water_use.framework import (
    RULE_IDS,
    WATER_RULES as WATER_RULES,
    WaterDecision,
    WaterOutcome,
    WaterRule as WaterRule,
    WaterRuleSpec as WaterRuleSpec,
    _EditionRun,
    _merge,
    _Result,
    fmt_value as fmt_value,
)
from wetland_gis.water_use.permit import _permit_required, permit_required as permit_required
from wetland_gis.water_use.restrictions import (
    _RESTRICTIONS,
    METROPOLITAN_AREA_CHECK as METROPOLITAN_AREA_CHECK,
    bulk_sale as bulk_sale,
    data_center as data_center,
    mt_simon_hinckley as mt_simon_hinckley,
    once_through as once_through,
    surface_water_levels as surface_water_levels,
)
from wetland_gis.water_use.schedules import (
    late_payment_penalty as late_payment_penalty,
    past_unpermitted_fees as past_unpermitted_fees,
)

#: Headline order: the first outcome found among a permit's restriction decisions wins.
_HEADLINE_ORDER = (
    WaterOutcome.NOT_ASSESSED,
    WaterOutcome.PROHIBITED,
    WaterOutcome.TERMINATE,
    WaterOutcome.INDETERMINATE,
    WaterOutcome.VERIFY,
    WaterOutcome.CONDITIONS,
)
#: The decisions a permit's headline outcome is taken from (not the fee decisions).
_HEADLINE_RULES = frozenset(RULE_IDS[k] for k in ("permit_required", *dict(_RESTRICTIONS)))


def _by_subject(decisions: Iterable[WaterDecision]) -> dict[str, list[WaterDecision]]:
    """Return the decisions grouped by subject (a permit id, an entity or a system)."""
    index: dict[str, list[WaterDecision]] = defaultdict(list)
    for d in decisions:
        index[d.subject].append(d)
    return dict(index)


@dataclass(frozen=True)
class ScreeningResult:
    """Every decision of a screening, by permit, with the per-permit summary.

    Parameters
    ----------
    decisions : tuple of WaterDecision
        In order: per permit, the permit, restriction and fee decisions; then entity caps,
        surcharges and each permit's total.
    summary : tuple of dict
        One row per permit: headline outcome, fee before cap, after cap, surcharge, total.
    as_of : str
    """

    decisions: tuple[WaterDecision, ...]
    summary: tuple[Mapping[str, Any], ...]
    as_of: str
    _index: Mapping[str, list[WaterDecision]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", _by_subject(self.decisions))

    def for_permit(self, permit_id: str) -> list[WaterDecision]:
        """Return the decisions whose subject is ``permit_id``."""
        return list(self._index.get(permit_id, ()))

    def decision(self, permit_id: str, rule: str) -> WaterDecision:
        """Return the decision of ``rule`` (a :data:`RULE_IDS` key or id) for a permit."""
        rule_id = RULE_IDS.get(rule, rule)
        for d in self._index.get(permit_id, ()):
            if d.rule_id == rule_id:
                return d
        raise KeyError(f"no decision {rule_id!r} for {permit_id!r}")


def _edition_screen(
    items: Sequence[Appropriation], params: ParameterSet, ed: Edition, readings: FeeReadings
) -> dict[tuple[str, str], _Result]:
    """Return every answer of a screening under one edition, by (subject, rule id).

    Per permit the permit, restriction and fee rules; then the entity caps, the surcharges
    and each permit's total, which sum several permits.
    """
    run = _EditionRun(params, ed)
    fees = _permit_answers(items, run, readings)
    after_cap = _entity_caps(items, fees, run)
    surcharges = _surcharges(items, run)
    _totals(items, after_cap, surcharges, run)
    return run.results


def _permit_answers(
    items: Sequence[Appropriation], run: _EditionRun, readings: FeeReadings
) -> dict[str, Fraction | None]:
    """Record each permit's permit, restriction and fee answers; return its fee (None: unknown)."""
    fees: dict[str, Fraction | None] = {}
    for a in items:
        facts = a.facts()
        permit = run.run("permit_required", a.permit_id, partial(_permit_required, a), facts)
        for rule, restriction in _RESTRICTIONS:
            run.run(rule, a.permit_id, partial(restriction, a), facts)
        # a permit in force pays its fee even in a year under the minimum-use amounts
        permitted = permit.outcome != WaterOutcome.NOT_REQUIRED or a.permit_action == "existing"
        fee = run.run(
            "fee",
            a.permit_id,
            partial(_fee, a, readings=readings, permitted=permitted),
            facts,
        )
        fees[a.permit_id] = (
            _exact_or_none(fee.value)
            if fee.outcome in (WaterOutcome.FEE,)
            else (Fraction(0) if fee.value is not None else None)
        )
    return fees


def screen(
    appropriations: Iterable[Appropriation],
    *,
    as_of: str | dt.date | None = None,
    params: ParameterSet | None = None,
    readings: FeeReadings | None = None,
) -> ScreeningResult:
    """Screen a set of appropriations: permit, restrictions, fees, caps and surcharges.

    Parameters
    ----------
    appropriations : iterable of Appropriation
        Permit ids must be unique. Entity caps sum an entity's permits; the surcharge sums
        municipal permits sharing a ``distribution_system``.
    as_of : str or date, optional
        Application (fee year) date.
    params : ParameterSet, optional
    readings : FeeReadings, optional

    Returns
    -------
    ScreeningResult
    """
    items = list(appropriations)
    ids = [a.permit_id for a in items]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise RulesInputError(f"permit ids must be unique; repeated: {dupes}")
    params = params if params is not None else water_use_parameters()
    readings = readings or FeeReadings()
    day = as_date(as_of)
    per_edition = [_edition_screen(items, params, ed, readings) for ed in editions_for(day, params)]
    keys = list(dict.fromkeys(k for run in per_edition for k in run))
    decisions = []
    for key in keys:
        results = [run[key] for run in per_edition if key in run]
        if len(results) < len(per_edition):  # present in one edition only
            results = results[:1]
        decisions.append(_merge(results, day))
    return ScreeningResult(tuple(decisions), _summary(items, decisions), day.isoformat())


def _summary(
    items: Sequence[Appropriation], decisions: Sequence[WaterDecision]
) -> tuple[dict[str, Any], ...]:
    """Return one row per permit: headline outcome, permit outcome, fee, total, edition."""
    index = _by_subject(decisions)
    summary = []
    for a in items:
        mine = index[a.permit_id]
        by_rule = {d.rule_id: d for d in mine}
        summary.append(
            {
                "permit_id": a.permit_id,
                "outcome": headline(mine).value,
                "permit": by_rule[RULE_IDS["permit_required"]].outcome.value,
                "fee_usd": by_rule[RULE_IDS["fee"]].value,
                "total_usd": by_rule[RULE_IDS["total"]].value,
                "edition": by_rule[RULE_IDS["permit_required"]].edition,
            }
        )
    return tuple(summary)


def headline(decisions: Iterable[WaterDecision]) -> WaterOutcome:
    """Return a permit's headline outcome from its decisions.

    The most serious restriction outcome wins (prohibited, must be terminated,
    indeterminate, verify, conditions); otherwise the permit decision's outcome.
    """
    decisions = [d for d in decisions if d.rule_id in _HEADLINE_RULES]
    found = {d.outcome for d in decisions}
    for outcome in _HEADLINE_ORDER:
        if outcome in found:
            return outcome
    for d in decisions:
        if d.rule_id == RULE_IDS["permit_required"]:
            return d.outcome
    return WaterOutcome.NOT_ASSESSED
