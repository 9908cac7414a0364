"""The report for the Technical Evaluation Panel (TEP): HTML for the screen, PDF for the file.

It leads with the answer, one sentence per project (outcome, replacement acres, how they
are met, total cost, unmet area), then the replacement plan with a totals row, the impact
table, the decisions step by step (rendered from the decision trace), what a person must
still verify, the best few replacement options per impact with why each won or lost, the
map, the data notes, the citation list, the full ranking (appendix) and the run manifest.

The template (``templates/report.html.j2``) is rendered by jinja2 with autoescape on: every
value from the data is escaped. The PDF (:func:`write_pdf`) is the same report with a
static map (:mod:`~wetland_gis.mapping.static_map`) in place of the interactive one,
printed by WeasyPrint (the optional ``pdf`` extra).
"""

from __future__ import annotations

import base64
import io
import json
import os
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import numpy as np
import pandas as pd

from wetland_gis._version import __version__
from wetland_gis.enums import ImpactOutcome
from wetland_gis.errors import OutputError
from wetland_gis.io.trace_store import LARGE_PROJECT_IMPACTS, is_moot_verify, is_not_tried
from wetland_gis.labels import VALUE_LABELS, column_label, label, rule_label, tier_label
from wetland_gis.mapping.exemption_report import exemption_sections
from wetland_gis.mapping.offline import make_self_contained
from wetland_gis.mapping.static_map import static_map_png, static_map_svg
from wetland_gis.mapping.tep_map import tep_map
from wetland_gis.rules.registry import FACTS_CONTEXT
from wetland_gis.rules.trace import TRACE_COLUMNS
from wetland_gis.units import SQFT_PER_ACRE

from ._format import (
    MISSING,
    MappingInputError,
    as_number,
    column_reader,
    find_column,
    finite_text,
    fmt,
    fmt_acres,
    fmt_money,
    fmt_sqft,
    impact_ids,
    is_missing,
    joint_application_area,
    row_value,
    split_joined,
)
from .popups import truthy
from .static_map import _AXES_CENTRE
from .symbology import (
    OUTCOME_COLORS,
    map_layers,
    outcome_color,
    outcome_label,
    outcome_text_color,
    zone_style,
)

TEMPLATES_DIR = Path(__file__).parent / "templates"
"""Folder of the jinja2 templates."""

PAPER_SIZES = {"letter": "letter", "a4": "A4"}
"""Allowed ``paper`` values and their CSS ``@page size``."""


BEST_OPTIONS = 3
"""How many ranked options per impact the report's body shows (the rest: the appendix)."""

# LARGE_PROJECT_IMPACTS (200): above this many impacts the report summarises (a display
# choice, ``summarise_above``; defined with the impacts' text columns it also governs).
# The impacts table, the steps of each impact, the per-impact options and the full ranking
# give way to summary tables by wetland type, shoreland zone, outcome and major watershed,
# the impacts that need a closer look (:func:`_needs_detail`), the project-level steps and
# a verify list with counts; every impact stays in the ``impacts`` layer,
# ``<stem>_summary.csv`` of ``assess`` and the ranking CSV of ``site``.

LARGE_DETAIL_ROWS = 60
"""The most impacts a large project's report lists one by one (those needing a closer look).

Above it the rest are counted, and named by the filter that finds them in the impacts
layer (a display choice that keeps the PDF to a few dozen pages).
"""

#: Outcomes whose impacts a large project's report lists one by one.
_DETAIL_OUTCOMES = frozenset(
    {
        ImpactOutcome.PROHIBITED.value,
        ImpactOutcome.DE_MINIMIS_CONDITIONAL.value,
        ImpactOutcome.EXEMPT_CONDITIONAL.value,
    }
)

#: Resolution of the static map of a large project, drawn as a PNG in the PDF.
_LARGE_MAP_DPI = 200

#: The columns the summary tables of a large project group by, and their headings.
_SUMMARY_BY = (
    ("outcome", "Outcome"),
    ("type", "Wetland type"),
    ("zone", "Shoreland zone"),
    ("major", "Major watershed"),
)

#: Outcomes exempt only if a fact the data lacks holds: what is owed if it fails is shown.
_CONDITIONAL_OUTCOMES = frozenset(
    {ImpactOutcome.DE_MINIMIS_CONDITIONAL.value, ImpactOutcome.EXEMPT_CONDITIONAL.value}
)

#: The impacts layer's column of the engine's replacement if the missing fact fails
#: (float credits; empty when the outcome is not a conditional exemption).
IF_FAILS_COLUMN = "replace_acres_if_fails"


SECTIONS = (
    ("answer", "The answer"),
    ("plan", "Replacement plan"),
    ("impacts", "Impacts"),
    ("decisions", "Decisions step by step"),
    ("verify", "What a person must still verify"),
    ("options", "Replacement options"),
    ("map", "Map"),
    ("notes", "Data notes"),
    ("citations", "Citations"),
    ("appendix", "Appendix: full ranking"),
    ("manifest", "Run manifest"),
)
"""Section ids and headings, in the order of the report."""

_ASSESSED_OUTCOMES = {o.value for o in ImpactOutcome} - {ImpactOutcome.NOT_ASSESSED.value}


@dataclass
class _Citations:
    """Numbered citation list: each distinct citation text gets one short reference."""

    items: list[str] = field(default_factory=list)

    def ref(self, text: Any) -> dict[str, Any] | None:
        if is_missing(text):
            return None
        text = str(text)
        if text not in self.items:
            self.items.append(text)
        n = self.items.index(text) + 1
        return {"n": n, "anchor": f"cite-{n}", "text": text}


def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


# --------------------------------------------------------------------------- formatting


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


def _frame(value: Any, name: str) -> pd.DataFrame | None:
    if value is None:
        return None
    if not isinstance(value, pd.DataFrame):
        raise MappingInputError(f"`{name}` must be a DataFrame, got {type(value).__name__}")
    return value


# --------------------------------------------------------------------------- the trace


def _check_trace(trace: Any) -> pd.DataFrame:
    if not isinstance(trace, pd.DataFrame):
        raise MappingInputError(f"`trace` must be a DataFrame, got {type(trace).__name__}")
    missing = [c for c in TRACE_COLUMNS if c not in trace.columns]
    if missing:
        raise MappingInputError(
            f"`trace` lacks the trace-contract column(s) {missing}; it has {list(trace.columns)}"
        )
    return trace.sort_values(["project", "seq"], kind="stable")


def _verify_list(value: Any) -> list[str]:
    """Return the ``verify`` cell of a trace row: a list (in memory) or a JSON list (on disk)."""
    if isinstance(value, str):
        try:
            loaded = json.loads(value)
        except ValueError:
            return [value] if value.strip() else []
        return [str(v) for v in loaded] if isinstance(loaded, list) else [str(loaded)]
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value if not is_missing(v)]
    return []


# --------------------------------------------------------------------------- sections


def _outcome_view(outcome: str) -> dict[str, str]:
    return {
        "value": outcome,
        "label": outcome_label(outcome),
        "color": outcome_color(outcome),
        "text": outcome_text_color(outcome),  # black or white, for AA contrast (issue 30)
    }


def _counties_of(trace: pd.DataFrame) -> dict[str, list[str]]:
    """Return, by impact id, the counties a straddling impact lies in, largest share first.

    They are read as data from the inputs of the impact's ``facts.context`` step
    (``counties``), never from the ``counties`` text of the layer.
    """
    steps = trace[trace["rule_id"] == FACTS_CONTEXT]
    out: dict[str, list[str]] = {}
    for impact_id, inputs in zip(steps["impact_id"], steps["inputs"], strict=True):
        names = inputs.get("counties") if isinstance(inputs, Mapping) else None
        if isinstance(names, (list, tuple)) and not is_missing(impact_id):
            out[fmt(impact_id)] = [str(n) for n in names]
    return out


def _impact_rows(
    impacts: pd.DataFrame, ids: pd.Series, counties_of: Mapping[str, list[str]]
) -> list[dict[str, Any]]:

    geometry = getattr(impacts, "_geometry_column_name", None)
    table = impacts.drop(columns=[c for c in (geometry,) if c in impacts.columns])
    get = column_reader(table.columns)  # each column found once, not per row
    has_if_fails = find_column(table.columns, IF_FAILS_COLUMN) is not None
    rows = []
    for idx, data in zip(table.index, table.to_dict("records"), strict=True):
        outcome = fmt(get(data, "outcome"))
        sqft = as_number(get(data, "area_sqft"))
        reported = get(data, "area_reported")
        if is_missing(reported):
            reported = MISSING if sqft is None else joint_application_area(sqft)
        major = fmt(get(data, "major"))
        major_name = get(data, "major_name")
        if not is_missing(major_name):
            major = f"{major} {fmt(major_name)}"
        zone = get(data, "zone")
        wtype = get(data, "wetland_type", "circ39", "circ39_class", "wetland_ty")
        ratio = get(data, "ratio")
        county = get(data, "county")
        counties = counties_of.get(ids[idx]) or ([] if is_missing(county) else [fmt(county)])
        if_fails: Any = _ABSENT
        if has_if_fails:  # the engine's figure; empty or NaN: none given
            if_fails = as_number(get(data, IF_FAILS_COLUMN))
            if_fails = if_fails if if_fails is not None and np.isfinite(if_fails) else None
        replace_text = fmt_acres(get(data, "replace_acres"))
        if outcome in _CONDITIONAL_OUTCOMES:  # what is owed if the missing fact fails
            owed = (
                "not computed" if if_fails is None or if_fails is _ABSENT else fmt_acres(if_fails)
            )
            replace_text = f"{replace_text} ({owed} if the fact fails)"
        rows.append(
            {
                "id": ids[idx],
                "project": fmt(get(data, "project")),
                "type": MISSING if is_missing(wtype) else f"Type {fmt(wtype)}",
                "area": fmt(reported),
                "sqft": MISSING if sqft is None else fmt_sqft(sqft),
                "acres": MISSING if sqft is None else fmt_acres(sqft / SQFT_PER_ACRE),
                "outcome": _outcome_view(outcome),
                "county": ", ".join(counties) if counties else MISSING,
                "major": major,
                "bsa": fmt(get(data, "bsa")),
                "zone": MISSING if is_missing(zone) else zone_style(str(zone)).label,
                "ratio": MISSING if is_missing(ratio) else f"{fmt(ratio)}:1",
                "replace": replace_text,
                "if_fails": if_fails,
                "replace_value": as_number(get(data, "replace_acres")) or 0.0,
                "sqft_value": sqft or 0.0,
                "status": fmt(get(data, "status")),
                "status_reason": fmt(get(data, "status_reason")),
                "type_verify": truthy(get(data, "type_verify")),
                "near": not is_missing(get(data, "near_threshold")),
                # rendered text, shown whole (never split) for an impact without trace steps
                "verify_column": _whole(get(data, "verify")),
                "reasons_column": _whole(get(data, "reasons")),
                "citations_column": _whole(get(data, "citations")),
            }
        )
    return rows


_ABSENT: Any = object()
"""``if_fails`` of a row whose layer has no ``replace_acres_if_fails`` column."""


def _whole(value: Any) -> list[str]:
    """Return a rendered text column as one item (a list or tuple as its items)."""
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value if not is_missing(v)]
    return [] if is_missing(value) else [str(value)]


def _plan(
    allocation: pd.DataFrame | None, project_of: Mapping[str, str]
) -> tuple[list[dict[str, str]], dict[str, str] | None, dict[str, dict[str, Any]]]:
    """Rows of the replacement plan, its totals row and per-project totals."""
    if allocation is None or not len(allocation):
        return [], None, {}
    rows: list[dict[str, str]] = []
    # per project: credits and cost (float), the sites and banks used (sets of ids)
    per_project: dict[str, dict[str, Any]] = {}
    total_credits = total_cost = total_acres = 0.0
    for _, r in allocation.iterrows():
        impact_id = fmt(row_value(r, "impact_id"))
        credits = as_number(row_value(r, "credits")) or 0.0
        cost = as_number(row_value(r, "cost")) or 0.0
        acres = as_number(row_value(r, "acres"))
        kind = fmt(row_value(r, "option_kind"))
        rows.append(
            {
                "impact": impact_id,
                "option": fmt(row_value(r, "option_id")),
                "kind": label(kind) if kind != MISSING else MISSING,
                "tier": tier_label(row_value(r, "tier")),
                "ratio": MISSING
                if is_missing(row_value(r, "ratio"))
                else f"{fmt(row_value(r, 'ratio'))}:1",
                "acres": fmt_acres(acres),
                "credits": fmt_acres(credits),
                "cost": fmt_money(cost),
            }
        )
        total_credits += credits
        total_cost += cost
        total_acres += acres or 0.0
        p = per_project.setdefault(
            project_of.get(impact_id, ""),
            {"credits": 0.0, "cost": 0.0, "sites": set(), "banks": set()},
        )
        p["credits"] += credits
        p["cost"] += cost
        p["banks" if kind == "bank" else "sites"].add(fmt(row_value(r, "option_id")))
    totals = {
        "acres": fmt_acres(total_acres) if find_column(allocation.columns, "acres") else MISSING,
        "credits": fmt_acres(total_credits),
        "cost": fmt_money(total_cost),
    }
    return rows, totals, per_project


#: Bank credits chosen over a better-tier site, listed by name in the report (the rest counted).
PASSED_OVER_LISTED = 20


def _passed_over(
    allocation: pd.DataFrame | None, ranking: pd.DataFrame | None
) -> dict[str, Any] | None:
    """Say which reading put bank credits ahead of a better-tier site (issue 32).

    Reads the plan's ``passed_over_ids`` (decided by ``site``: sites of a better tier
    for the impact with credits the plan did not use, a JSON list; a plan written before
    it has only ``passed_over_sites``, whose text is shown whole, never split) and, for the
    words, the ranking's tier, kind, distance and cost of each option; computes nothing of
    its own.
    """
    if allocation is None or not len(allocation):
        return None
    col = find_column(allocation.columns, "passed_over_ids")
    text_col = find_column(allocation.columns, "passed_over_sites")
    if col is None and text_col is None:
        return None

    def ids_of(value: Any) -> list[str]:
        if is_missing(value) or not str(value).strip():
            return []
        if col is None:
            return [str(value).strip()]  # the people's text, shown as it is
        ids = json.loads(value) if isinstance(value, str) else value
        return [str(i) for i in ids]

    passed = allocation[col if col is not None else text_col].map(ids_of)
    chosen, passed = allocation[passed.map(bool)], passed[passed.map(bool)]
    if not len(chosen):
        return None
    about: dict[tuple[str, str], Mapping[str, Any]] = {}
    if ranking is not None and len(ranking):
        for r in ranking.to_dict("records"):
            about[(fmt(r.get("impact_id")), fmt(r.get("option_id")))] = r

    def words(impact: str, option: str) -> str:
        r = about.get((impact, option), {})
        ink = r.get("in_kind")
        kind = "kind unknown" if is_missing(ink) else "in kind" if truthy(ink) else "out of kind"
        far = finite_text(r.get("distance_ft"), lambda ft: f"{ft * 0.3048 / 1000:,.1f} km away")
        parts = [tier_label(r.get("tier")) if not is_missing(r.get("tier")) else MISSING, kind]
        parts += [far, f"{fmt_money(r.get('cost'))} for the whole requirement"]
        return f"{option} ({', '.join(p for p in parts if p and p != MISSING)})"

    items = []
    for (_, a), sites in zip(chosen.iterrows(), passed, strict=True):
        impact, option = fmt(row_value(a, "impact_id")), fmt(row_value(a, "option_id"))
        items.append(
            f"Impact {impact}: bank credits {words(impact, option)} ahead of project-specific "
            f"site {' and '.join(words(impact, s) for s in sites)}, which had credits the plan "
            "did not use."
        )
    reading = row_value(chosen.iloc[0], "siting_reading")
    return {
        "reading": "banking_own_order" if is_missing(reading) else fmt(reading),
        "items": items[:PASSED_OVER_LISTED],
        "more": max(0, len(items) - PASSED_OVER_LISTED),
    }


CREDITS = "credits"
"""The one unit of every replacement amount the report states (issue 30): credits, the
acres of replacement wetland (impact acres times the ratio). The answer names it once."""


def _credits(value: Any) -> str:
    """Return a replacement amount in :data:`CREDITS` (``"19.64 credits"``)."""
    return f"{fmt_acres(value)} {CREDITS}"


def _unmet_column(unmet: pd.DataFrame) -> tuple[str | None, str]:
    """Return the unmet table's column of the shortfall and its unit.

    ``credits_short`` (docs/siting.md: the acres short times the impact's lowest ratio,
    in credits like every other amount of the answer); a table without it (written by
    another tool) falls back to ``acres_short``, named as impact acres, never mixed in.
    """
    col = find_column(unmet.columns, "credits_short")
    if col is not None:
        return col, CREDITS
    return find_column(unmet.columns, "acres_short"), "impact acres"


def _plan_by_option(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    """Return a large project's plan as one row per option (impacts counted, sums).

    The ``impact`` cell holds the number of impacts the option serves; every allocation
    row is in ``allocation.csv`` of ``site``.
    """
    groups: dict[tuple[str, str, str], dict[str, Any]] = {}
    for r in rows:
        g = groups.setdefault(
            (r["option"], r["kind"], r["tier"]),
            {"n": 0, "ratios": set(), "acres": 0.0, "credits": 0.0, "cost": 0.0},
        )
        g["n"] += 1
        g["ratios"].add(r["ratio"])
        for key in ("acres", "credits", "cost"):
            g[key] += as_number(r[key].replace("$", "").replace(",", "")) or 0.0
    return [
        {
            "impact": f"{_plural(g['n'], 'impact')}",
            "option": option,
            "kind": kind,
            "tier": tier,
            "ratio": ", ".join(sorted(g["ratios"])),
            "acres": fmt_acres(g["acres"]),
            "credits": fmt_acres(g["credits"]),
            "cost": fmt_money(g["cost"]),
        }
        for (option, kind, tier), g in groups.items()
    ]


def _shortfalls_by_reason(unmet: pd.DataFrame | None, col: str | None, unit: str) -> list[str]:
    """Return a large project's shortfalls: impacts and the amount short, per reason."""
    if unmet is None or not len(unmet):
        return []
    groups: dict[str, list[float]] = {}
    for _, r in unmet.iterrows():
        reason = row_value(r, "reason")
        g = groups.setdefault("" if is_missing(reason) else fmt(reason), [0, 0.0])
        g[0] += 1
        g[1] += (as_number(r[col]) or 0.0) if col else 0.0
    lines = [
        f"{_plural(int(n), 'impact')}: {fmt_acres(short)} {unit} short"
        + (f" ({reason})" if reason else "")
        for reason, (n, short) in sorted(groups.items(), key=lambda kv: -kv[1][1])
    ]
    if len(lines) > LARGE_DETAIL_ROWS:
        rest = len(lines) - LARGE_DETAIL_ROWS
        lines = [*lines[:LARGE_DETAIL_ROWS], f"{rest:,} other reasons: see unmet.csv"]
    return lines


def _unmet_by_project(
    unmet: pd.DataFrame | None, project_of: Mapping[str, str]
) -> dict[str, float]:
    out: dict[str, float] = {}
    if unmet is None:
        return out
    col, _ = _unmet_column(unmet)
    for _, r in unmet.iterrows():
        short = as_number(r[col]) if col else None
        if short:
            key = project_of.get(fmt(row_value(r, "impact_id")), "")
            out[key] = out.get(key, 0.0) + short
    return out


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


def _project_outcomes(summary: Mapping[str, Any], rows: list[dict[str, Any]]) -> dict[str, str]:
    """Return each project's outcome, from the projects table row(s) in ``summary``."""
    projects = list(dict.fromkeys(r["project"] for r in rows))
    out: dict[str, str] = {}
    for key, value in summary.items():
        if is_missing(value):
            continue
        if key == "outcome" and len(projects) == 1:
            out[projects[0]] = str(value)
        elif str(key).endswith(": outcome"):
            out[str(key)[: -len(": outcome")]] = str(value)
    return out


def _answers(
    rows: list[dict[str, Any]],
    per_project: Mapping[str, Mapping[str, Any]],
    unmet: Mapping[str, float],
    sited: bool,
    project_outcomes: Mapping[str, str] | None = None,
    unmet_unit: str = CREDITS,
) -> list[dict[str, Any]]:
    """Return one answer per project: a sentence (the project outcome first) and its parts."""
    projects = list(dict.fromkeys(r["project"] for r in rows)) or [""]
    answers = []
    for project in projects:
        own = [r for r in rows if r["project"] == project]
        name = project if project and project != MISSING else "The project"
        counts: dict[str, int] = {}
        for r in own:
            counts[r["outcome"]["value"]] = counts.get(r["outcome"]["value"], 0) + 1
        assessed = sum(n for o, n in counts.items() if o in _ASSESSED_OUTCOMES)
        if not own:
            sentence, kind = "No impact was given.", "empty"
        elif assessed == 0:
            reasons = sorted({r["status_reason"] for r in own if r["status_reason"] != MISSING})
            sentence = (
                f"{name}: no impact could be assessed ({_plural(len(own), 'impact')}"
                + (f"; {'; '.join(reasons)}" if reasons else "")
                + ")."
            )
            kind = "not_assessed"
        else:
            decided = (project_outcomes or {}).get(project)
            plan = per_project.get(project)
            short = unmet.get(project, 0.0) if sited else None
            sentence, kind = _assessed_answer(name, own, counts, decided, plan, short, unmet_unit)
        answers.append(
            {
                "project": name,
                "sentence": sentence,
                "kind": kind,
                "outcomes": [_outcome_view(o) | {"count": n} for o, n in counts.items()],
            }
        )
    return answers


def _assessed_answer(
    name: str,
    own: list[dict[str, Any]],
    counts: Mapping[str, int],
    decided: str | None,
    plan: Mapping[str, Any] | None,
    short: float | None,
    unmet_unit: str,
) -> tuple[str, str]:
    """Return the answer of a project with assessed impacts, and its kind.

    ``short`` is the credits unmet, None when siting was not run (nothing is then known
    to be met or unmet, issue 30).
    """
    outcome_text = ", ".join(
        f"{n:,} {outcome_label(o)[:1].lower()}{outcome_label(o)[1:]}" for o, n in counts.items()
    )
    lead = f"{name}: {label(decided).lower()}, " if decided else f"{name}: "
    parts = [f"{lead}{_plural(len(own), 'impact')} ({outcome_text})"]
    replace = sum(r["replace_value"] for r in own)
    if replace > 0:
        # one unit throughout (issue 30): credits, the acres of replacement wetland
        # (impact acres x ratio), named at the first amount; the plan's "impact
        # acres" column is the wetland impacted, before the ratio
        parts.append(f"{_credits(replace)} required (a credit is an acre of replacement wetland)")
        if plan:
            how = []
            if plan["sites"]:
                how.append(_plural(len(plan["sites"]), "project-specific site"))
            if plan["banks"]:
                how.append(_plural(len(plan["banks"]), "wetland bank"))
            parts.append(
                f"met by {_credits(plan['credits'])} from {' and '.join(how)} "
                f"at a total cost of {fmt_money(plan['cost'])}"
            )
        elif short is None:
            parts.append("replacement siting was not run")
        else:
            parts.append("no replacement option was allocated")
        if short is not None:
            parts.append(f"{fmt_acres(short)} {unmet_unit} unmet" if short > 0 else "nothing unmet")
        kind = "replacement"
    else:
        parts.append("no replacement is needed")
        kind = "no_replacement"
    owed = _owed_if_fails(own)
    if owed:
        parts.append(owed)
    not_assessed = counts.get(ImpactOutcome.NOT_ASSESSED.value, 0)
    if not_assessed:
        parts.append(f"{_plural(not_assessed, 'impact')} could not be assessed")
    return "; ".join(parts) + ".", kind


def _owed_if_fails(rows: Sequence[Mapping[str, Any]]) -> str:
    """Return what the conditional impacts owe if the missing fact fails ("" for none).

    The figure is the engine's (the ``replace_acres_if_fails`` column); it is never
    worked out here. A layer without the column (written before the engine gave it)
    says it is not computed.
    """
    conditional = [r for r in rows if r["outcome"]["value"] in _CONDITIONAL_OUTCOMES]
    if not conditional:
        return ""
    n = _plural(len(conditional), "impact")
    verb = "holds" if len(conditional) == 1 else "hold"
    lead = f"{n} exempt only if a missing fact {verb}; if it fails, "
    if any(r["if_fails"] is _ABSENT for r in conditional):
        return (
            lead + "the replacement owed is not computed in this file (re-run `assess` to "
            "have the engine give it)"
        )
    known = [r["if_fails"] for r in conditional if r["if_fails"] is not None]
    if not known:
        return lead + "the replacement owed is not computed"
    text = lead + f"{_credits(sum(known))} would be required"
    missing = len(conditional) - len(known)
    if missing:
        text += f" (not computed for {_plural(missing, 'impact')})"
    return text


def _steps(trace: pd.DataFrame, cites: _Citations) -> list[dict[str, Any]]:
    """Decision steps grouped by project, then impact ("" for the project's own steps)."""
    groups: list[dict[str, Any]] = []
    for project, part in trace.groupby("project", sort=False):
        impacts: dict[str, list[dict[str, Any]]] = {}
        tried = [
            not is_not_tried(r, o) for r, o in zip(part["rule_id"], part["outcome"], strict=True)
        ]
        for _, r in part[tried].iterrows():  # an exemption not tried is not listed
            impacts.setdefault(
                fmt(r["impact_id"]) if not is_missing(r["impact_id"]) else "", []
            ).append(
                {
                    "seq": fmt(r["seq"]),
                    "rule": rule_label(str(r["rule_id"])),
                    "rule_id": str(r["rule_id"]),
                    "outcome": label(r["outcome"]) if not is_missing(r["outcome"]) else MISSING,
                    "value": "" if is_missing(r["value"]) else fmt(r["value"]),
                    "reason": fmt(r["reason"]),
                    "cite": cites.ref(r["citation"]),
                }
            )
        groups.append(
            {
                "project": fmt(project) if not is_missing(project) else "",
                "impacts": [{"id": k, "steps": v} for k, v in impacts.items() if k],
                "project_steps": impacts.get("", []),
            }
        )
    return groups


def _summary_tables(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the tables of a large project: impacts, area and replacement by each grouping."""
    tables = []
    for key, heading in _SUMMARY_BY:
        groups: dict[str, list[float]] = {}
        for r in rows:
            name = r["outcome"]["label"] if key == "outcome" else r[key]
            g = groups.setdefault(str(name), [0, 0.0, 0.0])
            g[0] += 1
            g[1] += r["sqft_value"]
            g[2] += r["replace_value"]
        ordered = sorted(groups.items(), key=lambda kv: (-kv[1][0], kv[0]))
        tables.append(
            {
                "heading": heading,
                "headers": [heading.lower(), "impacts", "sq ft", "acres", "acres to replace"],
                "rows": [
                    [
                        name,
                        f"{int(n):,}",
                        fmt_sqft(sqft),
                        fmt_acres(sqft / SQFT_PER_ACRE),
                        fmt_acres(rep),
                    ]
                    for name, (n, sqft, rep) in ordered
                ],
            }
        )
    return tables


def _needs_detail(row: Mapping[str, Any]) -> bool:
    """Return whether a large project's report lists an impact one by one.

    Prohibited, conditional (exempt only if a fact holds) and near a threshold (within
    the tolerance of an amount): the impacts whose answer a reader checks first.
    """
    return bool(row["outcome"]["value"] in _DETAIL_OUTCOMES or row["near"])


def _detail(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the impacts a large project's report lists, and how many are left out."""
    chosen = [r for r in rows if _needs_detail(r)]
    return {
        "rows": chosen[:LARGE_DETAIL_ROWS],
        "n": f"{len(chosen):,}",
        "more": f"{len(chosen) - LARGE_DETAIL_ROWS:,}" if len(chosen) > LARGE_DETAIL_ROWS else "",
    }


def _concerns(owners: list[str], ids: list[str], counted: bool) -> str:
    """Return what a point to verify concerns, as text, from its owners (data).

    Every impact of a project of several is "every impact". With ``counted`` (a large
    project) a long list of impact ids is replaced by their number.
    """
    impacts = [o for o in owners if o != "the project"]
    if len(ids) > 1 and set(impacts) == set(ids):
        return "every impact"
    if counted and len(owners) > BEST_OPTIONS * 4:
        known = set(ids)
        n = sum(1 for o in owners if o in known)
        owners = [o for o in owners if o not in known] + [f"{n:,} impacts (see the impacts layer)"]
    return ", ".join(owners)


def _checks(
    rows: list[dict[str, Any]], trace: pd.DataFrame, *, counted: bool = False
) -> list[dict[str, Any]]:
    """Return the verification checklist: each distinct point once, with what it concerns.

    Points come from the trace's ``verify`` lists (an impact with no trace step falls back to
    its rendered ``verify`` column), an inferred wetland type and a row not assessed.
    Project-level points concern "the project". With ``counted`` (a large project) long
    lists of impacts are counted (:func:`_concerns`).
    """
    points: dict[str, list[str]] = {}

    def add(item: str, owner: str) -> None:
        owners = points.setdefault(item, [])
        if owner not in owners:
            owners.append(owner)

    traced: dict[str, list[str]] = {}
    project_items: list[str] = []
    for impact_id, verify, rule, outcome in zip(
        trace["impact_id"], trace["verify"], trace["rule_id"], trace["outcome"], strict=True
    ):
        if is_moot_verify(rule, outcome):
            continue  # a failed exemption: no fact of it, once verified, makes it apply
        items = _verify_list(verify)
        if is_missing(impact_id):
            project_items += [v for v in items if v not in project_items]
        else:
            own = traced.setdefault(fmt(impact_id), [])
            own += [v for v in items if v not in own]
    for item in project_items:
        add(item, "the project")
    for row in rows:
        if ImpactOutcome.NOT_ASSESSED.value in (row["status"], row["outcome"]["value"]):
            reason = row["status_reason"]
            add("Not assessed" + ("" if reason == MISSING else f": {reason}"), row["id"])
        if row["type_verify"]:
            add("The wetland type: it was inferred, not given", row["id"])
        traced_items = traced.get(row["id"])
        for item in traced_items if traced_items is not None else row["verify_column"]:
            add(item, row["id"])
    ids = [r["id"] for r in rows]
    return [
        {"point": item, "concerns": _concerns(owners, ids, counted)}
        for item, owners in points.items()
    ]


def _missing_context(manifest: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Return the context ``assess`` found missing (its manifest's ``missing_context``).

    No LGU polygon over some impacts, no public water within a mile, no fen layer: each
    is a point to verify (issue 30), listed once, read from the run manifest (or the
    ``assess`` part of a report's manifest).
    """
    items: list[str] = []
    for part in (manifest, manifest.get("assess")):
        if isinstance(part, Mapping) and isinstance(part.get("missing_context"), list):
            items += [str(i) for i in part["missing_context"] if not is_missing(i)]
    return [
        {"point": f"Missing context: {item}", "concerns": "the context layers"}
        for item in dict.fromkeys(items)
    ]


def _cost_to_use(option: Mapping[str, Any]) -> float | None:
    """Return what using an option costs: a site is paid in full once, bank credits pro rata.

    The allocation (``siting.allocate``) pays a project-specific site's whole cost when it
    uses the site at all, so the whole cost (unit cost times credits available) is what a
    site competes with; a bank's cost is that of the credits needed.
    """
    if fmt(option.get("option_kind")) == "site":
        unit, have = as_number(option.get("unit_cost")), as_number(option.get("credits_available"))
        if unit is not None and have is not None:
            return unit * have
    return as_number(option.get("cost"))


def _why(
    option: Mapping[str, Any],
    chosen: Mapping[str, Any] | None,
    allocated: Mapping[str, float],
) -> str:
    """Return why a ranked option won or lost, in a few words.

    ``allocated`` maps the option ids allocated to this impact to the cost the plan pays.
    """
    if truthy(option.get("excluded")):
        reason = option.get("exclusion_reason")
        return "Excluded" + ("" if is_missing(reason) else f": {fmt(reason)}")
    option_id = fmt(option.get("option_id"))
    if option_id in allocated:
        return "Allocated: in the replacement plan (best tier available, then least cost)"
    if chosen is None:
        return "Not allocated: no option was allocated to this impact"
    other = fmt(chosen.get("option_id"))
    tier, best = as_number(option.get("tier")), as_number(chosen.get("tier"))
    if tier is not None and best is not None and tier > best:
        return f"Lost: lower siting priority (tier {fmt(tier)} against tier {fmt(best)})"
    need = as_number(option.get("credits_needed"))
    have = as_number(option.get("credits_available"))
    if need is not None and have is not None and have < need:
        return f"Lost: {fmt_acres(have)} credits available for {fmt_acres(need)} needed"
    cost, paid = _cost_to_use(option), allocated.get(other)
    if cost is not None and paid is not None and cost > paid:
        whole = " (a site is paid in full)" if fmt(option.get("option_kind")) == "site" else ""
        return f"Lost: costs {fmt_money(cost)}{whole} against {fmt_money(paid)} for {other}"
    if truthy(chosen.get("in_kind")) and not truthy(option.get("in_kind")):
        return f"Lost: out of kind; {other} is in kind"
    return (
        f"Not allocated: the project-wide plan took {other} (credits shared between "
        "impacts, or a tie)"
    )


def _option_row(
    r: Mapping[str, Any], cites: _Citations, chosen: Any, allocated: Mapping[str, float]
) -> dict[str, Any]:
    return {
        "impact": fmt(r.get("impact_id")),
        "option": fmt(r.get("option_id")),
        "kind": label(fmt(r.get("option_kind"))),
        "tier": MISSING if is_missing(r.get("tier")) else tier_label(r.get("tier")),
        "in_kind": "yes" if truthy(r.get("in_kind")) else "no",
        "ratio": MISSING if is_missing(r.get("ratio")) else f"{fmt(r.get('ratio'))}:1",
        "needed": fmt_acres(r.get("credits_needed")),
        "available": fmt_acres(r.get("credits_available")),
        "cost": fmt_money(r.get("cost")),
        "distance": fmt_sqft(r.get("distance_ft")),
        "why": _why(r, chosen, allocated),
        "cites": [c for c in (cites.ref(t) for t in split_joined(r.get("citations"))) if c],
    }


def _options(
    ranking: pd.DataFrame | None,
    allocation: pd.DataFrame | None,
    cites: _Citations,
    best: int,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return the best few options per impact, and every option (the appendix)."""
    if ranking is None or not len(ranking):
        return [], []
    records = ranking.to_dict("records")
    paid: dict[str, dict[str, float]] = {}  # impact -> allocated option -> cost paid
    if allocation is not None and len(allocation):
        for _, a in allocation.iterrows():
            own = paid.setdefault(fmt(row_value(a, "impact_id")), {})
            option_id = fmt(row_value(a, "option_id"))
            own[option_id] = own.get(option_id, 0.0) + (as_number(row_value(a, "cost")) or 0.0)
    chosen_of: dict[str, Mapping[str, Any]] = {}
    for r in records:
        impact_id = fmt(r.get("impact_id"))
        if fmt(r.get("option_id")) in paid.get(impact_id, {}) and impact_id not in chosen_of:
            chosen_of[impact_id] = r
    groups: dict[str, list[dict[str, Any]]] = {}
    full = []
    for r in records:
        impact_id = fmt(r.get("impact_id"))
        row = _option_row(r, cites, chosen_of.get(impact_id), paid.get(impact_id, {}))
        row["allocated"] = fmt(r.get("option_id")) in paid.get(impact_id, {})
        full.append(row)
        groups.setdefault(impact_id, []).append(row)
    shown = {}
    for impact_id, rows in groups.items():
        # the allocated options always, then the best-ranked others, in ranking order
        keep = {id(r) for r in rows if r["allocated"]}
        room = max(0, best - len(keep))
        keep |= {id(r) for r in [r for r in rows if not r["allocated"]][:room]}
        shown[impact_id] = [r for r in rows if id(r) in keep]
    return [{"id": k, "options": v, "total": len(groups[k])} for k, v in shown.items()], full


def _data_notes(
    impacts: pd.DataFrame,
    ids: pd.Series,
    counties_of: Mapping[str, list[str]],
    manifest: Mapping[str, Any],
    extra: Sequence[str],
) -> list[str]:
    notes: list[str] = []

    col = find_column(impacts.columns, "counties")
    for idx, impact_id in ids.items():
        if len(counties_of.get(impact_id, ())) > 1:  # the parts as the layer lists them
            parts = fmt(impacts.at[idx, col]) if col is not None else ""
            shown = parts if parts and parts != MISSING else ", ".join(counties_of[impact_id])
            notes.append(f"Impact {impact_id} straddles counties: {shown}.")
    # the manifest's own notes, then those of a report's nested assess and site manifests
    for part in (manifest, manifest.get("assess"), manifest.get("site")):
        if not isinstance(part, Mapping):
            continue
        for key in ("records", "assumptions"):
            items = part.get(key)
            if isinstance(items, (list, tuple)):
                notes += [str(i) for i in items if not is_missing(i)]
    notes += [str(e) for e in extra]
    return list(dict.fromkeys(notes))


def _figure(rows: list[dict[str, Any]], allocation: pd.DataFrame | None) -> str:
    """Impacts by outcome and replacement credits by tier, as an SVG data URI."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    counts: dict[str, int] = {}
    for r in rows:
        counts[r["outcome"]["value"]] = counts.get(r["outcome"]["value"], 0) + 1
    outcomes = [o for o in [*OUTCOME_COLORS, *counts] if counts.get(o)]
    outcomes = list(dict.fromkeys(outcomes))
    tiers: dict[str, float] = {}
    if allocation is not None and len(allocation):
        tcol, ccol = (
            find_column(allocation.columns, "tier"),
            find_column(allocation.columns, "credits"),
        )
        if tcol and ccol:
            for t, c in zip(allocation[tcol], allocation[ccol], strict=True):
                key = tier_label(t)
                tiers[key] = tiers.get(key, 0.0) + (as_number(c) or 0.0)
    fig, axes = plt.subplots(1, 2, figsize=(7.2, 1.9), dpi=100)
    ax = axes[0]
    ax.barh(
        [outcome_label(o) for o in outcomes],
        [counts[o] for o in outcomes],
        color=[outcome_color(o) for o in outcomes],
        edgecolor="#333333",
    )
    ax.invert_yaxis()
    ax.set_title("Impacts by outcome", fontsize=9)
    ax.tick_params(labelsize=7.5)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax = axes[1]
    if tiers:
        names = sorted(tiers)
        ax.barh(names, [tiers[n] for n in names], color="#7FBF7B", edgecolor="#333333")
        ax.invert_yaxis()
        ax.set_xlabel("credits allocated (acres)", fontsize=7.5)
    else:
        ax.text(
            *_AXES_CENTRE,
            "No replacement allocated",
            ha="center",
            va="center",
            transform=ax.transAxes,
            fontsize=8,
        )
        ax.set_xticks([])
        ax.set_yticks([])
    ax.set_title("Replacement by siting tier", fontsize=9)
    ax.tick_params(labelsize=7.5)
    for a in axes:
        a.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None})
    plt.close(fig)
    return "data:image/svg+xml;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


_NOT_FACTS = {"citations", "verify", "reasons"}
"""Summary keys shown in their own sections (citations, verify), not as facts."""


def _facts(summary: Mapping[str, Any]) -> list[tuple[str, Any]]:

    out = []
    for k, v in summary.items():
        if str(k).split(": ")[-1] in _NOT_FACTS:
            continue
        if isinstance(v, (list, tuple)):
            value: Any = [fmt(x) for x in v]
        elif isinstance(v, float) and str(k).endswith("sqft"):
            value = fmt_sqft(v)
        elif isinstance(v, float) and "acre" in str(k):
            value = fmt_acres(v)
        elif isinstance(v, str) and (v in VALUE_LABELS or ("_" in v and " " not in v)):
            value = label(v)
        else:
            value = fmt(v)
        project, _, key = str(k).rpartition(": ")
        out.append(((f"{project}: " if project else "") + column_label(key), value))
    return out


# --------------------------------------------------------------------------- public API


_LINK_SCHEMES = frozenset({"http", "https", "file"})


def _safe_href(link: str) -> str:
    """Return a link to the map that a browser can only follow as a page, never run.

    A file name read as a URL with another scheme (``javascript:x.html``, ``data:...``)
    becomes a relative path (``./javascript%3Ax.html``).

    Examples
    --------
    >>> _safe_href("tep_map.html"), _safe_href("javascript:alert(1)")
    ('tep_map.html', './javascript%3Aalert%281%29')
    """
    scheme = urllib.parse.urlsplit(link).scheme.lower()
    if not scheme or scheme in _LINK_SCHEMES or (len(scheme) == 1 and link[1:2] == ":"):
        return link  # a relative or absolute path, a web or file address, a drive letter
    return "./" + urllib.parse.quote(link, safe="/")


def render_report(
    summary: Mapping[str, Any] | pd.Series | None,
    impacts: pd.DataFrame,
    *,
    trace: pd.DataFrame | None = None,
    ranking: pd.DataFrame | None = None,
    allocation: pd.DataFrame | None = None,
    unmet: pd.DataFrame | None = None,
    manifest: Mapping[str, Any] | None = None,
    map_html: str | os.PathLike[str] | None = None,
    map_href: str | None = None,
    static_map: str | None = None,
    data_notes: Sequence[str] = (),
    title: str = "Wetland Conservation Act screening report",
    paper: str = "letter",
    best_options: int = BEST_OPTIONS,
    figure: bool = True,
    summarise_above: int = LARGE_PROJECT_IMPACTS,
) -> str:
    """Render the TEP report as one HTML page.

    Parameters
    ----------
    summary : dict or Series, optional
        Project facts (the projects table row, or name, applicant...), shown with human
        labels under the answer.
    impacts : DataFrame or GeoDataFrame
        Classified impacts (``docs/data_schema.md``); needs ``outcome``.
    trace : DataFrame, optional
        The decision trace (columns :data:`TRACE_COLUMNS`); "Decisions step by step" and
        "What to verify" are rendered from it.
    ranking, allocation, unmet : DataFrame, optional
        Outputs of ``site``.
    manifest : dict, optional
        The run manifest; its records and assumptions are also listed as data notes.
    map_html : str or path-like, optional
        The map page as HTML text, embedded in a sandboxed ``<iframe srcdoc>``; or the
        path of the map file (then linked as given, unless ``map_href`` is).
    map_href : str, optional
        Address of the map file relative to the report, linked.
    static_map : str, optional
        An image address (e.g. an SVG data URI from
        :func:`~wetland_gis.mapping.static_map.static_map_svg`) shown in place of the
        interactive map (the PDF).
    data_notes : sequence of str
        Further notes for the "Data notes" section.
    title : str
        Heading of the report.
    paper : {"letter", "a4"}
        Printed page size.
    best_options : int
        Ranked options per impact in the body; all are in the appendix.
    figure : bool
        Draw the small figure of impacts by outcome and replacement by tier.
    summarise_above : int
        With more impacts than this, summary tables take the place of the per-impact
        sections (:data:`LARGE_PROJECT_IMPACTS`).

    Returns
    -------
    str
        The HTML page.

    Raises
    ------
    MappingInputError
        When an argument is of the wrong kind or ``paper`` is not allowed.
    """
    _check_arguments(impacts, paper)
    ranking = _frame(ranking, "ranking")
    allocation = _frame(allocation, "allocation")
    unmet = _frame(unmet, "unmet")
    trace = _check_trace(trace if trace is not None else pd.DataFrame(columns=list(TRACE_COLUMNS)))
    ids = impact_ids(impacts)
    counties_of = _counties_of(trace)
    rows = _impact_rows(impacts, ids, counties_of)
    project_of = {r["id"]: r["project"] for r in rows}
    cites = _Citations()
    plan_rows, plan_totals, per_project = _plan(allocation, project_of)
    col, unit = _unmet_column(unmet) if unmet is not None else (None, CREDITS)
    answers = _answers(
        rows,
        per_project,
        _unmet_by_project(unmet, project_of),
        sited=ranking is not None or allocation is not None or unmet is not None,
        project_outcomes=_project_outcomes(_as_mapping(summary, "summary"), rows),
        unmet_unit=unit,
    )
    large = len(rows) > summarise_above
    detail = _detail(rows) if large else None
    if large:  # one row per option and per reason; every row is in the siting CSVs
        plan_rows = _plan_by_option(plan_rows)
    shortfalls = (_shortfalls_by_reason if large else _shortfall_lines)(unmet, col, unit)
    body = _body(rows, trace, ranking, allocation, manifest, cites, best_options, large)
    manifest_map = _as_mapping(manifest, "manifest")
    template = _env().get_template("report.html.j2")
    return template.render(
        title=title,
        page_size=PAPER_SIZES[paper],
        version=__version__,
        sections=SECTIONS,
        answers=answers,
        facts=_facts(_as_mapping(summary, "summary")),
        figure=_figure(rows, allocation) if figure else None,
        plan=plan_rows,
        plan_totals=plan_totals,
        sited=ranking is not None or allocation is not None,
        shortfalls=shortfalls,
        passed_over=_passed_over(allocation, ranking),
        impacts=[] if large else rows,
        large={"n": f"{len(rows):,}", "tables": _summary_tables(rows), "detail": detail}
        if large
        else None,
        ranked=ranking is not None,
        **body,
        exemptions=exemption_sections(
            trace, cites.ref, detail=None if detail is None else [r["id"] for r in detail["rows"]]
        ),
        best_options=best_options,
        **_map_parts(map_html, map_href, static_map),
        notes=_data_notes(impacts, ids, counties_of, manifest_map, data_notes),
        **_citations_and_manifest(cites, manifest_map),
    )


def _body(
    rows: list[dict[str, Any]],
    trace: pd.DataFrame,
    ranking: pd.DataFrame | None,
    allocation: pd.DataFrame | None,
    manifest: Mapping[str, Any] | pd.Series | None,
    cites: _Citations,
    best_options: int,
    large: bool,
) -> dict[str, Any]:
    """Return the decisions, the impacts without a step, the checks and the options.

    A large project's checks are counted and its options are left to the ranking CSV.
    """
    steps, untraced = _decisions(trace, rows, cites, large)
    checks = _checks(rows, trace, counted=large)
    checks += _missing_context(_as_mapping(manifest, "manifest"))
    options: list[dict[str, Any]]
    full_ranking: list[dict[str, Any]]
    if large:
        options, full_ranking = [], []
    else:
        options, full_ranking = _options(ranking, allocation, cites, best_options)
    return {
        "steps": steps,
        "untraced": untraced,
        "checks": checks,
        "options": options,
        "full_ranking": full_ranking,
    }


def _check_arguments(impacts: Any, paper: str) -> None:
    """Refuse a paper size not allowed, or impacts that are not a frame with ``outcome``."""
    if paper not in PAPER_SIZES:
        raise MappingInputError(
            f"`paper` was {paper!r} but is expected to be in {list(PAPER_SIZES)}"
        )
    if not isinstance(impacts, pd.DataFrame):
        raise MappingInputError(f"`impacts` must be a (Geo)DataFrame, got {type(impacts).__name__}")
    if find_column(impacts.columns, "outcome") is None:
        raise MappingInputError(
            f"`impacts` lacks the `outcome` column; it has {list(impacts.columns)}"
        )


def _shortfall_lines(unmet: pd.DataFrame | None, col: str | None, unit: str) -> list[str]:
    """Return one line per impact of the unmet table: how much is short, and why."""
    shortfalls = []
    if unmet is not None:
        for _, r in unmet.iterrows():
            reason = row_value(r, "reason")
            shortfalls.append(
                f"Impact {fmt(row_value(r, 'impact_id'))}: {fmt_acres(r[col]) if col else MISSING}"
                f" {unit} short" + ("" if is_missing(reason) else f" ({fmt(reason)})")
            )
    return shortfalls


def _decisions(
    trace: pd.DataFrame, rows: list[dict[str, Any]], cites: _Citations, large: bool
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return the decisions step by step, and the impacts without a step (their texts).

    A large project shows the project's own steps only; each impact's are in the
    decisions table. Impacts without a trace step still show their rendered reasons and
    citations.
    """
    if large:
        own_steps = trace["impact_id"].map(is_missing) | (trace["impact_id"].astype(str) == "")
        steps = _steps(trace[own_steps], cites)
    else:
        steps = _steps(trace, cites)
    traced = {fmt(i) for i in trace["impact_id"] if not is_missing(i)}
    untraced = [
        {
            "id": r["id"],
            "outcome": r["outcome"],
            "reasons": r["reasons_column"],
            "cites": [c for c in (cites.ref(t) for t in r["citations_column"]) if c],
        }
        for r in rows
        if r["id"] not in traced and not large
    ]
    return steps, untraced


def _map_parts(
    map_html: str | os.PathLike[str] | None, map_href: str | None, static_map: str | None
) -> dict[str, Any]:
    """Return the map page to embed (HTML text), the map file to link, and the static map."""
    map_doc = map_link = None
    if isinstance(map_html, str) and map_html.lstrip().startswith("<"):
        map_doc = map_html
    elif map_html is not None:
        map_link = os.fspath(map_html)
    if map_href is not None:
        map_link = map_href
    return {
        "map_doc": map_doc,
        "map_link": map_link,
        "map_href": _safe_href(map_link) if map_link else None,
        "static_map": static_map,
    }


def _citations_and_manifest(cites: _Citations, manifest: Mapping[str, Any]) -> dict[str, Any]:
    """Return the numbered citation list and the manifest, as the template shows them.

    Called last: every section before has numbered its citations.
    """
    return {
        "citations": [
            {"n": i + 1, "anchor": f"cite-{i + 1}", "text": t} for i, t in enumerate(cites.items)
        ],
        "manifest": [(str(k), _pretty(v)) for k, v in manifest.items()],
        "manifest_json": json.dumps(manifest, indent=2, ensure_ascii=False, default=str)
        if manifest
        else "",
    }


def map_arguments(path: Path, kwargs: dict[str, Any]) -> dict[str, Any]:
    """Embed a map given as a file and link it by a path relative to the report."""
    map_html = kwargs.get("map_html")
    if map_html is None or (isinstance(map_html, str) and map_html.lstrip().startswith("<")):
        return kwargs
    map_path = Path(map_html)
    out = dict(kwargs)
    out.setdefault(
        "map_href", Path(os.path.relpath(map_path.resolve(), path.parent.resolve())).as_posix()
    )
    out["map_html"] = map_path.read_text("utf-8") if map_path.is_file() else None
    return out


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
        As :func:`render_report`. A ``map_html`` given as a file path is embedded and
        linked by its path relative to ``path``.

    Returns
    -------
    pathlib.Path
        The file written.
    """
    from wetland_gis.io.safe_write import SafeWriter

    out = Path(path)
    page = render_report(summary, impacts, **map_arguments(out, kwargs))
    with SafeWriter("report", overwrite=True) as w:  # staged, then moved into place
        w.text(page, out)
    return out


def write_pdf(
    path: str | os.PathLike[str],
    summary: Mapping[str, Any] | pd.Series | None,
    impacts: pd.DataFrame,
    *,
    map_layers: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> Path:
    """Write the report as a PDF for the decision file, with a static map of the project.

    Parameters
    ----------
    path : str or path-like
        The ``.pdf`` file to write; parent folders are created.
    summary, impacts, **kwargs
        As :func:`render_report` (``map_html`` is ignored: the PDF carries the static map).
    map_layers : dict, optional
        Keyword arguments of :func:`~wetland_gis.mapping.static_map.static_map`
        (``zones``, ``sites``, ``banks``, ``context``); ``impacts`` and ``allocation``
        are taken from this call.

    Returns
    -------
    pathlib.Path
        The file written.

    Raises
    ------
    OutputError
        When WeasyPrint (the ``pdf`` extra) is not installed.
    """
    try:
        import weasyprint
    except (ImportError, OSError) as exc:  # OSError: the pango library is missing
        raise OutputError(
            "writing a PDF needs WeasyPrint: `pip install 'wetland_gis[pdf]'` (and Debian's "
            f"libpango-1.0-0); {exc}"
        ) from None

    kwargs = {k: v for k, v in kwargs.items() if k not in {"map_html", "map_href"}}
    layers = dict(map_layers or {})
    layers.setdefault("allocation", kwargs.get("allocation"))
    if len(impacts) > kwargs.get("summarise_above", LARGE_PROJECT_IMPACTS):
        # thousands of shapes as SVG nodes take WeasyPrint minutes to draw: a picture
        png = static_map_png(impacts, dpi=_LARGE_MAP_DPI, **layers)
        static = "data:image/png;base64," + base64.b64encode(png).decode()
    else:
        svg = static_map_svg(impacts, **layers)
        static = "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode()
    html = render_report(summary, impacts, static_map=static, **kwargs)
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    # the base URL is the final folder, wherever the file itself is first written
    weasyprint.HTML(string=html, base_url=str(out.parent)).write_pdf(
        out, pdf_variant=None, uncompressed_pdf=False
    )
    return out


def report_assessment(
    assessment: Any,
    out: str | os.PathLike[str],
    *,
    siting: Any = None,
    map_html: str | os.PathLike[str] | None = None,
    pdf: str | os.PathLike[str] | bool | None = None,
    **kwargs: Any,
) -> list[Path]:
    """Write the report of an in-memory assessment (and siting); and its PDF.

    Parameters
    ----------
    assessment : Assessment
        The result of :func:`wetland_gis.assess`.
    out : str or path-like
        The ``.html`` file.
    siting : SitingResult, optional
        The result of :func:`wetland_gis.site`.
    map_html : str or path-like, optional
        A saved map (embedded and linked relative to ``out``) or its HTML; by default the
        map is built from the assessment and embedded.
    pdf : str, path-like or bool, optional
        Also write the PDF: to this path, or beside ``out`` when True.
    **kwargs
        Passed to :func:`render_report` (``title``, ``paper``, ``best_options``...).

    Returns
    -------
    list of Path
        The HTML file, then the PDF when asked for.
    """
    projects = assessment.projects
    summary = projects.iloc[0].to_dict() if len(projects) == 1 else {}
    frames = {k: getattr(siting, k, None) for k in ("ranking", "allocation", "unmet")}
    common: dict[str, Any] = {
        "trace": assessment.trace,
        "manifest": assessment.manifest.to_dict(),
        **frames,
        **kwargs,
    }
    layers = {
        "zones": assessment.zones,
        "sites": getattr(siting, "sites", None),
        "banks": getattr(siting, "banks", None),
        "context": map_layers(assessment.context),
    }
    if map_html is None:
        m = tep_map(assessment.impacts, allocation=frames["allocation"], **layers)
        map_html = make_self_contained(m.get_root().render())
    written = [write_report(out, summary, assessment.impacts, map_html=map_html, **common)]
    if pdf:
        pdf_path = Path(out).with_suffix(".pdf") if pdf is True else Path(pdf)
        written.append(
            write_pdf(pdf_path, summary, assessment.impacts, map_layers=layers, **common)
        )
    return written
