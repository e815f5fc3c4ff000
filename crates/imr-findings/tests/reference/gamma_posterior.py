"""Reference values for imr_findings::compute::eb_posterior_interval.

Gamma posterior of an empirical-Bayes rate: shape = theta^2/var + deaths, rate = theta/var + births;
the interval is its 2.5% and 97.5% quantiles times 1000. Run with scipy (version printed).
"""
import scipy
from scipy.stats import gamma

cases = [
    # theta per birth, prior variance, deaths, births
    (0.007, 4e-6, 3.0, 250.0),
    (0.007, 4e-6, 0.0, 9.0),
    (0.0065, 1e-5, 40.0, 5000.0),
]
print("scipy", scipy.__version__)
for theta, var, d, b in cases:
    shape = theta * theta / var + d
    rate = theta / var + b
    lo = gamma.ppf(0.025, shape, scale=1.0 / rate) * 1000
    hi = gamma.ppf(0.975, shape, scale=1.0 / rate) * 1000
    print(f"({theta}, {var}, {d}, {b}) -> [{lo:.10f}, {hi:.10f}]")
