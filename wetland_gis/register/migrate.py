"""Migrations of the register's schema (``wetland-gis register upgrade``).

A register records its schema version in ``register_meta`` (key ``schema_version``). A
register older than :data:`~wetland_gis.register.schema.SCHEMA_VERSION` is refused by every
command until :func:`upgrade` has migrated it; a newer one is refused until the package is
upgraded.

Every migration of one upgrade runs in ONE transaction: the new columns, the new version
and the upgrade's own ``register_meta`` row land together or not at all (SQLite and
PostgreSQL both roll DDL back). The append-only triggers refuse ``UPDATE`` on
``register_meta``, so the version is moved inside that transaction with the trigger of
``register_meta`` taken off and put back around the one ``UPDATE``: dropped and created
again with the same statement on SQLite, disabled and enabled on PostgreSQL. No other
connection ever sees the table without its trigger (the change is not visible before the
commit), and every other table keeps its triggers throughout. Old rows are not rewritten:
a column added is empty (unknown) on them.

Migrations
----------
2
    ``parcel_id`` (text) on ``decisions`` and ``impacts``: the county parcel id (PIN) of
    the landowner's portion, which § 103G.2241, subd. 9(f) counts by
    (:mod:`wetland_gis.register.fill`). Rows of version 1 keep the parcel unknown.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from wetland_gis.errors import RegisterVersionError
from wetland_gis.register import schema as s


@dataclass(frozen=True, kw_only=True)
class Migration:
    """One step of the register's schema: the version it makes and what it adds.

    Parameters
    ----------
    to_version : int
        The schema version the register has after this step.
    summary : str
        What the step does, for the ``upgrade`` tally.
    text_columns : tuple of (str, str)
        ``(table, column)`` of each text column added (empty on the rows already there).
    """

    to_version: int
    summary: str
    text_columns: tuple[tuple[str, str], ...] = ()


#: The migrations, in order; the last one's ``to_version`` is the package's schema version.
MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        to_version=2,
        summary=(
            "added parcel_id to decisions and impacts (the landowner's portion, "
            "§ 103G.2241, subd. 9(f)); the rows already recorded keep the parcel unknown"
        ),
        text_columns=(("decisions", "parcel_id"), ("impacts", "parcel_id")),
    ),
)

_VERSION_KEY = "schema_version"


def _version(conn: Connection) -> int:
    value = conn.execute(
        sa.select(s.register_meta.c.value).where(s.register_meta.c.key == _VERSION_KEY)
    ).scalar()
    return int(value or 0)


def set_version(conn: Connection, backend: str, version: int) -> None:
    """Move ``register_meta.schema_version`` to ``version`` inside the open transaction.

    The append-only trigger of ``register_meta`` is taken off for this one ``UPDATE`` and
    put back at once, in the caller's transaction (see the module notes).
    """
    update = sa.text("UPDATE register_meta SET value = :v WHERE key = :k")
    if backend == "postgis":
        conn.exec_driver_sql("ALTER TABLE register_meta DISABLE TRIGGER register_meta_append_only")
        conn.execute(update, {"v": str(version), "k": _VERSION_KEY})
        conn.exec_driver_sql("ALTER TABLE register_meta ENABLE TRIGGER register_meta_append_only")
        return
    conn.exec_driver_sql("DROP TRIGGER register_meta_no_update")
    conn.execute(update, {"v": str(version), "k": _VERSION_KEY})
    conn.exec_driver_sql(s.sqlite_trigger_sql("register_meta", "UPDATE"))


def upgrade(conn: Connection, backend: str) -> tuple[int, int, list[str]]:
    """Migrate the register on ``conn`` (an open write transaction) to this package's version.

    Parameters
    ----------
    conn : Connection
        A connection inside a write transaction (``Register._begin(write=True)``); the
        caller commits.
    backend : {"geopackage", "postgis"}

    Returns
    -------
    (int, int, list of str)
        The version found, the version now, and what each step did (empty when the
        register was already at this package's version).

    Raises
    ------
    RegisterVersionError
        When the register is newer than this package.
    """
    if backend == "postgis":  # one upgrade at a time; readers are not blocked
        conn.exec_driver_sql("LOCK TABLE register_meta IN EXCLUSIVE MODE")
    found = _version(conn)
    if found > s.SCHEMA_VERSION:
        raise RegisterVersionError(
            f"the register has schema version {found}, newer than version "
            f"{s.SCHEMA_VERSION} of this wetland_gis; upgrade the package (pip install "
            "--upgrade wetland_gis) and run `wetland-gis register upgrade` again"
        )
    done: list[str] = []
    version = found
    for step in MIGRATIONS:
        if step.to_version <= version:
            continue
        for table, column in step.text_columns:
            conn.exec_driver_sql(f"ALTER TABLE {table} ADD COLUMN {column} TEXT")
        set_version(conn, backend, step.to_version)
        conn.execute(
            s.register_meta.insert(),
            [
                {
                    "key": f"upgraded_to_{step.to_version}_at",
                    "value": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                }
            ],
        )
        done.append(f"version {version} -> {step.to_version}: {step.summary}")
        version = step.to_version
    return found, version, done
