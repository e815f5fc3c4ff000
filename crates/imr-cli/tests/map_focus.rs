//! `imr map` of data that cover part of the country (issue 42.8): the SVG draws the communes
//! with data on a page of their own, with the communes without data that lie among them
//! (hatched "no data", counted, never white holes), and says so; data of the whole country keep
//! the national layout (tests/map.rs, snapshots).

mod common;
use common::succeeds;

#[test]
fn a_map_of_five_communes_draws_them_alone_and_says_so() {
    let dir = std::env::temp_dir().join(format!("imr-map-focus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("concepcion.csv");
    let codes = ["08101", "08102", "08103", "08108", "08110"];
    let mut text = String::from("codigo,anio,nacidos_vivos,defunciones\n");
    for (k, code) in codes.iter().enumerate() {
        text += &format!("{code},2021,{},{}\n", 1500 + 100 * k, 9 + k);
    }
    std::fs::write(&csv, text).unwrap();
    for (lang, note) in [
        (
            "en",
            "Only the 5 communes with data are shown (of 345) with the 2 communes without data between them.",
        ),
        (
            "es",
            "Se muestran solo las 5 comunas con datos (de 345) y las 2 comunas sin datos que quedan entre ellas.",
        ),
    ] {
        let out = dir.join(format!("focus_{lang}.svg"));
        succeeds(&[
            "map",
            csv.to_str().unwrap(),
            "--year",
            "2021",
            "--lang",
            lang,
            "--out",
            out.to_str().unwrap(),
        ]);
        let svg = std::fs::read_to_string(&out).unwrap();
        let mut drawn: Vec<&str> = svg
            .match_indices("<path data-code=\"")
            .map(|(i, m)| &svg[i + m.len()..i + m.len() + 5])
            .collect();
        drawn.sort_unstable();
        // San Pedro de la Paz and Hualpén lie among them, without data.
        assert_eq!(
            drawn,
            ["08101", "08102", "08103", "08107", "08108", "08110", "08112"],
            "{lang}"
        );
        assert!(svg.contains(note), "{lang}");
        assert!(svg.contains("viewBox=\"0 0 800 800\""), "{lang}");
        let none = svg.split("data-legend-class=\"none\"").nth(1).unwrap();
        assert!(none[..none.find("</g>").unwrap()].contains("(2)"), "{lang}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
