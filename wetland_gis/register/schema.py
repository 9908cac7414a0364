"""The register's schema: one SQLAlchemy Core metadata for GeoPackage and PostGIS.

Four tables (docs/register.md): ``register_meta`` (schema version and the register's
id), ``decisions`` (one LGU decision, with the wetland's geometry), ``impacts`` (each
dated impact of a decision, with its geometry) and ``credits`` (bank credits withdrawn
for a decision). Every row is written once: a correction is a new decision whose
``supersedes`` names the decision it replaces; triggers refuse UPDATE and DELETE.

On SQLite the geometry column is a GeoPackage geometry blob (OGC 12-128r18, sect. 2.1.3)
and the file carries the GeoPackage core tables, so QGIS and GDAL open it as a
GeoPackage; on PostgreSQL it is a PostGIS ``geometry(MULTIPOLYGON, 26915)`` sent and
read as WKB (``ST_GeomFromWKB`` / ``ST_AsBinary``).
"""

from __future__ import annotations

import struct
from typing import Any

import shapely
import sqlalchemy as sa
from sqlalchemy import (
    Boolean,
    Column,
    Date,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    Table,
    Text,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator, TypeEngine, UserDefinedType

from wetland_gis.rules.spec import cite, cite_rule, short_cite

#: Version of the register's schema written by this package. A register of a newer
#: version is refused (``wetland-gis register upgrade`` after upgrading the package); one
#: of an older version is refused until ``wetland-gis register upgrade`` migrates it
#: (:mod:`wetland_gis.register.migrate`). Version 2 added ``parcel_id`` (the landowner's
#: portion, § 103G.2241, subd. 9(f)) to ``decisions`` and ``impacts``.
SCHEMA_VERSION = 2

#: The projected CRS of every geometry in the register (areas in EPSG:26915).
SRID = 26915

#: The list of decisions that may be appealed.
_APPEALABLE = cite("103G.2242", "9(a)")

#: Kinds of LGU decision, with the law that makes them a decision of the LGU
#: (the list of decisions that may be appealed, Minn. Stat. § 103G.2242, subd. 9(a)).
KIND_CITATIONS: dict[str, str] = {
    "boundary_type_determination": cite("103G.2242", "2a"),
    "exemption": cite("103G.2241"),
    "no_loss": f"{_APPEALABLE}; {cite_rule('8420.0415')}",
    "sequencing": f"{cite('103G.222', '1(b)')}; {short_cite(_APPEALABLE)}",
    "replacement_plan_approved": f"{cite('103G.222')}; {short_cite(cite('103G.2242'))}",
    "replacement_plan_denied": f"{cite('103G.222')}; {short_cite(cite('103G.2242'))}",
    # the wetland bank: § 103G.2242, subd. 3(b), (c) (the banking program), 12 (credits),
    # 14 (fees), 9(a) (appealable); Minn. R. 8420.0700 to 8420.0755. Not section 103G.2243
    # (local comprehensive wetland protection and management plans).
    "wetland_banking": (
        f"{cite('103G.2242', '3(b), (c), 9(a), 12, 14')}; {cite_rule('8420.0700 to 8420.0755')}"
    ),
}
DECISION_KINDS: tuple[str, ...] = tuple(KIND_CITATIONS)


class _GpkgGeometryType(UserDefinedType):
    """The GeoPackage column type name (a blob of GeoPackage binary geometry)."""

    cache_ok = True

    def get_col_spec(self, **kw: Any) -> str:
        return "MULTIPOLYGON"


def gpkg_blob(geom: Any, srid: int = SRID) -> bytes:
    """Return a geometry as GeoPackage binary: header, xy envelope, little-endian WKB.

    Parameters
    ----------
    geom : shapely geometry
    srid : int
        The ``srs_id`` of ``gpkg_spatial_ref_sys``.

    Returns
    -------
    bytes

    Examples
    --------
    >>> from shapely.geometry import box
    >>> from_gpkg_blob(gpkg_blob(box(0, 0, 1, 2))).bounds
    (0.0, 0.0, 1.0, 2.0)
    """
    if geom.is_empty:
        flags = 17  # bits 0b00010001: empty, no envelope, little endian
        return b"GP" + struct.pack("<BBi", 0, flags, srid) + shapely.to_wkb(geom, byte_order=1)
    minx, miny, maxx, maxy = geom.bounds
    flags = 3  # bits 0b00000011: xy envelope, little endian
    header = b"GP" + struct.pack("<BBi4d", 0, flags, srid, minx, maxx, miny, maxy)
    return header + shapely.to_wkb(geom, byte_order=1)


_ENVELOPE_BYTES = {0: 0, 1: 32, 2: 48, 3: 48, 4: 64}


def from_gpkg_blob(blob: bytes) -> Any:
    """Return the shapely geometry of a GeoPackage binary geometry blob."""
    flags = blob[3]
    envelope = _ENVELOPE_BYTES[(flags >> 1) & 7]  # bits 1-3: the envelope kind
    return shapely.from_wkb(bytes(blob[8 + envelope :]))


class _PostgisGeometryType(UserDefinedType):
    """A PostGIS ``geometry(MULTIPOLYGON, 26915)``, sent and read as WKB."""

    cache_ok = True

    def get_col_spec(self, **kw: Any) -> str:
        return f"geometry(MULTIPOLYGON, {SRID})"

    def bind_expression(self, bindvalue: Any) -> Any:
        return sa.func.ST_GeomFromWKB(bindvalue, SRID, type_=self)

    def column_expression(self, col: Any) -> Any:
        return sa.func.ST_AsBinary(col, type_=self)

    def result_processor(self, dialect: Dialect, coltype: Any) -> Any:
        def process(value: Any) -> Any:
            if value is None or not isinstance(value, (bytes, bytearray, memoryview)):
                return value
            return shapely.from_wkb(bytes(value))

        return process


class RegisterGeometry(TypeDecorator):
    """A MultiPolygon in EPSG:26915: PostGIS geometry, or a GeoPackage blob on SQLite.

    Python values are shapely geometries (a Polygon is stored as a MultiPolygon).
    """

    impl = LargeBinary
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        """Return the PostGIS type on PostgreSQL, the GeoPackage blob type elsewhere."""
        if dialect.name == "postgresql":
            return dialect.type_descriptor(_PostgisGeometryType())
        return dialect.type_descriptor(_GpkgGeometryType())

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        """Return a shapely geometry as WKB (PostGIS) or a GeoPackage blob."""
        if value is None:
            return None
        if value.geom_type == "Polygon":
            value = shapely.MultiPolygon([value])
        if dialect.name == "postgresql":
            return shapely.to_wkb(value, byte_order=1)
        return gpkg_blob(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        """Return the stored geometry as a shapely geometry."""
        if value is None:
            return None
        if not isinstance(value, (bytes, bytearray, memoryview)):
            return value  # already read by the PostGIS type
        if dialect.name == "postgresql":
            return shapely.from_wkb(bytes(value))
        return from_gpkg_blob(value)


metadata = MetaData()


def _register_table(name: str, *columns: Column[Any]) -> Table:
    """Return a table of the register: the integer key ``fid`` (GeoPackage's), ``columns``."""
    return Table(name, metadata, Column("fid", Integer, primary_key=True), *columns)


def _decision_part_table(name: str, *columns: Column[Any]) -> Table:
    """Return a table whose rows belong to one decision: a key, the decision, ``columns``."""
    return _register_table(
        name,
        Column("decision_uid", Text, ForeignKey("decisions.decision_uid"), nullable=False),
        *columns,
    )


register_meta = _register_table(
    "register_meta",
    Column("key", Text, nullable=False, unique=True),
    Column("value", Text, nullable=False),
)

decisions = _register_table(
    "decisions",
    Column("decision_uid", Text, nullable=False, unique=True),
    Column("kind", Text, nullable=False),
    Column("decision_date", Date, nullable=False),
    Column("lgu", Text, nullable=False),
    Column("recorded_by", Text, nullable=False),
    Column("recorded_at", Text, nullable=False),
    Column("valid_until", Date),
    Column("supersedes", Text, ForeignKey("decisions.decision_uid")),
    Column("landowner", Text),
    Column("wetland_id", Text),
    Column("project", Text),
    Column("determined_type", Text),
    Column("banked", Boolean),
    Column("used_for_credit", Boolean),
    Column("citations", Text, nullable=False),
    Column("trace", Text, nullable=False),
    Column("manifest_sha256", Text),
    Column("source", Text, nullable=False),
    Column("note", Text),
    Column("geom", RegisterGeometry()),
    # version 2: the county parcel id (PIN) of the landowner's portion (subd. 9(f))
    Column("parcel_id", Text),
)

impacts = _decision_part_table(
    "impacts",
    Column("impact_id", Text, nullable=False),
    Column("landowner", Text),
    Column("wetland_id", Text),
    Column("impact_date", Date),
    Column("area_sqft", Float, nullable=False),
    Column("wetland_type", Text),
    Column("impact_kind", Text),
    Column("outcome", Text),
    Column("exemption", Text),
    Column("replace_acres", Float),
    Column("geom", RegisterGeometry()),
    # version 2: the county parcel id (PIN) the impact lies on (default the decision's)
    Column("parcel_id", Text),
)

credits = _decision_part_table(
    "credits",
    Column("bank", Text, nullable=False),
    Column("account", Text, nullable=False),
    Column("credits_acres", Float),
)

TABLES = (register_meta, decisions, impacts, credits)
SPATIAL_TABLES = (decisions, impacts)

#: The message of the append-only triggers (and of a refused correction).
_APPEND_ONLY = (
    "the register is append-only: record a correction as a new decision whose "
    "supersedes names the one it replaces"
)


def sqlite_trigger_sql(table: str, op: str) -> str:
    """Return the statement creating a GeoPackage register's append-only trigger.

    One statement for ``init`` and for the migration that puts a trigger back
    (:func:`wetland_gis.register.migrate.set_version`).
    """
    return (
        f"CREATE TRIGGER {table}_no_{op.lower()} BEFORE {op} ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{_APPEND_ONLY}'); END"
    )
