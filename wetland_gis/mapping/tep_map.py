"""The Technical Evaluation Panel (TEP) review map of a project's wetland impacts.

One folium map with a layer per theme: impacts coloured by outcome, the shoreland zones,
the reference boundaries (county, major and minor watershed, bank service area, public
waters), and the candidate replacement sites and wetland banks with their siting tier and
allocated credits. Clicking an impact shows its decision chain with citations.

Every attribute value shown is HTML-escaped in Python before it reaches the page. Feature
properties embedded in the page hold only those escaped strings and the style, never the
raw attribute values, and no folium ``GeoJsonTooltip``/``GeoJsonPopup`` (which do not
escape) is used.
"""

from __future__ import annotations

import base64
import html
import os
import re
from collections.abc import Mapping, Sequence
from functools import cache
from importlib.resources import files
from pathlib import Path
from types import MappingProxyType
from typing import Any

import branca.element
import folium
import geopandas as gpd
import jinja2
import numpy as np
import pandas as pd
import shapely
from folium.plugins import Fullscreen, MarkerCluster, MeasureControl
from folium.template import Template
from folium.utilities import JsCode
from shapely.geometry import box, mapping

from wetland_gis.enums import ShorelandZone
from wetland_gis.errors import MissingCRSError
from wetland_gis.geometry.crs import WORKING_CRS as WORK_CRS  # distances are measured here
from wetland_gis.labels import label

from ._format import (
    MISSING,
    MappingInputError,
    find_column,
    fmt,
    impact_ids,
    is_missing,
    row_value,
)
from .offline import ASSETS_DIR, make_self_contained, use_vendored_assets
from .popups import (
    attributes_html,
    impact_brief_popup_html,
    impact_popup_html,
    option_popup_html,
)
from .symbology import (
    BANK_COLOR,
    CONTEXT_LAYERS,
    NWI_DELINEATION_TITLE,
    OUTCOME_COLORS,
    OUTCOME_DASH,
    PROJECT_LAYERS,
    SITE_COLOR,
    outcome_color,
    outcome_label,
    zone_style,
)

DISPLAY_CRS = "EPSG:4326"
"""What Leaflet draws: longitude and latitude on WGS 84."""

BASEMAPS: dict[str, str | None] = {
    "none": None,
    "osm": "OpenStreetMap",
    "cartodb": "CartoDB positron",
    "opentopomap": "OpenTopoMap",
}
"""Allowed ``basemap`` values and the folium tile layer each one loads."""

NO_BASEMAP_BACKGROUND = "#F4F1EA"
"""Plain page colour behind the layers when ``basemap="none"``."""

_MARKER_EDGE = "#333333"

LARGE_MAP_IMPACTS = 300
"""Above this many impacts the map is drawn for size (a display choice, ``large_above``).

Each impact's popup is its short summary (id, outcome, type, size, zone, ratio,
replacement) rather than its whole decision chain, held once (on its marker) instead of on
its polygon and marker, the id labels are shown only from zoom level
:data:`LARGE_LABEL_ZOOM` inwards, and the location markers are clustered
(Leaflet.markercluster) where they overlap, each drawn on its own from that zoom on.
The report and the ``decisions`` table hold the chain.
"""

LARGE_LABEL_ZOOM = 16
"""The zoom level from which a large project's impact id labels are shown (about 1:9,000)."""

LARGE_MAX_ZOOM = 18
"""The closest zoom of a large project's map (about 0.6 m a pixel; folium's tile limit).

Leaflet.markercluster needs a map with a finite zoom range.
"""
"""Outline of the impact location markers (their fill is the outcome colour)."""

_COORD_DECIMALS = 7  # about 1 cm: enough for display, much shorter than 15 digits

# Bound on each feature of a folium GeoJson layer (defined in ``assets/tep_map.js``).
_ON_EACH_FEATURE = JsCode("wetlandGis.onEachFeature")

_TEMPLATES = "templates"
_ASSETS = "assets"


@cache
def _package_text(folder: str, name: str) -> str:
    """Return the text of one of the map's own files (read once per process)."""
    # one part per `/`: Traversable.joinpath takes a single child before Python 3.11
    return (files(__package__) / folder / name).read_text(encoding="utf-8")


def _page_script() -> str:
    """Return ``assets/tep_map.js`` with any end tag in it broken up, safe to inline."""
    # a literal "</script" would end the inline element early (as offline.py guards)
    return re.sub(r"</(script)", r"<\\/\1", _package_text(_ASSETS, "tep_map.js"), flags=re.I)


@cache
def _templates() -> jinja2.Environment:
    """Return the jinja2 environment of ``templates/`` (``.html.j2`` is autoescaped)."""
    return jinja2.Environment(
        loader=jinja2.PackageLoader(__package__, _TEMPLATES),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
    )


def _render(name: str, **values: Any) -> str:
    """Render a template of ``templates/``."""
    return _templates().get_template(name).render(**values)


@cache
def _decorations_template() -> Template:
    """Return the branca macro template of :class:`_Decorations` (compiled once)."""
    return Template(_package_text(_TEMPLATES, "tep_decorations.js.j2"))


class _Decorations(branca.element.MacroElement):
    """Page CSS and script, the legend (collapsible), the opening view and the zoom controls.

    The stylesheet (``assets/tep_map.css``) and script (``assets/tep_map.js``) are inlined
    in the page header; the macro template is ``templates/tep_decorations.js.j2``. The
    legend is a Leaflet control (so it stays in fullscreen) behind a "Legend" button,
    open on a wide screen and collapsed on a phone (map narrower than 600 px). The opening
    view fits ``fit`` (the impacts and the options allocated to them) with padding that
    suits the screen; a control zooms to every site and bank (``options``) and back.
    Impact id labels are shown from two zoom levels below the opening view inwards.
    Leaflet's default marker images are set to inlined data URIs, so no marker ever
    requests a file.
    """

    def __init__(
        self,
        legend_html: str,
        fit: list[list[float]] | None,
        options: list[list[float]] | None,
        background: str | None = None,
        label_zoom: int | None = None,
    ) -> None:
        super().__init__()
        self.label_zoom = label_zoom
        self._template = _decorations_template()
        self._name = "WetlandGISLegend"
        self.legend_html = legend_html
        self.css = _package_text(_ASSETS, "tep_map.css")
        self.js = _page_script()
        self.background = background
        self.fit = fit
        self.options = options
        self.icons = dict(_default_icons())


@cache
def _default_icons() -> Mapping[str, str]:
    """Leaflet's default marker images as data URIs (vendored in :data:`.offline.ASSETS_DIR`)."""
    folder = ASSETS_DIR / "leaflet" / "images"

    def uri(name: str) -> str:
        data = base64.b64encode(folder.joinpath(name).read_bytes()).decode("ascii")
        return f"data:image/png;base64,{data}"

    return MappingProxyType(
        {
            "iconUrl": uri("marker-icon.png"),
            "iconRetinaUrl": uri("marker-icon-2x.png"),
            "shadowUrl": uri("marker-shadow.png"),
        }
    )


# --------------------------------------------------------------------------- helpers


def _check_frame(frame: Any, name: str, *, required: Sequence[str] = ()) -> gpd.GeoDataFrame:
    """Return ``frame`` as a GeoDataFrame with a CRS, or raise naming the fix."""
    if isinstance(frame, pd.DataFrame) and not isinstance(frame, gpd.GeoDataFrame):
        lon = find_column(frame.columns, "lon", "longitude", "x")
        lat = find_column(frame.columns, "lat", "latitude", "y")
        if lon is None or lat is None:
            raise MappingInputError(
                f"`{name}` is a DataFrame without geometry; give a GeoDataFrame or "
                "`lon`/`lat` columns (WGS 84)"
            )
        frame = gpd.GeoDataFrame(
            frame, geometry=gpd.points_from_xy(frame[lon], frame[lat]), crs=DISPLAY_CRS
        )
    if not isinstance(frame, gpd.GeoDataFrame):
        raise MappingInputError(f"`{name}` must be a GeoDataFrame, got {type(frame).__name__}")
    if frame.crs is None:
        raise MissingCRSError(
            f"`{name}` has no CRS; set the one its coordinates are in with "
            "`.set_crs(...)` (e.g. EPSG:26915) before mapping"
        )
    missing = [c for c in required if find_column(frame.columns, c) is None]
    if missing:
        raise MappingInputError(f"`{name}` lacks column(s) {missing}; it has {list(frame.columns)}")
    return frame


def _drawable(frame: gpd.GeoDataFrame) -> pd.Series:
    geoms = frame.geometry
    return geoms.notna() & ~geoms.is_empty


def _for_display(frame: gpd.GeoDataFrame, tolerance_m: float) -> gpd.GeoSeries:
    """Simplify in metres (EPSG:26915), reproject to EPSG:4326, round coordinates."""
    geoms = frame.geometry.to_crs(WORK_CRS)
    if tolerance_m > 0:
        geoms = geoms.simplify(tolerance_m, preserve_topology=True)
    geoms = geoms.to_crs(DISPLAY_CRS)
    rounded = shapely.transform(np.asarray(geoms.values), lambda xy: np.round(xy, _COORD_DECIMALS))
    return gpd.GeoSeries(rounded, index=geoms.index, crs=DISPLAY_CRS)


def _features(geoms: gpd.GeoSeries, props: Sequence[dict[str, Any]]) -> dict[str, Any]:
    features = [
        {"type": "Feature", "geometry": mapping(g), "properties": p}
        for g, p in zip(geoms, props, strict=True)
        if g is not None and not g.is_empty
    ]
    return {"type": "FeatureCollection", "features": features}


def _allocation_frame(allocation: pd.DataFrame | None) -> pd.DataFrame | None:
    if allocation is None:
        return None
    if not isinstance(allocation, pd.DataFrame):
        raise MappingInputError(
            f"`allocation` must be a DataFrame, got {type(allocation).__name__}"
        )
    needed = ("impact_id", "option_id")
    missing = [c for c in needed if find_column(allocation.columns, c) is None]
    if missing:
        raise MappingInputError(
            f"`allocation` lacks column(s) {missing}; expected impact_id, option_id, "
            "option_kind, tier, credits, cost"
        )
    out = allocation.copy()
    out["_wg_impact"] = out[find_column(out.columns, "impact_id")].map(fmt)
    out["_wg_option"] = out[find_column(out.columns, "option_id")].map(fmt)
    return out


def _rows_by(frame: pd.DataFrame | None, column: str) -> dict[str, pd.DataFrame]:
    """Return the rows of ``frame`` by their text in ``column`` (grouped once, not per feature)."""
    if frame is None:
        return {}
    return {str(k): g for k, g in frame.groupby(column, sort=False)}


# --------------------------------------------------------------------------- layers


def _style(
    color: str,
    fill: str | None,
    weight: float,
    dash: str | None,
    fill_opacity: float,
    opacity: float = 1.0,
) -> dict[str, Any]:
    style: dict[str, Any] = {
        "color": color,
        "weight": weight,
        "opacity": opacity,
        "fill": fill is not None,
        "fillColor": fill or color,
        "fillOpacity": fill_opacity if fill is not None else 0,
    }
    if dash:
        style["dashArray"] = dash
    return style


def _geojson_layer(
    data: dict[str, Any],
    name: str,
    class_name: str,
    *,
    show: bool = True,
    points: bool = False,
) -> folium.GeoJson:
    return folium.GeoJson(
        data,
        name=name,
        show=show,
        on_each_feature=_ON_EACH_FEATURE,
        marker=folium.CircleMarker(radius=8 if points else 6),
        className=class_name,
    )


def _impacts_layer(
    impacts: gpd.GeoDataFrame,
    ids: pd.Series,
    alloc: pd.DataFrame | None,
    tolerance_m: float,
    trace: pd.DataFrame | None = None,
    brief: bool = False,
) -> tuple[folium.GeoJson, folium.GeoJson, dict[str, int], int]:
    drawable = _drawable(impacts)
    shown = impacts[drawable]
    geoms = _for_display(shown, tolerance_m)
    outcome_col = find_column(impacts.columns, "outcome")
    counts: dict[str, int] = {}
    props = []
    # each impact's steps of the decision trace, for its popup (grouped once)
    steps_of: dict[str, pd.DataFrame] = (
        {str(k): g for k, g in trace.groupby(trace["impact_id"].astype(str), sort=False)}
        if trace is not None and len(trace)
        else {}
    )
    alloc_of = _rows_by(alloc, "_wg_impact")
    for idx, row in shown.drop(columns=shown.geometry.name).iterrows():
        outcome = fmt(row[outcome_col])
        counts[outcome] = counts.get(outcome, 0) + 1
        impact_id = ids[idx]
        allocations = None if alloc is None else alloc_of.get(impact_id, alloc.iloc[:0])
        color = outcome_color(outcome)
        props.append(
            {
                "wg_layer": "impacts",
                "wg_id": html.escape(impact_id),
                "wg_outcome": html.escape(outcome),
                "wg_tooltip": f"Impact {html.escape(impact_id)}: "
                f"{html.escape(outcome_label(outcome))}",
                "wg_popup": impact_brief_popup_html(row, impact_id, outcome)
                if brief
                else impact_popup_html(
                    row.to_dict(),
                    impact_id=impact_id,
                    allocations=allocations,
                    steps=steps_of.get(str(impact_id)) if steps_of else None,
                ),
                # outline in the outcome colour too, so an impact a few pixels wide
                # still shows its colour
                "style": _style(color, color, 2.5, OUTCOME_DASH.get(outcome, "2 3"), 0.55),
            }
        )
    # a large project: the popup once, on the marker (the polygon keeps its tooltip)
    polygon_props = (
        [{k: v for k, v in p.items() if k != "wg_popup"} for p in props] if brief else props
    )
    layer = _geojson_layer(
        _features(geoms, polygon_props), f"Impacts by outcome ({len(props)})", "wg-impacts"
    )
    # a marker on each impact too: a polygon of a few square feet is a dot at the zoom that
    # fits the project, and a TEP member must still find and click it
    points = gpd.GeoSeries(shown.geometry.representative_point(), crs=shown.crs).to_crs(DISPLAY_CRS)
    marker_props = [
        {
            **p,
            "wg_layer": "impact_markers",
            # a large project's labels are bound from LARGE_LABEL_ZOOM on, in view only
            ("wg_label_lazy" if brief else "wg_label"): p["wg_id"],
            "style": _style(_MARKER_EDGE, p["style"]["fillColor"], 1.5, None, 0.9),
        }
        for p in props
    ]
    markers = _geojson_layer(
        _features(points, marker_props),
        "Impact locations (markers)",
        "wg-impact-markers",
        points=True,
    )
    return layer, markers, counts, int((~drawable).sum())


def _zones_layer(
    zones: gpd.GeoDataFrame, tolerance_m: float
) -> tuple[folium.GeoJson | None, list[str]]:
    """Return the zones layer and the zone values drawn, in drawing order."""
    zone_col = find_column(zones.columns, "zone")
    keep = _drawable(zones) & (zones[zone_col] != ShorelandZone.OUTSIDE.value)
    shown = zones[keep]
    if shown.empty:
        return None, []
    # the wider protection zone first, so the setback zone is drawn over it
    order = {ShorelandZone.PROTECTION.value: 0, ShorelandZone.BUILDING_SETBACK.value: 1}
    shown = shown.iloc[np.argsort([order.get(z, 2) for z in shown[zone_col]], kind="stable")]
    geoms = _for_display(shown, tolerance_m)
    props = []
    for _, row in shown.drop(columns=shown.geometry.name).iterrows():
        zone = fmt(row[zone_col])
        style = zone_style(zone)
        props.append(
            {
                "wg_layer": "zones",
                "wg_id": html.escape(zone),
                "wg_tooltip": html.escape(style.label),
                "wg_popup": _render(
                    "tep_zone_popup.html.j2",
                    label=style.label,
                    citation=style.citation or MISSING,
                    # escaped value by value by popups.attributes_html (the template
                    # inserts it with |safe)
                    attributes=attributes_html(row.to_dict()),
                ),
                "style": _style(style.color, style.color, 1.2, style.dash, style.fill_opacity),
            }
        )
    present = list(dict.fromkeys(fmt(z) for z in shown[zone_col]))
    return _geojson_layer(_features(geoms, props), "Shoreland zones", "wg-zones"), present


def _context_layer(
    key: str, frame: gpd.GeoDataFrame, extent: Any, tolerance_m: float
) -> folium.GeoJson | None:
    spec = CONTEXT_LAYERS[key]
    frame = _check_frame(frame, f"context[{key!r}]")
    work = frame[_drawable(frame)].to_crs(WORK_CRS)
    if work.empty:
        return None
    if spec.boundaries:
        polygonal = work.geom_type.isin(["Polygon", "MultiPolygon"])
        work = work.set_geometry(work.geometry.where(~polygonal, work.geometry.boundary))
    clipped = gpd.clip(work, extent, keep_geom_type=False)
    clipped = clipped[_drawable(clipped) & ~clipped.geom_type.isin(["Point", "MultiPoint"])]
    if clipped.empty:
        return None
    geoms = _for_display(clipped, tolerance_m)
    fields = [c for c in (find_column(clipped.columns, f) for f in spec.label_fields) if c]
    props = []
    for _, row in clipped.iterrows():
        label = " ".join(fmt(row[f]) for f in fields if not is_missing(row[f])) or MISSING
        props.append(
            {
                "wg_layer": key,
                "wg_id": html.escape(label),
                "wg_tooltip": f"{html.escape(spec.noun)}: {html.escape(label)}",
                "style": _style(
                    spec.color,
                    spec.fill,
                    spec.weight,
                    spec.dash,
                    0.45 if spec.fill else 0.0,
                    opacity=0.9,
                ),
            }
        )
    return _geojson_layer(_features(geoms, props), spec.title, f"wg-context wg-{key}")


def _project_layer(
    key: str, frame: gpd.GeoDataFrame, tolerance_m: float
) -> tuple[folium.GeoJson | None, str]:
    """Return a layer the impacts were cut from (:data:`PROJECT_LAYERS`) and its title.

    Drawn whole (not clipped), with a tooltip of its label fields (escaped).
    """
    spec = PROJECT_LAYERS[key]
    frame = _check_frame(frame, f"project_layers[{key!r}]")
    shown = frame[_drawable(frame)]
    nwi_col = find_column(shown.columns, "wl_source")
    on_nwi = key == "delineation" and nwi_col is not None and (shown[nwi_col] == "nwi").any()
    title = NWI_DELINEATION_TITLE if on_nwi else spec.title
    if shown.empty:
        return None, title
    geoms = _for_display(shown, tolerance_m)
    fields = [c for c in (find_column(shown.columns, f) for f in spec.label_fields) if c]
    props = []
    for _, row in shown.drop(columns=shown.geometry.name).iterrows():
        text = " \u00b7 ".join(fmt(row[f]) for f in fields if not is_missing(row[f])) or MISSING
        props.append(
            {
                "wg_layer": key,
                "wg_id": html.escape(text),
                "wg_tooltip": f"{html.escape(spec.noun)}: {html.escape(text)}",
                "style": _style(
                    spec.color, spec.fill, spec.weight, spec.dash, 0.25 if spec.fill else 0.0
                ),
            }
        )
    layer = _geojson_layer(
        _features(geoms, props), f"{title} ({len(props)})", f"wg-project wg-{key}"
    )
    return layer, title


def _options_layer(
    frame: gpd.GeoDataFrame, kind: str, alloc: pd.DataFrame | None, tolerance_m: float
) -> tuple[folium.GeoJson | None, int]:
    id_names = ("site_id",) if kind == "site" else ("account", "bank_name", "option_id")
    id_col = find_column(frame.columns, *id_names, "option_id", "id")
    tier_col = find_column(frame.columns, "best_tier", "tier")
    credits_col = find_column(frame.columns, "allocated_credits")
    shown = frame[_drawable(frame)]
    if shown.empty:
        return None, 0
    geoms = _for_display(shown, tolerance_m)
    color = SITE_COLOR if kind == "site" else BANK_COLOR
    props = []
    alloc_of = _rows_by(alloc, "_wg_option")
    for idx, row in shown.drop(columns=shown.geometry.name).iterrows():
        option_id = fmt(row[id_col]) if id_col else fmt(idx)
        if kind == "bank" and id_col and id_col.lower() == "account":
            name = row_value(row, "bank_name")
            display = f"{fmt(name)} ({option_id})" if not is_missing(name) else option_id
        else:
            display = option_id
        allocations = None if alloc is None else alloc_of.get(option_id, alloc.iloc[:0])
        # attribute values of any type; is_missing guards each use below
        tier: Any = row[tier_col] if tier_col else None
        credits: Any = row[credits_col] if credits_col else None
        if allocations is not None and len(allocations):
            if is_missing(tier) and find_column(allocations.columns, "tier"):
                tier = pd.to_numeric(
                    allocations[find_column(allocations.columns, "tier")], errors="coerce"
                ).min()
            if is_missing(credits) and find_column(allocations.columns, "credits"):
                credits = pd.to_numeric(
                    allocations[find_column(allocations.columns, "credits")], errors="coerce"
                ).sum()
        tier_text = "not ranked" if is_missing(tier) else f"tier {fmt(tier)}"
        credit_text = (
            "no credits allocated"
            if is_missing(credits) or not float(credits)
            else (f"{fmt(float(credits), digits=2)} cr allocated")
        )
        label = f"{kind.capitalize()} {display} \u00b7 {tier_text} \u00b7 {credit_text}"
        props.append(
            {
                "wg_layer": f"{kind}s",
                "wg_id": html.escape(option_id),
                # a permanent label only where credits are allocated, so a map with
                # many ranked options stays readable; the others label on hover
                "wg_permanent": not is_missing(credits) and float(credits) > 0,
                "wg_tooltip": html.escape(label),
                "wg_popup": option_popup_html(
                    kind, display, row.to_dict(), tier, credits, allocations
                ),
                "style": _style("#000000", color, 1.5, None, 0.6),
            }
        )
    title = "Candidate replacement sites" if kind == "site" else "Wetland banks"
    layer = _geojson_layer(
        _features(geoms, props), f"{title} ({len(props)})", f"wg-{kind}s", points=True
    )
    return layer, len(props)


def _legend_html(
    title: str | None,
    counts: Mapping[str, int],
    undrawn: int,
    zones_present: Sequence[str],
    contexts: Sequence[str],
    n_sites: int,
    n_banks: int,
    basemap: str,
    siting_reading: str | None = None,
    cluster_zoom: int | None = None,
    project_layers: Sequence[tuple[str, str]] = (),
) -> str:
    """Render ``templates/tep_legend.html.j2`` (autoescaped) for the layers drawn.

    ``cluster_zoom`` (a large project) adds the marker cluster, drawn one by one from it;
    ``project_layers`` (key, title) the layers the impacts were cut from.
    """
    outcomes = list(OUTCOME_COLORS) + [o for o in counts if o not in OUTCOME_COLORS]
    zones = []
    for zone in zones_present:
        style = zone_style(zone)
        zones.append(
            {
                "color": style.color,
                "opacity": f"{min(1.0, style.fill_opacity * 4):.2f}",
                "label": style.label,
            }
        )
    return _render(
        "tep_legend.html.j2",
        title=title,
        siting_reading=label(siting_reading) if siting_reading else None,
        outcomes=[
            {
                "color": outcome_color(outcome),
                "border": "dashed" if OUTCOME_DASH.get(outcome, "2 3") else "solid",
                "label": outcome_label(outcome),
                "count": counts.get(outcome, 0),
            }
            for outcome in outcomes
        ],
        marker_edge=_MARKER_EDGE,
        zones=zones,
        n_sites=n_sites,
        n_banks=n_banks,
        site_color=SITE_COLOR,
        bank_color=BANK_COLOR,
        contexts=[
            {
                "boundaries": CONTEXT_LAYERS[key].boundaries,
                "color": CONTEXT_LAYERS[key].color,
                "fill": CONTEXT_LAYERS[key].fill,
                "dash": "dashed" if CONTEXT_LAYERS[key].dash else "solid",
                "title": CONTEXT_LAYERS[key].title,
            }
            for key in contexts
        ]
        + [
            {
                "boundaries": PROJECT_LAYERS[key].fill is None,
                "color": PROJECT_LAYERS[key].color,
                "fill": PROJECT_LAYERS[key].fill,
                "dash": "dashed" if PROJECT_LAYERS[key].dash else "solid",
                "title": title,
            }
            for key, title in project_layers
        ],
        undrawn=undrawn,
        no_basemap=basemap == "none",
        cluster_zoom=cluster_zoom,
    )


def _extent(frames: Sequence[gpd.GeoDataFrame | None]) -> tuple[float, float, float, float] | None:
    """Bounds in EPSG:26915 of the first frame with drawable geometry."""
    for frame in frames:
        if frame is None:
            continue
        shown = frame[_drawable(frame)]
        if not shown.empty:
            return tuple(shown.geometry.to_crs(WORK_CRS).total_bounds)
    return None


def _latlon_bounds(frames: Sequence[gpd.GeoDataFrame | None]) -> list[list[float]] | None:
    """Return ``[[south, west], [north, east]]`` of every drawable geometry of the frames."""
    boxes = []
    for frame in frames:
        if frame is None or not len(frame):
            continue
        shown = frame[_drawable(frame)]
        if not shown.empty:
            boxes.append(shown.geometry.to_crs(DISPLAY_CRS).total_bounds)
    if not boxes:
        return None
    arr = np.array(boxes)
    return [
        [float(arr[:, 1].min()), float(arr[:, 0].min())],
        [float(arr[:, 3].max()), float(arr[:, 2].max())],
    ]


def _allocated(
    frame: gpd.GeoDataFrame | None, kind: str, alloc: pd.DataFrame | None
) -> gpd.GeoDataFrame | None:
    """Return the rows of ``sites`` or ``banks`` that the allocation draws credits from."""
    if frame is None or alloc is None:
        return None
    id_names = ("site_id",) if kind == "site" else ("account", "bank_name", "option_id")
    col = find_column(frame.columns, *id_names, "option_id", "id")
    if col is None:
        return None
    return frame[frame[col].map(fmt).isin(set(alloc["_wg_option"]))]


# --------------------------------------------------------------------------- public API


def tep_map(
    impacts: gpd.GeoDataFrame,
    *,
    zones: gpd.GeoDataFrame | None = None,
    sites: gpd.GeoDataFrame | None = None,
    banks: gpd.GeoDataFrame | pd.DataFrame | None = None,
    allocation: pd.DataFrame | None = None,
    context: Mapping[str, gpd.GeoDataFrame] | None = None,
    basemap: str = "none",
    self_contained: bool = True,
    simplify_m: float = 0.5,
    context_simplify_m: float = 10.0,
    margin_m: float = 5000.0,
    title: str | None = "TEP review map",
    trace: pd.DataFrame | None = None,
    siting_reading: str | None = None,
    large_above: int = LARGE_MAP_IMPACTS,
    project_layers: Mapping[str, gpd.GeoDataFrame] | None = None,
) -> folium.Map:
    """Build the TEP review map of classified impacts and their replacement options.

    Parameters
    ----------
    impacts : GeoDataFrame
        Classified impacts (output of ``assess``); needs a CRS and an ``outcome`` column.
        Rows without geometry are counted in the legend but not drawn.
    zones : GeoDataFrame, optional
        Shoreland zone polygons with a ``zone`` column (:class:`ShorelandZone` values);
        the outside zone is not drawn.
    sites, banks : GeoDataFrame, optional
        Candidate replacement sites (``site_id``) and banks (``account``/``bank_name``)
        with ``best_tier`` and ``allocated_credits``; when those columns are absent they
        are derived from ``allocation``. ``banks`` may be a DataFrame with ``lon``/``lat``.
    allocation : DataFrame, optional
        ``impact_id, option_id, option_kind, tier, credits, cost``: shown in the
        impact and option popups.
    context : dict of str to GeoDataFrame, optional
        Reference layers by name; those in :data:`CONTEXT_LAYERS` are clipped to the
        impacts' extent plus ``margin_m`` and drawn, the others ignored.
    basemap : str, default "none"
        A key of :data:`BASEMAPS`. ``"none"`` draws a plain background and needs no
        network; the others load tiles from their server.
    self_contained : bool, default True
        Inline the vendored Leaflet and plugin files in the page, so the saved map works
        offline; False links to pinned CDN copies of the same versions.
    simplify_m : float, default 0.5
        Simplification tolerance in metres of impacts, zones, sites and banks.
    context_simplify_m : float, default 10.0
        Simplification tolerance in metres of the context layers.
    margin_m : float, default 5000.0
        Margin around the impacts within which context layers are kept.
    title : str or None, default "TEP review map"
        Heading of the legend.
    trace : DataFrame, optional
        The decision trace (``Assessment.trace``): each impact popup lists its own steps
        (rule, citation, reason, checks) from it; without it the popup shows the rendered
        text columns as they are.
    siting_reading : str, optional
        The § 103G.222, subd. 3(c) reading the siting used (``siting_reading`` of the
        ranking), named in the legend.
    large_above : int
        With more impacts than this, the map is drawn for size
        (:data:`LARGE_MAP_IMPACTS`): short popups held once, labels from
        :data:`LARGE_LABEL_ZOOM`, markers clustered below that zoom.
    project_layers : dict of str to GeoDataFrame, optional
        The layers the impacts were cut from (``wetland-gis impacts``: ``footprint``,
        ``existing``, ``delineation``, ``parcels``, ``drainage``; :data:`PROJECT_LAYERS`),
        each drawn as a layer a TEP member can switch on and off; other keys are ignored.

    Returns
    -------
    folium.Map
        With a layer control, a collapsible legend (collapsed on a phone), scale bar,
        measure tool, fullscreen button, id labels on the impacts and a control to zoom
        to all sites and banks; opening fitted to the impacts and the options allocated
        to them (or to the other layers when no impact can be drawn). The page
        ``<title>`` is ``title``.

    Raises
    ------
    MappingInputError
        When an argument is of the wrong kind, lacks a column or is out of range.
    MissingCRSError
        When a layer has no CRS.

    Examples
    --------
    >>> import geopandas as gpd, shapely
    >>> impacts = gpd.GeoDataFrame(
    ...     {"impact_id": ["W-1"], "outcome": ["replacement_required"]},
    ...     geometry=[shapely.box(430_000, 5_000_000, 430_030, 5_000_030)], crs="EPSG:26915")
    >>> m = tep_map(impacts, title="TEP review map: W-1")
    >>> "W-1" in m.get_root().render()
    True
    """
    _check_options(
        basemap,
        simplify_m=simplify_m,
        context_simplify_m=context_simplify_m,
        margin_m=margin_m,
    )
    impacts = _check_frame(impacts, "impacts", required=("outcome",))
    if zones is not None:
        zones = _check_frame(zones, "zones", required=("zone",))
    if sites is not None:
        sites = _check_frame(sites, "sites")
    if banks is not None:
        banks = _check_frame(banks, "banks")
    if context is not None and not isinstance(context, Mapping):
        raise MappingInputError(
            f"`context` must be a dict of layer name to GeoDataFrame, got {type(context).__name__}"
        )
    alloc = _allocation_frame(allocation)
    large = len(impacts) > large_above
    label_zoom = LARGE_LABEL_ZOOM if large else None

    m = _base_map(basemap, large)
    # the project is its impacts; options of tiers 3 and 4 may lie far away
    bounds = _extent([impacts, sites, zones, banks])
    contexts = _add_context(m, context, bounds, margin_m, context_simplify_m)
    drawn_project = _add_project_layers(m, project_layers, simplify_m)
    zones_present = _add_zones(m, zones, simplify_m)
    n_sites = _add_options(m, sites, "site", alloc, simplify_m)
    n_banks = _add_options(m, banks, "bank", alloc, simplify_m)
    # impacts last: on top of everything, so a click on one always reaches it
    counts, undrawn, cluster = _add_impacts(m, impacts, alloc, simplify_m, trace, large)

    legend = _legend_html(
        title,
        counts,
        undrawn,
        zones_present,
        contexts,
        n_sites,
        n_banks,
        basemap,
        siting_reading,
        label_zoom,
        drawn_project,
    )
    # the opening view: the impacts and the options allocated to them; then everything drawn
    fit = _latlon_bounds(
        [impacts, _allocated(sites, "site", alloc), _allocated(banks, "bank", alloc)]
    ) or _latlon_bounds([sites, zones, banks])
    everything = _latlon_bounds([impacts, sites, banks]) if n_sites or n_banks else None
    background = NO_BASEMAP_BACKGROUND if basemap == "none" else None
    _Decorations(legend, fit, everything, background, label_zoom).add_to(m)
    _add_controls(m, title, cluster, self_contained)
    return m


def _check_options(basemap: str, **distances: float) -> None:
    """Raise :class:`MappingInputError` for an unknown ``basemap`` or a negative distance."""
    if basemap not in BASEMAPS:
        raise MappingInputError(
            f"`basemap` was {basemap!r} but is expected to be in {list(BASEMAPS)}"
        )
    for name, value in distances.items():
        if not isinstance(value, (int, float)) or not np.isfinite(value) or value < 0:
            raise MappingInputError(f"`{name}` was {value!r} but must be a number, 0 or more")


def _base_map(basemap: str, large: bool) -> folium.Map:
    """Return the empty map of Minnesota, with the tiles of ``basemap`` (none for "none")."""
    m = folium.Map(location=[46.3, -94.2], zoom_start=7, tiles=None, control_scale=True)
    if large:
        # the marker clusters need a finite zoom range (a map with no tile layer has none)
        m.options["max_zoom"] = LARGE_MAX_ZOOM
    tiles = BASEMAPS[basemap]
    if tiles is not None:
        folium.TileLayer(tiles, name=f"Basemap: {tiles}", control=True).add_to(m)
    return m


def _add_context(
    m: folium.Map,
    context: Mapping[str, gpd.GeoDataFrame] | None,
    bounds: tuple[float, float, float, float] | None,
    margin_m: float,
    tolerance_m: float,
) -> list[str]:
    """Add the context layers, clipped to ``bounds`` plus ``margin_m``; return their keys."""
    contexts: list[str] = []
    if not context or bounds is None:
        return contexts
    minx, miny, maxx, maxy = bounds
    extent = box(minx - margin_m, miny - margin_m, maxx + margin_m, maxy + margin_m)
    for key in CONTEXT_LAYERS:
        if key in context and context[key] is not None:
            layer = _context_layer(key, context[key], extent, tolerance_m)
            if layer is not None:
                layer.add_to(m)
                contexts.append(key)
    return contexts


def _add_project_layers(
    m: folium.Map, project_layers: Mapping[str, gpd.GeoDataFrame] | None, tolerance_m: float
) -> list[tuple[str, str]]:
    """Add the layers the impacts were cut from; return the (key, title) of each drawn."""
    if project_layers is not None and not isinstance(project_layers, Mapping):
        raise MappingInputError(
            "`project_layers` must be a dict of layer name to GeoDataFrame, got "
            f"{type(project_layers).__name__}"
        )
    drawn: list[tuple[str, str]] = []
    for key in PROJECT_LAYERS:
        frame = (project_layers or {}).get(key)
        if frame is None or not len(frame):
            continue
        layer, title = _project_layer(key, frame, tolerance_m)
        if layer is not None:
            layer.add_to(m)
            drawn.append((key, title))
    return drawn


def _add_zones(m: folium.Map, zones: gpd.GeoDataFrame | None, tolerance_m: float) -> list[str]:
    """Add the shoreland zones; return the zone values drawn, in drawing order."""
    if zones is None:
        return []
    layer, present = _zones_layer(zones, tolerance_m)
    if layer is not None:
        layer.add_to(m)
    return present


def _add_options(
    m: folium.Map,
    frame: gpd.GeoDataFrame | None,
    kind: str,
    alloc: pd.DataFrame | None,
    tolerance_m: float,
) -> int:
    """Add the candidate sites or the banks (``kind``); return how many are drawn."""
    if frame is None:
        return 0
    layer, n = _options_layer(frame, kind, alloc, tolerance_m)
    if layer is not None:
        layer.add_to(m)
    return n


def _add_impacts(
    m: folium.Map,
    impacts: gpd.GeoDataFrame,
    alloc: pd.DataFrame | None,
    tolerance_m: float,
    trace: pd.DataFrame | None,
    large: bool,
) -> tuple[dict[str, int], int, MarkerCluster | None]:
    """Add the impacts and their markers (clustered for a ``large`` project).

    Returns
    -------
    (dict, int, MarkerCluster or None)
        The count of impacts drawn by outcome, the count not drawn (no geometry) and the
        marker cluster of a large project.
    """
    layer, markers, counts, undrawn = _impacts_layer(
        impacts, impact_ids(impacts), alloc, tolerance_m, trace, brief=large
    )
    cluster = None
    if large:
        # thousands of markers overlap at the project's zoom: clustered, and drawn one by
        # one (with their labels) from the label zoom in
        cluster = MarkerCluster(
            name=markers.layer_name,
            disableClusteringAtZoom=LARGE_LABEL_ZOOM,
            chunkedLoading=True,
            showCoverageOnHover=False,
            spiderfyOnMaxZoom=False,
            # the count in a neutral circle (assets/tep_map.js), not an outcome colour
            icon_create_function="wetlandGis.clusterIcon",
        )
        markers.control = False
        cluster.add_to(m)
        markers.add_to(cluster)
    else:
        markers.add_to(m)
    layer.add_to(m)
    return counts, undrawn, cluster


def _add_controls(
    m: folium.Map, title: str | None, cluster: MarkerCluster | None, self_contained: bool
) -> None:
    """Set the page title; add the fullscreen, measure and layer controls and the assets."""
    figure = m.get_root()
    if isinstance(figure, branca.element.Figure):  # a folium.Map is always in one
        figure.title = html.escape(title or "TEP review map")  # branca does not escape
    fullscreen = Fullscreen(position="topleft")
    measure = MeasureControl(
        position="topleft",
        primary_length_unit="feet",
        secondary_length_unit="meters",
        primary_area_unit="sqfeet",
        secondary_area_unit="acres",
    )
    fullscreen.add_to(m)
    measure.add_to(m)
    folium.LayerControl(collapsed=True, position="topright").add_to(m)

    plugins: list[object] = [fullscreen, measure]
    if cluster is not None:
        plugins.append(cluster)
    use_vendored_assets(m, plugins, self_contained=self_contained)


def save_map(m: folium.Map, path: str | os.PathLike[str], self_contained: bool = True) -> Path:
    """Write a map to an HTML file.

    Parameters
    ----------
    m : folium.Map
        A map from :func:`tep_map` (or any folium map).
    path : str or path-like
        The ``.html`` file to write; parent folders are created.
    self_contained : bool, default True
        Run :func:`~wetland_gis.mapping.offline.make_self_contained` over the page, so
        no script or stylesheet is loaded from the network.

    Returns
    -------
    pathlib.Path
        The file written.

    Raises
    ------
    OfflineAssetError
        When ``self_contained`` and the page needs a script or stylesheet that is not
        vendored.
    """
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    page = m.get_root().render()
    if self_contained:
        page = make_self_contained(page)
    out.write_text(page, encoding="utf-8")
    return out
