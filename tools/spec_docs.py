"""Write the tables of the rules and their facts into the documents, from the rule spec.

Every table of :data:`wetland_gis.exemption_catalog.DOC_TABLES` (the engine's order, the
exemptions, the rules of ``rules/exempt`` and their facts in ``docs/rules.md``; the field
roles in ``docs/data_schema.md``; the README's exemption list), the table of the library
questions (:func:`question_table`, ``docs/rules.md``, "Rules implemented"), the table of the
trace's rule ids (:func:`trace_rule_table`, ``docs/data_schema.md``) and
:data:`wetland_gis.water_use.framework.DOC_TABLES` (the water-use rules in
``docs/water_use.md``) sits between the markers ``<!-- NAME:start -->`` and
``<!-- NAME:end -->`` of its document and is rendered from ``wetland_gis/rules/spec.py``.

Usage::

    python tools/spec_docs.py           # list the tables and whether each is up to date
    python tools/spec_docs.py --write   # rewrite every table
    python tools/spec_docs.py --check   # exit 1 when a table is out of date

``tests/test_rules_exempt_docs.py`` runs the check for each table.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import sys
from pathlib import Path

from wetland_gis.exemption_catalog import DOC_TABLES
from wetland_gis.rules.spec import rules_of, short_cite
from wetland_gis.water_use.framework import DOC_TABLES as WATER_USE_TABLES

ROOT = Path(__file__).resolve().parents[1]


#: The arguments every library function takes and the docs do not repeat (docs/rules.md).
_COMMON_ARGUMENTS = frozenset({"params", "as_of", "day"})


def signature(function: str) -> str:
    """Return how the docs write the call of ``module.name`` of :mod:`wetland_gis.rules`.

    Its arguments without their types, and without ``params`` and ``as_of`` (every function
    takes them).
    """
    module, name = function.rsplit(".", 1)
    code = getattr(importlib.import_module(f"wetland_gis.rules.{module}"), name)
    sig = inspect.signature(code)
    arguments = [
        p.replace(annotation=inspect.Parameter.empty)
        for p in sig.parameters.values()
        if p.name not in _COMMON_ARGUMENTS
    ]
    plain = sig.replace(parameters=arguments, return_annotation=inspect.Signature.empty)
    return f"`{name}{plain}`"


def question_table() -> str:
    """Return the Markdown table of the library questions (docs/rules.md, "Rules implemented").

    One row per rule of kind ``question``: the question as ``Decision.question`` writes it,
    the functions answering it, its label, the citations its entry holds (with the keyed
    sub-citations its code writes) and the parameter keys it reads (their citations are
    ``wca.yaml``'s).
    """
    rows = [
        "| question | function | label | citations | parameter keys |",
        "| --- | --- | --- | --- | --- |",
    ]
    for rule in rules_of("question"):
        cited = dict.fromkeys(short_cite(c) for c in (*rule.citations, *rule.clauses.values()))
        note = f" ({rule.note})" if rule.note else ""
        keys = ", ".join(f"`{k}`" for k in rule.parameters) or "—"
        calls = "<br>".join(signature(f) for f in rule.functions)
        rows.append(
            f"| `{rule.question}` | {calls} | {rule.label} | {'; '.join(cited)}{note} | {keys} |"
        )
    return "\n".join(rows) + "\n"


def trace_rule_table() -> str:
    """Return the Markdown table of the rule ids of the trace (docs/data_schema.md).

    One row per rule the engine writes a step of, in the engine's order (the library
    questions write no step); the exemptions of ``rules/exempt`` are one row, their ids
    listed in docs/rules.md.
    """
    rows = ["| `rule_id` | label | citations |", "| --- | --- | --- |"]
    exemptions = rules_of("exemption")
    # the sections the exemptions are of: each one's citation without its subdivision
    sections = dict.fromkeys(short_cite(r.citations[0].split(",")[0]) for r in exemptions)
    for rule in rules_of():
        if rule.kind == "question" or (rule.kind == "exemption" and rule is not exemptions[0]):
            continue
        if rule.kind == "exemption":
            rows.append(
                f"| `exemption.<topic>.<clause>` | every other exemption tried on an impact "
                f'({len(exemptions)} rules, e.g. `{rule.id}`: docs/rules.md, "The rules") | '
                f"{'; '.join(sections)} |"
            )
            continue
        cited = "; ".join(dict.fromkeys(short_cite(c) for c in rule.citations)) or "—"
        rows.append(f"| `{rule.id}` | {rule.label} | {cited} |")
    return "\n".join(rows) + "\n"


#: The tables of the library questions (rules of kind ``question`` of the rule spec) and of
#: the rule ids of the trace.
QUESTION_TABLES = (
    ("docs/rules.md", "question-table", question_table),
    ("docs/data_schema.md", "trace-rule-table", trace_rule_table),
)

#: Every generated table: the wetland rules', the library questions' and the water-use rules'.
TABLES = (*DOC_TABLES, *QUESTION_TABLES, *WATER_USE_TABLES)


def between(text: str, name: str) -> tuple[int, int]:
    """Return the span of the text between the markers ``name`` (ValueError when absent)."""
    start, end = f"<!-- {name}:start -->\n", f"<!-- {name}:end -->"
    if start not in text or end not in text:
        raise ValueError(f"markers {start.strip()} and {end} are missing")
    first = text.index(start) + len(start)
    return first, text.index(end, first)


def main(argv: list[str] | None = None) -> int:
    """Print, write or check the generated tables; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="rewrite the tables")
    mode.add_argument("--check", action="store_true", help="exit 1 when a table is stale")
    args = parser.parse_args(argv)
    stale = []
    texts: dict[str, str] = {}
    for doc, name, render in TABLES:
        text = texts.setdefault(doc, (ROOT / doc).read_text(encoding="utf-8"))
        first, last = between(text, name)
        table = render()
        if text[first:last] != table:
            stale.append(f"{doc}: {name}")
            texts[doc] = text[:first] + table + text[last:]
    if args.write:
        for doc, text in texts.items():
            (ROOT / doc).write_text(text, encoding="utf-8")
    for item in stale:
        print(f"{'rewritten' if args.write else 'stale'}: {item}")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
