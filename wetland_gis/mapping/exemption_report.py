"""The "exemptions tried" part of the report (issue 20, section 1), read from the trace.

For each project where an exemption of § 103G.2241 other than de minimis (or the road
paragraph of § 103G.222, subd. 1(l), (m)) was tried: the project's answer (the one
exemption that carries it, or why none does) and, per impact, every exemption tried with
its answer and why. Nothing is recomputed; a project whose impacts gave no exemption fact
(the engine's fast path) is left out, its "not tried" step stays in the step list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

from wetland_gis.enums import Outcome
from wetland_gis.labels import label
from wetland_gis.mapping._format import fmt, is_missing
from wetland_gis.rules.registry import EXEMPTION_ONE, EXEMPTION_RULE_IDS, RULES

__all__ = ["exemption_sections"]


def exemption_sections(
    trace: pd.DataFrame, ref: Callable[[Any], dict[str, Any] | None]
) -> list[dict[str, Any]]:
    """Return, per project, the exemption answer and every exemption tried per impact.

    Parameters
    ----------
    trace : DataFrame
        The decision trace (trace columns).
    ref : callable
        Turns a citation cell into the report's citation reference.

    Returns
    -------
    list of dict
        ``project``, ``answer`` (the project step's outcome, reason and citation, or
        ``None``), ``road`` (the road step, or ``None``) and ``impacts`` (``id`` and
        ``rows``: ``exemption``, ``outcome``, ``why``, ``cite``).
    """
    part = trace[trace["rule_id"].isin(EXEMPTION_RULE_IDS)]
    if part.empty:
        return []
    out: list[dict[str, Any]] = []
    for project, steps in part.groupby("project", sort=False):
        tried = steps["outcome"] != Outcome.NOT_APPLIED.value
        if not tried.any():
            continue  # the fast path: nothing was tried
        answer = road = None
        impacts: dict[str, list[dict[str, Any]]] = {}
        for _, r in steps.iterrows():
            rule = str(r["rule_id"])
            row = {
                "exemption": RULES[rule].label,
                "outcome": label(r["outcome"]) if not is_missing(r["outcome"]) else "",
                "why": fmt(r["reason"]),
                "cite": ref(r["citation"]),
            }
            iid = "" if is_missing(r["impact_id"]) else fmt(r["impact_id"])
            if not iid:
                if rule == EXEMPTION_ONE:
                    answer = row
                else:
                    road = row
                continue
            impacts.setdefault(iid, []).append(row)
        out.append(
            {
                "project": fmt(project) if not is_missing(project) else "",
                "answer": answer,
                "road": road,
                "impacts": [{"id": k, "rows": v} for k, v in impacts.items()],
            }
        )
    return out
