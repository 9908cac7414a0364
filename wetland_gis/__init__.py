"""wetland_gis: Minnesota Wetland Conservation Act screening for GIS analysts.

The stable public API:

- :func:`assess` → :class:`Assessment`: classify impact polygons and decide them.
- :func:`site` → ``SitingResult``: rank and allocate replacement sites and bank credits.
- :func:`water_use` → :class:`WaterUseResult`: water appropriation screening under
  § 103G.271 (both editions), with fees, the decision trace and a manifest.
- :func:`tep_map`, :func:`save_map`, :func:`write_report`: the TEP map and report.
- :func:`load_context`, :func:`read_layer`, :func:`write_layer`: layers in and out.
- :func:`default_parameters`, :func:`load_parameters`, :func:`load_adjustments`:
  the cited, dated legal parameters and the user's adjustment tables.
- :mod:`wetland_gis.rules`: the rules core (pure functions returning :class:`Decision`).
- Enums :class:`WetlandType`, :class:`ShorelandZone`, :class:`PercentageArea`,
  :class:`Outcome`, :class:`ImpactOutcome`, :class:`SitingTier`, and the exception
  classes of :mod:`wetland_gis.errors`.

The tool screens and explains; the Technical Evaluation Panel and the local government
unit decide.
"""

from __future__ import annotations

from wetland_gis import rules
from wetland_gis._version import __version__
from wetland_gis.assess import Assessment, AssessOptions, assess
from wetland_gis.context import Context, load_context
from wetland_gis.decision import Decision
from wetland_gis.enums import (
    ImpactOutcome,
    Outcome,
    PercentageArea,
    ShorelandZone,
    SitingTier,
    WetlandType,
)
from wetland_gis.errors import (
    ContextError,
    FieldMappingError,
    InputError,
    LayerNotFoundError,
    MissingCRSError,
    ParameterError,
    ParameterNotInForce,
    RulesInputError,
    ThresholdToleranceWarning,
    WetlandGISError,
    WetlandGISWarning,
)
from wetland_gis.io.layers import read_layer, write_layer
from wetland_gis.mapping import save_map, tep_map, write_report
from wetland_gis.parameters import default_parameters, load_adjustments, load_parameters
from wetland_gis.siting import site
from wetland_gis.water_use import WaterUseResult, water_use

__all__ = [
    "__version__",
    "rules",
    "assess",
    "AssessOptions",
    "Assessment",
    "site",
    "water_use",
    "WaterUseResult",
    "tep_map",
    "save_map",
    "write_report",
    "load_context",
    "Context",
    "read_layer",
    "write_layer",
    "default_parameters",
    "load_parameters",
    "load_adjustments",
    "Decision",
    "WetlandType",
    "ShorelandZone",
    "PercentageArea",
    "Outcome",
    "ImpactOutcome",
    "SitingTier",
    "WetlandGISError",
    "WetlandGISWarning",
    "ParameterError",
    "ParameterNotInForce",
    "RulesInputError",
    "InputError",
    "MissingCRSError",
    "LayerNotFoundError",
    "FieldMappingError",
    "ContextError",
    "ThresholdToleranceWarning",
]
