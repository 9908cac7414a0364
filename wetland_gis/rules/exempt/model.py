"""The kernel of the exemption rules: conditions, results, registry entries, one recorder.

Every exemption rule of :mod:`wetland_gis.rules.exempt` is one function
``rule(facts, params=None, day=None) -> ExemptionResult``. It states each condition of its
clause as a :class:`Condition` that is met, failed or unknown (a fact it reads is
``None``), and :class:`RuleRun` turns the conditions into the outcome:

* a failed condition: :attr:`~wetland_gis.enums.Outcome.NOT_EXEMPT`, naming each failed
  condition;
* else an unknown condition: :attr:`~wetland_gis.enums.Outcome.CONDITIONAL`, naming each
  unknown fact in a verify item;
* else :attr:`~wetland_gis.enums.Outcome.EXEMPT`.

So an unknown fact never yields a plain "exempt". This module imports only the standard
library and the package's parameter, enum, error and rule-fact modules (no geometry, no
pandas). Figures are compared as :class:`decimal.Decimal`, the one exact-number type of the
rules core (``rules.facts.exact``, docs/decisions.md).
"""

from __future__ import annotations

import datetime as dt
import numbers
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import Enum
from typing import Any, Generic, TypeVar, overload

from wetland_gis.decision import Decision, freeze, plain
from wetland_gis.enums import Outcome
from wetland_gis.errors import RulesInputError
from wetland_gis.parameters import LIMIT_TESTS, ParameterSet, as_date, default_parameters
from wetland_gis.rules import spec as _spec
from wetland_gis.rules.numbers import exact
from wetland_gis.units import SQFT_PER_ACRE as _SQFT_PER_ACRE

#: The date a rule is applied as of: an ISO date string, a date, or ``None`` (today).
Day = str | dt.date | None

#: The section of the exemptions.
STATUTE = _spec.cite("103G.2241")

#: Percent conversion: a share in percent is divided by this.
PERCENT = 100

#: Square feet in one acre (a unit conversion, not a legal number).
SQFT_PER_ACRE = Decimal(int(_SQFT_PER_ACRE))

#: The parameter key of the ten-year use restriction (Minn. R. 8420.0420, subp. 1 D).
USE_RESTRICTION_KEY = _spec.USE_RESTRICTION_KEY

#: The three conditions of subd. 11(a), a verify item on every exemption answer.
CONDITIONS_11A = (
    "Subd. 11(a)(1): appropriate erosion control measures are taken to prevent "
    "sedimentation of the water.",
    "Subd. 11(a)(2): the activity does not block fish passage in a watercourse.",
    "Subd. 11(a)(3): the activity is conducted in compliance with all other applicable "
    "federal, state and local requirements, including best management practices and the "
    "water resource protection requirements of chapter 103H.",
)


def subd(paragraph: str) -> str:
    """Return the citation of a paragraph of § 103G.2241, e.g. ``subd("1(2)")``.

    Examples
    --------
    >>> subd("6(a)(1)")
    'Minn. Stat. § 103G.2241, subd. 6(a)(1)'
    """
    return _spec.cite("103G.2241", paragraph)


class ConditionStatus(str, Enum):
    """Whether one condition of a rule holds on the facts given."""

    MET = "met"
    FAILED = "failed"
    UNKNOWN = "unknown"


def all_of(*values: bool | None) -> bool | None:
    """Return the three-valued "and": False if any is False, else None if any is None.

    Examples
    --------
    >>> all_of(True, None), all_of(None, False), all_of(True, True)
    (None, False, True)
    """
    if any(v is False for v in values):
        return False
    if any(v is None for v in values):
        return None
    return True


def any_of(*values: bool | None) -> bool | None:
    """Return the three-valued "or": True if any is True, else None if any is None.

    Examples
    --------
    >>> any_of(False, None), any_of(None, True), any_of(False, False)
    (None, True, False)
    """
    if any(v is True for v in values):
        return True
    if any(v is None for v in values):
        return None
    return False


def negate(value: bool | None) -> bool | None:
    """Return the three-valued "not" (``None`` stays unknown)."""
    return None if value is None else not value


@dataclass(frozen=True)
class Condition:
    """One condition of a rule, and whether it holds.

    Parameters
    ----------
    facts : tuple of str
        The :class:`~wetland_gis.rules.exempt.facts.ExemptionFacts` fields it reads.
    text : str
        The condition in the words of the law, one sentence.
    status : ConditionStatus
        Met, failed, or unknown (a fact it reads is not given).
    citation : str
        The paragraph stating it.
    defining : bool
        The condition says what the clause's activity or land is (a duck blind, land
        assessed drainage benefits): while it is unknown the clause is not tried
        (``NOT_APPLIED``), so an unrelated exemption is not offered as "conditional".
    """

    facts: tuple[str, ...]
    text: str
    status: ConditionStatus
    citation: str
    defining: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Return the condition as a JSON-ready dictionary."""
        return {
            "facts": list(self.facts),
            "text": self.text,
            "status": self.status.value,
            "citation": self.citation,
            "defining": self.defining,
        }


@dataclass(frozen=True)
class Flag:
    """One yes/no condition of a clause: fact ``name`` is ``want`` (unknown when ``None``).

    The conditions of a clause that are each one flag of
    :class:`~wetland_gis.rules.exempt.facts.ExemptionFacts` are written as a tuple of these
    and recorded by :meth:`RuleRun.flags` (or :func:`decide_flags`, for a clause that is
    nothing else).

    Parameters
    ----------
    name : str
        The fact read.
    text : str
        The condition in the words of the law, one sentence.
    want : bool, default True
        The value that meets the condition.
    defining : bool, default False
        The condition says what the clause's activity or land is (:class:`Condition`).
    clause : str or None
        The key of the rule's sub-citation the condition cites (the spec's ``clauses``);
        ``None``: the rule's first citation.
    """

    name: str
    text: str
    want: bool = True
    defining: bool = False
    clause: str | None = None


@dataclass(frozen=True, kw_only=True)
class ExemptionResult:
    """The answer of one exemption rule for one impact.

    Parameters
    ----------
    rule_id : str
        The registry id, ``exemption.<topic>.<clause>`` (``1_1`` for subd. 1(1)).
    label : str
        What a person reads.
    citations : tuple of str
        The paragraphs the rule applies.
    outcome : Outcome
        ``EXEMPT``, ``NOT_EXEMPT`` (naming each failed condition), ``CONDITIONAL`` (naming
        each unknown fact) or ``NOT_APPLIED`` (nothing given says the activity or land is
        the clause's: not tried, and for a project as good as not exempt). Procedure rules
        such as subd. 6(b) and the road paragraph use ``REQUIRED`` / ``NOT_REQUIRED`` too.
    conditions : tuple of Condition
        Every condition tested, in the order of the text.
    reasons : tuple of str
        Plain-English reasons, rendered from the conditions.
    inputs : Mapping
        The fact values read, by fact name.
    parameters : Mapping
        The parameter keys used and their values on ``as_of``.
    verify : tuple of str
        What a person must still verify (unknown facts, subd. 11(a), the ten-year use
        restriction of Minn. R. 8420.0420, subp. 1 D where it applies).
    as_of : str
        ISO date the parameters were read for.
    impact_id : hashable, optional
        The impact the answer is about.
    amounts : Mapping
        Numbers compared (square feet, acres, years).
    """

    rule_id: str
    label: str
    citations: tuple[str, ...]
    outcome: Outcome
    conditions: tuple[Condition, ...] = ()
    reasons: tuple[str, ...] = ()
    inputs: Mapping[str, Any] = field(default_factory=dict)
    parameters: Mapping[str, Any] = field(default_factory=dict)
    verify: tuple[str, ...] = ()
    as_of: str = ""
    impact_id: Hashable | None = None
    amounts: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("inputs", "parameters", "amounts"):
            object.__setattr__(self, name, freeze(getattr(self, name)))
        for name in ("citations", "reasons", "verify", "conditions"):
            object.__setattr__(self, name, tuple(dict.fromkeys(getattr(self, name))))

    @property
    def failed(self) -> tuple[str, ...]:
        """Return the texts of the failed conditions."""
        return tuple(c.text for c in self.conditions if c.status is ConditionStatus.FAILED)

    @property
    def unknown(self) -> tuple[str, ...]:
        """Return the facts whose being unknown leaves a condition open."""
        out: dict[str, None] = {}
        for c in self.conditions:
            if c.status is ConditionStatus.UNKNOWN:
                out.update(dict.fromkeys(c.facts))
        return tuple(out)

    @property
    def citation(self) -> str:
        """Return the citations joined, for one trace cell."""
        return "; ".join(self.citations)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dictionary of the result."""
        return {
            "rule_id": self.rule_id,
            "label": self.label,
            "impact_id": plain(self.impact_id),
            "citations": list(self.citations),
            "outcome": self.outcome.value,
            "conditions": [c.to_dict() for c in self.conditions],
            "reasons": list(self.reasons),
            "inputs": {k: plain(v) for k, v in self.inputs.items()},
            "parameters": {k: plain(v) for k, v in self.parameters.items()},
            "verify": list(self.verify),
            "amounts": dict(self.amounts),
            "as_of": self.as_of,
        }

    def to_decision(self) -> Decision:
        """Return the answer as a :class:`~wetland_gis.decision.Decision` (for consumers of it).

        ``question`` is the rule id, ``value`` the tuple of unknown facts.

        Examples
        --------
        >>> from wetland_gis.rules.exempt import ExemptionFacts, wildlife
        >>> r = wildlife.duck_blinds(ExemptionFacts(duck_blind=True), day="2024-05-01")
        >>> r.to_decision().question == r.rule_id
        True
        """
        return Decision(
            question=self.rule_id,
            outcome=self.outcome,
            amounts=dict(self.amounts),
            citations=self.citations,
            reasons=self.reasons,
            parameters=dict(self.parameters),
            verify=self.verify,
            as_of=self.as_of,
            value=self.unknown,
        )

    def trace_step(self) -> dict[str, Any]:
        """Return the keyword arguments of one :class:`~wetland_gis.rules.trace.TraceLog` step.

        ``project`` is the caller's to add; the reason is the reasons joined for people
        (the structured conditions stay in ``inputs["conditions"]``).
        """
        return {
            "impact_id": "" if self.impact_id is None else str(self.impact_id),
            "rule_id": self.rule_id,
            "citation": self.citations,
            "outcome": self.outcome.value,
            "value": None,
            "reason": " ".join(self.reasons),
            "verify": list(self.verify),
            "inputs": {
                **{k: plain(v) for k, v in self.inputs.items()},
                "conditions": [c.to_dict() for c in self.conditions],
            },
            "parameters": {k: plain(v) for k, v in self.parameters.items()},
        }


#: The signature of a rule function.
RuleFunction = Callable[..., Any]


_T = TypeVar("_T")


class _OfRule(Generic[_T]):
    """A read-only attribute of :class:`RuleSpec` that is its spec rule's attribute ``name``.

    The id, label, citations, parameter keys, kind, use restriction and facts of a bound
    rule are the spec's, read through this one accessor.
    """

    def __init__(self, name: str, doc: str) -> None:
        self.name = name
        self.attribute = name
        self.__doc__ = doc

    def __set_name__(self, owner: type, attribute: str) -> None:
        self.attribute = attribute

    @overload
    def __get__(self, spec: None, owner: type) -> _OfRule[_T]: ...

    @overload
    def __get__(self, spec: RuleSpec, owner: type) -> _T: ...

    def __get__(self, spec: RuleSpec | None, owner: type) -> _OfRule[_T] | _T:
        if spec is None:
            return self
        value: _T = getattr(spec.rule, self.name)
        return value

    def __set__(self, spec: RuleSpec, value: Any) -> None:
        raise AttributeError(
            f"{self.attribute!r} of a RuleSpec is its spec rule's {self.name!r}: read-only"
        )


@dataclass(frozen=True)
class RuleSpec:
    """A rule of the spec bound to the function that decides it.

    The id, label, citations, parameter keys and facts are the spec's
    (:data:`wetland_gis.rules.spec.RULE_SPECS`); this adds the function.

    Parameters
    ----------
    rule : wetland_gis.rules.spec.Rule
        The rule's entry in the spec.
    function : callable
        ``function(facts, params=None, day=None) -> ExemptionResult``.
    """

    rule: _spec.Rule
    function: RuleFunction

    rule_id = _OfRule[str]("id", "The stable dotted id, ``exemption.<topic>.<clause>``.")
    label = _OfRule[str](
        "label", 'What a person reads, e.g. "Temporary crossing for silviculture".'
    )
    citations = _OfRule[tuple[str, ...]]("citations", "The paragraphs the rule applies.")
    parameter_keys = _OfRule[tuple[str, ...]](
        "parameters", "Every parameter key the function may read."
    )
    kind = _OfRule[str](
        "kind",
        "``exemption``, ``procedure``, ``binding`` or ``road``.\n\n``exemption`` rules are tried "
        "by :func:`~wetland_gis.rules.exempt.decide_exemptions` and may carry a project; the "
        "others answer another question.",
    )
    use_restriction = _OfRule[bool](
        "use_restriction",
        "Whether answers carry the use restriction of Minn. R. 8420.0420, subp. 1 D.",
    )
    facts = _OfRule[tuple[str, ...]]("facts", "The facts the rule reads (the spec's).")

    @property
    def subdivision(self) -> str:
        """Return the citation of the subdivision the rule's clause is in.

        Examples
        --------
        >>> from wetland_gis.rules.exempt import spec_of, utilities
        >>> spec_of(utilities.utility_operation_maintenance).subdivision
        'Minn. Stat. § 103G.2241, subd. 6'
        """
        return self.citations[0].split("(", 1)[0]


def bind(function: RuleFunction) -> RuleSpec:
    """Return the spec entry of a rule function, bound to it.

    Raises
    ------
    RulesInputError
        When the spec names no rule with this function.
    """
    spec = _SPECS.get(function)
    if spec is None:
        rule = _spec.rule_of_function(function)
        if rule is None:
            name = getattr(function, "__qualname__", repr(function))
            raise RulesInputError(
                f"{name} has no entry in EXEMPTION_RULES (wetland_gis/rules/spec.py): add its "
                "id, label, citations, facts and parameter keys there"
            )
        spec = _SPECS[function] = RuleSpec(rule, function)
    return spec


#: Registry entries already bound, by function.
_SPECS: dict[RuleFunction, RuleSpec] = {}


def check_count(value: Any, name: str, most: int | None = None) -> int | None:
    """Return a whole count of years, 0 to ``most`` if given (``None`` stays unknown)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise RulesInputError(f"{name} must be a whole number of years or None, got {value!r}")
    if int(value) < 0 or (most is not None and int(value) > most):
        top = "" if most is None else f" and at most {most}"
        raise RulesInputError(f"{name} must be at least 0{top} years, got {value!r}")
    return int(value)


def check_area(value: Any, name: str) -> float | None:
    """Return a finite, non-negative area (``None`` stays unknown)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise RulesInputError(f"{name} must be a number or None, got {value!r}")
    number = float(value)
    if number != number or number in (float("inf"), float("-inf")) or number < 0:
        raise RulesInputError(f"{name} must be a finite number >= 0, got {value!r}")
    return number


def optional_flag(value: Any, name: str) -> bool | None:
    """Return a yes/no fact: True, False, or ``None`` (unknown).

    Raises
    ------
    RulesInputError
        When ``value`` is anything else (``1``, ``"yes"``).
    """
    if value is not None and not isinstance(value, bool):
        raise RulesInputError(f"{name} must be True, False or None, got {value!r}")
    return value


def optional_choice(value: Any, allowed: Collection[str], name: str) -> None:
    """Raise :class:`RulesInputError` naming ``allowed`` unless ``value`` is one or ``None``."""
    if value is not None and value not in allowed:
        raise RulesInputError(f"{name} {value!r} is not one of {sorted(allowed)}")


def optional_date(value: Any, name: str) -> dt.date | None:
    """Return a date fact (a datetime's date), or ``None`` (unknown).

    Raises
    ------
    RulesInputError
        When ``value`` is neither a date nor ``None``.
    """
    if isinstance(value, dt.datetime):
        return value.date()
    if value is not None and not isinstance(value, dt.date):
        raise RulesInputError(f"{name} must be a date or None, got {value!r}")
    return value


class RuleRun:
    """Record one rule's conditions, parameters and inputs, then build its result.

    Parameters
    ----------
    spec : RuleSpec
        The rule's registry entry.
    facts : object
        The facts (read by attribute name).
    params : ParameterSet or None
        The parameter tree (default: the shipped one).
    day : str, date or None
        The date the law is applied as of (default: today).
    """

    def __init__(
        self,
        spec: RuleSpec,
        facts: Any,
        params: ParameterSet | None,
        day: Day,
    ) -> None:
        self.spec = spec
        self.facts = facts
        self.params = params if params is not None else default_parameters()
        self.day = as_date(day)
        self.used: dict[str, Any] = {}
        self.inputs: dict[str, Any] = {}
        self.conditions: list[Condition] = []
        self.verify: list[str] = []
        self.amounts: dict[str, float] = {}
        self.notes: list[str] = []

    # -- parameters ------------------------------------------------------------------
    def value(self, key: str) -> Any:
        """Return parameter ``key`` on the rule's date, recording it."""
        if key not in self.spec.parameter_keys:
            raise RulesInputError(
                f"rule {self.spec.rule_id!r} reads parameter {key!r}, which its registry "
                "entry does not list: add it to the entry's parameter_keys"
            )
        value = self.params.value(key, self.day)
        self.used[key] = plain(value)
        return value

    def passes(self, key: str, amount: float | Decimal, scale: float | Decimal = 1) -> bool:
        """Return whether ``amount`` meets limit ``key`` times ``scale``, exactly.

        Both sides are read as written (:func:`~wetland_gis.rules.facts.exact`, the one
        exact-number type of the rules core, :class:`decimal.Decimal`) and only multiplied,
        never divided, so the comparison is exact: an area in square feet is tested against
        an acre limit as ``passes(key, sqft, SQFT_PER_ACRE)``, not as a quotient in acres.
        """
        limit = self.value(key)
        test = LIMIT_TESTS[self.params[key].comparison or ""]
        return bool(test(exact(amount), exact(limit) * exact(scale)))

    def clause(self, key: str) -> str:
        """Return the rule's keyed sub-citation ``key`` (the spec's ``clauses``)."""
        return self.spec.rule.clause(key)

    # -- facts -----------------------------------------------------------------------
    def fact(self, name: str) -> Any:
        """Return fact ``name``, recording it among the inputs."""
        value = getattr(self.facts, name)
        self.inputs[name] = value
        return value

    # -- conditions ------------------------------------------------------------------
    def cond(
        self,
        holds: bool | None,
        text: str,
        *facts: str,
        citation: str | None = None,
        defining: bool = False,
    ) -> bool | None:
        """Record a condition that ``holds`` (True, False, or None for unknown).

        Returns ``holds``, so a rule can branch on it.
        """
        status = (
            ConditionStatus.UNKNOWN
            if holds is None
            else (ConditionStatus.MET if holds else ConditionStatus.FAILED)
        )
        for name in facts:
            if name not in self.inputs and hasattr(self.facts, name):
                self.inputs[name] = getattr(self.facts, name)
        self.conditions.append(
            Condition(
                facts=tuple(facts),
                text=text,
                status=status,
                citation=citation or self.spec.citations[0],
                defining=defining,
            )
        )
        return holds

    def flag(
        self,
        name: str,
        text: str,
        *,
        want: bool = True,
        citation: str | None = None,
        defining: bool = False,
    ) -> bool | None:
        """Record the condition "fact ``name`` is ``want``" (unknown when it is None)."""
        value = optional_flag(self.fact(name), name)
        holds = None if value is None else value is want
        return self.cond(holds, text, name, citation=citation, defining=defining)

    def flags(self, *conditions: Flag) -> None:
        """Record each condition "fact is ``want``" (:meth:`flag`), in the order given."""
        for c in conditions:
            citation = None if c.clause is None else self.clause(c.clause)
            self.flag(c.name, c.text, want=c.want, citation=citation, defining=c.defining)

    def check(self, *items: str) -> None:
        """Add verify items."""
        self.verify.extend(items)

    def note(self, *reasons: str) -> None:
        """Add a reason that is not a condition (e.g. a reading chosen)."""
        self.notes.extend(reasons)

    # -- result ----------------------------------------------------------------------
    def outcome(self) -> Outcome:
        """Return the outcome of the conditions recorded so far."""
        statuses = {c.status for c in self.conditions}
        if ConditionStatus.FAILED in statuses:
            return Outcome.NOT_EXEMPT
        if any(c.defining and c.status is ConditionStatus.UNKNOWN for c in self.conditions):
            return Outcome.NOT_APPLIED
        if ConditionStatus.UNKNOWN in statuses:
            return Outcome.CONDITIONAL
        return Outcome.EXEMPT

    def result(self, outcome: Outcome | None = None) -> ExemptionResult:
        """Return the immutable result, with the standard verify items of the rule's kind."""
        outcome = outcome if outcome is not None else self.outcome()
        reasons: list[str] = []
        verify: list[str] = []
        moot: list[str] = []  # facts of unknown conditions once a condition failed
        for c in self.conditions:
            if c.status is ConditionStatus.FAILED:
                reasons.append(f"Not met ({_spec.exemption_clause(c.citation)}): {c.text}")
            elif outcome is Outcome.NOT_APPLIED:
                if c.defining and c.status is ConditionStatus.UNKNOWN:
                    reasons.append(
                        f"Not tried ({_spec.exemption_clause(c.citation)}), not given: {c.text}"
                    )
            elif c.status is ConditionStatus.UNKNOWN and outcome is Outcome.NOT_EXEMPT:
                moot.extend(c.facts)
            elif c.status is ConditionStatus.UNKNOWN:
                reasons.append(f"Not known ({_spec.exemption_clause(c.citation)}): {c.text}")
                verify.append(f"Verify ({', '.join(c.facts)}): {c.text}")
        if moot:  # a failed condition decides it: the unknown ones are named, not worded
            facts = ", ".join(dict.fromkeys(moot))
            reasons.append(f"Not known, and moot once a condition fails: {facts}.")
        if outcome is Outcome.EXEMPT and self.spec.kind == "exemption":
            reasons.append(
                f"Every condition of {_spec.exemption_clause(self.spec.citations[0])} is met."
            )
        reasons.extend(self.notes)
        verify.extend(self.verify)
        citations = list(self.spec.citations)
        if self.spec.rule.conditions_11a and outcome in (Outcome.EXEMPT, Outcome.CONDITIONAL):
            verify.extend(CONDITIONS_11A)
            citations.append(subd("11(a)"))
            if self.spec.use_restriction:
                years = self.value(USE_RESTRICTION_KEY)
                verify.append(
                    f"{_spec.USE_RESTRICTION_CITATION}: for at least "
                    f"{years} years after the impact, the present and future owners may "
                    "make no use of the impacted area other than agricultural land unless "
                    "it is first replaced under § 103G.222; the local government unit may "
                    "require a notice of the restriction recorded with the county recorder."
                )
                citations.append(_spec.USE_RESTRICTION_CITATION)
        return ExemptionResult(
            rule_id=self.spec.rule_id,
            label=self.spec.label,
            citations=tuple(citations),
            outcome=outcome,
            conditions=tuple(self.conditions),
            reasons=tuple(reasons),
            inputs=dict(self.inputs),
            parameters=dict(self.used),
            verify=tuple(verify),
            as_of=self.day.isoformat(),
            impact_id=getattr(self.facts, "impact_id", None),
            amounts=dict(self.amounts),
        )


def impact_kind_is(
    run: RuleRun, kinds: Collection[str], text: str, *, given: str = "given impact kind"
) -> bool | None:
    """Record "the impact's kind is one of ``kinds``": unknown when not given or ``unknown``.

    Parameters
    ----------
    run : RuleRun
        The rule's recorder.
    kinds : collection of str
        The impact kinds that meet the condition.
    text : str
        The condition in the words of the law, without the final period.
    given : str, default "given impact kind"
        How the reason introduces the kind given: ``{text} ({given}: {kind}).``, the kind
        "not known" when unknown.

    Returns
    -------
    bool or None
        Whether the condition holds (``None``: unknown).
    """
    kind = run.fact("impact_kind")
    return run.cond(
        None if kind in (None, "unknown") else kind in kinds,
        f"{text} ({given}: {kind or 'not known'}).",
        "impact_kind",
    )


def land_use_is(
    run: RuleRun, uses: Collection[str], text: str, *, defining: bool = False
) -> bool | None:
    """Record "the land's use is one of ``uses``": unknown when the land use is not given.

    Parameters
    ----------
    run : RuleRun
        The rule's recorder.
    uses : collection of str
        The land uses that meet the condition.
    text : str
        The condition in the words of the law, without the final period: it reads
        ``{text} (given land use: {use}).``, or ``{text}.`` when the use is unknown.
    defining : bool, default False
        The land use says what the clause's land is (:class:`Condition`).

    Returns
    -------
    bool or None
        Whether the condition holds (``None``: unknown).
    """
    use = run.fact("land_use")
    return run.cond(
        None if use is None else use in uses,
        text + ("" if use is None else f" (given land use: {use})") + ".",
        "land_use",
        defining=defining,
    )


def covered_type(
    run: RuleRun, types: Sequence[int], unknown: Callable[[], str], unit: str
) -> int | None:
    """Return the wetland's type when it is one of ``types``; else record why it is not.

    Parameters
    ----------
    run : RuleRun
        The rule's recorder.
    types : sequence of int
        Every type the clause covers, in the order its text names them.
    unknown : callable
        Returns the condition's words when the type is not given (called only then, so
        the parameters it reads are recorded only then).
    unit : str
        What covers them, for the failed condition: "The ``unit`` covers type ...
        wetlands only, not a type N wetland."

    Returns
    -------
    int or None
        The type, when the clause covers it; ``None`` when it is unknown or another type
        (the condition is then recorded, unknown or failed).
    """
    wtype = run.fact("wetland_type")
    if wtype is None:
        run.cond(None, unknown(), "wetland_type")
    elif wtype not in types:
        run.cond(
            False,
            f"The {unit} covers type {types_text(types)} wetlands only, not a type {wtype} "
            "wetland.",
            "wetland_type",
        )
    else:
        return int(wtype)
    return None


def sized_type(
    run: RuleRun,
    any_size_key: str,
    limited_key: str,
    limit_key: str,
    unit: str,
    *,
    any_note: str = "",
    limited_words: str,
) -> tuple[int | None, list[int], list[int]]:
    """Return the wetland's type for a clause of some types at any size, others up to acres.

    Subd. 1(2) (type 1, or type 2 or 6 of less than two acres) and subd. 2(b) (type 1, or
    type 2 or 6 drained up to five acres) cover the types of parameter ``any_size_key``
    whatever their size and those of ``limited_key`` up to the acres of ``limit_key``;
    the clause tests the size itself, as its words differ.

    Parameters
    ----------
    run : RuleRun
        The rule's recorder.
    any_size_key, limited_key : str
        The parameter keys of the two type lists.
    limit_key : str
        The parameter key of the acres, named when the type is not given.
    unit : str
        What covers the types (:func:`covered_type`).
    any_note : str, default ""
        Words after the types of any size, when the type is not given.
    limited_words : str
        Words between the limited types and the acres, when the type is not given.

    Returns
    -------
    tuple
        The type (:func:`covered_type`), the types of any size and the limited types.
    """
    any_size = list(run.value(any_size_key))
    limited = list(run.value(limited_key))
    wtype = covered_type(
        run,
        any_size + limited,
        lambda: (
            f"The wetland is type {types_text(any_size)}{any_note}, or type "
            f"{types_text(limited)} {limited_words} {run.value(limit_key)} acres."
        ),
        unit,
    )
    return wtype, any_size, limited


def long_date(day: dt.date) -> str:
    """Return a date as the statute writes it: ``January 1, 1991``."""
    return f"{day:%B} {day.day}, {day.year}"


def types_text(types: Iterable[int]) -> str:
    """Return a type list as words: ``2 or 6``."""
    items = [str(t) for t in types]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def start(function: RuleFunction, facts: Any, params: Any, day: Any) -> RuleRun:
    """Return the recorder of ``function``'s rule, found in the spec by the function.

    The rule id, label, citations and parameter keys are written once, in
    :mod:`wetland_gis.rules.spec`; the function finds its entry here.
    """
    return RuleRun(bind(function), facts, params, day)


def decide_flags(
    function: RuleFunction, facts: Any, params: Any, day: Any, *conditions: Flag
) -> ExemptionResult:
    """Return the answer of a clause whose every condition is one flag (:class:`Flag`).

    Parameters
    ----------
    function : callable
        The rule function (its spec entry gives the id, label and citations).
    facts, params, day
        The rule function's arguments, passed on to :func:`start`.
    *conditions : Flag
        The clause's conditions, in the order of the text.

    Returns
    -------
    ExemptionResult

    Examples
    --------
    >>> from wetland_gis.rules.exempt import ExemptionFacts, wildlife
    >>> blind = Flag("duck_blind", "The activity is a duck blind.", defining=True)
    >>> r = decide_flags(wildlife.duck_blinds, ExemptionFacts(), None, "2024-05-01", blind)
    >>> r.outcome.value, r.reasons[0]
    ('not_applied', 'Not tried (subd. 10(2)), not given: The activity is a duck blind.')
    """
    run = start(function, facts, params, day)
    run.flags(*conditions)
    return run.result()
