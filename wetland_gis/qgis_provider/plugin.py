"""The QGIS plugin that adds the ``wetland_gis`` Processing provider (the zip's ``__init__``).

``make qgis-plugin`` (``tools/qgis_plugin.py``) copies this file into the plugin zip as
its ``__init__.py``, beside ``metadata.txt`` and ``install.json`` (the interpreter of the
venv it was built from, and the folder of this sub-package). The plugin vendors nothing:
when QGIS starts it, it asks the package's interpreter where the package is and loads the
provider's modules (:mod:`.provider`, :mod:`.command`, :mod:`.runner`, :mod:`.events`)
from there, under a name of their own, so QGIS's Python runs the very files the venv has
and imports nothing else of it (no second numpy or GDAL in QGIS's process).

The interpreter is, in order: the Processing setting "wetland_gis Python", the
environment variable ``WETLAND_GIS_PYTHON``, the one ``install.json`` records.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

PLUGIN_DIR = Path(__file__).resolve().parent
#: The name QGIS's Python knows the provider's modules by.
ALIAS = "wetland_gis_qgis_provider"
_SETTING_KEY = "Processing/Configuration/WETLAND_GIS_PYTHON"
_ASK = (
    "import os, wetland_gis.qgis_provider as m; print(os.path.dirname(os.path.abspath(m.__file__)))"
)


def _install_record() -> dict[str, Any]:
    try:
        record = json.loads((PLUGIN_DIR / "install.json").read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


def _python() -> str | None:
    """Return the package's interpreter: setting, environment, then ``install.json``."""
    try:
        from qgis.core import QgsSettings

        setting = QgsSettings().value(_SETTING_KEY, "")
    except ImportError:  # pragma: no cover
        setting = ""
    for python in (setting, os.environ.get("WETLAND_GIS_PYTHON"), _install_record().get("python")):
        if python and Path(str(python)).is_file():
            return str(python)
    return None


def _provider_dir() -> Path:
    """Return the folder of ``wetland_gis/qgis_provider`` in the package's installation.

    Asked of the package's interpreter (so a venv moved or reinstalled is followed); the
    folder ``install.json`` records is the fallback.
    """
    python = _python()
    if python:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        try:
            done = subprocess.run(
                [python, "-c", _ASK], capture_output=True, text=True, env=env, timeout=60
            )
            folder = Path(done.stdout.strip())
            if done.returncode == 0 and (folder / "provider.py").is_file():
                return folder
        except (OSError, subprocess.SubprocessError):
            pass
    recorded = _install_record().get("provider_dir")
    if recorded and (Path(recorded) / "provider.py").is_file():
        return Path(recorded)
    raise ImportError(
        "wetland_gis: cannot find the package (no python with wetland_gis: set the "
        "environment variable WETLAND_GIS_PYTHON to the venv's python, or rebuild the plugin "
        "with `make qgis-plugin` in the repository and install that zip)"
    )


def load_provider_package(folder: str | os.PathLike[str] | None = None) -> ModuleType:
    """Load ``wetland_gis/qgis_provider`` from ``folder`` as :data:`ALIAS`; return its provider.

    Parameters
    ----------
    folder : path, optional
        The sub-package's folder (default: asked of the package's interpreter).

    Returns
    -------
    module
        Its :mod:`.provider` module.
    """
    path = Path(folder) if folder is not None else _provider_dir()
    if ALIAS not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            ALIAS, path / "__init__.py", submodule_search_locations=[str(path)]
        )
        if spec is None or spec.loader is None:
            raise ImportError(f"wetland_gis: cannot load the provider from {path}")
        package = importlib.util.module_from_spec(spec)
        sys.modules[ALIAS] = package
        spec.loader.exec_module(package)
    return importlib.import_module(f"{ALIAS}.provider")


class WetlandGISPlugin:
    """The plugin: adds the provider to the Processing registry, removes it on unload."""

    def __init__(self, iface: Any = None) -> None:
        self.iface = iface
        self.provider: Any = None

    def initProcessing(self) -> None:  # noqa: N802 - QGIS's name
        """Add the provider (QGIS calls this for ``qgis_process`` and the GUI alike)."""
        if self.provider is not None:
            return
        from qgis.core import Qgis, QgsApplication, QgsMessageLog

        try:
            module = load_provider_package()
        except ImportError as err:
            QgsMessageLog.logMessage(str(err), "wetland_gis", Qgis.Critical)
            if self.iface is not None:
                self.iface.messageBar().pushCritical("wetland_gis", str(err))
            return
        self.provider = module.WetlandGISProvider(str(PLUGIN_DIR))
        QgsApplication.processingRegistry().addProvider(self.provider)

    def initGui(self) -> None:  # noqa: N802
        """Add the provider when QGIS starts the plugin."""
        self.initProcessing()

    def unload(self) -> None:
        """Remove the provider."""
        if self.provider is not None:
            from qgis.core import QgsApplication

            QgsApplication.processingRegistry().removeProvider(self.provider)
            self.provider = None


def classFactory(iface: Any) -> WetlandGISPlugin:  # noqa: N802 - QGIS's name
    """Return the plugin (QGIS's entry point)."""
    return WetlandGISPlugin(iface)
