#!/usr/bin/env python3
"""Golden values for clustering by any column (`imr fit --cluster`), one- and two-way, and for
Poisson with absorbed fixed effects (`--model poisson-fe --fe`), from pyfixest.

Run from this directory with pyfixest installed (`pip install pyfixest`):

    python3 make_panel_goldens.py

It writes
  data/cluster_panel.csv    a generated unbalanced panel (seeded): entity, year, region
                            (constant within entity), sector (varies within entity), x1, x2,
                            y (continuous), births (exposure), deaths (counts); with entities
                            seen once (singletons), entities whose deaths are zero in every
                            row, repeated (entity, year) keys (absorbed effects do not need
                            them unique) and missing values;
  panel.<case>.<vcov>.csv   `key,value`: coef.<term>, se.<term>, nobs, rows_excluded (rows of
                            the file not used: missing values, singletons, zero-outcome groups),
                            df_t;
  panel_versions.txt        the software versions.

Cases (pyfixest defaults: fixef_rm="singleton", ssc(k_adj=True, k_fixef="nonnested",
G_adj=True, G_df="min"); demeaning tolerance 1e-12 so the reference is the exact projection;
fepois with iwls_tol 1e-12):
  ols_2fe       feols  y ~ x1 + x2 | entity + year
                       vcov: CRV1 region, CRV1 sector, CRV1 region+year (two-way), CRV1
                       sector+year (two-way)
  pois_1fe      fepois deaths ~ x1 + x2 | entity, offset log(births); iid, hetero, CRV1 entity
  pois_2fe      fepois deaths ~ x1 + x2 | entity + year, offset log(births); iid, hetero,
                       CRV1 entity, CRV1 region+year
and on data/cross_section.csv, one row per county (no time column; a county listed twice, a
missing value):
  cs_ols        feols  y ~ x1 + x2; iid, hetero
  cs_fe         feols  y ~ x1 + x2 | state; CRV1 state, CRV1 state+size (two-way)
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
    rng = np.random.default_rng(20261204)
    rows = []
    for e in range(90):
        region = f"r{e % 8}"
        alpha = rng.normal(scale=0.5)
        years = [t for t in range(2000, 2010) if rng.random() > 0.2]
        if e in (4, 41):
            years = [2003]  # an entity seen once: a singleton of `entity`
        if e in (7, 19):
            years = years + years[:2]  # repeated (entity, year) keys
        for t in years:
            x1 = rng.normal() + 0.4 * alpha
            x2 = rng.normal() + 0.05 * (t - 2000)
            sector = f"s{rng.integers(0, 12)}"
            y = 1.2 * x1 - 0.6 * x2 + alpha + 0.1 * (t - 2000) + rng.normal()
            births = int(rng.integers(50, 800))
            mu = births * np.exp(-5.0 + 0.3 * x1 - 0.2 * x2 + alpha)
            deaths = int(rng.poisson(mu))
            if e in (11, 23):
                deaths = 0  # zero in every row: the entity's effect would be −∞
            rows.append((f"e{e:03d}", t, region, sector, x1, x2, y, births, deaths))
    df = pd.DataFrame(
        rows,
        columns=["entity", "year", "region", "sector", "x1", "x2", "y", "births", "deaths"],
    )
    df.loc[[15, 60], "x2"] = np.nan
    df.loc[90, "y"] = np.nan
    df.loc[120, "deaths"] = np.nan
    return df


def make_cross_section():
    rng = np.random.default_rng(20261205)
    rows = []
    for c in range(300):
        state = f"st{c % 23:02d}"
        size = ["small", "medium", "large"][int(rng.integers(0, 3))]
        x1 = rng.normal()
        x2 = rng.exponential()
        y = 0.8 * x1 - 0.3 * x2 + 0.2 * (c % 23) / 23 + rng.normal()
        rows.append((f"{1000 + c}", state, size, x1, x2, y))
    df = pd.DataFrame(rows, columns=["county", "state", "size", "x1", "x2", "y"])
    df.loc[40, "x1"] = np.nan
    return df


def write_case(name, fit, terms, rows):
    path = os.path.join(HERE, f"panel.{name}.csv")
    coef, se = fit.coef(), fit.se()
    with open(path, "w") as f:
        f.write("key,value\n")
        for t in terms:
            f.write(f"coef.{t},{float(coef[t])!r}\n")
            f.write(f"se.{t},{float(se[t])!r}\n")
        f.write(f"nobs,{int(fit._N)}\n")
        f.write(f"rows_excluded,{rows - int(fit._N)}\n")
        f.write(f"df_t,{int(fit._df_t)}\n")


def main():
    os.makedirs(DATA, exist_ok=True)
    panel = make_panel()
    panel.to_csv(os.path.join(DATA, "cluster_panel.csv"), index=False)
    demeaner = MapDemeaner(fixef_tol=1e-12, fixef_maxiter=100_000)
    terms = ["x1", "x2"]
    n = len(panel)
    for key, vcov in [
        ("region", {"CRV1": "region"}),
        ("sector", {"CRV1": "sector"}),
        ("region_year", {"CRV1": "region+year"}),
        ("sector_year", {"CRV1": "sector+year"}),
    ]:
        fit = pf.feols("y ~ x1 + x2 | entity + year", data=panel, vcov=vcov, demeaner=demeaner)
        write_case(f"ols_2fe.{key}", fit, terms, n)
    panel["log_births"] = np.log(panel["births"])
    for name, fml, vcovs in [
        ("pois_1fe", "deaths ~ x1 + x2 | entity",
         [("iid", "iid"), ("hc1", "hetero"), ("entity", {"CRV1": "entity"})]),
        ("pois_2fe", "deaths ~ x1 + x2 | entity + year",
         [("iid", "iid"), ("hc1", "hetero"), ("entity", {"CRV1": "entity"}),
          ("region_year", {"CRV1": "region+year"})]),
    ]:
        for key, vcov in vcovs:
            fit = pf.fepois(fml, data=panel, vcov=vcov, offset="log_births", iwls_tol=1e-12,
                            demeaner=demeaner)
            write_case(f"{name}.{key}", fit, terms, n)
    cs = make_cross_section()
    cs.to_csv(os.path.join(DATA, "cross_section.csv"), index=False)
    for key, vcov in [("iid", "iid"), ("hc1", "hetero")]:
        fit = pf.feols("y ~ x1 + x2", data=cs, vcov=vcov)
        write_case(f"cs_ols.{key}", fit, ["Intercept", "x1", "x2"], len(cs))
    for key, vcov in [("state", {"CRV1": "state"}), ("state_size", {"CRV1": "state+size"})]:
        fit = pf.feols("y ~ x1 + x2 | state", data=cs, vcov=vcov, demeaner=demeaner)
        write_case(f"cs_fe.{key}", fit, terms, len(cs))
    with open(os.path.join(HERE, "panel_versions.txt"), "w") as f:
        f.write(f"python {sys.version.split()[0]}\n")
        f.write(f"pyfixest {pf.__version__}\n")
        f.write(f"numpy {np.__version__}\n")
        f.write(f"pandas {pd.__version__}\n")


if __name__ == "__main__":
    main()
