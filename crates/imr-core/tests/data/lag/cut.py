#!/usr/bin/env python3
"""Cuts the publication-lag fixture: SINIM's infant mortality rate as labelled 2019-2023 beside
INE's registered births by commune of the mother's residence, 2017-2023 (PROVENANCE.md).

Usage (from the repository root):
  crates/imr-core/tests/data/lag/cut.py [SINIM_EXTRACT] [INE_BIRTHS]
Defaults: data/raw/sinim/sinim_2019_2023_extract.csv and
/work/shared/data/ine_nacimientos_comuna_2010_2023/nacidos_vivos_comuna_residencia_2010_2023.csv.
Writes sinim_tmi_ine_nacimientos_2017_2023.csv beside this script. Standard library only.
"""
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SINIM = sys.argv[1] if len(sys.argv) > 1 else "data/raw/sinim/sinim_2019_2023_extract.csv"
INE = sys.argv[2] if len(sys.argv) > 2 else (
    "/work/shared/data/ine_nacimientos_comuna_2010_2023/"
    "nacidos_vivos_comuna_residencia_2010_2023.csv")
OUT = os.path.join(HERE, "sinim_tmi_ine_nacimientos_2017_2023.csv")
YEARS = range(2017, 2024)

tmi = {}
with open(SINIM, newline="", encoding="utf-8") as f:
    for r in csv.DictReader(f):
        # v839: Tasa de Mortalidad Infantil, as SINIM labels its year; empty = not published.
        tmi[(r["codigo_comuna"], int(r["anio"]))] = r["v839"]

births = {}
with open(INE, newline="", encoding="utf-8") as f:
    for r in csv.DictReader(f):
        year = int(r["anio"])
        if year in YEARS:
            births[(r["codigo_comuna"], year)] = r["nacidos_vivos"]

# The communes of INE's births (346 with Antártica, 12202, which SINIM does not cover);
# SINIM's pseudo-commune 11111 "SUBDERE_" (no values) is left out.
codes = sorted({code for code, _ in births})
with open(OUT, "w", newline="", encoding="utf-8") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["codigo_comuna", "anio", "tmi", "nacidos_vivos"])
    for code in codes:
        for year in YEARS:
            w.writerow([code, year, tmi.get((code, year), ""), births[(code, year)]])
print(f"{OUT}: {len(codes) * len(YEARS)} rows")
