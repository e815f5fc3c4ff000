"""Goldens of queen/rook contiguity, spatial empirical Bayes, Moran's I (analytical z and p
under normality and randomisation) and the EB-standardised Moran's I, from esda/libpysal, on
a generated layer where queen and rook neighbours differ.

Run from this folder:  python3 make_esda_goldens.py
Writes grid.geojson (the areas), counts.csv (births and deaths) and goldens.json (esda's
numbers and the package versions), read by crates/imr-map/tests/esda_goldens.rs.

The layer: a 5 x 4 grid of squares (cells touching diagonally are queen but not rook
neighbours), a triangle touching the grid's north-east corner at one point only (a queen-only
neighbour of cell r3c4) and an island square far away (no neighbour under either).
"""

import csv
import json

import esda
import geopandas
import libpysal
import numpy as np
import shapely
from shapely.geometry import Polygon

COLS, ROWS, SIDE = 5, 4, 0.5
X0, Y0 = -70.0, -33.0

features = []
for r in range(ROWS):
    for c in range(COLS):
        x, y = X0 + SIDE * c, Y0 + SIDE * r
        ring = [(x, y), (x + SIDE, y), (x + SIDE, y + SIDE), (x, y + SIDE), (x, y)]
        features.append((f"r{r}c{c}", Polygon(ring)))
corner = (X0 + SIDE * COLS, Y0 + SIDE * ROWS)
features.append(
    ("tri", Polygon([corner, (corner[0] + 0.75, corner[1] + 0.25), (corner[0] + 0.25, corner[1] + 0.75), corner]))
)
features.append(("island", Polygon([(-60.0, -20.0), (-59.5, -20.0), (-59.5, -19.5), (-60.0, -19.5), (-60.0, -20.0)])))
codes = [code for code, _ in features]
frame = geopandas.GeoDataFrame({"code": codes}, geometry=[g for _, g in features], crs="EPSG:4326")

with open("grid.geojson", "w") as out:
    json.dump(
        {
            "type": "FeatureCollection",
            "features": [
                {
                    "type": "Feature",
                    "properties": {"code": code, "name": f"Area {code}"},
                    "geometry": {"type": "Polygon", "coordinates": [[list(p) for p in g.exterior.coords]]},
                }
                for code, g in features
            ],
        },
        out,
        indent=1,
    )

rng = np.random.default_rng(20261204)
births = rng.integers(40, 4000, size=len(codes)).astype(float)
# Risk rising from west to east, so that there is autocorrelation to find.
risk = np.array([0.004 + 0.0015 * (i % COLS) for i in range(len(codes))])
deaths = rng.poisson(risk * births).astype(float)
with open("counts.csv", "w", newline="") as out:
    writer = csv.writer(out)
    writer.writerow(["code", "births", "deaths"])
    for code, b, d in zip(codes, births, deaths):
        writer.writerow([code, int(b), int(d)])

goldens = {
    "versions": {
        "esda": esda.__version__,
        "libpysal": libpysal.__version__,
        "geopandas": geopandas.__version__,
        "shapely": shapely.__version__,
        "numpy": np.__version__,
    },
    "codes": codes,
}
rate_per_1000 = 1000.0 * deaths / births
for name, builder in [("queen", libpysal.weights.Queen), ("rook", libpysal.weights.Rook)]:
    w = builder.from_dataframe(frame, ids=codes, use_index=False, silence_warnings=True)
    w.id_order = codes
    neighbours = {code: sorted(w.neighbors[code]) for code in codes}
    seb = esda.smoothing.Spatial_Empirical_Bayes(deaths, births, w).r.flatten()
    w.transform = "r"
    moran = esda.Moran(rate_per_1000, w, permutations=0)
    w.transform = "r"
    moran_rate = esda.Moran_Rate(deaths, births, w, adjusted=True, permutations=0)
    goldens[name] = {
        "neighbours": neighbours,
        "spatial_eb_per_1000": [1000.0 * v for v in seb],
        "moran_rate_per_1000": {
            k: float(getattr(moran, k)) for k in ["I", "EI", "z_norm", "p_norm", "z_rand", "p_rand"]
        },
        "moran_eb": {
            k: float(getattr(moran_rate, k)) for k in ["I", "EI", "z_norm", "p_norm", "z_rand", "p_rand"]
        },
    }
goldens["eb_standardised_rates"] = [float(v) for v in esda.smoothing.assuncao_rate(deaths, births)]

with open("goldens.json", "w") as out:
    json.dump(goldens, out, indent=1)
    out.write("\n")
