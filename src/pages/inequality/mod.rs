//! The Inequality view: how unequal communes' infant mortality rates are in each year, how that
//! changes over the years, and whether it moves with the inequality of a second column (municipal
//! health income per capita).
//!
//! The controls make an [`InequalityRequest`], the value `imr inequality` parses its arguments
//! into; the view runs it (`request.run`, the one pipeline of both), so the page and the command
//! line measure the same areas, and shows the command that reproduces it (`request.to_args`)
//! and, beside every download, the command that writes the same file. Results are kept in a
//! small cache keyed by the panel and the request ([`outcome`]), so leaving the tab and coming
//! back does not run the bootstrap again.
//!
//! The reader's choices live in the URL fragment ([`options`]), so a shared link reopens the same
//! analysis: `ineq-group`, `ineq-rank` (a column, `-` for none, empty for the data's default),
//! `ineq-replicates`, `ineq-seed`, `ineq-measure` (the line chart's measure, a JSON key),
//! `ineq-lorenz` (the Lorenz years, comma-separated; `-` for none, empty for the first and last),
//! `ineq-of`, `ineq-weight` (the second subject and its weight), `ineq-panel-measure` and
//! `ineq-births-ratio` (`LOW,HIGH` as `--births-ratio` takes it; empty for 0.7–1.0). The
//! include-flagged and include-repeated-years choices are the views' shared ones
//! (`include-flagged`, `include-repeated-years`).
//!
//! Components: [`settings`] (answer, controls, command), [`adjusted`] (true-rate inequality),
//! [`table`] (observed measures by year), [`trend`], [`line`](mod@line), [`lorenz`], [`boxplot`],
//! [`second`] (against a second subject), [`downloads`] (buttons and commands).

mod adjusted;
mod boxplot;
mod downloads;
mod line;
mod lorenz;
pub(crate) mod options;
mod outcome;
mod second;
mod settings;
mod table;
mod trend;

use crate::components::download::chart_caption;
use crate::components::flag_choices::{IncludeFlagged, IncludeRepeated, RepeatedNote};
use crate::i18n::lang;
use crate::messages::msg;
use crate::state::AnalysisState;
use crate::state::AppState;
use imr_core::request::{InequalityRequest, InequalitySubject, SecondSeries};
use leptos::prelude::*;
use options::{ColumnChoice, InequalityOptions};
use outcome::cached_analysis;

#[component]
pub fn InequalityPage() -> impl IntoView {
    let state = expect_context::<AppState>();
    let analysis = expect_context::<AnalysisState>();
    let language = lang();
    let options = InequalityOptions::from_fragment();
    let panel = Memo::new(move |_| state.panel.get().and_then(|p| p.ok()));
    // Choices not made yet (or naming columns the data lack) take the data's defaults.
    Effect::new(move |_| {
        if let Some(p) = panel.get() {
            options.resolve(&p);
        }
    });
    // The rates' request (`None` until the defaults are in place, so that the bootstrap runs
    // once), the same with the second subject as `against`, and the second subject's own.
    let request = Memo::new(move |_| {
        let column = |c: RwSignal<ColumnChoice>| {
            c.with(|c| match c {
                ColumnChoice::Default => None,
                other => Some(other.column().map(str::to_owned)),
            })
        };
        Some(InequalityRequest {
            subject: InequalitySubject::Rates,
            group: column(options.group)?,
            rank: column(options.rank)?,
            bootstrap: options.replicates.get(),
            seed: options.seed.get(),
            against: None,
            include_flagged: analysis.include.get(),
            include_repeated_years: analysis.include_repeated.get(),
            births_ratio: options.births_ratio.get(),
        })
    });
    let with_against = Memo::new(move |_| {
        let against = SecondSeries {
            column: options.of.with(|c| c.column().map(str::to_owned))?,
            weight: options.weight.with(|c| c.column().map(str::to_owned))?,
        };
        Some(InequalityRequest {
            against: Some(against),
            ..request.get()?
        })
    });
    let rates = Memo::new(move |_| Some(cached_analysis(&panel.get()?, &request.get()?)));
    let second = Memo::new(move |_| {
        let second = with_against.get()?.second_series()?;
        Some(cached_analysis(&panel.get()?, &second))
    });
    let rates_ok = Memo::new(move |_| rates.get().and_then(|r| r.ok()));

    let body = move || {
        let outcome = match rates.get() {
            None => {
                return view! { <p class="note">{msg(|m| m.common.load_data_in_data_view)}</p> }
                    .into_any()
            }
            Some(Err(message)) => {
                return view! {
                    <p class="error" role="alert" data-testid="ineq-error">
                        {move || message.pick(language.get())}
                    </p>
                }
                .into_any()
            }
            Some(Ok(c)) => c,
        };
        let lang = language.get();
        let Some(request) = request.get() else {
            return ().into_any();
        };
        let adjusted = adjusted::adjusted_section(
            lang,
            &outcome.analysis.report,
            chart_caption(&state, lang),
            state.bundled.get(),
            &outcome.year_marks(),
        );
        view! {
            <RepeatedNote />
            <IncludeRepeated />
            <IncludeFlagged />
            {adjusted}
            {table::observed_table(lang, outcome.clone(), request.clone())}
            {trend::trend_table(lang, outcome, request)}
        }
        .into_any()
    };

    view! {
        <settings::Settings options=options panel=panel rates=rates request=request />
        {body}
        <line::LineChart result=rates_ok request=request measure=options.measure />
        <lorenz::LorenzChart result=rates_ok request=request lorenz_years=options.lorenz_years />
        <boxplot::BoxChart result=rates_ok request=request />
        <second::SecondPanel
            options=options
            panel=panel
            rates=rates_ok
            with_against=with_against
            second=second
        />
    }
}
