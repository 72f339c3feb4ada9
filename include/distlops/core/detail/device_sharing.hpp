// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file device_sharing.hpp
/// Whether NCCL can form a communicator over a set of ranks, decided from what every rank
/// reports about its device. NCCL refuses two ranks on one device ("Duplicate GPU detected",
/// ncclInvalidUsage) unless it is 2.30 or newer and NCCL_MULTI_RANK_GPU_ENABLE=1 is set; the
/// Cuda transport then stages through host memory instead (gpu_collectives_for()). Where NCCL
/// serves ranks that share a device (its multi-rank mode), each of them allocates its own
/// channels, one thread block each: the communicator limits them (nccl_channel_limit), as
/// NCCL's documentation of NCCL_MULTI_RANK_GPU_ENABLE advises, so that the kernels of all the
/// ranks on the device fit on it together.
///
/// The decision is a plain function of the reports gathered from every rank, so that every
/// rank reaches the same verdict, and tests can check it with reports of their own.

#include <array>
#include <cstdint>
#include <span>

namespace distlops::detail {

/// What one rank reports about its device. Plain bytes: it travels as such in an allgather.
struct DeviceReport {
  std::array<std::uint8_t, 16> uuid{};      // cudaDeviceProp::uuid
  std::int32_t nccl_version = 0;            // ncclGetVersion's code; 0 without NCCL
  std::int32_t multi_rank_gpu_enabled = 0;  // NCCL_MULTI_RANK_GPU_ENABLE=1 in its environment
};

/// The first NCCL (2.30.0, as ncclGetVersion codes it) that forms communicators with several
/// ranks on one device, behind NCCL_MULTI_RANK_GPU_ENABLE=1.
inline constexpr std::int32_t nccl_multi_rank_gpu_version = 23000;

/// The verdict on a set of ranks.
struct DeviceSharing {
  int first_rank = -1;  // two ranks on one device (the lowest such pair), -1 when none
  int second_rank = -1;
  int most_ranks_on_one_device = 1;  // the largest number of ranks that share a device
  bool nccl_possible = true;         // NCCL can form a communicator over these ranks

  bool shared() const { return first_rank >= 0; }
};

/// The verdict on the ranks whose reports are given, in rank order: NCCL is possible when every
/// rank has a device of its own, or when every rank runs an NCCL of at least
/// nccl_multi_rank_gpu_version with NCCL_MULTI_RANK_GPU_ENABLE=1.
DeviceSharing assess_device_sharing(std::span<const DeviceReport> reports);

/// Whether NCCL_MULTI_RANK_GPU_ENABLE in this process's environment holds a positive integer.
bool multi_rank_gpu_enabled_in_environment();

/// The most channels (thread blocks per collective, ncclConfig_t::maxCTAs) each rank of an NCCL
/// communicator may use where `ranks_on_device` of its ranks share a device of
/// `multiprocessors` multiprocessors: together at most half of them, at least one each; 0
/// (NCCL's own choice) where no device is shared.
int nccl_channel_limit(int multiprocessors, int ranks_on_device);

}  // namespace distlops::detail
