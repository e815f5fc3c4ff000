#!/usr/bin/env bash
# Builds public/data/comunas.topojson (the boundaries the page loads) from the raw chilemapas
# TopoJSON in data/raw/boundaries/ with mapshaper 0.7.70 (npm, pinned in tools/node/package.json;
# `scripts/setup.sh` installs it). Deterministic: the same input and mapshaper version give the
# same bytes. See public/data/SOURCES.md.
#
#   scripts/build-boundaries.sh           write public/data/comunas.topojson
#   scripts/build-boundaries.sh --check   build into a temporary file and fail if it differs
#
# What the command does:
#   -filter-fields   keep only codigo_comuna, nombre_comuna, codigo_region, nombre_region
#   -simplify 20% keep-shapes
#                    Visvalingam (mapshaper's default, weighted) keeping 20% of the removable
#                    vertices; simplification works on the shared arcs, so borders shared by two
#                    communes stay shared (topology preserved); keep-shapes stops any commune from
#                    disappearing (its largest ring is kept; tiny islands of a commune may go)
#   quantization=100000
#                    integer grid of 1e5 steps over the bounding box (~50 m), as TopoJSON does
# The result must stay at most 400 KB (checked here and by crates/imr-dataset/tests).
set -euo pipefail
cd "$(dirname "$0")/.."

MAPSHAPER=tools/node/node_modules/.bin/mapshaper
MAPSHAPER_VERSION=0.7.70
INPUT=data/raw/boundaries/chile_comunas_2018.topojson
OUTPUT=public/data/comunas.topojson
MAX_BYTES=409600

if [ ! -x "$MAPSHAPER" ]; then
  echo "build-boundaries: $MAPSHAPER not found; run scripts/setup.sh (npm ci in tools/node)" >&2
  exit 1
fi
found_version=$("$MAPSHAPER" -v)
if [ "$found_version" != "$MAPSHAPER_VERSION" ]; then
  echo "build-boundaries: mapshaper $MAPSHAPER_VERSION expected, found $found_version" >&2
  exit 1
fi

target=$OUTPUT
if [ "${1:-}" = "--check" ]; then
  target=$(mktemp --suffix=.topojson)
  trap 'rm -f "$target"' EXIT
fi

"$MAPSHAPER" "$INPUT" \
  -filter-fields codigo_comuna,nombre_comuna,codigo_region,nombre_region \
  -simplify 20% keep-shapes \
  -o "$target" format=topojson quantization=100000 force

size=$(stat -c %s "$target")
if [ "$size" -gt "$MAX_BYTES" ]; then
  echo "build-boundaries: $target is $size bytes, more than $MAX_BYTES" >&2
  exit 1
fi

if [ "${1:-}" = "--check" ]; then
  if cmp -s "$target" "$OUTPUT"; then
    echo "build-boundaries: $OUTPUT is up to date ($size bytes)"
  else
    echo "build-boundaries: $OUTPUT differs from a fresh build; run scripts/build-boundaries.sh" >&2
    exit 1
  fi
else
  echo "build-boundaries: wrote $OUTPUT ($size bytes)"
fi
