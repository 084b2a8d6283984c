"""``jax_core.numpy``: one line per public callable (the language: tests/conformance/spec.py)."""

NUMPY = """
abs(a)
absolute(a)
acos(u)  ~
acosh(p)  ~
add(a, a)  x64
all(a, axis=_|0|-1|(0, 1)|2, keepdims=_|True)  -grad
allclose(a, a, rtol=_|0.5, equal_nan=_|True)  -grad
amax(a, axis=_|0|-1|(0, 1), keepdims=_|True, initial=_|10)
amin(a, axis=_|0|-1, keepdims=_|True)
angle(f, deg=_|True)  ~
any(a, axis=_|0|-1|(0, 1)|2, keepdims=_|True)  -grad
append(a, a, axis=_|0|1)
apply_along_axis(jnp.sum|jnp.cumsum, 0|1, n)
apply_over_axes(jnp.sum, n, [0]|[0, 1])
arange(5|5.0|-3|2.5, dtype=_|jnp.int8|jnp.float16)
arange(1|1.5, 7|7.5, 2|0.5)
arccos(u)  ~
arccosh(p)  ~
arcsin(u)  ~
arcsinh(a)  ~
arctan(a)  ~
arctan2(r, r)  ~
arctanh(u)  ~
argmax(a, axis=_|0|-1|2, keepdims=_|True)  -grad
argmin(a, axis=_|0|-1, keepdims=_|True)  -grad
argpartition(r, 1|2, axis=_|0)  -grad
argsort(r, axis=_|0|None, descending=_|True, stable=_|False)  -grad
argwhere(a, size=4|6, fill_value=_|-1)  -grad
around(a, 0|1|-1)
array(a, dtype=_|jnp.float32|jnp.int8, copy=_|False, ndmin=_|3)
array_equal(a, a, equal_nan=_|True)  -grad
array_equiv(a, a)  -grad
array_repr(a)  -jit -vmap -grad
array_split(a, 2|3|[1, 2], axis=_|1)
array_str(a)  -jit -vmap -grad
asarray(a, dtype=_|jnp.float16|jnp.int32)
asin(u)  ~
asinh(a)  ~
astype(a, jnp.float32|jnp.int8|jnp.bool_|jnp.complex64|jnp.uint32|jnp.bfloat16)
atan(a)  ~
atan2(r, r)  ~
atanh(u)  ~
atleast_1d(a)
atleast_2d(a)
atleast_3d(a)
average(n, axis=_|0|1, returned=_|True)
average(s[2, 3], 1, s[3])
bartlett(5|1|0)
bincount(k[6], length=8|4, minlength=_|3)  -grad
bitwise_and(i, i)
bitwise_count(i)
bitwise_invert(i)
bitwise_left_shift(z, k)
bitwise_not(i)
bitwise_or(i, i)
bitwise_right_shift(z, k)
bitwise_xor(i, i)
blackman(5|1)
block([a[2, 3], a[2, 2]]|[[a[1, 3]], [a[2, 3]]])
bool(a)
bool_(a)
broadcast_arrays(a, a)
broadcast_shapes((2, 1), (3,)|(1,)|(4, 1, 1))
broadcast_to(a[3], (2, 3)|(4, 1, 3)|(2,))
can_cast(jnp.int8|jnp.float32, jnp.int32|jnp.float16, casting=_|'same_kind'|'safe')
cbrt(r)  ~
cdouble(a)
ceil(r)
choose(k[4], [[1, 2, 3, 4], [5, 6, 7, 8]], mode=_|'clip'|'wrap')
clip(a, -1|None, 1|None)
clip(r, min=_|-1, max=_|2)
column_stack([a[3], a[3]]|[a[3, 1], a[3, 2]])
complex128(a)
complex64(a)
complex_(a)
compress(b[3], a[3, 2], axis=_|0, size=_|3)
concat([a, a], axis=_|1|None)
concatenate([a, a], axis=_|1|None|2)
conj(a)
conjugate(a)
convolve(a[5], a[3], mode=_|'same'|'valid')
copy(a)
copysign(r, r)
corrcoef(s, rowvar=_|False)
correlate(a[5], a[3], mode=_|'same'|'full')
cos(a)  ~
cosh(a)  ~
count_nonzero(a, axis=_|0|-1, keepdims=_|True)  -grad
cov(s, rowvar=_|False, bias=_|True, ddof=_|0)
cross(n[3], n[3])
cross(n[2, 3], n[2, 3], axis=_|-1)
csingle(a)
cumprod(a, axis=_|0|1, dtype=_|jnp.int8|jnp.float32)
cumsum(a, axis=_|0|1, dtype=_|jnp.int8|jnp.float32)
cumulative_prod(n[2, 3], axis=1|0, include_initial=_|True)
cumulative_sum(a[2, 3], axis=1|0, include_initial=_|True, dtype=_|jnp.int16)
deg2rad(a)
degrees(a)
delete(a, 1|[0, 2]|-1, axis=_|1)
diag(a[3]|a[3, 3], k=_|1|-1)
diag_indices(3|2, ndim=_|3)
diag_indices_from(a[3, 3])
diagflat(a[2, 2], k=_|1)
diagonal(a[3, 4], offset=_|1|-1, axis1=_|1, axis2=_|0)
diff(a, n=_|2|0, axis=_|0)
digitize(r[6], s[3], right=_|True)  -grad
divide(a, a)  x64
divmod(r, p)
dot(a, a[3])
dot(a[3], a[3])
double(a)
dsplit(a[2, 2, 4], 2|[1, 3])
dstack([a, a])
ediff1d(a, to_end=_|[9], to_begin=_|0)
einsum('ij,j->i'|'ij,kj->ik'|'ij,ij', a[2, 3], a[3]|a[4, 3]|a[2, 3])
einsum('ii->i'|'ij->'|'ij->ji', a[3, 3])
einsum_path('ij,jk,kl', s[2, 3], s[3, 4], s[4, 5], optimize=_|'greedy')  -jit -vmap -grad
empty((2, 3)|3, dtype=_|jnp.int8)
empty_like(a, dtype=_|jnp.float16, shape=_|(4,))
equal(a, a)
exp(a)  ~
exp2(a)  ~
expand_dims(a, 0|-1|(0, 3)|3)
expm1(a)  ~
extract(b[6], a[6], size=_|3, fill_value=_|7)
eye(3|1, 4|None, k=_|1|-2, dtype=_|jnp.int8|bool)
fabs(r)
fill_diagonal(a[3, 3], 9|-1, inplace=False, wrap=_|True)
flatnonzero(a, size=4, fill_value=_|-1)  -grad
flip(a, axis=_|0|(0, 1))
fliplr(a)
flipud(a)
float16(a)
float32(a)
float64(a)
float_(a)
float_power(r, r)  ~
floor(r)
floor_divide(r, p)
fmax(r, r)
fmin(r, r)
fmod(r, p)
frexp(r)
from_dlpack(a)  -jit -vmap -grad
frombuffer(b'\\x01\\x02\\x03\\x04', dtype=jnp.uint8|jnp.int16)
fromfunction((lambda i, j: i + j)|(lambda i, j: i * j), (2, 3), dtype=_|jnp.int32)
fromiter(iter([1, 2, 3]), dtype=jnp.float32|jnp.int32)  -jit
fromstring('1 2 3', dtype=jnp.float32|jnp.int32, sep=' ')  -jit
full((2, 3)|3|(), 7|2.5|True, dtype=_|jnp.int8)
full_like(a, 7|2.5, dtype=_|jnp.int8|jnp.float16, shape=_|(4,))
gcd(z, z)
geomspace(1.0|2, 100.0|1000, num=_|5, endpoint=_|False)  ~
get_printoptions()  -jit
gradient(s, axis=_|0|1)
gradient(s[5], 2.0|0.5)
greater(r, r)
greater_equal(r, r)
hamming(5|1)  ~
hanning(5|1)  ~
heaviside(r, r)
histogram(s[8], bins=_|3|[0.0, 1.0, 2.0], range=_|(-1.0, 1.0), density=_|True)  -vmap -grad
histogram2d(s[8], s[8], bins=_|3)  -vmap -grad
histogram_bin_edges(s[8], bins=_|4)  -vmap -grad
histogramdd(s[8, 2], bins=_|3)  -vmap -grad
hsplit(a[2, 4], 2|[1, 3])
hstack([a, a])
hypot(r, r)  ~
i0(x)  ~
identity(3|1, dtype=_|jnp.int8)
imag(a)
indices((2, 3)|(3,), dtype=_|jnp.int8, sparse=_|True)
inner(a, a[3])
insert(a[5], 1|-1|[0, 2], 9|2.5)
insert(a[2, 3], 1, 9, axis=_|1|0)
int16(a)
int32(a)
int64(a)
int8(a)
int_(a)
interp(s[4], s[5], s[5], left=_|0.0, right=_|1.0, period=_|2.0)
intersect1d(a[6], a[5], size=_|3, fill_value=_|0, return_indices=_|True)  -jit -vmap -grad
invert(i)
isclose(a, a, rtol=_|0.5, atol=_|1.0, equal_nan=_|True)
iscomplex(a)
iscomplexobj(a)  -grad
isdtype(jnp.float32|jnp.int8|jnp.complex64, 'real floating'|'integral'|('complex floating', 'bool'))
isfinite(a)
isin(a, a[3], invert=_|True, assume_unique=_|True)
isinf(a)
isnan(a)
isneginf(r)
isposinf(r)
isreal(a)
isrealobj(a)  -grad
isscalar(a[-1])
isscalar(a)
issubdtype(jnp.float32|jnp.int8|jnp.bfloat16, jnp.floating|jnp.integer|jnp.inexact)
iterable(a|3)  -jit
ix_(k[3], k[2])
kaiser(5|1, 3.0|0.5)  ~
kron(a[2, 2], a[2, 3])
lcm(z, z)
ldexp(x, k)
left_shift(z, k)
less(r, r)
less_equal(r, r)
lexsort([k[5], k[5]]|(k[5], k[5], k[5]), axis=_|0)  -grad
linspace(0|0.5, 1|10, num=_|5|1|0, endpoint=_|False, retstep=_|True, dtype=_|jnp.int32)  ~
log(p)  ~
log10(p)  ~
log1p(p)  ~
log2(p)  ~
logaddexp(r, r)  ~
logaddexp2(r, r)  ~
logical_and(a, a)
logical_not(a)
logical_or(a, a)
logical_xor(a, a)
logspace(0|0.5, 2|3, num=_|5, base=_|2.0, endpoint=_|False)  ~
mask_indices(3, jnp.triu|jnp.tril, k=_|1)
matmul(a, a[3])
matmul(a[2, 3], a[3, 4]|a[4, 3, 2]|a[3])
matrix_transpose(a[2, 3]|a[4, 2, 3])
matvec(a[2, 3], a[3]|a[4, 3])
max(a, axis=_|0|-1|(0, 1), keepdims=_|True, initial=_|10)
maximum(a, a)
mean(a, axis=_|0|-1|(0, 1), keepdims=_|True, dtype=_|jnp.float16)
median(r, axis=_|0|1, keepdims=_|True)
meshgrid(a[3], a[2], indexing=_|'ij', sparse=_|True)
min(a, axis=_|0|-1, keepdims=_|True, initial=_|-10)
minimum(a, a)
mod(r, p)
modf(r)
moveaxis(a[2, 3, 4], 0|[0, 1], -1|[2, 0])
multiply(a, a)  x64
nan_to_num(a, nan=_|1.0, posinf=_|9.0, neginf=_|-9.0, copy=_|False)
nanargmax(r, axis=_|0|1, keepdims=_|True)  -grad
nanargmin(r, axis=_|0|1)  -grad
nancumprod(a, axis=_|0|1)
nancumsum(a, axis=_|0|1)
nanmax(a, axis=_|0|1, keepdims=_|True)
nanmean(a, axis=_|0|1, keepdims=_|True)
nanmedian(r, axis=_|0|1)
nanmin(a, axis=_|0|1)
nanpercentile(r, 50|[10, 90], axis=_|1, method=_|'nearest'|'lower'|'midpoint')
nanprod(a, axis=_|0|1)
nanquantile(r, 0.5|[0.1, 0.9], axis=_|1, method=_|'higher')
nanstd(n, axis=_|0|1, ddof=_|1)  ~
nansum(a, axis=_|0|1, keepdims=_|True)
nanvar(n, axis=_|0|1, ddof=_|1)
ndim(a|a[-1]|a[2, 3, 1])  -jit -vmap -grad
negative(a)
nextafter(x, x)
nonzero(a, size=4|7, fill_value=_|-1)  -grad
not_equal(a, a)
ones((2, 3)|3|(), dtype=_|jnp.int8|bool)
ones_like(a, dtype=_|jnp.int8, shape=_|(3,))
outer(a[3], a[2])
packbits(b[2, 9], axis=_|0|1, bitorder=_|'little')
pad(a, 1|((1, 2), (0, 1))|(2, 0), mode=_|'edge'|'reflect'|'symmetric'|'wrap'|'maximum'|'mean'|'linear_ramp')
pad(a, 1, constant_values=_|7)
partition(r[6], 2|4, axis=_|0)
percentile(r, 50|[10, 90], axis=_|1, method=_|'nearest'|'lower'|'midpoint', keepdims=_|True)
permute_dims(a[2, 3, 4], (1, 2, 0)|(2, 1, 0))
piecewise(s[5], [s[5] > 0], [lambda x: x * 2, lambda x: x - 1]|[1.0, 2.0])  -vmap -grad
place(a[5], b[5], a[2], inplace=False)  -jit -vmap -grad
poly(s[3]|s[3, 3])  ~ -grad
polyadd(a[3], a[2])
polyder(a[4], m=_|2)
polydiv(s[4], s[2])  ~4
polyfit(s[6], s[6], 1|2)  ~64 -grad
polyint(a[3], m=_|2, k=_|1.0)
polymul(a[3], a[2])
polysub(a[3], a[2])
polyval(a[3], a|a[-1])  ~
positive(a)
pow(r, k)
power(a, k)
power(x, x)  ~
prod(a, axis=_|0|-1|(0, 1), keepdims=_|True, dtype=_|jnp.int8)
promote_types(jnp.int8|jnp.float16|jnp.bfloat16, jnp.uint8|jnp.float16|jnp.int32)
ptp(a, axis=_|0|1, keepdims=_|True)
put(a[5], k[2], a[2], mode=_|'clip'|'wrap', inplace=False)
put_along_axis(a[2, 3], k[2, 1], a[2, 1], 1|0, inplace=False, mode=_|'clip')
quantile(r, 0.5|[0.1, 0.9], axis=_|1, method=_|'nearest'|'lower'|'midpoint'|'higher', keepdims=_|True)
rad2deg(a)
radians(a)
ravel(a, order=_|'F')
ravel_multi_index((k[3], k[3]), (4, 5)|(5, 4), mode=_|'wrap'|'clip', order=_|'F')  -grad
real(a)
reciprocal(a)
remainder(r, p)
repeat(a, 2|[1, 2, 0], axis=_|1|None, total_repeat_length=_)
repeat(a[3], [1, 2, 0], total_repeat_length=3|5)
reshape(a[6], (3, 2)|(2, -1)|(6,)|(1, 6, 1)|(4, -1), order=_|'F'|'C'|'A')
resize(a[2, 3], (3, 2)|(4, 4)|7)
result_type(jnp.int8|jnp.float16|2.5|2, jnp.uint8|jnp.bfloat16|True)
right_shift(z, k)
rint(r)
roll(a, 1|-2|[1, 2], axis=_|0|[0, 1])
rollaxis(a[2, 3, 4], 2|1, 0|3)
roots(s[3]|s[4])  ~64 -grad -vmap -jit
rot90(a, 1|2|-1|3, axes=_|(1, 0))
round(a, 0|1|-1)
searchsorted(s[5], s[3]|s[-1], side=_|'right', method=_|'sort'|'compare_all')  -grad
select([b[3], b[3]], [a[3], a[3]], default=_|9)
setdiff1d(a[5], a[4], size=_|3, fill_value=_|0)  -jit -vmap -grad
setxor1d(a[5], a[4], size=_|3)  -jit -vmap -grad
shape(a|a[-1])  -jit -vmap -grad
sign(a)
signbit(r)
sin(a)  ~
sinc(a)  ~
single(a)
sinh(a)  ~
size(a, axis=_|0|1)  -jit -vmap -grad
sort(r, axis=_|0|None, descending=_|True, stable=_|False)
sort_complex(c[5])
spacing(x)
split(a[6], 2|3|[1, 4])
split(a[2, 4], 2, axis=_|1)
sqrt(a)  ~
square(a)
squeeze(a[1, 3, 1], axis=_|0|(0, 2)|1)
stack([a, a], axis=_|1|-1|3)
std(n, axis=_|0|1, ddof=_|1, keepdims=_|True, correction=_)  ~
subtract(n, n)
sum(a, axis=_|0|-1|(0, 1)|2, keepdims=_|True, dtype=_|jnp.int8|jnp.float32|jnp.bool_, initial=_|5)
swapaxes(a[2, 3, 4], 0|2, 1|-1)
take(a, k[4], axis=_|0|1, mode=_|'clip'|'wrap'|'fill', fill_value=_|9)
take(a[5], [0, 7, -1]|[-6, 2], mode=_|'fill'|'clip'|'wrap')
take_along_axis(a[2, 3], k[2, 2], axis=1|0|-1, mode=_|'clip'|'fill')
tan(a)  ~
tanh(a)  ~
tensordot(a[2, 3], a[3, 4]|a[3], axes=_|1|([1], [0]))
tile(a, 2|(2, 1)|(1, 2, 2))
top_k(r[5], 2|5)
trace(a[3, 4], offset=_|1|-1, dtype=_|jnp.int8)
transpose(a[2, 3, 4], _|(1, 2, 0)|(2, 0, 1))
trapezoid(s, x=_, dx=_|0.5, axis=_|0)
tri(3|1, 4|None, k=_|1|-1, dtype=_|jnp.int8)
tril(a[3, 4], k=_|1|-1)
tril_indices(3|4, k=_|1|-1, m=_|5)
tril_indices_from(a[3, 4], k=_|1)
trim_zeros(k[6], trim=_|'f'|'b')  -jit -vmap -grad
triu(a[3, 4], k=_|1|-1)
triu_indices(3|4, k=_|1|-1, m=_|5)
triu_indices_from(a[3, 4], k=_|-1)
true_divide(a, a)
trunc(r)
uint(a)
uint16(a)
uint32(a)
uint64(a)
uint8(a)
union1d(a[5], a[4], size=_|6)  -jit -vmap -grad
unique(a[8], return_index=_|True, return_inverse=_|True, return_counts=_|True, size=_|9, equal_nan=_|False)  -jit -vmap -grad
unique(k[8], size=8|4, fill_value=_|-1)  -grad
unique_all(k[8], size=_|8)  -jit -vmap -grad
unique_counts(k[8], size=_|8)  -jit -vmap -grad
unique_inverse(k[8], size=_|8)  -jit -vmap -grad
unique_values(k[8], size=_|8)  -jit -vmap -grad
unpackbits(k[3], axis=_|0, count=_|4, bitorder=_|'little')
unravel_index(k[4], (2, 3)|(4, 5))  -grad
unstack(a[2, 3], axis=_|1)
unwrap(s[6], discont=_|1.0, period=_|3.0)  ~
vander(a[3], N=_|4|2, increasing=_|True)
var(n, axis=_|0|1, ddof=_|1, keepdims=_|True)
vdot(a[2, 3], a[2, 3])
vecdot(a[2, 3], a[3]|a[2, 3], axis=_|-1)
vecmat(a[3], a[3, 2]|a[4, 3, 2])
vectorize(jnp.add)(a, a)
vectorize(lambda x, y: x * y + 1)(a, a)
vsplit(a[4, 2], 2|[1, 3])
vstack([a, a])
where(b, a, a)
where(b, size=4|6, fill_value=_|-1)  -grad
zeros((2, 3)|3|(), dtype=_|jnp.int8|bool)
zeros_like(a, dtype=_|jnp.int8, shape=_|(4, 1))
minmax(a)
int4(x)
uint4(x)
int2(x)
uint2(x)
int1(x)
uint1(x)
float8_e4m3fn(x)
float8_e5m2(x)
float8_e4m3b11fnuz(x)
float8_e4m3fnuz(x)
float8_e5m2fnuz(x)
float8_e3m4(x)
float8_e4m3(x)
float8_e8m0fnu(x)
float4_e2m1fn(x)
float6_e2m3fn(x)
float6_e3m2fn(x)
bfloat16(x)
"""

# Public callables with no line above, and why; the coverage test requires one or the other.
NUMPY_NOT_GENERATED = {
    "load": "file I/O (numpy's own .npy reader)", "save": "file I/O", "savez": "file I/O",
    "fromfile": "file I/O", "frompyfunc": "builds a ufunc from a Python function of scalars",
    "printoptions": "a context manager (NumPy's print options)",
    "set_printoptions": "changes process-wide print options",
    "ndarray": "the Array type itself (its methods: the Array table)",
}
