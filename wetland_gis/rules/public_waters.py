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
from decimal import Decimal
from typing import Any

from wetland_gis.decision import Decision
from wetland_gis.enums import ImpactKind, Outcome, WetlandType
from wetland_gis.errors import RulesInputError
from wetland_gis.parameters import ParameterSet
from wetland_gis.rules import registry as R
from wetland_gis.rules.facts import Trace, check_area, check_flag, fmt_number, wetland_type_of
from wetland_gis.rules.kernel import (
    KIND_VALUE,
    O_REQUIRED,
    ROUTE_BOTH,
    ROUTE_PUBLIC_WATERS,
    ROUTE_WCA,
    Impact,
)
from wetland_gis.rules.spec import question, short_cite
from wetland_gis.rules.trace import TraceLog

#: Subd. 19(b): the "wetlands" regulated by the chapter exclude public waters wetlands.
OUTSIDE_WCA = question("public_waters_wetland").clause("19(b)")
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


# --- the engine's steps (rules/engine.py orders them) -----------------------------------

_PWW = R.rule(R.PUBLIC_WATERS_WETLAND)  # its citations are the spec's (rules/spec.py)

PUBLIC_WATERS_DRAINING = _PWW.clause("drain")

PUBLIC_WATERS_PERMIT = _PWW.clause("permit")

PUBLIC_WATERS_WORK = R.rule(R.PUBLIC_WATERS_WORK).citations[0]

PUBLIC_WATERS_INVENTORY = _PWW.clause("inventory")


_V_PWW_WAIVER = (
    "The DNR may waive the public-waters-work permit if the local government unit makes a "
    "replacement, no-loss or exemption determination under §§ 103G.222 to 103G.2372 "
    "(§ 103G.245, subd. 5(b)); check with the DNR area hydrologist."
)

_V_PWW_INVENTORY = (
    "The wetland was taken as a public waters wetland by its type and size alone "
    "(§ 103G.005, subd. 15a); the DNR public waters inventory (§ 103G.201) is the authority: "
    "give its id (column pw_inventory_id) or confirm with the DNR."
)

_V_OHWL = (
    "Where the ordinary high water level of the public water lies and whether the DNR "
    "claims jurisdiction (check with the DNR area hydrologist)."
)


def public_waters_steps(project: str, w: Impact, log: TraceLog) -> bool:
    """Decide a public waters wetland and the permit of a fill below the OHWL.

    Returns whether the impact is a public waters wetland.

    § 103G.201 (the inventory) or § 103G.005, subd. 15a (size, the fallback), 19(b): a
    public waters wetland is not a "wetland" for regulation under the chapter, so no de
    minimis amount applies (``w.in_scope`` is set false); a fill below the OHWL needs the
    permit of § 103G.245, subd. 1(2) besides the WCA decision.
    """
    add = log.add
    f = w.f
    if f.public_waters_wetland:
        w.in_scope = False
        if f.pw_inventory_id:
            cites = [PUBLIC_WATERS_INVENTORY, _PWW.clause("19(b)")]
            what = f"Wetland {f.pw_inventory_id!r} of the DNR public waters inventory"
        else:  # the size test of subd. 15a, the fallback
            cites = [OUTSIDE_WCA + ", 15a"]
            what = "By its type and size, the wetland"
        if f.impact_kind is ImpactKind.DRAIN:
            cites.append(PUBLIC_WATERS_DRAINING)
            work_words = "it may not be drained without replacement (§ 103G.221)"
        else:
            cites.append(_PWW.clause("fill"))
            work_words = (
                "filling or excavating it changes the cross section of public waters and "
                "needs a DNR public-waters-work permit (§ 103G.245, subd. 1(2)), issued "
                "with provisions to compensate for the change (subd. 7)"
            )
        add(
            project=project,
            impact_id=w.iid,
            rule_id=R.PUBLIC_WATERS_WETLAND,
            citation=tuple(short_cite(c) if i else c for i, c in enumerate(cites)),
            outcome=O_REQUIRED,
            value=float(w.counted),
            reason=f'{what} is a public waters wetland: not a "wetland" for regulation under '
            "the chapter (§ 103G.005, subd. 19(b)), so no de minimis amount applies; "
            f"{work_words}; it is replaced at the ratios of § 103G.222, subd. 1(f), (g) "
            '"for a wetland or public waters wetland".',
            verify=(_V_PWW_WAIVER,) if f.pw_inventory_id else (_V_PWW_INVENTORY, _V_PWW_WAIVER),
            inputs={
                "public_waters_wetland": True,
                "pw_inventory_id": f.pw_inventory_id,
                "wetland_acres": f.wetland_acres,
            },
        )
        return True
    public_waters_work(project, w, log)
    return False


def public_waters_work(project: str, w: Impact, log: TraceLog) -> None:
    """§ 103G.245, subd. 1(2): the permit of a fill or excavation below the OHWL.

    "change or diminish the course, current, or cross section of public waters ... by any
    means, including filling, excavating, or placing of materials in or on the beds of
    public waters": a fill, and an excavation whether or not the WCA regulates it (an
    excavation outside the flooded areas of types 3, 4 and 5 is not a drain or fill under
    § 103G.222, subd. 1(a), but it still changes the cross section below the OHWL). A
    drain is decided under § 103G.221 where it is a public waters wetland; it is not
    routed here.
    """
    f = w.f
    if not f.below_ohwl or f.impact_kind is ImpactKind.DRAIN:
        return
    excavation = f.impact_kind is ImpactKind.EXCAVATE
    if w.regulated:
        besides = "besides the WCA decision"
    else:  # an excavation the replacement sections do not cover (§ 103G.222, subd. 1(a))
        besides = (
            "although the excavation alone is not a drain or fill of the WCA (§ 103G.222, "
            "subd. 1(a)): the DNR permit is needed all the same"
        )
    log.add(
        project=project,
        impact_id=w.iid,
        rule_id=R.PUBLIC_WATERS_WORK,
        citation=PUBLIC_WATERS_WORK,
        outcome=O_REQUIRED,
        value=float(w.area if excavation and not w.regulated else w.counted),
        reason="The impact lies on or waterward of the ordinary high water level of a "
        "public water: "
        + ("excavating" if excavation else "filling")
        + " there changes the cross section of public waters and needs a DNR "
        'public-waters-work permit ("by any means, including filling, excavating, or '
        'placing of materials", § 103G.245, subd. 1(2)) ' + besides + ".",
        verify=(_V_OHWL,),
        inputs={
            "below_ohwl": True,
            "impact_kind": KIND_VALUE[f.impact_kind],
            "wca_regulated": w.regulated,
        },
    )


def route(w: Impact) -> str:
    """Return the permit route of an impact (§ 103G.245, subd. 1(2); subd. 19(b)).

    A fill or an excavation on or waterward of the OHWL of a public water goes to the DNR
    public-waters-work permit too, an excavation the WCA does not regulate included (the
    WCA's answer is then "not a drain or fill", still the local government unit's).
    """
    f = w.f
    if w.regulated and f.public_waters_wetland:
        return ROUTE_PUBLIC_WATERS
    if f.below_ohwl and f.impact_kind is not ImpactKind.DRAIN:
        return ROUTE_BOTH
    return ROUTE_WCA


def wca_sqft(work: list[Impact]) -> Decimal:
    """Return the WCA wetland area of a project (the counted area less public waters wetlands).

    § 103G.005, subd. 19(b): "for the purposes of regulation under this chapter, the term
    wetlands does not include public waters wetlands": the WCA thresholds that count
    "square feet of wetland" (utility exemption, public comment, sequencing) count only the
    WCA wetland area.
    """
    return sum(
        (w.counted for w in work if w.regulated and not w.f.public_waters_wetland), Decimal(0)
    )


def with_permit_reason(reason: Any) -> str:
    """Render a headline reason with the public-waters-work permit of § 103G.245, subd. 1(2).

    ``reason`` is a text or a lazy ``(renderer, arguments)`` pair of the trace.
    """
    text = reason if isinstance(reason, str) else reason[0](*reason[1])
    return (
        f"{text} The work lies below the ordinary high water level of a public water "
        "and also needs a DNR public-waters-work permit (§ 103G.245, subd. 1(2))."
    )


def unlisted_by_inventory(screen: Decision) -> Decision:
    """Return the answer for a wetland the DNR public waters inventory given does not list.

    § 103G.201: the inventory is the authority; the size test of § 103G.005, subd. 15a is
    only the fallback without it (docs/rules.md). With the inventory layer given, a basin it
    does not list is not a public waters wetland whatever its size; the size test's answer
    (``screen``) is kept as a verify item for the DNR area hydrologist.

    Parameters
    ----------
    screen : Decision
        The size test's answer (:func:`public_waters_wetland_screen`).

    Returns
    -------
    Decision
        Outcome ``CLASSIFIED``, value ``False``; when the size test said otherwise, a reason
        and a verify item name it.

    Examples
    --------
    >>> size = public_waters_wetland(3, 12.0, False, as_of="2024-01-01")
    >>> unlisted_by_inventory(size).value
    False
    """
    if screen.outcome is Outcome.CLASSIFIED:  # not one by size either: nothing to say
        # (an unknown incorporated status no longer matters: the size test is not used)
        return replace(screen, verify=screen.verify[:1]) if len(screen.verify) > 1 else screen
    said = (
        "by its type and size it would be a public waters wetland (§ 103G.005, subd. 15a)"
        if screen.outcome is Outcome.OUT_OF_SCOPE
        else "its size is not known, so the size test could not screen it"
    )
    return replace(
        screen,
        outcome=Outcome.CLASSIFIED,
        value=False,
        citations=(PUBLIC_WATERS_INVENTORY, *screen.citations),
        reasons=(
            "The DNR public waters inventory layer given does not list the wetland: the "
            "inventory is the authority (§ 103G.201), so it was decided as a wetland of the "
            f"WCA although {said}.",
        ),
        verify=(
            f"Not in the public waters inventory layer given, but {said}: confirm with the DNR "
            "area hydrologist that it is not a public waters wetland (if it is, give its "
            "inventory id, column pw_inventory_id: no de minimis amount applies and the DNR "
            "public-waters-work permit is needed).",
        ),
    )


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
