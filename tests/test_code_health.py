"""Project habits that are files: py.typed, pre-commit, the changelog's Law table, docs.

The changelog test regenerates the Law table from the parameter tree, so a legal value
added or changed without its changelog row fails here.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import tomllib
from pathlib import Path

import pytest
import yaml

import wetland_gis
from wetland_gis.parameters import default_parameters

ROOT = Path(__file__).resolve().parents[1]


def load_tool(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_package_is_marked_typed_and_ships_the_marker():
    assert (Path(wetland_gis.__file__).parent / "py.typed").is_file()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["wetland_gis"]


def test_make_test_runs_doctests_and_prints_coverage_when_asked():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    line = next(x for x in recipe.splitlines() if "pytest" in x and "nbmake" not in x)
    assert "tests wetland_gis" in line and "--doctest-modules" in line and "$(COV_ARGS)" in line
    # COVERAGE=1 (CI) adds the coverage report; an empty COVERAGE leaves it out
    assert "COV_ARGS := $(if $(COVERAGE),--cov --cov-report=term,)" in makefile
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    dev = project["project"]["optional-dependencies"]["dev"]
    assert any(r.startswith("pytest-cov") for r in dev)


def test_make_check_and_make_test_run_on_every_core_with_shared_fixtures_grouped():
    """Issue 33: both run under pytest-xdist (loadgroup); check leaves out the slow markers."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "\nXDIST := -n $(WORKERS) --dist loadgroup\n" in makefile
    markers = makefile.split("\nCHECK_MARKERS := ", 1)[1].split("\n", 1)[0]
    for marker in ("browser", "qgis", "pdf", "slow", "postgis"):
        assert f"not {marker}" in markers, marker
    for target in ("check", "test"):
        recipe = makefile.split(f"\n{target}:", 1)[1].split("\n\n", 1)[0]
        pytest_lines = [x for x in recipe.splitlines() if "pytest" in x]
        assert pytest_lines and all("-n " in x or "$(XDIST)" in x for x in pytest_lines), target
    check = makefile.split("\ncheck:", 1)[1].split("\n\n", 1)[0]
    assert '-m "$(CHECK_MARKERS)" $(XDIST)' in check
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert any(
        r.startswith("pytest-xdist") for r in project["project"]["optional-dependencies"]["dev"]
    )
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    # CI runs every marker: the README's make test, with CI=true and coverage measured
    assert ci[-1] == "make test COVERAGE=1"
    test = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert "$(COV_ARGS)" in test and "fail_under = 94" in (ROOT / "pyproject.toml").read_text()


def test_pre_commit_runs_ruff_yamllint_on_the_parameters_and_mypy():
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    hooks = {h["id"]: h for repo in config["repos"] for h in repo["hooks"]}
    assert {"ruff-check", "ruff-format", "yamllint", "mypy"} <= set(hooks)
    for repo in config["repos"]:
        assert re.fullmatch(r"v\d+\.\d+\.\d+", repo["rev"]), repo
    assert re.search(hooks["yamllint"]["files"], "wetland_gis/parameters/wca.yaml")
    assert not re.search(hooks["yamllint"]["files"], "environment.yml")
    assert re.search(hooks["mypy"]["files"], "wetland_gis/assess.py")


def test_the_formatting_is_checked_by_make_lint_and_on_each_commit():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    lint = makefile.split("\nlint:", 1)[1].split("\n\n", 1)[0]
    assert "ruff format --check wetland_gis tests benchmarks sample_data tools" in lint
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    hooks = {h["id"]: h for repo in config["repos"] for h in repo["hooks"]}
    assert "stages" not in hooks["ruff-format"]
    assert re.search(hooks["ruff-format"]["files"], "tools/make_notebooks.py")


def test_the_changelog_law_table_is_in_step_with_the_parameter_tree():
    tool = load_tool("changelog_law")
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert tool.with_table(text, tool.law_table()) == text, (
        "CHANGELOG.md's Law table is stale: run `python tools/changelog_law.py --write` and "
        "describe the change under [Unreleased]"
    )


def _shipped_trees():
    from wetland_gis.parameters import load_parameters

    folder = Path(wetland_gis.__file__).parent / "parameters"
    return [load_parameters(folder / name) for name in ("wca.yaml", "water_use.yaml")]


def test_the_law_table_has_a_row_for_every_dated_value_with_its_citation():
    tool = load_tool("changelog_law")
    table = tool.law_table()
    trees = _shipped_trees()
    assert default_parameters().source == trees[0].source
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert len(rows) == sum(len(params[key].values) for params in trees for key in params)
    for params in trees:
        assert f"parameters in `wetland_gis/parameters/{Path(params.source).name}`" in table
        for key in params:
            par = params[key]
            for day, _value in par.values:
                assert any(
                    row.startswith(f"| `{key}` |")
                    and f"| {day.isoformat()} |" in row
                    and par.reference in row
                    for row in rows
                ), key
    assert (
        "| `de_minimis.outside_zone.types_1_2_6_7_greater_than_80` | 10000 | square_foot | "
        "2018-01-01 | Minn. Stat. § 103G.2241, subd. 9(a)(1) |" in rows
    )
    # water appropriation, both editions (§ 103G.271, subd. 6(f): "$20", 1Sp2025 "$100")
    for value, day in ((20, "2018-01-01"), (100, "2026-01-01")):
        assert (
            f"| `water_use.fee.irrigation_minimum` | {value} | usd | {day} | "
            "Minn. Stat. § 103G.271, subd. 6(f) |" in rows
        )
    assert any(r.startswith("| `water_use.permit.intermediate_amount` | null |") for r in rows)


@pytest.mark.parametrize(
    ("tree", "old", "new", "row"),
    [
        pytest.param(
            "wca.yaml",
            "values: {2018-01-01: 10000}",
            "values: {2018-01-01: 10000, 2030-07-01: 12000}",
            "| 12000 | square_foot | 2030-07-01 | Minn. Stat. § 103G.2241, subd. 9(a)(1) |",
            id="wca.yaml 9(a)(1)",
        ),
        pytest.param(
            "water_use.yaml",
            "values: {2018-01-01: 20, 2026-01-01: 100}",
            "values: {2018-01-01: 20, 2026-01-01: 100, 2030-07-01: 150}",
            "| 150 | usd | 2030-07-01 | Minn. Stat. § 103G.271, subd. 6(f) |",
            id="water_use.yaml 103G.271 6(f)",
        ),
    ],
)
def test_the_law_table_lists_a_new_dated_value(tmp_path, tree, old, new, row):
    tool = load_tool("changelog_law")
    source = (Path(wetland_gis.__file__).parent / "parameters" / tree).read_text(encoding="utf-8")
    changed = source.replace(old, new, 1)
    assert changed != source
    path = tmp_path / tree
    path.write_text(changed, encoding="utf-8")
    assert row in tool.law_table(path)
    assert row not in tool.law_table()
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert tool.with_table(text, tool.law_table(path)) != text


def test_the_changelog_follows_keep_a_changelog():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog")
    assert "keepachangelog.com" in text
    assert "## [Unreleased]" in text
    unreleased = text.split("## [Unreleased]", 1)[1]
    for section in ("### Added", "### Changed", "### Law"):
        assert section in unreleased


@pytest.mark.parametrize(
    "heading",
    [
        "## Change a legal number",
        "## Add a rule",
        "## Add a context layer",
        "## Run the benchmarks",
    ],
)
def test_contributing_explains(heading):
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert heading in text
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    assert len(section.split()) > 40, heading


#: Modules split into one step per function (issue 33): none of their functions may grow
#: past :data:`ONE_STEP_LINES` again. Add a module here once its long functions are split.
ONE_STEP_MODULES = (
    "assess.py",
    "cli.py",
    "commands.py",
    "compare.py",
    "partitioned.py",
    "screen.py",
    "context.py",
    "geometry/cleaning.py",
    "geometry/shoreland.py",
    "impacts.py",
    "io/bank_listing.py",
    "io/impact_facts.py",
    "io/layers.py",
    "io/wetland_types.py",
    "mapping/popups.py",
    "mapping/report.py",
    "mapping/static_map.py",
    "mapping/tep_map.py",
    "register/cli.py",
    "register/fill.py",
    "siting/allocate.py",
    "siting/engine.py",
    "siting/rank.py",
)
#: The most lines a function of those modules may have, its docstring left out (issue 33).
ONE_STEP_LINES = 80


def _lines_without_docstring(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Return the lines of a function (nested functions included), its docstring left out."""
    lines = node.end_lineno - node.lineno + 1 if node.end_lineno else 1
    first = node.body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        if isinstance(first.value.value, str) and first.end_lineno:
            lines -= first.end_lineno - first.lineno + 1
    return lines


@pytest.mark.parametrize("module", ONE_STEP_MODULES)
def test_each_function_of_a_split_module_is_one_step(module):
    tree = ast.parse((ROOT / "wetland_gis" / module).read_text(encoding="utf-8"))
    long = [
        f"{node.name} (line {node.lineno}): {_lines_without_docstring(node)} lines"
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and _lines_without_docstring(node) > ONE_STEP_LINES
    ]
    assert not long, f"split into named steps (STYLE.md, issue 33): {long}"


#: The package-wide limits of issue 33: no function of ``wetland_gis/`` over this many
#: lines (its docstring left out) ...
PACKAGE_MAX_LINES = 120
#: ... and at most this many over :data:`ONE_STEP_LINES`.
PACKAGE_MAX_OVER_ONE_STEP = 15


def _function_lengths(root: Path) -> list[tuple[int, str]]:
    """Return ``(lines, "file:line name")`` of every function below ``root``, longest first."""
    rows = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                where = f"{path.relative_to(root.parent).as_posix()}:{node.lineno} {node.name}"
                rows.append((_lines_without_docstring(node), where))
    return sorted(rows, key=lambda row: (-row[0], row[1]))


def test_a_functions_length_leaves_its_docstring_out(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(80))
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text(
        f'def one_step():\n    """Say it.\n\n    At length.\n    """\n{body}\n\n\n'
        f"def two_steps():\n{body}\n    y = 1\n",
        encoding="utf-8",
    )
    assert _function_lengths(tmp_path / "pkg") == [
        (82, "pkg/m.py:88 two_steps"),
        (81, "pkg/m.py:1 one_step"),
    ]


def test_no_function_of_the_package_is_over_120_lines():
    long = [
        f"{w}: {n}" for n, w in _function_lengths(ROOT / "wetland_gis") if n > PACKAGE_MAX_LINES
    ]
    assert not long, (
        f"{len(long)} function(s) over {PACKAGE_MAX_LINES} lines, none allowed "
        f"(issue 33; split into named steps, STYLE.md): {long}"
    )


def test_at_most_15_functions_of_the_package_are_over_80_lines():
    over = [f"{w}: {n}" for n, w in _function_lengths(ROOT / "wetland_gis") if n > ONE_STEP_LINES]
    assert len(over) <= PACKAGE_MAX_OVER_ONE_STEP, (
        f"{len(over)} functions over {ONE_STEP_LINES} lines, at most "
        f"{PACKAGE_MAX_OVER_ONE_STEP} allowed (issue 33): {over}"
    )
