"""Popups of the TEP map: the decision chain of an impact, and replacement options.

Every function returns HTML in which each attribute value is escaped with
:func:`html.escape`; plain text is built first, then escaped once where it is placed.

The decision chain of an impact is rendered from its steps of the decision trace (the
``decisions`` table, :data:`wetland_gis.rules.TRACE_COLUMNS`), passed as ``steps``: each
chain step shows the citations of the trace steps whose rule it names
(:data:`RULE_STEPS`). No text column is split or matched: without ``steps``, the row's
rendered ``reasons``, ``citations`` and ``verify`` texts are shown as they are.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from wetland_gis.context_layers import LAYER_SPECS
from wetland_gis.enums import ImpactOutcome, SitingTier
from wetland_gis.io.values import parse_bool
from wetland_gis.labels import label as value_label
from wetland_gis.mapping.exemption_popup import exemptions_tried_html, is_exemption_step
from wetland_gis.rules.priority import CITE_TIER
from wetland_gis.rules.registry import CHAIN_STEPS, RULES

from ._format import (
    MISSING,
    MappingInputError,
    esc,
    fmt,
    fmt_sqft,
    is_missing,
    joint_application_area,
    row_value,
)
from .symbology import outcome_color, outcome_label, outcome_text_color, zone_style

#: The defining provision of each decision-chain step (from the rules registry), shown in
#: italics when the trace gives the step no citation.
STEP_CITATIONS: Mapping[str, tuple[str, ...]] = CHAIN_STEPS

RULE_STEPS: dict[str, str] = {
    rule_id: entry.step for rule_id, entry in RULES.items() if entry.step is not None
}
"""Which decision-chain step each trace rule id belongs to (by id, never by its text)."""

_ALLOWANCE_COLUMNS = ("de_minimis_sqft", "allowance_sqft", "dm_allow_sqft", "dm_allow")
"""Optional columns holding the de minimis allowance applied, shown when present."""


def _citation_cell(citations: Sequence[str], defaults: Sequence[str]) -> str:
    if citations:
        return "<br>".join(html.escape(c) for c in citations)
    return "<br>".join(
        f'<span class="wg-default" title="defining provision; the rules cited none here">'
        f"{html.escape(c)}</span>"
        for c in defaults
    )


def _list_html(items: Sequence[str], *, ordered: bool = False) -> str:
    if not items:
        return f"<p>{MISSING}</p>"
    tag = "ol" if ordered else "ul"
    body = "".join(f"<li>{html.escape(i)}</li>" for i in items)
    return f"<{tag}>{body}</{tag}>"


def decision_chain(
    row: Mapping[str, Any], allocations: pd.DataFrame | None
) -> list[tuple[str, str]]:
    """Return the decision chain of an impact as (step, finding) pairs of plain text.

    Parameters
    ----------
    row : mapping
        One row of the classified impacts. Steps whose columns are absent are left out.
    allocations : DataFrame or None
        The allocation rows of this impact, for the siting step.

    Returns
    -------
    list of (str, str)
        Step names are keys of :data:`STEP_CITATIONS` (or ``status``, ``area``); findings
        are not escaped.
    """

    def get(*names: str) -> Any:
        return row_value(row, *names)

    cols = {str(c).lower() for c in row.keys()}
    chain: list[tuple[str, str]] = []
    for step in _CHAIN_STEPS:
        chain.extend(step(get, cols))
    if allocations is not None and len(allocations):
        parts = []
        for _, alloc in allocations.iterrows():
            tier = row_value(alloc, "tier")
            label = tier_label(tier)
            parts.append(
                f"{fmt(row_value(alloc, 'option_kind'))} {fmt(row_value(alloc, 'option_id'))}: "
                f"{label}, {fmt(row_value(alloc, 'credits'))} credits"
            )
        chain.append(("siting tier", ", ".join(parts)))
    return chain


_Get = Callable[..., Any]
"""``get(*names)``: the value of the first of ``names`` in the row (case-insensitive)."""

_Chain = list[tuple[str, str]]


def _status_step(get: _Get, cols: set[str]) -> _Chain:
    status = get("status")
    reason = get("status_reason")
    if is_missing(status):
        return []
    text = fmt(status).replace("_", " ")
    return [("status", text + ("" if is_missing(reason) else f": {fmt(reason)}"))]


def _area_steps(get: _Get, cols: set[str]) -> _Chain:
    """Return the area as the joint application reports it (and in sq ft), and the activity."""
    chain = []
    area_sqft = get("area_sqft")
    reported = get("area_reported")
    if is_missing(reported) and not is_missing(area_sqft):
        try:
            reported = joint_application_area(float(area_sqft))
        except MappingInputError:
            reported = None
    if not (is_missing(reported) and is_missing(area_sqft)):
        chain.append(("area", f"{fmt(reported)} ({fmt_sqft(area_sqft, unit=True)})"))
    activity = get("impact_kind", "impact", "activity")
    if not is_missing(activity):
        chain.append(("activity", fmt(activity)))
    return chain


def _type_step(get: _Get, cols: set[str]) -> _Chain:
    if not cols & {"wetland_type", "circ39", "circ39_class", "wetland_ty"}:
        return []
    wtype = get("wetland_type", "circ39", "circ39_class", "wetland_ty")
    text = MISSING if is_missing(wtype) else f"Type {fmt(wtype)}"
    source = get("type_source")
    if not is_missing(source):
        text += f" ({fmt(source)})"
    if truthy(get("type_verify")):
        text += "; to verify"
    if truthy(get("cedar_tamarack", "cedar_tam")):
        text += "; white cedar or tamarack wetland"
    return [("wetland type", text)]


def _county_step(get: _Get, cols: set[str]) -> _Chain:
    if not cols & {"county", "metro"}:
        return []
    text = fmt(get("county"))
    counties = get("counties")
    if not is_missing(counties) and fmt(counties) != fmt(get("county")):
        text += f" (touches {fmt(counties)})"
    metro = get("metro")
    if not is_missing(metro):
        text += "; inside" if truthy(metro) else "; outside"
        text += " the 11-county metropolitan area"
    return [("county and metro area", text)]


def _percentage_step(get: _Get, cols: set[str]) -> _Chain:
    if "pct_class" not in cols:
        return []
    text = fmt(get("pct_class")).replace("_", " ")
    source = get("pct_source")
    if not is_missing(source):
        text += f" (from {fmt(source)})"
    return [("percentage area class", text)]


def _watershed_step(get: _Get, cols: set[str]) -> _Chain:
    if not cols & {"major", "minor", "bsa"}:
        return []
    major = fmt(get("major"))
    name = get("major_name")
    if not is_missing(name):
        major += f" {fmt(name)}"
    return [
        (
            "watersheds",
            f"major {major}; minor {fmt(get('minor'))}; bank service area {fmt(get('bsa'))}",
        )
    ]


def _zone_step(get: _Get, cols: set[str]) -> _Chain:
    if not cols & {"zone", "sqft_setback", "sqft_protection"}:
        return []
    zone = get("zone")
    text = MISSING if is_missing(zone) else zone_style(zone).label
    parts = [
        f"{label} {fmt_sqft(get(col), unit=True)}"
        for label, col in (
            ("setback", "sqft_setback"),
            ("protection zone", "sqft_protection"),
            ("outside", "sqft_outside"),
        )
        if col in cols
    ]
    if parts:
        text += " (" + ", ".join(parts) + ")"
    pw = get("nearest_pw")
    if not is_missing(pw):
        text += f"; nearest public water {fmt(pw)}"
        dist = get("nearest_pw_ft")
        if not is_missing(dist):
            text += f" at {fmt(float(dist), digits=0)} ft"
    return [("shoreland zone", text)]


def _fen_step(get: _Get, cols: set[str]) -> _Chain:
    fen = get("calcareous_fen")
    pww = get("public_waters_wetland")
    if is_missing(fen) and is_missing(pww):
        return []
    return [
        ("fen or public waters", f"calcareous fen: {fmt(fen)}; public waters wetland: {fmt(pww)}")
    ]


def _layers_step(get: _Get, cols: set[str]) -> _Chain:
    """Return the any-overlap layers of the registry touched (drainage systems, easements)."""
    touched = [
        f"{spec.map.noun if spec.map else spec.name} {ids}"
        for spec in LAYER_SPECS.values()
        if spec.id_column is not None
        and spec.id_column in cols
        and isinstance(ids := get(spec.id_column), str)
        and ids
    ]
    return [("layers touched", "; ".join(touched))] if touched else []


def _de_minimis_step(get: _Get, cols: set[str]) -> _Chain:
    """Return the impact's de minimis outcome, as the engine decided it (never here)."""
    outcome = fmt(get("outcome"))
    decided = get("de_minimis")
    if not is_missing(decided):
        test = value_label(str(decided)).lower()
    elif outcome == ImpactOutcome.DE_MINIMIS_EXEMPT.value:
        test = "exempt"
    elif outcome == ImpactOutcome.REPLACEMENT_REQUIRED.value:
        test = "not exempt"  # why, and what follows, are the trace's reasons
    else:
        test = f"not applied ({outcome_label(outcome).lower()})"
    area_sqft = get("area_sqft")
    amounts = [f"impact {fmt_sqft(area_sqft, unit=True)}"] if not is_missing(area_sqft) else []
    allowance = get(*_ALLOWANCE_COLUMNS)
    if not is_missing(allowance):
        amounts.append(f"allowance {fmt_sqft(allowance, unit=True)}")
    return [("de minimis test", test + (f" ({', '.join(amounts)})" if amounts else ""))]


def _ratio_step(get: _Get, cols: set[str]) -> _Chain:
    ratio = get("ratio")
    acres = get("replace_acres")
    if is_missing(ratio) and is_missing(acres):
        return []
    text = MISSING if is_missing(ratio) else f"{fmt(ratio)}:1"
    if not is_missing(acres):
        text += f"; {fmt(float(acres), digits=2)} acres to replace"
    return [("replacement ratio", text)]


#: The steps of the decision chain before siting, in order: each returns its
#: (step, finding) pairs, none when the row lacks its columns.
_CHAIN_STEPS: tuple[Callable[[_Get, set[str]], _Chain], ...] = (
    _status_step,
    _area_steps,
    _type_step,
    _county_step,
    _percentage_step,
    _watershed_step,
    _zone_step,
    _fen_step,
    _layers_step,
    _de_minimis_step,
    _ratio_step,
)


def truthy(value: Any) -> bool:
    """Read a boolean column value with :func:`~wetland_gis.io.values.parse_bool`.

    True only for a true spelling (``True``, ``1``, ``"yes"``, ``"1.0"``, ...); a blank
    or unreadable value is not shown as true.

    Examples
    --------
    >>> truthy("Yes"), truthy("no"), truthy(None), truthy("1.0")
    (True, False, False, True)
    """
    return parse_bool(value, errors="coerce") is True


def tier_label(tier: Any) -> str:
    """Return a siting tier as text, e.g. ``"tier 1 (same minor watershed)"``."""
    try:
        return f"tier {int(tier)} ({SitingTier(int(tier)).label})"
    except (TypeError, ValueError):
        return f"tier {fmt(tier)}"


def _steps(steps: pd.DataFrame | Iterable[Mapping[str, Any]] | None) -> list[Mapping[str, Any]]:
    """Return an impact's trace steps as a list of mappings, in ``seq`` order."""
    if steps is None:
        return []
    if isinstance(steps, pd.DataFrame):
        frame = steps.sort_values("seq") if "seq" in steps else steps
        return frame.to_dict("records")
    return list(steps)


def _text_html(value: Any) -> str:
    """Return a rendered text column as one block, its line breaks kept (never split)."""
    if is_missing(value):
        return f"<p>{MISSING}</p>"
    return f'<p style="white-space:pre-line">{html.escape(str(value))}</p>'


def impact_popup_html(
    row: Mapping[str, Any],
    *,
    impact_id: str,
    allocations: pd.DataFrame | None = None,
    steps: pd.DataFrame | Iterable[Mapping[str, Any]] | None = None,
) -> str:
    """Return the popup of one impact: its decision chain, reasons, citations, checks.

    Parameters
    ----------
    row : mapping
        One row of the classified impacts (columns of ``docs/data_schema.md``).
    impact_id : str
        The id shown in the heading.
    allocations : DataFrame, optional
        The rows of the siting allocation for this impact.
    steps : DataFrame or iterable of mappings, optional
        The impact's steps of the decision trace (and its project's, if wanted), with the
        trace columns. Reasons, citations and checks are listed from them, one item per
        step; without them the row's rendered text columns are shown as they are.

    Returns
    -------
    str
        HTML in which every attribute value is escaped. Each step of the chain shows the
        citations of the trace steps that belong to it (:data:`RULE_STEPS`) or, in
        italics, the provision that defines the step (:data:`STEP_CITATIONS`).
    """
    outcome = fmt(row_value(row, "outcome"))
    trace = _steps(steps)
    cited: dict[str, list[str]] = {}
    for trace_step in trace:
        name = RULE_STEPS.get(str(trace_step.get("rule_id")))
        if name and trace_step.get("citation"):
            cited.setdefault(name, []).append(str(trace_step["citation"]))
    rows = []
    for step, finding in decision_chain(row, allocations):
        matched = list(dict.fromkeys(cited.get(step, [])))
        rows.append(
            f"<tr><th>{html.escape(step)}</th><td>{html.escape(finding)}</td>"
            f'<td class="wg-cite">{_citation_cell(matched, STEP_CITATIONS.get(step, ()))}'
            "</td></tr>"
        )
    if steps is not None:
        reasons_html = _list_html(
            [str(s["reason"]) for s in trace if s.get("reason") and not is_exemption_step(s)],
            ordered=True,
        )
        citations_html = _list_html(
            list(dict.fromkeys(str(s["citation"]) for s in trace if s.get("citation")))
        )
        verify_html = _list_html(
            list(dict.fromkeys(str(v) for s in trace for v in (s.get("verify") or ())))
        )
    else:
        reasons_html, citations_html, verify_html = (
            _text_html(row_value(row, name)) for name in ("reasons", "citations", "verify")
        )
    return (
        f'<div class="wg-popup">'
        f"<h4>Impact {html.escape(impact_id)}</h4>"
        f'<p><span class="wg-outcome" style="background:{outcome_color(outcome)};'
        f'color:{outcome_text_color(outcome)}">'
        f"{html.escape(outcome_label(outcome))}</span></p>"
        f"<table><tr><th>step</th><th>finding</th><th>citation</th></tr>{''.join(rows)}</table>"
        f"<h5>Reasons</h5>{reasons_html}"
        f"{exemptions_tried_html(trace)}"
        f"<h5>Citations</h5>{citations_html}"
        f"<h5>To verify</h5>{verify_html}"
        f"{_input_columns_html(row)}</div>"
    )


def _input_columns_html(row: Mapping[str, Any]) -> str:
    """Return the user's own columns (those before ``wg_row``), folded away."""
    keys = list(row.keys())
    lowered = [str(k).lower() for k in keys]
    if "wg_row" not in lowered:
        return ""
    own = {k: row[k] for k in keys[: lowered.index("wg_row")] if str(k).lower() != "geometry"}
    if not own:
        return ""
    return f"<details><summary>Input attributes</summary>{attributes_html(own)}</details>"


def attributes_html(row: Mapping[str, Any], skip: Sequence[str] = ()) -> str:
    """Return a two-column table of a row's attributes, names and values escaped.

    Parameters
    ----------
    row : mapping
        Column name to value; ``geometry`` is always left out.
    skip : sequence of str
        Further columns to leave out (case-insensitive).

    Returns
    -------
    str
        An HTML ``<table>``.
    """
    skip_lower = {s.lower() for s in skip} | {"geometry"}
    cells = "".join(
        f"<tr><th>{html.escape(str(k))}</th><td>{esc(v)}</td></tr>"
        for k, v in row.items()
        if str(k).lower() not in skip_lower
    )
    return f"<table>{cells}</table>"


def option_popup_html(
    kind: str,
    option_id: str,
    row: Mapping[str, Any],
    tier: Any,
    credits: Any,
    allocations: pd.DataFrame | None,
) -> str:
    """Return the popup of a candidate site or bank.

    Parameters
    ----------
    kind : {"site", "bank"}
        What the option is.
    option_id : str
        Its id as shown (site id, or bank name and account).
    row : mapping
        Its attributes.
    tier, credits
        Best siting tier and credits allocated to the project.
    allocations : DataFrame or None
        The allocation rows that use this option.

    Returns
    -------
    str
        HTML in which every attribute value is escaped.
    """
    try:
        tier_cite = CITE_TIER[SitingTier(int(tier))]
    except (TypeError, ValueError, KeyError):
        tier_cite = MISSING
    alloc_html = ""
    if allocations is not None and len(allocations):
        lines = "".join(
            f"<tr><td>{esc(row_value(a, 'impact_id'))}</td>"
            f"<td>{esc(tier_label(row_value(a, 'tier')))}</td>"
            f"<td>{esc(row_value(a, 'credits'))}</td><td>{esc(row_value(a, 'cost'))}</td></tr>"
            for _, a in allocations.iterrows()
        )
        alloc_html = (
            "<h5>Allocated to</h5><table><tr><th>impact</th><th>tier</th><th>credits</th>"
            f"<th>cost</th></tr>{lines}</table>"
        )
    best = None if is_missing(tier) else tier_label(tier)
    return (
        f'<div class="wg-popup"><h4>{html.escape(kind.capitalize())} {html.escape(option_id)}</h4>'
        f"<table><tr><th>best siting tier</th><td>{esc(best)}</td>"
        f'<td class="wg-cite">{html.escape(tier_cite)}</td></tr>'
        f"<tr><th>allocated credits</th><td>{esc(credits)}</td><td></td></tr></table>"
        f"{alloc_html}<h5>Attributes</h5>{attributes_html(row)}</div>"
    )


#: The facts of a large project's short impact popup: column and heading.
_BRIEF_FIELDS = (
    ("wetland_type", "Wetland type"),
    ("area_reported", "Size"),
    ("zone", "Shoreland zone"),
    ("de_minimis", "De minimis"),
    ("ratio", "Replacement ratio"),
    ("replace_acres", "Replacement (acres of wetland, credits)"),
    ("status_reason", "Not assessed because"),
)


def impact_brief_popup_html(row: Mapping[str, Any], impact_id: str, outcome: str) -> str:
    """Return the short popup of an impact of a large project (every value escaped).

    One fact a line: a large project's map holds thousands, and each tag is escaped again
    in the page's JSON, so the markup is kept to ``<b>`` and ``<br>``.

    Parameters
    ----------
    row : mapping
        One row of the classified impacts.
    impact_id : str
        The id shown first.
    outcome : str
        The impact's ``outcome`` value.

    Returns
    -------
    str
    """
    lines = [f"<b>Impact {html.escape(impact_id)}</b>: {html.escape(outcome_label(outcome))}"]
    for column, heading in _BRIEF_FIELDS:
        value = row_value(row, column)
        if value is None or is_missing(value):
            continue
        text = value_label(value) if column in ("zone", "de_minimis") else fmt(value)
        lines.append(f"{html.escape(heading)}: {html.escape(text)}")
    return "<br>".join(lines)
