//! A fuzzing harness on stable Rust for every input kind of imr-atlas: CSV tables,
//! spreadsheets, saved analyses, the URL fragment, the ministry's microdata and boundary files.
//!
//! Each iteration takes an input of the committed corpus (crates/imr-core/tests/data/hostile),
//! applies one to eight seeded mutations (bit flips, deletions, duplications, insertions of
//! quotes, delimiters, BOMs, huge numbers, `NaN`, `1e308`, long lines, invalid UTF-8, splices of
//! another corpus file) and runs the target under [`std::panic::catch_unwind`]. A panic is a
//! crash: the input is returned to the caller (the binary saves it to a file). The harness also
//! checks invariants a target must keep (the ingest report's accounting, the fragment's round
//! trip) and treats a broken one as a crash.
//!
//! cargo-fuzz needs a nightly toolchain, which this project does not use; the mutations here are
//! blind (no coverage feedback), so the corpus of hand-made nasty files carries the structure.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::time::{Duration, Instant};

/// The input kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// `RawTable::from_bytes` → `build_panel` → `RateTable::from_panel`.
    Csv,
    /// A saved analysis: `SavedAnalysis::from_json` → tables → panel.
    Analysis,
    /// The URL fragment: `parse_fragment`, and its round trip through `format_fragment`.
    Fragment,
    /// The deaths and births microdata aggregators, fed in two chunks.
    Microdata,
    /// `GeoLayer::from_str` on TopoJSON or GeoJSON text (imr-map's public entry point).
    Boundaries,
    /// `Workbook::open_with` (xlsx, xls, ods, XML Spreadsheet 2003, told by their bytes; small
    /// bounds, [`WORKBOOK_LIMITS`]) → every sheet's `table` → `build_panel` → rates.
    Workbook,
}

/// The bounds of the workbook target: small enough that a mutated input reaches each of them
/// (the zip bomb's unpacked size, the cell count) within the 64 KiB inputs.
pub const WORKBOOK_LIMITS: imr_core::ingest::sheet::Limits = imr_core::ingest::sheet::Limits {
    max_workbook_bytes: 1 << 20,
    max_unpacked_bytes: 4 << 20,
    max_sheet_cells: 100_000,
};

impl Target {
    pub const ALL: [Target; 6] = [
        Target::Csv,
        Target::Analysis,
        Target::Fragment,
        Target::Microdata,
        Target::Boundaries,
        Target::Workbook,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Target::Csv => "csv",
            Target::Analysis => "analysis",
            Target::Fragment => "fragment",
            Target::Microdata => "microdata",
            Target::Boundaries => "boundaries",
            Target::Workbook => "workbook",
        }
    }

    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Runs one input; `Err` with a message when an invariant is broken. A panic propagates (the
    /// caller catches it).
    pub fn run(self, input: &[u8]) -> Result<(), String> {
        match self {
            Target::Csv => run_csv(input),
            Target::Analysis => run_analysis(input),
            Target::Fragment => run_fragment(input),
            Target::Microdata => run_microdata(input),
            Target::Boundaries => run_boundaries(input),
            Target::Workbook => run_workbook(input),
        }
    }
}

fn check_report(panel: &imr_core::panel::Panel, rows: usize) -> Result<(), String> {
    let r = &panel.report;
    if r.rows_read != r.rows_used + r.rows_excluded || r.rows_read != rows {
        return Err(format!(
            "accounting broken: read {} used {} excluded {} records {rows}",
            r.rows_read, r.rows_used, r.rows_excluded
        ));
    }
    if r.rows_excluded != r.excluded.len() {
        return Err("excluded count differs from the exclusion list".into());
    }
    Ok(())
}

fn panel_and_rates(
    tables: &[imr_core::ingest::RawTable],
    roles: &[imr_core::ingest::ColumnRoles],
) -> Result<(), String> {
    panel_and_rates_with(tables, roles, &imr_core::ingest::IngestOptions::default())
}

fn panel_and_rates_with(
    tables: &[imr_core::ingest::RawTable],
    roles: &[imr_core::ingest::ColumnRoles],
    options: &imr_core::ingest::IngestOptions,
) -> Result<(), String> {
    use imr_core::ingest::build_panel;
    let rows: usize = tables.iter().map(|t| t.records.len()).sum();
    if let Ok(panel) = build_panel(tables, roles, options) {
        check_report(&panel, rows)?;
        // The lag test's words, in both languages.
        if let Some(lag) = &panel.report.rate_lag {
            let _ = (
                lag.text(imr_core::Lang::Es),
                lag.by_year_text(imr_core::Lang::En),
            );
        }
        if let Ok(rates) = imr_core::rates::RateTable::from_panel(&panel) {
            let _ = imr_core::rates::rates_csv(&rates);
        }
    }
    Ok(())
}

fn run_csv(input: &[u8]) -> Result<(), String> {
    use imr_core::ingest::RawTable;
    let Ok(table) = RawTable::from_bytes("fuzz.csv", input) else {
        return Ok(());
    };
    // As guessed, and with the first four columns forced into the four roles (so that the
    // count checks run whatever the mutated header says).
    panel_and_rates(
        std::slice::from_ref(&table),
        std::slice::from_ref(&table.guessed_roles),
    )?;
    if table.columns.len() >= 4 {
        let mut roles = imr_core::ingest::ColumnRoles::default();
        for (i, role) in imr_core::ingest::Role::ALL.into_iter().take(4).enumerate() {
            roles.set(role, Some(i));
        }
        panel_and_rates(std::slice::from_ref(&table), std::slice::from_ref(&roles))?;
        // The same file twice: a births/deaths merge or a characteristics join.
        let mut births_only = roles.clone();
        births_only.deaths = None;
        let mut deaths_only = roles.clone();
        deaths_only.births = None;
        panel_and_rates(&[table.clone(), table.clone()], &[births_only, deaths_only])?;
        // The fourth column as a published rate read with a lag (`--rate-lag 2`): the lag test
        // and the rates moved to the year they describe.
        let mut with_rate = roles.clone();
        with_rate.deaths = None;
        with_rate.rate = Some(3);
        let lagged = imr_core::ingest::IngestOptions {
            rate_lag: Some(2),
            ..imr_core::ingest::IngestOptions::default()
        };
        panel_and_rates_with(std::slice::from_ref(&table), &[with_rate], &lagged)?;
    }
    Ok(())
}

fn run_workbook(input: &[u8]) -> Result<(), String> {
    use imr_core::ingest::sheet::Workbook;
    use imr_core::ingest::IngestError;
    let mut book = match Workbook::open_with("fuzz.xlsx", input.to_vec(), WORKBOOK_LIMITS) {
        Ok(book) => book,
        // Every refusal names the file.
        Err(e) => {
            return match e.to_string().starts_with("fuzz.xlsx") {
                true => Ok(()),
                false => Err(format!("an error without the file's name: {e}")),
            }
        }
    };
    let sheets = book.sheet_names().to_vec();
    let mut tables = Vec::new();
    for sheet in &sheets {
        match book.table(sheet) {
            Ok(mut table) => {
                if !table.file.starts_with("fuzz.xlsx [") {
                    return Err(format!("a table not named by its sheet: {}", table.file));
                }
                table.time_given = imr_core::ingest::year_in_name(sheet).or(Some(2010));
                tables.push(table);
            }
            Err(IngestError::Empty { .. }) => {}
            Err(e) if e.to_string().starts_with("fuzz.xlsx") => {}
            Err(e) => return Err(format!("an error without the file's name: {e}")),
        }
    }
    let roles: Vec<_> = tables.iter().map(|t| t.guessed_roles.clone()).collect();
    if !tables.is_empty() {
        panel_and_rates(&tables, &roles)?;
    }
    Ok(())
}

fn run_analysis(input: &[u8]) -> Result<(), String> {
    use imr_core::analysis::SavedAnalysis;
    let _ = imr_core::analysis::is_saved_analysis(input);
    let Ok(saved) = SavedAnalysis::from_json("fuzz.json", input) else {
        return Ok(());
    };
    let _ = imr_core::ingest::fragment::parse_fragment(&saved.options);
    if let Ok(pairs) = saved.tables_and_roles("fuzz.json") {
        let (tables, roles): (Vec<_>, Vec<_>) = pairs.into_iter().unzip();
        panel_and_rates(&tables, &roles)?;
    }
    Ok(())
}

fn run_fragment(input: &[u8]) -> Result<(), String> {
    use imr_core::ingest::fragment::{format_fragment, parse_fragment};
    let text = String::from_utf8_lossy(input);
    let parsed = parse_fragment(&text);
    let again = parse_fragment(&format_fragment(&parsed));
    if again != parsed {
        return Err(format!("round trip changed {parsed:?} into {again:?}"));
    }
    Ok(())
}

fn run_microdata(input: &[u8]) -> Result<(), String> {
    use imr_microdata::{
        BirthsAggregator, BirthsOptions, ColumnRef, DeathsAggregator, DeathsOptions,
    };
    let cut = input.len() / 2;
    let mut deaths = DeathsAggregator::new(DeathsOptions {
        neonatal: true,
        cause: true,
    });
    if deaths.push(&input[..cut]).is_ok() && deaths.push(&input[cut..]).is_ok() {
        let _ = deaths.finish();
    }
    let mut births =
        BirthsAggregator::new(BirthsOptions::new(ColumnRef::Index(0), ColumnRef::Index(1)));
    if births.push(&input[..cut]).is_ok() && births.push(&input[cut..]).is_ok() {
        let _ = births.finish();
    }
    let _ = imr_microdata::looks_like_deaths_microdata(input);
    Ok(())
}

fn run_boundaries(input: &[u8]) -> Result<(), String> {
    use imr_core::map::{GeoLayer, PropertyKeys};
    let text = String::from_utf8_lossy(input);
    if let Ok(layer) = GeoLayer::from_str(&text, None, &PropertyKeys::default()) {
        let _ = layer.bounds();
        let _ = layer.match_codes(&["01101", "13101"]);
        let _ = imr_core::map::Weights::queen(&layer);
        let _ = imr_core::map::Weights::rook(&layer);
    }
    Ok(())
}

/// Tokens the mutator inserts: the shapes that broke readers before.
const TOKENS: &[&[u8]] = &[
    b"\"",
    b"\"\"",
    b",",
    b";",
    b"\t",
    b"|",
    b"\n",
    b"\r\n",
    b"\r",
    b"\xEF\xBB\xBF",
    b"\xFF\xFE",
    b"\xFE\xFF",
    b"\x00",
    b"\xFF",
    b"\xC3",
    b"\xED\xA0\x80",
    b"1e308",
    b"-1e308",
    b"1.7976931348623157e308",
    b"1e400",
    b"NaN",
    b"inf",
    b"-0",
    b"99999999999999999999999",
    b"1.712078436289678e-05",
    b"1,5e-3",
    b"2147483647",
    b"-2147483648",
    b"4294967296",
    b"#",
    b"%",
    b"%zz",
    b"%00",
    b"&",
    b"=",
    b"=HYPERLINK(\"x\")",
    b"<script>alert(1)</script>",
    b"{",
    b"}",
    b"[",
    b"]",
    b"[]",
    b"null",
    b"\"arcs\":[[2147483647]]",
    b"\"arcs\":[[-2147483648]]",
    b"\"scale\":[1]",
    b"\"coordinates\":[1]",
    b"\"type\":\"Polygon\"",
    b"\"format\":\"imr-atlas-analysis/2\"",
    b"01101",
    b"2019",
    b"\\",
];

/// Inputs are kept below this size, so one slow input cannot stall a run.
pub const MAX_INPUT_BYTES: usize = 64 * 1024;

/// Produces mutated inputs from a corpus with a seeded generator.
pub struct Mutator {
    rng: ChaCha8Rng,
    corpus: Vec<Vec<u8>>,
}

impl Mutator {
    pub fn new(seed: u64, corpus: Vec<Vec<u8>>) -> Mutator {
        let corpus = if corpus.is_empty() {
            vec![Vec::new()]
        } else {
            corpus
        };
        Mutator {
            rng: ChaCha8Rng::seed_from_u64(seed),
            corpus,
        }
    }

    /// The next input: a corpus entry (rarely as is) with 1 to 8 mutations.
    pub fn next_input(&mut self) -> Vec<u8> {
        let mut data = self.corpus[self.rng.random_range(0..self.corpus.len())].clone();
        if self.rng.random_ratio(1, 50) {
            return data;
        }
        let rounds = self.rng.random_range(1..=8);
        for _ in 0..rounds {
            self.mutate(&mut data);
        }
        data.truncate(MAX_INPUT_BYTES);
        data
    }

    /// Inserts `bytes` at a random position of `data` (its end included).
    fn insert(&mut self, data: &mut Vec<u8>, bytes: impl IntoIterator<Item = u8>) {
        let at = self.rng.random_range(0..=data.len());
        data.splice(at..at, bytes);
    }

    fn mutate(&mut self, data: &mut Vec<u8>) {
        match self.rng.random_range(0..9) {
            0 if !data.is_empty() => {
                let i = self.rng.random_range(0..data.len());
                data[i] ^= 1 << self.rng.random_range(0..8);
            }
            1 if !data.is_empty() => {
                let i = self.rng.random_range(0..data.len());
                data[i] = self.rng.random();
            }
            2 if !data.is_empty() => {
                let piece = random_piece(&mut self.rng, data.len(), 64);
                data.drain(piece);
            }
            3 if !data.is_empty() => {
                let chunk = data[random_piece(&mut self.rng, data.len(), 256)].to_vec();
                self.insert(data, chunk);
            }
            4 | 5 => {
                let token = TOKENS[self.rng.random_range(0..TOKENS.len())];
                self.insert(data, token.iter().copied());
            }
            6 => {
                // A long line of one byte.
                let byte = *b"x,\"9 \n"
                    .get(self.rng.random_range(0..6))
                    .unwrap_or(&b'x');
                let len = self.rng.random_range(100..4000);
                self.insert(data, std::iter::repeat_n(byte, len));
            }
            7 => {
                // Splice a piece of another corpus file.
                let other = &self.corpus[self.rng.random_range(0..self.corpus.len())];
                if !other.is_empty() {
                    let chunk = other[random_piece(&mut self.rng, other.len(), 512)].to_vec();
                    self.insert(data, chunk);
                }
            }
            _ if !data.is_empty() => {
                // Truncate.
                let at = self.rng.random_range(0..data.len());
                data.truncate(at);
            }
            _ => data.extend_from_slice(b"\"\n"),
        }
    }
}

/// A random piece of something `len` bytes long (`len > 0`): from a random start, 1 to `max`
/// bytes, never past the end.
fn random_piece(rng: &mut ChaCha8Rng, len: usize, max: usize) -> std::ops::Range<usize> {
    let start = rng.random_range(0..len);
    let n = rng.random_range(1..=(len - start).min(max));
    start..start + n
}

/// A crashing (or invariant-breaking, or slow) input.
#[derive(Debug, Clone)]
pub struct Crash {
    pub iteration: u64,
    pub input: Vec<u8>,
    pub message: String,
}

/// Crashing inputs kept per distinct message (all are counted in [`Stats::crash_count`]).
pub const KEPT_PER_MESSAGE: usize = 3;

/// What a run did.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    pub executions: u64,
    pub elapsed: Duration,
    /// Every crashing input counted; the first [`KEPT_PER_MESSAGE`] per message kept in `crashes`.
    pub crash_count: u64,
    pub crashes: Vec<Crash>,
    /// Inputs that took longer than [`SLOW_INPUT`] (reported, not counted as crashes).
    pub slow: Vec<Crash>,
}

/// An input slower than this is reported.
pub const SLOW_INPUT: Duration = Duration::from_secs(2);

/// Runs one input under `catch_unwind`; `Err` with the panic or invariant message.
pub fn run_caught(target: Target, input: &[u8]) -> Result<(), String> {
    caught(|| target.run(input))
}

/// Runs `f` under `catch_unwind`; a panic becomes `Err("panic: <message>")`.
pub fn caught(f: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => Err(payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .map(|m| format!("panic: {m}"))
            .unwrap_or_else(|| "panic".into())),
    }
}

/// Runs `iterations` mutated inputs of `corpus` on `target` from `seed`. The panic hook is
/// silenced for the run (restored after), so a crash costs one line, not a backtrace.
pub fn fuzz(
    target: Target,
    iterations: u64,
    seed: u64,
    corpus: Vec<Vec<u8>>,
    on_progress: impl FnMut(&Stats),
) -> Stats {
    fuzz_for(target, iterations, None, seed, corpus, on_progress)
}

/// [`fuzz`] that also stops once `budget` has passed (checked every 1,000 executions).
pub fn fuzz_for(
    target: Target,
    iterations: u64,
    budget: Option<Duration>,
    seed: u64,
    corpus: Vec<Vec<u8>>,
    mut on_progress: impl FnMut(&Stats),
) -> Stats {
    let mut mutator = Mutator::new(seed, corpus);
    let mut stats = Stats::default();
    let mut per_message: std::collections::HashMap<String, usize> = Default::default();
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let start = Instant::now();
    for iteration in 0..iterations {
        if iteration % 1000 == 0 && budget.is_some_and(|b| start.elapsed() >= b) {
            break;
        }
        let input = mutator.next_input();
        let began = Instant::now();
        let result = run_caught(target, &input);
        let took = began.elapsed();
        stats.executions += 1;
        if let Err(message) = result {
            stats.crash_count += 1;
            let kept = per_message.entry(message.clone()).or_default();
            if *kept < KEPT_PER_MESSAGE {
                *kept += 1;
                stats.crashes.push(Crash {
                    iteration,
                    input,
                    message,
                });
            }
        } else if took > SLOW_INPUT && stats.slow.len() < 100 {
            stats.slow.push(Crash {
                iteration,
                input,
                message: format!("took {took:?}"),
            });
        }
        if iteration % 100_000 == 99_999 {
            stats.elapsed = start.elapsed();
            on_progress(&stats);
        }
    }
    stats.elapsed = start.elapsed();
    std::panic::set_hook(hook);
    stats
}

/// The committed seed corpus of a target: every file under
/// `crates/imr-core/tests/data/hostile/<kind>` (CSV tables at the top level).
pub fn corpus(target: Target, hostile_dir: &Path) -> Vec<Vec<u8>> {
    let dir = match target {
        Target::Csv => hostile_dir.to_path_buf(),
        other => hostile_dir.join(other.name()),
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut out: Vec<Vec<u8>> = files.iter().filter_map(|p| std::fs::read(p).ok()).collect();
    if target == Target::Microdata {
        // A small synthetic deaths file in the ministry's layout, half of it infant deaths and a
        // fifth of it malformed (imr-microdata's generator; deterministic for its seed).
        let mut deaths = Vec::new();
        let options = imr_microdata::synth::SynthOptions {
            size: imr_microdata::synth::SynthSize::Rows(60),
            infant_share: 0.5,
            problem_share: 0.2,
            ..Default::default()
        };
        if imr_microdata::synth::write_deaths(&mut deaths, &options).is_ok() {
            out.push(deaths);
        }
    }
    if target == Target::Workbook {
        // DEIS's BIFF table (146 KB; inputs are cut to 64 KiB, so mutations reach its start).
        let dpa = hostile_dir.join(
            "../deis_dpa/Division-Politico-Administrativa-y-Servicios-de-Salud-Historico.xls",
        );
        if let Ok(bytes) = std::fs::read(dpa) {
            out.push(bytes);
        }
    }
    if target == Target::Analysis {
        // Saved analyses of every CSV seed, made here so that they follow the format.
        for bytes in corpus(Target::Csv, hostile_dir) {
            if let Ok(table) = imr_core::ingest::RawTable::from_bytes("seed.csv", &bytes) {
                let saved = imr_core::analysis::SavedAnalysis::new(
                    &[("seed.csv", &bytes, &table, &table.guessed_roles)],
                    "view=map&year=2019",
                    "2026-11-30",
                );
                out.push(saved.to_json().into_bytes());
            }
        }
    }
    out
}

/// The corpus directory in this repository.
pub fn hostile_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../imr-core/tests/data/hostile")
}
