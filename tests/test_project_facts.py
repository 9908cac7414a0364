"""Facts given once per project: ``--project-facts FILE`` / ``AssessOptions(project_facts=)``.

Issue 32, "Also": road and exemption facts came only from columns; a CSV or YAML keyed by
project gives the CLI the same facts (docs/data_schema.md, "Project facts"). A blank cell
takes the file's value; a cell giving another answer is an error (either value could be
the one that favours the applicant); the file is an input of the manifest, with its hash.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import geopandas as gpd
import pandas as pd
import pytest
from helpers import CONTEXT

import wetland_gis as wg
from wetland_gis.cli import build_parser
from wetland_gis.errors import InputError
from wetland_gis.io.checksums import file_sha256
from wetland_gis.io.project_facts import apply_project_facts, read_project_facts
from wetland_gis.manifest import Manifest

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "docs" / "templates"
ROAD = ROOT / "sample_data" / "projects" / "county_road" / "impacts.gpkg"
ROAD_COLUMNS = ["road_kind", "road_auth", "road_serv", "road_std"]


def _layer(**columns):
    base = {"impact_id": ["A", "B", "C"], "project": ["P1", "P1", "P2"]}
    base.update(columns)
    return pd.DataFrame(base)


@pytest.mark.parametrize("name", ["project_facts.csv", "project_facts.yaml"])
def test_the_templates_read_as_the_same_facts(name):
    facts = read_project_facts(TEMPLATES / name)
    road = facts.facts["County road sample"]
    assert road["road_project_kind"] == "reconstruction"
    assert road["road_authority"] == "county"
    assert facts.facts["Pipeline crossing"]["utility_work"] in ("yes", True)
    assert facts.sha256 == file_sha256(TEMPLATES / name)


def test_a_blank_cell_takes_the_projects_fact_and_star_gives_every_project():
    facts = read_project_facts({"P1": {"road_kind": "new_road"}, "*": {"owner": "X"}})
    out = apply_project_facts(_layer(), facts, {})
    assert out["road_kind"].tolist() == ["new_road", "new_road", None]
    assert out["owner"].tolist() == ["X", "X", "X"]


def test_a_cell_that_agrees_is_kept_and_one_that_disagrees_is_an_error():
    facts = read_project_facts({"P1": {"road_serv": True}})
    kept = apply_project_facts(_layer(road_serv=["yes", None, "no"]), facts, {})
    assert kept["road_serv"].tolist() == ["yes", True, "no"]  # P2's own "no" is not touched
    with pytest.raises(InputError, match=r"project 'P1'.*impact 'B'.*column 'road_serv'"):
        apply_project_facts(_layer(road_serv=["yes", "no", None]), facts, {})


def test_a_fact_goes_to_the_column_the_user_named_for_its_role():
    facts = read_project_facts({"P1": {"road_auth": "county"}})
    out = apply_project_facts(_layer(auth=[None, None, None]), facts, {"road_authority": "auth"})
    assert out["auth"].tolist() == ["county", "county", None]
    assert "road_auth" not in out


@pytest.mark.parametrize(
    ("text", "suffix", "match"),
    [
        pytest.param(
            "project,road_kind\nP1,new_road\nP1,repair\n", ".csv", "given twice", id="dup"
        ),
        pytest.param("road_kind\nnew_road\n", ".csv", "no 'project' column", id="no project"),
        pytest.param("project,colour\nP1,red\n", ".csv", "'colour' is not a fact", id="not a fact"),
        pytest.param("- P1\n- P2\n", ".yaml", "one mapping per project", id="yaml list"),
        pytest.param("project,road_kind\n", ".txt", "is .csv or .yaml", id="extension"),
    ],
)
def test_a_bad_project_facts_file_is_an_error_naming_it(tmp_path, text, suffix, match):
    path = tmp_path / f"facts{suffix}"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=match):
        read_project_facts(path)


def test_the_manifest_records_the_file_its_hash_and_what_it_filled(tmp_path):
    path = tmp_path / "facts.csv"
    path.write_text("project,owner\nP1,X\nP9,Y\n", encoding="utf-8")
    manifest = Manifest(command="assess", as_of="2024-05-01")
    apply_project_facts(_layer(), read_project_facts(path), {}, manifest)
    got = manifest.to_dict()
    (record,) = [i for i in got["inputs"] if i["role"] == "project_facts"]
    assert record["sha256"] == file_sha256(path)
    text = " ".join(got["records"])
    assert "2 blank fact cell(s) filled" in text and "'P9'" in text  # P9 is not in the layer


def test_the_cli_takes_the_file():
    args = build_parser().parse_args(["assess", "x.gpkg", "--out", "o", "--project-facts", "f.csv"])
    assert args.project_facts == "f.csv"


@pytest.mark.slow  # assess on sample data
def test_subd_1m_a_road_project_decided_from_the_file_as_from_its_columns():
    # § 103G.222, subd. 1(m): the county road sample, its road columns moved to the file
    layer = gpd.read_file(ROAD).drop(columns=ROAD_COLUMNS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wg.WetlandGISWarning)
        bare = wg.assess(layer, CONTEXT, as_of="2024-05-01")
        options = wg.AssessOptions(project_facts=TEMPLATES / "project_facts.yaml")
        filled = wg.assess(layer, CONTEXT, as_of="2024-05-01", options=options)
    assert set(filled.impacts["replacement_by"]) == {"board"}  # the board replaces
    assert not set(bare.impacts["replacement_by"].dropna())  # without the facts it does not
    assert filled.manifest.to_dict()["settings"]["project_facts"].endswith("project_facts.yaml")
