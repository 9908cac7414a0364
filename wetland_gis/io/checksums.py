"""One SHA-256 of an input, as every manifest records it.

A shapefile is several files: its digest covers the data-bearing sidecars (``.shp``,
``.shx``, ``.dbf``, ``.prj``, ``.cpg``, found case-insensitively), in that order, each
preceded by its file name, so renaming or editing any of them changes the digest. The
spatial-index files GIS programs write on their own (``.qix``, ``.sbn``, ``.sbx``) are
left out: opening a layer in QGIS must not change what the manifest says was read. A
folder holding one shapefile is that shapefile; an Esri File Geodatabase (a ``.gdb``
folder) is its files by name, ArcGIS's ``.lock`` files left out; any other file
(GeoPackage, GeoJSON, GeoParquet, zip, CSV, YAML, raster) is hashed as its bytes.

Examples
--------
>>> import tempfile, hashlib, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> (folder / "list.csv").write_bytes(b"dow,class")
9
>>> file_sha256(folder / "list.csv") == hashlib.sha256(b"dow,class").hexdigest()
True
"""

from __future__ import annotations

import hashlib
from pathlib import Path

SHAPEFILE_PARTS = (".shp", ".shx", ".dbf", ".prj", ".cpg")
"""The shapefile sidecars a digest covers, in order."""

_CHUNK = 1 << 20


def shapefile_parts(shp: str | Path, extensions: tuple[str, ...] = SHAPEFILE_PARTS) -> list[Path]:
    """Return the files of a shapefile, in the order of ``extensions``.

    Parameters
    ----------
    shp : str or Path
        The ``.shp`` file; its sidecars are matched by stem and extension, ignoring case.
    extensions : tuple of str, default :data:`SHAPEFILE_PARTS`
        The sidecar extensions (lower case, with the dot), in order.

    Returns
    -------
    list of Path
        The files present (a missing ``.cpg`` or ``.prj`` is simply absent).
    """
    shp = Path(shp)
    stem = shp.stem.lower()
    order = {ext: i for i, ext in enumerate(extensions)}
    found = [
        p
        for p in shp.parent.iterdir()
        if p.is_file() and p.stem.lower() == stem and p.suffix.lower() in order
    ]
    return sorted(found, key=lambda p: (order[p.suffix.lower()], p.name))


def file_sha256(path: str | Path) -> str:
    """Return the SHA-256 hex digest of an input file (a shapefile with its sidecars).

    Parameters
    ----------
    path : str or Path
        A file, a ``.shp`` (hashed with its sidecars, see the module notes), a folder
        holding exactly one shapefile, or a File Geodatabase folder (``.gdb``: every file
        in it, in name order, each preceded by its path in the folder).

    Returns
    -------
    str
        64 hexadecimal digits.

    Raises
    ------
    FileNotFoundError
        When ``path`` does not exist, or a folder holds no single shapefile.
    """
    path = Path(path)
    if path.is_dir() and path.suffix.lower() == ".gdb":
        parts = _geodatabase_parts(path)
        if not parts:
            raise FileNotFoundError(f"{path} is a folder holding no File Geodatabase table")
        return _digest(parts, named=True)
    if path.is_dir():
        shps = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() == ".shp")
        if len(shps) != 1:
            raise FileNotFoundError(f"{path} is a folder holding {len(shps)} shapefiles, not one")
        path = shps[0]
    if not path.is_file():
        raise FileNotFoundError(f"{path} does not exist")
    parts = shapefile_parts(path) if path.suffix.lower() == ".shp" else [path]
    return _digest(parts, named=len(parts) > 1)


def _geodatabase_parts(folder: Path) -> list[Path]:
    """Return the files of a File Geodatabase folder by name, its lock files left out.

    ArcGIS writes ``*.lock`` files while a geodatabase is open: like a shapefile's spatial
    index, opening the data must not change what the manifest says was read.
    """
    return sorted(
        (p for p in folder.iterdir() if p.is_file() and p.suffix.lower() != ".lock"),
        key=lambda p: p.name,
    )


def _digest(parts: list[Path], *, named: bool) -> str:
    """Return the SHA-256 of ``parts`` in order, each preceded by its name when ``named``."""
    digest = hashlib.sha256()
    for part in parts:
        if named:
            digest.update(part.name.encode("utf-8") + b"\0")
        with part.open("rb") as handle:
            for chunk in iter(lambda: handle.read(_CHUNK), b""):
                digest.update(chunk)
    return digest.hexdigest()
