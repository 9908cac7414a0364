"""The water-use rule framework: the rules' view of the spec, the decision, and running a rule.

Every rule of § 103G.271 is written once, in the one rule spec
(:mod:`wetland_gis.rules.spec`, ``domain="water_use"``: id, label, citations, outcomes);
:data:`WATER_RULES` is the key -> rule view of it and :data:`RULE_IDS` the key -> id view.
A rule's core takes the appropriation and a recorder (``_Rec``) of one edition and returns
an outcome and a value; :func:`_run` runs it under each edition in force on the
application date and :func:`_merge` turns the answers into one :class:`WaterDecision`:
the answer itself under one edition, the agreed answer between two editions, or
``indeterminate`` when they differ (docs/water_use.md, "Editions").

Examples
--------
>>> WATER_RULES["fee"].id == 'water_use.fee'
True
>>> WATER_RULES["surcharge"].citations
('Minn. Stat. § 103G.271, subd. 6(h)',)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Protocol

from wetland_gis.decision import freeze, plain
from wetland_gis.parameters import ParameterSet, as_date
from wetland_gis.rules.facts import Trace, fmt_number
from wetland_gis.rules.spec import Rule, rules_of
from wetland_gis.water_use.amounts import _money
from wetland_gis.water_use.editions import (
    STATUTE,
    Edition,
    editions,
    editions_for,
    water_use_parameters,
)
from wetland_gis.water_use.facts import Appropriation

# --------------------------------------------------------------------------- the registry


#: One water-use rule of the rule spec (:class:`wetland_gis.rules.spec.Rule`, ``domain``
#: ``"water_use"``): its id, label, citations, outcomes. The name is kept for its readers.
WaterRuleSpec = Rule

#: Every water-use rule, by key (the last part of its id: ``water_use.fee.cap`` ->
#: ``cap``): a view of the rule spec, ``wetland_gis/rules/spec.py``, where each is written.
WATER_RULES: Mapping[str, WaterRuleSpec] = MappingProxyType(
    {rule.id.rsplit(".", 1)[-1]: rule for rule in rules_of(domain="water_use")}
)

#: The rule id of each key of :data:`WATER_RULES` (``fee`` -> ``water_use.fee``).
RULE_IDS: dict[str, str] = {key: spec.id for key, spec in WATER_RULES.items()}


def rule_table() -> str:
    """Return the Markdown table of the water-use rules (docs/water_use.md), from the spec.

    Each row: the rule id, the subdivisions it cites (and the spec's note), its outcomes.
    """
    prefix = f"{STATUTE}, subd. "
    lines = ["| rule id | statute | outcomes |", "| --- | --- | --- |"]
    for rule in WATER_RULES.values():
        statute = "subd. " + ", ".join(c.removeprefix(prefix) for c in rule.citations)
        note = f" {rule.note}" if rule.note else ""
        outcomes = ", ".join(f"`{WaterOutcome(o).value}`" for o in rule.outcomes)
        lines.append(f"| `{rule.id}` | {statute}{note} | {outcomes} |")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- decisions


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


#: The generated tables of the water-use docs: (document, marker name, renderer), written
#: by ``tools/spec_docs.py --write`` beside the tables of the wetland rules.
DOC_TABLES: tuple[tuple[str, str, Callable[[], str]], ...] = (
    ("docs/water_use.md", "water-use-rule-table", rule_table),
)


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
            "inputs": plain(dict(self.inputs)),
            "parameters": plain(dict(self.parameters)),
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
            "amounts": plain(dict(self.amounts)),
            "flags": list(self.flags),
            "schedule": [plain(dict(r)) for r in self.schedule],
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


# --------------------------------------------------------------------------- recording


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


#: The core of a rule on one edition: its recorder -> outcome, value.
_Core = Callable[[_Rec], tuple[WaterOutcome, Any]]


def _evaluate(
    core: _Core,
    rule_id: str,
    subject: str,
    inputs: Mapping[str, Any],
    params: ParameterSet,
    ed: Edition,
) -> _Result:
    """Return the answer of ``core`` on ``subject`` under edition ``ed``."""
    rec = _Rec(rule_id, subject, params, ed)
    outcome, value = core(rec)
    return _Result(rec, outcome, value, inputs)


class _EditionRun:
    """Every answer of one screening under one edition, by (subject, rule id), in order.

    The rules that sum several permits (entity caps, surcharges) run after the rules of
    each permit; each answer is kept under its subject and rule id for the merge.
    """

    def __init__(self, params: ParameterSet, ed: Edition) -> None:
        self.params = params
        self.edition = ed
        self.results: dict[tuple[str, str], _Result] = {}

    def run(self, rule: str, subject: str, core: _Core, inputs: Mapping[str, Any]) -> _Result:
        """Return the answer of rule ``rule`` (a :data:`RULE_IDS` key) on ``subject``."""
        rule_id = RULE_IDS[rule]
        result = _evaluate(core, rule_id, subject, inputs, self.params, self.edition)
        self.results[(subject, rule_id)] = result
        return result


def _single(result: _Result, as_of: str = "") -> WaterDecision:
    """Return the decision of one edition's answer."""
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


# --------------------------------------------------------------------------- between editions


def _merge(results: Sequence[_Result], day: dt.date) -> WaterDecision:
    """Merge one rule's answers under each edition into one decision."""
    if len(results) == 1:
        return _single(results[0], as_of=day.isoformat())
    answers = _BothEditions(
        day, tuple(r.rec.edition for r in results), tuple(map(_single, results))
    )
    older, newer = answers.decisions[0], answers.decisions[-1]
    if older.outcome == newer.outcome and older.value == newer.value:
        return _agreed(answers)
    return _indeterminate(answers)


@dataclass(frozen=True)
class _BothEditions:
    """One rule's decisions under the two editions an application date lies between."""

    day: dt.date
    editions: tuple[Edition, ...]
    decisions: tuple[WaterDecision, ...]

    def parameters(self) -> tuple[dict[str, Any], list[str]]:
        """Return each parameter's value (by edition where they differ), and the differing keys."""
        older, newer = self.decisions[0], self.decisions[-1]
        params: dict[str, Any] = {}
        differing = []
        for key in dict.fromkeys([*older.parameters, *newer.parameters]):
            values = {s.edition: s.parameters.get(key) for s in self.decisions}
            if len({repr(v) for v in values.values()}) == 1:
                params[key] = next(iter(values.values()))
            else:
                params[key] = values
                differing.append(key)
        return params, differing

    def between(self) -> str:
        """Return the reason saying that the date lies between the editions."""
        first, last = self.editions[0], self.editions[-1]
        return (
            f"The application date {self.day.isoformat()} lies between the {first.title} "
            f"edition (applied through {first.applies_through}) and the {last.title} edition "
            f"(applied from {last.applies_from}); the date each change took effect is not in "
            "the text held here."
        )

    def differences(self, params: Mapping[str, Any], differing: Sequence[str]) -> str:
        """Return the values that differ between the editions, as text."""
        first, last = self.editions[0].edition, self.editions[-1].edition
        return "; ".join(
            f"{k}: {fmt_value(params[k][first])} ({first}) and "
            f"{fmt_value(params[k][last])} ({last})"
            for k in differing
        )

    def common(self) -> dict[str, Any]:
        """Return the fields both merged decisions share: date, editions, amounts, citations."""
        older, newer = self.decisions[0], self.decisions[-1]
        amounts = {f"{k}_{s.edition}": v for s in self.decisions for k, v in s.amounts.items()}
        amounts.update({f"value_{s.edition}": s.value for s in self.decisions})
        amounts.update({f"outcome_{s.edition}": s.outcome.value for s in self.decisions})
        return {
            "as_of": self.day.isoformat(),
            "edition": "+".join(e.edition for e in self.editions),
            "amounts": amounts,
            "citations": tuple(dict.fromkeys([*older.citations, *newer.citations])),
        }

    def verify(self) -> list[str]:
        """Return the verify items of both answers, once each."""
        return list(dict.fromkeys([*self.decisions[0].verify, *self.decisions[-1].verify]))

    def flags(self) -> list[str]:
        """Return the flags of both answers, once each."""
        return list(dict.fromkeys([*self.decisions[0].flags, *self.decisions[-1].flags]))


def _agreed(answers: _BothEditions) -> WaterDecision:
    """Return the answer both editions give, saying so and naming what differs."""
    newer, last = answers.decisions[-1], answers.editions[-1]
    params, differing = answers.parameters()
    reasons = [
        answers.between() + " The answer is the same under both editions.",
        f"Under the {last.title} edition: " + " ".join(newer.reasons),
    ]
    if differing:
        reasons.append(
            "Values that differ between the editions did not change it: "
            f"{answers.differences(params, differing)}."
        )
    verify = answers.verify()
    verify.insert(
        0,
        f"The text in force on {answers.day.isoformat()} is not held (only the two "
        "editions are): check that no amendment between them changed this answer.",
    )
    return replace(
        newer,
        **answers.common(),
        parameters=params,
        verify=tuple(verify),
        flags=tuple(answers.flags()),
        reasons=tuple(reasons),
    )


def _indeterminate(answers: _BothEditions) -> WaterDecision:
    """Return ``indeterminate``: the editions differ, both answers are named, neither used."""
    older, newer = answers.decisions[0], answers.decisions[-1]
    params, differing = answers.parameters()
    diff_text = answers.differences(params, differing)
    reasons = [
        answers.between(),
        *(
            f"Under the {e.title} edition: {s.outcome.value}"
            + ("" if s.value is None else f" ({fmt_value(s.value)})")
            + ". "
            + " ".join(s.reasons)
            for e, s in zip(answers.editions, answers.decisions, strict=True)
        ),
        "wetland_gis uses neither answer"
        + (f"; the values that differ are {diff_text}." if differing else "."),
    ]
    verify = answers.verify()
    verify.insert(
        0,
        "Check when the change between the editions took effect"
        + (f" ({', '.join(differing)})" if differing else "")
        + f" and which answer applies on {answers.day.isoformat()}.",
    )
    return WaterDecision(
        rule_id=newer.rule_id,
        subject=newer.subject,
        outcome=WaterOutcome.INDETERMINATE,
        value=None,
        reasons=tuple(reasons),
        verify=tuple(verify),
        inputs=newer.inputs
        if dict(older.inputs) == dict(newer.inputs)
        else {s.edition: dict(s.inputs) for s in answers.decisions},
        parameters=params,
        flags=tuple([*answers.flags(), "edition_change"]),
        schedule=newer.schedule if older.schedule == newer.schedule else (),
        **answers.common(),
    )


# --------------------------------------------------------------------------- running a rule


def _run(
    core: _Core,
    rule_id: str,
    subject: str,
    inputs: Mapping[str, Any],
    as_of: str | dt.date | None,
    params: ParameterSet | None,
) -> WaterDecision:
    """Return the decision of ``core`` under every edition in force on ``as_of``."""
    params = params if params is not None else water_use_parameters()
    day = as_date(as_of)
    results = [
        _evaluate(core, rule_id, subject, inputs, params, ed) for ed in editions_for(day, params)
    ]
    return _merge(results, day)


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
    :data:`WATER_RULES` key), has ``core``'s docstring and the signature of
    :class:`WaterRule`.
    """
    name = core.__name__.removeprefix("_")
    rule_id = WATER_RULES[name].id

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
