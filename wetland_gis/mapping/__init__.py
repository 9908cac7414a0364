"""TEP map and report of the wetland_gis outputs.

:func:`tep_map` builds an interactive folium map, :func:`save_map` writes it (self-contained:
it works with no network), :func:`render_report` / :func:`write_report` build the HTML report
for the Technical Evaluation Panel, and :func:`make_self_contained` inlines the vendored
Leaflet files into any folium page.
"""

from __future__ import annotations

from ._format import MappingInputError, joint_application_area
from .offline import OfflineAssetError, make_self_contained
from .report import render_report, write_report
from .tep_map import OUTCOME_COLORS, save_map, tep_map

__all__ = [
    "OUTCOME_COLORS",
    "MappingInputError",
    "OfflineAssetError",
    "joint_application_area",
    "make_self_contained",
    "render_report",
    "save_map",
    "tep_map",
    "write_report",
]
