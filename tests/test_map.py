"""The TEP map: layers, popups, colours, escaping, and self-contained pages."""

from __future__ import annotations

import html
import re

import folium
import geopandas as gpd
import map_fixtures as fx
import pytest
import shapely
from folium.plugins import Fullscreen, MarkerCluster, MeasureControl

from wetland_gis.errors import MissingCRSError
from wetland_gis.mapping import (
    MappingInputError,
    OfflineAssetError,
    make_self_contained,
    save_map,
    tep_map,
)
from wetland_gis.mapping.offline import ASSETS, inline_assets_html
from wetland_gis.mapping.popups import impact_popup_html
from wetland_gis.mapping.symbology import OUTCOME_COLORS
from wetland_gis.mapping.tep_map import LARGE_LABEL_ZOOM

REMOTE_SCRIPT = re.compile(r"<script\b[^>]*\bsrc\s*=\s*[\"']?(https?:)?//", re.IGNORECASE)
REMOTE_STYLESHEET = re.compile(
    r"<link\b(?=[^>]*stylesheet)[^>]*\bhref\s*=\s*[\"']?(https?:)?//", re.IGNORECASE
)


def _full_map(**kwargs) -> folium.Map:
    return tep_map(fx.impacts(), **fx.map_layers(), **kwargs)


@pytest.fixture(scope="module")
def full_map() -> folium.Map:
    return _full_map()


@pytest.fixture(scope="module")
def page(full_map: folium.Map) -> str:
    return full_map.get_root().render()


def _layers(m: folium.Map) -> dict[str, folium.GeoJson]:
    """GeoJson layers by their wg_layer property."""
    out = {}
    for child in m._children.values():
        if isinstance(child, folium.GeoJson) and child.data["features"]:
            out[child.data["features"][0]["properties"]["wg_layer"]] = child
    return out


def _features(m: folium.Map, layer: str) -> dict[str, dict]:
    return {f["properties"]["wg_id"]: f for f in _layers(m)[layer].data["features"]}


# --------------------------------------------------------------------------- layers


def test_each_layer_has_the_expected_number_of_features(full_map: folium.Map) -> None:
    counts = {k: len(v.data["features"]) for k, v in _layers(full_map).items()}
    assert counts == {
        "impacts": 5,  # I-6 has no geometry
        "impact_markers": 5,  # one marker per drawn impact, so small ones can be found
        "zones": 2,
        "sites": 2,
        "banks": 2,
        "counties": 2,  # the far county is clipped away
        "major_watersheds": 2,
        "minor_watersheds": 2,
        "public_water_basins": 1,
    }


def test_bank_service_area_boundary_outside_the_margin_is_not_drawn(full_map: folium.Map) -> None:
    assert "bank_service_areas" not in _layers(full_map)
    assert "lgus" not in _layers(full_map)  # not a drawn context layer


def test_context_layers_are_clipped_to_the_project_extent_plus_margin() -> None:
    m = _full_map(margin_m=100.0)
    # the impacts span y = -300 to +360 m: the county line at x = +50 m crosses them,
    # the major watershed line at y = +700 m lies beyond the margin
    assert "counties" in _layers(m)
    assert "major_watersheds" not in _layers(m)


def test_impacts_are_coloured_by_outcome(full_map: folium.Map) -> None:
    features = _features(full_map, "impacts")
    for impact_id, outcome in fx.OUTCOMES.items():
        style = features[impact_id]["properties"]["style"]
        assert style["fillColor"] == OUTCOME_COLORS[outcome]
        assert features[impact_id]["properties"]["wg_outcome"] == outcome


def test_outcome_palette_has_one_distinct_colour_per_outcome() -> None:
    from wetland_gis.enums import ImpactOutcome

    assert set(OUTCOME_COLORS) == {o.value for o in ImpactOutcome}
    assert len(set(OUTCOME_COLORS.values())) == len(OUTCOME_COLORS)


def test_geometry_is_reprojected_to_longitude_latitude(full_map: folium.Map) -> None:
    for layer in _layers(full_map).values():
        for feature in layer.data["features"]:
            minx, miny, maxx, maxy = shapely.geometry.shape(feature["geometry"]).bounds
            assert -98 < minx <= maxx < -89 and 43 < miny <= maxy < 50


def test_geometry_is_simplified_to_the_tolerance_in_metres() -> None:
    impacts = fx.impacts().iloc[:1].copy()
    impacts.geometry = impacts.geometry.centroid.buffer(50, quad_segs=64)
    fine = _features(tep_map(impacts, simplify_m=0.0), "impacts")["I-1"]
    coarse = _features(tep_map(impacts, simplify_m=5.0), "impacts")["I-1"]
    n_fine = shapely.get_num_coordinates(shapely.geometry.shape(fine["geometry"]))
    n_coarse = shapely.get_num_coordinates(shapely.geometry.shape(coarse["geometry"]))
    assert n_coarse < n_fine / 4


def test_map_has_scale_measure_fullscreen_layer_control_and_a_title(
    full_map: folium.Map, page: str
) -> None:
    kinds = {type(c).__name__ for c in full_map._children.values()}
    assert {"MeasureControl", "Fullscreen", "LayerControl", "_Decorations"} <= kinds
    assert full_map.control_scale
    assert "L.control.scale()" in page
    assert "<title>TEP review map</title>" in page  # the default title


def test_opening_view_fits_the_impacts_and_their_allocated_options(
    full_map: folium.Map,
) -> None:
    from shapely.geometry import box

    deco = fx.decorations(full_map)
    (south, west), (north, east) = deco.fit
    view = box(west, south, east, north)
    wgs = fx.impacts().dropna(subset=["geometry"]).to_crs("EPSG:4326")
    assert all(view.covers(g) for g in wgs.geometry)
    # the allocated site S1 and bank 1234 are in view; the far bank 5678 is not
    sites = fx.sites().to_crs("EPSG:4326").set_index("site_id")
    banks = fx.banks().to_crs("EPSG:4326").set_index("account")
    assert view.covers(sites.geometry["S1"]) and view.covers(banks.geometry["1234"])
    assert not view.covers(banks.geometry["5678"])
    assert not view.covers(sites.geometry["S2"])  # ranked but not allocated
    # the zoom-to-all control covers every site and bank
    (s2, w2), (n2, e2) = deco.options
    everything = box(w2, s2, e2, n2)
    assert all(everything.covers(g) for g in [*sites.geometry, *banks.geometry])


def test_without_allocation_the_view_fits_the_impacts_only() -> None:
    m = tep_map(fx.impacts(), sites=fx.sites(), banks=fx.banks())
    (south, west), (north, east) = fx.decorations(m).fit
    # the impacts, under 1 km across; not the sites and banks around them
    assert north - south < 0.01 and east - west < 0.015


def test_impact_markers_carry_their_id_as_a_permanent_label(full_map: folium.Map) -> None:
    markers = _features(full_map, "impact_markers")
    assert set(markers) == set(fx.OUTCOMES)
    assert all(f["properties"]["wg_label"] == i for i, f in markers.items())
    legend = fx.decorations(full_map).legend_html
    assert "Impact location marker" in legend


def test_default_marker_images_are_inlined(page: str) -> None:
    # leaflet.js still names its default files; the map overrides them (the browser test
    # checks that no file is requested)
    assert '"iconUrl": "data:image/png;base64,' in page
    assert '"shadowUrl": "data:image/png;base64,' in page
    assert 'L.Icon.Default.imagePath = "";' in page


def test_sites_and_banks_are_labelled_with_tier_and_allocated_credits(
    full_map: folium.Map,
) -> None:
    sites = _features(full_map, "sites")
    assert sites["S1"]["properties"]["wg_tooltip"] == (
        "Site S1 \u00b7 tier 1 \u00b7 0.5 cr allocated"
    )
    assert sites["S1"]["properties"]["wg_permanent"] is True  # credits allocated
    assert sites["S2"]["properties"]["wg_permanent"] is False  # labelled on hover
    # banks have no best_tier / allocated_credits columns: they come from the allocation
    banks = _features(full_map, "banks")
    assert banks["1234"]["properties"]["wg_tooltip"] == (
        "Bank Pine Meadows (1234) \u00b7 tier 2 \u00b7 0.3 cr allocated"
    )
    assert "not ranked" in banks["5678"]["properties"]["wg_tooltip"]
    assert "Minn. Stat. § 103G.222, subd. 3(a)(2)" in banks["1234"]["properties"]["wg_popup"]


def test_legend_lists_outcomes_with_counts_and_the_undrawn_impact(full_map: folium.Map) -> None:
    legend = next(
        c for c in full_map._children.values() if type(c).__name__ == "_Decorations"
    ).legend_html
    assert "De minimis exempt (1)" in legend
    assert "Not assessed (1)" in legend  # I-5 drawn, I-6 not
    assert "1 impact has no drawable geometry" in legend
    assert "Shoreland building setback zone" in legend
    assert "County boundaries" in legend


# --------------------------------------------------------------------------- popups


def _trace_steps(iid: str) -> list[dict]:
    """The trace steps of fixture impacts I-1 and I-2 (the decisions table's columns)."""
    steps = {
        "I-1": [
            {
                "rule_id": "de_minimis.amount",
                "citation": fx.DE_MINIMIS_CITATION,
                "outcome": "eligible",
                "reason": "Type 3 outside the shoreland wetland protection "
                "zone in a greater than 80 percent area: allowance 10,000 sq ft; 404 sq ft is "
                "within it",
                "verify": ["Wetland boundary delineation"],
            },
            {
                "rule_id": "de_minimis.impact",
                "citation": "Minn. R. 8420.0420, subp. 1",
                "outcome": "exempt",
                "reason": "Impact 'I-1' is de minimis.",
                "verify": [],
            },
        ],
        "I-2": [
            {
                "rule_id": "replacement.ratio",
                "citation": fx.RATIO_CITATION,
                "outcome": "required",
                "reason": "Ratio 1:1; the whole impact is replaced",
                "verify": [],
            },
        ],
    }[iid]
    return [{"impact_id": iid, "seq": n, **step} for n, step in enumerate(steps)]


def _popup(iid: str, **kw) -> str:
    row = fx.impacts().drop(columns="geometry").set_index("impact_id", drop=False).loc[iid]
    return impact_popup_html(row.to_dict(), impact_id=iid, steps=_trace_steps(iid), **kw)


def test_popup_shows_the_de_minimis_citation_in_the_decision_chain() -> None:
    popup = _popup("I-1")
    row = re.search(r"<th>de minimis test</th>(.*?)</tr>", popup).group(1)
    assert "exempt" in row and html.escape(fx.DE_MINIMIS_CITATION) in row


def test_popup_shows_ratio_citation_and_siting_tier(full_map: folium.Map) -> None:
    ratio_row = re.search(r"<th>replacement ratio</th>(.*?)</tr>", _popup("I-2")).group(1)
    assert "1:1" in ratio_row and fx.RATIO_CITATION in ratio_row
    popup = _features(full_map, "impacts")["I-2"]["properties"]["wg_popup"]
    siting = re.search(r"<th>siting tier</th>(.*?)</tr>", popup).group(1)
    assert "site S1: tier 1 (same minor watershed)" in siting
    assert "bank 1234: tier 2 (same major watershed)" in siting
    assert "Minn. Stat. § 103G.222, subd. 3(a)" in siting


def test_popup_lists_reasons_citations_and_checks_from_the_trace_steps() -> None:
    popup = _popup("I-1")
    assert f"<li>{fx.DE_MINIMIS_CITATION}</li><li>Minn. R. 8420.0420, subp. 1</li>" in popup
    # one reason per step: the semicolon inside the first reason does not split it
    assert "<ol><li>Type 3 outside the shoreland" in popup
    assert "404 sq ft is within it</li><li>Impact" in popup
    assert "<li>Wetland boundary delineation</li>" in popup


def test_popup_without_steps_shows_the_rendered_text_unsplit(full_map: folium.Map) -> None:
    popup = _features(full_map, "impacts")["I-1"]["properties"]["wg_popup"]
    assert "allowance 10,000 sq ft; 404 sq ft is within it</p>" in popup


def test_popup_falls_back_to_the_defining_provision_when_a_step_cites_nothing() -> None:
    row = fx.impacts().drop(columns="geometry").iloc[4].to_dict()
    popup = impact_popup_html(row, impact_id="I-5")
    wtype = re.search(r"<th>wetland type</th>(.*?)</tr>", popup).group(1)
    assert 'class="wg-default"' in wtype and "103G.005, subd. 17b" in wtype


def test_tooltip_gives_id_and_outcome(full_map: folium.Map) -> None:
    tip = _features(full_map, "impacts")["I-3"]["properties"]["wg_tooltip"]
    assert tip == "Impact I-3: Prohibited"


# --------------------------------------------------------------------------- escaping


def test_script_in_an_attribute_is_escaped_in_popups(full_map: folium.Map) -> None:
    popup = _features(full_map, "impacts")["I-5"]["properties"]["wg_popup"]
    assert html.escape(fx.XSS) in popup
    assert fx.XSS not in popup
    inputs = _features(full_map, "impacts")["I-2"]["properties"]["wg_popup"]
    assert "<summary>Input attributes</summary>" in inputs
    assert f"<th>notes</th><td>{html.escape(fx.XSS_IMG)}</td>" in inputs


def test_raw_script_never_appears_in_the_page(page: str) -> None:
    assert fx.XSS not in page
    assert "<img src=x" not in page
    assert 'onerror="alert' not in page
    # it is there, escaped for HTML (then for JSON), for a person to read
    assert "\\u0026lt;script\\u0026gt;alert(1)\\u0026lt;/script\\u0026gt;" in page


def test_script_in_ids_names_and_title_is_escaped_everywhere() -> None:
    impacts = fx.impacts()
    impacts["impact_id"] = [f"I-{i}{fx.XSS}" for i in range(len(impacts))]
    impacts["outcome"] = impacts["outcome"].where(impacts.index != 0, fx.XSS)
    zones = fx.zones()
    zones["pw_id"] = fx.XSS
    ctx = fx.context()
    ctx["counties"]["NAME"] = fx.XSS
    m = tep_map(impacts, zones=zones, sites=fx.sites(), banks=fx.banks(), context=ctx, title=fx.XSS)
    page = m.get_root().render()
    assert fx.XSS not in page
    assert "<script>alert" not in page


# --------------------------------------------------------------------------- offline


def test_self_contained_page_loads_no_script_or_stylesheet_from_the_network(page: str) -> None:
    assert not REMOTE_SCRIPT.search(page)
    assert not REMOTE_STYLESHEET.search(page)
    for needle in ("cdn.jsdelivr", "code.jquery", "cdnjs.cloudflare", "bootstrapcdn"):
        assert needle not in page
    assert "sourceMappingURL" not in page
    # the vendored files are inlined
    assert "leaflet@1.9.4" in page and "leaflet-measure@2.1.7" in page
    assert "leaflet.fullscreen@3.0.0" in page


def test_css_images_are_inlined_as_data_uris(page: str) -> None:
    urls = re.findall(r"url\(([^)]*)\)", page)
    assert urls
    for url in urls:
        url = url.strip("'\" ")
        assert url.startswith("data:") or url.startswith("#") or url == ""


def test_saved_map_is_self_contained(tmp_path, full_map: folium.Map) -> None:
    out = save_map(full_map, tmp_path / "out" / "map.html")
    text = out.read_text(encoding="utf-8")
    assert not REMOTE_SCRIPT.search(text) and not REMOTE_STYLESHEET.search(text)
    assert text.count("leaflet@1.9.4 (BSD-2-Clause), leaflet/leaflet.js") == 1


MARKERCLUSTER_URL = re.compile(r"https?://[^\s\"'<>]*markercluster[^\s\"'<>]*\.(js|css)", re.I)


@pytest.mark.parametrize(
    ("large_above", "clustered"),
    [(len(fx.impacts()), False), (len(fx.impacts()) - 1, True)],
    ids=["at_the_large_threshold_no_cluster", "one_over_clustered"],
)
def test_a_large_maps_markers_are_clustered_with_the_plugin_inlined(
    tmp_path, large_above: int, clustered: bool
) -> None:
    m = tep_map(fx.impacts(), large_above=large_above)
    clusters = [c for c in m._children.values() if isinstance(c, MarkerCluster)]
    text = save_map(m, tmp_path / "map.html").read_text(encoding="utf-8")
    assert not REMOTE_SCRIPT.search(text) and not REMOTE_STYLESHEET.search(text)
    assert not MARKERCLUSTER_URL.search(text)  # no CDN address of the plugin's files
    inlined = "leaflet.markercluster@1.1.0 (MIT), leaflet.markercluster/leaflet.markercluster.js"
    assert text.count(inlined) == (1 if clustered else 0)
    assert text.count("L.markerClusterGroup(") == (1 if clustered else 0)
    if not clustered:
        assert clusters == []
        return
    (cluster,) = clusters
    # individual markers (and their labels) from the label zoom in; polygons not clustered
    assert cluster.options["disableClusteringAtZoom"] == LARGE_LABEL_ZOOM
    (markers,) = [c for c in cluster._children.values() if isinstance(c, folium.GeoJson)]
    props = [f["properties"] for f in markers.data["features"]]
    assert {p["wg_layer"] for p in props} == {"impact_markers"}
    assert len(props) == len(fx.impacts().dropna(subset=["geometry"]))
    assert all(p["wg_label_lazy"] and p["wg_popup"] for p in props)
    assert "impacts" in _layers(m)  # the polygons stay a layer of the map itself
    for css in ("MarkerCluster.css", "MarkerCluster.Default.css"):
        assert f"leaflet.markercluster/{css} */" in text


def test_not_self_contained_links_pinned_cdn_copies_without_jquery_or_bootstrap() -> None:
    page = tep_map(fx.impacts(), self_contained=False).get_root().render()
    assert "https://cdn.jsdelivr.net/npm/leaflet@1.9.4/dist/leaflet.js" in page
    assert "leaflet-measure@2.1.7" in page
    assert "jquery" not in page.lower() and "bootstrap" not in page.lower()


def test_make_self_contained_inlines_folium_default_leaflet() -> None:
    page = (
        '<head><script src="https://cdn.jsdelivr.net/npm/leaflet@1.9.3/dist/leaflet.js">'
        '</script><link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/leaflet@1.9.3/'
        'dist/leaflet.css"/></head>'
    )
    out = make_self_contained(page)
    assert "http" not in out.split("<script>")[0]
    assert not REMOTE_SCRIPT.search(out) and not REMOTE_STYLESHEET.search(out)
    assert "<style>" in out and "<script>" in out


def test_make_self_contained_refuses_a_script_that_is_not_vendored() -> None:
    m = folium.Map()
    folium.Marker([46, -94], popup="x").add_to(m)  # needs jQuery and awesome-markers
    page = m.get_root().render()
    with pytest.raises(OfflineAssetError, match="jquery"):
        make_self_contained(page)
    loose = make_self_contained(page, strict=False)
    assert not REMOTE_SCRIPT.search(loose) and not REMOTE_STYLESHEET.search(loose)


def test_every_vendored_asset_is_present_and_inlines() -> None:
    text = inline_assets_html(a.key for a in ASSETS)
    n_js = sum(a.kind == "js" for a in ASSETS)
    assert n_js == 4 and len(ASSETS) == 9  # Leaflet, fullscreen, measure, markercluster
    assert text.count("<script>") == n_js and text.count("<style>") == len(ASSETS) - n_js
    with pytest.raises(OfflineAssetError, match="unknown asset"):
        inline_assets_html(["jquery"])


def test_plugins_are_vendored_with_the_map(full_map: folium.Map) -> None:
    plugins = [
        c for c in full_map._children.values() if isinstance(c, (Fullscreen, MeasureControl))
    ]
    assert len(plugins) == 2
    assert all(p.default_js == [] and p.default_css == [] for p in plugins)


# --------------------------------------------------------------------------- arguments


def test_basemap_none_has_no_tiles_and_osm_adds_them() -> None:
    assert not any(
        isinstance(c, folium.TileLayer) for c in tep_map(fx.impacts())._children.values()
    )
    osm = tep_map(fx.impacts(), basemap="osm")
    assert any(isinstance(c, folium.TileLayer) for c in osm._children.values())


def test_unknown_basemap_names_the_allowed_values() -> None:
    with pytest.raises(MappingInputError, match=r"`basemap` was 'google' .*'none', 'osm'"):
        tep_map(fx.impacts(), basemap="google")


def test_layer_without_crs_says_how_to_fix_it() -> None:
    impacts = fx.impacts().set_crs(None, allow_override=True)
    with pytest.raises(MissingCRSError, match="set_crs"):
        tep_map(impacts)


def test_impacts_without_outcome_column_are_refused() -> None:
    with pytest.raises(MappingInputError, match="lacks column.*outcome"):
        tep_map(fx.impacts().drop(columns="outcome"))


def test_zones_without_zone_column_are_refused() -> None:
    with pytest.raises(MappingInputError, match="`zones` lacks"):
        tep_map(fx.impacts(), zones=fx.zones().drop(columns="zone"))


def test_negative_tolerance_is_refused() -> None:
    with pytest.raises(MappingInputError, match="simplify_m"):
        tep_map(fx.impacts(), simplify_m=-1)


def test_banks_given_as_a_table_with_lon_lat_are_drawn() -> None:
    table = fx.banks().drop(columns="geometry").assign(lon=[-94.2, -94.6], lat=[46.4, 45.5])
    m = tep_map(fx.impacts(), banks=table.drop(columns=[]))
    assert len(_features(m, "banks")) == 2


def test_no_drawable_impact_still_builds_a_map() -> None:
    impacts = fx.impacts()
    impacts = gpd.GeoDataFrame(impacts.drop(columns="geometry"), geometry=[None] * 6, crs=fx.CRS)
    m = tep_map(impacts, sites=fx.sites())
    assert len(_features(m, "sites")) == 2
    assert "impacts" not in _layers(m)


def test_a_map_built_online_can_be_saved_self_contained(tmp_path) -> None:
    m = tep_map(fx.impacts(), sites=fx.sites(), self_contained=False)
    text = save_map(m, tmp_path / "map.html", self_contained=True).read_text(encoding="utf-8")
    assert not REMOTE_SCRIPT.search(text) and not REMOTE_STYLESHEET.search(text)
    assert "leaflet-measure@2.1.7 (MIT)" in text


def test_popups_list_the_impacts_own_trace_steps_and_the_legend_names_the_siting_reading():
    """The map renders each impact's steps from the trace, never by splitting text."""
    trace = fx.trace()
    trace.loc[0, "reason"] = "a reason; with a semicolon that must stay whole"
    page = (
        tep_map(fx.impacts(), trace=trace, siting_reading="banking_own_order", self_contained=False)
        .get_root()
        .render()
    )
    assert html.escape("a reason; with a semicolon that must stay whole") in page or (
        "a reason; with a semicolon that must stay whole" in page
    )
    assert "Siting priority" in page and "own priority order" in page


@pytest.mark.parametrize(
    ("decided", "shown"),
    [
        pytest.param("conditional", "conditional", id="subd. 9: a conditional answer reads so"),
        pytest.param("not_exempt", "not exempt", id="subd. 9: not exempt, as decided"),
    ],
)
def test_popup_de_minimis_row_reads_the_decided_de_minimis_outcome(decided, shown) -> None:
    """The decision chain's de minimis row shows the engine's ``de_minimis`` column, not an
    answer re-derived from the impact outcome (a conditional one is not "not applied")."""
    row = fx.impacts().drop(columns="geometry").set_index("impact_id", drop=False).loc["I-1"]
    values = {**row.to_dict(), "de_minimis": decided, "outcome": "de_minimis_conditional"}
    popup = impact_popup_html(values, impact_id="I-1", steps=_trace_steps("I-1"))
    found = re.search(r"<th>de minimis test</th><td>(.*?)</td>", popup).group(1)
    assert found.startswith(shown) and "not applied" not in found


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        pytest.param(12_499.5, "12,500 sq ft", id="half a square foot rounds up, once"),
        pytest.param("10,000", "10,000 sq ft", id="text with a separator, as a user writes it"),
        pytest.param("n/a", "\u2014", id="not a number: missing, never an error"),
        pytest.param(float("inf"), "\u2014", id="not finite: missing"),
        pytest.param(None, "\u2014", id="blank"),
    ],
)
def test_the_popup_and_the_report_show_square_feet_alike(value, shown) -> None:
    from wetland_gis.mapping._format import fmt_sqft
    from wetland_gis.mapping.popups import decision_chain

    chain = dict(decision_chain({"zone": "outside", "sqft_outside": value}, None))
    assert chain["shoreland zone"].endswith(f"(outside {shown})")
    assert fmt_sqft(value, unit=True) == shown
    assert fmt_sqft(value) == shown.removesuffix(" sq ft")  # the report's cells
