"""The HTML report for the Technical Evaluation Panel (TEP).

One page, printable on letter or A4 paper: the project summary, the impact table in the
joint application convention, every decision with its reasons and citations, what a person
must still verify, the replacement siting ranking and allocation, the map, and the run
manifest. The template (``templates/report.html.j2``) is rendered by jinja2 with autoescape
on: every value from the data is escaped.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import pandas as pd

from wetland_gis.enums import ImpactOutcome

from ._format import (
    MISSING,
    MappingInputError,
    find_column,
    fmt,
    is_missing,
    joint_application_area,
    row_value,
    split_joined,
)
from .popups import truthy
from .symbology import OUTCOME_COLORS, outcome_color, outcome_label, zone_style
from .tep_map import impact_ids

__all__ = [
    "PAPER_SIZES",
    "TEMPLATES_DIR",
    "joint_application_area",
    "render_report",
    "write_report",
]

TEMPLATES_DIR = Path(__file__).parent / "templates"
"""Folder of the jinja2 templates."""

PAPER_SIZES = {"letter": "letter", "a4": "A4"}
"""Allowed ``paper`` values and their CSS ``@page size``."""

# Columns of the siting tables, in display order, with their headings.
RANKING_COLUMNS = {
    "impact_id": "impact",
    "option_id": "option",
    "option_kind": "kind",
    "tier": "tier",
    "tier_label": "tier meaning",
    "excluded": "excluded",
    "exclusion_reason": "why excluded",
    "in_kind": "in kind",
    "ratio": "ratio",
    "credits_needed": "credits needed",
    "credits_available": "credits available",
    "unit_cost": "unit cost",
    "cost": "cost",
    "distance_ft": "distance (ft)",
    "citations": "citations",
}
ALLOCATION_COLUMNS = {
    "impact_id": "impact",
    "option_id": "option",
    "option_kind": "kind",
    "tier": "tier",
    "credits": "credits",
    "cost": "cost",
}
UNMET_COLUMNS = {"impact_id": "impact", "credits_short": "credits short", "reason": "reason"}
_MONEY = {"unit_cost", "cost", "price", "cost_usd"}


@dataclass
class _Table:
    headers: list[str]
    rows: list[list[str]] = field(default_factory=list)


def _package_version() -> str:
    """Return the wetland_gis version, from the package or, failing that, its metadata."""
    import wetland_gis

    version = getattr(wetland_gis, "__version__", None)
    if version is None:
        try:
            version = importlib.metadata.version("wetland_gis")
        except importlib.metadata.PackageNotFoundError:
            version = "unknown"
    return str(version)


def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _cell(column: str, value: Any) -> str:
    if is_missing(value):
        return MISSING
    if column in _MONEY:
        try:
            return f"${float(value):,.0f}"
        except (TypeError, ValueError):
            return fmt(value)
    if column == "citations":
        return "; ".join(split_joined(value))
    if column == "distance_ft":
        try:
            return fmt(float(value), digits=0)
        except (TypeError, ValueError):
            return fmt(value)
    if column == "tier":
        try:
            return str(int(float(value)))
        except (TypeError, ValueError):
            return fmt(value)
    return fmt(value)


def _table(frame: pd.DataFrame | None, columns: Mapping[str, str], name: str) -> _Table | None:
    """Return the known columns of a frame, in order, as text; other columns are left out."""
    if frame is None:
        return None
    if not isinstance(frame, pd.DataFrame):
        raise MappingInputError(f"`{name}` must be a DataFrame, got {type(frame).__name__}")
    present = [(c, find_column(frame.columns, c)) for c in columns]
    present = [(c, actual) for c, actual in present if actual is not None]
    table = _Table([columns[c] for c, _ in present])
    for _, row in frame.iterrows():
        table.rows.append([_cell(c, row[actual]) for c, actual in present])
    return table


def _as_mapping(value: Any, name: str) -> dict[str, Any]:
    if value is None:
        return {}
    if isinstance(value, pd.Series):
        return value.to_dict()
    if isinstance(value, pd.DataFrame):
        if len(value) != 1:
            raise MappingInputError(
                f"`{name}` as a DataFrame must have exactly one row, it has {len(value)}"
            )
        return value.iloc[0].to_dict()
    if isinstance(value, Mapping):
        return dict(value)
    raise MappingInputError(f"`{name}` must be a dict, got {type(value).__name__}")


def _pretty(value: Any) -> str:
    """Plain text of a manifest value; nested values as indented JSON."""
    if isinstance(value, (Mapping, list, tuple)):
        return json.dumps(value, indent=2, ensure_ascii=False, default=str)
    return fmt(value)


def _area_text(row: Mapping[str, Any]) -> str:
    reported = row_value(row, "area_reported")
    if not is_missing(reported):
        return fmt(reported)
    sqft = row_value(row, "area_sqft")
    if is_missing(sqft):
        return MISSING
    return joint_application_area(float(sqft))


def _decision_dict(item: Any) -> dict[str, Any]:
    if hasattr(item, "to_dict") and not isinstance(item, (pd.Series, pd.DataFrame)):
        item = item.to_dict()
    if not isinstance(item, Mapping):
        raise MappingInputError(
            f"a decision must be a Decision or a dict, got {type(item).__name__}"
        )
    amounts = item.get("amounts") or {}
    return {
        "question": fmt(item.get("question")).replace("_", " "),
        "outcome": fmt(item.get("outcome")).replace("_", " "),
        "as_of": fmt(item.get("as_of")),
        "amounts": [(str(k).replace("_", " "), _amount(v)) for k, v in dict(amounts).items()],
        "reasons": split_joined(item.get("reasons")),
        "citations": split_joined(item.get("citations")),
        "verify": split_joined(item.get("verify")),
    }


def _amount(value: Any) -> str:
    """Return a decision amount as text; numbers get thousands separators (never ids)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return fmt(float(value))
    return fmt(value)


def _decisions_by_impact(decisions: Any) -> dict[str, list[dict[str, Any]]]:
    """Normalise ``decisions`` to impact id -> list of plain decision dicts."""
    if decisions is None:
        return {}
    out: dict[str, list[dict[str, Any]]] = {}
    if isinstance(decisions, pd.DataFrame):
        decisions = decisions.to_dict("records")
    if isinstance(decisions, Mapping):
        for impact_id, items in decisions.items():
            if not isinstance(items, Iterable) or isinstance(items, (str, Mapping)):
                items = [items]
            out.setdefault(fmt(impact_id), []).extend(_decision_dict(i) for i in items)
        return out
    if isinstance(decisions, Sequence) and not isinstance(decisions, str):
        for item in decisions:
            impact_id = item.get("impact_id") if isinstance(item, Mapping) else None
            if impact_id is None:
                raise MappingInputError(
                    "a list of decisions needs an `impact_id` in each item; or pass a dict "
                    "of impact id to its decisions"
                )
            out.setdefault(fmt(impact_id), []).append(_decision_dict(item))
        return out
    raise MappingInputError(
        "`decisions` must be a dict, a list of dicts or a DataFrame, "
        f"got {type(decisions).__name__}"
    )


def _shortfalls(unmet: pd.DataFrame) -> list[str]:
    """Return one sentence per unmet replacement requirement."""
    out = []
    for _, row in unmet.iterrows():
        text = f"Impact {fmt(row_value(row, 'impact_id'))}: "
        text += f"{fmt(row_value(row, 'credits_short'))} credits short"
        reason = row_value(row, "reason")
        out.append(text + ("" if is_missing(reason) else f" ({fmt(reason)})"))
    return out


def _impact_context(
    impacts: pd.DataFrame, decisions: dict[str, list[dict[str, Any]]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]], dict[str, int]]:
    """Rows of the impact table, decision blocks, verification list and outcome counts."""
    if not isinstance(impacts, pd.DataFrame):
        raise MappingInputError(f"`impacts` must be a (Geo)DataFrame, got {type(impacts).__name__}")
    if find_column(impacts.columns, "outcome") is None:
        raise MappingInputError(
            f"`impacts` lacks the `outcome` column; it has {list(impacts.columns)}"
        )
    ids = impact_ids(impacts)
    geometry = getattr(impacts, "_geometry_column_name", None)
    table, blocks, checks = [], [], []
    counts: dict[str, int] = {}
    for idx, row in impacts.iterrows():
        data = {k: v for k, v in row.items() if k != geometry}
        impact_id = ids[idx]
        outcome = fmt(row_value(data, "outcome"))
        counts[outcome] = counts.get(outcome, 0) + 1
        outcome_view = {
            "value": outcome,
            "label": outcome_label(outcome),
            "color": outcome_color(outcome),
        }
        major = fmt(row_value(data, "major"))
        major_name = row_value(data, "major_name")
        if not is_missing(major_name):
            major = f"{major} {fmt(major_name)}"
        zone = row_value(data, "zone")
        zone_label = MISSING if is_missing(zone) else zone_style(str(zone)).label
        wtype = row_value(data, "wetland_type", "circ39", "circ39_class", "wetland_ty")
        ratio = row_value(data, "ratio")
        acres = row_value(data, "replace_acres")
        table.append(
            {
                "id": impact_id,
                "type": MISSING if is_missing(wtype) else f"Type {fmt(wtype)}",
                "area": _area_text(data),
                "outcome": outcome_view,
                "county": fmt(row_value(data, "county")),
                "major": major,
                "bsa": fmt(row_value(data, "bsa")),
                "zone": zone_label.replace("_", " "),
                "ratio": MISSING if is_missing(ratio) else f"{fmt(ratio)}:1",
                "replace": MISSING if is_missing(acres) else f"{float(acres):,.2f}",
            }
        )
        own = decisions.get(impact_id, [])
        blocks.append(
            {
                "id": impact_id,
                "outcome": outcome_view,
                "decisions": own,
                "reasons": split_joined(row_value(data, "reasons")),
                "citations": split_joined(row_value(data, "citations")),
            }
        )
        items = split_joined(row_value(data, "verify"))
        for d in own:
            items += [v for v in d["verify"] if v not in items]
        if truthy(row_value(data, "type_verify")):
            items.insert(0, "The wetland type: it was inferred, not given")
        status = fmt(row_value(data, "status"))
        if status == "not_assessed" or outcome == ImpactOutcome.NOT_ASSESSED.value:
            reason = row_value(data, "status_reason")
            items.insert(0, "Not assessed" + ("" if is_missing(reason) else f": {fmt(reason)}"))
        if items:
            checks.append({"id": impact_id, "outcome": outcome_view, "points": items})
    return table, blocks, checks, counts


def render_report(
    summary: Mapping[str, Any] | pd.Series | None,
    impacts: pd.DataFrame,
    *,
    decisions: Any = None,
    ranking: pd.DataFrame | None = None,
    allocation: pd.DataFrame | None = None,
    unmet: pd.DataFrame | None = None,
    manifest: Mapping[str, Any] | None = None,
    map_html: str | os.PathLike[str] | None = None,
    title: str = "Wetland Conservation Act screening report",
    paper: str = "letter",
) -> str:
    """Render the TEP report as one HTML page.

    Parameters
    ----------
    summary : dict or Series, optional
        Project facts (name, applicant, counts...), shown as a table in this order.
    impacts : DataFrame or GeoDataFrame
        Classified impacts (``docs/data_schema.md``); needs ``outcome``.
    decisions : dict, list of dicts or DataFrame, optional
        Each impact's decisions: impact id -> list of :class:`~wetland_gis.decision.Decision`
        (or their ``to_dict()``), or records carrying ``impact_id``. When an impact has
        none, its ``reasons`` and ``citations`` columns are shown instead.
    ranking, allocation, unmet : DataFrame, optional
        Outputs of ``site``; their documented columns are shown.
    manifest : dict, optional
        The run manifest (package version, parameters, input hashes).
    map_html : str or path-like, optional
        The map page (HTML text, e.g. from a saved self-contained map) embedded in a
        sandboxed ``<iframe srcdoc>``; or a path or address of the map file, linked.
    title : str
        Heading of the report.
    paper : {"letter", "a4"}
        Printed page size.

    Returns
    -------
    str
        The HTML page.

    Raises
    ------
    MappingInputError
        When an argument is of the wrong kind or ``paper`` is not allowed.
    """
    if paper not in PAPER_SIZES:
        raise MappingInputError(
            f"`paper` was {paper!r} but is expected to be in {list(PAPER_SIZES)}"
        )
    by_impact = _decisions_by_impact(decisions)
    table, blocks, checks, counts = _impact_context(impacts, by_impact)
    unmet_table = _table(unmet, UNMET_COLUMNS, "unmet")
    shortfalls = [] if unmet is None else _shortfalls(unmet)

    map_doc = map_link = None
    if isinstance(map_html, str) and map_html.lstrip().startswith("<"):
        map_doc = map_html
    elif map_html is not None:
        map_link = os.fspath(map_html)

    manifest_map = _as_mapping(manifest, "manifest")
    outcome_counts = [
        {"label": outcome_label(o), "color": outcome_color(o), "count": counts.get(o, 0)}
        for o in [*OUTCOME_COLORS, *[o for o in counts if o not in OUTCOME_COLORS]]
    ]
    template = _env().get_template("report.html.j2")
    return template.render(
        title=title,
        page_size=PAPER_SIZES[paper],
        version=_package_version(),
        summary=[
            (str(k).replace("_", " "),
             [fmt(x) for x in v] if isinstance(v, (list, tuple)) else fmt(v))
            for k, v in _as_mapping(summary, "summary").items()
        ],
        outcome_counts=outcome_counts,
        impacts=table,
        blocks=blocks,
        checks=checks,
        shortfalls=shortfalls,
        ranking=_table(ranking, RANKING_COLUMNS, "ranking"),
        allocation=_table(allocation, ALLOCATION_COLUMNS, "allocation"),
        unmet=unmet_table,
        map_doc=map_doc,
        map_link=map_link,
        manifest=[(str(k), _pretty(v)) for k, v in manifest_map.items()],
        manifest_json=json.dumps(manifest_map, indent=2, ensure_ascii=False, default=str)
        if manifest_map
        else "",
    )


def write_report(
    path: str | os.PathLike[str],
    summary: Mapping[str, Any] | pd.Series | None,
    impacts: pd.DataFrame,
    **kwargs: Any,
) -> Path:
    """Render the report (:func:`render_report`) and write it as UTF-8.

    Parameters
    ----------
    path : str or path-like
        The ``.html`` file to write; parent folders are created.
    summary, impacts, **kwargs
        As :func:`render_report`.

    Returns
    -------
    pathlib.Path
        The file written.
    """
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_report(summary, impacts, **kwargs), encoding="utf-8")
    return out
