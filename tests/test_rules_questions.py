"""The library questions in the one rule spec (issue 33, "One rule model").

Each public function of the rules core that answers one legal question with a
:class:`~wetland_gis.decision.Decision` records it with ``Trace("<question>", ...)``; each
question is a rule of kind ``question`` in ``wetland_gis/rules/spec.py`` with its label, the
citations it can cite and the parameter keys it reads. The citations a question writes are
taken from its entry, and their text stays what it was: the expected strings below were
written from the code before the citations moved into the spec.
"""

from __future__ import annotations

import ast
import fnmatch
import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import area_from_figures
from hypothesis import example, given, settings, strategies as st

import wetland_gis
from wetland_gis.decision import Decision
from wetland_gis.enums import PercentageArea, ShorelandZone, SitingTier
from wetland_gis.errors import RulesInputError
from wetland_gis.parameters import default_parameters
from wetland_gis.rules import (
    SitingPlace,
    bank_fees,
    de_minimis_allowance,
    in_metropolitan_area,
    next_tier_condition,
    percentage_area_of_county,
    priority,
    public_comment_required,
    public_waters,
    public_waters_wetland,
    replacement,
    replacement_action_eligibility,
    replacement_ratio,
    replacement_required,
    revised_application_requires_notice,
    sequencing_without_alternatives_analysis,
    siting_tier,
    spec,
)
from wetland_gis.rules.facts import Trace
from wetland_gis.rules.priority import option_ratio

DAY = "2024-05-01"
GT80, LT50 = PercentageArea.GREATER_THAN_80, PercentageArea.LESS_THAN_50
STAT, RULE = "Minn. Stat. § ", "Minn. R. "
#: A reclassification's source, supplied by the caller (cited as given, not from the spec).
BOARD_ORDER = "Board order 2020-01"


def _required() -> Decision:
    ratio = replacement_ratio(LT50, False, as_of=DAY)
    return replacement_required(43560, ratio, cultivated_field=True)


def _place(**kw: Any) -> SitingPlace:
    return SitingPlace(**kw)


#: (case, question, call, the citations the Decision carries, literally).
CASES: list[tuple[str, str, Callable[[], Decision], tuple[str, ...]]] = [
    (
        "withdrawal fee, § 103G.2242, subd. 14(a)(3)",
        "bank_fees",
        lambda: bank_fees(10_000, "withdrawal", as_of=DAY),
        (STAT + "103G.2242, subd. 14(a)(3)",),
    ),
    (
        "maintenance fee at its cap, § 103G.2242, subd. 14(a)(1)",
        "bank_fees",
        lambda: bank_fees(1e9, "maintenance", as_of=DAY),
        (STAT + "103G.2242, subd. 14(a)(1)",),
    ),
    (
        "a more restrictive local standard, § 103G.2241, subd. 9(i)",
        "de_minimis_allowance",
        lambda: de_minimis_allowance(
            2, ShorelandZone.OUTSIDE, GT80, False, local_limit_sqft=100, as_of=DAY
        ),
        (STAT + "103G.2241, subd. 9(a)(1)", STAT + "103G.2241, subd. 9(i)"),
    ),
    (
        "type 7 in a metro less than 50 percent area has no amount, subd. 9(d)(2), (a)(3)",
        "de_minimis_allowance",
        lambda: de_minimis_allowance(7, ShorelandZone.OUTSIDE, LT50, True, as_of=DAY),
        (STAT + "103G.2241, subd. 9(d)(2)", STAT + "103G.2241, subd. 9(a)(3)"),
    ),
    (
        "Wright County is in the 11-county metropolitan area, subd. 9(d)",
        "in_metropolitan_area",
        lambda: in_metropolitan_area("Wright County", as_of=DAY),
        (STAT + "103G.2241, subd. 9(d)",),
    ),
    (
        "the next level opens when tier 1 falls short, § 103G.222, subd. 3(d)-(f)",
        "next_tier_condition",
        lambda: next_tier_condition(2.0, {1: 0.5, 3: 10.0}, as_of=DAY),
        (
            STAT + "103G.222, subd. 3(d)",
            STAT + "103G.222, subd. 3(e)",
            STAT + "103G.222, subd. 3(f)",
        ),
    ),
    (
        "the level is met at tier 1: no subd. 3(f)",
        "next_tier_condition",
        lambda: next_tier_condition(1.0, {1: 2.0}, as_of=DAY),
        (STAT + "103G.222, subd. 3(d)", STAT + "103G.222, subd. 3(e)"),
    ),
    (
        "an after-the-fact ratio for one option cites nothing of its own",
        "option_ratio",
        lambda: option_ratio(4.0, after_the_fact_multiplier=2.0, as_of=DAY),
        (),
    ),
    (
        "a board reclassification wins, Minn. R. 8420.0117, subp. 2; § 103G.222, subd. 1(o)",
        "percentage_area",
        lambda: percentage_area_of_county(
            "Itasca", override=LT50, override_citation=BOARD_ORDER, as_of=DAY
        ),
        (RULE + "8420.0117, subp. 2", STAT + "103G.222, subd. 1(o)", BOARD_ORDER),
    ),
    (
        "Itasca County by its listing, Minn. R. 8420.0117, subp. 1",
        "percentage_area",
        lambda: percentage_area_of_county("Itasca", as_of=DAY),
        (RULE + "8420.0117, subp. 1",),
    ),
    (
        "80 percent intact without an extra condition is subd. 10h",
        "percentage_area",
        lambda: area_from_figures(100, 85, 1000, 50, 100),
        (STAT + "103G.005, subd. 10h", STAT + "103G.005, subd. 10b"),
    ),
    (
        "80 percent intact with both extra conditions is subd. 10b",
        "percentage_area",
        lambda: area_from_figures(100, 85, 1000, 150, 600),
        (
            STAT + "103G.005, subd. 10b(1)",
            STAT + "103G.005, subd. 10b(2)",
            STAT + "103G.005, subd. 10b",
        ),
    ),
    (
        "public comment over the threshold, § 103G.2242, subd. 8",
        "public_comment_required",
        lambda: public_comment_required(20_000, as_of=DAY),
        (STAT + "103G.2242, subd. 8",),
    ),
    (
        "a 12-acre type 3 wetland in an unincorporated area, § 103G.005, subd. 15a, 19(b)",
        "public_waters_wetland",
        lambda: public_waters_wetland(3, 12.0, False, as_of=DAY),
        (STAT + "103G.005, subd. 15a", STAT + "103G.005, subd. 19(b)"),
    ),
    (
        "no action given, § 103G.222, subd. 1(i)",
        "replacement_action",
        lambda: replacement_action_eligibility(None, LT50, as_of=DAY),
        (STAT + "103G.222, subd. 1(i)",),
    ),
    (
        "restoration is eligible anywhere, § 103G.222, subd. 1(i)",
        "replacement_action",
        lambda: replacement_action_eligibility("restoration", LT50, as_of=DAY),
        (STAT + "103G.222, subd. 1(i)",),
    ),
    (
        "an action established in rule, § 103G.2242, subd. 12(c)",
        "replacement_action",
        lambda: replacement_action_eligibility("xyz", LT50, rule_actions={"xyz": "R"}, as_of=DAY),
        (STAT + "103G.2242, subd. 12(c)",),
    ),
    (
        "an unnamed action in a greater than 80 percent area, subd. 1(i)",
        "replacement_action",
        lambda: replacement_action_eligibility("xyz", GT80, as_of=DAY),
        (STAT + "103G.222, subd. 1(i)",),
    ),
    (
        "after the fact on nonagricultural land, § 103G.222, subd. 1(f), (n)",
        "replacement_ratio",
        lambda: replacement_ratio(
            LT50, False, after_the_fact=True, after_the_fact_multiplier=2.0, as_of=DAY
        ),
        (STAT + "103G.222, subd. 1(f)", STAT + "103G.222, subd. 1(n)"),
    ),
    (
        "a cultivated field is replaced by restoration only, § 103G.222, subd. 1(c)",
        "replacement_required",
        _required,
        (STAT + "103G.222, subd. 1(f)", STAT + "103G.222, subd. 1(c)"),
    ),
    (
        "a 20 percent larger revised application, § 103G.2242, subd. 6(b)(1)",
        "revised_application_requires_notice",
        lambda: revised_application_requires_notice(10_000, 12_000, 10.0, as_of=DAY),
        (STAT + "103G.2242, subd. 6(b)(1)",),
    ),
    (
        "sequencing on site, § 103G.222, subd. 1(b), last sentence",
        "sequencing_without_alternatives_analysis",
        lambda: sequencing_without_alternatives_analysis(5000, 10_000, as_of=DAY),
        (STAT + "103G.222, subd. 1(b), last sentence",),
    ),
    (
        "an impact outside a > 80 percent area is not replaced in one, subd. 3(a); 10b",
        "siting_tier",
        lambda: siting_tier(
            _place(bsa=7, pct_class=LT50), _place(bsa=7, pct_class=GT80), is_bank=True, as_of=DAY
        ),
        (STAT + "103G.222, subd. 3(a)", STAT + "103G.005, subd. 10b"),
    ),
    (
        "a site in the same minor watershed, subd. 3(a)(1)",
        "siting_tier",
        lambda: siting_tier(
            _place(minor="1", major=7, bsa=2, pct_class=LT50),
            _place(minor="1", major=7, bsa=2, pct_class=LT50),
            is_bank=False,
            as_of=DAY,
        ),
        (STAT + "103G.222, subd. 3(a)(1)",),
    ),
    (
        "a site in the same major watershed, subd. 3(a)(2)",
        "siting_tier",
        lambda: siting_tier(
            _place(minor="1", major=7, bsa=2), _place(minor="2", major=7, bsa=2), is_bank=False
        ),
        (STAT + "103G.222, subd. 3(a)", STAT + "103G.222, subd. 3(a)(2)"),
    ),
    (
        "a bank begins at clause (3), subd. 3(c), 3(a)(3)",
        "siting_tier",
        lambda: siting_tier(
            _place(minor="1", major=7, bsa=2),
            _place(minor="2", major=7, bsa=2),
            is_bank=True,
            as_of=DAY,
        ),
        (
            STAT + "103G.222, subd. 3(a)",
            STAT + "103G.222, subd. 3(c)",
            STAT + "103G.222, subd. 3(a)(3)",
        ),
    ),
    (
        "a site in another bank service area, subd. 3(a)(4)",
        "siting_tier",
        lambda: siting_tier(_place(bsa=2), _place(bsa=3), is_bank=False, as_of=DAY),
        (STAT + "103G.222, subd. 3(a)", STAT + "103G.222, subd. 3(a)(4)"),
    ),
]

QUESTIONS = (
    "bank_fees",
    "de_minimis_allowance",
    "in_metropolitan_area",
    "next_tier_condition",
    "option_ratio",
    "percentage_area",
    "public_comment_required",
    "public_waters_wetland",
    "replacement_action",
    "replacement_ratio",
    "replacement_required",
    "revised_application_requires_notice",
    "sequencing_without_alternatives_analysis",
    "siting_tier",
)


def test_the_cases_call_every_question():
    assert sorted({question for _, question, _, _ in CASES}) == sorted(QUESTIONS)


@pytest.mark.parametrize(
    ("question", "call", "want"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_each_question_cites_the_same_text(question, call, want):
    """The citation text of every question's Decision is byte for byte what it was."""
    decision = call()
    assert decision.question == question
    assert decision.citations == want


# --- the spec entry of each question ---------------------------------------------------


def _rules_of(question: str) -> list[spec.Rule]:
    """Return the question's spec entry and the entries of the questions it carries."""
    rule = spec.question(question)
    return [rule, *(spec.question(q) for q in rule.carries)]


def _keys(patterns: tuple[str, ...]) -> list[str]:
    """Return the parameter keys of the shipped tree that ``patterns`` (``x.*``) name."""
    tree = default_parameters()
    return [k for k in tree if any(fnmatch.fnmatchcase(k, p) for p in patterns)]


@functools.cache
def _citable(question: str) -> frozenset[str]:
    """Return every citation the spec lets a question write.

    Its citations and keyed sub-citations, the citation of each parameter it reads, and the
    references held in a parameter's table (``replacement.actions``); the same for the
    questions whose Decision it carries.
    """
    tree = default_parameters()
    out: set[str] = set()
    for rule in _rules_of(question):
        out.update(rule.citations, rule.clauses.values())
        for key in _keys(rule.parameters):
            out.add(tree.citation(key))
            value = tree.value(key, DAY)
            if isinstance(value, dict):
                out.update(v["reference"] for v in value.values() if "reference" in v)
    return frozenset(out)


def test_rules_of_question_lists_the_14_questions():
    rules = spec.rules_of("question")
    assert sorted(r.question for r in rules) == sorted(QUESTIONS)
    for rule in rules:
        assert rule.id == "question." + rule.question
        assert spec.RULE_SPECS[rule.id] is rule is spec.QUESTIONS[rule.question]
        assert rule.label and rule.citations and rule.step is None
    # a bare question name as the id would collide with the engine's "public_waters_wetland"
    assert set(spec.QUESTIONS) & set(spec.RULE_SPECS) == {"public_waters_wetland"}


@pytest.mark.parametrize(
    ("question", "call", "want"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_every_citation_a_question_writes_is_in_its_spec_entry(question, call, want):
    cited = set(call().citations) - {BOARD_ORDER}  # the caller's own source, cited as given
    assert cited <= _citable(question), sorted(cited - _citable(question))


@pytest.mark.parametrize(
    ("question", "call", "want"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_every_parameter_a_question_reads_is_in_its_spec_entry(question, call, want):
    patterns = tuple(p for rule in _rules_of(question) for p in rule.parameters)
    read = set(call().parameters)
    assert read <= set(_keys(patterns)), sorted(read - set(_keys(patterns)))


def test_a_question_without_a_spec_entry_is_refused():
    with pytest.raises(RulesInputError, match=r"question 'no_such_question' has no entry.*spec"):
        Trace("no_such_question", None, DAY)
    with pytest.raises(KeyError, match=r"'no_such_question' has no entry.*known: \['bank_fees'"):
        spec.question("no_such_question")


def test_every_trace_of_the_package_names_a_question_of_the_spec():
    """A ``Trace("<question>", ...)`` in the package names a question the spec lists."""
    package = Path(wetland_gis.__file__).parent
    texts = (path.read_text(encoding="utf-8") for path in package.rglob("*.py"))
    named = {
        node.args[0].value
        for text in texts
        if "Trace(" in text
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "Trace"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    }
    assert named == set(spec.QUESTIONS) == set(QUESTIONS)


def test_the_question_modules_take_their_citations_from_the_spec():
    """The citation constants of the question modules are their spec entries' clauses."""
    assert priority.CITE_TIER == {
        t: spec.question("siting_tier").clause(f"3(a)({int(t)})") for t in SitingTier
    }
    assert public_waters.OUTSIDE_WCA == spec.question("public_waters_wetland").clause("19(b)")
    assert replacement.CULTIVATED_FIELD == spec.question("replacement_required").clause("1(c)")


def test_the_question_table_of_the_docs_is_generated_from_the_spec():
    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root / "tools"))
    try:
        import spec_docs
    finally:
        sys.path.remove(str(root / "tools"))
    text = (root / "docs" / "rules.md").read_text(encoding="utf-8")
    first, last = spec_docs.between(text, "question-table")
    table = spec_docs.question_table()
    assert text[first:last] == table, "regenerate it: python tools/spec_docs.py --write"
    assert [line.split("`")[1] for line in table.splitlines()[2:]] == [
        r.question for r in spec.rules_of("question")
    ]


_PLACES = st.builds(
    SitingPlace,
    minor=st.sampled_from([None, "1", "2"]),
    major=st.sampled_from([None, 7, 8]),
    bsa=st.sampled_from([None, 2, 3]),
    pct_class=st.sampled_from([None, *PercentageArea]),
)


@settings(max_examples=60)
@given(impact=_PLACES, option=_PLACES, is_bank=st.booleans())
@example(
    impact=SitingPlace(bsa=7, pct_class=LT50),
    option=SitingPlace(bsa=7, pct_class=GT80),
    is_bank=True,
)
def test_every_siting_tier_cites_only_its_spec_entry(impact, option, is_bank):
    """Whatever is known of the two places, § 103G.222, subd. 3 is cited from the spec."""
    cited = set(siting_tier(impact, option, is_bank=is_bank, as_of=DAY).citations)
    assert cited <= _citable("siting_tier"), sorted(cited - _citable("siting_tier"))


@settings(max_examples=60)
@given(
    wetland_type=st.integers(1, 8),
    zone=st.sampled_from(list(ShorelandZone)),
    pct_class=st.sampled_from(list(PercentageArea)),
    metro=st.booleans(),
    cedar=st.booleans(),
    local=st.sampled_from([None, 0.0, 50.0, 20_000.0]),
)
@example(
    wetland_type=7,
    zone=ShorelandZone.OUTSIDE,
    pct_class=LT50,
    metro=True,
    cedar=False,
    local=None,
)
def test_every_de_minimis_allowance_cites_only_its_spec_entry(
    wetland_type, zone, pct_class, metro, cedar, local
):
    """Subd. 9(a)-(d) from the amount table's parameters, subd. 9(i) from the spec."""
    decision = de_minimis_allowance(
        wetland_type,
        zone,
        pct_class,
        metro,
        cedar_tamarack=cedar,
        local_limit_sqft=local,
        as_of=DAY,
    )
    cited = set(decision.citations)
    assert cited <= _citable("de_minimis_allowance"), sorted(
        cited - _citable("de_minimis_allowance")
    )
