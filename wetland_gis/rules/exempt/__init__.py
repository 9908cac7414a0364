"""Every exemption of Minn. Stat. § 103G.2241 (but de minimis), and the road paragraph.

One function per clause, in the module of its subdivision: :mod:`.agriculture` (subd. 1),
:mod:`.drainage` (subd. 2), :mod:`.federal` (subd. 3), :mod:`.restoration` (subd. 4),
:mod:`.incidental` (subd. 5), :mod:`.utilities` (subd. 6), :mod:`.forestry` (subd. 7),
:mod:`.wildlife` (subd. 10); the binding rules in :mod:`.binding`; the replacement of
public road projects by the board (§ 103G.222, subd. 1 (l), (m)) in :mod:`.roads`.

:data:`EXEMPTION_RULES` is the one registry: each rule's id, the label a person reads,
its citations, its parameter keys and its function. A rule id is written here and
nowhere else in the package; a function finds its entry with :func:`spec_of`.

Examples
--------
>>> from wetland_gis.rules.exempt import RULES_BY_ID, ExemptionFacts, decide_exemptions
>>> clean = dict(calcareous_fen=False, banked=False, used_for_replacement_credit=False,
...              remainder_newly_qualifies=False)
>>> a = ExemptionFacts(impact_id="A", sewage_system_repair=True, **clean)
>>> b = ExemptionFacts(impact_id="B", duck_blind=True, **clean)
>>> answer = decide_exemptions([a, b], day="2024-05-01")
>>> answer.outcome.value, [RULES_BY_ID[r].label for r in answer.refused_combination]
('not_exempt', ['Duck blinds'])
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from wetland_gis.errors import RulesInputError
from wetland_gis.rules.exempt import (
    agriculture,
    binding,
    drainage,
    federal,
    forestry,
    incidental,
    restoration,
    roads,
    utilities,
    wildlife,
)
from wetland_gis.rules.exempt.binding import (
    ImpactExemptions,
    ProjectExemptions,
    binding_exclusions,
    decide_exemptions,
)
from wetland_gis.rules.exempt.facts import (
    CLAIMS,
    FACT_COLUMNS,
    ExemptionClaims,
    ExemptionFacts,
)
from wetland_gis.rules.exempt.model import (
    Condition,
    ConditionStatus,
    ExemptionResult,
    RuleFunction,
    RuleSpec,
    subd,
)
from wetland_gis.rules.exempt.roads import RoadFacts, RoadResult, RoadRoute, road_replacement

__all__ = [
    "EXEMPTION_RULES",
    "RULES_BY_ID",
    "spec_of",
    "ExemptionFacts",
    "ExemptionClaims",
    "FACT_COLUMNS",
    "CLAIMS",
    "ExemptionResult",
    "Condition",
    "ConditionStatus",
    "RuleSpec",
    "ImpactExemptions",
    "ProjectExemptions",
    "binding_exclusions",
    "decide_exemptions",
    "RoadFacts",
    "RoadResult",
    "RoadRoute",
    "road_replacement",
]

_R = "Minn. R. 8420.0420"
_E = "exemptions."
_222 = "Minn. Stat. § 103G.222, subd. 1"


def _spec(
    rule_id: str,
    label: str,
    citations: tuple[str, ...],
    function: RuleFunction,
    keys: tuple[str, ...] = (),
    *,
    kind: str = "exemption",
    use_restriction: bool = False,
) -> RuleSpec:
    if use_restriction:
        keys = (*keys, _E + "use_restriction_years")
    return RuleSpec(
        rule_id=rule_id,
        label=label,
        citations=citations,
        parameter_keys=keys,
        function=function,
        kind=kind,
        use_restriction=use_restriction,
    )


#: The registry: every rule of this subpackage, exemptions first in the order of the text.
EXEMPTION_RULES: tuple[RuleSpec, ...] = (
    _spec(
        "exemption.agriculture.1_1",
        "Wetland cropped in six of ten years before 1991",
        (subd("1(1)"),),
        agriculture.cropped_before_1991,
        (
            _E + "agriculture_cropped_min_years",
            _E + "agriculture_cropped_lookback_years",
            _E + "agriculture_cropped_before",
        ),
        use_restriction=True,
    ),
    _spec(
        "exemption.agriculture.1_2",
        "Wetland on agricultural pasture land in the same use",
        (subd("1(2)"),),
        agriculture.pasture_land,
        (
            _E + "pasture_any_size_types",
            _E + "pasture_small_types",
            _E + "pasture_small_max_acres",
            _E + "pasture_definition_min_years",
            _E + "pasture_definition_lookback_years",
            _E + "pasture_definition_before",
        ),
        use_restriction=True,
    ),
    _spec(
        "exemption.agriculture.1_3",
        "Normal farming practices",
        (subd("1(3)"),),
        agriculture.normal_farming_practice,
        use_restriction=True,
    ),
    _spec(
        "exemption.agriculture.1_4",
        "Soil and water conservation practice approved by the SWCD",
        (subd("1(4)"),),
        agriculture.conservation_practice,
        use_restriction=True,
    ),
    _spec(
        "exemption.agriculture.1_5",
        "Aquaculture under a Corps section 404 permit",
        (subd("1(5)"),),
        agriculture.aquaculture_activity,
        use_restriction=True,
    ),
    _spec(
        "exemption.agriculture.1_6",
        "Wild rice production under a Corps section 404 permit",
        (subd("1(6)"),),
        agriculture.wild_rice_production,
        use_restriction=True,
    ),
    _spec(
        "exemption.agriculture.1_7",
        "Agricultural land subject to swampbuster",
        (subd("1(7)"),),
        agriculture.swampbuster_land,
        use_restriction=True,
    ),
    _spec(
        "exemption.drainage.2_b",
        "Draining land assessed drainage benefits",
        (subd("2(b)"),),
        drainage.assessed_drainage_benefits,
        (
            _E + "drainage_any_size_types",
            _E + "drainage_limited_types",
            _E + "drainage_limited_max_acres",
            _E + "drainage_benefit_period_years",
            _E + "drainage_benefit_period_end",
            _E + "drainage_conversion_years",
        ),
        use_restriction=True,
    ),
    _spec(
        "exemption.drainage.2_c",
        "Maintenance and repair of a public drainage system",
        (subd("2(c)"), subd("2(a)")),
        drainage.public_drainage_maintenance,
        (
            _E + "drainage_public_maintenance_excepted_types",
            _E + "drainage_public_maintenance_max_existence_years",
        ),
        use_restriction=True,
    ),
    _spec(
        "exemption.drainage.2_d",
        "Maintenance and repair of a private drainage system",
        (subd("2(d)"),),
        drainage.private_drainage_maintenance,
        (_E + "drainage_private_maintenance_max_existence_years",),
        use_restriction=True,
    ),
    _spec(
        "exemption.drainage.2_e",
        "Draining agricultural land cropped eight of ten years",
        (subd("2(e)"),),
        drainage.agricultural_land_drainage,
        (_E + "drainage_agricultural_min_years", _E + "drainage_agricultural_lookback_years"),
        use_restriction=True,
    ),
    _spec(
        "exemption.federal.3",
        "Activities under state-approved federal regulations",
        (subd("3"),),
        federal.federal_approval,
    ),
    _spec(
        "exemption.restoration.4_1",
        "Wetland restored for conservation with a right to drain",
        (subd("4(1)"),),
        restoration.conservation_restoration,
    ),
    _spec(
        "exemption.restoration.4_2",
        "Wetland restored by the landowner without assistance",
        (subd("4(2)"),),
        restoration.landowner_restoration,
    ),
    _spec(
        "exemption.incidental.5_1",
        "Incidental wetland created by a beaver dam",
        (subd("5(1)"),),
        incidental.beaver_dam_wetland,
    ),
    _spec(
        "exemption.incidental.5_2",
        "Incidental wetland created by a blocked road culvert",
        (subd("5(2)"),),
        incidental.culvert_blockage_wetland,
    ),
    _spec(
        "exemption.incidental.5_3",
        "Incidental wetland created by actions for another purpose",
        (subd("5(3)"),),
        incidental.other_purpose_wetland,
    ),
    _spec(
        "exemption.incidental.5_4",
        "Incidental wetland created by a combination of causes",
        (subd("5(4)"),),
        incidental.combined_incidental_wetland,
    ),
    _spec(
        "exemption.utilities.6_a_1",
        "Utility placement or work altering less than one-half acre",
        (subd("6(a)(1)"),),
        utilities.utility_service,
        (_E + "utility_max_acres",),
    ),
    _spec(
        "exemption.utilities.6_a_2",
        "Operation and maintenance of existing utilities and public works",
        (subd("6(a)(2)"),),
        utilities.utility_operation_maintenance,
    ),
    _spec(
        "exemption.utilities.6_a_3",
        "Repair of an existing subsurface sewage treatment system",
        (subd("6(a)(3)"),),
        utilities.sewage_treatment_update,
    ),
    _spec(
        "exemption.forestry.7_1",
        "Temporary crossing for silviculture",
        (subd("7(1)"),),
        forestry.silviculture_temporary_crossing,
    ),
    _spec(
        "exemption.forestry.7_2",
        "Permanent access for forest roads",
        (subd("7(2)"),),
        forestry.forest_road_access,
    ),
    _spec(
        "exemption.wildlife.10_1",
        "Spoil from a wildlife habitat improvement project",
        (subd("10(1)"),),
        wildlife.wildlife_spoil_deposition,
        (_E + "wildlife_spoil_max_percent", _E + "wildlife_spoil_max_acres"),
    ),
    _spec(
        "exemption.wildlife.10_2",
        "Duck blinds",
        (subd("10(2)"),),
        wildlife.duck_blinds,
    ),
    _spec(
        "exemption.utilities.6_b",
        "Utility maintenance: local certification or best management practices",
        (subd("6(b)"),),
        utilities.utility_certification,
        kind="procedure",
    ),
    _spec(
        "exemption.binding.excluded",
        "Wetlands no exemption applies to",
        (f"{_R}, subp. 1 B",),
        binding.binding_exclusions,
        kind="binding",
    ),
    _spec(
        "exemption.binding.one_exemption",
        "One exemption for the project, not combined",
        (subd("11(b)"), f"{_R}, subp. 1 A", f"{_R}, subp. 1 C"),
        binding.decide_exemptions,
        (_E + "drainage_limited_types",),
        kind="binding",
    ),
    _spec(
        "road.board_replacement",
        "Public road project: replacement by the board",
        (f"{_222}(m)", f"{_222}(l)"),
        roads.road_replacement,
        (
            "road_projects.report_days_before_construction",
            "road_projects.minor_emergency_max_sqft",
            "road_projects.report_days_after_commencing",
        ),
        kind="road",
    ),
)

#: The registry by rule id.
RULES_BY_ID: Mapping[str, RuleSpec] = MappingProxyType({s.rule_id: s for s in EXEMPTION_RULES})
_BY_FUNCTION = {s.function: s for s in EXEMPTION_RULES}


def spec_of(function: RuleFunction) -> RuleSpec:
    """Return the registry entry of a rule function.

    Raises
    ------
    RulesInputError
        When the function has no entry in :data:`EXEMPTION_RULES`.
    """
    try:
        return _BY_FUNCTION[function]
    except KeyError:
        name = getattr(function, "__qualname__", repr(function))
        raise RulesInputError(
            f"{name} has no entry in EXEMPTION_RULES (wetland_gis/rules/exempt/__init__.py): "
            "add its id, label, citations and parameter keys there"
        ) from None
