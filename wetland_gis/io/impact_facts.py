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
from wetland_gis.rules import ImpactFacts, registry as R
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
from wetland_gis.rules.trace import TRACE_COLUMNS, TraceLog


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

#: The fields of a trace step after ``project``, ``impact_id`` and ``seq``: the trace
#: schema's (:data:`wetland_gis.rules.trace.TRACE_COLUMNS`), stated there once. The
#: register's steps are tuples in this order (:func:`wetland_gis.register.fill.fill_from_register`).
STEP_FIELDS = TRACE_COLUMNS[TRACE_COLUMNS.index("seq") + 1 :]

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


class FactSteps(TraceLog):
    """The screening steps of a run: a :class:`~wetland_gis.rules.trace.TraceLog`.

    Steps are added by keyword (:meth:`add`, the trace schema stated once, in the rules
    core); :attr:`columns` holds the lists (``project``, ``impact_id``, ``seq`` and
    :data:`STEP_FIELDS`), read by the trace table.
    """


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


@dataclass
class _Layer:
    """The columns of the assessed rows that the facts are built from, each read once."""

    n: int
    types: list[tuple[WetlandType, ...]]
    kinds: list[tuple[ImpactKind, str | None]]
    acres: list[float | None]
    partial_raw: list[Any]
    shares: list[float | None]
    incorporated: list[bool | None]
    cedar: list[bool]
    metro: list[bool]
    pct: list[PercentageArea]
    setback: list[float]
    protection: list[float]
    outside: list[float]
    zone: list[Any]
    fen_raw: list[Any]
    fen: list[bool | None]
    nearest_ft: list[Any]
    nearest: list[Any]
    on_nwi: list[bool]
    type_verify: list[Any]
    type_note: list[Any]
    county: list[str | None]
    note_ids: list[tuple[Any, ...]]
    near_fen: list[bool]
    given_ids: list[str | None]
    layer_ids: list[str | None]
    inventory_given: list[bool]


def _read_layer(
    sub: pd.DataFrame,
    field_map: FieldMapping,
    rows: Sequence[Hashable],
    fens_near: pd.Series | None,
) -> _Layer:
    """Read the columns of the rows ``sub`` the facts are built from."""
    n = len(rows)

    def col(name: str | None) -> list[Any]:
        return [None] * n if name is None else sub[name].tolist()

    def role(name: str) -> list[Any]:
        return col(getattr(field_map, name))

    # § 103G.201: the inventory ids from the impact's column, else from the inventory layer
    # (the ids of the inventoried wetlands the impact touches; "" none, None no layer)
    layer_raw = col("pw_wetland") if "pw_wetland" in sub else [None] * n
    fen_raw = col("calcareous_fen")
    return _Layer(
        n=n,
        types=_read(col("wetland_type"), _types_of),
        kinds=_read(role("impact_kind"), _impact_kind),
        acres=_read(role("wetland_acres"), read_number),
        partial_raw=role("partial"),
        shares=_read(role("partial_share"), read_number),
        incorporated=[_known(v) for v in col("incorporated")],
        cedar=[bool(v) for v in col("cedar_tamarack")],
        metro=[bool(v) for v in col("metro")],
        pct=_read(col("pct_class"), PercentageArea),
        setback=[float(v or 0.0) for v in col("sqft_setback")],
        protection=[float(v or 0.0) for v in col("sqft_protection")],
        outside=[float(v or 0.0) for v in col("sqft_outside")],
        zone=col("zone"),
        fen_raw=fen_raw,
        fen=_read(fen_raw, read_flag),
        nearest_ft=col("nearest_pw_ft"),
        nearest=col("nearest_pw"),
        on_nwi=[(read_text(v) or "").lower() == "nwi" for v in role("wetland_source")],
        type_verify=col("type_verify"),
        type_note=col("type_note"),
        county=[None if pd.isna(v) else str(v) for v in col("county")],
        note_ids=list(zip(*(col(c) for c in NOTE_COLUMNS), strict=True)) if NOTE_COLUMNS else [],
        near_fen=(
            [False] * n
            if fens_near is None
            else [bool(v) for v in fens_near.reindex(list(rows), fill_value=False).tolist()]
        ),
        given_ids=_read(role("pw_inventory_id"), read_text),
        layer_ids=_read(layer_raw, read_text),
        inventory_given=[isinstance(v, str) for v in layer_raw],
    )


class _Screen:
    """The screening questions of one row, each distinct set of facts decided once."""

    def __init__(self, layer: _Layer, params: ParameterSet, as_of: dt.date) -> None:
        self.layer, self.params, self.as_of = layer, params, as_of
        self.pww_seen: dict[tuple, Any] = {}
        self.mixed_seen: dict[tuple, tuple[WetlandType, str | None]] = {}

    def wetland_type(self, i: int) -> tuple[WetlandType, str | None]:
        """Return the type a row is decided as, and the note of a mixed-type wetland."""
        lay, types = self.layer, self.layer.types[i]
        if len(types) == 1:
            return types[0], None
        areas = (lay.setback[i], lay.protection[i], lay.outside[i])
        touched = tuple(z for z, a in zip(_ZONE_COLUMNS, areas, strict=True) if a > 0)
        touched_zones = tuple(z for z, _ in touched) or (
            _ZONE_OF.get(lay.zone[i], ShorelandZone.OUTSIDE),
        )
        mkey = (types, touched_zones, lay.pct[i], lay.metro[i], lay.cedar[i])
        if mkey not in self.mixed_seen:
            self.mixed_seen[mkey] = governing_type(
                types,
                touched_zones,
                lay.pct[i],
                lay.metro[i],
                lay.cedar[i],
                self.params,
                self.as_of,
            )
        return self.mixed_seen[mkey]

    def public_waters(self, i: int) -> tuple[Any, bool]:
        """Return a row's public waters wetland screen, and whether the inventory overruled it."""
        lay = self.layer
        pww_key = (lay.types[i], lay.acres[i], lay.incorporated[i])
        pww = self.pww_seen.get(pww_key)
        if pww is None:  # the same facts give the same screen: decided once
            pww = self.pww_seen[pww_key] = public_waters_wetland_screen(
                *pww_key, params=self.params, as_of=self.as_of
            )
        overruled = False
        if lay.inventory_given[i] and not (lay.given_ids[i] or lay.layer_ids[i]):
            # the inventory layer decides (§ 103G.201); the size test is only the fallback
            overruled = pww.outcome is not Outcome.CLASSIFIED
            pww = unlisted_by_inventory(pww)
        return pww, overruled


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
    counties: Mapping[Hashable, Any] | None = None,
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
    counties : mapping, optional
        Per row (index label), the counties an impact lies in where the classification
        lists its parts (a tuple of names, largest share first; ``None`` otherwise): the
        classification's ``county_names``. They go, as data, into the inputs of the row's
        ``facts.context`` step (``counties``), where the report reads them.

    Returns
    -------
    ImpactTable
    """
    out = ImpactTable()
    sub = gdf.loc[list(rows)] if len(rows) != len(gdf) else gdf
    lay = _read_layer(sub, field_map, rows, fens_near)
    screen = _Screen(lay, params, as_of)
    context = _ContextNotes(
        lay,
        field_map.wetland_acres or "wetland_ac",
        no_public_waters_layer_verify(params, as_of) if assume_no_public_waters else None,
        fen_review_ft,
    )
    decided: dict[str, list[Any]] = {"wetland_type": [], "public_waters_wetland": []}
    for i, idx in enumerate(rows):
        project, key = projects[idx], keys[idx]
        wtype, mixed_note = screen.wetland_type(i)
        pww, overruled = screen.public_waters(i)
        if mixed_note:
            out.steps.add(**_mixed_type_step(project, key, lay.types[i], wtype, mixed_note))
        if pww.outcome is not Outcome.CLASSIFIED or len(pww.verify) > 1 or overruled:
            out.steps.add(**_public_waters_step(project, key, lay, i, pww))
        verify = context.verify(i, key, out.oversized)
        names = counties.get(idx) if counties is not None else None
        if verify or isinstance(names, tuple):
            out.steps.add(**context.step(project, key, i, verify, names))
        if extra_steps:  # e.g. the register's facts (wetland_gis.register.fill)
            for step in extra_steps.get(idx, ()):
                out.steps.add(
                    project=project, impact_id=key, **dict(zip(STEP_FIELDS, step, strict=True))
                )
        decided["wetland_type"].append(wtype)
        decided["public_waters_wetland"].append(pww.outcome is Outcome.OUT_OF_SCOPE)
    columns = _fact_columns(lay, [keys[idx] for idx in rows], decided, context.below)
    for name, role_name, reader in ROLE_FACTS:
        column = getattr(field_map, role_name)
        columns[name] = (
            [reader(None)] * lay.n if column is None else _read(sub[column].tolist(), reader)
        )
    for idx, facts in zip(rows, ImpactFacts.from_columns(columns), strict=True):
        project = projects[idx]
        out.groups.setdefault(project, []).append(facts)
        out.row_of[(project, facts.impact_id)] = idx
    return out


def _mixed_type_step(
    project: Hashable, key: Hashable, types: tuple[WetlandType, ...], wtype: WetlandType, note: str
) -> dict[str, Any]:
    """Return the ``facts.wetland_type`` step of a mixed-type wetland (its governing type)."""
    return {
        "project": project,
        "impact_id": key,
        "rule_id": R.FACTS_WETLAND_TYPE,
        "citation": MIXED_TYPE_CITATION,
        "outcome": Outcome.CLASSIFIED.value,
        "value": float(int(wtype)),
        "reason": note,
        "verify": [note],
        "inputs": {"types": [int(t) for t in types]},
        "parameters": {},
    }


def _public_waters_step(
    project: Hashable, key: Hashable, lay: _Layer, i: int, pww: Any
) -> dict[str, Any]:
    """Return the ``facts.public_waters_wetland`` step of a row's screen."""
    return {
        "project": project,
        "impact_id": key,
        "rule_id": R.FACTS_PUBLIC_WATERS_WETLAND,
        "citation": "; ".join(pww.citations),
        "outcome": pww.outcome.value,
        "value": None,
        "reason": " ".join(pww.reasons),
        "verify": list(pww.verify),
        "inputs": {
            "types": [int(t) for t in lay.types[i]],
            "wetland_acres": lay.acres[i],
            "incorporated": lay.incorporated[i],
        },
        "parameters": dict(pww.parameters),
    }


class _ContextNotes:
    """What the screen could not know from the layers, row by row (``facts.context``).

    Also records, per row, whether the impact is on or waterward of the OHWL of a public
    water (:attr:`below`): the engine routes a fill or an excavation there to the
    public-waters-work permit (§ 103G.245, subd. 1(2)).
    """

    def __init__(
        self,
        layer: _Layer,
        acres_column: str,
        no_waters_note: str | None,
        fen_review_ft: float | None,
    ) -> None:
        self.layer, self.acres_column = layer, acres_column
        self.no_waters_note, self.fen_review_ft = no_waters_note, fen_review_ft
        self.below: list[bool | None] = []
        self.notes: dict[str, str] = {}

    def verify(self, i: int, key: Hashable, oversized: list[str]) -> list[str]:
        """Return the verify items of row ``i``; an oversized impact's key goes in ``oversized``."""
        lay = self.layer
        kind, kind_note = lay.kinds[i]
        verify = [NWI_SCREENING_VERIFY] if lay.on_nwi[i] else []
        if lay.type_verify[i]:
            verify.append(f"wetland type: {lay.type_note[i] or 'verify in the field'}")
        near_ft = lay.nearest_ft[i]
        if self.no_waters_note is not None and pd.isna(near_ft):
            verify.append(self.no_waters_note)
        if kind_note:
            verify.append(kind_note)
        oversize = impact_exceeds_wetland(
            lay.setback[i] + lay.protection[i] + lay.outside[i],
            _nonneg(lay.acres[i]),
            column=self.acres_column,
        )
        if oversize:
            verify.append(oversize)
            oversized.append(str(key))
        if pd.isna(near_ft):
            self.below.append(None)
        else:
            self.below.append(bool(near_ft == 0))
            verify.append(WATERCOURSE_OHWL_VERIFY)
        if pd.isna(lay.fen_raw[i]):
            verify.append(NO_FEN_LAYER_VERIFY)
        elif lay.near_fen[i] and lay.fen[i] is not True and self.fen_review_ft is not None:
            verify.append(fen_review_verify(self.fen_review_ft))
        self.notes = _layer_notes(lay.note_ids[i], kind) if lay.note_ids else {}
        verify.extend(self.notes.values())
        return verify

    def step(
        self,
        project: Hashable,
        key: Hashable,
        i: int,
        verify: list[str],
        counties: tuple[str, ...] | None = None,
    ) -> dict[str, Any]:
        """Return the ``facts.context`` step of row ``i`` (after :meth:`verify` of it).

        ``counties`` (the counties the impact lies in, largest share first, where the
        classification lists its parts) go in the inputs as a list.
        """
        nearest = self.layer.nearest[i]
        inputs: dict[str, Any] = {"nearest_pw": None if pd.isna(nearest) else str(nearest)}
        if counties is not None:
            inputs["counties"] = list(counties)
        inputs.update(
            (column, str(ids))
            for column, ids in zip(NOTE_COLUMNS, self.layer.note_ids[i], strict=True)
            if column in self.notes
        )
        return {
            "project": project,
            "impact_id": key,
            "rule_id": R.FACTS_CONTEXT,
            "citation": "",
            "outcome": Outcome.CLASSIFIED.value,
            "value": None,
            "reason": (
                "What the screen could not know from the layers."
                if verify
                else "Where the impact is: the counties it lies in."
            ),
            "verify": verify,
            "inputs": inputs,
            "parameters": {},
        }


def _fact_columns(
    lay: _Layer, ids: list[Any], decided: Mapping[str, list[Any]], below: list[bool | None]
) -> dict[str, list[Any]]:
    """Return the :class:`ImpactFacts` columns read from the layer and decided per row."""
    partial = [
        kind is ImpactKind.DRAIN and read_flag(raw) is True
        for (kind, _), raw in zip(lay.kinds, lay.partial_raw, strict=True)
    ]
    share = [
        _share(value, kind, raw)
        for value, (kind, _), raw in zip(lay.shares, lay.kinds, lay.partial_raw, strict=True)
    ]
    return {
        "impact_id": ids,
        "wetland_type": decided["wetland_type"],
        "cedar_tamarack": lay.cedar,
        "sqft_setback": lay.setback,
        "sqft_protection": lay.protection,
        "sqft_outside": lay.outside,
        "pct_class": lay.pct,
        "metro": lay.metro,
        "calcareous_fen": [v is True for v in lay.fen],
        "public_waters_wetland": decided["public_waters_wetland"],
        "impact_kind": [k for k, _ in lay.kinds],
        "partial": partial,
        "wetland_acres": [_nonneg(a) for a in lay.acres],
        "incorporated": lay.incorporated,
        "partial_share": share,
        "below_ohwl": below,
        "county": lay.county,
        "pw_inventory_id": [g or w for g, w in zip(lay.given_ids, lay.layer_ids, strict=True)],
    }
