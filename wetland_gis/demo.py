"""The demo behind ``make demo``: the whole product on the bundled sample projects.

For each sample project it runs assess, site, map and report (HTML and PDF) (the county road's
impacts first cut from its construction limits and delineation, issue 35), writes everything under
``outputs/<project>/`` and prints a short summary table and the paths of the map and
report. It also prints a few worked rules-core decisions with their citations.

Run ``python -m wetland_gis.demo --out outputs`` from the repository root.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from wetland_gis.commands import (
    read_assessed,
    run_assess,
    run_map,
    run_report,
    run_site,
    run_water_use,
)
from wetland_gis.enums import PercentageArea, ShorelandZone, WetlandType
from wetland_gis.errors import WetlandGISWarning
from wetland_gis.rules import de_minimis_allowance, replacement_ratio

#: The synthetic water-use sample (issue 10) and the fee years it is screened for.
WATER_USE_SAMPLE = "sample_data/water_use/appropriations.gpkg"
WATER_USE_AQUIFER = "sample_data/water_use/synthetic_mt_simon_hinckley.gpkg"
WATER_USE_AS_OF = ("2018-06-01", "2026-06-01")

AS_OF = "2024-05-01"
"""The application date of the demo (any date from 2018-01-01 on works)."""


@dataclass(frozen=True)
class SampleProject:
    """One bundled sample project and the files it uses."""

    name: str
    impacts: str
    sites: str
    banks: str = "sample_data/synthetic_bank_credits.csv"
    context: str = "sample_data/synthetic_context.gpkg"
    dem: str | None = None
    #: A GeoPackage holding the construction limits, existing road, delineation and parcels
    #: (:data:`FOOTPRINT_LAYERS`): the impacts are cut from them (issue 35), not read.
    footprint: str | None = None


#: The layers of a sample project's ``footprint`` GeoPackage, by input of ``wg.impacts``.
FOOTPRINT_LAYERS = {
    "footprint": "construction_limits",
    "wetlands": "delineation",
    "existing": "existing_road",
    "parcels": "parcels",
}


SAMPLE_PROJECTS = (
    SampleProject(
        "wright_metro",
        impacts="sample_data/projects/wright_metro/impacts.shp",
        sites="sample_data/projects/wright_metro/candidate_sites.gpkg",
    ),
    SampleProject(
        "crow_wing",
        impacts="sample_data/projects/crow_wing/impacts.gpkg",
        sites="sample_data/projects/crow_wing/candidate_sites.gpkg",
        dem="sample_data/crow_wing_lidar_dem_1m.tif",
    ),
    # issue 20: the other exemptions and the road paragraph (they use the Crow Wing sites)
    SampleProject(
        "crow_wing_farm",
        impacts="sample_data/projects/crow_wing_farm/impacts.gpkg",
        sites="sample_data/projects/crow_wing/candidate_sites.gpkg",
    ),
    SampleProject(
        "county_road",
        impacts="sample_data/projects/county_road/impacts.gpkg",
        sites="sample_data/projects/crow_wing/candidate_sites.gpkg",
        # issue 35: its impacts are cut from the construction limits and the delineation
        footprint="sample_data/projects/county_road/footprint.gpkg",
    ),
)


def worked_examples(as_of: str = AS_OF) -> list[str]:
    """Return a few rules-core decisions, explained, as printable text.

    Parameters
    ----------
    as_of : str
        Application date.

    Returns
    -------
    list of str
    """
    cases = [
        (
            "A type 2 fill in Crow Wing County outside the shoreland zone",
            de_minimis_allowance(
                WetlandType.TYPE_2,
                ShorelandZone.OUTSIDE,
                PercentageArea.GREATER_THAN_80,
                False,
                as_of=as_of,
            ),
        ),
        (
            "A type 7 fill in Wright County (metro, less than 50 percent) outside the zone",
            de_minimis_allowance(
                WetlandType.TYPE_7,
                ShorelandZone.OUTSIDE,
                PercentageArea.LESS_THAN_50,
                True,
                as_of=as_of,
            ),
        ),
        (
            "Any fill in a shoreland building setback zone",
            de_minimis_allowance(
                WetlandType.TYPE_2,
                ShorelandZone.BUILDING_SETBACK,
                PercentageArea.LESS_THAN_50,
                True,
                as_of=as_of,
            ),
        ),
        (
            "Replacement ratio on nonagricultural land in a less than 50 percent area",
            replacement_ratio(PercentageArea.LESS_THAN_50, False, as_of=as_of),
        ),
    ]
    return [f"{title}:\n{decision.explain()}" for title, decision in cases]


def _repo_root() -> Path:
    here = Path.cwd()
    for candidate in (here, *here.parents, Path(__file__).resolve().parents[1]):
        if (candidate / "sample_data").is_dir():
            return candidate
    raise SystemExit("sample_data/ not found: run the demo from the repository root")


def run_project(project: SampleProject, root: Path, out: Path) -> dict[str, Any]:
    """Run assess, site, map and report on one sample project.

    Returns
    -------
    dict
        The project's summary row and the paths of its outputs.
    """
    folder = out / project.name
    folder.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", WetlandGISWarning)
        impacts: Any = root / project.impacts
        if project.footprint:  # cut from the construction limits (issue 35), then assessed
            impacts = cut_impacts(project, root, folder)
        assessment, _ = run_assess(
            impacts,
            folder / "assessed.gpkg",
            context=root / project.context,
            as_of=AS_OF,
            overwrite=True,
        )
        assessed = read_assessed(folder / "assessed.gpkg")  # read once, for the next three
        siting, _ = run_site(
            assessed,
            folder / "siting",
            sites=root / project.sites,
            banks=root / project.banks,
            context=assessment.context,
            dem=root / project.dem if project.dem else None,
            as_of=AS_OF,
            overwrite=True,
        )
        map_path = run_map(
            assessed,
            folder / "tep_map.html",
            siting=folder / "siting",
            context=assessment.context,
            overwrite=True,
        )[0]
        report_path, pdf_path, _manifest = run_report(
            assessed,
            folder / "tep_report.html",
            siting=folder / "siting",
            map_html=map_path,
            pdf=folder / "tep_report.pdf",
            context=assessment.context,
            overwrite=True,
        )
    warned = sorted({str(w.message) for w in caught if issubclass(w.category, WetlandGISWarning)})
    row = assessment.projects.iloc[0].to_dict() if len(assessment.projects) else {}
    unmet = getattr(siting, "unmet", None)
    plan = getattr(siting, "allocation", None)
    return {
        "project": row.get("project", project.name),
        "features": len(assessment.impacts),
        "outcomes": assessment.impacts["outcome"].value_counts().to_dict(),
        "total": row.get("total_reported"),
        # credits and acres to 0.01 as in the report; nothing unmet is 0.00, not None
        "replace_ac": round(float(row.get("replace_acres") or 0.0), 2),
        "allocated": 0.0 if plan is None else round(float(plan["credits"].sum()), 2),
        "cost_usd": 0.0 if plan is None else round(float(plan["cost"].sum()), 0),
        "unmet_ac": 0.0
        if unmet is None or not len(unmet)
        else round(float(unmet["credits_short"].sum()), 2),
        "map": map_path,
        "report": report_path,
        "pdf": pdf_path,
        "warnings": warned,
    }


def cut_impacts(project: SampleProject, root: Path, folder: Path) -> Any:
    """Cut a sample project's impacts from its footprint GeoPackage (issue 35).

    Writes ``folder/impacts.gpkg`` (the impact layer, its source layers, ``impacts_parts.csv``
    and the manifest) and returns the :class:`~wetland_gis.impacts.DerivedImpacts`.
    """
    from wetland_gis.commands import run_impacts

    assert project.footprint is not None
    gpkg = root / project.footprint
    derived, _ = run_impacts(
        gpkg,
        folder / "impacts.gpkg",
        wetlands=gpkg,
        existing=gpkg,
        parcels=gpkg,
        layers=FOOTPRINT_LAYERS,
        overwrite=True,
    )
    return derived


def run_compare_demo(project: SampleProject, root: Path, out: Path) -> pd.DataFrame:
    """Compare the sample project's alternatives (sequencing); return the comparison table.

    The alternatives are the project's impacts (preferred), ``alternatives/reduced.gpkg``
    (a reduced footprint), ``alternatives/avoid.gpkg`` (avoids every wetland) and no-build;
    writes ``out/<project>/compare/``. A project with a ``footprint`` compares its
    construction limits and its ``reduced_limits`` layer instead, each cut into impacts
    (issue 35).
    """
    from wetland_gis.compare import NO_BUILD, compare

    folder = Path(project.impacts).parent
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WetlandGISWarning)  # printed by run_project already
        preferred: Any = root / project.impacts
        reduced: Any = root / folder / "alternatives" / "reduced.gpkg"
        if project.footprint:  # construction limits, cut into impacts (issue 35)
            from wetland_gis.impacts import impacts

            gpkg = root / project.footprint
            reduced_layers = {**FOOTPRINT_LAYERS, "footprint": "reduced_limits"}
            preferred, reduced = (
                impacts(gpkg, gpkg, existing=gpkg, parcels=gpkg, layers=layers)
                for layers in (FOOTPRINT_LAYERS, reduced_layers)
            )
        comparison = compare(
            [
                preferred,
                reduced,
                root / folder / "alternatives" / "avoid.gpkg",
                NO_BUILD,
            ],
            root / project.context,
            names=["preferred", "reduced footprint", "avoid", NO_BUILD],
            as_of=AS_OF,
            sites=root / project.sites,
            banks=root / project.banks,
        )
        comparison.write(out / project.name / "compare", overwrite=True)
    return comparison.table


def summary_table(rows: Sequence[dict[str, Any]]) -> str:
    """Return the demo's summary table: acres and credits to 0.01, cost to the dollar.

    Parameters
    ----------
    rows : sequence of dict
        The rows of :func:`run_project`.

    Returns
    -------
    str
    """
    table = pd.DataFrame(list(rows))
    cols = ["project", "features", "total", "replace_ac", "allocated", "cost_usd", "unmet_ac"]
    shown = table[cols].copy()
    for col in ("replace_ac", "allocated", "unmet_ac"):
        shown[col] = shown[col].map(lambda v: f"{float(v):.2f}")
    shown["cost_usd"] = shown["cost_usd"].map(lambda v: f"{float(v):,.0f}")
    return shown.to_string(index=False)


def run_water_use_demo(root: Path, out: Path) -> pd.DataFrame:
    """Screen the synthetic water-use sample under each edition; return the outcome table.

    Writes ``out/water_use/water_use_<year>.gpkg`` with its tables, manifest and map.
    """
    folder = out / "water_use"
    columns = {}
    for as_of in WATER_USE_AS_OF:
        result, _ = run_water_use(
            root / WATER_USE_SAMPLE,
            folder / f"water_use_{as_of[:4]}.gpkg",
            as_of=as_of,
            aquifer=root / WATER_USE_AQUIFER,
        )
        pts = result.points.set_index("permit_id")
        columns[f"outcome {as_of}"] = pts["outcome"]
        columns[f"total_usd {as_of}"] = pts["total_usd"]
    return pd.DataFrame(columns)


NWI_SAMPLE = Path("sample_data") / "nwi_sample_DC_wetlands.gpkg"
"""The bundled real NWI polygons (Washington DC; EPSG:5070)."""


def run_screen_demo(root: Path, out: Path) -> dict[str, Any]:
    """Run ``screen`` on the bundled NWI sample, moved onto the synthetic Wright County area.

    The sample is real NWI data from Washington DC: outside Minnesota every polygon would
    be "not assessed" (no county). For the demonstration only, the polygons are shifted
    in their own CRS (EPSG:5070) so that they lie over the synthetic context around the
    Wright County sample project; the shift is recorded in the manifest. ``screen`` then
    reprojects them to EPSG:26915 and types them from their Cowardin codes (recorded).
    """
    import geopandas as gpd

    from wetland_gis.geometry.cleaning import ASSESSED
    from wetland_gis.screen import screen

    wetlands = gpd.read_file(root / NWI_SAMPLE)
    target = gpd.read_file(root / SAMPLE_PROJECTS[0].impacts).to_crs(wetlands.crs)
    tx, ty = target.union_all().centroid.coords[0]
    sx, sy = wetlands.union_all().centroid.coords[0]
    moved = wetlands.copy()
    moved.geometry = wetlands.geometry.translate(tx - sx, ty - sy)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WetlandGISWarning)
        result = screen(moved, root / SAMPLE_PROJECTS[0].context, as_of=AS_OF, progress_bar=False)
    result.manifest.add_records(
        [
            f"DEMONSTRATION ONLY: the {len(wetlands)} NWI polygons of {NWI_SAMPLE.name} "
            f"(Washington DC) were shifted by ({tx - sx:,.0f} m, {ty - sy:,.0f} m) in EPSG:5070 "
            "onto the synthetic Wright County context; the locations are not real"
        ]
    )
    written = result.write(out / "screen" / "nwi_sample_screened.parquet", overwrite=True)
    w = result.wetlands
    return {
        "wetlands": len(w),
        "screened": int((w["status"] == ASSESSED).sum()),
        "with_amount": int(w["de_minimis_sqft"].notna().sum()),
        "files": written,
    }


#: The decisions the demo records for the sample projects (SYNTHETIC: no LGU made them).
DEMO_DECISIONS = {
    "wright_metro": {"lgu": "Wright SWCD (demo)", "landowner": "demo-owner-1", "wetland": "W-1"},
    "crow_wing": {"lgu": "Crow Wing County (demo)", "landowner": "demo-owner-2", "wetland": "CW-1"},
}


def run_register_demo(out: Path) -> pd.DataFrame:
    """Record both sample assessments in a new register under ``out``; return the summary.

    Each sample project's ``assessed.gpkg`` is recorded as an approved replacement plan
    (DEMONSTRATION ONLY: no LGU decided them) in ``out/register.gpkg``, replaced on each
    run, and the annual summary of the demo's year is written beside it.
    """
    from wetland_gis.io.safe_write import SafeWriter
    from wetland_gis.register import Register
    from wetland_gis.register.records import annual_summary, decision_from_assessed, summary_html

    path = out / "register.gpkg"
    for stale in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        stale.unlink(missing_ok=True)
    with Register(path) as reg:
        reg.init()
        for project in SAMPLE_PROJECTS:
            if project.name not in DEMO_DECISIONS:  # the exemption samples: no plan decided
                continue
            facts = DEMO_DECISIONS[project.name]
            reg.add(
                decision_from_assessed(
                    out / project.name / "assessed.gpkg",
                    kind="replacement_plan_approved",
                    decision_date=AS_OF,
                    lgu=facts["lgu"],
                    recorded_by="wetland_gis demo",
                    landowner=facts["landowner"],
                    wetland_id=facts["wetland"],
                    note="DEMONSTRATION ONLY: a synthetic decision on the sample project",
                )
            )
        year = int(AS_OF[:4])
        table = annual_summary(reg, year)
    with SafeWriter("register summary", overwrite=True) as w:
        w.csv(table, out / f"register_summary_{year}.csv")
        w.text(summary_html(table, year), out / f"register_summary_{year}.html")
    return table


def main(argv: Sequence[str] | None = None) -> int:
    """Run the demo; return 0.

    Parameters
    ----------
    argv : sequence of str, optional
        ``--out DIR`` (default ``outputs``).
    """
    parser = argparse.ArgumentParser(prog="python -m wetland_gis.demo")
    parser.add_argument("--out", default="outputs", help="output folder (default outputs)")
    args = parser.parse_args(argv)
    root = _repo_root()
    out = Path(args.out)
    print("wetland_gis demo: worked rules-core decisions (as of", AS_OF + ")\n")
    for text in worked_examples():
        print(text, end="\n\n")
    rows = []
    for project in SAMPLE_PROJECTS:
        print(f"running assess, site, map and report on sample project {project.name} ...")
        rows.append(run_project(project, root, out))
    print("\nSummary (screening only: the TEP and the LGU decide)")
    print(summary_table(rows))
    for row in rows:
        print(f"\n{row['project']}: outcomes {row['outcomes']}")
        for w in row["warnings"]:
            print(f"  warning: {w}")
        print(f"  map:    {row['map']}")
        print(f"  report: {row['report']}")
        print(f"  pdf:    {row['pdf']}")
    print("\nSequencing: the alternatives of each sample project compared (the LGU decides)")
    for project in SAMPLE_PROJECTS:
        table = run_compare_demo(project, root, out)
        shown = table[["alternative", "wetland_sqft", "outcome", "replace_credits", "cost_usd"]]
        print(f"{project.name}:")
        print(shown.round(2).to_string(index=False))
        print(f"  page: {out / project.name / 'compare' / 'comparison.html'}")
    print("\nWater appropriation screening, § 103G.271 (SYNTHETIC sample; the DNR decides)")
    print(run_water_use_demo(root, out).to_string())
    print(f"  map: {out / 'water_use' / 'water_use_2026_map.html'}")
    print("\nrunning screen on the bundled NWI sample (moved onto the synthetic context) ...")
    scr = run_screen_demo(root, out)
    print(
        f"  {scr['wetlands']} wetlands, {scr['screened']} screened, {scr['with_amount']} "
        "with a de minimis amount; the others say why not"
    )
    print(f"  screen: {scr['files'][0]} and {scr['files'][1]}")
    print("\nrecording both sample decisions in the register (SYNTHETIC decisions) ...")
    summary = run_register_demo(out)
    print(f"  register: {out / 'register.gpkg'} (opens in QGIS)")
    print(f"  annual summary {AS_OF[:4]} by LGU:")
    print(summary.set_index("lgu").astype(object).T.to_string())
    print(f"\nEverything else (classified GeoPackages, tables, manifests) is under {out}/")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
