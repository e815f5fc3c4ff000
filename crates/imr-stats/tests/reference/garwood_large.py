"""Reference Garwood limits for large counts (imr-stats poisson.rs, Wilson-Hilferty branch).

Run: python garwood_large.py   (SciPy 1.17.1)
Prints k, chi2.ppf(0.025, 2k)/2, chi2.ppf(0.975, 2k+2)/2 with 10 significant digits.
"""
from scipy.stats import chi2

for k in [10_001, 50_000, 1_000_000, 123_456_789, 1e12]:
    lo = chi2.ppf(0.025, 2 * k) / 2
    hi = chi2.ppf(0.975, 2 * k + 2) / 2
    print(f"({k!r}, {lo:.10e}, {hi:.10e}),")
