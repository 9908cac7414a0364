"""The project decision engine, rules.decide_project (issue 13): the project-level law.

Case ids name the paragraph; every limit is tested on both sides.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers import AS_OF, GT80, LT50, UNKNOWN_OWNER_FLOOR, decide, fill_fact, steps_of
from hypothesis import given, settings, strategies as st

from wetland_gis.enums import ImpactOutcome, ProjectOutcome
from wetland_gis.errors import RulesInputError
from wetland_gis.rules import (
    READINGS,
    TRACE_COLUMNS,
    Claims,
    ImpactFacts,
    decide_project,
    decide_projects,
)

fact = fill_fact


def outcomes(d):
    return {i.impact_id: i.outcome.value for i in d.impacts}


# --- 1. the whole project to replacement (Minn. R. 8420.0420, subp. 1) ---------------------

WHOLE_PROJECT = [
    pytest.param(
        [fact("A", 2, 6000), fact("B", 3, 100)],
        "de_minimis_exempt",
        id="8420.0420 subp. 1: 6,000 of type 2 and 100 of type 3 are each within",
    ),
    pytest.param(
        [fact("A", 2, 6000), fact("B", 3, 101)],
        "replacement_required",
        id="8420.0420 subp. 1: type 3 one sq ft over sends type 2 to replacement too",
    ),
    pytest.param(
        [fact("A", 2, 10_000), fact("B", 2, 0.5)],
        "replacement_required",
        id="subd. 9(a)(1): 10,000.5 sq ft of type 2 is over: the whole is replaced",
    ),
]


@pytest.mark.parametrize(("impacts", "expected"), WHOLE_PROJECT)
def test_whole_project_goes_to_replacement(impacts, expected):
    d = decide(*impacts, clause_reading="per_clause")
    assert set(outcomes(d).values()) == {expected}
    if expected == "replacement_required":
        for i in d.impacts:  # the entire amount, not only the excess
            assert i.replace_acres == pytest.approx(i.area_sqft / 43_560 * i.ratio)
        assert any("entire amount" in s["reason"] for s in d.steps())


# --- 2. no combining of (a), (b) and (c) on a project (subd. 9(e)) ------------------------

COMBINING = [
    pytest.param(
        [fact("A", 2, 5000), fact("B", 2, protection=400)],
        400,
        "replacement_required",
        id="subd. 9(e): (a) and (b) in one type group: all held to (b)(1) 400",
    ),
    pytest.param(
        [fact("A", 2, 300), fact("B", 3, protection=100)],
        400,
        "de_minimis_exempt",
        id="subd. 9(e): type 2 outside with type 3 in the zone: type 2 held to (b)(1)",
    ),
    pytest.param(
        [fact("A", 2, 401), fact("B", 3, protection=100)],
        400,
        "replacement_required",
        id="subd. 9(e): across type groups, 401 sq ft of type 2 is over (b)(1)",
    ),
    pytest.param(
        [fact("A", 2, 10), fact("B", 2, setback=10)],
        20,
        "de_minimis_exempt",
        id="subd. 9(c): 20 sq ft in all, setback zone touched: within (c)",
    ),
    pytest.param(
        [fact("A", 2, 11), fact("B", 2, setback=10)],
        20,
        "replacement_required",
        id="subd. 9(c): 21 sq ft in all, setback zone touched: over (c)",
    ),
]


@pytest.mark.parametrize(("impacts", "amount", "expected"), COMBINING)
def test_amounts_of_paragraphs_are_not_combined(impacts, amount, expected):
    d = decide(*impacts, clause_reading="per_clause")  # paragraphs, not clauses
    assert set(outcomes(d).values()) == {expected}
    a = d.by_impact["A"]
    assert a.allowance_sqft == amount
    steps = [s for s in d.steps() if s["rule_id"] == "de_minimis.paragraph"]
    assert len(steps) == 1 and steps[0]["citation"].endswith("subd. 9(e)")


def test_one_clause_reading_is_the_stricter_default_and_names_the_alternative():
    impacts = [fact("A", 2, 5000), fact("B", 3, 50)]
    default = decide(*impacts)
    # the whole project (5,050 sq ft) against the smallest clause amount, (a)(4) 100
    assert default.outcome is ProjectOutcome.REPLACEMENT_REQUIRED
    assert decide(*impacts, clause_reading="per_clause").outcome is (
        ProjectOutcome.DE_MINIMIS_EXEMPT
    )
    step = next(s for s in default.steps() if s["rule_id"] == "reading.clause_reading")
    assert step["inputs"]["reading"] == "one_clause" and step["inputs"]["differs"]
    assert step["inputs"]["alternative_outcome"] == "de_minimis_exempt"
    assert default.totals["alternatives"]["clause_reading"]["alternative"] == "per_clause"
    assert step["verify"]


def test_an_unknown_clause_reading_is_refused():
    with pytest.raises(RulesInputError, match="clause_reading"):
        Claims(clause_reading="per_zone")


# --- 3. public waters wetlands ------------------------------------------------------------


@pytest.mark.parametrize(
    ("pct", "land_use", "ratio"),
    [
        pytest.param(LT50, "nonagricultural", 2, id="§ 103G.222 subd. 1(f): 2:1 nonagricultural"),
        pytest.param(LT50, "agricultural", 1, id="§ 103G.222 subd. 1(g): 1:1 agricultural land"),
        pytest.param(GT80, "nonagricultural", 1, id="§ 103G.222 subd. 1(g): 1:1 in >80 area"),
    ],
)
def test_public_waters_wetland_is_replaced_at_the_ratio_and_routed_to_the_dnr(pct, land_use, ratio):
    d = decide(fact("P", 3, 50_000, pct=pct, public_waters_wetland=True, land_use=land_use))
    p = d.by_impact["P"]
    assert p.outcome is ImpactOutcome.REPLACEMENT_REQUIRED
    assert p.route == "DNR public waters"
    assert p.ratio == ratio
    assert p.de_minimis is None  # subd. 19(b): no de minimis amount applies
    step = next(s for s in d.steps() if s["rule_id"] == "public_waters_wetland")
    # issue 18, C: a fill cites the public-waters-work permit, not only subd. 19(b)
    assert step["citation"] == "Minn. Stat. § 103G.005, subd. 19(b), 15a; § 103G.245, subd. 1(2), 7"
    assert any("subd. 5(b)" in v for v in step["verify"])
    assert any("size alone" in v for v in step["verify"])  # § 103G.201 is the authority
    assert d.totals["public_waters_sqft"] == pytest.approx(50_000)


def test_a_public_waters_wetland_does_not_count_in_the_de_minimis_totals():
    d = decide(fact("A", 2, 9000), fact("P", 3, 50_000, public_waters_wetland=True))
    assert d.by_impact["A"].outcome is ImpactOutcome.DE_MINIMIS_EXEMPT
    assert d.totals["counted_sqft"] == pytest.approx(59_000)  # but in the project totals


# --- 4. impact kind (§ 103G.222 subd. 1(a); Minn. R. 8420.0522 subp. 2) -------------------

KINDS = [
    pytest.param(
        dict(wtype=3, impact_kind="excavate", flooded=True),
        "replacement_required",
        id="subd. 1(a): excavation in a flooded type 3 area is covered",
    ),
    pytest.param(
        dict(wtype=5, impact_kind="excavate", flooded=None),
        "replacement_required",
        id="subd. 1(a): type 5 excavation of unknown regime is treated as covered",
    ),
    pytest.param(
        dict(wtype=3, impact_kind="excavate", flooded=False),
        "not_a_drain_or_fill",
        id="subd. 1(a): excavation in a type 3 area not flooded is not a drain or fill",
    ),
    pytest.param(
        dict(wtype=2, impact_kind="excavate"),
        "not_a_drain_or_fill",
        id="subd. 1(a): excavation alone in a type 2 wetland is not a drain or fill",
    ),
    pytest.param(
        dict(wtype=3, impact_kind="unknown"),
        "replacement_required",
        id="subd. 1(a): an unknown kind is decided as a drain or fill",
    ),
]


@pytest.mark.parametrize(("kw", "expected"), KINDS)
def test_impact_kind(kw, expected):
    wtype = kw.pop("wtype")
    d = decide(fact("X", wtype, 5000, **kw))
    x = d.by_impact["X"]
    assert x.outcome.value == expected
    step = next(s for s in d.steps() if s["rule_id"] == "impact_kind")
    if expected == "not_a_drain_or_fill":
        assert x.counted_sqft == 0 and any("spoil" in v for v in step["verify"])
        assert d.outcome is ProjectOutcome.NO_DRAIN_OR_FILL


@pytest.mark.parametrize(
    ("kind", "public_waters", "citation", "unknown"),
    [
        pytest.param(
            "fill", False, "Minn. Stat. § 103G.222, subd. 1(a)", False, id="subd. 1(a): a fill"
        ),
        pytest.param(
            "unknown",
            False,
            "Minn. Stat. § 103G.222, subd. 1(a)",
            True,
            id="subd. 1(a): an unknown kind is decided as a drain or fill, and says so",
        ),
        pytest.param(
            "drain",
            True,
            "Minn. Stat. § 103G.221",
            False,
            id="§ 103G.221: draining a public waters wetland",
        ),
        pytest.param(
            "unknown",
            True,
            "Minn. Stat. § 103G.245, subd. 1(2)",
            True,
            id="§ 103G.245: a public waters wetland of unknown kind, and says so",
        ),
    ],
)
def test_a_regulated_drain_or_fill_step_counts_its_whole_area(
    kind, public_waters, citation, unknown
):
    d = decide(fact("X", 3, 5000, impact_kind=kind, public_waters_wetland=public_waters))
    (step,) = steps_of(d, "impact_kind", "X")
    assert step["outcome"] == "regulated"
    assert step["value"] == pytest.approx(5000)
    assert step["citation"] == citation
    assert any("impact kind was not given" in v for v in step["verify"]) is unknown
    assert step["inputs"]["area_sqft"] == pytest.approx(5000)


@pytest.mark.parametrize(
    ("sqft", "expected"),
    [
        pytest.param(
            2000.0,
            "de_minimis_exempt",
            id="8420.0522 subp. 2: 2,000 sq ft partly drained counts 1,000 = (d)(2)",
        ),
        pytest.param(
            2002.0,
            "replacement_required",
            id="8420.0522 subp. 2: 2,002 sq ft partly drained counts 1,001 > (d)(2)",
        ),
    ],
)
def test_partial_drainage_counts_at_least_half(sqft, expected):
    d = decide(
        fact(
            "D", 2, sqft, pct=LT50, metro=True, impact_kind="drain", partial=True, partial_share=0.5
        )
    )
    assert d.by_impact["D"].outcome.value == expected
    assert d.by_impact["D"].counted_sqft == pytest.approx(sqft / 2)


def test_partial_drainage_without_the_assessed_share_is_only_conditionally_exempt():
    # Minn. R. 8420.0522 subp. 2: "at least 50 percent ... determined by an assessment
    # acceptable to the technical evaluation panel": the floor is counted, never plain exempt
    d = decide(fact("D", 2, 2000.0, pct=LT50, metro=True, impact_kind="drain", partial=True))
    assert d.by_impact["D"].outcome is ImpactOutcome.DE_MINIMIS_CONDITIONAL
    assert d.by_impact["D"].counted_sqft == pytest.approx(1000)
    project = next(s for s in d.steps() if s["rule_id"] == "de_minimis.project")
    assert "partial_share" in project["reason"]


def test_a_totally_drained_area_counts_whole():
    d = decide(fact("D", 2, 2000, pct=LT50, metro=True, impact_kind="drain"))
    assert d.by_impact["D"].counted_sqft == 2000
    assert d.by_impact["D"].outcome is ImpactOutcome.REPLACEMENT_REQUIRED


def test_only_a_drain_can_be_partial():
    with pytest.raises(RulesInputError, match="only a drain can be partial"):
        fact("F", 2, 100, partial=True)


def test_an_impact_without_exemption_facts_tries_no_other_exemption():
    # the fast path: one shared "not tried" step, the outcome of step 4 kept
    d = decide(fact("A", 1, 30_000, pct=LT50, impact_kind="drain", land_use="agricultural"))
    assert d.by_impact["A"].outcome is ImpactOutcome.REPLACEMENT_REQUIRED
    assert d.by_impact["A"].exemptions == () and d.exemption is None
    steps = [s for s in d.steps() if s["rule_id"].startswith("exemption.")]
    assert [(s["impact_id"], s["outcome"]) for s in steps] == [("A", "not_applied")]
    assert "were not tried" in steps[0]["reason"]


# --- 3 (issue section 3). facts per wetland: subd. 9(f) -----------------------------------


def test_unknown_ownership_gives_a_conditional_outcome_naming_the_fact():
    d = decide(fact("A", 2, 9000, owns_whole_wetland=None))
    assert d.outcome is ProjectOutcome.DE_MINIMIS_CONDITIONAL
    assert d.by_impact["A"].outcome is ImpactOutcome.DE_MINIMIS_CONDITIONAL
    step = next(s for s in d.steps() if s["rule_id"] == "de_minimis.cumulative")
    assert step["outcome"] == "conditional"
    assert "owns the entire wetland" in step["reason"] and "otherwise the limit" in step["reason"]


@pytest.mark.parametrize(
    ("prior", "owns", "portion", "expected"),
    [
        pytest.param(0, True, 43_560, "exempt", id="subd. 9(f)(1): owner of the whole wetland"),
        pytest.param(
            1000,
            True,
            43_560,
            "exempt",
            id="subd. 9(f)(1): 1,000 prior + 9,000 = 10,000, at the amount",
        ),
        pytest.param(
            1001,
            True,
            43_560,
            "not_exempt",
            id="subd. 9(f)(1): 1,001 prior + 9,000 is over the amount",
        ),
        pytest.param(
            1001,
            True,
            None,
            "conditional",
            id="subd. 9(f)(2): over the amount, portion unknown: conditional",
        ),
        pytest.param(
            0,
            False,
            180_000,
            "not_exempt",
            id="subd. 9(f)(2): 9,000 sq ft reaches 5 percent of 180,000 (reading 'reached')",
        ),
        pytest.param(
            0,
            False,
            180_020,
            "exempt",
            id="subd. 9(f)(2): 9,000 sq ft is under 5 percent of 180,020 sq ft",
        ),
        pytest.param(
            0,
            False,
            179_999,
            "not_exempt",
            id="subd. 9(f)(2): 5 percent of 179,999 sq ft is under 9,000",
        ),
    ],
)
def test_cumulative_limit_per_landowner_portion(prior, owns, portion, expected):
    d = decide(
        fact(
            "A", 2, 9000, owns_whole_wetland=owns, portion_sqft=portion, prior_sqft_since_1992=prior
        )
    )
    step = next(s for s in d.steps() if s["rule_id"] == "de_minimis.cumulative")
    assert step["outcome"] == expected
    assert step["citation"] == "Minn. Stat. § 103G.2241, subd. 9(f)"


@pytest.mark.parametrize(("sqft", "expected"), UNKNOWN_OWNER_FLOOR)
def test_cumulative_floor_holds_whoever_owns(sqft, expected):
    d = decide(fact("A", 2, sqft, owns_whole_wetland=None))
    step = next(s for s in d.steps() if s["rule_id"] == "de_minimis.cumulative")
    assert step["outcome"] == expected


def test_one_owner_on_one_wetland_is_summed_and_different_owners_are_not_pooled():
    same = decide(
        fact("A", 2, 300, owner="X", wetland_id="w1", owns_whole_wetland=False),
        fact("B", 2, 300, owner="X", wetland_id="w1", owns_whole_wetland=False),
    )
    apart = decide(
        fact("A", 2, 300, owner="X", wetland_id="w1", owns_whole_wetland=False),
        fact("B", 2, 300, owner="Y", wetland_id="w1", owns_whole_wetland=False),
    )
    cum = [s for s in same.steps() if s["rule_id"] == "de_minimis.cumulative"]
    assert len(cum) == 1 and cum[0]["value"] == 600 and cum[0]["outcome"] == "conditional"
    cum = [s for s in apart.steps() if s["rule_id"] == "de_minimis.cumulative"]
    assert [s["outcome"] for s in cum] == ["exempt", "exempt"]
    assert apart.outcome is ProjectOutcome.DE_MINIMIS_EXEMPT


def test_isolated_wetland_takes_the_subd_9b_increase():
    base = decide(fact("A", 2, protection=900))
    up = decide(fact("A", 2, protection=900, isolated=True))
    assert base.outcome is ProjectOutcome.REPLACEMENT_REQUIRED
    assert up.outcome is ProjectOutcome.DE_MINIMIS_EXEMPT
    assert up.by_impact["A"].allowance_sqft == 1000


@pytest.mark.parametrize(
    ("flag", "reason"),
    [
        ("banked", "deposited in the wetland bank"),
        ("used_for_replacement_credit", "already used for replacement credit"),
    ],
)
def test_exemptions_do_not_apply_to_banked_or_credited_wetlands(flag, reason):
    d = decide(fact("A", 2, 10, **{flag: True}), fact("B", 2, 10))
    assert d.outcome is ProjectOutcome.REPLACEMENT_REQUIRED
    assert any(reason in s["reason"] for s in d.steps() if s["rule_id"] == "exemption_standards")


def test_a_fen_is_prohibited_and_the_project_is_not_exempt():
    d = decide(fact("F", 2, 10, calcareous_fen=True), fact("B", 2, 10))
    assert d.by_impact["F"].outcome is ImpactOutcome.PROHIBITED
    assert d.by_impact["B"].outcome is ImpactOutcome.REPLACEMENT_REQUIRED
    assert d.outcome is ProjectOutcome.PROHIBITED


# --- 7. citations ---------------------------------------------------------------------------


def test_sequencing_cites_the_last_sentence_of_subd_1b():
    d = decide(fact("A", 3, 5000))
    step = next(s for s in d.steps() if s["rule_id"] == "procedure.sequencing")
    assert step["citation"] == "Minn. Stat. § 103G.222, subd. 1(b), last sentence"


# --- the trace -----------------------------------------------------------------------------


def test_trace_has_the_contract_columns_and_one_project_outcome():
    d = decide(fact("A", 2, 500), fact("B", 3, 50))
    frame = d.trace
    assert list(frame.columns) == list(TRACE_COLUMNS)
    assert list(frame["seq"]) == list(range(len(frame)))
    assert (frame["rule_id"] == "de_minimis.project").sum() == 1
    assert all(isinstance(v, list) for v in frame["verify"])
    assert all(isinstance(v, dict) for v in frame["parameters"])
    json.dumps(d.steps(), default=str)


def test_decide_projects_shares_one_trace_and_numbers_seq_per_project():
    decisions = decide_projects({"one": [fact("A", 2, 10)], "two": [fact("A", 2, 10)]}, as_of=AS_OF)
    frame = decisions[0].log.frame()
    for _, rows in frame.groupby("project"):
        assert list(rows["seq"]) == list(range(len(rows)))
    assert decisions[1].trace["project"].unique().tolist() == ["two"]


def test_duplicate_ids_and_empty_projects_are_refused():
    with pytest.raises(RulesInputError, match="appears twice"):
        decide(fact("A", 2, 10), fact("A", 2, 10))
    with pytest.raises(RulesInputError, match="no impacts"):
        decide_project([], as_of=AS_OF)


def test_importing_the_rules_loads_no_geometry_or_mapping_library():
    code = (
        "import sys, wetland_gis.rules; "
        "print([m for m in ('geopandas', 'folium', 'rasterio', 'scipy') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- properties -----------------------------------------------------------------------------

_impacts = st.lists(
    st.builds(
        lambda t, zone, sqft, owns: fact(
            None,
            t,
            sqft if zone == 0 else 0.0,
            protection=sqft if zone == 1 else 0.0,
            setback=sqft if zone == 2 else 0.0,
            owns_whole_wetland=owns,
        ),
        st.integers(1, 8),
        st.integers(0, 2),
        st.floats(0.1, 20_000, allow_nan=False),
        st.sampled_from([True, False, None]),
    ),
    min_size=1,
    max_size=6,
)


def _ids(items):
    return [
        ImpactFacts(**{**{k: getattr(f, k) for k in f.__dataclass_fields__}, "impact_id": str(i)})
        for i, f in enumerate(items)
    ]


@settings(max_examples=150, deadline=None)
@given(_impacts)
def test_every_impact_of_a_project_shares_its_de_minimis_answer(items):
    d = decide(*_ids(items))
    answers = {i.de_minimis for i in d.impacts}
    assert len(answers) == 1  # no type group stays exempt while another is replaced
    if d.outcome is ProjectOutcome.DE_MINIMIS_EXEMPT:
        assert all(t.within for t in d.de_minimis_totals)
        assert all(i.replace_acres is None for i in d.impacts)


@settings(max_examples=150, deadline=None)
@given(_impacts, st.floats(0.1, 5_000, allow_nan=False))
def test_adding_an_impact_never_makes_a_replaced_project_exempt(items, extra):
    facts = _ids(items)
    before = decide(*facts)
    more = decide(*facts, fact("extra", 2, extra, owns_whole_wetland=True))
    if before.outcome is ProjectOutcome.REPLACEMENT_REQUIRED:
        assert more.outcome is ProjectOutcome.REPLACEMENT_REQUIRED


@settings(max_examples=100, deadline=None)
@given(_impacts, st.sampled_from(sorted(READINGS)))
def test_the_default_reading_never_exempts_what_the_other_replaces(items, name):
    # issue 18, section 3: the default never says exempt, or a smaller area, where the
    # other reading would not; the alternative is shown beside it when it differs
    facts = _ids(items)
    default = decide(*facts)
    other = decide(*facts, **{name: READINGS[name][1]})
    if other.outcome is ProjectOutcome.REPLACEMENT_REQUIRED:
        assert default.outcome in (ProjectOutcome.REPLACEMENT_REQUIRED, ProjectOutcome.PROHIBITED)
    assert default.totals["replace_acres"] >= other.totals["replace_acres"] - 1e-9
    shown = default.totals["alternatives"].get(name)
    if shown is not None and shown["differs"]:
        assert shown["alternative_outcome"] == other.outcome.value


@pytest.mark.parametrize(
    ("claims", "multiplier"),
    [
        pytest.param({}, 1.0, id="103G.222 subd. 1(g): not after the fact, the multiplier is 1"),
        pytest.param(
            {"after_the_fact": True, "after_the_fact_multiplier": 2.0},
            2.0,
            id="103G.222 subd. 1(n): the after-the-fact multiplier is carried in the decision",
        ),
    ],
)
def test_impact_decision_carries_the_after_the_fact_multiplier(claims, multiplier):
    """Siting reads the multiplier inside the decided ratio from the decision (assess writes
    ``atf_multiplier`` from ``ImpactDecision.multiplier``); it is not the claim re-read."""
    replaced = fact("big", outside=20_000.0)  # over the (a)(1) amount: replaced
    d = decide(replaced, **claims).by_impact["big"]
    assert d.outcome is ImpactOutcome.REPLACEMENT_REQUIRED
    assert d.multiplier == multiplier
    assert d.ratio == 1.0 * multiplier  # subd. 1(g): 1:1 in a greater than 80 percent area
    exempt = decide(fact("small", outside=100.0), **claims).by_impact["small"]
    assert exempt.ratio is None and exempt.multiplier is None
