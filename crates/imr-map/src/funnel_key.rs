//! The key of the funnel plot's colours ([`key`]), laid out to the plot's width ([`key_rows`]),
//! and the colour of a point by where it falls ([`fill_of`]).

use std::fmt::Write;

use crate::funnel::FunnelPosition;
use crate::svg::{escape, num};
use imr_stats::Lang;

/// The key's rows: each entry's position, words and circle's x.
pub(crate) type KeyRows = Vec<Vec<(FunnelPosition, &'static str, f64)>>;

/// A point's colour by where it falls.
pub(crate) fn fill_of(position: FunnelPosition) -> &'static str {
    match position {
        FunnelPosition::Within => "#9e9e9e",
        FunnelPosition::Above95 => "#fc8d59",
        FunnelPosition::Above998 => "#d7301f",
        FunnelPosition::Below95 => "#6baed6",
        FunnelPosition::Below998 => "#2171b5",
    }
}

/// The key of the points' colours laid out on a plot `w` wide: each entry (its position, its
/// words and its circle's x), on one row at the plot's own width, on as many as it takes when
/// narrower (about 5.6 px a character at 10 px, and a gap).
pub(crate) fn key_rows(w: f64, lang: Lang) -> KeyRows {
    let entries = [
        (
            FunnelPosition::Above998,
            lang.pick("sobre el 99,8%", "above 99.8%"),
        ),
        (
            FunnelPosition::Above95,
            lang.pick("sobre el 95%", "above 95%"),
        ),
        (
            FunnelPosition::Within,
            lang.pick("dentro de los límites", "within the limits"),
        ),
        (
            FunnelPosition::Below95,
            lang.pick("bajo el 95%", "below 95%"),
        ),
        (
            FunnelPosition::Below998,
            lang.pick("bajo el 99,8%", "below 99.8%"),
        ),
    ];
    let mut rows = vec![Vec::new()];
    let mut x = 74.0;
    for (position, words) in entries {
        let width = 7.0 + 5.6 * words.chars().count() as f64;
        if x + width > w - 10.0 && rows.last().is_some_and(|r| !r.is_empty()) {
            rows.push(Vec::new());
            x = 74.0;
        }
        if let Some(row) = rows.last_mut() {
            row.push((position, words, x));
        }
        x += width + 16.0;
    }
    rows
}

/// The key of the points' colours, its first row at `y` and the next 15 px apart: what each
/// colour says of a commune.
pub(crate) fn key(s: &mut String, rows: &KeyRows, y: f64, lang: Lang) {
    let _ = write!(
        s,
        "<g class=\"funnel-key\" font-size=\"10\" fill=\"#333333\"><text x=\"20\" y=\"{}\">{}</text>",
        num(y),
        lang.pick("Comunas:", "Communes:")
    );
    for (k, row) in rows.iter().enumerate() {
        let y = y + 15.0 * k as f64;
        for &(position, words, x) in row {
            let _ = write!(
                s,
                "<circle cx=\"{}\" cy=\"{}\" r=\"3.5\" fill=\"{}\"/><text x=\"{}\" y=\"{}\">{}</text>",
                num(x),
                num(y - 3.5),
                fill_of(position),
                num(x + 7.0),
                num(y),
                escape(words)
            );
        }
    }
    s.push_str("</g>\n");
}
