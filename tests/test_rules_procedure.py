"""Procedural thresholds: § 103G.222, subd. 1(b), last sentence; § 103G.2242, subd. 6(b), 8, 14."""

from __future__ import annotations

import pytest
from helpers import GT80, LT50, MID, decide, fill_fact, paragraph_params, steps_of

from wetland_gis.enums import Outcome
from wetland_gis.errors import RulesInputError
from wetland_gis.rules import (
    bank_fees,
    public_comment_required,
    revised_application_requires_notice,
    sequencing_without_alternatives_analysis,
)

AS_OF = "2024-05-01"

# (sentence, total sq ft, applicable amount, outcome)
SEQUENCING = [
    (
        "§ 103G.222 subd. 1(b), end: 20,000 sq ft with a 10,000 sq ft amount may be sequenced "
        "on site without a written alternatives analysis",
        20_000,
        10_000,
        Outcome.ELIGIBLE,
    ),
    (
        "§ 103G.222 subd. 1(b), end: 20,001 sq ft with a 10,000 sq ft amount needs analysis",
        20_001,
        10_000,
        Outcome.NOT_ELIGIBLE,
    ),
    (
        "§ 103G.222 subd. 1(b), end: 12,000 sq ft with a 2,000 sq ft amount may be sequenced "
        "on site",
        12_000,
        2_000,
        Outcome.ELIGIBLE,
    ),
    (
        "§ 103G.222 subd. 1(b), end: 12,001 sq ft with a 2,000 sq ft amount needs the analysis",
        12_001,
        2_000,
        Outcome.NOT_ELIGIBLE,
    ),
]


@pytest.mark.parametrize(("total", "amount", "outcome"), paragraph_params(SEQUENCING))
def test_sequencing(total, amount, outcome):
    d = sequencing_without_alternatives_analysis(total, amount, as_of=AS_OF)
    assert d.outcome is outcome
    assert d.citations == ("Minn. Stat. § 103G.222, subd. 1(b), last sentence",)
    assert any("option" in v for v in d.verify)
    assert d.amounts["threshold_sqft"] == amount + 10_000


# (sentence, total sq ft, outcome)
COMMENT = [
    (
        "§ 103G.2242 subd. 8: a 9,999 sq ft impact has no public comment period",
        9_999,
        Outcome.NOT_REQUIRED,
    ),
    (
        "§ 103G.2242 subd. 8: a 10,000 sq ft impact is not 'less than 10,000' and has one",
        10_000,
        Outcome.REQUIRED,
    ),
    ("§ 103G.2242 subd. 8: a 50,000 sq ft impact has one", 50_000, Outcome.REQUIRED),
]


@pytest.mark.parametrize(("total", "outcome"), paragraph_params(COMMENT))
def test_public_comment(total, outcome):
    d = public_comment_required(total, as_of=AS_OF)
    assert d.outcome is outcome
    assert d.citations == ("Minn. Stat. § 103G.2242, subd. 8",)
    if outcome is Outcome.REQUIRED:
        assert d.amounts["min_days"] == 15


# (sentence, original, revised, moved feet, outcome)
REVISED = [
    (
        "§ 103G.2242 subd. 6(b)(1): a revision exactly 10 percent larger is an application",
        10_000,
        11_000,
        0,
        Outcome.REQUIRED,
    ),
    (
        "§ 103G.2242 subd. 6(b)(1): a revision 9.99 percent larger is not",
        10_000,
        10_999,
        0,
        Outcome.NOT_REQUIRED,
    ),
    (
        "§ 103G.2242 subd. 6(b)(2): a revision 501 feet away is an application",
        10_000,
        10_000,
        501,
        Outcome.REQUIRED,
    ),
    (
        "§ 103G.2242 subd. 6(b)(2): a revision exactly 500 feet away is not",
        10_000,
        10_000,
        500,
        Outcome.NOT_REQUIRED,
    ),
    (
        "§ 103G.2242 subd. 6(b): a smaller revision in place is not",
        10_000,
        5_000,
        0,
        Outcome.NOT_REQUIRED,
    ),
]


@pytest.mark.parametrize(
    ("original", "revised", "moved", "outcome"),
    paragraph_params(REVISED),
)
def test_revised_application(original, revised, moved, outcome):
    d = revised_application_requires_notice(original, revised, moved, as_of=AS_OF)
    assert d.outcome is outcome


def test_revised_application_cites_what_fired():
    d = revised_application_requires_notice(1_000, 1_100, 600, as_of=AS_OF)
    assert d.citations == (
        "Minn. Stat. § 103G.2242, subd. 6(b)(1)",
        "Minn. Stat. § 103G.2242, subd. 6(b)(2)",
    )
    with pytest.raises(RulesInputError, match="greater than 0"):
        revised_application_requires_notice(0, 10, 0, as_of=AS_OF)


# (sentence, credit value, transaction, fee)
FEES = [
    (
        "§ 103G.2242 subd. 14(a)(1): maintenance on $40,000 of credits is 1 percent, $400",
        40_000,
        "maintenance",
        400.0,
    ),
    (
        "§ 103G.2242 subd. 14(a)(1): maintenance on $50,000 is exactly the $500 cap",
        50_000,
        "maintenance",
        500.0,
    ),
    (
        "§ 103G.2242 subd. 14(a)(1): maintenance on $60,000 is capped at $500",
        60_000,
        "maintenance",
        500.0,
    ),
    (
        "§ 103G.2242 subd. 14(a)(2): a deposit of $10,000 of credits is 6.5 percent, $650",
        10_000,
        "deposit",
        650.0,
    ),
    (
        "§ 103G.2242 subd. 14(a)(2): an establishment on $20,000 is capped at $1,000",
        20_000,
        "establishment",
        1_000.0,
    ),
    ("§ 103G.2242 subd. 14(a)(2): a transfer of $15,000 is $975", 15_000, "transfer", 975.0),
    (
        "§ 103G.2242 subd. 14(a)(3): a withdrawal of $100,000 is 6.5 percent, $6,500, uncapped",
        100_000,
        "withdrawal",
        6_500.0,
    ),
]


@pytest.mark.parametrize(("value", "transaction", "fee"), paragraph_params(FEES))
def test_bank_fees(value, transaction, fee):
    d = bank_fees(value, transaction, as_of=AS_OF)
    assert d.value == pytest.approx(fee)
    assert d.citations[0].startswith("Minn. Stat. § 103G.2242, subd. 14(a)")


def test_bank_fee_errors():
    with pytest.raises(RulesInputError, match=r"expected to be in \['maintenance'"):
        bank_fees(100, "sale", as_of=AS_OF)
    with pytest.raises(RulesInputError, match="0 or more"):
        bank_fees(-1, "deposit", as_of=AS_OF)


@pytest.mark.parametrize(
    ("original", "revised"),
    [
        pytest.param(
            7_024,
            7_726.4,
            id="§ 103G.2242 subd. 6(b)(1): 7,024 to 7,726.4 sq ft is "
            "exactly ten percent larger and is an application",
        ),
        pytest.param(
            5_175.1,
            5_692.61,
            id="§ 103G.2242 subd. 6(b)(1): 5,175.1 to 5,692.61 sq ft "
            "is exactly ten percent larger and is an application",
        ),
    ],
)
def test_a_revision_exactly_ten_percent_larger_in_decimals_is_an_application(original, revised):
    d = revised_application_requires_notice(original, revised, 0, as_of=AS_OF)
    assert d.outcome is Outcome.REQUIRED
    assert d.amounts["increase_percent"] == 10


@pytest.mark.parametrize("reading", ["smallest_amount", "most_area"])
@pytest.mark.parametrize(
    ("pct", "sqft"),
    [
        pytest.param(
            GT80, 15_000, id="§ 103G.222 subd. 1(b), end: >80 area, 15,000 sq ft of type 2"
        ),
        pytest.param(
            GT80, 20_001, id="§ 103G.222 subd. 1(b), end: >80, one sq ft over 10,000+10,000"
        ),
        pytest.param(MID, 12_000, id="§ 103G.222 subd. 1(b), end: 50-80 area, 12,000 sq ft"),
        pytest.param(LT50, 11_000, id="§ 103G.222 subd. 1(b), end: <50 area, 11,000 sq ft"),
    ],
)
def test_the_other_sequencing_reading_shown_is_the_answer_under_it(reading, pct, sqft):
    """The other reading's answer, decided beside the default's, is that reading's answer."""
    impacts = (fill_fact("A", 2, sqft, pct=pct), fill_fact("B", 3, 200, pct=pct))
    (step,) = steps_of(decide(*impacts, sequencing_reading=reading), "reading.sequencing_reading")
    other = step["inputs"]["alternative"]
    assert other != reading
    under_other = decide(*impacts, sequencing_reading=other)
    assert (
        step["inputs"]["alternative_sequencing_on_site"]
        == (under_other.totals["sequencing_on_site"])
    )
