#!/usr/bin/env bash
# Vendor the JavaScript and CSS the TEP map needs, so a saved map works offline.
#
# Fetches exact versions from the npm registry with `npm pack`, checks each tarball
# against the sha512 integrity pinned below (the registry's `dist.integrity`), and copies
# the distribution files into wetland_gis/mapping/assets/vendor/ with a LICENSES.md, and
# writes wetland_gis/mapping/assets/SHA256SUMS (the vendored files and the map's own ones).
# wetland_gis.mapping.offline reads the files from there; the copies are committed.
#
# Why only these four packages: folium's page would also load jQuery, Bootstrap,
# Bootstrap glyphicons, Font Awesome and Leaflet.awesome-markers. The TEP map uses none of
# them (no folium.Popup, no folium.Marker icons), so tep_map() empties folium's default
# lists and only Leaflet and the three plugins below are loaded (MarkerCluster only in
# a large project's map).
#
# Usage: tools/vendor_leaflet.sh            (from anywhere; needs npm, tar, openssl)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
ASSETS="$ROOT/wetland_gis/mapping/assets"
DEST="$ASSETS/vendor"

# package@version | sha512 integrity (npm view <pkg>@<ver> dist.integrity) | licence
PACKAGES=(
  "leaflet@1.9.4|sha512-nxS1ynzJOmOlHp+iL3FyWqK89GtNL8U8rvlMOsQdTTssxZwCXh8N2NB3GDQOL+YR3XnWyZAxwQixURb+FA74PA==|BSD-2-Clause"
  "leaflet.fullscreen@3.0.0|sha512-81wWSUXz1ZtdneR0v5eJDWXUSx+Zo5J50WXWeydG/UcILfIEAgz/iOjZSi3p00Z9MJ/FC/P5i3CgdYuEAos0yQ==|MIT"
  "leaflet-measure@2.1.7|sha512-IvoHIoVTIQSXUgaNnAMF17qXFB+dF5ICdwmY8BHyq/Hh33/xeGqQUUYlz0pRMzFN9NUcjsT6JBhCr1ia0CG5ug==|MIT"
  "leaflet.markercluster@1.1.0|sha512-eI+XkCiLiHwCC3uZ4/n4+Vq3rXcqEHN2lhHRVG1WVziy/3Q0TTipWkzEa1zO0dKZI2AnI5ppFDWrOjnQ7MJLKQ==|MIT"
)

# files to copy, relative to the tarball's package/ folder
files_for() {
  case "$1" in
    leaflet) echo "LICENSE dist/leaflet.js dist/leaflet.css dist/images/layers.png dist/images/layers-2x.png dist/images/marker-icon.png dist/images/marker-icon-2x.png dist/images/marker-shadow.png" ;;
    leaflet.fullscreen) echo "LICENSE Control.FullScreen.js Control.FullScreen.css icon-fullscreen.svg" ;;
    leaflet-measure) echo "LICENSE dist/leaflet-measure.min.js dist/leaflet-measure.css dist/images/rulers.png dist/images/rulers_@2X.png dist/images/start.png dist/images/start_@2X.png dist/images/cancel.png dist/images/cancel_@2X.png dist/images/check.png dist/images/check_@2X.png dist/images/focus.png dist/images/focus_@2X.png dist/images/trash.png dist/images/trash_@2X.png" ;;
    # the version folium.plugins.MarkerCluster loads (its default_js / default_css)
    leaflet.markercluster) echo "MIT-LICENCE.txt dist/leaflet.markercluster.js dist/MarkerCluster.css dist/MarkerCluster.Default.css" ;;
    *) echo "unknown package $1" >&2; return 1 ;;
  esac
}

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

{
  echo "# Vendored JavaScript and CSS of the TEP map"
  echo
  echo "Obtained with \`tools/vendor_leaflet.sh\` (\`npm pack\` from registry.npmjs.org, tarballs checked"
  echo "against the pinned sha512 integrity). Files are copied unchanged from each package's"
  echo "distribution; \`wetland_gis.mapping.offline\` inlines them (CSS images as data URIs)."
  echo
  echo "| package | version | licence | files | integrity |"
  echo "| --- | --- | --- | --- | --- |"
} > "$WORK/LICENSES.md"

# only the vendored packages' folders are replaced: tep_map.css and tep_map.js in assets/
# are the package's own files (SHA256SUMS below lists them too)
mkdir -p "$DEST"
for entry in "${PACKAGES[@]}"; do
  IFS='|' read -r spec integrity licence <<< "$entry"
  name="${spec%@*}"
  version="${spec##*@}"
  rm -rf "${DEST:?}/$name"
  echo "== $spec"
  tgz="$(cd "$WORK" && npm pack --silent "$spec")"
  got="sha512-$(openssl dgst -sha512 -binary "$WORK/$tgz" | base64 -w0)"
  if [[ "$got" != "$integrity" ]]; then
    echo "integrity mismatch for $spec: expected $integrity, got $got" >&2
    exit 1
  fi
  mkdir -p "$WORK/$name"
  tar -xzf "$WORK/$tgz" -C "$WORK/$name" --warning=no-unknown-keyword
  listed=()
  for f in $(files_for "$name"); do
    out="$DEST/$name/${f#dist/}"
    mkdir -p "$(dirname "$out")"
    cp "$WORK/$name/package/$f" "$out"
    listed+=("${f#dist/}")
  done
  echo "| $name | $version | $licence | ${listed[*]} | \`$integrity\` |" >> "$WORK/LICENSES.md"
done

cat >> "$WORK/LICENSES.md" <<'NOTE'

Each package's own licence text is copied beside its files (`<package>/LICENSE`;
Leaflet.markercluster ships it as `leaflet.markercluster/MIT-LICENCE.txt`).
`leaflet-measure.min.js` is a browserify bundle that also contains the package's runtime
dependencies (`color`, `geocrunch`, `humanize`, `i18n-2`, `underscore`; all MIT licensed).
`Control.FullScreen.js` is served unminified: the npm package has no `.min.js` (the CDN
address folium uses is minified on the fly by jsDelivr).
NOTE
cp "$WORK/LICENSES.md" "$DEST/LICENSES.md"
(cd "$ASSETS" && find . -type f ! -name SHA256SUMS ! -name LICENSES.md | sort | xargs sha256sum > SHA256SUMS)
echo "assets written to $DEST, hashes to $ASSETS/SHA256SUMS"
