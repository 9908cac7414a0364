"""Fill an impact layer's per-wetland facts from the register before the rules run.

For each assessed impact with a wetland id, the register gives: the dated prior drains and
fills of the landowner's portion of the wetland since the date of
``de_minimis.cumulative.since`` (§ 103G.2241, subd. 9(f): "the cumulative area drained or
filled of the landowner's portion", whoever drained or filled it). The portion is the
wetland on the parcels (``parcel_id``, the county PIN) of the landowner's impacts on that
wetland: every landowner's rows on those parcels count, a previous owner's included; rows
on another parcel of the same wetland do not, unless the register names the same landowner
for them (:func:`portion_basis`). Where the impact has no parcel id, every row on the
wetland is counted (the whole-wetland reading), and so is a register row without a parcel
id (a schema version 1 row): never fewer square feet than the portion reading, each with a
verify item. Rows dated before the start date, on or after the application date, of
denied plans or not drains or fills are excluded and listed. Whether the wetland was banked or
used for replacement credit (Minn. R. 8420.0420, subp. 1), and a boundary or type
determination valid on the application date (§ 103G.2242, subd. 2a(d): five years from its
date, whatever end date was recorded), used as the wetland type, with the exception of
subd. 2a(d) as a verify item. An expired determination is not used, and the impact layer's
type is then flagged for verification (``type_verify``), not taken silently in its place.

A fact the layer gives and the register's that disagree become a verify item, and the
value used is the one that does not favour the applicant (the larger prior area; banked
or used when either says so); a valid determination's type is used, as the LGU decided.
The register rows used are in the ``facts.register`` trace step of each impact.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from wetland_gis.enums import Outcome
from wetland_gis.io.fields import FieldMapping, read_flag, read_number, read_text
from wetland_gis.io.values import parse_date, parse_id
from wetland_gis.parameters import ParameterSet
from wetland_gis.register.records import DETERMINATION, determination_end
from wetland_gis.rules.registry import FACTS_REGISTER, rule

RULE_ID = FACTS_REGISTER  # its id, label and citations live in the rules registry
_CITATION = "; ".join(rule(FACTS_REGISTER).citations)
_NOT_COUNTED_KINDS = {"excavate"}

#: Why a register row on the wetland is (or is not) of the landowner's portion
#: (subd. 9(f)); every basis but ``other_portion`` is counted.
PORTION_BASES: dict[str, str] = {
    "owns_whole": "the landowner owns the whole wetland: every row on it is the portion",
    "no_parcel_on_impact": (
        "the impact has no parcel id: every row on the wetland is counted (whole-wetland reading)"
    ),
    "same_parcel": "on the parcel of the landowner's portion",
    "same_landowner": "on another parcel the register names the same landowner for",
    "no_parcel_on_row": "the register row has no parcel id (whole-wetland reading)",
    "other_portion": "on another parcel of the wetland, of another landowner: not counted",
}


def portion_basis(
    row_parcel: str | None,
    row_owner: str | None,
    *,
    parcels: frozenset[str] | None,
    owner: str | None,
    owns_whole: bool | None,
) -> str:
    """Return whether a register row is of the landowner's portion of a wetland, and why.

    § 103G.2241, subd. 9(f) counts "the cumulative area drained or filled of the
    landowner's portion since January 1, 1992": the portion's history, whoever drained or
    filled it. The portion is the wetland on the landowner's parcels; a row is counted
    unless it lies on another parcel of the wetland and the register names another (or no)
    landowner for it. An unknown parcel never makes a row uncounted.

    Parameters
    ----------
    row_parcel, row_owner : str or None
        The register row's parcel id and landowner (the impact's, else its decision's).
    parcels : frozenset of str, or None
        The parcels of the landowner's impacts on the wetland in the layer; None when one
        of them has no parcel id (the portion is then not known).
    owner : str or None
        The landowner of the impact.
    owns_whole : bool or None
        The layer's ``owns_whole_wetland`` flag.

    Returns
    -------
    str
        A key of :data:`PORTION_BASES`; the row is counted unless it is ``other_portion``.

    Examples
    --------
    >>> portion_basis("P-2", "Previous owner", parcels=frozenset({"P-2"}), owner="X",
    ...               owns_whole=False)
    'same_parcel'
    >>> portion_basis("P-9", "Y", parcels=frozenset({"P-2"}), owner="X", owns_whole=None)
    'other_portion'
    >>> portion_basis(None, "Y", parcels=frozenset({"P-2"}), owner="X", owns_whole=None)
    'no_parcel_on_row'
    """
    if owns_whole is True:
        return "owns_whole"
    if parcels is None:
        return "no_parcel_on_impact"
    if row_parcel is not None and row_parcel in parcels:
        return "same_parcel"
    if owner is not None and row_owner == owner:
        return "same_landowner"
    if row_parcel is None:
        return "no_parcel_on_row"
    return "other_portion"


def _listing(rows: list[dict[str, Any]]) -> str:
    shown = [
        f"{r['impact_id']} of {r['landowner'] or 'an unnamed landowner'}"
        + (f" on parcel {r['parcel_id']}" if r.get("parcel_id") else "")
        + f" (decision {r['decision_uid']}, {r['area_sqft']:,.0f} sq ft)"
        for r in rows[:10]
    ]
    more = f"; and {len(rows) - 10} more" if len(rows) > 10 else ""
    return "; ".join(shown) + more


def fill_from_register(
    gdf: pd.DataFrame,
    field_map: FieldMapping,
    register: Any,
    params: ParameterSet,
    as_of: dt.date,
) -> tuple[pd.DataFrame, FieldMapping, dict[Hashable, list[tuple]], list[str]]:
    """Return the layer with its fact columns filled, the mapping, trace steps and records.

    Parameters
    ----------
    gdf : DataFrame
        The classified impacts (``status``, ``wetland_type`` ...).
    field_map : FieldMapping
    register : Register
    params : ParameterSet
    as_of : date
        The application date.

    Returns
    -------
    (DataFrame, FieldMapping, dict, list of str)
        The filled layer; the mapping naming the filled columns; per row, the trace steps
        (``(rule_id, citation, outcome, value, reason, verify, inputs, parameters)``); the
        manifest records.
    """
    law = _Law.read(params, as_of)
    gdf, field_map = _fact_columns(gdf.copy(), field_map)
    owner_col, wetland_col = field_map.owner, field_map.wetland_id
    records = [f"register {register.describe()['register_id']} ({register.backend}) read"]
    steps: dict[Hashable, list[tuple]] = {}
    if wetland_col is None:
        records.append(
            "the impact layer has no wetland_id column: no impact could be matched to the "
            "register; add owner and wetland_id columns"
        )
        return gdf, field_map, steps, records
    assessed = gdf.index[gdf["status"] == "assessed"]
    portions = _portions(gdf, assessed, field_map)
    cache: dict[str, tuple[pd.DataFrame, pd.DataFrame]] = {}
    for idx in assessed:
        wetland = read_text(gdf.at[idx, wetland_col])
        owner = read_text(gdf.at[idx, owner_col]) if owner_col else None
        if wetland is None:
            continue
        if wetland not in cache:  # subd. 9(f): the portion's history, whoever the landowner
            cache[wetland] = register.history(owner, wetland, every_landowner=True)
        owns_col = field_map.owns_whole_wetland
        impact = _Impact(
            idx=idx,
            wetland=wetland,
            owner=owner,
            owns_whole=read_flag(gdf.at[idx, owns_col]) if owns_col else None,
            parcels=portions[(owner, wetland)],
        )
        steps[idx] = [_fill_impact(gdf, field_map, impact, *cache[wetland], law)]
    return gdf, field_map, steps, records


_FILLED_ROLES = ("prior_sqft_since_1992", "banked", "used_for_credit")
"""The field roles the register fills (a column is added for a role the layer lacks)."""


def _fact_columns(gdf: pd.DataFrame, field_map: FieldMapping) -> tuple[pd.DataFrame, FieldMapping]:
    """Give each role the register fills a column of objects; return the layer and mapping."""
    roles = {}
    for role in _FILLED_ROLES:
        name = getattr(field_map, role)
        if name is None:
            name = f"register_{role}"[:30]
            gdf[name] = None
        gdf[name] = gdf[name].astype(object)
        roles[role] = name
    return gdf, dataclasses.replace(field_map, **roles)


@dataclass(frozen=True)
class _Law:
    """The parameters the register's facts are read under, as of the application date."""

    as_of: dt.date
    since: dt.date
    params: ParameterSet

    SINCE_KEY = "de_minimis.cumulative.since"
    VALID_KEY = "procedure.determination_validity_years"

    @classmethod
    def read(cls, params: ParameterSet, as_of: dt.date) -> _Law:
        since = parse_date(params.value(cls.SINCE_KEY, as_of))
        assert since is not None
        return cls(as_of, since, params)


@dataclass(frozen=True)
class _Impact:
    """One assessed impact matched to the register: its row, wetland and portion."""

    idx: Hashable
    wetland: str
    owner: str | None
    owns_whole: bool | None
    parcels: frozenset[str] | None

    @property
    def reading(self) -> str:
        """``parcel`` when the portion is known (subd. 9(f)), else ``whole_wetland``."""
        known = self.owns_whole is not True and self.parcels is not None
        return "parcel" if known else "whole_wetland"


def _portions(
    gdf: pd.DataFrame, assessed: pd.Index, field_map: FieldMapping
) -> dict[tuple[str | None, str], frozenset[str] | None]:
    """Return the landowner's portion of each wetland: the parcels of their impacts on it.

    The engine decides subd. 9(f) per landowner and wetland; a portion is None when one of
    its impacts has no parcel id (the portion is not known: the whole-wetland reading).
    """
    owner_col, wetland_col, parcel_col = field_map.owner, field_map.wetland_id, field_map.parcel_id
    portions: dict[tuple[str | None, str], frozenset[str] | None] = {}
    for idx in assessed:
        wetland = read_text(gdf.at[idx, wetland_col])
        if wetland is None:
            continue
        key = (read_text(gdf.at[idx, owner_col]) if owner_col else None, wetland)
        parcel = parse_id(gdf.at[idx, parcel_col]) if parcel_col else None
        known = portions.get(key, frozenset())
        portions[key] = None if parcel is None or known is None else known | {parcel}
    return portions


def _fill_impact(
    gdf: pd.DataFrame,
    field_map: FieldMapping,
    impact: _Impact,
    decisions: pd.DataFrame,
    impacts: pd.DataFrame,
    law: _Law,
) -> tuple:
    """Fill one impact's facts from its wetland's register rows; return its trace step."""
    years = law.params.value(law.VALID_KEY, law.as_of)
    verify: list[str] = []
    counted, excluded, by_basis = _prior_rows(impacts, impact, law, verify)
    verify.extend(_portion_items(impact.wetland, impact.owner, impact.parcels, by_basis, counted))
    prior = sum(r["area_sqft"] for r in counted)
    whole = prior + sum(r["area_sqft"] for r in by_basis.get("other_portion", []))
    inputs: dict[str, Any] = {
        "owner": impact.owner,
        "wetland_id": impact.wetland,
        "parcel_ids": None if impact.parcels is None else sorted(impact.parcels),
        "portion_by": impact.reading,
        "whole_wetland_sqft": whole,
        "counted": counted,
        "excluded": excluded,
    }
    if impact.owner is None and impact.reading == "whole_wetland":
        verify.append(
            f"wetland {impact.wetland}: no owner on the impact: every drain or fill of the "
            "wetland in the register was counted for the landowner's portion; give the owner "
            "column"
        )
    _reconcile_prior(gdf, impact.idx, field_map.prior_sqft_since_1992, prior, law, verify)
    _reconcile_flags(gdf, impact.idx, field_map, decisions, inputs, verify)
    valid, expired = _determinations(decisions, law, excluded, verify)
    if valid:
        _use_determination(gdf, impact.idx, valid[-1], inputs, verify)
    elif expired:
        _flag_expired(gdf, impact.idx, expired[-1], inputs, verify)
    reason = _register_reason(impact, counted, excluded, prior, law, valid, expired)
    return (
        RULE_ID,
        _CITATION,
        Outcome.CLASSIFIED.value,
        float(prior),
        reason,
        verify,
        inputs,
        {law.SINCE_KEY: law.since.isoformat(), law.VALID_KEY: years},
    )


def _exclusion(row: Mapping[str, Any], date: dt.date | None, law: _Law) -> str | None:
    """Return why a register row is not a drain or fill counted since the start date."""
    if row["kind"] == "replacement_plan_denied" or row["outcome"] == "denied":
        return "the replacement plan was denied"
    if (row["impact_kind"] or "") in _NOT_COUNTED_KINDS:
        return "not a drain or fill"
    if date is not None and date < law.since:
        return f"dated before {law.since.isoformat()}"
    if date is not None and date >= law.as_of:
        return "dated on or after the application date"
    return None


def _prior_rows(
    impacts: pd.DataFrame, impact: _Impact, law: _Law, verify: list[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    """Return the register rows counted, those excluded (with why) and the rows by basis."""
    counted, excluded = [], []
    by_basis: dict[str, list[dict[str, Any]]] = {}
    for row in impacts.to_dict("records"):
        date = parse_date(row["impact_date"])
        ref = {
            "decision_uid": row["decision_uid"],
            "impact_id": row["impact_id"],
            "impact_date": None if date is None else date.isoformat(),
            "area_sqft": float(row["area_sqft"]),
            "decision_kind": row["kind"],
            "landowner": row.get("portion_owner"),
            "parcel_id": parse_id(row.get("portion_parcel")),
        }
        why = _exclusion(row, date, law)
        if why is not None:
            excluded.append({**ref, "why": why})
            continue
        if date is None:
            verify.append(
                f"register impact {row['impact_id']} (decision {row['decision_uid']}) "
                f"has no date; it was counted as drained or filled since "
                f"{law.since.isoformat()}: confirm its date"
            )
        basis = portion_basis(
            ref["parcel_id"],
            ref["landowner"],
            parcels=impact.parcels,
            owner=impact.owner,
            owns_whole=impact.owns_whole,
        )
        by_basis.setdefault(basis, []).append(ref)
        if basis == "other_portion":
            excluded.append({**ref, "basis": basis, "why": PORTION_BASES[basis]})
        else:
            counted.append({**ref, "basis": basis})
    return counted, excluded, by_basis


def _reconcile_prior(
    gdf: pd.DataFrame, idx: Hashable, prior_col: Any, prior: float, law: _Law, verify: list[str]
) -> None:
    """Write the portion's prior area (subd. 9(f)); the larger where the layer disagrees."""
    layer_prior = read_number(gdf.at[idx, prior_col])
    if layer_prior is None:
        gdf.at[idx, prior_col] = prior
    elif round(layer_prior) != round(prior):  # whole square feet, as reported
        gdf.at[idx, prior_col] = max(layer_prior, prior)
        verify.append(
            f"prior area since {law.since.isoformat()}: the impact layer gives "
            f"{layer_prior:,.0f} sq ft, the register {prior:,.0f} sq ft; the larger "
            "was used; reconcile them"
        )


def _reconcile_flags(
    gdf: pd.DataFrame,
    idx: Hashable,
    field_map: FieldMapping,
    decisions: pd.DataFrame,
    inputs: dict[str, Any],
    verify: list[str],
) -> None:
    """Write banked and used for credit (Minn. R. 8420.0420, subp. 1); True on a conflict."""
    for role, kind in (("banked", "wetland_banking"), ("used_for_credit", None)):
        said = [
            d
            for d in decisions.to_dict("records")
            if d[role] is not None or (kind is not None and d["kind"] == kind)
        ]
        value = None
        if said:
            value = any(bool(d[role]) or d["kind"] == kind for d in said)
        inputs[role] = {"value": value, "decisions": [d["decision_uid"] for d in said]}
        column = getattr(field_map, role)
        layer_value = read_flag(gdf.at[idx, column])
        if value is None:
            continue
        if layer_value is None:
            gdf.at[idx, column] = value
        elif layer_value != value:
            gdf.at[idx, column] = True
            verify.append(
                f"{role.replace('_', ' ')}: the impact layer says {layer_value}, the "
                f"register {value}; taken as True (no exemption applies, Minn. R. "
                "8420.0420, subp. 1); reconcile them"
            )


def _determinations(
    decisions: pd.DataFrame, law: _Law, excluded: list[dict[str, Any]], verify: list[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return the boundary/type determinations valid on the application date, and expired.

    § 103G.2242, subd. 2a(d): five years from the decision date, whatever end date was
    recorded. Those not used are appended to ``excluded`` with why.
    """
    valid, expired = [], []
    for d in decisions.to_dict("records"):
        if d["kind"] != DETERMINATION or not d["determined_type"]:
            continue
        start, recorded = parse_date(d["decision_date"]), parse_date(d["valid_until"])
        law_end = None if start is None else determination_end(start, law.params)[0]
        end = recorded if law_end is None or (recorded and recorded < law_end) else law_end
        entry = {
            "decision_uid": d["decision_uid"],
            "decision_date": start.isoformat() if start else None,
            "valid_until": end.isoformat() if end else None,
            "type": d["determined_type"],
        }
        if recorded is not None and law_end is not None and recorded > law_end:
            verify.append(
                f"the register records the determination {d['decision_uid']} of "
                f"{entry['decision_date']} as valid until {recorded.isoformat()}, after the "
                f"five years of § 103G.2242, subd. 2a(d) ({law_end.isoformat()}): the five "
                "years were applied; correct the record (a new decision superseding it)"
            )
        if start is None or start > law.as_of:
            excluded.append({**entry, "why": "determination dated after the application date"})
        elif end is None:
            excluded.append({**entry, "why": "validity period not known for its date"})
            verify.append(
                f"the LGU's boundary/type determination of {entry['decision_date']} (type "
                f"{entry['type']}) was not used: the parameter tree holds no validity "
                f"period ({law.VALID_KEY}, § 103G.2242, subd. 2a(d)) in force on that date; "
                "confirm whether it is still valid"
            )
        elif law.as_of <= end:
            valid.append(entry)
        else:
            excluded.append({**entry, "why": f"expired on {end.isoformat()}"})
            expired.append(entry)
    return valid, expired


def _use_determination(
    gdf: pd.DataFrame,
    idx: Hashable,
    chosen: dict[str, Any],
    inputs: dict[str, Any],
    verify: list[str],
) -> None:
    """Take the type of a valid determination, as the LGU decided (subd. 2a(d))."""
    inputs["determination"] = chosen
    layer_type = str(gdf.at[idx, "wetland_type"])
    if layer_type != chosen["type"]:
        verify.append(
            f"wetland type: the impact layer gives {layer_type}, the LGU's boundary/"
            f"type determination of {chosen['decision_date']} (valid until "
            f"{chosen['valid_until']}, § 103G.2242, subd. 2a(d)) type "
            f"{chosen['type']}; the determination's type was used"
        )
    # subd. 2a(d)'s exception, on every determination reused
    verify.append(
        f"the boundary/type determination of {chosen['decision_date']} is valid until "
        f"{chosen['valid_until']} unless the Technical Evaluation Panel determines that "
        "natural or artificial changes to the hydrology, vegetation, or soils of the "
        "area have been sufficient to alter the wetland boundary or type (§ 103G.2242, "
        "subd. 2a(d)): confirm no such change"
    )
    gdf.at[idx, "wetland_type"] = chosen["type"]
    gdf.at[idx, "type_verify"] = False
    if "type_source" in gdf:
        gdf.at[idx, "type_source"] = "register determination"


def _flag_expired(
    gdf: pd.DataFrame,
    idx: Hashable,
    last: dict[str, Any],
    inputs: dict[str, Any],
    verify: list[str],
) -> None:
    """Flag the layer's type for verification: an expired determination is not used.

    The layer's type does not silently stand in for it.
    """
    inputs["expired_determination"] = last
    layer_type = str(gdf.at[idx, "wetland_type"])
    verify.append(
        f"the LGU's boundary/type determination of {last['decision_date']} (type "
        f"{last['type']}) expired on {last['valid_until']} (§ 103G.2242, subd. 2a(d): "
        f"valid for five years): it was not used, and the impact layer's type "
        f"{layer_type} is not a determination; a new boundary or type determination is "
        "needed"
    )
    gdf.at[idx, "type_verify"] = True
    if "type_note" in gdf:
        gdf.at[idx, "type_note"] = (
            f"not a determination: the LGU's determination of {last['decision_date']} "
            f"expired on {last['valid_until']}; a new one is needed"
        )


def _register_reason(
    impact: _Impact,
    counted: list[dict[str, Any]],
    excluded: list[dict[str, Any]],
    prior: float,
    law: _Law,
    valid: list[dict[str, Any]],
    expired: list[dict[str, Any]],
) -> str:
    """Return the reason of the register's step: what was counted, on which portion."""
    parcels = impact.parcels
    portion = (
        f"the landowner's portion (parcel {', '.join(sorted(parcels))})"
        if impact.reading == "parcel" and parcels is not None
        else "the whole wetland (the landowner owns it)"
        if impact.owns_whole is True
        else "the whole wetland (no parcel id on the impact)"
    )
    return (
        f"Register: {len(counted)} prior impact(s) of {prior:,.0f} sq ft counted since "
        f"{law.since.isoformat()} on {portion}, {len(excluded)} row(s) excluded"
        + (
            f"; type {valid[-1]['type']} from the determination of {valid[-1]['decision_date']}"
            if valid
            else f"; the determination of {expired[-1]['decision_date']} has expired"
            if expired
            else ""
        )
        + "."
    )


def _portion_items(
    wetland: str,
    owner: str | None,
    parcels: frozenset[str] | None,
    by_basis: dict[str, list[dict[str, Any]]],
    counted: list[dict[str, Any]],
) -> list[str]:
    """Return the verify items of subd. 9(f)'s portion reading for one impact."""
    items = []
    someone = f"a landowner other than {owner!r}" if owner else "any landowner"
    others = [
        r
        for r in by_basis.get("no_parcel_on_impact", [])
        if owner is None or r["landowner"] != owner
    ]
    if others:
        items.append(
            f"wetland {wetland}: the impact has no parcel id (column parcel_id), so the "
            f"landowner's portion is not known: register drains or fills of {someone} on the "
            f"wetland were counted ({_listing(others)}): subd. 9(f) counts the cumulative area "
            "drained or filled of the landowner's portion since 1992, a previous owner's "
            "included (the whole-wetland reading, never less); give the parcel id, or the LGU "
            "excludes those on another landowner's portion"
        )
    unknown = by_basis.get("no_parcel_on_row", [])
    if unknown:
        items.append(
            f"wetland {wetland}: register drains or fills without a parcel id were counted for "
            f"the portion on parcel {', '.join(sorted(parcels or ()))} ({_listing(unknown)}): "
            "the register cannot tell on which portion they lie (the whole-wetland reading for "
            "those rows, subd. 9(f)); the LGU excludes those on another landowner's portion"
        )
    same = by_basis.get("same_landowner", [])
    if same:
        items.append(
            f"wetland {wetland}: drains or fills on other parcels the register names "
            f"{owner!r} for were counted as the landowner's portion ({_listing(same)}): "
            "confirm the landowner still owns them; if not, the LGU excludes them"
        )
    other = by_basis.get("other_portion", [])
    if other:
        with_them = sum(r["area_sqft"] for r in counted) + sum(r["area_sqft"] for r in other)
        items.append(
            f"wetland {wetland}: drains or fills on other landowners' parcels of the wetland "
            f"were not counted for the portion on parcel {', '.join(sorted(parcels or ()))} "
            f"({_listing(other)}; with them the prior area would be {with_them:,.0f} sq ft): "
            "confirm none lies on this portion under an earlier parcel id (a split or "
            "combination of parcels changes the id; property may not be divided to increase "
            "the amounts, subd. 9(h))"
        )
    return items
