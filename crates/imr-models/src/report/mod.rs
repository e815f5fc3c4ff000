//! Exports of fitted models as text: coefficient CSV, side-by-side tables (Markdown, LaTeX),
//! equivalent R and Stata code, and an SVG coefficient plot.
