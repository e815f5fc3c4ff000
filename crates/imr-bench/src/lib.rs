//! The inputs of the benchmarks, made deterministically so that `bench/compare` can hand the
//! very same data to pandas and linearmodels:
//!
//! - a synthetic deaths microdata file (official layout) of a given size, kept in a temporary
//!   folder and made again only when missing;
//! - a balanced panel of 50,000 entities × 20 periods (1,000,000 rows) with 5 regressors and
//!   entity effects correlated with them, for `fe` with clustered errors;
//! - 5,570 areas × 30 years of births and infant deaths (the size of Brazil's municipalities)
//!   for the inequality bootstrap.

use imr_inequality::AreaObservation;
use imr_microdata::synth::{write_deaths, SplitMix64, SynthOptions, SynthSize};
use imr_models::{Column, FixedEffect, PanelData};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

pub const DEATHS_SEED: u64 = 2024;
pub const PANEL_SEED: u64 = 7;
pub const INEQUALITY_SEED: u64 = 11;

/// Where the generated files go: `$IMR_BENCH_DIR`, or the system temporary folder.
pub fn data_dir() -> PathBuf {
    std::env::var_os("IMR_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir)
}

/// The column roles of the benchmark panel's CSV as `imr fit --entity entity --time time` sets
/// them: the guessed roles with `entity` and `time` named.
pub fn panel_roles(table: &imr_core::ingest::RawTable) -> imr_core::ingest::ColumnRoles {
    use imr_core::ingest::columns::find_column;
    let mut roles = table.guessed_roles.clone();
    roles.entity = find_column(&table.columns, "entity").or(roles.entity);
    roles.time = find_column(&table.columns, "time").or(roles.time);
    roles
}

/// The fe benchmark panel (50,000 entities × 20 periods × 5 regressors) as CSV in
/// [`data_dir`], written once.
pub fn panel_csv() -> std::io::Result<PathBuf> {
    let panel = data_dir().join("imr-bench-panel-50000x20x5.csv");
    if !panel.exists() {
        let partial = panel.with_extension("partial");
        panel_columns(50_000, 20, 5).write_csv(&partial)?;
        std::fs::rename(&partial, &panel)?;
    }
    Ok(panel)
}

/// The path of the synthetic deaths file of `mb` MiB, written first when missing (or shorter
/// than asked, e.g. after an interrupted run).
pub fn deaths_file(mb: u64) -> std::io::Result<PathBuf> {
    let path = data_dir().join(format!("imr-bench-deaths-{mb}mb-seed{DEATHS_SEED}.csv"));
    let bytes = mb << 20;
    if std::fs::metadata(&path)
        .map(|m| m.len() >= bytes)
        .unwrap_or(false)
    {
        return Ok(path);
    }
    let partial = path.with_extension("partial");
    let mut out = BufWriter::with_capacity(1 << 20, std::fs::File::create(&partial)?);
    write_deaths(
        &mut out,
        &SynthOptions {
            size: SynthSize::Bytes(bytes),
            seed: DEATHS_SEED,
            header: true,
            first_year: 1990,
            last_year: 2019,
            ..SynthOptions::default()
        },
    )?;
    drop(out);
    std::fs::rename(&partial, &path)?;
    Ok(path)
}

/// The fe benchmark panel as columns: entity index, period, y, x0..x4.
pub struct PanelColumns {
    pub entity: Vec<u32>,
    pub time: Vec<i64>,
    pub y: Vec<f64>,
    pub x: Vec<Vec<f64>>,
}

/// `y = α_g + Σ (j+1)·x_j + 0.1·u`, `x_j = α_g + v`, with `α_g, u, v` uniform on (−½, ½).
pub fn panel_columns(entities: usize, periods: usize, regressors: usize) -> PanelColumns {
    let mut rng = SplitMix64::new(PANEL_SEED);
    let n = entities * periods;
    let mut columns = PanelColumns {
        entity: Vec::with_capacity(n),
        time: Vec::with_capacity(n),
        y: Vec::with_capacity(n),
        x: vec![Vec::with_capacity(n); regressors],
    };
    for g in 0..entities {
        let effect = rng.unit() - 0.5;
        for t in 0..periods {
            let mut y = effect;
            for (j, column) in columns.x.iter_mut().enumerate() {
                let v = rng.unit() - 0.5 + effect;
                column.push(v);
                y += (j as f64 + 1.0) * v;
            }
            columns.y.push(y + 0.1 * (rng.unit() - 0.5));
            columns.entity.push(g as u32);
            columns.time.push(t as i64);
        }
    }
    columns
}

impl PanelColumns {
    pub fn panel_data(&self) -> PanelData {
        let entity: Vec<String> = self.entity.iter().map(|g| format!("{g:05}")).collect();
        let mut data = PanelData::new(entity, self.time.clone(), Column::complete("y", &self.y));
        for (j, x) in self.x.iter().enumerate() {
            data = data.regressor(Column::complete(format!("x{j}"), x));
        }
        data
    }

    /// [`PanelColumns::panel_data`] absorbing the entity (and, with `two_way`, the period) as
    /// fixed effects: the model of pyfixest's `feols("y ~ x0 + … | entity + time")`.
    pub fn panel_data_absorbing(&self, two_way: bool) -> PanelData {
        let mut data = self.panel_data().absorb(FixedEffect {
            name: "entity".into(),
            codes: self.entity.iter().map(|&g| Some(g)).collect(),
        });
        if two_way {
            data = data.absorb(FixedEffect::from_keys(
                "time",
                self.time.iter().map(|&t| Some(t)),
            ));
        }
        data
    }

    /// Writes `entity,time,y,x0,…` with 17 significant digits (read back exactly).
    pub fn write_csv(&self, path: &Path) -> std::io::Result<()> {
        let mut out = BufWriter::with_capacity(1 << 20, std::fs::File::create(path)?);
        write!(out, "entity,time,y")?;
        for j in 0..self.x.len() {
            write!(out, ",x{j}")?;
        }
        writeln!(out)?;
        for i in 0..self.y.len() {
            write!(out, "{},{},{:e}", self.entity[i], self.time[i], self.y[i])?;
            for x in &self.x {
                write!(out, ",{:e}", x[i])?;
            }
            writeln!(out)?;
        }
        out.flush()
    }
}

/// Births (30 to 30,000, log-uniform) and infant deaths (binomial with an area's own rate of
/// 5 to 25 per 1,000) for `areas` × `years`.
pub fn inequality_observations(areas: usize, years: usize) -> Vec<AreaObservation> {
    let mut rng = SplitMix64::new(INEQUALITY_SEED);
    let mut out = Vec::with_capacity(areas * years);
    let rates: Vec<f64> = (0..areas).map(|_| 0.005 + 0.02 * rng.unit()).collect();
    let sizes: Vec<f64> = (0..areas)
        .map(|_| (30f64.ln() + rng.unit() * (1000f64).ln()).exp())
        .collect();
    for year in 0..years {
        for area in 0..areas {
            let births = sizes[area].round().max(1.0);
            // Binomial by its normal approximation, floored at 0 (fine for a benchmark input).
            let mean = births * rates[area];
            let sd = (mean * (1.0 - rates[area])).sqrt();
            let z = (-2.0 * (1.0 - rng.unit()).ln()).sqrt()
                * (2.0 * std::f64::consts::PI * rng.unit()).cos();
            let deaths = (mean + sd * z).round().clamp(0.0, births);
            out.push(AreaObservation::new(
                format!("{area:07}"),
                1994 + year as i64,
                deaths,
                births,
            ));
        }
    }
    out
}
