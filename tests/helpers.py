"""Builders shared by the test modules: facts for the rules core and command lines.

Plain values only (no geopandas is imported here).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
import yaml

from wetland_gis.cli import main
from wetland_gis.decision import Decision
from wetland_gis.enums import PercentageArea
from wetland_gis.rules import (
    Claims,
    ImpactFacts,
    ProjectDecision,
    decide_project,
    percentage_area_from_figures,
)

ROOT = Path(__file__).resolve().parents[1]
#: The SYNTHETIC context layers of ``sample_data/`` (``make_synthetic.py``).
CONTEXT = ROOT / "sample_data" / "synthetic_context.gpkg"
AS_OF = "2024-05-01"
#: The international foot, in metres (areas are reported in square feet of it).
FT = 0.3048
GT80 = "greater_than_80_percent"
MID = "50_to_80_percent"
LT50 = "less_than_50_percent"
#: The three percentage-area classes as enums, in the order of the strings above.
PERCENTAGE_CLASSES = (
    PercentageArea.GREATER_THAN_80,
    PercentageArea.FROM_50_TO_80,
    PercentageArea.LESS_THAN_50,
)

#: The eleven counties of the metropolitan area (Minn. Stat. § 473.121, subd. 2, as
#: § 103G.2241 subd. 9(d) reads it), in the order the parameter file lists them.
METRO_COUNTIES = (
    "Anoka",
    "Carver",
    "Chisago",
    "Dakota",
    "Hennepin",
    "Isanti",
    "Ramsey",
    "Scott",
    "Sherburne",
    "Washington",
    "Wright",
)


#: Subd. 9(f): a fill by a landowner not known to own the whole wetland, each side of the
#: 400 sq ft floor of (f)(3) (default reading ``reached``): (sq ft, the cumulative answer).
UNKNOWN_OWNER_FLOOR = [
    pytest.param(399, "exempt", id="subd. 9(f)(3): 399 sq ft is under the floor whoever owns"),
    pytest.param(
        400,
        "conditional",
        id="subd. 9(f)(3): 400 sq ft reaches the floor (reading 'reached'): conditional",
    ),
    pytest.param(
        401,
        "conditional",
        id="subd. 9(f)(1), (3): 401 sq ft, ownership unknown: exempt only if the owner owns it all",
    ),
]


def impact_fact(
    impact_id: Any,
    wetland_type: Any = 2,
    outside: float = 0.0,
    *,
    protection: float = 0.0,
    setback: float = 0.0,
    pct: Any = GT80,
    metro: bool = False,
    cedar: bool = False,
    **kw: Any,
) -> ImpactFacts:
    """Return ImpactFacts with the square feet of each shoreland zone by keyword.

    Values go in as given (plain ints and strings included), so a test of the conversion
    in ``ImpactFacts`` sees them unconverted.
    """
    return ImpactFacts(
        impact_id=impact_id,
        wetland_type=wetland_type,
        cedar_tamarack=cedar,
        sqft_setback=setback,
        sqft_protection=protection,
        sqft_outside=outside,
        pct_class=pct,
        metro=metro,
        **kw,
    )


def fill_fact(
    impact_id: Any, wetland_type: Any = 2, outside: float = 0.0, **kw: Any
) -> ImpactFacts:
    """Return :func:`impact_fact` of a fill by an owner of the whole wetland (by default)."""
    kw.setdefault("impact_kind", "fill")
    kw.setdefault("owns_whole_wetland", True)
    return impact_fact(impact_id, wetland_type, outside, **kw)


def decide(*impacts: ImpactFacts, **claims: Any) -> ProjectDecision:
    """Return ``decide_project`` of ``impacts`` with ``Claims(**claims)`` on :data:`AS_OF`."""
    return decide_project(list(impacts), Claims(**claims), as_of=AS_OF)


def area_from_figures(
    presettlement: Any, remaining: Any, land: Any, wetland: Any, public: Any
) -> Decision:
    """Return ``percentage_area_from_figures`` on :data:`AS_OF` of five figures in acres.

    In its keyword order: presettlement wetland, remaining wetland, land area, wetland,
    public land.
    """
    return percentage_area_from_figures(
        presettlement_wetland_acres=presettlement,
        remaining_wetland_acres=remaining,
        land_area_acres=land,
        wetland_acres=wetland,
        public_land_acres=public,
        as_of=AS_OF,
    )


def steps_of(d: ProjectDecision, rule_id: str, impact_id: str | None = None) -> list[dict]:
    """Return the trace steps of ``rule_id`` (of one impact, when ``impact_id`` is given)."""
    return [
        s
        for s in d.steps()
        if s["rule_id"] == rule_id and (impact_id is None or s["impact_id"] == impact_id)
    ]


def run_cli(*args: Any) -> int:
    """Return the exit code of the command line run with ``args`` (each through ``str``)."""
    return main([str(a) for a in args])


def assess_cli(impacts: Any, context: Any, out: Any, *extra: Any) -> int:
    """Return the exit code of ``assess <impacts> --context <context> --out <out> <extra>``."""
    return run_cli("assess", impacts, "--context", context, "--out", out, *extra)


def footprint_assess_cli(footprint: Any, wetlands: Any, context: Any, out: Any, *extra: Any) -> int:
    """Return the exit code of ``assess --footprint <footprint> --wetlands <wetlands>``.

    ``extra`` options come before the context; the run is quiet, on :data:`AS_OF`.
    """
    return run_cli(
        "assess",
        "--footprint",
        footprint,
        "--wetlands",
        wetlands,
        *extra,
        "--context",
        context,
        "--as-of",
        AS_OF,
        "--out",
        out,
        "--quiet",
    )


def assert_writes(result: Any, path: Path, *suffixes: str) -> list[Path]:
    """Write ``result`` to ``path``; assert ``<stem><suffix>`` of each suffix is written.

    Return the paths written.
    """
    written = result.write(path)
    expected = {path.stem + suffix for suffix in suffixes}
    assert expected <= {p.name for p in written}, sorted(expected)
    return written


def paragraph_params(cases: list[tuple]) -> list[Any]:
    """Return a pytest param a case: its first item (the paragraph it checks) is its id."""
    return [pytest.param(*c[1:], id=c[0]) for c in cases]


def yaml_cases(folder: Path) -> list[Any]:
    """Return a pytest param per case of the ``*.yaml`` scenario files in ``folder``.

    Each id names the file, the case's index, the paragraph it checks and its name.
    """
    out = []
    for path in sorted(folder.glob("*.yaml")):
        for i, case in enumerate(yaml.safe_load(path.read_text(encoding="utf-8")) or []):
            label = f"{path.stem}[{i}] {case.get('paragraph', '?')}: {case.get('name', '?')}"
            out.append(pytest.param(case, id=label))
    return out


def docstring_ids(tree: ast.AST) -> set[int]:
    """Return the ``id`` of each docstring node (module, class, function) of ``tree``."""
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
