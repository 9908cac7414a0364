"""The fees summed over permits: Minn. Stat. § 103G.271, subd. 6(d)(1)-(2) and 6(h).

After each permit's fee (:mod:`wetland_gis.water_use.fees`) a screening caps each entity's
summed fees (subd. 6(d)(1) city of the first class, 6(d)(2) other entities by permits held;
a permit without an entity as its own), adds the summer surcharge of subd. 6(h) (summed over
the permits supplying a common distribution system and shared pro rata) after the caps, and
gives each permit's total. One step per function; every stage records its decisions in the
edition's run (``_EditionRun``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import partial
from typing import Any

from wetland_gis.rules.facts import fmt_number
from wetland_gis.water_use.amounts import _exact_or_none, _gal, _money, _usd, exact
from wetland_gis.water_use.editions import cite_subd
from wetland_gis.water_use.facts import _AGENCIES, MONTHS, Appropriation
from wetland_gis.water_use.framework import RULE_IDS, WaterOutcome, _EditionRun, _Rec

#: A permit's fee (None: not known), by permit id.
_Fees = dict[str, Fraction | None]

#: The verify item of a permit whose holder is not given (subd. 6(d)(1)-(2)).
_NO_ENTITY_CHECK = (
    "The entity holding permit {permit} (column entity): it is capped as its own entity "
    "under subd. 6(d); if the entity holds other permits their fees share one cap, and "
    "whether it is a city of the first class, (d)(1), depends on who it is."
)


# --------------------------------------------------------------------------- 6(d)(1)-(2)


def _entities(items: Sequence[Appropriation]) -> tuple[dict[str, list[Appropriation]], set[str]]:
    """Return the permits an entity cap sums, by entity, and the entities not named.

    Not once-through cooling, not agencies. A permit without an entity is capped as its own
    entity: the subject is its permit id, unless an entity bears that name.
    """
    by_entity: dict[str, list[Appropriation]] = defaultdict(list)
    unnamed: set[str] = set()
    capped = [a for a in items if a.once_through != "cooling" and a.entity_type not in _AGENCIES]
    names = {a.entity.strip() for a in capped}
    for a in capped:
        entity = a.entity.strip()
        if not entity:
            entity = a.permit_id if a.permit_id not in names else f"{a.permit_id} (no entity)"
            unnamed.add(entity)
        by_entity[entity].append(a)
    return by_entity, unnamed


def _entity_caps(items: Sequence[Appropriation], fees: _Fees, run: _EditionRun) -> _Fees:
    """Return each permit's fee after its entity's cap (subd. 6(d)(1)-(2)), recording it.

    A permit without an entity is capped as its own entity, never left uncapped without a
    word (:func:`_entity_cap`, docs/water_use.md).
    """
    by_entity, unnamed = _entities(items)
    after_cap: _Fees = dict(fees)
    for entity, members in by_entity.items():
        member_fees = {m.permit_id: fees[m.permit_id] for m in members}
        if any(v is None for v in member_fees.values()):
            rec_inputs = {"entity": entity, "permits": sorted(member_fees)}
            run.run("cap", entity, partial(_cap_unknown, unnamed=entity in unnamed), rec_inputs)
            for pid in member_fees:
                after_cap[pid] = None
            continue
        known = {k: v for k, v in member_fees.items() if v is not None}
        after_cap.update(_cap_entity(entity, members, known, entity in unnamed, run))
    return after_cap


def _cap_entity(
    entity: str,
    members: Sequence[Appropriation],
    known: Mapping[str, Fraction],
    unnamed: bool,
    run: _EditionRun,
) -> dict[str, Fraction]:
    """Return the fees of one entity's permits after its cap, reduced pro rata."""
    held = next((m.permits_held for m in members if m.permits_held is not None), None)
    uses = {m.permit_id: m.use == "hydropower" for m in members}
    types = {m.entity_type for m in members}
    etype = "city_first_class" if "city_first_class" in types else members[0].entity_type
    res = run.run(
        "cap",
        entity,
        partial(_entity_cap, entity, etype, held, known, uses, unnamed=unnamed),
        {
            "entity": "" if unnamed else entity,
            "entity_type": etype,
            "permits_held": held,
            "permits": sorted(m.permit_id for m in members),
            "fees": {k: _money(v) for k, v in known.items()},
        },
    )
    total = sum(known.values(), Fraction(0))
    cap = _exact_or_none(res.value)
    if cap is None:  # pragma: no cover - _entity_cap always returns an amount
        raise AssertionError(f"entity {entity!r}: the cap rule returned no amount")
    return {pid: v if total == 0 or cap >= total else v * cap / total for pid, v in known.items()}


def _entity_cap(
    entity: str,
    entity_type: str,
    permits_held: int | None,
    fees: Mapping[str, Fraction],
    capped_uses: Mapping[str, bool],
    rec: _Rec,
    unnamed: bool = False,
) -> tuple[WaterOutcome, Any]:
    """Cap one entity's summed fees (subd. 6(d)(1), (2)); return the allowed total.

    ``unnamed``: the permit's holder is not given, and ``entity`` is its permit id. It is
    capped as its own entity, which never gives less than its share of a cap the holder's
    other permits would share (the share is the fee times cap / total, at most both), and a
    verify item names the missing fact.
    """
    total = sum(fees.values(), Fraction(0))
    rec.amounts["fees_before_cap"] = _money(total) or 0.0
    rec.extra["permits"] = sorted(fees)
    if unnamed:
        permit = next(iter(fees))
        rec.flag("entity_missing")
        rec.because(
            f"The entity holding permit {permit} is not given: the permit is capped as its "
            "own entity (its fee is never lower than its share of a cap it would share "
            "with the holder's other permits)."
        )
        rec.check(_NO_ENTITY_CHECK.format(permit=permit))
        entity = f"the holder of permit {permit}"
    if entity_type == "city_first_class":
        cap = _city_of_the_first_class_cap(rec)
    else:
        counted = sum(1 for pid in fees if not capped_uses.get(pid))
        cap = _cap_by_permits_held(rec, entity, permits_held, counted)
    rec.amounts["cap"] = float(cap)
    if total > cap:
        rec.because(
            f"The entity's fees total {_usd(total)}, more than the cap: each permit's "
            f"fee is reduced in proportion (reading 'pro rata') so they sum to "
            f"{_usd(cap)}."
        )
        rec.flag("fee_capped")
        return WaterOutcome.FEE, cap
    rec.because(f"The entity's fees total {_usd(total)}, within the cap.")
    return WaterOutcome.FEE, total


def _city_of_the_first_class_cap(rec: _Rec) -> Fraction:
    """Return the cap on the fees of a city of the first class (subd. 6(d)(1))."""
    key = "water_use.fee.cap.city_first_class"
    cap = exact(rec.value(key))
    rec.ref(key)
    rec.because(f"A city of the first class: its fees may not exceed {_usd(cap)} a year.")
    rec.check("That the entity is a city of the first class.")
    return cap


def _cap_by_permits_held(
    rec: _Rec, entity: str, permits_held: int | None, counted: int
) -> Fraction:
    """Return the cap of subd. 6(d)(2) by the permits the entity holds.

    ``counted``: the entity's permits in the layer that count (not hydropower); a smaller
    ``permits_held`` is raised to it, and an unknown one takes the highest cap.
    """
    key = "water_use.fee.cap.entity_by_permits"
    rows = rec.value(key)
    rec.ref(key)
    held = permits_held
    if held is None:
        row = max(rows, key=lambda r: exact(r["usd"]))
        rec.because(
            f"The number of permits {entity} holds is not given: the highest cap, "
            f"clause {row['clause']}, is used, so the fee is not understated."
        )
        rec.check(f"The number of permits {entity} holds (hydropower permits do not count).")
    else:
        if held < counted:
            rec.because(
                f"permits_held ({held}) is less than the {counted} permits of "
                f"{entity} in the layer; {counted} is used."
            )
            held = counted
        row = next(
            r
            for r in rows
            if exact(r["at_least"]) <= held
            and (r.get("at_most") is None or held <= exact(r["at_most"]))
        )
        rec.because(
            f"{entity[:1].upper()}{entity[1:]} holds {held} permit(s): clause "
            f"{row['clause']} of subd. "
            f"6(d)(2) caps its fees at {_usd(exact(row['usd']))} a year."
        )
        rec.check("The permits held exclude hydropower facilities (subd. 6(d)(5)).")
    rec.extra["cap_clause"] = row["clause"]
    return exact(row["usd"])


def _cap_unknown(rec: _Rec, unnamed: bool = False) -> tuple[WaterOutcome, Any]:
    """Return ``verify``: a fee of the entity is not known, so its cap cannot be applied."""
    rec.cite(cite_subd("6(d)"))
    rec.because("A fee of this entity is not known, so the entity cap cannot be applied.")
    if unnamed:
        rec.check(_NO_ENTITY_CHECK.format(permit=rec.subject.removesuffix(" (no entity)")))
    return WaterOutcome.VERIFY, None


# --------------------------------------------------------------------------- 6(h)


def _surcharge_groups(
    items: Sequence[Appropriation], run: _EditionRun
) -> dict[str, list[Appropriation]]:
    """Return the permits each surcharge is computed for, by system (or ``permit:<id>``).

    The uses of subd. 6(h) that pay a fee; municipal permits sharing a distribution system
    are summed.
    """
    params, ed = run.params, run.edition
    surcharge_uses = set(params.value("water_use.fee.surcharge_uses", ed.applies_from))
    groups: dict[str, list[Appropriation]] = defaultdict(list)
    no_fee = {
        pid
        for (pid, rule), res in run.results.items()
        if rule == RULE_IDS["fee"] and res.outcome in (WaterOutcome.NO_FEE, WaterOutcome.WAIVED)
    }
    for a in items:
        if a.use in surcharge_uses and a.permit_id not in no_fee:
            system = (
                a.distribution_system
                if a.use == "municipal" and a.distribution_system
                else f"permit:{a.permit_id}"
            )
            groups[system].append(a)
    return groups


def _surcharges(items: Sequence[Appropriation], run: _EditionRun) -> _Fees:
    """Return each permit's summer surcharge (subd. 6(h)), recording the decisions."""
    surcharges: _Fees = {}
    for system, members in _surcharge_groups(items, run).items():
        subject = system if len(members) > 1 else members[0].permit_id
        res = run.run(
            "surcharge",
            subject,
            partial(_surcharge, members),
            {"distribution_system": system, "permits": [m.permit_id for m in members]},
        )
        surcharge = _exact_or_none(res.value)
        if surcharge is None:
            for m in members:
                surcharges[m.permit_id] = None
            continue
        shares = _shares(members, surcharge, res.rec.extra["months"])
        surcharges.update(shares)
        if len(members) > 1:
            for m in members:
                run.run(
                    "surcharge",
                    m.permit_id,
                    partial(_share, system=system, value=shares[m.permit_id]),
                    {"distribution_system": system},
                )
    return surcharges


def _shares(
    members: Sequence[Appropriation], surcharge: Fraction, months: Sequence[str]
) -> dict[str, Fraction]:
    """Return each permit's share of a system's surcharge, by its volume in ``months``."""
    index = [MONTHS.index(x) for x in months]
    weights = {
        m.permit_id: sum((exact(_monthly(m)[i]) for i in index), Fraction(0)) for m in members
    }
    whole = sum(weights.values(), Fraction(0))
    return {
        m.permit_id: surcharge
        * (Fraction(1, len(members)) if whole == 0 else weights[m.permit_id] / whole)
        for m in members
    }


def _monthly(a: Appropriation) -> tuple[float, ...]:
    """Return the 12 monthly volumes of a permit the caller has checked has them."""
    if a.monthly_gallons is None:  # pragma: no cover - the callers check first
        raise AssertionError(f"permit {a.permit_id!r}: no monthly volumes")
    return a.monthly_gallons


def _surcharge(members: Sequence[Appropriation], rec: _Rec) -> tuple[WaterOutcome, Any]:
    """Return the summer surcharge of one permit or one common distribution system."""
    f = "water_use.fee."
    rec.ref(f + "surcharge_rate")
    months = list(rec.value(f + "surcharge_months"))
    reference = rec.value(f + "surcharge_reference_month")[0]
    rate = exact(rec.value(f + "surcharge_rate"))
    volume = exact(rec.value(f + "rate_volume"))
    if any(m.monthly_gallons is None for m in members):
        rec.because(
            "The 12 monthly volumes are not given, so the surcharge of subd. 6(h) "
            "cannot be computed."
        )
        rec.check("Monthly volumes January to December (gal_jan ... gal_dec).")
        return WaterOutcome.VERIFY, None
    totals = {
        m: sum((exact(_monthly(a)[MONTHS.index(m)]) for a in members), Fraction(0)) for m in MONTHS
    }
    base = totals[reference]
    excess = {m: max(totals[m] - base, Fraction(0)) for m in months}
    over = sum(excess.values(), Fraction(0))
    surcharge = rate * over / volume
    rec.amounts["excess_gallons"] = float(over)
    rec.extra["months"] = months
    detail = ", ".join(f"{m.capitalize()} {fmt_number(float(excess[m]))}" for m in months)
    whose = (
        f"the {len(members)} permits supplying the common distribution system"
        if len(members) > 1
        else "the permit"
    )
    rec.because(
        f"Volume of {whose} above {reference.capitalize()}'s "
        f"({fmt_number(float(base))} gallons) in each surcharge month: {detail} "
        f"gallons; {_usd(rate)} per {_gal(volume)} gives {_usd(surcharge)}."
    )
    if len(members) > 1:
        rec.because(
            "The system's surcharge is shared among its permits in proportion to "
            "their volume in the surcharge months (reading 'pro rata')."
        )
    return WaterOutcome.FEE, surcharge


def _share(rec: _Rec, system: str, value: Fraction | None) -> tuple[WaterOutcome, Any]:
    """Return this permit's share of a distribution system's surcharge."""
    rec.cite(cite_subd("6(h)"))
    rec.because(f"This permit's share of the surcharge of distribution system {system}.")
    return WaterOutcome.FEE, value


# --------------------------------------------------------------------------- 6


def _total(
    rec: _Rec, base: Fraction | None, surcharge: Fraction | None
) -> tuple[WaterOutcome, Any]:
    """Return the fee after the caps plus the surcharge (``verify`` if a part is unknown)."""
    rec.cite(cite_subd("6"))
    # in extra, not amounts: an unknown part is None (the decision's amounts merge both)
    rec.extra["fee_after_cap"] = _money(base)
    rec.extra["surcharge"] = _money(surcharge)
    if base is None or surcharge is None:
        rec.because("A part of the fee is not known (see the fee, cap and surcharge decisions).")
        return WaterOutcome.VERIFY, None
    rec.because(
        f"Fee after the entity cap {_usd(base)} plus summer surcharge "
        f"{_usd(surcharge)} (reading 'surcharge after caps': the caps of subd. 6(d) "
        "limit the processing fee; the subd. 6(h) surcharge is added after them)."
    )
    return WaterOutcome.FEE, base + surcharge


def _totals(
    items: Sequence[Appropriation], after_cap: _Fees, surcharges: _Fees, run: _EditionRun
) -> None:
    """Record each permit's total: the fee after the caps plus its surcharge."""
    for a in items:
        base, sur = after_cap.get(a.permit_id), surcharges.get(a.permit_id, Fraction(0))
        run.run(
            "total",
            a.permit_id,
            partial(_total, base=base, surcharge=sur),
            {"fee_after_cap": _money(base), "surcharge": _money(sur)},
        )
