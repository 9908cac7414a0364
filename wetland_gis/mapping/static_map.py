"""A static map of a project for the printed record (the PDF report), drawn offline.

geopandas and matplotlib draw, in EPSG:26915: the shoreland zones, the public waters and
boundaries of the context, the candidate sites and banks, and the impacts coloured by
outcome (the interactive map's colours) and labelled by id; with a scale bar
(``matplotlib-scalebar``), a north arrow and a legend. No tile or network request is made.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, cast

import geopandas as gpd
import numpy as np
import pandas as pd

from wetland_gis.errors import MissingCRSError
from wetland_gis.geometry.crs import WORKING_CRS
from wetland_gis.io.trace_store import LARGE_PROJECT_IMPACTS

from ._format import MappingInputError, find_column, fmt, impact_ids
from .symbology import (
    BANK_COLOR,
    CONTEXT_LAYERS,
    OUTCOME_COLORS,
    OUTCOME_DASH,
    SITE_COLOR,
    outcome_color,
    outcome_label,
    zone_style,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: The centre of a figure's axes, in axes coordinates (a drawing position, not law).
_AXES_CENTRE = (0.5, 0.5)
#: The smallest side of the framed area in metres, so a single small impact has context.
_MIN_SPAN_M = 200.0
#: The margin around the framed features, as a share of the longer side (a display choice).
_FRAME_PAD = 0.12
#: Radii in points of the rings of places tried around a point for its label.
_LABEL_RINGS_PT = (8.0, 14.0, 22.0, 32.0, 46.0, 64.0, 90.0)
#: Directions tried on each ring.
_DIRECTIONS = 8
#: Space kept around a label's text, in pixels (its white box).
_LABEL_PAD_PX = 2.0
_POINTS_PER_INCH = 72.0
#: Half the side of a point marker, in points (a label keeps off the markers).
_MARKER_PX = 4.0
_LABEL_BOX = {"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8}
_EPS = 1e-9


def _prepare(frame: Any, name: str) -> gpd.GeoDataFrame | None:
    if frame is None:
        return None
    if not isinstance(frame, gpd.GeoDataFrame):
        raise MappingInputError(f"`{name}` must be a GeoDataFrame, got {type(frame).__name__}")
    if frame.crs is None:
        raise MissingCRSError(f"`{name}` has no CRS; set it with `.set_crs(...)` first")
    shown = frame[frame.geometry.notna() & ~frame.geometry.is_empty]
    return shown.to_crs(WORKING_CRS) if len(shown) else None


def _extent(
    frames: Sequence[gpd.GeoDataFrame | None], pad: float
) -> tuple[float, float, float, float] | None:
    """Return ``(minx, maxx, miny, maxy)``: the bounds of ``frames`` with a margin.

    The margin is ``pad`` times the longer side on every side, whatever the shape of the
    bounds (tall, wide or square); the axes then widen the shorter side to their own shape
    (``adjustable="datalim"``), so nothing inside these bounds is cut.
    """
    boxes = [f.total_bounds for f in frames if f is not None and len(f)]
    if not boxes:
        return None
    arr = np.array(boxes)
    minx, miny = arr[:, 0].min(), arr[:, 1].min()
    maxx, maxy = arr[:, 2].max(), arr[:, 3].max()
    span = max(maxx - minx, maxy - miny, _MIN_SPAN_M)
    margin = span * pad
    cx, cy = (minx + maxx) / 2, (miny + maxy) / 2
    half_x = max(maxx - minx, _MIN_SPAN_M) / 2 + margin
    half_y = max(maxy - miny, _MIN_SPAN_M) / 2 + margin
    return cx - half_x, cx + half_x, cy - half_y, cy + half_y


def _fit_to_axes(ax: Any, extent: tuple[float, float, float, float]) -> None:
    """Set the limits to ``extent`` widened on its shorter side to the axes' shape.

    One metre is as long across as up (equal aspect), and the whole extent stays in view.
    """
    minx, maxx, miny, maxy = extent
    box = ax.get_window_extent(ax.figure.canvas.get_renderer())
    shape = box.width / box.height
    width, height = maxx - minx, maxy - miny
    if width / height < shape:
        width = height * shape
    else:
        height = width / shape
    cx, cy = (minx + maxx) / 2, (miny + maxy) / 2
    ax.set_xlim(cx - width / 2, cx + width / 2)
    ax.set_ylim(cy - height / 2, cy + height / 2)
    ax.set_aspect("equal", adjustable="box")


@dataclass
class _Label:
    """A label to place beside its point (display placement is decided after layout)."""

    x: float
    y: float
    text: str
    style: dict[str, Any]
    required: bool
    preferred: tuple[float, float]


def _candidate_offsets(preferred: tuple[float, float]) -> list[tuple[float, float]]:
    """Offsets in points to try for a label: the preferred one, then rings around the point."""
    out = [preferred]
    for radius in _LABEL_RINGS_PT:
        for angle in np.arange(_DIRECTIONS) * (2 * np.pi / _DIRECTIONS) + np.pi / 4:
            out.append((radius * float(np.cos(angle)), radius * float(np.sin(angle))))
    return out


def _box_at(
    anchor: tuple[float, float], offset_px: tuple[float, float], size: tuple[float, float]
) -> tuple[float, float, float, float]:
    """Return the display box ``(x0, y0, x1, y1)`` of a label of ``size`` at an offset.

    The text is aligned away from its point: left-aligned to the right of it, top-aligned
    below it, centred on the axis of a vertical or horizontal offset.
    """
    w, h = size
    x = anchor[0] + offset_px[0]
    y = anchor[1] + offset_px[1]
    dx, dy = offset_px
    x0 = x if dx > _EPS else x - w if dx < -_EPS else x - w / 2
    y0 = y if dy > _EPS else y - h if dy < -_EPS else y - h / 2
    return x0, y0, x0 + w, y0 + h


def _overlaps(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _place_labels(
    ax: Any, labels: list[_Label], obstacles: list[tuple[float, float, float, float]]
) -> list[Any]:
    """Place ``labels`` so that no two overlap and each lies inside the axes.

    A deterministic greedy declutter: labels in the order given (impacts first), each at
    the first candidate offset (its preferred one, then rings of growing radius around its
    point) whose box is inside the axes, clear of every label placed before it and, when
    possible, of the ``obstacles`` (markers, north arrow, scale bar, CRS note). A label set
    away from its point gets a leader line. A label that is not ``required`` (a site or
    bank not allocated) is left out when no place is free; a required one takes the
    candidate clear of labels even when it covers an obstacle.

    Returns
    -------
    list of matplotlib.text.Annotation
        The labels drawn.
    """
    fig = ax.figure
    renderer = fig.canvas.get_renderer()
    to_px = fig.dpi / _POINTS_PER_INCH
    frame = ax.get_window_extent(renderer)
    inside = (frame.x0 + 1, frame.y0 + 1, frame.x1 - 1, frame.y1 - 1)
    placed: list[tuple[float, float, float, float]] = []
    drawn = []
    for label in labels:
        anchor = tuple(ax.transData.transform((label.x, label.y)))
        probe = ax.text(0, 0, label.text, parse_math=False, **label.style)
        ext = probe.get_window_extent(renderer)
        probe.remove()
        size = (ext.width + 2 * _LABEL_PAD_PX, ext.height + 2 * _LABEL_PAD_PX)
        fits = []
        for offset in _candidate_offsets(label.preferred):
            box = _box_at(anchor, (offset[0] * to_px, offset[1] * to_px), size)
            if not (
                box[0] >= inside[0]
                and box[1] >= inside[1]
                and box[2] <= inside[2]
                and box[3] <= inside[3]
            ):
                continue
            if any(_overlaps(box, other) for other in placed):
                continue
            clear = not any(_overlaps(box, other) for other in obstacles)
            fits.append((not clear, offset, box))
            if clear:
                break
        if not fits or (fits[0][0] and not label.required):
            continue
        fits.sort(key=lambda fit: fit[0])  # a place clear of obstacles first, else the first
        _, offset, box = fits[0]
        placed.append(box)
        ha = "left" if offset[0] > _EPS else "right" if offset[0] < -_EPS else "center"
        va = "bottom" if offset[1] > _EPS else "top" if offset[1] < -_EPS else "center"
        leader = offset != label.preferred
        pad_pt = _LABEL_PAD_PX / to_px
        text_xy = (
            offset[0] + (pad_pt if ha == "left" else -pad_pt if ha == "right" else 0),
            offset[1] + (pad_pt if va == "bottom" else -pad_pt if va == "top" else 0),
        )
        drawn.append(
            ax.annotate(
                label.text,
                (label.x, label.y),
                parse_math=False,  # an id is text: "$x$" is not mathtext
                xytext=text_xy,
                textcoords="offset points",
                ha=ha,
                va=va,
                annotation_clip=False,
                arrowprops={"arrowstyle": "-", "color": "#444444", "lw": 0.6, "shrinkA": 0}
                if leader
                else None,
                **label.style,
            )
        )
    return drawn


def static_map(
    impacts: gpd.GeoDataFrame,
    *,
    zones: gpd.GeoDataFrame | None = None,
    sites: gpd.GeoDataFrame | None = None,
    banks: gpd.GeoDataFrame | None = None,
    allocation: pd.DataFrame | None = None,
    context: Mapping[str, gpd.GeoDataFrame] | None = None,
    title: str | None = None,
    figsize: tuple[float, float] = (7.5, 7.6),
    label_limit: int | None = None,
) -> Figure:
    """Draw the project map with matplotlib; return the figure.

    Parameters
    ----------
    impacts : GeoDataFrame
        Classified impacts with ``outcome``; rows without geometry are not drawn.
    zones, sites, banks : GeoDataFrame, optional
        Shoreland zones (``zone``), candidate sites and banks (points or polygons).
    allocation : DataFrame, optional
        The allocation; the map frames the impacts and the options allocated to them.
    context : dict, optional
        Layers by the keys of :data:`~wetland_gis.mapping.symbology.CONTEXT_LAYERS`.
    title : str, optional
        Heading above the map.
    figsize : tuple of float
        Figure size in inches.
    label_limit : int, optional
        With more impacts than this, impacts are drawn without their id labels (a note
        says where the ids are); default
        :data:`~wetland_gis.mapping.report.LARGE_PROJECT_IMPACTS`.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    MappingInputError, MissingCRSError
        For a layer of the wrong kind or without a CRS.
    """
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    imp = _prepare(impacts, "impacts")
    zon = _prepare(zones, "zones")
    sit = _prepare(sites, "sites")
    ban = _prepare(banks, "banks")
    allocated = _allocated_ids(allocation)
    framed = [imp, _allocated_rows(sit, allocated), _allocated_rows(ban, allocated)]
    extent = _extent(framed if imp is not None else [sit, ban, zon], _FRAME_PAD)

    fig, ax = plt.subplots(figsize=figsize, dpi=110)
    ax.set_facecolor("#F4F1EA")
    if extent is None:
        return _nothing_to_draw(fig, ax)
    view = _square_view(extent)
    handles = _draw_context(ax, context, view)
    handles += _draw_zones(ax, zon)
    labels: list[_Label] = []
    for frame, kind in ((sit, "site"), (ban, "bank")):
        shown = _clip(frame, view) if frame is not None else None
        if shown is not None and len(shown):
            labels += _draw_options(ax, shown, kind, allocated)
            handles.append(_option_handle(kind))
    counts: dict[str, int] = {}
    if imp is not None:
        counts = _draw_impacts(ax, imp)
        impact_labels = _impact_labels(ax, imp, label_limit)
        labels = impact_labels + sorted(labels, key=lambda lab: not lab.required)
    obstacles = _decorate(ax, extent, _outcome_handles(counts) + handles, title)
    fig.tight_layout()
    _fit_to_axes(ax, extent)
    fig.canvas.draw()  # the final limits and the axes box
    labels = _in_view(ax, labels)
    _place_labels(ax, labels, _obstacle_boxes(ax, obstacles, labels))
    return fig


def _allocated_ids(allocation: pd.DataFrame | None) -> set[str]:
    """Return the ids of the options the allocation draws credits from (as text)."""
    if allocation is None or not len(allocation):
        return set()
    col = find_column(allocation.columns, "option_id")
    return set() if col is None else {fmt(v) for v in allocation[col]}


def _allocated_rows(frame: gpd.GeoDataFrame | None, allocated: set[str]) -> gpd.GeoDataFrame | None:
    """Return the sites or banks of ``frame`` that are ``allocated`` (None when none)."""
    if frame is None or not allocated:
        return None
    col = find_column(frame.columns, "site_id", "account", "option_id", "bank_name")
    if col is None:
        return None
    chosen = frame[frame[col].map(fmt).isin(allocated)]
    return chosen if len(chosen) else None


def _nothing_to_draw(fig: Figure, ax: Any) -> Figure:
    """Return ``fig`` saying that nothing has a drawable geometry."""
    ax.text(
        *_AXES_CENTRE,
        "No impact, site or bank has a drawable geometry",
        ha="center",
        va="center",
        transform=ax.transAxes,
    )
    ax.set_axis_off()
    return fig


def _square_view(extent: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """Return the box ``(minx, miny, maxx, maxy)`` of the square around ``extent``.

    The axes widen the shorter side of the extent to their shape: a layer is drawn where
    it meets this square, and a label is kept only when it falls inside the final limits.
    """
    minx, maxx, miny, maxy = extent
    half = max(maxx - minx, maxy - miny)
    cx, cy = (minx + maxx) / 2, (miny + maxy) / 2
    return (float(cx - half), float(cy - half), float(cx + half), float(cy + half))


def _clip(frame: gpd.GeoDataFrame, view: tuple[float, float, float, float]) -> gpd.GeoDataFrame:
    """Return the rows of ``frame`` whose bounding boxes meet ``view``, in order."""
    from shapely.geometry import box

    return frame.iloc[np.sort(frame.sindex.query(box(*view)))]


def _draw_context(
    ax: Any,
    context: Mapping[str, gpd.GeoDataFrame] | None,
    view: tuple[float, float, float, float],
) -> list[Any]:
    """Draw the context layers that meet ``view``; return their legend handles."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles: list[Any] = []
    for key, spec in CONTEXT_LAYERS.items():
        layer = (context or {}).get(key)
        if layer is None or not len(layer):
            continue
        work = _prepare(layer, f"context[{key!r}]")
        if work is None:
            continue
        work = _clip(work, view)
        if not len(work):
            continue
        linestyle: Literal["--", "-"] = "--" if spec.dash else "-"
        if spec.boundaries:
            work.boundary.plot(
                ax=ax, color=spec.color, linewidth=spec.weight * 0.6, linestyle=linestyle, zorder=2
            )
            handles.append(Line2D([], [], color=spec.color, linestyle=linestyle, label=spec.title))
        else:
            work.plot(
                ax=ax, facecolor=spec.fill, edgecolor=spec.color, linewidth=0.6, alpha=0.7, zorder=1
            )
            handles.append(Patch(facecolor=spec.fill, edgecolor=spec.color, label=spec.title))
    return handles


def _draw_zones(ax: Any, zones: gpd.GeoDataFrame | None) -> list[Any]:
    """Draw the shoreland zones (not the outside zone); return their legend handles."""
    from matplotlib.patches import Patch

    handles: list[Any] = []
    if zones is None:
        return handles
    zcol = find_column(zones.columns, "zone")
    for zone, part in zones.groupby(zones[zcol].map(fmt)) if zcol else []:
        if zone.startswith("outside"):
            continue
        style = zone_style(zone)
        alpha = min(1.0, style.fill_opacity * 2)
        part.plot(
            ax=ax,
            facecolor=style.color,
            alpha=alpha,
            edgecolor=style.color,
            linewidth=0.6,
            zorder=3,
        )
        handles.append(Patch(facecolor=style.color, alpha=alpha, label=style.label))
    return handles


#: By kind of replacement option: its colour, legend noun, marker and id columns (best first).
_OPTION_STYLES = {
    "site": (SITE_COLOR, "Candidate site", "D", ("site_id", "option_id")),
    "bank": (BANK_COLOR, "Wetland bank", "s", ("account", "option_id", "bank_name")),
}


def _draw_options(ax: Any, shown: gpd.GeoDataFrame, kind: str, allocated: set[str]) -> list[_Label]:
    """Draw the candidate sites or banks ``shown`` as markers; return their labels.

    The label of an option the allocation draws credits from is bold, marked ``*`` and
    required (:func:`_place_labels`).
    """
    color, _, marker, id_names = _OPTION_STYLES[kind]
    points = shown.geometry.representative_point()
    ax.scatter(
        points.x,
        points.y,
        s=60,
        c=color,
        edgecolors="#000000",
        linewidths=0.8,
        marker=marker,
        zorder=5,
    )
    col = find_column(shown.columns, *id_names)
    if col is None:
        return []
    labels = []
    for x, y, text in zip(points.x, points.y, shown[col].map(fmt), strict=True):
        chosen = text in allocated
        style = {
            "fontsize": 7,
            "color": "#222222",
            "zorder": 6,
            "fontweight": "bold" if chosen else "normal",
            "bbox": _LABEL_BOX,
        }
        shown_text = f"{text} *" if chosen else text
        labels.append(_Label(x, y, shown_text, style, required=chosen, preferred=(6.0, -6.0)))
    return labels


def _option_handle(kind: str) -> Any:
    """Return the legend handle of the candidate sites or the banks."""
    from matplotlib.lines import Line2D

    color, noun, marker, _ = _OPTION_STYLES[kind]
    return Line2D(
        [],
        [],
        marker=marker,
        linestyle="",
        markerfacecolor=color,
        markeredgecolor="#000000",
        label=f"{noun} (* credits allocated)",
    )


def _draw_impacts(ax: Any, imp: gpd.GeoDataFrame) -> dict[str, int]:
    """Draw the impacts coloured by outcome, each with a marker; return the count by outcome."""
    counts: dict[str, int] = {}
    ocol = find_column(imp.columns, "outcome")
    outcomes = imp[ocol].map(fmt) if ocol else pd.Series("", index=imp.index)
    for outcome, part in imp.groupby(outcomes):
        counts[outcome] = len(part)
        color = outcome_color(outcome)
        dashed = "--" if OUTCOME_DASH.get(outcome) else "-"
        polys = part[part.geom_type.isin(["Polygon", "MultiPolygon"])]
        if len(polys):
            polys.plot(
                ax=ax,
                facecolor=color,
                edgecolor="#222222",
                linewidth=0.8,
                linestyle=dashed,
                alpha=0.85,
                zorder=7,
            )
        pts = part.geometry.representative_point()
        ax.scatter(pts.x, pts.y, s=34, c=color, edgecolors="#222222", linewidths=0.8, zorder=8)
    return counts


def _impact_labels(ax: Any, imp: gpd.GeoDataFrame, label_limit: int | None) -> list[_Label]:
    """Return the id label of each impact.

    With more impacts than ``label_limit`` (thousands of ids would be one unreadable
    block) none, and a note on the map says where the ids are.
    """
    pts = imp.geometry.representative_point()
    limit = LARGE_PROJECT_IMPACTS if label_limit is None else label_limit
    if len(imp) > limit:
        pts = pts.iloc[:0]
        ax.text(
            0.01,
            0.99,
            f"{len(imp):,} impacts: ids in the impacts table and layer",
            transform=ax.transAxes,
            ha="left",
            va="top",
            fontsize=7,
            color="#222222",
            zorder=10,
            bbox=_LABEL_BOX,
        )
    style = {
        "fontsize": 8,
        "fontweight": "bold",
        "color": "#111111",
        "zorder": 9,
        "bbox": _LABEL_BOX,
    }
    return [
        _Label(x, y, text, style, required=True, preferred=(5.0, 4.0))
        for x, y, text in zip(pts.x, pts.y, impact_ids(imp).loc[pts.index], strict=True)
    ]


def _outcome_handles(counts: Mapping[str, int]) -> list[Any]:
    """Return a legend handle per outcome drawn, with its count, in the legend's order."""
    from matplotlib.lines import Line2D

    return [
        Line2D(
            [],
            [],
            marker="o",
            linestyle="",
            markerfacecolor=outcome_color(o),
            markeredgecolor="#222222",
            markersize=8,
            label=f"{outcome_label(o)} ({counts.get(o, 0)})",
        )
        for o in [*OUTCOME_COLORS, *[o for o in counts if o not in OUTCOME_COLORS]]
        if counts.get(o)
    ]


def _decorate(
    ax: Any, extent: tuple[float, float, float, float], handles: list[Any], title: str | None
) -> list[Any]:
    """Frame ``extent`` and add the scale bar, north arrow, legend, title and CRS note.

    Returns
    -------
    list of matplotlib.artist.Artist
        The north arrow, the CRS note and the scale bar: labels keep off them.
    """
    from matplotlib_scalebar.scalebar import ScaleBar

    minx, maxx, miny, maxy = extent
    ax.set_xlim(minx, maxx)
    ax.set_ylim(miny, maxy)
    ax.set_xticks([])
    ax.set_yticks([])
    scale = ScaleBar(
        1.0,
        units="m",
        dimension="si-length",
        location="lower left",
        length_fraction=0.25,
        box_alpha=0.8,
    )
    ax.add_artist(scale)
    north = ax.annotate(
        "N",
        xy=(0.95, 0.95),
        xytext=(0.95, 0.83),
        xycoords="axes fraction",
        ha="center",
        va="center",
        fontsize=12,
        fontweight="bold",
        arrowprops={"facecolor": "black", "width": 4, "headwidth": 12},
        zorder=10,
    )
    ax.set_xlabel("")
    ax.set_ylabel("")
    # below the map, so it never hides an impact
    legend = ax.legend(
        handles=handles,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.01),
        ncol=2,
        fontsize=7,
        title="Impacts by outcome, and layers",
        title_fontsize=7.5,
        frameon=False,
    )
    legend.set_zorder(11)
    if title:
        ax.set_title(title, fontsize=10, parse_math=False)
    note = ax.text(
        0.99,
        0.01,
        "EPSG:26915 (NAD83 / UTM 15N). Screening map, not a survey.",
        transform=ax.transAxes,
        ha="right",
        va="bottom",
        fontsize=6,
        color="#444444",
    )
    return [north, note, *[a for a in ax.artists if isinstance(a, ScaleBar)]]


def _in_view(ax: Any, labels: list[_Label]) -> list[_Label]:
    """Return the labels whose point lies inside the axes' limits."""
    xlim, ylim = ax.get_xlim(), ax.get_ylim()
    return [lab for lab in labels if xlim[0] <= lab.x <= xlim[1] and ylim[0] <= lab.y <= ylim[1]]


def _obstacle_boxes(
    ax: Any, artists: list[Any], labels: list[_Label]
) -> list[tuple[float, float, float, float]]:
    """Return the display boxes a label keeps off: ``artists`` and the labels' markers."""
    renderer = cast(Any, ax.figure.canvas).get_renderer()  # Agg canvas
    obstacles = [tuple(a.get_window_extent(renderer).extents) for a in artists]
    size_px = _MARKER_PX * ax.figure.dpi / _POINTS_PER_INCH
    for lab in labels:
        px, py = ax.transData.transform((lab.x, lab.y))
        obstacles.append((px - size_px, py - size_px, px + size_px, py + size_px))
    return obstacles


def _render(fig: Any, fmt_: str, dpi: int | None = None) -> bytes:
    from matplotlib import pyplot as plt

    buffer = io.BytesIO()
    fig.savefig(
        buffer,
        format=fmt_,
        dpi=dpi,
        bbox_inches="tight",
        metadata={"Date": None} if fmt_ == "svg" else None,
    )
    plt.close(fig)
    return buffer.getvalue()


def static_map_svg(impacts: gpd.GeoDataFrame, **kwargs: Any) -> str:
    """Return :func:`static_map` as an SVG document (text).

    Parameters
    ----------
    impacts : GeoDataFrame
    **kwargs
        As :func:`static_map`.

    Returns
    -------
    str
    """
    return _render(static_map(impacts, **kwargs), "svg").decode("utf-8")


def static_map_png(impacts: gpd.GeoDataFrame, *, dpi: int = 150, **kwargs: Any) -> bytes:
    """Return :func:`static_map` as PNG bytes.

    Parameters
    ----------
    impacts : GeoDataFrame
    dpi : int
        Resolution.
    **kwargs
        As :func:`static_map`.

    Returns
    -------
    bytes
    """
    return _render(static_map(impacts, **kwargs), "png", dpi)
