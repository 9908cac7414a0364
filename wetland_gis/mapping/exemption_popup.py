"""The "exemptions tried" part of an impact popup (issue 20, section 1).

Rendered from the impact's steps of the decision trace, never recomputed: one row per
exemption of § 103G.2241 (other than de minimis) tried on the impact, and the road
paragraph, with its outcome and why it does or does not apply (the step's reason). Every
value is escaped.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from typing import Any

from wetland_gis.labels import label
from wetland_gis.rules.registry import EXEMPTION_RULE_IDS, RULES


def is_exemption_step(step: Mapping[str, Any]) -> bool:
    """Return whether a trace step is one of the other exemptions or the road paragraph."""
    return str(step.get("rule_id")) in EXEMPTION_RULE_IDS


def exemption_rows(steps: Iterable[Mapping[str, Any]]) -> list[tuple[str, str, str, str]]:
    """Return ``(exemption, citation, outcome, why)`` for each exemption step, in order.

    Examples
    --------
    >>> from wetland_gis.rules.exempt import ExemptionFacts, spec_of, wildlife
    >>> r = wildlife.duck_blinds(ExemptionFacts(duck_blind=True), day="2024-05-01")
    >>> name, cite, outcome, why = exemption_rows([r.trace_step()])[0]
    >>> name, outcome
    ('Duck blinds', 'Exempt')
    """
    out = []
    for s in steps:
        if not is_exemption_step(s):
            continue
        rule = RULES[str(s["rule_id"])]
        outcome = str(s.get("outcome") or "")
        out.append(
            (rule.label, str(s.get("citation") or ""), label(outcome), str(s.get("reason") or ""))
        )
    return out


def exemptions_tried_html(steps: Iterable[Mapping[str, Any]]) -> str:
    """Return the popup section listing every exemption tried ("" when none was).

    Parameters
    ----------
    steps : iterable of mappings
        The impact's trace steps (trace columns).
    """
    rows = exemption_rows(steps)
    if not rows:
        return ""
    body = "".join(
        f"<tr><th>{html.escape(name)}</th><td>{html.escape(outcome)}</td>"
        f'<td>{html.escape(why)}</td><td class="wg-cite">{html.escape(cite)}</td></tr>'
        for name, cite, outcome, why in rows
    )
    return (
        "<details><summary>Exemptions tried (§ 103G.2241; § 103G.222, subd. 1(l), (m))"
        "</summary><table><tr><th>exemption</th><th>answer</th><th>why</th>"
        f"<th>citation</th></tr>{body}</table></details>"
    )
