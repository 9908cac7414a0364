"""AssessOptions holds the run's Claims (issue 18 §1): built in one place, recorded as before."""

from __future__ import annotations

import dataclasses
import pickle

import pytest
from hypothesis import given, strategies as st

import wetland_gis as wg
from wetland_gis.assess import CLAIM_OPTIONS, AssessOptions
from wetland_gis.errors import RulesInputError
from wetland_gis.rules import Claims

#: The manifest's settings keys before Claims moved inside (their order is the contract).
SETTINGS_KEYS = [
    "multi_zone_reading",
    "tolerance_percent",
    "shoreland_increase",
    "setback_increase",
    "local_limit_sqft",
    "cumulative_sqft_since_1992",
    "other_exemption_claimed",
    "exemption_claims",
    "after_the_fact",
    "after_the_fact_multiplier",
    "assume_no_public_waters",
    "clause_reading",
    "owns_whole_wetland",
    "fen_review_ft",
]

flags = st.one_of(st.none(), st.booleans())
areas = st.one_of(st.none(), st.floats(min_value=0, max_value=1e6, allow_nan=False))


@given(
    st.fixed_dictionaries(
        {
            "shoreland_increase": flags,
            "setback_increase": flags,
            "local_limit_sqft": areas,
            "cumulative_sqft_since_1992": areas,
            "other_exemption_claimed": flags,
            "owns_whole_wetland": flags,
            "clause_reading": st.sampled_from([None, "one_clause", "per_clause"]),
        }
    )
)
def test_each_keyword_sets_its_claim_and_only_it(given_):
    options = AssessOptions(**given_)
    default = Claims()
    for option, claim in CLAIM_OPTIONS.items():
        value = given_.get(option)
        expected = getattr(default, claim) if value is None else value
        assert getattr(options.claims, claim) == expected, option


def test_subd_9f_prior_area_keyword_is_the_claims_prior_sqft():
    """§ 103G.2241, subd. 9(f): the option's name differs from the claim's; mapped once."""
    assert AssessOptions(cumulative_sqft_since_1992=500.0).claims.prior_sqft_since_1992 == 500.0


def test_subd_1n_after_the_fact_claim_is_kept_whole():
    claims = Claims(after_the_fact=True, after_the_fact_multiplier=2.0)
    options = AssessOptions(claims=claims)
    assert options.claims is claims
    assert AssessOptions(after_the_fact_multiplier=3.0, claims=claims).claims == (
        dataclasses.replace(claims, after_the_fact_multiplier=3.0)
    )


def test_settings_keep_the_manifest_keys_and_order():
    settings = AssessOptions(cumulative_sqft_since_1992=12.0, fen_review_ft=50.0).settings()
    assert list(settings) == SETTINGS_KEYS
    assert settings["cumulative_sqft_since_1992"] == 12.0
    assert settings["fen_review_ft"] == 50.0


def test_a_reading_other_than_its_default_is_recorded():
    claims = Claims(sequencing_reading="most_area")
    settings = AssessOptions(claims=claims).settings()
    assert list(settings) == [*SETTINGS_KEYS, "sequencing_reading"]
    assert settings["sequencing_reading"] == "most_area"


def test_subd_9e_per_zone_reading_and_unknown_clause_reading_are_refused():
    with pytest.raises(RulesInputError, match="per_zone"):
        AssessOptions(multi_zone_reading="per_zone")
    with pytest.raises(RulesInputError, match="clause_reading"):
        AssessOptions(clause_reading="every_clause")


def test_options_are_frozen_comparable_replaceable_and_picklable():
    options = AssessOptions(tolerance_percent=2.0, shoreland_increase=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.tolerance_percent = 3.0  # type: ignore[misc]
    assert options == AssessOptions(tolerance_percent=2.0, shoreland_increase=True)
    assert options != AssessOptions(tolerance_percent=2.0)
    again = dataclasses.replace(options, fen_review_ft=10.0)
    assert again.claims == options.claims and again.fen_review_ft == 10.0
    assert pickle.loads(pickle.dumps(options)) == options


def test_the_claims_reach_the_engine():
    """§ 103G.222, subd. 1(n): the multiplier decided with is the one in the options."""
    import geopandas as gpd
    from shapely.geometry import box

    layer = gpd.GeoDataFrame(
        {"impact_id": ["A"], "circ39": ["3"], "impact_kind": ["fill"]},
        geometry=[box(420000, 5000000, 420100, 5000100)],
        crs="EPSG:26915",
    )
    options = AssessOptions(
        assume_no_public_waters=True, after_the_fact=True, after_the_fact_multiplier=2.0
    )
    a = wg.assess(layer, as_of="2024-05-01", options=options)
    assert a.manifest.settings["after_the_fact_multiplier"] == 2.0
    row = a.impacts.iloc[0]
    assert row["outcome"] == "replacement_required"  # 10,000 sq ft of type 3 fill
    assert row["atf_multiplier"] == 2.0
