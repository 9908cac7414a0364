/* The TEP review map's own behaviour; wetland_gis.mapping.tep_map inlines this file in the
 * page header, before any layer is drawn. Defines one global, `wetlandGis`:
 *   onEachFeature(feature, layer)  bound to each feature of every GeoJson layer;
 *   decorate(map, icons, legendHtml, fit, options)  the legend, opening view, id labels and
 *     zoom controls of one map;
 *   clusterIcon(cluster)  the icon of a cluster of a large project's impact markers.
 * Feature properties hold only HTML that Python escaped (wg_popup, wg_tooltip, wg_label);
 * legendHtml is rendered from an autoescaped template.
 */
var wetlandGis = (function () {
    "use strict";

    // Bound on each feature of a folium GeoJson layer. Properties hold only escaped HTML.
    var onEachFeature = function (feature, layer) {
        var p = feature.properties || {};
        if (p.wg_popup) {
            layer.bindPopup(p.wg_popup, {maxWidth: 480, minWidth: 300, maxHeight: 360});
        }
        if (p.wg_label) {
            // the impact id, always shown at project zoom (hidden when zoomed far out)
            layer.bindTooltip(p.wg_label, {permanent: true, direction: "right", offset: [8, 0],
                                           className: "wg-label wg-id-label", interactive: false});
        } else if (p.wg_tooltip) {
            layer.bindTooltip(p.wg_tooltip, p.wg_permanent
                ? {permanent: true, direction: "right", offset: [10, 0], className: "wg-label"}
                : {sticky: true});
        }
        layer.on("add", function () {
            var el = layer.getElement ? layer.getElement() : null;
            if (el) {
                el.setAttribute("data-wg-layer", p.wg_layer || "");
                el.setAttribute("data-wg-id", p.wg_id || "");
                el.setAttribute("data-wg-outcome", p.wg_outcome || "");
            }
        });
        if (layer.setStyle && p.style) {
            layer.on("mouseover", function () { layer.setStyle({weight: (p.style.weight || 1) + 2}); });
            layer.on("mouseout", function () { layer.setStyle({weight: p.style.weight || 1}); });
        }
    };

    // The legend (a Leaflet control behind a "Legend" button, open on a wide screen and
    // collapsed on a phone), the opening view fitted to `fit`, the impact id labels shown
    // from two zoom levels below the opening view inwards, and, when there are options, a
    // control zooming to every site and bank (`options`) and back. `icons` are Leaflet's
    // default marker images as data URIs, so no marker ever requests a file.
    var decorate = function (map, icons, legendHtml, fit, all, labelFrom) {
        L.Icon.Default.imagePath = "";
        L.Icon.Default.mergeOptions(icons);
        var small = function () { return map.getSize().x < 600; };
        var button = function (box, className, text, title) {
            var b = L.DomUtil.create("button", className, box);
            b.type = "button";
            b.textContent = text;
            if (title) { b.title = title; }
            return b;
        };
        var legend = L.control({position: "bottomright"});
        legend.onAdd = function () {
            var box = L.DomUtil.create("div", "wg-legend-box");
            var toggle = button(box, "wg-legend-toggle", "Legend");
            toggle.setAttribute("aria-expanded", "true");
            var div = L.DomUtil.create("div", "wg-legend", box);
            div.innerHTML = legendHtml;
            var set = function (open) {
                L.DomUtil[open ? "removeClass" : "addClass"](box, "wg-collapsed");
                toggle.setAttribute("aria-expanded", open ? "true" : "false");
                toggle.textContent = open ? "Hide legend" : "Legend";
            };
            set(!small());
            L.DomEvent.on(toggle, "click", function () {
                set(L.DomUtil.hasClass(box, "wg-collapsed"));
                clearOfLegend();
            });
            L.DomEvent.disableClickPropagation(box);
            L.DomEvent.disableScrollPropagation(box);
            return box;
        };
        // A permanent label that runs under the open legend is set on the left of its
        // feature instead (a bank's long label on the right of the view, issue 21).
        var clearOfLegend = function () {
            var container = map.getContainer();
            if (L.DomUtil.hasClass(container, "wg-labels-off")) { return; }
            var box = container.querySelector(".wg-legend-box");
            var open = box && !L.DomUtil.hasClass(box, "wg-collapsed");
            var view = map.getBounds();
            var tips = [];
            map.eachLayer(function (layer) {
                var t = layer.getTooltip ? layer.getTooltip() : null;
                if (!t || !t.options.permanent || !t.getElement || !t.getElement()) { return; }
                var at = t.getLatLng ? t.getLatLng() : null;
                if (at && !view.contains(at)) { return; }
                if (!t.wgRight) { t.wgRight = {direction: t.options.direction, offset: t.options.offset}; }
                if (t.options.direction !== t.wgRight.direction) {
                    t.options.direction = t.wgRight.direction;
                    t.options.offset = t.wgRight.offset;
                    t.update();
                }
                tips.push(t);
            });
            if (!open) { return; }
            var lb = box.getBoundingClientRect();
            // read every box first (one layout), then move those under the legend
            tips.filter(function (t) {
                var r = t.getElement().getBoundingClientRect();
                return r.right > lb.left && r.left < lb.right && r.bottom > lb.top && r.top < lb.bottom;
            }).forEach(function (t) {
                var dx = L.point(t.wgRight.offset || [0, 0]).x;
                t.options.direction = "left";
                t.options.offset = [-Math.abs(dx), 0];
                t.update();
            });
        };
        legend.addTo(map);

        var fitView = function (bounds) {
            var pad = small() ? [[20, 20], [20, 20]] : [[60, 30], [290, 30]];
            map.fitBounds(bounds, {paddingTopLeft: pad[0], paddingBottomRight: pad[1],
                                   maxZoom: 17});
        };
        if (fit) { fitView(fit); }
        // a large project's labels from a set zoom level; else two levels out from the view
        var labelZoom = labelFrom || map.getZoom() - 2;
        var labels = function () {
            var c = map.getContainer();
            L.DomUtil[map.getZoom() < labelZoom ? "addClass" : "removeClass"](
                c, "wg-labels-off");
        };
        map.on("zoomend", labels);
        labels();
        // a large project: each id label is bound when its marker is first in view at
        // labelZoom or closer (thousands of permanent labels would stall the page)
        var lazyLabels = function () {
            if (map.getZoom() < labelZoom) { return; }
            var view = map.getBounds();
            map.eachLayer(function (layer) {
                var p = layer.feature && layer.feature.properties;
                if (!p || !p.wg_label_lazy || layer.wgLabelled || !layer.getLatLng) { return; }
                if (!view.contains(layer.getLatLng())) { return; }
                layer.unbindTooltip();
                layer.bindTooltip(p.wg_label_lazy, {permanent: true, direction: "right",
                    offset: [8, 0], className: "wg-label wg-id-label", interactive: false});
                layer.wgLabelled = true;
            });
        };
        map.on("moveend", lazyLabels);
        lazyLabels();
        map.on("moveend", clearOfLegend);
        clearOfLegend();
        map.wgFit = function () { if (fit) { fitView(fit); } };
        map.wgAllOptions = function () { if (all) { fitView(all); } };
        if (all) {
            var zoom = L.control({position: "topleft"});
            zoom.onAdd = function () {
                var box = L.DomUtil.create("div", "wg-zoom-box");
                var a = button(box, "wg-zoom-button wg-zoom-options", "All sites and banks",
                               "Zoom to every candidate site and wetland bank");
                var b = button(box, "wg-zoom-button wg-zoom-project", "Project",
                               "Zoom back to the impacts and the options allocated to them");
                L.DomEvent.on(a, "click", map.wgAllOptions);
                L.DomEvent.on(b, "click", map.wgFit);
                L.DomEvent.disableClickPropagation(box);
                return box;
            };
            zoom.addTo(map);
        }
    };

    // The icon of a cluster of a large project's impact markers: the count only, in a
    // neutral circle (Leaflet.markercluster's default green, yellow and orange would read
    // as outcome colours). Set as text, never as HTML.
    var clusterIcon = function (cluster) {
        var n = cluster.getChildCount();
        var el = document.createElement("div");
        var span = document.createElement("span");
        span.textContent = String(n);
        el.appendChild(span);
        var size = n < 10 ? 30 : n < 100 ? 36 : 42;
        return L.divIcon({html: el, className: "marker-cluster wg-cluster",
                          iconSize: L.point(size, size)});
    };

    return {onEachFeature: onEachFeature, decorate: decorate, clusterIcon: clusterIcon};
})();
