"""The tally a command prints at its end: rows read, assessed, not assessed, by outcome.

A plain value (no geometry, no pandas): :mod:`wetland_gis.commands` fills it from an output
(:func:`wetland_gis.commands.tally_impacts`), :class:`wetland_gis.impacts.DerivedImpacts`
from the parts it cut, and the command line prints it (and sends it as a run event).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Tally:
    """What a command read, assessed and decided, for the line printed at its end.

    Attributes
    ----------
    command : str
        The command (``assess``, ``site``, ``map``, ``report``, ...).
    rows_read : int
        Impact rows read (every one is in the output).
    assessed : int
        Rows that went on to the rules.
    not_assessed : dict
        Rows not assessed, by the kind of reason (``"expected a polygon, got Point"``,
        ``"wetland type"``, ...).
    outcomes : dict
        Rows by outcome.
    replacement_acres : float
        Acres of replacement required, over every row.
    siting : dict
        For ``site``, in credits (replacement acres): ``credits_required``,
        ``credits_met``, ``credits_unmet``, ``credits_allocated``; and ``cost_usd``.
        Empty otherwise.
    replacement : bool
        Whether the replacement line is printed (not for ``water-use``: no wetland
        replacement there).
    """

    command: str
    rows_read: int = 0
    assessed: int = 0
    not_assessed: dict[str, int] = field(default_factory=dict)
    outcomes: dict[str, int] = field(default_factory=dict)
    replacement_acres: float = 0.0
    siting: dict[str, float] = field(default_factory=dict)
    replacement: bool = True

    @property
    def not_assessed_rows(self) -> int:
        """Return the number of rows not assessed."""
        return sum(self.not_assessed.values())

    def nothing_assessed_text(self) -> str:
        """Return the sentence a report gives when no impact could be assessed."""
        if not self.rows_read:
            return "no impact could be assessed: the impact layer has no features"
        reasons = "; ".join(
            f"{kind} ({n} row{'s' if n != 1 else ''})" for kind, n in self.not_assessed.items()
        )
        return f"no impact could be assessed: {reasons}; see the status_reason of each row"

    def lines(self) -> list[str]:
        """Return the tally as short lines of text."""
        out = [
            f"{self.rows_read} row(s) read, {self.assessed} assessed, "
            f"{self.not_assessed_rows} not assessed"
        ]
        out += [f"  not assessed: {kind}: {n}" for kind, n in self.not_assessed.items()]
        if self.outcomes:
            out.append("outcomes: " + ", ".join(f"{k} {v}" for k, v in self.outcomes.items()))
        if self.replacement:  # not for water use, which has no wetland replacement
            out.append(f"replacement required: {self.replacement_acres:,.4f} ac")
        if self.siting:  # one unit: credits (replacement acres), as replace_acres
            g = self.siting.get
            out.append(
                f"siting, in credits (replacement acres): {g('credits_required', 0.0):,.4f} "
                f"required, {g('credits_met', 0.0):,.4f} met, {g('credits_unmet', 0.0):,.4f} "
                f"unmet; {g('credits_allocated', 0.0):,.4f} allocated, cost "
                f"${g('cost_usd', 0.0):,.2f}"
            )
        return out

    def to_dict(self) -> dict[str, Any]:
        """Return the tally as a JSON-ready dictionary."""
        return {
            "command": self.command,
            "rows_read": self.rows_read,
            "assessed": self.assessed,
            "not_assessed": dict(self.not_assessed),
            "outcomes": dict(self.outcomes),
            "replacement_acres": self.replacement_acres,
            "siting": dict(self.siting),
        }
