#pragma once
/// \file distlops.hpp
/// Everything of distlops in one include.

#include "distlops/config.hpp"
#include "distlops/core/buffer.hpp"
#include "distlops/core/collective_check.hpp"
#include "distlops/core/communicator.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/core/eigen.hpp"
#include "distlops/core/environment.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/ghost_cells.hpp"
#include "distlops/core/gpu_collectives.hpp"
#include "distlops/core/kernels.hpp"
#include "distlops/core/layout.hpp"
#include "distlops/core/local_array.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/partition.hpp"
#include "distlops/core/pointwise.hpp"
#include "distlops/core/random.hpp"
#include "distlops/core/redistribute.hpp"
#include "distlops/core/stacked_distributed_array.hpp"
#include "distlops/core/stacked_layout.hpp"
#include "distlops/core/transport.hpp"
#include "distlops/core/types.hpp"
#include "distlops/io/npy.hpp"
#include "distlops/operators/derivative/derivatives.hpp"
#include "distlops/operators/dottest.hpp"
#include "distlops/operators/halo.hpp"
#include "distlops/operators/linear_operator.hpp"
#include "distlops/operators/signal/nonstationary_convolve1d.hpp"
#include "distlops/operators/stack/block_diag.hpp"
#include "distlops/operators/stack/replicated.hpp"
#include "distlops/operators/stack/stacked.hpp"
#include "distlops/operators/stack/vstack.hpp"
#include "distlops/operators/vector_traits.hpp"
#if DISTLOPS_WITH_CUDA
#include "distlops/core/cuda_context.hpp"
#endif
#if DISTLOPS_WITH_NCCL
#include "distlops/core/nccl_communicator.hpp"
#endif
