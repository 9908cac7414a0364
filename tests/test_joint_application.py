"""The joint-application impact table (``*_summary.csv``): Part Four of the form."""

from __future__ import annotations

import geopandas as gpd
import pandas as pd
import pytest
from hypothesis import given, strategies as st
from shapely.geometry import box

from wetland_gis.io.fields import FieldMapping
from wetland_gis.io.joint_application import (
    ASSUMED_PERMANENT,
    NOT_DETERMINED,
    NOT_GIVEN,
    summary_table,
)

FM = FieldMapping(impact_id="impact_id", impact_kind="impact", wetland_acres="wetland_ac")


def _impacts(**columns) -> gpd.GeoDataFrame:
    base = {
        "impact_id": ["W-1", "W-2", "W-3"],
        "impact": ["fill", None, "drain"],
        "wetland_ac": [0.4, None, 2.0],
        "wg_row": [0, 1, 2],
        "status": ["assessed", "not_assessed", "assessed"],
        "status_reason": [None, "no wetland type", None],
        "area_sqft": [435.59, 435.6, 43_560.0],
        "area_reported": [None, None, None],
        "wetland_type": ["3", None, 2.0],
        "county": ["Wright", "Wright", "Wright"],
        "counties": [None, None, "Wright: 40000.0 sq ft; Hennepin: 3560.0 sq ft"],
        "major": [47.0, 47.0, None],
        "bsa": [7, 7, 7],
        "outcome": ["replacement_required", "not_assessed", "replacement_required"],
        "ratio": [2.0, None, 2.0],
        "replace_acres": [0.02, None, 2.0],
    }
    base.update(columns)
    return gpd.GeoDataFrame(base, geometry=[box(0, 0, 1, 1)] * 3, crs="EPSG:26915")


#: The classification's counties of the three impacts (data): W-3 straddles two.
STRADDLED = [None, None, ("Wright", "Hennepin")]


@pytest.fixture
def table() -> pd.DataFrame:
    gdf = _impacts()
    straddled = pd.Series(STRADDLED, index=gdf.index, dtype=object)
    return summary_table(gdf, FM, straddled).set_index("Aquatic resource ID")


@pytest.mark.parametrize(
    ("impact", "text", "sqft", "acres"),
    [
        pytest.param("W-1", "436 sq ft", 436, 0.01, id="under 0.01 acre: square feet"),
        pytest.param("W-2", "0.01 ac", 436, 0.01, id="exactly 0.01 acre: acres"),
        pytest.param("W-3", "1.00 ac", 43_560, 1.0, id="one acre"),
    ],
)
def test_size_as_text_and_as_numbers(table, impact, text, sqft, acres) -> None:
    row = table.loc[impact]
    assert row["Size of impact"] == text
    assert row["Size of impact (sq ft)"] == sqft
    assert row["Size of impact (ac)"] == pytest.approx(acres)
    assert pd.api.types.is_numeric_dtype(table["Size of impact (sq ft)"])
    assert pd.api.types.is_float_dtype(table["Size of impact (ac)"])


def test_every_county_of_a_straddling_impact(table) -> None:
    assert table.loc["W-3", "Counties"] == "Wright, Hennepin"
    assert table.loc["W-3", "County, Major Watershed #, Bank Service Area #"] == (
        "Wright, Hennepin; Major ?; BSA 7"
    )
    assert table.loc["W-1", "County, Major Watershed #, Bank Service Area #"] == (
        "Wright; Major 47; BSA 7"
    )


@pytest.mark.parametrize(
    ("straddled", "expected"),
    [
        pytest.param(
            [None, None, ("Wright", "Big; Stone: 1.0 sq ft")],
            "Wright, Big; Stone: 1.0 sq ft",
            id="a name the text would split is read whole",
        ),
        pytest.param(
            [None, None, ("Hennepin", "Wright")],
            "Wright, Hennepin",
            id="county first, then each straddled county once",
        ),
        pytest.param([None, None, None], "Wright", id="no straddle: the county only"),
    ],
)
def test_the_counties_are_read_as_data_not_parsed_from_the_text(straddled, expected) -> None:
    """The classification's counties (data) are used; the ``counties`` text is not read."""
    gdf = _impacts(counties=[None, None, "Wright: 40000.0 sq ft; Hennepin: 3560.0 sq ft"])
    out = summary_table(gdf, FM, pd.Series(straddled, index=gdf.index, dtype=object))
    assert out.set_index("Aquatic resource ID").loc["W-3", "Counties"] == expected


def test_part_four_duration_and_plant_community_columns(table) -> None:
    assert (table["Duration"] == ASSUMED_PERMANENT).all()  # never the favourable guess
    assert (table["Existing plant community type(s)"] == NOT_GIVEN).all()
    given_ = summary_table(
        _impacts(
            Duration=["T", "permanent", "P"], plant_community=["Shallow marsh", None, "Wet meadow"]
        ),
        FM,
    ).set_index("Aquatic resource ID")
    assert list(given_["Duration"]) == ["Temporary", "Permanent", "Permanent"]
    assert list(given_["Existing plant community type(s)"]) == [
        "Shallow marsh",
        NOT_GIVEN,
        "Wet meadow",
    ]


def test_never_nan_as_text(table, tmp_path) -> None:
    assert table.loc["W-2", "Resource type"] == NOT_DETERMINED  # not "Type nan"
    assert table.loc["W-3", "Resource type"] == "Type 2"
    assert table.loc["W-2", "Type of impact"] == NOT_GIVEN
    path = tmp_path / "summary.csv"
    table.to_csv(path)
    text = path.read_text("utf-8").lower()
    assert "nan" not in text and "none" not in text and "<na>" not in text


_MISSING_WORDS = frozenset({"nan", "none", "<na>"})


@given(
    st.lists(
        st.one_of(
            st.none(),
            st.floats(allow_nan=True),
            # a text typed "NaN" or "none" is the user's value, shown as typed
            st.text(max_size=5).filter(lambda t: t.strip().lower() not in _MISSING_WORDS),
        ),
        min_size=3,
        max_size=3,
    )
)
def test_no_text_cell_is_ever_nan_whatever_the_input(values) -> None:
    out = summary_table(_impacts(impact=values, wetland_type=values, status_reason=values), FM)
    for col in out.columns:
        if out[col].dtype == object:
            assert not any(str(v).strip().lower() in _MISSING_WORDS for v in out[col]), col


def test_without_the_counties_as_data_the_text_is_not_parsed_back() -> None:
    """A frame given without the classification's counties: each impact is in its
    ``county``; the ``counties`` text (for people) is never split into names again."""
    out = summary_table(_impacts(), FM).set_index("Aquatic resource ID")
    assert out.loc["W-3", "Counties"] == "Wright"
    assert out.loc["W-3", "County, Major Watershed #, Bank Service Area #"] == (
        "Wright; Major ?; BSA 7"
    )


def test_assess_writes_the_table(tmp_path) -> None:
    from pathlib import Path

    from wetland_gis import assess

    root = Path(__file__).resolve().parents[1] / "sample_data"
    a = assess(
        root / "projects" / "crow_wing" / "impacts.gpkg",
        root / "synthetic_context.gpkg",
        as_of="2024-05-01",
    )
    s = a.summary.set_index("Aquatic resource ID")
    assert s.loc["C-2", "Size of impact"] == "0.40 ac"
    assert s.loc["C-2", "Size of impact (ac)"] == pytest.approx(0.40, abs=0.005)
    assert s.loc["C-1", "Counties"].startswith("Crow Wing")


def test_every_outcome_and_impact_kind_has_a_human_label() -> None:
    """Every enum value a person reads in a report or map has a label, not a raw code."""
    from wetland_gis.enums import ImpactKind, ImpactOutcome, Outcome, ProjectOutcome
    from wetland_gis.labels import VALUE_LABELS

    for enum in (ImpactOutcome, ProjectOutcome, Outcome, ImpactKind):
        missing = [e.value for e in enum if e.value not in VALUE_LABELS]
        assert not missing, f"{enum.__name__} values without a label: {missing}"


_LOOK_ALIKES = [1, 1.0, True, -0.0, 0.0, 0, False, float("nan"), None, pd.NA, "1", " 1 ", "1.0"]


@pytest.mark.parametrize(
    "column",
    [
        pd.Series(_LOOK_ALIKES * 2, dtype=object),
        pd.Series([0.0, -0.0, 1.0, float("nan"), 0.0, -0.0]),
        pd.Series([7, None, 7, 47], dtype="Int64"),
        pd.Series(["Type 2", None, " 3", "Type 2", "nan"], dtype="str"),
        pd.Series([True, None, False, True], dtype="boolean"),
    ],
    ids=["objects", "floats", "Int64", "str", "boolean"],
)
def test_text_made_once_per_value_is_the_text_made_per_row(column) -> None:
    # equal cells of another type or sign (1, 1.0, True; 0.0, -0.0) print apart
    from wetland_gis.io.joint_application import _number_text, _per_value, _text, _type_text

    for func in (_text, _number_text, _type_text):
        assert _per_value(func, column) == [func(v) for v in column]
    pairs = _per_value(lambda a, b: (str(a), str(b)), column, column[::-1].reset_index(drop=True))
    assert pairs == [(str(a), str(b)) for a, b in zip(column, column[::-1], strict=True)]


def test_text_of_an_empty_table() -> None:
    from wetland_gis.io.joint_application import _per_value, _text

    assert _per_value(_text, pd.Series([], dtype=object)) == []
