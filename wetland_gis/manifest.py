"""The run manifest written beside every output.

It says what was run, on what, as of when, and what was changed on the way, so a
TEP member or a reviewer can reproduce or question any number.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import platform
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wetland_gis._version import __version__
from wetland_gis.io.checksums import file_sha256 as file_sha256

#: The folder of the installed package: its files are recorded by package-relative name.
_PACKAGE_ROOT = Path(__file__).resolve().parent
#: How a manifest names a file shipped in the package (``wetland_gis:parameters/wca.yaml``).
PACKAGE_PREFIX = "wetland_gis:"


def recorded_path(path: str | Path) -> str:
    """Return a path as a manifest records it: a package file by its package-relative name.

    A file shipped with the package (the parameter tree, the bundled counties) is named
    ``wetland_gis:<path in the package>``, so a manifest does not hold the install location
    of the machine that wrote it (its SHA-256 identifies the file); a user's file keeps the
    path as given.

    Examples
    --------
    >>> from wetland_gis.parameters import default_parameters
    >>> recorded_path(default_parameters().source)
    'wetland_gis:parameters/wca.yaml'
    >>> recorded_path("sample_data/impacts.gpkg")
    'sample_data/impacts.gpkg'
    """
    text = str(path)
    if not text or "://" in text or text.startswith(PACKAGE_PREFIX):
        return text
    try:
        inside = Path(text).expanduser().resolve().relative_to(_PACKAGE_ROOT)
    except (ValueError, OSError, RuntimeError):
        return text
    return f"{PACKAGE_PREFIX}{inside.as_posix()}"


#: Said in every manifest: what the tool is and is not.
STANDING_CAVEATS = (
    "wetland_gis screens and explains; the Technical Evaluation Panel and the local government "
    "unit decide. Every outcome is a screening result to be verified.",
    "Legal parameters are those of Minnesota Statutes 2018 (the edition in shared/law) and the "
    "Minnesota Rules facts in rules-facts.md; check that the law in force on the application "
    "date has not changed.",
    "Wetland boundaries and types come from the input layers; a wetland delineation, not NWI "
    "mapping, decides them.",
)


@dataclass(frozen=True)
class InputRecord:
    """One input file or layer as it was read."""

    role: str
    path: str
    layer: str | None = None
    sha256: str = ""
    crs: str | None = None
    features: int | None = None


@dataclass
class Manifest:
    """What a run used and did, written as JSON beside its outputs.

    Parameters
    ----------
    command : str
        ``"assess"``, ``"site"``, ``"map"`` or ``"report"``.
    as_of : str
        ISO date the legal parameters were read for.
    parameters_source, parameters_sha256 : str
        The parameter tree used.
    """

    command: str
    as_of: str
    parameters_source: str = ""
    parameters_sha256: str = ""
    inputs: list[InputRecord] = field(default_factory=list)
    records: list[str] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)
    outputs: list[str] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=lambda: list(STANDING_CAVEATS))
    missing_context: list[str] = field(default_factory=list)

    def add_input(self, record: InputRecord) -> None:
        """Record an input file or layer."""
        self.inputs.append(record)

    def add_records(self, records: Iterable[str]) -> None:
        """Record repairs, reprojections and other changes made to inputs (kept unique)."""
        for r in records:
            if r not in self.records:
                self.records.append(r)

    def to_dict(self) -> dict[str, Any]:
        """Return the manifest as a JSON-ready dictionary."""
        return {
            "package": "wetland_gis",
            "version": __version__,
            "python": platform.python_version(),
            "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "command": self.command,
            "as_of": self.as_of,
            "parameters": {
                "source": recorded_path(self.parameters_source),
                "sha256": self.parameters_sha256,
            },
            "settings": _jsonable(self.settings),
            "inputs": [{**vars(i), "path": recorded_path(i.path)} for i in self.inputs],
            "records": list(self.records),
            "assumptions": list(self.assumptions),
            "missing_context": list(self.missing_context),
            "outputs": list(self.outputs),
        }

    def write(self, path: str | Path) -> Path:
        """Write the manifest as indented JSON and return its path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_dict(), indent=2, ensure_ascii=False), "utf-8")
        return path


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if hasattr(value, "value"):
        return _jsonable(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        # e.g. ExemptionClaims: the fields given (a None field says nothing)
        given = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        return {k: _jsonable(v) for k, v in given.items() if v is not None}
    return str(value)
