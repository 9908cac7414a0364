"""The registry of the WCA rules: the rule ids the engine writes and the trace's readers read.

A view of the one rule spec, :mod:`wetland_gis.rules.spec`, where each rule id is written
once with its label, citations, parameter keys and facts. The engine
(:mod:`wetland_gis.rules.engine`) writes its steps with the constants below; the trace's
readers, the map popups (``mapping/popups.py``), the labels (``labels.py``), the report and
``docs/rules.md`` read the :data:`RULES` entries (label, citations, parameter keys, and the
decision-chain step of a popup). Adding a rule touches its function, its entry in the spec
and its tests (``CONTRIBUTING.md``).

The water-use rules of § 103G.271 are entries of the same spec with ``domain="water_use"``;
``wetland_gis.water_use.framework.WATER_RULES`` and ``RULE_IDS`` are views of them.

Examples
--------
>>> RULES[DE_MINIMIS_AMOUNT].label
'De minimis amount'
>>> RULES[CALCAREOUS_FEN].citations
('Minn. Stat. § 103G.223',)
"""

from __future__ import annotations

from collections.abc import Mapping

from wetland_gis.rules.spec import (
    CALCAREOUS_FEN as CALCAREOUS_FEN,
    CHAIN_STEPS as CHAIN_STEPS,
    DE_MINIMIS_AMOUNT as DE_MINIMIS_AMOUNT,
    DE_MINIMIS_CLAUSES as DE_MINIMIS_CLAUSES,
    DE_MINIMIS_CUMULATIVE as DE_MINIMIS_CUMULATIVE,
    DE_MINIMIS_IMPACT as DE_MINIMIS_IMPACT,
    DE_MINIMIS_PARAGRAPH as DE_MINIMIS_PARAGRAPH,
    DE_MINIMIS_PROJECT as DE_MINIMIS_PROJECT,
    DE_MINIMIS_REMAINDER as DE_MINIMIS_REMAINDER,
    DE_MINIMIS_TOTAL as DE_MINIMIS_TOTAL,
    EXEMPTION_EXCLUDED as EXEMPTION_EXCLUDED,
    EXEMPTION_ONE as EXEMPTION_ONE,
    EXEMPTION_STANDARDS as EXEMPTION_STANDARDS,
    FACTS_CONTEXT as FACTS_CONTEXT,
    FACTS_PUBLIC_WATERS_WETLAND as FACTS_PUBLIC_WATERS_WETLAND,
    FACTS_REGISTER as FACTS_REGISTER,
    FACTS_WETLAND_TYPE as FACTS_WETLAND_TYPE,
    IMPACT_KIND as IMPACT_KIND,
    PROCEDURE_NO_PLAN as PROCEDURE_NO_PLAN,
    PROCEDURE_PUBLIC_COMMENT as PROCEDURE_PUBLIC_COMMENT,
    PROCEDURE_SEQUENCING as PROCEDURE_SEQUENCING,
    PUBLIC_WATERS_WETLAND as PUBLIC_WATERS_WETLAND,
    PUBLIC_WATERS_WORK as PUBLIC_WATERS_WORK,
    READING_RULES as READING_RULES,
    REPLACEMENT_CREDITS as REPLACEMENT_CREDITS,
    REPLACEMENT_IF_FAILS as REPLACEMENT_IF_FAILS,
    REPLACEMENT_RATIO as REPLACEMENT_RATIO,
    ROAD_REPLACEMENT as ROAD_REPLACEMENT,
    RULE_SPECS,
    Rule,
    rules_of,
)

RULES: Mapping[str, Rule] = RULE_SPECS
"""Every WCA rule of the trace, by id."""

#: Every rule id of the other exemptions and the road paragraph (rules/exempt).
EXEMPTION_RULE_IDS = frozenset(r.id for r in rules_of("exemption", "procedure", "binding", "road"))


def rule(rule_id: str) -> Rule:
    """Return the registry entry of ``rule_id`` (``KeyError`` naming the known ids)."""
    try:
        return RULES[rule_id]
    except KeyError:
        raise KeyError(f"unknown rule id {rule_id!r}; known: {sorted(RULES)}") from None
