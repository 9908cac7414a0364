"""pyproject.toml and environment.yml list the same packages."""

from __future__ import annotations

import re
from pathlib import Path

import tomllib
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
