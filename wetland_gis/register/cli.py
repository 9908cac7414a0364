"""``wetland-gis register init|add|query|export|import|summary|upgrade`` (the runners).

The register is named by ``--register URL_OR_PATH`` or the environment variable
``WETLAND_GIS_REGISTER``; neither is printed or written to any file.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wetland_gis.errors import InputError

_KINDS = (
    "boundary_type_determination",
    "exemption",
    "no_loss",
    "sequencing",
    "replacement_plan_approved",
    "replacement_plan_denied",
    "wetland_banking",
)


@dataclass
class RegisterTally:
    """The lines a register command prints at its end (the CLI's tally protocol)."""

    messages: list[str] = field(default_factory=list)
    not_assessed_rows: int = 0

    def lines(self) -> list[str]:
        """Return the lines to print."""
        return list(self.messages)

    def to_dict(self) -> dict[str, Any]:
        """Return the tally as a JSON-ready dictionary (the ``done`` run event's)."""
        return {"messages": list(self.messages)}


@dataclass
class RegisterResult:
    """Files written and the tally of one register command."""

    written: list[Path]
    tally: RegisterTally


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--register",
        help="the register: a GeoPackage path or a postgresql:// URL (default: the "
        "environment variable WETLAND_GIS_REGISTER); never printed or recorded",
    )


def add_register_parser(sub: Any) -> None:
    """Add ``register`` and its sub-commands to the ``wetland-gis`` parser."""
    reg = sub.add_parser("register", help="the LGU's decision register (docs/register.md)")
    rsub = reg.add_subparsers(dest="register_command", required=True)
    p = rsub.add_parser("init", help="create a register (a GeoPackage file or a PostGIS database)")
    _common(p)
    p = rsub.add_parser("upgrade", help="bring a register to this package's schema version")
    _common(p)
    p = rsub.add_parser("add", help="record a decision from an assessed GeoPackage")
    _common(p)
    p.add_argument("assessed", help="output of `wetland-gis assess` (.gpkg)")
    p.add_argument("--kind", required=True, choices=_KINDS)
    p.add_argument("--date", required=True, help="decision date YYYY-MM-DD")
    p.add_argument("--lgu", required=True, help="the local government unit")
    p.add_argument("--recorded-by", required=True, help="who records the decision")
    p.add_argument("--landowner", help="landowner id where the layer has no owner column")
    p.add_argument("--wetland", help="wetland id where the layer has no wetland_id column")
    p.add_argument(
        "--parcel",
        help="county parcel id (PIN) of the landowner's portion where the layer has no "
        "parcel_id column (§ 103G.2241, subd. 9(f))",
    )
    p.add_argument("--impact-date", help="date of the impacts, YYYY-MM-DD, where known")
    p.add_argument(
        "--valid-until",
        help="end of validity (default for a determination: five years, "
        "§ 103G.2242, subd. 2a(d); the law gives none for the other kinds)",
    )
    p.add_argument("--supersedes", help="decision_uid of the decision this one corrects")
    p.add_argument("--determined-type", help="type (1-8) a boundary/type determination decided")
    p.add_argument("--banked", choices=["yes", "no"], help="the wetland was deposited in the bank")
    p.add_argument("--used-for-credit", choices=["yes", "no"], help="used for replacement credit")
    p.add_argument("--bank", help="wetland bank the credits were withdrawn from")
    p.add_argument("--account", help="bank account of the credits withdrawn")
    p.add_argument("--credits-acres", type=float, help="credits withdrawn, acres")
    p.add_argument(
        "--siting",
        help="the folder `wetland-gis site --out-dir` wrote for this assessment: record the "
        "bank credits its plan allocated (--kind replacement_plan_approved; instead of "
        "--bank/--account/--credits-acres)",
    )
    p.add_argument("--wetland-layer", help="a layer holding the wetland's polygon(s)")
    p.add_argument("--note", help="a note kept with the decision")
    p = rsub.add_parser("query", help="list decisions by landowner, wetland, place or date")
    _common(p)
    _filters(p)
    p.add_argument("--json", action="store_true", help="print JSON records (default a table)")
    p = rsub.add_parser("export", help="write the register as a GeoPackage or CSV")
    _common(p)
    p.add_argument("--out", required=True, help=".gpkg (QGIS) or .csv (spreadsheet, importable)")
    p.add_argument("--overwrite", action="store_true", help="replace an existing file")
    _filters(p)
    p = rsub.add_parser("import", help="load past decisions from a CSV (one dated impact a row)")
    _common(p)
    p.add_argument("csv", help="the CSV (columns: docs/register.md)")
    p = rsub.add_parser("summary", help="the annual summary by LGU (CSV and an HTML table)")
    _common(p)
    p.add_argument("--year", type=int, required=True)
    p.add_argument("--out", help="CSV to write (an HTML table is written beside it)")
    p.add_argument("--overwrite", action="store_true", help="replace existing files")


def _filters(p: argparse.ArgumentParser) -> None:
    p.add_argument("--landowner")
    p.add_argument("--wetland")
    p.add_argument("--parcel", help="county parcel id (PIN)")
    p.add_argument("--kind", choices=_KINDS)
    p.add_argument("--since", help="decisions on or after YYYY-MM-DD")
    p.add_argument("--until", help="decisions on or before YYYY-MM-DD")
    p.add_argument("--bbox", help="minx,miny,maxx,maxy in EPSG:26915 metres")
    p.add_argument("--place", help="a polygon layer: decisions whose geometry meets it")


def _filter_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    from wetland_gis.register.records import parse_date

    bbox = None
    if args.bbox:
        try:
            bbox = tuple(float(v) for v in args.bbox.split(","))
        except ValueError:
            bbox = ()
        if len(bbox) != 4:
            raise InputError("--bbox: write minx,miny,maxx,maxy in EPSG:26915 metres")
    place = None
    if args.place:
        from wetland_gis.io.layers import read_layer

        place = read_layer(args.place).gdf.to_crs(26915).union_all()
    return {
        "place": place,
        "landowner": args.landowner,
        "wetland_id": args.wetland,
        "parcel_id": args.parcel,
        "kind": args.kind,
        "since": parse_date(args.since, "--since"),
        "until": parse_date(args.until, "--until"),
        "bbox": bbox,
    }


def hide_register_url(args: argparse.Namespace) -> None:
    """Take the register's URL out of ``sys.argv``, which a saved traceback records.

    The URL may hold a password; the traceback file of an internal error names the
    command line (``wetland_gis.cli``), so the value is replaced there by ``<register>``.
    """
    url = getattr(args, "register", None)
    if url:
        sys.argv = ["<register>" if a == url else a.replace(url, "<register>") for a in sys.argv]


def run_register(args: argparse.Namespace) -> RegisterResult:
    """Run one ``wetland-gis register`` sub-command."""
    hide_register_url(args)
    from wetland_gis.register import Register

    reg = Register(args.register)
    tally = RegisterTally()
    try:
        runner = _RUNNERS.get(args.register_command)
        written = runner(reg, args, tally.messages) if runner is not None else None
    finally:
        reg.close()
    return RegisterResult(written or [], tally)


def _run_init(reg: Any, args: argparse.Namespace, messages: list[str]) -> None:
    reg.init()
    messages.append(
        f"register {reg.register_id} ({reg.backend}) ready, schema version {reg.check_version()}"
    )


def _run_upgrade(reg: Any, args: argparse.Namespace, messages: list[str]) -> None:
    found, version, done = reg.upgrade()
    if not done:
        messages.append(
            f"register {reg.register_id} is at schema version {version}, this "
            "package's; nothing to upgrade"
        )
    else:
        messages.append(
            f"register {reg.register_id} upgraded from schema version {found} to "
            f"{version}, every row kept"
        )
        messages.extend(done)


def _credits(args: argparse.Namespace, messages: list[str]) -> list[Any]:
    """Return the credits withdrawn: from ``--siting``, or ``--bank`` and ``--account``."""
    from wetland_gis.register.records import credits_from_siting
    from wetland_gis.register.store import CreditRecord, RegisterError

    credits: list[CreditRecord] = []
    if args.siting and (args.bank or args.account or args.credits_acres is not None):
        raise RegisterError(
            "give the credits withdrawn either from --siting or with --bank, "
            "--account and --credits-acres, not both"
        )
    if args.siting:
        credits, notes = credits_from_siting(args.siting, args.assessed, kind=args.kind)
        messages.extend(notes)
    if args.bank or args.account:
        if not (args.bank and args.account):
            raise RegisterError("a credit withdrawal needs both --bank and --account")
        credits.append(
            CreditRecord(bank=args.bank, account=args.account, credits_acres=args.credits_acres)
        )
    return credits


def _run_add(reg: Any, args: argparse.Namespace, messages: list[str]) -> None:
    from wetland_gis.register.records import decision_from_assessed

    credits = _credits(args, messages)
    geometry = None
    if args.wetland_layer:
        from wetland_gis.io.layers import read_layer

        geometry = read_layer(args.wetland_layer).gdf.to_crs(26915).union_all()
    record = decision_from_assessed(
        args.assessed,
        kind=args.kind,
        decision_date=args.date,
        lgu=args.lgu,
        recorded_by=args.recorded_by,
        landowner=args.landowner,
        wetland_id=args.wetland,
        parcel_id=args.parcel,
        impact_date=args.impact_date,
        valid_until=args.valid_until,
        supersedes=args.supersedes,
        determined_type=args.determined_type,
        banked=None if args.banked is None else args.banked == "yes",
        used_for_credit=None if args.used_for_credit is None else args.used_for_credit == "yes",
        credits=credits,
        wetland_geometry=geometry,
        note=args.note,
    )
    uid = reg.add(record)
    needed = sum(i.replace_acres or 0.0 for i in record.impacts)
    if record.kind == "replacement_plan_approved" and needed > 0 and not record.credits:
        messages.append(
            f"no bank credits recorded for {needed:,.4f} acres of replacement: if the "
            "plan withdraws credits, add them with --siting FOLDER (the output of "
            "`wetland-gis site`) or --bank, --account and --credits-acres"
        )
    withdrawn = sum(c.credits_acres or 0.0 for c in record.credits)
    messages.append(
        f"decision {uid} ({record.kind}, {record.decision_date}) recorded with "
        f"{len(record.impacts)} impact(s)"
        + (
            f" and {withdrawn:,.4f} credits withdrawn from {len(record.credits)} bank account(s)"
            if record.credits
            else ""
        )
    )


def _run_import(reg: Any, args: argparse.Namespace, messages: list[str]) -> None:
    from wetland_gis.register.records import read_decisions_csv

    records = read_decisions_csv(args.csv)
    uids = reg.add_many(records)
    messages.append(
        f"{len(uids)} decision(s) with {sum(len(r.impacts) for r in records)} impact(s) "
        f"imported from {Path(args.csv).name}"
    )


#: The columns ``register query`` prints as a table.
_QUERY_COLUMNS = [
    "decision_uid",
    "kind",
    "decision_date",
    "lgu",
    "landowner",
    "wetland_id",
    "parcel_id",
    "valid_until",
    "superseded_by",
]


def _run_query(reg: Any, args: argparse.Namespace, messages: list[str]) -> None:
    from wetland_gis.register.records import decisions_json

    frame = reg.decisions(**_filter_kwargs(args))
    if args.json:
        sys.stdout.write(json.dumps(decisions_json(frame), default=str, indent=1) + "\n")
    else:
        sys.stdout.write(
            (frame[_QUERY_COLUMNS].to_string(index=False) if len(frame) else "no decision matches")
            + "\n"
        )
    messages.append(f"{len(frame)} decision(s)")


def _run_export(reg: Any, args: argparse.Namespace, messages: list[str]) -> list[Path]:
    from wetland_gis.register.records import export_register

    written = export_register(reg, args.out, overwrite=args.overwrite, **_filter_kwargs(args))
    messages.append(f"exported to {len(written)} file(s)")
    return written


def _run_summary(reg: Any, args: argparse.Namespace, messages: list[str]) -> list[Path]:
    from wetland_gis.register.records import annual_summary, summary_html

    table = annual_summary(reg, args.year)
    written: list[Path] = []
    if args.out:
        from wetland_gis.io.safe_write import SafeWriter

        out = Path(args.out)
        with SafeWriter("register summary", overwrite=args.overwrite) as w:
            w.csv(table, out)
            w.text(summary_html(table, args.year), out.with_suffix(".html"))
        written = list(w.written)
    else:
        sys.stdout.write(
            table.T.to_string(header=False) + "\n" if len(table) else "no decision in that year\n"
        )
    messages.append(f"{int(len(table))} LGU(s) with decisions in {args.year}")
    return written


#: The runner of each ``register`` sub-command: ``(register, args, messages)`` -> files
#: written (None for none).
_RUNNERS: dict[str, Callable[[Any, argparse.Namespace, list[str]], list[Path] | None]] = {
    "init": _run_init,
    "upgrade": _run_upgrade,
    "add": _run_add,
    "import": _run_import,
    "query": _run_query,
    "export": _run_export,
    "summary": _run_summary,
}
