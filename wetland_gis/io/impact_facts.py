"""The rules' input from the classified impact layer: :class:`ImpactFacts`, built by column.

:func:`impact_facts` reads the classified layer (the geometric columns of
:mod:`wetland_gis.geometry.classify` and the optional fact columns named by the field
mapping) one column at a time, each distinct cell value read once, and returns the
facts per project for :func:`wetland_gis.rules.decide_projects`, with the screening
facts as keyword-built ``facts.*`` steps of the trace (:class:`FactSteps`). The legal
texts of those steps live in the rules that own them (:mod:`wetland_gis.rules.screening`,
:mod:`wetland_gis.rules.public_waters`); this module only says which apply to an impact.

Adding an optional fact: one line in :data:`ROLE_FACTS` (the :class:`ImpactFacts` field,
the field role of :data:`wetland_gis.io.fact_roles.FACT_FIELD_ROLES` that names its
column, and the reader of one cell).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from wetland_gis.context_layers import LAYER_SPECS
from wetland_gis.enums import ImpactKind, Outcome, PercentageArea, ShorelandZone, WetlandType
from wetland_gis.io.fields import (
    FieldMapping,
    impact_exceeds_wetland,
    read_flag,
    read_number,
    read_text,
)
from wetland_gis.io.wetland_types import water_regime_flooded
from wetland_gis.parameters import ParameterSet
from wetland_gis.rules import ImpactFacts
from wetland_gis.rules import registry as R
from wetland_gis.rules.public_waters import public_waters_wetland_screen, unlisted_by_inventory
from wetland_gis.rules.screening import (
    MIXED_TYPE_CITATION,
    NO_FEN_LAYER_VERIFY,
    NWI_SCREENING_VERIFY,
    WATERCOURSE_OHWL_VERIFY,
    fen_review_verify,
    governing_type,
    no_public_waters_layer_verify,
)

__all__ = ["ImpactTable", "FactSteps", "ROLE_FACTS", "STEP_FIELDS", "impact_facts"]


def _is_true(value: Any) -> bool:
    return read_flag(value) is True


def _nonneg(value: float | None) -> float | None:
    return None if value is None or value < 0 else value


def _nonneg_number(value: Any) -> float | None:
    return _nonneg(read_number(value))


#: The optional facts read straight from one column: ``(ImpactFacts field, field role,
#: reader of one cell)``. A missing column reads as the reader's answer for ``None``.
ROLE_FACTS: tuple[tuple[str, str, Callable[[Any], Any]], ...] = (
    ("banked", "banked", _is_true),
    ("used_for_replacement_credit", "used_for_credit", _is_true),
    ("wetland_id", "wetland_id", read_text),
    ("owner", "owner", read_text),
    ("owns_whole_wetland", "owns_whole_wetland", read_flag),
    ("portion_sqft", "portion_sqft", _nonneg_number),
    ("prior_sqft_since_1992", "prior_sqft_since_1992", _nonneg_number),
    ("isolated", "isolated", read_flag),
    ("runoff_retention", "runoff_retention", read_flag),
    ("bottomland_hardwood", "bottomland_hardwood", read_flag),
    ("land_use", "land_use", read_text),
    ("duration", "duration", read_text),
    ("water_regime_flooded", "cowardin", water_regime_flooded),
)

#: The fields of a trace step after ``project`` and ``impact_id`` (the register's steps
#: are tuples in this order: :func:`wetland_gis.register.fill.fill_from_register`).
STEP_FIELDS = (
    "rule_id",
    "citation",
    "outcome",
    "value",
    "reason",
    "verify",
    "inputs",
    "parameters",
)
_COLUMNS = ("project", "impact_id", *STEP_FIELDS)
_EMPTY: Mapping[str, Any] = {}

_IMPACT_KINDS = {
    "fill": ImpactKind.FILL,
    "filling": ImpactKind.FILL,
    "filled": ImpactKind.FILL,
    "drain": ImpactKind.DRAIN,
    "drainage": ImpactKind.DRAIN,
    "drained": ImpactKind.DRAIN,
    "draining": ImpactKind.DRAIN,
    "excavate": ImpactKind.EXCAVATE,
    "excavation": ImpactKind.EXCAVATE,
    "excavated": ImpactKind.EXCAVATE,
    "dredge": ImpactKind.EXCAVATE,
}
_ZONE_OF = {z.value: z for z in ShorelandZone}
_ZONE_COLUMNS = (
    (ShorelandZone.BUILDING_SETBACK, "sqft_setback"),
    (ShorelandZone.PROTECTION, "sqft_protection"),
    (ShorelandZone.OUTSIDE, "sqft_outside"),
)
_NOTE_SPECS = tuple(spec for spec in LAYER_SPECS.values() if spec.verify_note)
#: The impact columns listing the features of a context layer with a verify note.
NOTE_COLUMNS = tuple(str(spec.id_column) for spec in _NOTE_SPECS)


class FactSteps:
    """The screening steps of a run, kept as one list per trace column.

    Steps are added by keyword (:meth:`add`); :attr:`columns` holds the lists
    (``project``, ``impact_id`` and :data:`STEP_FIELDS`), read by the trace table.
    """

    def __init__(self) -> None:
        self.columns: dict[str, list[Any]] = {c: [] for c in _COLUMNS}

    def __len__(self) -> int:
        return len(self.columns["project"])

    def add(
        self,
        *,
        project: Hashable,
        impact_id: Hashable,
        rule_id: str,
        citation: str,
        outcome: str,
        value: float | None,
        reason: str,
        verify: Sequence[str] = (),
        inputs: Mapping[str, Any] = _EMPTY,
        parameters: Mapping[str, Any] = _EMPTY,
    ) -> None:
        """Append one step."""
        cols = self.columns
        cols["project"].append(project)
        cols["impact_id"].append(impact_id)
        cols["rule_id"].append(rule_id)
        cols["citation"].append(citation)
        cols["outcome"].append(outcome)
        cols["value"].append(value)
        cols["reason"].append(reason)
        cols["verify"].append(verify)
        cols["inputs"].append(inputs)
        cols["parameters"].append(parameters)


@dataclass
class ImpactTable:
    """The facts of the assessed rows, grouped by project, and their screening steps.

    Attributes
    ----------
    groups : dict
        Project to its impacts' :class:`ImpactFacts`, in row order.
    row_of : dict
        ``(project, impact key)`` to the row's index label.
    steps : FactSteps
        The ``facts.*`` steps (and any extra steps given), row by row.
    oversized : list of str
        Keys of the impacts larger than their wetland's ``wetland_acres``.
    """

    groups: dict[str, list[ImpactFacts]] = field(default_factory=dict)
    row_of: dict[tuple[Hashable, Hashable], Hashable] = field(default_factory=dict)
    steps: FactSteps = field(default_factory=FactSteps)
    oversized: list[str] = field(default_factory=list)


def _read(values: Iterable[Any], reader: Callable[[Any], Any]) -> list[Any]:
    """Return ``reader`` of each value, each distinct value read once."""
    cache: dict[tuple[type, Any], Any] = {}
    out = []
    for v in values:
        try:
            key = (v.__class__, v)
            r = cache[key]
        except KeyError:
            r = cache[key] = reader(v)
        except TypeError:  # unhashable
            r = reader(v)
        out.append(r)
    return out


def _impact_kind(value: Any) -> tuple[ImpactKind, str | None]:
    """Read the impact kind cell; an unknown word is decided as a drain or fill."""
    text = read_text(value)
    if text is None:
        return ImpactKind.UNKNOWN, None
    kind = _IMPACT_KINDS.get(text.strip().lower())
    if kind is None:
        return ImpactKind.UNKNOWN, (
            f"impact kind {text!r} is not fill, drain or excavate: it was decided as a drain "
            "or fill"
        )
    return kind, None


def _types_of(label: str) -> tuple[WetlandType, ...]:
    return tuple(WetlandType(int(t)) for t in str(label).split("/"))


def _share(value: float | None, kind: ImpactKind, partial: Any) -> float | None:
    """Return the TEP-assessed share of a partial drain, or None (not a partial drain)."""
    if value is None or kind is not ImpactKind.DRAIN or read_flag(partial) is not True:
        return None
    # a share outside 0-1 is not a share: unknown, so the rule's minimum is counted and an
    # answer that depends on it is conditional (the engine says so)
    return value if 0 < value <= 1 else None


def _layer_notes(ids_by_column: Sequence[Any], kind: ImpactKind) -> dict[str, str]:
    """Return the verify items of the context layers an impact touches, by impact column.

    A layer's item (:attr:`~wetland_gis.context_layers.LayerSpec.verify_note`) applies
    when the impact's id column lists features (``""``: none; None: layer not given,
    which the manifest records) and the impact kind is one of its ``verify_kinds``.
    """
    notes = {}
    for spec, column, ids in zip(_NOTE_SPECS, NOTE_COLUMNS, ids_by_column, strict=True):
        if not isinstance(ids, str) or not ids:
            continue
        if spec.verify_kinds and kind.value not in spec.verify_kinds:
            continue
        notes[column] = spec.verify_note.format(ids=ids)
    return notes


def _known(value: Any) -> bool | None:
    return None if pd.isna(value) else bool(value)


def impact_facts(
    gdf: pd.DataFrame,
    field_map: FieldMapping,
    rows: Sequence[Hashable],
    keys: Mapping[Hashable, str],
    projects: Mapping[Hashable, str],
    params: ParameterSet,
    as_of: dt.date,
    *,
    assume_no_public_waters: bool = False,
    fen_review_ft: float | None = None,
    fens_near: pd.Series | None = None,
    extra_steps: Mapping[Hashable, list[tuple]] | None = None,
) -> ImpactTable:
    """Return the facts of the rows ``rows`` of the classified layer, with their steps.

    Parameters
    ----------
    gdf : DataFrame
        The classified layer (its geometric and type columns, and the fact columns).
    field_map : FieldMapping
        The column of each field role.
    rows : sequence
        Index labels of the assessed rows, in order.
    keys, projects : mapping
        Each row's impact key (unique in its project) and project.
    params : ParameterSet
        The parameter tree.
    as_of : date
        The application date.
    assume_no_public_waters : bool, default False
        The user placed impacts outside the zone without public waters layers.
    fen_review_ft : float, optional
        The fen review distance; with ``fens_near`` (per row: within it of a fen).
    extra_steps : mapping, optional
        Per row, steps to add after its screening steps (tuples of :data:`STEP_FIELDS`).

    Returns
    -------
    ImpactTable
    """
    out = ImpactTable()
    n = len(rows)
    sub = gdf.loc[list(rows)] if n != len(gdf) else gdf

    def col(name: str | None) -> list[Any]:
        return [None] * n if name is None else sub[name].tolist()

    def role(name: str) -> list[Any]:
        return col(getattr(field_map, name))

    labels = col("wetland_type")
    types_col = _read(labels, _types_of)
    kinds = _read(role("impact_kind"), _impact_kind)
    acres_col = _read(role("wetland_acres"), read_number)
    partial_raw = role("partial")
    shares = _read(role("partial_share"), read_number)
    incorporated = [_known(v) for v in col("incorporated")]
    cedar = [bool(v) for v in col("cedar_tamarack")]
    metro = [bool(v) for v in col("metro")]
    pct_col = _read(col("pct_class"), PercentageArea)
    setback = [float(v or 0.0) for v in col("sqft_setback")]
    protection = [float(v or 0.0) for v in col("sqft_protection")]
    outside = [float(v or 0.0) for v in col("sqft_outside")]
    zone_col = col("zone")
    fen_raw = col("calcareous_fen")
    fen_col = _read(fen_raw, read_flag)
    nearest_ft = col("nearest_pw_ft")
    nearest = col("nearest_pw")
    on_nwi = [(read_text(v) or "").lower() == "nwi" for v in role("wetland_source")]
    type_verify = col("type_verify")
    type_note = col("type_note")
    county = [None if pd.isna(v) else str(v) for v in col("county")]
    note_ids = list(zip(*(col(c) for c in NOTE_COLUMNS), strict=True)) if NOTE_COLUMNS else []
    near_fen = (
        [False] * n
        if fens_near is None
        else [bool(v) for v in fens_near.reindex(list(rows), fill_value=False).tolist()]
    )
    acres_column = field_map.wetland_acres or "wetland_ac"
    # § 103G.201: the inventory ids from the impact's column, else from the inventory layer
    # (the ids of the inventoried wetlands the impact touches; "" none, None no layer)
    given_ids = _read(role("pw_inventory_id"), read_text)
    layer_raw = col("pw_wetland") if "pw_wetland" in sub else [None] * n
    layer_ids = _read(layer_raw, read_text)
    inventory_given = [isinstance(v, str) for v in layer_raw]
    no_waters_note = no_public_waters_layer_verify(params, as_of) if assume_no_public_waters else ""

    wtypes: list[WetlandType] = []
    pwws: list[bool] = []
    below: list[bool | None] = []
    partial: list[bool] = []
    share: list[float | None] = []
    pww_seen: dict[tuple, Any] = {}
    mixed_seen: dict[tuple, tuple[WetlandType, str | None]] = {}
    steps = out.steps
    for i, idx in enumerate(rows):
        project, key = projects[idx], keys[idx]
        types = types_col[i]
        if len(types) == 1:
            wtype, mixed_note = types[0], None
        else:
            touched = tuple(
                z
                for z, a in zip(_ZONE_COLUMNS, (setback[i], protection[i], outside[i]), strict=True)
                if a > 0
            )
            touched_zones = tuple(z for z, _ in touched) or (
                _ZONE_OF.get(zone_col[i], ShorelandZone.OUTSIDE),
            )
            mkey = (types, touched_zones, pct_col[i], metro[i], cedar[i])
            if mkey not in mixed_seen:
                mixed_seen[mkey] = governing_type(
                    types, touched_zones, pct_col[i], metro[i], cedar[i], params, as_of
                )
            wtype, mixed_note = mixed_seen[mkey]
        acres = acres_col[i]
        pww_key = (types, acres, incorporated[i])
        pww = pww_seen.get(pww_key)
        if pww is None:  # the same facts give the same screen: decided once
            pww = pww_seen[pww_key] = public_waters_wetland_screen(
                types, acres, incorporated[i], params=params, as_of=as_of
            )
        overruled = False
        if inventory_given[i] and not (given_ids[i] or layer_ids[i]):
            # the inventory layer decides (§ 103G.201); the size test is only the fallback
            overruled = pww.outcome is not Outcome.CLASSIFIED
            pww = unlisted_by_inventory(pww)
        if mixed_note:
            steps.add(
                project=project,
                impact_id=key,
                rule_id=R.FACTS_WETLAND_TYPE,
                citation=MIXED_TYPE_CITATION,
                outcome=Outcome.CLASSIFIED.value,
                value=float(int(wtype)),
                reason=mixed_note,
                verify=[mixed_note],
                inputs={"types": [int(t) for t in types]},
                parameters={},
            )
        if pww.outcome is not Outcome.CLASSIFIED or len(pww.verify) > 1 or overruled:
            steps.add(
                project=project,
                impact_id=key,
                rule_id=R.FACTS_PUBLIC_WATERS_WETLAND,
                citation="; ".join(pww.citations),
                outcome=pww.outcome.value,
                value=None,
                reason=" ".join(pww.reasons),
                verify=list(pww.verify),
                inputs={
                    "types": [int(t) for t in types],
                    "wetland_acres": acres,
                    "incorporated": incorporated[i],
                },
                parameters=dict(pww.parameters),
            )
        kind, kind_note = kinds[i]
        verify = [NWI_SCREENING_VERIFY] if on_nwi[i] else []
        if type_verify[i]:
            verify.append(f"wetland type: {type_note[i] or 'verify in the field'}")
        near_ft = nearest_ft[i]
        if assume_no_public_waters and pd.isna(near_ft):
            verify.append(no_waters_note)
        if kind_note:
            verify.append(kind_note)
        oversize = impact_exceeds_wetland(
            setback[i] + protection[i] + outside[i], _nonneg(acres), column=acres_column
        )
        if oversize:
            verify.append(oversize)
            out.oversized.append(str(key))
        # on or waterward of the OHWL of a public water: the engine routes a fill or an
        # excavation to the public-waters-work permit (§ 103G.245, subd. 1(2))
        if pd.isna(near_ft):
            below.append(None)
        else:
            below.append(bool(near_ft == 0))
            verify.append(WATERCOURSE_OHWL_VERIFY)
        if pd.isna(fen_raw[i]):
            verify.append(NO_FEN_LAYER_VERIFY)
        elif near_fen[i] and fen_col[i] is not True and fen_review_ft is not None:
            verify.append(fen_review_verify(fen_review_ft))
        notes = _layer_notes(note_ids[i], kind) if note_ids else {}
        verify.extend(notes.values())
        if verify:
            inputs = {"nearest_pw": None if pd.isna(nearest[i]) else str(nearest[i])}
            inputs.update(
                (column, str(ids))
                for column, ids in zip(NOTE_COLUMNS, note_ids[i], strict=True)
                if column in notes
            )
            steps.add(
                project=project,
                impact_id=key,
                rule_id=R.FACTS_CONTEXT,
                citation="",
                outcome=Outcome.CLASSIFIED.value,
                value=None,
                reason="What the screen could not know from the layers.",
                verify=verify,
                inputs=inputs,
                parameters={},
            )
        if extra_steps:  # e.g. the register's facts (wetland_gis.register.fill)
            for step in extra_steps.get(idx, ()):
                steps.add(
                    project=project, impact_id=key, **dict(zip(STEP_FIELDS, step, strict=True))
                )
        wtypes.append(wtype)
        pwws.append(pww.outcome is Outcome.OUT_OF_SCOPE)
        is_partial = kind is ImpactKind.DRAIN and read_flag(partial_raw[i]) is True
        partial.append(is_partial)
        share.append(_share(shares[i], kind, partial_raw[i]))

    columns: dict[str, list[Any]] = {
        "impact_id": [keys[idx] for idx in rows],
        "wetland_type": wtypes,
        "cedar_tamarack": cedar,
        "sqft_setback": setback,
        "sqft_protection": protection,
        "sqft_outside": outside,
        "pct_class": pct_col,
        "metro": metro,
        "calcareous_fen": [v is True for v in fen_col],
        "public_waters_wetland": pwws,
        "impact_kind": [k for k, _ in kinds],
        "partial": partial,
        "wetland_acres": [_nonneg(a) for a in acres_col],
        "incorporated": incorporated,
        "partial_share": share,
        "below_ohwl": below,
        "county": county,
    }
    columns["pw_inventory_id"] = [g or w for g, w in zip(given_ids, layer_ids, strict=True)]
    for name, role_name, reader in ROLE_FACTS:
        column = getattr(field_map, role_name)
        columns[name] = (
            [reader(None)] * n if column is None else _read(sub[column].tolist(), reader)
        )
    groups, row_of = out.groups, out.row_of
    for idx, facts in zip(rows, ImpactFacts.from_columns(columns), strict=True):
        project = projects[idx]
        groups.setdefault(project, []).append(facts)
        row_of[(project, facts.impact_id)] = idx
    return out
