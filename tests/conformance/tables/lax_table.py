"""``jax_core.lax``: one line per public callable (the language: tests/conformance/spec.py)."""

LAX = """
abs(n)
acos(u)  ~
acosh(p)  ~
add(a, a)
argmax(r, 0|1, jnp.int32|jnp.int8)  -grad
argmin(r, 1|0, jnp.int32)  -grad
asin(u)  ~
asinh(f)  ~
atan(f)  ~
atan2(x, x)  ~
atanh(u)  ~
batch_matmul(s[2, 2, 3], s[2, 3, 4])
bessel_i0e(x)  ~
bessel_i1e(x)  ~
betainc(q, q, q)  ~64 -grad
bitcast_convert_type(a, jnp.int32|jnp.uint8|jnp.float32|jnp.int16)  -grad
bitwise_and(i, i)
bitwise_not(i)
bitwise_or(i, i)
bitwise_xor(i, i)
broadcast(a, (4,)|(2, 1)|())
broadcast_in_dim(a[3], (2, 3)|(3, 2), (1,)|(0,))
broadcast_like(a[3]|a[2, 1], a[2, 3])
broadcast_shapes((2, 1), (3,)|(1,))
broadcast_to_rank(a, 3|2|1)
broadcasted_iota(jnp.int32|jnp.float32|jnp.int8, (2, 3), 0|1|2)
cbrt(x)  ~
ceil(x)
clamp(a[-1], a, a[-1])
clamp(s, s, s)
clz(z)
collapse(a[2, 3, 4], 0|1, 2|3|None)
complex(x, x)
concatenate([a, a], 0|1|2)
conj(n)
conv(s[1, 2, 5, 5], s[3, 2, 3, 3], (1, 1)|(2, 1), 'SAME'|'VALID')  ~4
conv_dimension_numbers((1, 2, 5, 5), (3, 2, 3, 3), ('NCHW', 'OIHW', 'NCHW')|('NHWC', 'HWIO', 'NHWC')|None)
conv_general_dilated(s[1, 2, 5, 5], s[3, 2, 3, 3], (1, 1)|(2, 2), 'SAME'|'VALID'|((1, 0), (0, 1)), lhs_dilation=_|(2, 1), rhs_dilation=_|(1, 2), feature_group_count=_|2)  ~4
conv_general_dilated(s[1, 5, 5, 2], s[3, 3, 2, 4], (1, 1), 'SAME', dimension_numbers=('NHWC', 'HWIO', 'NHWC'), precision=_|'highest')  ~4
conv_general_dilated_local(s[1, 2, 4, 4], s[4, 18, 3, 3]|s[4, 18, 2, 2], (1, 1), 'SAME'|'VALID', filter_shape=(3, 3))  ~4
conv_general_dilated_patches(s[1, 2, 4, 4], (2, 2)|(3, 3), (1, 1)|(2, 2), 'SAME'|'VALID')
conv_general_permutations(('NCHW', 'OIHW', 'NCHW')|('NHWC', 'HWIO', 'NHWC'))
conv_general_shape_tuple((1, 2, 5, 5), (3, 2, 3, 3), (1, 1)|(2, 2), 'SAME'|'VALID'|[(1, 1), (0, 0)], ('NCHW', 'OIHW', 'NCHW'))
conv_shape_tuple((1, 2, 5, 5), (3, 2, 3, 3), (1, 1)|(2, 2), 'SAME'|'VALID')
conv_transpose(s[1, 5, 5, 2], s[3, 3, 2, 4]|s[2, 2, 2, 4], (1, 1)|(2, 2), 'SAME'|'VALID', dimension_numbers=('NHWC', 'HWIO', 'NHWC'), transpose_kernel=_|True)  ~4
conv_transpose_shape_tuple((1, 2, 5, 5), (3, 2, 3, 3), (1, 1)|(2, 2), 'SAME'|'VALID', ('NCHW', 'OIHW', 'NCHW'))
conv_with_general_padding(s[1, 2, 5, 5], s[3, 2, 3, 3], (1, 1), ((1, 1), (0, 2))|'SAME', (1, 1)|(2, 1), (1, 1)|(1, 2))  ~4
convert_element_type(a, jnp.int32|jnp.float16|jnp.bool_|jnp.complex64|jnp.uint8|jnp.bfloat16)
cos(f)  ~
cosh(f)  ~
cumlogsumexp(x, axis=_|1, reverse=_|True)  ~
cummax(r, axis=_|1, reverse=_|True)
cummin(r, axis=_|1, reverse=_|True)
cumprod(n, axis=_|1, reverse=_|True)
cumsum(n, axis=_|1, reverse=_|True)
digamma(x)  ~
div(n, n)
dot(a[2, 3], a[3]|a[3, 4], precision=_|'highest'|lax.Precision.DEFAULT, preferred_element_type=_|jnp.float32)
dot_general(a[2, 3, 4], a[2, 4, 5], (((2,), (1,)), ((0,), (0,)))|(((2,), (1,)), ((), ())), preferred_element_type=_|jnp.float32)
dtype(a|2.5|3|True|jnp.int8, canonicalize=_|True)
dynamic_index_in_dim(a[4, 3], 1|-1|5, axis=_|1, keepdims=_|False)
dynamic_slice(a[4, 5], (1, 2)|(3, 4)|(-1, 0), (2, 2))
dynamic_slice(a[4, 5], (k[-1], k[-1]), (2, 3))
dynamic_slice_in_dim(a[4, 5], 1|3|-2, 2, axis=_|1)
dynamic_update_index_in_dim(a[4, 3], a[3]|a[1, 3], 2|-1|9, 0)
dynamic_update_slice(a[4, 5], a[2, 2], (1, 2)|(3, 4)|(-1, 0))
dynamic_update_slice_in_dim(a[4, 5], a[2, 5], 1|3, 0)
empty(jnp.float32|jnp.int8)
eq(a, a)
erf(x)  ~
erf_inv(u)  ~
erfc(x)  ~
exp(f)  ~
exp2(f)  ~
expand_dims(a, (0,)|(0, 2)|(-1,))
expm1(f)  ~
fft(c[4, 8], 'FFT'|'IFFT'|lax.FftType.FFT, (8,)|(4, 8))  ~4
fft(s[4, 8], 'RFFT', (8,))  ~4
floor(x)
full((2, 3)|(), 7|2.5, dtype=_|jnp.int8|jnp.float16)
full_like(a, 7|2.5|True, dtype=_|jnp.int8, shape=_|(4,))
gather(s[5, 3], k[2, 1], lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,)), (1, 3), mode=_|'clip'|'fill'|lax.GatherScatterMode.PROMISE_IN_BOUNDS)
ge(r, r)
gt(r, r)
igamma(p, p)  ~64 -grad
igamma_grad_a(p, p)  ~64 -grad
igammac(p, p)  ~64 -grad
imag(c)
index_in_dim(a[4, 3], 1|-1, axis=_|1, keepdims=_|False)
index_take(a[4, 3], (k[2],), (0,))
integer_pow(n, 2|3|0|-2)
iota(jnp.int32|jnp.float32|jnp.uint8, 5|0)
is_finite(x)
le(r, r)
lgamma(x)  ~
log(f)  ~
log1p(f)  ~
log2(f)  ~
logistic(f)  ~
lt(r, r)
max(r, r)
min(r, r)
mul(a, a)
ne(a, a)
neg(n)
nextafter(x, x)
one_minus_square(f)
optimization_barrier(a)
pad(a[2, 3], 0|7, ((1, 2, 0), (0, 1, 1))|((-1, 0, 0), (1, 1, 2)))
padtype_to_pads((5, 5), (3, 3), (1, 1)|(2, 2), 'SAME'|'VALID'|'SAME_LOWER')
polygamma(s, p)  ~64 -grad
polynomial(f, [1.0, -2.0, 0.5]|[0.5, 1.5, -1.0, 2.0, 0.25, -3.0, 1.0, 0.5, 2.0, -1.5], unroll=_|3)  ~
population_count(z)
pow(f, f)  ~
pow(x, z)  ~
real(c)
reciprocal(f)
reduce_and(i, (0,)|(0, 1)|(1,))
reduce_max(r, (0,)|(0, 1)|(1,))
reduce_min(r, (1,)|())
reduce_or(i, (0,)|(1,))
reduce_precision(x, 5|2, 10|1)
reduce_prod(n, (0,)|(0, 1))
reduce_sum(n, (0,)|(0, 1)|())
reduce_window(s[4, 6], 0.0|-jnp.inf, lax.add|lax.max, (2, 2)|(1, 3), (1, 1)|(2, 2), 'VALID'|'SAME'|((1, 0), (0, 1)))
reduce_window_shape_tuple((4, 6), (2, 2)|(1, 3), (1, 1)|(2, 2), ((0, 0), (0, 0))|((1, 0), (0, 1)))
reduce_xor(i, (0,)|(1,))
reduce(s, 0.0|1.0|-jnp.inf, lax.add|lax.mul|lax.max|(lambda x, y: x * 2 + y), (0,)|(1,)|(0, 1))
reduce(z, 0|1, lax.add|lax.bitwise_and, (1,))
rem(n, n)
reshape(a[6], (3, 2)|(2, 3)|(6,), dimensions=_|(0,))
reshape(a[2, 3], (3, 2)|(6,), dimensions=_|(1, 0))
rev(a, (0,)|(1,)|(0, 1)|())
rng_bit_generator(k[4].astype(jnp.uint32)|k[2].astype(jnp.uint32), (2, 3)|(5,), dtype=_|jnp.uint8|jnp.uint64, algorithm=_|lax.RandomAlgorithm.RNG_THREE_FRY)  -vmap -grad
round(x, _|lax.RoundingMethod.TO_NEAREST_EVEN|1)
rsqrt(f)  ~
select(b, a, a)
select_n(b|k, a, a)
shift_left(z, z)
shift_right_arithmetic(z, z)
shift_right_logical(z, z)
sign(n)
sin(f)  ~
sinh(f)  ~
slice(a[4, 5], (1, 0)|(0, 2), (3, 5)|(4, 4), _|(2, 2))
slice_in_dim(a[4, 5], 1|0|-3, 3|None, stride=_|2, axis=_|1)
sort(r, dimension=_|0|1, is_stable=_|False, num_keys=_)
sort((r[5], r[5]), num_keys=1|2)
sort_key_val(r[5], a[5], dimension=_|0)
split(a[6, 4], (2, 4)|(6,)|(1, 1, 4), axis=_|0)
sqrt(f)  ~
square(n)
squeeze(a[1, 3, 1], (0,)|(0, 2)|(-1,))
stop_gradient(a)
sub(n, n)
tan(f)  ~
tanh(f)  ~
tile(a, (2, 1)|(1, 2, 2))
top_k(r[6], 2|6|0)
top_k(r[3, 6], 3, axis=_|0)
transpose(a[2, 3, 4], (1, 2, 0)|(0, 1, 2)|(2, 0, 1))
zeta(p, p)  ~64 -grad
associative_scan(lax.add|jnp.maximum, n, reverse=_|True, axis=_|1)
cond(b[-1], lambda x: x + 1, lambda x: x * 2, a)
fori_loop(0, 3|0, lambda i, c: c * 2 + i, n)
map(lambda x: x * 2 + 1, a, batch_size=_|2)
scan(lambda c, x: (c + x, c * x), a[3], a[4, 3], reverse=_|True, unroll=_|2)
switch(k[-1], [lambda x: x + 1, lambda x: x * 2, lambda x: -x], a)
while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 2), (0, n))
"""

LAX_NOT_GENERATED = {
    "axis_index": "needs a named axis (vmap/pmap/shard_map): tests/transforms",
    "all_gather": "a collective: needs a named axis (tests/lax/test_collectives_vmap.py, tests/sharding)",
    "all_to_all": "a collective: needs a named axis (tests/lax/test_collectives_vmap.py, tests/sharding)",
    "axis_size": "needs a named axis (tests/sharding/test_shard_map.py)",
    "pbroadcast": "a collective: needs a named axis (tests/lax/test_collectives_vmap.py)",
    "pcast": "a variance cast inside shard_map (tests/sharding/test_variance.py)",
    "ppermute": "a collective: needs a named axis (tests/lax/test_collectives_vmap.py, tests/sharding)",
    "pshuffle": "a collective: needs a named axis (tests/lax/test_collectives_vmap.py)",
    "psum_scatter": "a collective: needs a named axis (tests/lax/test_collectives_vmap.py, tests/sharding)",
    "pswapaxes": "a collective: needs a named axis (tests/lax/test_collectives_vmap.py)",
    "with_sharding_constraint": "a layout over a mesh of several devices (tests/sharding/test_spmd_jit.py)",
    "pmax": "a collective: needs a named axis (tests/transforms)",
    "pmean": "a collective: needs a named axis (tests/transforms)",
    "pmin": "a collective: needs a named axis (tests/transforms)",
    "psum": "a collective: needs a named axis (tests/transforms)",
    "random_gamma_grad": "an internal of random.gamma's derivative; compared through random.gamma's grad",
    "scatter": "built from ScatterDimensionNumbers: LAX_SCATTERS below",
    "scatter_add": "LAX_SCATTERS", "scatter_apply": "LAX_SCATTERS", "scatter_max": "LAX_SCATTERS",
    "scatter_min": "LAX_SCATTERS", "scatter_mul": "LAX_SCATTERS", "scatter_sub": "LAX_SCATTERS",
    "unstack": "LAX_EXTRA", "stack": "LAX_EXTRA",
}

_DN = ("lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,), "
       "scatter_dims_to_operand_dims=(0,))")  # fmt: skip
LAX_EXTRA = f"""
scatter(a[5, 3], k[2, 1], a[2, 3], {_DN}, mode=_|'clip'|'drop'|'promise_in_bounds')
scatter_add(n[5, 3], k[2, 1], n[2, 3], {_DN}, mode=_|'clip'|'drop', indices_are_sorted=_|True)
scatter_sub(n[5, 3], k[2, 1], n[2, 3], {_DN})
scatter_mul(n[5, 3], k[2, 1], n[2, 3], {_DN})
scatter_min(r[5, 3], k[2, 1], r[2, 3], {_DN})
scatter_max(r[5, 3], k[2, 1], r[2, 3], {_DN})
scatter_apply(n[5, 3], k[2, 1], lambda x: x * 2, {_DN}, update_shape=(2, 3))
unstack(a[2, 3], axis=_|1)
stack([a, a], axis=_|1)
"""
