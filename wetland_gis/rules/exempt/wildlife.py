"""Wildlife habitat, Minn. Stat. § 103G.2241, subd. 10, clauses (1) and (2)."""

from __future__ import annotations

from wetland_gis.parameters import ParameterSet
from wetland_gis.rules.exempt.facts import ExemptionFacts
from wetland_gis.rules.exempt.model import (
    PERCENT,
    SQFT_PER_ACRE,
    Day,
    ExemptionResult,
    Flag,
    RuleRun,
    decide_flags,
    exact,
    start,
)


def wildlife_spoil_deposition(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 10(1): spoil from excavation for a wildlife habitat improvement project.

    The area of deposition (``wetland_spoil_sqft``: all the project's spoil in this
    wetland) may not exceed five percent of the wetland area (``wetland_acres``) or
    one-half acre, whichever is less; both are "does not exceed": exactly at the lesser
    limit passes. Without the wetland's total, the impact's own area (``impact_sqft``) is a
    floor: over a limit it fails, within it the answer is conditional. Without the
    wetland's size, a deposition over the acre limit fails and one within it is
    conditional.

    Examples
    --------
    >>> f = ExemptionFacts(wildlife_spoil=True, wetland_spoil_sqft=2_178, wetland_acres=1,
    ...     spoil_stabilized=True, no_listed_species_effect=True, swcd_habitat_certified=True)
    >>> wildlife_spoil_deposition(f, day="2024-05-01").outcome.value
    'exempt'
    """
    run = start(wildlife_spoil_deposition, facts, params, day)
    run.flag(
        "wildlife_spoil",
        "The activity is deposition of spoil resulting from excavation within the wetland "
        "for a wildlife habitat improvement project.",
        defining=True,
    )
    key_pct = "exemptions.wildlife_spoil_max_percent"
    key_acres = "exemptions.wildlife_spoil_max_acres"
    pct = run.value(key_pct)
    max_acres = run.value(key_acres)
    total = run.fact("wetland_spoil_sqft")
    impact = run.fact("impact_sqft")
    area = total if total is not None else impact
    size = run.fact("wetland_acres")
    words = (
        f"The area of deposition in the wetland does not exceed {pct} percent of the "
        f"wetland area or {max_acres} acre, whichever is less"
    )
    if area is None:
        run.cond(None, f"{words} (the deposition's area is not known).", "wetland_spoil_sqft")
        return _spoil_claims(run)
    acres = exact(area) / SQFT_PER_ACRE  # for the reason only; the tests multiply
    within = run.passes(key_acres, area, SQFT_PER_ACRE)
    run.amounts.update(deposition_sqft=float(area), limit_acres=float(max_acres))
    unknown: list[str] = []
    given = f"given: {float(acres):.4g} acres" + (", this impact alone" if total is None else "")
    if size is None:
        unknown.append("wetland_acres")
        given += "; the wetland's size is not known"
    else:
        limit_acres = min(exact(pct) * exact(size) / PERCENT, exact(max_acres))
        # area / (size acres) * 100 <= pct, tested as area * 100 <= pct * size * 43,560
        share_ok = (
            run.passes(key_pct, exact(area) * PERCENT, exact(size) * SQFT_PER_ACRE)
            if size
            else not area
        )
        within = within and share_ok
        run.amounts.update(wetland_acres=float(size), lesser_limit_acres=float(limit_acres))
        given += f" of a {size} acre wetland; the lesser limit is {float(limit_acres):.4g} acres"
    if total is None:
        unknown.append("wetland_spoil_sqft")
        given += "; add the project's other spoil in this wetland"
    run.cond(
        False if not within else (None if unknown else True),
        f"{words} ({given}).",
        *(unknown if within and unknown else ("wetland_spoil_sqft", "wetland_acres")),
    )
    return _spoil_claims(run)


#: Subd. 10(1)(i) to (iii), the claims tested after the area.
_SPOIL_CLAIMS = (
    Flag(
        "spoil_stabilized",
        "The spoil is stabilized and permanently seeded to prevent erosion (the analyst's claim).",
        clause="(i)",
    ),
    Flag(
        "no_listed_species_effect",
        "The project does not have an adverse impact on any species designated as "
        "endangered or threatened under state or federal law (the analyst's claim).",
        clause="(ii)",
    ),
    Flag(
        "swcd_habitat_certified",
        "The project will provide wildlife habitat improvement as certified by the soil "
        "and water conservation district (the analyst's claim).",
        clause="(iii)",
    ),
)


def _spoil_claims(run: RuleRun) -> ExemptionResult:
    run.flags(*_SPOIL_CLAIMS)
    return run.result()


#: Subd. 10(2).
_DUCK_BLIND = Flag("duck_blind", "The activity is a duck blind.", defining=True)


def duck_blinds(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """Subd. 10(2): duck blinds.

    Examples
    --------
    >>> duck_blinds(ExemptionFacts(duck_blind=False), day="2024-05-01").outcome.value
    'not_exempt'
    """
    return decide_flags(duck_blinds, facts, params, day, _DUCK_BLIND)
