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
#include "distlops/core/redistribute.hpp"
#include "distlops/core/stacked_distributed_array.hpp"
#include "distlops/core/transport.hpp"
#include "distlops/core/types.hpp"
#if DISTLOPS_WITH_CUDA
#include "distlops/core/cuda_context.hpp"
#endif
#if DISTLOPS_WITH_NCCL
#include "distlops/core/nccl_communicator.hpp"
#endif
