#pragma once
// BlockMover: runs the RedistributePlans (all-to-alls, all-gathers) of the FFT operators and
// MDC on blocks of memory space Space. Host blocks go over MPI directly. Device blocks go over
// NCCL through a transport kept between applies (detail::use_nccl), or, on the MPI path, are
// staged through host buffers kept between applies (the MPI here is not CUDA-aware). Nothing
// is allocated after the first run of each plan size.
#include <concepts>
#include <memory>
#include <vector>

#include "../../src/device_collectives.hpp"
#include "distlops/core/redistribute.hpp"

namespace distlops::detail {

template <class T, MemorySpace Space>
class BlockMover {
 public:
  /// Collective when it moves data between ranks.
  void run(const RedistributePlan& plan, const T* source, T* destination) const {
    if constexpr (std::same_as<Space, Host>) {
      plan.execute(Host{}, source, destination);
    } else {
      if constexpr (nccl_space<Space>) {
        const Communicator& comm = plan.source().communicator();
        if (use_nccl(comm)) {
          if (!transport_) transport_ = nccl_transport(comm);
          plan.execute(*transport_, source, destination);
          return;
        }
      }
      const auto source_size = static_cast<std::size_t>(plan.source().local_size());
      const auto destination_size = static_cast<std::size_t>(plan.destination().local_size());
      if (staged_source_.size() < source_size) staged_source_.resize(source_size);
      if (staged_destination_.size() < destination_size)
        staged_destination_.resize(destination_size);
      memory::copy_bytes<Host, Space>(staged_source_.data(), source, source_size * sizeof(T));
      plan.execute(Host{}, static_cast<const T*>(staged_source_.data()),
                   staged_destination_.data());
      memory::copy_bytes<Space, Host>(destination, staged_destination_.data(),
                                      destination_size * sizeof(T));
    }
  }

 private:
  mutable std::unique_ptr<Transport> transport_;
  // Host copies of device blocks (the MPI path).
  mutable std::vector<T> staged_source_, staged_destination_;
};

}  // namespace distlops::detail
