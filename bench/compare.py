"""Times pandas, linearmodels and pyfixest on the benchmark inputs and prints them next to the
Rust figures that criterion saved, and the end-to-end CSV → fixed effects with clustered SEs of
`imr fit --fe` against pandas.read_csv + pyfixest.feols, each in a fresh process. Called by
bench/compare (which sets up the venv and the data)."""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
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


XS = ["x0", "x1", "x2", "x3", "x4"]


def pyfixest_fe(df, effects):
    import pyfixest as pf

    return pf.feols(f"y ~ {' + '.join(XS)} | {effects}", data=df, vcov={"CRV1": "entity"})


def pandas_written_panel(panel_path):
    """The panel as pandas writes it (`df.to_csv(index=False)`: shortest repr of every double,
    scientific notation for small magnitudes such as 1.2345e-05), made once next to the input."""
    path = panel_path.replace(".csv", "-pandas.csv")
    if not os.path.exists(path):
        pd.read_csv(panel_path).to_csv(path + ".partial", index=False)
        os.replace(path + ".partial", path)
    return path


def fresh_process(argv):
    """Wall time, peak RSS (MiB, GNU time) and stdout of one fresh process."""
    start = time.perf_counter()
    out = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    rss_kib = int(out.stderr.strip().splitlines()[-1])
    return wall, rss_kib / 1024, out.stdout


PYFIXEST_E2E = """
import sys
import pandas as pd
import pyfixest as pf
df = pd.read_csv(sys.argv[1])
fit = pf.feols("y ~ x0 + x1 + x2 + x3 + x4 | entity", data=df, vcov={"CRV1": "entity"})
print(int(fit._N), *[repr(float(v)) for v in fit.coef().values], *[repr(float(v)) for v in fit.se().values])
"""


def end_to_end(imr, csv):
    """`imr fit --fe entity --vcov cluster` against pandas.read_csv + pyfixest.feols(CRV1), each a
    fresh process (imports and reading included), median of 3 after one warm-up of each."""
    imr_argv = [imr, "fit", csv, "--entity", "entity", "--time", "time", "--y", "y", "--x", ",".join(XS),
                "--fe", "entity", "--vcov", "cluster"]
    py_argv = [sys.executable, "-W", "ignore", "-c", PYFIXEST_E2E, csv]
    runs = {"imr": [], "pyfixest": []}
    outputs = {}
    for i in range(REPEATS + 1):
        for name, argv in (("imr", imr_argv), ("pyfixest", py_argv)):
            wall, rss, stdout = fresh_process(argv)
            outputs[name] = stdout
            if i > 0:
                runs[name].append((wall, rss))
    fit = json.loads(outputs["imr"])
    fields = outputs["pyfixest"].split()
    k = len(XS)
    py_n, py_coef, py_se = int(fields[0]), [float(v) for v in fields[1:1 + k]], [float(v) for v in fields[1 + k:]]
    imr_coef = [c["estimate"] for c in fit["coefficients"]]
    imr_se = [c["std_error"] for c in fit["coefficients"]]
    return {
        "runs": runs,
        "imr_wall": statistics.median(w for w, _ in runs["imr"]),
        "py_wall": statistics.median(w for w, _ in runs["pyfixest"]),
        "imr_rss": max(r for _, r in runs["imr"]),
        "py_rss": max(r for _, r in runs["pyfixest"]),
        "imr_n": fit["nobs"],
        "imr_excluded": fit["rows_excluded"],
        "py_n": py_n,
        "max_coef_diff": max(abs(a - b) / abs(b) for a, b in zip(imr_coef, py_coef)),
        "max_se_diff": max(abs(a - b) / abs(b) for a, b in zip(imr_se, py_se)),
        "bytes": os.path.getsize(csv),
    }


PANDAS_READ = "import sys, pandas as pd; print(len(pd.read_csv(sys.argv[1])))"


def ingest(imr, csv):
    """Generic CSV ingest: `imr fit --model pooled` (reading and validating dominate)
    against `pandas.read_csv`, each a fresh process (wall, peak RSS), median of 3 after one
    warm-up; and read_csv in this process (median of 3), the counterpart of the criterion
    figures of RawTable::from_bytes + build_panel."""
    imr_argv = [imr, "fit", csv, "--entity", "entity", "--time", "time", "--y", "y", "--x", ",".join(XS),
                "--model", "pooled"]
    py_argv = [sys.executable, "-c", PANDAS_READ, csv]
    runs = {"imr": [], "pandas": []}
    for i in range(REPEATS + 1):
        for name, argv in (("imr", imr_argv), ("pandas", py_argv)):
            wall, rss, _ = fresh_process(argv)
            if i > 0:
                runs[name].append((wall, rss))
    read, read_all, _ = timed(lambda: pd.read_csv(csv))
    return {
        "runs": runs,
        "imr_wall": statistics.median(w for w, _ in runs["imr"]),
        "pandas_wall": statistics.median(w for w, _ in runs["pandas"]),
        "imr_rss": max(r for _, r in runs["imr"]),
        "pandas_rss": max(r for _, r in runs["pandas"]),
        "read_csv": read,
        "read_csv_all": read_all,
        "bytes": os.path.getsize(csv),
    }


def criterion_seconds(root, group, name):
    """The median of criterion's last run of a bench, or NaN when it was not run (BENCH_FILTER)."""
    path = os.path.join(root, group, name, "new", "estimates.json")
    if not os.path.exists(path):
        return float("nan")
    with open(path) as f:
        estimates = json.load(f)
    return estimates["median"]["point_estimate"] / 1e9


def print_browser(browser, mib, pd_agg, lm_fit, rust_agg, rust_fe, rust_ineq, absorbed, csv_ingest):
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
    pf1, rust_fe1, pf2, rust_fe2 = absorbed
    row("fe --fe entity, CRV1, 1,000,000 rows × 5 (Python: pyfixest)", "fe_absorbed", pf1, rust_fe1)
    row("fe --fe entity,time, CRV1, 1,000,000 rows × 5 (Python: pyfixest)", "fe_absorbed_2way", pf2, rust_fe2)
    row("inequality, 1,000 bootstrap replicates, 5,570 × 30", "inequality", None, rust_ineq)
    c = browser.get("csv") or {}
    if "median_ms" in c:
        # The generic CSV ingest: wasm (one thread) against native (all cores) and pandas.
        read_csv, native = csv_ingest
        wasm = c["median_ms"] / 1000
        print(
            f"| generic CSV ingest, pandas-written panel ({c['mb']:.0f} MB): file bytes → table → validated panel "
            f"(wasm engine, main thread; {c['rows_used']} rows used, {c['rows_excluded']} excluded) "
            f"| {wasm:.3f} s ({c['mb'] / wasm:.0f} MB/s) | {native:.3f} s | pandas.read_csv {read_csv:.3f} s "
            f"| {read_csv / wasm:.1f}× | {wasm / native:.1f}× |"
        )
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
    parser.add_argument("--imr", help="the imr binary, for the end-to-end CSV → --fe row")
    args = parser.parse_args()
    browser = None
    if args.browser_json:
        with open(args.browser_json) as f:
            browser = json.load(f)

    mib = os.path.getsize(args.deaths) / 2**20
    pd_agg, pd_agg_all, counts = timed(lambda: pandas_infant_deaths(args.deaths))
    panel = pd.read_csv(args.panel).set_index(["entity", "time"])
    lm_fit, lm_fit_all, fit = timed(lambda: linearmodels_fe(panel))
    flat = panel.reset_index()
    pyfixest_fe(flat, "entity")  # warm-up: numba compiles on the first call
    pf1, pf1_all, pf1_fit = timed(lambda: pyfixest_fe(flat, "entity"))
    pf2, pf2_all, pf2_fit = timed(lambda: pyfixest_fe(flat, "entity + time"))
    e2e = end_to_end(args.imr, pandas_written_panel(args.panel)) if args.imr else None
    csv_in = ingest(args.imr, pandas_written_panel(args.panel)) if args.imr else None
    rust_table = criterion_seconds(args.criterion, "ingest", "csv_table_panel_1e6x8")
    rust_build = criterion_seconds(args.criterion, "ingest", "csv_build_panel_1e6x8")

    rust_agg = criterion_seconds(args.criterion, "ingest", f"deaths_microdata_{args.deaths_mb}MiB")
    rust_fe = criterion_seconds(args.criterion, "models", "fe_cluster_1e6x5")
    rust_ineq = criterion_seconds(args.criterion, "inequality", "bootstrap_1000_5570x30")
    rust_fe1 = criterion_seconds(args.criterion, "models", "fe_absorbed_cluster_1e6x5")
    rust_fe2 = criterion_seconds(args.criterion, "models", "fe_absorbed_2way_cluster_1e6x5")
    import pyfixest

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}")
    print(
        f"python {platform.python_version()}, pandas {pd.__version__}, numpy {np.__version__}, "
        f"linearmodels {linearmodels.__version__}, pyfixest {pyfixest.__version__}"
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
    print(
        f"| fe `--fe entity`, CRV1 by entity, 1,000,000 rows × 5 (fit only) | {rust_fe1:.3f} s "
        f"| pyfixest feols(`| entity`) {pf1:.3f} s | {pf1 / rust_fe1:.1f}× |"
    )
    print(
        f"| fe `--fe entity,time`, CRV1 by entity, 1,000,000 rows × 5 (fit only) | {rust_fe2:.3f} s "
        f"| pyfixest feols(`| entity + time`) {pf2:.3f} s | {pf2 / rust_fe2:.1f}× |"
    )
    if e2e is not None:
        mb = e2e["bytes"] / 1e6
        print(
            f"| end to end: pandas-written CSV ({mb:.0f} MB) → fe with CRV1, fresh process | "
            f"`imr fit --fe entity` {e2e['imr_wall']:.3f} s, peak {e2e['imr_rss']:.0f} MiB "
            f"| read_csv + feols {e2e['py_wall']:.3f} s, peak {e2e['py_rss']:.0f} MiB "
            f"| {e2e['py_wall'] / e2e['imr_wall']:.1f}× |"
        )
    if csv_in is not None:
        mb = csv_in["bytes"] / 1e6
        both = rust_table + rust_build
        print(
            f"| generic CSV ingest, pandas-written panel ({mb:.0f} MB, 1,000,000 rows × 8): file bytes → table → "
            f"validated panel | {both:.3f} s ({mb / both:.0f} MB/s; table {mb / rust_table:.0f} MB/s, "
            f"panel {mb / rust_build:.0f} MB/s) | pandas.read_csv {csv_in['read_csv']:.3f} s "
            f"({mb / csv_in['read_csv']:.0f} MB/s) | {csv_in['read_csv'] / both:.1f}× |"
        )
        print(
            f"| the same, fresh process: `imr fit --model pooled` / python + read_csv | "
            f"{csv_in['imr_wall']:.3f} s, peak {csv_in['imr_rss']:.0f} MiB ({csv_in['imr_rss'] * 2**20 / csv_in['bytes']:.1f}× the file) "
            f"| {csv_in['pandas_wall']:.3f} s, peak {csv_in['pandas_rss']:.0f} MiB ({csv_in['pandas_rss'] * 2**20 / csv_in['bytes']:.1f}× the file) "
            f"| {csv_in['pandas_wall'] / csv_in['imr_wall']:.1f}× |"
        )
    print(f"| inequality, 1,000 bootstrap replicates, 5,570 × 30 | {rust_ineq:.3f} s | (no counterpart) | |")
    if browser is not None:
        csv_ingest = (csv_in["read_csv"] if csv_in else float("nan"), rust_table + rust_build)
        print_browser(browser, mib, pd_agg, lm_fit, rust_agg, rust_fe, rust_ineq, (pf1, rust_fe1, pf2, rust_fe2), csv_ingest)
    print()
    print("python runs (s): pandas " + ", ".join(f"{t:.3f}" for t in pd_agg_all)
          + "; linearmodels " + ", ".join(f"{t:.3f}" for t in lm_fit_all)
          + "; pyfixest | entity " + ", ".join(f"{t:.3f}" for t in pf1_all)
          + "; pyfixest | entity + time " + ", ".join(f"{t:.3f}" for t in pf2_all))
    print("fe slopes (pyfixest, | entity): " + ", ".join(f"{v:.6f}" for v in pf1_fit.coef().values))
    if e2e is not None:
        print(
            "end to end runs (s, MiB): imr " + ", ".join(f"{w:.3f}/{r:.0f}" for w, r in e2e["runs"]["imr"])
            + "; pandas+pyfixest " + ", ".join(f"{w:.3f}/{r:.0f}" for w, r in e2e["runs"]["pyfixest"])
        )
        lost = e2e["py_n"] - e2e["imr_n"]
        print(
            f"end to end rows: pyfixest used {e2e['py_n']}, imr used {e2e['imr_n']} "
            f"({e2e['imr_excluded']} excluded by imr; {lost} fewer than pyfixest"
            + (": values in scientific notation read as missing by the ingest, see bench/RESULTS.md)" if lost else ")")
        )
        print(f"end to end agreement: largest relative difference coef {e2e['max_coef_diff']:.1e}, SE {e2e['max_se_diff']:.1e}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--pandas-panel"]:
        # bench/compare, before criterion: the pandas-written panel's path (written once).
        print(pandas_written_panel(sys.argv[2]))
    else:
        main()
