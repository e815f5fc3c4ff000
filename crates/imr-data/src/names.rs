//! Column names as people write them, reduced to one comparable form.

/// Lower-cases, strips accents (á→a, ñ→n) and turns every run of other characters into `_`, so
/// that "Año", "AÑO" and "año " all read `ano`, and "Código Comuna" reads `codigo_comuna`.
pub fn normalise_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.trim().chars() {
        let base = match c {
            'á' | 'à' | 'ä' | 'â' | 'Á' | 'À' | 'Ä' | 'Â' => 'a',
            'é' | 'è' | 'ë' | 'ê' | 'É' | 'È' | 'Ë' | 'Ê' => 'e',
            'í' | 'ì' | 'ï' | 'î' | 'Í' | 'Ì' | 'Ï' | 'Î' => 'i',
            'ó' | 'ò' | 'ö' | 'ô' | 'Ó' | 'Ò' | 'Ö' | 'Ô' => 'o',
            'ú' | 'ù' | 'ü' | 'û' | 'Ú' | 'Ù' | 'Ü' | 'Û' => 'u',
            'ñ' | 'Ñ' => 'n',
            c if c.is_ascii_alphanumeric() => c.to_ascii_lowercase(),
            _ => '_',
        };
        if base == '_' && (out.is_empty() || out.ends_with('_')) {
            continue;
        }
        out.push(base);
    }
    while out.ends_with('_') {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::normalise_name;

    #[test]
    fn accents_case_and_separators_fold_to_one_form() {
        assert_eq!(normalise_name("Año"), "ano");
        assert_eq!(normalise_name("AÑO "), "ano");
        assert_eq!(normalise_name("Código Comuna"), "codigo_comuna");
        assert_eq!(normalise_name("  --tasa (‰)-- "), "tasa");
        assert_eq!(normalise_name("___"), "");
    }
}
