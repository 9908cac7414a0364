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

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pandas as pd

from wetland_gis.labels import label, tier_label

__all__ = [
    "GPKG_VERSION",
    "LAYER_DESCRIPTIONS",
    "STYLE_NAME",
    "TIER_COLORS",
    "Category",
    "LayerStyle",
    "gpkg_dataset_options",
    "layer_style",
    "qml",
    "sld",
    "style_layer",
    "styled_layers",
]

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
        "and result (no geometry)."
    ),
}
"""Description written to ``gpkg_contents`` for each known layer name."""

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

    Parameters
    ----------
    layer : str
        Layer name in the GeoPackage (``impacts``, ``shoreland_zones``, ``sites``,
        ``banks``); a layer with an ``outcome`` column is styled as impacts.
    frame : GeoDataFrame
        The layer written.

    Returns
    -------
    LayerStyle or None
    """
    from wetland_gis.mapping.symbology import OUTCOME_COLORS, OUTCOME_DASH, zone_style

    kind = _symbol_kind(frame)
    if kind is None:
        return None
    columns = {str(c).lower(): str(c) for c in frame.columns}
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
    root = ET.Element("qgis", version="3.22.0", styleCategories="Symbology|Labeling")
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
            categories, "category", render="true", value=cat.value, label=cat.label, symbol=str(i)
        )
        _symbol(symbols, str(i), style, cat)
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
    text = description or LAYER_DESCRIPTIONS.get(layer) or f"Layer {layer} written by wetland_gis."
    con = sqlite3.connect(Path(path))
    try:
        with con:
            con.execute(
                "UPDATE gpkg_contents SET description = ? WHERE table_name = ?", (text, layer)
            )
            if style is None:
                return None
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
                    qml(style),
                    sld(style, layer),
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
