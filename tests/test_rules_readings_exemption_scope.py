"""The open reading of Minn. R. 8420.0420, subp. 1 C: an exemption covering some impacts.

"Exemptions may not be combined on a project. A project exempt only by using two different
exemptions for different impacts is not exempt" (subp. 1 C); "an activity is exempt if it
qualifies for any one of the exemptions" (§ 103G.2241, subd. 11(b)). Default
``whole_project``: one exemption covering only some impacts exempts none of them; the
alternative ``covered_impacts`` (the covered impacts exempt, only the rest replaced) is
shown beside it (``reading.exemption_scope_reading``).
"""

from __future__ import annotations

import pytest
from helpers import fill_fact
from hypothesis import given, settings, strategies as st

from wetland_gis.enums import ImpactOutcome, Outcome, ProjectOutcome
from wetland_gis.errors import RulesInputError
from wetland_gis.rules import READINGS, Claims, decide_project
from wetland_gis.rules.exempt import ExemptionFacts, decide_exemptions, spec_of, wildlife
from wetland_gis.rules.registry import READING_RULES, rule

AS_OF = "2024-05-01"
NAME = "exemption_scope_reading"
STEP = READING_RULES[NAME]
ONE = spec_of(decide_exemptions).rule_id
DUCK = spec_of(wildlife.duck_blinds).rule_id
CLEAN = {
    "calcareous_fen": False,
    "banked": False,
    "used_for_replacement_credit": False,
    "remainder_newly_qualifies": False,
}


def fact(iid, sqft=30_000.0, *, exemption=None):
    return fill_fact(iid, 2, sqft, exemption=exemption)


def duck(**kw):
    return ExemptionFacts(**{**CLEAN, "duck_blind": True, **kw})


def decide(*impacts, reading=None):
    claims = Claims() if reading is None else Claims(exemption_scope_reading=reading)
    return decide_project(list(impacts), claims, as_of=AS_OF)


def reading_steps(d):
    return [s for s in d.steps() if s["rule_id"] == STEP]


def test_the_reading_is_registered_with_its_default_first():
    assert READINGS[NAME] == ("whole_project", "covered_impacts")
    assert Claims().exemption_scope_reading == "whole_project"
    assert "Minn. R. 8420.0420, subp. 1 C" in rule(STEP).citations
    with pytest.raises(RulesInputError, match=NAME):
        Claims(exemption_scope_reading="every_impact")


@pytest.mark.parametrize(
    ("reading", "a", "b", "project"),
    [
        pytest.param(
            None,
            ImpactOutcome.REPLACEMENT_REQUIRED,
            ImpactOutcome.REPLACEMENT_REQUIRED,
            ProjectOutcome.REPLACEMENT_REQUIRED,
            id="8420.0420 subp. 1 C whole_project (default): the covered impact is not exempt",
        ),
        pytest.param(
            "covered_impacts",
            ImpactOutcome.EXEMPT,
            ImpactOutcome.REPLACEMENT_REQUIRED,
            ProjectOutcome.REPLACEMENT_REQUIRED,
            id="8420.0420 subp. 1 C covered_impacts: the covered impact exempt, the rest replaced",
        ),
    ],
)
def test_one_exemption_covering_some_impacts_on_both_readings(reading, a, b, project):
    d = decide(fact("A", exemption=duck()), fact("B"), reading=reading)
    assert (d.by_impact["A"].outcome, d.by_impact["B"].outcome) == (a, b)
    assert d.outcome is project
    assert d.exemption is None  # no exemption carries the project under either reading
    covered = reading == "covered_impacts"
    assert d.by_impact["A"].exemptions == ((DUCK,) if covered else ())
    assert (d.by_impact["A"].replace_acres is None) is covered
    assert d.by_impact["B"].replace_acres is not None
    (project_step,) = [s for s in d.steps() if s["rule_id"] == ONE and not s["impact_id"]]
    assert project_step["outcome"] == Outcome.NOT_EXEMPT.value


def test_the_default_names_the_reading_and_shows_the_alternative_beside_it():
    d = decide(fact("A", exemption=duck()), fact("B"))
    other = decide(fact("A", exemption=duck()), fact("B"), reading="covered_impacts")
    (step,) = reading_steps(d)
    shown = d.totals["alternatives"][NAME]
    assert shown["reading"] == "whole_project" and shown["alternative"] == "covered_impacts"
    assert shown["differs"] is True
    assert shown["alternative_outcome"] == other.outcome.value
    assert shown["alternative_replace_acres"] == other.totals["replace_acres"]
    assert shown["alternative_exempt_sqft"] == other.totals["exempt_sqft"] == 30_000.0
    assert d.totals["exempt_sqft"] == 0.0
    # the default never replaces less than the alternative (issue 18, section 3)
    assert d.totals["replace_acres"] > other.totals["replace_acres"]
    assert step["citation"].startswith("Minn. R. 8420.0420, subp. 1 C")
    assert "'whole_project' (the default)" in step["reason"]
    assert "exempt area 30,000 sq ft instead of 0" in step["reason"]
    assert step["verify"] and "Claims.exemption_scope_reading" in step["verify"][0]


def test_the_alternative_chosen_names_itself_and_shows_the_default_beside_it():
    d = decide(fact("A", exemption=duck()), fact("B"), reading="covered_impacts")
    (step,) = reading_steps(d)
    assert "(the default is 'whole_project')" in step["reason"]
    shown = d.totals["alternatives"][NAME]
    assert shown["differs"] is True and shown["alternative_exempt_sqft"] == 0.0
    (project_step,) = [s for s in d.steps() if s["rule_id"] == ONE and not s["impact_id"]]
    assert "Reading 'covered_impacts'" in project_step["reason"]


def test_an_unknown_claim_stays_conditional_under_the_covered_reading():
    # an unscreened exclusion (subp. 1 B) caps the covered impact at conditional
    d = decide(fact("A", exemption=duck(calcareous_fen=None)), fact("B"), reading="covered_impacts")
    assert d.by_impact["A"].outcome is ImpactOutcome.EXEMPT_CONDITIONAL


@pytest.mark.parametrize(
    "impacts",
    [
        pytest.param(
            lambda: [fact("A", exemption=duck()), fact("B", exemption=duck())],
            id="subd. 11(b): one exemption covers every impact, no reading step",
        ),
        pytest.param(
            lambda: [fact("A", 50.0, exemption=duck()), fact("B", 50.0)],
            id="subd. 9(g): de minimis covers the project, no reading step",
        ),
        pytest.param(lambda: [fact("A"), fact("B")], id="no exemption fact, no reading step"),
    ],
)
def test_no_reading_step_when_the_answer_does_not_depend_on_it(impacts):
    for reading in READINGS[NAME]:
        d = decide(*impacts(), reading=reading)
        assert reading_steps(d) == []
        assert NAME not in d.totals["alternatives"]
    whole = decide(*impacts())
    other = decide(*impacts(), reading="covered_impacts")
    assert [i.outcome for i in whole.impacts] == [i.outcome for i in other.impacts]


def test_a_project_wholly_covered_is_exempt_on_both_readings():
    for reading in READINGS[NAME]:
        d = decide(fact("A", exemption=duck()), fact("B", exemption=duck()), reading=reading)
        assert d.outcome is ProjectOutcome.EXEMPT and d.exemption == DUCK


_flag = st.sampled_from([True, False, None])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(1.0, 40_000.0, allow_nan=False), _flag, _flag),
        min_size=1,
        max_size=4,
    )
)
def test_the_default_never_exempts_what_covered_impacts_replaces(rows):
    """Issue 18 §3: under the default no impact is exempt (or less replaced) where the
    alternative replaces it; the alternative shown is the alternative decided."""
    impacts = [
        fact(
            f"I{n}",
            sqft,
            exemption=None if blind is None else duck(duck_blind=blind, calcareous_fen=fen),
        )
        for n, (sqft, blind, fen) in enumerate(rows)
    ]
    default = decide(*impacts)
    other = decide(*impacts, reading="covered_impacts")
    replaced = ImpactOutcome.REPLACEMENT_REQUIRED
    for a, b in zip(default.impacts, other.impacts, strict=True):
        if b.outcome is replaced:
            assert a.outcome is replaced
    assert default.totals["exempt_sqft"] <= other.totals["exempt_sqft"]
    assert default.totals["replace_acres"] >= other.totals["replace_acres"] - 1e-9
    shown = default.totals["alternatives"].get(NAME)
    if shown is not None and shown["differs"]:
        assert shown["alternative_outcome"] == other.outcome.value
        assert shown["alternative_exempt_sqft"] == other.totals["exempt_sqft"]
    if default.totals["exempt_sqft"] != other.totals["exempt_sqft"]:
        assert shown is not None and shown["differs"]
