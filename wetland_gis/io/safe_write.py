"""Write outputs so that nothing is lost: stage beside the target, then move into place.

Every file a command writes goes through a :class:`SafeWriter`:

* each output is first written in a hidden staging folder beside its target (same
  folder, hence the same file system) and moved into place with :func:`os.replace` only
  when every output of the command is complete. An error or an interruption while
  writing leaves every previous output as it was, and the staging folder is removed;
* writing a layer into an existing GeoPackage works on a copy of it: only the layers and
  tables the command owns are replaced (or removed, when the command has nothing for
  them this time) and every other layer is kept;
* an output path that is also an input of the run is refused (:class:`OutputError`);
* an existing output file that a GeoPackage write cannot merge into is replaced only when
  the same command wrote it to that place before (it is listed in the manifest beside
  it) or when ``overwrite`` is given (``--overwrite``).

* an existing output that is read-only (no write permission bit: its owner protected
  it) is replaced only with ``overwrite``; a replaced file keeps its permission bits;
* a full disk, or a folder that cannot be written, is an :class:`OutputError` naming the
  output path (and the free space), never the hidden staging folder.

A run killed outright (power cut, ``kill -9``) cannot clean up: its staging folder,
named ``.wetland-gis-tmp-*``, stays beside the outputs; the outputs themselves are the
previous ones, whole. The next run into the same folder removes such a folder when the
run that made it (named in its ``owner.json``: host and process id) is gone, and names
any other one in a :class:`~wetland_gis.errors.LeftoverStagingWarning`.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import socket
import sqlite3
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from wetland_gis.errors import LeftoverStagingWarning, OutputError, warn_recorded
from wetland_gis.geometry.polygons import polygon_output
from wetland_gis.io import writers
from wetland_gis.io.csv_cells import write_csv

if TYPE_CHECKING:
    from wetland_gis.manifest import Manifest

#: How :meth:`SafeWriter.files` starts a write elsewhere: ``submit(write, staged_path)``
#: returns a future (``result()`` waits for it, ``cancel()`` if it has one drops it).
Submit = Callable[[Callable[[Path], Any], Path], Any]

#: Name prefix of the staging folders written beside the outputs.
STAGING_PREFIX = ".wetland-gis-tmp-"

_SHAPEFILE_PARTS = (".shp", ".shx", ".dbf", ".prj", ".cpg", ".qix", ".sbn", ".sbx")
_OVERWRITE_FIX = "pass --overwrite (overwrite=True in Python) to replace it, or choose another path"
#: The file in a staging folder naming the run that made it (host, process id).
_OWNER_FILE = "owner.json"
_FULL = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}
_DENIED = {errno.EACCES, errno.EPERM}


def _free_space(folder: Path) -> str:
    """Return the free space of the disk holding ``folder`` (its nearest existing parent)."""
    for place in (folder, *folder.parents):
        try:
            free = shutil.disk_usage(place).free
        except OSError:
            continue
        for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
            if free >= size:
                return f"{free / size:,.1f} {unit} free"
        return f"{free} bytes free"
    return "free space unknown"


def output_error(err: BaseException, target: Path) -> OutputError | None:
    """Return the :class:`OutputError` an OS error writing ``target`` means, or None.

    A full disk (``ENOSPC``, ``EDQUOT``, or a GDAL/SQLite message saying so) names the
    output and the free space; a permission error or a read-only file system names the
    output's folder, never the hidden staging folder where it happened.

    Examples
    --------
    >>> import errno, pathlib
    >>> e = output_error(OSError(errno.EACCES, "Permission denied"), pathlib.Path("/x/o.gpkg"))
    >>> str(e)[:54]
    'cannot write /x/o.gpkg: permission denied in /x; write'
    """
    code = getattr(err, "errno", None)
    text = str(err).lower()
    full = code in _FULL or "no space left" in text or "disk is full" in text
    if full:
        return OutputError(
            f"cannot write {target}: the disk is full ({_free_space(target.parent)} on the "
            f"disk of {target.parent}); free some space or choose another output path "
            "(no output was changed)"
        )
    if code in _DENIED:
        return OutputError(
            f"cannot write {target}: permission denied in {target.parent}; write to a "
            "folder you may write in, or ask for write permission (no output was changed)"
        )
    if code == errno.EROFS:
        return OutputError(
            f"cannot write {target}: {target.parent} is on a read-only file system; "
            "choose another output path (no output was changed)"
        )
    return None


def _read_only(path: Path) -> bool:
    """Return True when ``path`` has no write permission bit (its owner protected it)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)


def refuse_read_only(target: Path) -> None:
    """Raise :class:`OutputError` when ``target`` exists and is read-only (without overwrite).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "out.csv"
    >>> refuse_read_only(p)  # absent: nothing to protect
    """
    if target.exists() and _read_only(target):
        mode = stat.filemode(target.stat().st_mode)
        raise OutputError(
            f"cannot write {target}: the file is read-only ({mode}), protected by its "
            f"owner; pass --overwrite (overwrite=True in Python) to replace it (it keeps "
            "its permissions), or choose another path"
        )


def _process_gone(owner: dict[str, Any]) -> bool:
    """Return True when the run named by a staging folder's owner file no longer runs."""
    if owner.get("host") != socket.gethostname():
        return False
    try:
        pid = int(owner.get("pid", 0))
    except (TypeError, ValueError):
        return False
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # it runs, as another user
        return False
    return False


def make_staging_folder(folder: Path, command: str, name: str = "") -> Path:
    """Create a staging folder in ``folder`` with its ``owner.json`` (host, pid, command, start).

    Its name starts with :data:`STAGING_PREFIX` (then ``name``), so the next writer into
    ``folder`` removes it if this process is killed before it does
    (:func:`clean_leftover_staging`).

    Parameters
    ----------
    folder : Path
        The output folder (it exists).
    command : str
        The command writing (``assess``), recorded in the owner file.
    name : str, optional
        Put after the prefix (the engines' parts: ``parts-<output name>-``).

    Returns
    -------
    Path
    """
    staging = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{name}", dir=folder))
    owner = {
        "host": socket.gethostname(),
        "pid": os.getpid(),
        "command": command,
        "started": _now(),
    }
    (staging / _OWNER_FILE).write_text(json.dumps(owner), encoding="utf-8")
    return staging


def _this_process(owner: dict[str, Any]) -> bool:
    """Return True when a staging folder's owner file names this very process."""
    return owner.get("host") == socket.gethostname() and owner.get("pid") == os.getpid()


def clean_leftover_staging(folder: Path, *, keep: Path | None = None) -> list[str]:
    """Remove the staging folders of interrupted runs in ``folder``; report the others.

    A staging folder whose ``owner.json`` names a process of this host that no longer
    runs is removed. One without an owner file (an older version, another host) or of a
    run still going is left, and a :class:`LeftoverStagingWarning` gives its path. This
    process's own folders (an engine's parts being written) are left without a word.

    Parameters
    ----------
    folder : Path
        The output folder.
    keep : Path, optional
        This run's own staging folder.

    Returns
    -------
    list of str
        A record of each folder removed or left (for the manifest).
    """
    records: list[str] = []
    try:
        entries = [p for p in folder.iterdir() if p.name.startswith(STAGING_PREFIX)]
    except OSError:
        return records
    for leftover in sorted(entries):
        if not leftover.is_dir() or (keep is not None and leftover == keep):
            continue
        try:
            owner = json.loads((leftover / _OWNER_FILE).read_text("utf-8"))
        except (OSError, ValueError):
            owner = None
        if isinstance(owner, dict) and _this_process(owner):
            continue
        if isinstance(owner, dict) and _process_gone(owner):
            shutil.rmtree(leftover, ignore_errors=True)
            if not leftover.exists():
                records.append(
                    f"removed the staging folder {leftover} left by an interrupted run "
                    f"(process {owner.get('pid')}, started {owner.get('started', '?')})"
                )
                continue
        why = (
            "of a run that may still be writing here"
            if isinstance(owner, dict)
            else "left by an interrupted run (it names no process)"
        )
        message = (
            f"a staging folder {why} lies beside the outputs: {leftover}; delete it "
            "when no wetland-gis run writes into this folder (no output is in it)"
        )
        warn_recorded(message, LeftoverStagingWarning, records, stacklevel=4)
    return records


def same_file(a: Path, b: Path) -> bool:
    """Return True when ``a`` and ``b`` name the same file (or would, once written)."""
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
    except OSError:
        pass
    return a.expanduser().resolve() == b.expanduser().resolve()


def is_geopackage(path: Path) -> bool:
    """Return True when ``path`` is an SQLite file holding a GeoPackage's tables."""
    try:
        with path.open("rb") as handle:
            if handle.read(16) != b"SQLite format 3\x00":
                return False
        with sqlite3.connect(f"file:{path.as_posix()}?mode=ro", uri=True) as con:
            names = {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
        return {"gpkg_contents", "gpkg_spatial_ref_sys"} <= names
    except (OSError, sqlite3.Error):
        return False


def _input_paths(inputs: Iterable[Any]) -> list[Path]:
    """Turn input paths (a shapefile stands for its sidecar files) into files to protect."""
    out: list[Path] = []
    for item in inputs:
        if item is None or not isinstance(item, (str, os.PathLike)):
            continue
        text = str(item)
        if text.startswith("<"):  # "<GeoDataFrame>", "<in memory>"
            continue
        path = Path(text).expanduser()
        out.append(path)
        if path.suffix.lower() == ".shp":
            out += [path.with_suffix(ext) for ext in _SHAPEFILE_PARTS]
    return out


class SafeWriter:
    """Stage a command's outputs and move them into place together.

    Parameters
    ----------
    command : str
        The command writing (``"assess"``, ``"site"``, ...): a file is taken as this
        command's own earlier output when the manifest beside it, written by the same
        command, lists it.
    overwrite : bool, default False
        Replace existing output files that are not this command's earlier outputs.
    inputs : iterable of path, optional
        The run's input files; none of them may be an output.
    manifest : path, optional
        The manifest this run writes (its outputs decide what is this command's own).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> import pandas as pd
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "out_summary.csv"
    >>> with SafeWriter("assess", inputs=["impacts.shp"]) as w:
    ...     staged = w.csv(pd.DataFrame({"impact": ["W-1"]}), out)
    >>> out.read_text().splitlines()  # moved into place when the block ends
    ['impact', 'W-1']
    """

    def __init__(
        self,
        command: str,
        *,
        overwrite: bool = False,
        inputs: Iterable[Any] = (),
        manifest: str | os.PathLike[str] | None = None,
    ) -> None:
        self.command = command
        self.overwrite = overwrite
        self.inputs = _input_paths(inputs)
        self._own = self._own_outputs(Path(manifest)) if manifest is not None else set()
        self._staging: dict[Path, Path] = {}  # target folder -> staging folder
        self._moves: dict[Path, Path] = {}  # target -> staged file
        self._removes: set[Path] = set()  # stale files of a replaced shapefile
        self._geopackages: dict[Path, Path] = {}  # target -> staged copy
        self._copied: set[Path] = set()  # staged copies of existing GeoPackages
        self.written: list[Path] = []
        #: What the writer did besides writing (leftover staging folders removed or left).
        self.records: list[str] = []

    @classmethod
    def for_run(
        cls,
        command: str,
        run: Manifest,
        manifest: str | os.PathLike[str],
        *,
        overwrite: bool = False,
    ) -> SafeWriter:
        """Return the writer of a run recorded in ``run``, its manifest to be at ``manifest``.

        Parameters
        ----------
        command : str
            As :class:`SafeWriter`.
        run : Manifest
            The run's manifest: its input files are protected.
        manifest : path
            Where the run's manifest is written (as :class:`SafeWriter`).
        overwrite : bool, default False
            As :class:`SafeWriter`.

        Returns
        -------
        SafeWriter
        """
        return cls(
            command, overwrite=overwrite, manifest=manifest, inputs=[i.path for i in run.inputs]
        )

    # -- context manager --------------------------------------------------------------

    def __enter__(self) -> SafeWriter:
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is None:
            self.commit()
        else:
            self.discard()

    # -- checks -----------------------------------------------------------------------

    def _own_outputs(self, manifest: Path) -> set[str]:
        """Return the names of the files the manifest at ``manifest`` lists as written."""
        try:
            data = json.loads(manifest.read_text("utf-8"))
        except (OSError, ValueError):
            return set()
        if not isinstance(data, dict) or data.get("command") != self.command:
            return set()
        names = {Path(str(p)).name for p in data.get("outputs") or []}
        return names | {manifest.name}

    def _check_target(self, target: Path, *, merge_geopackage: bool = False) -> None:
        for source in self.inputs:
            if same_file(target, source):
                raise OutputError(
                    f"cannot write {target}: it is an input of this run; choose another "
                    "output path (the input is never written over)"
                )
        if target.is_dir():
            raise OutputError(f"cannot write {target}: it is a folder; give a file name")
        if not target.exists() or target in self._moves:
            return
        if not self.overwrite:
            refuse_read_only(target)
        if merge_geopackage:
            if is_geopackage(target):
                return
            kind = "is not a GeoPackage"
        else:
            kind = "exists"
        if self.overwrite or target.name in self._own:
            return
        raise OutputError(
            f"cannot write {target}: the file {kind} and was not written by "
            f"`wetland-gis {self.command}` to this place; {_OVERWRITE_FIX}"
        )

    # -- staging ----------------------------------------------------------------------

    def _stage_dir(self, folder: Path, target: Path | None = None) -> Path:
        folder = folder.resolve()
        if folder not in self._staging:
            with self._errors(target or folder / "?"):
                folder.mkdir(parents=True, exist_ok=True)
                staging = make_staging_folder(folder, self.command)
                self._staging[folder] = staging
            self.records += clean_leftover_staging(folder, keep=staging)
        return self._staging[folder]

    @contextlib.contextmanager
    def _errors(self, target: Path) -> Iterator[None]:
        """Turn a full disk or a permission error while writing ``target`` into its message."""
        try:
            yield
        except OutputError:
            raise
        except Exception as err:  # GDAL and SQLite say "disk full" in their own classes
            translated = output_error(err, Path(target))
            if translated is None:
                raise
            raise translated from err

    def _stage(self, target: Path) -> Path:
        """Return the staging path of ``target`` (checked; registered to be moved)."""
        target = Path(target).expanduser()
        self._check_target(target)
        staged = self._stage_dir(target.parent, target) / target.name
        self._moves[target] = staged
        return staged

    def _geopackage(self, target: Path) -> Path:
        target = Path(target).expanduser()
        if target in self._geopackages:
            return self._geopackages[target]
        self._check_target(target, merge_geopackage=True)
        staged = self._stage_dir(target.parent, target) / target.name
        if target.exists() and is_geopackage(target):
            _settle_journal(target)
            with self._errors(target):
                shutil.copyfile(target, staged)  # the other layers are kept
            staged.chmod(stat.S_IMODE(staged.stat().st_mode) | stat.S_IWUSR)
            self._copied.add(staged)
        self._geopackages[target] = staged
        self._moves[target] = staged
        return staged

    # -- writers ----------------------------------------------------------------------

    def layer(
        self,
        frame: pd.DataFrame | None,
        path: str | os.PathLike[str],
        *,
        layer: str | None = None,
        driver: str | None = None,
        polygons: bool = False,
    ) -> list[Path]:
        """Stage a layer (or a GeoPackage attribute table) for ``path``.

        Parameters
        ----------
        frame : GeoDataFrame, DataFrame or None
            The features. A DataFrame without geometry is written as a GeoPackage
            attribute table (or a CSV). ``None`` removes ``layer`` from an existing
            GeoPackage (a layer this command owns but has nothing for this time).
        path : path
            The target file; the format follows the extension (or ``driver``), as in
            :func:`wetland_gis.io.layers.write_layer`.
        layer : str, optional
            GeoPackage layer name (default: the file stem).
        driver : str, optional
            Format to use whatever the extension.
        polygons : bool, default False
            The layer is a polygon layer: declare its geometry type (Polygon or
            MultiPolygon); rows whose geometry is not polygonal keep their attributes,
            with a null geometry and their WKT in ``wg_input_wkt``
            (:func:`wetland_gis.geometry.polygons.polygon_output`).

        Returns
        -------
        list of Path
            The files this layer will be written to once committed.
        """
        target = Path(path).expanduser()
        ext = writers.write_format(target, driver)
        geometry_type = None
        if frame is not None and polygons:
            frame, geometry_type = polygon_output(frame)
        if ext == ".gpkg":
            staged = self._geopackage(target)
            name = layer or target.stem
            with self._errors(target):
                if staged.exists():
                    _remove_layer(staged, name)
                if frame is None:
                    return []
                writers.write_frame(
                    frame, staged, layer=name, driver="gpkg", geometry_type=geometry_type
                )
            return self._record([target])
        if frame is None:
            return []
        if ext == ".shp":
            self._check_target(target)
            for part in (target.with_suffix(s) for s in _SHAPEFILE_PARTS):
                self._check_target(part)
            staged = self._stage_dir(target.parent, target) / target.name
            with self._errors(target):
                files = writers.write_frame(
                    frame, staged, driver="shp", geometry_type=geometry_type
                )
            targets = []
            for file in files:
                final = target.parent / file.name
                self._check_target(final)
                self._moves[final] = file
                targets.append(final)
            self._removes |= {
                p
                for p in (target.with_suffix(s) for s in _SHAPEFILE_PARTS)
                if p.exists() and p not in self._moves
            }
            return self._record(targets)
        staged = self._stage(target)
        with self._errors(target):
            writers.write_frame(frame, staged, driver=ext.lstrip("."), geometry_type=geometry_type)
        return self._record([target])

    def csv(self, frame: pd.DataFrame, path: str | os.PathLike[str]) -> list[Path]:
        """Stage a table as UTF-8 CSV (its header even when it has no rows).

        Text that a spreadsheet would read as a formula is quoted
        (:func:`~wetland_gis.io.csv_cells.write_csv`).
        """
        staged = self._stage(Path(path))
        with self._errors(Path(path)):
            write_csv(frame, staged)  # a cell beginning like a formula is quoted (csv_cells)
        return self._record([Path(path)])

    def json(self, data: Any, path: str | os.PathLike[str]) -> list[Path]:
        """Stage JSON-ready data as indented UTF-8 JSON."""
        return self.text(json.dumps(data, indent=2, ensure_ascii=False, default=str), path)

    def text(self, text: str, path: str | os.PathLike[str]) -> list[Path]:
        """Stage a text file (HTML, JSON) in UTF-8."""
        staged = self._stage(Path(path))
        with self._errors(Path(path)):
            staged.write_text(text, encoding="utf-8")
        return self._record([Path(path)])

    def file(self, write: Callable[[Path], Any], path: str | os.PathLike[str]) -> list[Path]:
        """Stage a file that ``write(staged_path)`` writes (e.g. a PDF renderer)."""
        return self.files([(write, path, None)])

    def files(
        self,
        writes: Sequence[tuple[Callable[[Path], Any], str | os.PathLike[str], Submit | None]],
    ) -> list[Path]:
        """Stage several files at once, some written elsewhere while the others are written here.

        Parameters
        ----------
        writes : sequence of (write, path, submit)
            As :meth:`file`; with a ``submit``, ``submit(write, staged_path)`` starts the
            write in another process (a dask worker that sees the staging folder) and
            returns a future whose ``result()`` waits for it. Those are started first,
            then the others are written here in order, then the futures are waited for.

        Returns
        -------
        list of Path
            The files, in the order given (as the same calls of :meth:`file` would record
            them), whichever write ended first.
        """
        staged = [
            (write, Path(path), self._stage(Path(path)), submit) for write, path, submit in writes
        ]
        futures: dict[Path, Any] = {}
        try:
            for write, path, into, submit in staged:
                if submit is not None:
                    with self._errors(path):
                        futures[path] = submit(write, into)
            for write, path, into, submit in staged:
                if submit is None:
                    with self._errors(path):
                        write(into)
            for path, future in list(futures.items()):
                with self._errors(path):
                    future.result()
                del futures[path]
        finally:
            for future in futures.values():  # a write failed: the ones still running are dropped
                cancel = getattr(future, "cancel", None)
                if cancel is not None:
                    cancel()
        return self._record([path for _, path, _, _ in staged])

    def manifest(self, manifest: Any, path: str | os.PathLike[str]) -> list[Path]:
        """Stage the run manifest, listing every output staged so far and itself."""
        path = Path(path)
        if self.records and hasattr(manifest, "add_records"):
            manifest.add_records(self.records)
        manifest.outputs = [str(p) for p in dict.fromkeys(self.written)] + [str(path)]
        return self.json(manifest.to_dict(), path)

    def _record(self, targets: list[Path]) -> list[Path]:
        for t in targets:
            if t not in self.written:
                self.written.append(t)
        return targets

    # -- commit -----------------------------------------------------------------------

    def commit(self) -> list[Path]:
        """Move every staged output into place; return the outputs written."""
        try:
            for stale in self._removes:
                stale.unlink(missing_ok=True)
            for target, staged in self._moves.items():
                if staged in self._copied and staged.exists():
                    with self._errors(target):  # a replaced layer's pages given back
                        _vacuum(staged)
                if staged.exists():
                    mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else None
                    with self._errors(target):
                        os.replace(staged, target)
                        if mode is not None:  # a replaced file keeps its permissions
                            target.chmod(mode)
                elif target in self._geopackages and target.exists():
                    target.unlink()  # every layer it held was this command's, and is gone
        finally:
            self.discard()
        return list(self.written)

    def discard(self) -> None:
        """Remove the staging folders (the targets are left as they were)."""
        for folder in self._staging.values():
            shutil.rmtree(folder, ignore_errors=True)
        self._staging.clear()
        self._moves.clear()
        self._geopackages.clear()
        self._copied.clear()


def _now() -> str:
    import datetime as dt

    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def _vacuum(path: Path) -> None:
    """Rebuild a staged GeoPackage so the pages of the layers it replaced are given back.

    SQLite keeps the pages of a dropped table as free pages: a GeoPackage written into
    again would otherwise keep the size of its largest earlier content (issue 30).
    """
    with contextlib.closing(sqlite3.connect(path.as_posix())) as con:
        if con.execute("PRAGMA freelist_count").fetchone()[0]:
            con.execute("VACUUM")


def _settle_journal(path: Path) -> None:
    """Fold a GeoPackage's write-ahead log into it, or refuse while another program writes."""
    wal = Path(f"{path}-wal")
    if not wal.exists() or wal.stat().st_size == 0:
        return
    try:
        with sqlite3.connect(path.as_posix()) as con:
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error:
        pass
    if wal.exists() and wal.stat().st_size:
        raise OutputError(
            f"cannot write {path}: another program (QGIS?) has unsaved changes in it "
            f"({wal.name}); save or close the layers there and run again"
        )


def _remove_layer(path: Path, layer: str) -> None:
    """Delete a layer or table from a GeoPackage when it is there."""
    import pyogrio

    names = [str(n) for n in pyogrio.list_layers(path)[:, 0]] if path.stat().st_size else []
    match = [n for n in names if n.lower() == layer.lower()]
    if not match:
        return
    if len(match) == len(names):  # GDAL cannot open a GeoPackage without any layer
        path.unlink()
        return
    import fiona

    for name in match:
        fiona.remove(str(path), driver="GPKG", layer=name)
