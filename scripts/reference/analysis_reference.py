#!/usr/bin/env python3
"""Reference values of `rulesrun analyze`'s statistics: the expected values of Tests/RulesSimTests/Analysis/
(DistributionTests, ArmComparisonTests, SampleRatioCheckTests).

Run: python3 scripts/reference/analysis_reference.py   (SciPy 1.17, NumPy 2)
Prints each value as the Swift test holds it. The ratio-metric, CUPED and sequential values are computed
here per user (linearized values of each user, NumPy), not from the sums the Swift code keeps, so the two
are independent computations of the same formulas.
"""
import numpy as np
from scipy import stats


def show(name, value):
    print(f"{name}: {float(value)!r}")


# Distributions.
for df in (1, 2, 3.7, 12.25, 150.5, 10000.5):
    for p in (0.975, 0.995, 0.9, 1e-10):
        show(f"t.ppf({p}, {df})", stats.t.ppf(p, df))
for df in (3.7, 12.25, 150.5):
    for t in (-3.2, 0.5, 2.1, 40.0):
        show(f"t.cdf({t}, {df})", stats.t.cdf(t, df))
for p in (1e-10, 0.025, 0.5, 0.975, 0.3):
    show(f"norm.ppf({p})", stats.norm.ppf(p))
for z in (-20.0, -1.96, 0.0, 1.0, 5.0):
    show(f"norm.cdf({z})", stats.norm.cdf(z))
for df, xs in ((1, (0.5, 3.84, 27.67, 60.0)), (2, (1.0, 13.8, 50.0)), (9999, (9800.0, 9999.0, 10300.0, 11000.0))):
    for x in xs:
        show(f"chi2.sf({x}, {df})", stats.chi2.sf(x, df))

# Welch on two small samples: B − A.
a = np.array([3.1, 0.4, 2.7, 5.9, 1.2, 0.0, 4.4, 2.2])
b = np.array([4.0, 6.3, 2.9, 7.7, 5.1, 3.3, 6.0, 8.8, 4.9, 5.5])
r = stats.ttest_ind(b, a, equal_var=False)
ci = r.confidence_interval(0.95)
show("welch.statistic", r.statistic)
show("welch.pvalue", r.pvalue)
show("welch.df", r.df)
show("welch.low95", ci.low)
show("welch.high95", ci.high)
ci90 = r.confidence_interval(0.90)
show("welch.low90", ci90.low)
show("welch.high90", ci90.high)


def arm(y, x):
    """R, the linearized values (y − R x)/x̄ of each user, and the variance of R."""
    R = y.sum() / x.sum()
    L = (y - R * x) / x.mean()
    return R, L, L.var(ddof=1) / len(y)


def welch_df(v_t, n_t, v_c, n_c):
    return (v_t + v_c) ** 2 / (v_t**2 / (n_t - 1) + v_c**2 / (n_c - 1))


# Relative lift of the Welch samples (delta method): (B − A)/A.
ra, la, va = arm(a, np.ones_like(a))
rb, lb, vb = arm(b, np.ones_like(b))
v_t, v_c = vb / ra**2, rb**2 * va / ra**4
se = np.sqrt(v_t + v_c)
df = welch_df(v_t, len(b), v_c, len(a))
lift = (rb - ra) / ra
show("welch.lift", lift)
show("welch.lift.low95", lift - stats.t.ppf(0.975, df) * se)
show("welch.lift.high95", lift + stats.t.ppf(0.975, df) * se)

# A ratio metric (YES check-ins / check-ins) per user, delta method.
yc = np.array([3, 5, 0, 7, 2, 4, 6, 1, 5, 3, 0, 8], dtype=float)
xc = np.array([5, 7, 2, 9, 4, 4, 8, 3, 6, 5, 1, 10], dtype=float)
yt = np.array([4, 6, 2, 8, 3, 5, 7, 2, 6, 9, 1], dtype=float)
xt = np.array([5, 7, 3, 9, 4, 5, 8, 3, 6, 10, 2], dtype=float)
rc, lc, vc = arm(yc, xc)
rt, lt, vt = arm(yt, xt)
d, se, df = rt - rc, np.sqrt(vt + vc), welch_df(vt, len(yt), vc, len(yc))
show("ratio.control", rc)
show("ratio.treatment", rt)
show("ratio.diff", d)
show("ratio.df", df)
show("ratio.low95", d - stats.t.ppf(0.975, df) * se)
show("ratio.high95", d + stats.t.ppf(0.975, df) * se)
show("ratio.p", 2 * stats.t.sf(abs(d) / se, df))

# CUPED on the same ratio metric, pre-period (cy, cx) per user; a user with none has (0, 0).
cyc = np.array([2, 6, 0, 6, 1, 3, 5, 0, 4, 3, 0, 7], dtype=float)
cxc = np.array([4, 7, 0, 8, 3, 4, 7, 2, 5, 5, 0, 9], dtype=float)
cyt = np.array([3, 5, 1, 7, 2, 4, 5, 0, 0, 8, 1], dtype=float)
cxt = np.array([4, 6, 3, 8, 4, 5, 7, 2, 0, 9, 2], dtype=float)


def covariate(cy, cx):
    Rc = cy.sum() / cx.sum()
    return Rc, (cy - Rc * cx) / cx.mean()


rcc, kc = covariate(cyc, cxc)
rct, kt = covariate(cyt, cxt)
nc, nt = len(yc), len(yt)
theta = (np.cov(lt, kt)[0, 1] / nt + np.cov(lc, kc)[0, 1] / nc) / (kt.var(ddof=1) / nt + kc.var(ddof=1) / nc)
vta = (lt - theta * kt).var(ddof=1) / nt
vca = (lc - theta * kc).var(ddof=1) / nc
d = (rt - theta * rct) - (rc - theta * rcc)
se, df = np.sqrt(vta + vca), welch_df(vta, nt, vca, nc)
show("cuped.theta", theta)
show("cuped.diff", d)
show("cuped.low95", d - stats.t.ppf(0.975, df) * se)
show("cuped.high95", d + stats.t.ppf(0.975, df) * se)
show("cuped.reduction", 1 - (vta + vca) / (vt + vc))
# Relative lift with CUPED: ((R_T − θ Rc_T) − (R_C − θ Rc_C)) / R_C, by the delta method per user.
at = rt - theta * rct
lift = d / rc
g_c = -(at + theta * rcc) / rc**2  # ∂lift/∂R_C
h_c = theta / rc  # ∂lift/∂Rc_C
v_t = vta / rc**2
v_c = (g_c * lc + h_c * kc).var(ddof=1) / nc
se, df = np.sqrt(v_t + v_c), welch_df(v_t, nt, v_c, nc)
show("cuped.lift", lift)
show("cuped.lift.low95", lift - stats.t.ppf(0.975, df) * se)
show("cuped.lift.high95", lift + stats.t.ppf(0.975, df) * se)

# Sequential (asymptotic confidence sequence, Waudby-Smith et al., eq. 9 with rho of eq. 161) on the ratio metric.
alpha, tuning = 0.05, 5000.0
d, se = rt - rc, np.sqrt(vt + vc)
n = nt + nc
rho2 = (-2 * np.log(alpha) + np.log(-2 * np.log(alpha) + 1)) / tuning
s2 = se**2 * n
half = np.sqrt(s2) * np.sqrt(2 * (n * rho2 + 1) / (n**2 * rho2) * np.log(np.sqrt(n * rho2 + 1) / alpha))
show("sequential.low95", d - half)
show("sequential.high95", d + half)

# Sample ratio: 5263 / 4737 against 50 / 50; 3 arms against 3334 / 3333 / 3333 basis points.
r = stats.chisquare([5263, 4737], [5000, 5000])
show("srm2.chi2", r.statistic)
show("srm2.p", r.pvalue)
counts = np.array([3400, 3300, 3200])
r = stats.chisquare(counts, counts.sum() * np.array([3334, 3333, 3333]) / 10000)
show("srm3.chi2", r.statistic)
show("srm3.p", r.pvalue)
