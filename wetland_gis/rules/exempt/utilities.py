"""Utilities and public works, Minn. Stat. § 103G.2241, subd. 6, (a)(1) to (3) and (b).

Paragraph (a) holds three exemptions; paragraph (b) is procedure (how maintenance,
repair and replacement work proceeds: a local certification, or approved best
management practices, or emergency work addressed afterwards), so
:func:`utility_certification` answers ``required`` / ``not_required`` / ``conditional``
and never carries a project.
"""

from __future__ import annotations

from wetland_gis.enums import Outcome
from wetland_gis.parameters import ParameterSet
from wetland_gis.rules.exempt.drainage import project_area_limit
from wetland_gis.rules.exempt.facts import ExemptionFacts
from wetland_gis.rules.exempt.model import (
    ConditionStatus,
    Day,
    ExemptionResult,
    Flag,
    any_of,
    decide_flags,
    start,
)

#: Subd. 6(a)(1): the work, and clause (i); clause (ii), the area, is tested after them.
_SERVICE = (
    Flag(
        "utility_work",
        "The work is new placement or maintenance, repair, enhancement or replacement of "
        "existing utility or utility-type service (§ 103G.005, subd. 15h), including "
        "pipelines.",
        defining=True,
    ),
    Flag(
        "avoided_minimized",
        "The direct and indirect impacts of the proposed project have been avoided and "
        "minimized to the extent possible (the analyst's claim).",
        clause="(i)",
    ),
)


def utility_service(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 6(a)(1): utility placement or work that alters less than one-half acre.

    The area limit is of the whole project ("the proposed project significantly modifies
    or alters less than one-half acre of wetlands"): ``project_sqft``.

    Examples
    --------
    >>> f = ExemptionFacts(utility_work=True, avoided_minimized=True, project_sqft=21_779)
    >>> utility_service(f, day="2024-05-01").outcome.value
    'exempt'
    """
    run = start(utility_service, facts, params, day)
    run.flags(*_SERVICE)
    project_area_limit(
        run,
        "exemptions.utility_max_acres",
        "project_sqft",
        "The proposed project significantly modifies or alters less than",
    )
    return run.result()


#: Subd. 6(a)(2), in the order of the text.
_OPERATION = (
    Flag(
        "utility_operation",
        "The activity is associated with operation, routine maintenance or emergency repair "
        "of existing utilities and public work structures, including pipelines.",
        defining=True,
    ),
    Flag(
        "additional_intrusion",
        "The activity does not result in additional wetland intrusion or additional "
        "draining or filling of a wetland, either wholly or partially.",
        want=False,
    ),
)


def utility_operation_maintenance(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 6(a)(2): operation, routine maintenance or emergency repair, no new intrusion.

    Examples
    --------
    >>> f = ExemptionFacts(utility_operation=True, additional_intrusion=True)
    >>> utility_operation_maintenance(f, day="2024-05-01").outcome.value
    'not_exempt'
    """
    return decide_flags(utility_operation_maintenance, facts, params, day, *_OPERATION)


#: Subd. 6(a)(3).
_SEWAGE = (
    Flag(
        "sewage_system_repair",
        "The activity is repair and updating of an existing subsurface sewage treatment "
        "system necessary to comply with local, state and federal regulations.",
        defining=True,
    ),
)


def sewage_treatment_update(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 6(a)(3): repair and updating of an existing subsurface sewage treatment system.

    Examples
    --------
    >>> sewage_treatment_update(ExemptionFacts(sewage_system_repair=True),
    ...                         day="2024-05-01").outcome.value
    'exempt'
    """
    return decide_flags(sewage_treatment_update, facts, params, day, *_SEWAGE)


def utility_certification(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 6(b): whether maintenance, repair or replacement work needs LGU certification.

    ``NOT_REQUIRED`` when the utility works under approved best management practices
    (claim ``utility_bmp``), the work is an emergency (its drain or fill is then addressed
    with the local government unit afterwards, a verify item), or the local government
    unit issued a seasonal or annual exemption certification; ``REQUIRED`` when none of
    these holds; ``CONDITIONAL`` when one is not known. Work that is not maintenance,
    repair or replacement is ``REQUIRED`` (the paragraph does not reach it).

    Examples
    --------
    >>> f = ExemptionFacts(utility_maintenance=True, utility_bmp=True)
    >>> utility_certification(f, day="2024-05-01").outcome.value
    'not_required'
    """
    run = start(utility_certification, facts, params, day)
    maintenance = run.flag(
        "utility_maintenance",
        "The utility work is maintenance, repair or replacement.",
    )
    emergency = run.fact("emergency")
    way = any_of(run.fact("utility_bmp"), emergency, run.fact("lgu_certification"))
    run.cond(
        way,
        "The local government unit issued a seasonal or annual exemption certification, or "
        "the utility carries out the work according to approved best management practices "
        "(the analyst's claims), or the work is of an emergency nature.",
        "lgu_certification",
        "utility_bmp",
        "emergency",
    )
    if emergency:
        run.check(
            "Subd. 6(b): emergency work may proceed as necessary; any drain or fill "
            "activities shall be addressed with the local government unit after the "
            "emergency work has been completed."
        )
    statuses = {c.status for c in run.conditions}
    if ConditionStatus.FAILED in statuses:
        outcome = Outcome.REQUIRED
    elif ConditionStatus.UNKNOWN in statuses:
        outcome = Outcome.CONDITIONAL
    else:
        outcome = Outcome.NOT_REQUIRED
    if maintenance is not False and outcome is not Outcome.NOT_REQUIRED:
        run.check(
            "Subd. 6(b): obtain the local government unit's seasonal or annual exemption "
            "certification, or show the work follows approved best management practices."
        )
    return run.result(outcome)
