"""The legal parameter tree the rules read (wetland_gis/parameters/wca.yaml)."""

from __future__ import annotations

import datetime as dt
import inspect
import io
import json
import textwrap
import tokenize
from pathlib import Path

import pytest
from helpers import METRO_COUNTIES, area_from_figures

import wetland_gis.rules as rules
from wetland_gis.errors import ParameterError, ParameterNotInForce
from wetland_gis.parameters import COMPARISONS, UNITS, default_parameters, load_parameters
from wetland_gis.rules import percentage_area_of_county

RULES_DIR = Path(rules.__file__).parent
PACKAGE_DIR = RULES_DIR.parent
#: Every module of the rules core: no number but 0 and 1 (and named unit constants);
#: priority.py keeps a float tolerance and is held to the all-module test below.
RULE_MODULES = tuple(sorted(p.name for p in RULES_DIR.glob("*.py") if p.name != "priority.py"))
#: Every module of the package, the rules core included, checked for legal amounts.
ALL_MODULES = tuple(sorted(str(p.relative_to(PACKAGE_DIR)) for p in PACKAGE_DIR.rglob("*.py")))
FIRST = dt.date(2018, 1, 1)


def test_the_shipped_tree_loads():
    params = default_parameters()
    assert len(params) > 50
    assert params.sha256 and params.source.endswith("wca.yaml")
    assert params.value("de_minimis.outside_zone.types_1_2_6_7_greater_than_80", "2024-05-01") == (
        10_000
    )


def test_every_leaf_is_cited_described_and_dated():
    for key, param in default_parameters().items():
        assert param.reference.startswith(("Minn. Stat. §", "Minn. R.")), key
        assert param.description, key
        assert param.unit in UNITS, key
        assert param.comparison is None or param.comparison in COMPARISONS, key
        assert param.values and all(isinstance(d, dt.date) for d, _ in param.values), key
        assert param.values[0][0] == FIRST, key


def test_the_11_metro_counties():
    metro = default_parameters().value("metropolitan_area.counties", "2024-05-01")
    assert sorted(metro) == list(METRO_COUNTIES)
    for county in metro:  # every one is a classified county
        percentage_area_of_county(county, as_of="2024-05-01")


def test_18_8_61_is_87_distinct_counties():
    params = default_parameters()
    lists = [
        params.value(f"percentage_area.counties.{k}", "2024-05-01")
        for k in ("greater_than_80", "from_50_to_80", "less_than_50")
    ]
    assert [len(x) for x in lists] == [18, 8, 61]
    every = [c for x in lists for c in x]
    assert len(set(every)) == len(every) == 87


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "bad.yaml"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


LEAF = """
    amount:
      description: a thing
      unit: {unit}
      reference: Minn. Stat. § 103G.2241, subd. 9(c)
      comparison: at_most
      values: {values}
"""


def leaf(values: str = "{2018-01-01: 20}", unit: str = "square_foot") -> str:
    """Return a parameter leaf in :data:`LEAF`: 20 sq ft from 2018 unless told otherwise."""
    return LEAF.format(unit=unit, values=values)


@pytest.mark.parametrize(
    ("body", "match"),
    [
        pytest.param(
            leaf() + leaf(), "duplicate key 'amount'", id="a duplicate parameter key is refused"
        ),
        pytest.param(
            leaf("{2018-01-01: 20, 2018-01-01: 30}"),
            "duplicate key",
            id="a duplicate date is refused",
        ),
        pytest.param(
            leaf(unit="square_metre"),
            "unit 'square_metre' is not one of",
            id="an unknown unit is refused",
        ),
        pytest.param(
            leaf("{'in 2018': 20}"),
            "is not a date; write YYYY-MM-DD",
            id="a non-date key is refused",
        ),
        pytest.param(
            leaf("{2018-01-01: -20}"), "non-negative number", id="a negative amount is refused"
        ),
        pytest.param(
            "amount:\n  description: a thing\n  unit: square_foot\n  values: {2018-01-01: 1}\n",
            r"missing \['reference'\]",
            id="a parameter without its citation is refused",
        ),
    ],
)
def test_malformed_trees_raise_parameter_error(tmp_path, body, match):
    with pytest.raises(ParameterError, match=match):
        load_parameters(_write(tmp_path, body))


def test_a_date_before_the_known_law_is_not_in_force():
    params = default_parameters()
    key = "de_minimis.setback_zone.amount"
    with pytest.raises(ParameterNotInForce) as info:
        params.value(key, "2017-12-31")
    message = str(info.value)
    assert key in message
    assert "Minn. Stat. § 103G.2241, subd. 9(c)" in message
    assert "2017-12-31" in message and "2018-01-01" in message
    assert "Add the earlier value" in message
    assert params.value(key, "2018-01-01") == 20


def test_limits_compare_as_the_law_says():
    params = default_parameters()
    at_most = params["de_minimis.setback_zone.amount"]
    assert at_most.passes(20, "2024-05-01") and not at_most.passes(21, "2024-05-01")
    less_than = params["procedure.public_comment_threshold"]
    assert less_than.passes(9_999, "2024-05-01") and not less_than.passes(10_000, "2024-05-01")
    at_least = params["public_waters_wetland.min_acres_unincorporated"]
    assert at_least.passes(10, "2024-05-01") and not at_least.passes(9.99, "2024-05-01")
    greater = params["procedure.revised_application_distance"]
    assert greater.passes(501, "2024-05-01") and not greater.passes(500, "2024-05-01")


def test_with_values_is_dated():
    params = default_parameters().with_values({"de_minimis.setback_zone.amount": 10}, "2030-01-01")
    assert params.value("de_minimis.setback_zone.amount", "2029-12-31") == 20
    assert params.value("de_minimis.setback_zone.amount", "2030-01-01") == 10
    assert default_parameters().value("de_minimis.setback_zone.amount", "2030-01-01") == 20


def _numbers(path: Path) -> list[tuple[int, str, str]]:
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    return [(t.start[0], t.string, t.line.strip()) for t in tokens if t.type == tokenize.NUMBER]


# A named unit constant may hold its number; nothing else may be more than 0 or 1.
ALLOWED_LINES = (
    "PERCENT = 100",
    "AMOUNT_STEP_SQFT = 10",  # a display rounding step, not an amount
)
LEGAL_AMOUNTS = {
    10_000,
    5_000,
    2_500,
    2_000,
    1_000,
    500,
    400,
    100,
    80,
    50,
    20,
    15,
    10,
    5,
    2,
    6.5,
    0.5,
    2.5,
    1992,
    43_560,
}


#: Numbers outside the rules core that equal a legal amount but are not law, reviewed one by
#: one (module, text of the line).
NOT_LAW = {
    ("memory.py", "CHUNK_SUGGESTION_STEP = 1_000"),  # rounding of a suggested chunk size
    ("memory.py", "CHUNK_SUGGESTION_SHARE = 0.5"),  # a memory margin
    ("geometry/shoreland.py", "share >= 0.5"),  # a majority share of a polygon
    ("mapping/tep_map.py", "_style(color, color, 2.5,"),  # a line width in pixels
    ("mapping/tep_map.py", "simplify_m: float = 0.5"),  # a display simplification
    ("mapping/tep_map.py", "margin_m: float = 5000.0"),  # a map margin in metres
    ("siting/raster.py", "CUBIC_METRES_PER_ACRE_FOOT = 43_560"),  # a unit conversion
    ("units.py", "SQFT_PER_ACRE = 43_560.0"),  # a unit conversion
    ("mapping/report.py", "_AXES_CENTRE = (0.5, 0.5)"),  # the centre of a figure's axes
    ("mapping/static_map.py", "_AXES_CENTRE = (0.5, 0.5)"),  # the centre of the map's axes
    ("mapping/static_map.py", "bbox_to_anchor=(0.5, -0.01)"),  # legend below the map
    ("io/safe_write.py", '("kB", 1e3)'),  # bytes in a kilobyte (the free-space message)
    ("siting/allocate.py", "_WIDEN_HELD = 1e3"),  # a solver tolerance factor
}
#: Legal amounts distinctive enough to be law wherever they appear (small integers such as
#: 2 or 5 are indices, digits and types outside the rules core).
DISTINCTIVE = LEGAL_AMOUNTS - {100, 20, 10, 5, 2}


@pytest.mark.parametrize("module", ALL_MODULES)
def test_no_legal_amount_is_written_in_any_module(module):
    """Every module of wetland_gis/, and modules added later: legal amounts live in the tree."""
    offending = []
    for line_no, text, line in _numbers(PACKAGE_DIR / module):
        value = float(text.replace("_", ""))
        if value in DISTINCTIVE and not any(
            m == module and snippet in line for m, snippet in NOT_LAW
        ):
            offending.append(f"{module}:{line_no}: {line}")
    assert not offending, "legal amounts written in code:\n" + "\n".join(offending)


@pytest.mark.parametrize("module", RULE_MODULES)
def test_no_legal_amount_is_written_in_the_rules(module):
    """Every legal number is read from the parameter tree; the code holds only 0 and 1."""
    path = RULES_DIR / module
    offending = []
    for line_no, text, line in _numbers(path):
        value = float(text.replace("_", ""))
        if line in ALLOWED_LINES:
            continue
        if value in LEGAL_AMOUNTS or value not in (0, 1):
            offending.append(f"{module}:{line_no}: {line}")
    assert not offending, "legal amounts written in code:\n" + "\n".join(offending)


def test_rules_public_api():
    exported = list(rules.__all__)
    assert len(exported) == len(set(exported)), "a name is listed twice in rules.__all__"
    namespace: dict[str, object] = {}
    exec("from wetland_gis.rules import *", namespace)  # fails on a listed name that is absent
    assert set(namespace) - {"__builtins__"} == set(exported)
    # every public name the package imports is exported, and comes from the rules core
    public = {
        name
        for name, obj in vars(rules).items()
        if not name.startswith("_") and not inspect.ismodule(obj) and name != "annotations"
    }
    assert public == set(exported), f"not in __all__: {sorted(public - set(exported))}"
    for name in exported:
        obj = getattr(rules, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            assert obj.__module__.startswith("wetland_gis."), (name, obj.__module__)
            assert obj.__doc__, f"{name} has no docstring"


def test_every_rule_returns_a_json_ready_decision():
    from wetland_gis.enums import PercentageArea, ShorelandZone

    day = "2024-05-01"
    lt50 = PercentageArea.LESS_THAN_50
    ratio = rules.replacement_ratio(lt50, False, as_of=day)
    decisions = [
        area_from_figures(10, 9, 100, 20, 0),
        rules.percentage_area_of_county("Itasca", as_of=day),
        rules.in_metropolitan_area("Scott", as_of=day),
        rules.public_waters_wetland([3], 11.0, False, as_of=day),
        rules.de_minimis_allowance(2, ShorelandZone.OUTSIDE, lt50, True, as_of=day),
        ratio,
        rules.replacement_required(1_000, ratio),
        rules.sequencing_without_alternatives_analysis(3_000, 2_000, as_of=day),
        rules.public_comment_required(12_000, as_of=day),
        rules.revised_application_requires_notice(100, 120, 0, as_of=day),
        rules.bank_fees(1_000, "withdrawal", as_of=day),
    ]
    for d in decisions:
        text = json.dumps(d.to_dict())
        assert d.citations and d.reasons and d.as_of == day, d.question
        assert all(c.startswith(("Minn. Stat. §", "Minn. R.")) for c in d.citations), text
        assert set(d.parameters) <= set(default_parameters()), d.question


@pytest.mark.parametrize(
    ("comparison", "at_limit", "one_over", "one_under"),
    [
        ("at_most", True, False, True),
        ("less_than", False, False, True),
        ("at_least", True, True, False),
        ("greater_than", False, True, False),
    ],
)
def test_limit_tests_decide_at_and_beside_the_limit(comparison, at_limit, one_over, one_under):
    from decimal import Decimal

    from wetland_gis.parameters import COMPARISONS, LIMIT_TESTS

    assert set(LIMIT_TESTS) == COMPARISONS
    test = LIMIT_TESTS[comparison]
    limit = Decimal(10_000)
    assert test(limit, limit) is at_limit
    assert test(limit + 1, limit) is one_over
    assert test(limit - 1, limit) is one_under
