"""Reference values for crates/imr-inequality/tests/adjusted_golden.rs.

Intercept-only negative binomial (NB2) with births as exposure, fitted by statsmodels; the
profile-likelihood interval of alpha (= theta, squared CV of the true rates) found with scipy on
statsmodels' own log-likelihood; the gamma-distribution measures at theta from scipy.special /
scipy.stats. Run: /work/venv-adjusted/bin/python bench/adjusted/reference_nb.py
(statsmodels 0.15.0, scipy 1.17.1, numpy as installed with them).
"""
import numpy as np
import scipy
import statsmodels
import statsmodels.api as sm
from scipy import optimize, special, stats

births = np.array([120, 400, 80, 900, 300, 60, 1500, 220, 45, 700,
                   3100, 150, 95, 510, 260, 1800, 75, 640, 330, 2400], dtype=float)
deaths = np.array([0, 3, 1, 12, 2, 0, 6, 4, 1, 9,
                   14, 0, 2, 8, 1, 20, 0, 2, 5, 11], dtype=float)
X = np.ones((len(births), 1))
nb = sm.NegativeBinomial(deaths, X, exposure=births, loglike_method="nb2")
res = nb.fit(disp=0, maxiter=500, method="bfgs", gtol=1e-12)
res = nb.fit(start_params=res.params, disp=0, method="newton", maxiter=200, tol=1e-14)
const, alpha = res.params
pois = sm.Poisson(deaths, X, exposure=births).fit(disp=0)


def profile(a):
    f = lambda c: -nb.loglike(np.array([c, a]))
    return -optimize.minimize_scalar(f, bracket=(const - 1, const + 1), tol=1e-14).fun


llf = res.llf
cut = llf - 0.5 * stats.chi2.ppf(0.95, 1)
lo = optimize.brentq(lambda a: profile(a) - cut, 1e-10, alpha, xtol=1e-14)
hi = optimize.brentq(lambda a: profile(a) - cut, alpha, 10.0, xtol=1e-14)
T = 2 * (llf - pois.llf)
k = 1 / alpha
g = stats.gamma(k, scale=1 / k)
print(f"statsmodels {statsmodels.__version__}, scipy {scipy.__version__}, numpy {np.__version__}")
print(f"mean_per_birth = {np.exp(const)!r}")
print(f"theta = {alpha!r}")
print(f"theta_ci = [{lo!r}, {hi!r}]")
print(f"log_likelihood = {llf!r}")
print(f"log_likelihood_poisson = {pois.llf!r}")
print(f"lr_statistic = {T!r}, p = {0.5 * stats.chi2.sf(T, 1)!r}")
print(f"gini = {special.gamma(k + 0.5) / (np.sqrt(np.pi) * special.gamma(k + 1))!r}")
print(f"theil_t = {special.digamma(k + 1) - np.log(k)!r}")
print(f"atkinson_0_5 = {1 - special.gamma(k + 0.5) ** 2 / (k * special.gamma(k) ** 2)!r}")
print(f"p90_p10 = {g.ppf(0.9) / g.ppf(0.1)!r}")
print(f"var_log = {float(special.polygamma(1, k))!r}")
