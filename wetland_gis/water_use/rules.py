"""Water appropriation under Minn. Stat. § 103G.271, as pure functions on plain values.

The rules take an :class:`Appropriation` (plain values: gallons, use, source, county,
aquifer, miles to a destination, and the facts the law leaves to a person as ``True``,
``False`` or ``None`` = unknown), read every legal number from the dated parameter tree
``water_use.yaml`` and return :class:`WaterDecision` objects shaped like the project's
trace contract (rule id, citation, inputs, parameters, outcome, value, reason, verify).
No geometry is imported here: :mod:`wetland_gis.water_use` computes the spatial facts.

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

import calendar
import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Decimal
from enum import Enum
from fractions import Fraction
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, Protocol

from wetland_gis.decision import freeze
from wetland_gis.errors import ParameterNotInForce, RulesInputError
from wetland_gis.parameters import ParameterSet, as_date, load_parameters
from wetland_gis.rules.facts import PERCENT, Trace, check_area, check_choice, fmt_number
from wetland_gis.rules.percentage_area import normalise_county


def exact(value: float | Fraction) -> Fraction:
    """Return ``value`` as an exact fraction of the figure as written (``repr`` of a float).

    Water appropriation keeps :class:`fractions.Fraction` for its fees and volumes; the WCA
    rules core uses :class:`decimal.Decimal` (:func:`wetland_gis.rules.facts.exact`).

    Examples
    --------
    >>> exact(0.1) + exact(0.2) == exact(0.3)
    True
    """
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    return Fraction(repr(float(value)))


__all__ = [
    "WATER_USE_PARAMETERS_PATH",
    "WaterOutcome",
    "Edition",
    "Appropriation",
    "WaterDecision",
    "FeeReadings",
    "ScreeningResult",
    "BOUNDARY_READINGS",
    "IRRIGATION_MINIMUM_READINGS",
    "USES",
    "ENTITY_TYPES",
    "SOURCES",
    "PERMIT_ACTIONS",
    "ONCE_THROUGH_KINDS",
    "MONTHS",
    "RULE_IDS",
    "METROPOLITAN_AREA_CHECK",
    "WaterRule",
    "water_use_parameters",
    "editions",
    "editions_for",
    "permit_required",
    "mt_simon_hinckley",
    "bulk_sale",
    "once_through",
    "surface_water_levels",
    "data_center",
    "processing_fee",
    "screen",
    "past_unpermitted_fees",
    "late_payment_penalty",
    "headline",
]

#: The shipped water-use parameter tree.
WATER_USE_PARAMETERS_PATH = Path(__file__).resolve().parents[1] / "parameters" / "water_use.yaml"

#: Month names, January first, as the parameter tree and the input columns write them.
MONTHS: tuple[str, ...] = tuple(name.lower() for name in calendar.month_name[1:])

#: Uses understood (column ``use``).
USES = (
    "domestic",
    "municipal",
    "agricultural_irrigation",
    "golf_course_irrigation",
    "landscape_irrigation",
    "industrial",
    "commercial",
    "dewatering",
    "hydropower",
    "cogeneration",
    "flood_control",
    "stormwater",
    "water_quality_treatment",
    "surface_water_level",
    "other",
)
# subd. 4b(b): "a local unit of government, rural water district ... or Tribal unit of government"
_LOCAL_UNITS = (
    "municipality",
    "city_first_class",
    "county",
    "local_government",
    "rural_water_district",
    "tribal_government",
)
_AGENCY_TYPES = ("state_agency", "federal_agency")
#: Entity types understood (column ``entity_type``).
ENTITY_TYPES = (
    "person",
    "business",
    "nonprofit",
    "school_district",
    *_LOCAL_UNITS,
    *_AGENCY_TYPES,
    "other",
)
#: Sources (column ``source``).
SOURCES = ("groundwater", "surface")
#: What the application is for (column ``permit_action``).
PERMIT_ACTIONS = ("new", "modified", "existing")
#: Kinds of once-through system (column ``once_through``; blank = not once-through).
ONCE_THROUGH_KINDS = ("cooling", "other", "thermal_exchange", "aquifer_storage_recovery")

_AGENCIES = frozenset(_AGENCY_TYPES)
_PUBLIC = frozenset({*_LOCAL_UNITS, *_AGENCY_TYPES, "school_district"})
_PUBLIC_SUPPLY_HOLDERS = frozenset(_LOCAL_UNITS)
_NONPROFIT_RATE = frozenset({"nonprofit", "school_district"})
_RETURNING_SYSTEMS = frozenset({"thermal_exchange", "aquifer_storage_recovery"})
_NEW_OR_MODIFIED = frozenset({"new", "modified"})

#: Readings of a fee amount exactly at a boundary of subd. 6(a) that is in no clause.
#: ``next_clause`` (default): the rate of the clause above the boundary, the higher one, so an
#: unknown is not resolved in the permittee's favour. ``previous_clause``: the rate below.
BOUNDARY_READINGS = ("next_clause", "previous_clause")
#: Readings of the agricultural irrigation minimum of subd. 6(f), default first.
#: ``paragraph_f`` (default): 6(a) applies "except as described in paragraphs (b) to (g)", so in
#: an (f) year the (f) amount is the fee in place of the flat clause (1) fee and the (c)
#: minimum; a rate clause (2)-(11) above it still applies. ``floor``: the (f) amount is only a
#: floor under the clause fee of (a) (which then never changes a fee: clause (1) is flat and
#: above it). ``fee_is_minimum``: in such a year the fee is the (f) amount whatever the amount.
#: docs/water_use.md ("Readings") says why the default gives a smaller fee than ``floor``.
IRRIGATION_MINIMUM_READINGS = ("paragraph_f", "floor", "fee_is_minimum")

RULE_IDS = {
    "permit_required": "water_use.permit_required",
    "mt_simon_hinckley": "water_use.mt_simon_hinckley",
    "bulk_sale": "water_use.bulk_sale",
    "once_through": "water_use.once_through",
    "surface_water_levels": "water_use.surface_water_levels",
    "data_center": "water_use.data_center",
    "fee": "water_use.fee",
    "cap": "water_use.fee.cap",
    "surcharge": "water_use.fee.surcharge",
    "total": "water_use.fee.total",
    "past_years": "water_use.fee.past_years",
    "penalty": "water_use.fee.penalty",
}

_LAW = "Minn. Stat. § 103G.271"

#: The verify item of an answer that turns on "the seven-county metropolitan area" (subd. 5a):
#: the area is defined by § 473.121, subd. 2, which is not held here; the tool uses the
#: county list of § 473.121, subd. 4 (``water_use.seven_county_area.counties``).
METROPOLITAN_AREA_CHECK = (
    "Whether the point is in the seven-county metropolitan area as § 473.121, subd. 2 "
    "defines the metropolitan area (not held here): wetland_gis reads it as the seven "
    "counties of § 473.121, subd. 4 (metropolitan county), a county list, not the area's "
    "own definition."
)
_CENT = Decimal("0.01")


class WaterOutcome(str, Enum):
    """Outcome of one water-use decision (the stable strings written to output files)."""

    NOT_REQUIRED = "permit_not_required"
    REQUIRED = "permit_required"
    LOCAL_APPROVAL = "local_approval"
    NOT_APPLICABLE = "not_applicable"
    ALLOWED = "allowed"
    PROHIBITED = "prohibited"
    TERMINATE = "must_be_terminated"
    CONDITIONS = "permit_conditions_apply"
    VERIFY = "verify"
    FEE = "fee"
    NO_FEE = "no_fee"
    WAIVED = "fee_waived"
    SCHEDULE = "schedule"
    INDETERMINATE = "indeterminate"
    NOT_ASSESSED = "not_assessed"


#: Headline order: the first outcome found among a permit's restriction decisions wins.
_HEADLINE_ORDER = (
    WaterOutcome.NOT_ASSESSED,
    WaterOutcome.PROHIBITED,
    WaterOutcome.TERMINATE,
    WaterOutcome.INDETERMINATE,
    WaterOutcome.VERIFY,
    WaterOutcome.CONDITIONS,
)


@lru_cache(maxsize=1)
def water_use_parameters() -> ParameterSet:
    """Return the shipped water-use parameter tree (``water_use.yaml``, loaded once)."""
    return load_parameters(WATER_USE_PARAMETERS_PATH)


# --------------------------------------------------------------------------- editions


@dataclass(frozen=True)
class Edition:
    """One edition of § 103G.271 and the application dates it is applied to."""

    edition: str
    title: str
    applies_from: dt.date
    applies_through: dt.date | None
    law_file: str

    def covers(self, day: dt.date) -> bool:
        """Return whether the edition is applied on ``day``."""
        return self.applies_from <= day and (
            self.applies_through is None or day <= self.applies_through
        )


def editions(params: ParameterSet | None = None) -> tuple[Edition, ...]:
    """Return the editions of ``water_use.editions``, oldest first."""
    params = params if params is not None else water_use_parameters()
    param = params["water_use.editions"]
    rows = param.values[-1][1]
    out = [
        Edition(
            edition=str(r["edition"]),
            title=str(r["title"]),
            applies_from=as_date(r["applies_from"]),
            applies_through=None
            if r.get("applies_through") is None
            else as_date(r["applies_through"]),
            law_file=str(r.get("law_file", "")),
        )
        for r in rows
    ]
    return tuple(sorted(out, key=lambda e: e.applies_from))


def editions_for(
    as_of: str | dt.date | None, params: ParameterSet | None = None
) -> tuple[Edition, ...]:
    """Return the edition applied on ``as_of``, or the two editions it lies between.

    Raises
    ------
    ParameterNotInForce
        Before the first edition's date (nothing earlier is known).
    """
    day = as_date(as_of)
    eds = editions(params)
    for ed in eds:
        if ed.covers(day):
            return (ed,)
    before = [e for e in eds if e.applies_from > day]
    after = [e for e in eds if e.applies_from <= day]
    if not after:
        raise ParameterNotInForce(
            f"{_LAW}: no edition is held for {day.isoformat()}; the earliest, "
            f"{eds[0].title}, is applied from {eds[0].applies_from.isoformat()}. "
            "Add the earlier edition to water_use.yaml if you hold its text."
        )
    return (after[-1], before[0])


# --------------------------------------------------------------------------- facts


@dataclass(frozen=True)
class Appropriation:
    """The plain facts of one permit or source of appropriation.

    ``None`` means unknown for every fact the law leaves to a person; an unknown fact
    is never resolved in the permittee's favour (the decision says what to verify).

    Parameters
    ----------
    permit_id : str
        Permit or source id.
    entity, entity_type : str
        Who holds the permit, and its kind (:data:`ENTITY_TYPES`).
    use : str
        :data:`USES`.
    source : str
        ``groundwater`` or ``surface``.
    annual_gallons, gallons_per_day : float or None
        Amount appropriated in the year, and the largest daily amount.
    monthly_gallons : tuple of 12 floats or None
        Volumes January to December (subd. 6(h) surcharge).
    permits_held : int or None
        Permits the entity holds (subd. 6(d)(2)); hydropower permits do not count.
    permit_action : str
        ``new``, ``modified`` or ``existing`` (:data:`PERMIT_ACTIONS`).
    county : str or None
        County of the point of appropriation (from the county layer).
    mt_simon_hinckley : bool or None
        Whether the appropriation is from the Mt. Simon-Hinckley aquifer.
    destination_miles : float or None
        Geodesic miles from the point of appropriation to the bulk-sale destination.
    once_through : str or None
        Kind of once-through system (:data:`ONCE_THROUGH_KINDS`), ``None`` if not one.
    distribution_system : str or None
        Common distribution system id (surcharge of a municipality with several permits).
    persons_served, irrigation_suspended_days : float or None
        Subd. 1(b)(1) persons; subd. 6(f)(2) longest suspension in the window, days.
    other flags : bool or None
        The facts named in docs/water_use.md ("Input columns").
    """

    permit_id: str
    entity: str = ""
    entity_type: str = "other"
    use: str = "other"
    source: str = "groundwater"
    annual_gallons: float | None = None
    gallons_per_day: float | None = None
    monthly_gallons: tuple[float, ...] | None = None
    permits_held: int | None = None
    permit_action: str = "new"
    county: str | None = None
    mt_simon_hinckley: bool | None = None
    destination_miles: float | None = None
    once_through: str | None = None
    distribution_system: str | None = None
    persons_served: float | None = None
    irrigation_suspended_days: float | None = None
    general_permit: bool = False
    hydro_structure_existing: bool | None = None
    nonconsumptive: bool | None = None
    stormwater_facility: bool | None = None
    local_permit: bool | None = None
    commissioner_requires: bool | None = None
    potable: bool | None = None
    no_feasible_alternative: bool | None = None
    conservation_plan: bool | None = None
    bulk_sale: bool | None = None
    public_water_supply: bool | None = None
    solely_public_supply: bool | None = None
    property_interest: bool | None = None
    supply_requirements_met: bool | None = None
    increase_volume: bool | None = None
    nature_preserve_discharge: bool | None = None
    existing_system: bool | None = None
    returns_all_water: bool | None = None
    health_pca_approval: bool | None = None
    area_of_concern: bool | None = None
    data_center: bool | None = None
    supplies_data_center: bool | None = None
    returns_to_source: bool | None = None

    def __post_init__(self) -> None:
        _check_choice(self.entity_type, ENTITY_TYPES, "entity_type", self.permit_id)
        _check_choice(self.use, USES, "use", self.permit_id)
        _check_choice(self.source, SOURCES, "source", self.permit_id)
        _check_choice(self.permit_action, PERMIT_ACTIONS, "permit_action", self.permit_id)
        if self.once_through is not None:
            _check_choice(self.once_through, ONCE_THROUGH_KINDS, "once_through", self.permit_id)
        for name in (
            "annual_gallons",
            "gallons_per_day",
            "destination_miles",
            "persons_served",
            "irrigation_suspended_days",
        ):
            _check_amount(getattr(self, name), name, self.permit_id)
        if self.monthly_gallons is not None:
            months = tuple(self.monthly_gallons)
            if len(months) != len(MONTHS):
                raise RulesInputError(
                    f"permit {self.permit_id!r}: monthly_gallons needs {len(MONTHS)} volumes "
                    f"(January to December), got {len(months)}"
                )
            for i, v in enumerate(months):
                _check_amount(v, f"monthly_gallons[{MONTHS[i]}]", self.permit_id)
            object.__setattr__(self, "monthly_gallons", months)
        if self.permits_held is not None and (
            isinstance(self.permits_held, bool)
            or int(self.permits_held) != self.permits_held
            or self.permits_held < 1
        ):
            raise RulesInputError(
                f"permit {self.permit_id!r}: permits_held must be a whole number 1 or more, "
                f"got {self.permits_held!r}"
            )

    @property
    def is_new_or_modified(self) -> bool:
        """Whether the application is for a new or modified permit."""
        return self.permit_action in _NEW_OR_MODIFIED

    def facts(self) -> dict[str, Any]:
        """Return the facts as a JSON-ready dict (the ``inputs`` of a decision)."""
        out = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            out[name] = list(value) if isinstance(value, tuple) else value
        return out


def _check_choice(value: Any, allowed: Sequence[str], name: str, pid: str) -> None:
    if value not in allowed:
        raise RulesInputError(f"permit {pid!r}: {name} {value!r} is not one of {list(allowed)}")


def _check_amount(value: Any, name: str, pid: str) -> None:
    if value is not None:
        check_area(value, f"permit {pid!r}: {name}")


@dataclass(frozen=True)
class FeeReadings:
    """The named readings the fee computation uses where the statute leaves room.

    Parameters
    ----------
    boundary : str
        :data:`BOUNDARY_READINGS` (default ``next_clause``).
    irrigation_minimum : str
        :data:`IRRIGATION_MINIMUM_READINGS` (default ``paragraph_f``).
    """

    boundary: str = "next_clause"
    irrigation_minimum: str = "paragraph_f"

    def __post_init__(self) -> None:
        check_choice(self.boundary, BOUNDARY_READINGS, "boundary reading")
        check_choice(
            self.irrigation_minimum, IRRIGATION_MINIMUM_READINGS, "irrigation minimum reading"
        )


# --------------------------------------------------------------------------- decisions


@dataclass(frozen=True)
class WaterDecision:
    """One water-use decision, shaped like a row of the trace contract.

    Parameters
    ----------
    rule_id : str
        Stable dotted id (:data:`RULE_IDS`).
    subject : str
        The permit id, or the entity / distribution system for a group decision.
    outcome : WaterOutcome
    value : float or None
        The answer's number (a fee in USD), ``None`` where there is none or it is
        indeterminate.
    citation : str
        The main citation; ``citations`` holds every rule that fired.
    reasons, verify : tuple of str
    inputs, parameters : Mapping
        The facts used, and each parameter key with the value used (for an indeterminate
        answer, the values under each edition).
    as_of : str
        The application date.
    edition : str
        The edition(s) applied: ``"2018"``, ``"2025"`` or ``"2018+2025"``.
    amounts : Mapping
        Other numbers of the answer (clause, rate, gallons, each edition's figure).
    flags : tuple of str
        Machine-readable flags (``fee_at_boundary``, ``edition_change``, ...).
    schedule : tuple of dict
        Rows of a schedule (subd. 6a years, subd. 6(e) months).
    """

    rule_id: str
    subject: str
    outcome: WaterOutcome
    value: float | None = None
    citation: str = ""
    citations: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    verify: tuple[str, ...] = ()
    inputs: Mapping[str, Any] = field(default_factory=dict)
    parameters: Mapping[str, Any] = field(default_factory=dict)
    as_of: str = ""
    edition: str = ""
    amounts: Mapping[str, Any] = field(default_factory=dict)
    flags: tuple[str, ...] = ()
    schedule: tuple[Mapping[str, Any], ...] = ()

    def __post_init__(self) -> None:
        for name in ("inputs", "parameters", "amounts"):
            object.__setattr__(self, name, freeze(getattr(self, name)))
        for name in ("citations", "reasons", "verify", "flags"):
            object.__setattr__(self, name, tuple(dict.fromkeys(getattr(self, name))))
        if not self.citation and self.citations:
            object.__setattr__(self, "citation", self.citations[0])

    def trace_row(self) -> dict[str, Any]:
        """Return the trace-contract fields (without project, impact_id and seq)."""
        return {
            "rule_id": self.rule_id,
            "citation": self.citation,
            "outcome": self.outcome.value,
            "value": self.value,
            "reason": " ".join(self.reasons),
            "verify": list(self.verify),
            "inputs": _plain(dict(self.inputs)),
            "parameters": _plain(dict(self.parameters)),
        }

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dictionary of the decision."""
        return {
            **self.trace_row(),
            "subject": self.subject,
            "citations": list(self.citations),
            "reasons": list(self.reasons),
            "as_of": self.as_of,
            "edition": self.edition,
            "amounts": _plain(dict(self.amounts)),
            "flags": list(self.flags),
            "schedule": [_plain(dict(r)) for r in self.schedule],
        }

    def explain(self) -> str:
        """Return the decision as a few lines of plain text."""
        value = "" if self.value is None else f" = {fmt_number(self.value)}"
        lines = [
            f"{self.rule_id} [{self.subject}]: {self.outcome.value}{value} "
            f"(as of {self.as_of}, edition {self.edition})"
        ]
        lines += [f"  - {r}" for r in self.reasons]
        if self.citations:
            lines.append("  cites: " + "; ".join(self.citations))
        lines += [f"  verify: {v}" for v in self.verify]
        return "\n".join(lines)


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v) for v in value]
    return value


class _Rec(Trace):
    """The decision recorder of one rule under one edition."""

    def __init__(self, rule_id: str, subject: str, params: ParameterSet, ed: Edition) -> None:
        super().__init__(rule_id, params, ed.applies_from)
        self.rule_id = rule_id
        self.subject = subject
        self.edition = ed
        self.flags: list[str] = []
        self.extra: dict[str, Any] = {}
        self.rows: list[dict[str, Any]] = []

    def flag(self, *names: str) -> None:
        self.flags.extend(names)

    def ref(self, key: str) -> str:
        """Record and return the citation of ``key``."""
        citation = self.params.citation(key)
        self.citations.append(citation)
        return citation


@dataclass(frozen=True)
class _Result:
    rec: _Rec
    outcome: WaterOutcome
    value: Fraction | float | None
    inputs: Mapping[str, Any]


def _money(value: Fraction | float | None) -> float | None:
    if value is None:
        return None
    q = (
        Decimal(value.numerator) / Decimal(value.denominator)
        if isinstance(value, Fraction)
        else Decimal(repr(float(value)))
    )
    return float(q.quantize(_CENT, rounding=ROUND_HALF_UP))


def _usd(value: Fraction | float) -> str:
    amount = _money(value) or 0.0
    text = f"${amount:,.2f}"
    return text[: -len(".00")] if text.endswith(".00") else text


def _gal(value: float | Fraction) -> str:
    return f"{fmt_number(float(value))} gallons"


def _single(result: _Result, as_of: str = "") -> WaterDecision:
    rec = result.rec
    value = result.value
    if isinstance(value, Fraction):
        value = _money(value)
    verify = list(rec.verify)
    if rec.edition.applies_through is None and rec.edition != editions(rec.params)[0]:
        verify.append(
            f"wetland_gis applies the {rec.edition.title} edition from "
            f"{rec.edition.applies_from.isoformat()}: that is not an effective date (none is in "
            "the text held here). Check that the values used were in force on the application "
            "date."
        )
    return WaterDecision(
        rule_id=rec.rule_id,
        subject=rec.subject,
        outcome=result.outcome,
        value=value,
        citations=tuple(rec.citations),
        reasons=tuple(rec.reasons),
        verify=tuple(verify),
        inputs=result.inputs,
        parameters=dict(rec.used),
        edition=rec.edition.edition,
        amounts={**rec.amounts, **rec.extra},
        flags=tuple(rec.flags),
        schedule=tuple(rec.rows),
        as_of=as_of,
    )


def _merge(results: Sequence[_Result], day: dt.date) -> WaterDecision:
    """Merge one rule's answers under each edition into one decision."""
    if len(results) == 1:
        return _single(results[0], as_of=day.isoformat())
    singles = [_single(r) for r in results]
    older, newer = singles[0], singles[-1]
    eds = [r.rec.edition for r in results]
    label = "+".join(e.edition for e in eds)
    params: dict[str, Any] = {}
    differing = []
    for key in dict.fromkeys([*older.parameters, *newer.parameters]):
        values = {s.edition: s.parameters.get(key) for s in singles}
        if len({repr(v) for v in values.values()}) == 1:
            params[key] = next(iter(values.values()))
        else:
            params[key] = values
            differing.append(key)
    between = (
        f"The application date {day.isoformat()} lies between the {eds[0].title} edition "
        f"(applied through {eds[0].applies_through}) and the {eds[-1].title} edition (applied "
        f"from {eds[-1].applies_from}); the date each change took effect is not in the text "
        "held here."
    )
    diff_text = "; ".join(
        f"{k}: {fmt_value(params[k][eds[0].edition])} ({eds[0].edition}) and "
        f"{fmt_value(params[k][eds[-1].edition])} ({eds[-1].edition})"
        for k in differing
    )
    same = older.outcome == newer.outcome and older.value == newer.value
    verify = list(dict.fromkeys([*older.verify, *newer.verify]))
    amounts = {f"{k}_{s.edition}": v for s in singles for k, v in s.amounts.items()}
    amounts.update({f"value_{s.edition}": s.value for s in singles})
    amounts.update({f"outcome_{s.edition}": s.outcome.value for s in singles})
    flags = list(dict.fromkeys([*older.flags, *newer.flags]))
    citations = tuple(dict.fromkeys([*older.citations, *newer.citations]))
    if same:
        reasons = [
            between + " The answer is the same under both editions.",
            f"Under the {eds[-1].title} edition: " + " ".join(newer.reasons),
        ]
        if differing:
            reasons.append(
                f"Values that differ between the editions did not change it: {diff_text}."
            )
        verify.insert(
            0,
            f"The text in force on {day.isoformat()} is not held (only the two "
            "editions are): check that no amendment between them changed this answer.",
        )
        return replace(
            newer,
            as_of=day.isoformat(),
            edition=label,
            parameters=params,
            verify=tuple(verify),
            amounts=amounts,
            flags=tuple(flags),
            citations=citations,
            reasons=tuple(reasons),
        )
    reasons = [
        between,
        *(
            f"Under the {e.title} edition: {s.outcome.value}"
            + ("" if s.value is None else f" ({fmt_value(s.value)})")
            + ". "
            + " ".join(s.reasons)
            for e, s in zip(eds, singles, strict=True)
        ),
        "wetland_gis uses neither answer"
        + (f"; the values that differ are {diff_text}." if differing else "."),
    ]
    verify.insert(
        0,
        "Check when the change between the editions took effect"
        + (f" ({', '.join(differing)})" if differing else "")
        + f" and which answer applies on {day.isoformat()}.",
    )
    return WaterDecision(
        rule_id=newer.rule_id,
        subject=newer.subject,
        outcome=WaterOutcome.INDETERMINATE,
        value=None,
        citations=citations,
        reasons=tuple(reasons),
        verify=tuple(verify),
        inputs=newer.inputs
        if dict(older.inputs) == dict(newer.inputs)
        else {s.edition: dict(s.inputs) for s in singles},
        parameters=params,
        as_of=day.isoformat(),
        edition=label,
        amounts=amounts,
        flags=tuple([*flags, "edition_change"]),
        schedule=newer.schedule if older.schedule == newer.schedule else (),
    )


def fmt_value(value: Any) -> str:
    """Return a parameter value or figure as plain text for a reason."""
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, (int, float, Fraction)):
        return fmt_number(float(value))
    if isinstance(value, (list, tuple)):
        if value and isinstance(value[0], Mapping):
            return "the schedule of that edition"
        return ", ".join(str(v) for v in value)
    return str(value)


#: The core of a public rule: the appropriation and one edition's trace -> outcome, value.
_RuleCore = Callable[[Appropriation, _Rec], tuple[WaterOutcome, Any]]


class WaterRule(Protocol):
    """A public rule of § 103G.271 on one appropriation, e.g. :func:`bulk_sale`.

    Parameters
    ----------
    a : Appropriation
        The appropriation (its ``permit_id`` is the decision's subject).
    as_of : str or date, optional
        Application date (default today): the rule is evaluated under every edition in
        force on it.
    params : ParameterSet, optional
        Water-use parameter tree (default the shipped one).

    Returns
    -------
    WaterDecision
        The rule's decision; each rule's docstring names its outcomes.
    """

    __name__: str

    def __call__(
        self,
        a: Appropriation,
        *,
        as_of: str | dt.date | None = None,
        params: ParameterSet | None = None,
    ) -> WaterDecision:
        """Return the rule's decision for ``a`` on ``as_of``."""
        ...


def _water_rule(core: _RuleCore) -> WaterRule:
    """Return the public :class:`WaterRule` that runs ``core`` (``_name`` -> ``name``).

    The public function is named ``core``'s name without its underscore (a
    :data:`RULE_IDS` key), has ``core``'s docstring and the signature of
    :class:`WaterRule`.
    """
    name = core.__name__.removeprefix("_")
    rule_id = RULE_IDS[name]

    def rule(
        a: Appropriation,
        *,
        as_of: str | dt.date | None = None,
        params: ParameterSet | None = None,
    ) -> WaterDecision:
        return _run(lambda rec: core(a, rec), rule_id, a.permit_id, a.facts(), as_of, params)

    rule.__name__ = rule.__qualname__ = name
    rule.__doc__ = core.__doc__
    return rule


def _run(
    core: Callable[[_Rec], tuple[WaterOutcome, Any]],
    rule_id: str,
    subject: str,
    inputs: Mapping[str, Any],
    as_of: str | dt.date | None,
    params: ParameterSet | None,
) -> WaterDecision:
    params = params if params is not None else water_use_parameters()
    day = as_date(as_of)
    results = []
    for ed in editions_for(day, params):
        rec = _Rec(rule_id, subject, params, ed)
        outcome, value = core(rec)
        results.append(_Result(rec, outcome, value, inputs))
    return _merge(results, day)


# --------------------------------------------------------------------------- helpers


def _unknown(*values: bool | None) -> bool:
    return any(v is None for v in values)


def _all_true(*values: bool | None) -> bool:
    return all(v is True for v in values)


def _any_false(*values: bool | None) -> bool:
    return any(v is False for v in values)


def _not_in_edition(rec: _Rec, prefix: str, provision: str) -> bool:
    """Return True, saying so, when the edition has no ``provision`` (``prefix + 'in_force'``)."""
    if rec.value(prefix + "in_force"):
        return False
    rec.because(f"This edition has no {provision}.")
    return True


def _in_counties(rec: _Rec, key: str, county: str | None) -> bool | None:
    if county is None or not str(county).strip():
        return None
    listed = {normalise_county(str(c)) for c in rec.value(key)}
    return normalise_county(str(county)) in listed


# --------------------------------------------------------------------------- subd. 1, 4


def _permit_required(a: Appropriation, rec: _Rec) -> tuple[WaterOutcome, Any]:
    """Return whether a water-use permit is required (subd. 1(a), 1(b), 4(a), 4(b)).

    The public :func:`permit_required` is a :class:`WaterRule`: ``permit_required(a,
    as_of=None, params=None)``.

    Returns
    -------
    WaterDecision
        ``permit_not_required``, ``permit_required``, ``local_approval`` or
        ``indeterminate``.

    Notes
    -----
    Subd. 4(a) needs both conditions: less than the daily amount **and** no more than the
    annual amount. An unknown daily amount does not satisfy it.
    """
    p = "water_use.permit."
    rec.cite(f"{_LAW}, subd. 1(a)")
    commissioner = "the commissioner does not require a permit under § 103G.287, subd. 4(b)"
    if a.use == "domestic":
        if a.persons_served is None:
            rec.because(
                "The use is domestic but the number of persons served is not given, "
                "so the exemption of subd. 1(b)(1) cannot be applied."
            )
            rec.check("The number of persons the domestic water supply serves.")
        elif rec.passes(p + "domestic_persons", a.persons_served):
            rec.ref(p + "domestic_persons")
            rec.because(
                f"A water supply for domestic purposes used by "
                f"{fmt_number(a.persons_served)} persons, less than "
                f"{fmt_value(rec.value(p + 'domestic_persons'))}, is outside the "
                "section."
            )
            rec.check(f"That {commissioner}.")
            return WaterOutcome.NOT_REQUIRED, None
    if a.use == "hydropower":
        flags = (a.nonconsumptive, a.hydro_structure_existing)
        if a.source == "surface" and _all_true(*flags):
            rec.ref(p + "hydropower_structures_before")
            before = rec.value(p + "hydropower_structures_before")
            rec.because(
                "A nonconsumptive diversion of surface water for hydroelectric or "
                f"hydromechanical power at a structure in existence on and before "
                f"{fmt_value(before)} is outside the section."
            )
            rec.check("That the structure was in existence on and before that date.")
            return WaterOutcome.NOT_REQUIRED, None
        if _unknown(*flags):
            rec.check(
                "Whether the hydropower diversion is nonconsumptive and at a structure "
                "in existence on and before the subd. 1(b)(2) date."
            )
    if a.use == "stormwater":
        if a.stormwater_facility is True:
            rec.cite(f"{_LAW}, subd. 1(b)(3)")
            rec.because(
                "Stormwater collected and used, extracted from constructed stormwater "
                "management facilities, is outside the section."
            )
            rec.check(
                "That the water is extracted from constructed management facilities for stormwater."
            )
            return WaterOutcome.NOT_REQUIRED, None
        if a.stormwater_facility is None:
            rec.check(
                "Whether the stormwater is extracted from constructed stormwater "
                "management facilities (subd. 1(b)(3))."
            )
    day_key, year_key = p + "minimum_daily", p + "minimum_annual"
    if a.annual_gallons is None:
        rec.because(
            "The annual amount is not given: a permit is required unless an exemption is shown."
        )
        rec.check("The amount appropriated in the year.")
        return WaterOutcome.REQUIRED, None
    daily_limit, annual_limit = rec.value(day_key), rec.value(year_key)
    annual_ok = rec.passes(year_key, a.annual_gallons)
    daily_ok = None if a.gallons_per_day is None else rec.passes(day_key, a.gallons_per_day)
    rec.ref(day_key)
    if a.local_permit is True:
        rec.because(
            "A local permit under § 103B.211, subd. 4 is not covered by the "
            "minimum-use exemption of subd. 4(a)."
        )
    elif (
        annual_ok
        and daily_ok
        and a.gallons_per_day is not None  # daily_ok says it is given
        and a.commissioner_requires is not True
    ):
        rec.because(
            f"{_gal(a.gallons_per_day)} per day is less than "
            f"{_gal(daily_limit)} per day and {_gal(a.annual_gallons)} a year is "
            f"no more than {_gal(annual_limit)}: the minimum-use exemption of "
            "subd. 4(a) applies (both conditions)."
        )
        if a.commissioner_requires is None:
            rec.check(f"That {commissioner}.")
        if a.local_permit is None:
            rec.check("That no local permit under § 103B.211, subd. 4 is involved.")
        if a.permit_action == "existing":
            rec.because(
                "An existing permit stays in force until it is terminated, and the "
                "processing fee is due for each permit in force during the year "
                "(subd. 6(a))."
            )
        return WaterOutcome.NOT_REQUIRED, None
    elif annual_ok and daily_ok is None:
        rec.because(
            f"{_gal(a.annual_gallons)} a year is no more than "
            f"{_gal(annual_limit)}, but the gallons per day are not given: the "
            "minimum-use exemption of subd. 4(a) needs both conditions."
        )
        rec.check(
            f"The largest daily amount (the exemption needs less than {_gal(daily_limit)} per day)."
        )
    elif a.commissioner_requires is True and annual_ok and daily_ok:
        rec.because(
            "The amounts are within subd. 4(a), but the commissioner requires a "
            "permit under § 103G.287, subd. 4(b)."
        )
    else:
        over = []
        if not annual_ok:
            over.append(f"{_gal(a.annual_gallons)} a year is more than {_gal(annual_limit)}")
        if daily_ok is False and a.gallons_per_day is not None:  # False: it is given
            over.append(
                f"{_gal(a.gallons_per_day)} per day is not less than {_gal(daily_limit)} per day"
            )
        rec.because(
            " and ".join(over).capitalize() + ": the minimum-use exemption of "
            "subd. 4(a) does not apply and a water-use permit is required."
        )
    # subd. 4(b): local processing below the intermediate amount prescribed by rule
    inter_key = p + "intermediate_amount"
    intermediate = rec.value(inter_key)
    if intermediate is None:
        rec.check(
            "Whether the permit is processed at the municipal, county or regional "
            "level (subd. 4(b)): the intermediate amount is prescribed by rule and not "
            "held here; supply it as water_use.permit.intermediate_amount."
        )
    elif (not annual_ok or daily_ok is False) and rec.passes(inter_key, a.annual_gallons):
        rec.ref(inter_key)
        rec.because(
            f"More than the minimum amount but less than the intermediate amount of "
            f"{_gal(intermediate)}: the permit is processed and approved at the "
            "municipal, county or regional level (subd. 4(b))."
        )
        return WaterOutcome.LOCAL_APPROVAL, None
    return WaterOutcome.REQUIRED, None


permit_required = _water_rule(_permit_required)


# --------------------------------------------------------------------------- subd. 4a


def _mt_simon_hinckley(a: Appropriation, rec: _Rec) -> tuple[WaterOutcome, Any]:
    """Return the Mt. Simon-Hinckley restriction on a new permit (subd. 4a).

    The 2018 edition restricts it in a metropolitan county (§ 473.121, subd. 4) only and
    also ends once-through permits there (4a(b)); the 2025 edition restricts it everywhere.
    """
    key = "water_use.mt_simon_hinckley.metropolitan_county_only"
    metro_only = rec.value(key)
    rec.ref(key)
    if a.source != "groundwater":
        rec.because("A surface water source is not the Mt. Simon-Hinckley aquifer.")
        return WaterOutcome.NOT_APPLICABLE, None
    if a.mt_simon_hinckley is False:
        rec.because("The appropriation is not from the Mt. Simon-Hinckley aquifer.")
        return WaterOutcome.NOT_APPLICABLE, None
    in_metro = None
    county_unknown = False
    if metro_only:
        in_metro = _in_counties(rec, "water_use.metropolitan_county.counties", a.county)
        rec.ref("water_use.metropolitan_county.counties")
        if in_metro is False:
            rec.because(
                f"In this edition subd. 4a applies only in a metropolitan county "
                f"(§ 473.121, subd. 4); {a.county} County is not one."
            )
            return WaterOutcome.NOT_APPLICABLE, None
        if in_metro is None:
            county_unknown = True
            rec.check(
                "The county of the point of appropriation (subd. 4a applies in a "
                "metropolitan county in this edition)."
            )
    else:
        rec.because("In this edition subd. 4a applies everywhere in the state.")
    terminate_key = "water_use.mt_simon_hinckley.once_through_termination_in_force"
    if a.once_through and rec.value(terminate_key) and in_metro and a.mt_simon_hinckley:
        by = rec.value("water_use.mt_simon_hinckley.once_through_terminated_by")
        rec.ref("water_use.mt_simon_hinckley.once_through_terminated_by")
        rec.because(
            f"Permits for once-through systems from the Mt. Simon-Hinckley aquifer in "
            f"a metropolitan county were to be terminated by {fmt_value(by)} "
            "(subd. 4a(b))."
        )
        return WaterOutcome.TERMINATE, None
    if (
        a.once_through
        and rec.value(terminate_key)
        and in_metro is not False  # mt_simon_hinckley False returned above
        and not (in_metro and a.mt_simon_hinckley)
    ):
        # subd. 4a(b) reaches existing once-through permits too: an unknown aquifer or
        # county is a question for a person, not a "does not apply"
        rec.because(
            "A once-through system: permits drawing from the Mt. Simon-Hinckley "
            "aquifer in a metropolitan county were to be terminated (subd. 4a(b)); "
            "whether this one does is not known."
        )
        rec.check(
            "Whether the well draws from the Mt. Simon-Hinckley aquifer, in a "
            "metropolitan county (§ 473.121, subd. 4)."
        )
        return WaterOutcome.VERIFY, None
    if not a.is_new_or_modified:
        rec.because("Subd. 4a restricts new permits; this is an existing permit.")
        return WaterOutcome.NOT_APPLICABLE, None
    if a.permit_action == "modified":
        rec.check("Whether the modification is a new permit for the purposes of subd. 4a.")
    conditions = (a.potable, a.no_feasible_alternative, a.conservation_plan)
    if a.mt_simon_hinckley is None:
        rec.check(
            "Whether the well draws from the Mt. Simon-Hinckley aquifer (no aquifer "
            "layer or column answered it)."
        )
    if _any_false(*conditions):
        missing = [
            name
            for name, v in zip(
                (
                    "potable water use",
                    "no feasible or practical alternative",
                    "a water conservation plan incorporated with the permit",
                ),
                conditions,
                strict=True,
            )
            if v is False
        ]
        rec.because(
            "A new permit from the Mt. Simon-Hinckley aquifer needs potable use, no "
            "feasible or practical alternative and a conservation plan; not met: "
            + ", ".join(missing)
            + "."
        )
        if a.mt_simon_hinckley is None or county_unknown:
            return WaterOutcome.VERIFY, None
        return WaterOutcome.PROHIBITED, None
    if _unknown(*conditions):
        rec.because(
            "A new permit from the Mt. Simon-Hinckley aquifer may be issued only for "
            "potable use, with no feasible or practical alternative and a water "
            "conservation plan; not all of these are known."
        )
        rec.check("Potable use, no feasible or practical alternative, conservation plan.")
        return WaterOutcome.VERIFY, None
    rec.because(
        "Potable use, no feasible or practical alternative and a conservation plan "
        "are all stated: a new permit from the Mt. Simon-Hinckley aquifer may be "
        "issued."
    )
    rec.check("The DNR's finding that there is no feasible or practical alternative.")
    if a.mt_simon_hinckley is None or county_unknown:
        return WaterOutcome.VERIFY, None
    return WaterOutcome.ALLOWED, None


mt_simon_hinckley = _water_rule(_mt_simon_hinckley)


# --------------------------------------------------------------------------- subd. 4b


def _bulk_sale(a: Appropriation, rec: _Rec) -> tuple[WaterOutcome, Any]:
    """Return the bulk transport or sale restriction (subd. 4b, 2025 edition only)."""
    b = "water_use.bulk_sale."
    if _not_in_edition(rec, b, "subd. 4b (bulk transport or sale)"):
        return WaterOutcome.NOT_APPLICABLE, None
    rec.ref(b + "annual_gallons")
    if not a.is_new_or_modified:
        rec.because("Subd. 4b restricts new permits; this is an existing permit.")
        return WaterOutcome.NOT_APPLICABLE, None
    limit = rec.value(b + "annual_gallons")
    if a.annual_gallons is not None and not rec.passes(b + "annual_gallons", a.annual_gallons):
        rec.because(f"{_gal(a.annual_gallons)} a year is not in excess of {_gal(limit)}.")
        return WaterOutcome.NOT_APPLICABLE, None
    if a.bulk_sale is False:
        rec.because("The water is not for bulk transport or sale for consumptive use.")
        return WaterOutcome.NOT_APPLICABLE, None
    if a.bulk_sale is None:
        rec.because(
            f"Over {_gal(limit)} a year and it is not stated whether the water is for "
            "bulk transport or sale."
        )
        rec.check("Whether the water is for bulk transport or sale for consumptive use (subd. 4b).")
        return WaterOutcome.VERIFY, None
    miles = rec.value(b + "distance_miles")
    if a.destination_miles is None:
        rec.because(
            "Bulk transport or sale, but the destination is not given, so the "
            "distance cannot be measured."
        )
        rec.check("The destination of the water (a point), to measure the geodesic distance.")
        return WaterOutcome.VERIFY, None
    rec.amounts["destination_miles"] = float(a.destination_miles)
    if not rec.passes(b + "distance_miles", a.destination_miles):
        rec.because(
            f"The destination is {fmt_number(round(a.destination_miles, 1))} miles "
            f"from the point of appropriation (geodesic), not more than "
            f"{fmt_number(miles)} miles."
        )
        rec.check("That the water is used at the destination given.")
        return WaterOutcome.ALLOWED, None
    rec.because(
        f"Bulk transport or sale of {_gal(a.annual_gallons or 0)} a year to a location "
        f"{fmt_number(round(a.destination_miles, 1))} miles away (geodesic), more than "
        f"{fmt_number(miles)} miles: a new permit may not be issued unless the public "
        "water supply exception of subd. 4b(b) applies."
    )
    rec.ref(b + "public_supply_miles")
    holder = a.entity_type in _PUBLIC_SUPPLY_HOLDERS
    within = rec.passes(b + "public_supply_miles", a.destination_miles)
    conditions = (
        a.public_water_supply,
        a.solely_public_supply,
        a.property_interest,
        a.supply_requirements_met,
    )
    if a.public_water_supply is False or not holder:
        rec.because(
            "The permit is not for a public water supply issued to a local unit of "
            "government, rural water district or Tribal unit of government."
        )
        return WaterOutcome.PROHIBITED, None
    if not within:
        rec.because(
            f"The communities are more than "
            f"{fmt_value(rec.value(b + 'public_supply_miles'))} miles away: "
            "the exception of subd. 4b(b)(3) does not apply."
        )
        return WaterOutcome.PROHIBITED, None
    if _any_false(*conditions):
        rec.because("A condition of subd. 4b(b)(1), (2) or (4) is not met.")
        return WaterOutcome.PROHIBITED, None
    rec.check("Public water supply as defined in § 144.382, subd. 4 (not held here).")
    if _unknown(*conditions):
        rec.because("Within the exception's distance; not every condition of subd. 4b(b) is known.")
        rec.check(
            "Use solely for the public water supply; a property interest at the point "
            "of appropriation; §§ 103G.265, 103G.285 and 103G.287 met."
        )
        return WaterOutcome.VERIFY, None
    rec.because(
        "The public water supply exception of subd. 4b(b) applies: every condition "
        "is stated and the communities are within its distance."
    )
    return WaterOutcome.ALLOWED, None


bulk_sale = _water_rule(_bulk_sale)


# --------------------------------------------------------------------------- subd. 5


def _once_through(a: Appropriation, rec: _Rec) -> tuple[WaterOutcome, Any]:
    """Return the once-through system restrictions (subd. 5(a)-(c))."""
    o = "water_use.once_through."
    if a.once_through is None:
        rec.because("Not a once-through system.")
        rec.cite(f"{_LAW}, subd. 5")
        return WaterOutcome.NOT_APPLICABLE, None
    if a.once_through in _RETURNING_SYSTEMS and a.returns_all_water is not False:
        rec.cite(f"{_LAW}, subd. 5(c)")
        rec.because(
            "A groundwater thermal exchange device or aquifer storage and recovery "
            "system that returns all once-through water to the source aquifer may be "
            "permitted on an annual basis with the approval of the commissioners of "
            "health and the Pollution Control Agency; the fees of subd. 6(a) apply."
        )
        rec.check("The approval of the commissioners of health and the Pollution Control Agency.")
        if a.returns_all_water is None:
            rec.check("That all once-through water is returned to the source aquifer.")
            return WaterOutcome.VERIFY, None
        if a.health_pca_approval is False:
            return WaterOutcome.PROHIBITED, None
        return WaterOutcome.CONDITIONS, None
    if a.once_through == "cooling" and a.source == "groundwater" and a.is_new_or_modified:
        rec.cite(f"{_LAW}, subd. 5(a)")
        if a.increase_volume is True or a.permit_action == "new":
            rec.because(
                "A permit may not be issued to increase the volume of appropriation "
                "from a groundwater source for a once-through cooling system."
            )
            return WaterOutcome.PROHIBITED, None
        if a.increase_volume is None:
            rec.check("Whether the modification increases the volume from groundwater.")
    if a.annual_gallons is None:
        rec.check("The annual amount of the once-through system.")
        return WaterOutcome.VERIFY, None
    rec.ref(o + "termination_gallons")
    limit = rec.value(o + "termination_gallons")
    if rec.passes(o + "termination_gallons", a.annual_gallons):
        preserve = rec.value(o + "nature_preserve_before")
        if a.nature_preserve_discharge is True:
            rec.because(
                f"Over {_gal(limit)} a year, but the discharge is into a public water "
                f"basin within a nature preserve established before "
                f"{fmt_value(preserve)}."
            )
            rec.check("The nature preserve's approval and establishment date.")
            return WaterOutcome.ALLOWED, None
        rec.because(
            f"A once-through system using {_gal(a.annual_gallons)} a year, in excess "
            f"of {_gal(limit)}: the permit must be terminated."
        )
        if a.nature_preserve_discharge is None:
            rec.check(
                f"Whether the discharge is into a public water basin within a nature "
                f"preserve established before {fmt_value(preserve)}."
            )
        return WaterOutcome.TERMINATE, None
    before = rec.value(o + "existing_system_before")
    rec.ref(o + "existing_system_gallons")
    rec.because(
        "Existing once-through systems must not be expanded and must convert to "
        "water efficient alternatives within the design life of existing equipment."
    )
    if a.existing_system is True:
        rec.because(
            f"A system in existence before {fmt_value(before)} may be permitted for "
            f"up to {_gal(rec.value(o + 'existing_system_gallons'))} a year."
        )
        return WaterOutcome.CONDITIONS, None
    rec.because(
        f"Subd. 5(b) provides for a permit only for a system in existence before "
        f"{fmt_value(before)}."
    )
    rec.check(f"Whether the system was in existence before {fmt_value(before)}.")
    return WaterOutcome.VERIFY, None


once_through = _water_rule(_once_through)


# --------------------------------------------------------------------------- subd. 5a, 5b


def _surface_water_levels(a: Appropriation, rec: _Rec) -> tuple[WaterOutcome, Any]:
    """Return the surface water level maintenance restriction (subd. 5a)."""
    key = "water_use.surface_water_levels.annual_gallons"
    rec.ref(key)
    if a.use != "surface_water_level":
        rec.because("The primary purpose is not maintaining or increasing surface water levels.")
        return WaterOutcome.NOT_APPLICABLE, None
    if a.source != "groundwater":
        rec.because("Subd. 5a concerns groundwater; the source is surface water.")
        return WaterOutcome.NOT_APPLICABLE, None
    limit = rec.value(key)
    if a.annual_gallons is None:
        rec.check("The annual amount.")
        return WaterOutcome.VERIFY, None
    if not rec.passes(key, a.annual_gallons):
        rec.because(f"{_gal(a.annual_gallons)} a year is not in excess of {_gal(limit)}.")
        return WaterOutcome.NOT_APPLICABLE, None
    in_area = _in_counties(rec, "water_use.seven_county_area.counties", a.county)
    rec.ref("water_use.seven_county_area.counties")
    # subd. 5a speaks of the metropolitan *area*, not of a metropolitan county (4a, 2018):
    # whenever the answer turns on the area, say that the county list stands in for it
    if in_area is not False or a.area_of_concern is not True:
        rec.check(METROPOLITAN_AREA_CHECK)
    if in_area or a.area_of_concern is True:
        where = (
            "in the seven-county metropolitan area"
            if in_area
            else "in an area of concern determined by the commissioner"
        )
        rec.because(
            f"Groundwater in excess of {_gal(limit)} a year to maintain or increase "
            f"surface water levels {where}: existing permits are revoked and new "
            "permits may not be issued."
        )
        if a.nature_preserve_discharge is True:
            rec.because("The subd. 5(b) exception (discharge into a nature preserve) is stated.")
            rec.check("Whether the subd. 5(b) exception applies.")
            return WaterOutcome.VERIFY, None
        return WaterOutcome.PROHIBITED, None
    if in_area is None or a.area_of_concern is None:
        rec.because(
            f"Groundwater in excess of {_gal(limit)} a year to maintain surface water "
            "levels; whether the place is in the seven-county metropolitan area or an "
            "area of concern is not known."
        )
        rec.check("Whether the commissioner has determined the place an area of concern.")
        return WaterOutcome.VERIFY, None
    rec.because("Outside the seven-county metropolitan area and not in an area of concern.")
    return WaterOutcome.NOT_APPLICABLE, None


surface_water_levels = _water_rule(_surface_water_levels)


def _data_center(a: Appropriation, rec: _Rec) -> tuple[WaterOutcome, Any]:
    """Return the permit conditions for large data center appropriations (subd. 5b, 2025)."""
    d = "water_use.data_center."
    if _not_in_edition(rec, d, "subd. 5b (data centers)"):
        rec.cite(f"{_LAW}, subd. 5b")
        return WaterOutcome.NOT_APPLICABLE, None
    key = d + "annual_gallons"
    rec.ref(key)
    limit = rec.value(key)
    over = a.annual_gallons is None or rec.passes(key, a.annual_gallons)
    if not over:
        rec.because(f"{_gal(a.annual_gallons or 0)} a year does not exceed {_gal(limit)}.")
        return WaterOutcome.NOT_APPLICABLE, None
    applicant = a.data_center is True and a.is_new_or_modified
    supplier = a.supplies_data_center is True and a.permit_action == "existing"
    conditions = (
        "the department must ensure that public health, safety and welfare are protected; that "
        "water conservation, efficient use and watershed health measures are reasonably "
        "considered; and that water use conflicts are addressed as prescribed in Minn. R. "
        "6115.0740 (subd. 5b(a)(1)-(3)); the commissioner may require an aquifer test "
        "(subd. 5b(b))."
    )
    if applicant or supplier:
        who = (
            "A data center applicant"
            if applicant
            else "An existing permittee supplying a data center"
        )
        rec.because(f"{who} with more than {_gal(limit)} a year: {conditions}")
        rec.check("Data center as defined in § 216B.02, subd. 11 (not held here).")
        rec.check("That the amount compared is the new or additional consumptive use.")
        return WaterOutcome.CONDITIONS, None
    # the fact the paragraph turns on: for a new or modified permit whether the applicant is
    # a data center, for an existing permit whether it supplies one; unknown is never "no"
    relevant = (
        a.data_center
        if a.is_new_or_modified
        else a.supplies_data_center
        if a.permit_action == "existing"
        else None
    )
    if relevant is None:
        rec.because(
            f"More than {_gal(limit)} a year and it is not stated whether "
            + (
                "the applicant is a data center."
                if a.is_new_or_modified
                else "the permittee intends to provide the water to a data center."
                if a.permit_action == "existing"
                else "a data center is involved (the permit action is not known)."
            )
        )
        rec.check("Whether the applicant is, or supplies, a data center (§ 216B.02, subd. 11).")
        return WaterOutcome.VERIFY, None
    rec.because("No data center is involved.")
    return WaterOutcome.NOT_APPLICABLE, None


data_center = _water_rule(_data_center)


# --------------------------------------------------------------------------- subd. 6 fee


def _clause_fee(rec: _Rec, gallons: float, readings: FeeReadings) -> Fraction:
    """Return the subd. 6(a) fee on the total amount, recording the clause used."""
    key = "water_use.fee.schedule"
    rows = rec.value(key)
    rec.ref(key)
    volume = exact(rec.value("water_use.fee.rate_volume"))
    got = exact(gallons)

    def inside(row: Mapping[str, Any]) -> bool:
        ok = True
        if row.get("at_most") is not None:
            ok = ok and got <= exact(row["at_most"])
        if row.get("greater_than") is not None:
            ok = ok and got > exact(row["greater_than"])
        if row.get("less_than") is not None:
            ok = ok and got < exact(row["less_than"])
        return ok

    def fee_of(row: Mapping[str, Any]) -> Fraction:
        if row.get("usd") is not None:
            return exact(row["usd"])
        return exact(row["rate"]) * got / volume

    def words(row: Mapping[str, Any]) -> str:
        if row.get("usd") is not None:
            return f"{_usd(exact(row['usd']))} flat"
        return f"{_usd(exact(row['rate']))} per {_gal(volume)}"

    found = [r for r in rows if inside(r)]
    if found:
        row = found[0]
        fee = fee_of(row)
        rec.extra.update(clause=row["clause"], rate=row.get("rate"), flat_usd=row.get("usd"))
        rec.because(
            f"{_gal(gallons)} a year falls in clause {row['clause']} of subd. 6(a): "
            f"{words(row)}, applied to the total amount appropriated: {_usd(fee)}."
        )
        return fee
    below = [r for r in rows if r.get("less_than") is not None and exact(r["less_than"]) == got]
    above = [
        r for r in rows if r.get("greater_than") is not None and exact(r["greater_than"]) == got
    ]
    if not below or not above:
        raise RulesInputError(
            f"the subd. 6(a) schedule has a gap at {_gal(gallons)} that is "
            "not a boundary between two clauses; check water_use.yaml"
        )
    lower, upper = below[0], above[0]
    chosen, other = (upper, lower) if readings.boundary == "next_clause" else (lower, upper)
    fee, other_fee = fee_of(chosen), fee_of(other)
    rec.flag("fee_at_boundary")
    rec.extra.update(
        clause=chosen["clause"],
        rate=chosen.get("rate"),
        flat_usd=chosen.get("usd"),
        boundary_reading=readings.boundary,
        fee_other_reading=_money(other_fee),
    )
    rec.because(
        f'{_gal(gallons)} is exactly the boundary between clause {lower["clause"]} ("less '
        f'than {_gal(lower["less_than"])}") and clause {upper["clause"]} ("greater than '
        f'{_gal(upper["greater_than"])}") and is in neither. Under the reading '
        f"'{readings.boundary}' clause {chosen['clause']} applies ({words(chosen)}): "
        f"{_usd(fee)}; the other reading gives {_usd(other_fee)}."
    )
    rec.check(
        f"Which clause the DNR applies to exactly {_gal(gallons)} (a boundary in no "
        f"clause of subd. 6(a)): {_usd(fee)} or {_usd(other_fee)}."
    )
    return fee


def _fee(
    a: Appropriation, rec: _Rec, readings: FeeReadings, permitted: bool = True
) -> tuple[WaterOutcome, Any]:
    f = "water_use.fee."
    rec.cite(f"{_LAW}, subd. 6(a)")
    if not permitted:
        rec.because("No water-use permit is required, so no permit processing fee is due.")
        return WaterOutcome.NO_FEE, Fraction(0)
    if a.entity_type in _AGENCIES:
        rec.cite(f"{_LAW}, subd. 6(e)")
        rec.because(
            "A fee may not be imposed on an agency (§ 16B.01, subd. 2) or federal "
            "governmental agency holding a water appropriation permit."
        )
        rec.check(
            "That the permittee is an agency as defined in § 16B.01, subd. 2, or a "
            "federal governmental agency (definition not held here)."
        )
        return WaterOutcome.NO_FEE, Fraction(0)
    if a.use == "flood_control" and a.source == "surface":
        rec.cite(f"{_LAW}, subd. 6(d)(6)")
        rec.because(
            "No fee is required for appropriating surface water to prevent flood "
            "damage or remove floodwaters during a period of flooding."
        )
        rec.check("The commissioner's determination of the period of flooding.")
        return WaterOutcome.NO_FEE, Fraction(0)
    if a.use == "stormwater" or (
        a.use == "water_quality_treatment"
        and a.entity_type in _PUBLIC
        and a.returns_to_source is True
    ):
        rec.cite(f"{_LAW}, subd. 6(g)")
        rec.because(
            "The fee is waived for installations and projects that use stormwater "
            "runoff, or where public entities divert water to treat a water quality "
            "issue and return it to its source without other use."
        )
        rec.check(
            "That the commissioner has not determined that the use adversely affects "
            "surface water or groundwater."
        )
        return WaterOutcome.WAIVED, Fraction(0)
    if a.use == "water_quality_treatment" and a.returns_to_source is None:
        rec.check(
            "Whether the water is returned to its source without other use (the waiver "
            "of subd. 6(g))."
        )
    if a.annual_gallons is None:
        rec.because("The amount appropriated in the year is not given.")
        rec.check("The amount appropriated in the year.")
        return WaterOutcome.VERIFY, None
    if a.general_permit:
        key = "water_use.permit.general_permit_no_fee"
        if rec.passes(key, a.annual_gallons):
            rec.ref(key)
            rec.because(
                f"Under a state general permit no fee is required for uses totaling "
                f"less than {_gal(rec.value(key))} annually."
            )
            return WaterOutcome.NO_FEE, Fraction(0)
    volume = exact(rec.value(f + "rate_volume"))
    gallons = exact(a.annual_gallons)
    rec.amounts["annual_gallons"] = float(a.annual_gallons)
    if a.once_through == "cooling":
        key = f + (
            "once_through_nonprofit_rate"
            if a.entity_type in _NONPROFIT_RATE
            else "once_through_other_rate"
        )
        rate = exact(rec.value(key))
        rec.ref(key)
        fee = rate * gallons / volume
        rec.extra.update(clause="6(b)", rate=float(rate))
        rec.because(
            f"A once-through cooling system: {_usd(rate)} per {_gal(volume)}, "
            f"{_usd(fee)}; the caps of subd. 6(d) do not apply to it."
        )
    else:
        fee = _clause_fee(rec, a.annual_gallons, readings)
    # the minimum, (c), or the agricultural irrigation minimum, (f)
    idle = _irrigation_minimum_year(a, rec)
    if idle is None:
        minimum_key = f + "minimum"
        minimum = exact(rec.value(minimum_key))
        rec.ref(minimum_key)
        if fee < minimum:
            rec.because(f"{_usd(fee)} is less than the minimum fee of {_usd(minimum)}.")
            fee = minimum
    cap_key = _per_permit_cap_key(a)
    cap = None
    if cap_key:
        cap = exact(rec.value(f + "cap." + cap_key))
    if idle is not None:
        fee = _irrigation_minimum(rec, fee, idle, readings, cap)
    elif a.use == "agricultural_irrigation" and a.irrigation_suspended_days is None:
        _ask_suspension(a, rec, fee, readings, cap)
    # per-permit caps of (d)(3)-(5)
    if cap_key and cap is not None:
        key = f + "cap." + cap_key
        rec.ref(key)
        if fee > cap:
            rec.because(f"{_usd(fee)} is capped at {_usd(cap)} for this use.")
            fee = cap
            rec.flag("fee_capped")
        if cap_key == "agricultural_irrigation":
            rec.check(
                "The (d)(3) cap is applied per permit (reading 'per permit'); check "
                "whether the DNR applies it per entity."
            )
        elif cap_key == "cogeneration":
            rec.check(
                "The (d)(4) cap is for a municipality that furnishes electric "
                "service and cogenerates steam for home heating, for its permit "
                "for the cogeneration of electricity and steam: confirm both."
            )
        elif cap_key == "hydropower":
            rec.check(
                "The (d)(5) cap is for a facility that temporarily diverts a water "
                "of the state from its natural channel to produce hydroelectric or "
                "hydromechanical power: confirm the diversion."
            )
    return WaterOutcome.FEE, fee


def _per_permit_cap_key(a: Appropriation) -> str | None:
    """Return the name of the per-permit cap of subd. 6(d)(3)-(5) over ``a``, if any."""
    if a.once_through == "cooling":
        return None
    if a.use == "cogeneration" and a.entity_type in ("municipality", "city_first_class"):
        return "cogeneration"
    return {"agricultural_irrigation": "agricultural_irrigation", "hydropower": "hydropower"}.get(
        a.use
    )


def _irrigation_minimum_year(a: Appropriation, rec: _Rec) -> str | None:
    """Return the clause of subd. 6(f) that makes the year an (f) year, or None.

    ``"(1)"``: "there is no appropriation of water under the permit"; ``"(2)"``: "the permit
    is suspended for more than seven consecutive days between May 1 and October 1". Only a
    permit for irrigation of agricultural land has such a year.
    """
    if a.use != "agricultural_irrigation" or a.annual_gallons is None:
        return None
    if a.annual_gallons == 0:
        return "(1)"
    key = "water_use.fee.irrigation_suspension_days"
    if a.irrigation_suspended_days is not None and rec.passes(key, a.irrigation_suspended_days):
        return "(2)"
    return None


def _irrigation_fees(
    fee: Fraction, minimum: Fraction, flat: bool, cap: Fraction | None
) -> dict[str, Fraction]:
    """Return the fee of an (f) year under each reading of subd. 6(f), after a per-permit cap.

    ``fee`` is the clause fee of subd. 6(a) (``flat``: a flat clause, i.e. clause (1)) and
    ``minimum`` the (f) amount.
    """
    by_reading = {
        # (a) applies "except as described in paragraphs (b) to (g)": the (f) minimum stands
        # in place of the flat clause (1) fee and of the (c) minimum; a rate clause above
        # it still applies (a minimum is not a maximum)
        "paragraph_f": minimum if flat else max(fee, minimum),
        "floor": max(fee, minimum),
        "fee_is_minimum": minimum,
    }
    if cap is not None:
        by_reading = {k: min(v, cap) for k, v in by_reading.items()}
    return by_reading


def _alternative_reading(chosen: str) -> str:
    """Return the reading whose result is shown beside ``chosen``'s (floor beside the default)."""
    default = IRRIGATION_MINIMUM_READINGS[0]
    return "floor" if chosen == default else default


def _irrigation_minimum(
    rec: _Rec, fee: Fraction, clause: str, readings: FeeReadings, cap: Fraction | None
) -> Fraction:
    """Return the fee of a subd. 6(f) year under the chosen reading, naming the others.

    The per-permit cap of (d)(3) is applied by the caller; ``cap`` only makes the figures
    given for the other readings final.
    """
    key = "water_use.fee.irrigation_minimum"
    minimum = exact(rec.value(key))
    rec.ref(key)
    rec.cite(f"{_LAW}, subd. 6(f){clause}")
    flat = rec.extra.get("flat_usd") is not None
    fees = _irrigation_fees(fee, minimum, flat, cap)
    chosen = readings.irrigation_minimum
    other = _alternative_reading(chosen)
    rec.extra["irrigation_minimum_reading"] = chosen
    rec.extra["irrigation_minimum_clause"] = f"6(f){clause}"
    rec.extra["fee_by_irrigation_reading"] = {k: _money(v) for k, v in fees.items()}
    rec.extra["irrigation_alternative_reading"] = other
    rec.extra["fee_irrigation_alternative"] = _money(fees[other])
    year = (
        "A year with no appropriation of water under the permit"
        if clause == "(1)"
        else "A year in which the permit was suspended for more than "
        f"{fmt_value(rec.value('water_use.fee.irrigation_suspension_days'))} consecutive "
        "days between May 1 and October 1"
    )
    words = {
        "paragraph_f": (
            'subd. 6(a) applies "except as described in paragraphs (b) to (g)", so the '
            f"(f) minimum of {_usd(minimum)} is the fee in place of the flat clause (1) fee "
            "and of the minimum of (c); a rate clause above it still applies"
        ),
        "floor": (
            f"the (f) amount of {_usd(minimum)} is only a floor under the clause fee of "
            "subd. 6(a), which applies in full"
        ),
        "fee_is_minimum": f"the fee is the (f) minimum, {_usd(minimum)}, whatever the amount",
    }
    rec.because(
        f"{year}, under a permit for irrigation of agricultural land (subd. 6(f){clause}): "
        f"under the reading '{chosen}' {words[chosen]}: {_usd(fees[chosen])}."
    )
    if fees[other] != fees[chosen]:
        rec.flag("irrigation_reading_differs")
        rec.because(f"The reading '{other}' ({words[other]}) gives {_usd(fees[other])}.")
        rec.check(
            f"Which reading of subd. 6(f) the DNR applies in a subd. 6(f){clause} year: "
            f"{_usd(fees[chosen])} ('{chosen}') or {_usd(fees[other])} ('{other}')."
        )
    return fees[chosen]


def _ask_suspension(
    a: Appropriation, rec: _Rec, fee: Fraction, readings: FeeReadings, cap: Fraction | None
) -> None:
    """Ask for the suspension fact of subd. 6(f)(2) when it would change the fee."""
    minimum = exact(rec.value("water_use.fee.irrigation_minimum"))
    flat = rec.extra.get("flat_usd") is not None
    suspended = _irrigation_fees(fee, minimum, flat, cap)[readings.irrigation_minimum]
    if suspended == (fee if cap is None else min(fee, cap)):
        return
    days = fmt_value(rec.value("water_use.fee.irrigation_suspension_days"))
    rec.because(
        "Whether the permit was suspended in the year is not given, so subd. 6(f)(2) is not "
        "applied (the fee is not understated)."
    )
    rec.check(
        f"Whether the permit was suspended for more than {days} consecutive days between "
        f"May 1 and October 1 (subd. 6(f)(2)): then the fee under the reading "
        f"'{readings.irrigation_minimum}' would be {_usd(suspended)} "
        "(irrigation_suspended_days)."
    )


def processing_fee(
    a: Appropriation,
    *,
    as_of: str | dt.date | None = None,
    params: ParameterSet | None = None,
    readings: FeeReadings | None = None,
    permitted: bool = True,
) -> WaterDecision:
    """Return one permit's processing fee before the per-entity caps (subd. 6(a)-(g), 1(c)).

    Parameters
    ----------
    a : Appropriation
    as_of : str or date, optional
        The fee year's date (default today).
    params : ParameterSet, optional
    readings : FeeReadings, optional
        Named readings (boundary amounts, irrigation minimum).
    permitted : bool, default True
        False when no permit is required: no fee.

    Returns
    -------
    WaterDecision
        ``value`` is the fee in USD (cents). The clause's stated fee is applied to the
        **total** amount appropriated, not to the part above the clause's lower bound.
        An amount exactly at a boundary that no clause holds (100,000,000, 150,000,000,
        ... 500,000,000 gallons) is resolved by ``readings.boundary`` and flagged
        ``fee_at_boundary`` with the other reading's fee.
    """
    readings = readings or FeeReadings()
    return _run(
        lambda rec: _fee(a, rec, readings, permitted),
        RULE_IDS["fee"],
        a.permit_id,
        a.facts(),
        as_of,
        params,
    )


def _entity_cap(
    entity: str,
    entity_type: str,
    permits_held: int | None,
    fees: Mapping[str, Fraction],
    capped_uses: Mapping[str, bool],
    rec: _Rec,
    unnamed: bool = False,
) -> tuple[WaterOutcome, Any]:
    """Cap one entity's summed fees (subd. 6(d)(1), (2)); return the allowed total.

    ``unnamed``: the permit's holder is not given, and ``entity`` is its permit id. It is
    capped as its own entity, which never gives less than its share of a cap the holder's
    other permits would share (the share is the fee times cap / total, at most both), and a
    verify item names the missing fact.
    """
    total = sum(fees.values(), Fraction(0))
    rec.amounts["fees_before_cap"] = _money(total) or 0.0
    rec.extra["permits"] = sorted(fees)
    if unnamed:
        permit = next(iter(fees))
        rec.flag("entity_missing")
        rec.because(
            f"The entity holding permit {permit} is not given: the permit is capped as its "
            "own entity (its fee is never lower than its share of a cap it would share "
            "with the holder's other permits)."
        )
        rec.check(_NO_ENTITY_CHECK.format(permit=permit))
        entity = f"the holder of permit {permit}"
    counted = sum(1 for pid in fees if not capped_uses.get(pid))
    if entity_type == "city_first_class":
        key = "water_use.fee.cap.city_first_class"
        cap = exact(rec.value(key))
        rec.ref(key)
        rec.because(f"A city of the first class: its fees may not exceed {_usd(cap)} a year.")
        rec.check("That the entity is a city of the first class.")
    else:
        key = "water_use.fee.cap.entity_by_permits"
        rows = rec.value(key)
        rec.ref(key)
        held = permits_held
        if held is None:
            row = max(rows, key=lambda r: exact(r["usd"]))
            rec.because(
                f"The number of permits {entity} holds is not given: the highest cap, "
                f"clause {row['clause']}, is used, so the fee is not understated."
            )
            rec.check(f"The number of permits {entity} holds (hydropower permits do not count).")
        else:
            if held < counted:
                rec.because(
                    f"permits_held ({held}) is less than the {counted} permits of "
                    f"{entity} in the layer; {counted} is used."
                )
                held = counted
            row = next(
                r
                for r in rows
                if exact(r["at_least"]) <= held
                and (r.get("at_most") is None or held <= exact(r["at_most"]))
            )
            rec.because(
                f"{entity[:1].upper()}{entity[1:]} holds {held} permit(s): clause "
                f"{row['clause']} of subd. "
                f"6(d)(2) caps its fees at {_usd(exact(row['usd']))} a year."
            )
            rec.check("The permits held exclude hydropower facilities (subd. 6(d)(5)).")
        cap = exact(row["usd"])
        rec.extra["cap_clause"] = row["clause"]
    rec.amounts["cap"] = float(cap)
    if total > cap:
        rec.because(
            f"The entity's fees total {_usd(total)}, more than the cap: each permit's "
            f"fee is reduced in proportion (reading 'pro rata') so they sum to "
            f"{_usd(cap)}."
        )
        rec.flag("fee_capped")
        return WaterOutcome.FEE, cap
    rec.because(f"The entity's fees total {_usd(total)}, within the cap.")
    return WaterOutcome.FEE, total


def _monthly(a: Appropriation) -> tuple[float, ...]:
    """Return the 12 monthly volumes of a permit the caller has checked has them."""
    if a.monthly_gallons is None:  # pragma: no cover - the callers check first
        raise AssertionError(f"permit {a.permit_id!r}: no monthly volumes")
    return a.monthly_gallons


def _exact_or_none(value: Fraction | float | None) -> Fraction | None:
    """Return a fee-stage amount as an exact fraction (see :func:`exact`), None if unknown."""
    return None if value is None else exact(value)


def _surcharge(members: Sequence[Appropriation], rec: _Rec) -> tuple[WaterOutcome, Any]:
    """Return the summer surcharge of one permit or one common distribution system."""
    f = "water_use.fee."
    rec.ref(f + "surcharge_rate")
    months = list(rec.value(f + "surcharge_months"))
    reference = rec.value(f + "surcharge_reference_month")[0]
    rate = exact(rec.value(f + "surcharge_rate"))
    volume = exact(rec.value(f + "rate_volume"))
    if any(m.monthly_gallons is None for m in members):
        rec.because(
            "The 12 monthly volumes are not given, so the surcharge of subd. 6(h) "
            "cannot be computed."
        )
        rec.check("Monthly volumes January to December (gal_jan ... gal_dec).")
        return WaterOutcome.VERIFY, None
    totals = {
        m: sum((exact(_monthly(a)[MONTHS.index(m)]) for a in members), Fraction(0)) for m in MONTHS
    }
    base = totals[reference]
    excess = {m: max(totals[m] - base, Fraction(0)) for m in months}
    over = sum(excess.values(), Fraction(0))
    surcharge = rate * over / volume
    rec.amounts["excess_gallons"] = float(over)
    rec.extra["months"] = months
    detail = ", ".join(f"{m.capitalize()} {fmt_number(float(excess[m]))}" for m in months)
    whose = (
        f"the {len(members)} permits supplying the common distribution system"
        if len(members) > 1
        else "the permit"
    )
    rec.because(
        f"Volume of {whose} above {reference.capitalize()}'s "
        f"({fmt_number(float(base))} gallons) in each surcharge month: {detail} "
        f"gallons; {_usd(rate)} per {_gal(volume)} gives {_usd(surcharge)}."
    )
    if len(members) > 1:
        rec.because(
            "The system's surcharge is shared among its permits in proportion to "
            "their volume in the surcharge months (reading 'pro rata')."
        )
    return WaterOutcome.FEE, surcharge


# --------------------------------------------------------------------------- the screening


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
        index: dict[str, list[WaterDecision]] = defaultdict(list)
        for d in self.decisions:
            index[d.subject].append(d)
        object.__setattr__(self, "_index", dict(index))

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


_RESTRICTIONS = (
    ("mt_simon_hinckley", _mt_simon_hinckley),
    ("bulk_sale", _bulk_sale),
    ("once_through", _once_through),
    ("surface_water_levels", _surface_water_levels),
    ("data_center", _data_center),
)
#: The decisions a permit's headline outcome is taken from (not the fee decisions).
_HEADLINE_RULES = frozenset(RULE_IDS[k] for k in ("permit_required", *dict(_RESTRICTIONS)))


def _edition_screen(
    items: Sequence[Appropriation], params: ParameterSet, ed: Edition, readings: FeeReadings
) -> dict[tuple[str, str], _Result]:
    out: dict[tuple[str, str], _Result] = {}

    def run(
        rule: str,
        subject: str,
        core: Callable[[_Rec], tuple[WaterOutcome, Any]],
        inputs: Mapping[str, Any],
    ) -> _Result:
        rec = _Rec(RULE_IDS[rule], subject, params, ed)
        outcome, value = core(rec)
        res = _Result(rec, outcome, value, inputs)
        out[(subject, RULE_IDS[rule])] = res
        return res

    fees: dict[str, Fraction | None] = {}
    for a in items:
        facts = a.facts()
        permit = run("permit_required", a.permit_id, partial(_permit_required, a), facts)
        for rule, restriction in _RESTRICTIONS:
            run(rule, a.permit_id, partial(restriction, a), facts)
        # a permit in force pays its fee even in a year under the minimum-use amounts
        permitted = permit.outcome != WaterOutcome.NOT_REQUIRED or a.permit_action == "existing"
        fee = run(
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

    # per-entity caps, (d)(1)-(2): not once-through cooling, not (d)(3)-(5) capped uses
    # a permit without an entity is capped as its own entity (the subject is its permit id),
    # never left uncapped without a word: see _entity_cap and docs/water_use.md
    by_entity: dict[str, list[Appropriation]] = defaultdict(list)
    unnamed: set[str] = set()
    capped = [a for a in items if a.once_through != "cooling" and a.entity_type not in _AGENCIES]
    names = {a.entity.strip() for a in capped}
    for a in capped:
        entity = a.entity.strip()
        if not entity:
            # the subject is the permit id, unless an entity bears that name
            entity = a.permit_id if a.permit_id not in names else f"{a.permit_id} (no entity)"
            unnamed.add(entity)
        by_entity[entity].append(a)
    after_cap: dict[str, Fraction | None] = dict(fees)
    for entity, members in by_entity.items():
        member_fees = {m.permit_id: fees[m.permit_id] for m in members}
        if any(v is None for v in member_fees.values()):
            rec_inputs = {"entity": entity, "permits": sorted(member_fees)}
            run("cap", entity, partial(_cap_unknown, unnamed=entity in unnamed), rec_inputs)
            for pid in member_fees:
                after_cap[pid] = None
            continue
        held = next((m.permits_held for m in members if m.permits_held is not None), None)
        uses = {m.permit_id: m.use == "hydropower" for m in members}
        types = {m.entity_type for m in members}
        etype = "city_first_class" if "city_first_class" in types else members[0].entity_type
        known = {k: v for k, v in member_fees.items() if v is not None}
        res = run(
            "cap",
            entity,
            partial(_entity_cap, entity, etype, held, known, uses, unnamed=entity in unnamed),
            {
                "entity": "" if entity in unnamed else entity,
                "entity_type": etype,
                "permits_held": held,
                "permits": sorted(member_fees),
                "fees": {k: _money(v) for k, v in known.items()},
            },
        )
        total = sum(known.values(), Fraction(0))
        cap = _exact_or_none(res.value)
        if cap is None:  # pragma: no cover - _entity_cap always returns an amount
            raise AssertionError(f"entity {entity!r}: the cap rule returned no amount")
        for pid, v in known.items():
            after_cap[pid] = v if total == 0 or cap >= total else v * cap / total

    # summer surcharge, (h): municipal permits sharing a system are summed
    surcharge_uses = set(params.value("water_use.fee.surcharge_uses", ed.applies_from))
    groups: dict[str, list[Appropriation]] = defaultdict(list)
    no_fee = {
        pid
        for (pid, rule), res in out.items()
        if rule == RULE_IDS["fee"] and res.outcome in (WaterOutcome.NO_FEE, WaterOutcome.WAIVED)
    }
    for a in items:
        if a.use in surcharge_uses and a.permit_id not in no_fee:
            system = (
                a.distribution_system
                if a.use == "municipal" and a.distribution_system
                else f"permit:{a.permit_id}"
            )
            groups[system].append(a)
    surcharges: dict[str, Fraction | None] = {}
    for system, members in groups.items():
        subject = system if len(members) > 1 else members[0].permit_id
        res = run(
            "surcharge",
            subject,
            partial(_surcharge, members),
            {"distribution_system": system, "permits": [m.permit_id for m in members]},
        )
        surcharge = _exact_or_none(res.value)
        if surcharge is None:
            for m in members:
                surcharges[m.permit_id] = None
            continue
        months = [MONTHS.index(x) for x in res.rec.extra["months"]]
        weights = {
            m.permit_id: sum((exact(_monthly(m)[i]) for i in months), Fraction(0)) for m in members
        }
        whole = sum(weights.values(), Fraction(0))
        for m in members:
            share = Fraction(1, len(members)) if whole == 0 else weights[m.permit_id] / whole
            surcharges[m.permit_id] = surcharge * share
        if len(members) > 1:
            for m in members:
                run(
                    "surcharge",
                    m.permit_id,
                    partial(_share, system=system, value=surcharges[m.permit_id]),
                    {"distribution_system": system},
                )

    for a in items:
        base, sur = after_cap.get(a.permit_id), surcharges.get(a.permit_id, Fraction(0))
        run(
            "total",
            a.permit_id,
            partial(_total, base=base, surcharge=sur),
            {"fee_after_cap": _money(base), "surcharge": _money(sur)},
        )
    return out


def _cap_unknown(rec: _Rec, unnamed: bool = False) -> tuple[WaterOutcome, Any]:
    rec.cite(f"{_LAW}, subd. 6(d)")
    rec.because("A fee of this entity is not known, so the entity cap cannot be applied.")
    if unnamed:
        rec.check(_NO_ENTITY_CHECK.format(permit=rec.subject.removesuffix(" (no entity)")))
    return WaterOutcome.VERIFY, None


#: The verify item of a permit whose holder is not given (subd. 6(d)(1)-(2)).
_NO_ENTITY_CHECK = (
    "The entity holding permit {permit} (column entity): it is capped as its own entity "
    "under subd. 6(d); if the entity holds other permits their fees share one cap, and "
    "whether it is a city of the first class, (d)(1), depends on who it is."
)


def _share(rec: _Rec, system: str, value: Fraction | None) -> tuple[WaterOutcome, Any]:
    rec.cite(f"{_LAW}, subd. 6(h)")
    rec.because(f"This permit's share of the surcharge of distribution system {system}.")
    return WaterOutcome.FEE, value


def _total(
    rec: _Rec, base: Fraction | None, surcharge: Fraction | None
) -> tuple[WaterOutcome, Any]:
    rec.cite(f"{_LAW}, subd. 6")
    # in extra, not amounts: an unknown part is None (the decision's amounts merge both)
    rec.extra["fee_after_cap"] = _money(base)
    rec.extra["surcharge"] = _money(surcharge)
    if base is None or surcharge is None:
        rec.because("A part of the fee is not known (see the fee, cap and surcharge decisions).")
        return WaterOutcome.VERIFY, None
    rec.because(
        f"Fee after the entity cap {_usd(base)} plus summer surcharge "
        f"{_usd(surcharge)} (reading 'surcharge after caps': the caps of subd. 6(d) "
        "limit the processing fee; the subd. 6(h) surcharge is added after them)."
    )
    return WaterOutcome.FEE, base + surcharge


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
    summary = []
    index: dict[str, list[WaterDecision]] = defaultdict(list)
    for d in decisions:
        index[d.subject].append(d)
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
    return ScreeningResult(tuple(decisions), tuple(summary), day.isoformat())


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


# --------------------------------------------------------------------------- 6a and 6(e)


def _year_end(year: int) -> dt.date:
    december = len(MONTHS)
    return dt.date(year, december, calendar.monthrange(year, december)[1])


def past_unpermitted_fees(
    a: Appropriation,
    notified_year: int,
    *,
    first_unpermitted_year: int | None = None,
    params: ParameterSet | None = None,
    readings: FeeReadings | None = None,
) -> WaterDecision:
    """Return the schedule of fees for past unpermitted appropriation (subd. 6a).

    Parameters
    ----------
    a : Appropriation
        Its ``annual_gallons`` is taken as each past year's amount (say otherwise by
        screening each year).
    notified_year : int
        The year the entity was notified of the need for a permit.
    first_unpermitted_year : int, optional
        The first year of unpermitted appropriation (default: the whole look-back).

    Returns
    -------
    WaterDecision
        ``schedule`` holds one row per year (year, edition, outcome, fee); ``value`` is the
        total when every year's fee is known, else ``None`` (outcome ``indeterminate``).

    Notes
    -----
    Reading: "the previous seven calendar years after being notified" are the calendar
    years before the year of notification. Each year's fee uses the edition of that year:
    years between the editions whose fee differs are indeterminate, and years before the
    first edition have no known fee.
    """
    params = params if params is not None else water_use_parameters()
    readings = readings or FeeReadings()
    day = _year_end(notified_year)
    ed = editions_for(day, params)[-1]
    rec = _Rec(RULE_IDS["past_years"], a.permit_id, params, ed)
    key = "water_use.fee.past_unpermitted_years"
    years = int(rec.value(key))
    rec.ref(key)
    rows = []
    total: Fraction | None = Fraction(0)
    for back in range(years, 0, -1):
        year = notified_year - back
        if first_unpermitted_year is not None and year < first_unpermitted_year:
            continue
        end = _year_end(year)
        try:
            d = processing_fee(a, as_of=end, params=params, readings=readings)
        except ParameterNotInForce:
            rows.append(
                {
                    "year": year,
                    "edition": "",
                    "outcome": "not_assessed",
                    "fee_usd": None,
                    "note": "no edition of § 103G.271 is held for this year",
                }
            )
            total = None
            continue
        rows.append(
            {
                "year": year,
                "edition": d.edition,
                "outcome": d.outcome.value,
                "fee_usd": d.value,
                "note": "; ".join(d.flags),
            }
        )
        if d.value is None:
            total = None
        elif total is not None:
            total += exact(d.value)
    rec.rows = rows
    rec.because(
        f"Fees for unpermitted appropriation are due for the {years} calendar years "
        f"before {notified_year}, the year of notification (reading 'calendar years "
        "before the notification year'), each at the fee of that year, in addition to "
        "any other fee or penalty."
    )
    if a.use == "hydropower" or a.once_through:
        rec.check(
            "The commissioner may waive these fees for a residential system permitted "
            "under subd. 5(b) or a hydroelectric or hydromechanical facility."
        )
    if total is None:
        rec.because("A year's fee is not known (see the schedule): no total is given.")
        rec.check("The fee of each year marked indeterminate or not assessed.")
        return _single(
            _Result(rec, WaterOutcome.INDETERMINATE, None, a.facts()), as_of=day.isoformat()
        )
    return _single(_Result(rec, WaterOutcome.SCHEDULE, total, a.facts()), as_of=day.isoformat())


def late_payment_penalty(
    unpaid_usd: float,
    due_date: str | dt.date,
    second_notice_date: str | dt.date,
    on: str | dt.date,
    *,
    subject: str = "",
    params: ParameterSet | None = None,
) -> WaterDecision:
    """Return the late-payment penalty schedule of subd. 6(e).

    Parameters
    ----------
    unpaid_usd : float
        The unpaid balance of fees.
    due_date, second_notice_date, on : str or date
        The original due date, the date the second notice was sent, and the date the
        penalty is computed for.

    Returns
    -------
    WaterDecision
        ``value`` is the penalty owed on ``on``; ``schedule`` one row per month.

    Notes
    -----
    Reading 'simple': ten percent (the parameter) of the unpaid balance for each whole month
    elapsed from the original due date, not compounded, imposed only once the balance
    remains unpaid the grace days after the second notice.
    """
    params = params if params is not None else water_use_parameters()
    due, notice, day = as_date(due_date), as_date(second_notice_date), as_date(on)
    _check_amount(unpaid_usd, "unpaid_usd", subject)
    ed = editions_for(day, params)[-1]
    rec = _Rec(RULE_IDS["penalty"], subject, params, ed)
    pct_key = "water_use.fee.penalty_percent_per_month"
    grace_key = "water_use.fee.penalty_grace_days"
    pct = exact(rec.value(pct_key)) / PERCENT
    grace = int(rec.value(grace_key))
    rec.ref(pct_key)
    inputs = {
        "unpaid_usd": unpaid_usd,
        "due_date": due.isoformat(),
        "second_notice_date": notice.isoformat(),
        "on": day.isoformat(),
    }
    start = notice + dt.timedelta(days=grace)
    if day <= start:
        rec.because(
            f"The balance has not remained unpaid {grace} days after the second notice "
            f"({start.isoformat()}): no penalty yet."
        )
        return _single(
            _Result(rec, WaterOutcome.NO_FEE, Fraction(0), inputs), as_of=day.isoformat()
        )
    months = (day.year - due.year) * len(MONTHS) + day.month - due.month
    if day.day < due.day:
        months -= 1
    balance = exact(unpaid_usd)
    rows = []
    for k in range(1, months + 1):
        rows.append({"month": k, "penalty_usd": _money(balance * pct * k)})
    penalty = balance * pct * max(months, 0)
    rec.rows = rows
    rec.because(
        f"Unpaid {_usd(balance)} remains past {start.isoformat()}: "
        f"{fmt_number(float(pct * PERCENT))} percent a month from the original due date "
        f"{due.isoformat()}, {months} whole month(s) to {day.isoformat()}, "
        f"{_usd(penalty)} (reading 'simple', not compounded)."
    )
    rec.check("Whether the DNR compounds the penalty or counts part months.")
    rec.check("Failure to pay is sufficient cause for revoking the permit (subd. 6(e)).")
    return _single(_Result(rec, WaterOutcome.FEE, penalty, inputs), as_of=day.isoformat())
