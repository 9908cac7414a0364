"""The decision trace: one row per rule step, kept as columns.

:class:`TraceLog` collects the steps of one or many projects in plain Python lists (one
per column of :data:`TRACE_COLUMNS`), so deciding many projects builds no object per
step. :meth:`TraceLog.frame` returns the table as a pandas DataFrame (pandas is imported
only then); :meth:`TraceLog.records` as dictionaries.

The columns are the trace contract shared by every stage (docs/data_schema.md,
"decisions"): ``project``, ``impact_id`` (``""`` for a project-level step), ``seq`` (order
within the project), ``rule_id`` (a stable dotted id), ``citation``, ``outcome`` (an
:class:`~wetland_gis.enums.Outcome` value), ``value`` (float or None), ``reason`` (plain
English, may hold ``;``), ``verify`` (list of str), ``inputs`` (dict) and ``parameters``
(dict: parameter key to the value used). Texts are written for people; no stage parses
them back.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

__all__ = ["TRACE_COLUMNS", "JSON_COLUMNS", "TraceLog", "encode_trace_value"]

#: The columns of the trace table, in order.
TRACE_COLUMNS = (
    "project",
    "impact_id",
    "seq",
    "rule_id",
    "citation",
    "outcome",
    "value",
    "reason",
    "verify",
    "inputs",
    "parameters",
)
#: Columns holding Python objects, JSON-encoded in files.
JSON_COLUMNS = ("verify", "inputs", "parameters")

_EMPTY: Mapping[str, Any] = {}


def encode_trace_value(value: Any) -> str:
    """Return a ``verify``, ``inputs`` or ``parameters`` cell as JSON text (for files)."""
    return json.dumps(value, ensure_ascii=False, default=_plain, sort_keys=False)


def _plain(value: Any) -> Any:
    if hasattr(value, "value"):
        return value.value
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    if isinstance(value, Mapping):
        return dict(value)
    return str(value)


class TraceLog:
    """Columns of trace steps; append with :meth:`add`.

    Examples
    --------
    >>> log = TraceLog()
    >>> log.add("P", "", "de_minimis.project", "Minn. Stat. § 103G.2241, subd. 9", "exempt",
    ...         None, "Every impact is de minimis; none needs a plan.")
    >>> log.frame()["reason"].iloc[0]
    'Every impact is de minimis; none needs a plan.'
    """

    def __init__(self) -> None:
        self.columns: dict[str, list[Any]] = {c: [] for c in TRACE_COLUMNS}
        self._seq: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self.columns["seq"])

    def add(
        self,
        project: str,
        impact_id: str,
        rule_id: str,
        citation: str,
        outcome: str,
        value: float | None,
        reason: str,
        verify: Sequence[str] = (),
        inputs: Mapping[str, Any] = _EMPTY,
        parameters: Mapping[str, Any] = _EMPTY,
    ) -> None:
        """Append one step; ``seq`` is numbered per project in the order of calls."""
        seq = self._seq.get(project, 0)
        self._seq[project] = seq + 1
        c = self.columns
        c["project"].append(project)
        c["impact_id"].append(impact_id)
        c["seq"].append(seq)
        c["rule_id"].append(rule_id)
        c["citation"].append(citation)
        c["outcome"].append(outcome)
        c["value"].append(value)
        c["reason"].append(reason)
        c["verify"].append(verify)
        c["inputs"].append(inputs)
        c["parameters"].append(parameters)

    def records(self, start: int = 0, stop: int | None = None) -> Iterator[dict[str, Any]]:
        """Yield the steps ``start:stop`` as dictionaries (lists and dicts copied)."""
        cols = self.columns
        stop = len(self) if stop is None else stop
        for i in range(start, stop):
            row = {c: cols[c][i] for c in TRACE_COLUMNS}
            row["verify"] = list(row["verify"])
            row["inputs"] = dict(row["inputs"])
            row["parameters"] = dict(row["parameters"])
            yield row

    def frame(self, start: int = 0, stop: int | None = None) -> Any:
        """Return the steps as a pandas DataFrame with the :data:`TRACE_COLUMNS`.

        ``verify`` holds lists, ``inputs`` and ``parameters`` dicts (fresh copies).
        """
        import pandas as pd

        cols = self.columns
        data = {c: cols[c][start:stop] for c in TRACE_COLUMNS}
        data["verify"] = [list(v) for v in data["verify"]]
        data["inputs"] = [dict(v) for v in data["inputs"]]
        data["parameters"] = [dict(v) for v in data["parameters"]]
        frame = pd.DataFrame(data, columns=list(TRACE_COLUMNS))
        frame["seq"] = frame["seq"].astype("int64")
        frame["value"] = pd.to_numeric(frame["value"], errors="coerce").astype("float64")
        return frame
