"""Reference (context) layers: load, validate, normalise and reproject them once.

The context is every layer an impact is classified against: counties, watersheds, bank
service areas, percentage-area overrides, public waters, cities, local government units,
calcareous fens and public drainage systems (see ``docs/data_schema.md`` and
``docs/context.md``). Each layer is checked against its spec in
:data:`~wetland_gis.context_layers.LAYER_SPECS` when it is read, so a missing field or an
unknown shoreland class is reported at once, naming the file, the layer, the field and the
fix.

Examples
--------
>>> ctx = load_context()  # only the shipped Minnesota county layer
>>> sorted(ctx.layers)
['counties']
>>> row = ctx.counties.set_index("NAME").loc["Crow Wing"]
>>> row["pct_class"], bool(row["metro"])
('greater_than_80_percent', False)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import geopandas as gpd
import numpy as np
import pandas as pd

from wetland_gis.context_layers import (
    BASIN_CLASSES,
    GEOMETRY_KINDS,
    LAYER_NAMES,
    LAYER_SPECS,
    MAJOR_WATERSHED_IDS as MAJOR_WATERSHED_IDS,
    SHORE_CLASS_ALIASES,
    WATERCOURSE_CLASSES as WATERCOURSE_CLASSES,
    FieldSpec,
    LayerSpec,
)
from wetland_gis.errors import (
    ContextError,
    InputError,
    LayerNotFoundError,
    MissingCRSError,
)
from wetland_gis.geometry.crs import WORKING_CRS as WORKING_CRS, to_working_crs
from wetland_gis.io.layers import MULTI_LAYER_FORMATS, list_layers, read_layer
from wetland_gis.io.shoreland_classes import (
    CLASS_SOURCES,
    ShorelandClassList,
    normalise_dow,
    read_shoreland_classes,
)
from wetland_gis.io.values import (
    is_blank,
    normalise_key,
    parse_bool,
    parse_id,
    parse_number,
)
from wetland_gis.manifest import InputRecord
from wetland_gis.parameters import ParameterSet, default_parameters
from wetland_gis.rules.counties import county_classes

DEFAULT_COUNTIES_PATH = Path(__file__).parent / "data" / "mn_counties_cb2016_500k.geojson"
"""The shipped county layer: US Census Bureau 2016 cartographic boundaries (1:500,000)."""

COUNTY_PCT_SOURCE = "county (Minn. R. 8420.0117, subp. 1)"
"""``pct_source`` of a percentage class taken from the county lists."""

SHORE_CLASS_FROM_LAYER = "layer"
"""``shore_class_source`` of a basin whose class the layer gives (the layer wins)."""

_CONTEXT_CRS_FIX = (
    "set the CRS the coordinates are really in (QGIS: Layer > Set CRS, then save the layer "
    "as a GeoPackage), e.g. EPSG:26915 (NAD83 / UTM 15N) for most Minnesota state data"
)
_EXTENSIONS = (".gpkg", ".shp", ".geojson", ".parquet")
_SHP_FIELD_LEN = 10  # dBase field names: shore_class arrives as shore_clas


@dataclass(frozen=True)
class SourceRecord:
    """Where one context layer came from, for the run manifest."""

    layer: str
    path: str
    source_layer: str | None
    sha256: str
    crs: str | None
    features: int


@dataclass(frozen=True, eq=False)
class Context:
    """The reference layers, validated and in the working CRS (EPSG:26915).

    Each layer of :data:`~wetland_gis.context_layers.LAYER_SPECS` is an attribute of
    that name: a GeoDataFrame with the documented field names, or ``None`` when the
    layer was not given (only ``counties`` is always present).

    Parameters
    ----------
    counties : GeoDataFrame
        The county layer, with ``pct_class``, ``pct_source`` and ``metro`` joined.
    others : Mapping[str, GeoDataFrame]
        The other layers given, by name.
    records : tuple of str
        What was done on loading: reprojections, the default county layer, dropped empty
        geometries, normalised values.
    sources : tuple of SourceRecord
        Path, layer name in the file, SHA-256, original CRS and feature count of each layer.

    Raises
    ------
    ContextError
        When ``others`` names a layer that is not in the registry, or ``counties``.
    """

    counties: gpd.GeoDataFrame
    others: Mapping[str, gpd.GeoDataFrame] = field(default_factory=dict)
    records: tuple[str, ...] = ()
    sources: tuple[SourceRecord, ...] = ()

    def __post_init__(self) -> None:
        """Check every layer name is in the registry."""
        unknown = sorted(set(self.others) - (set(LAYER_NAMES) - {"counties"}))
        if unknown:
            raise ContextError(
                f"{unknown} are not context layers; the layers are {list(LAYER_NAMES)}"
            )

    def __getattr__(self, name: str) -> gpd.GeoDataFrame | None:
        """Return a registered layer by attribute (``ctx.public_water_basins``)."""
        if name in LAYER_SPECS:
            return self.__dict__.get("others", {}).get(name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def layers(self) -> dict[str, gpd.GeoDataFrame]:
        """Return the layers present, by name, in registry order."""
        present = {"counties": self.counties, **self.others}
        return {n: present[n] for n in LAYER_NAMES if present.get(n) is not None}

    def get(self, name: str) -> gpd.GeoDataFrame | None:
        """Return layer ``name`` or ``None`` when it was not given.

        Raises
        ------
        ContextError
            When ``name`` is not a context layer name.
        """
        if name not in LAYER_SPECS:
            raise ContextError(
                f"{name!r} is not a context layer; the layers are {list(LAYER_NAMES)}"
            )
        return self.counties if name == "counties" else self.others.get(name)

    def has(self, name: str) -> bool:
        """Return whether layer ``name`` was given."""
        return self.get(name) is not None

    def manifest_inputs(self) -> list[Any]:
        """Return the sources as ``wetland_gis.manifest.InputRecord`` objects.

        Returns
        -------
        list of InputRecord
            Role ``"context:<layer>"``; the CRS is the layer's original CRS.
        """
        return [
            InputRecord(
                role=f"context:{s.layer}",
                path=s.path,
                layer=s.source_layer,
                sha256=s.sha256,
                crs=s.crs,
                features=s.features,
            )
            for s in self.sources
        ]


# ---------------------------------------------------------------------------- county classes


def _join_county_classes(
    counties: gpd.GeoDataFrame, params: ParameterSet, as_of: str | dt.date | None
) -> tuple[gpd.GeoDataFrame, list[str]]:
    counties = counties.copy()
    names = counties["NAME"].tolist()
    classes = {n: county_classes(n, params, as_of) for n in set(names)}
    counties["pct_class"] = [None if (pct := classes[n][0]) is None else pct.value for n in names]
    counties["metro"] = pd.array([classes[n][1] for n in names], dtype="boolean")
    counties["pct_source"] = [COUNTY_PCT_SOURCE if classes[n][0] else None for n in names]
    records = []
    unknown = sorted({n for n in names if classes[n][0] is None})
    if unknown:
        records.append(
            f"counties: {len(unknown)} name(s) on no list of Minn. R. 8420.0117, subp. 1 "
            f"({', '.join(map(str, unknown[:10]))}); their percentage class is unknown"
        )
    return counties, records


# ------------------------------------------------------------------------------ validation


def _where(name: str, path: str | None, source_layer: str | None) -> str:
    if path is None:
        return f"context layer {name!r} (given as a GeoDataFrame)"
    inner = f", layer {source_layer!r}" if source_layer else ""
    return f"context layer {name!r} ({path}{inner})"


def _coerce_bool(series: pd.Series, where: str, fname: str) -> pd.Series:
    if pd.api.types.is_bool_dtype(series.dtype):
        return series.astype("boolean")
    out = [parse_bool(v, errors="coerce") for v in series.tolist()]
    bad = [
        (i, v)
        for i, v, b in zip(series.index, series.tolist(), out, strict=True)
        if b is None and not is_blank(v)
    ]
    if bad:
        raise ContextError(
            f"{where}: field {fname!r} must be true/false (also accepted: yes/no, y/n, 1/0); "
            f"row {bad[0][0]} has {bad[0][1]!r} ({len(bad)} bad value(s)). Fix the values."
        )
    return pd.Series(pd.array(out, dtype="boolean"), index=series.index)


def _coerce_number(series: pd.Series, where: str, fname: str, kind: str) -> pd.Series:
    num = pd.Series(
        [parse_number(v, errors="coerce") for v in series.tolist()],
        index=series.index,
        dtype=float,
    )
    bad = ~series.map(is_blank).astype(bool) & num.isna()
    if bad.any():
        i = bad.idxmax()
        raise ContextError(
            f"{where}: field {fname!r} must be a number; row {i} has {series[i]!r} "
            f"({int(bad.sum())} bad value(s)). Fix the values or the field type."
        )
    if kind == "int":
        frac = num.notna() & (num != np.round(num))
        if frac.any():
            i = frac.idxmax()
            raise ContextError(
                f"{where}: field {fname!r} must be a whole number; row {i} has {series[i]!r}"
            )
        return num.round().astype("Int64")
    return num.astype(float)


def _coerce(series: pd.Series, fspec: FieldSpec, where: str) -> pd.Series:
    """Return the values of one field as the spec's type (an error names the first bad row)."""
    if fspec.type == "bool":
        return _coerce_bool(series, where, fspec.name)
    if fspec.type in ("int", "float"):
        return _coerce_number(series, where, fspec.name, fspec.type)
    if fspec.type == "id":
        return series.map(parse_id).astype(object)
    return series.map(lambda v: None if pd.isna(v) else str(v)).astype(object)


def _normalise_allowed(series: pd.Series, fspec: FieldSpec, where: str) -> tuple[pd.Series, str]:
    """Return the values normalised to the allowed set and a record of what changed."""
    normal = series.map(lambda v, a=fspec.aliases: normalise_key(v, a))
    bad = normal.notna() & ~normal.isin(fspec.allowed)
    if bad.any():
        values = sorted({str(v) for v in series[bad]})
        short = sorted(k for k in fspec.aliases if len(k) <= 3 and k.isalpha())
        raise ContextError(
            f"{where}: unknown {fspec.name} value(s) {values[:10]}; allowed: "
            f"{list(fspec.allowed)}"
            + (f" (also DNR abbreviations {short})" if short else "")
            + ". Recode the field."
        )
    changed = normal.notna() & (normal != series)
    record = (
        f"normalised {int(changed.sum())} {fspec.name} value(s) to {sorted(set(normal[changed]))}"
        if changed.any()
        else ""
    )
    return normal, record


def validate_layer(
    gdf: gpd.GeoDataFrame,
    name: str,
    *,
    path: str | None = None,
    source_layer: str | None = None,
) -> tuple[gpd.GeoDataFrame, list[str]]:
    """Check one context layer against its spec; normalise and reproject it.

    The spec is the layer's entry in :data:`~wetland_gis.context_layers.LAYER_SPECS`.

    Field names are matched case-insensitively and renamed to the documented names
    (a name cut to 10 characters by a shapefile, e.g. ``shore_clas``, is recognised);
    values are coerced to the documented types (booleans from yes/no, y/n, 1/0 too);
    shoreland and percentage classes are normalised (case, spaces, DNR abbreviations
    such as ``NE``, ``RD``, ``GD``); rows without geometry are dropped; the layer is
    reprojected to EPSG:26915.

    Parameters
    ----------
    gdf : GeoDataFrame
        The layer as read.
    name : str
        Context layer name (a key of :data:`~wetland_gis.context_layers.LAYER_SPECS`).
    path, source_layer : str, optional
        Where it was read from, for the messages.

    Returns
    -------
    (GeoDataFrame, list of str)
        The validated layer in EPSG:26915 and the records of what was changed.

    Raises
    ------
    ContextError
        Unknown layer name, missing required field, wrong geometry kind, a value not
        in the allowed set, a bad number or boolean, or a missing required value.
    MissingCRSError
        When the layer has no CRS.
    """
    if name not in LAYER_SPECS:
        raise ContextError(
            f"{name!r} is not a context layer; the layers are {list(LAYER_NAMES)}. "
            "Rename the layer (or file) to one of them."
        )
    spec = LAYER_SPECS[name]
    where = _where(name, path, source_layer)
    records: list[str] = []
    if not isinstance(gdf, gpd.GeoDataFrame):
        raise ContextError(f"{where}: expected a GeoDataFrame, got {type(gdf).__name__}")
    gdf = gdf.rename(columns=_field_names(gdf, spec, where))
    if gdf.crs is None:
        raise MissingCRSError(
            f"{where} has no coordinate reference system. Set it in QGIS (Layer > Set CRS) "
            "or with `gdf.set_crs(...)` to the CRS the coordinates are really in, e.g. "
            "EPSG:26915 (NAD83 / UTM 15N) for most Minnesota state data."
        )
    gdf = _drawn_features(gdf, spec, name, where, records)
    for fspec in spec.fields:
        if fspec.name in gdf.columns:
            gdf[fspec.name] = _field_values(gdf, fspec, name, where, records)
    gdf, crs_records = _to_working(gdf, name)
    records.extend(crs_records)
    return gdf, records


def _field_names(gdf: gpd.GeoDataFrame, spec: LayerSpec, where: str) -> dict[Any, str]:
    """Return the renaming of ``gdf``'s columns to the documented field names.

    Matched case-insensitively; a name a shapefile cut to 10 characters is recognised.

    Raises
    ------
    ContextError
        When several columns match one field, or a required field is missing.
    """
    columns = [c for c in gdf.columns if c != gdf.geometry.name]
    by_lower: dict[str, list[str]] = {}
    for c in columns:
        by_lower.setdefault(str(c).lower(), []).append(c)
    rename = {}
    for fspec in spec.fields:
        fname = fspec.name
        found = by_lower.get(fname.lower(), [])
        if not found and len(fname) > _SHP_FIELD_LEN:  # a shapefile cut the name short
            found = by_lower.get(fname.lower()[:_SHP_FIELD_LEN], [])
        if len(found) > 1:
            raise ContextError(
                f"{where}: fields {found} all match {fname!r} when case is ignored; "
                "keep one of them"
            )
        if found:
            rename[found[0]] = fname
        elif fspec.required:
            raise ContextError(
                f"{where} is missing the required field {fname!r}; it has {columns}. "
                f"The layer needs {list(spec.required)} (optional: {list(spec.optional)}); "
                f"rename the field that holds it to {fname!r} (see docs/context.md)"
                + (fspec.hint or ".")
            )
    return rename


def _drawn_features(
    gdf: gpd.GeoDataFrame, spec: LayerSpec, name: str, where: str, records: list[str]
) -> gpd.GeoDataFrame:
    """Drop the rows without geometry (recorded); refuse geometries of the wrong kind."""
    geom = gdf.geometry
    empty = geom.isna() | geom.is_empty
    if empty.any():
        records.append(f"{name}: dropped {int(empty.sum())} row(s) without geometry")
        gdf = gdf.loc[~empty].copy()
    kinds = set(gdf.geometry.geom_type.unique())
    allowed_types = GEOMETRY_KINDS[spec.geometry]
    wrong = kinds - allowed_types
    if wrong:
        raise ContextError(
            f"{where} must hold {spec.geometry} geometries "
            f"({', '.join(sorted(allowed_types))}) but holds {sorted(wrong)}. "
            f"Export the {spec.geometry} features only{spec.geometry_hint}."
        )
    return gdf


def _field_values(
    gdf: gpd.GeoDataFrame, fspec: FieldSpec, name: str, where: str, records: list[str]
) -> pd.Series:
    """Return one field's values: present if required, of its type, allowed, in bounds.

    Raises
    ------
    ContextError
        A required value missing, a value of the wrong type, not allowed or out of bounds.
    """
    fname = fspec.name
    series = gdf[fname]
    if fspec.required:
        missing = series.map(is_blank).astype(bool)
        if missing.any():
            rows = list(gdf.index[missing][:5])
            raise ContextError(
                f"{where}: the required field {fname!r} is empty in {int(missing.sum())} "
                f"row(s) (first: {rows}). Fill it in or remove those features."
            )
    values = _coerce(series, fspec, where)
    if fspec.allowed:
        values, changed = _normalise_allowed(values, fspec, where)
        if changed:
            records.append(f"{name}: {changed}")
    if fspec.bounds is not None:
        lo, hi = fspec.bounds
        out_of_range = values.notna() & ((values < lo) | (values > hi))
        if out_of_range.any():
            raise ContextError(
                f"{where}: field {fname!r} must be {lo}-{hi}"
                + (" (the DNR major watershed numbers)" if fname == "major" else "")
                + f"; found {sorted(set(values[out_of_range].tolist()))[:10]}"
            )
    return values


def _to_working(gdf: gpd.GeoDataFrame, name: str) -> tuple[gpd.GeoDataFrame, list[str]]:
    out, recs = to_working_crs(gdf, source=f"context layer {name!r}")
    return out, [str(r) for r in (recs or [])]


# ------------------------------------------------------------------ basin shoreland classes


def _field(gdf: gpd.GeoDataFrame, fname: str, cut: bool = False) -> str | None:
    """Return the column matching ``fname`` case-insensitively (``cut``: or cut to 10)."""
    by_lower = {str(c).lower(): c for c in gdf.columns if c != gdf.geometry.name}
    found = by_lower.get(fname.lower())
    if found is None and cut:
        found = by_lower.get(fname.lower()[:_SHP_FIELD_LEN])
    return found


def _list_class(
    found: list[tuple[str, str, int]], class_source: str
) -> tuple[str | None, str, str]:
    """Return (class, source label, problem) from the list rows found for one basin."""
    if not found:
        what = "a DNR class" if class_source == "dnr" else "a county or city class"
        return None, "", f"the list has no row with {what} for it"
    classes = {normalise_key(c, SHORE_CLASS_ALIASES) for c, _col, _row in found}
    rows = ", ".join(str(r) for _c, _col, r in found)
    if len(classes) > 1:
        return (
            None,
            "",
            (
                f"the list gives several classes {sorted({c for c, _, _ in found})} "
                f"(line(s) {rows}); which governs depends on the location"
            ),
        )
    (value,) = classes
    if value not in BASIN_CLASSES:
        return (
            None,
            "",
            (
                f"the list gives {found[0][0]!r} (line(s) {rows}), which is not one of the state "
                f"classes {list(BASIN_CLASSES)} of Minn. R. 6120.3000"
            ),
        )
    columns = ", ".join(sorted({col for _c, col, _r in found}))
    return value, f"list: {columns}", ""


def _fill_basin_classes(
    gdf: gpd.GeoDataFrame,
    classes: ShorelandClassList | None,
    class_source: str,
    where: str,
) -> tuple[gpd.GeoDataFrame, list[str]]:
    """Fill blank ``shore_class`` of basins from the list; add ``shore_class_source``.

    The layer's class wins where it gives one (recorded where the list differs). A basin
    with no class in the layer and none usable in the list is an error naming the rows.
    """
    gdf = gdf.copy()
    col = _field(gdf, "shore_class", cut=True)
    if col is None:
        if classes is None:
            return gdf, []  # validate_layer names the missing required field
        col = "shore_class"
        gdf[col] = None
    src_col = "shore_class_source"  # written by this function; not a schema field
    blank = gdf[col].map(is_blank).astype(bool).to_numpy()
    source = [None if b else SHORE_CLASS_FROM_LAYER for b in blank]
    if classes is None:
        gdf[src_col] = source
        return gdf, []
    key_col = _field(gdf, "dowlknum") or _field(gdf, "pw_id")
    if key_col is None:
        return gdf, []  # validate_layer names the missing pw_id
    id_col = _field(gdf, "pw_id") or key_col
    name_col = _field(gdf, "pw_name")
    values = gdf[col].astype(object).to_numpy().copy()
    records: list[str] = []
    problems: list[str] = []
    kept_differs: list[str] = []
    for i, (index, raw_key) in enumerate(zip(gdf.index, gdf[key_col], strict=True)):
        dow = normalise_dow(raw_key)
        label = f"pw_id {parse_id(gdf[id_col].iloc[i])!s}" + (
            f" ({gdf[name_col].iloc[i]})"
            if name_col and not is_blank(gdf[name_col].iloc[i])
            else ""
        )
        found = classes.lookup(dow, class_source)
        value, how, problem = _list_class(found, class_source)
        if not blank[i]:
            layer_value = normalise_key(values[i], SHORE_CLASS_ALIASES)
            if value is not None and value != layer_value:
                kept_differs.append(f"{label}: layer {layer_value}, list {value}")
            continue
        if dow is None:
            problems.append(
                f"row {index} ({label}): {key_col} {raw_key!r} is not an 8-digit DNR "
                "lake/basin number"
            )
        elif not classes.has(dow):
            problems.append(f"row {index} ({label}): DOW {dow} is not on the list")
        elif value is None:
            problems.append(f"row {index} ({label}): DOW {dow}: {problem}")
        else:
            values[i] = value
            source[i] = how
            records.append(
                f"public_water_basins: {label}, DOW {dow}: shore_class {value} from the "
                f"shoreland class list ({how.removeprefix('list: ')}, {classes.path} line(s) "
                f"{', '.join(str(r) for _c, _col, r in found)}; class source {class_source!r})"
            )
    if problems:
        raise ContextError(
            f"{where}: {len(problems)} basin(s) have no shore_class in the layer and none "
            f"usable in the shoreland class list {classes.path} (class source "
            f"{class_source!r}): "
            + "; ".join(problems[:10])
            + ("; ..." if len(problems) > 10 else "")
            + ". Fix: set shore_class in the layer for these basins (from the DNR list or "
            "the local ordinance), give the full DNR list, or choose the other class source."
        )
    if kept_differs:
        records.append(
            f"public_water_basins: {len(kept_differs)} basin(s) keep the layer's shore_class "
            f"though the shoreland class list ({class_source!r}) differs (the layer wins): "
            + "; ".join(kept_differs[:20])
            + ("; ..." if len(kept_differs) > 20 else "")
        )
    gdf[col] = values
    gdf[src_col] = source
    return gdf, records


# --------------------------------------------------------------------------------- loading


def _read_file(
    path: Path, name: str, layer: str | None = None
) -> tuple[gpd.GeoDataFrame, str | None, str, list[str]]:
    """Read one context layer with the package reader; return it, its layer, SHA-256, records.

    A GeoPackage given for one layer is read at the layer of that name (case-insensitively)
    or its only layer. The CRS is checked by :func:`validate_layer`, whose message is the
    context's.
    """
    if not path.exists():
        raise ContextError(f"context layer {name!r}: file {path} does not exist")
    if layer is None and path.suffix.lower() in MULTI_LAYER_FORMATS:
        try:
            names = list_layers(path)
        except InputError as err:
            raise ContextError(f"context layer {name!r}: {err}") from err
        match = [n for n in names if n.lower() == name.lower()]
        if match:
            layer = match[0]
        elif len(names) == 1:
            layer = names[0]
        else:
            raise LayerNotFoundError(
                f"{path} has no layer named {name!r}; it has {names}. Rename the layer or "
                "pass it explicitly with layers={'" + name + "': gdf}"
            )
    try:
        read = read_layer(path, layer, require_crs=False, crs_fix=_CONTEXT_CRS_FIX)
    except MissingCRSError as err:
        raise MissingCRSError(f"context layer {name!r}: {err}") from err
    except LayerNotFoundError:
        raise
    except InputError as err:
        raise ContextError(f"context layer {name!r}: {err}") from err
    return read.gdf, read.layer, read.sha256, read.records


def _discover(source: Path) -> dict[str, tuple[Path, str | None]]:
    """Return {layer name: (path, layer in file)} found in a GeoPackage or a folder."""
    found: dict[str, tuple[Path, str | None]] = {}
    if source.is_dir() and source.suffix.lower() not in MULTI_LAYER_FORMATS:
        files = {p.name.lower(): p for p in source.iterdir() if p.is_file()}
        for name in LAYER_NAMES:
            for ext in _EXTENSIONS:
                p = files.get(name + ext)
                if p is not None:
                    found[name] = (p, None)
                    break
        return found
    if not source.exists():
        raise ContextError(
            f"context source {source} does not exist; give a GeoPackage with layers named "
            f"{list(LAYER_NAMES)} or a folder of <layer>.gpkg|.shp|.geojson|.parquet files"
        )
    if source.suffix.lower() not in MULTI_LAYER_FORMATS:
        raise ContextError(
            f"context source {source} must be a GeoPackage (.gpkg), an Esri File "
            "Geodatabase (.gdb) or a folder; to give one "
            "layer file use layers={'<layer name>': path}"
        )
    try:
        names = list_layers(source)
    except InputError as err:
        raise ContextError(f"context source {source}: {err}") from err
    for name in LAYER_NAMES:
        match = [n for n in names if n.lower() == name]
        if match:
            found[name] = (source, match[0])
    if not found:
        raise LayerNotFoundError(
            f"{source} has none of the context layers {list(LAYER_NAMES)}; it has {names}. "
            "Rename its layers (see docs/context.md)."
        )
    return found


def load_context(
    source: str | Path | None = None,
    *,
    layers: Mapping[str, gpd.GeoDataFrame | str | Path] | None = None,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
    shoreland_classes: str | Path | pd.DataFrame | ShorelandClassList | None = None,
    class_source: str = "dnr",
) -> Context:
    """Load, validate and reproject the context layers.

    Parameters
    ----------
    source : str or Path, optional
        A GeoPackage with layers named as in
        :data:`~wetland_gis.context_layers.LAYER_SPECS`, or a folder holding
        ``<layer>.gpkg``, ``.shp``, ``.geojson`` or ``.parquet`` files (names matched
        case-insensitively). Layers not found are absent (``None``).
    layers : Mapping[str, GeoDataFrame or path], optional
        Layers given directly; they take precedence over ``source``.
    params : ParameterSet, optional
        Parameters from which the county lists are read (default: shipped).
    as_of : str or date, optional
        Date the county lists are read for (default today).
    shoreland_classes : str, Path or DataFrame, optional
        The DNR basin shoreland classification list (CSV; see
        :func:`wetland_gis.io.shoreland_classes.read_shoreland_classes`). Basins of
        ``public_water_basins`` without a ``shore_class`` take theirs from it by DOW
        number (the ``dowlknum`` field, else ``pw_id``); a class in the layer wins.
    class_source : {"dnr", "local"}, default "dnr"
        Which class of the list: the DNR's, or the county or city ordinance's where the
        local ordinance governs (the city's class on a city row, else the county's).

    Returns
    -------
    Context
        ``counties`` carries ``pct_class``, ``pct_source`` and ``metro`` joined by name.
        When no county layer is given the shipped one
        (:data:`DEFAULT_COUNTIES_PATH`) is used, and a record says so.

    Raises
    ------
    ContextError
        An unknown layer name, an unreadable source, or a layer that fails validation.
    MissingCRSError
        A layer without CRS.
    LayerNotFoundError
        A GeoPackage without any context layer.

    Notes
    -----
    Every basin's ``shore_class_source`` says where its class came from (``"layer"`` or
    ``"list: dnr_class"``, ``"list: city_class"``, ``"list: county_class"``) and a
    record names each class taken from the list. A basin with no class in the layer and
    none usable in the list (not on it, no class of that source, two classes, or a class
    such as "Special Protection" that is not a state class) is a :class:`ContextError`
    naming the rows: the class is never guessed.
    """
    params = params if params is not None else default_parameters()
    if class_source not in CLASS_SOURCES:
        raise ContextError(
            f"`class_source` was {class_source!r} but is expected to be in {list(CLASS_SOURCES)}"
        )
    classes = read_shoreland_classes(shoreland_classes) if shoreland_classes is not None else None
    records: list[str] = []
    wanted = _wanted_layers(source, layers, records)
    loaded: dict[str, gpd.GeoDataFrame] = {}
    sources: list[SourceRecord] = []
    for name in LAYER_NAMES:
        if name in wanted:
            gdf, path, inner = wanted[name]
            loaded[name], source_record = _load_layer(
                name, gdf, path, inner, classes, class_source, records
            )
            sources.append(source_record)
    if classes is not None:
        sources.append(
            SourceRecord(
                layer="shoreland_classes",
                path=classes.path,
                source_layer=None,
                sha256=classes.sha256,
                crs=None,
                features=len(classes.table),
            )
        )
        records.append(
            f"shoreland_classes: {classes.path} ({len(classes.table)} rows), class source "
            f"{class_source!r}"
            + (
                ""
                if "public_water_basins" in loaded
                else "; no public_water_basins layer was given, so the list was not used"
            )
        )
    loaded["counties"], county_records = _join_county_classes(loaded["counties"], params, as_of)
    records.extend(county_records)
    counties = loaded.pop("counties")
    return Context(counties, loaded, records=tuple(records), sources=tuple(sources))


#: A context layer to load: the frame given, or the file and the layer in it.
_Wanted = tuple[gpd.GeoDataFrame | None, Path | None, str | None]


def _wanted_layers(
    source: str | Path | None,
    layers: Mapping[str, gpd.GeoDataFrame | str | Path] | None,
    records: list[str],
) -> dict[str, _Wanted]:
    """Return the layers to load by name: found in ``source``, then given in ``layers``.

    Without a county layer the shipped one is used (recorded).

    Raises
    ------
    ContextError
        When ``layers`` names a layer that is not a context layer.
    """
    wanted: dict[str, _Wanted] = {}
    if source is not None:
        for name, (found, inner) in _discover(Path(source)).items():
            wanted[name] = (None, found, inner)
    for name, value in (layers or {}).items():
        if name not in LAYER_SPECS:
            raise ContextError(
                f"{name!r} is not a context layer; the layers are {list(LAYER_NAMES)}"
            )
        if isinstance(value, gpd.GeoDataFrame):
            wanted[name] = (value, None, None)
        else:
            wanted[name] = (None, Path(value), None)
    if "counties" not in wanted:
        wanted["counties"] = (None, DEFAULT_COUNTIES_PATH, None)
        records.append(
            "counties: no county layer given; used the shipped US Census Bureau 2016 "
            f"cartographic boundary file ({DEFAULT_COUNTIES_PATH.name})"
        )
    return wanted


def _load_layer(
    name: str,
    gdf: gpd.GeoDataFrame | None,
    path: Path | None,
    inner: str | None,
    classes: ShorelandClassList | None,
    class_source: str,
    records: list[str],
) -> tuple[gpd.GeoDataFrame, SourceRecord]:
    """Read (unless given), fill the basins' classes, validate; return it and its source."""
    sha256 = ""
    if gdf is None:
        assert path is not None
        gdf, inner, sha256, read_records = _read_file(path, name, inner)
        records.extend(f"{name}: {r}" for r in read_records)
    crs = gdf.crs.to_string() if gdf.crs is not None else None
    if name == "public_water_basins":
        gdf, class_records = _fill_basin_classes(
            gdf, classes, class_source, _where(name, None if path is None else str(path), inner)
        )
        records.extend(class_records)
    gdf, layer_records = validate_layer(
        gdf, name, path=None if path is None else str(path), source_layer=inner
    )
    records.extend(layer_records)
    source = SourceRecord(
        layer=name,
        path="<GeoDataFrame>" if path is None else str(path),
        source_layer=inner,
        sha256=sha256,
        crs=crs,
        features=len(gdf),
    )
    return gdf, source


def as_context(
    context: str | Path | Context | None,
    *,
    params: ParameterSet | None = None,
    as_of: str | dt.date | None = None,
    shoreland_classes: str | Path | pd.DataFrame | ShorelandClassList | None = None,
    class_source: str = "dnr",
) -> Context:
    """Return ``context`` when it is a loaded :class:`Context`, else :func:`load_context` it.

    Parameters
    ----------
    context : str, Path, Context or None
        A loaded context, or the ``source`` of :func:`load_context`.
    params, as_of, shoreland_classes, class_source
        As :func:`load_context` (used only when loading).

    Returns
    -------
    Context

    Raises
    ------
    ContextError
        When ``shoreland_classes`` is given with an already loaded context, and as
        :func:`load_context`.
    """
    if isinstance(context, Context):
        if shoreland_classes is not None:
            raise ContextError(
                "shoreland_classes was given with an already loaded Context; give it to "
                "load_context(..., shoreland_classes=...) instead, or pass the context path"
            )
        return context
    return load_context(
        context,
        params=params,
        as_of=as_of,
        shoreland_classes=shoreland_classes,
        class_source=class_source,
    )
