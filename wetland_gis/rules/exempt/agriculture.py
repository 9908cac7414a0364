"""Agricultural activities, Minn. Stat. § 103G.2241, subd. 1, clauses (1) to (7).

One function per clause. Each reads :class:`~wetland_gis.rules.exempt.facts.ExemptionFacts`
and returns an :class:`~wetland_gis.rules.exempt.model.ExemptionResult`; every answer that
is not "not exempt" carries the subd. 11(a) conditions and the ten-year use restriction of
Minn. R. 8420.0420, subp. 1 D as verify items.
"""

from __future__ import annotations

from wetland_gis.parameters import ParameterSet
from wetland_gis.rules.exempt.facts import AGRICULTURAL_LAND, IMPACT_KINDS, ExemptionFacts
from wetland_gis.rules.exempt.model import (
    Day,
    ExemptionResult,
    Flag,
    RuleRun,
    check_count,
    decide_flags,
    impact_kind_is,
    land_use_is,
    long_date,
    sized_type,
    start,
)


def cropped_before_1991(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 1(1): a wetland cropped, in rotation or set aside in six of ten years before 1991.

    Examples
    --------
    >>> r = cropped_before_1991(ExemptionFacts(years_cropped_before_1991=6), day="2024-05-01")
    >>> r.outcome.value
    'exempt'
    """
    run = start(cropped_before_1991, facts, params, day)
    lookback = run.value("exemptions.agriculture_cropped_lookback_years")
    before = run.value("exemptions.agriculture_cropped_before")
    years = check_count(
        run.fact("years_cropped_before_1991"), "years_cropped_before_1991", lookback
    )
    key = "exemptions.agriculture_cropped_min_years"
    need = run.value(key)
    run.cond(
        None if years is None else run.passes(key, years),
        f"The wetland was planted with annually seeded crops, was in a crop rotation seeding "
        f"of pasture grass or legumes, or was required to be set aside to receive price "
        f"support or other payments (7 U.S.C. §§ 1421-1469), in {need} of the last "
        f"{lookback} years prior to {long_date(before)}"
        + ("" if years is None else f" (given: {years} years)")
        + ".",
        "years_cropped_before_1991",
        defining=years is None,
    )
    return run.result()


def pasture_land(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 1(2): type 1 wetlands, and type 2 or 6 under two acres, on pasture in the same use.

    Notes
    -----
    "Agricultural pasture land" is pasture as § 103G.005, subd. 14a defines it, a state
    before January 1, 1991: the current land use label (``land_use``) says which clause is
    tried, and the 1991 state (``pasture_1991``) is a condition; unknown, the answer is
    conditional, never exempt.

    Examples
    --------
    >>> f = ExemptionFacts(wetland_type=2, wetland_acres=1.5, land_use="pasture",
    ...                    pasture_same_use=True, pasture_1991=True)
    >>> pasture_land(f, day="2024-05-01").outcome.value
    'exempt'
    >>> f = ExemptionFacts(wetland_type=1, land_use="pasture", pasture_same_use=True,
    ...                    bottomland_hardwood=False)
    >>> pasture_land(f, day="2024-05-01").unknown
    ('pasture_1991',)
    """
    run = start(pasture_land, facts, params, day)
    _pasture_use(run)
    key = "exemptions.pasture_small_max_acres"
    wtype, any_size, small = sized_type(
        run,
        "exemptions.pasture_any_size_types",
        "exemptions.pasture_small_types",
        key,
        "clause",
        any_note=" (not bottomland hardwood)",
        limited_words="of less than",
    )
    if wtype in any_size:
        run.flag(
            "bottomland_hardwood",
            f"The type {wtype} wetland is not a bottomland hardwood type 1 wetland "
            "(excepted by the clause).",
            want=False,
        )
    elif wtype in small:
        acres = run.fact("wetland_acres")
        limit = run.value(key)
        run.cond(
            None if acres is None else run.passes(key, acres),
            f"The type {wtype} wetland is less than {limit} acres in size"
            + ("" if acres is None else f" (given: {acres} acres)")
            + ".",
            "wetland_acres",
        )
    return run.result()


def _pasture_use(run: RuleRun) -> None:
    land_use_is(
        run,
        ("pasture",),
        "The wetland is on agricultural pasture land (§ 103G.005, subd. 14a)",
        defining=True,
    )
    run.flag("pasture_same_use", "The pasture land remains in the same use.")
    years = run.value("exemptions.pasture_definition_min_years")
    lookback = run.value("exemptions.pasture_definition_lookback_years")
    before = run.value("exemptions.pasture_definition_before")
    run.flag(
        "pasture_1991",
        "The land is pasture as § 103G.005, subd. 14a defines it: an area that was grazed by "
        "domesticated livestock or that was planted with annually seeded crops in a crop "
        f"rotation seeding of grasses or legumes in {years} of the last {lookback} years "
        f"prior to {long_date(before)} (the current land use alone does not show it).",
        citation=run.clause("pasture"),
    )


def normal_farming_practice(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 1(3): normal farming practices, which do not include draining wetlands.

    Examples
    --------
    >>> f = ExemptionFacts(normal_farming=True, impact_kind="drain")
    >>> normal_farming_practice(f, day="2024-05-01").outcome.value
    'not_exempt'
    """
    run = start(normal_farming_practice, facts, params, day)
    run.flag(
        "normal_farming",
        "The activity is a normal farming practice: farming, silvicultural, grazing and "
        "ranching activities such as plowing, seeding, cultivating and harvesting for the "
        "production of feed, food and fiber products.",
        defining=True,
    )
    impact_kind_is(
        run,
        IMPACT_KINDS - {"drain"},
        "Normal farming practices do not include activities that result in "
        "the draining of wetlands",
    )
    return run.result()


#: Subd. 1(4), in the order of the text.
_CONSERVATION_PRACTICE = (
    Flag(
        "soil_water_practice",
        "The activity is a soil and water conservation practice.",
        defining=True,
    ),
    Flag(
        "swcd_approved_practice",
        "The practice is approved by the soil and water conservation district, after "
        "review by the technical evaluation panel (the analyst's claim).",
    ),
)


def conservation_practice(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 1(4): a conservation practice the SWCD approved after TEP review (a claim).

    Examples
    --------
    >>> f = ExemptionFacts(soil_water_practice=True)
    >>> conservation_practice(f, day="2024-05-01").outcome.value
    'conditional'
    """
    return decide_flags(conservation_practice, facts, params, day, *_CONSERVATION_PRACTICE)


#: Subd. 1(5), in the order of the text.
_AQUACULTURE = (
    Flag(
        "aquaculture",
        "The activity is aquaculture, including pond excavation and construction and "
        "maintenance of associated access roads and dikes.",
        defining=True,
    ),
    Flag(
        "corps_404_permit",
        "It is authorized under, and conducted in accordance with, a permit issued by the "
        "U.S. Army Corps of Engineers under section 404 of the Clean Water Act (33 U.S.C. "
        "§ 1344) (the analyst's claim).",
    ),
    Flag(
        "buildings",
        "It does not include construction or expansion of buildings.",
        want=False,
    ),
)


def aquaculture_activity(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 1(5): aquaculture under a Corps section 404 permit, buildings excluded.

    Examples
    --------
    >>> f = ExemptionFacts(aquaculture=True, corps_404_permit=True, buildings=True)
    >>> aquaculture_activity(f, day="2024-05-01").outcome.value
    'not_exempt'
    """
    return decide_flags(aquaculture_activity, facts, params, day, *_AQUACULTURE)


#: Subd. 1(6), in the order of the text (the permit read as applying to every activity).
_WILD_RICE = (
    Flag(
        "wild_rice",
        "The activity is wild rice production, including necessary diking.",
        defining=True,
    ),
    Flag(
        "corps_404_permit",
        "It is authorized under a permit issued by the U.S. Army Corps of Engineers under "
        "section 404 of the Clean Water Act (the analyst's claim; read as applying to every "
        "wild rice activity).",
    ),
)


def wild_rice_production(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 1(6): wild rice production authorized under a Corps section 404 permit.

    Notes
    -----
    Reading: the permit condition is read as applying to every wild rice production
    activity, not only to "other activities" (docs/rules.md, the alternative reading).

    Examples
    --------
    >>> wild_rice_production(ExemptionFacts(wild_rice=True), day="2024-05-01").unknown
    ('corps_404_permit',)
    """
    return decide_flags(wild_rice_production, facts, params, day, *_WILD_RICE)


def swampbuster_land(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 1(7): agricultural activities on agricultural land subject to swampbuster.

    Examples
    --------
    >>> f = ExemptionFacts(land_use="nonagricultural", swampbuster=True)
    >>> swampbuster_land(f, day="2024-05-01").outcome.value
    'not_exempt'
    >>> f = ExemptionFacts(land_use="agricultural", swampbuster=True)
    >>> swampbuster_land(f, day="2024-05-01").unknown
    ('agricultural_activity',)
    """
    run = start(swampbuster_land, facts, params, day)
    land_use_is(
        run, AGRICULTURAL_LAND, "The activity is on agricultural land (§ 103G.005, subd. 2a)"
    )
    run.flag(
        "agricultural_activity",
        "The activity is an agricultural activity (the land's use does not make it one: a "
        "house pad or other nonagricultural construction on swampbuster land is not).",
    )
    run.flag(
        "swampbuster",
        "The land is subject to the swampbuster provisions of the federal farm program "
        "restrictions, consistent with the memorandum of understanding between the board "
        "and the USDA Natural Resources Conservation Service (the analyst's claim).",
        defining=True,
    )
    return run.result()
