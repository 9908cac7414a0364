"""wetland_gis: Minnesota Wetland Conservation Act screening for GIS analysts.

The stable public API:

- :func:`assess` → :class:`Assessment`: classify impact polygons and decide them.
- :func:`site` → ``SitingResult``: rank and allocate replacement sites and bank credits.
- :func:`compare` → ``Comparison``: sequencing, the alternatives of a project side by side.
- :func:`impacts` → ``DerivedImpacts``: the impact layer cut from the construction limits
  and the wetland delineation (issue 35), ready for :func:`assess`.
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

Every name is imported on first use (a module ``__getattr__``), so ``import wetland_gis``,
``wetland-gis --help`` and ``import wetland_gis.rules`` load no geometry, mapping or
optimisation library until a function that needs one is used.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

from wetland_gis import (
    enums as _enums,  # plain values: imported with the package
    errors as _errors,
)
from wetland_gis._lazy import lazy_exports
from wetland_gis._version import __version__

if TYPE_CHECKING:
    from wetland_gis import rules
    from wetland_gis.assess import Assessment, AssessOptions, assess
    from wetland_gis.compare import Comparison, compare
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
    from wetland_gis.impacts import DerivedImpacts, impacts
    from wetland_gis.io.layers import read_layer, write_layer
    from wetland_gis.mapping.report import write_report
    from wetland_gis.mapping.tep_map import save_map, tep_map
    from wetland_gis.parameters import default_parameters, load_adjustments, load_parameters
    from wetland_gis.register import Register
    from wetland_gis.siting import site
    from wetland_gis.water_use import WaterUseResult, water_use

__all__ = [
    "__version__",
    "rules",
    "assess",
    "AssessOptions",
    "Assessment",
    "site",
    "compare",
    "Comparison",
    "impacts",
    "DerivedImpacts",
    "water_use",
    "WaterUseResult",
    "Register",
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


#: Public name -> the module that defines it (``None``: the name is that subpackage); the
#: enums and exception classes of ``__all__`` are found in the modules' own ``__all__``.
_LAZY: dict[str, str | None] = {
    "rules": None,
    "assess": "wetland_gis.assess",
    "AssessOptions": "wetland_gis.assess",
    "Assessment": "wetland_gis.assess",
    "site": "wetland_gis.siting",
    "compare": "wetland_gis.compare",
    "Comparison": "wetland_gis.compare",
    "impacts": "wetland_gis.impacts",
    "DerivedImpacts": "wetland_gis.impacts",
    "tep_map": "wetland_gis.mapping",
    "save_map": "wetland_gis.mapping",
    "write_report": "wetland_gis.mapping",
    "load_context": "wetland_gis.context",
    "Context": "wetland_gis.context",
    "read_layer": "wetland_gis.io.layers",
    "write_layer": "wetland_gis.io.layers",
    "default_parameters": "wetland_gis.parameters",
    "load_parameters": "wetland_gis.parameters",
    "load_adjustments": "wetland_gis.parameters",
    "Decision": "wetland_gis.decision",
    "water_use": "wetland_gis.water_use",
    "WaterUseResult": "wetland_gis.water_use",
    "Register": "wetland_gis.register",
    **{  # the public enums and errors: each found in the module that defines it
        name: home.__name__
        for home in (_enums, _errors)
        for name in __all__
        if getattr(vars(home).get(name), "__module__", None) == home.__name__
    },
}


__getattr__, __dir__ = lazy_exports(__name__, _LAZY, __all__)


class _Package(types.ModuleType):
    """The package module, keeping a public function that shares its name with a submodule.

    Importing ``wetland_gis.assess`` (the module) makes Python bind it on the package as
    ``wetland_gis.assess``, where the public name is the function
    :func:`wetland_gis.assess.assess`. The binding is refused, so the name still resolves
    to the function, as it did when every name was imported eagerly.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and _LAZY.get(name) is not None:
            self.__dict__.pop(name, None)
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
