"""Minn. Stat. § 103G.271, its editions held here, and the dated parameter tree.

Every citation of the water-use rules is built by :func:`cite_subd` (or, for the rules
themselves, in the rule spec) from the one statute prefix of :mod:`wetland_gis.rules.spec`.
The parameter tree ``water_use.yaml`` holds every number of both editions, and
``water_use.editions`` the application dates each edition is applied to (edition dates,
not effective dates: docs/water_use.md, "Editions").

Examples
--------
>>> [e.edition for e in editions_for("2026-06-01")]
['2025']
>>> [e.edition for e in editions_for("2022-06-01")]
['2018', '2025']
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from wetland_gis.errors import ParameterNotInForce
from wetland_gis.parameters import ParameterSet, as_date, load_parameters
from wetland_gis.rules.spec import WATER_USE_SECTION, cite

#: The section every water-use citation names.
STATUTE = cite(WATER_USE_SECTION)


def cite_subd(paragraph: str) -> str:
    """Return the citation of subdivision ``paragraph`` of :data:`STATUTE`.

    Examples
    --------
    >>> cite_subd("6(a)")
    'Minn. Stat. § 103G.271, subd. 6(a)'
    """
    return cite(WATER_USE_SECTION, paragraph)


#: The shipped water-use parameter tree.
WATER_USE_PARAMETERS_PATH = Path(__file__).resolve().parents[1] / "parameters" / "water_use.yaml"


@lru_cache(maxsize=1)
def water_use_parameters() -> ParameterSet:
    """Return the shipped water-use parameter tree (``water_use.yaml``, loaded once)."""
    return load_parameters(WATER_USE_PARAMETERS_PATH)


@dataclass(frozen=True)
class Edition:
    """One edition of § 103G.271 and the application dates it is applied to."""

    edition: str
    title: str
    applies_from: dt.date
    applies_through: dt.date | None
    law_file: str

    def covers(self, day: dt.date) -> bool:
        """Return whether the edition is applied on ``day``."""
        return self.applies_from <= day and (
            self.applies_through is None or day <= self.applies_through
        )


def editions(params: ParameterSet | None = None) -> tuple[Edition, ...]:
    """Return the editions of ``water_use.editions``, oldest first."""
    params = params if params is not None else water_use_parameters()
    param = params["water_use.editions"]
    rows = param.values[-1][1]
    out = [
        Edition(
            edition=str(r["edition"]),
            title=str(r["title"]),
            applies_from=as_date(r["applies_from"]),
            applies_through=None
            if r.get("applies_through") is None
            else as_date(r["applies_through"]),
            law_file=str(r.get("law_file", "")),
        )
        for r in rows
    ]
    return tuple(sorted(out, key=lambda e: e.applies_from))


def editions_for(
    as_of: str | dt.date | None, params: ParameterSet | None = None
) -> tuple[Edition, ...]:
    """Return the edition applied on ``as_of``, or the two editions it lies between.

    Raises
    ------
    ParameterNotInForce
        Before the first edition's date (nothing earlier is known).
    """
    day = as_date(as_of)
    eds = editions(params)
    for ed in eds:
        if ed.covers(day):
            return (ed,)
    before = [e for e in eds if e.applies_from > day]
    after = [e for e in eds if e.applies_from <= day]
    if not after:
        raise ParameterNotInForce(
            f"{STATUTE}: no edition is held for {day.isoformat()}; the earliest, "
            f"{eds[0].title}, is applied from {eds[0].applies_from.isoformat()}. "
            "Add the earlier edition to water_use.yaml if you hold its text."
        )
    return (after[-1], before[0])
