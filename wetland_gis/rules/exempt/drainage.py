"""Drainage, Minn. Stat. § 103G.2241, subd. 2, paragraphs (b) to (e).

Paragraph (a) defines "public drainage system" (the ``public_drainage_system`` fact);
paragraphs (f) and (g) give the drainage authority powers and easement priorities and
exempt nothing. Every answer that is not "not exempt" carries the subd. 11(a) conditions
and the ten-year use restriction of Minn. R. 8420.0420, subp. 1 D as verify items.
"""

from __future__ import annotations

import calendar
import datetime as dt

from wetland_gis.errors import RulesInputError
from wetland_gis.parameters import ParameterSet
from wetland_gis.rules.exempt.facts import AGRICULTURAL_LAND, PROHIBITED_LATER_USES, ExemptionFacts
from wetland_gis.rules.exempt.model import (
    SQFT_PER_ACRE,
    Day,
    ExemptionResult,
    RuleFunction,
    RuleRun,
    all_of,
    any_of,
    check_count,
    exact,
    impact_kind_is,
    land_use_is,
    long_date,
    sized_type,
    start,
    types_text,
)


def project_area_limit(run: RuleRun, key: str, project_fact: str, words: str) -> bool | None:
    """Test a limit stated of the project: the project's area, else this impact's as a floor.

    Without the project's area, an impact that alone fails the limit fails; one that
    passes it leaves the condition unknown (the project's other impacts count too).
    """
    project = run.fact(project_fact)
    impact = run.fact("impact_sqft")
    limit = run.value(key)
    if project is not None:
        area, known = project, True
    elif impact is not None:
        area, known = impact, False
    else:
        return run.cond(None, f"{words} {limit} acres (the area is not known).", project_fact)
    acres = exact(area) / SQFT_PER_ACRE  # for the reason only; the test multiplies
    run.amounts.update({f"{project_fact}_tested": float(area), "limit_acres": float(limit)})
    ok = run.passes(key, area, SQFT_PER_ACRE)
    given = f" (given: {float(acres):.4g} acres{'' if known else ', this impact alone'})"
    if known or not ok:
        return run.cond(ok, f"{words} {limit} acres{given}.", project_fact, "impact_sqft")
    return run.cond(
        None,
        f"{words} {limit} acres{given}; add the project's other impacts.",
        project_fact,
    )


def assessed_drainage_benefits(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 2(b): draining type 1, or up to five acres of type 2 or 6, on assessed land.

    Notes
    -----
    The five acres are of the project's draining of type 2 or 6 wetland
    (``project_type_2_6_drained_sqft``), not of one impact (docs/rules.md).

    Examples
    --------
    >>> f = ExemptionFacts(wetland_type=1, impact_kind="drain", incorporated=False,
    ...     drainage_benefits=True, system_expenditure=True, drained_for_conversion=False)
    >>> assessed_drainage_benefits(f, day="2024-05-01").outcome.value
    'exempt'
    """
    run = start(assessed_drainage_benefits, facts, params, day)
    impact_kind_is(run, ("drain",), "The activity is draining (not filling)")
    key = "exemptions.drainage_limited_max_acres"
    wtype, _, limited = sized_type(
        run,
        "exemptions.drainage_any_size_types",
        "exemptions.drainage_limited_types",
        key,
        "paragraph",
        limited_words="drained up to",
    )
    if wtype in limited:
        project_area_limit(
            run,
            key,
            "project_type_2_6_drained_sqft",
            f"The project drains type {types_text(limited)} wetland up to",
        )
    run.flag("incorporated", "The wetland is in an unincorporated area.", want=False)
    run.flag(
        "drainage_benefits",
        "The land has been assessed drainage benefits for a public drainage system.",
        defining=True,
    )
    years = run.value("exemptions.drainage_benefit_period_years")
    end = long_date(run.value("exemptions.drainage_benefit_period_end"))
    period = any_of(
        run.fact("system_expenditure"),
        run.fact("system_repaired"),
        run.fact("no_repair_required"),
    )
    run.cond(
        period,
        f"During the {years}-year period that ended {end}: (i) an expenditure was made "
        "from the drainage system account, (ii) the system was repaired or maintained as "
        "approved by the drainage authority, or (iii) no repair or maintenance was required "
        "under § 103E.705, subd. 1, as determined by the drainage authority.",
        "system_expenditure",
        "system_repaired",
        "no_repair_required",
        citation=run.clause("(1)"),
    )
    run.flag(
        "drained_for_conversion",
        "The wetlands are not drained for conversion to platted lots; planned unit, "
        "commercial or industrial developments; or any development with more than one "
        "residential unit per 40 acres (except parcels whose zoning allows a family "
        "member's additional residence on the same 40 acres).",
        want=False,
        citation=run.clause("(2)"),
    )
    _later_conversion(run)
    run.check(
        "§ 103G.222, subd. 1(d): the local government unit may require a deed restriction "
        "that prohibits nonagricultural use.",
    )
    return run.result()


def _later_conversion(run: RuleRun) -> bool | None:
    """Subd. 2(b), last sentence: a conversion to a prohibited use within the period.

    "If wetlands drained under this paragraph are converted to uses prohibited under clause
    (2) during the ten-year period following drainage, the wetlands must be replaced under
    section 103G.222." Without any fact of a later conversion it is a verify item (a
    future event); with them it is a condition: a prohibited use on or before the
    anniversary of the drainage that ends the period fails it (replacement), one after it
    or a use clause (2) does not prohibit meets it, and a missing date or use leaves it
    unknown.
    """
    years = run.value("exemptions.drainage_conversion_years")
    use = run.fact("later_use")
    drained = run.fact("drainage_date")
    converted = run.fact("later_use_date")
    words = (
        f"The drained wetlands are not converted to a use prohibited by clause (2) during "
        f"the {years}-year period following drainage (else they must be replaced under "
        "§ 103G.222)"
    )
    if use is None and drained is None and converted is None:
        run.check(
            f"Subd. 2(b): if the drained wetlands are converted to a use prohibited by clause "
            f"(2) during the {years}-year period following drainage, they must be replaced "
            "under § 103G.222 (give later_use, drainage_date and later_use_date to decide "
            "it)."
        )
        return None
    prohibited = None if use is None else use in PROHIBITED_LATER_USES
    after: bool | None = None
    end: dt.date | None = None
    if drained is not None and converted is not None:
        if converted < drained:
            raise RulesInputError(
                f"later_use_date {converted.isoformat()} is before drainage_date "
                f"{drained.isoformat()}: a conversion of drained wetlands follows the drainage"
            )
        end = add_years(drained, years)
        after = converted > end  # the anniversary itself is within the period
    holds = any_of(None if prohibited is None else not prohibited, after)
    given = (
        f" (given: later use {use or 'not known'}"
        f", drained {'not known' if drained is None else drained.isoformat()}"
        f", converted {'not known' if converted is None else converted.isoformat()}"
        + ("" if end is None else f"; the period ends {end.isoformat()}")
        + ")"
    )
    return run.cond(
        holds,
        words + given + ".",
        "later_use",
        "drainage_date",
        "later_use_date",
        citation=run.clause("last sentence"),
    )


def add_years(day: dt.date, years: int) -> dt.date:
    """Return the anniversary ``years`` after ``day`` (February 29 falls on February 28).

    Examples
    --------
    >>> add_years(dt.date(2014, 6, 1), 10), add_years(dt.date(2016, 2, 29), 10)
    (datetime.date(2024, 6, 1), datetime.date(2026, 2, 28))
    """
    year = day.year + int(years)
    return dt.date(year, day.month, min(day.day, calendar.monthrange(year, day.month)[1]))


def _maintenance(
    function: RuleFunction,
    facts: ExemptionFacts,
    params: ParameterSet | None,
    day: Day,
    *,
    public: bool,
    excepted_key: str | None,
    key: str,
) -> ExemptionResult:
    """Subd. 2(c) and (d): maintenance and repair of a public, or another, drainage system.

    ``excepted_key`` names the wetland types whose draining the paragraph excepts when they
    are older than parameter ``key`` (``None``: every wetland, paragraph (d)).
    """
    run = start(function, facts, params, day)
    excepted = None if excepted_key is None else list(run.value(excepted_key))
    impact_kind_is(run, ("drain", "fill"), "The activity is draining or filling")
    run.flag(
        "drainage_maintenance",
        "The draining or filling results from maintenance and repair of an existing "
        "drainage system.",
        defining=True,
    )
    run.flag(
        "public_drainage_system",
        "The drainage system is a public drainage system (§ 103E.005, subd. 12, and any "
        "ditch or tile lawfully connected to it, subd. 2(a))."
        if public
        else "The drainage system is not a public drainage system.",
        want=public,
    )
    limit = run.value(key)
    kind = run.fact("impact_kind")
    wtype = run.fact("wetland_type")
    years = check_count(run.fact("wetland_existence_years"), "wetland_existence_years")
    whose = f"type {types_text(excepted)} wetlands" if excepted is not None else "wetlands"
    not_draining = None if kind in (None, "unknown") else kind != "drain"
    not_excepted_type = (
        False if excepted is None else (None if wtype is None else wtype not in excepted)
    )
    young = None if years is None else run.passes(key, years)
    relevant = {
        "impact_kind": not_draining,
        "wetland_type": not_excepted_type,
        "wetland_existence_years": young,
    }
    if excepted is None:
        del relevant["wetland_type"]
    holds = any_of(*relevant.values())
    unknown = [name for name, v in relevant.items() if v is None]
    run.cond(
        holds,
        f"The activity is not the draining of {whose} that have been in existence for more "
        f"than {limit} years, which the paragraph excepts (given: {kind or 'kind not known'}"
        + ("" if excepted is None else f", type {wtype or 'not known'}")
        + f", {'age not known' if years is None else f'{years} years'}).",
        *(unknown if holds is None else relevant),
    )
    return run.result()


def public_drainage_maintenance(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 2(c): maintenance and repair of existing public drainage systems.

    Examples
    --------
    >>> f = ExemptionFacts(wetland_type=3, impact_kind="drain", drainage_maintenance=True,
    ...     public_drainage_system=True, wetland_existence_years=26)
    >>> public_drainage_maintenance(f, day="2024-05-01").outcome.value
    'not_exempt'
    """
    return _maintenance(
        public_drainage_maintenance,
        facts,
        params,
        day,
        public=True,
        excepted_key="exemptions.drainage_public_maintenance_excepted_types",
        key="exemptions.drainage_public_maintenance_max_existence_years",
    )


def private_drainage_maintenance(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 2(d): maintenance and repair of existing drainage systems other than public ones.

    Examples
    --------
    >>> f = ExemptionFacts(impact_kind="fill", drainage_maintenance=True,
    ...     public_drainage_system=False)
    >>> private_drainage_maintenance(f, day="2024-05-01").outcome.value
    'exempt'
    """
    return _maintenance(
        private_drainage_maintenance,
        facts,
        params,
        day,
        public=False,
        excepted_key=None,
        key="exemptions.drainage_private_maintenance_max_existence_years",
    )


def agricultural_land_drainage(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 2(e): draining agricultural land cropped or in rotation eight of ten years.

    Notes
    -----
    Reading: the years of clause (1) and of clause (2) are counted each on its own; a mix
    (five cropped and three in rotation) meets neither (docs/rules.md).

    Examples
    --------
    >>> f = ExemptionFacts(impact_kind="drain", land_use="agricultural", years_annual_crops=8)
    >>> agricultural_land_drainage(f, day="2024-05-01").outcome.value
    'exempt'
    """
    run = start(agricultural_land_drainage, facts, params, day)
    impact_kind_is(run, ("drain",), "The activity is draining")
    land_use_is(
        run, AGRICULTURAL_LAND, "The land drained is agricultural land (§ 103G.005, subd. 2a)"
    )
    lookback = run.value("exemptions.drainage_agricultural_lookback_years")
    key = "exemptions.drainage_agricultural_min_years"
    need = run.value(key)
    crops = check_count(run.fact("years_annual_crops"), "years_annual_crops", lookback)
    rotation = check_count(
        run.fact("years_rotation_or_fallow"), "years_rotation_or_fallow", lookback
    )
    c1 = None if crops is None else run.passes(key, crops)
    c2 = None if rotation is None else run.passes(key, rotation)
    c3 = all_of(run.fact("conservation_program"), run.fact("met_before_enrollment"))
    run.cond(
        any_of(c1, c2, c3),
        f"In {need} out of the {lookback} most recent years prior to the impact the land "
        f"(1) was planted with annually seeded crops before July 5 (except crops normally "
        f"planted after that date) [given: {_years(crops)}], or (2) was in a crop rotation "
        f"seeding of pasture grass, cover crop or legumes, or fallow for a crop production "
        f"purpose [given: {_years(rotation)}]; or (3) it was enrolled in a state or federal "
        f"land conservation program and met clause (1) or (2) before enrollment.",
        "years_annual_crops",
        "years_rotation_or_fallow",
        "conservation_program",
        "met_before_enrollment",
        defining=crops is None and rotation is None and facts.conservation_program is None,
    )
    run.check(
        "§ 103G.222, subd. 1(d): the local government unit may require a deed restriction "
        "that prohibits nonagricultural use."
    )
    return run.result()


def _years(value: int | None) -> str:
    return "not known" if value is None else f"{value} years"
