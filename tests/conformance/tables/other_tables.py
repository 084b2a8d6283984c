"""``numpy.linalg``, ``numpy.fft``, ``random``, ``scipy.*``, ``Array`` methods and ``.at[]``."""

LINALG = """
cholesky(s[3, 3] @ s[3, 3].T + 3 * jnp.eye(3)|c[3, 3], upper=_|True)  ~64
cond(s[3, 3], p=_|1|'fro'|jnp.inf)  ~64 -grad
cross(n[3], n[3])
det(s[3, 3]|c[2, 3, 3]|s[0, 0])  ~16
diagonal(a[3, 4], offset=_|1)
eig(s[3, 3])  ~256 -grad -jit -vmap
eigh(s[3, 3] + s[3, 3].T, UPLO=_|'U', symmetrize_input=_|False)  ~256 -grad
eigvals(s[3, 3])  ~256 -grad -jit -vmap
eigvalsh(s[3, 3] + s[3, 3].T)  ~256
inv(s[3, 3]|c[3, 3])  ~64
lstsq(s[4, 3], s[4]|s[4, 2], rcond=_|None)  ~256 -grad
matmul(a[2, 3], a[3, 4])
matrix_norm(s[3, 4], ord=_|1|-1|jnp.inf|'nuc'|2, keepdims=_|True)  ~64
matrix_power(s[3, 3], 2|0|-1|5)  ~64
matrix_rank(s[3, 3]|s[3, 4], rtol=_|0.5)  -grad
multi_dot([s[2, 3], s[3, 4], s[4, 2]])  ~4
norm(s[3, 4], ord=_|1|2|jnp.inf|'fro'|'nuc', axis=_|0|(0, 1), keepdims=_|True)  ~64
norm(c[5], ord=_|1|3|0|-jnp.inf)  ~16
outer(a[3], a[2])
pinv(s[3, 4], rtol=_|0.5, hermitian=_|False)  ~256
qr(s[4, 3]|c[3, 3], mode=_|'complete'|'r')  ~256
slogdet(s[3, 3]|c[3, 3], method=_|'qr')  ~64
solve(s[3, 3] + 3 * jnp.eye(3), s[3]|s[3, 2]|s[2, 3, 3])  ~64
svd(s[4, 3], full_matrices=_|False, compute_uv=_|False)  ~256 -grad
svdvals(s[4, 3]|c[3, 3])  ~256
tensordot(a[2, 3], a[3, 4], axes=_|1)
tensorinv(s[4, 2, 2] + jnp.eye(4).reshape(4, 2, 2), ind=_|1)  ~256
tensorsolve(s[2, 2, 4] + jnp.eye(4).reshape(2, 2, 4), s[2, 2])  ~256
trace(a[3, 4], offset=_|1)
vecdot(a[2, 3], a[2, 3], axis=_|0)
vector_norm(f, ord=_|1|0|jnp.inf|-jnp.inf|3, axis=_|0|(0, 1), keepdims=_|True)  ~16
matrix_transpose(a[2, 3])
"""

FFT = """
fft(c[8]|c[2, 6], n=_|4|10, axis=_|0, norm=_|'ortho'|'forward')  ~16
fft2(c[4, 6], s=_|(2, 8), norm=_|'ortho')  ~16
fftfreq(8|5, d=_|0.5, dtype=_|jnp.float16)
fftn(c[2, 4, 6], axes=_|(0, 2), norm=_|'forward')  ~16
fftshift(a[6]|a[3, 5], axes=_|0)
hfft(c[5], n=_|8, norm=_|'ortho')  ~16
ifft(c[8], n=_|4, norm=_|'ortho')  ~16
ifft2(c[4, 6])  ~16
ifftn(c[2, 4, 6], s=_|(2, 3, 4))  ~16
ifftshift(a[6]|a[3, 5], axes=_|1)
ihfft(s[8], n=_|6)  ~16
irfft(c[5], n=_|8|9, norm=_|'forward')  ~16
irfft2(c[4, 5], s=_|(4, 8))  ~16
irfftn(c[2, 4, 5])  ~16
rfft(s[8]|s[3, 7], n=_|6, norm=_|'ortho')  ~16
rfft2(s[4, 6])  ~16
rfftfreq(8|5, d=_|0.25)
rfftn(s[2, 4, 6], axes=_|(1, 2))  ~16
"""

RANDOM = """
PRNGKey(0|7|2**31 + 5)  -grad
bernoulli(key, 0.3|s[2, 3], shape=_|(2, 3))  -grad
beta(key, 2.0|0.5, 3.0, shape=_|(4,), dtype=_|jnp.float16)  ~16 -grad
bits(key, (3,)|(), dtype=_|jnp.uint8|jnp.uint16)  -grad
categorical(key, s[2, 5], axis=_|0, shape=_|(3, 2), replace=_|False)  -grad
cauchy(key, (3,), dtype=_|jnp.bfloat16)  ~ -grad
choice(key, 5|k[5], (3,)|(2, 2), replace=_|False, p=_|jnp.array([0.1, 0.2, 0.3, 0.2, 0.2]))  -grad
clone(key)  -grad
dirichlet(key, jnp.array([1.0, 2.0, 0.5]), (2,)|())  ~16 -grad
exponential(key, (3,), dtype=_|jnp.float16)  ~ -grad
fold_in(key, 3|2**31|k[-1])  -grad
gamma(key, 2.0|0.3|s[3], shape=_|(3,))  ~16 -grad
gumbel(key, (3,), mode=_|'high')  ~ -grad
key(0|7|2**32 + 5|-1, impl=_|'rbg'|'unsafe_rbg')  -grad
key_data(key)  -grad
key_impl(key)  -grad -jit -vmap
laplace(key, (3,))  ~ -grad
loggamma(key, 2.0|0.3, (3,))  ~16 -grad
logistic(key, (3,))  ~ -grad
multivariate_normal(key, jnp.zeros(2), jnp.array([[2.0, 0.5], [0.5, 1.0]]), (3,)|(), method=_|'eigh'|'svd')  ~64 -grad
normal(key, (3,)|()|(2, 0), dtype=_|jnp.float16|jnp.bfloat16|jnp.complex64)  ~ -grad
permutation(key, 5|k[6]|a[3, 2], axis=_|1, independent=_|True)  -grad
poisson(key, 3.0|0.5|30.0, (4,), dtype=_|jnp.int8)  -grad
randint(key, (4,)|(), 0|-3, 10|3, dtype=_|jnp.int8|jnp.uint8)  -grad
split(key, 2|3|(2, 2))  -grad
truncated_normal(key, -1.0|0.0, 1.0|2.0, (4,))  ~16 -grad
uniform(key, (3,)|(), minval=_|-2.0, maxval=_|5.0, dtype=_|jnp.float16|jnp.bfloat16)  -grad
wrap_key_data(jnp.array([1, 2], dtype=jnp.uint32)|jnp.array([[0, 1], [3, 4]], dtype=jnp.uint32))  -grad
key_dtype(key)  -grad -jit -vmap
"""

SPECIAL = """
bernoulli(3|8)  ~
beta(p, p)  ~64
betainc(q, q, q)  ~64 -grad
betaln(p, p)  ~64
boxcox(p, 0.5|0.0|-1.0)  ~16
boxcox1p(p, 0.5|0.0)  ~16
comb(5.0|s, 2.0|p, exact=_, repetition=_|True)  ~64
digamma(x)  ~16
entr(s)  ~4
erf(x)  ~
erfc(x)  ~
erfcinv(q)  ~16
erfinv(u)  ~16
expit(x)  ~
factorial(k|s, exact=_)  ~16
gamma(x)  ~64
gammainc(p, p)  ~64 -grad
gammaincc(p, p)  ~64 -grad
gammaln(x)  ~16
gammasgn(x)
i0(x)  ~16
i0e(x)  ~16
i1(x)  ~16
i1e(x)  ~16
kl_div(p, p)  ~16
log_ndtr(x)  ~16
log_softmax(s, axis=_|0|None)  ~4
loggamma(s)  ~16
logit(q)  ~4
logsumexp(s, axis=_|0|(0, 1), b=_|2.0, keepdims=_|True, return_sign=_|True)  ~4
multigammaln(p + 2, 2|3)  ~64
ndtr(x)  ~
ndtri(q)  ~16
poch(p, p)  ~64
polygamma(k, p)  ~64 -grad
rel_entr(p, p)  ~16
softmax(s, axis=_|0|None)  ~4
xlog1py(r, p)  ~4
xlogy(r, p)  ~4
zeta(p + 1, p)  ~64 -grad
"""

SCIPY_LINALG = """
block_diag(s[2, 2], s[1, 3], a[-1])
cho_factor(s[3, 3] @ s[3, 3].T + 3 * jnp.eye(3), lower=_|True)  ~64
cho_solve((s[3, 3] @ s[3, 3].T + 3 * jnp.eye(3), False), s[3])  ~64
cholesky(s[3, 3] @ s[3, 3].T + 3 * jnp.eye(3), lower=_|True)  ~64
det(s[3, 3])  ~16
eigh(s[3, 3] + s[3, 3].T, lower=_|False, eigvals_only=_|True)  ~256 -grad
expm(s[3, 3] / 4|c[2, 2] / 4)  ~256
inv(s[3, 3])  ~64
lu(s[3, 3]|s[3, 4], permute_l=_|True)  ~64
lu_factor(s[3, 3])  ~64
lu_solve(jsp.linalg.lu_factor(s[3, 3] + 3 * jnp.eye(3)), s[3], trans=_|1)  ~64
qr(s[4, 3], mode=_|'economic'|'r', pivoting=_|True)  ~256
solve(s[3, 3] + 3 * jnp.eye(3), s[3], assume_a=_|'pos'|'sym')  ~64
solve_triangular(jnp.triu(s[3, 3]) + 3 * jnp.eye(3), s[3], lower=_|True, trans=_|1|'C', unit_diagonal=_|True)  ~64
svd(s[4, 3], full_matrices=_|False, compute_uv=_|False)  ~256 -grad
"""

SIGNAL = """
convolve(s[6], s[3]|s[8], mode=_|'same'|'valid', method=_|'fft'|'direct')  ~16
convolve2d(s[4, 5], s[2, 3], mode=_|'same'|'valid', boundary=_|'fill', fillvalue=_|1.0)  ~16
correlate(s[6], s[3], mode=_|'same'|'valid')  ~16
correlate2d(s[4, 5], s[2, 3], mode=_|'same'|'valid')  ~16
"""

STATS = """
norm.pdf(x, loc=_|1.0, scale=_|2.0)  ~16
norm.logpdf(x)  ~16
norm.cdf(x)  ~16
norm.logcdf(x)  ~16
norm.ppf(q)  ~16
norm.sf(x)  ~16
bernoulli.pmf(k, 0.3)  ~16
bernoulli.logpmf(k, 0.3)  ~16
beta.logpdf(q, 2.0, 3.0)  ~64
beta.pdf(q, 2.0, 3.0)  ~64
chi2.logpdf(p, 3.0)  ~64
chi2.pdf(p, 3.0)  ~64
expon.logpdf(p)  ~16
expon.pdf(p, scale=_|2.0)  ~16
gamma.logpdf(p, 2.0)  ~64
gamma.pdf(p, 2.0, scale=_|3.0)  ~64
laplace.logpdf(x)  ~16
laplace.pdf(x)  ~16
logistic.logpdf(x)  ~16
logistic.cdf(x)  ~16
multivariate_normal.logpdf(s[4, 2], jnp.zeros(2), jnp.array([[2.0, 0.5], [0.5, 1.0]]))  ~64
multivariate_normal.pdf(s[2], jnp.zeros(2), jnp.eye(2))  ~64
poisson.logpmf(k, 3.0)  ~64
poisson.pmf(k, 3.0)  ~64
t.logpdf(x, 3.0)  ~64
t.pdf(x, 3.0)  ~64
uniform.logpdf(x, -1.0, 2.0)
uniform.pdf(x, -1.0, 2.0)
"""

ARRAY = """
all(a, axis=_|0, keepdims=_|True)  -grad
any(a, axis=_|1)  -grad
argmax(a, axis=_|0)  -grad
argmin(a, axis=_|1)  -grad
argpartition(r[6], 2)  -grad
argsort(r, axis=_|0, descending=_|True)  -grad
astype(a, jnp.float32|jnp.int8|jnp.bool_|jnp.bfloat16)
choose(k[4], [[1, 2, 3, 4], [5, 6, 7, 8]])
clip(a, -1|None, 2)
compress(b[3], a[3, 2], axis=_|0)
conj(a)
conjugate(a)
copy(a)
cumprod(a, axis=_|1)
cumsum(a, axis=_|1, dtype=_|jnp.int8)
diagonal(a[3, 4], offset=_|1)
dot(a[2, 3], a[3])
dtype(a)  prop -grad -jit -vmap
flatten(a, order=_|'F')
imag(a)  prop
item(a[1, 1]|a[-1])  -jit -vmap -grad
itemsize(a)  prop -jit -vmap -grad
max(a, axis=_|0, keepdims=_|True)
mean(a, axis=_|1)
min(a, axis=_|-1)
nbytes(a)  prop -jit -vmap -grad
ndim(a)  prop -jit -vmap -grad
nonzero(a, size=4)  -grad
prod(a, axis=_|0)
ptp(a, axis=_|1)
ravel(a, order=_|'F')
real(a)  prop
repeat(a, 2, axis=_|1)
reshape(a[6], (3, 2)|(2, -1)|(6,), order=_|'F')
reshape(a[6], 3, 2)
round(a, decimals=_|1)
searchsorted(s[5], s[3], side=_|'right')  -grad
shape(a)  prop -jit -vmap -grad
size(a)  prop -jit -vmap -grad
sort(r, axis=_|0)
squeeze(a[1, 3], axis=_|0)
std(n, axis=_|1, ddof=_|1)  ~
sum(a, axis=_|0|(0, 1), keepdims=_|True, dtype=_|jnp.int8)
swapaxes(a, 0, 1)
take(a, k[3], axis=_|1)
tolist(a)  -jit -vmap -grad
trace(a[3, 3], offset=_|1)
transpose(a[2, 3, 4], _|(1, 2, 0))
var(n, axis=_|0, ddof=_|1)
T(a)  prop
mT(a[4, 2, 3])  prop
view(a, jnp.int32|jnp.uint8)  -grad
__abs__(a)
__add__(a, a|2|2.5)
__and__(i, i)
__bool__(a[-1]|a[1])  -jit -vmap -grad
__complex__(a[-1])  -jit -vmap -grad
__eq__(a, a|2)
__float__(a[-1])  -jit -vmap -grad
__floordiv__(r, p)
__ge__(r, r)
__getitem__(a[4, 5], 1|-1|(1, 2)|slice(1, 3)|(Ellipsis, 0)|(None, 1)|(slice(None, None, -1),)|(jnp.array([0, 2]),)|(jnp.array([[True, False, True, False, True]]*4),)|([0, 1], [2, 3])|4)
__getitem__(a[4, 5], (k[3],)|(k[3], k[3]))
__gt__(r, r)
__index__(k[-1])  -jit -vmap -grad
__int__(a[-1])  -jit -vmap -grad
__invert__(i)
__le__(r, r)
__len__(a|a[-1])  -jit -vmap -grad
__lshift__(z, k)
__lt__(r, r)
__matmul__(a[2, 3], a[3])
__mod__(r, p)
__mul__(a, a|3)
__ne__(a, a)
__neg__(n)
__or__(i, i)
__pos__(n)
__pow__(n, k|2|0.5)
__radd__(a, 2|2.5)
__rmul__(a, 3)
__rpow__(p, 2|2.5)
__rshift__(z, k)
__rsub__(n, 1)
__rtruediv__(n, 1.5)
__sub__(n, n)
__truediv__(a, a|2)
__xor__(i, i)
"""

AT = """
set(a[5], 7|-1|2|(slice(1, 3),)|jnp.array([0, 0, 4])|jnp.array([7, -8]), 9, mode=_|'drop'|'clip'|'fill'|'promise_in_bounds')
add(a[5], 7|-1|2|slice(None, None, 2)|jnp.array([0, 0, 4])|jnp.array([7, -8]), 100, mode=_|'drop'|'clip'|'promise_in_bounds', indices_are_sorted=_|True, unique_indices=_|True)
add(s[5], 7, 100.0, mode='drop'|'clip')
multiply(a[2, 3], (1, 2)|(slice(None), 0)|-1, 3, mode=_|'drop')
mul(n[2, 3], (1, 2)|0, 3)
divide(s[2, 3], (1, 2)|0, 2.0)
power(s[2, 3], (1, 2)|0, 2)
min(r[5], 1|jnp.array([0, 0, 4]), 0, mode=_|'drop')
max(r[5], 1|jnp.array([0, 0, 4]), 2, mode=_|'drop')
get(a[5], 7|-1|jnp.array([0, 9, -7]), mode=_|'fill'|'clip'|'drop', fill_value=_|-3)
apply(n[5], 1|jnp.array([0, 0, 4]), jnp.negative|(lambda x: x * 2))
set(a[2, 3], (k[2], k[2]), a[2], mode=_|'drop')
add(s[6], k[4], s[4])
"""
