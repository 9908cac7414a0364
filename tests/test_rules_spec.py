"""The one rule spec (wetland_gis/rules/spec.py, issue 33 "One rule model").

Every rule id, label, citation and fact column is written once, in the spec; the registry,
the exemption registry, the field roles and the documentation tables are read from it.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import re
from pathlib import Path

import pytest
from helpers import docstring_ids

import wetland_gis
from wetland_gis.errors import RulesInputError
from wetland_gis.io.exemption_columns import EXEMPTION_FIELD_ROLES
from wetland_gis.io.fact_roles import FACT_FIELD_ROLES
from wetland_gis.io.field_names import SHAPEFILE_NAME_LIMIT
from wetland_gis.io.fields import DEFAULT_NAMES, ROLE_LABELS, field_roles
from wetland_gis.labels import rule_label
from wetland_gis.rules import spec
from wetland_gis.rules.exempt import CLAIMS, EXEMPTION_RULES, ExemptionClaims, ExemptionFacts
from wetland_gis.rules.exempt.facts import MEASURED_FACTS
from wetland_gis.rules.exempt.model import bind
from wetland_gis.rules.exempt.roads import ROAD_FACT_COLUMNS, RoadFacts
from wetland_gis.rules.registry import RULES

PACKAGE = Path(wetland_gis.__file__).parent


@pytest.mark.parametrize(
    ("args", "want"),
    [
        pytest.param(("103G.2241", "9(f)"), "Minn. Stat. § 103G.2241, subd. 9(f)", id="subd"),
        pytest.param(("103G.223", None), "Minn. Stat. § 103G.223", id="section"),
        pytest.param(("103G.2364(b)", None), "Minn. Stat. § 103G.2364(b)", id="paragraph"),
        pytest.param(
            ("103G.222", "1(f), (g), (n)"), "Minn. Stat. § 103G.222, subd. 1(f), (g), (n)"
        ),
    ],
)
def test_cite_builds_a_statute_citation_from_the_one_prefix(args, want):
    assert spec.cite(*args) == want


@pytest.mark.parametrize(
    ("args", "want"),
    [
        (("8420.0420", "1 C"), "Minn. R. 8420.0420, subp. 1 C"),
        (("8420.0117", None), "Minn. R. 8420.0117"),
    ],
)
def test_cite_rule_builds_a_rule_citation(args, want):
    assert spec.cite_rule(*args) == want


def _strings(path: Path) -> list[tuple[int, str]]:
    """Return the string constants of a module that are not docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = docstring_ids(tree)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
    ]


def test_the_statute_prefix_is_written_once_in_the_rules_the_spec_serves():
    """The registries and the exemption rules build every citation from the spec's prefix."""
    files = [
        PACKAGE / "rules" / "registry.py",
        *sorted((PACKAGE / "rules" / "exempt").glob("*.py")),
    ]
    bad = [
        f"{p.relative_to(PACKAGE)}:{n}: {text[:60]}"
        for p in files
        for n, text in _strings(p)
        if text.startswith(("Minn. Stat. §", "Minn. R. "))
    ]
    assert not bad, "build the citation with rules.spec.cite / cite_rule:\n" + "\n".join(bad)


#: A string that is a citation and nothing else: the full form of a statute or a rule, the
#: short ``§ 103G...`` form written after another citation, or the bare statute prefix.
_BARE_CITATION = re.compile(
    r"^(Minn\. Stat\. ?|Minn\. Stat\. § .*|Minn\. R\. .*|§ 103G\.\d+[a-z]?(, subd\. [^:;]*)?)$"
)

#: The modules that may not import the rule spec, and why (their citations stay written).
_NOT_FROM_THE_SPEC = {
    "palette.py": "the base layer: it imports no rules module (tests/test_layering.py)",
    "qgis_provider/command.py": "imports only the standard library: QGIS's Python reads it",
}


@pytest.mark.parametrize(
    ("text", "bare"),
    [
        pytest.param("Minn. Stat. § 103G.221", True, id="statute"),
        pytest.param("Minn. R. 8420.0420, subp. 1 B(4)", True, id="rule"),
        pytest.param("§ 103G.005, subd. 19(b)", True, id="short statute"),
        pytest.param("§ 103G.245, subd. 1(2), 7", True, id="short with two paragraphs"),
        pytest.param("Minn. Stat. ", True, id="the prefix alone"),
        pytest.param("it may not be drained without replacement (§ 103G.221)", False, id="prose"),
        pytest.param("§ 103G.222, subd. 1(m)(1): the road authority minimizes", False, id="words"),
    ],
)
def test_a_bare_citation_is_told_from_a_sentence_citing_one(text, bare):
    assert bool(_BARE_CITATION.match(text)) is bare


def test_no_module_writes_a_citation_the_spec_holds():
    """Every citation written as a value outside the spec is built from it (issue 33).

    A citation string of its own (``PUBLIC_WATERS_DRAINING``, ``WHOLE_PROJECT``, a reading's
    citations, the statute prefix ``"Minn. Stat. "`` stripped by hand) is a rule's citation
    or keyed sub-citation of ``rules/spec.py``, or built with ``cite``/``cite_rule`` there.
    Citations inside a sentence of a message are the message's words.
    """
    bad = [
        f"{rel}:{n}: {text[:70]!r}"
        for p in sorted(PACKAGE.rglob("*.py"))
        if (rel := p.relative_to(PACKAGE).as_posix()) != "rules/spec.py"
        and rel not in _NOT_FROM_THE_SPEC
        for n, text in _strings(p)
        if _BARE_CITATION.match(text) or text.startswith(("Minn. Stat. §", "Minn. R. "))
    ]
    assert not bad, "take the citation from wetland_gis/rules/spec.py:\n" + "\n".join(bad)


@pytest.mark.parametrize("rule", list(spec.RULE_SPECS.values()), ids=lambda r: r.id)
def test_every_citation_of_a_rule_is_built_from_a_prefix(rule):
    for citation in (*rule.citations, *rule.clauses.values()):
        assert citation.startswith((spec.STATUTE_PREFIX, spec.RULE_PREFIX)), citation
    assert rule.domain in spec.DOMAINS
    assert RULES[rule.id] is rule


def test_a_missing_clause_names_the_rule_and_its_clauses():
    with pytest.raises(KeyError, match=r"exemption.wildlife.10_1.*has no clause '\(iv\)'"):
        bind(_function("exemption.wildlife.10_1")).rule.clause("(iv)")


def _function(rule_id: str):
    return next(s.function for s in EXEMPTION_RULES if s.rule_id == rule_id)


def test_a_function_without_a_spec_entry_is_refused():
    assert spec.rule_of_function(len) is None
    with pytest.raises(RulesInputError, match="has no entry.*rules/spec.py"):
        bind(len)


def test_every_rule_of_rules_exempt_is_bound_to_the_function_the_spec_names():
    for s in EXEMPTION_RULES:
        assert s.function.__module__.endswith("." + s.rule.function.rsplit(".", 1)[0])
        assert s.function.__name__ == s.rule.function.rsplit(".", 1)[1]
        assert spec.rule_of_function(s.function) is s.rule


# --- the facts ------------------------------------------------------------------------


def _type_of(annotation: str) -> set[spec.FactType]:
    head = annotation.split(" ")[0].split("[")[0]
    return {
        "bool": {spec.FactType.FLAG},
        "int": {spec.FactType.WHOLE, spec.FactType.CHOICE},  # wetland_type: a choice of 1-8
        "float": {spec.FactType.NUMBER},
        "dt.date": {spec.FactType.DATE},
        "str": {spec.FactType.TEXT, spec.FactType.CHOICE},
        "frozenset": {spec.FactType.CHOICE},
    }[head]


@pytest.mark.parametrize(
    "field",
    [f for f in dataclasses.fields(ExemptionFacts) if f.name != "impact_id"],
    ids=lambda f: f.name,
)
def test_every_exemption_fact_has_one_spec_entry_of_its_type(field):
    fact = spec.exemption_fact(field.name)
    assert fact.type in _type_of(str(field.type)), (fact.type, field.type)
    assert fact.many == str(field.type).startswith("frozenset")


@pytest.mark.parametrize(
    "field",
    [f for f in dataclasses.fields(RoadFacts) if f.name not in ("project_id", "project_sqft")],
    ids=lambda f: f.name,
)
def test_every_road_fact_has_one_spec_entry_of_its_type(field):
    fact = spec.road_fact(field.name)
    assert fact.type in _type_of(str(field.type))
    assert fact.key.startswith("road_")


def test_the_exemption_facts_are_the_dataclass_fields():
    names = {f.name for f in dataclasses.fields(ExemptionFacts)} - {"impact_id"}
    in_spec = {f.name for f in spec.FACTS.values() if f.exemption}
    assert in_spec == names
    assert MEASURED_FACTS - {"impact_id"} == {
        f.name for f in spec.FACTS.values() if f.group == "computed"
    }


def test_the_claims_are_the_spec_claims_and_the_fields_of_exemption_claims():
    assert CLAIMS == tuple(f.name for f in dataclasses.fields(ExemptionClaims))
    assert set(CLAIMS) == {f.name for f in spec.FACTS.values() if f.exemption and f.claim}


def test_a_fact_column_of_its_own_fits_a_shapefile():
    for fact in spec.FACTS.values():
        if fact.group in ("exemption", "road"):
            assert len(fact.column) <= SHAPEFILE_NAME_LIMIT, fact.key


def test_the_field_roles_are_read_from_the_spec():
    layer = [f for f in spec.FACTS.values() if f.group in ("layer", "wetland")]
    assert DEFAULT_NAMES == {f.key: f.columns for f in layer}
    assert ROLE_LABELS == {f.key: f.label for f in layer}
    assert FACT_FIELD_ROLES == tuple(f.key for f in layer if f.fact_role)
    own = [f for f in spec.FACTS.values() if f.group in ("exemption", "road")]
    assert dict(EXEMPTION_FIELD_ROLES) == {f.key: f.column for f in own}
    assert ROAD_FACT_COLUMNS == {f.name: f.column for f in own if f.group == "road"}
    roles = field_roles()
    assert list(roles) == [*DEFAULT_NAMES, *EXEMPTION_FIELD_ROLES]
    # the defaults a person types: unchanged names, each with its shapefile cut
    assert roles["used_for_credit"].names == ("used_for_credit", "used_for_c")
    assert roles["road_project_kind"].names == ("road_kind",)


def test_a_choice_fact_names_its_choices():
    for fact in spec.FACTS.values():
        if fact.type is spec.FactType.CHOICE and fact.key not in ("wetland_type",):
            assert fact.choices, fact.key
        assert fact.many <= (fact.type is spec.FactType.CHOICE)


def test_an_unknown_fact_names_the_known_ones():
    with pytest.raises(KeyError, match="unknown fact 'no_such'"):
        spec.fact("no_such")


def test_a_new_fact_of_the_spec_is_a_column_the_impact_layer_reads():
    """§ 103G.2364(b)'s facts come from the spec: their roles, columns and types follow."""
    from wetland_gis.io.exemption_columns import resolve_exemption_columns

    found = resolve_exemption_columns(["IRRIG_BOOM", "fill_imped", "geometry"])
    assert found == (
        ("irrigation_boom_fill", "IRRIG_BOOM"),
        ("fill_impedes_drainage", "fill_imped"),
    )
    assert field_roles()["irrigation_boom_fill"].kind == "exemption"


def test_the_labels_module_writes_no_label_the_spec_holds():
    """labels.py reads a rule's label from the spec; it does not write it a second time."""
    labels = {rule.label for rule in spec.RULE_SPECS.values()}
    twice = [
        f"labels.py:{n}: {text!r}" for n, text in _strings(PACKAGE / "labels.py") if text in labels
    ]
    assert not twice, "read the label from the rule spec (RULES[...].label):\n" + "\n".join(twice)


@pytest.mark.parametrize(
    ("question", "shown"),
    [
        # a legacy Decision.question reads as the engine rule deciding the same question
        ("de_minimis", RULES[spec.DE_MINIMIS_PROJECT].label),
        ("de_minimis_impact", RULES[spec.DE_MINIMIS_IMPACT].label),
        ("replacement_ratio", RULES[spec.REPLACEMENT_RATIO].label),
        ("public_comment_required", RULES[spec.PROCEDURE_PUBLIC_COMMENT].label),
        ("sequencing_without_alternatives_analysis", RULES[spec.PROCEDURE_SEQUENCING].label),
        # no rule of the spec has the label these are shown with: kept as they read
        ("replacement_required", "Replacement required"),
        ("pasture_exemption", "Pasture exemption"),
        ("wildlife_spoil_exemption", "Wildlife habitat spoil exemption"),
    ],
)
def test_a_legacy_question_reads_as_before(question, shown):
    assert rule_label(question) == shown


def _library_function(path: str) -> object:
    module, name = path.rsplit(".", 1)
    return getattr(importlib.import_module(f"wetland_gis.rules.{module}"), name)


@pytest.mark.parametrize("rule", spec.rules_of("question"), ids=lambda r: r.question)
def test_each_function_a_question_names_records_that_question(rule):
    """The functions of a question's entry (docs/rules.md, "Rules implemented") answer it."""
    assert rule.functions, f"{rule.id}: name the functions answering it (functions=...)"
    for path in rule.functions:
        source = inspect.getsource(_library_function(path))
        assert f'Trace("{rule.question}"' in source, (rule.id, path)


def test_every_function_recording_a_question_is_named_by_its_entry():
    named = {path for rule in spec.rules_of("question") for path in rule.functions}
    recording = {
        f"{p.stem}.{node.name}"
        for p in sorted((PACKAGE / "rules").glob("*.py"))
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and 'Trace("' in ast.unparse(node).replace("'", '"')
    }
    assert recording, "no function of rules/ records a question"
    assert recording <= named, sorted(recording - named)


def _add_a_rule() -> str:
    text = (PACKAGE.parent / "CONTRIBUTING.md").read_text(encoding="utf-8")
    return text.split("\n## Add a rule\n", 1)[1].split("\n## ", 1)[0]


def test_every_file_add_a_rule_names_exists():
    """CONTRIBUTING.md's "Add a rule" names no module, test or document that is gone."""
    root = PACKAGE.parent
    places = (root, PACKAGE, PACKAGE / "rules", PACKAGE / "rules" / "exempt")
    named = set(re.findall(r"[\w/]+\.(?:py|yaml|md)\b", _add_a_rule()))
    missing = sorted(
        name
        for name in named
        if "<" not in name and not any(list(place.glob(name)) for place in places)
    )
    assert named and not missing, missing


def test_add_a_rule_names_the_path_of_a_library_question():
    section = _add_a_rule()
    assert "**A library question**" in section
    assert "_question(" in section and "functions=" in section
