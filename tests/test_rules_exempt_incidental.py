"""Incidental wetlands, Minn. Stat. § 103G.2241, subd. 5 (rules/exempt/incidental.py)."""

from __future__ import annotations

import pytest
from exempt_helpers import run

from wetland_gis.enums import Outcome
from wetland_gis.errors import RulesInputError
from wetland_gis.rules.exempt import ExemptionFacts, incidental as inc

B, C, P, X = "beaver_dam", "culvert_blockage", "other_purpose", "other"
RULES = {
    "5(1)": inc.beaver_dam_wetland,
    "5(2)": inc.culvert_blockage_wetland,
    "5(3)": inc.other_purpose_wetland,
    "5(4)": inc.combined_incidental_wetland,
}
#: What created the wetland -> the clause that exempts it (None: no clause).
TABLE = [
    ({B}, "5(1)"),
    ({C}, "5(2)"),
    ({P}, "5(3)"),
    ({B, C}, "5(4)"),
    ({B, P}, "5(4)"),
    ({B, C, P}, "5(4)"),
    ({X}, None),
    ({B, X}, None),
    ({C, P, X}, None),
]


@pytest.mark.parametrize(
    ("causes", "exempting"),
    [pytest.param(c, e, id=f"subd. 5: created by {'+'.join(sorted(c))}") for c, e in TABLE],
)
def test_created_solely_by(causes, exempting):
    for clause, function in RULES.items():
        result = run(function, created_by=frozenset(causes))
        want = Outcome.EXEMPT if clause == exempting else Outcome.NOT_EXEMPT
        assert result.outcome is want, (clause, result.reasons)


@pytest.mark.parametrize("clause", list(RULES), ids=lambda c: f"subd. {c}: cause unknown")
def test_unknown_origin_is_not_tried(clause):
    assert run(RULES[clause]).outcome is Outcome.NOT_APPLIED


@pytest.mark.parametrize("bad", [frozenset(), frozenset({"flood"})])
def test_an_unknown_cause_is_refused(bad):
    with pytest.raises(RulesInputError, match="created_by must be"):
        ExemptionFacts(created_by=bad)
