"""``--claim NAME[=yes|no|unknown]`` and ``--reading cumulative_limit=...`` (issue 32, "Also").

A claim is a fact of another exemption that only a person can confirm (§ 103G.2241;
``ExemptionClaims``): ``no`` makes the clause that needs it fail, ``unknown`` leaves it
conditional, ``NAME`` alone still means yes. Parsed by the CLI's parser only (fast).
"""

from __future__ import annotations

import argparse

import pytest

from wetland_gis.cli import build_parser, main
from wetland_gis.commands import _exemption_claims, _reading_claims
from wetland_gis.errors import InputError
from wetland_gis.rules.exempt import CLAIMS, ExemptionClaims


def _args(*extra: str) -> argparse.Namespace:
    return build_parser().parse_args(["assess", "x.gpkg", "--out", "o.gpkg", *extra])


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        pytest.param("corps_404_permit", True, id="subd. 1(5): NAME alone means yes"),
        pytest.param("corps_404_permit=yes", True, id="subd. 1(5): yes"),
        pytest.param("corps_404_permit=no", False, id="subd. 1(5): no, the clause fails"),
        pytest.param("corps_404_permit=NO", False, id="subd. 1(5): the answer's case is free"),
        pytest.param("corps_404_permit=unknown", None, id="subd. 1(5): unknown, not claimed"),
    ],
)
def test_a_claim_takes_yes_no_or_unknown(given, expected):
    claims = _exemption_claims(_args("--claim", given))
    assert isinstance(claims, ExemptionClaims)
    assert claims.corps_404_permit is expected


def test_several_claims_each_keep_their_answer():
    claims = _exemption_claims(
        _args("--claim", "swampbuster=no", "--claim", "avoided_minimized", "--claim", CLAIMS[0])
    )
    assert claims.swampbuster is False
    assert claims.avoided_minimized is True
    assert getattr(claims, CLAIMS[0]) is True


def test_a_claim_answered_two_ways_is_an_error():
    with pytest.raises(InputError, match="corps_404_permit is given as both True and False"):
        _exemption_claims(_args("--claim", "corps_404_permit", "--claim", "corps_404_permit=no"))


@pytest.mark.parametrize(
    ("given", "match"),
    [
        pytest.param("corps_404=yes", "not one of", id="an unknown claim"),
        pytest.param("corps_404_permit=maybe", "yes, no, unknown", id="an unknown answer"),
    ],
)
def test_a_bad_claim_exits_2_naming_what_is_allowed(given, match, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["assess", "x.gpkg", "--out", "o.gpkg", "--claim", given])
    assert stop.value.code == 2
    assert match in capsys.readouterr().err


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        pytest.param((), "reached", id="subd. 9(f): the default reading"),
        pytest.param(("--reading", "cumulative_limit=exceeded"), "exceeded", id="9(f): exceeded"),
    ],
)
def test_the_cumulative_limit_reading_reaches_the_claims(given, expected):
    assert _reading_claims(_args(*given)).cumulative_limit_reading == expected
