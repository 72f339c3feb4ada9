#pragma once
/// \file pad.hpp
/// `local::Pad`: zero padding of an N-d array (C order), PyLops' `Pad(dims, pad)`. `pad` has
/// one (before, after) pair per axis of `dims`; the range has the shape
/// dims[k] + before[k] + after[k], the forward places the model at offset `before` in an
/// otherwise zero array, and the adjoint extracts that block.
///
/// Errors: InvalidArgument for a negative pad or a bad shape; ShapeMismatch when the number of
/// pairs differs from the number of axes.

#include <vector>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/embed.hpp"

namespace distlops::local {

/// Padding of one axis: samples added before and after.
struct PadWidth {
  Index before = 0;
  Index after = 0;
};

/// Zero padding of arrays of shape `dims` by `pad[k]` along axis k.
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Pad(const Shape& dims, const std::vector<PadWidth>& pad);

extern template LocalOperator<float, Host> Pad<float, Host>(const Shape&,
                                                            const std::vector<PadWidth>&);
extern template LocalOperator<double, Host> Pad<double, Host>(const Shape&,
                                                              const std::vector<PadWidth>&);
extern template LocalOperator<std::complex<float>, Host> Pad<std::complex<float>, Host>(
    const Shape&, const std::vector<PadWidth>&);
extern template LocalOperator<std::complex<double>, Host> Pad<std::complex<double>, Host>(
    const Shape&, const std::vector<PadWidth>&);
#if DISTLOPS_WITH_CUDA
#define DISTLOPS_EXTERN_CUDA_PAD(T) \
  extern template LocalOperator<T, Cuda> Pad<T, Cuda>(const Shape&, const std::vector<PadWidth>&);
DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_EXTERN_CUDA_PAD)
#undef DISTLOPS_EXTERN_CUDA_PAD
#endif

}  // namespace distlops::local
