"""The library questions in the one rule spec (issue 33, "One rule model").

Each public function of the rules core that answers one legal question with a
:class:`~wetland_gis.decision.Decision` records it with ``Trace("<question>", ...)``; each
question is a rule of kind ``question`` in ``wetland_gis/rules/spec.py`` with its label, the
citations it can cite and the parameter keys it reads. The citations a question writes are
taken from its entry, and their text stays what it was: the expected strings below were
written from the code before the citations moved into the spec.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from wetland_gis.decision import Decision
from wetland_gis.enums import PercentageArea, ShorelandZone
from wetland_gis.rules import (
    SitingPlace,
    bank_fees,
    de_minimis_allowance,
    in_metropolitan_area,
    next_tier_condition,
    percentage_area_from_figures,
    percentage_area_of_county,
    public_comment_required,
    public_waters_wetland,
    replacement_action_eligibility,
    replacement_ratio,
    replacement_required,
    revised_application_requires_notice,
    sequencing_without_alternatives_analysis,
    siting_tier,
)
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
        lambda: percentage_area_from_figures(
            presettlement_wetland_acres=100,
            remaining_wetland_acres=85,
            land_area_acres=1000,
            wetland_acres=50,
            public_land_acres=100,
            as_of=DAY,
        ),
        (STAT + "103G.005, subd. 10h", STAT + "103G.005, subd. 10b"),
    ),
    (
        "80 percent intact with both extra conditions is subd. 10b",
        "percentage_area",
        lambda: percentage_area_from_figures(
            presettlement_wetland_acres=100,
            remaining_wetland_acres=85,
            land_area_acres=1000,
            wetland_acres=150,
            public_land_acres=600,
            as_of=DAY,
        ),
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
