"""Step 5 of the project engine: every other exemption, and the public road paragraph.

:func:`decide_other_exemptions` is the one call the engine
(:mod:`wetland_gis.rules.engine`) makes for the exemptions of § 103G.2241 other than de
minimis and for § 103G.222, subd. 1 (l), (m). It builds each impact's
:class:`~wetland_gis.rules.exempt.ExemptionFacts` from the engine's facts (the facts they
share, such as the wetland type, the impact kind, the counted area, the land use and the
exclusions, come from :class:`~wetland_gis.rules.facts.ImpactFacts`; the others from
``ImpactFacts.exemption``), runs :func:`~wetland_gis.rules.exempt.decide_exemptions`,
writes one trace step per exemption tried on each impact, and says which impacts the one
carrying exemption makes exempt.

How de minimis and the other exemptions meet
--------------------------------------------
The de minimis exemption is itself an exemption of § 103G.2241 (subd. 9), and "this
exemption may not be combined with another exemption in this section on a project" (subd.
9(g)); "exemptions may not be combined on a project. A project exempt only by using two
different exemptions for different impacts is not exempt" (Minn. R. 8420.0420, subp. 1 C).
The default reading (docs/rules.md, "Other exemptions"; ``Claims.exemption_scope_reading``
``"whole_project"``): a project is exempt only when ONE exemption, de minimis or another,
covers every impact of the project in the WCA's scope. An exemption that covers only some
impacts makes none of them exempt (the impacts keep the answer of step 4: replacement,
unless de minimis alone covers the project). When de minimis and another exemption both
cover the project, the one with the firmer answer carries it (exempt before conditional;
de minimis first when they are alike). This reading never says exempt where the other
reading would not. The other reading (``"covered_impacts"``) is an open reading of the
kernel (:data:`~wetland_gis.rules.kernel.READINGS`): the impacts the one best exemption
covers are exempt under it and only the rest replaced (still one exemption: two different
exemptions are never combined, subp. 1 C). The engine names the reading in a
``reading.exemption_scope_reading`` step whenever a project's answer depends on it
(:attr:`OtherExemptions.scope_reading_applies`) and shows the other reading's result
beside it (:mod:`wetland_gis.rules.readings`).

The fast path
-------------
An impact that gives no exemption fact (``ImpactFacts.exemption`` is ``None``) in a
project without road facts and a run without claims tries nothing: one shared "not
tried" step is written for it (deciding 200,000 such impacts builds no result object).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from wetland_gis.enums import ImpactOutcome, Outcome
from wetland_gis.errors import RulesInputError
from wetland_gis.parameters import ParameterSet
from wetland_gis.rules.exempt.binding import (
    EACH_CLAUSE,
    ProjectExemptions,
    decide_exemptions,
)
from wetland_gis.rules.exempt.facts import LAND_USES, ExemptionClaims, ExemptionFacts
from wetland_gis.rules.exempt.roads import RoadFacts, RoadResult, RoadRoute, road_replacement
from wetland_gis.rules.facts import ImpactFacts
from wetland_gis.rules.kernel import COVERED_IMPACTS, WHOLE_PROJECT, Impact, RuleBook
from wetland_gis.rules.spec import EXEMPTION_ONE, RULE_SPECS
from wetland_gis.rules.trace import TraceLog

#: ``ImpactDecision.replacement_by`` when the board replaces (§ 103G.222, subd. 1(m)).
REPLACEMENT_BY_BOARD = "board"
#: ``ImpactDecision.replacement_by`` for a state road: the Department of Transportation.
REPLACEMENT_BY_STATE_DOT = "state_dot"

#: The reason of the shared fast-path step.
NOT_TRIED_REASON = (
    "No exemption fact or claim is given for this impact: the exemptions of § 103G.2241 "
    "other than de minimis were not tried (give their columns, docs/data_schema.md, or "
    "claims, to try them)."
)

_FIRM = (Outcome.EXEMPT, Outcome.CONDITIONAL)
_ONE = RULE_SPECS[EXEMPTION_ONE]
_ONE_EXEMPTION = _ONE.id
_NOT_TRIED_CITATION = _ONE.citations
_SUBP_1C = _ONE.clause("1 C")
_SUBD_9G = _ONE.clause("9(g)")
#: The inputs of a step that records none (as ``TraceLog.add`` writes them: an empty mapping).
_NO_INPUTS: Mapping[str, Any] = {}


@dataclass(frozen=True)
class ImpactExemptionAnswer:
    """What step 5 says about one impact.

    Parameters
    ----------
    outcome : ImpactOutcome or None
        ``EXEMPT`` or ``EXEMPT_CONDITIONAL`` when the carrying exemption covers the impact;
        ``None``: step 5 leaves the impact's outcome as step 4 set it.
    exemptions : tuple of str
        The rule id of the exemption that carries the impact (empty when none does).
    replacement_by : str or None
        :data:`REPLACEMENT_BY_BOARD` or :data:`REPLACEMENT_BY_STATE_DOT` when the road
        paragraph says another party replaces; ``None`` otherwise.
    """

    outcome: ImpactOutcome | None = None
    exemptions: tuple[str, ...] = ()
    replacement_by: str | None = None


_NOTHING = ImpactExemptionAnswer()


@dataclass(frozen=True)
class OtherExemptions:
    """The answer of step 5 for one project.

    Parameters
    ----------
    carrying : str or None
        Rule id of the one exemption (other than de minimis) that carries the project.
    outcome : Outcome
        The other exemptions' project answer (``NOT_APPLIED`` on the fast path).
    impacts : Mapping[str, ImpactExemptionAnswer]
        By impact id (as the trace writes it); an impact missing here is left unchanged.
    road : RoadResult or None
        The road paragraph's answer, when the project gives road facts.
    exemptions : ProjectExemptions or None
        Every exemption tried (``None`` on the fast path).
    scope_reading_applies : bool
        The project's answer depends on ``Claims.exemption_scope_reading``: one exemption
        covers some but not all of its impacts and de minimis does not cover the project.
    unit_reading_applies : bool
        The project's answer depends on ``Claims.exemption_unit_reading``: no one clause
        covers every impact, the clauses of one subdivision together do, and de minimis
        does not cover the project.
    """

    carrying: str | None = None
    outcome: Outcome = Outcome.NOT_APPLIED
    impacts: Mapping[str, ImpactExemptionAnswer] = field(
        default_factory=lambda: MappingProxyType({})
    )
    road: RoadResult | None = None
    exemptions: ProjectExemptions | None = None
    scope_reading_applies: bool = False
    unit_reading_applies: bool = False

    def of(self, impact_id: str) -> ImpactExemptionAnswer:
        """Return the answer for one impact (nothing changed when it has none)."""
        return self.impacts.get(impact_id, _NOTHING)


def exemption_facts_of(
    impact_id: str,
    facts: ImpactFacts,
    counted_sqft: float | None,
    altered_sqft: float | None = None,
) -> ExemptionFacts:
    """Return the exemption facts of one impact: its own, completed from the engine's.

    The facts the engine and the exemptions share (wetland type, impact kind, the counted
    area, wetland id and size, incorporated area, land use, bottomland hardwood) fill the
    exemption facts the impact does not give; ``altered_sqft``, the wetland area the whole
    project alters (every impact the layer records, whatever its kind, at its full area:
    subd. 6(a)(1)(ii) "significantly modifies or alters"), fills ``project_sqft``. Of the
    exclusions of Minn. R. 8420.0420,
    subp. 1 B the engine's facts count only when they say yes: the engine reads a fen,
    bank or credit flag that no layer or column gave as "no", and an unscreened exclusion
    must stay unknown here (it caps every exemption at conditional; docs/rules.md).
    """
    own = facts.exemption if facts.exemption is not None else ExemptionFacts()
    land = (facts.land_use or "").strip().lower() or None
    shared: dict[str, Any] = {
        "wetland_type": int(facts.wetland_type),
        "impact_kind": facts.impact_kind.value,
        "impact_sqft": None if counted_sqft is None else float(counted_sqft),
        "wetland_id": facts.wetland_id,
        "wetland_acres": facts.wetland_acres,
        "incorporated": facts.incorporated,
        "land_use": land if land in LAND_USES else None,
        "bottomland_hardwood": facts.bottomland_hardwood,
        "project_sqft": altered_sqft,
    }
    fill = {k: v for k, v in shared.items() if v is not None and getattr(own, k) is None}
    # an exclusion the engine knows always counts, whatever the exemption columns say
    fill.update(
        {
            k: True
            for k in ("calcareous_fen", "banked", "used_for_replacement_credit")
            if getattr(facts, k)
        }
    )
    return dataclasses.replace(own, impact_id=impact_id, **fill)


def road_facts_of(project: str, facts: Sequence[ImpactFacts], wca_sqft: float) -> RoadFacts | None:
    """Return the project's road facts: the same on every impact that gives them.

    Raises
    ------
    RulesInputError
        When two impacts of the project give different road facts.
    """
    given = [f.road for f in facts if f.road is not None]
    if not given:
        return None
    first = dataclasses.replace(given[0], project_id=None, project_sqft=None)
    for other in given[1:]:
        if dataclasses.replace(other, project_id=None, project_sqft=None) != first:
            raise RulesInputError(
                f"project {project!r}: the impacts give different road facts "
                f"({first!r} and {other!r}); a road project's facts are the project's, "
                "so give the same values on every impact (or on one only)"
            )
    return dataclasses.replace(first, project_id=project, project_sqft=float(wca_sqft))


def decide_other_exemptions(
    project: str,
    impacts: Sequence[tuple[str, ImpactFacts, float | None]],
    *,
    de_minimis: Outcome,
    claims: ExemptionClaims | None,
    params: ParameterSet,
    day: dt.date,
    log: TraceLog,
    wca_sqft: float,
    scope_reading: str = WHOLE_PROJECT,
    altered_sqft: float | None = None,
    unit_reading: str = EACH_CLAUSE,
) -> OtherExemptions:
    """Try every other exemption on a project's impacts, and the road paragraph.

    Parameters
    ----------
    project : str
        The project's name (written in the trace).
    impacts : sequence of (impact id, ImpactFacts, counted sq ft or None)
        The project's impacts in the WCA's scope (regulated, not public waters wetlands),
        with the area the engine counts (``None``: not known, e.g. a partial drain
        without its assessed share, Minn. R. 8420.0522, subp. 2).
    de_minimis : Outcome
        The project's de minimis answer from step 4.
    claims : ExemptionClaims or None
        The analyst's project-wide claims.
    params : ParameterSet
        The parameter tree.
    day : date
        The date the law is applied as of.
    log : TraceLog
        The engine's trace: every step is added here.
    wca_sqft : float
        The project's WCA wetland area (the road paragraph's clause 3 limit).
    scope_reading : {"whole_project", "covered_impacts"}, default "whole_project"
        ``Claims.exemption_scope_reading``: under ``"covered_impacts"`` the impacts the
        one best exemption covers are exempt when it covers only some (and de minimis does
        not cover the project); under the default they are not.
    altered_sqft : float, optional
        The wetland area the whole project drains, fills, excavates or otherwise alters,
        every impact at its full area (not public waters wetlands, § 103G.005, subd.
        19(b)): the project area of subd. 6(a)(1)(ii) "the proposed project significantly
        modifies or alters less than one-half acre of wetlands". ``None``: summed from the
        counted areas of ``impacts`` (``decide_exemptions``).
    unit_reading : {"each_clause", "whole_subdivision"}, default "each_clause"
        ``Claims.exemption_unit_reading``: whether the clauses of one subdivision of
        § 103G.2241 are one exemption (subd. 11(b); Minn. R. 8420.0420, subp. 1 C).

    Returns
    -------
    OtherExemptions
    """
    if not impacts:
        return OtherExemptions()
    facts = [f for _, f, _ in impacts]
    road = road_facts_of(project, facts, wca_sqft)
    claimed = claims is not None and any(
        getattr(claims, f.name) is not None for f in dataclasses.fields(claims)
    )
    if not claimed and road is None and all(f.exemption is None for f in facts):
        _nothing_tried(project, impacts, log)
        return OtherExemptions()
    answer = decide_exemptions(
        [exemption_facts_of(iid, f, sqft, altered_sqft) for iid, f, sqft in impacts],
        claims,
        params,
        day,
        unit_reading=unit_reading,
    )
    carried = _carries(answer.outcome, de_minimis) if answer.carrying else False
    # the open reading of subp. 1 C: one exemption covers some impacts, de minimis none
    depends = answer.partial is not None and de_minimis not in _FIRM
    # the open reading of subd. 11(b) and subp. 1 C: the clauses of one subdivision
    depends_unit = answer.subdivision is not None and de_minimis not in _FIRM
    by_covered = depends and scope_reading == COVERED_IMPACTS
    for step in answer.trace_steps():
        if step["rule_id"] == _ONE_EXEMPTION and not step["impact_id"]:
            step = _project_step(step, answer, de_minimis, carried, by_covered)
        log.add(project=project, **step)
    ids = [iid for iid, _, _ in impacts]
    out = _exempted_impacts(ids, answer, carried, by_covered)
    result = None
    if road is not None:
        result = road_replacement(road, params, day)
        log.add(project=project, **result.trace_step())
        _replaced_by_road_authority(ids, result, carried, out)
    if de_minimis not in _FIRM:
        exempted = {iid for iid, a in out.items() if a.outcome is not None}
        for iid in ids:
            if iid not in exempted:
                _not_carried(project, iid, answer, log)
    return OtherExemptions(
        carrying=answer.carrying if carried else None,
        outcome=answer.outcome,
        impacts=MappingProxyType(out),
        road=result,
        exemptions=answer,
        scope_reading_applies=depends,
        unit_reading_applies=depends_unit,
    )


def _nothing_tried(
    project: str, impacts: Sequence[tuple[str, ImpactFacts, float | None]], log: TraceLog
) -> None:
    """Write the fast path's steps: no fact, claim or road fact given, nothing tried."""
    for iid, _, _ in impacts:
        _impact_step(log, project, iid, Outcome.NOT_APPLIED, NOT_TRIED_REASON)


def _impact_step(
    log: TraceLog,
    project: str,
    iid: str,
    outcome: Outcome,
    reason: str,
    inputs: Mapping[str, Any] = _NO_INPUTS,
) -> None:
    """Write one impact's step of the one-exemption rule (subp. 1 C) that step 5 adds."""
    log.add(
        project=project,
        impact_id=iid,
        rule_id=_ONE_EXEMPTION,
        citation=_NOT_TRIED_CITATION,
        outcome=outcome.value,
        value=None,
        reason=reason,
        inputs=inputs,
    )


def _headline(outcome: Outcome) -> ImpactOutcome:
    return ImpactOutcome.EXEMPT if outcome is Outcome.EXEMPT else ImpactOutcome.EXEMPT_CONDITIONAL


def _exempted_impacts(
    ids: list[str], answer: ProjectExemptions, carried: bool, by_covered: bool
) -> dict[str, ImpactExemptionAnswer]:
    """Return the impacts an exemption makes exempt.

    All of them when one exemption carries the project; under the reading
    'covered_impacts', those the one best exemption covers.
    """
    out: dict[str, ImpactExemptionAnswer] = {}
    if by_covered and answer.partial is not None:
        covered = {str(i) for i in answer.covered}
        for iid in ids:
            result = answer.applied(iid) if iid in covered else None
            if result is not None:
                out[iid] = ImpactExemptionAnswer(_headline(result.outcome), (answer.partial,))
    if carried and answer.carrying is not None:
        for iid in ids:
            out[iid] = ImpactExemptionAnswer(
                _headline(answer.outcome), (answer.clause_of(iid) or answer.carrying,)
            )
    return out


def _replaced_by_road_authority(
    ids: list[str],
    result: RoadResult,
    carried: bool,
    out: dict[str, ImpactExemptionAnswer],
) -> None:
    """§ 103G.222, subd. 1(m): mark the impacts the board (or the state) replaces."""
    by = (
        REPLACEMENT_BY_BOARD
        if result.skip_siting
        else (
            REPLACEMENT_BY_STATE_DOT
            if result.route is RoadRoute.STATE_DOT_REPLACES
            and result.outcome is Outcome.NOT_REQUIRED
            else None
        )
    )
    if by is not None and not carried:
        for iid in ids:
            if iid not in out:  # an impact exempt under the covered-impacts reading
                out[iid] = ImpactExemptionAnswer(replacement_by=by)


def other_exemptions(
    project: str,
    work: list[Impact],
    book: RuleBook,
    log: TraceLog,
    de_minimis: Outcome,
    wca_sqft: Decimal,
) -> OtherExemptions:
    """Step 5 of the engine: try every other exemption and the road paragraph on a project.

    The impacts in the WCA's scope (regulated, not public waters wetlands) are passed to
    :func:`decide_other_exemptions` with the area the engine counts (``None`` for a partial
    drain counted at the floor share, Minn. R. 8420.0522, subp. 2: its area is not known),
    and each impact's outcome, carrying exemption and ``replacement_by`` are set from the
    answer. ``wca_sqft`` is the project's WCA wetland area
    (:func:`wetland_gis.rules.public_waters.wca_sqft`, computed once by the engine).

    Returns
    -------
    OtherExemptions
        The answer (the engine reads ``carrying`` and ``road`` for the project).
    """
    wca = [w for w in work if w.regulated and not w.f.public_waters_wetland]
    # subd. 6(a)(1)(ii) "significantly modifies or alters": every impact of a WCA wetland
    # at its full area, whatever its kind (an excavation that is not a drain or fill, a
    # partial drain, a kind the layer names otherwise), not only the counted drains and fills
    altered = sum((w.area for w in work if not w.f.public_waters_wetland), Decimal(0))
    step5 = decide_other_exemptions(
        project,
        [(w.iid, w.f, None if w.share_unknown else float(w.counted)) for w in wca],
        de_minimis=de_minimis,
        claims=book.claims.exemptions,
        params=book.params,
        day=book.day,
        log=log,
        wca_sqft=float(wca_sqft),
        scope_reading=book.claims.exemption_scope_reading,
        altered_sqft=float(altered),
        unit_reading=book.claims.exemption_unit_reading,
    )
    for w in wca:
        answer = step5.of(w.iid)
        if answer.outcome is not None:
            w.outcome = answer.outcome
        w.exemptions = list(answer.exemptions)
        w.replacement_by = answer.replacement_by
    return step5


def _not_carried(project: str, iid: str, answer: ProjectExemptions, log: TraceLog) -> None:
    """Say why an impact exempt under an exemption on its own is not exempt in its project.

    Subd. 11(b): an activity is exempt if it qualifies for any one of the exemptions; but
    Minn. R. 8420.0420, subp. 1 C: exemptions may not be combined on a project. An impact
    whose answer flips because of another impact of the project gets this step, so the
    flip is never silent.
    """
    impact = next((i for i in answer.impacts if str(i.impact_id) == iid), None)
    if impact is None:
        return
    alone = [r for r in impact.tried if r.outcome in _FIRM]
    if not alone:
        return
    names = "; ".join(
        f"{_label_of(r.rule_id)} ({r.citations[0]}, {r.outcome.value})" for r in alone
    )
    why = (
        f"No one exemption covers every impact of the project (the one covering the most, "
        f"{answer.partial}, does not cover this one)"
        if answer.partial
        else "No one exemption covers every impact of the project"
    )
    unit = (
        f"; the clauses of {answer.subdivision} together cover every impact, but each "
        "clause is its own exemption under the reading 'each_clause' (the default; see the "
        "step reading.exemption_unit_reading)"
        if answer.subdivision is not None and not answer.by_subdivision
        else ""
    )
    _impact_step(
        log,
        project,
        iid,
        Outcome.NOT_EXEMPT,
        f"On its own this impact is exempt or conditionally exempt under {names} "
        f"(subd. 11(b): any one exemption). {why}{unit}; exemptions may not be combined "
        f"on a project ({_SUBP_1C}), so this impact is not exempt in this project and "
        "keeps the answer of the de minimis and replacement steps.",
        {
            "exempt_alone_under": [r.rule_id for r in alone],
            "partial": answer.partial,
            "subdivision": answer.subdivision,
            "exemption_unit_reading": answer.unit_reading,
        },
    )


def _label_of(rule_id: str) -> str:
    """Return the label of an exemption rule id."""
    return RULE_SPECS[rule_id].label


def _carries(other: Outcome, de_minimis: Outcome) -> bool:
    """Return whether the other exemption, not de minimis, carries the project."""
    if other is Outcome.EXEMPT:
        return de_minimis is not Outcome.EXEMPT
    if other is Outcome.CONDITIONAL:
        return de_minimis not in _FIRM
    return False


def _project_step(
    step: dict[str, Any],
    answer: ProjectExemptions,
    de_minimis: Outcome,
    carried: bool,
    by_covered: bool = False,
) -> dict[str, Any]:
    """Return the project step of ``decide_exemptions`` with the de minimis reading added."""
    reasons = [step["reason"]]
    if answer.carrying and not carried:
        reasons.append(
            "The de minimis exemption already covers the project "
            f"({de_minimis.value}): it carries the project, and the two are not combined "
            f"({_SUBD_9G}; {_SUBP_1C})."
        )
    elif answer.partial and by_covered:
        reasons.append(
            "Reading 'covered_impacts' (Claims.exemption_scope_reading; the default is "
            f"'whole_project'): the {len(answer.covered)} impacts {answer.partial} covers "
            "are exempt under it; the others keep the answer of the de minimis and "
            "replacement steps (still one exemption: two are never combined, "
            f"{_SUBP_1C})."
        )
    elif answer.partial:
        reasons.append(
            'Reading chosen (docs/rules.md, "Other exemptions"): an exemption that covers '
            "only some impacts makes none of them exempt; the impacts keep the answer of "
            "the de minimis and replacement steps."
        )
    inputs = dict(step["inputs"])
    inputs["de_minimis"] = de_minimis.value
    inputs["carries_project"] = carried
    if by_covered:
        inputs["exemption_scope_reading"] = COVERED_IMPACTS
    return {
        **step,
        "citation": (*step["citation"], _SUBD_9G),
        "reason": " ".join(reasons),
        "inputs": inputs,
    }
