"""The rest of ``scipy.special`` and ``scipy.stats``: lines for the functions added to close the
"rest of JAX 0.12's public API" issue (registered beside ``other_tables.SPECIAL`` / ``STATS``)."""

SPECIAL_REST = """
bessel_jn(p, v=0|2, n_iter=_|20)  ~64 -grad
dawsn(x)  ~16
erfcx(s|c)  ~64
exp1(p)  ~16
expi(x)  ~16
expn(k, p)  ~16
hyp1f1(s[3], 1.5, q)  ~64
owens_t(x, s)  ~16
sici(x)  ~16
spence(s)  ~16
wofz(c)  ~16
fresnel(x)
hyp2f1(s[3], 1.5, 3.0, u)
hyp2f1(0.5, 1.5, 2.5, u)
sph_harm_y(jnp.array([0, 1, 2]), jnp.array([0, -1, 2]), s[3], s[3], n_max=_|2|4)
"""

STATS_REST = """
betabinom.logpmf(k, 5.0, 2.0, 3.0)  ~64
betabinom.pmf(k, 5.0, 2.0, 3.0, loc=_|1.0)  ~64
binom.logpmf(k, 5.0, 0.3)  ~64
binom.pmf(k, 5.0, q, loc=_|1.0)  ~64
cauchy.logpdf(x, loc=_|1.0, scale=_|2.0)  ~16
cauchy.pdf(x)  ~16
cauchy.cdf(x)  ~16
cauchy.logcdf(x)  ~16
cauchy.sf(x)  ~16
cauchy.logsf(x)  ~16
cauchy.ppf(q, loc=_|1.0)  ~16
cauchy.isf(q)  ~16
dirichlet.logpdf(jnp.array([0.2, 0.3, 0.5]), p[3])  ~64
dirichlet.pdf(jnp.array([[0.2, 0.5], [0.8, 0.5]]), p[2])  ~64
gennorm.logpdf(x, 1.5)  ~64
gennorm.pdf(x, 2.5)  ~64
gennorm.cdf(x, 1.5)  ~64 -grad
geom.logpmf(k, 0.3)  ~16
geom.pmf(k, q)  ~16
gumbel_l.logpdf(x, loc=_|0.5, scale=_|2.0)  ~16
gumbel_l.pdf(x)  ~16
gumbel_l.cdf(x)  ~16
gumbel_l.logcdf(x)  ~16
gumbel_l.sf(x)  ~16
gumbel_l.logsf(x)  ~16
gumbel_l.ppf(q)  ~16 -grad
gumbel_r.logpdf(x, loc=_|0.5, scale=_|2.0)  ~16
gumbel_r.pdf(x)  ~16
gumbel_r.cdf(x)  ~16
gumbel_r.logcdf(x)  ~16
gumbel_r.sf(x)  ~16
gumbel_r.logsf(x)  ~16
gumbel_r.ppf(q)  ~16 -grad
multinomial.logpmf(k[2, 3], jnp.sum(k[2, 3], axis=-1), jnp.array([0.2, 0.5, 0.3]))  ~64 -grad -vmap
multinomial.pmf(jnp.array([1, 2, 1]), 4, s[3])  ~64
nbinom.logpmf(k, 4.0, 0.3)  ~64
nbinom.pmf(k, 2.5, q)  ~64
pareto.logpdf(p, 2.5)  ~16
pareto.pdf(p, 2.5, scale=_|0.5)  ~16
pareto.cdf(p, 2.5)  ~16
pareto.logcdf(p, 2.5)  ~16
pareto.sf(p, 2.5)  ~16
pareto.logsf(p, 2.5)  ~16
pareto.ppf(q, 2.5)  ~16
truncnorm.logpdf(x, -1.0, 2.0, loc=_|0.5)  ~64
truncnorm.pdf(x, -1.0, 2.0)  ~64
truncnorm.cdf(x, -1.0, 2.0)  ~64
truncnorm.logcdf(x, -1.0, 2.0)  ~64
truncnorm.sf(x, -1.0, 2.0)  ~64
truncnorm.logsf(x, -1.0, 2.0)  ~64
vonmises.logpdf(x, 2.0)  ~16
vonmises.pdf(x, p)  ~16
wrapcauchy.logpdf(p, 0.4)  ~16
wrapcauchy.pdf(p, 0.4)  ~16
mode(z[3, 4], axis=_|1|None, keepdims=_|True)  -grad
rankdata(r[6], 'average'|'min'|'max'|'dense'|'ordinal')  -grad
rankdata(r[2, 3], axis=1)  -grad
sem(s[3, 4], axis=_|1|None, ddof=_|0, keepdims=_|True)  ~16
"""
