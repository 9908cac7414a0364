"""Write the walkthrough notebooks in notebooks/ (outputs stripped).

The notebooks are committed; this script is how they are written, so a change to a
walkthrough is a change here. Run: ``.venv/bin/python tools/make_notebooks.py``.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parents[1] / "notebooks"

SETUP = """\
from pathlib import Path
import warnings

import pandas as pd
import wetland_gis as wg

pd.set_option("display.max_columns", 40)
pd.set_option("display.width", 200)
# The notebooks run from notebooks/; the sample data is one folder up.
DATA = Path("..") / "sample_data"
CONTEXT = DATA / "synthetic_context.gpkg"
WRIGHT = DATA / "projects" / "wright_metro"
CROW_WING = DATA / "projects" / "crow_wing"
OUT = Path("..") / "outputs" / "notebooks"
OUT.mkdir(parents=True, exist_ok=True)
AS_OF = "2024-05-01"   # the application date the law is applied as of
"""

NB1 = [
    new_markdown_cell("""\
# 1. Assess a project

You have a project that will fill or drain wetlands, and its impact polygons as a QGIS export
(a shapefile or a GeoPackage). This notebook runs `wetland_gis.assess` on the sample
**Wright County** project and walks through what comes back.

`wetland_gis` **screens and explains**; the Technical Evaluation Panel (TEP) and the local
government unit (LGU) decide. Every row says what it assumed and what a person must verify.

> The sample context layers (watersheds, lakes, fen, ...) are **synthetic**: see
> `sample_data/README.md`. Never use them for a real decision."""),
    new_code_cell(SETUP),
    new_markdown_cell("""\
## The input, as QGIS hands it over
A shapefile with 10-character field names. `circ39` holds the Circular 39 type as people type
it (`2`, `Type 3`, `T7`, `type 3/4`); one row has only a Cowardin code in `attribute`."""),
    new_code_cell("""\
layer = wg.read_layer(WRIGHT / "impacts.shp")
print(layer.source, layer.crs, "sha256", layer.sha256[:12])
layer.gdf.drop(columns="geometry")"""),
    new_markdown_cell("""\
## Run the assessment
`context` is a GeoPackage of reference layers (schema: `docs/data_schema.md`). The real
Minnesota county layer ships with the package. Inferred wetland types raise a warning you can
filter (`wg.WetlandGISWarning`)."""),
    new_code_cell("""\
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always", wg.WetlandGISWarning)
    a = wg.assess(WRIGHT / "impacts.shp", CONTEXT, as_of=AS_OF)
for w in caught:
    print(type(w.message).__name__, ":", w.message)
assert len(a.impacts) == len(layer.gdf)   # every input row is in the output"""),
    new_markdown_cell("""\
## What each polygon is
Area (square feet and acres, computed in NAD83 / UTM 15N), type, county, metro, percentage
class, watersheds, bank service area, and the shoreland split: the square feet in the building
setback zone, in the shoreland wetland protection zone beyond it, and outside."""),
    new_code_cell("""\
a.impacts[["impact_id", "wetland_type", "type_source", "area_sqft", "area_reported", "county",
           "metro", "pct_class", "major", "minor", "bsa", "sqft_setback", "sqft_protection",
           "sqft_outside", "zone", "nearest_pw", "nearest_pw_ft"]]"""),
    new_markdown_cell("""\
## What the rules decided
`outcome` is the headline: `de_minimis_exempt`, `de_minimis_conditional` (exempt only if a
fact the data lacks holds, e.g. that the landowner owns the whole wetland, § 103G.2241 subd.
9(f)), `replacement_required`, `prohibited` (calcareous fen, § 103G.223) or
`not_a_drain_or_fill` (an excavation outside the flooded areas of types 3, 4, 5, § 103G.222
subd. 1(a)). One impact of this project (W-5) lies in the building setback zone, and "the
amounts listed in paragraphs (a), (b), and (c) may not be combined on a project" (§ 103G.2241
subd. 9(e)): every impact, of every type, is held to the subd. 9(c) amount of 20 sq ft. The
project exceeds it, so it is not de minimis and the entire amount of every impact is replaced
(Minn. R. 8420.0420 subp. 1). W-4 is a public waters wetland: no de minimis applies to it
(§ 103G.005 subd. 19(b)), it is replaced at the § 103G.222 ratio and routed to the DNR public
waters permit (`permit_route`)."""),
    new_code_cell("""\
a.impacts[["impact_id", "wetland_type", "area_sqft", "de_minimis", "de_minimis_sqft", "outcome",
           "permit_route", "ratio", "replace_acres"]]"""),
    new_code_cell("""\
a.projects.T"""),
    new_markdown_cell("""\
### The decision chain of one impact
`rules.decide_project` applies the rules in one order and records each step in the trace
(`a.trace`, written as the GeoPackage table `decisions`): the rule id, the citation, the
outcome, the value, a plain-English reason, what to verify, the inputs read and the parameter
values used."""),
    new_code_cell("""\
steps = a.trace[a.trace["impact_id"].isin(["W-2", ""])]
steps[["impact_id", "seq", "rule_id", "citation", "outcome", "value", "reason"]]"""),
    new_markdown_cell("""\
## The joint application table
Impacts under 0.01 acre in square feet, otherwise acres to 0.01, with county, major watershed
and bank service area, as the Minnesota joint application asks."""),
    new_code_cell("""\
a.summary"""),
    new_markdown_cell("""\
## The open reading of subd. 9(e): several clauses of one paragraph
Subd. 9(e) forbids combining paragraphs (a), (b) and (c); it does not name the clauses of one
paragraph. By default each clause's total is held to its own amount (`per_clause`); the
stricter `one_clause` reading holds the whole project to the smallest clause amount it uses.
The LGU decides which applies. Here the project already exceeds the (c) amount, so both agree."""),
    new_code_cell("""\
b = wg.assess(WRIGHT / "impacts.shp", CONTEXT, as_of=AS_OF,
              options=wg.AssessOptions(clause_reading="one_clause"))
pd.DataFrame({"impact": a.impacts["impact_id"], "per_clause": a.impacts["outcome"],
              "one_clause": b.impacts["outcome"]})"""),
    new_markdown_cell("""\
## What was read, changed and assumed
The manifest is written beside every output."""),
    new_code_cell("""\
m = a.manifest.to_dict()
print("as of", m["as_of"], "| parameters", m["parameters"]["source"].split("/")[-1])
for line in m["records"]:
    print("-", line)
pd.DataFrame(m["inputs"])"""),
    new_markdown_cell("""\
## Write it for QGIS
A GeoPackage (layers `impacts` and `shoreland_zones`), the summary and project tables as CSV,
every decision as JSON, and the manifest."""),
    new_code_cell("""\
written = a.write(OUT / "wright_assessed.gpkg")
for p in written:
    print(p)"""),
    new_markdown_cell("## The map, inline"),
    new_code_cell("""\
a.explore()"""),
    new_markdown_cell("""\
## Start from the construction limits instead (issue 35)
Most projects start as construction limits and a wetland delineation, not as impact polygons.
`wg.impacts` does the step done by hand in QGIS: each part of the footprint minus the existing
road, a temporary part only where no permanent part lies, intersected with each wetland (one
impact per part and wetland, `impact_id` = `<part>/<wetland>`), with the columns `assess`
reads. The **synthetic** county road sample ships its construction limits, existing road,
delineation and parcels in one GeoPackage (`sample_data/README.md`; docs/footprint.md)."""),
    new_code_cell("""\
ROAD = DATA / "projects" / "county_road" / "footprint.gpkg"
cut = wg.impacts(ROAD, ROAD, existing=ROAD, parcels=ROAD,
                 layers={"footprint": "construction_limits", "wetlands": "delineation",
                         "existing": "existing_road", "parcels": "parcels"})
cut.parts.drop(columns="geometry")   # every part: its status, areas, overlaps removed"""),
    new_code_cell("""\
cut.impacts[["impact_id", "project", "impact", "duration", "circ39", "wetland_id", "wetland_ac",
             "owner", "portion_sf", "owns_whole", "road_kind", "part_row", "wetl_rows"]]"""),
    new_markdown_cell("""\
### Assess it and write the report
`cut.assess(...)` is `wg.assess` on the impact layer, keeping the layers it was cut from: the
map draws the footprint, the existing road, the delineation and the parcels as layers to switch
on and off, and the report lists them. (`wetland-gis assess --footprint ... --wetlands ...` does
the same from the command line.)"""),
    new_code_cell("""\
with warnings.catch_warnings():
    warnings.simplefilter("ignore", wg.WetlandGISWarning)
    road = cut.assess(CONTEXT, as_of=AS_OF)
print(road.impacts[["impact_id", "outcome", "replacement_by", "replace_acres"]])
written = road.write(OUT / "county_road_assessed.gpkg", overwrite=True)
report = road.report(OUT / "county_road_report.html")
print(*written, *report, sep="\\n")"""),
    new_code_cell("""\
road.explore()"""),
]

NB2 = [
    new_markdown_cell("""\
# 2. Replacement siting

After `assess` says how much replacement a project owes, `wetland_gis.site` ranks the
candidate project-specific sites and the wetland bank credits by the siting priority of
Minn. Stat. § 103G.222, subd. 3 (same minor watershed, same major watershed, same bank service
area, elsewhere; banking has its own order, which starts at the bank service area tier), and
allocates them keeping each method's own order; between the best site and the best bank
credit the cheaper is chosen, then the nearer (docs/siting.md, the reading of subd. 3(c)).

> Sites and banks in the sample are **synthetic**; prices are fictional."""),
    new_code_cell(SETUP),
    new_code_cell("""\
with warnings.catch_warnings():
    warnings.simplefilter("ignore", wg.WetlandGISWarning)
    a = wg.assess(WRIGHT / "impacts.shp", CONTEXT, as_of=AS_OF)
a.impacts.loc[a.impacts["outcome"] == "replacement_required",
              ["impact_id", "wetland_type", "minor", "major", "bsa", "pct_class", "ratio",
               "replace_acres"]]"""),
    new_markdown_cell("""\
## The options
Candidate sites (polygons, with the action and creditable acres) and a bank credit listing
(CSV with the fields BWSR records)."""),
    new_code_cell("""\
sites = wg.read_layer(WRIGHT / "candidate_sites.gpkg").gdf
banks = pd.read_csv(DATA / "synthetic_bank_credits.csv")
display(sites.drop(columns="geometry"))
banks"""),
    new_code_cell("""\
s = wg.site(a.impacts, WRIGHT / "candidate_sites.gpkg", DATA / "synthetic_bank_credits.csv",
            context=a.context, as_of=AS_OF)"""),
    new_markdown_cell("""\
## The ranking
One row per impact and option: tier, exclusion (an impact outside a greater than 80 percent
area may not be replaced inside one, subd. 3(a)), in-kind, ratio, credits needed, cost."""),
    new_code_cell("""\
s.ranking[["impact_id", "option_id", "option_kind", "tier", "tier_label", "excluded",
           "in_kind", "ratio", "credits_needed", "credits_available", "cost",
           "distance_ft"]].head(20)"""),
    new_code_cell("""\
s.ranking.loc[s.ranking["excluded"].astype(bool), ["impact_id", "option_id",
                                                    "exclusion_reason"]].drop_duplicates(
    "option_id")"""),
    new_markdown_cell("""\
## Subd. 3(d): when may the applicant go to the next tier?
Only when the higher tiers have no reasonable opportunity. The table says, per impact, which
higher tiers were empty or short, and by how much."""),
    new_code_cell("""\
s.tier_gaps"""),
    new_markdown_cell("""\
## The allocation
Solved exactly (a mixed-integer program): as much of every requirement met as the options
allow, each method (sites; bank credits) in its own priority order, then at the lowest cost,
then the nearest, no credit or site acre used twice. Unmet requirements are reported."""),
    new_code_cell("""\
display(s.allocation)
s.unmet"""),
    new_markdown_cell("""\
## Site suitability from a DEM
For the Crow Wing project, depression depth and storage volume of each candidate site from the
lidar DEM (windowed reads). These support § 103G.222 subd. 3(e)(1) ("naturally occurring
hydrogeomorphological conditions"); they are attributes, not legal decisions."""),
    new_code_cell("""\
from wetland_gis.siting.raster import depression_summary

cw_sites = wg.read_layer(CROW_WING / "candidate_sites.gpkg").gdf
depression_summary(cw_sites, DATA / "crow_wing_lidar_dem_1m.tif")"""),
]

NB3 = [
    new_markdown_cell("""\
# 3. The TEP map and report

TEP members look at maps, not GeoPackages. `wetland_gis.tep_map` draws the impacts coloured by
outcome, the shoreland zones, the boundaries, and the candidate sites and banks labelled with
their tier and allocation. Click a feature for its decision chain with citations.

The saved map is **self-contained**: Leaflet and its plugins are inlined, so it opens in a
meeting room without internet. The default basemap is none, for the same reason."""),
    new_code_cell(SETUP),
    new_code_cell("""\
with warnings.catch_warnings():
    warnings.simplefilter("ignore", wg.WetlandGISWarning)
    a = wg.assess(WRIGHT / "impacts.shp", CONTEXT, as_of=AS_OF)
    s = wg.site(a.impacts, WRIGHT / "candidate_sites.gpkg",
                DATA / "synthetic_bank_credits.csv", context=a.context, as_of=AS_OF)"""),
    new_code_cell("""\
boundaries = {name: a.context.get(name) for name in
              ("counties", "major_watersheds", "minor_watersheds", "bank_service_areas")}
m = wg.tep_map(a.impacts, zones=a.zones, sites=s.sites, banks=s.banks,
               allocation=s.allocation, context=boundaries)
m"""),
    new_markdown_cell("## Save the map for the meeting, and the printable report"),
    new_code_cell("""\
map_path = wg.save_map(m, OUT / "wright_tep_map.html", self_contained=True)
html = Path(map_path).read_text()
print(map_path, f"{len(html) / 1e6:.1f} MB")
assert "cdn.jsdelivr" not in html and "unpkg.com" not in html   # nothing loads from the web"""),
    new_code_cell("""\
report = wg.write_report(
    OUT / "wright_tep_report.html",
    a.projects.iloc[0].to_dict(),
    a.impacts,
    trace=a.trace,
    ranking=s.ranking,
    allocation=s.allocation,
    unmet=s.unmet,
    manifest=a.manifest.to_dict(),
    map_html=map_path,
)
print(report)"""),
]

NB4 = [
    new_markdown_cell("""\
# 4. Water appropriation under § 103G.271

The offices that screen wetland impacts also screen water appropriations: wells, surface
intakes, irrigation, dewatering. `wetland_gis.water_use` reads a layer of **points of
appropriation** (one row per permit or source; columns in `docs/water_use.md`), computes the
spatial facts (county, metropolitan county, the Mt. Simon-Hinckley extent, the geodesic
distance to a bulk-sale destination) and decides, for each point: is a permit required, which
restrictions apply (subd. 4a, 4b, 5, 5a, 5b), and the processing fee (subd. 6).

Two editions of the section are held, **Minnesota Statutes 2018** and the text **as amended
through 1Sp2025**, and they differ in almost every number. The date each change took effect is
not in the text: between the editions a differing answer is `indeterminate`, with both figures.

> The sample layer and the aquifer extent are **SYNTHETIC** (`sample_data/README.md`)."""),
    new_code_cell(
        SETUP
        + """\
WATER = DATA / "water_use"
"""
    ),
    new_markdown_cell("## The input: one row per permit or source"),
    new_code_cell("""\
pts = wg.read_layer(WATER / "appropriations.gpkg").gdf
pts[["permit_id", "entity", "entity_type", "use", "source", "annual_gallons", "why"]]"""),
    new_markdown_cell("""\
## Screen it under the 2025 edition
`aquifer` is a polygon layer of the Mt. Simon-Hinckley extent (here a synthetic box); an
`aquifer` column value, where given, wins over it."""),
    new_code_cell("""\
r = wg.water_use(WATER / "appropriations.gpkg", as_of="2026-06-01",
                 aquifer=WATER / "synthetic_mt_simon_hinckley.gpkg")
assert len(r.points) == len(pts)   # every input row is in the output
r.points[["permit_id", "county", "status", "outcome", "permit_out", "msh_out", "bulk_out",
          "once_out", "swl_out", "dc_out", "total_usd"]]"""),
    new_markdown_cell("""\
## The fee table
The clause's stated fee applies to the **total** amount. An amount exactly at a boundary that no
clause holds (100,000,000 ... 500,000,000 gallons) is read as the next clause (the higher
rate) and flagged, with the other reading's fee beside it."""),
    new_code_cell("""\
r.fees[["permit_id", "clause", "fee_usd", "fee_at_boundary", "fee_other_reading_usd",
        "fee_after_cap_usd", "surcharge_usd", "total_usd"]]"""),
    new_markdown_cell("## One permit's decisions, with citations and what to verify"),
    new_code_cell("""\
for d in r.screening.for_permit("WU-07"):
    print(d.explain(), end="\\n\\n")"""),
    new_markdown_cell("""\
## The same layer under the 2018 edition, and between the editions
In 2018 there is no subd. 4b (bulk sale) and no subd. 5b (data centers); the fee schedule is
lower. On a date between the editions, a differing answer is never chosen."""),
    new_code_cell("""\
r18 = wg.water_use(WATER / "appropriations.gpkg", as_of="2018-06-01",
                   aquifer=WATER / "synthetic_mt_simon_hinckley.gpkg")
mid = wg.water_use(WATER / "appropriations.gpkg", as_of="2022-06-01",
                   aquifer=WATER / "synthetic_mt_simon_hinckley.gpkg")
pd.DataFrame({"2018": r18.points.set_index("permit_id")["outcome"],
              "2022 (between)": mid.points.set_index("permit_id")["outcome"],
              "2025": r.points.set_index("permit_id")["outcome"]})"""),
    new_code_cell("""\
mid.fees[["permit_id", "fee_outcome", "fee_2018_usd", "fee_2025_usd"]]"""),
    new_markdown_cell("## Past unpermitted years (subd. 6a) and the late penalty (subd. 6(e))"),
    new_code_cell("""\
r.schedules"""),
    new_markdown_cell("""\
## The map: points by outcome, with the 50- and 100-mile rings of bulk-sale sources
Self-contained like the TEP map: it opens with no network."""),
    new_code_cell("""\
m = r.explore()
path = wg.save_map(m, OUT / "water_use_map.html")
written = r.write(OUT / "water_use.gpkg")
print(path)
print(*written, sep="\\n")
m"""),
]


def _write(name: str, cells: list) -> None:
    nb = new_notebook(cells=cells)
    for i, cell in enumerate(nb.cells):  # stable ids: regenerating changes only what changed
        cell.id = f"{Path(name).stem[:2]}-{i:02d}"
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.metadata["language_info"] = {"name": "python"}
    HERE.mkdir(exist_ok=True)
    nbformat.write(nb, HERE / name)


def main() -> None:
    """Write the four notebooks."""
    _write("01_assess_a_project.ipynb", NB1)
    _write("02_replacement_siting.ipynb", NB2)
    _write("03_tep_map.ipynb", NB3)
    _write("04_water_use.ipynb", NB4)


if __name__ == "__main__":
    main()
