"""Vendored Leaflet assets, so a saved TEP map works with no network.

folium's page loads Leaflet, jQuery, Bootstrap, Font Awesome, awesome-markers and each
plugin's files from content delivery networks: offline, ``L`` is undefined and nothing is
drawn. The TEP map needs only Leaflet and three plugins (fullscreen, measure and, in a
large project's map, marker clustering). Their files
are vendored in ``assets/vendor/`` by ``tools/vendor_leaflet.sh`` (exact versions from the
npm registry, integrity checked; see ``assets/vendor/LICENSES.md``) and this module inlines
them.

Two ways in:

* :func:`use_vendored_assets` sets a map's (and its plugins') asset lists to the vendored
  files, either inlined in the page header (``self_contained=True``) or as pinned CDN links
  of the same versions. :func:`~wetland_gis.mapping.tep_map.tep_map` calls it.
* :func:`make_self_contained` rewrites any folium HTML page: each ``<script src>`` and
  stylesheet ``<link>`` to a known CDN address is replaced by the inlined file.
"""

from __future__ import annotations

import base64
import mimetypes
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import cast

import folium
from branca.element import Element, Figure
from folium.elements import JSCSSMixin

from wetland_gis.errors import OfflineAssetError

from ._format import inert_tojson

ASSETS_DIR = Path(__file__).parent / "assets" / "vendor"
"""Folder holding the vendored files (written by ``tools/vendor_leaflet.sh``)."""

_JSDELIVR = "https://cdn.jsdelivr.net"
_CDNJS = "https://cdnjs.cloudflare.com/ajax/libs"


@dataclass(frozen=True)
class Asset:
    """One vendored JavaScript or CSS file.

    Parameters
    ----------
    key : str
        Name of the asset in folium's ``default_js`` / ``default_css`` lists.
    package, version, licence : str
        The npm package it comes from.
    path : str
        File path under :data:`ASSETS_DIR`.
    kind : {"js", "css"}
        Script or stylesheet.
    url : str
        Pinned CDN address of the same file, used when the map is not self-contained.
    aliases : tuple of str
        Other CDN addresses of this file (folium's defaults) that
        :func:`make_self_contained` replaces by it.
    """

    key: str
    package: str
    version: str
    licence: str
    path: str
    kind: str
    url: str
    aliases: tuple[str, ...] = ()


ASSETS: tuple[Asset, ...] = (
    Asset(
        "leaflet",
        "leaflet",
        "1.9.4",
        "BSD-2-Clause",
        "leaflet/leaflet.js",
        "js",
        f"{_JSDELIVR}/npm/leaflet@1.9.4/dist/leaflet.js",
        (f"{_JSDELIVR}/npm/leaflet@1.9.3/dist/leaflet.js",),
    ),
    Asset(
        "leaflet_css",
        "leaflet",
        "1.9.4",
        "BSD-2-Clause",
        "leaflet/leaflet.css",
        "css",
        f"{_JSDELIVR}/npm/leaflet@1.9.4/dist/leaflet.css",
        (f"{_JSDELIVR}/npm/leaflet@1.9.3/dist/leaflet.css",),
    ),
    Asset(
        "Control.Fullscreen.js",
        "leaflet.fullscreen",
        "3.0.0",
        "MIT",
        "leaflet.fullscreen/Control.FullScreen.js",
        "js",
        f"{_JSDELIVR}/npm/leaflet.fullscreen@3.0.0/Control.FullScreen.js",
        (f"{_JSDELIVR}/npm/leaflet.fullscreen@3.0.0/Control.FullScreen.min.js",),
    ),
    Asset(
        "Control.FullScreen.css",
        "leaflet.fullscreen",
        "3.0.0",
        "MIT",
        "leaflet.fullscreen/Control.FullScreen.css",
        "css",
        f"{_JSDELIVR}/npm/leaflet.fullscreen@3.0.0/Control.FullScreen.css",
    ),
    Asset(
        "leaflet_measure_js",
        "leaflet-measure",
        "2.1.7",
        "MIT",
        "leaflet-measure/leaflet-measure.min.js",
        "js",
        f"{_JSDELIVR}/npm/leaflet-measure@2.1.7/dist/leaflet-measure.min.js",
        (f"{_JSDELIVR}/gh/ljagis/leaflet-measure@2.1.7/dist/leaflet-measure.min.js",),
    ),
    Asset(
        "leaflet_measure_css",
        "leaflet-measure",
        "2.1.7",
        "MIT",
        "leaflet-measure/leaflet-measure.css",
        "css",
        f"{_JSDELIVR}/npm/leaflet-measure@2.1.7/dist/leaflet-measure.css",
        (f"{_JSDELIVR}/gh/ljagis/leaflet-measure@2.1.7/dist/leaflet-measure.min.css",),
    ),
    # the version folium.plugins.MarkerCluster loads; clusters a large project's markers
    Asset(
        "markerclusterjs",
        "leaflet.markercluster",
        "1.1.0",
        "MIT",
        "leaflet.markercluster/leaflet.markercluster.js",
        "js",
        f"{_JSDELIVR}/npm/leaflet.markercluster@1.1.0/dist/leaflet.markercluster.js",
        (f"{_CDNJS}/leaflet.markercluster/1.1.0/leaflet.markercluster.js",),
    ),
    Asset(
        "markerclustercss",
        "leaflet.markercluster",
        "1.1.0",
        "MIT",
        "leaflet.markercluster/MarkerCluster.css",
        "css",
        f"{_JSDELIVR}/npm/leaflet.markercluster@1.1.0/dist/MarkerCluster.css",
        (f"{_CDNJS}/leaflet.markercluster/1.1.0/MarkerCluster.css",),
    ),
    Asset(
        "markerclusterdefaultcss",
        "leaflet.markercluster",
        "1.1.0",
        "MIT",
        "leaflet.markercluster/MarkerCluster.Default.css",
        "css",
        f"{_JSDELIVR}/npm/leaflet.markercluster@1.1.0/dist/MarkerCluster.Default.css",
        (f"{_CDNJS}/leaflet.markercluster/1.1.0/MarkerCluster.Default.css",),
    ),
)
"""Every vendored file, in the order a page must load them (Leaflet before its plugins)."""

_BY_KEY = {a.key: a for a in ASSETS}
_BY_URL = {u: a for a in ASSETS for u in (a.url, *a.aliases)}

# Which assets each folium class needs; anything else folium would load is dropped.
_MAP_ASSETS = ("leaflet", "leaflet_css")
_PLUGIN_ASSETS: dict[str, tuple[str, ...]] = {
    "Fullscreen": ("Control.Fullscreen.js", "Control.FullScreen.css"),
    "MeasureControl": ("leaflet_measure_js", "leaflet_measure_css"),
    "MarkerCluster": ("markerclusterjs", "markerclustercss", "markerclusterdefaultcss"),
}

_CSS_URL = re.compile(r"""url\(\s*(['"]?)(?!data:|#|https?:|//)([^'")]+)\1\s*\)""")
# One pass over the page, so the text of an inlined file is never scanned again.
_TAG = re.compile(
    r"""(?P<script><script\b[^>]*\bsrc\s*=\s*(["'])(?P<src>[^"']+)\2[^>]*>\s*</script\s*>)"""
    r"""|(?P<link><link\b[^>]*>)""",
    re.IGNORECASE,
)
_HREF = re.compile(r"""\bhref\s*=\s*(["'])(?P<url>[^"']+)\1""", re.IGNORECASE)
_STYLESHEET = re.compile(r"""\brel\s*=\s*(["']?)stylesheet\1""", re.IGNORECASE)


@cache
def _asset_text(key: str) -> str:
    """Return the text of one vendored file; CSS ``url()`` images become data URIs."""
    asset = _BY_KEY[key]
    path = ASSETS_DIR / asset.path
    if not path.is_file():
        raise OfflineAssetError(
            f"vendored asset {asset.path!r} ({asset.package}@{asset.version}) is missing "
            f"from {ASSETS_DIR}; run tools/vendor_leaflet.sh to restore it"
        )
    text = path.read_text(encoding="utf-8")
    # a source map comment would make developer tools fetch a file that is not vendored
    text = re.sub(r"^\s*(//|/\*)# sourceMappingURL=.*$", "", text, flags=re.MULTILINE)
    if asset.kind == "css":
        text = _inline_css_urls(text, path.parent)
    else:
        # A literal "</script" inside a script would end the inline element early.
        text = re.sub(r"</(script)", r"<\\/\1", text, flags=re.IGNORECASE)
    return text


def _inline_css_urls(css: str, folder: Path) -> str:
    """Replace relative ``url(...)`` references of a stylesheet by data URIs.

    References to files that are not vendored are dropped (``url()`` left empty is
    ignored by browsers), so no stylesheet ever triggers a network request.
    """

    def repl(match: re.Match[str]) -> str:
        ref = match.group(2).split("?")[0].split("#")[0]
        target = (folder / ref).resolve()
        if not target.is_file() or ASSETS_DIR.resolve() not in target.parents:
            return "none"
        mime = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        data = base64.b64encode(target.read_bytes()).decode("ascii")
        return f'url("data:{mime};base64,{data}")'

    return _CSS_URL.sub(repl, css)


def _inline_tag(asset: Asset) -> str:
    body = _asset_text(asset.key)
    note = f"{asset.package}@{asset.version} ({asset.licence}), {asset.path}"
    if asset.kind == "css":
        return f"<style>/* {note} */\n{body}\n</style>"
    return f"<script>/* {note} */\n{body}\n</script>"


def inline_assets_html(keys: Iterable[str]) -> str:
    """Return ``<script>`` and ``<style>`` elements holding the named vendored files.

    Parameters
    ----------
    keys : iterable of str
        Keys of :data:`ASSETS`. They are emitted in the order of :data:`ASSETS`
        (stylesheets first, then Leaflet before its plugins), whatever order is given.

    Returns
    -------
    str
        HTML to place in the page header.

    Raises
    ------
    OfflineAssetError
        When a key is unknown or its file is missing.
    """
    wanted = set(keys)
    unknown = wanted - set(_BY_KEY)
    if unknown:
        raise OfflineAssetError(
            f"unknown asset key(s) {sorted(unknown)}; expected some of {sorted(_BY_KEY)}"
        )
    chosen = [a for a in ASSETS if a.key in wanted]
    css = [_inline_tag(a) for a in chosen if a.kind == "css"]
    js = [_inline_tag(a) for a in chosen if a.kind == "js"]
    return "\n".join(css + js)


def use_vendored_assets(
    m: folium.Map, plugins: Iterable[object] = (), *, self_contained: bool = True
) -> None:
    """Point a map and its plugins at the vendored assets only; make its JSON inert.

    Every map of the package passes here once built, so this is where the ``tojson`` of its
    templates is made to write no template delimiter (:func:`~._format.inert_tojson`): a
    user's value in a feature property, legend or layer name is shown, never run.

    folium's defaults (jQuery, Bootstrap, Font Awesome, awesome-markers) are dropped:
    the TEP map uses none of them. Plugins other than ``Fullscreen``, ``MeasureControl``
    and ``MarkerCluster`` are left as they are.

    Parameters
    ----------
    m : folium.Map
        The map; its ``default_js`` / ``default_css`` are replaced on the instance.
    plugins : iterable
        folium plugin instances added to the map.
    self_contained : bool, default True
        True inlines the files in the page header; False links to pinned CDN
        addresses of exactly the vendored versions.
    """
    # every map comes here once built: no value in its scripts may read as a template
    inert_tojson(m)
    # the folium classes named in _PLUGIN_ASSETS are JSCSSMixin elements
    groups: list[tuple[JSCSSMixin, tuple[str, ...]]] = [(m, _MAP_ASSETS)]
    for plugin in plugins:
        needed = _PLUGIN_ASSETS.get(type(plugin).__name__)
        if needed is not None:
            groups.append((cast(JSCSSMixin, plugin), needed))
    if self_contained:
        every_key: list[str] = []
        for element, keys in groups:
            element.default_js = []
            element.default_css = []
            every_key += keys
        root = cast(Figure, m.get_root())  # a folium Map's root is its Figure
        root.header.add_child(Element(inline_assets_html(every_key)), name="wetland_gis_assets")
        return
    for element, keys in groups:
        assets = [_BY_KEY[k] for k in keys]
        element.default_js = [(a.key, a.url) for a in assets if a.kind == "js"]
        element.default_css = [(a.key, a.url) for a in assets if a.kind == "css"]


def make_self_contained(html: str, *, strict: bool = True) -> str:
    """Inline every script and stylesheet a folium page loads from a CDN.

    Parameters
    ----------
    html : str
        A rendered page, e.g. ``m.get_root().render()``.
    strict : bool, default True
        Raise when a remote script or stylesheet is not vendored. With False it is
        removed instead (the page may then miss a feature, but never goes online for code).

    Returns
    -------
    str
        The page with no ``<script src="http...">`` or stylesheet ``<link href="http...">``.
        Each file is inlined once, where it was first referenced. Tile images of a
        basemap are not scripts and still load from their server.

    Raises
    ------
    OfflineAssetError
        With ``strict=True``, naming the address that is not vendored, e.g. jQuery
        when a folium ``Popup`` or ``Marker`` icon was used.

    Examples
    --------
    The script is inlined (its own text still holds web addresses, e.g. in comments and
    attribution links, so look for the tag, not for "http"):

    >>> page = '<script src="https://cdn.jsdelivr.net/npm/leaflet@1.9.3/dist/leaflet.js"></script>'
    >>> out = make_self_contained(page)
    >>> "<script src=" in out, out.startswith("<script>/* leaflet@")
    (False, True)
    """
    done: set[str] = set()

    def resolve(url: str) -> str | None:
        if not re.match(r"^(https?:)?//", url, re.IGNORECASE):
            return None  # local or data: reference, leave it
        asset = _BY_URL.get(url if not url.startswith("//") else "https:" + url)
        if asset is None:
            if strict:
                raise OfflineAssetError(
                    f"{url!r} is not vendored; vendored are {sorted(_BY_URL)}. "
                    "Avoid the folium feature that needs it, or add it to "
                    "tools/vendor_leaflet.sh and offline.ASSETS"
                )
            return ""
        if asset.key in done:
            return ""
        done.add(asset.key)
        return _inline_tag(asset)

    def repl(match: re.Match[str]) -> str:
        tag = match.group(0)
        if match.group("script"):
            url = match.group("src")
        else:
            href = _HREF.search(tag)
            if href is None or not _STYLESHEET.search(tag):
                return tag
            url = href.group("url")
        out = resolve(url)
        return tag if out is None else out

    return _TAG.sub(repl, html)
