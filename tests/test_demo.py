"""``make demo`` end to end: the sample projects through assess, site, map and report.

CI runs ``make test``, not ``make demo``; this test keeps the demo honest. The browser test
opens the demo's real map (not a fixture) offline.
"""

from __future__ import annotations

import json
from pathlib import Path

import geopandas as gpd
import pandas as pd
import pytest
from test_browser import chromium_page, keep_offline

from wetland_gis import demo


@pytest.fixture
def outputs(demo_run):
    """The demo's output folder (one run for the whole test session: tests/session_fixtures.py)."""
    assert demo_run.code == 0
    return demo_run.out


@pytest.mark.slow
@pytest.mark.pdf
def test_demo_writes_every_output_of_both_projects(outputs, capsys):
    for name in ("wright_metro", "crow_wing"):
        folder = outputs / name
        for f in (
            "assessed.gpkg",
            "assessed_summary.csv",
            "assessed_projects.csv",
            "assessed_decisions.json",
            "assessed_manifest.json",
            "tep_map.html",
            "tep_report.html",
            "siting/ranking.csv",
            "siting/allocation.csv",
            "siting/siting.gpkg",
            "siting/siting_manifest.json",
        ):
            assert (folder / f).is_file(), f"{name}/{f} missing"


def test_demo_prints_worked_decisions_with_citations():
    text = "\n\n".join(demo.worked_examples())
    assert "Minn. Stat. § 103G.2241, subd. 9(a)(1)" in text
    assert "Minn. Stat. § 103G.2241, subd. 9(d)(2)" in text
    assert "Minn. Stat. § 103G.222, subd. 1(f)" in text


@pytest.mark.slow
@pytest.mark.pdf
def test_every_sample_impact_is_in_the_output(outputs):
    for name, source in (("wright_metro", "impacts.shp"), ("crow_wing", "impacts.gpkg")):
        src = gpd.read_file(
            Path(demo.__file__).resolve().parents[1] / "sample_data" / "projects" / name / source
        )
        out = gpd.read_file(outputs / name / "assessed.gpkg", layer="impacts")
        assert list(out["impact_id"]) == list(src["impact_id"])


@pytest.mark.slow
@pytest.mark.pdf
def test_wright_siting_meets_the_requirement_and_excludes_the_greater_than_80_site(outputs):
    folder = outputs / "wright_metro" / "siting"
    ranking = pd.read_csv(folder / "ranking.csv")
    plan = pd.read_csv(folder / "allocation.csv")
    impacts = gpd.read_file(outputs / "wright_metro" / "assessed.gpkg", layer="impacts")
    owed = impacts["replace_acres"].sum()
    assert plan["credits"].sum() == pytest.approx(owed, rel=1e-6)
    # S-5 lies in a reclassified greater than 80 percent area: § 103G.222 subd. 3(a)
    s5 = ranking[ranking["option_id"] == "S-5"]
    assert len(s5) and s5["excluded"].astype(bool).all()
    assert s5["exclusion_reason"].str.contains("greater than 80").all()
    assert "S-5" not in set(plan["option_id"])


@pytest.mark.slow
@pytest.mark.pdf
def test_manifests_name_inputs_with_hashes(outputs):
    m = json.loads((outputs / "crow_wing" / "assessed_manifest.json").read_text())
    assert all(i["sha256"] for i in m["inputs"] if i["role"] == "impacts")
    assert m["version"]


@pytest.mark.slow
@pytest.mark.pdf
@pytest.mark.browser
def test_demo_map_opens_offline_and_shows_every_impact(outputs):
    errors, blocked = [], []
    with chromium_page() as page:
        keep_offline(page, blocked)
        page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto((outputs / "wright_metro" / "tep_map.html").as_uri())
        page.wait_for_selector('path[data-wg-layer="impacts"]', state="attached")
        assert page.locator('path[data-wg-layer="impacts"]').count() == 7
        page.locator('path[data-wg-layer="impacts"][data-wg-id="W-3"]').click(force=True)
        popup = page.locator(".leaflet-popup-content")
        popup.wait_for(timeout=5_000)
        # issue 18 §3 (the own_zone reading): W-3, a type 7 outside the zone in a metro
        # less-than-50-percent area, has no amount in its own zone; W-5 in the setback zone
        # does not lend it the paragraph (c) amount
        assert "Minn. Stat. § 103G.2241, subd. 9(a)(3), (d)(2)" in popup.inner_text()
    assert errors == [] and blocked == []


def test_summary_table_rounds_acres_and_credits_alike_and_says_nothing_unmet():
    """The demo printed `unmet_ac None` and 1.4964 beside 1.50 (issue 21)."""
    rows = [
        {
            "project": "Wright metro sample",
            "features": 7,
            "total": "0.86 ac",
            "replace_ac": round(1.49643, 2),
            "allocated": 1.4964,
            "cost_usd": 20717.0,
            "unmet_ac": 0.0,
        }
    ]
    text = demo.summary_table(rows)
    line = text.splitlines()[1].split()
    assert line[-4:] == ["1.50", "1.50", "20,717", "0.00"]
    assert "None" not in text and "1.4964" not in text


def test_water_use_tally_has_no_replacement_line():
    from wetland_gis.commands import tally_impacts

    points = pd.DataFrame(
        {"status": ["assessed", "assessed"], "outcome": ["permit_required", "verify"]}
    )
    lines = tally_impacts(points, "water-use").lines()
    assert not any("replacement" in line for line in lines)
    impacts = points.assign(replace_acres=[0.5, 0.25])
    assert "replacement required: 0.7500 ac" in tally_impacts(impacts, "assess").lines()


def test_progress_bar_ends_its_line_before_the_tally(capsys):
    """A bar written to a log or pipe ran into the tally line printed after it."""
    from wetland_gis.partitioned import _progress

    bar = _progress(3, "assess", True)
    bar.update(3)
    bar.close()
    err = capsys.readouterr().err
    assert "3/3" in err and err.endswith("\n")


@pytest.mark.slow
@pytest.mark.pdf
def test_demo_records_both_sample_decisions_and_writes_the_summary(outputs):
    from wetland_gis.register import Register

    with Register(outputs / "register.gpkg") as reg:
        decisions = reg.decisions()
        assert sorted(decisions["lgu"]) == sorted(v["lgu"] for v in demo.DEMO_DECISIONS.values())
        assert set(decisions["kind"]) == {"replacement_plan_approved"}
        assert len(reg.impacts()) == sum(
            len(gpd.read_file(outputs / p / "assessed.gpkg", layer="impacts"))
            for p in demo.DEMO_DECISIONS
        )
    summary = pd.read_csv(outputs / "register_summary_2024.csv")
    assert summary["decisions_replacement_plan_approved"].tolist() == [1, 1]
    assert (summary["replaced_acres"] > 0).all()
