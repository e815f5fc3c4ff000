//! Tests of report.rs.

use super::Reason;
use imr_lang::Lang;

#[test]
fn every_reason_goes_out_as_its_label_reads_back_and_has_a_spanish_text() {
    for reason in Reason::ALL {
        let json = serde_json::to_string(&reason).unwrap();
        assert_eq!(json, format!("\"{}\"", reason.label()));
        assert_eq!(serde_json::from_str::<Reason>(&json).unwrap(), reason);
        assert_ne!(reason.text(Lang::Es), reason.text(Lang::En));
        assert_eq!(reason.text(Lang::En), reason.describe());
    }
    assert!(serde_json::from_str::<Reason>("\"no_such_reason\"").is_err());
}
