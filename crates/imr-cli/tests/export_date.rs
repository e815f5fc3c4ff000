//! `SOURCE_DATE_EPOCH` (reproducible-builds.org) fixes the date line of every export, so that an
//! analyst can rebuild a file next year and diff it byte for byte; unset or empty, exports carry
//! today's date in UTC; a value that is not whole seconds is refused (exit 2) rather than guessed.

mod common;
use common::{imr_env_in, FIXED_DATE, FIXED_EPOCH};

const CRATE_DIR: &str = env!("CARGO_MANIFEST_DIR");
const RATES: [&str; 4] = ["rates", "tests/data/rates_latin1.csv", "--format", "csv"];

fn stdout_with(args: &[&str], env: &[(&str, &str)]) -> String {
    let out = imr_env_in(CRATE_DIR, args, env);
    assert!(
        out.status.success(),
        "imr {args:?} {env:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Today in UTC as the exports write it: imr's own function (no date is fixed in this
/// process, so it reads the clock).
fn today() -> String {
    imr_cli::commands::input::today()
}

#[test]
fn the_epoch_dates_every_kind_of_export() {
    // 1764547200 s = 2025-12-01 00:00:00 UTC (`date -u -d @1764547200`).
    assert_eq!(FIXED_EPOCH.1, "1764547200");
    let csv = stdout_with(&RATES, &[FIXED_EPOCH]);
    assert_eq!(csv.lines().nth(2), Some("# Generated: 2025-12-01"));

    let svg = stdout_with(
        &[
            "inequality",
            "tests/data/inequality_communes.csv",
            "--bootstrap",
            "0",
            "--format",
            "svg-trend",
        ],
        &[FIXED_EPOCH],
    );
    assert!(svg.contains(&format!(" · {FIXED_DATE}</text>")), "{svg}");

    let dir = std::env::temp_dir().join(format!("imr-export-date-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("map.svg");
    stdout_with(
        &common::cells_2019(&["--out", out.to_str().unwrap()]),
        &[FIXED_EPOCH],
    );
    let map = std::fs::read_to_string(&out).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(map.contains(&format!("{FIXED_DATE}</metadata>")), "{map}");
    if today() != FIXED_DATE {
        assert!(!map.contains(&today()), "only the fixed date: {map}");
    }
}

#[test]
fn the_last_second_of_a_day_and_times_before_1970_are_their_utc_dates() {
    for (seconds, date) in [
        ("1764633599", "2025-12-01"), // 23:59:59 UTC
        ("1764633600", "2025-12-02"),
        ("0", "1970-01-01"),
        ("-1", "1969-12-31"),
        ("951782400", "2000-02-29"), // a leap day of a century leap year
    ] {
        let csv = stdout_with(&RATES, &[("SOURCE_DATE_EPOCH", seconds)]);
        assert_eq!(
            csv.lines().nth(2),
            Some(format!("# Generated: {date}").as_str()),
            "{seconds}"
        );
    }
}

#[test]
fn unset_or_empty_the_exports_carry_todays_date() {
    for env in [&[][..], &[("SOURCE_DATE_EPOCH", "")][..]] {
        let before = today();
        let csv = stdout_with(&RATES, env);
        let after = today();
        let date = csv.lines().nth(2).unwrap().strip_prefix("# Generated: ");
        // A run that crosses midnight UTC carries either day.
        assert!(
            date == Some(before.as_str()) || date == Some(after.as_str()),
            "{env:?}: {date:?}, today {before}"
        );
    }
}

#[test]
fn a_value_that_is_not_whole_seconds_is_a_usage_error_naming_the_variable() {
    for bad in [
        "1.5",
        "yesterday",
        " 1764547200",
        "1764547200 ",
        "+5",
        "-",
        "1e9",
    ] {
        let out = imr_env_in(CRATE_DIR, &RATES, &[("SOURCE_DATE_EPOCH", bad)]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {stderr}");
        assert!(
            stderr.contains(&format!("SOURCE_DATE_EPOCH={bad} is not a date"))
                && stderr.contains("date +%s"),
            "{bad:?}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{bad:?}: nothing is written");
    }
}
