#!/bin/sh
# The outputs of `imr` (first recorded before the requests, commit dcb7ece; re-recorded when
# imr took the page's floating-point functions, src/same_math.rs; map.json re-recorded when queen
# contiguity became the default and the summary gained the analytical and EB Moran's I, and when
# it gained `flagged_left_out`, the communes left out as flagged; inequality_trend.svg and map.svg
# when Spanish figures took the decimal comma and thousands point, issue 42; inequality.json and
# inequality_trend.svg when the P90/P10 ratio was kept at 1 or above and the trend chart drew the
# bias-corrected values inside their band; map.svg and inequality_trend.svg when the engine's
# version left their visible source line for their metadata; inequality_trend.svg when its
# subtitle left the bootstrap's seed for its description, and when it stopped sending the reader
# to a table the SVG does not hold; map.svg when its LISA legend said what its classes are;
# inequality_trend.svg when a Spanish figure's metadata named the engine in Spanish; inequality.json
# when counts and order statistics stopped being flagged for a bootstrap bias, issue 42; rates.csv
# when it gained `copy_of_year`, the year a copied year repeats, issue 42.4, and
# `deaths_reconstructed`, and `flagged_implausible`, a row the plausibility rules flag;
# inequality.json when a measure without an interval said so once, "has no interval in 2018",
# and when the order statistics and counts stopped showing a bootstrap interval (their notes of
# intervals "not defined in 2 of 40 replicates" went with them; the JSON's `ci` keeps them)),
# kept so that tests/snapshots.rs can
# check that the request-based commands print the same bytes. Run from crates/imr-cli with the
# imr binary to record as $1: sh tests/data/snapshots/make.sh /path/to/imr
# Dates are written as <DATE> (the runs are dated 2025-12-01 by SOURCE_DATE_EPOCH, as the test
# runs them) and the map's output path as <OUT>.
set -e
IMR=$1
S=tests/data/snapshots
export SOURCE_DATE_EPOCH=1764547200
D=2025-12-01
norm() { sed -e "s/$D/<DATE>/g" -e "s#$S/tmp.svg#<OUT>#g"; }
$IMR rates tests/data/inequality_communes.csv | norm > $S/rates.json
$IMR rates tests/data/inequality_communes.csv --format csv | norm > $S/rates.csv
$IMR inequality tests/data/inequality_communes.csv --group zona --rank pobreza --bootstrap 40 \
  --against ingreso_salud --against-weight poblacion | norm > $S/inequality.json
$IMR inequality tests/data/inequality_communes.csv --of ingreso_salud --weight poblacion \
  --bootstrap 40 --format csv | norm > $S/inequality_values.csv
$IMR inequality tests/data/inequality_communes.csv --bootstrap 20 --format svg-trend --lang es \
  | norm > $S/inequality_trend.svg
$IMR fit tests/data/grunfeld.csv --entity firm --time year --y invest --x value,capital \
  --model re --vcov cluster | norm > $S/fit_re.json
$IMR fit tests/data/grunfeld.csv --entity firm --time year --y invest --x value --x capital \
  --weights capital --model twfe --vcov hc1 --level 0.9 | norm > $S/fit_twfe.json
# fit_re.md and fit_twfe.tex: the English tables, recorded with the imr of commit 0330e41 before
# `imr fit --lang` existed (tests/fit_lang.rs: English stays as it was)
$IMR fit tests/data/grunfeld.csv --entity firm --time year --y invest --x value,capital \
  --model re --vcov cluster --format markdown > $S/fit_re.md
$IMR fit tests/data/grunfeld.csv --entity firm --time year --y invest --x value --x capital \
  --weights capital --model twfe --vcov hc1 --level 0.9 --format latex > $S/fit_twfe.tex
$IMR map tests/data/map_rates.csv --year 2019 --geometry tests/data/map_cells.topojson \
  --smooth eb --classes 3 --moran 99 --lisa --lang es --out $S/tmp.svg | norm > $S/map.json
norm < $S/tmp.svg > $S/map.svg
rm $S/tmp.svg
