"""Cut a small real-data fixture out of the chilemapas TopoJSON (see README.md beside this file).

Run from the repository root:  python3 crates/imr-map/tests/data/make_chile_fixture.py
Keeps the 52 communes of the Santiago Metropolitan Region (13), Valparaíso (05101, with its
Desventuradas islands 900 km offshore), Juan Fernández (05104), Isla de Pascua (05201), Arica (15101)
and Laguna Blanca (12102); the arcs they use are copied unchanged (same quantisation), re-indexed.
"""
import json

SRC = "../shared/data/comunas_geo_chilemapas/chile_comunas_2018.topojson"
OUT = "crates/imr-map/tests/data/chile_subset.topojson"
EXTRA = {"05101", "05104", "05201", "15101", "12102"}

topo = json.load(open(SRC, encoding="utf-8"))
geoms = [g for g in topo["objects"]["comunas"]["geometries"]
         if g["properties"]["codigo_region"] == "13" or g["properties"]["codigo_comuna"] in EXTRA]


def flatten(a):
    for x in a:
        if isinstance(x, list):
            yield from flatten(x)
        else:
            yield x


used = sorted({(~i if i < 0 else i) for g in geoms for i in flatten(g["arcs"])})
new_index = {old: new for new, old in enumerate(used)}


def remap(a):
    return [remap(x) if isinstance(x, list) else (new_index[x] if x >= 0 else ~new_index[~x]) for x in a]


for g in geoms:
    g["arcs"] = remap(g["arcs"])
out = {"type": "Topology", "transform": topo["transform"],
       "arcs": [topo["arcs"][i] for i in used],
       "objects": {"comunas": {"type": "GeometryCollection", "geometries": geoms}}}
with open(OUT, "w", encoding="utf-8") as f:
    json.dump(out, f, ensure_ascii=False, separators=(",", ":"))
print(len(geoms), "geometries,", len(used), "arcs")
