#!/usr/bin/env python3
"""Golden values for absorbed fixed effects (`imr fit --fe`) from pyfixest.

Run from this directory with a venv holding pyfixest (`pip install pyfixest`):

    /work/venv-fe/bin/python make_fe_goldens.py

It writes
  data/fe_panel.csv      a generated unbalanced panel (seeded): entity, year, region (constant
                         within entity), x1..x3, y; with holes, singletons (an entity seen once,
                         a region-year cell with one row) and missing values;
  fe.<case>.<vcov>.csv   `key,value`: coef.<term>, se.<term>, nobs, rows_excluded (missing
                         values and singletons), df_t, r2_within;
  fe_versions.txt        the software versions.

Cases (pyfixest.feols, default fixef_rm="singleton" and default ssc(); the demeaning tolerance is
tightened to 1e-12 from the default 1e-6 so the reference is the exact projection):
  grunfeld_2fe   invest ~ value + capital | firm + year             (Grunfeld, unbalanced, NAs)
  panel_1fe      y ~ x1 + x2 + x3 | entity
  panel_2fe      y ~ x1 + x2 + x3 | entity + year
  panel_3fe      y ~ x1 + x2 + x3 | entity + year + region^year
  panel_2fe_w    y ~ x1 + x2 + x3 | entity + year, weights="w" (analytic weights)
  panel_3fe_w    y ~ x1 + x2 + x3 | entity + year + region^year, weights="w"
vcov: iid, hetero (HC1), CRV1 clustered by the entity (firm).
"""
import os
import sys

import numpy as np
import pandas as pd
import pyfixest as pf
from pyfixest.demeaners import MapDemeaner

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")


def make_panel():
    rng = np.random.default_rng(20261130)
    rows = []
    for e in range(120):
        region = f"r{e % 7}"
        alpha = rng.normal()
        years = [t for t in range(2000, 2012) if rng.random() > 0.15]
        if e == 5:
            years = [2003]  # an entity seen once: a singleton of `entity`
        for t in years:
            x1 = rng.normal() + 0.5 * alpha
            x2 = rng.normal() + 0.1 * (t - 2000)
            x3 = rng.exponential()
            y = 1.5 * x1 - 0.7 * x2 + 0.3 * x3 + alpha + 0.2 * (t - 2000) + rng.normal()
            rows.append((f"e{e:03d}", t, region, x1, x2, x3, y))
    df = pd.DataFrame(rows, columns=["entity", "year", "region", "x1", "x2", "x3", "y"])
    # a region-year cell with a single row (r7 exists only here): a singleton of region^year
    df.loc[len(df)] = ["e200", 2004, "r7", 0.3, 0.1, 1.2, 0.9]
    df.loc[len(df)] = ["e200", 2005, "r8", -0.2, 0.4, 0.7, 1.1]
    # missing values
    df.loc[[10, 50], "x2"] = np.nan
    df.loc[77, "y"] = np.nan
    # analytic weights (births-like, positive), from their own generator so the columns above
    # stay as they were; one missing weight (a row the weighted cases exclude)
    df["w"] = np.random.default_rng(20261201).uniform(0.5, 3.0, len(df))
    df.loc[33, "w"] = np.nan
    return df


def write_case(name, fit, terms, rows):
    # rows_excluded counts every input row not used: missing values (the weight's too) and
    # singletons
    path = os.path.join(HERE, f"fe.{name}.csv")
    coef, se = fit.coef(), fit.se()
    with open(path, "w") as f:
        f.write("key,value\n")
        for t in terms:
            f.write(f"coef.{t},{float(coef[t])!r}\n")
            f.write(f"se.{t},{float(se[t])!r}\n")
        f.write(f"nobs,{int(fit._N)}\n")
        # rows of the input not used: missing values and singletons
        f.write(f"rows_excluded,{rows - int(fit._N)}\n")
        f.write(f"df_t,{int(fit._df_t)}\n")
        f.write(f"r2_within,{float(fit._r2_within)!r}\n")


def main():
    os.makedirs(DATA, exist_ok=True)
    panel = make_panel()
    panel.to_csv(os.path.join(DATA, "fe_panel.csv"), index=False)
    grunfeld = pd.read_csv(os.path.join(DATA, "grunfeld_unbalanced.csv"))
    demeaner = MapDemeaner(fixef_tol=1e-12, fixef_maxiter=100_000)
    cases = [
        ("grunfeld_2fe", grunfeld, "invest ~ value + capital | firm + year", "firm", ["value", "capital"]),
        ("panel_1fe", panel, "y ~ x1 + x2 + x3 | entity", "entity", ["x1", "x2", "x3"]),
        ("panel_2fe", panel, "y ~ x1 + x2 + x3 | entity + year", "entity", ["x1", "x2", "x3"]),
        ("panel_3fe", panel, "y ~ x1 + x2 + x3 | entity + year + region^year", "entity", ["x1", "x2", "x3"]),
    ]
    weighted = [
        ("panel_2fe_w", panel, "y ~ x1 + x2 + x3 | entity + year", "entity", ["x1", "x2", "x3"]),
        ("panel_3fe_w", panel, "y ~ x1 + x2 + x3 | entity + year + region^year", "entity", ["x1", "x2", "x3"]),
    ]
    for (name, df, fml, cluster, terms), weights in [(c, None) for c in cases] + [(c, "w") for c in weighted]:
        for vcov, key in [("iid", "iid"), ("hetero", "hc1"), ({"CRV1": cluster}, "cluster")]:
            fit = pf.feols(fml, data=df, vcov=vcov, demeaner=demeaner, weights=weights)
            write_case(f"{name}.{key}", fit, terms, len(df))
    with open(os.path.join(HERE, "fe_versions.txt"), "w") as f:
        f.write(f"python {sys.version.split()[0]}\n")
        f.write(f"pyfixest {pf.__version__}\n")
        f.write(f"numpy {np.__version__}\n")
        f.write(f"pandas {pd.__version__}\n")


if __name__ == "__main__":
    main()
