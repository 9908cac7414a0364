"""Packaging: pyproject.toml and environment.yml list the same packages; mypy is pinned."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~ \[]", requirement.strip(), maxsplit=1)[0].lower()


def test_environment_yml_matches_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {_name(r) for r in project["dependencies"]}
    for extra in project["optional-dependencies"].values():
        wanted |= {_name(r) for r in extra}
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    have = {_name(d) for d in env["dependencies"] if isinstance(d, str)} - {"python", "pip"}
    assert have == wanted


def test_package_data_ships_parameters_counties_and_map_assets():
    import wetland_gis

    pkg = Path(wetland_gis.__file__).parent
    assert (pkg / "parameters" / "wca.yaml").is_file()
    assert (pkg / "data" / "mn_counties_cb2016_500k.geojson").is_file()
    assert list((pkg / "mapping" / "assets").rglob("leaflet*.js"))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    data = project["tool"]["setuptools"]["package-data"]["wetland_gis"]
    for pattern in ("parameters/*.yaml", "data/*", "mapping/templates/*"):
        assert pattern in data


# issue 12 §5: mypy over wetland_gis/ (`make typecheck`, the pre-commit hook); the py.typed
# marker is tested in test_code_health.py


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _pinned(requirements: list[str], name: str) -> str:
    """Return the exact version ``name==X`` pins in ``requirements`` (fails if not pinned)."""
    found = [r for r in requirements if _name(r) == name]
    assert len(found) == 1, f"{name} is listed {len(found)} times: {found}"
    match = re.fullmatch(rf"{name}==(\d+\.\d+\.\d+)", found[0].split("#")[0].strip(), re.I)
    assert match, f"{name} must be pinned with == (new releases find new errors): {found[0]!r}"
    return match.group(1)


def _mypy_hook() -> tuple[dict, dict]:
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    for repo in config["repos"]:
        for hook in repo["hooks"]:
            if hook["id"] == "mypy":
                return repo, hook
    raise AssertionError(".pre-commit-config.yaml has no mypy hook")


def test_mypy_is_pinned_to_one_version_in_pyproject_and_environment_yml():
    dev = _pyproject()["project"]["optional-dependencies"]["dev"]
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    conda = [d for d in env["dependencies"] if isinstance(d, str)]
    assert _pinned(dev, "mypy") == _pinned(conda, "mypy")
    assert "types-pyyaml" in {_name(r) for r in dev}


def test_mypy_config_checks_wetland_gis_and_ignores_missing_imports_only_by_name():
    mypy = _pyproject()["tool"]["mypy"]
    assert mypy["files"] == ["wetland_gis"]
    assert mypy["python_version"] == "3.11"
    for flag in ("warn_unused_ignores", "warn_redundant_casts", "no_implicit_optional"):
        assert mypy[flag] is True, flag
    assert "ignore_missing_imports" not in mypy, "no global ignore_missing_imports"
    overrides = [o for o in mypy.get("overrides", []) if o.get("ignore_missing_imports")]
    assert overrides, "the untyped libraries are listed in a [[tool.mypy.overrides]]"
    modules = [m for o in overrides for m in o["module"]]
    assert "wetland_gis" not in {m.split(".")[0] for m in modules}
    assert all(m.split(".")[0] not in {"", "*"} for m in modules), modules
    assert {"geopandas.*", "shapely.*"} <= set(modules)


def test_the_mypy_hook_runs_on_each_commit_with_the_pinned_mypy_and_the_same_stubs():
    repo, hook = _mypy_hook()
    dev = _pyproject()["project"]["optional-dependencies"]["dev"]
    assert repo["rev"] == "v" + _pinned(dev, "mypy")
    assert "stages" not in hook, "mypy runs in the default stage"
    assert "--ignore-missing-imports" not in hook.get("args", [])
    extra = {_name(d) for d in hook["additional_dependencies"]}
    stubs = {n for n in {_name(r) for r in dev} if n.startswith("types-") or n.endswith("-stubs")}
    assert stubs <= extra, "the hook installs the stubs the dev extra installs"
    assert {n for n in extra if n.startswith("types-") or n.endswith("-stubs")} == stubs


def test_make_typecheck_runs_mypy_from_the_venv():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\ntypecheck:", 1)[1].split("\n\n", 1)[0]
    assert "$(BIN)/mypy" in recipe
    lint = makefile.split("\nlint:", 1)[1].split("\n", 1)[0]
    assert "typecheck" in lint.split(), "make lint (and so make test and CI) runs mypy"


# issue 18 §5: the supported Python is the one the tests and mypy run on


def test_python_requirement_is_the_version_tests_and_mypy_check():
    project = _pyproject()
    assert project["project"]["requires-python"] == ">=3.11"
    assert project["tool"]["mypy"]["python_version"] == "3.11"
    assert project["tool"]["ruff"]["target-version"] == "py311"
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    assert "python>=3.11" in env["dependencies"]


# issue 18 §5: dask-geopandas and distributed are the `scale` extra, not the base install


def test_dask_is_the_scale_extra_and_make_setup_installs_it():
    project = _pyproject()["project"]
    base = {_name(r) for r in project["dependencies"]}
    scale = {_name(r) for r in project["optional-dependencies"]["scale"]}
    assert scale == {"dask-geopandas", "distributed"}
    assert not base & scale
    assert "'.[dev,pdf,scale]'" in (ROOT / "Makefile").read_text(encoding="utf-8")


def test_engine_dask_without_the_scale_extra_names_the_extra(monkeypatch):
    import sys

    from wetland_gis import partitioned
    from wetland_gis.errors import MissingExtraError

    monkeypatch.setitem(sys.modules, "dask_geopandas", None)  # import raises ImportError
    with pytest.raises(MissingExtraError, match=r"wetland_gis\[scale\]"):
        partitioned._run_dask([], None, {}, None, None, None, timeout=1.0)
