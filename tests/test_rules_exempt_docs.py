"""README.md and docs/rules.md list every exemption with its facts, in step with the code."""

from __future__ import annotations

from pathlib import Path

import pytest

from wetland_gis.exemption_catalog import exemption_list, exemption_table, facts_of
from wetland_gis.rules.exempt import EXEMPTION_RULES, FACT_COLUMNS

ROOT = Path(__file__).resolve().parents[1]


def _between(text: str, name: str) -> str:
    start, end = f"<!-- {name}:start -->\n", f"<!-- {name}:end -->"
    assert start in text and end in text, f"markers {name} missing"
    return text.split(start, 1)[1].split(end, 1)[0]


@pytest.mark.parametrize(
    ("doc", "marker", "render"),
    [
        pytest.param("docs/rules.md", "exemption-table", exemption_table, id="docs/rules.md"),
        pytest.param("README.md", "exemption-list", exemption_list, id="README.md"),
    ],
)
def test_the_documents_list_every_exemption_as_generated(doc, marker, render):
    text = (ROOT / doc).read_text(encoding="utf-8")
    assert _between(text, marker) == render(), (
        f"regenerate the table in {doc} with wetland_gis.exemption_catalog.{render.__name__}()"
    )


@pytest.mark.parametrize(
    "spec", [s for s in EXEMPTION_RULES if s.kind == "exemption"], ids=lambda s: s.rule_id
)
def test_every_exemption_reads_a_fact_with_a_column(spec):
    facts = facts_of(spec)
    assert facts, spec.rule_id
    assert any(f in FACT_COLUMNS for f in facts), spec.rule_id
    assert f"`{spec.rule_id}`" in exemption_table()
