"""Small hand-made outputs of `assess` and `site` for the map and report tests.

A project near Brainerd (Crow Wing County) in EPSG:26915: six impacts, one per outcome plus
one without geometry, beside a lake with its shoreland zones; two counties meeting through
the project and a third far away; two candidate sites and two banks. Attribute values hold
HTML that must be shown as text (``XSS``, ``XSS_IMG``).
"""

from __future__ import annotations

import geopandas as gpd
import pandas as pd
from shapely.geometry import Point, box

from wetland_gis.decision import Decision
from wetland_gis.enums import Outcome

CRS = "EPSG:26915"
X0, Y0 = 400_000.0, 5_140_000.0
SQFT_PER_M2 = 1 / 0.3048**2

XSS = "<script>alert(1)</script>"
XSS_IMG = '<img src=x onerror="alert(2)">'

DE_MINIMIS_CITATION = "Minn. Stat. § 103G.2241, subd. 9(a)(1)"
RATIO_CITATION = "Minn. Stat. § 103G.222, subd. 1(f)(1)"
FEN_CITATION = "Minn. Stat. § 103G.223"
SCOPE_CITATION = "Minn. Stat. § 103G.2241, subd. 1(a)(1)"

# impact id -> outcome, for the drawn impacts (I-6 has no geometry)
OUTCOMES = {
    "I-1": "de_minimis_exempt",
    "I-2": "replacement_required",
    "I-3": "prohibited",
    "I-4": "out_of_wca_scope",
    "I-5": "not_assessed",
}


def _sq(x: float, y: float, w: float, h: float):
    return box(X0 + x, Y0 + y, X0 + x + w, Y0 + y + h)


def impacts() -> gpd.GeoDataFrame:
    """Classified impacts with every column of docs/data_schema.md."""
    geoms = [
        _sq(-300, 100, 15, 2.5),  # 37.5 m2 = 403.6 sq ft: under 0.01 acre
        _sq(-100, 300, 60, 60),
        _sq(200, -200, 40, 30),
        _sq(400, 250, 30, 30),
        _sq(-400, -300, 25, 20),
        None,
    ]
    rows = []
    for i, geom in enumerate(geoms):
        sqft = 0.0 if geom is None else geom.area * SQFT_PER_M2
        rows.append(
            {
                "impact_id": f"I-{i + 1}",
                "circ39": ["3", "Type 2", "T6", "5", "", "3"][i],
                "project": "Gull Lake road",
                "notes": XSS_IMG if i == 1 else "",
                "wg_row": i,
                "status": "not_assessed" if i >= 4 else "assessed",
                "status_reason": ["", "", "", "", "no wetland type", "empty geometry"][i],
                "repairs": "",
                "area_sqft": sqft,
                "area_acres": sqft / 43_560,
                "wetland_type": [3, 2, 6, 5, None, 3][i],
                "type_source": "given",
                "type_verify": i == 2,
                "cedar_tamarack": False,
                "county": "Crow Wing",
                "counties": "Crow Wing: 9000.0 sq ft; Cass: 600.0 sq ft" if i == 1 else None,
                "metro": False,
                "pct_class": "greater_than_80_percent",
                "pct_source": "county",
                "major": 10,
                "major_name": "Mississippi River - Brainerd",
                "minor": "10042",
                "bsa": 5,
                "incorporated": False,
                "public_waters_wetland": i == 3,
                "calcareous_fen": i == 2,
                "sqft_setback": 0.0,
                "sqft_protection": sqft if i == 1 else 0.0,
                "sqft_outside": 0.0 if i == 1 else sqft,
                "zone": [
                    "outside_shoreland_wetland_protection_zone",
                    "shoreland_wetland_protection_zone",
                    "outside_shoreland_wetland_protection_zone",
                    "outside_shoreland_wetland_protection_zone",
                    "outside_shoreland_wetland_protection_zone",
                    "",
                ][i],
                "nearest_pw": "18-0096 Gull",
                "nearest_pw_ft": [1800.0, 450.0, 2200.0, 1900.0, 2500.0, None][i],
                "outcome": OUTCOMES.get(f"I-{i + 1}", "not_assessed"),
                "ratio": [None, 1.0, None, None, None, None][i],
                "replace_acres": [None, sqft / 43_560, None, None, None, None][i],
                "citations": [
                    f"{DE_MINIMIS_CITATION}; Minn. R. 8420.0420, subp. 1",
                    f"Minn. Stat. § 103G.2241, subd. 9(b); {RATIO_CITATION}",
                    FEN_CITATION,
                    SCOPE_CITATION,
                    "",
                    "",
                ][i],
                "reasons": [
                    "Type 3 outside the shoreland wetland protection zone in a greater than "
                    "80 percent area: allowance 10,000 sq ft; 404 sq ft is within it",
                    "The impact exceeds the 400 sq ft allowance of the protection zone; "
                    "the whole impact must be replaced",
                    "Calcareous fens may not be filled, drained or otherwise degraded",
                    "Public waters wetland: DNR public waters work permit instead",
                    f"No wetland type given; {XSS}",
                    "The geometry is empty",
                ][i],
                "verify": [
                    "Wetland boundary delineation",
                    "Sequencing (avoid, minimize); the protection zone width",
                    "Fen boundary with DNR",
                    "",
                    "The wetland type",
                    "The impact polygon",
                ][i],
            }
        )
    frame = gpd.GeoDataFrame(rows, geometry=geoms, crs=CRS)
    frame["area_reported"] = [
        f"{round(s):,} sq ft" if s < 435.6 else f"{s / 43_560:.2f} ac" for s in frame["area_sqft"]
    ]
    return frame


def lake() -> gpd.GeoDataFrame:
    """One public water basin north-east of the impacts."""
    return gpd.GeoDataFrame(
        {"pw_id": ["18-0096"], "pw_name": ["Gull"], "shore_class": ["recreational_development"]},
        geometry=[_sq(0, 500, 600, 400)],
        crs=CRS,
    )


def zones() -> gpd.GeoDataFrame:
    """Setback (30 m) and protection (300 m) zones around the lake, as rings."""
    water = lake().geometry.iloc[0]
    setback = water.buffer(30).difference(water)
    protection = water.buffer(300).difference(water.buffer(30))
    return gpd.GeoDataFrame(
        {
            "zone": ["building_setback_zone", "shoreland_wetland_protection_zone"],
            "pw_id": ["18-0096", "18-0096"],
        },
        geometry=[setback, protection],
        crs=CRS,
    )


def context() -> dict[str, gpd.GeoDataFrame]:
    """Reference layers: two counties meet through the project, a third lies 100 km away."""
    counties = gpd.GeoDataFrame(
        {"NAME": ["Crow Wing", "Cass", "Far Away"]},
        geometry=[
            _sq(-20_000, -20_000, 20_050, 40_000),
            _sq(50, -20_000, 20_000, 40_000),
            _sq(100_000, 100_000, 10_000, 10_000),
        ],
        crs=CRS,
    )
    majors = gpd.GeoDataFrame(
        {"major": [10, 11], "major_name": ["Mississippi River - Brainerd", "Pine River"]},
        geometry=[_sq(-30_000, -30_000, 60_000, 30_700), _sq(-30_000, 700, 60_000, 30_000)],
        crs=CRS,
    )
    minors = gpd.GeoDataFrame(
        {"minor": ["10042", "10043"]},
        geometry=[_sq(-5_000, -5_000, 5_000, 10_000), _sq(0, -5_000, 5_000, 10_000)],
        crs=CRS,
    )
    bsas = gpd.GeoDataFrame(
        {"bsa": [5, 6], "bsa_name": ["Central", "North"]},
        geometry=[_sq(-80_000, -80_000, 160_000, 160_000), _sq(-80_000, 80_000, 160_000, 80_000)],
        crs=CRS,
    )
    return {
        "counties": counties,
        "major_watersheds": majors,
        "minor_watersheds": minors,
        "bank_service_areas": bsas,
        "public_water_basins": lake(),
        "lgus": gpd.GeoDataFrame({"lgu_name": ["x"]}, geometry=[_sq(0, 0, 1, 1)], crs=CRS),
    }


def sites() -> gpd.GeoDataFrame:
    """Two candidate replacement sites: a polygon and a point."""
    return gpd.GeoDataFrame(
        {
            "site_id": ["S1", "S2"],
            "action": ["restoration", "creation"],
            "circ39": ["2", "3"],
            "credit_ac": [0.6, 2.0],
            "cost_usd": [30_000.0, 90_000.0],
            "best_tier": [1, 2],
            "allocated_credits": [0.5, 0.0],
            "owner": ["Smith", XSS],
        },
        geometry=[_sq(-800, 600, 80, 60), Point(X0 + 900, Y0 - 700)],
        crs=CRS,
    )


def banks() -> gpd.GeoDataFrame:
    """Two banks in WGS 84: one near the project, one in another bank service area."""
    near = gpd.GeoSeries([Point(X0 + 1500, Y0 + 1200)], crs=CRS).to_crs("EPSG:4326").iloc[0]
    return gpd.GeoDataFrame(
        {
            "bank_name": ["Pine Meadows", f"Bank {XSS}"],
            "account": ["1234", "5678"],
            "county": ["Crow Wing", "Stearns"],
            "major": [10, 17],
            "bsa": [5, 7],
            "circ39": ["2", "2"],
            "credits": [3.0, 10.0],
            "price": [40_000.0, 25_000.0],
            "program": ["WCA", "both"],
        },
        geometry=[near, Point(-94.6, 45.5)],
        crs="EPSG:4326",
    )


def allocation() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "impact_id": ["I-2", "I-2"],
            "option_id": ["S1", "1234"],
            "option_kind": ["site", "bank"],
            "tier": [1, 2],
            "credits": [0.5, 0.3],
            "cost": [25_000.0, 12_000.0],
        }
    )


def ranking() -> pd.DataFrame:
    base = {
        "impact_id": "I-2",
        "excluded": False,
        "exclusion_reason": "",
        "ratio": 1.0,
        "credits_needed": 0.9,
        "citations": "Minn. Stat. § 103G.222, subd. 3(a)",
        "reasons": "",
    }
    rows = [
        {
            "option_id": "S1",
            "option_kind": "site",
            "tier": 1,
            "in_kind": True,
            "credits_available": 0.6,
            "unit_cost": 50_000.0,
            "distance_ft": 2_000.0,
        },
        {
            "option_id": "1234",
            "option_kind": "bank",
            "tier": 2,
            "in_kind": True,
            "credits_available": 3.0,
            "unit_cost": 40_000.0,
            "distance_ft": 6_500.0,
        },
        {
            "option_id": "S2",
            "option_kind": "site",
            "tier": 2,
            "in_kind": False,
            "credits_available": 2.0,
            "unit_cost": 45_000.0,
            "distance_ft": 4_200.0,
        },
        {
            "option_id": "5678",
            "option_kind": "bank",
            "tier": None,
            "in_kind": True,
            "credits_available": 10.0,
            "unit_cost": 25_000.0,
            "distance_ft": 300_000.0,
            "excluded": True,
            "exclusion_reason": f"other bank service area {XSS}",
        },
    ]
    out = pd.DataFrame([{**base, **r} for r in rows])
    out["tier_label"] = (
        out["tier"].map({1: "same minor watershed", 2: "same major watershed"}).fillna("")
    )
    out["cost"] = out["credits_needed"] * out["unit_cost"]
    return out


def unmet() -> pd.DataFrame:
    return pd.DataFrame(
        {"impact_id": ["I-2"], "credits_short": [0.1], "reason": ["no more credits in tiers 1-2"]}
    )


def decisions() -> dict[str, list[Decision]]:
    return {
        "I-1": [
            Decision(
                "de_minimis",
                Outcome.EXEMPT,
                amounts={"impact_sqft": 403.6, "allowance_sqft": 10_000},
                citations=(DE_MINIMIS_CITATION,),
                reasons=("403.6 sq ft is within the 10,000 sq ft allowance",),
                verify=("Wetland boundary delineation",),
                as_of="2018-08-01",
            )
        ],
        "I-2": [
            Decision(
                "replacement_ratio",
                Outcome.REQUIRED,
                amounts={"ratio": 1.0},
                citations=(RATIO_CITATION,),
                reasons=(f"Ratio 1:1 in a greater than 80 percent area {XSS}",),
                as_of="2018-08-01",
            )
        ],
    }


def trace() -> pd.DataFrame:
    """The decisions above as a trace table (the trace contract of docs/data_schema.md)."""
    rows = []
    for seq, (impact_id, items) in enumerate(decisions().items(), start=1):
        for d in items:
            rows.append(
                {
                    "project": "",
                    "impact_id": impact_id,
                    "seq": seq,
                    "rule_id": d.question,
                    "citation": d.citations[0] if d.citations else "",
                    "outcome": d.outcome.value,
                    "value": None,
                    "reason": " ".join(d.reasons),
                    "verify": list(d.verify),
                    "inputs": dict(d.amounts),
                    "parameters": {},
                }
            )
    # where I-2 is: the counties it straddles, as data (what the report reads, never the
    # ``counties`` text of the layer)
    rows.append(
        {
            "project": "",
            "impact_id": "I-2",
            "seq": len(rows) + 1,
            "rule_id": "facts.context",
            "citation": "",
            "outcome": "classified",
            "value": None,
            "reason": "Where the impact is: the counties it lies in.",
            "verify": [],
            "inputs": {"nearest_pw": "18-0096 Gull", "counties": ["Crow Wing", "Cass"]},
            "parameters": {},
        }
    )
    return pd.DataFrame(rows)


def manifest() -> dict:
    return {
        "package": "wetland_gis",
        "version": "0.1.0",
        "parameter_set": "mn-2018",
        "as_of": "2018-08-01",
        "inputs": [{"path": "impacts.gpkg", "sha256": "ab" * 32}],
        "note": XSS,
    }


def summary() -> dict:
    return {
        "project": f"Gull Lake road {XSS}",
        "applicant": "Crow Wing County Highway Dept.",
        "impacts": 6,
        "replacement_acres": 0.89,
    }


def map_layers() -> dict:
    """The layers of the full map beside the impacts (``tep_map``/``static_map`` keywords)."""
    return {
        "zones": zones(),
        "sites": sites(),
        "banks": banks(),
        "allocation": allocation(),
        "context": context(),
    }


def report_tables() -> dict:
    """The tables of the full report beside summary and impacts (``render_report`` keywords)."""
    return {
        "trace": trace(),
        "ranking": ranking(),
        "allocation": allocation(),
        "unmet": unmet(),
        "manifest": manifest(),
    }


def decorations(m):
    """The map's page decorations (legend, view, script): ``tep_map``'s ``_Decorations``."""
    return next(c for c in m._children.values() if type(c).__name__ == "_Decorations")
