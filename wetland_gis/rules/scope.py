"""Scope of the replacement sections: the impact kind, calcareous fens, banked wetlands.

* :func:`impact_kind` — § 103G.222, subd. 1(a): drains and fills are regulated; an
  excavation only in the permanently and semipermanently flooded areas of types 3, 4 and
  5; a partial drain counts the partly drained area at the share of Minn. R. 8420.0522,
  subp. 2.
* :func:`calcareous_fen` — § 103G.223: a fen may not be degraded by any activity.
* :func:`exemption_standards` — Minn. R. 8420.0420, subp. 1: no exemption for a banked
  wetland or one used for replacement credit.

Each reads one working impact (:class:`~wetland_gis.rules.kernel.Impact`) and writes its
steps into the trace; the engine orders them.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from wetland_gis.enums import ImpactKind, ImpactOutcome
from wetland_gis.rules import registry as R
from wetland_gis.rules.facts import PERCENT, fmt_number, fmt_sqft
from wetland_gis.rules.kernel import (
    KIND_VALUE,
    O_CONDITIONAL,
    O_NOT_EXEMPT,
    O_NOT_REGULATED,
    O_PROHIBITED,
    O_REGULATED,
    Impact,
    RuleBook,
    dec,
)
from wetland_gis.rules.public_waters import PUBLIC_WATERS_DRAINING, PUBLIC_WATERS_WORK
from wetland_gis.rules.spec import short_cite
from wetland_gis.rules.trace import Reason, TraceLog

CALCAREOUS_FENS = R.rule(R.CALCAREOUS_FEN).citations[0]
EXEMPTION_STANDARDS = R.rule(R.EXEMPTION_STANDARDS).citations[0]
PARTIAL_DRAINAGE = R.rule(R.IMPACT_KIND).clause("partial")


_V_KIND = (
    "The impact kind was not given: the impact was decided as a drain or fill; give "
    "'fill', 'drain' or 'excavate' (column impact_kind)."
)

_V_SPOIL = (
    "Where the excavated spoil is placed: spoil placed in a wetland is a fill, and an "
    "excavation that drains the wetland is a drain (§ 103G.222, subd. 1(a))."
)

_V_FLOODED = (
    "Whether the excavated area is permanently or semipermanently flooded (then the "
    "replacement sections apply, § 103G.222, subd. 1(a)); it was treated as flooded."
)

_V_REGIME = (
    "Whether the excavated area is permanently or semipermanently flooded, as determined by "
    "the Technical Evaluation Panel (§ 103G.2242, subd. 2): the NWI water regime says it is "
    "not; if the panel agrees, the excavation alone is not a drain or fill (§ 103G.222, "
    "subd. 1(a)) and needs no replacement (give flooded = false)."
)

_V_SHARE = (
    "The share counted for the partly drained area was not assessed: the minimum of Minn. R. "
    "8420.0522, subp. 2 was counted; give the share determined by an assessment acceptable "
    "to the Technical Evaluation Panel (column partial_share)."
)

_V_PARTIAL = (
    "The share counted for the partly drained area is at least the parameter's percentage "
    "of the remaining wetland area, as determined by an assessment acceptable to the "
    "Technical Evaluation Panel (Minn. R. 8420.0522, subp. 2); it may be larger."
)

_V_FEN = "The calcareous fen identification (commissioner's order in the State Register)."


def impact_kind(project: str, w: Impact, book: RuleBook, log: TraceLog) -> None:
    """§ 103G.222, subd. 1(a): whether the impact is regulated, and the area counted.

    Parameters
    ----------
    project : str
        The project's name (written in the trace).
    w : Impact
        The working impact; ``regulated``, ``counted``, ``outcome`` and ``share_unknown``
        are set here.
    book : RuleBook
        The rule book of the run.
    log : TraceLog
        The trace.
    """
    f = w.f
    kind = f.impact_kind
    inputs: dict[str, Any] = {
        "impact_kind": KIND_VALUE[kind],
        "wetland_type": int(f.wetland_type),
        "area_sqft": float(w.area),
    }
    if f.public_waters_wetland:
        _public_waters_kind(project, w, log, inputs)
    elif kind is ImpactKind.EXCAVATE:
        _excavation(project, w, book, log, inputs)
    elif kind is ImpactKind.DRAIN and f.partial:
        _partial_drain(project, w, book, log, inputs)
    else:
        what = {ImpactKind.FILL: "A fill", ImpactKind.DRAIN: "A drain"}.get(
            kind, "An impact of unknown kind"
        )
        _regulated(
            project,
            w,
            log,
            inputs,
            R.RULES[R.IMPACT_KIND].citations[0],
            (_r_kind, (what, w.area)),
        )


def _public_waters_kind(project: str, w: Impact, log: TraceLog, inputs: dict[str, Any]) -> None:
    """§ 103G.221, § 103G.245: a public waters wetland is not a "wetland" of subd. 1(a).

    Draining it needs replacement (§ 103G.221), filling or excavating it a permit
    (§ 103G.245); § 103G.005, subd. 19(b).
    """
    kind = w.f.impact_kind
    cite = PUBLIC_WATERS_DRAINING if kind is ImpactKind.DRAIN else PUBLIC_WATERS_WORK
    _regulated(project, w, log, inputs, cite, (_r_kind_pww, (KIND_VALUE[kind], w.area, cite)))


def _regulated(
    project: str,
    w: Impact,
    log: TraceLog,
    inputs: dict[str, Any],
    citation: str,
    reason: Reason,
) -> None:
    """Write the impact-kind step of a regulated drain or fill: its whole area, as given.

    The kind unknown, the impact was decided as a drain or fill: a verify item says so.
    """
    log.add(
        project=project,
        impact_id=w.iid,
        rule_id=R.IMPACT_KIND,
        citation=citation,
        outcome=O_REGULATED,
        value=inputs["area_sqft"],
        reason=reason,
        verify=(_V_KIND,) if w.f.impact_kind is ImpactKind.UNKNOWN else (),
        inputs=inputs,
    )


def _excavation(
    project: str, w: Impact, book: RuleBook, log: TraceLog, inputs: dict[str, Any]
) -> None:
    """§ 103G.222, subd. 1(a): an excavation, regulated only in flooded areas of types 3-5."""
    f = w.f
    listed = int(f.wetland_type) in book.excavation_types
    inputs["flooded"] = f.flooded
    inputs["water_regime_flooded"] = f.water_regime_flooded
    types = ", ".join(str(t) for t in sorted(book.excavation_types))
    step: dict[str, Any] = {
        "project": project,
        "impact_id": w.iid,
        "rule_id": R.IMPACT_KIND,
        "citation": book.cite_excavation,
        "inputs": inputs,
        "parameters": {"replacement.excavation_types": sorted(book.excavation_types)},
    }
    if listed and f.flooded is None and f.water_regime_flooded is False:
        # the NWI water regime is evidence, not a determination (the TEP determines,
        # § 103G.2242, subd. 2): decided as regulated, conditionally
        log.add(
            **step,
            outcome=O_CONDITIONAL,
            value=float(w.area),
            reason=f"Excavation in a type {int(f.wetland_type)} wetland whose NWI water "
            "regime says it is not permanently or semipermanently flooded: that is "
            "evidence, not a determination; the replacement sections apply to "
            "excavation in "
            f"permanently and semipermanently flooded areas of types {types}"
            " (§ 103G.222, subd. 1(a)), so it was decided as covered unless the "
            "Technical Evaluation Panel determines the area is not flooded.",
            verify=(_V_REGIME,),
        )
    elif listed and f.flooded is not False:
        log.add(
            **step,
            outcome=O_REGULATED,
            value=float(w.area),
            reason=f"Excavation in a type {int(f.wetland_type)} wetland: the replacement "
            "sections apply to excavation in permanently and semipermanently flooded "
            f"areas of types {types} (§ 103G.222, subd. 1(a)).",
            verify=(_V_FLOODED,) if f.flooded is None and f.water_regime_flooded is None else (),
        )
    else:
        w.regulated = False
        w.counted = Decimal(0)
        w.outcome = ImpactOutcome.NOT_A_DRAIN_OR_FILL
        where = (
            f"a type {int(f.wetland_type)} wetland"
            if not listed
            else "an area that is not permanently or semipermanently flooded"
        )
        log.add(
            **step,
            outcome=O_NOT_REGULATED,
            value=0.0,
            reason=f"Excavation alone in {where} is not a drain or fill: the replacement "
            "sections cover excavation only in permanently and semipermanently "
            f"flooded areas of types {types} (§ 103G.222, subd. 1(a)).",
            verify=(_V_SPOIL,),
        )


def _partial_drain(
    project: str, w: Impact, book: RuleBook, log: TraceLog, inputs: dict[str, Any]
) -> None:
    """Minn. R. 8420.0522, subp. 2: a partial drain counts at least the floor percentage."""
    f = w.f
    floor = book.partial_pct / PERCENT
    share = None if f.partial_share is None else dec(f.partial_share)
    w.share_unknown = share is None or share < floor
    w.counted = w.area * (floor if w.share_unknown or share is None else share)
    inputs["partial"] = True
    inputs["partial_share"] = f.partial_share
    log.add(
        project=project,
        impact_id=w.iid,
        rule_id=R.IMPACT_KIND,
        citation=PARTIAL_DRAINAGE,
        outcome=O_REGULATED,
        value=float(w.counted),
        reason=(
            f"Partial drainage: the partly drained area of {fmt_sqft(float(w.area))} "
            f"counts at least {fmt_number(book.partial_pct)} percent, "
            f"{fmt_sqft(float(w.counted))} (Minn. R. 8420.0522, subp. 2; the totally "
            "drained area counts whole)."
            if w.share_unknown
            else f"Partial drainage: the partly drained area of {fmt_sqft(float(w.area))} "
            f"counts at the assessed share of {fmt_number(float(f.partial_share or 0))}, "
            f"{fmt_sqft(float(w.counted))} (Minn. R. 8420.0522, subp. 2)."
        ),
        verify=(_V_PARTIAL, _V_SHARE) if w.share_unknown else (),
        inputs=inputs,
        parameters=book.partial_params,
    )


def calcareous_fen(project: str, w: Impact, log: TraceLog) -> None:
    """§ 103G.223, first: a calcareous fen is prohibited whatever the impact kind step said.

    "may not be filled, drained, or otherwise degraded, wholly or partially, by any
    activity": an excavation that was not a drain or fill is regulated all the same.
    """
    f = w.f
    if not f.calcareous_fen:
        return
    if not w.regulated:  # an excavation: it degrades the fen all the same
        w.regulated = True
        w.counted = w.area
    w.ineligible = True
    w.outcome = ImpactOutcome.PROHIBITED
    log.add(
        project=project,
        impact_id=w.iid,
        rule_id=R.CALCAREOUS_FEN,
        citation=CALCAREOUS_FENS,
        outcome=O_PROHIBITED,
        value=float(w.counted),
        reason=f"A calcareous fen may not be filled, drained or otherwise degraded, wholly or "
        f"partially, by any activity (a {KIND_VALUE[f.impact_kind]} here), unless the "
        "commissioner decides under an approved management plan (§ 103G.223); no "
        "exemption applies to it (Minn. R. 8420.0420, subp. 1).",
        verify=(_V_FEN,),
        inputs={"calcareous_fen": True, "impact_kind": KIND_VALUE[f.impact_kind]},
    )


def exemption_standards(project: str, w: Impact, log: TraceLog) -> None:
    """Minn. R. 8420.0420, subp. 1: no exemption for a banked or credited wetland.

    A wetland deposited in the wetland bank or already used for replacement credit.
    """
    f = w.f
    if f.banked or f.used_for_replacement_credit:
        w.ineligible = True
        what = (
            "deposited in the wetland bank" if f.banked else "already used for replacement credit"
        )
        log.add(
            project=project,
            impact_id=w.iid,
            rule_id=R.EXEMPTION_STANDARDS,
            citation=EXEMPTION_STANDARDS,
            outcome=O_NOT_EXEMPT,
            value=None,
            reason=f"The wetland is {what}: exemptions do not apply to it (Minn. R. 8420.0420, "
            "subp. 1).",
            verify=(),
            inputs={"banked": f.banked, "used_for_credit": f.used_for_replacement_credit},
        )


def _r_kind(what: str, area: Decimal) -> str:
    return (
        f"{what} of {fmt_sqft(float(area))}: wetlands must not be drained or filled "
        "unless replaced or exempt (§ 103G.222, subd. 1(a))."
    )


def _r_kind_pww(kind: str, area: Decimal, citation: str) -> str:
    return (
        f"A {kind} of {fmt_sqft(float(area))} in a public waters wetland: it is decided under "
        f"{short_cite(citation)}, not as a wetland of § 103G.222, subd. 1(a)."
    )
