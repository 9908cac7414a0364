"""Public waters wetlands, Minn. Stat. § 103G.005, subd. 15a and 19(b)."""

from __future__ import annotations

import pytest
from helpers import paragraph_params

from wetland_gis.enums import Outcome, WetlandType
from wetland_gis.errors import RulesInputError
from wetland_gis.rules import public_waters_wetland

AS_OF = "2024-05-01"

# (sentence, types, acres, incorporated, is a public waters wetland)
CASES = [
    (
        "§ 103G.005 subd. 15a: a 10-acre type 3 wetland in an unincorporated area is a public "
        "waters wetland",
        3,
        10.0,
        False,
        True,
    ),
    (
        "§ 103G.005 subd. 15a: a 9.99-acre type 3 wetland in an unincorporated area is not",
        3,
        9.99,
        False,
        False,
    ),
    (
        "§ 103G.005 subd. 15a: a 2.5-acre type 5 wetland in a city is a public waters wetland",
        5,
        2.5,
        True,
        True,
    ),
    ("§ 103G.005 subd. 15a: a 2.49-acre type 5 wetland in a city is not", 5, 2.49, True, False),
    (
        "§ 103G.005 subd. 15a: a 5-acre type 4 wetland in an unincorporated area is not",
        4,
        5.0,
        False,
        False,
    ),
    (
        "§ 103G.005 subd. 15a: a 50-acre type 2 wetland is not (types 3, 4, 5 only)",
        2,
        50.0,
        False,
        False,
    ),
    (
        "§ 103G.005 subd. 15a: a 12-acre type 3/4 complex in an unincorporated area is one",
        [3, 4],
        12.0,
        False,
        True,
    ),
]


@pytest.mark.parametrize(
    ("types", "acres", "incorporated", "expected"),
    paragraph_params(CASES),
)
def test_public_waters_wetland(types, acres, incorporated, expected):
    d = public_waters_wetland(types, acres, incorporated, as_of=AS_OF)
    assert d.value is expected
    if expected:
        assert d.outcome is Outcome.OUT_OF_SCOPE
        assert "Minn. Stat. § 103G.005, subd. 19(b)" in d.citations
    else:
        assert d.outcome is Outcome.CLASSIFIED
    assert "Minn. Stat. § 103G.005, subd. 15a" in d.citations


def test_unknown_size_is_a_verify_item():
    d = public_waters_wetland(WetlandType.TYPE_4, None, False, as_of=AS_OF)
    assert d.outcome is Outcome.NOT_ASSESSED
    assert d.value is False
    assert any("Measure the whole wetland" in v for v in d.verify)


def test_mixed_complex_is_flagged():
    d = public_waters_wetland([2, 3], 30.0, False, as_of=AS_OF)
    assert d.value is True
    assert any("complex" in v for v in d.verify)


def test_inputs_are_validated():
    with pytest.raises(RulesInputError, match="empty"):
        public_waters_wetland([], 1.0, False, as_of=AS_OF)
    with pytest.raises(RulesInputError, match="True or False"):
        public_waters_wetland(3, 1.0, None, as_of=AS_OF)  # type: ignore[arg-type]
    with pytest.raises(RulesInputError, match="must be a WetlandType"):
        public_waters_wetland("3", 1.0, False, as_of=AS_OF)
    with pytest.raises(RulesInputError, match="Circular 39"):
        public_waters_wetland([3, 9], 1.0, False, as_of=AS_OF)
