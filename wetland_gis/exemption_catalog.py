"""The tables of every exemption and its facts, for README.md and docs/rules.md.

Generated from :data:`~wetland_gis.rules.exempt.EXEMPTION_RULES` and
:data:`~wetland_gis.rules.exempt.FACT_COLUMNS` (a test keeps the documents in step): the
facts of a rule are those it reads, found by asking it on a few probe fact sets (its
``inputs`` and the facts of its conditions), so the table cannot drift from the code. The
probe values are not legal numbers: they only make each rule read its facts (kept outside
the rules core, whose modules hold no number but 0 and 1).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from wetland_gis.rules.exempt import CLAIMS, EXEMPTION_RULES, FACT_COLUMNS, ExemptionFacts
from wetland_gis.rules.exempt.model import RuleSpec

__all__ = [
    "facts_of",
    "exemption_table",
    "exemption_list",
    "field_role",
    "DERIVED_FACTS",
    "CONTEXT_FACTS",
]

#: Facts the engine fills from the geometry and the project (no column).
DERIVED_FACTS = {
    "impact_sqft": "the impact's counted area",
    "project_sqft": "the wetland area the project alters",
    "project_type_2_6_drained_sqft": "the project's drained type 2 and 6 area",
    "wetland_spoil_sqft": "the spoil area in the wetland",
}

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
    """Return the facts one exemption reads, in the order it reads them."""
    found: dict[str, None] = {}
    for probe in _probes():
        result = spec.function(probe, None, _DAY)
        found.update(dict.fromkeys(result.inputs))
        for condition in result.conditions:
            found.update(dict.fromkeys(condition.facts))
    return tuple(found)


def _fact_cell(name: str) -> str:
    if name in DERIVED_FACTS:
        return f"{DERIVED_FACTS[name]} (computed)"
    column = FACT_COLUMNS.get(name, name)
    return f"`{column}`" + (" (claim)" if name in CLAIMS else "")


def exemption_table() -> str:
    """Return the Markdown table of every exemption: id, label, citation, facts, parameters."""
    lines = [
        "| rule id | exemption | citation | facts (default column; claim: only a person confirms) "
        "| parameters |",
        "| --- | --- | --- | --- | --- |",
    ]
    for spec in EXEMPTION_RULES:
        if spec.kind != "exemption":
            continue
        facts = ", ".join(_fact_cell(f) for f in facts_of(spec))
        keys = ", ".join(f"`{k}`" for k in spec.parameter_keys) or "none"
        lines.append(
            f"| `{spec.rule_id}` | {spec.label} | {spec.citations[0]} | {facts} | {keys} |"
        )
    return "\n".join(lines) + "\n"


#: Facts read with a field role of another name (``wetland_gis.io.fields.DEFAULT_NAMES``).
_ROLE_OF = {"used_for_replacement_credit": "used_for_credit"}
#: Facts the context layers give (``assess`` writes their column; no field role).
CONTEXT_FACTS = frozenset({"incorporated", "calcareous_fen"})


def field_role(name: str) -> str | None:
    """Return the field role (``--field ROLE=COLUMN``) of a fact; None for a context fact.

    Examples
    --------
    >>> field_role("years_annual_crops"), field_role("used_for_replacement_credit")
    ('years_annual_crops', 'used_for_credit')
    >>> field_role("calcareous_fen") is None
    True
    """
    return None if name in CONTEXT_FACTS else _ROLE_OF.get(name, name)


def _listed_fact(name: str) -> str:
    """Return a fact for the README list: its column, and its role when named otherwise."""
    if name in DERIVED_FACTS:
        return _fact_cell(name)
    column, role = FACT_COLUMNS.get(name, name), field_role(name)
    notes = ["context"] if role is None else []
    if role is not None and role != column:
        notes.append(f"role `{role}`")
    if name in CLAIMS:
        notes.append("claim")
    return f"`{column}`" + (f" ({'; '.join(notes)})" if notes else "")


def exemption_list() -> str:
    """Return the Markdown list of every exemption with its facts (for the README).

    Each fact is its default column; where its field role (``--field ROLE=COLUMN``) has
    another name, the role too; a fact of the context layers says so.
    """
    lines = []
    for spec in EXEMPTION_RULES:
        if spec.kind != "exemption":
            continue
        facts = ", ".join(_listed_fact(f) for f in facts_of(spec))
        short = spec.citations[0].replace("Minn. Stat. § 103G.2241, ", "")
        lines.append(f"- {short}: {spec.label}. Facts: {facts}.")
    return "\n".join(lines) + "\n"
