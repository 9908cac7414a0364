"""The facts the exemptions of § 103G.2241 and the road paragraph of § 103G.222 read.

:class:`ExemptionFacts` holds every condition of every clause as an optional value:
``None`` means unknown, and an unknown condition is never resolved in the applicant's
favour (the rule answers ``conditional`` and names the fact). Facts that only a person
can confirm (an approval, a permit, a finding) are **claims** (:data:`CLAIMS`): the
analyst makes them for a project with :class:`ExemptionClaims`, or an impact column
gives them; without the claim the answer is conditional.

:data:`FACT_COLUMNS` gives each fact its default impact-layer column name (ten
characters at most, so a shapefile keeps it); the facts shared with the engine use the
column names the impact layer already has, or that the context layers already write
(``incorporated``, ``calcareous_fen``; docs/data_schema.md). No reader is wired here.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import numbers
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from wetland_gis.enums import WetlandType
from wetland_gis.errors import RulesInputError
from wetland_gis.rules.spec import exemption_fact

__all__ = [
    "ExemptionFacts",
    "ExemptionClaims",
    "FACT_COLUMNS",
    "CLAIMS",
    "IMPACT_KINDS",
    "LAND_USES",
    "INCIDENTAL_CAUSES",
    "LATER_USES",
    "PROHIBITED_LATER_USES",
    "LATER_EVENT_FACTS",
]

#: Impact kinds (as the engine's ``impact_kind``); ``unknown`` reads as not known.
IMPACT_KINDS = frozenset(exemption_fact("impact_kind").choices)
#: Land uses (as the engine's ``land_use``, § 103G.005, subd. 2a, 14a).
LAND_USES = frozenset(exemption_fact("land_use").choices)
#: What may have created an incidental wetland, subd. 5 (1)-(3); ``other`` is anything else
#: (a naturally occurring wetland, or a cause outside the three clauses).
INCIDENTAL_CAUSES = frozenset(exemption_fact("created_by").choices)
#: The uses subd. 2(b)(2) prohibits for drained wetlands: platted lots; planned unit,
#: commercial or industrial developments; development with more than one residential unit
#: per 40 acres (``residential_density``).
PROHIBITED_LATER_USES = frozenset(
    {"platted_lots", "planned_unit", "commercial", "industrial", "residential_density"}
)
#: A later use of drained land (subd. 2(b), last sentence): a prohibited one, or
#: ``agricultural`` / ``other`` (a use clause (2) does not prohibit).
LATER_USES = frozenset(exemption_fact("later_use").choices)
#: Facts that are not impact-layer columns: the id and the areas the rules sum from the
#: impacts (the spec's ``computed`` facts).
MEASURED_FACTS = frozenset(
    {
        "impact_id",
        "impact_sqft",
        "project_sqft",
        "project_type_2_6_drained_sqft",
        "wetland_spoil_sqft",
    }
)
#: Facts of an event after the impact (the later conversion of land drained under subd.
#: 2(b)): none given means no conversion is recorded, not that one is unknown; the rule
#: then names the future event as a verify item. Once one is given the others are needed
#: (unknown: conditional). The one documented exception to "forgetting a fact never makes
#: an answer exempt" (docs/rules.md, "Readings chosen where the text is open").
LATER_EVENT_FACTS = ("later_use", "drainage_date", "later_use_date")


@dataclass(frozen=True, kw_only=True)
class ExemptionFacts:
    """The facts of one impact for the exemption rules; every one optional (None: unknown).

    Parameters
    ----------
    impact_id : hashable, optional
        The impact's id (reported only).
    wetland_type : int, optional
        Circular 39 type 1-8 (§ 103G.005, subd. 17b).
    impact_kind : {"fill", "drain", "excavate", "unknown"}, optional
        What the activity does to the wetland.
    impact_sqft : float, optional
        The impact's area, square feet.
    project_sqft : float, optional
        Wetland area the whole project drains, fills or significantly alters, square feet
        (subd. 6(a)(1)(ii) "the proposed project ... less than one-half acre").
        :func:`~wetland_gis.rules.exempt.decide_exemptions` fills it from the impacts.
    project_type_2_6_drained_sqft : float, optional
        Area of type 2 or 6 wetland the project drains, square feet (subd. 2(b) "up to
        five acres of type 2 or 6 wetlands"); filled by ``decide_exemptions``.
    wetland_id : str, optional
        The wetland the impact is in (spoil deposited in one wetland is summed, subd. 10(1)).
    wetland_spoil_sqft : float, optional
        Area of all spoil the project deposits in this wetland, square feet (subd. 10(1)(i)
        "the area of deposition"); filled by ``decide_exemptions`` from the impacts marked
        ``wildlife_spoil`` in the same wetland.
    wetland_acres : float, optional
        Size of the whole wetland, acres (subd. 1(2), 10(1)(i)).
    incorporated : bool, optional
        The wetland lies in an incorporated area (subd. 2(b) needs unincorporated).
    land_use : {"agricultural", "pasture", "nonagricultural"}, optional
        The land's use (§ 103G.005, subd. 2a agricultural land; subd. 14a pasture).
    calcareous_fen, banked, used_for_replacement_credit : bool, optional
        Minn. R. 8420.0420, subp. 1 B: no exemption applies to a calcareous fen, a wetland
        deposited in the wetland bank, or one already used for replacement credit.
    remainder_newly_qualifies : bool, optional
        The wetland was partially impacted before so that its remainder would now qualify
        for an exemption that did not apply before that impact (subp. 1 B).
    years_cropped_before_1991 : int, optional
        Years of the ten before January 1, 1991 in which the wetland was planted with
        annually seeded crops, in a crop rotation seeding of pasture grass or legumes, or
        set aside for federal price support (subd. 1(1)).
    pasture_same_use : bool, optional
        The agricultural pasture land remains in the same use (subd. 1(2)).
    pasture_1991 : bool, optional
        The land is pasture as § 103G.005, subd. 14a defines it: an area that was grazed by
        domesticated livestock or that was planted with annually seeded crops in a crop
        rotation seeding of grasses or legumes in six of the last ten years prior to
        January 1, 1991 (subd. 1(2)); the current land use label alone does not show it.
    bottomland_hardwood : bool, optional
        A bottomland hardwood type 1 wetland (excepted by subd. 1(2)).
    normal_farming : bool, optional
        The activity is a normal farming practice: farming, silvicultural, grazing or
        ranching such as plowing, seeding, cultivating, harvesting (subd. 1(3)).
    soil_water_practice : bool, optional
        The activity is a soil and water conservation practice (subd. 1(4)).
    swcd_approved_practice : bool, optional
        **Claim.** A soil and water conservation practice approved by the soil and water
        conservation district after review by the technical evaluation panel (subd. 1(4)).
    aquaculture : bool, optional
        Aquaculture: pond excavation, construction and maintenance of access roads and
        dikes (subd. 1(5)).
    buildings : bool, optional
        The activity constructs or expands buildings (excluded by subd. 1(5); a building is
        also excluded by subd. 7(1)).
    corps_404_permit : bool, optional
        **Claim.** Authorized under, and conducted in accordance with, a U.S. Army Corps of
        Engineers permit under Clean Water Act section 404 (subd. 1(5), 1(6)).
    wild_rice : bool, optional
        Wild rice production, including necessary diking (subd. 1(6)).
    swampbuster : bool, optional
        **Claim.** Agricultural activities on agricultural land subject to the swampbuster
        provisions, consistent with the board's memorandum of understanding with NRCS
        (subd. 1(7)).
    agricultural_activity : bool, optional
        The activity itself is an agricultural activity (subd. 1(7) "agricultural activities
        on agricultural land"): a house pad or other nonagricultural construction on
        swampbuster land is not, whatever the land's use.
    drainage_benefits : bool, optional
        The land has been assessed drainage benefits for a public drainage system
        (subd. 2(b)).
    system_expenditure, system_repaired, no_repair_required : bool, optional
        Subd. 2(b)(1)(i)-(iii), each during the 20-year period that ended January 1, 1992:
        an expenditure from the drainage system account; repair or maintenance approved by
        the drainage authority; no repair or maintenance required (§ 103E.705, subd. 1), as
        determined by the drainage authority.
    drained_for_conversion : bool, optional
        The wetlands are drained for conversion to platted lots, planned unit, commercial
        or industrial developments, or development with more than one residential unit
        per 40 acres (subd. 2(b)(2)).
    drainage_date : date, optional
        When the wetland was drained under subd. 2(b) (the start of the ten-year period of
        its last sentence).
    later_use : str, optional
        The use the drained land was later converted to (:data:`LATER_USES`); one of
        :data:`PROHIBITED_LATER_USES` is a use clause (2) prohibits.
    later_use_date : date, optional
        When the land was converted to ``later_use``.
    drainage_maintenance : bool, optional
        The draining or filling results from maintenance and repair of an existing
        drainage system (subd. 2(c), (d)).
    public_drainage_system : bool, optional
        That drainage system is a public drainage system (§ 103E.005, subd. 12, and
        lawfully connected ditches and tile, subd. 2(a)).
    wetland_existence_years : int, optional
        Years the wetland has been in existence (subd. 2(c), (d): "more than 25 years").
    years_annual_crops : int, optional
        Of the ten most recent years before the impact, years planted with annually seeded
        crops before July 5 (or later, for crops normally planted after it) (subd. 2(e)(1)).
    years_rotation_or_fallow : int, optional
        Of the ten most recent years, years in a crop rotation seeding of pasture grass,
        cover crop or legumes, or fallow for a crop production purpose (subd. 2(e)(2)).
    conservation_program : bool, optional
        Enrolled in a state or federal land conservation program (subd. 2(e)(3)).
    met_before_enrollment : bool, optional
        **Claim.** The land met subd. 2(e)(1) or (2) before enrollment (subd. 2(e)(3)).
    federal_authorization : bool, optional
        **Claim.** Authorized under Clean Water Act section 404 or Rivers and Harbors Act
        section 10 regulations (subd. 3).
    federal_rules_state_approved : bool, optional
        **Claim.** Those regulations meet minimum state standards and have been approved by
        the board, the commissioners of natural resources and agriculture and the
        Pollution Control Agency (subd. 3).
    restored_for_conservation : bool, optional
        The wetland was restored or created for conservation purposes under a contract or
        easement (subd. 4(1)).
    contract_right_to_drain : bool, optional
        **Claim.** That contract or easement gives the landowner the right to drain it
        (subd. 4(1)).
    restored_by_landowner : bool, optional
        The wetland was restored or created by the landowner (subd. 4(2)).
    restored_without_assistance : bool, optional
        **Claim.** Without any assistance or financing from public agencies or private
        entities other than the landowner (subd. 4(2)).
    created_by : frozenset of str, optional
        What created the wetland (:data:`INCIDENTAL_CAUSES`): subd. 5 asks that it was
        created *solely* by the causes of clauses (1)-(3).
    utility_work : bool, optional
        New placement or maintenance, repair, enhancement or replacement of existing
        utility or utility-type service, including pipelines (subd. 6(a)(1); utility,
        § 103G.005, subd. 15h).
    avoided_minimized : bool, optional
        **Claim.** The direct and indirect impacts have been avoided and minimized to the
        extent possible (subd. 6(a)(1)(i)).
    utility_operation : bool, optional
        Operation, routine maintenance or emergency repair of existing utilities and public
        work structures, including pipelines (subd. 6(a)(2)).
    additional_intrusion : bool, optional
        The activity results in additional wetland intrusion or additional draining or
        filling, wholly or partially (excluded by subd. 6(a)(2)).
    sewage_system_repair : bool, optional
        Repair and updating of an existing subsurface sewage treatment system necessary to
        comply with local, state and federal regulations (subd. 6(a)(3)).
    utility_maintenance : bool, optional
        The utility work is maintenance, repair or replacement (subd. 6(b)).
    emergency : bool, optional
        Work of an emergency nature (subd. 6(b); road clause (3)).
    utility_bmp : bool, optional
        **Claim.** The utility carries out the work according to approved best management
        practices (subd. 6(b)).
    lgu_certification : bool, optional
        **Claim.** The local government unit issued a seasonal or annual exemption
        certification (subd. 6(b)).
    silviculture_crossing : bool, optional
        Temporarily crossing or entering the wetland to perform silvicultural activities,
        including timber harvest as part of forest management (subd. 7(1)).
    forest_road : bool, optional
        Permanent access for forest roads across the wetland (subd. 7(2)).
    limits_impact : bool, optional
        **Claim.** The activity limits the impact on the hydrologic and biologic
        characteristics of the wetland (subd. 7(1), (2)).
    dikes_ditches_tile : bool, optional
        The activity results in the construction of dikes, drainage ditches, tile lines
        (or, for a forest road, the access becoming one) (subd. 7(1), (2)).
    results_in_drainage : bool, optional
        The activity results in the drainage of the wetland or public waters (subd. 7).
    filling_avoided : bool, optional
        **Claim.** Filling is avoided wherever possible (subd. 7(2)).
    wildlife_spoil : bool, optional
        Deposition of spoil from excavation within the wetland for a wildlife habitat
        improvement project (subd. 10(1)).
    spoil_stabilized : bool, optional
        **Claim.** The spoil is stabilized and permanently seeded to prevent erosion
        (subd. 10(1)(i)).
    no_listed_species_effect : bool, optional
        **Claim.** No adverse impact on any species designated as endangered or threatened
        under state or federal law (subd. 10(1)(ii)).
    swcd_habitat_certified : bool, optional
        **Claim.** The soil and water conservation district certifies the wildlife habitat
        improvement (subd. 10(1)(iii)).
    duck_blind : bool, optional
        The activity is a duck blind (subd. 10(2)).
    irrigation_boom_fill, fill_impedes_drainage : bool, optional
        The landowner fills the wetland to accommodate wheeled booms on irrigation devices;
        that fill impedes normal drainage (§ 103G.2364(b)).
    """

    impact_id: Hashable | None = None
    wetland_type: int | None = None
    impact_kind: str | None = None
    impact_sqft: float | None = None
    project_sqft: float | None = None
    project_type_2_6_drained_sqft: float | None = None
    wetland_id: str | None = None
    wetland_spoil_sqft: float | None = None
    wetland_acres: float | None = None
    incorporated: bool | None = None
    land_use: str | None = None
    # binding exclusions, Minn. R. 8420.0420, subp. 1 B
    calcareous_fen: bool | None = None
    banked: bool | None = None
    used_for_replacement_credit: bool | None = None
    remainder_newly_qualifies: bool | None = None
    # subd. 1
    years_cropped_before_1991: int | None = None
    pasture_same_use: bool | None = None
    pasture_1991: bool | None = None
    bottomland_hardwood: bool | None = None
    normal_farming: bool | None = None
    soil_water_practice: bool | None = None
    swcd_approved_practice: bool | None = None
    aquaculture: bool | None = None
    buildings: bool | None = None
    corps_404_permit: bool | None = None
    wild_rice: bool | None = None
    swampbuster: bool | None = None
    agricultural_activity: bool | None = None
    # subd. 2
    drainage_benefits: bool | None = None
    system_expenditure: bool | None = None
    system_repaired: bool | None = None
    no_repair_required: bool | None = None
    drained_for_conversion: bool | None = None
    drainage_date: dt.date | None = None
    later_use: str | None = None
    later_use_date: dt.date | None = None
    drainage_maintenance: bool | None = None
    public_drainage_system: bool | None = None
    wetland_existence_years: int | None = None
    years_annual_crops: int | None = None
    years_rotation_or_fallow: int | None = None
    conservation_program: bool | None = None
    met_before_enrollment: bool | None = None
    # subd. 3
    federal_authorization: bool | None = None
    federal_rules_state_approved: bool | None = None
    # subd. 4
    restored_for_conservation: bool | None = None
    contract_right_to_drain: bool | None = None
    restored_by_landowner: bool | None = None
    restored_without_assistance: bool | None = None
    # subd. 5
    created_by: frozenset[str] | None = None
    # subd. 6
    utility_work: bool | None = None
    avoided_minimized: bool | None = None
    utility_operation: bool | None = None
    additional_intrusion: bool | None = None
    sewage_system_repair: bool | None = None
    utility_maintenance: bool | None = None
    emergency: bool | None = None
    utility_bmp: bool | None = None
    lgu_certification: bool | None = None
    # subd. 7
    silviculture_crossing: bool | None = None
    forest_road: bool | None = None
    limits_impact: bool | None = None
    dikes_ditches_tile: bool | None = None
    results_in_drainage: bool | None = None
    filling_avoided: bool | None = None
    # subd. 10
    wildlife_spoil: bool | None = None
    spoil_stabilized: bool | None = None
    no_listed_species_effect: bool | None = None
    swcd_habitat_certified: bool | None = None
    duck_blind: bool | None = None
    # § 103G.2364(b)
    irrigation_boom_fill: bool | None = None
    fill_impedes_drainage: bool | None = None

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None or f.name == "impact_id":
                continue
            if f.type == "bool | None" and not isinstance(value, bool):
                raise RulesInputError(f"{f.name} must be True, False or None, got {value!r}")
        if self.wetland_type is not None:
            try:
                if isinstance(self.wetland_type, bool):
                    raise ValueError(self.wetland_type)
                wtype = int(WetlandType(self.wetland_type))
            except (TypeError, ValueError):
                raise RulesInputError(
                    f"wetland_type must be a Circular 39 type "
                    f"({', '.join(str(int(t)) for t in WetlandType)}), got {self.wetland_type!r}"
                ) from None
            object.__setattr__(self, "wetland_type", wtype)
        _choice(self.impact_kind, IMPACT_KINDS, "impact_kind")
        _choice(self.land_use, LAND_USES, "land_use")
        _choice(self.later_use, LATER_USES, "later_use")
        for name in ("drainage_date", "later_use_date"):
            value = getattr(self, name)
            if isinstance(value, dt.datetime):
                object.__setattr__(self, name, value.date())
            elif value is not None and not isinstance(value, dt.date):
                raise RulesInputError(f"{name} must be a date or None, got {value!r}")
        if self.created_by is not None:
            causes = frozenset(self.created_by)
            bad = causes - INCIDENTAL_CAUSES
            if bad or not causes:
                raise RulesInputError(
                    f"created_by must be a non-empty set of {sorted(INCIDENTAL_CAUSES)}, "
                    f"got {sorted(self.created_by)!r}"
                )
            object.__setattr__(self, "created_by", causes)
        for name in (
            "impact_sqft",
            "project_sqft",
            "project_type_2_6_drained_sqft",
            "wetland_spoil_sqft",
            "wetland_acres",
        ):
            value = getattr(self, name)
            if value is None:
                continue
            number = float(value) if isinstance(value, numbers.Real) else None
            if isinstance(value, bool) or number is None or not 0 <= number < float("inf"):
                raise RulesInputError(f"{name} must be a finite number >= 0, got {value!r}")

    def with_claims(self, claims: ExemptionClaims | None) -> ExemptionFacts:
        """Return the facts with each unknown claim taken from the analyst's ``claims``.

        A fact the impact gives (True or False) is kept: an impact column outranks a
        project-wide claim.
        """
        if claims is None:
            return self
        given = {
            name: getattr(claims, name)
            for name in CLAIMS
            if getattr(self, name) is None and getattr(claims, name) is not None
        }
        return dataclasses.replace(self, **given) if given else self


def _choice(value: Any, allowed: frozenset[str], name: str) -> None:
    if value is not None and value not in allowed:
        raise RulesInputError(f"{name} {value!r} is not one of {sorted(allowed)}")


@dataclass(frozen=True, kw_only=True)
class ExemptionClaims:
    """What the analyst claims for a whole project (each ``None``: not claimed).

    Each field is the claim fact of :class:`ExemptionFacts` of the same name; a claim
    fills the fact of every impact that does not give it (:meth:`ExemptionFacts.with_claims`).
    """

    swcd_approved_practice: bool | None = None
    corps_404_permit: bool | None = None
    swampbuster: bool | None = None
    met_before_enrollment: bool | None = None
    federal_authorization: bool | None = None
    federal_rules_state_approved: bool | None = None
    contract_right_to_drain: bool | None = None
    restored_without_assistance: bool | None = None
    avoided_minimized: bool | None = None
    utility_bmp: bool | None = None
    lgu_certification: bool | None = None
    limits_impact: bool | None = None
    filling_avoided: bool | None = None
    spoil_stabilized: bool | None = None
    no_listed_species_effect: bool | None = None
    swcd_habitat_certified: bool | None = None


#: The facts that only a person can confirm: claims (the spec's claim facts of the
#: exemptions, in the order of :class:`ExemptionFacts`; the fields of ExemptionClaims).
CLAIMS: tuple[str, ...] = tuple(
    f.name
    for f in dataclasses.fields(ExemptionFacts)
    if f.name not in MEASURED_FACTS and exemption_fact(f.name).claim
)

#: Default impact-layer column of each fact (from the spec, :data:`wetland_gis.rules.spec.
#: FACTS`). Facts the impact layer already reads keep their existing default names
#: (docs/data_schema.md).
FACT_COLUMNS: Mapping[str, str] = MappingProxyType(
    {
        f.name: exemption_fact(f.name).column
        for f in dataclasses.fields(ExemptionFacts)
        if f.name not in MEASURED_FACTS
    }
)
