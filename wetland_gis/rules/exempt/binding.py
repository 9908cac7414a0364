"""The binding rules of the exemptions: exclusions, any one exemption, no combination.

* Minn. R. 8420.0420, subp. 1 B: no exemption applies to a calcareous fen, a wetland
  deposited in the wetland bank, a wetland already used for replacement credit, or a
  wetland partially impacted so that its remainder would newly qualify
  (:func:`binding_exclusions`).
* § 103G.2241, subd. 11(b) (and Minn. R. 8420.0420, subp. 1 A): an activity is exempt if
  it qualifies for any one of the exemptions, even if another says it is not exempt.
* Minn. R. 8420.0420, subp. 1 C: exemptions may not be combined on a project. A project
  exempt only by using two different exemptions for different impacts is not exempt.

:func:`decide_exemptions` tries every exemption on every impact and names the one
exemption that carries the project; the trace keeps every exemption tried with why it
does or does not apply.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from wetland_gis.enums import Outcome
from wetland_gis.errors import RulesInputError
from wetland_gis.parameters import ParameterSet, as_date, default_parameters
from wetland_gis.rules.exempt.clauses import CLAUSES
from wetland_gis.rules.exempt.facts import ExemptionClaims, ExemptionFacts
from wetland_gis.rules.exempt.model import (
    STATUTE,
    ConditionStatus,
    Day,
    ExemptionResult,
    Flag,
    bind,
    exact,
    start,
)

#: Default reading of what "an exemption" is (subd. 11(b); Minn. R. 8420.0420, subp. 1 C):
#: each clause of § 103G.2241 (subd. 6(a)(1), 6(a)(2), ...) is one exemption.
EACH_CLAUSE = "each_clause"
#: Alternative: the clauses of one subdivision (subd. 6(a)(1)-(3)) are one exemption.
WHOLE_SUBDIVISION = "whole_subdivision"
EXEMPTION_UNIT_READINGS = (EACH_CLAUSE, WHOLE_SUBDIVISION)

_STATUTE = f"{STATUTE}, "


#: Minn. R. 8420.0420, subp. 1 B, in the order of the text.
_EXCLUSIONS = (
    Flag("calcareous_fen", "The wetland is not a calcareous fen (§ 103G.223).", want=False),
    Flag("banked", "The wetland is not deposited in the wetland bank.", want=False),
    Flag(
        "used_for_replacement_credit",
        "The wetland has not already been used for replacement credit.",
        want=False,
    ),
    Flag(
        "remainder_newly_qualifies",
        "The wetland was not partially impacted so that its remainder would qualify for an "
        "exemption that would not have applied before that impact.",
        want=False,
    ),
)


def binding_exclusions(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Minn. R. 8420.0420, subp. 1 B: the wetlands no exemption applies to.

    Returns
    -------
    ExemptionResult
        ``EXCLUDED`` (no exemption may apply), ``CONDITIONAL`` (an exclusion fact is not
        known: no exemption answer can be more than conditional) or ``ELIGIBLE``.

    Examples
    --------
    >>> binding_exclusions(ExemptionFacts(calcareous_fen=True), day="2024-05-01").outcome.value
    'excluded'
    """
    run = start(binding_exclusions, facts, params, day)
    run.flags(*_EXCLUSIONS)
    outcome = {
        Outcome.NOT_EXEMPT: Outcome.EXCLUDED,
        Outcome.CONDITIONAL: Outcome.CONDITIONAL,
        Outcome.EXEMPT: Outcome.ELIGIBLE,
    }[run.outcome()]
    return run.result(outcome)


def _bind(result: ExemptionResult, exclusion: ExemptionResult) -> ExemptionResult:
    """Return ``result`` capped by the exclusions: an excluded wetland is never exempt."""
    extra = tuple(c for c in exclusion.conditions if c.status is not ConditionStatus.MET)
    if not extra or result.outcome in (Outcome.NOT_EXEMPT, Outcome.NOT_APPLIED):
        return result
    excluded = exclusion.outcome is Outcome.EXCLUDED
    outcome = Outcome.NOT_EXEMPT if excluded else Outcome.CONDITIONAL
    reasons = tuple(
        f"{'Not met' if c.status is ConditionStatus.FAILED else 'Not known'} "
        f"(Minn. R. 8420.0420, subp. 1 B): {c.text}"
        for c in extra
    )
    verify = tuple(
        f"Verify ({', '.join(c.facts)}): {c.text}"
        for c in extra
        if c.status is ConditionStatus.UNKNOWN
    )
    kept = () if excluded else result.verify
    return dataclasses.replace(
        result,
        outcome=outcome,
        conditions=result.conditions + extra,
        reasons=tuple(r for r in result.reasons if not r.startswith("Every condition")) + reasons,
        verify=verify + kept,
        citations=result.citations + bind(binding_exclusions).citations,
    )


@dataclass(frozen=True, kw_only=True)
class ImpactExemptions:
    """Every exemption tried on one impact.

    Parameters
    ----------
    impact_id : hashable
        The impact.
    exclusion : ExemptionResult
        The subp. 1 B exclusions (:func:`binding_exclusions`).
    tried : tuple of ExemptionResult
        Each exemption of the registry, in registry order, capped by the exclusions.
    """

    impact_id: Hashable | None
    exclusion: ExemptionResult
    tried: tuple[ExemptionResult, ...]

    def by_rule(self, rule_id: str) -> ExemptionResult:
        """Return the answer of rule ``rule_id``."""
        for r in self.tried:
            if r.rule_id == rule_id:
                return r
        raise RulesInputError(f"rule {rule_id!r} was not tried on impact {self.impact_id!r}")

    @property
    def exempt_under(self) -> tuple[str, ...]:
        """Return the rule ids under which this impact alone is exempt."""
        return tuple(r.rule_id for r in self.tried if r.outcome is Outcome.EXEMPT)

    @property
    def conditional_under(self) -> tuple[str, ...]:
        """Return the rule ids under which this impact is conditionally exempt."""
        return tuple(r.rule_id for r in self.tried if r.outcome is Outcome.CONDITIONAL)


@dataclass(frozen=True, kw_only=True)
class ProjectExemptions:
    """The exemption answer of a project.

    Parameters
    ----------
    outcome : Outcome
        ``EXEMPT`` when one exemption makes every impact exempt; ``CONDITIONAL`` when one
        exemption makes every impact exempt or conditional; ``NOT_EXEMPT`` otherwise.
    carrying : str or None
        The rule id of the one exemption that carries the project (``None`` if none does).
    partial : str or None
        When the project is not exempt: the exemption covering the most impacts (the
        impacts it covers are listed in :attr:`covered`); ``None`` if no exemption covers
        any impact.
    covered : tuple of hashable
        The impacts exempt or conditionally exempt under ``carrying`` (or ``partial``).
    refused_combination : tuple of str
        Other exemptions that would cover impacts the chosen one does not: using them too
        would combine exemptions on the project (Minn. R. 8420.0420, subp. 1 C).
    impacts : tuple of ImpactExemptions
        Every exemption tried on every impact.
    reasons, verify, citations : tuple of str
        The project-level reasons, verify items (the carrying exemption's, every impact's)
        and citations.
    as_of : str
        ISO date of the law applied.
    subdivision : str or None
        When no one clause covers every impact but the clauses of one subdivision together
        do (each impact exempt or conditional under one of them): that subdivision's
        citation, whatever the reading (the reading decides whether it carries).
    subdivision_clauses : tuple of (impact id, rule id)
        The clause of ``subdivision`` applied to each impact (the firmest, then the first
        in registry order).
    unit_reading : {"each_clause", "whole_subdivision"}
        The reading applied: ``whole_subdivision`` lets ``subdivision`` carry the project
        (``carrying`` is then the clause covering the most impacts, and each impact's own
        clause is :meth:`clause_of`).
    """

    outcome: Outcome
    carrying: str | None
    partial: str | None
    covered: tuple[Hashable | None, ...]
    refused_combination: tuple[str, ...]
    impacts: tuple[ImpactExemptions, ...]
    reasons: tuple[str, ...]
    verify: tuple[str, ...]
    citations: tuple[str, ...]
    as_of: str
    subdivision: str | None = None
    subdivision_clauses: tuple[tuple[Hashable | None, str], ...] = ()
    unit_reading: str = EACH_CLAUSE

    @property
    def by_subdivision(self) -> bool:
        """Return whether the clauses of one subdivision, together, carry the project."""
        return self.unit_reading == WHOLE_SUBDIVISION and self.subdivision is not None

    def clause_of(self, impact_id: Hashable) -> str | None:
        """Return the rule id applied to one impact (``None``: none chosen)."""
        if self.by_subdivision:
            return dict(self.subdivision_clauses).get(impact_id)
        return self.carrying or self.partial

    def applied(self, impact_id: Hashable) -> ExemptionResult | None:
        """Return the chosen exemption's answer for one impact (``None``: none chosen)."""
        rule = self.clause_of(impact_id)
        if rule is None:
            return None
        for impact in self.impacts:
            if impact.impact_id == impact_id:
                return impact.by_rule(rule)
        raise RulesInputError(f"no impact {impact_id!r} in the project")

    def trace_steps(self) -> list[dict[str, Any]]:
        """Return every step as the keyword arguments of one trace step.

        The steps are each impact's exclusions, each exemption tried on it, and the project
        answer; ``project`` is the caller's to add.
        """
        steps: list[dict[str, Any]] = []
        for impact in self.impacts:
            steps.append(impact.exclusion.trace_step())
            steps.extend(r.trace_step() for r in impact.tried)
        spec = bind(decide_exemptions)
        steps.append(
            {
                "impact_id": "",
                "rule_id": spec.rule_id,
                "citation": self.citations,
                "outcome": self.outcome.value,
                "value": None,
                "reason": " ".join(self.reasons),
                "verify": list(self.verify),
                "inputs": self._choice(),
                "parameters": {},
            }
        )
        return steps

    def _choice(self) -> dict[str, Any]:
        """Return which exemption carries the project, covers some impacts, is refused."""
        return {
            "carrying": self.carrying,
            "partial": self.partial,
            "covered": [str(i) for i in self.covered],
            "refused_combination": list(self.refused_combination),
            "subdivision": self.subdivision,
            "subdivision_clauses": {str(i): r for i, r in self.subdivision_clauses},
            "exemption_unit_reading": self.unit_reading,
        }

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dictionary."""
        return {
            "outcome": self.outcome.value,
            **self._choice(),
            "reasons": list(self.reasons),
            "verify": list(self.verify),
            "citations": list(self.citations),
            "as_of": self.as_of,
            "impacts": [
                {
                    "impact_id": str(i.impact_id),
                    "exclusion": i.exclusion.to_dict(),
                    "tried": [r.to_dict() for r in i.tried],
                }
                for i in self.impacts
            ],
        }


def _project_areas(
    impacts: Sequence[ExemptionFacts], limited_types: list[int]
) -> tuple[float | None, float | None]:
    """Return the project's wetland area and its drained type 2/6 area (``None``: unknown)."""
    areas = [f.impact_sqft for f in impacts]
    total = (
        None
        if any(a is None for a in areas)
        else float(sum(exact(a) for a in areas if a is not None))
    )
    drained: float | None = 0.0
    parts = []
    for f in impacts:
        may_drain = f.impact_kind in (None, "unknown", "drain")
        may_count = f.wetland_type is None or f.wetland_type in limited_types
        if not (may_drain and may_count):
            continue
        if f.impact_kind != "drain" or f.wetland_type is None or f.impact_sqft is None:
            drained = None  # it may count, but how much is not known
            break
        parts.append(exact(f.impact_sqft))
    if drained is not None:
        drained = float(sum(parts))
    return total, drained


def _spoil_by_wetland(
    impacts: Sequence[ExemptionFacts],
) -> Callable[[ExemptionFacts], float | None]:
    """Return a function giving the project's spoil area in an impact's wetland.

    The sum of ``impact_sqft`` of the ``wildlife_spoil`` impacts in the same ``wetland_id``
    (subd. 10(1)(i)). Unknown when one of them has no area, or when another impact that
    is or may be spoil may lie in the same wetland (its wetland or this one's not known).
    """
    maybe = [f for f in impacts if f.wildlife_spoil is not False]

    def total(f: ExemptionFacts) -> float | None:
        if f.wildlife_spoil is not True:
            return None
        others = [g for g in maybe if g is not f]
        if f.wetland_id is None:
            if others:
                return None
            same = [f]
        else:
            same = [f] + [g for g in others if g.wetland_id in (f.wetland_id, None)]
            if any(g.wetland_id is None or g.wildlife_spoil is None for g in same[1:]):
                return None
        areas = [g.impact_sqft for g in same]
        if any(a is None for a in areas):
            return None
        return float(sum(exact(a) for a in areas if a is not None))

    return total


def decide_exemptions(
    impacts: Sequence[ExemptionFacts],
    claims: ExemptionClaims | None = None,
    params: ParameterSet | None = None,
    day: Day = None,
    *,
    unit_reading: str = EACH_CLAUSE,
) -> ProjectExemptions:
    """Try every exemption on every impact of one project; name the one that carries it.

    Parameters
    ----------
    impacts : sequence of ExemptionFacts
        The project's impacts (at least one; ids unique).
    claims : ExemptionClaims, optional
        The analyst's project-wide claims; an impact's own fact outranks them.
    params : ParameterSet, optional
        The parameter tree (default: the shipped one).
    day : str or date, optional
        The date the law is applied as of (default: today).
    unit_reading : {"each_clause", "whole_subdivision"}, default "each_clause"
        What "an exemption" is (subd. 11(b) "any one of the exemptions"; Minn. R.
        8420.0420, subp. 1 C "may not be combined on a project"): each clause (the
        default, the reading that never says exempt where the other would not), or the
        clauses of one subdivision together (subd. 6(a)(1) for one impact and 6(a)(2)
        for another are then one exemption, subd. 6).

    Returns
    -------
    ProjectExemptions

    Notes
    -----
    The project's areas (``project_sqft``, ``project_type_2_6_drained_sqft``) are summed
    from the impacts where an impact does not give them. The chosen exemption is the one
    under which the most impacts are exempt, then the most exempt or conditional, then the
    first in registry order.

    Examples
    --------
    >>> a = ExemptionFacts(impact_id="A", duck_blind=True, calcareous_fen=False,
    ...     banked=False, used_for_replacement_credit=False, remainder_newly_qualifies=False)
    >>> from wetland_gis.rules.exempt import RULES_BY_ID
    >>> RULES_BY_ID[decide_exemptions([a], day="2024-05-01").carrying].label
    'Duck blinds'
    """
    _check_project(impacts, unit_reading)
    params = params if params is not None else default_parameters()
    day = as_date(day)
    spec = bind(decide_exemptions)
    facts = _with_project_areas(impacts, claims, params, day, spec)
    rules = [s for s in CLAUSES if s.kind == "exemption"]
    tried: list[ImpactExemptions] = []
    for f in facts:
        exclusion = binding_exclusions(f, params, day)
        results = tuple(_bind(s.function(f, params, day), exclusion) for s in rules)
        tried.append(ImpactExemptions(impact_id=f.impact_id, exclusion=exclusion, tried=results))
    answer = _Answer(citations=list(spec.citations))
    best_exempt, best_possible, best = _best_exemption(rules, tried)
    if best_possible == 0:
        answer.reasons.append("No exemption of § 103G.2241 applies to any impact of the project.")
    else:
        answer.covered = tuple(
            i.impact_id
            for i in tried
            if i.by_rule(best.rule_id).outcome in (Outcome.EXEMPT, Outcome.CONDITIONAL)
        )
        if best_possible == len(tried):
            _one_exemption_carries(answer, best, best_exempt == len(tried))
        else:
            _no_one_exemption(answer, best, rules, tried, unit_reading)
        _refused_combination(answer, best, tried, unit_reading)
    return ProjectExemptions(
        outcome=answer.outcome,
        carrying=answer.carrying,
        partial=answer.partial,
        covered=answer.covered,
        refused_combination=answer.refused,
        impacts=tuple(tried),
        reasons=tuple(answer.reasons),
        verify=tuple(dict.fromkeys(answer.verify)),
        citations=tuple(dict.fromkeys(answer.citations)),
        as_of=day.isoformat(),
        subdivision=answer.subdivision,
        subdivision_clauses=answer.clauses,
        unit_reading=unit_reading,
    )


def _check_project(impacts: Sequence[ExemptionFacts], unit_reading: str) -> None:
    """Raise :class:`RulesInputError` on a reading, an empty project or duplicate ids."""
    if unit_reading not in EXEMPTION_UNIT_READINGS:
        raise RulesInputError(
            f"unit_reading was {unit_reading!r} but is expected to be one of "
            f"{list(EXEMPTION_UNIT_READINGS)}"
        )
    if not impacts:
        raise RulesInputError("decide_exemptions needs at least one impact")
    for f in impacts:
        if not isinstance(f, ExemptionFacts):
            raise RulesInputError(f"impacts must be ExemptionFacts, got {type(f).__name__}")
    ids = [f.impact_id for f in impacts]
    if len(set(map(repr, ids))) != len(ids):
        raise RulesInputError(f"impact ids must be unique within a project, got {ids!r}")


def _with_project_areas(
    impacts: Sequence[ExemptionFacts],
    claims: ExemptionClaims | None,
    params: ParameterSet,
    day: dt.date,
    spec: Any,
) -> list[ExemptionFacts]:
    """Return each impact's facts with the claims and the project's summed areas."""
    key = "exemptions.drainage_limited_types"
    if key not in spec.parameter_keys:  # pragma: no cover - registry consistency
        raise RulesInputError(f"the registry entry of decide_exemptions must list {key}")
    total, drained = _project_areas(impacts, list(params.value(key, day)))
    spoil = _spoil_by_wetland(impacts)
    return [
        dataclasses.replace(
            f.with_claims(claims),
            wetland_spoil_sqft=(
                f.wetland_spoil_sqft if f.wetland_spoil_sqft is not None else spoil(f)
            ),
            project_sqft=f.project_sqft if f.project_sqft is not None else total,
            project_type_2_6_drained_sqft=(
                f.project_type_2_6_drained_sqft
                if f.project_type_2_6_drained_sqft is not None
                else drained
            ),
        )
        for f in impacts
    ]


@dataclass
class _Answer:
    """The project answer of :func:`decide_exemptions` as it is built."""

    citations: list[str]
    outcome: Outcome = Outcome.NOT_EXEMPT
    carrying: str | None = None
    partial: str | None = None
    covered: tuple[Hashable | None, ...] = ()
    refused: tuple[str, ...] = ()
    subdivision: str | None = None
    clauses: tuple[tuple[Hashable | None, str], ...] = ()
    reasons: list[str] = field(default_factory=list)
    verify: list[str] = field(default_factory=list)


#: Subd. 9(g), a verify item of every exemption that carries a project.
_NOT_WITH_DE_MINIMIS = (
    "§ 103G.2241, subd. 9(g): the de minimis exemption may not be combined with "
    "this exemption on the project."
)


def _best_exemption(
    rules: Sequence[Any], tried: Sequence[ImpactExemptions]
) -> tuple[int, int, Any]:
    """Return the exemption covering the most impacts: (exempt, exempt or conditional, rule).

    The most impacts exempt, then the most exempt or conditional, then registry order.
    """
    scores = []
    for index, s in enumerate(rules):
        outcomes = [i.by_rule(s.rule_id).outcome for i in tried]
        exempt = sum(o is Outcome.EXEMPT for o in outcomes)
        possible = sum(o in (Outcome.EXEMPT, Outcome.CONDITIONAL) for o in outcomes)
        scores.append((exempt, possible, -index, s))
    scores.sort(key=lambda t: t[:-1], reverse=True)
    best_exempt, best_possible, _, best = scores[0]
    return best_exempt, best_possible, best


def _one_exemption_carries(answer: _Answer, best: Any, every_exempt: bool) -> None:
    """Subd. 11(b): one exemption covers every impact, and carries the project."""
    answer.carrying = best.rule_id
    answer.outcome = Outcome.EXEMPT if every_exempt else Outcome.CONDITIONAL
    word = "exempt" if answer.outcome is Outcome.EXEMPT else "conditionally exempt"
    answer.reasons.append(
        f"The project is {word} under one exemption, {best.label} "
        f"({best.citations[0]}), which covers every impact (subd. 11(b))."
    )
    answer.verify.append(_NOT_WITH_DE_MINIMIS)


def _no_one_exemption(
    answer: _Answer,
    best: Any,
    rules: Sequence[Any],
    tried: Sequence[ImpactExemptions],
    unit_reading: str,
) -> None:
    """Minn. R. 8420.0420, subp. 1 C: no one exemption covers every impact."""
    answer.partial = best.rule_id
    answer.outcome = Outcome.NOT_EXEMPT
    answer.reasons.append(
        f"No one exemption covers every impact: {best.label} ({best.citations[0]}) "
        f"covers {len(answer.covered)} of {len(tried)} impacts; the others are not exempt "
        "under it."
    )
    answer.subdivision, answer.clauses = _subdivision_cover(rules, tried)
    if answer.subdivision is not None and unit_reading == WHOLE_SUBDIVISION:
        _whole_subdivision(answer, rules, tried)
    elif answer.subdivision is not None:
        answer.reasons.append(
            f"The clauses of {answer.subdivision} together cover every impact, but under "
            "the reading 'each_clause' (the default) each clause is its own exemption "
            "and two are not combined (Minn. R. 8420.0420, subp. 1 C)."
        )


def _whole_subdivision(
    answer: _Answer, rules: Sequence[Any], tried: Sequence[ImpactExemptions]
) -> None:
    """Read the clauses of one subdivision as one exemption (``whole_subdivision``)."""
    by_rule = {s.rule_id: s for s in rules}
    clauses = answer.clauses
    outcomes = [i.by_rule(dict(clauses)[i.impact_id]).outcome for i in tried]
    answer.outcome = (
        Outcome.EXEMPT if all(o is Outcome.EXEMPT for o in outcomes) else Outcome.CONDITIONAL
    )
    counts: dict[str, int] = {}
    for _, rule_id in clauses:
        counts[rule_id] = counts.get(rule_id, 0) + 1
    answer.carrying = max(counts, key=lambda r: counts[r])  # first of the most
    answer.partial, answer.covered = None, tuple(i.impact_id for i in tried)
    word = "exempt" if answer.outcome is Outcome.EXEMPT else "conditionally exempt"
    each = "; ".join(
        f"{iid}: {by_rule[rule_id].citations[0].replace(_STATUTE, '')}" for iid, rule_id in clauses
    )
    answer.reasons.append(
        f"Reading 'whole_subdivision' (the default is 'each_clause'): the clauses "
        f"of {answer.subdivision} are read as one exemption, and every impact is {word} "
        f"under one of them ({each}): the project is {word} under {answer.subdivision} "
        "(subd. 11(b))."
    )
    answer.verify.append(_NOT_WITH_DE_MINIMIS)
    for iid, rule_id in clauses:
        result = _impact_of(tried, iid).by_rule(rule_id)
        answer.verify.extend(f"Impact {iid}: {v}" for v in result.verify)
        answer.citations.extend(result.citations)


def _refused_combination(
    answer: _Answer, best: Any, tried: Sequence[ImpactExemptions], unit_reading: str
) -> None:
    """Subp. 1 C: name the exemptions refused; add the chosen one's checks and citations."""
    chosen = answer.carrying or best.rule_id
    whole = answer.subdivision is not None and unit_reading == WHOLE_SUBDIVISION
    if not whole:  # under 'whole_subdivision' every impact is covered by a clause of the one
        uncovered = [
            i
            for i in tried
            if i.by_rule(chosen).outcome not in (Outcome.EXEMPT, Outcome.CONDITIONAL)
        ]
        answer.refused = tuple(
            dict.fromkeys(
                r.rule_id
                for i in uncovered
                for r in i.tried
                if r.outcome in (Outcome.EXEMPT, Outcome.CONDITIONAL) and r.rule_id != chosen
            )
        )
    if answer.refused:
        answer.reasons.append(
            "Exemptions may not be combined on a project (Minn. R. 8420.0420, subp. 1 C): "
            f"{', '.join(answer.refused)} would cover impacts that {chosen} does not, but a "
            "project exempt only by using two different exemptions is not exempt."
        )
    if whole:
        return
    for r in (i.by_rule(chosen) for i in tried if i.impact_id in answer.covered):
        answer.verify.extend(
            v if r.impact_id is None else f"Impact {r.impact_id}: {v}" for v in r.verify
        )
        answer.citations.extend(r.citations)


def _impact_of(tried: Sequence[ImpactExemptions], impact_id: Hashable) -> ImpactExemptions:
    """Return the exemptions tried on one impact."""
    return next(i for i in tried if i.impact_id == impact_id)


def _subdivision_cover(
    rules: Sequence[Any], tried: Sequence[ImpactExemptions]
) -> tuple[str | None, tuple[tuple[Hashable | None, str], ...]]:
    """Return the subdivision whose clauses together cover every impact, and each one's clause.

    Only a subdivision of two or more clauses counts (one clause covering every impact
    carries the project by itself). The choice is: the most impacts exempt (not only
    conditional), then registry order; each impact takes the clause of it under which it
    is exempt, else conditional, the first in registry order.
    """
    firm = (Outcome.EXEMPT, Outcome.CONDITIONAL)
    groups: dict[str, list[Any]] = {}
    for spec in rules:
        groups.setdefault(spec.subdivision, []).append(spec)
    best: tuple[int, str, tuple[tuple[Hashable | None, str], ...]] | None = None
    for subdivision, specs in groups.items():
        if len(specs) <= 1:  # one clause alone carries by itself, or not at all
            continue
        picked: list[tuple[Hashable | None, str]] = []
        exempt = 0
        for impact in tried:
            results = [impact.by_rule(s.rule_id) for s in specs]
            hit = next((r for r in results if r.outcome is Outcome.EXEMPT), None) or next(
                (r for r in results if r.outcome in firm), None
            )
            if hit is None:
                break
            exempt += hit.outcome is Outcome.EXEMPT
            picked.append((impact.impact_id, hit.rule_id))
        else:
            if best is None or exempt > best[0]:
                best = (exempt, subdivision, tuple(picked))
    if best is None:
        return None, ()
    _, subdivision, picked_clauses = best
    return subdivision, picked_clauses
