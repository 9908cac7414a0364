"""The alternatives comparison page (:func:`wetland_gis.compare`): table, sequencing, maps."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import jinja2
import pandas as pd

from wetland_gis._version import __version__
from wetland_gis.labels import label
from wetland_gis.mapping.report import TEMPLATES_DIR


class Compared(Protocol):
    """What the page reads of a :class:`wetland_gis.compare.Comparison`.

    The stage below the entry point takes its values, not its class.
    """

    table: pd.DataFrame
    by_type_zone: pd.DataFrame
    findings: list[dict[str, Any]]
    as_of: str


#: The rows of the side-by-side table: (column of Comparison.table, label, format).
_ROWS: tuple[tuple[str, str, str], ...] = (
    ("source", "impact layer", "file"),
    ("impacts", "impact polygons", "int"),
    ("not_assessed", "not assessed", "int"),
    ("wetland_sqft", "wetland impacted (sq ft)", "sqft"),
    ("wetland_acres", "wetland impacted (acres)", "acres"),
    ("counted_sqft", "area counted by the rules (sq ft)", "sqft"),
    ("public_waters_sqft", "public waters wetland (sq ft)", "sqft"),
    ("outcome", "decision", "label"),
    ("replace_credits", "replacement credits required", "acres"),
    ("credits_allocated", "credits allocated", "acres"),
    ("cost_usd", "estimated cost", "usd"),
    ("credits_unmet", "replacement credits unmet", "acres"),
    ("d_wetland_sqft", "wetland impacted vs preferred (sq ft)", "dsqft"),
    ("d_wetland_pct", "wetland impacted vs preferred (%)", "dpct"),
    ("d_replace_credits", "credits required vs preferred", "dacres"),
    ("d_cost_usd", "cost vs preferred", "dusd"),
)


def _number(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _cell(value: Any, kind: str) -> str:
    if kind == "text":
        return str(value)
    if kind == "file":  # the file and its folder: the whole path is in comparison.csv
        parts = Path(str(value)).parts
        return "/".join(parts[-2:]) if len(parts) > 1 else str(value)
    if kind == "label":
        return label(value)
    number = _number(value)
    if number is None:
        return "—"
    return {
        "int": f"{number:,.0f}",
        "sqft": f"{number:,.0f}",
        "acres": f"{number:,.2f}",
        "usd": f"${number:,.0f}",
        "dsqft": f"{number:+,.0f}",
        "dpct": f"{number:+.0f} %",
        "dacres": f"{number:+,.2f}",
        "dusd": f"{number:+,.0f} $",
    }[kind]


def comparison_page(comparison: Compared, maps: Sequence[Mapping[str, str]]) -> str:
    """Return the comparison page as HTML (values escaped; none is rendered as a template).

    Parameters
    ----------
    comparison : Compared
        The result of :func:`wetland_gis.compare` (a ``Comparison``).
    maps : sequence of mapping
        ``name`` and ``href`` of each alternative's map page.

    Returns
    -------
    str
    """
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    table = comparison.table
    rows = [
        {"label": text, "cells": [_cell(v, kind) for v in table[column]]}
        for column, text, kind in _ROWS
    ]
    by_type_zone = [
        {
            "alternative": r["alternative"],
            "wetland_type": f"Type {r['wetland_type']}",
            "zone": label(r["zone"]),
            "impacts": f"{int(r['impacts']):,}",
            "sqft": f"{float(r['sqft']):,.0f}",
            "acres": f"{float(r['acres']):,.2f}",
        }
        for r in comparison.by_type_zone.to_dict("records")
    ]
    first = str(table["alternative"].iloc[0])
    return env.get_template("comparison.html.j2").render(
        title=f"Alternatives compared: {first} and {len(table) - 1} other(s)",
        version=__version__,
        as_of=comparison.as_of,
        alternatives=[str(a) for a in table["alternative"]],
        rows=rows,
        by_type_zone=by_type_zone,
        findings=comparison.findings,
        maps=list(maps),
    )
