"""The immutable decision object every rule of the rules core returns."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from types import MappingProxyType
from typing import Any


def freeze(mapping: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """Return a read-only copy of ``mapping`` (``None`` is an empty mapping).

    Used by the frozen decision classes for their mapping fields.
    """
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True)
class Decision:
    """One answer of the rules core, with everything needed to trace it.

    Parameters
    ----------
    question : str
        The legal question answered, named like the function that answers it
        (``"de_minimis"``, ``"replacement_ratio"``).
    outcome : Outcome or other Enum
        The answer.
    amounts : Mapping[str, float]
        Numbers the decision produced or compared (square feet, acres, ratios).
    citations : tuple of str
        The citation of every rule that fired, e.g. ``"Minn. Stat. § 103G.2241, subd. 9(a)(1)"``.
    reasons : tuple of str
        Plain-English reasons, one sentence each, in the order they were applied.
    parameters : Mapping[str, Any]
        The parameter keys used and the values they had on the ``as_of`` date.
    verify : tuple of str
        Conditions a person (the TEP, the local government unit) must still verify.
    as_of : str
        ISO date the parameters were read for.
    value : Any, optional
        The answer's value where the question asks for one (an allowance in
        square feet, a ratio, a :class:`~wetland_gis.enums.PercentageArea`, a
        :class:`~wetland_gis.enums.SitingTier`); ``None`` otherwise.
    """

    question: str
    outcome: Enum
    amounts: Mapping[str, float] = field(default_factory=dict)
    citations: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    parameters: Mapping[str, Any] = field(default_factory=dict)
    verify: tuple[str, ...] = ()
    as_of: str = ""
    value: Any = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "amounts", freeze(self.amounts))
        object.__setattr__(self, "parameters", freeze(self.parameters))
        for name in ("citations", "reasons", "verify"):
            value = getattr(self, name)
            if isinstance(value, str):
                value = (value,)
            object.__setattr__(self, name, tuple(_unique(value)))

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dictionary of the decision."""
        return {
            "question": self.question,
            "outcome": self.outcome.value,
            "amounts": dict(self.amounts),
            "citations": list(self.citations),
            "reasons": list(self.reasons),
            "parameters": {k: plain(v) for k, v in self.parameters.items()},
            "verify": list(self.verify),
            "as_of": self.as_of,
            "value": plain(self.value),
        }

    def explain(self) -> str:
        """Return the decision as a few lines of plain text."""
        lines = [f"{self.question}: {self.outcome.value} (as of {self.as_of})"]
        lines += [f"  - {r}" for r in self.reasons]
        if self.citations:
            lines.append("  cites: " + "; ".join(self.citations))
        if self.verify:
            lines += [f"  verify: {v}" for v in self.verify]
        return "\n".join(lines)


def _unique(values: Iterable[str]) -> list[str]:
    seen: dict[str, None] = {}
    for v in values:
        seen.setdefault(str(v), None)
    return list(seen)


def plain(value: Any) -> Any:
    """Return ``value`` as a JSON-ready plain value, for a decision's ``to_dict``.

    An enum is its value, a date its ISO text, a ``Decimal`` or ``Fraction`` a float, a
    mapping a dict with text keys, a set a sorted list, a list or tuple a list; the parts
    are made plain too, and anything else is returned as it is.

    Examples
    --------
    >>> import datetime as dt
    >>> from decimal import Decimal
    >>> plain({"on": dt.date(2024, 5, 1), "fee": Decimal("1.5"), "types": frozenset({3, 1})})
    {'on': '2024-05-01', 'fee': 1.5, 'types': [1, 3]}
    """
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dt.date):  # a datetime too
        return value.isoformat()
    if isinstance(value, (Decimal, Fraction)):
        return float(value)
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        items = [plain(v) for v in value]
        try:
            return sorted(items)
        except TypeError:  # values of more than one type: by their text
            return sorted(items, key=str)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value
