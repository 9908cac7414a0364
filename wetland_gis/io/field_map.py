"""Which column holds each field role, as a user gives it: ``--field``, a field-map file.

The command line names a column for a role with ``--field ROLE=COLUMN`` (repeatable, the
``-oo NAME=VALUE`` habit of GDAL) and reads a whole mapping from ``--field-map FILE``: a
TOML, YAML or CSV file (:func:`load_field_map`). Either gives a :class:`FieldMap`, a
read-only ``{role: column}`` mapping that :func:`wetland_gis.assess` takes as its
``fields=`` (a plain dict there stays as good) and records, with the file's SHA-256, in
the manifest. ``wetland-gis fields`` lists every role with the column names it reads
(:func:`roles_text`) and writes a template to fill in (:func:`template_text`).

File formats (a blank column is skipped, so a template loads as it is written)::

    # TOML (a [fields] table, or the roles at the top level)
    [fields]
    impact_kind = "IMPACT_TYP"

    # YAML (a fields: mapping, or the roles at the top level)
    fields:
      impact_kind: IMPACT_TYP

    # CSV: a header with role and column (other columns are left alone)
    role,column
    impact_kind,IMPACT_TYP
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from wetland_gis.errors import FieldMappingError, InputError
from wetland_gis.io.checksums import file_sha256
from wetland_gis.manifest import InputRecord

#: The ``--<name>-field`` options kept as aliases of ``--field ROLE=COLUMN`` (deprecated):
#: role -> option.
FIELD_ALIASES = {
    "impact_id": "--id-field",
    "wetland_type": "--type-field",
    "cowardin": "--cowardin-field",
    "project": "--project-field",
}

#: Extensions of a field-map file, and their format.
FIELD_MAP_FORMATS = {".toml": "TOML", ".yaml": "YAML", ".yml": "YAML", ".csv": "CSV"}


@dataclass(frozen=True)
class FieldMap(Mapping[str, str]):
    """A ``{role: column}`` mapping with where it came from, for the manifest.

    Parameters
    ----------
    columns : Mapping[str, str]
        Role -> the layer's column.
    source : str, optional
        The field-map file (``--field-map``), as given; None when there was none.
    sha256 : str, optional
        The file's SHA-256 (:func:`wetland_gis.io.checksums.file_sha256`).
    options : Mapping[str, str]
        The roles given on the command line (``--field``, an alias), which take precedence
        over the file.

    Examples
    --------
    >>> fm = FieldMap({"impact_kind": "impact_kin"})
    >>> dict(fm), fm.source
    ({'impact_kind': 'impact_kin'}, None)
    """

    columns: Mapping[str, str] = field(default_factory=dict)
    source: str | None = None
    sha256: str | None = None
    options: Mapping[str, str] = field(default_factory=dict)

    def __getitem__(self, role: str) -> str:
        return self.columns[role]

    def __iter__(self) -> Iterator[str]:
        return iter(self.columns)

    def __len__(self) -> int:
        return len(self.columns)

    def settings(self) -> dict[str, Any]:
        """Return what the manifest records of it (file, hash, command-line roles)."""
        out: dict[str, Any] = {}
        if self.source is not None:
            out["file"] = self.source
            out["sha256"] = self.sha256
        if self.options:
            out["options"] = dict(self.options)
        return out


def _check_roles(roles: Iterable[str], where: str) -> None:
    from wetland_gis.io.fields import check_roles

    check_roles(roles, where=where)


def _give_once(
    out: dict[str, str], role: str, column: str, twice: Callable[[str, str, str], str]
) -> None:
    """Set ``out[role] = column``; a role that has another column already is an error.

    ``twice(role, first, column)`` writes the message, ``first`` the column given before.
    """
    if role in out and out[role] != column:
        raise FieldMappingError(twice(role, out[role], column))
    out[role] = column


# the message of a role given two columns, by where the second was given (--field, a
# field-map file, a deprecated alias option)
def _twice_by_field(role: str, first: str, column: str) -> str:
    return f"--field gives the role {role!r} two columns ({first!r} and {column!r}); give it once"


def _twice_in_file(path: Path, line: int, role: str, first: str, column: str) -> str:
    return (
        f"field map {path}, line {line}: role {role!r} is given twice ({first!r} and "
        f"{column!r}); give it once"
    )


def _twice_by_alias(role: str, first: str, column: str) -> str:
    return (
        f"the role {role!r} is given two columns ({first!r} by --field and {column!r} by its "
        "older option); give it once, with --field"
    )


def parse_field_options(options: Sequence[str] | None) -> dict[str, str]:
    """Return ``{role: column}`` of ``--field ROLE=COLUMN`` options (checked).

    Parameters
    ----------
    options : sequence of str
        Each ``ROLE=COLUMN``; the column may hold ``=`` and spaces (only the first ``=``
        splits); the role is matched in lower case with ``-`` read as ``_``.

    Returns
    -------
    dict

    Raises
    ------
    FieldMappingError
        On an option without ``=``, an empty role or column, an unknown role (naming the
        closest), or one role given two different columns.

    Examples
    --------
    >>> parse_field_options(["impact-kind=IMPACT KIN", "cedar_tamarack=cedar_t"])
    {'impact_kind': 'IMPACT KIN', 'cedar_tamarack': 'cedar_t'}
    """
    out: dict[str, str] = {}
    for option in options or ():
        role, sep, column = str(option).partition("=")
        role = role.strip().lower().replace("-", "_")
        column = column.strip()
        if not sep or not role or not column:
            raise FieldMappingError(
                f"--field {option!r}: expected ROLE=COLUMN, e.g. --field impact_kind=impact_kin "
                "(`wetland-gis fields` lists the roles)"
            )
        _check_roles([role], f"--field {option!r}")
        _give_once(out, role, column, _twice_by_field)
    return out


def _from_table(data: Any, path: Path) -> dict[str, str]:
    """Return the ``{role: column}`` of a parsed TOML or YAML document."""
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise FieldMappingError(
            f'field map {path}: expected a mapping of role to column (ROLE = "COLUMN"), '
            f"got {type(data).__name__}"
        )
    if "fields" in data:
        extra = sorted(str(k) for k in data if k != "fields")
        if extra:
            raise FieldMappingError(
                f"field map {path}: {extra[0]!r} is outside the fields table; put every role in it"
            )
        return _from_table(data["fields"], path)
    out: dict[str, str] = {}
    for role, column in data.items():
        if column is None or (isinstance(column, str) and not column.strip()):
            continue  # a template's blank: the default names are tried
        if not isinstance(column, str):
            raise FieldMappingError(
                f"field map {path}: the column of role {role!r} is {column!r}; give the "
                "column's name as text"
            )
        out[str(role).strip()] = column.strip()
    return out


def _from_csv(text: str, path: Path) -> dict[str, str]:
    reader = csv.DictReader(io.StringIO(text))
    header = {str(h).strip().lower(): h for h in reader.fieldnames or () if h is not None}
    if "role" not in header or "column" not in header:
        raise FieldMappingError(
            f"field map {path}: the first row must name the columns role and column "
            f"(found {', '.join(reader.fieldnames or ()) or 'none'})"
        )
    out: dict[str, str] = {}
    for line, row in enumerate(reader, start=2):
        role = str(row.get(header["role"]) or "").strip()
        column = str(row.get(header["column"]) or "").strip()
        if not role or not column:
            continue
        _give_once(out, role, column, partial(_twice_in_file, path, line))
    return out


def load_field_map(path: str | Path) -> FieldMap:
    """Read a field-map file (TOML, YAML or CSV; see the module notes).

    Parameters
    ----------
    path : str or Path
        The file (``--field-map``).

    Returns
    -------
    FieldMap
        Its roles and columns, its path as given and its SHA-256.

    Raises
    ------
    InputError
        When the file is missing or of another format.
    FieldMappingError
        When it does not parse, names a role that does not exist (naming the closest) or
        gives a column that is not text.
    """
    given = Path(path).expanduser()
    fmt = FIELD_MAP_FORMATS.get(given.suffix.lower())
    if fmt is None:
        raise InputError(
            f"field map {given}: unsupported format {given.suffix or '(no extension)'}; "
            f"give a {', '.join(sorted(set(FIELD_MAP_FORMATS)))} file"
        )
    if not given.is_file():
        raise InputError(f"field map not found: {given}")
    text = given.read_text(encoding="utf-8-sig")
    try:
        if fmt == "TOML":
            import tomllib

            columns = _from_table(tomllib.loads(text), given)
        elif fmt == "YAML":
            import yaml

            columns = _from_table(yaml.safe_load(text), given)
        else:
            columns = _from_csv(text, given)
    except FieldMappingError:
        raise
    except Exception as err:  # tomllib, yaml and csv each raise their own class
        raise FieldMappingError(f"field map {given} is not valid {fmt}: {err}") from None
    _check_roles(columns, f"field map {given}")
    return FieldMap(columns, source=str(path), sha256=file_sha256(given))


def field_map_from_options(
    field_map: str | Path | None = None,
    options: Sequence[str] | None = None,
    aliases: Mapping[str, str | None] | None = None,
) -> FieldMap:
    """Return the mapping of a command line: the file, then ``--field``, then the aliases.

    Parameters
    ----------
    field_map : str or Path, optional
        ``--field-map FILE``.
    options : sequence of str, optional
        ``--field ROLE=COLUMN`` options; they take precedence over the file.
    aliases : mapping, optional
        The deprecated ``--id-field`` style options by role (None: not given).

    Raises
    ------
    FieldMappingError
        As :func:`parse_field_options`; also when an alias and ``--field`` give one role
        two columns.
    """
    loaded = load_field_map(field_map) if field_map is not None else FieldMap()
    given = parse_field_options(options)
    for role, column in (aliases or {}).items():
        if column is None:
            continue
        _give_once(given, role, column, _twice_by_alias)
    return FieldMap(
        {**loaded.columns, **given}, source=loaded.source, sha256=loaded.sha256, options=given
    )


def _kinds() -> dict[str, str]:
    return {
        "impact": "Impact layer",
        "exemption": "Exemption facts (§ 103G.2241; docs/rules.md)",
        "road": "Public road projects (§ 103G.222, subd. 1(l), (m))",
    }


def roles_text() -> str:
    """Return every role with what it holds and the column names it reads (for people).

    Examples
    --------
    >>> roles_text().splitlines()[5].split()
    ['impact_id', 'impact', 'id:', 'impact_id,', 'id,', 'fid']
    """
    from wetland_gis.io.fields import field_roles

    roles = field_roles()
    width = max(len(r) for r in roles)
    lines = [
        "Each role, what it holds, and the column names read for it (any case; a name over",
        "10 characters is also read as its first 10, as a shapefile keeps it).",
        "Name another column with --field ROLE=COLUMN or --field-map FILE.",
    ]
    for kind, title in _kinds().items():
        lines.append("")
        lines.append(f"{title}:")
        for spec in roles.values():
            if spec.kind == kind:
                lines.append(f"{spec.role:<{width}}  {spec.label}: {', '.join(spec.names)}")
    return "\n".join(lines) + "\n"


def _toml_string(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)  # a TOML basic string is a JSON string


def template_text(path: str | Path, found: Mapping[str, str | None] | None = None) -> str:
    """Return a field-map template for ``path``'s format, every role listed.

    Parameters
    ----------
    path : str or Path
        The file to write (its extension chooses TOML, YAML or CSV).
    found : mapping, optional
        Role -> the column found in a layer: those roles are filled in, the others left
        blank (a blank is skipped when the file is read: the default names are tried).

    Returns
    -------
    str

    Raises
    ------
    InputError
        When the extension is not one of :data:`FIELD_MAP_FORMATS`.
    """
    from wetland_gis.io.fields import field_roles

    fmt = FIELD_MAP_FORMATS.get(Path(path).suffix.lower())
    if fmt is None:
        raise InputError(
            f"--template {path}: unsupported format {Path(path).suffix or '(no extension)'}; "
            f"give a {', '.join(sorted(set(FIELD_MAP_FORMATS)))} file"
        )
    roles = field_roles()
    filled: dict[str, str] = {k: v for k, v in (found or {}).items() if v}
    if fmt == "CSV":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["role", "column", "holds", "read_by_default_from"])
        for spec in roles.values():
            writer.writerow(
                [spec.role, filled.get(spec.role, ""), spec.label, " ".join(spec.names)]
            )
        return buffer.getvalue()
    head = (
        "wetland-gis field map: the column of your layer holding each role. A blank role is "
        "read from its default names (listed); use with --field-map FILE."
    )
    if fmt == "TOML":
        lines = [f"# {head}", "[fields]"]
        for kind, title in _kinds().items():
            lines += ["", f"# {title}"]
            for spec in roles.values():
                if spec.kind == kind:
                    value = _toml_string(filled.get(spec.role, ""))
                    lines.append(
                        f"{spec.role} = {value}  # {spec.label}; default: {', '.join(spec.names)}"
                    )
        return "\n".join(lines) + "\n"
    lines = [f"# {head}", "fields:"]
    for kind, title in _kinds().items():
        lines += [f"  # {title}"]
        for spec in roles.values():
            if spec.kind == kind:
                column = filled.get(spec.role)
                value = f" {_toml_string(column)}" if column else ""
                lines.append(
                    f"  {spec.role}:{value}  # {spec.label}; default: {', '.join(spec.names)}"
                )
    return "\n".join(lines) + "\n"


def layer_fields_text(columns: Sequence[str], field_map: Any, warnings: Sequence[str]) -> str:
    """Return how the columns of one layer map to the roles (``wetland-gis fields LAYER``).

    Parameters
    ----------
    columns : sequence of str
        The layer's columns.
    field_map : FieldMapping
        What :func:`wetland_gis.io.fields.resolve_fields` found.
    warnings : sequence of str
        The look-alike warnings (:func:`wetland_gis.io.fields.field_name_warnings`).
    """
    from wetland_gis.io.fields import field_roles

    roles = field_roles()
    read = {k: v for k, v in field_map.as_dict().items() if v is not None}
    read.update(dict(field_map.exemption_columns))
    width = max(len(r) for r in roles)
    lines = ["Roles read from this layer:"]
    lines += [f"  {role:<{width}}  <- {read[role]}" for role in roles if role in read]
    used = {str(v).lower() for v in read.values()}
    rest = [c for c in columns if str(c).lower() not in used and str(c).lower() != "geometry"]
    lines.append(f"Columns read for no role (kept in the output): {', '.join(rest) or 'none'}")
    lines += [f"Note: {note}" for note in field_map.notes]
    lines += [f"Warning: {w}" for w in warnings]
    return "\n".join(lines) + "\n"


def record_field_map(fields: Any, manifest: Any) -> None:
    """Record a :class:`FieldMap`'s file (an input, with its SHA-256) and options.

    Parameters
    ----------
    fields : Mapping or None
        The ``fields=`` a run was given; only a :class:`FieldMap` has something to record.
    manifest : Manifest
        The run's manifest: ``settings["field_map"]`` and, for a file, an input
        ``field_map`` (so that no output may replace it).
    """
    if not isinstance(fields, FieldMap) or not fields.settings():
        return

    manifest.settings["field_map"] = fields.settings()
    if fields.source is not None and not any(i.role == "field_map" for i in manifest.inputs):
        manifest.add_input(
            InputRecord(role="field_map", path=fields.source, sha256=fields.sha256 or "")
        )
