"""The trace as an assessment keeps and writes it: the engine's steps, repeats folded (issue 30).

The engine (:func:`wetland_gis.rules.decide_projects`) writes one step per exemption of
§ 103G.2241 for every impact it tries them on, ``not_applied`` ("not tried") when the
impact gives none of the facts that say the activity or land is the clause's, and on its
fast path one "not tried" step per impact that gives no exemption fact at all. On a
5,000-impact pipeline that was 49,000 steps saying "not given", each with the words of
every condition of its clause: about half of ``assessed.gpkg`` and ``*_decisions.json``.

:func:`compact_steps` keeps what a reader or a later stage needs and states the rest once:

* the ``not_applied`` steps of one exemption with the same reason in one project become
  **one project-level step** (``impact_id`` ``""``) of that rule, whose ``inputs`` name
  the impacts (``impact_ids``, in trace order) and the facts not given (``not_given``),
  and whose reason says for how many impacts it stands;
* the ``conditions`` an exemption step keeps in its ``inputs`` are stored as their facts
  and status (``met``, ``failed``, ``unknown``) with the citation when it is not the
  step's own: the words of every failed or unknown condition are in the step's
  ``reason`` (and an unknown one's fact in ``verify``), and the words of each clause are
  in ``docs/rules.md``;
* an exemption step decided ``not_exempt`` keeps no ``verify`` items
  (:func:`is_moot_verify`): a failed condition decides it, whatever its unknown facts
  are, and those stay named in its reason.

Every other step is kept as the engine wrote it. Nothing here decides anything: the
outcomes, values and reasons are the engine's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from wetland_gis.enums import Outcome
from wetland_gis.rules import registry
from wetland_gis.rules.registry import EXEMPTION_RULE_IDS
from wetland_gis.rules.trace import number_steps

_NOT_TRIED = Outcome.NOT_APPLIED.value
_NOT_EXEMPT = Outcome.NOT_EXEMPT.value

LARGE_PROJECT_IMPACTS = 200
"""Above this many impacts a project is summarised (a display choice, not law).

The report and PDF give summary tables instead of per-impact sections
(:func:`wetland_gis.mapping.report.render_report`, ``summarise_above``), and the text
columns (``reasons``, ``citations``, ``verify``) of each impact of such a project hold
its own steps only, with one line pointing to the project's steps (in the projects
table and the ``decisions`` table), instead of the project's text again on every row.
"""

#: The project's own steps an impact's text columns show (with the impact's steps).
PROJECT_RULES_SHOWN = frozenset(
    {
        registry.DE_MINIMIS_PARAGRAPH,
        registry.DE_MINIMIS_CLAUSES,
        registry.DE_MINIMIS_TOTAL,
        registry.DE_MINIMIS_CUMULATIVE,
        registry.DE_MINIMIS_PROJECT,
        registry.EXEMPTION_ONE,
        registry.ROAD_REPLACEMENT,
        registry.PROCEDURE_PUBLIC_COMMENT,
        registry.PROCEDURE_SEQUENCING,
        *registry.READING_RULES.values(),
    }
)

#: The line that stands for the project's part of an impact's text columns in a project of
#: more than :data:`LARGE_PROJECT_IMPACTS` impacts (no line in ``citations``).
PROJECT_PART_POINTER = {
    "reasons": (
        "The project's own steps (de minimis totals, exemptions, procedure, readings) are "
        "not repeated on each impact of a project this size: see the projects table and the "
        "decisions table (its rows without an impact id)."
    ),
    "verify": "The project as a whole: see the verify column of the projects table.",
}

#: How the reason of a folded "not tried" step begins (the engine's reason follows).
NOT_TRIED_PREFIX = "Not tried on {n} of the project's impacts (listed in the step's inputs): "


def is_not_tried(rule_id: Any, outcome: Any) -> bool:
    """Return whether a step is an exemption "not tried" (``not_applied``).

    Examples
    --------
    >>> blinds = next(r for r in EXEMPTION_RULE_IDS if r.endswith("10_2"))
    >>> is_not_tried(blinds, "not_applied")
    True
    >>> is_not_tried(blinds, "not_exempt"), is_not_tried("x", "not_applied")
    (False, False)
    """
    return outcome == _NOT_TRIED and rule_id in EXEMPTION_RULE_IDS


def is_moot_verify(rule_id: Any, outcome: Any) -> bool:
    """Return whether a step's verify items cannot change the answer.

    An exemption decided ``not_exempt`` failed on a condition whose facts are known: no
    unknown fact of it, once verified, makes it apply. Its unknown facts stay named in
    its reason (named as moot); they are not items a person must verify.

    Examples
    --------
    >>> utility = next(r for r in EXEMPTION_RULE_IDS if r.endswith("6_a_1"))
    >>> is_moot_verify(utility, "not_exempt"), is_moot_verify(utility, "conditional")
    (True, False)
    """
    return outcome == _NOT_EXEMPT and rule_id in EXEMPTION_RULE_IDS


def compact_conditions(conditions: Any, citation: str) -> Any:
    """Return an exemption step's conditions as their facts and status.

    Parameters
    ----------
    conditions : list of dict
        ``Condition.to_dict()`` of each condition (``facts``, ``text``, ``status``,
        ``citation``, ``defining``).
    citation : str
        The rule's own citation (the first of its spec's citations, data, never read back
        from the step's citation text): a condition's citation is kept only when it
        differs.

    Returns
    -------
    list of dict
        ``{"facts": [...], "status": ...}`` (and ``"citation"``) per condition; anything
        that is not a list of such dicts is returned as it is.

    Examples
    --------
    >>> c = [{"facts": ["duck_blind"], "text": "The activity is a duck blind.",
    ...       "status": "met", "citation": "Minn. Stat. § 103G.2241, subd. 10(2)",
    ...       "defining": True}]
    >>> compact_conditions(c, "Minn. Stat. § 103G.2241, subd. 10(2)")
    [{'facts': ['duck_blind'], 'status': 'met'}]
    """
    if not isinstance(conditions, list):
        return conditions
    own = citation if isinstance(citation, str) else ""
    out = []
    for c in conditions:
        if not isinstance(c, Mapping) or "status" not in c:
            return conditions
        item: dict[str, Any] = {"facts": list(c.get("facts") or ()), "status": c["status"]}
        if c.get("citation") and c.get("citation") != own:
            item["citation"] = c["citation"]
        out.append(item)
    return out


def _not_given(inputs: Any) -> list[str]:
    """Return the facts a "not tried" step found not given (its defining unknowns)."""
    if not isinstance(inputs, Mapping):
        return []
    conditions = inputs.get("conditions")
    facts: dict[str, None] = {}
    if isinstance(conditions, list):
        for c in conditions:
            if isinstance(c, Mapping) and c.get("status") == "unknown" and c.get("defining"):
                facts.update(dict.fromkeys(str(f) for f in c.get("facts") or ()))
    return list(facts)


def compact_steps(columns: Mapping[str, Sequence[Any]]) -> dict[str, list[Any]]:
    """Return trace columns with the "not tried" steps folded and conditions compacted.

    Parameters
    ----------
    columns : mapping of str to sequence
        The trace's columns (:data:`~wetland_gis.rules.TRACE_COLUMNS`) as lists, reasons
        rendered, the steps of each project together and in order.

    Returns
    -------
    dict of str to list
        The same columns; ``seq`` numbered again within each project (0, 1, ...). A
        folded step stands where the first of its impacts' steps stood.

    Examples
    --------
    >>> blinds = next(r for r in EXEMPTION_RULE_IDS if r.endswith("10_2"))
    >>> cols = {"project": ["P", "P", "P"], "impact_id": ["A", "B", "B"],
    ...         "seq": [0, 1, 2], "rule_id": [blinds] * 2 + ["x"],
    ...         "citation": ["c", "c", "d"], "outcome": ["not_applied"] * 2 + ["required"],
    ...         "value": [None, None, 1.0], "reason": ["Not tried.", "Not tried.", "R."],
    ...         "verify": [[], [], []], "inputs": [{}, {}, {}], "parameters": [{}, {}, {}]}
    >>> out = compact_steps(cols)
    >>> out["impact_id"], out["seq"], out["inputs"][0]["impact_ids"]
    (['', 'B'], [0, 1], ['A', 'B'])
    """
    names = list(columns)
    n = len(columns["project"])
    projects, impacts = columns["project"], columns["impact_id"]
    rules, outcomes, reasons = columns["rule_id"], columns["outcome"], columns["reason"]
    citations, inputs = columns["citation"], columns["inputs"]
    # (project, rule, citation, reason) -> (index of the folded step, impact ids, facts)
    folded: dict[tuple[Any, ...], tuple[int, list[Any], dict[str, None]]] = {}
    keep: list[int] = []
    for i in range(n):
        if impacts[i] != "" and is_not_tried(rules[i], outcomes[i]):
            key = (projects[i], rules[i], citations[i], reasons[i])
            group = folded.get(key)
            if group is None:
                folded[key] = (i, [impacts[i]], dict.fromkeys(_not_given(inputs[i])))
                keep.append(i)
            else:
                group[1].append(impacts[i])
                group[2].update(dict.fromkeys(_not_given(inputs[i])))
            continue
        keep.append(i)
    out: dict[str, list[Any]] = {name: [columns[name][i] for i in keep] for name in names}
    position = {i: k for k, i in enumerate(keep)}
    for (_, _, _, reason), (first, ids, facts) in folded.items():
        k = position[first]
        out["impact_id"][k] = ""
        out["value"][k] = None
        out["reason"][k] = NOT_TRIED_PREFIX.format(n=f"{len(ids):,}") + str(reason)
        out["verify"][k] = []
        out["inputs"][k] = {"impacts": len(ids), "impact_ids": ids, "not_given": list(facts)}
        out["parameters"][k] = {}
    for k, (rule, cell, outcome) in enumerate(
        zip(out["rule_id"], out["inputs"], out["outcome"], strict=True)
    ):
        if rule not in EXEMPTION_RULE_IDS:
            continue
        if isinstance(cell, Mapping) and "conditions" in cell:
            own = registry.rule(rule).citations[0]  # the spec's, not the step's text split
            out["inputs"][k] = {**cell, "conditions": compact_conditions(cell["conditions"], own)}
        if outcome == _NOT_EXEMPT and out["verify"][k]:
            out["verify"][k] = []  # moot: a failed condition decides it (see is_moot_verify)
    if "seq" in out:
        out["seq"] = number_steps(out["project"])
    return out
