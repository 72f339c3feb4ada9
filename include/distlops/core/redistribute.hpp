// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file redistribute.hpp
/// `RedistributePlan`: moves an array between two layouts of the same global shape (another
/// distribution axis, other local extents, SCATTER <-> BROADCAST). The plan is computed once
/// (which boxes go to which rank) and executed many times, as FFT transposes need. Execution
/// goes through a Transport (transport.hpp): over MPI on host memory by default, or any
/// transport given, such as NcclTransport for device memory.

#include <cstddef>
#include <vector>

#include "distlops/core/layout.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/transport.hpp"

namespace distlops {

/// The messages that move an array from a source layout to a destination layout of the same
/// global shape, computed once and executed any number of times.
class RedistributePlan {
 public:
  /// Both layouts must have the same global shape over congruent communicators; otherwise
  /// ShapeMismatch on every rank. Masks are ignored: data move over the whole communicator.
  RedistributePlan(const Layout& source, const Layout& destination);

  /// The layout the data come from.
  const Layout& source() const { return source_; }
  /// The layout the data go to.
  const Layout& destination() const { return destination_; }

  /// Collective. `source_local` is this rank's block in the source layout, `destination_local`
  /// its block in the destination layout (host memory); they must not overlap.
  template <class T>
  void execute(Host, const T* source_local, T* destination_local) const {
    execute_bytes(host_transport_, sizeof(T), source_local, destination_local);
  }
  /// As execute(Host, ...), through `transport`, whose memory space the blocks live in. The
  /// transport's communicator must be congruent with the layouts'.
  template <class T>
  void execute(Transport& transport, const T* source_local, T* destination_local) const {
    execute_bytes(transport, sizeof(T), source_local, destination_local);
  }

  /// As execute(Host, ...), through the transport an operator keeps for blocks of Space.
  template <class T, MemorySpace Space>
  void execute(const KeptTransport<Space>& transport, const T* source_local,
               T* destination_local) const {
    execute_bytes(transport(source_.communicator()), sizeof(T), source_local, destination_local);
  }

  /// Bytes this rank sends to other ranks per execution.
  Index bytes_sent(std::size_t element_size) const;

 private:
  enum class Mode { local_copy, gather_contiguous, gather_boxes, exchange };
  struct Box {
    Shape corner;  // in the local coordinates of the block it belongs to
    Shape extent;
    Index count = 0;
  };
  void execute_bytes(Transport& transport, std::size_t element_size, const void* source,
                     void* destination) const;

  Layout source_;
  Layout destination_;
  Mode mode_ = Mode::local_copy;
  Shape source_block_, destination_block_, origin_;  // this rank's block shapes, and zeros
  std::vector<Box> send_boxes_;                      // per peer, in the source block
  std::vector<Box> recv_boxes_;                      // per peer, in the destination block
  std::vector<Index> send_counts_, recv_counts_;
  // Element offset of a peer's box in this rank's block where the box is contiguous there (it
  // goes straight from the source or into the destination), -1 where it is packed into or
  // unpacked from a workspace at the displacement below.
  std::vector<Index> send_direct_, recv_direct_;
  std::vector<Index> send_displacements_, recv_displacements_;
  Index send_packed_ = 0, recv_packed_ = 0;  // elements through the workspaces
  mutable std::vector<SendMessage> sends_;   // kept so that an execution allocates nothing
  mutable std::vector<ReceiveMessage> receives_;
  mutable MpiTransport host_transport_;
};

}  // namespace distlops
