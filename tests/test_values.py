"""The one value parser (wetland_gis/io/values.py): every accepted spelling, pinned.

Tables of (value, expected) pairs; a value outside a table is refused with a
ValueParseError naming it (or None with ``errors="coerce"``), never guessed.
"""

from __future__ import annotations

import math
from decimal import Decimal

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, strategies as st

from wetland_gis.enums import PercentageArea
from wetland_gis.errors import InputError, ValueParseError
from wetland_gis.io.values import (
    FALSE_SPELLINGS,
    TRUE_SPELLINGS,
    is_blank,
    normalise_county,
    normalise_key,
    parse_bool,
    parse_id,
    parse_number,
    parse_whole_number,
)
from wetland_gis.parameters import default_parameters
from wetland_gis.rules.counties import county_classes

AS_OF = "2024-05-01"

BLANKS = [
    None,
    float("nan"),
    np.nan,
    np.float32("nan"),
    pd.NA,
    pd.NaT,
    np.datetime64("NaT"),
    Decimal("NaN"),
    "",
    " ",
    "\t\n",
]
NOT_BLANK = [0, 0.0, False, "0", "nan", "None", "-", [], ()]


@pytest.mark.parametrize("value", BLANKS, ids=repr)
def test_blank_values_are_unknown(value):
    assert is_blank(value) is True
    assert parse_bool(value) is None
    assert parse_number(value) is None
    assert parse_whole_number(value) is None
    assert parse_id(value) is None
    assert normalise_key(value) is None


@pytest.mark.parametrize("value", NOT_BLANK, ids=repr)
def test_zero_false_and_text_are_values_not_blanks(value):
    assert is_blank(value) is False


# ------------------------------------------------------------------------------ booleans

BOOL_CASES = [
    *[(s, True) for s in TRUE_SPELLINGS],
    *[(s, False) for s in FALSE_SPELLINGS],
    ("TRUE", True),
    ("True", True),
    (" yes ", True),
    ("Y", True),
    ("T", True),
    ("FALSE", False),
    ("No", False),
    (" n", False),
    ("F", False),
    (True, True),
    (False, False),
    (np.True_, True),
    (np.False_, False),
    (1, True),
    (0, False),
    (1.0, True),
    (0.0, False),
    (np.int64(1), True),
    (np.float64(0), False),
]


@pytest.mark.parametrize(("value", "expected"), BOOL_CASES, ids=repr)
def test_boolean_spellings(value, expected):
    assert parse_bool(value) is expected


def test_the_spelling_lists_are_what_the_issue_pins():
    # "1.0" is true here and everywhere: the disagreement of issue 12 §2 cannot come back
    assert TRUE_SPELLINGS == ("true", "t", "yes", "y", "1", "1.0")
    assert FALSE_SPELLINGS == ("false", "f", "no", "n", "0", "0.0")


BOOL_REFUSED = [2, -1, 0.5, "2", "maybe", "x", "on", "off", "si", "true-ish", "1.5", [True], b"1"]


@pytest.mark.parametrize("value", BOOL_REFUSED, ids=repr)
def test_other_values_are_not_guessed_true_or_false(value):
    with pytest.raises(ValueParseError, match=r"cannot read .* as true/false; accepted"):
        parse_bool(value)
    assert parse_bool(value, errors="coerce") is None


# ------------------------------------------------------------------------------- numbers

NUMBER_CASES = [
    (3, 3.0),
    (2.5, 2.5),
    (-4, -4.0),
    (np.int32(7), 7.0),
    (np.float32(0.5), 0.5),
    (Decimal("1.25"), 1.25),
    ("2.5", 2.5),
    (" 2.5 ", 2.5),
    ("12,500", 12_500.0),
    ("1,234,567.8", 1_234_567.8),
    ("$1,200.50", 1200.5),
    ("$ 40", 40.0),
    ("-3", -3.0),
    ("1e3", 1000.0),
    ("0", 0.0),
    (".5", 0.5),
]


@pytest.mark.parametrize(("value", "expected"), NUMBER_CASES, ids=repr)
def test_number_spellings(value, expected):
    assert parse_number(value) == expected


NUMBER_REFUSED = [
    True,
    False,
    "ten",
    "1.2.3",
    "12 500",
    "5%",
    "inf",
    "-inf",
    "nan",
    float("inf"),
    [1],
    {"a": 1},
    "$",
]


@pytest.mark.parametrize("value", NUMBER_REFUSED, ids=repr)
def test_non_numbers_are_refused(value):
    with pytest.raises(ValueParseError, match=r"as a number; accepted: a finite number"):
        parse_number(value)
    assert parse_number(value, errors="coerce") is None


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_a_written_float_reads_back_exactly(x):
    assert parse_number(repr(x)) == x
    assert parse_number(f"{x:,}") == float(f"{x:,}".replace(",", ""))


WHOLE_CASES = [
    (18, 18),
    (18.0, 18),
    ("18", 18),
    ("18.0", 18),
    (" 18 ", 18),
    (np.int64(81), 81),
    (np.float64(7.0), 7),
    ("-1", -1),
    ("007", 7),
]


@pytest.mark.parametrize(("value", "expected"), WHOLE_CASES, ids=repr)
def test_whole_number_spellings(value, expected):
    assert parse_whole_number(value) == expected


@pytest.mark.parametrize("value", [18.5, "18a", "eighteen", True, "inf", [18], "1,000"], ids=repr)
def test_non_whole_numbers_are_refused(value):
    with pytest.raises(ValueParseError, match="as a whole number"):
        parse_whole_number(value)
    assert parse_whole_number(value, errors="coerce") is None


def test_errors_must_be_raise_or_coerce():
    with pytest.raises(ValueError, match="errors must be 'raise' or 'coerce'"):
        parse_number("x", errors="ignore")  # type: ignore[arg-type]


def test_a_value_parse_error_is_an_input_error():
    assert issubclass(ValueParseError, InputError)
    assert issubclass(ValueParseError, ValueError)


# ------------------------------------------------------------------------------------ ids

ID_CASES = [
    (18, "18"),
    (18.0, "18"),
    ("18", "18"),
    ("18.0", "18"),
    (np.float64(47.0), "47"),
    ("07", "07"),
    ("0", "0"),
    ("47-05", "47-05"),
    (" SYN-86-0001 ", "SYN-86-0001"),
    ("1234-S", "1234-S"),
    (18.5, "18.5"),
    ("A 1", "A 1"),
    (True, "True"),
]


@pytest.mark.parametrize(("value", "expected"), ID_CASES, ids=repr)
def test_id_spellings(value, expected):
    assert parse_id(value) == expected


# ---------------------------------------------------------------------------- county names

COUNTY_CASES = [
    ("Lac qui Parle", "lac qui parle"),
    ("Lac-qui-Parle", "lac qui parle"),
    ("Lac–qui–Parle", "lac qui parle"),  # en dashes
    ("LAC QUI PARLE COUNTY", "lac qui parle"),
    ("lac_qui_parle", "lac qui parle"),
    ("  Lac  qui   Parle  ", "lac qui parle"),
    ("St. Louis", "st louis"),
    ("Saint Louis County", "st louis"),
    ("ST LOUIS", "st louis"),
    ("St.Louis", "st louis"),
    ("Lake of the Woods", "lake of the woods"),
    ("Crow Wing County", "crow wing"),
    ("Big Stone", "big stone"),
    ("O'Brien", "o brien"),
    ("O\u2019Brien", "o brien"),
    ("County", "county"),  # only a trailing "County" after a name is dropped
]


@pytest.mark.parametrize(("name", "expected"), COUNTY_CASES)
def test_county_name_spellings(name, expected):
    assert normalise_county(name) == expected


@pytest.mark.parametrize("name", [None, 27, float("nan")], ids=repr)
def test_a_county_must_be_text(name):
    with pytest.raises(ValueParseError, match="a county must be a name"):
        normalise_county(name)


LISTS = {
    "percentage_area.counties.greater_than_80": PercentageArea.GREATER_THAN_80,
    "percentage_area.counties.from_50_to_80": PercentageArea.FROM_50_TO_80,
    "percentage_area.counties.less_than_50": PercentageArea.LESS_THAN_50,
}


def test_the_87_listed_counties_stay_distinct_and_every_spelling_finds_its_class():
    params = default_parameters()
    listed = {name: cls for key, cls in LISTS.items() for name in params.value(key, AS_OF)}
    assert len(listed) == 87
    assert len({normalise_county(n) for n in listed}) == 87
    for name, expected in listed.items():
        for spelling in (
            name,
            name.upper(),
            name.replace(" ", "-"),
            f"{name} County",
            name.replace("St.", "Saint"),
        ):
            pct, _metro = county_classes(spelling, params, AS_OF)
            assert pct is expected, (spelling, pct)


@given(st.text(max_size=30))
def test_county_normalisation_is_idempotent(name):
    once = normalise_county(name)
    assert normalise_county(once) in (once, once.removesuffix(" county"))
    assert once == once.strip() and "  " not in once


# ----------------------------------------------------------------------- keys (type strings)

KEY_CASES = [
    ("Natural Environment", None, "natural_environment"),
    ("natural-environment", None, "natural_environment"),
    ("natural – environment", None, "natural_environment"),  # en dash with spaces
    ("  NATURAL   ENVIRONMENT ", None, "natural_environment"),
    ("Rec/Dev", None, "rec_dev"),
    ("greater than 80 percent", None, "greater_than_80_percent"),
    ("NE", {"ne": "natural_environment"}, "natural_environment"),
    ("Rec-Dev", {"rec_dev": "recreational_development"}, "recreational_development"),
    ("unknown class", {"ne": "natural_environment"}, "unknown_class"),
]


@pytest.mark.parametrize(("value", "aliases", "expected"), KEY_CASES)
def test_class_and_type_spellings(value, aliases, expected):
    assert normalise_key(value, aliases) == expected


@given(st.one_of(st.text(max_size=20), st.integers(), st.floats(), st.booleans(), st.none()))
def test_every_parser_reads_or_refuses_with_a_value_parse_error(value):
    for parse in (parse_bool, parse_number, parse_whole_number):
        try:
            out = parse(value)
        except ValueParseError as err:
            assert repr(value) in str(err)
            assert parse(value, errors="coerce") is None
        else:
            assert out is None or isinstance(out, (bool, int, float))
            if isinstance(out, float):
                assert math.isfinite(out)
    text = parse_id(value)
    assert text is None or (text == text.strip() and text)


# ------------------------------------------------------- the readers that use the parser now


def basin(**values):
    import geopandas as gpd
    from shapely.geometry import box

    row = {"pw_id": "SYN-1", "shore_class": "NE", "acres": 12.0, "sewered": None}
    row.update(values)
    return gpd.GeoDataFrame(
        {k: [v] for k, v in row.items()}, geometry=[box(0, 0, 10, 10)], crs="EPSG:26915"
    )


@pytest.mark.parametrize(
    ("sewered", "expected"),
    [("1.0", True), ("Yes", True), (0, False), ("n", False), (None, None)],
    ids=repr,
)
def test_a_context_layer_reads_booleans_with_the_parser(sewered, expected):
    from wetland_gis.context import validate_layer

    out, _ = validate_layer(basin(sewered=sewered), "public_water_basins")
    value = out["sewered"].iloc[0]
    assert (value is pd.NA) if expected is None else (bool(value) is expected)


def test_a_context_layer_reads_thousands_separators_and_refuses_words():
    from wetland_gis.context import validate_layer
    from wetland_gis.errors import ContextError

    out, _ = validate_layer(basin(acres="12,500"), "public_water_basins")
    assert out["acres"].iloc[0] == 12_500.0
    with pytest.raises(ContextError, match=r"field 'acres' must be a number; row 0 has 'big'"):
        validate_layer(basin(acres="big"), "public_water_basins")
    with pytest.raises(ContextError, match=r"field 'sewered' must be true/false.*'maybe'"):
        validate_layer(basin(sewered="maybe"), "public_water_basins")


def test_a_required_context_value_of_blank_text_is_missing():
    from wetland_gis.context import validate_layer
    from wetland_gis.errors import ContextError

    with pytest.raises(ContextError, match=r"required field 'pw_id' is empty in 1 row"):
        validate_layer(basin(pw_id="  "), "public_water_basins")


def test_ids_of_a_context_layer_lose_a_float_point_and_keep_leading_zeros():
    from wetland_gis.context import validate_layer

    assert validate_layer(basin(pw_id=86.0), "public_water_basins")[0]["pw_id"].iloc[0] == "86"
    assert validate_layer(basin(pw_id="07"), "public_water_basins")[0]["pw_id"].iloc[0] == "07"


LISTING = (
    "bank_name,account,county,major,bsa,circ39,credits,price,program,lon,lat\n"
    "Synthetic Bank A,1201-S,Wright,{major},7,3,{credits},14500,WCA,-94.1,45.2\n"
)


def test_a_bank_listing_reads_numbers_with_the_parser(tmp_path):
    from wetland_gis.io.bank_listing import read_bank_listing

    path = tmp_path / "banks.csv"
    path.write_text(LISTING.format(major="47.0", credits='"1,250.5"'), encoding="utf-8")
    banks = read_bank_listing(path)
    assert banks["credits"].iloc[0] == 1250.5
    assert banks["major"].iloc[0] == 47


@pytest.mark.parametrize("major", ["0", "82", "47.5"])
def test_a_bank_listing_major_is_checked_against_the_dnr_numbering(tmp_path, major):
    from wetland_gis.context import MAJOR_WATERSHED_IDS
    from wetland_gis.io.bank_listing import read_bank_listing

    lo, hi = MAJOR_WATERSHED_IDS
    path = tmp_path / "banks.csv"
    path.write_text(LISTING.format(major=major, credits="2"), encoding="utf-8")
    with pytest.raises(
        InputError,
        match=rf"major '?{major}'? is not a major watershed number "
        rf"{lo}-{hi}",
    ):
        read_bank_listing(path)


# ------------------------------------------------------- every caller reads the same way


def _callers_of_bool():
    from wetland_gis.io.fields import read_flag
    from wetland_gis.io.wetland_types import _truthy as cedar_flag
    from wetland_gis.mapping.popups import truthy

    return {
        "io.fields.read_flag": lambda v: read_flag(v) is True,
        "io.wetland_types cedar flag": cedar_flag,
        "mapping.popups.truthy": truthy,
    }


@pytest.mark.parametrize(
    ("value", "expected"),
    [*BOOL_CASES, ("maybe", None), (2, None), ("", None), (None, None)],
    ids=repr,
)
def test_every_reader_of_a_flag_agrees_with_parse_bool(value, expected):
    """'1.0' is true and 'no' is false for every caller (they disagreed before issue 12)."""
    for name, reader in _callers_of_bool().items():
        assert reader(value) is (expected is True), name


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1,200.5", 1200.5),
        ("$1,200.50", 1200.5),
        (" 3 ", 3.0),
        ("inf", None),
        ("x", None),
        ("", None),
        (True, None),
    ],
    ids=repr,
)
def test_read_number_is_parse_number_coerced(value, expected):
    from wetland_gis.io.fields import read_number

    assert read_number(value) == expected


def test_one_county_normalisation_with_one_error_class():
    """Minn. R. 8420.0117, subp. 1: the readers and the rules core match a county name with
    one function, and a name that is not text is one fault (issue 33)."""
    from wetland_gis.errors import CountyNameError, RulesInputError
    from wetland_gis.names import normalise_county as the_one
    from wetland_gis.rules import normalise_county as rules_normalise

    assert normalise_county is the_one and rules_normalise is the_one
    with pytest.raises(CountyNameError, match="a county must be a name") as info:
        the_one(27)
    assert isinstance(info.value, ValueParseError) and isinstance(info.value, RulesInputError)


@pytest.mark.parametrize(
    "name", ["Lac-qui-Parle", "Lac qui Parle County", "LAC QUI PARLE", "lac\u2013qui\u2013parle"]
)
def test_the_rules_core_and_the_context_read_lac_qui_parle_alike(name):
    """§ 103G.005 classes by county: the rules core finds the county the context finds."""
    from wetland_gis.rules.percentage_area import normalise_county as rules_normalise

    assert rules_normalise(name) == normalise_county(name) == "lac qui parle"
    params = default_parameters()
    assert (
        county_classes(name, params, AS_OF)[0] is county_classes("Lac qui Parle", params, AS_OF)[0]
    )


def test_siting_place_reads_ids_and_whole_numbers_with_the_parser():
    """§ 103G.222, subd. 3: a float watershed id and '18.0' name the same place."""
    from wetland_gis.siting.rank import siting_place

    place = siting_place(minor=7001.0, major="18.0", bsa=" 7 ")
    assert (place.minor, place.major, place.bsa) == ("7001", 18, 7)
    assert siting_place(minor="07001").minor == "07001"


def _ranking(excluded):
    return pd.DataFrame(
        {
            "impact_id": ["I1", "I1"],
            "option_id": ["A", "B"],
            "option_kind": ["bank", "bank"],
            "tier": [1, 2],
            "ratio": [1.0, 1.0],
            "credits_available": [5.0, 5.0],
            "excluded": [excluded, False],
            "impact_acres": [1.0, 1.0],
            "price_per_credit": [1.0, 9.0],
        }
    )


@pytest.mark.parametrize(
    ("excluded", "used"),
    [("no", "A"), ("No", "A"), ("0", "A"), (False, "A"), ("yes", "B"), ("1.0", "B"), (True, "B")],
)
def test_allocation_reads_the_text_no_as_not_excluded(excluded, used):
    """A bug before issue 12: bool('no') is True, so an option written 'no' was excluded."""
    from wetland_gis.siting.allocate import allocate

    plan = allocate(_ranking(excluded))
    assert set(plan.plan["option_id"]) == {used}


def test_allocation_refuses_an_exclusion_it_cannot_read():
    from wetland_gis.siting.allocate import AllocationError, allocate

    with pytest.raises(AllocationError, match=r"'excluded', row 1: 'maybe' is not a yes/no"):
        allocate(_ranking("maybe"))


def test_a_ranking_read_back_from_text_keeps_its_exclusions():
    """A ranking written to CSV holds 'False'/'True': bool('False') would exclude every option."""
    from wetland_gis.siting.allocate import read_yes_no

    column = pd.Series(["False", "True", "no", "", None, "1.0"], name="excluded")
    assert read_yes_no(column).tolist() == [False, True, False, False, False, True]
