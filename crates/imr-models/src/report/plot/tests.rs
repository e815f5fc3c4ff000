//! The coefficient plot's tick labels.

use super::frame::tick_label;
use imr_stats::Lang;

/// Spanish ticks take the decimal comma and the minus sign U+2212 of the page's Spanish numbers
/// (a newcomer found "-1", "-0,5" on the Spanish chart); English keeps the ASCII hyphen of its
/// snapshots.
#[test]
fn spanish_ticks_take_the_decimal_comma_and_the_minus_sign() {
    assert_eq!(tick_label(-0.5, Lang::Es), "−0,5");
    assert_eq!(tick_label(-1.0, Lang::Es), "−1");
    assert_eq!(tick_label(0.25, Lang::Es), "0,25");
    assert_eq!(tick_label(-0.5, Lang::En), "-0.5");
    assert_eq!(tick_label(0.0, Lang::Es), "0");
}
