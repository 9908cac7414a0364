"""docs/rules.md states every open reading and its default as the code has them (issue 32).

The defaults are read from :data:`wetland_gis.rules.kernel.READINGS` (the default first) and
the registry's :data:`~wetland_gis.rules.registry.READING_RULES`, so the page cannot drift
from the code: a default written on the page that is not the code's, a reading the page
describes that the code no longer has, or a reading of the code the page does not state,
fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wetland_gis.rules.kernel import READINGS
from wetland_gis.rules.registry import READING_RULES
from wetland_gis.rules.views import MULTI_ZONE_READINGS

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
#: A table row of "Open readings": | `field` | `default`: ... | `alternative`: ... | words |
ROW = re.compile(r"^\| `(?P<name>\w+_reading)` \| `(?P<default>\w+)`[^|]*\| `(?P<alt>\w+)`", re.M)
#: The readings the page may name that are not Claims fields: de_minimis()'s
#: ``multi_zone_reading`` (one value left, "most_restrictive").
NOT_CLAIMS = {"multi_zone_reading": MULTI_ZONE_READINGS}
#: Readings removed from the code: the page may name them only as removed.
REMOVED = ("per_zone", "per-zone")


def _rows() -> dict[str, tuple[str, str]]:
    return {m["name"]: (m["default"], m["alt"]) for m in ROW.finditer(DOC)}


def test_the_open_readings_table_has_a_row_for_every_reading_of_the_code():
    assert set(_rows()) == set(READINGS)


@pytest.mark.parametrize("name", sorted(READINGS))
def test_the_documented_default_and_alternative_are_the_codes(name):
    default, alternative = _rows()[name]
    assert (default, alternative) == READINGS[name][:2], name
    assert f"`{READING_RULES[name]}`" in DOC, READING_RULES[name]


@pytest.mark.parametrize(
    ("name", "choice"),
    [
        pytest.param(name, choice, id=f"{name}={choice}")
        for name, choices in READINGS.items()
        for choice in choices[1:]
    ],
)
def test_no_sentence_calls_an_alternative_the_default(name, choice):
    """'`per_clause` default', 'default `per_clause`', 'defaults to ... `per_clause`'."""
    wrong = re.compile(
        rf"`{choice}`\s*(?:\(the\s+)?default|default(?:s to the engine's| is| reading)?\s*"
        rf"[`'\"]{choice}[`'\"]"
    )
    found = [line for line in DOC.splitlines() if wrong.search(line)]
    assert not found, f"{choice} is not the default of {name} ({READINGS[name][0]}): {found}"


def test_every_reading_the_page_names_is_one_the_code_has():
    named = set(re.findall(r"`(\w+_reading)`", DOC))
    unknown = named - set(READINGS) - set(NOT_CLAIMS)
    assert not unknown, f"docs/rules.md names readings the code does not have: {unknown}"
    steps = set(re.findall(r"`reading\.(\w+)`", DOC))
    assert steps <= set(READINGS), steps - set(READINGS)


def test_a_removed_reading_is_named_only_as_removed():
    lines = DOC.splitlines()
    bad = []
    for i, line in enumerate(lines):
        if any(word in line for word in REMOVED):
            around = " ".join(lines[max(0, i - 2) : i + 3])
            if "removed" not in around:
                bad.append(f"docs/rules.md:{i + 1}: {line.strip()}")
    assert not bad, "a removed reading described as if it were still there:\n" + "\n".join(bad)
