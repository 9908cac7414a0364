"""The "exemptions tried" part of the report (issue 20, section 1), read from the trace.

For each project where an exemption of § 103G.2241 other than de minimis (or the road
paragraph of § 103G.222, subd. 1(l), (m)) was tried: the project's answer (the one
exemption that carries it, or why none does) and, per impact, every exemption tried with
its answer and why. Nothing is recomputed; an exemption not tried (its facts not given)
is not listed, and a project where none was tried is left out. Above the large-project
size only the impacts that need a closer look are listed one by one, the others counted.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

import pandas as pd

from wetland_gis.enums import Outcome
from wetland_gis.labels import label
from wetland_gis.mapping._format import fmt, is_missing
from wetland_gis.rules.registry import EXEMPTION_ONE, EXEMPTION_RULE_IDS, RULES


def exemption_sections(
    trace: pd.DataFrame,
    ref: Callable[[Any], dict[str, Any] | None],
    *,
    detail: Collection[str] | None = None,
) -> list[dict[str, Any]]:
    """Return, per project, the exemption answer and every exemption tried per impact.

    An exemption not tried (``not_applied``: the facts that say the activity or land is
    the clause's were not given) is never listed (issue 30); the trace keeps it.

    Parameters
    ----------
    trace : DataFrame
        The decision trace (trace columns).
    ref : callable
        Turns a citation cell into the report's citation reference.
    detail : collection of str, optional
        The impacts whose exemptions are listed one by one (a large project's impacts
        that need a closer look); the project then also gets ``counts``. ``None``: every
        impact, and no counts.

    Returns
    -------
    list of dict
        ``project``, ``answer`` (the project step's outcome, reason and citation, or
        ``None``), ``road`` (the road step, or ``None``), ``impacts`` (``id`` and
        ``rows``: ``exemption``, ``outcome``, ``why``, ``cite``) and ``counts`` (rows
        ``exemption``, then the number of impacts of each answer, for ``detail``).
    """
    part = trace[trace["rule_id"].isin(EXEMPTION_RULE_IDS)]
    part = part[part["outcome"] != Outcome.NOT_APPLIED.value]  # not tried: not listed
    if part.empty:
        return []
    out: list[dict[str, Any]] = []
    for project, steps in part.groupby("project", sort=False):
        answer = road = None
        impacts: dict[str, list[dict[str, Any]]] = {}
        own = steps["impact_id"].map(lambda i: "" if is_missing(i) else fmt(i))
        shown = (own == "") | (True if detail is None else own.isin(set(detail)))
        for (_, r), iid in zip(steps[shown].iterrows(), own[shown], strict=True):
            rule = str(r["rule_id"])
            row = {
                "exemption": RULES[rule].label,
                "outcome": label(r["outcome"]) if not is_missing(r["outcome"]) else "",
                "why": fmt(r["reason"]),
                "cite": ref(r["citation"]),
            }
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
                "counts": None if detail is None else _counts(steps[own != ""]),
            }
        )
    return out


#: The answers counted per exemption in a large project, in this order.
_COUNTED = (Outcome.EXEMPT.value, Outcome.CONDITIONAL.value, Outcome.NOT_EXEMPT.value)


def _counts(steps: pd.DataFrame) -> dict[str, Any]:
    """Return the number of impacts of each answer, per exemption tried (a table)."""
    table = steps.groupby(["rule_id", "outcome"], sort=False).size()
    rows = []
    for rule in dict.fromkeys(steps["rule_id"]):
        n = {o: int(table.get((rule, o), 0)) for o in _COUNTED}
        other = int(table.loc[rule].sum()) - sum(n.values())
        rows.append([RULES[str(rule)].label, *(f"{n[o]:,}" for o in _COUNTED), f"{other:,}"])
    return {"headers": ["exemption", *(label(o) for o in _COUNTED), "other"], "rows": rows}
