"""What the QGIS provider asks the package: its options, their choices, the field roles.

Run in the package's interpreter by the provider when QGIS loads it
(``python -m wetland_gis.qgis_provider.describe`` prints one JSON object), so that the
dialog's choices, defaults and help texts are the command line's own, read from its parser
(:func:`wetland_gis.cli.build_parser`), and the field roles are those the package reads
(:data:`wetland_gis.io.fields.DEFAULT_NAMES` and the fact and exemption roles).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def _options(parser: argparse.ArgumentParser) -> dict[str, dict[str, Any]]:
    """Return each option of a sub-command by flag (a positional by its name)."""
    out: dict[str, dict[str, Any]] = {}
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        record = {
            "dest": action.dest,
            "choices": _choices(action),
            "default": action.default if isinstance(action.default, (str, int, float)) else None,
            "help": action.help if isinstance(action.help, str) else "",
            "repeat": isinstance(action, argparse._AppendAction),
        }
        for flag in action.option_strings or [action.dest]:
            out[flag] = record
            # a repeatable KEY=VALUE option (--reading, --input-layer): one record a key,
            # written "--reading=clause_reading", its choices and default the key's own
            for key, allowed in getattr(action.type, "keys", {}).items():
                out[f"{flag}={key}"] = {
                    **record,
                    "choices": list(allowed) or None,
                    "default": allowed[0] if allowed else None,
                    "repeat": False,
                }
    return out


def _choices(action: argparse.Action) -> list[Any] | None:
    """Return an option's choices: argparse's, or those its type names (``--claim``)."""
    choices = action.choices or getattr(action.type, "choices", None)
    return list(choices) if choices else None


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def describe() -> dict[str, Any]:
    """Return what the provider needs to know of this package, as JSON-ready values.

    Returns
    -------
    dict
        ``version``; ``python`` (this interpreter); ``provider_dir`` (the folder of this
        sub-package, which QGIS loads); ``commands`` (each sub-command's options by flag:
        ``dest``, ``choices``, ``default``, ``help``, ``repeat``); ``roles`` (each field
        role of ``assess``: ``role``, ``label``, ``names`` (the accepted column names, in
        order), ``flag`` (its option), ``group``: ``main``, ``fact`` or ``exemption``);
        ``field_flag`` and ``field_map_flag`` (the options ``--field ROLE=COLUMN`` and
        ``--field-map FILE`` when the command line has them, else ``None``);
        ``footprint_roles`` (the field roles of ``impacts``, as ``roles`` with ``input``:
        the layer whose columns usually hold the role, ``footprint``, ``wetlands`` or
        ``parcels``; the part id is the ``impact_id`` role; empty when the command line
        has no ``impacts``).
    """
    from wetland_gis._version import __version__
    from wetland_gis.cli import FIELD_ALIASES, build_parser
    from wetland_gis.io.exemption_columns import EXEMPTION_FIELD_ROLES
    from wetland_gis.io.fact_roles import FACT_FIELD_ROLES
    from wetland_gis.io.field_names import with_truncations
    from wetland_gis.io.fields import DEFAULT_NAMES, ROLE_LABELS

    commands = {name: _options(sub) for name, sub in _subparsers(build_parser()).items()}
    assess = commands.get("assess", {})
    roles = []
    groups = [
        ("main", tuple(FIELD_ALIASES)),
        ("fact", FACT_FIELD_ROLES),
        ("exemption", tuple(EXEMPTION_FIELD_ROLES)),
    ]
    for group, names in groups:
        for role in names:
            accepted = DEFAULT_NAMES.get(role) or (EXEMPTION_FIELD_ROLES[role],)
            roles.append(
                {
                    "role": role,
                    "label": ROLE_LABELS.get(role, role.replace("_", " ")),
                    "names": list(with_truncations(accepted)),
                    # an own option only when the command line has no --field (an older one):
                    # its --id-field style aliases are deprecated
                    "flag": None if "--field" in assess else FIELD_ALIASES.get(role),
                    "group": group,
                }
            )
    return {
        "footprint_roles": _footprint_roles(roles) if "impacts" in commands else [],
        "version": __version__,
        "python": sys.executable,
        "provider_dir": str(Path(__file__).resolve().parent),
        "commands": commands,
        "roles": roles,
        "field_flag": "--field" if "--field" in assess else None,
        "field_map_flag": "--field-map" if "--field-map" in assess else None,
    }


#: The roles of ``impacts`` in view in the dialog, in this order (the others are advanced):
#: those of ``assess`` and the keys of the cut (a wetland's polygons share its id; the
#: owner's parcels give the landowner's portion, subd. 9(f)).
_FOOTPRINT_MAIN = ("impact_id", "project", "wetland_id", "wetland_type", "cowardin", "owner")


def _footprint_roles(roles: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the field roles of ``wetland-gis impacts`` (those it reads), by its input."""
    from wetland_gis.impacts import PART_ID_NAMES, ROLE_INPUTS

    out = []
    for role in roles:
        name = role["role"]
        if name not in ROLE_INPUTS:
            continue
        record = {**role, "input": ROLE_INPUTS[name], "flag": None}
        if name == "impact_id":  # the part id: <part id>/<wetland id> is the impact's id
            record.update(label="part id", names=list(PART_ID_NAMES))
        if name in _FOOTPRINT_MAIN:
            record["group"] = "main"
        out.append(record)
    main = [r for r in out if r["group"] == "main"]
    main.sort(key=lambda r: (_FOOTPRINT_MAIN + (r["role"],)).index(r["role"]))
    return main + [r for r in out if r["group"] != "main"]


def main() -> int:
    """Print :func:`describe` as one line of JSON; return 0."""
    sys.stdout.write(json.dumps(describe()) + "\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
