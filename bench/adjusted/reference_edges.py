"""Reference values for crates/imr-inequality/tests/adjusted_edges_golden.rs: the edge cases of
the NB2 (Poisson–gamma) fit with births as exposure, computed independently with scipy.

* non-integer deaths (integer rates per 1,000 × births / 1000, as derived deaths are);
* theta-hat = 0 (counts less spread than Poisson: the maximum is on the boundary);
* the search bound (all deaths in one area: the profile likelihood still rises at CV 3, so
  the upper limit is open).

The log-likelihood is written from its textbook form with scipy.special.gammaln (valid for
non-integer y; for integer y as a sum of log1p, see loglik), the profile over mu is the root of the mu-score found with brentq on log mu,
theta-hat is maximised with minimize_scalar on [0, 9] (CV up to 3, the engine's bound) and the
95% profile-likelihood limits are brentq roots of profile(theta) = max - chi2_{1,0.95}/2.
Run: python3 bench/adjusted/reference_edges.py  (scipy 1.17.1, numpy as installed with it).
"""
import numpy as np
import scipy
from scipy import optimize, special, stats

MAX_THETA = 9.0  # (CV 3)^2, the engine's search bound


def loglik(y, b, mu, theta):
    e = b * mu
    if theta == 0.0:
        return float(np.sum(special.xlogy(y, e) - e - special.gammaln(y + 1)))
    k = 1.0 / theta
    if np.all(y == np.round(y)):
        # Integer counts: ln G(y + k) - ln G(k) = sum_{j<y} ln(k + j), written as
        # sum ln(1 + j theta) - y ln theta so that a tiny theta does not cancel catastrophically
        # (gammaln at k = 1e8 loses ~1e-8 relative, tens of units of log-likelihood).
        rising = sum(np.sum(np.log1p(np.arange(int(n)) * theta)) for n in y)
        return float(rising - np.sum(special.gammaln(y + 1))
                     + np.sum(special.xlogy(y, e) - (y + k) * np.log1p(theta * e)))
    return float(np.sum(special.gammaln(y + k) - special.gammaln(k) - special.gammaln(y + 1)
                        + k * np.log(k / (k + e)) + special.xlogy(y, e / (k + e))))


def mean_at(y, b, theta):
    if theta == 0.0:
        return y.sum() / b.sum()
    score = lambda lm: np.sum((y - b * np.exp(lm)) / (1 + theta * b * np.exp(lm)))
    m0 = np.log(y.sum() / b.sum())
    return float(np.exp(optimize.brentq(score, m0 - 20, m0 + 20, xtol=1e-15)))


def profile(y, b, theta):
    return loglik(y, b, mean_at(y, b, theta), theta)


def report(name, y, b):
    y, b = np.asarray(y, float), np.asarray(b, float)
    res = optimize.minimize_scalar(lambda s: -profile(y, b, s * s), bounds=(0, 3),
                                   method="bounded", options={"xatol": 1e-12})
    s_hat = res.x
    # The boundaries are candidates too.
    cands = [(profile(y, b, s_hat ** 2), s_hat ** 2), (profile(y, b, 0.0), 0.0),
             (profile(y, b, MAX_THETA), MAX_THETA)]
    ll_hat, theta = max(cands)
    ll0 = profile(y, b, 0.0)
    cut = ll_hat - 0.5 * stats.chi2.ppf(0.95, 1)
    f = lambda t: profile(y, b, t) - cut
    lo = 0.0 if ll0 >= cut else optimize.brentq(f, 0.0, theta, xtol=1e-15)
    upper_open = profile(y, b, MAX_THETA) >= cut
    hi = float("inf") if upper_open else optimize.brentq(f, theta, MAX_THETA, xtol=1e-15)
    T = max(0.0, 2 * (ll_hat - ll0))
    p = 1.0 if T == 0 else 0.5 * stats.chi2.sf(T, 1)
    k = 1 / theta if theta > 0 else float("inf")
    gini = 0.0 if theta == 0 else float(np.exp(special.gammaln(k + 0.5) - special.gammaln(k + 1)) / np.sqrt(np.pi))
    gini_lo = 0.0 if lo == 0 else float(np.exp(special.gammaln(1 / lo + 0.5) - special.gammaln(1 / lo + 1)) / np.sqrt(np.pi))
    print(f"## {name}")
    print(f"mean_per_birth = {mean_at(y, b, theta)!r}")
    print(f"theta = {theta!r}")
    print(f"theta_ci = [{lo!r}, {hi!r}]  upper_open = {upper_open}")
    print(f"log_likelihood = {ll_hat!r}")
    print(f"log_likelihood_poisson = {ll0!r}")
    print(f"lr_statistic = {T!r}, p = {p!r}")
    print(f"gini = {gini!r}, gini_low = {gini_lo!r}")


print(f"scipy {scipy.__version__}, numpy {np.__version__}")

births = np.array([120, 400, 80, 900, 300, 60, 1500, 220, 45, 700,
                   3100, 150, 95, 510, 260, 1800, 75, 640, 330, 2400], dtype=float)
rates = np.array([0, 8, 13, 13, 7, 0, 4, 18, 22, 13, 5, 0, 21, 16, 4, 11, 0, 3, 15, 5], dtype=float)
report("non-integer deaths (integer rates x births / 1000)", rates * births / 1000, births)

births0 = np.array([400, 900, 1500, 700, 3100, 510, 1800, 640, 2400, 1200,
                    800, 2000, 950, 1100, 600], dtype=float)
# Deaths about 0.007 x births, less spread than Poisson (written out: no rounding convention).
deaths0 = np.array([3, 6, 10, 5, 22, 4, 13, 4, 17, 8, 6, 14, 7, 8, 4], dtype=float)
report("theta-hat = 0 (deaths about births x 0.007, under-dispersed)", deaths0, births0)

births_b = np.full(20, 500.0)
deaths_b = np.zeros(20)
deaths_b[0] = 30
report("all deaths in one area (search bound)", deaths_b, births_b)
