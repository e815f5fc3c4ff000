#!/usr/bin/env python3
"""One-off extraction of the small raw inputs in data/raw/ from the full sources in ../shared/data/.

This is NOT part of the regular build (the build is `imr dataset build`, pure Rust, reading only
data/raw/). It documents exactly how each committed extract was cut from the originals, so that
anyone holding ../shared/data (see each PROVENANCE.md there) can re-create it.

Needs: ../shared/data and Python 3; pandas and pyarrow only for the SINIM 2019–2023 parquet, the
MINSAL directory and the census (imported where used).
Run from the repository root:  python3 data/raw/extract_from_shared.py [path/to/shared/data] [--no-pandas]
Output is deterministic (sorted rows, fixed value formatting, LF line endings, UTF-8).
"""
import csv
import math
import shutil
import sys
from pathlib import Path

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
SHARED = Path(ARGS[0] if ARGS else "../shared/data")
RAW = Path(__file__).resolve().parent

YEARS = range(2019, 2024)
# SINIM variables used by the dataset (see data/raw/sinim/PROVENANCE.md for names and units).
SINIM_VARIABLES = ["839", "744", "1124", "826", "953", "788", "835", "824"]


def write_csv(path, header, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def sinim_text(value):
    """SINIM values as published: integers without a decimal point, others rounded to 2 decimals.

    The parquet stores float64; every value used here is within 1.5e-14 of a number with at most
    two decimals (checked below), so rounding to 2 decimals only removes binary noise such as
    27.919999999999998 -> 27.92.
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    rounded = round(float(value), 2)
    assert abs(rounded - value) < 1e-9, value
    if rounded == int(rounded):
        return str(int(rounded))
    return repr(rounded)


def extract_sinim():
    import pandas as pd

    p = pd.read_parquet(SHARED / "sinim_2019_2023" / "sinim_2019-2023.parquet")
    p = p[p["variable_id"].isin(SINIM_VARIABLES) & p["año"].isin(list(YEARS))]
    # One value per (comuna, year, variable) in the source (checked); index it directly.
    assert not p.duplicated(["cut_comuna", "año", "variable_id"]).any()
    value = {(r.cut_comuna, int(r.año), r.variable_id): r.valor for r in p.itertuples(index=False)}
    keys = p[["cut_comuna", "municipio", "año"]].drop_duplicates().sort_values(["cut_comuna", "año"])
    assert not keys.duplicated(["cut_comuna", "año"]).any()
    rows = []
    for code, name, year in keys.itertuples(index=False):
        values = [sinim_text(value.get((code, int(year), var), float("nan"))) for var in SINIM_VARIABLES]
        rows.append([code, name, int(year)] + values)
    header = ["codigo_comuna", "municipio", "anio"] + ["v" + v for v in SINIM_VARIABLES]
    write_csv(RAW / "sinim" / "sinim_2019_2023_extract.csv", header, rows)
    return len(rows)


def extract_ine_population():
    """INE's total population by commune, 2006–2012: the denominator of SINIM 2006–2012 health
    spending per inhabitant (the years the spending covers)."""
    rows = []
    with open(SHARED / "ine_proyecciones_poblacion" / "poblacion_edad0_0a4_por_comuna_anio.csv", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if 2006 <= int(r["anio"]) <= 2012:
                rows.append([r["codigo_comuna"], r["anio"], r["poblacion_total"]])
    rows.sort()
    write_csv(RAW / "ine" / "poblacion_total_2006_2012.csv", ["codigo_comuna", "anio", "poblacion_total"], rows)
    return len(rows)


def copy_vital_statistics():
    """INE's infant deaths 2000–2015 and births 2010–2023, DEIS microdata births 2000–2011: verbatim."""
    pairs = [
        ("ine_defunciones_infantiles_comuna_2000_2015/defunciones_comuna_residencia_2000_2015.csv",
         "ine/defunciones_comuna_residencia_2000_2015.csv"),
        ("ine_defunciones_infantiles_comuna_2000_2015/totales_nacionales.csv",
         "ine/defunciones_totales_nacionales_2000_2015.csv"),
        ("ine_nacimientos_comuna_2010_2023/nacidos_vivos_comuna_residencia_2010_2023.csv",
         "ine/nacidos_vivos_comuna_residencia_2010_2023.csv"),
        ("deis_nacimientos_comuna_2000_2011/nacimientos_madre_15_49_comuna_2000_2011.csv",
         "deis/nacimientos_madre_15_49_comuna_2000_2011.csv"),
    ]
    for source, target in pairs:
        shutil.copyfile(SHARED / source, RAW / target)


# Columns of SINIM's ficha comunal 2006–2012 used by the dataset (see data/raw/sinim/PROVENANCE.md).
FICHA_COLUMNS = ["codigo_comuna", "municipio", "year", "saludtotal", "pobreza", "rur"]


def extract_sinim_2006_2012():
    """The ficha comunal's health spending, poverty and rurality, verbatim, codes zero-padded."""
    rows = []
    with open(SHARED / "sinim_2006_2012" / "sinim_ficha_comunal_2006_2012.csv", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            rows.append([r["codigo_comuna"].zfill(5)] + [r[c] for c in FICHA_COLUMNS[1:]])
    rows.sort(key=lambda r: (r[0], int(r[2])))
    write_csv(RAW / "sinim" / "sinim_2006_2012_extract.csv", ["codigo_comuna", "municipio", "anio"] + FICHA_COLUMNS[3:], rows)
    return len(rows)


def copy_cut():
    for name in ["subdere_CUT_2018_v04.csv", "nuble_2018_crosswalk_chilemapas.csv"]:
        shutil.copyfile(SHARED / "cut_codigos" / name, RAW / "cut" / name)


def extract_minsal():
    import pandas as pd

    m = pd.read_csv(SHARED / "minsal_establecimientos_salud" / "establecimientos_salud.csv", dtype=str, keep_default_na=False)
    keep = m["tipo_establecimiento"].isin(
        [
            "Hospital",
            "Servicio de Atención Primaria de Urgencia (SAPU)",
            "Servicio de Atención Primaria de Urgencia de Alta Resolutividad (SAR)",
        ]
    )
    cols = [
        "codigo_establecimiento", "nombre_establecimiento", "tipo_establecimiento", "nivel_atencion",
        "codigo_comuna", "tipo_urgencia", "latitud", "longitud", "estado_funcionamiento",
    ]
    out = m.loc[keep, cols].sort_values(["codigo_comuna", "codigo_establecimiento"])
    write_csv(RAW / "minsal" / "establecimientos_sapu_sar_hospital.csv", cols, out.values.tolist())
    return len(out)


def extract_census():
    import pandas as pd

    c = pd.read_csv(SHARED / "censo2017_comunal_makehealth" / "consolidado_censo_241022.csv")
    cols = [
        "PERSONAS", "EducacionFormal_Si", "EducacionFormal_Noasisteactualmente",
        "EducacionFormal_Nuncaasistio", "EducacionFormal_Missing",
    ]
    rows = []
    for _, r in c.sort_values("Codigo_comuna").iterrows():
        vals = ["" if pd.isna(r[k]) else str(int(r[k])) for k in cols]
        rows.append([f"{int(r['Codigo_comuna']):05d}"] + vals)
    write_csv(RAW / "censo2017" / "censo2017_educacion_formal.csv", ["codigo_comuna"] + cols, rows)
    return len(rows)


def copy_boundaries():
    shutil.copyfile(
        SHARED / "comunas_geo_chilemapas" / "chile_comunas_2018.topojson",
        RAW / "boundaries" / "chile_comunas_2018.topojson",
    )


if __name__ == "__main__":
    copy_vital_statistics()
    print("ine population rows", extract_ine_population())
    print("sinim 2006-2012 rows", extract_sinim_2006_2012())
    if "--no-pandas" not in sys.argv:
        print("sinim rows", extract_sinim())
    copy_cut()
    if "--no-pandas" not in sys.argv:
        print("minsal rows", extract_minsal())
        print("census rows", extract_census())
    copy_boundaries()
