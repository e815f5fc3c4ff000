"""Times pandas and linearmodels on the benchmark inputs and prints them next to the Rust
figures that criterion saved. Called by bench/compare (which sets up the venv and the data)."""

import argparse
import json
import os
import platform
import statistics
import time

import linearmodels
import numpy as np
import pandas as pd
from linearmodels.panel import PanelOLS

REPEATS = 3


def timed(fn):
    times = []
    result = None
    for _ in range(REPEATS):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), times, result


def pandas_infant_deaths(path):
    """What a user would write: read the four columns as text (codes keep their zeros), keep
    infant deaths (EDAD_TIPO 2, 3, 4, or 1 with EDAD_CANT 0), count by year and commune."""
    cols = ["ANO_DEF", "EDAD_TIPO", "EDAD_CANT", "CODIGO_COMUNA_RESIDENCIA"]
    df = pd.read_csv(path, sep=";", encoding="latin-1", usecols=cols, dtype=str)
    tipo, cant = df["EDAD_TIPO"], df["EDAD_CANT"]
    infant = tipo.isin(["2", "3", "4"]) | ((tipo == "1") & (cant == "0"))
    sub = df.loc[infant]
    code = sub["CODIGO_COMUNA_RESIDENCIA"].str.zfill(5)
    return sub.groupby([sub["ANO_DEF"], code]).size()


def linearmodels_fe(panel):
    model = PanelOLS(panel["y"], panel[["x0", "x1", "x2", "x3", "x4"]], entity_effects=True)
    return model.fit(cov_type="clustered", cluster_entity=True)


def criterion_seconds(root, group, name):
    with open(os.path.join(root, group, name, "new", "estimates.json")) as f:
        estimates = json.load(f)
    return estimates["median"]["point_estimate"] / 1e9


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--deaths", required=True)
    parser.add_argument("--panel", required=True)
    parser.add_argument("--criterion", required=True)
    parser.add_argument("--deaths-mb", type=int, required=True)
    args = parser.parse_args()

    mib = os.path.getsize(args.deaths) / 2**20
    pd_agg, pd_agg_all, counts = timed(lambda: pandas_infant_deaths(args.deaths))
    panel = pd.read_csv(args.panel).set_index(["entity", "time"])
    lm_fit, lm_fit_all, fit = timed(lambda: linearmodels_fe(panel))

    rust_agg = criterion_seconds(args.criterion, "ingest", f"deaths_microdata_{args.deaths_mb}MiB")
    rust_fe = criterion_seconds(args.criterion, "models", "fe_cluster_1e6x5")
    rust_ineq = criterion_seconds(args.criterion, "inequality", "bootstrap_1000_5570x30")

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}")
    print(
        f"python {platform.python_version()}, pandas {pd.__version__}, numpy {np.__version__}, "
        f"linearmodels {linearmodels.__version__}"
    )
    print(f"deaths file: {mib:.1f} MiB; pandas found {int(counts.sum())} infant deaths in {len(counts)} year-commune cells")
    print("fe slopes (linearmodels): " + ", ".join(f"{v:.6f}" for v in fit.params.values))
    print()
    print("| task | Rust native (median of 10) | Python (median of 3) | Python / Rust |")
    print("|---|---|---|---|")
    print(
        f"| aggregate deaths microdata, {mib:.0f} MiB | {rust_agg:.3f} s ({mib / rust_agg:.0f} MiB/s) "
        f"| pandas read_csv+groupby {pd_agg:.3f} s ({mib / pd_agg:.0f} MiB/s) | {pd_agg / rust_agg:.1f}× |"
    )
    print(
        f"| fe, clustered SEs, 1,000,000 rows × 5 | {rust_fe:.3f} s "
        f"| linearmodels PanelOLS {lm_fit:.3f} s | {lm_fit / rust_fe:.1f}× |"
    )
    print(f"| inequality, 1,000 bootstrap replicates, 5,570 × 30 | {rust_ineq:.3f} s | (no counterpart) | |")
    print()
    print("python runs (s): pandas " + ", ".join(f"{t:.3f}" for t in pd_agg_all)
          + "; linearmodels " + ", ".join(f"{t:.3f}" for t in lm_fit_all))


if __name__ == "__main__":
    main()
