"""The screening facts: what the layers say about an impact, and what they could not know.

Pure functions on plain values (no geopandas), called by the impact-facts adapter
(:mod:`wetland_gis.io.impact_facts`) for the ``facts.*`` steps of the trace:

- :func:`governing_type`: the type a mixed or ambiguous polygon is held to
  (``facts.wetland_type``, § 103G.005, subd. 17b);
- the verify items of ``facts.context``: :func:`no_public_waters_layer_verify`,
  :data:`WATERCOURSE_OHWL_VERIFY`, :data:`NO_FEN_LAYER_VERIFY` and
  :func:`fen_review_verify`.

The public waters wetland screen of an impact whose incorporated status is unknown is
:func:`wetland_gis.rules.public_waters.public_waters_wetland_screen`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from wetland_gis.enums import PercentageArea, ShorelandZone, WetlandType
from wetland_gis.parameters import ParameterSet
from wetland_gis.rules.amounts import amount_table
from wetland_gis.rules.spec import FACTS_WETLAND_TYPE, RULE_SPECS

#: Citation of the ``facts.wetland_type`` step (the Circular 39 types).
MIXED_TYPE_CITATION = RULE_SPECS[FACTS_WETLAND_TYPE].citations[0]

#: The zones of the de minimis amounts, most restrictive first.
_ZONES = (ShorelandZone.BUILDING_SETBACK, ShorelandZone.PROTECTION, ShorelandZone.OUTSIDE)

#: The verify item of an impact whose nearest public water is known (§ 103G.005, subd. 14(2)).
WATERCOURSE_OHWL_VERIFY = (
    "if the nearest public water is a watercourse, its ordinary high water level is "
    "the top of the bank of the channel (§ 103G.005, subd. 14(2)); the zones were "
    "measured from the public waters line, so they may reach up to half a channel "
    "width further from it"
)

#: The verify item of an impact cut from NWI mapping instead of a delineation (issue 35).
NWI_SCREENING_VERIFY = (
    "SCREENING ON NWI, NOT A DELINEATION: the wetland boundary and type come from the "
    "National Wetlands Inventory, mapped from aerial imagery; the location, size and type of "
    "a wetland are determined by the Technical Evaluation Panel after an on-site inspection "
    "(§ 103G.2242, subd. 2(a)), so a wetland delineation is still needed before the impact "
    "area, the type or any decision here is relied on"
)

#: The verify item of an impact screened without a calcareous fen layer (§ 103G.223).
NO_FEN_LAYER_VERIFY = (
    "no calcareous fen layer in the context: check the DNR list of calcareous "
    "fens (§ 103G.223); the impact was screened as not a fen"
)


def fen_review_verify(distance_ft: float) -> str:
    """Return the verify item of an impact within ``distance_ft`` of a calcareous fen.

    Parameters
    ----------
    distance_ft : float
        The user's fen review distance (``fen_review_ft``; no default distance in law).

    Returns
    -------
    str
    """
    return (
        f"the impact is within {distance_ft:g} ft of a calcareous fen: a fen "
        "may not be degraded, wholly or partially, by any activity (§ 103G.223); "
        "send it to the DNR for fen review"
    )


def no_public_waters_layer_verify(params: ParameterSet, as_of: dt.date) -> str:
    """Return the verify item of an impact placed outside the zone without public waters.

    Parameters
    ----------
    params : ParameterSet
        The parameter tree (the shoreland wetland protection zone distances).
    as_of : date
        Date the distances are read for.

    Returns
    -------
    str
        The item naming both distances and the basin distance's citation.
    """
    basin_ft, basin_cite = params.cited("shoreland.protection_zone.basin_distance", as_of)
    course_ft = params.value("shoreland.protection_zone.watercourse_distance", as_of)
    return (
        f"no public waters layer was used: confirm no public water basin lies within "
        f"{basin_ft:,} ft and no watercourse within {course_ft:,} ft ({basin_cite})"
    )


def governing_type(
    types: Sequence[WetlandType],
    touched: Sequence[ShorelandZone],
    pct_class: PercentageArea,
    metro: bool,
    cedar_tamarack: bool,
    params: ParameterSet,
    as_of: dt.date,
) -> tuple[WetlandType, str | None]:
    """Return the most restrictive of a mixed or ambiguous polygon's types, and why.

    The amounts are looked up in the parameter tree's de minimis table (no amount: 0):
    the smallest amounts in the zones the polygon touches (most restrictive zone first),
    then in every zone, then the lower type number.

    Parameters
    ----------
    types : sequence of WetlandType
        The polygon's types (one: returned as is, with no note).
    touched : sequence of ShorelandZone
        The zones the polygon has area in, most restrictive first (at least one).
    pct_class, metro, cedar_tamarack
        The place and the cedar-tamarack flag the amounts depend on.
    params : ParameterSet
        The parameter tree.
    as_of : date
        Date the amounts are read for.

    Returns
    -------
    tuple
        The governing type and, for several types, the note (a verify item) saying why.
    """
    if len(types) == 1:
        return types[0], None
    table = amount_table(params, as_of)

    def amount(t: WetlandType, z: ShorelandZone) -> float:
        entry = table.lookup(int(t), cedar_tamarack, z, pct_class, metro, False)
        return 0.0 if entry is None else float(entry.sqft)

    keys = {
        t: (
            tuple(amount(t, z) for z in touched),
            tuple(amount(t, z) for z in _ZONES),
            int(t),
        )
        for t in types
    }
    chosen = min(types, key=keys.__getitem__)
    here = keys[chosen][0][0]
    note = (
        f"the polygon holds types {'/'.join(str(int(t)) for t in types)}; it is held to "
        f"type {int(chosen)}, whose de minimis amounts here are the smallest "
        f"({here:,.0f} sq ft in the {touched[0].value.replace('_', ' ')}); verify the split "
        "of types in the field"
    )
    return chosen, note
