//! The room a chart's text takes, estimated without a font at hand: its legends and notes
//! wrapped to the width the chart is drawn at (a phone's 320 px chart keeps them inside it).

use super::wrap;

/// Width of a character of regular sans-serif text, in em: DejaVu Sans, Linux's default and the
/// widest common one, averages under 0.6 em a letter or digit (the provenance line is wrapped by
/// the same 6 px a character at 10 px).
pub(crate) const CHAR_EM: f64 = 0.6;

/// `text` on lines at most `room` pixels wide at `font` pixels, broken at spaces; the text as it
/// is, on one line, when it fits.
pub(crate) fn wrap_to(text: &str, room: f64, font: f64) -> Vec<String> {
    let chars = ((room / (CHAR_EM * font)) as usize).max(10);
    if text.chars().count() <= chars {
        return vec![text.to_string()];
    }
    wrap(text, chars)
}

/// The room a chart drawn `width` wide, of its own `default` width, gives a text line of `room`
/// pixels: unbounded at its default width, so that a chart drawn as it always was keeps its
/// texts on the lines (and its file on the bytes) it always had.
pub(crate) fn room_in(width: f64, default: f64, room: f64) -> f64 {
    if width < default {
        room
    } else {
        f64::INFINITY
    }
}

/// What the tests read of a drawn chart: its width, its text lines' estimated extents and its
/// x-axis tick labels.
#[cfg(test)]
pub(crate) mod measure {
    use super::CHAR_EM;

    /// The value of attribute `name` in the tag `tag`.
    fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        Some(&tag[at..at + tag[at..].find('"')?])
    }

    /// The chart's `width`.
    pub(crate) fn svg_width(svg: &str) -> f64 {
        attr(svg, "width").and_then(|w| w.parse().ok()).unwrap()
    }

    /// Each horizontal `<text>` line: its estimated left and right edges (0.6 em a character,
    /// 0.64 em bold), its font size and its text; rotated text (the y axis' label) left out.
    pub(crate) fn text_lines(svg: &str) -> Vec<(f64, f64, f64, String)> {
        svg.split("<text")
            .skip(1)
            .filter_map(|t| {
                let tag = &t[..t.find('>')?];
                if tag.contains("transform=") {
                    return None;
                }
                let body = &t[t.find('>')? + 1..t.find("</text>")?];
                let text = body
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&quot;", "\"")
                    .replace("&amp;", "&");
                let x: f64 = attr(tag, "x")?.parse().ok()?;
                let font: f64 = attr(tag, "font-size")?.parse().ok()?;
                let em = if tag.contains("bold") { 0.64 } else { CHAR_EM };
                let w = text.chars().count() as f64 * font * em;
                let left = match attr(tag, "text-anchor") {
                    Some("middle") => x - w / 2.0,
                    Some("end") => x - w,
                    _ => x,
                };
                Some((left, left + w, font, text))
            })
            .collect()
    }

    /// The x-axis tick labels (11 px, in `<g class="x-axis">`) of each x axis, left to right.
    pub(crate) fn x_tick_labels(svg: &str) -> Vec<Vec<(f64, f64, String)>> {
        svg.split("<g class=\"x-axis\">")
            .skip(1)
            .map(|axis| {
                let axis = &axis[..axis.find("</g>").unwrap()];
                text_lines(axis)
                    .into_iter()
                    .filter(|(_, _, font, _)| *font == 11.0)
                    .map(|(l, r, _, t)| (l, r, t))
                    .collect()
            })
            .collect()
    }

    /// What is wrong with a chart drawn `width` wide: a text line past its edges, two x-axis
    /// labels on each other; empty when nothing.
    pub(crate) fn faults(svg: &str, width: f64) -> Vec<String> {
        let mut faults = Vec::new();
        if svg_width(svg) != width {
            faults.push(format!("drawn {} wide, not {width}", svg_width(svg)));
        }
        for (left, right, _, text) in text_lines(svg) {
            if left < 0.0 || right > width {
                faults.push(format!("{text:?} from {left:.0} to {right:.0}"));
            }
        }
        for labels in x_tick_labels(svg) {
            for pair in labels.windows(2) {
                if pair[1].0 < pair[0].1 {
                    faults.push(format!("{:?} on {:?}", pair[1].2, pair[0].2));
                }
            }
        }
        faults
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_that_fits_is_kept_as_it_is_and_a_longer_one_wraps_within_the_room() {
        assert_eq!(wrap_to("a  b", 100.0, 10.0), vec!["a  b"]);
        let long = "2022 es una copia de 2021: se dibuja como tal y no cuenta en la tendencia.";
        let lines = wrap_to(long, 200.0, 10.0);
        assert!(lines.len() > 1);
        assert!(lines
            .iter()
            .all(|l| l.chars().count() as f64 * 6.0 <= 200.0));
    }
}

#[cfg(test)]
#[path = "narrow_tests.rs"]
mod narrow_tests;
