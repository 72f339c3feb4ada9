// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file ghost_cells.hpp
/// `GhostExchange`: fetches, for every rank, the planes just before ("front") and just after
/// ("back") its block along the distribution axis from the ranks that own them. Planned once
/// (which ranks send which planes), executed with non-blocking point-to-point messages so that
/// callers can compute on interior data while the ghost planes travel. Execution goes through
/// a Transport (transport.hpp): MPI on host memory by default, or any transport given, such as
/// NcclTransport for device memory.

#include <cstddef>
#include <vector>

#include "distlops/core/communicator.hpp"
#include "distlops/core/layout.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/transport.hpp"

namespace distlops {

/// Where ghost planes may come from.
enum class GhostReach {
  /// Only from the adjacent ranks (PyLops-MPI's add_ghost_cells): a request larger than the
  /// neighbour's block is an error.
  neighbours,
  /// From any rank: a request may span several small or empty blocks.
  any,
};

/// The plan of a ghost-plane exchange for one SCATTER layout and one pair of widths, reusable
/// for any number of arrays of that layout.
class GhostExchange {
 public:
  /// Collective over the layout's communicator: gathers every rank's requested widths (which
  /// may differ between ranks) and validates them on every rank alike. The first rank gets no
  /// front planes and the last no back planes; with GhostReach::any, widths are moreover
  /// clipped at the ends of the global array. Requires a SCATTER layout.
  GhostExchange(const Layout& layout, Index front, Index back,
                GhostReach reach = GhostReach::neighbours);

  /// The layout the plan was made for.
  const Layout& layout() const { return layout_; }
  /// This rank's front ghost width after clipping (0 on the first rank).
  Index front() const { return front_; }
  /// This rank's back ghost width after clipping (0 on the last rank).
  Index back() const { return back_; }
  /// Shape of this rank's front (back) ghost block: the local shape with the distribution
  /// axis extent replaced by front() (back()).
  Shape front_shape() const;
  /// Shape of this rank's back ghost block (see front_shape()).
  Shape back_shape() const;
  /// Local shape extended by the ghost planes.
  Shape ghosted_shape() const;

  /// An exchange that begin() started and end() must complete; move-only.
  class Pending {
   public:
    /// No exchange.
    Pending() = default;
    /// Takes over `other`'s exchange.
    Pending(Pending&&) noexcept = default;
    /// Takes over `other`'s exchange.
    Pending& operator=(Pending&&) noexcept = default;

   private:
    friend class GhostExchange;
    Request request;
    Transport* transport = nullptr;
    void* front_ghosts = nullptr;
    void* back_ghosts = nullptr;
    std::size_t element_size = 0;
  };

  /// Split-phase exchange. begin() posts the receives into `front_ghosts` / `back_ghosts`
  /// (C-order blocks of front_shape() / back_shape()) and the sends of this rank's planes
  /// from `local`; end() completes them. `local` must stay unchanged and the ghost blocks
  /// unread in between. The buffers are host memory, or memory of the space of the transport
  /// given, which must outlive the pending exchange. Collective in the sense that every rank
  /// of the layout must take part.
  template <class T>
  Pending begin(Host, const T* local, T* front_ghosts, T* back_ghosts) const {
    return begin_bytes(host_transport_, sizeof(T), local, front_ghosts, back_ghosts);
  }
  /// As begin(Host, ...), through `transport`, in whose memory space the blocks live.
  template <class T>
  Pending begin(Transport& transport, const T* local, T* front_ghosts, T* back_ghosts) const {
    return begin_bytes(transport, sizeof(T), local, front_ghosts, back_ghosts);
  }
  /// Waits for the messages of `pending` and unpacks the received planes into its ghost blocks.
  void end(Pending& pending) const;

  /// Blocking exchange: begin() then end(), host memory.
  template <class T>
  void exchange(Host, const T* local, T* front_ghosts, T* back_ghosts) const {
    Pending pending = begin(Host{}, local, front_ghosts, back_ghosts);
    end(pending);
  }
  /// Blocking exchange through `transport`.
  template <class T>
  void exchange(Transport& transport, const T* local, T* front_ghosts, T* back_ghosts) const {
    Pending pending = begin(transport, local, front_ghosts, back_ghosts);
    end(pending);
  }

 private:
  struct Transfer {
    int peer = 0;
    Index first_plane = 0;  // in the local coordinates of the block the planes belong to
    Index planes = 0;
    bool front = true;           // the planes are (or go into) the receiver's front ghosts
    bool staged = false;         // packed into / unpacked from a workspace (strided planes)
    Index workspace_offset = 0;  // in elements, when staged
  };
  Pending begin_bytes(Transport& transport, std::size_t element_size, const void* local,
                      void* front_ghosts, void* back_ghosts) const;

  Layout layout_;
  Index front_ = 0;
  Index back_ = 0;
  Index plane_size_ = 0;           // elements of one plane across the distribution axis
  bool contiguous_planes_ = true;  // planes are contiguous runs (nothing before the axis)
  std::vector<Transfer> sends_;
  std::vector<Transfer> receives_;
  Index pack_elements_ = 0;  // workspace sizes in elements
  Index unpack_elements_ = 0;
  mutable MpiTransport host_transport_;
};

}  // namespace distlops
