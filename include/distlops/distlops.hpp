#pragma once
/// \file distlops.hpp
/// Everything of distlops in one include.

#include "distlops/core/buffer.hpp"
#include "distlops/core/collective_check.hpp"
#include "distlops/core/communicator.hpp"
#include "distlops/core/distributed_array.hpp"
#include "distlops/core/eigen.hpp"
#include "distlops/core/environment.hpp"
#include "distlops/core/error.hpp"
#include "distlops/core/ghost_cells.hpp"
#include "distlops/core/kernels.hpp"
#include "distlops/core/layout.hpp"
#include "distlops/core/local_array.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/partition.hpp"
#include "distlops/core/redistribute.hpp"
#include "distlops/core/stacked_distributed_array.hpp"
#include "distlops/core/types.hpp"
#include "distlops/io/npy.hpp"
