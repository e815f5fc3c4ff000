"""Reference values for the imr-inequality golden tests, computed independently of the Rust code.

Run from this folder:  python make_goldens.py > goldens.json
Reads areas.csv (3 years x 15 areas: deaths, births, region, poverty, income, population).

Independence from the Rust implementation:
  * Gini by the O(n^2) double sum (Rust uses the sorted O(n log n) form);
  * concentration index by the covariance form 2 cov_w(r, R) / mu (Rust uses 2 sum p r R / mu - 1);
  * SII/RII by numpy weighted least squares (lstsq on sqrt-weighted design);
  * quantiles by numpy.percentile (linear = type 7);
  * unweighted Gini, Theil T and its between/within split (equal weights) by pysal `inequality`;
  * trend by scipy.stats.linregress and scipy.stats.t; correlations by scipy.stats.pearsonr/spearmanr.
"""
import json
import sys

import numpy as np
import pandas as pd
import scipy
import scipy.stats as st
import inequality
from inequality.gini import Gini
from inequality.theil import Theil, TheilD


def weighted_measures(r, w, group, rank):
    r = np.asarray(r, float)
    w = np.asarray(w, float)
    p = w / w.sum()
    mu = float((p * r).sum())
    out = {"n_areas": int(len(r)), "pooled_rate": mu}
    q = np.percentile(r, [10, 25, 50, 75, 90])
    out.update(p10=q[0], p25=q[1], median=q[2], p75=q[3], p90=q[4])
    out["p90_p10"] = q[4] / q[0] if q[0] > 0 else None
    out["min"], out["max"] = float(r.min()), float(r.max())
    out["zero_areas"] = int((r == 0).sum())
    out["gini"] = float((p[:, None] * p[None, :] * np.abs(r[:, None] - r[None, :])).sum() / (2 * mu))
    n = len(r)
    out["gini_unweighted"] = float(np.abs(r[:, None] - r[None, :]).sum() / (2 * n * n * r.mean()))
    x = r / mu
    with np.errstate(divide="ignore", invalid="ignore"):
        out["theil_t"] = float(np.where(r > 0, p * x * np.log(x), 0.0).sum())
    out["mld"] = float((p * np.log(mu / r)).sum()) if (r > 0).all() else None
    out["cov"] = float(np.sqrt((p * (r - mu) ** 2).sum()) / mu)
    out["atkinson_0_5"] = float(1 - (p * np.sqrt(x)).sum() ** 2)
    out["mean_abs_dev"] = float((p * np.abs(r - mu)).sum())
    out["index_of_disparity"] = float(100 * np.abs(r - mu).mean() / mu)
    # Theil decomposition by group.
    df = pd.DataFrame({"r": r, "p": p, "g": group})
    between = within = 0.0
    for _, d in df.groupby("g"):
        pg = d.p.sum()
        mug = (d.p * d.r).sum() / pg
        if mug == 0:
            continue
        sg = pg * mug / mu
        xg = d.r / mug
        tg = np.where(d.r > 0, (d.p / pg) * xg * np.log(np.where(d.r > 0, xg, 1.0)), 0.0).sum()
        between += sg * np.log(mug / mu)
        within += sg * tg
    out["theil_between"], out["theil_within"] = float(between), float(within)
    # Fractional rank with ties sharing their midpoint.
    df["x"] = rank
    tot = df.groupby("x").p.sum().sort_index()
    below = tot.cumsum() - tot
    R = (below + tot / 2).reindex(df.x).to_numpy()
    rbar = (p * R).sum()
    out["concentration_index"] = float(2 * (p * (r - mu) * (R - rbar)).sum() / mu)
    X = np.column_stack([np.ones(n), R]) * np.sqrt(p)[:, None]
    a, b = np.linalg.lstsq(X, r * np.sqrt(p), rcond=None)[0]
    out["sii"], out["rii"] = float(b), float((a + b) / a) if a > 0 else None
    qi = np.minimum(np.floor(5 * R), 4).astype(int)
    m1 = (p * r)[qi == 0].sum() / p[qi == 0].sum()
    m5 = (p * r)[qi == 4].sum() / p[qi == 4].sum()
    out["quintile_ratio"], out["quintile_difference"] = float(m5 / m1), float(m5 - m1)
    return {k: (float(v) if isinstance(v, (np.floating,)) else v) for k, v in out.items()}


def trend(times, values):
    fit = st.linregress(times, values)
    t = st.t.ppf(0.975, len(times) - 2)
    return {"slope": fit.slope, "ci_low": fit.slope - t * fit.stderr, "ci_high": fit.slope + t * fit.stderr}


def main():
    areas = pd.read_csv("areas.csv", dtype={"entity": str})
    out = {
        "software": {
            "python": sys.version.split()[0],
            "numpy": np.__version__,
            "pandas": pd.__version__,
            "scipy": scipy.__version__,
            "inequality (pysal)": inequality.__version__,
        },
        "rates": {},
        "values": {},
        "pysal_equal_weights": {},
    }
    for year, d in areas.groupby("time"):
        d = d[d.births > 0]
        rate = 1000 * d.deaths / d.births
        out["rates"][str(year)] = weighted_measures(rate, d.births, d.region.to_numpy(), d.poverty.to_numpy())
        v = areas[(areas.time == year) & (areas.population > 0)]
        out["values"][str(year)] = weighted_measures(v.income, v.population, v.region.to_numpy(), v.poverty.to_numpy())
        y = v.income.to_numpy(float)
        td = TheilD(y, v.region.to_numpy())
        out["pysal_equal_weights"][str(year)] = {
            "gini": float(Gini(y).g),
            "theil_t": float(Theil(y).T),
            "theil_between": float(np.ravel(td.bg)[0]),
            "theil_within": float(np.ravel(td.wg)[0]),
        }
    years = sorted(int(k) for k in out["rates"])
    out["trend_rates_gini"] = trend(years, [out["rates"][str(t)]["gini"] for t in years])
    # Correlation of two 8-year series (with a tie in y), Fisher-z 95% intervals.
    x = np.array([0.18, 0.21, 0.19, 0.24, 0.26, 0.22, 0.29, 0.31])
    y = np.array([0.30, 0.33, 0.29, 0.33, 0.38, 0.36, 0.37, 0.41])
    n = len(x)
    z = st.norm.ppf(0.975)
    r = st.pearsonr(x, y).statistic
    rho = st.spearmanr(x, y).statistic
    se = 1 / np.sqrt(n - 3)
    se_s = np.sqrt((1 + rho**2 / 2) / (n - 3))
    out["correlation"] = {
        "x": x.tolist(),
        "y": y.tolist(),
        "pearson": float(r),
        "pearson_ci": [float(np.tanh(np.arctanh(r) - z * se)), float(np.tanh(np.arctanh(r) + z * se))],
        "spearman": float(rho),
        "spearman_ci": [float(np.tanh(np.arctanh(rho) - z * se_s)), float(np.tanh(np.arctanh(rho) + z * se_s))],
    }
    json.dump(out, sys.stdout, indent=1, sort_keys=True, default=float)
    print()


if __name__ == "__main__":
    main()
