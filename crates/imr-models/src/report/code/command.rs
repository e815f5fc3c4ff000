//! The `imr fit` command that reproduces an exported fit, and the options every shown command
//! shares.

use super::{absorbed_names, cluster_columns, CodeContext};
use crate::fit::Fit;
use crate::spec::{Estimator, VcovKind};
use imr_escape::shell_join;

/// The options of `imr fit` that set what is fitted (the input, its columns, the level and the
/// output format aside). One definition of these words for every command shown: the command of
/// an exported fit ([`imr_command_args`]) and the request's `to_args` in imr-core.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FitOptions<'a> {
    /// Outcome column (`--y`).
    pub y: &'a str,
    /// The `--x` values, one `--x` each (a value may list several regressors, `a,b`).
    pub x: &'a [String],
    /// Estimator (`--model`).
    pub model: Estimator,
    /// Standard errors (`--vcov`).
    pub vcov: VcovKind,
    /// Weights column (`--weights`), if any.
    pub weights: Option<&'a str>,
    /// Exposure column (`--exposure`), if any.
    pub exposure: Option<&'a str>,
    /// Absorbed fixed effects as fixest writes them (`--fe`, `commune,region^year`), if any.
    pub fe: Option<&'a str>,
}

impl FitOptions<'_> {
    /// `--y`, one `--x` per value, `--model`, `--vcov`, then `--weights`, `--exposure` and
    /// `--fe` when set.
    pub fn to_args(&self) -> Vec<String> {
        let mut args = vec!["--y".to_string(), self.y.to_string()];
        for x in self.x {
            args.push("--x".into());
            args.push(x.clone());
        }
        args.extend(["--model", self.model.name(), "--vcov", self.vcov.name()].map(String::from));
        for (flag, value) in [
            ("--weights", self.weights),
            ("--exposure", self.exposure),
            ("--fe", self.fe),
        ] {
            if let Some(value) = value {
                args.extend([flag.to_string(), value.to_string()]);
            }
        }
        args
    }
}

/// The arguments of the `imr fit` command that produces `fit` from the CSV: the regressors as
/// one comma-separated `--x`, or one `--x` per regressor when a name holds a comma (then each
/// names a column whole).
pub fn imr_command_args(fit: &Fit, ctx: &CodeContext) -> Vec<String> {
    let mut args: Vec<String> = ["imr", "fit", ctx.csv_file, "--entity", ctx.entity]
        .map(String::from)
        .to_vec();
    match ctx.time_value {
        Some(year) => args.extend(["--time-value".to_string(), year.to_string()]),
        None => args.extend(["--time".to_string(), ctx.time.to_string()]),
    }
    for (flag, column) in [
        ("--births", ctx.births),
        ("--deaths", ctx.deaths),
        ("--rate", ctx.rate.filter(|_| ctx.deaths.is_none())),
    ] {
        if let Some(column) = column {
            args.extend([flag.to_string(), column.to_string()]);
        }
    }
    let joined;
    let x = if fit.regressors.iter().any(|x| x.contains(',')) {
        &fit.regressors[..]
    } else {
        joined = [fit.regressors.join(",")];
        &joined[..]
    };
    let fe = (!fit.fixed_effects.is_empty()).then(|| absorbed_names(fit).join(","));
    args.extend(
        FitOptions {
            y: &fit.outcome,
            x,
            model: fit.model,
            vcov: fit.vcov,
            weights: fit.weights.as_deref(),
            exposure: fit.exposure.as_deref(),
            fe: fe.as_deref(),
        }
        .to_args(),
    );
    let clusters = cluster_columns(fit);
    if !clusters.is_empty() {
        args.extend(["--cluster".to_string(), clusters.join(",")]);
    }
    args.extend(["--format", "json"].map(String::from));
    args
}

/// The `imr fit` command line that produces `fit` from the CSV, every word shell-quoted
/// ([`imr_escape::shell_join`]).
pub fn imr_command(fit: &Fit, ctx: &CodeContext) -> String {
    shell_join(imr_command_args(fit, ctx))
}
