"""Sequencing: ``compare`` of a project's alternatives (§ 103G.222, subd. 1(b); 8420.0520).

Each sample project is compared with four alternatives: its impacts (preferred), a reduced
footprint, one that avoids every wetland and no-build. The figures of the table are checked
against each alternative's own assessment (the comparison reads decisions, it decides
nothing), and the page is opened in Chromium.
"""

from __future__ import annotations

import csv
import html
from pathlib import Path

import geopandas as gpd
import pandas as pd
import pytest
from test_browser import CHROMIUM, CHROMIUM_ARGS, _require_browser

import wetland_gis as wg
from wetland_gis.cli import main
from wetland_gis.compare import NO_BUILD, NO_IMPACT, SEQUENCING_PRINCIPLES, TABLE_COLUMNS, compare
from wetland_gis.errors import InputError

AS_OF = "2024-05-01"
PROJECTS = ("wright_metro", "crow_wing")


def _alternatives(sample_data, project: str) -> list:
    folder = sample_data.root / "projects" / project
    return [
        folder / "impacts.gpkg",
        folder / "alternatives" / "reduced.gpkg",
        folder / "alternatives" / "avoid.gpkg",
        NO_BUILD,
    ]


@pytest.fixture(scope="module", params=PROJECTS)
def compared(request, sample_data):
    project = request.param
    folder = sample_data.root / "projects" / project
    comparison = compare(
        _alternatives(sample_data, project),
        sample_data.context,
        names=["preferred", "reduced", "avoid", "no-build"],
        as_of=AS_OF,
        sites=folder / "candidate_sites.gpkg",
        banks=sample_data.path("synthetic_bank_credits.csv"),
    )
    return project, comparison


@pytest.mark.filterwarnings("ignore::wetland_gis.errors.WetlandGISWarning")
def test_each_alternative_row_is_read_from_its_own_assessment(compared, sample_data):
    _, comparison = compared
    table = comparison.table.set_index("alternative")
    assert list(comparison.table.columns) == list(TABLE_COLUMNS)
    for alt in comparison.alternatives:
        row = table.loc[alt.name]
        a = alt.assessment
        assert row["impacts"] == len(a.impacts)
        done = a.impacts[a.impacts["status"] == "assessed"] if len(a.impacts) else a.impacts
        assert row["wetland_sqft"] == pytest.approx(
            float(done["area_sqft"].sum()) if len(done) else 0
        )
        replace = float(a.projects["replace_acres"].sum()) if len(a.projects) else 0.0
        assert row["replace_credits"] == pytest.approx(replace)
        assert row["credits_allocated"] == pytest.approx(float(alt.siting.totals["credits"]))
        assert row["cost_usd"] == pytest.approx(float(alt.siting.totals["cost"]))
        # one unit throughout (issue 30): the unmet figure is in credits, not impact acres
        assert row["credits_unmet"] == pytest.approx(float(alt.siting.totals["credits_unmet"]))


@pytest.mark.filterwarnings("ignore::wetland_gis.errors.WetlandGISWarning")
def test_the_comparison_assesses_alike_as_assess_does(compared, sample_data):
    """The preferred row equals a plain `assess` of the same layer with the same date."""
    project, comparison = compared
    plain = wg.assess(
        sample_data.root / "projects" / project / "impacts.gpkg",
        context=sample_data.context,
        as_of=AS_OF,
    )
    preferred = comparison.alternatives[0].assessment
    assert list(preferred.impacts["outcome"]) == list(plain.impacts["outcome"])
    assert list(preferred.projects["replace_acres"]) == list(plain.projects["replace_acres"])


@pytest.mark.filterwarnings("ignore::wetland_gis.errors.WetlandGISWarning")
def test_avoid_and_no_build_impact_nothing_and_reduced_impacts_less(compared):
    """§ 103G.222, subd. 1(b)(1)-(2): the avoiding alternatives have no wetland impact."""
    _, comparison = compared
    t = comparison.table.set_index("alternative")
    for name in ("avoid", "no-build"):
        assert t.loc[name, "impacts"] == 0
        assert t.loc[name, "wetland_sqft"] == 0
        assert t.loc[name, "outcome"] == NO_IMPACT
        assert t.loc[name, "replace_credits"] == 0
        assert t.loc[name, "d_wetland_pct"] == pytest.approx(-100.0)
    assert 0 < t.loc["reduced", "wetland_sqft"] < t.loc["preferred", "wetland_sqft"]
    assert t.loc["reduced", "d_wetland_sqft"] == pytest.approx(
        t.loc["reduced", "wetland_sqft"] - t.loc["preferred", "wetland_sqft"]
    )
    assert t.loc["preferred", ["d_wetland_sqft", "d_replace_credits", "d_cost_usd"]].tolist() == [
        0,
        0,
        0,
    ]


@pytest.mark.filterwarnings("ignore::wetland_gis.errors.WetlandGISWarning")
def test_by_type_zone_adds_up_to_the_wetland_area(compared):
    _, comparison = compared
    by = comparison.by_type_zone.groupby("alternative")["sqft"].sum()
    t = comparison.table.set_index("alternative")
    for name, sqft in by.items():
        assert sqft == pytest.approx(t.loc[name, "wetland_sqft"])
    assert set(by.index) == {"preferred", "reduced"}


@pytest.mark.filterwarnings("ignore::wetland_gis.errors.WetlandGISWarning")
def test_the_sequencing_section_follows_the_order_of_subd_1b_and_names_what_the_lgu_finds(
    compared,
):
    """Minn. R. 8420.0520, subp. 1 A-E and subp. 3 B: order, avoid and wetland dependence."""
    _, comparison = compared
    keys = [f["principle"] for f in comparison.findings]
    assert keys == [k for k, _, _ in SEQUENCING_PRINCIPLES]
    avoid = comparison.findings[0]
    assert "avoid, no-build" in avoid["shows"][0]
    assert any("wetland dependent" in v and "subp. 3 B" in v for v in avoid["verify"])
    minimize = comparison.findings[1]
    assert minimize["shows"] and minimize["shows"][0].startswith("reduced impacts")
    # rectify and reduce over time are not in impact layers: verify items, never answers
    for f in comparison.findings[2:4]:
        assert f["shows"] == [] and f["verify"]


def test_fewer_than_two_alternatives_are_refused(sample_data):
    with pytest.raises(InputError, match="at least two alternatives"):
        compare([NO_BUILD], sample_data.context)


def test_a_name_per_alternative(sample_data):
    with pytest.raises(InputError, match="1 name"):
        compare([NO_BUILD, NO_BUILD], sample_data.context, names=["a"])


def test_names_that_give_the_same_file_name_are_refused(sample_data):
    with pytest.raises(InputError, match="same file name"):
        compare([NO_BUILD, NO_BUILD], sample_data.context, names=["Plan A", "plan-a"])


HOSTILE = '<script>alert(1)</script>{{7*7}}"><img src=x onerror=alert(2)>'


@pytest.mark.filterwarnings("ignore::wetland_gis.errors.WetlandGISWarning")
def test_cli_compare_writes_the_table_page_maps_and_manifest(sample_data, tmp_path, capsys):
    alts = [str(a) for a in _alternatives(sample_data, "crow_wing")]
    out = tmp_path / "compare"
    names = ["preferred", "reduced", HOSTILE, "no-build"]
    argv = ["compare", *alts, "--context", str(sample_data.context), "--as-of", AS_OF]
    for n in names:
        argv += ["--name", n]
    assert main([*argv, "--out", str(out)]) == 0
    with (out / "comparison.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["alternative"] for r in rows][:2] == ["preferred", "reduced"]
    page = (out / "comparison.html").read_text(encoding="utf-8")
    assert "<script>alert(1)" not in page and "{{7*7}}" in html.unescape(page)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;{{7*7}}" in page  # shown as written
    assert "<img src=x" not in page
    layers = gpd.list_layers(out / "comparison_alternatives.gpkg")["name"].tolist()
    assert all(set(n) <= set("abcdefghijklmnopqrstuvwxyz0123456789_") for n in layers)
    for f in ("comparison_by_type_zone.csv", "comparison_manifest.json", "preferred_map.html"):
        assert (out / f).is_file()
    assert "wetland-gis compare:" in capsys.readouterr().err


@pytest.mark.browser
@pytest.mark.filterwarnings("ignore::wetland_gis.errors.WetlandGISWarning")
def test_the_comparison_page_shows_every_map_and_fits_a_phone(compared, tmp_path):
    sync_playwright = _require_browser()
    _, comparison = compared
    comparison.write(tmp_path)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            requests: list[str] = []
            page.on("request", lambda r: requests.append(r.url))
            page.goto((tmp_path / "comparison.html").as_uri())
            page.wait_for_timeout(1500)
            frames = [f for f in page.frames if f != page.main_frame]
            assert len(frames) == len(comparison.alternatives)
            for frame in frames:
                frame.wait_for_selector(".leaflet-container", timeout=10_000)
            # the impacts of the preferred alternative are drawn on its map
            drawn = frames[0].query_selector_all("path.leaflet-interactive")
            assert len(drawn) >= len(comparison.alternatives[0].assessment.impacts)
            assert not [u for u in requests if not u.startswith(("file:", "data:", "about:"))]
            rows = page.query_selector_all("table.alternatives tbody tr")
            assert len(rows) >= 10
            phone = browser.new_page(viewport={"width": 390, "height": 844})
            phone.goto((tmp_path / "comparison.html").as_uri())
            assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        finally:
            browser.close()


def test_the_comparison_of_two_no_build_alternatives_is_all_zero(sample_data):
    comparison = compare([NO_BUILD, NO_BUILD], sample_data.context, names=["a", "b"], as_of=AS_OF)
    numbers = comparison.table[["impacts", "wetland_sqft", "replace_credits"]]
    assert (numbers.to_numpy() == 0).all()
    assert comparison.findings[0]["shows"] == ["The preferred alternative a impacts no wetland."]
    assert pd.isna(comparison.table["cost_usd"]).all()  # not sited
    assert isinstance(comparison.alternatives[0].assessment.impacts, gpd.GeoDataFrame)
    assert Path(comparison.alternatives[0].source).name == NO_BUILD
