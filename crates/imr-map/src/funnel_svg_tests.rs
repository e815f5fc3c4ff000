//! Tests of the funnel plot drawn at the width it is shown at.

use super::*;
use crate::funnel::funnel;

/// 60 communes from 3 to 30,000 births, rates about 7 per 1,000 with a few far off.
fn sample() -> Funnel {
    let births: Vec<Option<f64>> = (0..60)
        .map(|k| Some((3.0 * 1.17f64.powi(k)).round()))
        .collect();
    let deaths: Vec<Option<f64>> = (births.iter().enumerate())
        .map(|(k, b)| {
            let b = b.unwrap_or(0.0);
            let rate = match k % 13 {
                0 => 0.03,
                5 => 0.0,
                _ => 0.007,
            };
            Some((b * rate).round())
        })
        .collect();
    funnel(&deaths, &births, 60).unwrap()
}

fn text(lang: Lang, width: Option<f64>) -> FunnelText {
    FunnelText {
        title: lang
            .pick(
                "Mortalidad infantil según nacidos vivos",
                "Infant mortality against births",
            )
            .into(),
        year: lang.pick("2022 (copia de 2021)", "2022 (copy of 2021)").into(),
        source: vec![
            lang.pick(
                "Datos: Departamento de Estadísticas e Información de Salud (DEIS), Ministerio de Salud; Instituto Nacional de Estadísticas (INE)",
                "Data: Department of Health Statistics and Information (DEIS), Ministry of Health; National Statistics Institute (INE)",
            )
            .into(),
            lang.pick(
                "Límites: chilemapas (paquete de R), según la División Político-Administrativa del INE · 6 de diciembre de 2026",
                "Boundaries: chilemapas (R package), after INE's Political-Administrative Division · 6 December 2026",
            )
            .into(),
        ],
        lang,
        metadata: None,
        width,
    }
}

/// A text's estimated box (x, top, width, height) and its font size: about 0.56 of the font a
/// character (0.62 bold), placed by its anchor; rotated texts (the y axis' label) left out.
fn text_boxes(svg: &str) -> Vec<(String, [f64; 4], f64)> {
    let attr = |tag: &str, name: &str| -> Option<String> {
        let key = format!(" {name}=\"");
        let at = tag.find(&key)? + key.len();
        Some(tag[at..].split('"').next()?.to_string())
    };
    let mut group_font = 0.0;
    let mut boxes = Vec::new();
    for (i, _) in svg.match_indices('<') {
        let rest = &svg[i..];
        let tag = &rest[..rest.find('>').unwrap_or(rest.len())];
        if tag.starts_with("<g") {
            if let Some(f) = attr(tag, "font-size") {
                group_font = f.parse().unwrap();
            }
        }
        if !tag.starts_with("<text") || tag.contains("transform") {
            continue;
        }
        let content = &rest[tag.len() + 1..rest.find("</text>").unwrap()];
        let font: f64 = attr(tag, "font-size").map_or(group_font, |f| f.parse().unwrap());
        let per_char = if tag.contains("bold") { 0.62 } else { 0.56 };
        let w = content.chars().count() as f64 * font * per_char;
        let x: f64 = attr(tag, "x").unwrap().parse().unwrap();
        let y: f64 = attr(tag, "y").unwrap().parse().unwrap();
        let left = match attr(tag, "text-anchor").as_deref() {
            Some("end") => x - w,
            Some("middle") => x - w / 2.0,
            _ => x,
        };
        boxes.push((content.to_string(), [left, y - 0.8 * font, w, font], font));
    }
    boxes
}

/// Drawn 320 px wide (a small phone), in both languages: the plot is 320 px wide, every text is
/// at least 10 px, inside the plot's width, and no two texts overlap.
#[test]
fn at_320_px_every_text_is_legible_inside_the_plot_and_none_overlaps() {
    let f = sample();
    let codes: Vec<String> = (0..60).map(|k| format!("{:05}", 13101 + k)).collect();
    for lang in [Lang::Es, Lang::En] {
        let svg = funnel_svg(&f, &codes, &codes, &text(lang, Some(320.0)));
        assert!(svg.contains("width=\"320\""), "{svg}");
        let boxes = text_boxes(&svg);
        assert!(boxes.len() > 15, "{boxes:?}");
        for (t, b, font) in &boxes {
            assert!(*font >= 10.0, "{t}: {font} px");
            assert!(
                b[0] >= 0.0 && b[0] + b[2] <= 320.0,
                "{t} {b:?} passes the edge"
            );
        }
        for (k, (t, a, _)) in boxes.iter().enumerate() {
            for (u, b, _) in &boxes[k + 1..] {
                let meet = a[0] < b[0] + b[2]
                    && b[0] < a[0] + a[2]
                    && a[1] < b[1] + b[3]
                    && b[1] < a[1] + a[3];
                assert!(!meet, "{lang:?}: «{t}» {a:?} overlaps «{u}» {b:?}");
            }
        }
    }
}

/// At its own width, or asked for it or more, the plot is the one every export writes; a width
/// under 300 px draws it 300 px wide.
#[test]
fn its_own_width_draws_the_same_bytes_and_no_width_is_under_300_px() {
    let f = sample();
    let codes: Vec<String> = (0..60).map(|k| format!("{:05}", 13101 + k)).collect();
    let own = funnel_svg(&f, &codes, &codes, &text(Lang::Es, None));
    assert!(own.contains("width=\"640\""));
    for width in [640.0, 760.0] {
        assert_eq!(
            funnel_svg(&f, &codes, &codes, &text(Lang::Es, Some(width))),
            own
        );
    }
    let narrow = funnel_svg(&f, &codes, &codes, &text(Lang::Es, Some(200.0)));
    assert!(narrow.contains("width=\"300\""));
}
