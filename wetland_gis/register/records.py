"""Decisions into and out of the register, and the annual summary.

Decisions come from an assessed GeoPackage or from a CSV of past decisions, and go back
out as a GeoPackage or CSV.

Every value of a CSV row is read with :mod:`wetland_gis.io.values` (the one parser), and
a bad value is an error naming the file, the row and the fix. Text is data: it is stored
and written back as given; a CSV cell that a spreadsheet would take for a formula is
written with a leading apostrophe (:mod:`wetland_gis.io.csv_cells`), undone on import.
"""

from __future__ import annotations

import datetime as dt
import html
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from wetland_gis.errors import InputError, ValueParseError
from wetland_gis.io.checksums import file_sha256
from wetland_gis.io.csv_cells import restore_frame
from wetland_gis.io.trace_store import PROJECT_RULES_SHOWN, is_not_tried
from wetland_gis.io.values import (
    is_blank,
    normalise_key,
    parse_bool,
    parse_date as parse_value_date,
    parse_id,
    parse_number,
)
from wetland_gis.parameters import ParameterSet
from wetland_gis.register.schema import DECISION_KINDS, KIND_CITATIONS, SRID
from wetland_gis.register.store import (
    CreditRecord,
    DecisionRecord,
    ImpactRecord,
    Register,
    RegisterError,
)
from wetland_gis.register.validity import (
    DETERMINATION,
    check_valid_until,
    determination_end,
)
from wetland_gis.units import SQFT_PER_ACRE

#: Columns of the CSV of past decisions (one dated impact a row). ``decision`` groups
#: rows into one decision (rows without it are one decision each); ``geometry_wkt`` is
#: the impact's polygon in EPSG:26915; ``parcel_id`` the county parcel id (PIN) the impact
#: lies on (schema version 2; optional, a CSV without the column imports as before).
_DECISION_WHO = (
    "kind",
    "decision_date",
    "lgu",
    "recorded_by",
    "landowner",
    "wetland_id",
    "parcel_id",
    "project",
)
_IMPACT_FIELDS = (
    "impact_date",
    "area_sqft",
    "wetland_type",
    "impact_kind",
    "outcome",
    "exemption",
    "replace_acres",
)
_DECISION_TERMS = ("valid_until", "supersedes", "determined_type", "banked", "used_for_credit")
_CREDIT_FIELDS = ("bank", "account", "credits_acres")
CSV_COLUMNS = (
    "decision",
    *_DECISION_WHO,
    "impact_id",
    *_IMPACT_FIELDS,
    *_DECISION_TERMS,
    *_CREDIT_FIELDS,
    "note",
    "geometry_wkt",
)
_REQUIRED = ("kind", "decision_date", "lgu", "recorded_by")
_KIND_ALIASES = {
    "boundary_determination": "boundary_type_determination",
    "type_determination": "boundary_type_determination",
    "boundary_or_type_determination": "boundary_type_determination",
    "no-loss": "no_loss",
    "replacement_plan": "replacement_plan_approved",
}
_EXPORT_ONLY = ("decision_uid", "superseded_by")


def parse_date(value: Any, what: str = "date") -> dt.date | None:
    """Return a ``YYYY-MM-DD`` value (or a date) as a date; blank is None.

    :func:`wetland_gis.io.values.parse_date`, with the error naming ``what``.

    Raises
    ------
    ValueParseError
        When the value is not a date written ``YYYY-MM-DD``.
    """
    try:
        return parse_value_date(value)
    except ValueParseError:
        raise ValueParseError(
            f"{what} {str(value)[:40]!r} is not a date; write it YYYY-MM-DD"
        ) from None


def default_valid_until(
    kind: str, decision_date: dt.date, params: ParameterSet | None = None
) -> tuple[dt.date | None, str | None]:
    """Return the end of a decision's validity where the law gives one, with its citation.

    A boundary or type determination is valid for the years of
    ``procedure.determination_validity_years`` (§ 103G.2242, subd. 2a(d)); the law gives
    no period for the other kinds (None: give ``valid_until`` if the LGU set one).

    Examples
    --------
    >>> default_valid_until("boundary_type_determination", dt.date(2020, 6, 1))
    (datetime.date(2025, 6, 1), 'Minn. Stat. § 103G.2242, subd. 2a(d)')
    >>> default_valid_until("exemption", dt.date(2020, 6, 1))
    (None, None)
    """
    if kind != DETERMINATION:
        return None, None
    end, cite = determination_end(decision_date, params)
    return end, (cite if end is not None else None)


def _trace_citations(trace: pd.DataFrame | None) -> list[str]:
    """Return the citations of the decision's trace: one per step, as the engine wrote them.

    Read from the trace's ``citation`` column (data), never split from the impacts'
    rendered ``citations`` text: the steps of each impact and the project steps an impact
    shows (:data:`~wetland_gis.io.trace_store.PROJECT_RULES_SHOWN`), without the exemptions
    not tried. No trace (a file written before it): none.
    """
    if trace is None or not len(trace):
        return []
    return [
        str(cite)
        for rule, outcome, cite, impact in zip(
            trace["rule_id"], trace["outcome"], trace["citation"], trace["impact_id"], strict=True
        )
        if isinstance(cite, str)
        and cite
        and not is_not_tried(rule, outcome)
        and (impact != "" or rule in PROJECT_RULES_SHOWN)
    ]


def _text(value: Any) -> str | None:
    return None if is_blank(value) else str(value)


def _kind(value: Any) -> str:
    key = normalise_key(value, _KIND_ALIASES)
    if key not in DECISION_KINDS:
        raise ValueParseError(
            f"kind {str(value)[:40]!r} is not a decision kind; use one of {list(DECISION_KINDS)}"
        )
    return key


def decision_from_assessed(
    assessed: str | Path,
    *,
    kind: str,
    decision_date: dt.date | str,
    lgu: str,
    recorded_by: str,
    landowner: str | None = None,
    wetland_id: str | None = None,
    parcel_id: str | None = None,
    impact_date: dt.date | str | None = None,
    valid_until: dt.date | str | None = None,
    supersedes: str | None = None,
    determined_type: str | None = None,
    banked: bool | None = None,
    used_for_credit: bool | None = None,
    credits: Sequence[CreditRecord] = (),
    wetland_geometry: Any = None,
    note: str | None = None,
    params: ParameterSet | None = None,
) -> DecisionRecord:
    """Return the decision record of an assessed GeoPackage (output of ``assess``).

    Each assessed impact becomes an impact of the decision (its area, type, kind, outcome,
    exemption, replacement acres and geometry); the assessment's citations and decision
    trace and the SHA-256 of its manifest are kept with it. The landowner, wetland id and
    parcel id of an impact are those of its ``owner``, ``wetland_id`` and ``parcel_id``
    columns (the columns ``assess`` read for those roles), else the ones given.

    Parameters
    ----------
    assessed : str or Path
        The GeoPackage written by ``wetland-gis assess``.
    kind, decision_date, lgu, recorded_by, valid_until, supersedes, determined_type, \
banked, used_for_credit, note
        The decision fields (:class:`~wetland_gis.register.store.DecisionRecord`).
    landowner, wetland_id : str, optional
    parcel_id : str, optional
        The county parcel id (PIN) of the landowner's portion (§ 103G.2241, subd. 9(f)):
        the decision's, and each impact's where the layer has no parcel id for it. Without
        it, the decision's is the one parcel all its impacts lie on, if they agree.
    impact_date : date or str, optional
        The date of the impacts where the layer has no ``impact_date`` column.
    credits : sequence of CreditRecord
    wetland_geometry : shapely geometry, optional
        The wetland (EPSG:26915).
    params : ParameterSet, optional
        For the default validity of a determination.

    Returns
    -------
    DecisionRecord
    """
    from wetland_gis.io.assessed import read_assessed  # geopandas, when a file is read

    path = Path(assessed)
    data = read_assessed(path)
    gdf = data["impacts"]
    if gdf.crs is None or gdf.crs.to_epsg() != SRID:
        gdf = gdf.to_crs(SRID)
    manifest = data.get("manifest") or {}
    fields = (manifest.get("settings") or {}).get("fields") or {}
    day = parse_date(decision_date, "decision date")
    assert day is not None
    kind = _kind(kind)
    until = check_valid_until(kind, day, parse_date(valid_until, "valid until"), params)
    default_impact_date = parse_date(impact_date, "impact date")
    stem = path.with_suffix("")
    manifest_file = Path(f"{stem}_manifest.json")
    sha = file_sha256(manifest_file) if manifest_file.exists() else None

    def col(role: str, fallback: str) -> str | None:
        name = fields.get(role) or fallback
        return name if name in gdf else None

    id_col = col("impact_id", "impact_id") or "wg_row"
    owner_col, wetland_col, kind_col, parcel_col = (
        col("owner", "owner"),
        col("wetland_id", "wetland_id"),
        col("impact_kind", "impact_kind"),
        col("parcel_id", "parcel_id"),
    )
    parcel_id = parse_id(parcel_id)
    trace = data.get("trace")
    exempt_by = _exemptions_of(trace)
    records = []
    for _, row in gdf.iterrows():
        if row.get("status") != "assessed":
            continue
        # an exemption is recorded only where the impact was decided exempt: the de minimis
        # outcome, or an exemption step of the trace whose outcome is "exempt" (an
        # "eligible" step of an impact that still needs replacement is not)
        iid = parse_id(row[id_col]) or ""
        exemption = None
        if row.get("outcome") == "de_minimis_exempt":
            exemption = "de_minimis"
        elif iid in exempt_by:
            exemption = exempt_by[iid]
        records.append(
            ImpactRecord(
                impact_id=iid,
                landowner=_text(row[owner_col]) if owner_col else landowner,
                wetland_id=parse_id(row[wetland_col]) if wetland_col else wetland_id,
                parcel_id=(parse_id(row[parcel_col]) if parcel_col else None) or parcel_id,
                impact_date=parse_date(row.get("impact_date"), "impact date")
                if "impact_date" in gdf
                else default_impact_date,
                area_sqft=float(row["area_sqft"]),
                wetland_type=_text(row.get("wetland_type")),
                impact_kind=_text(row[kind_col]) if kind_col else None,
                outcome=_text(row.get("outcome")),
                exemption=exemption,
                replace_acres=parse_number(row.get("replace_acres"), errors="coerce"),
                geometry=row.geometry,
            )
        )
    trace_rows = (
        [] if trace is None else trace.astype(object).where(trace.notna(), None).to_dict("records")
    )
    citations = sorted(set(_trace_citations(trace)) | {KIND_CITATIONS[kind]})
    projects = {str(p) for p in gdf.get("project", pd.Series(dtype=object)).dropna()}
    return DecisionRecord(
        parcel_id=parcel_id or _one_parcel(records),
        kind=kind,
        decision_date=day,
        lgu=lgu,
        recorded_by=recorded_by,
        valid_until=until,
        supersedes=supersedes,
        landowner=landowner,
        wetland_id=wetland_id,
        project="; ".join(sorted(projects)) or None,
        determined_type=determined_type,
        banked=banked,
        used_for_credit=used_for_credit,
        citations=citations,
        trace=trace_rows,
        manifest_sha256=sha,
        source=f"add {path.name}",
        note=note,
        geometry=wetland_geometry,
        impacts=records,
        credits=list(credits),
    )


def _one_parcel(impacts: Sequence[ImpactRecord]) -> str | None:
    """Return the one parcel id every impact gives, else None (none, or several)."""
    parcels = {i.parcel_id for i in impacts}
    return parcels.pop() if len(parcels) == 1 else None


#: The decision kind whose bank credits a siting run's plan can give.
SITING_CREDIT_KIND = "replacement_plan_approved"


def credits_from_siting(
    siting: str | Path, assessed: str | Path, *, kind: str = SITING_CREDIT_KIND
) -> tuple[list[CreditRecord], list[str]]:
    """Return the bank credits a ``site`` run allocated, one record per bank account.

    Parameters
    ----------
    siting : str or Path
        The folder ``wetland-gis site --out-dir`` wrote (``allocation.csv``,
        ``siting.gpkg``, ``siting_manifest.json``).
    assessed : str or Path
        The assessed GeoPackage the decision is added from: the siting must have been run
        on this very file (its SHA-256 in the siting manifest).
    kind : str, default "replacement_plan_approved"
        The decision's kind; only an approved replacement plan withdraws credits.

    Returns
    -------
    (list of CreditRecord, list of str)
        The credits (bank name and account from the siting's ``banks`` layer, credits
        summed over the impacts) and notes for the tally: the project-specific sites of
        the plan (not bank withdrawals) and the credits the plan left unmet.

    Raises
    ------
    RegisterError
        When the kind withdraws no credits, the folder is not a siting output, or the
        siting was run on another assessment; each message says what to do instead.
    """
    from wetland_gis.io.assessed import SITING_FILES, read_siting  # geopandas, as above

    folder, path = Path(siting), Path(assessed)
    if kind != SITING_CREDIT_KIND:
        raise RegisterError(
            f"--siting carries the bank credits of a replacement plan; a {kind} decision "
            f"withdraws none: give --kind {SITING_CREDIT_KIND}, or leave --siting out"
        )
    manifest_path = folder / SITING_FILES["manifest"]
    if not manifest_path.is_file():
        raise RegisterError(
            f"{folder} has no {SITING_FILES['manifest']}: it is not a folder written by "
            f"`wetland-gis site --out-dir`; run `wetland-gis site {path} ... --out-dir "
            f"{folder}` first"
        )
    try:
        manifest = json.loads(manifest_path.read_text("utf-8"))
    except ValueError as err:
        raise RegisterError(f"cannot read {manifest_path}: not valid JSON ({err})") from err
    sited = [i for i in manifest.get("inputs", []) if i.get("role") == "assessed impacts"]
    sha = file_sha256(path)
    if not sited or sited[0].get("sha256") != sha:
        was = sited[0].get("path") if sited else "an assessment it does not name"
        raise RegisterError(
            f"the siting in {folder} was run on {was}, not on {path} as it is now (its "
            f"SHA-256 differs): run `wetland-gis site {path} ... --out-dir {folder}` again, "
            "or give the credits with --bank, --account and --credits-acres"
        )
    read = read_siting(folder)
    plan = read["allocation"]
    notes: list[str] = []
    if plan is None or not len(plan):
        notes.append(f"the siting in {folder} allocated nothing: no credits recorded")
        return [], notes
    kind_col = plan["option_kind"].astype(str)
    banks = plan[kind_col == "bank"]
    names: dict[str, tuple[str, str]] = {}
    layer = read.get("banks")
    if layer is not None and len(layer):
        for row in layer.itertuples():
            names[str(row.option_id)] = (str(row.bank_name), str(row.account))
    credits = []
    for option, group in banks.groupby(banks["option_id"].astype(str), sort=True):
        bank, account = names.get(option, (option, option))
        credits.append(
            CreditRecord(
                bank=bank,
                account=account,
                credits_acres=round(float(pd.to_numeric(group["credits"]).sum()), 9),
            )
        )
    sites = sorted(set(plan.loc[kind_col == "site", "option_id"].astype(str)))
    if sites:
        notes.append(
            f"project-specific site(s) {', '.join(sites)} of the plan are not bank "
            "withdrawals: not recorded as credits"
        )
    unmet = read.get("unmet")
    if unmet is not None and len(unmet) and "credits_short" in unmet:
        short = float(pd.to_numeric(unmet["credits_short"], errors="coerce").sum())
        notes.append(
            f"the siting left {short:,.4f} credits (replacement acres) of {len(unmet)} "
            "impact(s) unmet: only the allocated credits are recorded"
        )
    return credits, notes


def _exemptions_of(trace: pd.DataFrame | None) -> dict[str, str]:
    """Return ``{impact_id: exemption}`` for the trace's exemption steps decided exempt."""
    if trace is None or not len(trace):
        return {}
    steps = trace[
        trace["rule_id"].astype(str).str.startswith("exemption.") & (trace["outcome"] == "exempt")
    ]
    return {
        str(i): str(r).removeprefix("exemption.")
        for i, r in zip(steps["impact_id"], steps["rule_id"], strict=True)
    }


def read_decisions_csv(
    path: str | Path, params: ParameterSet | None = None
) -> list[DecisionRecord]:
    """Read a CSV of past decisions, one dated impact a row (:data:`CSV_COLUMNS`).

    Rows with the same ``decision`` value are one decision (their decision fields must
    agree); a row without it is a decision of its own. A row may carry no impact (a
    determination): leave ``impact_id`` and ``area_sqft`` blank.

    Raises
    ------
    InputError
        Naming the file, the row (as a spreadsheet numbers it: the header is row 1), the
        column and the fix.
    """
    path = Path(path)
    frame = _decisions_frame(path)
    groups: dict[str, dict[str, Any]] = {}
    for n, raw in enumerate(frame.to_dict("records"), start=2):
        row = _CsvRow(path, n, {c: raw.get(c, "") for c in CSV_COLUMNS})
        fields = row.decision_fields(params)
        _add_to_decision(groups, row, fields, row.impact(fields), row.credit())
    return [_decision_of(g, path) for g in groups.values()]


def _decisions_frame(path: Path) -> pd.DataFrame:
    """Return the CSV's rows as text, its columns checked (an export's read back too)."""
    try:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError, pd.errors.ParserError) as exc:
        raise InputError(
            f"{path}: cannot be read as a UTF-8 CSV ({exc}); save it as CSV UTF-8"
        ) from None
    frame = restore_frame(frame)  # undo the formula quote of an export (io.csv_cells)
    frame.columns = [str(c).strip().lower() for c in frame.columns]
    # an export's own columns (decision_uid, superseded_by) are read back as information
    unknown = [c for c in frame.columns if c not in CSV_COLUMNS and c not in _EXPORT_ONLY]
    missing = [c for c in _REQUIRED if c not in frame.columns]
    if missing or unknown:
        raise InputError(
            f"{path}: missing column(s) {missing}, unknown column(s) {unknown[:10]}; the "
            f"columns are {list(CSV_COLUMNS)} (docs/register.md)"
        )
    return frame


#: The decision fields read as text, as written.
_TEXT_FIELDS = (
    "lgu",
    "recorded_by",
    "landowner",
    "supersedes",
    "determined_type",
    "note",
    "project",
)
_CIRCULAR_39 = frozenset(str(t) for t in range(1, 9))


class _CsvRow:
    """One row of a decisions CSV: its values read, every error naming the row and column."""

    def __init__(self, path: Path, n: int, row: dict[str, Any]) -> None:
        self.path, self.n, self.row = path, n, row

    def where(self, column: str) -> str:
        """Return where a value is: the file, the row as a spreadsheet numbers it, the column."""
        return f"{self.path}, row {self.n}, column {column!r}"

    def read(self, column: str, reader: Any) -> Any:
        """Return ``reader(value)`` of ``column``; its parse error as an input error."""
        try:
            return reader(self.row[column])
        except ValueParseError as exc:
            raise InputError(f"{self.where(column)}: {exc}") from None

    def decision_fields(self, params: ParameterSet | None) -> dict[str, Any]:
        """Return the decision's fields of this row (kind, dates, who, wetland, validity)."""
        for column in _REQUIRED:
            if is_blank(self.row[column]):
                raise InputError(f"{self.where(column)}: is blank; every row needs {column}")
        fields: dict[str, Any] = {
            "kind": self.read("kind", _kind),
            "decision_date": self.read("decision_date", lambda v: parse_date(v, "decision_date")),
            "valid_until": self.read("valid_until", lambda v: parse_date(v, "valid_until")),
            "banked": self.read("banked", parse_bool),
            "used_for_credit": self.read("used_for_credit", parse_bool),
        }
        fields.update({column: _text(self.row[column]) for column in _TEXT_FIELDS})
        try:
            fields["valid_until"] = check_valid_until(
                fields["kind"], fields["decision_date"], fields["valid_until"], params
            )
        except ValueParseError as exc:
            raise InputError(f"{self.where('valid_until')}: {exc}") from None
        fields["wetland_id"] = parse_id(self.row["wetland_id"])
        determined = fields["determined_type"]
        if determined is not None and determined.strip() not in _CIRCULAR_39:
            raise InputError(
                f"{self.where('determined_type')}: {determined[:40]!r} is not a "
                "Circular 39 type; write 1 to 8"
            )
        return fields

    def impact(self, fields: Mapping[str, Any]) -> ImpactRecord | None:
        """Return the row's impact, or None for a row without one (a determination)."""
        row = self.row
        if is_blank(row["impact_id"]) and is_blank(row["area_sqft"]):
            return None
        area = self.read("area_sqft", parse_number)
        replace = self.read("replace_acres", parse_number)
        day = self.read("impact_date", lambda v: parse_date(v, "impact_date"))
        if area is None or area < 0:
            raise InputError(
                f"{self.where('area_sqft')}: an impact needs its area in square feet, 0 or more"
            )
        if is_blank(row["impact_id"]):
            raise InputError(f"{self.where('impact_id')}: is blank; give the impact's id")
        return ImpactRecord(
            impact_id=parse_id(row["impact_id"]) or "",
            landowner=fields["landowner"],
            wetland_id=fields["wetland_id"],
            parcel_id=parse_id(row["parcel_id"]),
            impact_date=day,
            area_sqft=area,
            wetland_type=_text(row["wetland_type"]),
            impact_kind=normalise_key(row["impact_kind"]),
            outcome=normalise_key(row["outcome"]),
            exemption=_text(row["exemption"]),
            replace_acres=replace,
            geometry=self.polygon(),
        )

    def polygon(self) -> Any:
        """Return the row's polygon (WKT in EPSG:26915 metres), or None when blank."""
        import shapely

        if is_blank(self.row["geometry_wkt"]):
            return None
        try:
            geometry = shapely.from_wkt(str(self.row["geometry_wkt"]))
        except shapely.errors.GEOSException:
            geometry = None
        if geometry is None or geometry.geom_type not in ("Polygon", "MultiPolygon"):
            raise InputError(
                f"{self.where('geometry_wkt')}: not a polygon in WKT; write "
                "POLYGON((x y, ...)) in EPSG:26915 metres, or leave it blank"
            )
        return geometry

    def credit(self) -> CreditRecord | None:
        """Return the row's bank credit withdrawal, or None for a row without one."""
        row = self.row
        if is_blank(row["bank"]) and is_blank(row["account"]):
            return None
        acres = self.read("credits_acres", parse_number)
        if is_blank(row["bank"]) or is_blank(row["account"]):
            raise InputError(
                f"{self.where('bank')}: a credit withdrawal needs both bank and account"
            )
        return CreditRecord(
            bank=str(row["bank"]), account=parse_id(row["account"]) or "", credits_acres=acres
        )


def _add_to_decision(
    groups: dict[str, dict[str, Any]],
    row: _CsvRow,
    fields: dict[str, Any],
    impact: ImpactRecord | None,
    credit: CreditRecord | None,
) -> None:
    """Add a row to its decision (the rows of one ``decision`` value); they must agree."""
    key = str(row.row["decision"]).strip() or f"#row{row.n}"
    group = groups.setdefault(
        key, {"fields": fields, "impacts": [], "credits": [], "row": row.n, "parcels": set()}
    )
    if group["fields"] != fields:
        raise InputError(
            f"{row.path}, row {row.n}: decision {key[:40]!r} was first given on row "
            f"{group['row']} with other decision fields; rows of one decision must "
            "agree on kind, date, LGU, recorded_by, landowner, wetland and validity"
        )
    group["parcels"].add(parse_id(row.row["parcel_id"]))
    if impact is not None:
        group["impacts"].append(impact)
    if credit is not None:
        group["credits"].append(credit)


def _decision_of(group: Mapping[str, Any], path: Path) -> DecisionRecord:
    """Return the decision of a group of rows; its parcel the one all its rows give."""
    parcels = group["parcels"]
    return DecisionRecord(
        **dict(group["fields"]),
        parcel_id=next(iter(parcels)) if len(parcels) == 1 else None,
        citations=[KIND_CITATIONS[group["fields"]["kind"]]],
        source=f"import {path.name} row {group['row']}",
        impacts=group["impacts"],
        credits=group["credits"],
    )


def export_register(
    register: Register,
    out: str | Path,
    *,
    overwrite: bool = False,
    **filters: Any,
) -> list[Path]:
    """Write the register's decisions and impacts for QGIS (.gpkg) or a spreadsheet (.csv).

    A ``.gpkg`` gets the layers ``decisions`` (wetland geometry), ``impacts`` and
    ``credits``; a ``.csv`` is one row per impact in the import format
    (:data:`CSV_COLUMNS`, plus ``decision_uid`` and ``superseded_by``), so an export can be
    read back with ``register import``. ``filters`` are those of
    :meth:`Register.decisions`.

    Returns
    -------
    list of Path
        The files written.
    """
    import geopandas as gpd

    from wetland_gis.io.safe_write import SafeWriter

    out = Path(out)
    dec = register.decisions(**filters)
    imp = register.impacts(list(dec["decision_uid"]))
    cred = register.credits()
    cred = cred[cred["decision_uid"].isin(set(dec["decision_uid"]))]
    with SafeWriter("register export", overwrite=overwrite) as w:
        if out.suffix.lower() == ".gpkg":
            for name, frame in (("decisions", dec), ("impacts", imp)):
                layer = gpd.GeoDataFrame(
                    frame.drop(columns=["geometry"]),
                    geometry=gpd.GeoSeries(list(frame["geometry"]), crs=SRID),
                    crs=SRID,
                )
                for c in layer.columns:
                    if c != "geometry" and layer[c].dtype == object:
                        layer[c] = layer[c].map(
                            lambda v: v.isoformat() if isinstance(v, dt.date) else v
                        )
                w.layer(layer, out, layer=name, polygons=True)
            w.layer(cred.reset_index(drop=True), out, layer="credits")
        else:
            w.csv(_export_rows(dec, imp, cred), out)  # formulas quoted (io.csv_cells)
    return list(w.written)


def _export_rows(dec: pd.DataFrame, imp: pd.DataFrame, cred: pd.DataFrame) -> pd.DataFrame:
    rows = []
    by_uid = {u: g for u, g in imp.groupby("decision_uid")} if len(imp) else {}
    credit_of = {u: g for u, g in cred.groupby("decision_uid")} if len(cred) else {}
    for d in dec.to_dict("records"):
        base = {
            "decision": d["decision_uid"],
            "decision_uid": d["decision_uid"],
            "superseded_by": d["superseded_by"],
            **{k: d[k] for k in (*_DECISION_WHO, *_DECISION_TERMS, "note")},
        }
        credits = credit_of.get(d["decision_uid"])
        first_credit = credits.iloc[0].to_dict() if credits is not None and len(credits) else {}
        impacts = by_uid.get(d["decision_uid"])
        for k, i in enumerate([] if impacts is None else impacts.to_dict("records")):
            rows.append(
                {
                    **base,
                    **{c: i[c] for c in ("impact_id", "parcel_id", *_IMPACT_FIELDS)},
                    "geometry_wkt": None if i["geometry"] is None else i["geometry"].wkt,
                    **({c: first_credit.get(c) for c in _CREDIT_FIELDS} if k == 0 else {}),
                }
            )
        if impacts is None or not len(impacts):
            rows.append({**base, **{c: first_credit.get(c) for c in _CREDIT_FIELDS}})
    columns = ["decision_uid", "superseded_by", *CSV_COLUMNS]
    return pd.DataFrame(rows, columns=columns)


def annual_summary(register: Register, year: int) -> pd.DataFrame:
    """Return the year's summary by LGU: decisions by kind and the areas and credits.

    Superseded decisions are left out (their correction counts). Columns: ``lgu``, one
    ``decisions_<kind>`` column per kind, ``impacted_sqft`` (every impact of the year's
    decisions but denied plans), ``exempt_sqft_<exemption>`` (area exempt by exemption),
    ``replaced_acres`` (replacement of approved plans) and ``credits_withdrawn_acres``.
    """
    dec = register.decisions(
        since=dt.date(year, 1, 1), until=dt.date(year, 12, 31), include_superseded=False
    )
    imp = register.impacts(list(dec["decision_uid"]))
    cred = register.credits()
    cred = cred[cred["decision_uid"].isin(set(dec["decision_uid"]))]
    lgus = sorted(set(dec["lgu"]))
    rows = []
    for lgu in lgus:
        d = dec[dec["lgu"] == lgu]
        i = imp[imp["lgu"] == lgu]
        row: dict[str, Any] = {"year": year, "lgu": lgu}
        for kind in DECISION_KINDS:
            row[f"decisions_{kind}"] = int((d["kind"] == kind).sum())
        happened = i[i["kind"] != "replacement_plan_denied"]
        row["impacted_sqft"] = round(float(happened["area_sqft"].sum()), 1)
        row["impacted_acres"] = round(float(happened["area_sqft"].sum()) / SQFT_PER_ACRE, 4)
        exempt = happened[happened["exemption"].notna()]
        for name, group in exempt.groupby("exemption"):
            row[f"exempt_sqft_{name}"] = round(float(group["area_sqft"].sum()), 1)
        approved = i[i["kind"] == "replacement_plan_approved"]
        row["replaced_acres"] = round(
            float(pd.to_numeric(approved["replace_acres"]).fillna(0).sum()), 4
        )
        c = cred[cred["lgu"] == lgu]
        row["credits_withdrawn_acres"] = round(
            float(pd.to_numeric(c["credits_acres"]).fillna(0).sum()), 4
        )
        rows.append(row)
    base = [
        "year",
        "lgu",
        *(f"decisions_{k}" for k in DECISION_KINDS),
        "impacted_sqft",
        "impacted_acres",
    ]
    frame = pd.DataFrame(rows)
    extra = sorted(c for c in frame.columns if c.startswith("exempt_sqft_"))
    columns = [*base, *extra, "replaced_acres", "credits_withdrawn_acres"]
    return frame.reindex(columns=columns).fillna({c: 0.0 for c in extra})


def summary_html(summary: pd.DataFrame, year: int) -> str:
    """Return the summary as an HTML table fragment (every value escaped)."""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in summary.columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>"
        for row in summary.itertuples(index=False)
    )
    return (
        f'<table class="register-summary"><caption>Decisions recorded in {int(year)}, by LGU '
        "(wetland_gis register; screening record, the LGU's own files govern)</caption>"
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>\n"
    )


def decisions_json(frame: pd.DataFrame) -> list[Mapping[str, Any]]:
    """Return query results as JSON-ready records (geometry as WKT)."""
    out = frame.copy()
    if "geometry" in out:
        out["geometry"] = [None if g is None else g.wkt for g in out["geometry"]]
    for c in ("citations", "trace"):
        if c in out:
            out[c] = [json.loads(v) if isinstance(v, str) else v for v in out[c]]
    return out.astype(object).where(out.notna(), None).to_dict("records")
