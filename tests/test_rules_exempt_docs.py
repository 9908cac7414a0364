"""Every table of the rules and their facts in the documents is the one the spec generates.

The tables (docs/rules.md, docs/data_schema.md, README.md) are rendered from the one rule spec,
``wetland_gis/rules/spec.py``, by ``wetland_gis.exemption_catalog`` and written by
``python tools/spec_docs.py --write``; a committed table that differs fails here.
"""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import pytest

from wetland_gis.exemption_catalog import DOC_TABLES, exemption_table, facts_of
from wetland_gis.rules.exempt import EXEMPTION_RULES, FACT_COLUMNS, ExemptionFacts
from wetland_gis.rules.spec import RULE_SPECS, STAGES, exemption_fact, rules_of

ROOT = Path(__file__).resolve().parents[1]


def _load_spec_docs():
    """Import tools/spec_docs.py (the tools are not a package)."""
    found = importlib.util.spec_from_file_location("spec_docs", ROOT / "tools" / "spec_docs.py")
    assert found is not None and found.loader is not None
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    return module


spec_docs = _load_spec_docs()


def _between(text: str, name: str) -> str:
    start, end = f"<!-- {name}:start -->\n", f"<!-- {name}:end -->"
    assert start in text and end in text, f"markers {name} missing"
    return text.split(start, 1)[1].split(end, 1)[0]


@pytest.mark.parametrize(
    ("doc", "marker", "render"),
    [
        pytest.param(doc, marker, render, id=f"{doc}:{marker}")
        for doc, marker, render in spec_docs.TABLES
    ],
)
def test_the_documents_hold_every_table_as_generated(doc, marker, render):
    text = (ROOT / doc).read_text(encoding="utf-8")
    assert _between(text, marker) == render(), (
        f"regenerate the table {marker} in {doc}: python tools/spec_docs.py --write"
    )


def test_every_table_written_by_the_tool_is_checked_here():
    """The exemption catalog's tables are among the tool's, which the test above checks."""
    assert set(DOC_TABLES) <= set(spec_docs.TABLES)
    assert {(d, m) for d, m, _ in spec_docs.TABLES} >= {
        ("docs/rules.md", "question-table"),
        ("docs/data_schema.md", "trace-rule-table"),
    }


@pytest.mark.parametrize(
    ("doc", "marker"),
    [pytest.param(doc, marker, id=f"{doc}:{marker}") for doc, marker, _ in spec_docs.TABLES],
)
def test_a_hand_edit_of_any_table_fails_the_check(tmp_path, monkeypatch, doc, marker):
    """A row edited by hand (a label, a citation, a signature) is stale until regenerated."""
    for name in {d for d, _, _ in spec_docs.TABLES}:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text((ROOT / name).read_text(encoding="utf-8"), encoding="utf-8")
    path = tmp_path / doc
    text = path.read_text(encoding="utf-8")
    first, last = spec_docs.between(text, marker)
    rows = text[first:last].splitlines(keepends=True)
    rows[-1] = rows[-1].rstrip("\n") + " (edited by hand)\n"
    path.write_text(text[:first] + "".join(rows) + text[last:], encoding="utf-8")
    monkeypatch.setattr(spec_docs, "ROOT", tmp_path)
    assert spec_docs.main(["--check"]) == 1
    assert spec_docs.main(["--write"]) == 0
    assert spec_docs.main(["--check"]) == 0
    assert "(edited by hand)" not in path.read_text(encoding="utf-8")


def test_a_stale_table_is_found_and_rewritten(tmp_path, monkeypatch):
    """tools/spec_docs.py finds a hand-edited table and writes the generated one back."""
    for doc in {d for d, _, _ in spec_docs.TABLES}:
        (tmp_path / doc).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / doc).write_text((ROOT / doc).read_text(encoding="utf-8"), encoding="utf-8")
    rules = tmp_path / "docs" / "rules.md"
    rules.write_text(rules.read_text(encoding="utf-8").replace("Duck blinds", "Duck huts"))
    monkeypatch.setattr(spec_docs, "ROOT", tmp_path)
    assert spec_docs.main(["--check"]) == 1
    assert spec_docs.main(["--write"]) == 0
    assert spec_docs.main(["--check"]) == 0
    assert "Duck huts" not in rules.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "spec", [s for s in EXEMPTION_RULES if s.kind == "exemption"], ids=lambda s: s.rule_id
)
def test_every_exemption_reads_a_fact_with_a_column(spec):
    facts = facts_of(spec)
    assert facts, spec.rule_id
    assert any(f in FACT_COLUMNS for f in facts), spec.rule_id
    assert f"`{spec.rule_id}`" in exemption_table()


@pytest.mark.parametrize(
    "spec",
    [s for s in EXEMPTION_RULES if s.kind in ("exemption", "procedure")],
    ids=lambda s: s.rule_id,
)
def test_the_spec_lists_every_fact_the_rule_reads(spec):
    """The facts of a spec entry are the facts its function reads (and no other field)."""
    fields = {f.name for f in dataclasses.fields(ExemptionFacts)}
    assert set(facts_of(spec)) <= set(spec.facts), set(facts_of(spec)) - set(spec.facts)
    assert set(spec.facts) <= fields, set(spec.facts) - fields
    for name in spec.facts:
        assert exemption_fact(name).name == name


def test_every_rule_of_the_engine_is_in_a_stage_of_the_order():
    staged = {r for stage in STAGES for r in stage.rules}
    engine = {r.id for r in rules_of("engine", "reading") if not r.id.startswith("facts.")}
    assert engine <= staged, sorted(engine - staged)
    assert staged - {"exemption.*"} <= set(RULE_SPECS)
