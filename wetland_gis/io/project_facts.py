"""Facts given once per project (``--project-facts FILE``, ``AssessOptions.project_facts``).

Road and exemption facts (and the landowner's) are the project's more often than the
impact's: an analyst gives them in one small file keyed by project instead of twenty
columns in QGIS. The file fills the impact layer's fact columns before anything else reads
the layer, so every later stage (the field mapping, the exemption reader, the engine) sees
columns as if the analyst had typed them (docs/data_schema.md, "Project facts").

Two formats, the same content:

* CSV: a ``project`` column and one column per fact, one row per project;
* YAML: a mapping ``project -> {fact: value}``.

A fact is named by its field role (``road_kind``, ``utility_work``, ``owner`` ...) or by its
default column (``road_kind``, ``utility``, ``owner`` ...); the project ``*`` gives facts to
every project. What the file says, and how it meets the layer:

* A blank cell of the layer (or a missing column) takes the file's value.
* A cell that gives the same answer (read with :mod:`wetland_gis.io.values`: ``yes`` and
  ``1`` agree) is kept.
* A cell that gives another answer is an error naming the file, the project, the impact, the
  column and both values: either value could be the one that favours the applicant, so the
  tool does not choose (give the fact per impact in the column only, or fix one of them).
* A project of the file that the layer does not have is recorded in the manifest (a
  partition of a large layer holds only some projects).

The file is an input: the manifest records its path and SHA-256.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wetland_gis.errors import InputError, ValueParseError
from wetland_gis.io.checksums import file_sha256
from wetland_gis.io.values import is_blank, parse_bool, parse_number
from wetland_gis.manifest import InputRecord

if TYPE_CHECKING:
    import pandas as pd

    from wetland_gis.manifest import Manifest

#: The project key that gives its facts to every project of the layer.
EVERY_PROJECT = "*"

#: The project of rows without a project column (as :func:`wetland_gis.assess` names it).
_NO_COLUMN_PROJECT = "project"

#: The project of rows whose project cell is blank (``assess.NO_PROJECT``).
_BLANK_PROJECT = "(no project)"

#: The roles that are not facts of a project (read from the layer only).
_NOT_PROJECT_FACTS = frozenset({"impact_id", "wetland_type", "cowardin", "project"})


@dataclass(frozen=True)
class ProjectFacts:
    """The facts of a project-facts file, by project and field role.

    Parameters
    ----------
    source : str
        The file (or ``"<mapping>"`` for facts given in Python).
    sha256 : str
        The file's SHA-256 (empty for a mapping).
    facts : Mapping[str, Mapping[str, Any]]
        Project -> field role -> value (blank values left out).
    """

    source: str
    sha256: str = ""
    facts: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


def project_fact_roles() -> dict[str, str]:
    """Return every name a fact may have in the file (lower case) -> its field role.

    The field roles of :data:`wetland_gis.io.fields.DEFAULT_NAMES` that are facts of an
    impact (not its id, type or project), and the exemption and road roles of
    :data:`wetland_gis.io.exemption_columns.EXEMPTION_FIELD_ROLES`, each by its role name
    and by its default column names.

    Examples
    --------
    >>> names = project_fact_roles()
    >>> names["road_kind"], names["utility"], names["owns_whole"]
    ('road_project_kind', 'utility_work', 'owns_whole_wetland')
    """
    from wetland_gis.io.exemption_columns import EXEMPTION_FIELD_ROLES
    from wetland_gis.io.fields import DEFAULT_NAMES

    names: dict[str, str] = {}
    for role, defaults in DEFAULT_NAMES.items():
        if role in _NOT_PROJECT_FACTS:
            continue
        names[role] = role
        for name in defaults:
            names.setdefault(name.lower(), role)
    for role, column in EXEMPTION_FIELD_ROLES.items():
        names[role] = role
        names.setdefault(column.lower(), role)
    return names


def _blank(value: Any) -> bool:

    return value is None or (isinstance(value, float) and math.isnan(value)) or is_blank(value)


def _facts_of(
    project: str, row: Mapping[Any, Any], where: str, names: Mapping[str, str]
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in row.items():
        name = str(key).strip()
        role = names.get(name.lower())
        if role is None:
            raise InputError(
                f"{where}: {name!r} is not a fact of an impact; use a field role or its "
                "default column (docs/data_schema.md, 'Project facts'), e.g. "
                + ", ".join(sorted(names)[:8])
                + " ..."
            )
        if role in out and not _blank(value):
            raise InputError(f"{where}: fact {role!r} is given twice for project {project!r}")
        if not _blank(value):
            out[role] = value.strip() if isinstance(value, str) else value
    return out


def read_project_facts(source: str | Path | Mapping[str, Mapping[str, Any]]) -> ProjectFacts:
    """Read a project-facts file (CSV or YAML) or a mapping ``project -> {fact: value}``.

    Parameters
    ----------
    source : str, Path or mapping
        ``.csv`` (a ``project`` column and one column per fact) or ``.yaml`` / ``.yml``
        (``project: {fact: value}``); or the mapping itself.

    Returns
    -------
    ProjectFacts

    Raises
    ------
    InputError
        When the file cannot be read, has no ``project`` column, names a project twice or
        names a fact that is not one (the message names the file, row and fix).
    """
    names = project_fact_roles()
    if isinstance(source, Mapping):
        facts = {
            str(p): _facts_of(str(p), dict(row or {}), f"project facts {p!r}", names)
            for p, row in source.items()
        }
        return ProjectFacts("<mapping>", "", facts)
    path = Path(source)
    if not path.is_file():
        raise InputError(f"{path}: the project-facts file does not exist; check the path")
    suffix = path.suffix.lower()
    facts = {}
    if suffix in (".yaml", ".yml"):
        import yaml

        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8-sig"))
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
            raise InputError(f"{path}: cannot be read as UTF-8 YAML ({exc})") from None
        if data is None:
            data = {}
        if not isinstance(data, Mapping) or not all(
            v is None or isinstance(v, Mapping) for v in data.values()
        ):
            raise InputError(
                f"{path}: write one mapping per project, `project name: {{fact: value}}` "
                "(docs/templates/project_facts.yaml)"
            )
        for project, row in data.items():
            facts[str(project)] = _facts_of(
                str(project), dict(row or {}), f"{path}, project {project!r}", names
            )
    elif suffix == ".csv":
        import csv

        try:
            with path.open(encoding="utf-8-sig", newline="") as fh:
                rows = list(csv.DictReader(fh))
                header = [str(h).strip() for h in (rows[0].keys() if rows else [])]
        except (OSError, UnicodeDecodeError, csv.Error) as exc:
            raise InputError(f"{path}: cannot be read as a UTF-8 CSV ({exc})") from None
        if rows and "project" not in [h.lower() for h in header]:
            raise InputError(
                f"{path}: no 'project' column; the first column names the project of each row "
                "(docs/templates/project_facts.csv)"
            )
        for n, raw in enumerate(rows, start=2):
            row = {str(k).strip(): v for k, v in raw.items() if k is not None}
            key = next(k for k in row if k.lower() == "project")
            project = str(row.pop(key) or "").strip()
            where = f"{path}, row {n}"
            if not project:
                raise InputError(f"{where}: the project is blank; name the project (or *)")
            if project in facts:
                raise InputError(f"{where}: project {project!r} is given twice; give it once")
            facts[project] = _facts_of(project, row, where, names)
    else:
        raise InputError(
            f"{path}: a project-facts file is .csv or .yaml, not {suffix or 'no extension'!r}"
        )
    return ProjectFacts(str(path), file_sha256(path), facts)


def _canonical(value: Any) -> Any:
    """Return a value as the readers understand it (a flag, a number, or lower-case text)."""
    for parse in (parse_bool, parse_number):
        try:
            got = parse(value)
        except (ValueParseError, ValueError, TypeError):
            continue
        if got is not None:
            return got
    return str(value).strip().lower()


def _target_column(role: str, columns: list[str], fields: Mapping[str, str]) -> str:
    """Return the layer column a role is read from (named, found, or its default)."""
    from wetland_gis.io.exemption_columns import EXEMPTION_FIELD_ROLES
    from wetland_gis.io.fields import DEFAULT_NAMES

    if fields.get(role):
        return str(fields[role])
    by_lower = {c.lower(): c for c in columns}
    defaults = DEFAULT_NAMES.get(role) or (EXEMPTION_FIELD_ROLES[role],)
    for name in defaults:
        if name.lower() in by_lower:
            return by_lower[name.lower()]
    return defaults[0]


def apply_project_facts(
    gdf: pd.DataFrame,
    facts: ProjectFacts,
    fields: Mapping[str, str],
    manifest: Manifest | None = None,
) -> pd.DataFrame:
    """Return the impact layer with its blank fact cells filled from the project facts.

    Parameters
    ----------
    gdf : DataFrame
        The impact layer as read (before the field mapping is resolved).
    facts : ProjectFacts
        From :func:`read_project_facts`.
    fields : mapping
        The columns the user named by role (``fields=`` / ``--<role>-field``).
    manifest : Manifest, optional
        Where the file (path, SHA-256) and what it filled are recorded.

    Returns
    -------
    DataFrame
        A copy with the facts filled (new columns where the layer had none).

    Raises
    ------
    InputError
        When a cell of the layer gives another answer than the file for its project.
    """
    import pandas as pd

    gdf = gdf.copy()
    columns = [str(c) for c in gdf.columns]
    by_lower = {c.lower(): c for c in columns}
    project_col = fields.get("project") or by_lower.get("project")
    if project_col is not None and project_col in gdf:
        projects = [
            _BLANK_PROJECT if _blank(v) else str(v).strip() for v in gdf[project_col].tolist()
        ]
    else:
        projects = [_NO_COLUMN_PROJECT] * len(gdf)
    id_col = fields.get("impact_id") or next(
        (by_lower[n] for n in ("impact_id", "id", "fid") if n in by_lower), None
    )
    ids = (
        [None if _blank(v) else str(v) for v in gdf[id_col].tolist()]
        if id_col in gdf
        else [None] * len(gdf)
    )
    present = set(projects)
    missing = sorted(p for p in facts.facts if p != EVERY_PROJECT and p not in present)
    filled = 0
    touched: set[str] = set()
    for project_key, given in facts.facts.items():
        for role, value in given.items():
            column = _target_column(role, columns, fields)
            if column not in gdf:
                gdf[column] = pd.Series([None] * len(gdf), index=gdf.index, dtype=object)
                columns.append(column)
            cells = gdf[column].tolist()
            want = _canonical(value)
            fill_at = []
            for pos, (project, cell) in enumerate(zip(projects, cells, strict=True)):
                if project_key not in (EVERY_PROJECT, project):
                    continue
                if _blank(cell):
                    fill_at.append(pos)
                elif _canonical(cell) != want:
                    what = f"impact {ids[pos]!r}" if ids[pos] else f"feature {pos + 1}"
                    raise InputError(
                        f"{facts.source}: project {project!r}, fact {role!r} is {value!r}, but "
                        f"{what} of the impact layer gives {cell!r} in column {column!r}; give "
                        "the fact once: blank the cell (the file's value is used) or drop it "
                        "from the file (the column's values are used)"
                    )
            if fill_at:
                if gdf[column].dtype != object:
                    gdf[column] = gdf[column].astype(object)
                gdf.iloc[fill_at, gdf.columns.get_loc(column)] = value
                filled += len(fill_at)
                touched.add(project_key)
    if manifest is not None:
        if facts.sha256:
            count = len(facts.facts)
            manifest.add_input(
                InputRecord("project_facts", facts.source, None, facts.sha256, None, count)
            )
        records = [
            f"project facts {facts.source}: {filled} blank fact cell(s) filled for "
            f"{len(touched)} project(s) (a cell that disagreed would have been an error)"
        ]
        if missing:
            records.append(
                f"project facts {facts.source}: project(s) not in the impact layer: "
                + ", ".join(repr(p) for p in missing[:10])
                + (f" and {len(missing) - 10} more" if len(missing) > 10 else "")
            )
        manifest.add_records(records)
    return gdf
