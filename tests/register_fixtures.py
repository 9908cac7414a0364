"""The register back ends for the tests: a GeoPackage in tmp, and a real PostgreSQL with
PostGIS (Debian's postgresql and postgresql-15-postgis-3) started in a temporary folder
by ``initdb`` / ``pg_ctl`` and stopped after the session. Without them the PostGIS
cases skip with a message (a failure under CI=true, tests/conftest.py)."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from wetland_gis.register import DecisionRecord
from wetland_gis.register.records import read_decisions_csv

PG_BIN = Path("/usr/lib/postgresql/15/bin")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_user(user: str | None, argv: list[str]) -> list[str]:
    if user is None:
        return argv
    return ["runuser", "-u", user, "--", *argv]


@pytest.fixture(scope="session")
def postgis_server() -> Iterator[str]:
    """Start a throw-away PostgreSQL+PostGIS; yield a URL template ``...{db}...``."""
    if not (PG_BIN / "initdb").exists() or not list(
        Path("/usr/share/postgresql/15/extension").glob("postgis.control")
    ):
        pytest.skip(
            "PostgreSQL 15 with PostGIS is not installed: apt-get install postgresql "
            "postgresql-15-postgis-3 (.ci/run installs them)"
        )
    user = None
    if os.geteuid() == 0:  # postgres refuses to run as root
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no 'postgres' user to run the server")
        user = "postgres"
    # a short path: the socket path has a length limit
    root = Path(tempfile.mkdtemp(prefix="wgpg", dir="/tmp"))
    if user:
        shutil.chown(root, user)
    data, port = root / "data", _free_port()
    subprocess.run(
        _as_user(
            user,
            [str(PG_BIN / "initdb"), "-D", str(data), "-U", "wg", "--auth=trust", "-E", "UTF8"],
        ),
        check=True,
        capture_output=True,
    )
    opts = f"-k {root} -p {port} -c listen_addresses='' -c fsync=off"
    subprocess.run(
        _as_user(
            user,
            [
                str(PG_BIN / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(root / "log"),
                "-w",
                "-o",
                opts,
                "start",
            ],
        ),
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql://wg:not-the-password@/{{db}}?host={root}&port={port}"
    finally:
        subprocess.run(
            _as_user(user, [str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)


def new_postgis_db(template: str) -> str:
    """Create a fresh database on the test server; return its URL."""
    import sqlalchemy as sa

    name = "r" + uuid.uuid4().hex[:12]
    engine = sa.create_engine(
        template.format(db="postgres").replace("postgresql://", "postgresql+psycopg://"),
        isolation_level="AUTOCOMMIT",
    )
    with engine.connect() as conn:
        conn.exec_driver_sql(f"CREATE DATABASE {name}")
    engine.dispose()
    return template.format(db=name)


@pytest.fixture(
    params=[
        "geopackage",
        # `-m "not postgis"` (make check) deselects it; the server is one per run, so its
        # tests share one worker under -n 2 (tests/session_fixtures.py, XDIST_GROUPS)
        pytest.param("postgis", marks=[pytest.mark.postgis, pytest.mark.xdist_group("postgis")]),
    ]
)
def register_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty register of each back end (its URL or path)."""
    if request.param == "geopackage":
        return str(tmp_path / "register.gpkg")
    return new_postgis_db(request.getfixturevalue("postgis_server"))


def decision_record(**fields: object) -> DecisionRecord:
    """Return a DecisionRecord of ``fields``, recorded by "A. Analyst" unless they say."""
    return DecisionRecord(**{"recorded_by": "A. Analyst", **fields})


def decisions_from_csv(path: Path, text: str) -> list[DecisionRecord]:
    """Write ``text`` to ``path`` (UTF-8) and return the decisions read back from it."""
    path.write_text(text, encoding="utf-8")
    return read_decisions_csv(path)


#: The fields of a trace step of the register fill, in order.
STEP_FIELDS = ("rule_id", "citation", "outcome", "value", "reason", "verify", "inputs", "params")


def classified_frame(rows: int, **columns: object) -> pd.DataFrame:
    """Return ``rows`` classified rows of type 2 (typed in the field) with ``columns``."""
    return pd.DataFrame(
        {
            "status": ["assessed"] * rows,
            "wetland_type": ["2"] * rows,
            "type_source": ["field"] * rows,
            "type_verify": [False] * rows,
            "type_note": [None] * rows,
            **columns,
        }
    )
