"""The impact-facts adapter (wetland_gis.io.impact_facts) and the screening texts it uses.

Issue 18 §1: the rows-to-facts adapter lives in ``io/`` and is built from columns; the
verify texts live in the rules that own them (``rules/screening.py``,
``rules/public_waters.py``); the Cowardin water regime is read by ``io/wetland_types``.
"""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest
from hypothesis import given, strategies as st

from wetland_gis.enums import ImpactKind, Outcome, PercentageArea, ShorelandZone, WetlandType
from wetland_gis.io.fields import FieldMapping
from wetland_gis.io.impact_facts import (
    NOTE_COLUMNS,
    ROLE_FACTS,
    STEP_FIELDS,
    FactSteps,
    impact_facts,
)
from wetland_gis.io.wetland_types import water_regime_flooded
from wetland_gis.parameters import default_parameters
from wetland_gis.rules import ImpactFacts, registry as R
from wetland_gis.rules.public_waters import public_waters_wetland, public_waters_wetland_screen
from wetland_gis.rules.screening import (
    NO_FEN_LAYER_VERIFY,
    WATERCOURSE_OHWL_VERIFY,
    fen_review_verify,
    governing_type,
    no_public_waters_layer_verify,
)

DAY = dt.date(2024, 5, 1)
PARAMS = default_parameters()


def layer(n: int = 1, **columns) -> pd.DataFrame:
    """Return ``n`` classified rows (one type 2 impact of 500 sq ft outside the zone)."""
    base = {
        "wetland_type": "2",
        "incorporated": False,
        "cedar_tamarack": False,
        "metro": False,
        "pct_class": PercentageArea.GREATER_THAN_80.value,
        "sqft_setback": 0.0,
        "sqft_protection": 0.0,
        "sqft_outside": 500.0,
        "zone": ShorelandZone.OUTSIDE.value,
        "calcareous_fen": False,
        "nearest_pw_ft": float("nan"),
        "nearest_pw": None,
        "type_verify": False,
        "type_note": None,
        "county": "Wright",
        **{c: "" for c in NOTE_COLUMNS},
    }
    base.update(columns)
    return pd.DataFrame({k: [v] * n if not isinstance(v, list) else v for k, v in base.items()})


def run(gdf: pd.DataFrame, field_map: FieldMapping | None = None, **kw):
    rows = gdf.index.tolist()
    keys = {i: f"I{i}" for i in rows}
    projects = {i: "P" for i in rows}
    return impact_facts(gdf, field_map or FieldMapping(), rows, keys, projects, PARAMS, DAY, **kw)


def only(table) -> ImpactFacts:
    (facts,) = table.groups["P"]
    return facts


# --- the optional fact columns: one line of ROLE_FACTS each -------------------------------

ROLE_CASES = [
    ("banked", "yes", True),
    ("used_for_credit", "true", True),
    ("wetland_id", " W-7 ", "W-7"),
    ("owner", "Smith", "Smith"),
    ("owns_whole_wetland", "no", False),
    ("portion_sqft", "1,200", 1200.0),
    ("prior_sqft_since_1992", "-5", None),  # a negative area is not an area: unknown
    ("isolated", "yes", True),
    ("runoff_retention", "", None),
    ("bottomland_hardwood", "0", False),
    ("land_use", "pasture", "pasture"),
    ("duration", "temporary", "temporary"),
    ("cowardin", "PUBH", True),
]


@pytest.mark.parametrize(("role", "cell", "expected"), ROLE_CASES, ids=[c[0] for c in ROLE_CASES])
def test_each_role_column_reaches_its_fact(role, cell, expected):
    name = next(f for f, r, _ in ROLE_FACTS if r == role)
    table = run(layer(**{"col": cell}), FieldMapping(**{role: "col"}))
    assert getattr(only(table), name) == expected


def test_every_role_fact_is_an_impact_facts_field_and_unknown_without_its_column():
    facts = only(run(layer()))
    defaults = ImpactFacts.__dataclass_fields__
    for name, _role, _reader in ROLE_FACTS:
        assert name in defaults
        assert getattr(facts, name) in (None, False)


def test_a_column_is_read_by_distinct_value_with_the_same_result_per_row():
    cells = ["yes", "no", "", None, "yes", 1, True, "1"]
    table = run(layer(len(cells), col=cells), FieldMapping(banked="col"))
    assert [f.banked for f in table.groups["P"]] == [True, False, False, False, True] + [True] * 3


# --- § 103G.201: the public waters inventory, from a column or the context layer --------

INVENTORY_CASES = [
    ("column only", "86-0123W", None, "86-0123W"),
    ("layer only", None, "86-0456W", "86-0456W"),
    ("the column wins over the layer", "86-0123W", "86-0456W", "86-0123W"),
    ("layer given, not touched: size fallback", None, "", None),
    ("neither", None, None, None),
]


@pytest.mark.parametrize(
    ("column", "layer_ids", "expected"),
    [c[1:] for c in INVENTORY_CASES],
    ids=[c[0] for c in INVENTORY_CASES],
)
def test_subd_201_inventory_id_from_column_or_layer(column, layer_ids, expected):
    gdf = layer(col=column, pw_wetland=layer_ids)
    facts = only(run(gdf, FieldMapping(pw_inventory_id="col")))
    assert facts.pw_inventory_id == expected
    assert facts.public_waters_wetland is (expected is not None)


# --- the screening steps ----------------------------------------------------------------


def test_without_a_fen_layer_or_with_a_public_water_the_context_step_says_so():
    table = run(layer(calcareous_fen=None, nearest_pw_ft=40.0, nearest_pw="86-1P"))
    cols = table.steps.columns
    assert cols["rule_id"] == [R.FACTS_CONTEXT]
    assert cols["verify"][0] == [WATERCOURSE_OHWL_VERIFY, NO_FEN_LAYER_VERIFY]
    assert cols["inputs"][0] == {"nearest_pw": "86-1P"}
    assert only(table).below_ohwl is False


def test_on_the_ohwl_the_impact_is_below_it():
    """§ 103G.245, subd. 1(2): 0 ft from the public water is on or waterward of its OHWL."""
    assert only(run(layer(nearest_pw_ft=0.0, nearest_pw="x"))).below_ohwl is True


def test_no_public_waters_layer_note_only_when_assumed():
    assumed = run(layer(), assume_no_public_waters=True).steps.columns["verify"]
    assert assumed == [[no_public_waters_layer_verify(PARAMS, DAY)]]
    assert len(run(layer()).steps) == 0


def test_fen_review_item_within_the_distance_but_not_on_the_fen():
    near = pd.Series([True, True])
    table = run(layer(2, calcareous_fen=[False, True]), fen_review_ft=100.0, fens_near=near)
    cols = table.steps.columns
    assert cols["impact_id"] == ["I0"]
    assert cols["verify"][0] == [fen_review_verify(100.0)]
    assert [f.calcareous_fen for f in table.groups["P"]] == [False, True]


def test_mixed_polygon_is_held_to_the_governing_type_with_a_step():
    table = run(layer(wetland_type="2/3"))
    wtype, note = governing_type(
        (WetlandType(2), WetlandType(3)),
        (ShorelandZone.OUTSIDE,),
        PercentageArea.GREATER_THAN_80,
        False,
        False,
        PARAMS,
        DAY,
    )
    assert only(table).wetland_type is wtype
    cols = table.steps.columns
    assert cols["rule_id"][0] == R.FACTS_WETLAND_TYPE
    assert cols["reason"][0] == note and cols["verify"][0] == [note]
    assert cols["value"][0] == float(int(wtype))


def test_extra_steps_follow_the_rows_own_steps_by_keyword():
    step = (
        "register.prior",
        "cite",
        Outcome.CLASSIFIED.value,
        1.0,
        "why",
        ["v"],
        {"a": 1},
        {"k": "2"},
    )
    table = run(layer(calcareous_fen=None), extra_steps={0: [step]})
    cols = table.steps.columns
    assert cols["rule_id"] == [R.FACTS_CONTEXT, "register.prior"]
    assert [cols[f][1] for f in STEP_FIELDS] == list(step)


def test_an_unknown_impact_kind_is_decided_as_drain_or_fill_with_a_verify_item():
    table = run(layer(col="bulldoze"), FieldMapping(impact_kind="col"))
    assert only(table).impact_kind is ImpactKind.UNKNOWN
    assert "'bulldoze' is not fill, drain or excavate" in table.steps.columns["verify"][0][0]


def test_partial_share_only_for_a_partial_drain():
    """Minn. R. 8420.0522, subp. 2: a share is the panel's, from the floor to 1."""
    fm = FieldMapping(impact_kind="k", partial="p", partial_share="s")
    cases = layer(
        4,
        k=["drain", "drain", "fill", "drain"],
        p=["yes", "yes", "yes", "no"],
        s=[0.7, 1.5, 0.7, 0.7],
    )
    got = [(f.partial, f.partial_share) for f in run(cases, fm).groups["P"]]
    assert got == [(True, 0.7), (True, None), (False, None), (False, None)]


def test_fact_steps_are_keyword_only():
    steps = FactSteps()
    with pytest.raises(TypeError):
        steps.add("P", "I", "r", "c", "o", None, "why")  # type: ignore[misc]


# --- the Cowardin water regime (one reader, io/wetland_types) ---------------------------

REGIMES = [
    ("PUBH", True),  # permanently flooded
    ("PEM1F", True),  # semipermanently flooded
    ("PABG", True),  # intermittently exposed
    ("PEM1C", False),  # seasonally flooded
    ("pem1cd", False),
    ("L2EM2F", True),  # lacustrine littoral: the subsystem digit is read
    ("PEM/SS1C", False),  # a split class: the regime after it
    ("PEM1", None),  # no regime
    ("", None),
    (None, None),
    ("not a code", None),
]


@pytest.mark.parametrize(("code", "expected"), REGIMES, ids=[str(c) for c, _ in REGIMES])
def test_water_regime_flooded(code, expected):
    """§ 103G.222, subd. 1(a): permanently or semipermanently flooded, as the NWI says."""
    assert water_regime_flooded(code) is expected


# --- the public waters wetland screen with an unknown city status -----------------------


@given(acres=st.floats(min_value=0, max_value=50, allow_nan=False))
def test_known_city_status_is_the_size_rule_itself(acres):
    for incorporated in (True, False):
        ours = public_waters_wetland_screen(3, acres, incorporated, params=PARAMS, as_of=DAY)
        theirs = public_waters_wetland(3, acres, incorporated, params=PARAMS, as_of=DAY)
        assert ours == theirs


@given(acres=st.floats(min_value=0, max_value=50, allow_nan=False))
def test_unknown_city_status_is_screened_rural_and_says_so_where_it_matters(acres):
    """§ 103G.005, subd. 15a: the city limit is smaller; an unknown status is said."""
    rural = public_waters_wetland(3, acres, False, params=PARAMS, as_of=DAY)
    urban = public_waters_wetland(3, acres, True, params=PARAMS, as_of=DAY)
    screen = public_waters_wetland_screen(3, acres, None, params=PARAMS, as_of=DAY)
    assert screen.outcome is rural.outcome
    extra = len(screen.verify) - len(rural.verify)
    assert extra == (0 if rural.outcome is urban.outcome else 1)
    if extra:
        assert "incorporated" in screen.verify[-1]


# --- ImpactFacts.from_columns: checked by column, equal to the constructor row by row ---


def _rows_of(columns: dict) -> list[dict]:
    names = list(columns)
    return [dict(zip(names, values, strict=True)) for values in zip(*columns.values(), strict=True)]


def _one_by_one(columns: dict) -> list[ImpactFacts] | str:
    try:
        return [ImpactFacts(**row) for row in _rows_of(columns)]
    except Exception as exc:  # the message is compared
        return f"{type(exc).__name__}: {exc}"


def _by_column(columns: dict) -> list[ImpactFacts] | str:
    try:
        return ImpactFacts.from_columns(columns)
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"


def _columns(n: int = 3, **extra: list) -> dict:
    columns = {
        "impact_id": [f"I{i}" for i in range(n)],
        "wetland_type": [WetlandType(2)] * n,
        "cedar_tamarack": [False] * n,
        "sqft_setback": [0.0] * n,
        "sqft_protection": [0.0] * n,
        "sqft_outside": [9_000.0 + i for i in range(n)],
        "pct_class": [PercentageArea.GREATER_THAN_80] * n,
        "metro": [False] * n,
    }
    columns.update(extra)
    return columns


def test_facts_by_column_normalise_the_inventory_id_as_the_constructor_does():
    columns = _columns(
        3,
        pw_inventory_id=["  62-5W ", "  ", None],
        public_waters_wetland=[False, False, True],
    )
    facts = ImpactFacts.from_columns(columns)
    assert facts == _one_by_one(columns)
    assert [f.pw_inventory_id for f in facts] == ["62-5W", None, None]
    assert [f.public_waters_wetland for f in facts] == [True, False, True]
    assert [f.area_sqft for f in facts] == [9_000.0, 9_001.0, 9_002.0]


@pytest.mark.parametrize(
    "extra",
    [
        {"wetland_type": [2, 3, WetlandType(4)]},  # converted by the constructor
        {"sqft_outside": [1, 2, 3]},  # ints become floats
        {"sqft_outside": [1.0, -1.0, 2.0]},  # refused
        {"sqft_outside": [1.0, float("nan"), 2.0]},  # refused
        {"metro": [False, 1, True]},  # refused: not a bool
        {"pct_class": ["greater_than_80_percent"] * 3},  # converted
        {"impact_kind": ["fill", "drain", "bogus"]},  # refused
        {"partial": [False, True, False]},  # a partial fill: refused
        {
            "impact_kind": [ImpactKind.DRAIN] * 3,
            "partial": [True, True, False],
            "partial_share": [0.5, 1.5, None],  # refused: over 1
        },
        {"impact_id": ["A", ["B"], "C"]},  # refused: not hashable
    ],
)
def test_facts_by_column_convert_or_refuse_exactly_as_the_constructor(extra):
    columns = _columns(3, **extra)
    assert _by_column(columns) == _one_by_one(columns)


_CELLS = st.sampled_from(
    [None, True, False, 0, 1, 0.0, 0.5, 1.0, 2.5, -1.0, float("nan"), float("inf"), "", " x "]
)


@given(
    st.dictionaries(
        st.sampled_from(
            [
                "flooded",
                "owns_whole_wetland",
                "incorporated",
                "portion_sqft",
                "wetland_acres",
                "partial",
                "partial_share",
                "pw_inventory_id",
                "calcareous_fen",
                "sqft_setback",
            ]
        ),
        st.lists(_CELLS, min_size=2, max_size=2),
        max_size=4,
    ),
    st.sampled_from([ImpactKind.DRAIN, ImpactKind.FILL, "drain"]),
)
def test_facts_by_column_equal_the_constructor_for_any_cells(extra, kind):
    columns = _columns(2, impact_kind=[kind, kind], **extra)
    assert _by_column(columns) == _one_by_one(columns)


def test_facts_by_column_of_a_subclass_are_built_by_its_constructor():
    from dataclasses import dataclass

    @dataclass(frozen=True, kw_only=True)
    class Noted(ImpactFacts):
        def __post_init__(self) -> None:
            super().__post_init__()
            object.__setattr__(self, "owner", "checked")

    facts = Noted.from_columns(_columns(2))
    assert [type(f) for f in facts] == [Noted, Noted]
    assert [f.owner for f in facts] == ["checked", "checked"]
