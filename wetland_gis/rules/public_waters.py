"""Public waters wetlands (§ 103G.005, subd. 15a): outside the Wetland Conservation Act.

A type 3, 4 or 5 wetland of ten or more acres in an unincorporated area, or 2-1/2 or
more acres in an incorporated area, that is not itself public waters, is a public
waters wetland. For regulation under chapter 103G the "wetlands" of the Wetland
Conservation Act do not include public waters wetlands (subd. 19(b)): their draining or
filling goes to the DNR public waters work permit process (§ 103G.245), not to a WCA
replacement plan or exemption.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import replace

from wetland_gis.decision import Decision
from wetland_gis.enums import Outcome, WetlandType
from wetland_gis.errors import RulesInputError
from wetland_gis.parameters import ParameterSet
from wetland_gis.rules.facts import Trace, check_area, check_flag, fmt_number, wetland_type_of

__all__ = ["public_waters_wetland", "public_waters_wetland_screen", "OUTSIDE_WCA"]

#: Subd. 19(b): the "wetlands" regulated by the chapter exclude public waters wetlands.
OUTSIDE_WCA = "Minn. Stat. § 103G.005, subd. 19(b)"
_PUBLIC_WATERS = "public_waters_wetland."


def public_waters_wetland(
    wetland_types: WetlandType | int | Iterable[WetlandType | int],
    wetland_acres: float | None,
    incorporated: bool,
    *,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
) -> Decision:
    """Return whether a wetland is a public waters wetland (§ 103G.005, subd. 15a).

    Parameters
    ----------
    wetland_types : WetlandType, int or iterable of them
        Circular 39 type(s) of the whole wetland (several for a complex such as 3/4).
    wetland_acres : float or None
        Size of the whole wetland (not of the impact), in acres; ``None`` if unknown.
    incorporated : bool
        Whether the wetland lies in an incorporated area (a city).
    params : ParameterSet, optional
        Parameter tree (default: the shipped one).
    as_of : str or date, optional
        Date the law is applied as of (default: today).

    Returns
    -------
    Decision
        ``value`` is ``True`` for a public waters wetland (outcome ``OUT_OF_SCOPE``: it is
        not a WCA wetland and goes to the DNR public waters process), ``False`` otherwise
        (outcome ``CLASSIFIED``), and ``False`` with outcome ``NOT_ASSESSED`` when a type
        3, 4 or 5 wetland has no known size (a verify item says what to check).

    Notes
    -----
    The size limits are "or more" (at least). A complex that mixes listed and unlisted
    types is screened on its whole size and flagged, since whether its type 3-5 part is
    the public waters wetland is for the DNR to say. The DNR public waters inventory,
    not this screen, decides.

    Examples
    --------
    >>> public_waters_wetland(3, 12.0, False, as_of="2024-01-01").value
    True
    """
    trace = Trace("public_waters_wetland", params, as_of)
    types = _types(wetland_types)
    check_flag(incorporated, "incorporated")
    size = None if wetland_acres is None else check_area(wetland_acres, "wetland_acres")
    listed = {int(t) for t in trace.value(_PUBLIC_WATERS + "types")}
    hits = [t for t in types if int(t) in listed]
    names = ", ".join(str(int(t)) for t in types)
    trace.check(
        "The DNR public waters inventory decides whether a basin is a public water or a "
        "public waters wetland; this is a screen."
    )
    if not hits:
        trace.because(
            f"Type {names} is not one of the types that can be a public waters wetland "
            f"({', '.join(str(t) for t in sorted(listed))})."
        )
        trace.cite_key(_PUBLIC_WATERS + "types")
        return trace.decide(Outcome.CLASSIFIED, False)

    key = _PUBLIC_WATERS + (
        "min_acres_incorporated" if incorporated else "min_acres_unincorporated"
    )
    limit = trace.value(key)
    where = "an incorporated" if incorporated else "an unincorporated"
    if len(hits) < len(types):
        part = ", ".join(str(int(t)) for t in hits)
        trace.check(
            f"The wetland is a complex of types {names}: whether its type {part} part "
            "is a public waters wetland is for the DNR."
        )
    if size is None:
        trace.cite_key(key)
        trace.because(
            f"A type {names} wetland in {where} area is a public waters wetland if it is "
            f"{fmt_number(limit)} acres or more, and its size is not known."
        )
        trace.check(
            f"Measure the whole wetland: at {fmt_number(limit)} acres or more it is a public "
            "waters wetland (outside the WCA, DNR public waters process)."
        )
        return trace.decide(Outcome.NOT_ASSESSED, False)

    trace.amounts["wetland_acres"] = size
    if trace.passes(key, size):
        trace.cite_key(key)
        trace.cite(OUTSIDE_WCA)
        trace.because(
            f"A type {names} wetland of {fmt_number(size)} acres in {where} area is at "
            f"least {fmt_number(limit)} acres: a public waters wetland.",
            'Public waters wetlands are not "wetlands" regulated by the Wetland Conservation '
            "Act (subd. 19(b)); draining or filling goes to the DNR public waters process.",
        )
        trace.check(
            "That the basin is not itself public waters (then it is public waters, also "
            "outside the WCA)."
        )
        return trace.decide(Outcome.OUT_OF_SCOPE, True)
    trace.cite_key(key)
    trace.because(
        f"A type {names} wetland of {fmt_number(size)} acres in {where} area is under "
        f"{fmt_number(limit)} acres: not a public waters wetland."
    )
    return trace.decide(Outcome.CLASSIFIED, False)


def _types(value: WetlandType | int | Iterable[WetlandType | int]) -> tuple[WetlandType, ...]:
    if isinstance(value, (int, WetlandType)):
        return (wetland_type_of(value),)
    if isinstance(value, (str, bytes)):
        raise RulesInputError(
            f"wetland_types {value!r} must be a WetlandType, an int 1-8 or a list of them"
        )
    types = tuple(dict.fromkeys(wetland_type_of(v) for v in value))
    if not types:
        raise RulesInputError("wetland_types is empty: give at least one Circular 39 type")
    return types


def public_waters_wetland_screen(
    wetland_types: WetlandType | int | Iterable[WetlandType | int],
    wetland_acres: float | None,
    incorporated: bool | None,
    *,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
) -> Decision:
    """Screen an impact's wetland by size (subd. 15a) when its city status may be unknown.

    Parameters
    ----------
    wetland_types, wetland_acres, params, as_of
        As :func:`public_waters_wetland`.
    incorporated : bool or None
        Whether the wetland lies in an incorporated area; ``None`` if unknown (no
        incorporated areas layer).

    Returns
    -------
    Decision
        :func:`public_waters_wetland`'s decision. With ``incorporated`` unknown, the
        unincorporated answer; when the incorporated one would differ, a verify item says
        so (an unknown fact is said, not guessed).
    """
    if incorporated is not None:
        return public_waters_wetland(
            wetland_types, wetland_acres, incorporated, params=params, as_of=as_of
        )
    rural = public_waters_wetland(wetland_types, wetland_acres, False, params=params, as_of=as_of)
    urban = public_waters_wetland(wetland_types, wetland_acres, True, params=params, as_of=as_of)
    if rural.outcome is urban.outcome:
        return rural
    return replace(
        rural,
        verify=(
            *rural.verify,
            "whether the wetland lies in an incorporated area is unknown (no incorporated_areas "
            "layer): it was screened as unincorporated; in a city it would be a public waters "
            "wetland (§ 103G.005, subd. 15a) and outside the WCA",
        ),
    )
