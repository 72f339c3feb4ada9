// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file ghost_cells.hpp
/// `GhostExchange`: fetches, for every rank, the cells just outside its block from the ranks
/// that own them. Two forms: along the distribution axis of a slab, the planes before ("front")
/// and after ("back") the block (PyLops-MPI's add_ghost_cells); and on every axis of any
/// SCATTER layout (slabs, grids, explicit boxes), per-axis widths around the block, across its
/// faces only (star stencils) or with edges and corners (box stencils). Planned once (which
/// ranks send which boxes), executed with non-blocking point-to-point messages so that callers
/// can compute on interior data while the ghost cells travel. Execution goes through a
/// Transport (transport.hpp): MPI on host memory by default, or any transport given, such as
/// NcclTransport for device memory.

#include <cstddef>
#include <span>
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

/// Ghost widths along one axis of a box exchange: planes before and after a rank's block.
struct GhostWidths {
  Index front = 0;  ///< Planes before the block.
  Index back = 0;   ///< Planes after the block.
};

/// Which cells around a block a box exchange fills.
enum class GhostRegion {
  /// Across the faces only: along each axis, the ghost planes over the block's own extent on
  /// the other axes (star stencils: derivatives, Laplacians).
  faces,
  /// The whole extended box: faces, edges and corners (box stencils: N-d convolutions).
  full,
};

/// The plan of a ghost exchange for one SCATTER layout and one set of widths, reusable for any
/// number of arrays of that layout.
class GhostExchange {
 public:
  /// Collective over the layout's communicator: gathers every rank's requested widths (which
  /// may differ between ranks) and validates them on every rank alike. The first rank gets no
  /// front planes and the last no back planes; with GhostReach::any, widths are moreover
  /// clipped at the ends of the global array. Requires a SCATTER layout.
  GhostExchange(const Layout& layout, Index front, Index back,
                GhostReach reach = GhostReach::neighbours);

  /// A box exchange: ghost cells on every axis of a SCATTER layout of any kind. `widths` has one
  /// entry per axis of the array; widths may differ between ranks (they are gathered and
  /// validated on every rank alike: collective over the layout's communicator). With
  /// GhostReach::neighbours the layout needs a grid: along each axis the planes come from the
  /// adjacent rank of the grid, which must own that many planes along the axis (the first and
  /// last ranks of a grid line get none on their outer side), so that a grid cut into more parts
  /// than its axis has planes is an error wherever ghosts are asked of a rank that owns none.
  /// With GhostReach::any the cells come from whichever ranks own them, and widths are clipped
  /// at the ends of the array. The ghosted block is this rank's block extended by its widths
  /// (ghosted_shape()), the block itself at interior_corner().
  GhostExchange(const Layout& layout, std::span<const GhostWidths> widths,
                GhostReach reach = GhostReach::neighbours, GhostRegion region = GhostRegion::faces);

  /// The layout the plan was made for.
  const Layout& layout() const { return layout_; }
  /// True for a box exchange (the constructor with per-axis widths).
  bool is_box() const { return box_; }
  /// This rank's front ghost width after clipping (0 on the first rank). Slab exchanges.
  Index front() const { return front_; }
  /// This rank's back ghost width after clipping (0 on the last rank). Slab exchanges.
  Index back() const { return back_; }
  /// Shape of this rank's front (back) ghost block: the local shape with the distribution
  /// axis extent replaced by front() (back()). Slab exchanges; InvalidArgument otherwise.
  Shape front_shape() const;
  /// Shape of this rank's back ghost block (see front_shape()).
  Shape back_shape() const;
  /// Local shape extended by the ghost planes (along the distribution axis of a slab exchange,
  /// along every axis of a box exchange).
  Shape ghosted_shape() const;
  /// Box exchanges: this rank's widths per axis after clipping (slab exchanges: one entry per
  /// axis, front() and back() on the distribution axis).
  const std::vector<GhostWidths>& widths() const { return widths_; }
  /// Where this rank's block starts in the ghosted block: the front widths.
  Shape interior_corner() const;

  /// Box exchanges across faces (GhostRegion::faces): the shape of the face block before
  /// (`back` false) or after (`back` true) this rank's block along `axis`: the local shape with
  /// that axis's extent replaced by its width. InvalidArgument for other exchanges.
  Shape face_shape(int axis, bool back) const;
  /// Where that face block starts in the faces buffer of begin_faces(), in elements: the face
  /// blocks follow one another in C order, axis 0 front, axis 0 back, axis 1 front, ...
  Index face_offset(int axis, bool back) const;
  /// Elements of the faces buffer: the sum of the face blocks' sizes.
  Index faces_size() const { return faces_size_; }

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
    void* front_ghosts = nullptr;  // the ghosted block of a box exchange
    void* back_ghosts = nullptr;
    std::size_t element_size = 0;
    bool faces = false;  // a box exchange into separate face blocks
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
  /// Box exchanges: posts the receives of the ghost cells into `ghosted` (a C-order block of
  /// ghosted_shape()) and the sends of this rank's cells from `local`; end() completes them.
  /// The interior of `ghosted` (the block at interior_corner()) is not written: the caller
  /// copies the block there, or reads it from `local`, meanwhile.
  template <class T>
  Pending begin(Host, const T* local, T* ghosted) const {
    return begin_box_bytes(host_transport_, sizeof(T), local, ghosted);
  }
  /// As begin(Host, local, ghosted), through `transport`, in whose memory space the blocks live.
  template <class T>
  Pending begin(Transport& transport, const T* local, T* ghosted) const {
    return begin_box_bytes(transport, sizeof(T), local, ghosted);
  }

  /// Box exchanges across faces: posts the receives of the ghost cells into `faces` (the face
  /// blocks of face_shape(), at face_offset(), faces_size() elements) and the sends of this
  /// rank's cells from `local`; end() completes them. Unlike begin(local, ghosted), nothing of
  /// the block is copied or stored twice: a star stencil reads its points from `local` and, across
  /// the block's faces, from the face blocks.
  template <class T>
  Pending begin_faces(Host, const T* local, T* faces) const {
    return begin_faces_bytes(host_transport_, sizeof(T), local, faces);
  }
  /// As begin_faces(Host, ...), through `transport`, in whose memory space the blocks live.
  template <class T>
  Pending begin_faces(Transport& transport, const T* local, T* faces) const {
    return begin_faces_bytes(transport, sizeof(T), local, faces);
  }

  /// Waits for the messages of `pending` and unpacks the received cells into its ghost blocks.
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
  // One box of a box exchange: where it lies in the block it is read from (sends: the local
  // block) or written to (receives: the ghosted block).
  struct BoxTransfer {
    int peer = 0;
    Shape corner;
    Shape extent;
    Index count = 0;
    Index direct = -1;           // element offset where the box is contiguous in its block
    Index workspace_offset = 0;  // in elements, where it is not
    Shape block;                 // the block it is written to (face receives)
    Index block_offset = 0;      // where that block starts in its buffer (face receives)
  };
  Pending begin_bytes(Transport& transport, std::size_t element_size, const void* local,
                      void* front_ghosts, void* back_ghosts) const;
  Pending begin_box_bytes(Transport& transport, std::size_t element_size, const void* local,
                          void* ghosted) const;
  Pending begin_faces_bytes(Transport& transport, std::size_t element_size, const void* local,
                            void* faces) const;
  Pending post_box(Transport& transport, std::size_t element_size, const void* local, void* target,
                   const std::vector<BoxTransfer>& receives, Index unpack_elements) const;
  void end_box(Pending& pending) const;

  Layout layout_;
  bool box_ = false;
  std::vector<GhostWidths> widths_;
  Shape ghosted_shape_;
  Shape local_shape_;
  Shape origin_;  // zeros
  std::vector<BoxTransfer> box_sends_;
  std::vector<BoxTransfer> box_receives_;
  Index box_pack_elements_ = 0;  // workspace sizes of a box exchange, in elements
  Index box_unpack_elements_ = 0;
  bool faces_ = false;                      // GhostRegion::faces: face blocks available
  std::vector<BoxTransfer> face_receives_;  // the receives placed in the face blocks
  Index face_unpack_elements_ = 0;
  Shape face_offsets_;  // 2 per axis: front, back
  Index faces_size_ = 0;
  mutable std::vector<SendMessage> box_send_messages_;  // kept: a begin() allocates nothing
  mutable std::vector<ReceiveMessage> box_receive_messages_;
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
