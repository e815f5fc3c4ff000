//! Defining identities of the estimators, checked on random panels (proptest), and recovery of
//! known coefficients from a simulated panel.

use imr_models::{Column, Estimator, Fit, FixedEffect, PanelData, PanelSpec, VcovKind};
use nalgebra::{DMatrix, DVector};
use proptest::prelude::*;

/// A small deterministic generator so that simulated panels are reproducible.
struct Lcg(u64);
impl Lcg {
    fn uniform(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }
    fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}

/// An unbalanced panel: entity sizes 2..=6, two regressors, an effect correlated with x1.
fn random_panel(seed: u64, entities: usize) -> PanelData {
    let mut rng = Lcg(seed);
    let (mut entity, mut time, mut y, mut x1, mut x2) = (vec![], vec![], vec![], vec![], vec![]);
    for g in 0..entities {
        let effect = rng.normal();
        let periods = 2 + (rng.uniform() * 5.0) as i64;
        for t in 0..periods {
            let a = rng.normal() + 0.5 * effect;
            let b = rng.normal();
            entity.push(format!("e{g:03}"));
            time.push(2000 + t);
            x1.push(a);
            x2.push(b);
            y.push(effect + 1.5 * a - 0.7 * b + rng.normal());
        }
    }
    PanelData::new(entity, time, Column::complete("y", &y))
        .regressor(Column::complete("x1", &x1))
        .regressor(Column::complete("x2", &x2))
}

fn values(_data: &PanelData, column: &Column) -> Vec<f64> {
    assert!(column.values.iter().all(|v| v.is_finite()));
    column.values.clone()
}

/// Dense OLS with an SVD solve (test-only reference): coefficients and classical SEs.
fn dense_ols(x: &DMatrix<f64>, y: &DVector<f64>) -> (DVector<f64>, DVector<f64>) {
    let xtx = x.transpose() * x;
    let inv = xtx.clone().try_inverse().unwrap();
    let beta = &inv * x.transpose() * y;
    let resid = y - x * &beta;
    let s2 = resid.dot(&resid) / (x.nrows() - x.ncols()) as f64;
    let se = DVector::from_iterator(x.ncols(), (0..x.ncols()).map(|i| (s2 * inv[(i, i)]).sqrt()));
    (beta, se)
}

fn entity_dummies(data: &PanelData) -> (Vec<usize>, usize) {
    let mut labels: Vec<&str> = data.entity.iter().collect();
    labels.sort();
    labels.dedup();
    let idx = data
        .entity
        .iter()
        .map(|e| labels.binary_search(&e).unwrap())
        .collect();
    (idx, labels.len())
}

/// The residual off every dummy of the fixed effects (test-only reference): an orthonormal
/// basis of the dummy columns by modified Gram–Schmidt, each column orthogonalised twice
/// ("twice is enough", Giraud et al. 2005), a column left with under 1e-8 of its norm being
/// a combination of earlier ones; then `v − Q Qᵀ v`.
fn off_the_dummies(effects: &[&FixedEffect]) -> impl Fn(DVector<f64>) -> DVector<f64> {
    let mut basis: Vec<DVector<f64>> = Vec::new();
    for fe in effects {
        let levels = fe.codes.iter().map(|c| c.unwrap()).max().unwrap() + 1;
        for level in 0..levels {
            let mut d = DVector::from_iterator(
                fe.codes.len(),
                fe.codes.iter().map(|c| f64::from(*c == Some(level))),
            );
            let norm = d.norm();
            for _ in 0..2 {
                for q in &basis {
                    d -= q * q.dot(&d);
                }
            }
            if d.norm() > 1e-8 * norm {
                basis.push(d.normalize());
            }
        }
    }
    move |mut v: DVector<f64>| {
        for _ in 0..2 {
            for q in &basis {
                v -= q * q.dot(&v);
            }
        }
        v
    }
}

fn assert_same_table(a: &Fit, b: &Fit) {
    assert_eq!(a.coefficients.len(), b.coefficients.len());
    for (ca, cb) in a.coefficients.iter().zip(&b.coefficients) {
        assert_eq!(ca.term, cb.term);
        assert!((ca.estimate - cb.estimate).abs() <= 1e-10 * ca.estimate.abs().max(1.0));
        assert!((ca.std_error - cb.std_error).abs() <= 1e-10 * ca.std_error.abs().max(1.0));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// The within estimator is OLS with one dummy per entity (Frisch–Waugh–Lovell): same
    /// slopes and, with s² on n − G − k degrees of freedom, the same classical errors.
    #[test]
    fn within_estimates_equal_the_dummy_variable_regression(seed in any::<u64>(), entities in 3usize..12) {
        let data = random_panel(seed, entities);
        let fit = PanelSpec::new(Estimator::Fe).with_vcov(VcovKind::Iid).fit(&data).unwrap();
        let (idx, g) = entity_dummies(&data);
        let n = data.n_rows();
        let x1 = values(&data, &data.x[0]);
        let x2 = values(&data, &data.x[1]);
        let x = DMatrix::from_fn(n, 2 + g, |i, j| match j {
            0 => x1[i],
            1 => x2[i],
            _ => f64::from(idx[i] == j - 2),
        });
        let y = DVector::from_vec(values(&data, &data.y));
        let (beta, se) = dense_ols(&x, &y);
        for (j, term) in ["x1", "x2"].iter().enumerate() {
            let c = fit.coefficient(term).unwrap();
            prop_assert!((c.estimate - beta[j]).abs() < 1e-9 * beta[j].abs().max(1.0));
            prop_assert!((c.std_error - se[j]).abs() < 1e-9 * se[j].abs().max(1.0));
        }
    }

    /// Absorbing entity + year + region^year by alternating projections gives the slopes of
    /// OLS with every dummy of the three (the dummies are collinear, the slopes are not),
    /// whatever singletons were removed; entity + year alone gives twfe's. The reference is
    /// Frisch–Waugh–Lovell on an orthonormal basis of the dummies (`off_the_dummies`), not an
    /// SVD solve of the whole design: nalgebra's SVD loses accuracy on rank-deficient matrices
    /// (dimforge/nalgebra#1172) and gave slopes off by up to 5e-6 relative on seeds
    /// 10829072899029117155 and 13299858313889484435, where the projection agrees with the
    /// absorbed fit to 1e-15.
    #[test]
    fn absorbed_effects_equal_the_regression_on_all_their_dummies(seed in any::<u64>(), entities in 20usize..40) {
        let data = random_panel(seed, entities);
        let n = data.n_rows();
        let region: Vec<String> = data.entity.iter().map(|e| format!("r{}", e[1..].parse::<usize>().unwrap() % 3)).collect();
        let entity_fe = FixedEffect::from_keys("entity", data.entity.iter().map(Some));
        let year_fe = FixedEffect::from_keys("year", data.time.iter().map(Some));
        let region_fe = FixedEffect::from_keys("region", region.iter().map(Some));
        let region_year = FixedEffect::interact(&[region_fe, year_fe.clone()]);
        let absorbed = data.clone().absorb(entity_fe.clone()).absorb(year_fe.clone()).absorb(region_year.clone());
        let fit = PanelSpec::new(Estimator::Fe).fit(&absorbed).unwrap();
        prop_assert_eq!(PanelSpec::new(Estimator::Fe).fit_owned(absorbed.clone()).unwrap().to_json(), fit.to_json());
        let off = off_the_dummies(&[&entity_fe, &year_fe, &region_year]);
        let x = DMatrix::from_fn(n, 2, |i, j| values(&data, &data.x[j])[i]);
        let x = DMatrix::from_columns(&[off(x.column(0).into_owned()), off(x.column(1).into_owned())]);
        let y = off(DVector::from_vec(values(&data, &data.y)));
        let beta = (x.transpose() * &x).cholesky().unwrap().solve(&(x.transpose() * y));
        for (j, term) in ["x1", "x2"].iter().enumerate() {
            let c = fit.coefficient(term).unwrap();
            prop_assert!((c.estimate - beta[j]).abs() < 1e-9 * beta[j].abs().max(1.0), "{term}: {} vs {}", c.estimate, beta[j]);
        }
        prop_assert_eq!(fit.nobs + fit.excluded_rows.len(), n);
        let two_way = PanelSpec::new(Estimator::Fe).fit(&data.clone().absorb(entity_fe).absorb(year_fe)).unwrap();
        let twfe = PanelSpec::new(Estimator::Twfe).fit(&data).unwrap();
        for (a, b) in two_way.coefficients.iter().zip(&twfe.coefficients) {
            prop_assert!((a.estimate - b.estimate).abs() < 1e-9 * b.estimate.abs().max(1.0));
        }
    }

    /// Shuffling the rows and renaming the entities changes nothing in any model.
    #[test]
    fn results_do_not_depend_on_row_order_or_entity_labels(seed in any::<u64>(), entities in 4usize..10, shift in 1usize..50) {
        let data = random_panel(seed, entities);
        let n = data.n_rows();
        let mut order: Vec<usize> = (0..n).collect();
        let mut rng = Lcg(seed ^ 0x9e37);
        for i in (1..n).rev() {
            order.swap(i, (rng.uniform() * (i + 1) as f64) as usize % (i + 1));
        }
        let pick = |c: &Column| Column::from_values(c.name.clone(), order.iter().map(|&i| c.values[i]).collect());
        // relabel: reverse-sorted new names, so the sorted order of entities changes too
        let relabel = |e: &str| format!("z{:03}", 999 - e[1..].parse::<usize>().unwrap() - shift);
        let shuffled = PanelData::new(
            order.iter().map(|&i| relabel(data.entity.label(i))).collect::<Vec<String>>(),
            order.iter().map(|&i| data.time[i]).collect(),
            pick(&data.y),
        )
        .regressor(pick(&data.x[0]))
        .regressor(pick(&data.x[1]));
        for estimator in [Estimator::Pooled, Estimator::Fe, Estimator::Twfe, Estimator::Re, Estimator::Be, Estimator::Fd, Estimator::Cre] {
            for vcov in [VcovKind::Iid, VcovKind::Hc1, VcovKind::Cluster] {
                let spec = PanelSpec::new(estimator).with_vcov(vcov);
                let fit = spec.fit(&data).unwrap();
                assert_same_table(&fit, &spec.fit(&shuffled).unwrap());
                // the data given away (freed once prepared) gives the same fit, to the bit (JSON:
                // a statistic that is NaN is unequal to itself)
                prop_assert_eq!(spec.fit_owned(data.clone()).unwrap().to_json(), fit.to_json());
            }
        }
    }

    /// poisson-fe (concentrated likelihood) equals the Poisson GLM with entity dummies fitted
    /// by iteratively reweighted least squares: same β and model-based errors.
    #[test]
    fn poisson_fe_equals_the_poisson_glm_with_entity_dummies(seed in any::<u64>(), entities in 3usize..8) {
        let base = random_panel(seed, entities);
        let mut rng = Lcg(seed.rotate_left(7));
        let x1 = values(&base, &base.x[0]);
        let exposure: Vec<f64> = (0..base.n_rows()).map(|_| 50.0 + 100.0 * rng.uniform()).collect();
        let (idx, _) = entity_dummies(&base);
        // counts from a Poisson process by inversion
        let counts: Vec<f64> = (0..base.n_rows())
            .map(|i| {
                let mean = exposure[i] * 0.02 * (0.3 * x1[i] + 0.2 * idx[i] as f64).exp();
                let (mut k, mut p, u) = (0.0, (-mean).exp(), rng.uniform());
                let mut cdf = p;
                while u > cdf && k < 1000.0 {
                    k += 1.0;
                    p *= mean / k;
                    cdf += p;
                }
                k
            })
            .collect();
        let data = PanelData::new(base.entity.clone(), base.time.clone(), Column::complete("deaths", &counts))
            .regressor(Column::complete("x1", &x1))
            .with_exposure(Column::complete("births", &exposure));
        let Ok(fit) = PanelSpec::new(Estimator::PoissonFe).with_vcov(VcovKind::Iid).fit(&data) else {
            return Ok(()); // e.g. every count zero: nothing to compare
        };
        // IRLS on the kept entities
        let kept: Vec<usize> = (0..data.n_rows())
            .filter(|&i| !fit.dropped_entities.iter().any(|d| d.entity == data.entity.label(i)))
            .collect();
        let groups: Vec<usize> = {
            let mut k: Vec<usize> = kept.iter().map(|&i| idx[i]).collect();
            k.sort();
            k.dedup();
            k
        };
        let n = kept.len();
        let x = DMatrix::from_fn(n, 1 + groups.len(), |r, j| {
            let i = kept[r];
            if j == 0 { x1[i] } else { f64::from(idx[i] == groups[j - 1]) }
        });
        let y = DVector::from_iterator(n, kept.iter().map(|&i| counts[i]));
        let offset = DVector::from_iterator(n, kept.iter().map(|&i| exposure[i].ln()));
        let mut beta = DVector::zeros(1 + groups.len());
        for (j, &grp) in groups.iter().enumerate() {
            let (s, e): (f64, f64) = kept.iter().filter(|&&i| idx[i] == grp).fold((0.0, 0.0), |(s, e), &i| (s + counts[i], e + exposure[i]));
            beta[j + 1] = (s / e).ln();
        }
        let mut info = DMatrix::zeros(1, 1);
        for _ in 0..100 {
            let mu = (&x * &beta + &offset).map(f64::exp);
            let w = DMatrix::from_diagonal(&mu);
            info = x.transpose() * &w * &x;
            let step = info.clone().try_inverse().unwrap() * x.transpose() * (&y - &mu);
            beta += &step;
            if step.amax() < 1e-13 { break; }
        }
        let se = info.try_inverse().unwrap()[(0, 0)].sqrt();
        let c = fit.coefficient("x1").unwrap();
        prop_assert!((c.estimate - beta[0]).abs() < 1e-8 * beta[0].abs().max(1.0), "{} vs {}", c.estimate, beta[0]);
        prop_assert!((c.std_error - se).abs() < 1e-6 * se, "{} vs {}", c.std_error, se);
    }
}

/// y = α_i + 1.5·x1 − 0.7·x2 + e with α_i correlated with x1 (so pooled OLS is biased), 400
/// entities × 2–6 periods: fe, twfe, fd and cre recover the slopes within four standard errors,
/// and Mundlak's cre reproduces the within slopes exactly.
#[test]
fn a_simulated_panel_with_known_coefficients_is_recovered() {
    let data = random_panel(20240501, 400);
    let fe = PanelSpec::new(Estimator::Fe).fit(&data).unwrap();
    for estimator in [
        Estimator::Fe,
        Estimator::Twfe,
        Estimator::Fd,
        Estimator::Cre,
    ] {
        let fit = PanelSpec::new(estimator).fit(&data).unwrap();
        for (term, truth) in [("x1", 1.5), ("x2", -0.7)] {
            let c = fit.coefficient(term).unwrap();
            assert!(
                (c.estimate - truth).abs() < 4.0 * c.std_error,
                "{estimator} {term}: {} ± {}",
                c.estimate,
                c.std_error
            );
        }
    }
    let cre = PanelSpec::new(Estimator::Cre).fit(&data).unwrap();
    for term in ["x1", "x2"] {
        let (a, b) = (
            cre.coefficient(term).unwrap().estimate,
            fe.coefficient(term).unwrap().estimate,
        );
        assert!((a - b).abs() < 1e-9, "cre {a} vs fe {b}");
    }
    // the effect is correlated with x1: the Mundlak test rejects, pooled OLS is biased upward
    assert!(cre.tests.mundlak.as_ref().unwrap().p_value < 1e-6);
    let pooled = PanelSpec::new(Estimator::Pooled).fit(&data).unwrap();
    assert!(pooled.coefficient("x1").unwrap().estimate > 1.6);
}
