// Small XLA FFI handlers the tests of jax_core.ffi compile and call (one file: built once per
// test module with `c++ -shared -fPIC -std=c++17 -O1 -I <jax_core.ffi.include_dir()>`).

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace {

bool SameDimensions(ffi::AnyBuffer::Dimensions a, ffi::AnyBuffer::Dimensions b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

// Root-mean-square normalisation along the last axis: y = x / sqrt(mean(x * x) + eps).
ffi::Error RmsNormImpl(float eps, ffi::Buffer<ffi::F32> x, ffi::ResultBuffer<ffi::F32> y) {
  auto dims = x.dimensions();
  if (dims.size() == 0) {
    return ffi::Error::InvalidArgument("rms_norm: the input must have at least one axis");
  }
  if (!SameDimensions(dims, y->dimensions())) {
    return ffi::Error::InvalidArgument("rms_norm: the result must have the input's shape");
  }
  const int64_t row = dims[dims.size() - 1];
  const int64_t total = static_cast<int64_t>(x.element_count());
  const float* in = x.typed_data();
  float* out = y->typed_data();
  for (int64_t start = 0; row > 0 && start < total; start += row) {
    float sum_sq = 0.0f;
    for (int64_t i = 0; i < row; ++i) sum_sq += in[start + i] * in[start + i];
    const float scale = 1.0f / std::sqrt(sum_sq / static_cast<float>(row) + eps);
    for (int64_t i = 0; i < row; ++i) out[start + i] = in[start + i] * scale;
  }
  return ffi::Error::Success();
}

// Two int32 results: a + factor * b and a - b. `b` is repeated over `a` when it has fewer
// elements (a leading axis of size 1 under vmap_method="expand_dims").
ffi::Error IntOpsImpl(int64_t factor, ffi::Buffer<ffi::S32> a, ffi::Buffer<ffi::S32> b,
                      ffi::ResultBuffer<ffi::S32> sum, ffi::ResultBuffer<ffi::S32> diff) {
  const size_t n = a.element_count();
  const size_t m = b.element_count();
  if (n == 0) return ffi::Error::Success();
  if (m == 0 || n % m != 0) {
    return ffi::Error::InvalidArgument("int_ops: b must tile a, got " + std::to_string(m) +
                                       " and " + std::to_string(n) + " elements");
  }
  const int32_t* pa = a.typed_data();
  const int32_t* pb = b.typed_data();
  int32_t* ps = sum->typed_data();
  int32_t* pd = diff->typed_data();
  for (size_t i = 0; i < n; ++i) {
    // Both operands are read before either result is written: a result may alias an operand.
    const int32_t ai = pa[i];
    const int32_t bi = pb[i % m];
    ps[i] = static_cast<int32_t>(ai + factor * bi);
    pd[i] = ai - bi;
  }
  return ffi::Error::Success();
}

std::atomic<int64_t> calls{0};

// Counts its calls (a side effect) and returns the count before this call.
ffi::Error CountCallsImpl(ffi::ResultBuffer<ffi::S32> previous) {
  previous->typed_data()[0] = static_cast<int32_t>(calls.fetch_add(1));
  return ffi::Error::Success();
}

}  // namespace

XLA_FFI_DEFINE_HANDLER_SYMBOL(RmsNorm, RmsNormImpl,
                              ffi::Ffi::Bind()
                                  .Attr<float>("eps")
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>());

XLA_FFI_DEFINE_HANDLER_SYMBOL(IntOps, IntOpsImpl,
                              ffi::Ffi::Bind()
                                  .Attr<int64_t>("factor")
                                  .Arg<ffi::Buffer<ffi::S32>>()
                                  .Arg<ffi::Buffer<ffi::S32>>()
                                  .Ret<ffi::Buffer<ffi::S32>>()
                                  .Ret<ffi::Buffer<ffi::S32>>());

XLA_FFI_DEFINE_HANDLER_SYMBOL(CountCalls, CountCallsImpl,
                              ffi::Ffi::Bind().Ret<ffi::Buffer<ffi::S32>>());

extern "C" int64_t call_count() { return calls.load(); }
