"""QGIS styles and layer descriptions stored inside the GeoPackages the project writes.

QGIS reads a layer's default style from the GeoPackage's ``layer_styles`` table (the
table QGIS itself writes with "Save as default"): a QML document, an optional SLD one and
``useAsDefault``. :func:`style_layer` writes that row for each layer it knows (impacts
categorised by ``outcome`` in the map's colours and labelled by id; shoreland zones by
``zone``; candidate sites and banks by ``best_tier``) and a plain-English description in
``gpkg_contents.description``, which QGIS shows as the layer's abstract.

:data:`GPKG_VERSION` is the GeoPackage version written: GDAL 3.8 and later write 1.4 by
default, which QGIS 3.22 (GDAL 3.6) opens with a warning; 1.2 opens everywhere.
"""

from __future__ import annotations

import csv
import io
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pandas as pd

from wetland_gis._version import __version__
from wetland_gis.labels import label, tier_label
from wetland_gis.palette import (
    OUTCOME_COLORS,
    OUTCOME_DASH,
    WATER_USE_OUTCOME_COLORS as WATER_COLORS,
    zone_style,
)

GPKG_VERSION = "1.2"
"""GeoPackage version of new files: opened without a warning by QGIS 3.22 / GDAL 3.6."""

STYLE_NAME = "wetland_gis"
"""Name of the style row written in ``layer_styles``."""

TIER_COLORS: Mapping[int, str] = {1: "#1B7837", 2: "#7FBF7B", 3: "#F0E442", 4: "#E08214"}
"""Fill colour of a site or bank by its best siting tier (1 best, 4 worst)."""

_UNRANKED = "#BBBBBB"

LAYER_DESCRIPTIONS: Mapping[str, str] = {
    "impacts": (
        "Wetland impacts screened under Minn. Stat. ch. 103G by wetland_gis: one feature per "
        "input feature, with its outcome, amounts, reasons, citations and what to verify. "
        "A screening: the local government unit and the TEP decide."
    ),
    "shoreland_zones": (
        "Shoreland building setback and shoreland wetland protection zones around the public "
        "waters involved (Minn. Stat. § 103G.005, subd. 15f; § 103G.2241, subd. 9(c)); the "
        "setback zone is the state minimum unless a local ordinance sets more."
    ),
    "sites": (
        "Candidate project-specific replacement sites, with their best siting tier "
        "(Minn. Stat. § 103G.222, subd. 3) and the credits allocated to them."
    ),
    "banks": (
        "Wetland bank accounts with credits, with their best siting tier "
        "(Minn. Stat. § 103G.222, subd. 3) and the credits allocated to them."
    ),
    "decisions": (
        "The decision trace: one row per rule applied, with its citation, inputs, parameters "
        "and result (no geometry), written by wetland_gis with the features it explains; "
        "the reasons and verify items of the features are rendered from it."
    ),
    "appropriations": (
        "Points of water appropriation screened under Minn. Stat. § 103G.271 by wetland_gis "
        "water-use: one feature per input point, with its headline outcome, the outcome of "
        "each rule, the fee and what to verify. A screening: the DNR decides."
    ),
    "fees": (
        "Water-use permit processing fees (Minn. Stat. § 103G.271, subd. 6) computed by "
        "wetland_gis water-use for each point, with the schedule and edition used (no "
        "geometry)."
    ),
    "wetlands": (
        "A wetland inventory screened by wetland_gis screen: one feature per input wetland, "
        "with its classification (type, county, shoreland zone, percentage area) and its de "
        "minimis amount under Minn. Stat. § 103G.2241, subd. 9, or why it was not assessed "
        "(zone and amount empty). A screening: the LGU decides."
    ),
    "shoreland_classes": (
        "Basin shoreland classes joined by DOW number from the list given to wetland_gis "
        "(--shoreland-classes), one row per basin."
    ),
}
"""Description written to ``gpkg_contents`` for each known layer name."""


def layer_description(layer: str, frame: pd.DataFrame) -> str:
    """Return the description of a layer: what it is and how it was made.

    Parameters
    ----------
    layer : str
        The layer name.
    frame : DataFrame
        The layer written.

    Returns
    -------
    str
        :data:`LAYER_DESCRIPTIONS` for a known layer; for another, its size, columns and
        the version of wetland_gis that wrote it.
    """
    known = LAYER_DESCRIPTIONS.get(layer)
    if known:
        return f"{known} wetland_gis {__version__}."
    columns = ", ".join(str(c) for c in list(frame.columns)[:8])
    return (
        f"Layer {layer}: {len(frame)} rows written by wetland_gis {__version__} "
        f"(columns {columns}{', ...' if len(frame.columns) > 8 else ''}); see "
        "docs/data_schema.md."
    )


_LAYER_STYLES_DDL = """
CREATE TABLE IF NOT EXISTS layer_styles (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    f_table_catalog TEXT(256),
    f_table_schema TEXT(256),
    f_table_name TEXT(256),
    f_geometry_column TEXT(256),
    styleName TEXT(30),
    styleQML TEXT,
    styleSLD TEXT,
    useAsDefault BOOLEAN,
    description TEXT,
    owner TEXT(30),
    ui TEXT(30),
    update_time DATETIME DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
)
"""


@dataclass(frozen=True)
class Category:
    """One class of a categorised style.

    Parameters
    ----------
    value : str
        The attribute value (as text).
    label : str
        How the class reads in the QGIS legend.
    color : str
        Fill colour ``#RRGGBB``.
    dashed : bool
        Dashed outline (a colour-free second cue).
    """

    value: str
    label: str
    color: str
    dashed: bool = False


@dataclass(frozen=True)
class LayerStyle:
    """A categorised QGIS style of one layer.

    Parameters
    ----------
    field : str
        The attribute the categories are on.
    categories : tuple of Category
        The classes, in legend order.
    geometry : {"fill", "line", "marker"}
        The QGIS symbol type.
    label_field : str or None
        The attribute drawn as a label.
    fill_alpha : int
        Fill opacity 0-255.
    """

    field: str
    categories: tuple[Category, ...]
    geometry: str = "fill"
    label_field: str | None = None
    fill_alpha: int = 150
    aliases: Mapping[str, str] | None = None
    hidden: tuple[str, ...] = ()


NULL_COLOR = "#BBBBBB"
"""Fill colour of the category of a NULL (empty) value: drawn, in grey."""

NULL_LABEL = "Not assessed (no value)"
"""Legend label of the category of a NULL (empty) value."""

ALIASES_FILE = "field_aliases.csv"
"""The field aliases of the output layers, in ``wetland_gis/data`` (see :func:`field_aliases`)."""


@lru_cache(maxsize=1)
def _alias_table() -> dict[str, dict[str, tuple[str, bool]]]:
    from importlib.resources import files

    text = files("wetland_gis").joinpath(f"data/{ALIASES_FILE}").read_text(encoding="utf-8")
    table: dict[str, dict[str, tuple[str, bool]]] = {}
    for row in csv.DictReader(io.StringIO(text)):
        table.setdefault(row["layer"], {})[row["column"]] = (
            row["alias"],
            row["technical"].strip().lower() == "yes",
        )
    return table


def field_aliases(layer: str, columns: Any) -> tuple[dict[str, str], tuple[str, ...]]:
    """Return the QGIS alias of every column of a layer, and its technical columns.

    The aliases are those of ``wetland_gis/data/field_aliases.csv`` (one row per output
    column, kept in step with ``docs/data_schema.md`` by ``tests/test_qgis_styles.py``);
    a column that file does not know (a column of the user's input carried through) reads
    as its name with spaces. Technical columns (row numbers, WKT, JSON) are hidden in
    the QGIS attribute form.

    Parameters
    ----------
    layer : str
        The layer name (``impacts``, ``decisions``, ``appropriations``, ...).
    columns : iterable of str
        The layer's columns.

    Returns
    -------
    (dict, tuple of str)
        Column to alias, and the technical columns.

    Examples
    --------
    >>> aliases, hidden = field_aliases("impacts", ["zone", "wg_row", "my_note"])
    >>> aliases["zone"], aliases["my_note"], hidden
    ('Shoreland zone', 'my note', ('wg_row',))
    """
    known = _alias_table().get(layer, {})
    aliases: dict[str, str] = {}
    hidden: list[str] = []
    for column in columns:
        name = str(column)
        alias, technical = known.get(name, (name.replace("_", " "), False))
        aliases[name] = alias
        if technical:
            hidden.append(name)
    return aliases, tuple(hidden)


def gpkg_dataset_options(path: str | Path) -> dict[str, str]:
    """Return the GDAL dataset creation options of a new GeoPackage (none for an existing one).

    Parameters
    ----------
    path : str or Path
        The GeoPackage about to be written.

    Returns
    -------
    dict
        ``{"VERSION": GPKG_VERSION}`` when the file does not exist yet, else ``{}``
        (a layer added to an existing file keeps that file's version).
    """
    return {} if Path(path).exists() else {"VERSION": GPKG_VERSION}


def _rgb(color: str, alpha: int = 255) -> str:
    color = color.lstrip("#")
    r, g, b = (int(color[i : i + 2], 16) for i in (0, 2, 4))
    return f"{r},{g},{b},{alpha}"


def _symbol_kind(frame: pd.DataFrame) -> str | None:
    geometry = getattr(frame, "_geometry_column_name", None)
    if geometry is None or geometry not in frame:
        return None
    types = frame.geometry.geom_type.dropna()
    if types.empty:
        return "fill"
    top = types.str.replace("Multi", "").value_counts().idxmax()
    return {"Point": "marker", "LineString": "line"}.get(top, "fill")


def layer_style(layer: str, frame: pd.DataFrame) -> LayerStyle | None:
    """Return the style of a layer by its name (or its columns), or None for no style.

    Every categorised style ends with a category for a NULL value (a row not assessed),
    drawn in grey, unless it has one; the style carries the field aliases and the
    technical columns hidden in the attribute form (:func:`field_aliases`).

    Parameters
    ----------
    layer : str
        Layer name in the GeoPackage (``impacts``, ``shoreland_zones``, ``sites``,
        ``banks``, ``appropriations``); another layer with an ``outcome`` column is
        styled as impacts.
    frame : GeoDataFrame
        The layer written.

    Returns
    -------
    LayerStyle or None
    """
    style = _categorised(layer, frame)
    if style is None:
        return None
    geometry = getattr(frame, "_geometry_column_name", None)
    aliases, hidden = field_aliases(layer, [c for c in frame.columns if c != geometry])
    cats = style.categories
    if not any(c.value == "" for c in cats):  # NULL / not assessed rows are drawn too
        cats += (Category("", NULL_LABEL, NULL_COLOR, dashed=True),)
    return replace(style, categories=cats, aliases=aliases, hidden=hidden)


def _categorised(layer: str, frame: pd.DataFrame) -> LayerStyle | None:
    kind = _symbol_kind(frame)
    if kind is None:
        return None
    columns = {str(c).lower(): str(c) for c in frame.columns}
    if layer == "appropriations" and "outcome" in columns:  # water use: its own outcomes
        present = frame[columns["outcome"]].dropna().astype(str).unique()
        values = [*WATER_COLORS, *sorted(set(present) - set(WATER_COLORS))]
        cats = tuple(Category(v, label(v), WATER_COLORS.get(v, _UNRANKED)) for v in values)
        label_field = columns.get("permit_id")
        return LayerStyle(columns["outcome"], cats, kind, label_field)
    if layer == "impacts" or "outcome" in columns:
        if "outcome" not in columns:
            return None
        values = list(OUTCOME_COLORS)
        values += [
            v for v in frame[columns["outcome"]].dropna().astype(str).unique() if v not in values
        ]
        cats = tuple(
            Category(v, label(v), OUTCOME_COLORS.get(v, _UNRANKED), bool(OUTCOME_DASH.get(v)))
            for v in values
        )
        label_field = next(
            (columns[c] for c in ("impact_id", "id", "wg_row") if c in columns), None
        )
        return LayerStyle(columns["outcome"], cats, kind, label_field)
    if layer == "shoreland_zones" or ("zone" in columns and layer != "impacts"):
        if "zone" not in columns:
            return None
        values = list(dict.fromkeys(frame[columns["zone"]].dropna().astype(str)))
        cats = tuple(
            Category(v, zone_style(v).label, zone_style(v).color, bool(zone_style(v).dash))
            for v in values
        )
        return LayerStyle(columns["zone"], cats, kind, None, fill_alpha=60)
    tier = columns.get("best_tier") or columns.get("tier")
    if tier is not None:
        id_field = next(
            (columns[c] for c in ("site_id", "account", "bank_name", "option_id") if c in columns),
            None,
        )
        cats = tuple(Category(str(t), tier_label(t), TIER_COLORS[t]) for t in TIER_COLORS)
        cats += (Category("", "Not ranked", _UNRANKED),)
        return LayerStyle(tier, cats, kind, id_field)
    return None


# ------------------------------------------------------------------------------ QML


def _option_map(parent: ET.Element, values: Mapping[str, str]) -> None:
    options = ET.SubElement(parent, "Option", type="Map")
    for key, value in values.items():
        ET.SubElement(options, "Option", name=key, value=value, type="QString")


def _symbol(parent: ET.Element, name: str, style: LayerStyle, cat: Category) -> None:
    symbol = ET.SubElement(
        parent,
        "symbol",
        type=style.geometry,
        name=name,
        alpha="1",
        clip_to_extent="1",
        force_rhr="0",
    )
    outline = "dash" if cat.dashed else "solid"
    if style.geometry == "fill":
        layer = ET.SubElement(
            symbol, "layer", {"class": "SimpleFill", "enabled": "1", "locked": "0", "pass": "0"}
        )
        _option_map(
            layer,
            {
                "color": _rgb(cat.color, style.fill_alpha),
                "style": "solid",
                "outline_color": _rgb(cat.color),
                "outline_style": outline,
                "outline_width": "0.6",
                "outline_width_unit": "MM",
                "joinstyle": "bevel",
            },
        )
    elif style.geometry == "line":
        layer = ET.SubElement(
            symbol, "layer", {"class": "SimpleLine", "enabled": "1", "locked": "0", "pass": "0"}
        )
        _option_map(
            layer,
            {
                "line_color": _rgb(cat.color),
                "line_style": outline,
                "line_width": "0.8",
                "line_width_unit": "MM",
            },
        )
    else:
        layer = ET.SubElement(
            symbol, "layer", {"class": "SimpleMarker", "enabled": "1", "locked": "0", "pass": "0"}
        )
        _option_map(
            layer,
            {
                "color": _rgb(cat.color),
                "name": "circle",
                "size": "3.4",
                "size_unit": "MM",
                "outline_color": "35,35,35,255",
                "outline_style": outline,
                "outline_width": "0.4",
                "outline_width_unit": "MM",
            },
        )


def qml(style: LayerStyle) -> str:
    """Return the QGIS QML document of a categorised style (symbology and labels).

    Parameters
    ----------
    style : LayerStyle

    Returns
    -------
    str
        A QML document QGIS 3.22 and later load as a layer style.
    """
    kinds = ["Symbology", "Labeling"] if style.categories else []
    if style.aliases:
        kinds += ["Fields", "Forms"]
    root = ET.Element("qgis", version="3.22.0", styleCategories="|".join(kinds))
    if style.categories:
        renderer = ET.SubElement(
            root,
            "renderer-v2",
            type="categorizedSymbol",
            attr=style.field,
            symbollevels="0",
            enableorderby="0",
            forceraster="0",
        )
        categories = ET.SubElement(renderer, "categories")
        symbols = ET.SubElement(renderer, "symbols")
        for i, cat in enumerate(style.categories):
            ET.SubElement(
                categories,
                "category",
                render="true",
                value=cat.value,
                label=cat.label,
                symbol=str(i),
            )
            _symbol(symbols, str(i), style, cat)
    if style.aliases:
        _fields(root, style)
    if style.label_field:
        labeling = ET.SubElement(root, "labeling", type="simple")
        settings = ET.SubElement(labeling, "settings", calloutType="simple")
        text = ET.SubElement(
            settings,
            "text-style",
            fieldName=style.label_field,
            isExpression="0",
            fontFamily="DejaVu Sans",
            fontSize="9",
            fontSizeUnit="Point",
            fontWeight="75",
            textColor="20,20,20,255",
            textOpacity="1",
        )
        ET.SubElement(
            text,
            "text-buffer",
            bufferDraw="1",
            bufferSize="0.8",
            bufferSizeUnits="MM",
            bufferColor="255,255,255,255",
            bufferOpacity="1",
        )
        placement = "1" if style.geometry == "fill" else "6"  # over point / around point
        ET.SubElement(settings, "placement", placement=placement, dist="1", distUnits="MM")
        ET.SubElement(
            settings,
            "rendering",
            drawLabels="1",
            obstacle="1",
            scaleVisibility="0",
            upsidedownLabels="0",
        )
    ET.SubElement(root, "layerGeometryType").text = {"marker": "0", "line": "1"}.get(
        style.geometry, "2"
    )
    return "<!DOCTYPE qgis PUBLIC 'http://mrcc.com/qgis.dtd' 'SYSTEM'>\n" + ET.tostring(
        root, encoding="unicode"
    )


def _fields(root: ET.Element, style: LayerStyle) -> None:
    """Add the field configuration (technical columns hidden in the form) and aliases."""
    config = ET.SubElement(root, "fieldConfiguration")
    for name in style.aliases or {}:
        field = ET.SubElement(config, "field", name=name, configurationFlags="None")
        widget = ET.SubElement(
            field, "editWidget", type="Hidden" if name in style.hidden else "TextEdit"
        )
        ET.SubElement(ET.SubElement(widget, "config"), "Option")
    aliases = ET.SubElement(root, "aliases")
    for i, (name, alias) in enumerate((style.aliases or {}).items()):
        ET.SubElement(aliases, "alias", field=name, index=str(i), name=alias)


# ------------------------------------------------------------------------------ SLD

_SLD = "http://www.opengis.net/sld"
_OGC = "http://www.opengis.net/ogc"
_SE_NS = "http://www.opengis.net/se"


def sld(style: LayerStyle, layer: str) -> str:
    """Return an OGC SLD 1.1 document of a categorised style (one rule per category).

    Parameters
    ----------
    style : LayerStyle
    layer : str
        The named layer.

    Returns
    -------
    str
    """
    ET.register_namespace("", _SLD)
    ET.register_namespace("ogc", _OGC)
    ET.register_namespace("se", _SE_NS)
    root = ET.Element(f"{{{_SLD}}}StyledLayerDescriptor", version="1.1.0")
    named = ET.SubElement(root, f"{{{_SLD}}}NamedLayer")
    ET.SubElement(named, f"{{{_SE_NS}}}Name").text = layer
    user = ET.SubElement(named, f"{{{_SLD}}}UserStyle")
    ET.SubElement(user, f"{{{_SE_NS}}}Name").text = STYLE_NAME
    fts = ET.SubElement(user, f"{{{_SE_NS}}}FeatureTypeStyle")
    for cat in style.categories:
        rule = ET.SubElement(fts, f"{{{_SE_NS}}}Rule")
        ET.SubElement(rule, f"{{{_SE_NS}}}Name").text = cat.value or "none"
        desc = ET.SubElement(rule, f"{{{_SE_NS}}}Description")
        ET.SubElement(desc, f"{{{_SE_NS}}}Title").text = cat.label
        flt = ET.SubElement(rule, f"{{{_OGC}}}Filter")
        eq = ET.SubElement(flt, f"{{{_OGC}}}PropertyIsEqualTo")
        ET.SubElement(eq, f"{{{_OGC}}}PropertyName").text = style.field
        ET.SubElement(eq, f"{{{_OGC}}}Literal").text = cat.value
        if style.geometry == "marker":
            sym = ET.SubElement(rule, f"{{{_SE_NS}}}PointSymbolizer")
            graphic = ET.SubElement(sym, f"{{{_SE_NS}}}Graphic")
            mark = ET.SubElement(graphic, f"{{{_SE_NS}}}Mark")
            ET.SubElement(mark, f"{{{_SE_NS}}}WellKnownName").text = "circle"
            fill = ET.SubElement(mark, f"{{{_SE_NS}}}Fill")
            _css(fill, "fill", cat.color)
            ET.SubElement(graphic, f"{{{_SE_NS}}}Size").text = "12"
        elif style.geometry == "line":
            sym = ET.SubElement(rule, f"{{{_SE_NS}}}LineSymbolizer")
            stroke = ET.SubElement(sym, f"{{{_SE_NS}}}Stroke")
            _css(stroke, "stroke", cat.color)
        else:
            sym = ET.SubElement(rule, f"{{{_SE_NS}}}PolygonSymbolizer")
            fill = ET.SubElement(sym, f"{{{_SE_NS}}}Fill")
            _css(fill, "fill", cat.color)
            _css(fill, "fill-opacity", f"{style.fill_alpha / 255:.2f}")
            stroke = ET.SubElement(sym, f"{{{_SE_NS}}}Stroke")
            _css(stroke, "stroke", cat.color)
            if cat.dashed:
                _css(stroke, "stroke-dasharray", "4 2")
        if style.label_field:
            text = ET.SubElement(rule, f"{{{_SE_NS}}}TextSymbolizer")
            lab = ET.SubElement(text, f"{{{_SE_NS}}}Label")
            ET.SubElement(lab, f"{{{_OGC}}}PropertyName").text = style.label_field
    return ET.tostring(root, encoding="unicode", xml_declaration=False)


def _css(parent: ET.Element, name: str, value: str) -> None:
    ET.SubElement(parent, f"{{{_SE_NS}}}SvgParameter", name=name).text = value


# ------------------------------------------------------------------------------ writing


def _geometry_column(con: sqlite3.Connection, table: str) -> str:
    row = con.execute(
        "SELECT column_name FROM gpkg_geometry_columns WHERE table_name = ?", (table,)
    ).fetchone()
    return row[0] if row else ""


def _register_layer_styles(con: sqlite3.Connection) -> None:
    con.execute(_LAYER_STYLES_DDL)
    con.execute(
        "INSERT OR IGNORE INTO gpkg_contents (table_name, data_type, identifier, description,"
        " last_change) VALUES ('layer_styles', 'attributes', 'layer_styles',"
        " 'QGIS layer styles', strftime('%Y-%m-%dT%H:%M:%fZ','now'))"
    )


def style_layer(
    path: str | Path,
    layer: str,
    frame: pd.DataFrame,
    *,
    description: str | None = None,
) -> LayerStyle | None:
    """Write a layer's default QGIS style and its description into a GeoPackage.

    Parameters
    ----------
    path : str or Path
        The GeoPackage the layer was just written to.
    layer : str
        The layer (table) name.
    frame : DataFrame
        The layer written (its columns and geometry types choose the style).
    description : str, optional
        The layer description; default from :data:`LAYER_DESCRIPTIONS` or a generic one.

    Returns
    -------
    LayerStyle or None
        The style written; None when the layer gets only a description.
    """
    style = layer_style(layer, frame)
    if style is None:  # no symbology: the aliases and the form only
        geometry = getattr(frame, "_geometry_column_name", None)
        aliases, hidden = field_aliases(layer, [c for c in frame.columns if c != geometry])
        fields_only = LayerStyle("", (), _symbol_kind(frame) or "fill", None, 0, aliases, hidden)
    text = description or layer_description(layer, frame)
    con = sqlite3.connect(Path(path))
    try:
        with con:
            con.execute(
                "UPDATE gpkg_contents SET description = ? WHERE table_name = ?", (text, layer)
            )
            written = style or fields_only
            _register_layer_styles(con)
            con.execute("DELETE FROM layer_styles WHERE f_table_name = ?", (layer,))
            con.execute(
                "INSERT INTO layer_styles (f_table_catalog, f_table_schema, f_table_name,"
                " f_geometry_column, styleName, styleQML, styleSLD, useAsDefault, description,"
                " owner, ui) VALUES ('', '', ?, ?, ?, ?, ?, 1, ?, '', '')",
                (
                    layer,
                    _geometry_column(con, layer),
                    STYLE_NAME,
                    qml(written),
                    sld(written, layer),
                    f"wetland_gis default style of {layer}",
                ),
            )
    finally:
        con.close()
    return style


def styled_layers(path: str | Path) -> dict[str, dict[str, Any]]:
    """Return the default styles stored in a GeoPackage, by layer name (for tests and checks).

    Parameters
    ----------
    path : str or Path

    Returns
    -------
    dict
        Layer name to ``{"qml": ..., "sld": ..., "default": bool}``.
    """
    con = sqlite3.connect(Path(path))
    try:
        rows = con.execute(
            "SELECT f_table_name, styleQML, styleSLD, useAsDefault FROM layer_styles"
        ).fetchall()
    except sqlite3.OperationalError:
        rows = []
    finally:
        con.close()
    return {r[0]: {"qml": r[1], "sld": r[2], "default": bool(r[3])} for r in rows}
