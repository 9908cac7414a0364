"""The public surface of wetland_gis, frozen: adding or removing a public name is a decision.

Three namespaces are public (CONTRIBUTING.md, "The public surface"): the package itself
(``wetland_gis``), the rules core (``wetland_gis.rules``) and the decision register
(``wetland_gis.register``). Their ``__all__`` lists are written out below, sorted: a name
added to or taken from one of them fails this test until the list here is changed too, in
the same commit, with a CHANGELOG line. Every other module is internal (importable, but no
promise is made about its names) and declares no ``__all__``: only a package's
``__init__.py`` lists names (the three above, and the internal subpackages' facades).
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

PACKAGE = (
    "AssessOptions",
    "Assessment",
    "Comparison",
    "Context",
    "ContextError",
    "Decision",
    "DerivedImpacts",
    "FieldMappingError",
    "ImpactOutcome",
    "InputError",
    "LayerNotFoundError",
    "MissingCRSError",
    "Outcome",
    "ParameterError",
    "ParameterNotInForce",
    "PercentageArea",
    "Register",
    "RulesInputError",
    "ShorelandZone",
    "SitingTier",
    "ThresholdToleranceWarning",
    "WaterUseResult",
    "WetlandGISError",
    "WetlandGISWarning",
    "WetlandType",
    "__version__",
    "assess",
    "compare",
    "default_parameters",
    "impacts",
    "load_adjustments",
    "load_context",
    "load_parameters",
    "read_layer",
    "rules",
    "save_map",
    "site",
    "tep_map",
    "water_use",
    "write_layer",
    "write_report",
)

RULES = (
    "BANK_TRANSACTIONS",
    "CLAUSE_READINGS",
    "Claims",
    "DeMinimisGroup",
    "DeMinimisResult",
    "DeMinimisTotal",
    "EXEMPTION_RULES",
    "ExemptionClaims",
    "ExemptionFacts",
    "ImpactDecision",
    "ImpactFacts",
    "MOST_RESTRICTIVE",
    "MULTI_ZONE_READINGS",
    "ONE_CLAUSE",
    "PERCENT",
    "PER_CLAUSE",
    "ProjectDecision",
    "READINGS",
    "REPLACEMENT_ACTIONS",
    "RoadFacts",
    "SQFT_PER_ACRE",
    "SitingPlace",
    "TRACE_COLUMNS",
    "TraceLog",
    "ZONE_ORDER",
    "bank_fees",
    "county_classes",
    "de_minimis",
    "de_minimis_allowance",
    "decide_exemptions",
    "decide_other_exemptions",
    "decide_project",
    "decide_projects",
    "in_metropolitan_area",
    "next_tier_condition",
    "normalise_action",
    "normalise_county",
    "percentage_area_from_figures",
    "percentage_area_of_county",
    "public_comment_required",
    "public_waters_wetland",
    "replacement_action_eligibility",
    "replacement_ratio",
    "replacement_required",
    "revised_application_requires_notice",
    "road_replacement",
    "sequencing_without_alternatives_analysis",
    "siting_tier",
)

REGISTER = (
    "CreditRecord",
    "DECISION_KINDS",
    "DecisionRecord",
    "ImpactRecord",
    "REGISTER_ENV",
    "Register",
    "RegisterError",
    "RegisterUpgradeRequired",
    "RegisterVersionError",
    "SCHEMA_VERSION",
)

PUBLIC = {"wetland_gis": PACKAGE, "wetland_gis.rules": RULES, "wetland_gis.register": REGISTER}


@pytest.mark.parametrize("namespace", sorted(PUBLIC))
def test_the_public_names_are_exactly_the_frozen_list(namespace):
    module = importlib.import_module(namespace)
    assert sorted(module.__all__) == list(PUBLIC[namespace]), (
        f"{namespace}.__all__ changed: a public name added or removed is a decision; "
        "change the list in tests/test_public_api.py and say so in CHANGELOG.md"
    )
    assert len(module.__all__) == len(set(module.__all__))


@pytest.mark.parametrize("namespace", sorted(PUBLIC))
def test_every_public_name_resolves(namespace):
    module = importlib.import_module(namespace)
    for name in PUBLIC[namespace]:
        assert getattr(module, name) is not None, f"{namespace}.{name}"


def test_the_moved_error_classes_are_one_class_each_importable_where_they_were():
    """One error module (issue 33): the classes moved to errors.py are the same objects."""
    from wetland_gis import errors
    from wetland_gis.register import store
    from wetland_gis.siting import allocate

    assert allocate.AllocationError is errors.AllocationError
    for name in ("RegisterError", "RegisterVersionError", "RegisterUpgradeRequired"):
        assert getattr(store, name) is getattr(errors, name)
        assert getattr(importlib.import_module("wetland_gis.register"), name) is getattr(
            errors, name
        )
    assert issubclass(errors.RegisterUpgradeRequired, errors.RegisterVersionError)
    assert issubclass(errors.RegisterVersionError, errors.RegisterError)
    assert errors.AllocationError.__module__ == errors.RegisterError.__module__ == errors.__name__


def test_no_error_class_is_defined_outside_the_error_module():
    """Every public exception and warning class of the package is defined in errors.py."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "wetland_gis"
    outside = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "errors.py" or "qgis_provider" in path.parts:
            continue  # the QGIS side runs in QGIS's Python, without the package
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            bases = [ast.unparse(b) for b in getattr(node, "bases", [])]
            error_like = any(b.endswith(("Error", "Exception", "Warning")) for b in bases)
            if isinstance(node, ast.ClassDef) and error_like and not node.name.startswith("_"):
                outside.append(f"{path.relative_to(root.parent)}:{node.lineno} {node.name}")
    assert not outside, "move these to wetland_gis/errors.py: " + ", ".join(outside)


def _declares_all(path: Path) -> bool:
    for node in ast.parse(path.read_text("utf-8")).body:
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign)
            else []
        )
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            return True
    return False


def test_no_module_but_a_package_facade_declares_public_names():
    """Issue 33 ("make the rest private"): a module's names are internal; it has no ``__all__``.

    A name kept importable where it used to live is an explicit re-export
    (``from m import name as name``), which ruff and mypy read as one.
    """
    import wetland_gis

    root = Path(wetland_gis.__file__).parent
    declared = sorted(
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if p.name != "__init__.py" and _declares_all(p)
    )
    assert declared == [], f"internal modules with an __all__ (drop it): {declared}"
