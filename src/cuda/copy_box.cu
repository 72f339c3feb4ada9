// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// copy_box for device memory. The copy is first reduced to its simplest strided form
// (box_copy_plan.hpp, shared with the host); one contiguous run is a cudaMemcpyAsync, anything
// else a kernel that copies words of the widest size the element size and the pointers'
// alignment allow.
#include <cstdint>
#include <vector>

#include "../box_copy_plan.hpp"
#include "distlops/core/detail/cuda_launch.cuh"
#include "distlops/core/kernels.hpp"

namespace distlops::kernels {

namespace {

using device::first_index;
using device::grid_stride;

// Axes outside the contiguous run that one launch handles; more are looped over on the host.
constexpr int max_outer_axes = 6;

struct BoxParameters {
  int outer_axes = 0;
  Index extent[max_outer_axes] = {};
  Index source_stride[max_outer_axes] = {};  // in words
  Index destination_stride[max_outer_axes] = {};
  Index rows = 1;  // product of the outer extents
  Index run = 1;   // contiguous words per row
};

// Offsets in words of the row with flat index `row` (C order over the outer axes). The loop has
// a fixed trip count so that the parameter arrays are indexed statically.
__device__ inline void row_offsets(const BoxParameters& p, Index row, Index& source,
                                   Index& destination) {
  source = 0;
  destination = 0;
#pragma unroll
  for (int k = max_outer_axes - 1; k >= 0; --k) {
    if (k < p.outer_axes) {
      const Index index = row % p.extent[k];
      row /= p.extent[k];
      source += index * p.source_stride[k];
      destination += index * p.destination_stride[k];
    }
  }
}

// Long runs: blocks along y take rows, threads along x copy the run.
template <class Word>
__global__ void copy_rows_kernel(const Word* from, Word* to, BoxParameters p) {
  for (Index row = blockIdx.y; row < p.rows; row += gridDim.y) {
    Index source = 0, destination = 0;
    row_offsets(p, row, source, destination);
    for (Index j = first_index(); j < p.run; j += grid_stride())
      to[destination + j] = from[source + j];
  }
}

// Short runs: one word per thread over the whole box.
template <class Word>
__global__ void copy_words_kernel(const Word* from, Word* to, BoxParameters p) {
  const Index total = p.rows * p.run;
  for (Index flat = first_index(); flat < total; flat += grid_stride()) {
    const Index row = flat / p.run;
    const Index j = flat - row * p.run;
    Index source = 0, destination = 0;
    row_offsets(p, row, source, destination);
    to[destination + j] = from[source + j];
  }
}

template <class Word>
void launch_copy(const void* from, void* to, const BoxParameters& p, cudaStream_t stream) {
  const auto* source = static_cast<const Word*>(from);
  auto* destination = static_cast<Word*>(to);
  if (p.run >= 128) {
    const dim3 grid(device::grid_size(p.run),
                    static_cast<unsigned>(std::min<Index>(p.rows, 65535)));
    copy_rows_kernel<<<grid, device::block_size, 0, stream>>>(source, destination, p);
  } else {
    copy_words_kernel<<<device::grid_size(p.rows * p.run), device::block_size, 0, stream>>>(
        source, destination, p);
  }
  cuda::check_launch("copy_box kernel launch");
}

// The widest word (8, 4, 2 or 1 bytes) that divides the element size and both addresses.
std::size_t word_size(std::size_t element_size, const void* a, const void* b) {
  const auto addresses = reinterpret_cast<std::uintptr_t>(a) | reinterpret_cast<std::uintptr_t>(b);
  for (std::size_t word : {std::size_t(8), std::size_t(4), std::size_t(2)}) {
    if (element_size % word == 0 && addresses % word == 0) return word;
  }
  return 1;
}

}  // namespace

void copy_box(Cuda, std::size_t element_size, const void* source_data, BoxView source,
              void* destination_data, BoxView destination, std::span<const Index> extent) {
  const detail::BoxCopyPlan plan = detail::plan_box_copy(source, destination, extent);
  if (plan.count == 0) return;
  const cudaStream_t stream = device::stream();
  const auto es = static_cast<Index>(element_size);
  const auto* from = static_cast<const std::byte*>(source_data) + plan.source_offset * es;
  auto* to = static_cast<std::byte*>(destination_data) + plan.destination_offset * es;
  const bool contiguous = plan.innermost_contiguous();
  if (plan.ndim() == 0 || (contiguous && plan.ndim() == 1)) {
    const Index elements = plan.ndim() == 0 ? 1 : plan.extent[0];
    cuda::check_cuda(cudaMemcpyAsync(to, from, static_cast<std::size_t>(elements * es),
                                     cudaMemcpyDeviceToDevice, stream),
                     "cudaMemcpyAsync (copy_box)");
    return;
  }
  // Rows of `run` contiguous words: the innermost axis when contiguous, else single elements.
  const std::size_t word = word_size(element_size, from, to);
  const auto words_per_element = static_cast<Index>(element_size / word);
  const std::size_t outer_axes = contiguous ? plan.ndim() - 1 : plan.ndim();
  const Index run = (contiguous ? plan.extent.back() : 1) * words_per_element;
  // The innermost max_outer_axes outer axes go to the kernel; the host loops over the others.
  const std::size_t looped = outer_axes > max_outer_axes ? outer_axes - max_outer_axes : 0;
  BoxParameters p;
  p.outer_axes = static_cast<int>(outer_axes - looped);
  p.run = run;
  for (int k = 0; k < p.outer_axes; ++k) {
    const std::size_t axis = looped + static_cast<std::size_t>(k);
    p.extent[k] = plan.extent[axis];
    p.source_stride[k] = plan.source_stride[axis] * words_per_element;
    p.destination_stride[k] = plan.destination_stride[axis] * words_per_element;
    p.rows *= plan.extent[axis];
  }
  detail::AxisIndices index(looped, 0);
  while (true) {
    Index source_offset = 0, destination_offset = 0;  // in elements
    for (std::size_t k = 0; k < looped; ++k) {
      source_offset += index[k] * plan.source_stride[k];
      destination_offset += index[k] * plan.destination_stride[k];
    }
    const std::byte* slab_from = from + source_offset * es;
    std::byte* slab_to = to + destination_offset * es;
    switch (word) {
      case 8:
        launch_copy<std::uint64_t>(slab_from, slab_to, p, stream);
        break;
      case 4:
        launch_copy<std::uint32_t>(slab_from, slab_to, p, stream);
        break;
      case 2:
        launch_copy<std::uint16_t>(slab_from, slab_to, p, stream);
        break;
      default:
        launch_copy<std::uint8_t>(slab_from, slab_to, p, stream);
        break;
    }
    if (looped == 0) return;
    std::size_t k = looped - 1;
    while (++index[k] == plan.extent[k]) {
      index[k] = 0;
      if (k == 0) return;
      --k;
    }
  }
}

}  // namespace distlops::kernels
