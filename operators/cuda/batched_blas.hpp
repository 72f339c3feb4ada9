#pragma once
// Batched products of row-major matrices on the device through cuBLAS'
// cublas<t>gemmStridedBatched (builds with the CUDA backend only; not part of the installed
// API). The batched counterpart of device_ops::gemm (device_kernels.hpp), for the
// per-frequency products of MDC; it has the layout of detail::SliceProducts
// (signal/slice_products.hpp), so Fredholm1's slices fit it as well.
#include "distlops/config.hpp"

#if DISTLOPS_WITH_CUDA

#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

namespace distlops::device_ops {

/// For every slice i < batch: out_i = alpha * op(A_i) * in_i + beta * out_i, with A_i the
/// row-major rows x cols matrix at a + i * rows * cols, op(A) = A or A^H (`adjoint`), and in_i,
/// out_i row-major with k columns, contiguous slices one after the other (in: cols x k, out:
/// rows x k; swapped when `adjoint`). out is not read when beta == 0. One cuBLAS call, on the
/// library's stream; its status is checked (DeviceError naming the call).
template <Scalar T>
void gemm_strided_batched(Cuda, bool adjoint, Index batch, Index rows, Index cols, const T* a,
                          Index k, T alpha, const T* in, T beta, T* out);

}  // namespace distlops::device_ops

#endif
