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


def print_browser(browser, mib, pd_agg, lm_fit, rust_agg, rust_fe, rust_ineq):
    """The headless Chromium figures next to native and Python (the same run)."""
    m = browser["machine"]
    print()
    print(f"browser: Chromium {m.get('chromium')}, {m.get('cpus')} cores ({m.get('cpu')})")
    print("| task | wasm in Chromium (median) | Rust native | Python | Python / wasm | wasm / native |")
    print("|---|---|---|---|---|---|")

    def row(task, key, python, native, rate=False):
        b = browser.get(key) or {}
        if "median_ms" not in b:
            print(f"| {task} | {b.get('skipped', 'not run')} | | | | |")
            return
        wasm = b["median_ms"] / 1000
        speed = f" ({mib / wasm:.0f} MiB/s)" if rate else ""
        py = f"{python:.3f} s" if python is not None else "—"
        ratio = f"{python / wasm:.1f}×" if python is not None else ""
        print(f"| {task} | {wasm:.3f} s{speed} | {native:.3f} s | {py} | {ratio} | {wasm / native:.1f}× |")

    row(f"aggregate deaths microdata, {mib:.0f} MiB (wasm engine, main thread)", "ingest", pd_agg, rust_agg, True)
    row(f"aggregate deaths microdata, {mib:.0f} MiB (page's Web Worker)", "microdata", pd_agg, rust_agg, True)
    row("fe, clustered SEs, 1,000,000 rows × 5", "fe", lm_fit, rust_fe)
    row("inequality, 1,000 bootstrap replicates, 5,570 × 30", "inequality", None, rust_ineq)
    if "median_painted_ms" in (browser.get("map") or {}):
        mp = browser["map"]
        print(
            f"time to first map (bundled data, cold load, navigation start to 345 paths painted): "
            f"{mp['median_painted_ms']:.0f} ms median of {len(mp['loads'])} (in the DOM: {mp['median_dom_ms']:.0f} ms)"
        )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--deaths", required=True)
    parser.add_argument("--panel", required=True)
    parser.add_argument("--criterion", required=True)
    parser.add_argument("--deaths-mb", type=int, required=True)
    parser.add_argument("--browser-json", help="figures written by bench/browser.mjs --json")
    args = parser.parse_args()
    browser = None
    if args.browser_json:
        with open(args.browser_json) as f:
            browser = json.load(f)

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
    if browser is not None:
        print_browser(browser, mib, pd_agg, lm_fit, rust_agg, rust_fe, rust_ineq)
    print()
    print("python runs (s): pandas " + ", ".join(f"{t:.3f}" for t in pd_agg_all)
          + "; linearmodels " + ", ".join(f"{t:.3f}" for t in lm_fit_all))


if __name__ == "__main__":
    main()
