//! [`YearSpan`]: the years the Findings cover, as `imr findings --years` and the link take them.

/// A span of years, both ends included: `2001-2011` as typed (`imr findings --years`, the link's
/// `findings-years`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct YearSpan {
    pub first: i64,
    pub last: i64,
}

impl YearSpan {
    /// Whether `year` is in the span.
    pub fn contains(&self, year: i64) -> bool {
        (self.first..=self.last).contains(&year)
    }
}

impl std::fmt::Display for YearSpan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.first, self.last)
    }
}

impl std::str::FromStr for YearSpan {
    type Err = String;

    /// `FIRST-LAST`, two years ([`imr_core::ingest::parse_year`]) with FIRST ≤ LAST.
    fn from_str(text: &str) -> Result<YearSpan, String> {
        let parsed = text.split_once('-').and_then(|(a, b)| {
            Some((
                imr_core::ingest::parse_year(a.trim())?,
                imr_core::ingest::parse_year(b.trim())?,
            ))
        });
        match parsed {
            Some((first, last)) if first <= last => Ok(YearSpan { first, last }),
            Some(_) => Err(format!("{text:?}: the first year is after the last")),
            None => Err(format!(
                "{text:?} is not a span of years: write FIRST-LAST, e.g. 2001-2011"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_of_years_is_read_as_written_and_refused_otherwise() {
        let span: YearSpan = "2001-2011".parse().unwrap();
        assert_eq!(
            span,
            YearSpan {
                first: 2001,
                last: 2011
            }
        );
        assert_eq!(span.to_string(), "2001-2011");
        assert!(span.contains(2001) && span.contains(2011) && !span.contains(2012));
        assert_eq!("2019-2019".parse::<YearSpan>().unwrap().first, 2019);
        for bad in ["2011-2001", "2001", "2001-", "a-b", "2001–2011", ""] {
            assert!(bad.parse::<YearSpan>().is_err(), "{bad}");
        }
    }
}
