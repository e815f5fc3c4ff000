//! The Models view: panel-data models of an outcome (by default the IMR per 1,000 births) on
//! commune characteristics. The user picks the outcome, the regressors (labelled from the
//! codebook), one or more estimators and the standard errors; the view shows the models side by
//! side (estimate with stars, SE, interval), the engine's coefficient plot, the diagnostics in
//! words, and offers the data, the tables and the R / Stata / `imr fit` code that reproduce them.
//!
//! The view holds one [`FitRequest`] built from its options ([`ModelOptions`], all in the URL
//! fragment); every selected model is that request for its estimator
//! ([`FitRequest::for_model`]). What it computes lives in the engine
//! (`imr_core::view::{models, model_words}`: candidates, analysis data, commands, table rows,
//! words), tested natively. Fits are memoised per (panel, request): changing a display option
//! never refits, and adding a model fits only that model.
//!
//! Components: [`controls`] (the options), [`table`] (coefficients), [`plot`] (the coefficient
//! plot and the models that failed), [`downloads`] (files and commands), [`diagnostics`].

mod controls;
mod diagnostics;
mod downloads;
mod plot;
mod table;

use crate::i18n::lang;
use crate::messages::msg;
use crate::state::cache::RequestCache;
use crate::state::{AppState, Shared};
use imr_core::model_columns::{cluster_candidates, weight_candidates};
use imr_core::models::{Estimator, Fit, VcovKind};
use imr_core::request::{FitRequest, RequestError};
use imr_core::view::model_words::no_regressor_columns;
use imr_core::view::{chosen_regressors, outcome_candidates, regressor_candidates, DEFAULT_MODELS};
use leptos::prelude::*;
use std::sync::Arc;

/// The model specification, each option kept in the URL fragment under its key (a shared link
/// refits the same models): `y` (outcome), `x` (regressors, comma-separated; absent until the
/// reader chooses, then the defaults present in the data apply), `models`, `vcov`, `weights`,
/// `fe` (absorbed fixed effects as `imr fit --fe` takes them), `cluster` (the column that
/// clusters the standard errors of a fit with absorbed effects, `imr fit --cluster`).
#[derive(Clone, Copy)]
pub(super) struct ModelOptions {
    pub outcome: RwSignal<String>,
    pub chosen: RwSignal<Option<Vec<String>>>,
    pub models: RwSignal<Vec<Estimator>>,
    pub vcov: RwSignal<VcovKind>,
    pub weights: RwSignal<Option<String>>,
    pub fe: RwSignal<Option<String>>,
    pub cluster: RwSignal<Option<String>>,
}

impl ModelOptions {
    fn from_fragment() -> Self {
        let fragment = crate::fragment::fragment();
        ModelOptions {
            outcome: fragment.synced("y", "rate".to_string()),
            chosen: fragment.synced_with(
                "x",
                None::<Vec<String>>,
                |x| x.as_ref().map(|v| v.join(",")).unwrap_or_default(),
                |s| Some((!s.is_empty()).then(|| s.split(',').map(str::to_owned).collect())),
            ),
            models: fragment.synced_with(
                "models",
                DEFAULT_MODELS.to_vec(),
                |m| m.iter().map(|e| e.name()).collect::<Vec<_>>().join(","),
                |s| {
                    s.split(',')
                        .map(Estimator::from_name)
                        .collect::<Option<Vec<_>>>()
                },
            ),
            vcov: fragment.synced_with(
                "vcov",
                VcovKind::Cluster,
                |v| v.name().to_owned(),
                VcovKind::from_name,
            ),
            weights: fragment.synced_with(
                "weights",
                None::<String>,
                |w| w.clone().unwrap_or_default(),
                |s| Some((!s.is_empty()).then(|| s.to_owned())),
            ),
            fe: fragment.synced_with(
                "fe",
                None::<String>,
                |f| f.clone().unwrap_or_default(),
                |s| Some((!s.trim().is_empty()).then(|| s.trim().to_owned())),
            ),
            cluster: fragment.synced_with(
                "cluster",
                None::<String>,
                |c| c.clone().unwrap_or_default(),
                |s| Some((!s.is_empty()).then(|| s.to_owned())),
            ),
        }
    }

    /// The one request of the view for the regressors `x`: every selected model is this request
    /// for its estimator. Reads (and so tracks) the outcome, weights, standard errors, fe and
    /// the clusters (which go with absorbed effects: without them the request has none).
    fn request(&self, x: Vec<String>, include: (bool, bool)) -> FitRequest {
        let (include_flagged, include_repeated_years) = include;
        FitRequest {
            y: self.outcome.get(),
            x,
            weights: self.weights.get(),
            vcov: self.vcov.get(),
            cluster: (self.fe.with(Option::is_some) && self.vcov.get() == VcovKind::Cluster)
                .then(|| self.cluster.get())
                .flatten(),
            fe: self.fe.get(),
            include_flagged,
            include_repeated_years,
            ..FitRequest::default()
        }
    }
}

/// A fit, or why the engine could not make it (worded where it is shown).
type FitResult = Result<Shared<Fit>, RequestError>;

thread_local! {
    /// The fits of the loaded panel, by request: choosing a model again, or coming back to the
    /// view, shows its fit at once.
    static FITS: std::cell::RefCell<RequestCache<FitRequest, FitResult>> =
        const { std::cell::RefCell::new(RequestCache::new(64)) };
}

/// Each selected estimator with its request and its (memoised) fit.
type ModelFits = Vec<(Estimator, FitRequest, FitResult)>;

#[component]
pub fn ModelsPage() -> impl IntoView {
    let state = expect_context::<AppState>();
    let options = ModelOptions::from_fragment();
    let show_ci = crate::fragment::fragment().synced("ci", true);

    let panel = Memo::new(move |_| match state.panel.get() {
        Some(Ok(p)) => Some(p),
        _ => None,
    });
    let candidates = Memo::new(move |_| {
        panel
            .get()
            .map(|p| regressor_candidates(&p))
            .unwrap_or_default()
    });
    let outcomes = Memo::new(move |_| {
        panel
            .get()
            .map(|p| outcome_candidates(&p))
            .unwrap_or_default()
    });
    let weight_columns = Memo::new(move |_| {
        panel
            .get()
            .map(|p| weight_candidates(&p))
            .unwrap_or_default()
    });
    let cluster_columns = Memo::new(move |_| {
        panel
            .get()
            .map(|p| cluster_candidates(&p))
            .unwrap_or_default()
    });
    let regressors = Memo::new(move |_| {
        let candidates = candidates.get();
        let out = options.outcome.get();
        options
            .chosen
            .with(|chosen| chosen_regressors(&candidates, &out, chosen.as_deref()))
    });
    // The rows flagged as implausible are left out unless the views' shared toggle includes them.
    let analysis_state = expect_context::<crate::state::AnalysisState>();
    let request = Memo::new(move |_| {
        let include = (
            analysis_state.include.get(),
            analysis_state.include_repeated.get(),
        );
        options.request(regressors.get(), include)
    });
    // Selected estimators in the order of `Estimator::ALL`, each with its request and its
    // (memoised) fit.
    let fits = Memo::new(move |_| {
        let panel = panel.get()?;
        let request = request.get();
        if request.x.is_empty() {
            return Some(Vec::new());
        }
        let selected = options.models.get();
        Some(
            Estimator::ALL
                .into_iter()
                .filter(|e| selected.contains(e))
                .map(|e| {
                    let model = request.for_model(e);
                    let fit = FITS.with(|fits| {
                        fits.borrow_mut().get_or_run(&panel, &model, || {
                            model.run(&panel).map(|f| Shared(Arc::new(f)))
                        })
                    });
                    (e, model, fit)
                })
                .collect::<ModelFits>(),
        )
    });
    // How many fits the view has computed (the cache's count, read after the fits): on the
    // table as `data-fits-run`, so that a test checks that adding a model fitted only that one.
    let fits_run = Memo::new(move |_| {
        fits.track();
        FITS.with(|cache| cache.borrow().runs())
    });
    let ok_fits = Memo::new(move |_| {
        fits.get()
            .unwrap_or_default()
            .into_iter()
            .filter_map(|(_, _, f)| f.ok())
            .collect::<Vec<Shared<Fit>>>()
    });
    // The requests of the fitted models, for the commands that reproduce them.
    let ok_requests = Memo::new(move |_| {
        fits.get()
            .unwrap_or_default()
            .into_iter()
            .filter_map(|(_, r, f)| f.is_ok().then_some(r))
            .collect::<Vec<FitRequest>>()
    });

    view! {
        <controls::Controls
            options=options
            outcomes=outcomes
            weight_columns=weight_columns
            candidates=candidates
            regressors=regressors
            cluster_columns=cluster_columns
        />
        <crate::components::flag_choices::IncludeFlagged />
        {move || match panel.get() {
            None => {
                Some(
                    view! { <p class="note">{msg(|m| m.common.load_data_in_data_tab)}</p> }
                        .into_any(),
                )
            }
            Some(_) if candidates.with(|c| c.iter().all(|x| *x == options.outcome.get())) => {
                Some(
                    // nothing to choose: say what to load
                    view! {
                        <p class="note" data-testid="models-empty">
                            {move || no_regressor_columns(lang().get())}
                        </p>
                    }
                        .into_any(),
                )
            }
            Some(_) if regressors.with(|r| r.is_empty()) => {
                Some(
                    view! {
                        <p class="note" data-testid="models-empty">
                            {msg(|m| m.models.choose_least_one_regressor)}
                        </p>
                    }
                        .into_any(),
                )
            }
            Some(_) if options.models.with(|m| m.is_empty()) => {
                Some(
                    view! {
                        <p class="note" data-testid="models-empty">
                            {msg(|m| m.models.choose_least_one_model)}
                        </p>
                    }
                        .into_any(),
                )
            }
            Some(_) => None,
        }}
        <table::CoefTable fits=ok_fits regressors=regressors show_ci=show_ci fits_run=fits_run />
        <plot::FitErrors fits=fits />
        <plot::CoefPlot fits=ok_fits />
        <downloads::Downloads fits=ok_fits requests=ok_requests panel=panel />
        <diagnostics::Diagnostics fits=ok_fits weights=options.weights />
    }
}
