"""Exact amounts of the water-use rules, and how a fee or a volume reads in a reason.

Water appropriation keeps :class:`fractions.Fraction` for its fees and volumes (the WCA rules
core uses :class:`decimal.Decimal`, :func:`wetland_gis.rules.facts.exact`); a fee is rounded
to the cent only when it leaves a decision (:func:`_money`).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from wetland_gis.rules.facts import fmt_number

_CENT = Decimal("0.01")


def exact(value: float | Fraction) -> Fraction:
    """Return ``value`` as an exact fraction of the figure as written (``repr`` of a float).

    Water appropriation keeps :class:`fractions.Fraction` for its fees and volumes; the WCA
    rules core uses :class:`decimal.Decimal` (:func:`wetland_gis.rules.facts.exact`).

    Examples
    --------
    >>> exact(0.1) + exact(0.2) == exact(0.3)
    True
    """
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    return Fraction(repr(float(value)))


def _exact_or_none(value: Fraction | float | None) -> Fraction | None:
    """Return a fee-stage amount as an exact fraction (see :func:`exact`), None if unknown."""
    return None if value is None else exact(value)


def _money(value: Fraction | float | None) -> float | None:
    """Return an amount in dollars rounded half up to the cent, None if unknown."""
    if value is None:
        return None
    q = (
        Decimal(value.numerator) / Decimal(value.denominator)
        if isinstance(value, Fraction)
        else Decimal(repr(float(value)))
    )
    return float(q.quantize(_CENT, rounding=ROUND_HALF_UP))


def _usd(value: Fraction | float) -> str:
    """Return an amount as a reason writes it: ``$1,250`` or ``$3.50``."""
    amount = _money(value) or 0.0
    text = f"${amount:,.2f}"
    return text[: -len(".00")] if text.endswith(".00") else text


def _gal(value: float | Fraction) -> str:
    """Return a volume as a reason writes it: ``1,000,000 gallons``."""
    return f"{fmt_number(float(value))} gallons"
