#!/usr/bin/env python3
"""Golden values for imr-models from reference software (Python linearmodels and statsmodels).

Run from this directory with the reference environment:

    /work/pyref/bin/python make_goldens.py

It writes
  data/<panel>.csv     the panels used (public data shipped with linearmodels / statsmodels,
                       Grunfeld from tests/reference), with missing values left empty;
  <case>.csv           `key,value` rows: coef.<term>, se.<term>, and statistics;
  versions.txt         the software versions.

Conventions (each matched to imr-models' documented ones, see crates/imr-models/src/vcov.rs):
  * iid       linearmodels cov_type="unadjusted", debiased=True (s² = SSR / residual df).
  * hc1       statsmodels OLS cov_type="HC1" (n/(n-K), K counting entity dummies for fe).
  * cluster   linearmodels cov_type="clustered", cluster_entity=True, debiased=True,
              group_debias=True, with a constant and count_effects=False, so the factor is
              G/(G-1)·(N-1)/(N-K), K = slopes + constant (+ year dummies, given explicitly, for
              twfe): the Stata xtreg ... vce(cluster) convention. The script checks this against
              Stata's published Grunfeld numbers before writing anything.
  * R² within/between/overall: Stata xtreg definitions (squared correlations of x'b with y,
    within, across entity means, overall), computed with numpy from the reference estimates.
  * Breusch–Pagan LM: Baltagi–Li formula on statsmodels pooled OLS residuals (numpy).
  * Hausman: from linearmodels FE and RE estimates and classical covariances (numpy).
  * poisson-fe: statsmodels GLM Poisson with entity dummies and log offset, on the entities with
    a non-zero outcome and more than one row (as Stata xtpoisson, fe); iid = model-based;
    cluster = sandwich with cov_kwds use_correction=False times G/(G-1) (Stata xtpoisson, fe
    vce(robust)).
"""
import os
import sys

import numpy as np
import pandas as pd
import scipy
import statsmodels
import statsmodels.api as sm
import linearmodels
from linearmodels import PanelOLS, PooledOLS, RandomEffects, BetweenOLS, FirstDifferenceOLS
from linearmodels.datasets import wage_panel, jobtraining

HERE = os.path.dirname(os.path.abspath(__file__))
GRUNFELD = os.path.join(HERE, "..", "data", "grunfeld.csv")
os.makedirs(os.path.join(HERE, "data"), exist_ok=True)


def write_case(name, values):
    with open(os.path.join(HERE, f"{name}.csv"), "w") as f:
        f.write("key,value\n")
        for k, v in values.items():
            f.write(f"{k},{float(v)!r}\n")


def write_data(name, df, columns):
    df[columns].to_csv(os.path.join(HERE, "data", f"{name}.csv"), index=False, na_rep="")


def params(res, out, terms, renames=None):
    renames = renames or {}
    for t in terms:
        src = renames.get(t, t)
        out[f"coef.{t}"] = res.params[src]
        out[f"se.{t}"] = res.std_errors[src] if hasattr(res, "std_errors") else res.bse[src]
    return out


def r2_stata(df, entity, y, xs, b):
    xb = df[xs].to_numpy() @ np.asarray(b)
    yv = df[y].to_numpy()
    g = df[entity].to_numpy()
    s = pd.DataFrame({"g": g, "xb": xb, "y": yv})
    m = s.groupby("g")[["xb", "y"]].transform("mean")
    c = lambda a, b: np.corrcoef(a, b)[0, 1] ** 2
    mb = s.groupby("g")[["xb", "y"]].mean()
    return (c(s.xb - m.xb, s.y - m.y), c(mb.xb, mb.y), c(s.xb, s.y))


def bp_lm(resid, groups):
    s = pd.DataFrame({"e": resid, "g": groups})
    t = s.groupby("g").size().to_numpy()
    n = len(resid)
    ratio = (s.groupby("g").e.sum() ** 2).sum() / (s.e ** 2).sum()
    return n * n / (2.0 * (t * (t - 1)).sum()) * (ratio - 1.0) ** 2


def linear_suite(name, df, entity, time, y, xs_all, xs_within, twfe_xs=None):
    """All linear models of one panel; df indexed later. Rows with missing values dropped here
    exactly as imr-models does (any missing among y and all regressors)."""
    used = df.dropna(subset=[y] + xs_all).copy()
    p = used.set_index([entity, time])
    Y = p[y]
    out = {}
    G = used[entity].nunique()
    out["nobs"] = len(used)
    out["n_entities"] = G

    # pooled
    X = sm.add_constant(p[xs_all])
    pooled_iid = PooledOLS(Y, X).fit(cov_type="unadjusted", debiased=True)
    ren = {"(Intercept)": "const"}
    terms = ["(Intercept)"] + xs_all
    write_case(f"{name}.pooled.iid", params(pooled_iid, {}, terms, ren))
    ols = sm.OLS(used[y], sm.add_constant(used[xs_all])).fit(cov_type="HC1")
    o = {f"coef.{t}": ols.params[ren.get(t, t)] for t in terms}
    o.update({f"se.{t}": ols.bse[ren.get(t, t)] for t in terms})
    write_case(f"{name}.pooled.hc1", o)
    pooled_cl = PooledOLS(Y, X).fit(cov_type="clustered", cluster_entity=True, debiased=True, group_debias=True)
    write_case(f"{name}.pooled.cluster", params(pooled_cl, {}, terms, ren))
    bp = bp_lm(pooled_iid.resids.to_numpy(), used.set_index([entity, time]).index.get_level_values(0))

    # fe
    Xw = sm.add_constant(p[xs_within])
    fe_iid = PanelOLS(Y, Xw, entity_effects=True).fit(cov_type="unadjusted", debiased=True)
    o = params(fe_iid, {}, xs_within)
    o["sigma2_e"] = fe_iid.s2
    o["f_effects"] = fe_iid.f_pooled.stat
    o["f_effects.df1"] = fe_iid.f_pooled.df
    o["f_effects.df2"] = fe_iid.f_pooled.df_denom
    rw, rb, ro = r2_stata(used, entity, y, xs_within, fe_iid.params[xs_within])
    o.update({"r2_within": rw, "r2_between": rb, "r2_overall": ro, "r2_within_lm": fe_iid.rsquared_within})
    write_case(f"{name}.fe.iid", o)
    fe_cl = PanelOLS(Y, Xw, entity_effects=True).fit(
        cov_type="clustered", cluster_entity=True, debiased=True, group_debias=True, count_effects=False)
    write_case(f"{name}.fe.cluster", params(fe_cl, {}, xs_within))
    dummies = pd.get_dummies(used[entity], prefix="e", dtype=float)
    lsdv = sm.OLS(used[y], pd.concat([used[xs_within], dummies], axis=1)).fit(cov_type="HC1")
    o = {f"coef.{t}": lsdv.params[t] for t in xs_within}
    o.update({f"se.{t}": lsdv.bse[t] for t in xs_within})
    write_case(f"{name}.fe.hc1", o)

    # twfe: year dummies as explicit regressors so that K counts them (Stata xtreg y x i.year, fe)
    tx = twfe_xs if twfe_xs is not None else xs_within
    years = pd.get_dummies(used[time], prefix="y", drop_first=True, dtype=float).set_index(p.index)
    Xt = pd.concat([sm.add_constant(p[tx]), years], axis=1)
    tw_iid = PanelOLS(Y, Xt, entity_effects=True).fit(cov_type="unadjusted", debiased=True)
    o = params(tw_iid, {}, tx)
    o["sigma2_e"] = tw_iid.s2
    o["r2_within"] = tw_iid.rsquared_within
    write_case(f"{name}.twfe.iid", o)
    tw_cl = PanelOLS(Y, Xt, entity_effects=True).fit(
        cov_type="clustered", cluster_entity=True, debiased=True, group_debias=True, count_effects=False)
    write_case(f"{name}.twfe.cluster", params(tw_cl, {}, tx))

    # re
    re_iid = RandomEffects(Y, X).fit(cov_type="unadjusted", debiased=True)
    o = params(re_iid, {}, terms, ren)
    vd = re_iid.variance_decomposition
    o["sigma2_u"] = vd["Effects"]
    o["sigma2_e"] = vd["Residual"]
    th = re_iid.theta.to_numpy().ravel()
    o["theta_min"], o["theta_max"] = th.min(), th.max()
    slopes = [t for t in xs_all]
    rw, rb, ro = r2_stata(used, entity, y, slopes, re_iid.params[slopes])
    o.update({"r2_within": rw, "r2_between": rb, "r2_overall": ro, "breusch_pagan": bp})
    common = xs_within
    q = (fe_iid.params[common] - re_iid.params[common]).to_numpy()
    vdiff = fe_iid.cov.loc[common, common].to_numpy() - re_iid.cov.loc[common, common].to_numpy()
    o["hausman"] = float(q @ np.linalg.solve(vdiff, q))
    o["hausman.df"] = len(common)
    write_case(f"{name}.re.iid", o)
    re_cl = RandomEffects(Y, X).fit(cov_type="clustered", cluster_entity=True, debiased=True, group_debias=True)
    write_case(f"{name}.re.cluster", params(re_cl, {}, terms, ren))

    # cre (Mundlak): RE with entity means of the time-varying regressors
    means = used.groupby(entity)[xs_within].transform("mean").add_suffix("_mean")
    means.index = p.index
    Xc = pd.concat([X, means], axis=1)
    cre = RandomEffects(Y, Xc).fit(cov_type="unadjusted", debiased=True)
    write_case(f"{name}.cre.iid", params(cre, {}, terms + list(means.columns), ren))

    # be
    be = BetweenOLS(Y, X).fit(cov_type="unadjusted", debiased=True)
    o = params(be, {}, terms, ren)
    write_case(f"{name}.be.iid", o)

    # fd
    fd = FirstDifferenceOLS(Y, p[xs_within]).fit(cov_type="unadjusted", debiased=True)
    o = params(fd, {}, xs_within)
    o["nobs"] = fd.nobs
    write_case(f"{name}.fd.iid", o)
    fd_cl = FirstDifferenceOLS(Y, p[xs_within]).fit(
        cov_type="clustered", cluster_entity=True, debiased=True, group_debias=True)
    write_case(f"{name}.fd.cluster", params(fd_cl, {}, xs_within))


def poisson_suite(name, df, entity, time, y, xs, exposure=None):
    cols = [y] + xs + ([exposure] if exposure else [])
    used = df.dropna(subset=cols).copy()
    used = used[used.groupby(entity)[y].transform("sum") > 0]
    # an entity with a single complete row carries no information on the coefficients: Stata
    # xtpoisson, fe (and pyfixest fepois) drop it, so it is neither in nobs nor in G
    used = used[used.groupby(entity)[y].transform("size") > 1]
    dummies = pd.get_dummies(used[entity], prefix="e", dtype=float)
    X = pd.concat([used[xs], dummies], axis=1)
    offset = np.log(used[exposure]) if exposure else None
    model = sm.GLM(used[y], X, family=sm.families.Poisson(), offset=offset)
    res = model.fit(tol=1e-14, maxiter=500)
    o = {f"coef.{t}": res.params[t] for t in xs}
    o.update({f"se.{t}": res.bse[t] for t in xs})
    o["nobs"] = len(used)
    o["n_entities"] = used[entity].nunique()
    write_case(f"{name}.poisson.iid", o)
    G = used[entity].nunique()
    codes = pd.factorize(used[entity])[0]
    rc = model.fit(tol=1e-14, maxiter=500, cov_type="cluster",
                   cov_kwds={"groups": codes, "use_correction": False})
    o = {f"coef.{t}": rc.params[t] for t in xs}
    o.update({f"se.{t}": rc.bse[t] * np.sqrt(G / (G - 1)) for t in xs})
    write_case(f"{name}.poisson.cluster", o)


def check_against_stata(grunfeld):
    """The clustered convention reproduces Stata's published Grunfeld numbers."""
    p = grunfeld.set_index(["firm", "year"])
    res = PanelOLS(p.invest, sm.add_constant(p[["value", "capital"]]), entity_effects=True).fit(
        cov_type="clustered", cluster_entity=True, debiased=True, group_debias=True, count_effects=False)
    assert abs(res.std_errors["value"] - 0.0151945) < 5e-8, res.std_errors
    assert abs(res.std_errors["capital"] - 0.0527518) < 5e-8, res.std_errors


def main():
    grunfeld = pd.read_csv(GRUNFELD)
    check_against_stata(grunfeld)

    # 1. wage_panel (Vella & Verbeek 1998; Wooldridge): balanced, 545 men x 8 years, no missing.
    #    educ and black are time-invariant (dropped by fe); exper rises by one each year for
    #    everyone, so it is collinear with the year effects (dropped by twfe).
    w = wage_panel.load()
    write_data("wage_panel", w, ["nr", "year", "lwage", "exper", "expersq", "union", "married", "hours", "educ", "black"])
    linear_suite("wage", w, "nr", "year", "lwage",
                 ["exper", "expersq", "union", "married", "hours", "educ", "black"],
                 ["exper", "expersq", "union", "married", "hours"],
                 twfe_xs=["expersq", "union", "married", "hours"])

    # 2. jobtraining (Holzer et al. 1993; Wooldridge): 157 firms x 3 years with missing values,
    #    unbalanced once incomplete rows are dropped. union is constant within firms.
    j = jobtraining.load()
    write_data("jobtraining", j, ["fcode", "year", "lscrap", "hrsemp", "grant", "lemploy", "lsales", "union", "employ", "d88", "d89"])
    linear_suite("jobtraining", j, "fcode", "year", "lscrap",
                 ["hrsemp", "grant", "lemploy", "union"],
                 ["hrsemp", "grant", "lemploy"])
    poisson_suite("jobtraining", j, "fcode", "year", "employ", ["grant", "d88", "d89"])

    # 3. Grunfeld made unbalanced: rows deleted and values blanked (deterministic choice).
    g = grunfeld.copy()
    drop = [3, 4, 25, 60, 61, 62, 99, 140, 141, 199]
    g = g.drop(index=drop)
    g.loc[[10, 77, 150], "value"] = np.nan
    g.loc[[33, 120], "capital"] = np.nan
    write_data("grunfeld_unbalanced", g, ["firm", "year", "invest", "value", "capital"])
    linear_suite("grunfeld_unbalanced", g, "firm", "year", "invest", ["value", "capital"], ["value", "capital"])
    # counts: investment rounded to whole units, capital stock as exposure
    gc = g.copy()
    gc["invest_count"] = np.round(gc["invest"])
    write_data("grunfeld_counts", gc, ["firm", "year", "invest_count", "value", "capital"])
    gc["value_b"] = gc["value"] / 1000.0
    poisson_suite("grunfeld_counts", gc.rename(columns={}), "firm", "year", "invest_count", ["value"], exposure="capital")

    with open(os.path.join(HERE, "versions.txt"), "w") as f:
        f.write(f"python {sys.version.split()[0]}\n")
        for mod in (linearmodels, statsmodels, np, pd, scipy):
            f.write(f"{mod.__name__} {mod.__version__}\n")


if __name__ == "__main__":
    main()
