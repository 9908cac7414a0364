"""The register store: connect, create, append and read (SQLAlchemy Core).

A :class:`Register` is opened from a URL (``postgresql://user@host/db``), a file path
(a GeoPackage, the default) or the environment variable :data:`REGISTER_ENV`. The URL
is never written to a manifest or a log: outputs name the register by the id stored in
it at ``init`` (:attr:`Register.register_id`) and its back end.

Every write is one transaction (a decision with its impacts and credits lands whole or
not at all), with parameterised statements only. The tables refuse UPDATE and DELETE by
trigger: a correction is a new decision whose ``supersedes`` names the old one.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sys
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import shapely
import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import SQLAlchemyError

from wetland_gis.errors import (
    RegisterError,
    RegisterUpgradeRequired,
    RegisterVersionError,
    ValueParseError,
)
from wetland_gis.io.qgis_styles import GPKG_VERSION
from wetland_gis.register import schema as s
from wetland_gis.register.migrate import upgrade
from wetland_gis.register.schema import _APPEND_ONLY, sqlite_trigger_sql
from wetland_gis.register.validity import check_valid_until

#: Environment variable holding the register's URL or path when none is given.
REGISTER_ENV = "WETLAND_GIS_REGISTER"

#: Test hook: seconds to sleep inside the ``add`` transaction after the decision row is
#: written and before its impacts are (the kill -9 test of docs/register.md).
SLEEP_HOOK_ENV = "WETLAND_GIS_REGISTER_TEST_SLEEP"

#: How long a writer waits for another's lock on a GeoPackage register (milliseconds).
BUSY_TIMEOUT_MS = 60_000


def redact(text: str, url: URL | None) -> str:
    """Return ``text`` with the URL's password and whole URL removed (for messages)."""
    if url is None:
        return text
    for secret in (url.password, url.render_as_string(hide_password=False)):
        if secret:
            text = text.replace(str(secret), "***")
    return text


def _port_text(raw: str) -> str:
    """Return the port part of a URL as written (after the password, so never a secret).

    Examples
    --------
    >>> _port_text("postgresql://u:p@127.0.0.1:notaport/reg"), _port_text("x://[::1]/d")
    ('notaport', '')
    """
    netloc = raw.split("://", 1)[-1].split("/", 1)[0].rpartition("@")[2]
    host, sep, port = netloc.rpartition(":")
    return port if sep and not port.endswith("]") else ""


def _url_of(target: str | os.PathLike[str] | None) -> URL:
    raw = os.fspath(target) if target is not None else os.environ.get(REGISTER_ENV, "")
    if not raw:
        raise RegisterError(
            f"no register given: pass a GeoPackage path or a postgresql:// URL, or set "
            f"the environment variable {REGISTER_ENV}"
        )
    if "://" not in raw:
        return URL.create("sqlite", database=str(Path(raw).expanduser()))
    try:
        url = make_url(raw)
    except SQLAlchemyError as exc:
        raise RegisterError(
            "the register URL cannot be read; write it as postgresql://user:password@host/"
            "database or give a GeoPackage path"
        ) from exc
    except ValueError:  # SQLAlchemy reads the port with int(): "host:notaport"
        raise RegisterError(
            f"the register URL's port {_port_text(raw)!r} is not a number; write it as "
            "postgresql://user:password@host:5432/database (the port is a whole number, "
            "5432 by default) or give a GeoPackage path"
        ) from None
    if url.get_backend_name() == "postgresql":
        return url.set(drivername="postgresql+psycopg")
    if url.get_backend_name() in ("sqlite", "gpkg"):
        return url.set(drivername="sqlite")
    raise RegisterError(
        f"a register is a GeoPackage file or a PostgreSQL database with PostGIS, not "
        f"{url.get_backend_name()!r}; give a .gpkg path or a postgresql:// URL"
    )


@dataclass(frozen=True, kw_only=True)
class ImpactRecord:
    """One dated impact of a decision (area in sq ft; geometry in EPSG:26915)."""

    impact_id: str
    area_sqft: float
    landowner: str | None = None
    wetland_id: str | None = None
    parcel_id: str | None = None
    impact_date: dt.date | None = None
    wetland_type: str | None = None
    impact_kind: str | None = None
    outcome: str | None = None
    exemption: str | None = None
    replace_acres: float | None = None
    geometry: Any = None


@dataclass(frozen=True, kw_only=True)
class CreditRecord:
    """Bank credits withdrawn for a decision."""

    bank: str
    account: str
    credits_acres: float | None = None


@dataclass(frozen=True, kw_only=True)
class DecisionRecord:
    """One decision of the LGU, as it is appended to the register.

    Parameters
    ----------
    kind : str
        One of :data:`wetland_gis.register.schema.DECISION_KINDS`.
    decision_date : date
    lgu, recorded_by : str
        The local government unit and the person recording the decision.
    valid_until : date, optional
        Last day of the decision's validity. A boundary or type determination is valid for
        five years from its date (§ 103G.2242, subd. 2a(d)): without an end date it gets
        that one, and a later one is refused (:class:`RegisterError`).
    supersedes : str, optional
        The ``decision_uid`` of the decision this one corrects.
    landowner, wetland_id, project : str, optional
    parcel_id : str, optional
        The county parcel id (PIN) of the landowner's portion the decision is about
        (§ 103G.2241, subd. 9(f)); an impact without its own takes this one.
    determined_type : str, optional
        The wetland type a boundary or type determination decided (Circular 39, 1-8).
    banked, used_for_credit : bool, optional
        Whether the wetland was deposited in the bank or used for replacement credit.
    citations : list of str
    trace : list of dict
        The decision trace of the assessment the decision came from.
    manifest_sha256 : str, optional
        SHA-256 of that assessment's manifest file.
    source : str
        Where the record came from (``add <file>``, ``import <file> row N``).
    note : str, optional
    geometry : shapely geometry, optional
        The wetland (EPSG:26915).
    impacts, credits : list
    """

    kind: str
    decision_date: dt.date
    lgu: str
    recorded_by: str
    valid_until: dt.date | None = None
    supersedes: str | None = None
    landowner: str | None = None
    wetland_id: str | None = None
    project: str | None = None
    parcel_id: str | None = None
    determined_type: str | None = None
    banked: bool | None = None
    used_for_credit: bool | None = None
    citations: Sequence[str] = ()
    trace: Sequence[Mapping[str, Any]] = ()
    manifest_sha256: str | None = None
    source: str = ""
    note: str | None = None
    geometry: Any = None
    impacts: Sequence[ImpactRecord] = field(default_factory=list)
    credits: Sequence[CreditRecord] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.kind not in s.DECISION_KINDS:
            raise RegisterError(
                f"decision kind was {self.kind!r} but is expected to be one of "
                f"{list(s.DECISION_KINDS)}"
            )
        for name in ("lgu", "recorded_by"):
            if not str(getattr(self, name) or "").strip():
                raise RegisterError(f"a decision needs {name}; give --{name.replace('_', '-')}")
        # § 103G.2242, subd. 2a(d): a determination is valid for five years from its date,
        # never forever and never longer (the shipped parameter tree; docs/register.md)
        try:
            until = check_valid_until(self.kind, self.decision_date, self.valid_until)
        except ValueParseError as exc:
            raise RegisterError(f"{exc} (--valid-until)") from None
        object.__setattr__(self, "valid_until", until)
        _check_text(self)
        for impact in self.impacts:
            _check_text(impact)
        for credit in self.credits:
            _check_text(credit)


def _check_text(record: Any) -> None:
    for name, value in vars(record).items():
        texts = value if isinstance(value, (list, tuple)) else [value]
        for text in texts:
            if isinstance(text, str) and "\x00" in text:
                raise RegisterError(
                    f"{type(record).__name__}.{name} holds a NUL character, which no "
                    "database text column can hold; remove it from the value"
                )


class Register:
    """The LGU's decision register: a GeoPackage file or a PostGIS database.

    Parameters
    ----------
    target : str or path, optional
        A GeoPackage path or a ``postgresql://`` URL; default the environment variable
        :data:`REGISTER_ENV`.

    Examples
    --------
    >>> import tempfile, pathlib, datetime
    >>> reg = Register(pathlib.Path(tempfile.mkdtemp()) / "register.gpkg").init()
    >>> uid = reg.add(DecisionRecord(kind="exemption", decision_date=datetime.date(2024, 5, 1),
    ...                              lgu="Wright SWCD", recorded_by="A. Analyst"))
    >>> len(reg.decisions())
    1
    """

    def __init__(self, target: str | os.PathLike[str] | None = None) -> None:
        self._url = _url_of(target)
        self.backend = "postgis" if self._url.get_backend_name() == "postgresql" else "geopackage"
        self._engine: Engine | None = None

    # -- connection -------------------------------------------------------------------

    def __repr__(self) -> str:
        return f"Register(<{self.backend}>)"

    @property
    def engine(self) -> Engine:
        """The SQLAlchemy engine (created on first use)."""
        if self._engine is None:
            if self.backend == "geopackage":
                engine = sa.create_engine(
                    self._url,
                    connect_args={
                        "timeout": dt.timedelta(milliseconds=BUSY_TIMEOUT_MS).total_seconds()
                    },
                )
                event.listen(engine, "connect", _sqlite_connect)
                event.listen(engine, "begin", _sqlite_begin)
            else:
                engine = sa.create_engine(self._url, pool_pre_ping=True)
            self._engine = engine
        return self._engine

    def close(self) -> None:
        """Close the register's connections."""
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None

    def __enter__(self) -> Register:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @contextmanager
    def _begin(self, write: bool = False) -> Iterator[Connection]:
        try:
            with self.engine.connect() as raw:
                conn = raw.execution_options(wg_write=write)
                with conn.begin():
                    yield conn
        except RegisterError:
            raise
        except SQLAlchemyError as exc:
            message = str(getattr(exc, "orig", None) or exc).splitlines()[0]
            if "append-only" in message:
                raise RegisterError(_APPEND_ONLY) from None
            raise RegisterError(
                f"the {self.backend} register refused the operation: "
                f"{redact(message, self._url)[:300]}"
            ) from None

    # -- schema -----------------------------------------------------------------------

    def init(self) -> Register:
        """Create the register's tables (nothing is changed in an existing register).

        Returns
        -------
        Register
            ``self``, for chaining.
        """
        if self.backend == "geopackage":
            path = Path(str(self._url.database))
            if path.exists() and path.stat().st_size and not self._has_meta():
                raise RegisterError(
                    f"{path} exists and is not a wetland_gis register; choose a new file"
                )
        with self._begin(write=True) as conn:
            if self.backend == "postgis":
                conn.execute(sa.text("CREATE EXTENSION IF NOT EXISTS postgis"))
            elif not self._has_table(conn, "gpkg_contents"):
                _create_gpkg_core(conn)
            s.metadata.create_all(conn, checkfirst=True)
            have = conn.execute(sa.select(s.register_meta.c.key, s.register_meta.c.value)).all()
            if not have:
                conn.execute(
                    s.register_meta.insert(),
                    [
                        {"key": "schema_version", "value": str(s.SCHEMA_VERSION)},
                        {"key": "register_id", "value": uuid.uuid4().hex},
                        {"key": "created_at", "value": _now()},
                    ],
                )
                if self.backend == "geopackage":
                    _register_gpkg_tables(conn)
                _append_only_triggers(conn, self.backend)
        if self.backend == "geopackage":
            # WAL: readers (QGIS) and a writer at once; kept in the file's header. Set
            # outside a transaction, as SQLite requires
            raw = self.engine.raw_connection()
            try:
                raw.cursor().execute("PRAGMA journal_mode = WAL")
            finally:
                raw.close()
        self.check_version()
        return self

    def _has_table(self, conn: Connection, name: str) -> bool:
        return sa.inspect(conn).has_table(name)

    def _has_meta(self) -> bool:
        try:
            with self.engine.connect() as conn:
                return self._has_table(conn, "register_meta")
        except SQLAlchemyError:
            return False

    def meta(self) -> dict[str, str]:
        """Return the register's ``register_meta`` entries (schema version, id)."""
        if self.backend == "geopackage" and not Path(str(self._url.database)).exists():
            raise RegisterError(
                f"there is no register at {self._url.database}; create it with "
                "`wetland-gis register init --register PATH`"
            )
        try:
            with self.engine.connect() as conn:
                if not self._has_table(conn, "register_meta"):
                    raise RegisterError(
                        "this is not a wetland_gis register (no register_meta table); "
                        "create one with `wetland-gis register init`"
                    )
                rows = conn.execute(sa.select(s.register_meta.c.key, s.register_meta.c.value))
                return {str(k): str(v) for k, v in rows}
        except SQLAlchemyError as exc:
            message = str(getattr(exc, "orig", None) or exc).splitlines()[0]
            raise RegisterError(
                f"cannot open the {self.backend} register: {redact(message, self._url)[:300]}"
                "; check the URL or path, and that the database is running"
            ) from None

    def check_version(self) -> int:
        """Return the schema version; refuse a register newer than this package.

        Raises
        ------
        RegisterVersionError
            When the register's schema version is newer than :data:`SCHEMA_VERSION`.
        """
        version = int(self.meta().get("schema_version", "0"))
        if version > s.SCHEMA_VERSION:
            raise RegisterVersionError(
                f"the register has schema version {version}, newer than version "
                f"{s.SCHEMA_VERSION} of this wetland_gis; upgrade the package "
                "(pip install --upgrade wetland_gis) and run `wetland-gis register "
                "upgrade REGISTER`"
            )
        if version < s.SCHEMA_VERSION:
            raise RegisterUpgradeRequired(
                f"the register has schema version {version}, older than version "
                f"{s.SCHEMA_VERSION} of this wetland_gis; run `wetland-gis register upgrade "
                "--register REGISTER` once (it keeps every row; docs/register.md, Versions)"
            )
        return version

    def upgrade(self) -> tuple[int, int, list[str]]:
        """Migrate the register to this package's schema version, in one transaction.

        Every row is kept as it is, and the append-only triggers stay in force
        (:mod:`wetland_gis.register.migrate`).

        Returns
        -------
        (int, int, list of str)
            The version found, the version now, and what was done (empty when the register
            was already at this package's version).

        Raises
        ------
        RegisterVersionError
            When the register is newer than this package.
        """
        self.meta()  # a missing file or a database that is not a register: say so
        with self._begin(write=True) as conn:
            return upgrade(conn, self.backend)

    @property
    def register_id(self) -> str:
        """The id written at ``init``: how manifests name the register (never its URL)."""
        return self.meta().get("register_id", "")

    def describe(self) -> dict[str, Any]:
        """Return what a manifest records of the register: back end, id, schema version."""
        meta = self.meta()
        return {
            "backend": self.backend,
            "register_id": meta.get("register_id", ""),
            "schema_version": int(meta.get("schema_version", "0")),
        }

    # -- writing ----------------------------------------------------------------------

    def add(self, record: DecisionRecord) -> str:
        """Append one decision with its impacts and credits, in one transaction.

        Parameters
        ----------
        record : DecisionRecord

        Returns
        -------
        str
            The new decision's ``decision_uid``.
        """
        return self.add_many([record])[0]

    def add_many(self, records: Sequence[DecisionRecord]) -> list[str]:
        """Append several decisions in one transaction (all land, or none).

        Returns
        -------
        list of str
            Their ``decision_uid`` values, in order.
        """
        self.check_version()
        uids = []
        with self._begin(write=True) as conn:
            for record in records:
                if record.supersedes:
                    found = conn.execute(
                        sa.select(s.decisions.c.fid).where(
                            s.decisions.c.decision_uid == record.supersedes
                        )
                    ).first()
                    if found is None:
                        raise RegisterError(
                            f"supersedes names decision {record.supersedes!r}, which is not "
                            "in the register; give the decision_uid of the decision corrected "
                            "(see `wetland-gis register query`)"
                        )
                uid = uuid.uuid4().hex
                conn.execute(s.decisions.insert(), [_decision_row(record, uid)])
                pause = os.environ.get(SLEEP_HOOK_ENV)
                if pause:  # the kill -9 test: say so, then wait inside the transaction
                    sys.stderr.write(f"{SLEEP_HOOK_ENV}: inside the add transaction\n")
                    sys.stderr.flush()
                    time.sleep(float(pause))
                if record.impacts:
                    conn.execute(
                        s.impacts.insert(), [_impact_row(i, uid, record) for i in record.impacts]
                    )
                if record.credits:
                    conn.execute(
                        s.credits.insert(),
                        [
                            {
                                "decision_uid": uid,
                                "bank": c.bank,
                                "account": c.account,
                                "credits_acres": c.credits_acres,
                            }
                            for c in record.credits
                        ],
                    )
                uids.append(uid)
        return uids

    # -- reading ----------------------------------------------------------------------

    def _frame(self, query: sa.Select[Any]) -> pd.DataFrame:
        self.check_version()
        with self._begin() as conn:
            result = conn.execute(query)
            return pd.DataFrame(result.mappings().all(), columns=list(result.keys()))

    def decisions(
        self,
        *,
        landowner: str | None = None,
        wetland_id: str | None = None,
        parcel_id: str | None = None,
        since: dt.date | None = None,
        until: dt.date | None = None,
        kind: str | None = None,
        bbox: tuple[float, float, float, float] | None = None,
        place: Any = None,
        include_superseded: bool = True,
    ) -> pd.DataFrame:
        """Return decisions (one row each, ``geometry`` a shapely value) matching every filter.

        Parameters
        ----------
        landowner, wetland_id, parcel_id : str, optional
            The decision's or any of its impacts' landowner / wetland id / parcel id.
        since, until : date, optional
            Decision date range (inclusive).
        kind : str, optional
        bbox : (minx, miny, maxx, maxy), optional
            EPSG:26915 box the wetland's or an impact's geometry intersects.
        place : shapely geometry, optional
            EPSG:26915 area (e.g. the union of a layer) the wetland or an impact meets.
        include_superseded : bool, default True
            Also return decisions that a later decision superseded (column
            ``superseded_by`` says which).
        """
        d, i = s.decisions, s.impacts
        q = sa.select(d)
        # a decision matches when it, or one of its impacts, names the value
        for column, value in (
            ("landowner", landowner),
            ("wetland_id", wetland_id),
            ("parcel_id", parcel_id),
        ):
            if value is not None:
                of_impacts = sa.select(i.c.decision_uid).where(i.c[column] == value)
                q = q.where(sa.or_(d.c[column] == value, d.c.decision_uid.in_(of_impacts)))
        if since is not None:
            q = q.where(d.c.decision_date >= since)
        if until is not None:
            q = q.where(d.c.decision_date <= until)
        if kind is not None:
            q = q.where(d.c.kind == kind)
        q = q.order_by(d.c.decision_date, d.c.fid)
        frame = self._frame(q)
        frame = _superseded(frame, self._supersessions())
        if not include_superseded:
            frame = frame[frame["superseded_by"].isna()]
        if bbox is not None:
            frame = self._meeting(frame, shapely.box(*bbox))
        if place is not None:
            frame = self._meeting(frame, place)
        return frame.rename(columns={"geom": "geometry"}).reset_index(drop=True)

    def _supersessions(self) -> dict[str, str]:
        d = s.decisions
        rows = self._frame(
            sa.select(d.c.decision_uid, d.c.supersedes).where(d.c.supersedes.is_not(None))
        )
        return dict(zip(rows["supersedes"], rows["decision_uid"], strict=True))

    def _meeting(self, frame: pd.DataFrame, box: Any) -> pd.DataFrame:
        """Keep the decisions whose wetland or any impact meets the geometry ``box``."""
        hits = set(
            self.impacts().loc[
                lambda f: [g is not None and g.intersects(box) for g in f["geometry"]],
                "decision_uid",
            ]
        )
        keep = [
            uid in hits or (g is not None and g.intersects(box))
            for uid, g in zip(frame["decision_uid"], frame["geom"], strict=True)
        ]
        return frame[keep]

    def impacts(self, decision_uids: Sequence[str] | None = None) -> pd.DataFrame:
        """Return impacts with their decision's kind, date, LGU and ``superseded_by``."""
        d, i = s.decisions, s.impacts
        q = sa.select(
            i,
            d.c.kind,
            d.c.decision_date,
            d.c.lgu,
            d.c.project,
        ).join(d, d.c.decision_uid == i.c.decision_uid)
        if decision_uids is not None:
            q = q.where(i.c.decision_uid.in_(list(decision_uids)))
        frame = self._frame(q.order_by(i.c.fid))
        sup = self._supersessions()
        frame["superseded_by"] = [sup.get(u) for u in frame["decision_uid"]]
        return frame.rename(columns={"geom": "geometry"})

    def credits(self) -> pd.DataFrame:
        """Return every credit withdrawal with its decision's kind, date and LGU."""
        d, c = s.decisions, s.credits
        q = sa.select(c, d.c.kind, d.c.decision_date, d.c.lgu).join(
            d, d.c.decision_uid == c.c.decision_uid
        )
        frame = self._frame(q.order_by(c.c.fid))
        sup = self._supersessions()
        frame["superseded_by"] = [sup.get(u) for u in frame["decision_uid"]]
        return frame

    def history(
        self, landowner: str | None, wetland_id: str, *, every_landowner: bool = False
    ) -> tuple[pd.DataFrame, pd.DataFrame]:
        """Return the decisions and impacts of one wetland (and landowner), not superseded.

        Parameters
        ----------
        landowner : str or None
            The impacts returned are this landowner's; None: no impact is returned (unless
            ``every_landowner``).
        wetland_id : str
        every_landowner : bool, default False
            Return the impacts on the wetland whoever the landowner was: subd. 9(f) counts
            "the cumulative area drained or filled of the landowner's portion since January
            1, 1992", a previous owner's drains and fills of that land included
            (:func:`wetland_gis.register.fill.fill_from_register` reads them so).

        Returns
        -------
        (DataFrame, DataFrame)
            The wetland's decisions, and the (landowner's) impacts on it, with
            ``portion_owner`` and ``portion_parcel``: the impact's landowner and parcel id,
            else its decision's (None where neither was recorded, as in every row of a
            schema version 1 register). Which rows are the landowner's portion is decided
            by :func:`wetland_gis.register.fill.fill_from_register`.
        """
        d, i = s.decisions, s.impacts
        dec = self._frame(
            sa.select(d)
            .where(
                sa.or_(
                    d.c.wetland_id == wetland_id,
                    d.c.decision_uid.in_(
                        sa.select(i.c.decision_uid).where(i.c.wetland_id == wetland_id)
                    ),
                )
            )
            .order_by(d.c.decision_date, d.c.fid)
        )
        dec = _superseded(dec, self._supersessions())
        dec = dec[dec["superseded_by"].isna()]
        if landowner is None and not every_landowner:
            imp = self.impacts([]).iloc[0:0]
        else:
            where = [sa.func.coalesce(i.c.wetland_id, d.c.wetland_id) == wetland_id]
            if not every_landowner:
                where.append(sa.func.coalesce(i.c.landowner, d.c.landowner) == landowner)
            q = (
                sa.select(
                    i,
                    d.c.kind,
                    d.c.decision_date,
                    d.c.lgu,
                    d.c.project,
                    sa.func.coalesce(i.c.landowner, d.c.landowner).label("portion_owner"),
                    sa.func.coalesce(i.c.parcel_id, d.c.parcel_id).label("portion_parcel"),
                )
                .join(d, d.c.decision_uid == i.c.decision_uid)
                .where(*where)
                .order_by(i.c.fid)
            )
            imp = self._frame(q)
            sup = self._supersessions()
            imp = imp[[sup.get(u) is None for u in imp["decision_uid"]]]
        return dec.reset_index(drop=True), imp.reset_index(drop=True)


def _superseded(frame: pd.DataFrame, sup: Mapping[str, str]) -> pd.DataFrame:
    frame = frame.copy()
    frame["superseded_by"] = [sup.get(u) for u in frame["decision_uid"]] if len(frame) else []
    return frame


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _decision_row(r: DecisionRecord, uid: str) -> dict[str, Any]:
    return {
        "decision_uid": uid,
        "kind": r.kind,
        "decision_date": r.decision_date,
        "lgu": r.lgu,
        "recorded_by": r.recorded_by,
        "recorded_at": _now(),
        "valid_until": r.valid_until,
        "supersedes": r.supersedes,
        "landowner": r.landowner,
        "wetland_id": r.wetland_id,
        "project": r.project,
        "parcel_id": r.parcel_id,
        "determined_type": r.determined_type,
        "banked": r.banked,
        "used_for_credit": r.used_for_credit,
        "citations": json.dumps(list(r.citations), ensure_ascii=False),
        "trace": json.dumps(list(r.trace), ensure_ascii=False, default=str),
        "manifest_sha256": r.manifest_sha256,
        "source": r.source,
        "note": r.note,
        "geom": r.geometry,
    }


def _impact_row(i: ImpactRecord, uid: str, r: DecisionRecord) -> dict[str, Any]:
    return {
        "decision_uid": uid,
        "impact_id": i.impact_id,
        "landowner": i.landowner if i.landowner is not None else r.landowner,
        "wetland_id": i.wetland_id if i.wetland_id is not None else r.wetland_id,
        "parcel_id": i.parcel_id if i.parcel_id is not None else r.parcel_id,
        "impact_date": i.impact_date,
        "area_sqft": float(i.area_sqft),
        "wetland_type": i.wetland_type,
        "impact_kind": i.impact_kind,
        "outcome": i.outcome,
        "exemption": i.exemption,
        "replace_acres": i.replace_acres,
        "geom": i.geometry,
    }


# -- SQLite / GeoPackage -----------------------------------------------------------------


def _sqlite_connect(dbapi_conn: Any, _record: Any) -> None:
    # transactions are begun explicitly (BEGIN IMMEDIATE, below): the documented
    # SQLAlchemy recipe for SQLite's locking
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    cur.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    cur.execute("PRAGMA foreign_keys = ON")
    cur.close()


def _sqlite_begin(conn: Connection) -> None:
    # a writer takes the write lock at the start: two writers queue behind the busy
    # timeout instead of one failing to upgrade a read lock; a reader does not block
    write = conn.get_execution_options().get("wg_write", False)
    conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


#: The GeoPackage core tables (OGC 12-128r18, sections 1.1.2, 1.1.3, 2.1.5).
_GPKG_CORE = (
    """CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER NOT NULL
    PRIMARY KEY, organization TEXT NOT NULL, organization_coordsys_id INTEGER NOT NULL,
    definition TEXT NOT NULL, description TEXT)""",
    """CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT
    NULL, identifier TEXT UNIQUE, description TEXT DEFAULT '', last_change DATETIME NOT NULL
    DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')), min_x DOUBLE, min_y DOUBLE, max_x
    DOUBLE, max_y DOUBLE, srs_id INTEGER, CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id)
    REFERENCES gpkg_spatial_ref_sys(srs_id))""",
    """CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT
    NULL, geometry_type_name TEXT NOT NULL, srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m
    TINYINT NOT NULL, CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name),
    CONSTRAINT uk_gc_table_name UNIQUE (table_name), CONSTRAINT fk_gc_tn FOREIGN KEY
    (table_name) REFERENCES gpkg_contents(table_name), CONSTRAINT fk_gc_srs FOREIGN KEY
    (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id))""",
)


def _create_gpkg_core(conn: Connection) -> None:
    from pyproj import CRS

    # the GeoPackage version the project writes (QGIS 3.22 opens it without a warning)
    major, minor = (int(p) for p in GPKG_VERSION.split("."))
    conn.exec_driver_sql("PRAGMA application_id = 1196444487")  # 'GPKG'
    conn.exec_driver_sql(f"PRAGMA user_version = {major * 10_000 + minor * 100}")
    for ddl in _GPKG_CORE:
        conn.exec_driver_sql(ddl)
    crs = CRS.from_epsg(s.SRID)
    srs = sa.text(
        "INSERT INTO gpkg_spatial_ref_sys (srs_name, srs_id, organization, "
        "organization_coordsys_id, definition, description) VALUES (:n, :i, :o, :c, :d, :x)"
    )
    conn.execute(
        srs,
        [
            {
                "n": "WGS 84 geodetic",
                "i": 4326,
                "o": "EPSG",
                "c": 4326,
                "d": CRS.from_epsg(4326).to_wkt("WKT1_GDAL"),
                "x": "longitude/latitude WGS 84",
            },
            {
                "n": "Undefined cartesian SRS",
                "i": -1,
                "o": "NONE",
                "c": -1,
                "d": "undefined",
                "x": "undefined cartesian coordinate reference system",
            },
            {
                "n": "Undefined geographic SRS",
                "i": 0,
                "o": "NONE",
                "c": 0,
                "d": "undefined",
                "x": "undefined geographic coordinate reference system",
            },
            {
                "n": crs.name,
                "i": s.SRID,
                "o": "EPSG",
                "c": s.SRID,
                "d": crs.to_wkt("WKT1_GDAL"),
                "x": crs.name,
            },
        ],
    )


def _register_gpkg_tables(conn: Connection) -> None:
    contents = sa.text(
        "INSERT INTO gpkg_contents (table_name, data_type, identifier, description, srs_id) "
        "VALUES (:t, :k, :t, :d, :s)"
    )
    spatial = {t.name for t in s.SPATIAL_TABLES}
    for table in s.TABLES:
        conn.execute(
            contents,
            {
                "t": table.name,
                "k": "features" if table.name in spatial else "attributes",
                "d": f"wetland_gis register: {table.name}",
                "s": s.SRID if table.name in spatial else None,
            },
        )
    conn.execute(
        sa.text(
            "INSERT INTO gpkg_geometry_columns (table_name, column_name, geometry_type_name, "
            "srs_id, z, m) VALUES (:t, 'geom', 'MULTIPOLYGON', :s, 0, 0)"
        ),
        [{"t": t.name, "s": s.SRID} for t in s.SPATIAL_TABLES],
    )


def _append_only_triggers(conn: Connection, backend: str) -> None:
    if backend == "geopackage":
        for table in s.TABLES:
            for op in ("UPDATE", "DELETE"):
                conn.exec_driver_sql(sqlite_trigger_sql(table.name, op))
        return
    conn.exec_driver_sql(
        "CREATE OR REPLACE FUNCTION wetland_gis_register_append_only() RETURNS trigger "
        f"LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '{_APPEND_ONLY}'; END $$"
    )
    for table in s.SPATIAL_TABLES:
        conn.exec_driver_sql(
            f"CREATE INDEX IF NOT EXISTS {table.name}_geom_gist ON {table.name} USING GIST (geom)"
        )
    for table in s.TABLES:
        conn.exec_driver_sql(
            f"CREATE TRIGGER {table.name}_append_only BEFORE UPDATE OR DELETE ON {table.name} "
            "FOR EACH ROW EXECUTE FUNCTION wetland_gis_register_append_only()"
        )
        conn.exec_driver_sql(
            f"CREATE TRIGGER {table.name}_no_truncate BEFORE TRUNCATE ON {table.name} "
            "FOR EACH STATEMENT EXECUTE FUNCTION wetland_gis_register_append_only()"
        )
