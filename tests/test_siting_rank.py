"""Ranking and the siting engine on hand-made watersheds where every tier is obvious.

The world is a strip 3,000 m wide (x from 400,000), 1,000 m high, in EPSG:26915:

    x (m):     0 ---- 500 ---- 1000 ------- 2000 ---- 2500 ---- 3000
    minor:       101  |  102   |     201     |        901
    major:        1            |      2      |         9
    BSA:                1                    |         5
    county:                 Wright (< 50 %)            | Crow Wing (> 80 %)

Impact A (type 3, 0.5 acre at ratio 2 -> 1 credit) lies in minor 101. Sites: S1 in 101
(tier 1), S2 in 102 (tier 2), S3 in 201 (tier 3), S4 in 901 in Wright (tier 4), S5 in
Crow Wing (excluded: greater than 80 percent area). Banks: 1001 in minor 101 (tier 3 -
banking begins at the service area tier), 1002 in BSA 5 (tier 4), 1003 is 404-only
(excluded), 1004 has no location but lists BSA 1 (tier 3).
"""

from __future__ import annotations

from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
import rasterio
from affine import Affine
from hypothesis import given, settings, strategies as st
from shapely.geometry import Point, box

from wetland_gis.context import load_context
from wetland_gis.errors import FieldMappingError, InputError, RulesInputError
from wetland_gis.parameters import Adjustments, RatioAdjustment
from wetland_gis.siting import (
    attribute_options,
    impact_needs,
    prepare_sites,
    rank_options,
    read_bank_listing,
    site,
    tier_gaps,
)
from wetland_gis.siting.rank import RANKING_COLUMNS, TIER_GAP_COLUMNS

CRS = "EPSG:26915"
X, Y = 400_000.0, 5_000_000.0
AS_OF = "2024-05-01"


def strip(x0: float, x1: float):
    return box(X + x0, Y, X + x1, Y + 1000)


def square(x: float, size: float = 20.0):
    return box(X + x, Y + 400, X + x + size, Y + 400 + size)


def layers(with_bsa: bool = True) -> dict[str, gpd.GeoDataFrame]:
    out = {
        "counties": gpd.GeoDataFrame(
            {"NAME": ["Wright", "Crow Wing"]}, geometry=[strip(0, 2500), strip(2500, 3000)], crs=CRS
        ),
        "major_watersheds": gpd.GeoDataFrame(
            {"major": [1, 2, 9], "major_name": ["One", "Two", "Nine"]},
            geometry=[strip(0, 1000), strip(1000, 2000), strip(2000, 3000)],
            crs=CRS,
        ),
        "minor_watersheds": gpd.GeoDataFrame(
            {"minor": ["101", "102", "201", "901"], "major": [1, 1, 2, 9]},
            geometry=[strip(0, 500), strip(500, 1000), strip(1000, 2000), strip(2000, 3000)],
            crs=CRS,
        ),
    }
    if with_bsa:
        out["bank_service_areas"] = gpd.GeoDataFrame(
            {"bsa": [1, 5]}, geometry=[strip(0, 2000), strip(2000, 3000)], crs=CRS
        )
    return out


@pytest.fixture(scope="module")
def context():
    return load_context(layers=layers(), as_of=AS_OF)


@pytest.fixture
def impacts() -> gpd.GeoDataFrame:
    return gpd.GeoDataFrame(
        {
            "impact_id": ["A", "B", "C"],
            "status": ["assessed"] * 3,
            "outcome": ["replacement_required", "replacement_required", "de_minimis_exempt"],
            "wetland_type": ["3", "2", "3"],
            "area_acres": [0.5, 1.0, 0.01],
            "ratio": [2.0, 2.0, np.nan],
            "atf_multiplier": [1.0, 1.0, np.nan],
            "replace_acres": [1.0, 2.0, 0.0],
            "permit_route": ["WCA"] * 3,
            "pct_class": ["less_than_50_percent"] * 3,
            "minor": ["101", "201", "101"],
            "major": [1, 2, 1],
            "bsa": [1, 1, 1],
            "land_use": ["nonagricultural"] * 3,
        },
        geometry=[square(100), square(1100), square(120)],
        crs=CRS,
    )


@pytest.fixture
def sites() -> gpd.GeoDataFrame:
    return gpd.GeoDataFrame(
        {
            "site_id": ["S1", "S2", "S3", "S4", "S5"],
            "action": ["restoration", "creation", "restoration", "restoration", "restoration"],
            "circ39": ["3", "2", "Type 3/4", "3", "3"],
            "credit_ac": [0.6, 1.0, 2.0, 5.0, 5.0],
            "cost_usd": [30_000, 20_000, 50_000, 10_000, 1_000],
        },
        geometry=[square(200), square(600), square(1500), square(2200), square(2700)],
        crs=CRS,
    )


def lonlat(x: float) -> tuple[float, float]:
    p = gpd.GeoSeries([Point(X + x, Y + 500)], crs=CRS).to_crs("EPSG:4326").iloc[0]
    return p.x, p.y


def bank_table(**changes) -> pd.DataFrame:
    near, far = lonlat(300), lonlat(2300)
    table = pd.DataFrame(
        {
            "bank_name": ["Near", "Far", "Fed", "Blind"],
            "account": ["1001", "1002", "1003", "1004"],
            "county": ["Wright"] * 4,
            "major": ["", "", "", ""],
            "bsa": ["", "", "", "1"],
            "circ39": ["3", "2", "3", "shallow marsh"],
            "credits": ["10", "10", "10", "0.5"],
            "price": ["12000", "6000", "1000", "9000"],
            "program": ["WCA", "both", "404", "WCA"],
            "lon": [near[0], far[0], near[0], ""],
            "lat": [near[1], far[1], near[1], ""],
        }
    )
    for k, v in changes.items():
        table[k] = v
    return table


@pytest.fixture
def bank_csv(tmp_path) -> Path:
    path = tmp_path / "banks.csv"
    bank_table().to_csv(path, index=False)
    return path


def _ranking(impacts, sites, bank_csv, context, **kw) -> pd.DataFrame:
    s, b = attribute_options(
        prepare_sites(sites), read_bank_listing(bank_csv), context, as_of=AS_OF
    )
    return rank_options(impacts, s, b, as_of=AS_OF, **kw)


@pytest.fixture
def ranking(impacts, sites, bank_csv, context) -> pd.DataFrame:
    return _ranking(impacts, sites, bank_csv, context)


def rows(ranking: pd.DataFrame, impact: str) -> pd.DataFrame:
    return ranking[ranking["impact_id"] == impact].set_index("option_id")


# --- the bank credit listing --------------------------------------------------------------


def test_a_csv_listing_is_read_into_points_in_utm(bank_csv):
    banks = read_bank_listing(bank_csv)
    assert banks.crs.to_string() == CRS
    assert list(banks["option_id"]) == ["1001", "1002", "1003", "1004"]
    assert banks.geometry.iloc[0].distance(Point(X + 300, Y + 500)) < 0.01
    assert banks.geometry.iloc[3] is None or banks.geometry.iloc[3].is_empty
    assert banks["credits"].tolist() == [10.0, 10.0, 10.0, 0.5]
    assert str(banks["bsa"].dtype) == "Int64"
    assert banks["program"].tolist() == ["WCA", "both", "404", "WCA"]


def test_listing_columns_are_matched_case_insensitively_and_accounts_made_unique(tmp_path):
    t = bank_table().rename(columns={"circ39": "Credit_Type", "price": "PRICE"})
    t["account"] = ["7", "7", "8", "9"]
    path = tmp_path / "b.csv"
    t.to_csv(path, index=False)
    banks = read_bank_listing(path)
    assert list(banks["option_id"]) == ["7", "7-2", "8", "9"]
    assert banks["circ39"].iloc[3] == "shallow marsh"


def test_a_missing_listing_column_names_the_file_and_the_columns(tmp_path):
    path = tmp_path / "b.csv"
    bank_table().drop(columns=["program", "bsa"]).to_csv(path, index=False)
    with pytest.raises(FieldMappingError, match=r"b\.csv.*lacks column\(s\) \['bsa', 'program'\]"):
        read_bank_listing(path)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"credits": ["10", "-1", "10", "0.5"]},
            r"row 2 \(line 3\): credits '-1' is not a "
            r"non-negative number",
        ),
        ({"price": ["12000", "6000", "cheap", "9000"]}, r"row 3 \(line 4\): price 'cheap'"),
        ({"program": ["WCA", "both", "federal", "WCA"]}, r"program 'federal' is not one of"),
        ({"major": ["", "99", "", ""]}, r"major '99' is not a major watershed number"),
        ({"lat": ["", "", "", ""]}, r"give both lon and lat"),
    ],
)
def test_bad_listing_values_name_row_line_and_fix(tmp_path, change, message):
    path = tmp_path / "b.csv"
    bank_table(**change).to_csv(path, index=False)
    with pytest.raises(InputError, match=message):
        read_bank_listing(path)


def test_a_geopackage_listing_is_read_and_reprojected(tmp_path):
    t = bank_table().drop(columns=["lon", "lat"])
    g = gpd.GeoDataFrame(
        t, geometry=[Point(lonlat(x)) for x in (300, 2300, 300, 310)], crs="EPSG:4326"
    )
    path = tmp_path / "banks.gpkg"
    g.to_file(path, layer="credits")
    banks = read_bank_listing(path)
    assert banks.crs.to_string() == CRS
    assert banks.geometry.iloc[1].distance(Point(X + 2300, Y + 500)) < 0.01


def test_a_missing_listing_file_is_a_clear_error(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        read_bank_listing(tmp_path / "nope.csv")


# --- placing the options ------------------------------------------------------------------


def test_options_are_placed_by_overlay_and_listing_values_win(sites, bank_csv, context):
    t = bank_table(major=["5", "", "", ""])  # the listing says major 5 for bank 1001
    s, b = attribute_options(prepare_sites(sites), read_bank_listing_frame(t), context, as_of=AS_OF)
    assert s.set_index("site_id")["minor"].to_dict() == {
        "S1": "101",
        "S2": "102",
        "S3": "201",
        "S4": "901",
        "S5": "901",
    }
    assert s.set_index("site_id").loc["S5", "pct_class"] == "greater_than_80_percent"
    b = b.set_index("option_id")
    assert b.loc["1001", "major"] == 5
    assert "major: given" in b.loc["1001", "place_source"]
    assert b.loc["1002", "bsa"] == 5
    assert "bsa: bank_service_areas" in b.loc["1002", "place_source"]
    # no location: the listing's BSA and the class of its named county
    assert b.loc["1004", "bsa"] == 1
    assert b.loc["1004", "pct_class"] == "less_than_50_percent"
    assert pd.isna(b.loc["1004", "minor"])


def read_bank_listing_frame(table: pd.DataFrame) -> gpd.GeoDataFrame:
    from wetland_gis.io.bank_listing import prepare_banks

    return prepare_banks(table, source="table")


def test_005_subd_10b_a_bsa_classed_greater_than_80_in_the_override_layer_excludes_banks(
    impacts, bank_csv
):
    more = layers()
    more["percentage_overrides"] = gpd.GeoDataFrame(
        {"pct_class": ["greater_than_80_percent"], "citation": ["BSA 1 (user)"]},
        geometry=[strip(250, 400)],
        crs=CRS,
    )
    ctx = load_context(layers=more, as_of=AS_OF)
    _, b = attribute_options(None, read_bank_listing(bank_csv), ctx, as_of=AS_OF)
    assert b.set_index("option_id").loc["1001", "pct_class"] == "greater_than_80_percent"
    r = rank_options(impacts, None, b, as_of=AS_OF)
    assert bool(rows(r, "A").loc["1001", "excluded"])


# --- ranking: one rule per test -----------------------------------------------------------


def test_subd_3a_each_site_gets_its_obvious_tier(ranking):
    a = rows(ranking, "A")
    assert a.loc["S1", "tier"] == 1
    assert a.loc["S2", "tier"] == 2
    assert a.loc["S3", "tier"] == 3
    assert a.loc["S4", "tier"] == 4
    assert a.loc["S1", "tier_label"] == "same minor watershed"


def test_subd_3a_replacement_in_a_greater_than_80_area_is_excluded_and_ranked_last(ranking):
    a = rows(ranking, "A")
    assert bool(a.loc["S5", "excluded"])
    assert pd.isna(a.loc["S5", "tier"])
    assert "greater than 80 percent" in a.loc["S5", "exclusion_reason"]
    assert "Minn. Stat. § 103G.222, subd. 3(a)" in a.loc["S5", "citations"]
    assert list(a.index[-2:]) and set(a.index[-2:]) == {"S5", "1003"}


def test_subd_3c_a_bank_in_the_impacts_minor_watershed_ranks_only_at_tier_3(ranking):
    a = rows(ranking, "A")
    assert a.loc["1001", "tier"] == 3
    assert "subd. 3(c)" in a.loc["1001", "citations"]
    assert "tie-breaker" in a.loc["1001", "reasons"]
    assert a.loc["1002", "tier"] == 4
    assert a.loc["1004", "tier"] == 3


def test_a_404_only_credit_is_ranked_but_excluded(ranking):
    a = rows(ranking, "A")
    assert bool(a.loc["1003", "excluded"])
    assert "404 program only" in a.loc["1003", "exclusion_reason"]


def test_ranking_order_tier_then_in_kind_then_cost(impacts, sites, bank_csv, context):
    # the stricter single order of subd. 3(a): same-BSA credits after tier 1 and 2 sites
    ranking = _ranking(impacts, sites, bank_csv, context, siting_reading="single_order")
    a = ranking[ranking["impact_id"] == "A"]
    assert list(a["option_id"]) == ["S1", "S2", "1004", "1001", "S3", "S4", "1002", "S5", "1003"]
    assert set(a["siting_reading"]) == {"single_order"}
    assert list(ranking.columns) == list(RANKING_COLUMNS)
    assert list(ranking["impact_id"].unique()) == ["A", "B"]  # C needs no replacement


def test_subd_3c_a_same_bsa_bank_credit_is_not_outranked_by_project_specific_sites(ranking):
    """§ 103G.222, subd. 3(c): "the priority order for replacement by wetland banking begins
    at paragraph (a), clause (3)": by default a same-BSA credit meets the priority (level 1)
    and competes with tier 1 sites on cost, then distance."""
    a = ranking[ranking["impact_id"] == "A"].set_index("option_id")
    assert a.loc["1001", "tier"] == 3 and a.loc["1001", "priority"] == 1
    assert a.loc["S2", "priority"] == 2
    order = list(a.index)
    assert order.index("1001") < order.index("S1")  # cheaper: 12,780 against 50,000
    assert set(a["siting_reading"]) == {"banking_own_order"}


def test_an_unknown_siting_reading_is_refused(impacts, sites, bank_csv, context):
    with pytest.raises(RulesInputError, match="siting reading"):
        _ranking(impacts, sites, bank_csv, context, siting_reading="per_tier")


def test_in_kind_counts_any_type_of_a_mixed_polygon(ranking):
    a, b = rows(ranking, "A"), rows(ranking, "B")
    assert bool(a.loc["S3", "in_kind"])  # type 3 impact, "Type 3/4" site
    assert not bool(b.loc["S3", "in_kind"])  # type 2 impact
    assert bool(a.loc["1004", "in_kind"])  # "shallow marsh" is type 3


def test_credits_needed_cost_and_distance(ranking):
    a = rows(ranking, "A")
    assert a.loc["S1", "ratio"] == 2.0
    assert a.loc["S1", "credits_needed"] == pytest.approx(1.0)
    assert a.loc["S1", "unit_cost"] == pytest.approx(50_000)
    assert a.loc["S1", "cost"] == pytest.approx(50_000)
    # bank: 1 credit at 12,000 plus the 6.5 % withdrawal fee (§ 103G.2242, subd. 14(a)(3))
    assert a.loc["1001", "cost"] == pytest.approx(12_780)
    assert "Minn. Stat. § 103G.2242, subd. 14(a)(3)" in a.loc["1001", "citations"]
    assert a.loc["S1", "distance_ft"] == pytest.approx(80 / 0.3048)
    assert np.isnan(a.loc["1004", "distance_ft"])


def test_user_ratio_adjustments_apply_by_relation(impacts, sites, bank_csv, context):
    adj = Adjustments(
        ratio=(
            RatioAdjustment("outside_bank_service_area", 0.5, "Minn. R. 8420.0522 (test)"),
            RatioAdjustment("out_of_kind", 0.25, "Minn. R. 8420.0522 (test)"),
        )
    )
    s, b = attribute_options(
        prepare_sites(sites), read_bank_listing(bank_csv), context, as_of=AS_OF
    )
    a = rows(rank_options(impacts, s, b, adjustments=adj, as_of=AS_OF), "A")
    assert a.loc["S1", "ratio"] == 2.0
    assert a.loc["S4", "ratio"] == 2.5  # another BSA
    assert a.loc["1002", "ratio"] == 2.75  # another BSA and type 2 for a type 3 impact
    assert a.loc["1002", "credits_needed"] == pytest.approx(0.5 * 2.75)
    assert "Minn. R. 8420.0522 (test)" in a.loc["1002", "citations"]


def test_subd_1i_a_site_whose_action_is_not_eligible_is_excluded(impacts, sites, context):
    sites.loc[1, "action"] = "preservation"
    s, _ = attribute_options(prepare_sites(sites), None, context, as_of=AS_OF)
    a = rows(rank_options(impacts, s, None, as_of=AS_OF), "A")
    assert bool(a.loc["S2", "excluded"])
    assert "credit_percentages" in a.loc["S2", "exclusion_reason"]


def test_unknown_bsa_is_not_guessed(impacts, bank_csv):
    ctx = load_context(layers=layers(with_bsa=False), as_of=AS_OF)
    _, b = attribute_options(None, read_bank_listing(bank_csv), ctx, as_of=AS_OF)
    imp = impacts.assign(bsa=[None, None, None])
    a = rows(rank_options(imp, None, b, as_of=AS_OF), "A")
    assert a.loc["1001", "tier"] == 4
    assert "bank service area of the impact and option" in a.loc["1001", "verify"]


def test_weights_order_a_tier_by_score(impacts, sites, context):
    s, _ = attribute_options(prepare_sites(sites), None, context, as_of=AS_OF)
    r = rank_options(impacts, s, None, as_of=AS_OF, weights={"cost": 0.0, "distance": 1.0})
    assert "score" in r
    assert r["score"].notna().all()


# --- impacts ------------------------------------------------------------------------------


def test_only_assessed_impacts_that_need_replacement_are_sited(impacts):
    impacts.loc[1, "status"] = "not_assessed"
    needs = impact_needs(impacts)
    assert needs["impact_id"].tolist() == ["A"]
    assert needs["acres"].tolist() == [0.5]


@pytest.mark.parametrize(
    ("by", "sited"),
    [
        pytest.param("board", [], id="§ 103G.222, subd. 1(m): the board replaces, not sited"),
        pytest.param("state_dot", ["A"], id="subd. 1(m): a state road is sited as decided"),
        pytest.param(None, ["A"], id="no road answer: sited"),
    ],
)
def test_impacts_the_board_replaces_are_not_sited(impacts, by, sited):
    impacts.loc[1, "status"] = "not_assessed"
    impacts["replacement_by"] = by
    assert impact_needs(impacts)["impact_id"].tolist() == sited


def test_impacts_without_outcome_are_rejected(impacts):
    with pytest.raises(FieldMappingError, match="outcome"):
        impact_needs(impacts.drop(columns=["outcome"]))


# --- subd. 3(d): tier gaps ----------------------------------------------------------------


def test_subd_3d_tier_gaps_show_the_short_tier_and_the_remainder(ranking):
    gaps = tier_gaps(ranking, as_of=AS_OF)
    assert list(gaps.columns) == list(TIER_GAP_COLUMNS)
    # banking_own_order (subd. 3(c)): the sites walk their own order ...
    a = gaps[(gaps["impact_id"] == "A") & (gaps["method"] == "site")].set_index("tier")
    assert a.loc[1, "status"] == "short"
    assert a.loc[1, "acres_available"] == pytest.approx(0.3)  # 0.6 credits at ratio 2
    assert a.loc[1, "short_acres"] == pytest.approx(0.2)
    assert a.loc[1, "short_credits"] == pytest.approx(0.4)
    assert a.loc[2, "status"] == "sufficient"
    assert 3 not in a.index
    assert "subd. 3(d)" in a.loc[1, "citations"]
    assert a.loc[1, "reason"].startswith("Project-specific sites, in their own order")
    # ... and the bank credits theirs, from clause (3): a same-BSA credit is its first level
    b = gaps[(gaps["impact_id"] == "A") & (gaps["method"] == "bank")].set_index("tier")
    assert list(b.index) == [3] and b.loc[3, "status"] == "sufficient"
    # the single order of subd. 3(a): one walk over every option
    single = tier_gaps(ranking.assign(siting_reading="single_order"), as_of=AS_OF)
    one = single[single["impact_id"] == "A"]
    assert set(one["method"]) == {"any"} and list(one["tier"]) == [1, 2]


def test_issue_32_tier_gaps_and_the_plan_agree_on_the_tier_used_and_the_levels_open(context):
    """A tier 3 bank $1,500 cheaper than a tier 1 in-kind site in the impact's minor
    watershed: the plan takes the bank (banking_own_order); tier_gaps said "Tier 1 ... met at
    this level, so the lower levels are not open" for the impact as a whole. Now each method
    walks its own order, and the plan's row names the site the reading put it ahead of."""
    impact = gpd.GeoDataFrame(
        {
            "impact_id": ["A"],
            "status": ["assessed"],
            "outcome": ["replacement_required"],
            "wetland_type": ["3"],
            "ratio": [1.0],
            "atf_multiplier": [1.0],
            "replace_acres": [1.0],
            "permit_route": ["WCA"],
            "pct_class": ["less_than_50_percent"],
            "minor": ["101"],
            "major": [1],
            "bsa": [1],
        },
        geometry=[square(100)],
        crs=CRS,
    )
    near = gpd.GeoDataFrame(
        {"site_id": ["S1"], "action": ["restoration"], "circ39": ["3"], "credit_ac": [1.0]},
        geometry=[square(200)],
        crs=CRS,
    ).assign(cost_usd=[11_150.0])
    # 1002: out of kind, about 2 km away, listed in the impact's bank service area
    far = bank_table().iloc[[1]].assign(credits="5", price="9000", circ39="2", bsa="1")
    result = site(impact, near, far, context=context, as_of=AS_OF)
    plan = result.allocation.set_index("option_id")
    assert list(plan.index) == ["1002"] and plan.loc["1002", "tier"] == 3
    assert plan.loc["1002", "cost"] == pytest.approx(9_585.0)  # $1,565 less than the site
    assert plan.loc["1002", "passed_over_sites"] == "S1"
    assert plan.loc["1002", "passed_over_ids"] == '["S1"]'  # the same ids as data (JSON)
    gaps = result.tier_gaps.set_index(["method", "tier"])
    assert gaps.loc[("site", 1), "status"] == "sufficient"  # S1 is open and unused ...
    assert gaps.loc[("bank", 3), "status"] == "sufficient"  # ... and so is banking's level
    assert gaps.loc[("bank", 3), "credits_used"] == pytest.approx(1.0)
    for row in result.allocation.itertuples():  # every level the plan uses is open
        assert (row.option_kind, row.tier) in gaps.index
    # single_order: the site comes first, and nothing is passed over
    single = site(impact, near, far, context=context, as_of=AS_OF, siting_reading="single_order")
    assert list(single.allocation["option_id"]) == ["S1"]
    assert list(single.allocation["passed_over_sites"]) == [""]
    assert list(single.allocation["passed_over_ids"]) == [""]


def test_subd_3d_an_impact_without_options_has_every_tier_empty():
    needs = pd.DataFrame({"impact_id": ["Z"], "acres": [1.0], "ratio": [2.0]})
    empty = pd.DataFrame(columns=list(RANKING_COLUMNS))
    gaps = tier_gaps(empty, needs=needs, as_of=AS_OF)
    assert gaps["status"].tolist() == ["no_opportunity"] * 4
    assert gaps["short_credits"].iloc[-1] == pytest.approx(2.0)


# --- the engine ---------------------------------------------------------------------------


def write_dem(path: Path) -> Path:
    z = np.full((60, 120), 100.0, dtype="float32")
    z[20:40, 20:40] = 99.0
    with rasterio.open(
        path,
        "w",
        driver="GTiff",
        width=120,
        height=60,
        count=1,
        dtype="float32",
        crs=CRS,
        nodata=-9999.0,
        transform=Affine(25.0, 0, X, 0, -25.0, Y + 1000),
    ) as dst:
        dst.write(z, 1)
    return path


def test_site_runs_end_to_end(impacts, sites, bank_csv, context, tmp_path):
    class Assessed:  # the object `assess` returns carries the impacts
        def __init__(self, frame):
            self.impacts = frame

    result = site(
        Assessed(impacts),
        sites,
        bank_csv,
        context=context,
        as_of=AS_OF,
        dem=write_dem(tmp_path / "dem.tif"),
        siting_reading="single_order",
    )
    plan = result.allocation
    assert set(plan["option_id"]) == {"S1", "S2", "S3"}
    a = plan[plan["impact_id"] == "A"].set_index("option_id")
    assert a.loc["S1", "credits"] == pytest.approx(0.6) and a.loc["S1", "tier"] == 1
    assert a.loc["S2", "credits"] == pytest.approx(0.4) and a.loc["S2", "tier"] == 2
    assert result.unmet.empty
    assert result.totals["acres_by_tier"][1] == pytest.approx(1.3)
    s = result.sites.set_index("site_id")
    assert s.loc["S1", "best_tier"] == 1 and s.loc["S1", "allocated_credits"] == pytest.approx(0.6)
    assert pd.isna(s.loc["S5", "best_tier"])
    assert "store_m3" in s and "dem_caveat" in s
    assert result.banks.set_index("option_id").loc["1001", "best_tier"] == 3
    roles = [i.role for i in result.inputs]
    assert {"impacts", "banks", "dem"} <= set(roles)
    assert any(r.startswith("1 impact(s) not sited") for r in result.records)
    m = result.manifest_records()
    assert m["settings"]["weights"]["cost"] == 1.0
    assert any("subd. 3(c)" in a for a in m["assumptions"])


@pytest.mark.parametrize("shown", [True, False], ids=["progress_bar=True", "progress_bar=False"])
def test_site_shows_a_progress_bar_on_a_long_run(
    impacts, bank_csv, context, monkeypatch, capsys, shown
):
    """Issue 30: a bar (tqdm) once the run has taken PROGRESS_DELAY_S; none when asked not to."""
    import wetland_gis.siting.engine as engine

    monkeypatch.setattr(engine, "PROGRESS_DELAY_S", 0.0)  # every run is "long"
    site(impacts, None, bank_csv, context=context, as_of=AS_OF, progress_bar=shown)
    err = capsys.readouterr().err
    assert ("site: allocating" in err and "100%" in err) is shown
    assert ("site:" in err) is shown


def test_a_short_site_run_shows_no_bar(impacts, bank_csv, context, capsys):
    site(impacts, None, bank_csv, context=context, as_of=AS_OF, progress_bar=True)
    assert "site:" not in capsys.readouterr().err


def _head_merge(out: pd.DataFrame, value: str) -> list[str]:
    """The interleaving of subd. 3(c) written as a merge of two lists by their heads."""
    order = []
    for _, group in out.groupby("_order", sort=True):
        usable = group[~group["excluded"]]
        lists = []
        for kind in ("site", "bank"):
            rows = usable[usable["option_kind"] == kind]
            lists.append(
                [
                    (
                        (
                            np.isnan(c),
                            0.0 if np.isnan(c) else c,
                            np.isnan(d),
                            0.0 if np.isnan(d) else d,
                            str(o),
                        ),
                        k,
                    )
                    for k, c, d, o in zip(
                        rows.index, rows[value], rows["distance_ft"], rows["option_id"], strict=True
                    )
                ]
            )
        a, b = lists
        while a or b:
            order.append((a if a and (not b or a[0][0] <= b[0][0]) else b).pop(0)[1])
        order.extend(group.index[group["excluded"]].tolist())
    return out.loc[order, "row"].tolist()


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 3),  # impact
            st.booleans(),  # excluded
            st.sampled_from(["site", "bank"]),
            st.one_of(st.just(float("nan")), st.integers(0, 5).map(float)),  # cost
            st.one_of(st.just(float("nan")), st.integers(0, 2).map(float)),  # distance
            st.sampled_from("abcd"),
        ),
        max_size=30,
    )
)
def test_subd_3c_the_methods_are_interleaved_by_their_heads(rows):
    """The vectorised interleaving equals the merge of the two lists by their heads."""
    from wetland_gis.siting.rank import _merge_methods

    out = pd.DataFrame(
        rows, columns=["_order", "excluded", "option_kind", "cost", "distance_ft", "option_id"]
    )
    out = out.sort_values(["_order", "excluded"], kind="stable").reset_index(drop=True)
    out["row"] = range(len(out))
    assert _merge_methods(out, "cost")["row"].tolist() == _head_merge(out, "cost")


def test_a_siting_result_shows_itself_in_a_line_and_a_small_table(impacts, bank_csv, context):
    """Issue 30: the repr printed the whole ranking; now a line, and a table for notebooks."""
    result = site(impacts, None, bank_csv, context=context, as_of=AS_OF)
    text = repr(result)
    t = result.totals
    assert text == (
        f"SitingResult(as of {AS_OF}, banking_own_order: {len(result.needs)} impacts, "
        f"{result.ranking['option_id'].nunique()} options; {t['credits_met']:,.4f} of "
        f"{t['credits_required']:,.4f} credits met, {t['credits_unmet']:,.4f} unmet; "
        f"cost ${t['cost']:,.2f})"
    )
    assert "\n" not in text and str(result.ranking.iloc[0]["reasons"])[:30] not in text
    page = result._repr_html_()
    assert page.startswith("<table><caption>SitingResult (credits: replacement acres)</caption>")
    assert f"<td>{t['credits_required']:,.4f}</td>" in page and page.count("<tr>") == 9


def test_site_reports_an_impact_nothing_can_serve(impacts, context):
    result = site(impacts, None, None, context=context, as_of=AS_OF)
    assert result.allocation.empty
    assert set(result.unmet["impact_id"]) == {"A", "B"}
    assert result.unmet["reason"].str.startswith("no replacement site").all()
    assert (result.tier_gaps["status"] == "no_opportunity").all()
    assert result.totals["siting_reading"] == "banking_own_order"  # the reading run, not guessed


def test_sites_in_another_crs_are_reprojected_and_recorded(impacts, sites, context):
    result = site(impacts, sites.to_crs("EPSG:4326"), None, context=context, as_of=AS_OF)
    assert "sites: reprojected from EPSG:4326 to EPSG:26915" in result.records
    s1 = result.ranking.set_index(["impact_id", "option_id"]).loc[("A", "S1")]
    assert s1["tier"] == 1
    assert s1["distance_ft"] == pytest.approx(80 / 0.3048, abs=0.01)


def test_impacts_without_a_crs_are_an_error_with_the_fix(impacts):
    from wetland_gis.errors import MissingCRSError

    with pytest.raises(MissingCRSError, match="Set CRS"):
        impact_needs(impacts.set_crs(None, allow_override=True))


def test_site_reads_files_and_records_their_hashes(impacts, sites, bank_csv, context, tmp_path):
    path = tmp_path / "sites.gpkg"
    sites.to_file(path, layer="sites")
    result = site(impacts, path, bank_csv, context=context, as_of=AS_OF)
    rec = {i.role: i for i in result.inputs}
    assert rec["sites"].path == str(path) and len(rec["sites"].sha256) == 64
    assert rec["banks"].features == 4
    # subd. 3(c), default reading: the cheaper same-BSA credits serve before the sites
    assert set(result.allocation["option_id"]) == {"1001", "1004"}
    assert set(result.ranking["siting_reading"]) == {"banking_own_order"}
    assert result.manifest_records()["settings"]["siting_reading"] == "banking_own_order"


# --- siting reads the decision (issue 18, items 1 and 2) ------------------------------------

SIDE_M = 60.0  # the impacts below are 60 m squares
SIDE_ACRES = SIDE_M * SIDE_M / 4046.8564224  # 0.8896 acre each


def _assessed(context, **options):
    """Assess a pasture fill and a nonagricultural fill, both type 3, in Wright (< 50 %)."""
    from wetland_gis.assess import AssessOptions, assess

    layer = gpd.GeoDataFrame(
        {
            "impact_id": ["P", "N"],
            "circ39": ["3", "3"],
            "impact_kind": ["fill", "fill"],
            "land_use": ["pasture", "nonagricultural"],
        },
        geometry=[square(100, SIDE_M), square(1100, SIDE_M)],
        crs=CRS,
    )
    opts = AssessOptions(assume_no_public_waters=True, **options)
    return assess(layer, context, as_of=AS_OF, options=opts)


def _decided(assessment) -> dict[str, tuple[float, float]]:
    """Return impact id -> (ratio, replace acres) as the engine decided them."""
    return {
        d.impact_id: (d.ratio, d.replace_acres)
        for project in assessment.decisions
        for d in project.impacts
    }


def _one_bank(credits: str = "10") -> pd.DataFrame:
    near = lonlat(300)
    return bank_table().iloc[[0]].assign(credits=[credits], lon=[near[0]], lat=[near[1]])


@pytest.mark.parametrize(
    ("options", "ratios"),
    [
        pytest.param(
            {}, {"P": 1.0, "N": 2.0}, id="103G.005 subd. 2a: pasture is agricultural, 1(g) 1:1"
        ),
        pytest.param(
            {"after_the_fact": True, "after_the_fact_multiplier": 2.0},
            {"P": 2.0, "N": 4.0},
            id="103G.222 subd. 1(n): the after-the-fact multiplier reaches the plan",
        ),
    ],
)
def test_site_allocates_the_credits_the_engine_decided(context, tmp_path, options, ratios):
    assessment = _assessed(context, **options)
    decided = _decided(assessment)
    path = tmp_path / "banks.csv"
    _one_bank().to_csv(path, index=False)
    result = site(assessment, None, path, context=context, as_of=AS_OF)
    plan = result.allocation.groupby("impact_id")[["credits", "acres"]].sum()
    for impact, ratio in ratios.items():
        engine_ratio, engine_credits = decided[impact]
        assert engine_ratio == ratio  # the engine's answer, as the statute gives it
        assert plan.loc[impact, "credits"] == pytest.approx(engine_credits, rel=1e-6)
        assert plan.loc[impact, "credits"] == pytest.approx(SIDE_ACRES * ratio, rel=1e-6)
        assert plan.loc[impact, "acres"] == pytest.approx(SIDE_ACRES, rel=1e-6)
        ranked = result.ranking[result.ranking["impact_id"] == impact]
        assert (ranked["ratio"] == engine_ratio).all()
    assert result.unmet.empty


def test_subd_1n_a_plan_short_at_the_multiplied_ratio_is_not_reported_as_met(context, tmp_path):
    assessment = _assessed(context, after_the_fact=True, after_the_fact_multiplier=2.0)
    engine_ratio, engine_credits = _decided(assessment)["N"]
    path = tmp_path / "banks.csv"
    _one_bank(credits="2").to_csv(path, index=False)
    result = site(
        assessment.impacts[assessment.impacts["impact_id"] == "N"],
        None,
        path,
        context=context,
        as_of=AS_OF,
    )
    short = result.unmet.set_index("impact_id").loc["N"]
    assert short["credits_short"] == pytest.approx(engine_credits - 2.0, rel=1e-6)
    assert short["impact_acres_short"] == pytest.approx(SIDE_ACRES - 2.0 / engine_ratio, rel=1e-6)
    assert short["credits_short"] == pytest.approx(SIDE_ACRES * 4.0 - 2.0, rel=1e-6)


def test_siting_does_not_read_land_use_or_claims_from_raw_columns(impacts):
    """Editing a raw column after assess changes nothing: only the decision is read."""
    before = impact_needs(impacts)
    impacts["land_use"] = "agricultural"
    impacts["after_the_fact"] = True
    after = impact_needs(impacts)
    pd.testing.assert_frame_equal(
        pd.DataFrame(before.drop(columns="geometry")), pd.DataFrame(after.drop(columns="geometry"))
    )


@pytest.mark.parametrize("column", ["atf_multiplier", "permit_route", "ratio"])
def test_an_assessed_layer_without_a_decision_column_is_refused_with_the_fix(impacts, column):
    with pytest.raises(FieldMappingError, match=r"Re-run `wetland-gis assess`") as err:
        impact_needs(impacts.drop(columns=column))
    assert column in str(err.value)


def test_an_edited_decided_ratio_is_refused(impacts):
    impacts.loc[0, "ratio"] = 0.0
    with pytest.raises(FieldMappingError, match="impact 'A'.*re-run"):
        impact_needs(impacts)


def test_an_impact_on_another_permit_route_carries_a_verify_item(impacts, sites, bank_csv, context):
    impacts.loc[0, "permit_route"] = "DNR public waters"
    a = rows(_ranking(impacts, sites, bank_csv, context), "A")
    assert a["verify"].str.contains("permit route, as assessed, is DNR public waters").all()
    b = rows(_ranking(impacts, sites, bank_csv, context), "B")
    assert not b["verify"].str.contains("permit route").any()


# --- subd. 3(c): banking's own order (issue 18, item 10) ------------------------------------


def _tier2_site_and_bank(site_cost: float, bank_price: str):
    """Impact A (1 credit): S2 a tier 2 site (§ 103G.222, subd. 3(a)(2)), 1001 a same-BSA bank."""
    sites = gpd.GeoDataFrame(
        {
            "site_id": ["S2"],
            "action": ["creation"],
            "circ39": ["3"],
            "credit_ac": [1.0],
            "cost_usd": [site_cost],
        },
        geometry=[square(600)],
        crs=CRS,
    )
    near = lonlat(300)
    banks = bank_table().iloc[[0]].assign(price=[bank_price], lon=[near[0]], lat=[near[1]])
    return sites, banks


@pytest.mark.parametrize(
    ("site_cost", "bank_price", "reading", "chosen"),
    [
        pytest.param(
            50.0,
            "7800",
            "banking_own_order",
            "S2",
            id="3(c) own orders: the $50 tier 2 site before the $8,307 bank",
        ),
        pytest.param(
            8_307.0,
            "46.95",
            "banking_own_order",
            "1001",
            id="3(c) own orders: the cheaper bank before the $8,307 tier 2 site",
        ),
        pytest.param(
            8_307.0,
            "46.95",
            "single_order",
            "S2",
            id="3(a) single order: the tier 2 site before any tier 3 bank",
        ),
    ],
)
def test_subd_3c_between_the_methods_the_cheaper_is_chosen(
    impacts, context, tmp_path, site_cost, bank_price, reading, chosen
):
    sites, banks = _tier2_site_and_bank(site_cost, bank_price)
    path = tmp_path / "banks.csv"
    banks.to_csv(path, index=False)
    a_only = impacts[impacts["impact_id"] == "A"]
    result = site(a_only, sites, path, context=context, as_of=AS_OF, siting_reading=reading)
    ranked = result.ranking.set_index("option_id")
    assert ranked.loc["S2", "tier"] == 2 and ranked.loc["1001", "tier"] == 3
    if reading == "banking_own_order":
        bank_cost = float(bank_price) * 1.0 * 1.065  # 1 credit plus the 6.5 % withdrawal fee
        assert ranked.loc["1001", "cost"] == pytest.approx(bank_cost)
        assert ranked.loc["S2", "cost"] == pytest.approx(site_cost)
    assert list(result.ranking["option_id"])[0] == chosen
    assert list(result.allocation["option_id"]) == [chosen]
    assert result.allocation["credits"].sum() == pytest.approx(1.0)
    assert result.totals["siting_reading"] == reading


def test_subd_3c_within_each_method_the_order_still_holds(impacts, sites, context, tmp_path):
    """A cheap tier 4 bank credit does not come before the same-BSA bank (subd. 3(c), (d))."""
    table = bank_table()
    table["price"] = ["12000", "10", "1000", "9000"]  # 1002 (tier 4) is the cheapest
    path = tmp_path / "banks.csv"
    table.to_csv(path, index=False)
    a_only = impacts[impacts["impact_id"] == "A"]
    result = site(a_only, None, path, context=context, as_of=AS_OF)
    order = [o for o in result.ranking["option_id"] if o != "1003"]
    assert order == ["1004", "1001", "1002"]
    plan = result.allocation.set_index("option_id")["credits"]
    # 1004 (0.5 credit, tier 3) is used up before 1001 (tier 3); tier 4 is never reached
    assert set(plan.index) == {"1004", "1001"}
    assert plan["1004"] == pytest.approx(0.5) and plan["1001"] == pytest.approx(0.5)
