"""Write the tables of the rules and their facts into the documents, from the rule spec.

Every table of :data:`wetland_gis.exemption_catalog.DOC_TABLES` (the engine's order, the
exemptions, the rules of ``rules/exempt`` and their facts in ``docs/rules.md``; the field
roles in ``docs/data_schema.md``; the README's exemption list), the table of the library
questions (:func:`question_table`, ``docs/rules.md``) and of
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
import sys
from pathlib import Path

from wetland_gis.exemption_catalog import DOC_TABLES
from wetland_gis.rules.spec import STATUTE_PREFIX, rules_of
from wetland_gis.water_use.framework import DOC_TABLES as WATER_USE_TABLES

ROOT = Path(__file__).resolve().parents[1]


def question_table() -> str:
    """Return the Markdown table of the library questions (docs/rules.md, "Rules implemented").

    One row per rule of kind ``question``: the question as ``Decision.question`` writes it,
    its label, the citations its entry holds (with the keyed sub-citations its code writes)
    and the parameter keys it reads (their citations are ``wca.yaml``'s).
    """
    rows = ["| question | label | citations | parameter keys |", "| --- | --- | --- | --- |"]
    for rule in rules_of("question"):
        cited = dict.fromkeys(
            c.replace(STATUTE_PREFIX, "§ ") for c in (*rule.citations, *rule.clauses.values())
        )
        note = f" ({rule.note})" if rule.note else ""
        keys = ", ".join(f"`{k}`" for k in rule.parameters) or "—"
        rows.append(f"| `{rule.question}` | {rule.label} | {'; '.join(cited)}{note} | {keys} |")
    return "\n".join(rows) + "\n"


#: The table of the library questions (rules of kind ``question`` of the rule spec).
QUESTION_TABLES = (("docs/rules.md", "question-table", question_table),)

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
