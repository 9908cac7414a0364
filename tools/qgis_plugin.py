"""Build the QGIS plugin zip of the ``wetland_gis`` Processing provider (``make qgis-plugin``).

The zip holds one folder, ``wetland_gis_qgis/``, with:

* ``__init__.py``: ``wetland_gis/qgis_provider/plugin.py`` (``classFactory``);
* ``metadata.txt``: what the Plugin Manager reads (``qgisMinimumVersion=3.22``,
  ``hasProcessingProvider=yes``, the package's version);
* ``install.json``: the interpreter this script ran in (the venv's python, not resolved:
  a venv's python is a link that must stay one) and the folder of the provider's modules;
* ``LICENSE``.

It vendors nothing the venv has: QGIS loads the provider's modules from the package and
runs the commands in the recorded interpreter (``docs/qgis.md``).

Usage::

    .venv/bin/python tools/qgis_plugin.py [--out dist/wetland_gis_qgis.zip] [--python PATH]

Install the zip in QGIS with Plugins > Manage and Install Plugins > Install from ZIP.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = "wetland_gis_qgis"
DEFAULT_OUT = ROOT / "dist" / f"{PLUGIN}.zip"

ABOUT = (
    "Adds the wetland_gis Processing provider: impacts, assess, site, map, report, compare "
    "and water-use, run by the wetland_gis package installed in its own Python environment "
    "(a venv made by `make setup`). The plugin holds no copy of the package: it records "
    "the venv's python when it is built (`make qgis-plugin`). It screens; the TEP and the "
    "local government unit decide."
)
METADATA = "\n".join(
    [
        "[general]",
        "name=wetland_gis",
        "qgisMinimumVersion=3.22",
        "description=Minnesota Wetland Conservation Act (Minn. Stat. ch. 103G) screening "
        "in the Processing Toolbox",
        f"about={ABOUT}",
        "version={version}",
        "author=wetland_gis contributors",
        "category=Analysis",
        "tags=wetland,minnesota,wca,processing",
        "hasProcessingProvider=yes",
        "experimental=False",
        "deprecated=False",
        "",
    ]
)


def build(out: Path, python: str) -> Path:
    """Write the plugin zip to ``out`` for the interpreter ``python``; return ``out``.

    Parameters
    ----------
    out : Path
        The zip to write (its folder is made; an existing zip is replaced).
    python : str
        The interpreter that has the package (recorded in ``install.json``).

    Returns
    -------
    Path
    """
    sys.path.insert(0, str(ROOT))
    from wetland_gis._version import __version__

    provider = ROOT / "wetland_gis" / "qgis_provider"
    record = {"python": os.path.abspath(python), "provider_dir": str(provider)}
    out.parent.mkdir(parents=True, exist_ok=True)
    staged = out.with_name(f".{out.name}.part")
    with zipfile.ZipFile(staged, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(f"{PLUGIN}/__init__.py", (provider / "plugin.py").read_text("utf-8"))
        zf.writestr(f"{PLUGIN}/metadata.txt", METADATA.format(version=__version__))
        zf.writestr(f"{PLUGIN}/install.json", json.dumps(record, indent=2) + "\n")
        zf.writestr(f"{PLUGIN}/LICENSE", (ROOT / "LICENSE").read_text("utf-8"))
    staged.replace(out)  # a failed build leaves the previous zip whole
    return out


def main(argv: list[str] | None = None) -> int:
    """Build the zip; print its path."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the zip to write")
    parser.add_argument(
        "--python",
        default=sys.executable,
        help="the interpreter that has wetland_gis (default: the one running this script)",
    )
    args = parser.parse_args(argv)
    print(build(args.out, args.python))
    return 0


if __name__ == "__main__":
    sys.exit(main())
