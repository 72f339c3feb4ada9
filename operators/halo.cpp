#include "distlops/operators/halo.hpp"

#include <algorithm>

#include "distlops/core/collective_check.hpp"
#include "distlops/core/kernels.hpp"

namespace distlops {

namespace {

constexpr int halo_tag_to_minus = 32021;
constexpr int halo_tag_to_plus = 32022;

// Calls f(offset, count) for every contiguous run of the box [corner, corner + extent) of a
// C-order array of `shape`.
template <class F>
void for_each_run(const Shape& shape, const Shape& corner, const Shape& extent, F&& f) {
  const std::size_t ndim = shape.size();
  for (Index e : extent) {
    if (e == 0) return;
  }
  Shape strides(ndim, 1);
  for (std::size_t k = ndim; k-- > 1;)
    strides[k - 1] = strides[k] * shape[k];
  Shape index(ndim, 0);
  while (true) {
    Index offset = 0;
    for (std::size_t k = 0; k < ndim; ++k)
      offset += (corner[k] + index[k]) * strides[k];
    f(offset, extent[ndim - 1]);
    std::size_t k = ndim - 1;
    while (true) {
      if (k == 0) return;
      --k;
      if (++index[k] < extent[k]) break;
      index[k] = 0;
    }
  }
}

}  // namespace

HaloWidths HaloWidths::uniform(Index width, int ndim) {
  return {std::vector<Index>(static_cast<std::size_t>(ndim), width),
          std::vector<Index>(static_cast<std::size_t>(ndim), width), true};
}

HaloWidths HaloWidths::per_axis(const std::vector<Index>& widths) {
  return {widths, widths, false};
}

HaloWidths HaloWidths::per_side(const std::vector<Index>& widths) {
  if (widths.size() % 2 != 0) {
    throw InvalidArgument("Halo: per-side widths come in (minus, plus) pairs, got " +
                          std::to_string(widths.size()) + " values");
  }
  HaloWidths result{{}, {}, false};
  for (std::size_t i = 0; i < widths.size(); i += 2) {
    result.minus.push_back(widths[i]);
    result.plus.push_back(widths[i + 1]);
  }
  return result;
}

std::vector<Index> CartesianGrid::coordinates(int rank) const {
  std::vector<Index> result(shape.size());
  Index remainder = rank;
  for (std::size_t k = shape.size(); k-- > 0;) {
    result[k] = remainder % shape[k];
    remainder /= shape[k];
  }
  return result;
}

int CartesianGrid::rank_at(const std::vector<Index>& coordinates) const {
  Index rank = 0;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (coordinates[k] < 0 || coordinates[k] >= shape[k]) return -1;
    rank = rank * shape[k] + coordinates[k];
  }
  return static_cast<int>(rank);
}

namespace {

struct HaloGeometry {
  Shape core_start, core_shape, extended_shape, minus, plus;
};

HaloGeometry geometry(const Shape& dims, const CartesianGrid& grid, const HaloWidths& widths,
                      int rank) {
  HaloGeometry g;
  const std::vector<Index> coordinates = grid.coordinates(rank);
  for (std::size_t k = 0; k < dims.size(); ++k) {
    const std::vector<Index> split = default_split(dims[k], static_cast<int>(grid.shape[k]));
    Index start = 0;
    for (Index c = 0; c < coordinates[k]; ++c)
      start += split[c];
    const Index extent = split[coordinates[k]];
    const bool first = coordinates[k] == 0;
    const bool last = coordinates[k] == grid.shape[k] - 1;
    const Index minus = widths.trim_at_boundaries && first ? 0 : widths.minus[k];
    const Index plus = widths.trim_at_boundaries && last ? 0 : widths.plus[k];
    g.core_start.push_back(start);
    g.core_shape.push_back(extent);
    g.minus.push_back(minus);
    g.plus.push_back(plus);
    g.extended_shape.push_back(minus + extent + plus);
  }
  return g;
}

}  // namespace

namespace {

// Validates the arguments on every rank alike and completes the default grid.
Shape validated_grid(const Communicator& comm, const Shape& dims, const HaloWidths& widths,
                     Shape grid) {
  const int ndim = static_cast<int>(dims.size());
  if (grid.empty() && ndim > 0) {
    grid.assign(static_cast<std::size_t>(ndim), 1);
    grid.back() = comm.size();
  }
  Fingerprint fingerprint;
  fingerprint.add(std::span<const Index>(dims)).add(std::span<const Index>(grid));
  fingerprint.add(std::span<const Index>(widths.minus))
      .add(std::span<const Index>(widths.plus))
      .add(widths.trim_at_boundaries);
  collective_check(comm, fingerprint, "Halo: dims, grid or widths", [&] {
    if (ndim == 0) throw InvalidArgument("Halo: dims must have at least one axis");
    for (Index d : dims) {
      if (d < 0) throw InvalidArgument("Halo: negative extent in dims " + to_string(dims));
    }
    if (static_cast<int>(grid.size()) != ndim) {
      throw InvalidArgument("Halo: the process grid " + to_string(grid) + " must have " +
                            std::to_string(ndim) + " axes like dims " + to_string(dims));
    }
    for (Index g : grid) {
      if (g <= 0)
        throw InvalidArgument("Halo: the process grid " + to_string(grid) +
                              " has a non-positive extent");
    }
    if (element_count(grid) != comm.size()) {
      throw InvalidArgument("Halo: the process grid " + to_string(grid) + " holds " +
                            std::to_string(element_count(grid)) + " ranks, the communicator " +
                            std::to_string(comm.size()));
    }
    if (static_cast<int>(widths.minus.size()) != ndim ||
        static_cast<int>(widths.plus.size()) != ndim) {
      throw InvalidArgument("Halo: widths for " + std::to_string(widths.minus.size()) +
                            " axes given for an array of " + std::to_string(ndim));
    }
    for (int k = 0; k < ndim; ++k) {
      if (widths.minus[k] < 0 || widths.plus[k] < 0) {
        throw InvalidArgument("Halo: ghost widths must be non-negative");
      }
      // One-hop exchanges: a neighbour's block must hold the planes it sends.
      const std::vector<Index> split = default_split(dims[k], static_cast<int>(grid[k]));
      for (Index c = 0; c + 1 < grid[k]; ++c) {
        const bool minus_side = split[c] < widths.minus[k];
        if (minus_side || split[c + 1] < widths.plus[k]) {
          throw InvalidArgument("Halo: a ghost width of " +
                                std::to_string(minus_side ? widths.minus[k] : widths.plus[k]) +
                                " along axis " + std::to_string(k) + " exceeds the block of " +
                                std::to_string(minus_side ? split[c] : split[c + 1]) +
                                " plane(s) of grid coordinate " +
                                std::to_string(minus_side ? c : c + 1) +
                                "; use fewer ranks along this axis or a narrower halo");
        }
      }
    }
  });
  return grid;
}

}  // namespace

template <Scalar T, MemorySpace Space>
HaloOperator<T, Space>::HaloOperator(const Communicator& comm, Shape dims, HaloWidths widths,
                                     Shape grid)
    : HaloOperator(comm, dims, widths, CartesianGrid{validated_grid(comm, dims, widths, grid)}, 0) {
}

template <Scalar T, MemorySpace Space>
HaloOperator<T, Space>::HaloOperator(const Communicator& comm, const Shape& dims,
                                     const HaloWidths& widths, const CartesianGrid& grid, int)
    : LinearOperatorBase<Array>(
          Layout::from_local_shape(
              comm, {element_count(geometry(dims, grid, widths, comm.rank()).core_shape)}),
          Layout::from_local_shape(
              comm, {element_count(geometry(dims, grid, widths, comm.rank()).extended_shape)}),
          "Halo"),
      dims_(dims),
      grid_(grid) {
  const HaloGeometry g = geometry(dims_, grid_, widths, comm.rank());
  core_start_ = g.core_start;
  core_shape_ = g.core_shape;
  extended_shape_ = g.extended_shape;
  minus_ = g.minus;
  plus_ = g.plus;
  const std::vector<Index> coordinates = grid_.coordinates(comm.rank());
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    std::vector<Index> neighbour = coordinates;
    --neighbour[k];
    minus_neighbour_.push_back(grid_.rank_at(neighbour));
    neighbour[k] += 2;
    plus_neighbour_.push_back(grid_.rank_at(neighbour));
    // A neighbour is never at the array end on the side facing this rank: untrimmed widths.
    neighbour_plus_width_.push_back(minus_neighbour_.back() >= 0 ? widths.plus[k] : 0);
    neighbour_minus_width_.push_back(plus_neighbour_.back() >= 0 ? widths.minus[k] : 0);
  }
}

template <Scalar T, MemorySpace Space>
void HaloOperator<T, Space>::forward(const Array& x, Array& y) const {
  T* extended = y.data();
  std::fill(extended, extended + element_count(extended_shape_), T(0));
  kernels::copy_box(Host{}, sizeof(T), x.data(), {core_shape_, Shape(core_shape_.size(), 0)},
                    extended, {extended_shape_, minus_}, core_shape_);
  exchange(extended, false);
}

template <Scalar T, MemorySpace Space>
void HaloOperator<T, Space>::adjoint(const Array& y, Array& x) const {
  const Index size = element_count(extended_shape_);
  if (workspace_.size() < size) workspace_ = Buffer<T, Space>(size);
  T* extended = workspace_.data();
  std::copy(y.data(), y.data() + size, extended);
  exchange(extended, true);
  kernels::copy_box(Host{}, sizeof(T), extended, {extended_shape_, minus_}, x.data(),
                    {core_shape_, Shape(core_shape_.size(), 0)}, core_shape_);
}

template <Scalar T, MemorySpace Space>
void HaloOperator<T, Space>::exchange(T* extended, bool accumulate) const {
  const int ndim = static_cast<int>(dims_.size());
  const Communicator& comm = this->domain().communicator();
  const Shape zero(static_cast<std::size_t>(ndim), 0);
  // A slab: planes [first, first + count) along axis k, the whole extended block otherwise.
  auto slab = [&](int k, Index first, Index count) {
    Shape corner(static_cast<std::size_t>(ndim), 0), extent = extended_shape_;
    corner[k] = first;
    extent[k] = count;
    return std::pair<Shape, Shape>{corner, extent};
  };
  auto ensure = [&](Buffer<T, Space>& buffer, Index size) {
    if (buffer.size() < size) buffer = Buffer<T, Space>(size);
  };
  auto pack = [&](const std::pair<Shape, Shape>& box, Buffer<T, Space>& buffer) {
    ensure(buffer, element_count(box.second));
    kernels::copy_box(Host{}, sizeof(T), extended, {extended_shape_, box.first}, buffer.data(),
                      {box.second, zero}, box.second);
  };
  auto unpack = [&](const Buffer<T, Space>& buffer, const std::pair<Shape, Shape>& box) {
    if (!accumulate) {
      kernels::copy_box(Host{}, sizeof(T), buffer.data(), {box.second, zero}, extended,
                        {extended_shape_, box.first}, box.second);
      return;
    }
    const T* source = buffer.data();
    for_each_run(extended_shape_, box.first, box.second, [&](Index offset, Index count) {
      for (Index i = 0; i < count; ++i)
        extended[offset + i] += source[i];
      source += count;
    });
  };
  auto clear = [&](const std::pair<Shape, Shape>& box) {
    for_each_run(extended_shape_, box.first, box.second, [&](Index offset, Index count) {
      std::fill(extended + offset, extended + offset + count, T(0));
    });
  };

  for (int step = 0; step < ndim; ++step) {
    // Forward: axes in order, each slab carrying the ghost cells of the axes before it (so
    // corners arrive). Adjoint: the transpose, axes in reverse order.
    const int k = accumulate ? ndim - 1 - step : step;
    const Index core = core_shape_[k], minus = minus_[k], plus = plus_[k];
    // Where this rank's ghost cells are, and which of its planes its neighbours hold.
    const auto minus_ghosts = slab(k, 0, minus);
    const auto plus_ghosts = slab(k, minus + core, plus);
    const auto first_planes = slab(k, minus, neighbour_plus_width_[k]);
    const auto last_planes =
        slab(k, minus + core - neighbour_minus_width_[k], neighbour_minus_width_[k]);
    // Forward: ghosts <- neighbours' planes. Adjoint: neighbours' planes += ghosts.
    const auto& receive_into_minus = accumulate ? first_planes : minus_ghosts;
    const auto& receive_into_plus = accumulate ? last_planes : plus_ghosts;
    const auto& send_to_minus = accumulate ? minus_ghosts : first_planes;
    const auto& send_to_plus = accumulate ? plus_ghosts : last_planes;

    std::vector<Request> requests;
    if (minus_neighbour_[k] >= 0) {
      ensure(receive_minus_, element_count(receive_into_minus.second));
      requests.push_back(comm.irecv(receive_minus_.data(), element_count(receive_into_minus.second),
                                    minus_neighbour_[k], halo_tag_to_plus));
      pack(send_to_minus, send_minus_);
      requests.push_back(comm.isend(send_minus_.data(), element_count(send_to_minus.second),
                                    minus_neighbour_[k], halo_tag_to_minus));
    }
    if (plus_neighbour_[k] >= 0) {
      ensure(receive_plus_, element_count(receive_into_plus.second));
      requests.push_back(comm.irecv(receive_plus_.data(), element_count(receive_into_plus.second),
                                    plus_neighbour_[k], halo_tag_to_minus));
      pack(send_to_plus, send_plus_);
      requests.push_back(comm.isend(send_plus_.data(), element_count(send_to_plus.second),
                                    plus_neighbour_[k], halo_tag_to_plus));
    }
    if (accumulate) {
      // The ghost cells are consumed: they must not travel again along earlier axes.
      clear(minus_ghosts);
      clear(plus_ghosts);
    }
    wait_all(requests);
    if (minus_neighbour_[k] >= 0) unpack(receive_minus_, receive_into_minus);
    if (plus_neighbour_[k] >= 0) unpack(receive_plus_, receive_into_plus);
  }
}

template class HaloOperator<float, Host>;
template class HaloOperator<double, Host>;
template class HaloOperator<std::complex<float>, Host>;
template class HaloOperator<std::complex<double>, Host>;

}  // namespace distlops
