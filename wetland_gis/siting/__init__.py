"""Replacement siting: rank sites and bank credits by § 103G.222, subd. 3, and allocate them.

* :func:`site` - the whole run, from classified impacts to a plan (:mod:`.engine`).
* :func:`rank_options`, :func:`tier_gaps`, :func:`attribute_options` - ranking
  (:mod:`.rank`).
* :func:`read_bank_listing`, :func:`prepare_sites` - reading the options
  (:mod:`wetland_gis.io.bank_listing`, :mod:`wetland_gis.io.candidate_sites`).
* :func:`wetland_gis.siting.allocate.allocate` - exact project-wide allocation (the
  function is not re-exported here, so that ``wetland_gis.siting.allocate`` stays the
  module).
* :func:`depression_summary`, :func:`categorical_share` - raster site attributes
  (:mod:`.raster`).

The legal rules themselves are in :mod:`wetland_gis.rules.priority`.
"""

from __future__ import annotations

from wetland_gis.io.bank_listing import read_bank_listing
from wetland_gis.io.candidate_sites import prepare_sites
from wetland_gis.siting.allocate import Allocation, AllocationError
from wetland_gis.siting.engine import SitingResult, site
from wetland_gis.siting.rank import (
    attribute_options,
    impact_needs,
    rank_options,
    tier_gaps,
)
from wetland_gis.siting.raster import categorical_share, depression_summary

__all__ = [
    "site",
    "SitingResult",
    "rank_options",
    "tier_gaps",
    "read_bank_listing",
    "prepare_sites",
    "attribute_options",
    "impact_needs",
    "Allocation",
    "AllocationError",
    "depression_summary",
    "categorical_share",
]
