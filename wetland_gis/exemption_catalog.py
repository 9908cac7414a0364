"""Every documentation table of the rules and their facts, generated from the one rule spec.

The tables of ``docs/rules.md`` (the engine's order, every exemption with its facts, the
rules of ``rules/exempt``, the exemption facts), of ``docs/data_schema.md`` (the roles of the
impact layer, the per-wetland facts, the exemption and road fact roles) and the README's
exemption list are rendered here from :mod:`wetland_gis.rules.spec` and written between
``<!-- NAME:start -->`` and ``<!-- NAME:end -->`` markers by ``tools/spec_docs.py --write``;
``tests/test_rules_exempt_docs.py`` fails when a committed table differs from the generated
one (:data:`DOC_TABLES`).

:func:`facts_of` asks an exemption which facts it reads, on a few probe fact sets (its
``inputs`` and the facts of its conditions): a test checks that the spec lists exactly
those. The probe values are not legal numbers: they only make each rule read its facts (kept
outside the rules core, whose modules hold no number but 0 and 1).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

from wetland_gis.rules.exempt import EXEMPTION_RULES, FACT_COLUMNS, ExemptionFacts
from wetland_gis.rules.exempt.model import RuleSpec
from wetland_gis.rules.spec import (
    FACTS,
    STAGES,
    Fact,
    exemption_clause,
    exemption_fact,
    rules_of,
    short_cite,
)

#: Facts the engine fills from the geometry and the project (no column).
DERIVED_FACTS = {f.key: f.doc for f in FACTS.values() if f.group == "computed"}
#: Facts the context layers give (``assess`` writes their column; no field role).
CONTEXT_FACTS = frozenset(f.key for f in FACTS.values() if f.group == "context")

_DAY = "2024-05-01"


def _probes() -> list[ExemptionFacts]:
    flags = [f.name for f in dataclasses.fields(ExemptionFacts) if f.type == "bool | None"]
    common: dict[str, Any] = {"wetland_type": 2, "impact_sqft": 100.0, "project_sqft": 100.0}
    yes: dict[str, Any] = dict.fromkeys(flags, True)
    no: dict[str, Any] = dict.fromkeys(flags, False)
    return [
        ExemptionFacts(),
        ExemptionFacts(
            **yes,
            **common,
            impact_kind="drain",
            project_type_2_6_drained_sqft=100.0,
            wetland_acres=1.0,
            land_use="agricultural",
            years_cropped_before_1991=7,
            wetland_existence_years=30,
            years_annual_crops=9,
            years_rotation_or_fallow=0,
            created_by=frozenset({"beaver_dam"}),
            wetland_spoil_sqft=10.0,
        ),
        ExemptionFacts(
            **no,
            **common,
            impact_kind="fill",
            wetland_acres=1.0,
            land_use="pasture",
        ),
    ]


def facts_of(spec: RuleSpec) -> tuple[str, ...]:
    """Return the facts one exemption reads when asked, in the order it reads them."""
    found: dict[str, None] = {}
    for probe in _probes():
        result = spec.function(probe, None, _DAY)
        found.update(dict.fromkeys(result.inputs))
        for condition in result.conditions:
            found.update(dict.fromkeys(condition.facts))
    return tuple(found)


def _exemptions() -> Iterable[RuleSpec]:
    return (s for s in EXEMPTION_RULES if s.kind == "exemption")


def _fact_cell(name: str) -> str:
    fact = exemption_fact(name)
    if fact.group == "computed":
        return f"{fact.doc} (computed)"
    return f"`{fact.column}`" + (" (claim)" if fact.claim else "")


def _ticked(items: Iterable[str]) -> str:
    """Return names as code, comma-separated (empty when there are none)."""
    return ", ".join(f"`{i}`" for i in items)


def _codes(items: Iterable[str]) -> str:
    return _ticked(items) or "none"


def _markdown(header: Iterable[str], rows: Iterable[str]) -> str:
    """Return a Markdown table: the ``header`` cells, the rule under them, then ``rows``.

    Each row is one line already written (``| a | b |``); the text ends with a newline.
    """
    cells = list(header)
    lines = ["| " + " | ".join(cells) + " |", "|" + " --- |" * len(cells), *rows]
    return "\n".join(lines) + "\n"


def exemption_table() -> str:
    """Return the Markdown table of every exemption: id, label, citation, facts, parameters."""
    header = (
        "rule id",
        "exemption",
        "citation",
        "facts (default column; claim: only a person confirms)",
        "parameters",
    )
    return _markdown(
        header,
        (
            f"| `{spec.rule_id}` | {spec.label} | {spec.citations[0]} | "
            f"{', '.join(_fact_cell(f) for f in spec.facts)} | {_codes(spec.parameter_keys)} |"
            for spec in _exemptions()
        ),
    )


def field_role(name: str) -> str | None:
    """Return the field role (``--field ROLE=COLUMN``) of a fact; None for a context fact.

    Examples
    --------
    >>> field_role("years_annual_crops"), field_role("used_for_replacement_credit")
    ('years_annual_crops', 'used_for_credit')
    >>> field_role("calcareous_fen") is None
    True
    """
    return exemption_fact(name).role


def _listed_fact(name: str) -> str:
    """Return a fact for the README list: its column, and its role when named otherwise."""
    fact = exemption_fact(name)
    if fact.group == "computed":
        return _fact_cell(name)
    notes = ["context"] if fact.role is None else []
    if fact.role is not None and fact.role != fact.column:
        notes.append(f"role `{fact.role}`")
    if fact.claim:
        notes.append("claim")
    return f"`{fact.column}`" + (f" ({'; '.join(notes)})" if notes else "")


def exemption_list() -> str:
    """Return the Markdown list of every exemption with its facts (for the README).

    Each fact is its default column; where its field role (``--field ROLE=COLUMN``) has
    another name, the role too; a fact of the context layers says so.
    """
    lines = []
    for spec in _exemptions():
        facts = ", ".join(_listed_fact(f) for f in spec.facts)
        lines.append(f"- {exemption_clause(spec.citations[0])}: {spec.label}. Facts: {facts}.")
    return "\n".join(lines) + "\n"


def stage_table() -> str:
    """Return the Markdown table of the engine's order (docs/rules.md): order, rule ids, law."""
    return _markdown(
        ("order", "rule_id", "law"),
        (
            f"| {order} | {stage.rules_doc or _ticked(stage.rules)} | {stage.law} |"
            for order, stage in enumerate(STAGES, start=1)
        ),
    )


def _clause_cell(citations: Iterable[str]) -> str:
    seen = dict.fromkeys(short_cite(c) for c in citations)
    return "; ".join(seen)


def rule_table() -> str:
    """Return the Markdown table of every rule of ``rules/exempt``: clause, facts, parameters."""
    return _markdown(
        ("rule id", "clause", "label", "facts read", "parameters"),
        (
            f"| `{rule.id}` | {_clause_cell((*rule.citations, *rule.clauses.values()))} | "
            f"{rule.label} | {_codes(rule.facts) if rule.facts else '(see below)'} | "
            f"{_codes(rule.parameters)} |"
            for rule in rules_of("exemption", "procedure", "binding", "road")
        ),
    )


def fact_table() -> str:
    """Return the Markdown table of every exemption fact: fact, default column, meaning."""
    facts = ((name, exemption_fact(name)) for name in FACT_COLUMNS)
    return _markdown(
        ("fact", "default column", "meaning"),
        (
            f"| `{name}` | `{fact.column}` | {'**Claim.** ' if fact.claim else ''}{fact.rule_doc} |"
            for name, fact in facts
        ),
    )


def _group(*groups: str) -> Iterable[Fact]:
    """Return the facts of the spec in ``groups``, in the spec's order."""
    return (fact for fact in FACTS.values() if fact.group in groups)


def _names(fact: Fact) -> str:
    return _ticked(fact.columns)


def role_table() -> str:
    """Return the Markdown table of the roles of the impact layer (docs/data_schema.md)."""
    return _markdown(
        ("role", "meaning", "default names recognised", "values"),
        (
            f"| `{fact.key}` | {fact.label} | {_names(fact)} | {fact.doc} |"
            for fact in _group("layer")
        ),
    )


def wetland_fact_table() -> str:
    """Return the Markdown table of the optional per-wetland facts (docs/data_schema.md)."""
    return _markdown(
        ("role", "default names recognised", "values", "default when absent"),
        (
            f"| `{fact.key}` | {_names(fact)} | {fact.doc} | {fact.absent} |"
            for fact in _group("wetland")
        ),
    )


def _values(fact: Fact) -> str:
    if fact.choices:
        choices = ", ".join(f"`{c}`" for c in fact.choices)
        return f"{'a set of ' if fact.many else 'one of '}{choices}"
    return {"flag": "yes/no", "date": "`YYYY-MM-DD`"}.get(fact.type.value, fact.type.value)


def exemption_role_table() -> str:
    """Return the Markdown table of the exemption and road fact roles (docs/data_schema.md)."""
    return _markdown(
        ("role", "default column", "values", "claim", "meaning"),
        (
            f"| `{fact.key}` | `{fact.column}` | {_values(fact)} | "
            f"{'claim' if fact.claim else ''} | {fact.doc} |"
            for fact in _group("exemption", "road")
        ),
    )


#: Every generated table: (document, marker name, the function that renders it).
DOC_TABLES: tuple[tuple[str, str, Callable[[], str]], ...] = (
    ("docs/rules.md", "stage-table", stage_table),
    ("docs/rules.md", "exemption-table", exemption_table),
    ("docs/rules.md", "rule-table", rule_table),
    ("docs/rules.md", "fact-table", fact_table),
    ("docs/data_schema.md", "role-table", role_table),
    ("docs/data_schema.md", "wetland-fact-table", wetland_fact_table),
    ("docs/data_schema.md", "exemption-role-table", exemption_role_table),
    ("README.md", "exemption-list", exemption_list),
)
