"""The property owner's use of wetlands, Minn. Stat. § 103G.2364, paragraph (b)."""

from __future__ import annotations

from wetland_gis.parameters import ParameterSet
from wetland_gis.rules.exempt.facts import ExemptionFacts
from wetland_gis.rules.exempt.model import Day, ExemptionResult, impact_kind_is, start


def irrigation_boom_fill(
    facts: ExemptionFacts, params: ParameterSet | None = None, day: Day = None
) -> ExemptionResult:
    """§ 103G.2364(b): a landowner's fill for the wheeled booms of irrigation devices.

    "A landowner may fill a wetland to accommodate wheeled booms on irrigation devices if the
    fill does not impede normal drainage." The fill for the booms is the defining fact (not
    given: the clause is not tried); the activity must be a fill (a drain or an excavation is
    not; an unknown kind leaves the answer conditional); and the fill must not impede normal
    drainage (unknown: conditional). The paragraph is outside § 103G.2241, so its answers do
    not carry the conditions of subd. 11(a); it is read as one exemption that may not be
    combined with another on a project (Minn. R. 8420.0420, subp. 1 C; docs/decisions.md).

    Examples
    --------
    >>> f = ExemptionFacts(irrigation_boom_fill=True, impact_kind="fill",
    ...                    fill_impedes_drainage=False)
    >>> irrigation_boom_fill(f, day="2024-05-01").outcome.value
    'exempt'
    >>> f = ExemptionFacts(irrigation_boom_fill=True, impact_kind="fill")
    >>> irrigation_boom_fill(f, day="2024-05-01").unknown
    ('fill_impedes_drainage',)
    """
    run = start(irrigation_boom_fill, facts, params, day)
    run.flag(
        "irrigation_boom_fill",
        "The landowner fills the wetland to accommodate wheeled booms on irrigation devices.",
        defining=True,
    )
    impact_kind_is(run, ("fill",), "The activity is a fill", given="given")
    run.flag("fill_impedes_drainage", "The fill does not impede normal drainage.", want=False)
    return run.result()
