//! What is wrong with a topology and where, as values: [`TopologyError`] is a [`Place`] (the
//! path from the document's top to the part at fault) and a [`Problem`], each written in either
//! language by `text`; `Display` is the English text.

use imr_stats::Lang;
use std::fmt;

/// What is wrong with a topology, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{place}: {problem}")]
pub struct TopologyError {
    /// Where: `arc 3, position 7`, `transform.scale`, `object "comunas", geometry 12, ring 0`…
    pub place: Place,
    /// What: the rule broken, with the values found.
    pub problem: Problem,
}

impl TopologyError {
    pub(super) fn new(place: Place, problem: Problem) -> Self {
        TopologyError { place, problem }
    }

    /// The error in `lang` (English is the `Display` text).
    pub fn text(&self, lang: Lang) -> String {
        format!("{}: {}", self.place.text(lang), self.problem.text(lang))
    }
}

/// A place in a topology: its steps from the top, written joined by commas.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Place(Vec<Step>);

/// One step of a [`Place`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// The document as a whole.
    Topology,
    /// Its `type` member.
    Type,
    /// `transform.scale` or `transform.translate`.
    Transform(&'static str),
    /// The arc of this index in `arcs`.
    Arc(usize),
    /// The position of this index in an arc.
    Position(usize),
    /// The object of this name in `objects`.
    Object(String),
    /// The child of this index in a GeometryCollection.
    Geometry(usize),
    /// The polygon of this index in a MultiPolygon.
    Polygon(usize),
    /// The ring (of a polygon) or line (of a MultiLineString) of this index.
    Path(PathKind, usize),
    /// The point of this index in a MultiPoint.
    Point(usize),
    /// The arc reference of this index in a ring or line.
    ArcReference(usize),
}

/// A list of arc indexes: a polygon's ring or a MultiLineString's line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathKind {
    Ring,
    Line,
}

impl PathKind {
    /// The word for one and for several, in `lang`.
    fn words(self, lang: Lang) -> [&'static str; 2] {
        match (self, lang) {
            (PathKind::Ring, Lang::En) => ["ring", "rings"],
            (PathKind::Ring, Lang::Es) => ["anillo", "anillos"],
            (PathKind::Line, Lang::En) => ["line", "lines"],
            (PathKind::Line, Lang::Es) => ["línea", "líneas"],
        }
    }

    fn word(self, lang: Lang) -> &'static str {
        self.words(lang)[0]
    }

    fn plural(self, lang: Lang) -> &'static str {
        self.words(lang)[1]
    }
}

impl Place {
    /// The place of one step from the top.
    pub fn at(step: Step) -> Self {
        Place(vec![step])
    }

    /// This place followed by `step`.
    pub fn then(&self, step: Step) -> Self {
        let mut steps = self.0.clone();
        steps.push(step);
        Place(steps)
    }

    pub fn steps(&self) -> &[Step] {
        &self.0
    }

    /// The place in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        let steps: Vec<String> = self.0.iter().map(|s| s.text(lang)).collect();
        steps.join(", ")
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

impl Step {
    fn text(&self, lang: Lang) -> String {
        let es = lang == Lang::Es;
        let (en_word, es_word, index) = match self {
            Step::Topology => return lang.pick("la topología", "the topology").into(),
            Step::Type => return "type".into(),
            Step::Transform(member) => return format!("transform.{member}"),
            Step::Object(name) => {
                return format!("{} {name:?}", lang.pick("objeto", "object"));
            }
            Step::Path(kind, k) => return format!("{} {k}", kind.word(lang)),
            Step::Arc(k) => ("arc", "arco", k),
            Step::Position(k) => ("position", "posición", k),
            Step::Geometry(k) => ("geometry", "geometría", k),
            Step::Polygon(k) => ("polygon", "polígono", k),
            Step::Point(k) => ("point", "punto", k),
            Step::ArcReference(k) => ("arc reference", "referencia a arco", k),
        };
        format!("{} {index}", if es { es_word } else { en_word })
    }
}

/// The JSON kind of a value found where another was expected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonKind {
    Null,
    Boolean,
    Number,
    String,
    List,
    Object,
}

impl JsonKind {
    pub fn of(value: &serde_json::Value) -> Self {
        use serde_json::Value;
        match value {
            Value::Null => JsonKind::Null,
            Value::Bool(_) => JsonKind::Boolean,
            Value::Number(_) => JsonKind::Number,
            Value::String(_) => JsonKind::String,
            Value::Array(_) => JsonKind::List,
            Value::Object(_) => JsonKind::Object,
        }
    }

    fn text(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (JsonKind::Null, _) => "null",
            (JsonKind::Boolean, Lang::En) => "a boolean",
            (JsonKind::Boolean, Lang::Es) => "un booleano",
            (JsonKind::Number, Lang::En) => "a number",
            (JsonKind::Number, Lang::Es) => "un número",
            (JsonKind::String, Lang::En) => "a string",
            (JsonKind::String, Lang::Es) => "un texto",
            (JsonKind::List, Lang::En) => "a list",
            (JsonKind::List, Lang::Es) => "una lista",
            (JsonKind::Object, Lang::En) => "an object",
            (JsonKind::Object, Lang::Es) => "un objeto",
        }
    }
}

/// What a member should hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    /// One ring or line: `[0, 1, ~2]`.
    ArcIndexes,
    /// A Polygon's rings or a MultiLineString's lines, each a list of arc indexes.
    Paths(PathKind),
    /// A MultiPolygon's `arcs`: polygons, each a list of rings.
    Polygons,
    /// A MultiPoint's `coordinates`.
    Positions,
    /// A Point's `coordinates` (or one of a MultiPoint's).
    Position,
}

impl Expected {
    fn text(self, lang: Lang) -> String {
        match (self, lang) {
            (Expected::ArcIndexes, Lang::En) => "a list of arc indexes".into(),
            (Expected::ArcIndexes, Lang::Es) => "una lista de índices de arcos".into(),
            (Expected::Paths(kind), Lang::En) => {
                format!("a list of {} (lists of arc indexes)", kind.plural(lang))
            }
            (Expected::Paths(kind), Lang::Es) => {
                format!(
                    "una lista de {} (listas de índices de arcos)",
                    kind.plural(lang)
                )
            }
            (Expected::Polygons, Lang::En) => "a list of polygons (lists of rings)".into(),
            (Expected::Polygons, Lang::Es) => "una lista de polígonos (listas de anillos)".into(),
            (Expected::Positions, Lang::En) => "a list of positions".into(),
            (Expected::Positions, Lang::Es) => "una lista de posiciones".into(),
            (Expected::Position, Lang::En) => "a position (a list of numbers)".into(),
            (Expected::Position, Lang::Es) => "una posición (una lista de números)".into(),
        }
    }

    /// How the `arcs` a geometry lacks are described: only the outer list, without its parts.
    fn arcs_text(self, lang: Lang) -> String {
        match (self, lang) {
            (Expected::Paths(kind), Lang::En) => format!("a list of {}", kind.plural(lang)),
            (Expected::Paths(kind), Lang::Es) => format!("una lista de {}", kind.plural(lang)),
            (Expected::Polygons, Lang::En) => "a list of polygons".into(),
            (Expected::Polygons, Lang::Es) => "una lista de polígonos".into(),
            _ => self.text(lang),
        }
    }
}

/// The rule a topology breaks, with the values found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// The document is not JSON of the TopoJSON shape (serde's detail, with line and column).
    NotTopoJson(String),
    /// `type` is not `"Topology"`.
    NotTopology { found: String },
    /// A transform member holds a number that is not finite.
    TransformNotFinite,
    /// A transform member does not hold two numbers.
    TransformLength { found: usize },
    /// A position with fewer than two numbers.
    ShortPosition { found: usize },
    /// A geometry of this type has no `arcs` member.
    MissingArcs {
        geometry: Option<String>,
        expected: Expected,
    },
    /// A Point or MultiPoint has no `coordinates`.
    MissingCoordinates { geometry: &'static str },
    /// A `type` that is not a geometry type.
    UnknownType { found: String },
    /// A member of the wrong JSON kind.
    Wrong { expected: Expected, found: JsonKind },
    /// A position member that is not a number.
    NotANumber { member: usize, found: JsonKind },
    /// An arc index that is not an integer (as written in the file).
    ArcIndexNotInteger { found: String },
    /// An arc index beyond the topology's arcs.
    NoSuchArc { index: i64, arc_count: usize },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

impl Problem {
    /// The problem in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        use Problem::*;
        let es = lang == Lang::Es;
        match self {
            NotTopoJson(detail) if es => format!("no es TopoJSON válido: {detail}"),
            NotTopoJson(detail) => format!("not valid TopoJSON: {detail}"),
            NotTopology { found } if es => {
                format!("se esperaba \"Topology\", se encontró {found:?}")
            }
            NotTopology { found } => format!("expected \"Topology\", found {found:?}"),
            TransformNotFinite if es => "los números deben ser finitos".into(),
            TransformNotFinite => "the numbers must be finite".into(),
            TransformLength { found } if es => {
                format!("necesita exactamente 2 números (x, y), tiene {found}")
            }
            TransformLength { found } => {
                format!("needs exactly 2 numbers (x, y), found {found}")
            }
            ShortPosition { found } if es => {
                format!("una posición necesita al menos 2 números (x, y), tiene {found}")
            }
            ShortPosition { found } => {
                format!("a position needs at least 2 numbers (x, y), found {found}")
            }
            MissingArcs { geometry, expected } if es => format!(
                "{} necesita un miembro `arcs` ({})",
                geometry
                    .as_deref()
                    .map_or("una geometría".to_string(), |g| format!("un {g}")),
                expected.arcs_text(lang)
            ),
            MissingArcs { geometry, expected } => format!(
                "a {} needs an `arcs` member ({})",
                geometry.as_deref().unwrap_or("geometry"),
                expected.arcs_text(lang)
            ),
            MissingCoordinates { geometry } if es => {
                format!("un {geometry} necesita `coordinates`")
            }
            MissingCoordinates { geometry } => format!("a {geometry} needs `coordinates`"),
            UnknownType { found } if es => format!(
                "tipo de geometría desconocido {found:?} (se esperaba Point, MultiPoint, \
                 LineString, MultiLineString, Polygon, MultiPolygon, GeometryCollection o null)"
            ),
            UnknownType { found } => format!(
                "unknown geometry type {found:?} (expected Point, MultiPoint, LineString, \
                 MultiLineString, Polygon, MultiPolygon, GeometryCollection or null)"
            ),
            Wrong { expected, found } if es => format!(
                "se esperaba {}, se encontró {}",
                expected.text(lang),
                found.text(lang)
            ),
            Wrong { expected, found } => format!(
                "expected {}, found {}",
                expected.text(lang),
                found.text(lang)
            ),
            NotANumber { member, found } if es => format!(
                "el miembro {member} de la posición es {}, no un número",
                found.text(lang)
            ),
            NotANumber { member, found } => format!(
                "position member {member} is {}, not a number",
                found.text(lang)
            ),
            ArcIndexNotInteger { found } if es => {
                format!("un índice de arco debe ser un entero, se encontró {found}")
            }
            ArcIndexNotInteger { found } => {
                format!("an arc index must be an integer, found {found}")
            }
            NoSuchArc { index, arc_count } => no_such_arc(*index, *arc_count, lang),
        }
    }
}

/// "arc index 7 (arc 7) does not exist: the topology has 2 arcs (indexes 0 to 1, or -1 to -2
/// reversed)"; `!index` names the arc a negative index reverses (`-i - 1` without overflow).
fn no_such_arc(index: i64, arc_count: usize, lang: Lang) -> String {
    let es = lang == Lang::Es;
    let which = match (index < 0, es) {
        (true, false) => format!("arc {} reversed", (!index) as u64),
        (true, true) => format!("arco {} invertido", (!index) as u64),
        (false, false) => format!("arc {index}"),
        (false, true) => format!("arco {index}"),
    };
    let range = match (arc_count, es) {
        (0, _) => String::new(),
        (n, false) => format!(" (indexes 0 to {}, or -1 to -{n} reversed)", n - 1),
        (n, true) => format!(" (índices 0 a {}, o -1 a -{n} invertidos)", n - 1),
    };
    let arcs = match (arc_count, es) {
        (1, false) => "arc",
        (_, false) => "arcs",
        (1, true) => "arco",
        (_, true) => "arcos",
    };
    if es {
        format!("el índice de arco {index} ({which}) no existe: la topología tiene {arc_count} {arcs}{range}")
    } else {
        format!("arc index {index} ({which}) does not exist: the topology has {arc_count} {arcs}{range}")
    }
}

// Its texts for people are [`imr_stats::Words`], checked as every engine value's are.
imr_stats::words_by_text!(TopologyError, Place, Step, Problem);
