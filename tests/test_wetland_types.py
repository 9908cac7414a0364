"""Circular 39 wetland types: given text, Cowardin inference, and the NWI sample."""

from __future__ import annotations

import re

import geopandas as gpd
import pytest
from hypothesis import given, strategies as st

from wetland_gis.enums import WetlandType
from wetland_gis.errors import InferredWetlandTypeWarning, InputError, WetlandTypeError
from wetland_gis.io.wetland_types import (
    COMMUNITY_TYPES,
    COWARDIN_CROSSWALK,
    WATER_REGIMES,
    TypeReading,
    infer_from_cowardin,
    parse_wetland_type,
    reading_for,
)

T = WetlandType

# --------------------------------------------------------------------------------------
# Given types
# --------------------------------------------------------------------------------------

GIVEN_CASES = [
    # value, types, cedar_tamarack, verify
    ("3", (T.TYPE_3,), None, False),
    (3, (T.TYPE_3,), None, False),
    (3.0, (T.TYPE_3,), None, False),
    ("3.0", (T.TYPE_3,), None, False),
    ("Type 3", (T.TYPE_3,), None, False),
    ("type3", (T.TYPE_3,), None, False),
    ("TYPE_3", (T.TYPE_3,), None, False),
    ("T3", (T.TYPE_3,), None, False),
    ("t 3", (T.TYPE_3,), None, False),
    ("III", (T.TYPE_3,), None, False),
    ("Type VIII", (T.TYPE_8,), None, False),
    ("Circular 39 type 3", (T.TYPE_3,), None, False),
    ("Circ. 39 Type 5", (T.TYPE_5,), None, False),
    ("  type 1 wetland ", (T.TYPE_1,), None, False),
    ("Type 3/4", (T.TYPE_3, T.TYPE_4), None, False),
    ("type 3 / type 4", (T.TYPE_3, T.TYPE_4), None, False),
    ("3, 4", (T.TYPE_3, T.TYPE_4), None, False),
    ("T6/T2", (T.TYPE_6, T.TYPE_2), None, False),
    ("types 3 and 4", (T.TYPE_3, T.TYPE_4), None, False),
    ("type 2 or 3", (T.TYPE_2, T.TYPE_3), None, True),
    ("Shallow marsh", (T.TYPE_3,), None, False),
    ("shallow marsh (type 3)", (T.TYPE_3,), None, False),
    ("Type 4 - deep marsh", (T.TYPE_4,), None, False),
    ("Seasonally flooded basin", (T.TYPE_1,), None, False),
    ("seasonally flooded basins or flats", (T.TYPE_1,), None, False),
    ("Floodplain forest", (T.TYPE_1,), None, False),
    ("Fresh (wet) meadow", (T.TYPE_2,), None, False),
    ("wet to wet-mesic prairie", (T.TYPE_2,), None, False),
    ("Sedge meadow", (T.TYPE_2,), None, False),
    ("Calcareous fen", (T.TYPE_2,), None, True),
    ("Deep marsh", (T.TYPE_4,), None, False),
    ("Shallow open water", (T.TYPE_5,), None, False),
    ("Shrub swamp", (T.TYPE_6,), None, False),
    ("Shrub-carr", (T.TYPE_6,), None, False),
    ("shrub–carr", (T.TYPE_6,), None, False),  # en dash
    ("Alder thicket", (T.TYPE_6,), None, False),
    ("Hardwood swamp", (T.TYPE_7,), None, False),
    ("Coniferous swamp", (T.TYPE_7,), None, False),
    ("Coniferous bog", (T.TYPE_8,), None, False),
    ("Open bog", (T.TYPE_8,), None, False),
    ("White cedar swamp", (T.TYPE_7,), True, False),
    ("Tamarack swamp", (T.TYPE_7,), True, False),
    ("Tamarack bog", (T.TYPE_8,), True, False),
    ("shallow marsh/deep marsh", (T.TYPE_3, T.TYPE_4), None, False),
]


@pytest.mark.parametrize(("value", "types", "cedar", "verify"), GIVEN_CASES)
def test_given_type_forms_are_read(value, types, cedar, verify):
    reading = parse_wetland_type(value)
    assert reading.types == types
    assert reading.cedar_tamarack is cedar
    assert reading.verify is verify
    assert reading.source == "given"


def test_a_calcareous_fen_must_be_checked_against_the_fen_list():
    reading = parse_wetland_type("calcareous fen")
    assert reading.verify
    assert "103G.223" in reading.note


def test_a_mixed_polygon_says_so_and_keeps_the_written_order():
    reading = parse_wetland_type("Type 4/3")
    assert reading.types == (T.TYPE_4, T.TYPE_3)
    assert reading.label == "4/3"
    assert reading.type is None
    assert "mixed polygon" in reading.note


ERROR_CASES = [
    ("", "empty"),
    ("   ", "empty"),
    (None, "empty"),
    (float("nan"), "empty"),
    ("9", "coastal"),
    ("Type 12", "coastal"),
    ("0", "out of range"),
    ("Type 25", "out of range"),
    (9, "coastal"),
    (3.5, "whole number"),
    (True, "boolean"),
    ("marsh-ish", "neither a type number nor a known community"),
    ("Type 3/unknown", "'unknown' is neither"),
    ("deep marsh (type 3)", "contradicts the community 'deep marsh'"),
    ("Freshwater Emergent Wetland", "NWI wetland category"),
    ("Freshwater Forested/Shrub Wetland", "NWI wetland category"),
    ("PEM1C", "Cowardin"),
    ("Circular 39", "no type after"),
    ([3], "list is not a wetland type"),
]


@pytest.mark.parametrize(("value", "message"), ERROR_CASES)
def test_unreadable_types_raise_with_the_value_and_accepted_forms(value, message):
    with pytest.raises(WetlandTypeError, match=re.escape(message)) as caught:
        parse_wetland_type(value)
    assert "Accepted forms" in str(caught.value)
    assert repr(value) in str(caught.value)


def test_wetland_type_error_is_an_input_error():
    assert issubclass(WetlandTypeError, InputError)
    assert issubclass(WetlandTypeError, ValueError)


def test_every_community_name_reads_as_its_type():
    for name, community in COMMUNITY_TYPES.items():
        assert parse_wetland_type(name).types == (WetlandType(community.type),), name


def test_type_reading_rejects_bad_construction():
    with pytest.raises(ValueError, match="at least one"):
        TypeReading(())
    with pytest.raises(ValueError, match="source"):
        TypeReading((3,), source="guessed")
    assert TypeReading((3,)).types == (T.TYPE_3,)


ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI", 7: "VII", 8: "VIII"}
TEMPLATES = ["{n}", "Type {n}", "type{n}", "T{n}", "{r}", "Circular 39 type {n}", "TYPE {r}"]


@given(
    n=st.integers(1, 8),
    template=st.sampled_from(TEMPLATES),
    upper=st.booleans(),
    pad=st.sampled_from(["", " ", "  ", "\t"]),
)
def test_any_spelling_of_a_type_number_reads_as_that_type(n, template, upper, pad):
    text = pad + template.format(n=n, r=ROMAN[n]) + pad
    text = text.upper() if upper else text.lower()
    assert parse_wetland_type(text).types == (WetlandType(n),)


#: Values the parser must read, drawn among arbitrary ones (value, expected types).
READABLE = st.sampled_from([(value, types) for value, types, _, _ in GIVEN_CASES])
ARBITRARY = st.one_of(st.text(max_size=40), st.integers(), st.floats(), st.none()).map(
    lambda value: (value, None)
)


@given(st.one_of(READABLE, ARBITRARY))
def test_parsing_any_value_reads_or_raises_a_wetland_type_error(case):
    value, expected = case
    try:
        reading = parse_wetland_type(value)
    except WetlandTypeError as err:
        assert expected is None, f"{value!r} must read as {expected}, was refused: {err}"
        assert repr(value) in str(err) and "Accepted forms" in str(err)
        return
    assert reading.types and all(isinstance(t, WetlandType) for t in reading.types)
    if expected is not None:
        assert reading.types == expected


# --------------------------------------------------------------------------------------
# Cowardin inference
# --------------------------------------------------------------------------------------

INFER_CASES = [
    # code, types (as sets when ambiguous order does not matter), verify
    ("PEM1A", (1,), False),
    ("PEM1B", (2,), False),
    ("PEM1C", (2, 3), True),
    ("PEM1Cx", (2, 3), True),
    ("PEM5C", (2, 3), True),
    ("PEM1F", (3, 4), True),
    ("PEM1H", (4,), False),
    ("PABH", (5,), False),
    ("PUBH", (5,), False),
    ("POWH", (5,), False),  # 1979 'open water' class
    ("PUBHx", (5,), True),  # excavated: possibly incidental or a stormwater pond
    ("PUSCh", (1,), True),
    ("PSS1C", (6,), False),
    ("PSS1B", (6, 8), True),
    ("PSS3B", (6, 8), True),
    ("PFO1A", (1,), False),
    ("PFO1C", (1, 7), True),
    ("PFO1E", (7,), False),
    ("PFO1B", (7, 8), True),
    ("PFO2B", (7, 8), True),
    ("PFO4Ba", (7, 8), True),
    ("PML1B", (8,), False),
    ("L2EM2F", (4,), True),
    ("L2ABH", (5,), True),
    ("pem1c", (2, 3), True),
    ("PEM1CX", (2, 3), True),
]


@pytest.mark.parametrize(("code", "types", "verify"), INFER_CASES)
def test_cowardin_codes_are_inferred_through_the_crosswalk(code, types, verify):
    reading = infer_from_cowardin(code)
    assert reading.types == tuple(WetlandType(t) for t in types)
    assert reading.verify is verify
    assert reading.source == "inferred"
    assert reading.cedar_tamarack is None
    assert code in reading.note


def test_pem_c_is_type_2_or_3_and_flagged_for_the_field():
    reading = infer_from_cowardin("PEM1C")
    assert reading.types == (T.TYPE_2, T.TYPE_3)
    assert reading.verify
    assert "type 2 or type 3" in reading.note
    assert "regime C" in reading.note


def test_a_mixed_cowardin_code_lists_the_dominant_class_first():
    reading = infer_from_cowardin("PSS1/EM1C")
    assert reading.types[0] == T.TYPE_6
    assert set(reading.types) == {T.TYPE_6, T.TYPE_2, T.TYPE_3}
    assert reading.verify
    assert "mixed classes SS/EM" in reading.note


def test_subclass_mixtures_and_two_bottom_classes_are_read():
    assert infer_from_cowardin("PFO1/4Cd").types == (T.TYPE_1, T.TYPE_7)
    assert "white cedar or tamarack" in infer_from_cowardin("PFO4/1A").note
    assert infer_from_cowardin("PAB/UBF").types == (T.TYPE_4, T.TYPE_5)


def test_modifiers_add_notes():
    assert "103G.2241, subd. 5" in infer_from_cowardin("PUBHx").note
    assert "partly drained" in infer_from_cowardin("PEM1Ad").note
    assert infer_from_cowardin("PEM1Ad").verify
    assert "diked/impounded" in infer_from_cowardin("PEM1Ah").note
    assert not infer_from_cowardin("PEM1Ah").verify
    assert "calcareous fen" in infer_from_cowardin("PEM1Bi").note


COWARDIN_ERRORS = [
    ("R5UBH", "riverine"),
    ("R2UBHx", "riverine"),
    ("L1UBH", "limnetic"),
    ("E2EM1P", "estuarine"),
    ("M1UBL", "marine"),
    ("PEM1R", "tidal"),
    ("PFO1S", "tidal"),
    ("L2USQ", "tidal"),
    ("PEM1", "no known water regime"),
    ("PEM1U", "no known water regime"),
    ("PUBC", "no Circular 39 type for palustrine unconsolidated bottom"),
    ("L2USC", "lacustrine unconsolidated shore"),
    ("P1EM1C", "no subsystem"),
    ("Upland", "not a recognised Cowardin code"),
    ("PXX1C", "not a recognised Cowardin code"),
    ("", "empty"),
    (None, "empty"),
    (12, "not text"),
]


@pytest.mark.parametrize(("code", "message"), COWARDIN_ERRORS)
def test_codes_without_an_inland_type_raise_a_clear_error(code, message):
    with pytest.raises(WetlandTypeError, match=message):
        infer_from_cowardin(code)


def test_non_palustrine_errors_say_why_and_what_to_do():
    with pytest.raises(WetlandTypeError, match="not a Circular 39 palustrine wetland type") as e:
        infer_from_cowardin("R4SBC")
    assert "'R4SBC'" in str(e.value)
    assert "not assessed" in str(e.value)


def test_crosswalk_rows_are_consistent():
    for (system, cls, regime), rule in COWARDIN_CROSSWALK.items():
        assert system in ("P", "L2")
        assert cls in {"EM", "AB", "UB", "US", "SS", "FO", "ML"}
        assert regime in WATER_REGIMES and regime not in "LMNPQRSTVU"
        assert rule.types and all(1 <= t <= 8 for t in rule.types)
        assert list(rule.types) == sorted(rule.types)
        if len(rule.types) > 1:
            assert rule.verify, (system, cls, regime)
        assert rule.basis
        if system == "L2":
            assert rule.verify


COWARDIN_PARTS = st.builds(
    lambda system, cls, sub, mixed, regime, mods: f"{system}{cls}{sub}{mixed}{regime}{mods}",
    system=st.sampled_from(["P", "L1", "L2", "R2", "R4", "E1", "M2"]),
    cls=st.sampled_from(["EM", "SS", "FO", "UB", "AB", "US", "ML", "RB", "OW"]),
    sub=st.sampled_from(["", "1", "2", "4", "5"]),
    mixed=st.sampled_from(["", "/EM1", "/SS1", "/4", "/UB"]),
    regime=st.sampled_from(list(WATER_REGIMES) + [""]),
    mods=st.sampled_from(["", "x", "h", "d", "a", "Ch", "bg"]),
)


@given(COWARDIN_PARTS)
def test_any_cowardin_code_infers_or_raises_a_wetland_type_error(code):
    try:
        reading = infer_from_cowardin(code)
    except WetlandTypeError as err:
        assert repr(code) in str(err), str(err)
        return
    assert reading.source == "inferred"
    assert reading.types
    assert reading.note.startswith(f"inferred from Cowardin {code}")


CROSSWALK_CODES = [
    (f"{system}{cls}{sub}{regime}", rule.types)
    for (system, cls, regime), rule in COWARDIN_CROSSWALK.items()
    for sub in ("", "1")
]


@pytest.mark.parametrize(("code", "types"), CROSSWALK_CODES)
def test_every_crosswalk_row_is_inferred_from_its_code(code, types):
    assert infer_from_cowardin(code).types == tuple(WetlandType(t) for t in types)


@given(
    st.one_of(
        st.text(max_size=20).map(lambda t: (t, None)),
        st.sampled_from([(code, types) for code, types, _ in INFER_CASES]),
    )
)
def test_inferring_from_any_text_reads_or_names_the_code_it_refuses(case):
    text, expected = case
    try:
        reading = infer_from_cowardin(text)
    except WetlandTypeError as err:
        assert expected is None, f"{text!r} must infer {expected}, was refused: {err}"
        named = repr(text) in str(err) or repr(text.strip()) in str(err)
        assert named or (not text.strip() and "empty" in str(err)), str(err)
        return
    assert reading.types and reading.source == "inferred"
    if expected is not None:
        assert reading.types == tuple(WetlandType(t) for t in expected)


# --------------------------------------------------------------------------------------
# reading_for: given first, else inferred with a warning
# --------------------------------------------------------------------------------------


def test_reading_for_prefers_the_given_type_without_warning():
    reading = reading_for("Type 3", "PFO1A")
    assert reading.types == (T.TYPE_3,)
    assert reading.source == "given"


def test_reading_for_infers_from_cowardin_with_a_warning():
    with pytest.warns(InferredWetlandTypeWarning, match="inferred from Cowardin code 'PEM1C'"):
        reading = reading_for(None, "PEM1C")
    assert reading.source == "inferred"
    assert reading.types == (T.TYPE_2, T.TYPE_3)


@pytest.mark.parametrize("blank", [None, "", "  ", float("nan")])
def test_reading_for_treats_blank_given_values_as_missing(blank):
    with pytest.warns(InferredWetlandTypeWarning, match="to verify"):
        assert reading_for(blank, "PSS1B").source == "inferred"


def test_reading_for_never_replaces_a_bad_given_value_by_an_inference():
    with pytest.raises(WetlandTypeError, match="'Type 11'"):
        reading_for("Type 11", "PEM1A")


def test_reading_for_without_type_or_code_raises():
    with pytest.raises(WetlandTypeError, match="no wetland type given and no Cowardin code"):
        reading_for(None, None)


def test_reading_for_passes_on_cowardin_errors():
    with pytest.raises(WetlandTypeError, match="riverine"):
        reading_for("", "R2UBH")


# --------------------------------------------------------------------------------------
# The real NWI sample (Washington DC; used for the Cowardin and NWI schema only)
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def nwi(sample_data) -> gpd.GeoDataFrame:
    return gpd.read_file(sample_data.nwi)


def test_every_nwi_attribute_infers_or_raises_a_clear_error(nwi):
    inferred, refused = {}, {}
    for code in nwi["ATTRIBUTE"].unique():
        try:
            inferred[code] = infer_from_cowardin(code)
        except WetlandTypeError as err:
            assert repr(code) in str(err)
            refused[code] = str(err)
    assert set(inferred) | set(refused) == set(nwi["ATTRIBUTE"].unique())
    # Deepwater and river codes are refused; palustrine freshwater codes are typed.
    assert all(c.startswith(("R", "L1", "L2US", "E", "M", "P")) for c in refused)
    assert {"PFO1A", "PUBHx", "PEM1C", "PSS1/EM5A", "L2EM2F"} <= set(inferred)
    assert {"R5UBH", "L1UBH", "PEM1R", "PFO1S"} <= set(refused)
    assert inferred["PFO1A"].types == (T.TYPE_1,)


def test_pem_c_rows_of_the_nwi_sample_are_all_flagged(nwi):
    readings = {}
    for code in nwi["ATTRIBUTE"].unique():
        try:
            readings[code] = infer_from_cowardin(code)
        except WetlandTypeError:
            continue
    emergent_c = re.compile(r"P[A-Z]{2}\d?(/[A-Z]{2}\d?)?C[a-z]*")
    expected = nwi["ATTRIBUTE"].map(lambda c: bool(emergent_c.fullmatch(c)) and "EM" in c)
    flagged = nwi["ATTRIBUTE"].map(
        lambda c: (
            c in readings and {T.TYPE_2, T.TYPE_3} <= set(readings[c].types) and readings[c].verify
        )
    )
    assert flagged[expected].all()
    # PEM1C 17, PEM1Cx 13, PEM1Ch 11, PEM5C 1, PEM1/SS1C 2, PSS1/EM1C 1
    assert int(expected.sum()) == 45
    # Seasonally flooded/saturated emergent (E) is flagged type 2 or 3 as well.
    emergent_e = re.compile(r"PEM\d?(/[A-Z]{2}\d?)?E[a-z]*")
    assert all(emergent_e.fullmatch(c) for c in nwi.loc[flagged & ~expected, "ATTRIBUTE"])


def test_nwi_wetland_ty_values_are_refused_as_nwi_categories(nwi):
    for value in nwi["WETLAND_TY"].unique():
        with pytest.raises(WetlandTypeError, match="NWI wetland category"):
            parse_wetland_type(value)


# --- the vectorised reading of a whole layer (issue 14) --------------------------------


def test_read_types_gives_the_row_by_row_reading_for_every_row():
    import warnings

    import pandas as pd

    from wetland_gis.errors import InferredWetlandTypeWarning, WetlandTypeError
    from wetland_gis.io.wetland_types import read_types, reading_for

    given = ["3", None, "Type 3/4", "shallow marsh", None, "nonsense", "2", None]
    cow = [None, "PEM1C", None, None, "L1UBH", None, "PFO1A", None]
    cedar = [0, "yes", None, 1, 0, 0, "n", None]
    frame = pd.DataFrame(
        {"t": given, "c": cow, "cedar": cedar, "status": "assessed", "status_reason": ""}
    )
    frame.loc[7, "status"] = "not_assessed"
    records: list[str] = []
    with pytest.warns(InferredWetlandTypeWarning, match="1 impact"):
        read_types(frame, "t", "c", "cedar", records)
    for i, (g, c) in enumerate(zip(given, cow, strict=True)):
        row = frame.iloc[i]
        if i == 7:
            assert pd.isna(row["wetland_type"]) and row["status"] == "not_assessed"
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", InferredWetlandTypeWarning)
                reading = reading_for(g, c)
        except WetlandTypeError as exc:
            assert row["status"] == "not_assessed"
            assert row["status_reason"] == f"wetland type: {exc}"
            assert pd.isna(row["wetland_type"])
            continue
        assert row["wetland_type"] == reading.label
        assert row["type_source"] == reading.source
        assert row["type_verify"] == bool(reading.verify or len(reading.types) > 1)
        assert row["cedar_tamarack"] == bool(
            str(cedar[i]).lower() in {"1", "yes"} or reading.cedar_tamarack
        )
    assert records and "1 impact(s)" in records[0]


def test_the_type_tables_are_package_data_read_once():
    """The Eggers & Reed and Cowardin tables live in wetland_gis/data, not in code."""
    from importlib import resources

    from wetland_gis.io import wetland_types as wt

    data = resources.files("wetland_gis").joinpath("data")
    for name in ("community_types.csv", "cowardin_crosswalk.csv"):
        assert data.joinpath(name).is_file()
    assert wt.COMMUNITY_TYPES["shrub-carr"].type == 6
    assert wt.COMMUNITY_TYPES["tamarack bog"].cedar_tamarack is True
    assert wt.COMMUNITY_TYPES["bog"].cedar_tamarack is None
    assert wt.COMMUNITY_TYPES["calcareous fen"].verify is True
    assert wt.COWARDIN_CROSSWALK[("P", "EM", "C")].types == (2, 3)
    for community in wt.COMMUNITY_TYPES.values():
        assert 1 <= community.type <= 8
    for rule in wt.COWARDIN_CROSSWALK.values():
        assert all(1 <= t <= 8 for t in rule.types) and list(rule.types) == sorted(rule.types)
        assert rule.basis
        # two types fit: a person decides
        assert rule.verify or len(rule.types) == 1


@pytest.mark.parametrize(
    ("flag", "status", "cedar"),
    [
        ("yes", "assessed", True),
        ("0", "assessed", False),
        (None, "assessed", False),  # blank: the wetland is not said to be cedar/tamarack
        ("2", "not_assessed", None),  # unreadable: never taken as "no"
        ("maybe", "not_assessed", None),
    ],
)
def test_an_unreadable_cedar_tamarack_flag_is_not_assessed_never_read_as_no(flag, status, cedar):
    """§ 103G.2241, subd. 9(a): white cedar / tamarack wetlands get the smaller amounts."""
    import pandas as pd

    from wetland_gis.io.wetland_types import read_types

    frame = pd.DataFrame({"t": ["2"], "cedar": [flag], "status": "assessed", "status_reason": ""})
    read_types(frame, "t", None, "cedar", [])
    assert frame.loc[0, "status"] == status
    if cedar is None:
        assert (
            "cedar" in frame.loc[0, "status_reason"]
            and "true or false" in frame.loc[0, "status_reason"]
        )
    else:
        assert frame.loc[0, "cedar_tamarack"] is cedar or frame.loc[0, "cedar_tamarack"] == cedar
