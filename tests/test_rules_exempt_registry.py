"""The registry, the facts and the invariants of every exemption rule (rules/exempt/)."""

from __future__ import annotations

import dataclasses
import io
import tokenize
from pathlib import Path

import pytest
from exempt_helpers import DAY, FACTS
from hypothesis import given, settings, strategies as st

from wetland_gis.enums import Outcome
from wetland_gis.errors import RulesInputError
from wetland_gis.parameters import default_parameters
from wetland_gis.rules import exempt
from wetland_gis.rules.exempt import (
    CLAIMS,
    EXEMPTION_RULES,
    FACT_COLUMNS,
    ConditionStatus,
    ExemptionClaims,
    ExemptionFacts,
    RuleSpec,
    spec_of,
)
from wetland_gis.rules.exempt.facts import LATER_EVENT_FACTS

PACKAGE = Path(exempt.__file__).parents[2]
ROOT = PACKAGE.parent
EXEMPTIONS = [s for s in EXEMPTION_RULES if s.kind in ("exemption", "procedure")]
#: The exemptions without the procedures (whose outcome the invariants below speak of).
EXEMPTIONS_ONLY = [s for s in EXEMPTIONS if s.kind == "exemption"]
#: Facts that are not impact-layer columns: the id and the areas measured from geometry.
MEASURED = {
    "impact_id",
    "impact_sqft",
    "project_sqft",
    "project_type_2_6_drained_sqft",
    "wetland_spoil_sqft",
}
#: Columns the impact layer already reads, or the context layers already write, under these
#: names (docs/data_schema.md).
EXISTING = {
    "impact_kind",
    "circ39",
    "land_use",
    "wetland_ac",
    "banked",
    "used_for_c",
    "wetland_id",
    "incorporated",
    "calcareous_fen",
}


def test_rule_ids_are_unique_and_each_is_written_once_in_the_package():
    ids = [s.rule_id for s in EXEMPTION_RULES]
    assert len(ids) == len(set(ids))
    text = "\n".join(p.read_text(encoding="utf-8") for p in PACKAGE.rglob("*.py"))
    for rule_id in ids:
        assert text.count(rule_id) == 1, rule_id


def test_every_clause_of_the_issue_has_a_rule():
    clauses = {s.citations[0].split("subd. ")[-1] for s in EXEMPTION_RULES if s.kind != "road"}
    want = {f"1({i})" for i in range(1, 8)} | {"2(b)", "2(c)", "2(d)", "2(e)", "3"}
    want |= {"4(1)", "4(2)", "5(1)", "5(2)", "5(3)", "5(4)", "6(a)(1)", "6(a)(2)", "6(a)(3)"}
    want |= {"6(b)", "7(1)", "7(2)", "10(1)", "10(2)"}
    assert want <= clauses, sorted(want - clauses)


@pytest.mark.parametrize("spec", EXEMPTION_RULES, ids=lambda s: s.rule_id)
def test_registry_entries_are_complete(spec):
    params = default_parameters()
    assert spec.label and spec.label[0].isupper()
    assert spec.citations and all(
        c.startswith(("Minn. Stat. §", "Minn. R.")) for c in spec.citations
    )
    for key in spec.parameter_keys:
        assert params.citation(key).startswith(("Minn. Stat. §", "Minn. R.")), key
    assert spec_of(spec.function) is spec
    assert spec.function.__doc__


#: Each attribute a bound rule reads from its spec entry, and the entry's field.
SPEC_ATTRIBUTES = [
    ("rule_id", "id"),
    ("label", "label"),
    ("citations", "citations"),
    ("parameter_keys", "parameters"),
    ("kind", "kind"),
    ("use_restriction", "use_restriction"),
    ("facts", "facts"),
]


@pytest.mark.parametrize(("attribute", "field"), SPEC_ATTRIBUTES)
def test_a_bound_rule_reads_its_entry_from_the_spec_read_only(attribute, field):
    for spec in EXEMPTION_RULES:
        assert getattr(spec, attribute) == getattr(spec.rule, field), spec.rule_id
    assert getattr(RuleSpec, attribute).__doc__  # documented on the class
    spec = EXEMPTION_RULES[0]
    with pytest.raises(AttributeError, match=f"'{attribute}'"):
        object.__setattr__(spec, attribute, "changed")
    assert getattr(spec, attribute) == getattr(spec.rule, field)


@settings(max_examples=40, deadline=None)
@given(FACTS)
def test_rules_read_only_their_listed_parameters(facts):
    for spec in EXEMPTIONS:
        result = spec.function(facts, None, DAY)
        assert set(result.parameters) <= set(spec.parameter_keys), spec.rule_id


def test_an_unregistered_function_is_refused():
    with pytest.raises(RulesInputError, match="has no entry in EXEMPTION_RULES"):
        spec_of(len)


def _numbers(path: Path) -> list[tuple[int, str, str]]:
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    return [(t.start[0], t.string, t.line.strip()) for t in tokens if t.type == tokenize.NUMBER]


@pytest.mark.parametrize(
    "module", sorted(p.name for p in Path(exempt.__file__).parent.glob("*.py"))
)
def test_no_legal_number_is_written_in_the_exemption_rules(module):
    allowed = ("PERCENT = 100",)
    bad = [
        f"{module}:{n}: {line}"
        for n, text, line in _numbers(Path(exempt.__file__).parent / module)
        if float(text.replace("_", "")) not in (0, 1) and line not in allowed
    ]
    assert not bad, "legal numbers belong in wca.yaml:\n" + "\n".join(bad)


def test_fact_columns_cover_every_fact_and_fit_a_shapefile():
    fields = {f.name for f in dataclasses.fields(ExemptionFacts)}
    assert set(FACT_COLUMNS) == fields - MEASURED
    columns = list(FACT_COLUMNS.values())
    assert len(columns) == len(set(columns))
    assert all(len(c) <= 10 for c in columns if c not in EXISTING)


def test_claims_are_facts_of_the_same_name():
    fields = {f.name: f.type for f in dataclasses.fields(ExemptionFacts)}
    for name in CLAIMS:
        assert fields[name] == "bool | None"
    assert set(CLAIMS) == {f.name for f in dataclasses.fields(ExemptionClaims)}


def test_docs_list_every_rule_fact_and_parameter():
    docs = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for spec in EXEMPTION_RULES:
        assert f"`{spec.rule_id}`" in docs, spec.rule_id
        for key in spec.parameter_keys:
            assert f"`{key}`" in docs, key
    for fact, column in FACT_COLUMNS.items():
        assert f"`{fact}`" in docs and f"`{column}`" in docs, fact


# --- invariants of every exemption rule ----------------------------------------------


@settings(max_examples=150, deadline=None)
@given(FACTS)
def test_the_outcome_follows_the_conditions(facts):
    for spec in EXEMPTIONS_ONLY:
        result = spec.function(facts, None, DAY)
        statuses = [c.status for c in result.conditions]
        if result.outcome is Outcome.EXEMPT:
            assert all(s is ConditionStatus.MET for s in statuses), spec.rule_id
            assert not result.unknown
        elif result.outcome is Outcome.NOT_EXEMPT:
            assert ConditionStatus.FAILED in statuses and result.failed
        elif result.outcome is Outcome.CONDITIONAL:
            assert ConditionStatus.UNKNOWN in statuses and result.unknown
            assert all(any(f in v for v in result.verify) for f in result.unknown)
        else:
            assert result.outcome is Outcome.NOT_APPLIED
            assert any(
                c.defining and c.status is ConditionStatus.UNKNOWN for c in result.conditions
            )


#: a later event not given is not recorded, not unknown (LATER_EVENT_FACTS, docs/rules.md)
FIELDS = [
    f.name
    for f in dataclasses.fields(ExemptionFacts)
    if f.name != "impact_id" and f.name not in LATER_EVENT_FACTS
]


@settings(max_examples=150, deadline=None)
@given(FACTS, st.sampled_from(FIELDS))
def test_forgetting_a_fact_never_makes_an_answer_exempt(facts, name):
    forgotten = dataclasses.replace(facts, **{name: None})
    for spec in EXEMPTIONS_ONLY:
        known = spec.function(facts, None, DAY).outcome
        unknown = spec.function(forgotten, None, DAY).outcome
        if known is not Outcome.EXEMPT:
            assert unknown is not Outcome.EXEMPT, (spec.rule_id, name)
        if unknown is Outcome.EXEMPT:
            assert known is Outcome.EXEMPT, (spec.rule_id, name)


@settings(max_examples=100, deadline=None)
@given(FACTS)
def test_an_unknown_fact_read_by_a_condition_is_never_exempt(facts):
    for spec in EXEMPTIONS_ONLY:
        result = spec.function(facts, None, DAY)
        if result.outcome is Outcome.EXEMPT:
            for c in result.conditions:
                assert c.status is ConditionStatus.MET


@pytest.mark.parametrize(
    ("values", "match"),
    [
        pytest.param({"wetland_type": 9}, "Circular 39 type", id="type 9"),
        pytest.param({"wetland_type": True}, "Circular 39 type", id="type True"),
        pytest.param({"land_use": "forest"}, "land_use 'forest' is not one of", id="land use"),
        pytest.param({"impact_kind": "dredge"}, "impact_kind", id="impact kind"),
        pytest.param({"duck_blind": "yes"}, "duck_blind must be True, False or None", id="flag"),
        pytest.param({"impact_sqft": -1.0}, "finite number >= 0", id="negative area"),
        pytest.param({"wetland_acres": float("inf")}, "finite number >= 0", id="infinite"),
    ],
)
def test_bad_facts_are_refused_naming_the_field(values, match):
    with pytest.raises(RulesInputError, match=match):
        ExemptionFacts(**values)


def test_facts_are_keyword_only_and_frozen():
    with pytest.raises(TypeError):
        ExemptionFacts("A", 2)  # type: ignore[misc]
    f = ExemptionFacts(duck_blind=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.duck_blind = False  # type: ignore[misc]


def test_a_result_is_immutable_and_json_ready():
    import json

    result = exempt.wildlife.duck_blinds(ExemptionFacts(duck_blind=True), None, DAY)
    json.dumps(result.to_dict())
    with pytest.raises(TypeError):
        result.parameters["x"] = 1  # type: ignore[index]
    assert result.to_decision().outcome is result.outcome


def test_the_exemption_rules_import_no_geometry_or_table_library():
    import json
    import subprocess
    import sys

    code = (
        "import json, sys\n"
        "import wetland_gis.rules.exempt\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    loaded = set(json.loads(out.stdout.strip().splitlines()[-1]))
    heavy = {"geopandas", "shapely", "pyproj", "pyogrio", "fiona", "rasterio", "pandas", "numpy"}
    assert not loaded & heavy, sorted(loaded & heavy)
