"""The one registry of rules (wetland_gis/rules/registry.py, issue 18 section 1)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import wetland_gis
from wetland_gis.labels import rule_label
from wetland_gis.mapping.popups import RULE_STEPS
from wetland_gis.rules import READINGS, Claims, ImpactFacts, decide_projects
from wetland_gis.rules.registry import READING_RULES, RULES, rule

PACKAGE = Path(wetland_gis.__file__).parent
SOURCES = {p: p.read_text(encoding="utf-8") for p in PACKAGE.rglob("*.py")}


@pytest.mark.parametrize("rule_id", sorted(r for r in RULES if "." in r))
def test_each_rule_id_is_written_in_one_definition_only(rule_id):
    quoted = (f'"{rule_id}"', f"'{rule_id}'")
    found = sorted(
        str(p.relative_to(PACKAGE))
        for p, text in SOURCES.items()
        if any(q in line for line in text.splitlines() for q in quoted if ">>>" not in line)
    )
    # every rule, the exemptions too, is written in the one rule spec
    assert found == ["rules/spec.py"], found


def test_every_rule_the_engine_writes_is_registered_and_labelled():
    rng = random.Random(18)
    projects = {}
    kinds = ["fill", "drain", "excavate", "unknown"]
    for p in range(400):
        pct = rng.choice(["greater_than_80_percent", "50_to_80_percent", "less_than_50_percent"])
        metro = rng.random() < 0.4
        facts = []
        for i in range(rng.randint(1, 4)):
            zones = [0.0, 0.0, 0.0]
            zones[rng.randrange(3)] = float(rng.choice([10, 50, 101, 400, 2_000, 20_000]))
            kind = rng.choice(kinds)
            facts.append(
                ImpactFacts(
                    impact_id=f"{p}-{i}",
                    wetland_type=rng.randint(1, 8),
                    cedar_tamarack=False,
                    sqft_setback=zones[0],
                    sqft_protection=zones[1],
                    sqft_outside=zones[2],
                    pct_class=pct,
                    metro=metro,
                    impact_kind=kind,
                    partial=kind == "drain" and rng.random() < 0.5,
                    public_waters_wetland=rng.random() < 0.1,
                    calcareous_fen=rng.random() < 0.05,
                    below_ohwl=rng.choice([True, False, None]),
                    runoff_retention=rng.choice([True, None]),
                    owner=rng.choice(["X", "Y"]),
                    owns_whole_wetland=rng.choice([True, False, None]),
                    wetland_acres=rng.choice([None, 1.0, 20.0]),
                )
            )
        projects[f"P{p}"] = facts
    log = decide_projects(projects, Claims(), as_of="2024-05-01")[0].log
    written = set(log.columns["rule_id"])
    assert written <= set(RULES), sorted(written - set(RULES))
    assert {"reading.clause_reading", "public_waters_work", "calcareous_fen"} <= written
    for rule_id in written:
        assert rule_label(rule_id) == RULES[rule_id].label
        if RULES[rule_id].step is not None:
            assert RULE_STEPS[rule_id] == RULES[rule_id].step


def test_each_open_reading_has_a_registered_step():
    assert set(READING_RULES) == set(READINGS)
    for rule_id in READING_RULES.values():
        assert rule(rule_id).citations


def test_an_unknown_rule_id_names_the_known_ones():
    with pytest.raises(KeyError, match="unknown rule id 'no.such'"):
        rule("no.such")


def test_every_rule_step_is_a_decision_chain_step_with_its_defining_provision():
    """The popup's decision chain reads its steps and their defining provisions from the
    registry (``CHAIN_STEPS``); every rule's ``step`` is one of them."""
    from wetland_gis.mapping.popups import STEP_CITATIONS
    from wetland_gis.rules.registry import CHAIN_STEPS

    assert STEP_CITATIONS is CHAIN_STEPS
    steps = {r.step for r in RULES.values() if r.step is not None}
    assert steps <= set(CHAIN_STEPS), sorted(steps - set(CHAIN_STEPS))
    assert all(CHAIN_STEPS[s] for s in CHAIN_STEPS)
