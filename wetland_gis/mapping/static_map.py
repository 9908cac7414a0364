"""A static map of a project for the printed record (the PDF report), drawn offline.

geopandas and matplotlib draw, in EPSG:26915: the shoreland zones, the public waters and
boundaries of the context, the candidate sites and banks, and the impacts coloured by
outcome (the interactive map's colours) and labelled by id; with a scale bar
(``matplotlib-scalebar``), a north arrow and a legend. No tile or network request is made.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import geopandas as gpd
import numpy as np
import pandas as pd

from wetland_gis.geometry.crs import WORKING_CRS

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

__all__ = ["static_map", "static_map_png", "static_map_svg"]

#: The centre of a figure's axes, in axes coordinates (a drawing position, not law).
_AXES_CENTRE = (0.5, 0.5)


def _prepare(frame: Any, name: str) -> gpd.GeoDataFrame | None:
    if frame is None:
        return None
    if not isinstance(frame, gpd.GeoDataFrame):
        raise MappingInputError(f"`{name}` must be a GeoDataFrame, got {type(frame).__name__}")
    if frame.crs is None:
        from wetland_gis.errors import MissingCRSError

        raise MissingCRSError(f"`{name}` has no CRS; set it with `.set_crs(...)` first")
    shown = frame[frame.geometry.notna() & ~frame.geometry.is_empty]
    return shown.to_crs(WORKING_CRS) if len(shown) else None


def _extent(frames: Sequence[gpd.GeoDataFrame | None], pad: float) -> tuple[float, ...] | None:
    boxes = [f.total_bounds for f in frames if f is not None and len(f)]
    if not boxes:
        return None
    arr = np.array(boxes)
    minx, miny = arr[:, 0].min(), arr[:, 1].min()
    maxx, maxy = arr[:, 2].max(), arr[:, 3].max()
    span = max(maxx - minx, maxy - miny, 200.0)
    margin = span * pad
    cx, cy = (minx + maxx) / 2, (miny + maxy) / 2
    half = span / 2 + margin
    return cx - half, cx + half, cy - half * 0.8, cy + half * 0.8


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
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib_scalebar.scalebar import ScaleBar

    imp = _prepare(impacts, "impacts")
    zon = _prepare(zones, "zones")
    sit = _prepare(sites, "sites")
    ban = _prepare(banks, "banks")
    allocated: set[str] = set()
    if allocation is not None and len(allocation):
        col = find_column(allocation.columns, "option_id")
        if col is not None:
            allocated = {fmt(v) for v in allocation[col]}

    def options_of(frame: gpd.GeoDataFrame | None) -> gpd.GeoDataFrame | None:
        if frame is None or not allocated:
            return None
        col = find_column(frame.columns, "site_id", "account", "option_id", "bank_name")
        if col is None:
            return None
        chosen = frame[frame[col].map(fmt).isin(allocated)]
        return chosen if len(chosen) else None

    frame_on = [imp, options_of(sit), options_of(ban)]
    if imp is None:
        frame_on = [sit, ban, zon]
    extent = _extent(frame_on, 0.12)

    fig, ax = plt.subplots(figsize=figsize, dpi=110)
    ax.set_facecolor("#F4F1EA")
    handles: list[Any] = []
    if extent is None:
        ax.text(
            *_AXES_CENTRE,
            "No impact, site or bank has a drawable geometry",
            ha="center",
            va="center",
            transform=ax.transAxes,
        )
        ax.set_axis_off()
        return fig
    minx, maxx, miny, maxy = extent
    view = gpd.GeoSeries.from_xy([minx, maxx], [miny, maxy], crs=WORKING_CRS).total_bounds

    def clip(frame: gpd.GeoDataFrame) -> gpd.GeoDataFrame:
        return frame.cx[view[0] : view[2], view[1] : view[3]]

    for key, spec in CONTEXT_LAYERS.items():
        layer = (context or {}).get(key)
        if layer is None or not len(layer):
            continue
        work = _prepare(layer, f"context[{key!r}]")
        if work is None:
            continue
        work = clip(work)
        if not len(work):
            continue
        if spec.boundaries:
            work.boundary.plot(
                ax=ax,
                color=spec.color,
                linewidth=spec.weight * 0.6,
                linestyle="--" if spec.dash else "-",
                zorder=2,
            )
            handles.append(
                Line2D(
                    [], [], color=spec.color, linestyle="--" if spec.dash else "-", label=spec.title
                )
            )
        else:
            work.plot(
                ax=ax, facecolor=spec.fill, edgecolor=spec.color, linewidth=0.6, alpha=0.7, zorder=1
            )
            handles.append(Patch(facecolor=spec.fill, edgecolor=spec.color, label=spec.title))
    if zon is not None:
        zcol = find_column(zon.columns, "zone")
        for zone, part in zon.groupby(zon[zcol].map(fmt)) if zcol else []:
            if zone.startswith("outside"):
                continue
            style = zone_style(zone)
            part.plot(
                ax=ax,
                facecolor=style.color,
                alpha=min(1.0, style.fill_opacity * 2),
                edgecolor=style.color,
                linewidth=0.6,
                zorder=3,
            )
            handles.append(
                Patch(
                    facecolor=style.color, alpha=min(1.0, style.fill_opacity * 2), label=style.label
                )
            )
    for frame, color, noun, id_names in (
        (sit, SITE_COLOR, "Candidate site", ("site_id", "option_id")),
        (ban, BANK_COLOR, "Wetland bank", ("account", "option_id", "bank_name")),
    ):
        if frame is None:
            continue
        shown = clip(frame)
        if not len(shown):
            continue
        points = shown.geometry.representative_point()
        ax.scatter(
            points.x,
            points.y,
            s=60,
            c=color,
            edgecolors="#000000",
            linewidths=0.8,
            marker="s" if noun == "Wetland bank" else "D",
            zorder=5,
        )
        col = find_column(shown.columns, *id_names)
        if col is not None:
            for x, y, text in zip(points.x, points.y, shown[col].map(fmt), strict=True):
                mark = " *" if text in allocated else ""
                ax.annotate(
                    f"{text}{mark}",
                    (x, y),
                    parse_math=False,  # an id is text: "$x$" is not mathtext
                    xytext=(6, -10),
                    textcoords="offset points",
                    fontsize=7,
                    color="#222222",
                    zorder=6,
                )
        handles.append(
            Line2D(
                [],
                [],
                marker="s" if noun == "Wetland bank" else "D",
                linestyle="",
                markerfacecolor=color,
                markeredgecolor="#000000",
                label=f"{noun} (* credits allocated)",
            )
        )
    counts: dict[str, int] = {}
    if imp is not None:
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
        pts = imp.geometry.representative_point()
        for x, y, text in zip(pts.x, pts.y, impact_ids(imp), strict=True):
            ax.annotate(
                text,
                (x, y),
                parse_math=False,  # an id is text: "$x$" is not mathtext
                xytext=(5, 4),
                textcoords="offset points",
                fontsize=8,
                fontweight="bold",
                color="#111111",
                zorder=9,
                bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8},
            )
    impact_handles = [
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
    ax.set_xlim(view[0], view[2])
    ax.set_ylim(view[1], view[3])
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.add_artist(
        ScaleBar(
            1.0,
            units="m",
            dimension="si-length",
            location="lower left",
            length_fraction=0.25,
            box_alpha=0.8,
        )
    )
    ax.annotate(
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
        handles=impact_handles + handles,
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
    ax.text(
        0.99,
        0.01,
        "EPSG:26915 (NAD83 / UTM 15N). Screening map, not a survey.",
        transform=ax.transAxes,
        ha="right",
        va="bottom",
        fontsize=6,
        color="#444444",
    )
    fig.tight_layout()
    return fig


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
