"""Names of a package imported on first use: one module ``__getattr__`` (PEP 562).

A package facade (``wetland_gis``, ``wetland_gis.io``, ``wetland_gis.register``) lists its
public names in a literal ``__all__`` and maps each to the module that defines it; this
module gives it the ``__getattr__`` and ``__dir__`` that import that module only when the
name is first used, so importing the facade loads no geometry, database or mapping library.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any


def lazy_exports(
    package: str, where: Mapping[str, str | None], public: Sequence[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Return the module ``__getattr__`` and ``__dir__`` of a package facade.

    Parameters
    ----------
    package
        The facade's ``__name__``; the package must be in :data:`sys.modules` (it is while
        its ``__init__`` runs).
    where
        Public name -> the module that defines it; ``None``: the name is the subpackage
        ``<package>.<name>`` itself.
    public
        The facade's ``__all__``, listed by ``__dir__`` before any name is imported.

    Returns
    -------
    tuple
        ``(__getattr__, __dir__)``. ``__getattr__`` imports a name on its first use and
        keeps it in the package's namespace (later uses do not call it again); an unknown
        name raises :class:`AttributeError` with Python's own message.

    Examples
    --------
    >>> import types
    >>> facade = types.ModuleType("facade_example")
    >>> sys.modules["facade_example"] = facade
    >>> facade.__getattr__, facade.__dir__ = lazy_exports(
    ...     "facade_example", {"dedent": "textwrap"}, ["dedent"]
    ... )
    >>> facade.dedent("  a").strip()
    'a'
    >>> "dedent" in vars(facade), "dedent" in dir(facade)
    (True, True)
    >>> facade.nothing
    Traceback (most recent call last):
    ...
    AttributeError: module 'facade_example' has no attribute 'nothing'
    >>> del sys.modules["facade_example"]
    """
    namespace = vars(sys.modules[package])

    def __getattr__(name: str) -> Any:
        """Import a public name from its module on first use."""
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = where[name]
        if module is None:
            value = importlib.import_module(f"{package}.{name}")
        else:
            value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *public})

    return __getattr__, __dir__
