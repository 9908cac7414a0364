"""wetland_gis: Minnesota Wetland Conservation Act screening for GIS analysts.

The stable public API:

- :func:`assess` → :class:`Assessment`: classify impact polygons and decide them.
- :func:`site` → ``SitingResult``: rank and allocate replacement sites and bank credits.
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

import importlib
import sys
import types
from typing import Any

from wetland_gis import rules
from wetland_gis._version import __version__
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
from wetland_gis.parameters import default_parameters, load_adjustments, load_parameters

# The geometry, mapping and siting names load geopandas, folium and rasterio: they are
# imported on first use, so ``import wetland_gis.rules`` (the rules core on plain values)
# stays light.
_LAZY = {
    "assess": "wetland_gis.assess",
    "AssessOptions": "wetland_gis.assess",
    "Assessment": "wetland_gis.assess",
    "Context": "wetland_gis.context",
    "load_context": "wetland_gis.context",
    "read_layer": "wetland_gis.io.layers",
    "write_layer": "wetland_gis.io.layers",
    "save_map": "wetland_gis.mapping",
    "tep_map": "wetland_gis.mapping",
    "write_report": "wetland_gis.mapping",
    "site": "wetland_gis.siting",
}


def __getattr__(name: str) -> Any:
    """Import a heavy public name on first use (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'wetland_gis' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """Return the public names, the lazy ones included."""
    return sorted(set(globals()) | set(_LAZY))


class _Package(types.ModuleType):
    """The package module: the function ``assess`` wins over the submodule of that name.

    Importing ``wetland_gis.assess`` sets the package attribute to the submodule; the
    public name is the function, as it was when the package imported it eagerly.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _LAZY and isinstance(value, types.ModuleType) and hasattr(value, name):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

__all__ = [
    "__version__",
    "rules",
    "assess",
    "AssessOptions",
    "Assessment",
    "site",
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
