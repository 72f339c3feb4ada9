// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Sliding1D, Sliding2D and Patch2D: the window arithmetic and checks, and WindowedOperator,
// which applies the local operator window by window into an extended block of data rows and
// moves the rows its windows share with the next ranks (sliding.hpp).
#include "distlops/operators/signal/sliding.hpp"

#include <algorithm>
#include <map>

#include "../box_kernels.hpp"
#include "../support.hpp"
#include "distlops/core/collective_check.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/operators/stack/local_blocks.hpp"

namespace distlops {

std::vector<Index> sliding_windows(const std::string& op, Index n, Index nwin, Index nover) {
  if (nwin < 1 || nwin > n) {
    throw InvalidArgument(op + ": nwin = " + std::to_string(nwin) + " must be in [1, " +
                          std::to_string(n) + "] (the data's extent)");
  }
  if (nover < 0 || nover >= nwin) {
    throw InvalidArgument(op + ": nover = " + std::to_string(nover) +
                          " must be in [0, nwin = " + std::to_string(nwin) + ")");
  }
  std::vector<Index> starts;
  for (Index start = 0; start <= n - nwin; start += nwin - nover)
    starts.push_back(start);
  return starts;
}

namespace {

// Windows per rank: PyLops-MPI's split of `count`, or the user's.
std::vector<Index> window_split(const std::string& op, const Communicator& comm, Index count,
                                const std::vector<Index>& per_rank) {
  const int size = comm.size();
  if (per_rank.empty()) {
    std::vector<Index> split(static_cast<std::size_t>(size));
    for (int r = 0; r < size; ++r)
      split[static_cast<std::size_t>(r)] = count / size + (r < count % size ? 1 : 0);
    return split;
  }
  Index total = 0;
  bool negative = false;
  for (Index n : per_rank) {
    total += n;
    negative = negative || n < 0;
  }
  if (static_cast<int>(per_rank.size()) != size || negative || total != count) {
    throw InvalidArgument(op + ": windows_per_rank must give " + std::to_string(size) +
                          " non-negative counts summing to the " + std::to_string(count) +
                          " rows of windows, got " + detail::list_text(per_rank));
  }
  return per_rank;
}

struct RankRows {
  Index first_window = 0;
  Index own_begin = 0, own_end = 0;  // data rows owned
  Index reach = 0;                   // end of the rows its windows reach
};

// Every rank's rows: from the start of its first window to the start of the next rank's first
// window (the last rank with windows to the end).
std::vector<RankRows> rank_rows(const std::vector<Index>& starts, Index window, Index rows,
                                const std::vector<Index>& split) {
  const auto count = static_cast<Index>(starts.size());
  std::vector<RankRows> result(split.size());
  Index first = 0;
  for (std::size_t r = 0; r < split.size(); ++r) {
    RankRows& rr = result[r];
    rr.first_window = first;
    const Index end = first + split[r];
    rr.own_begin = first < count ? starts[static_cast<std::size_t>(first)] : rows;
    rr.own_end = end < count ? starts[static_cast<std::size_t>(end)] : rows;
    if (split[r] == 0) rr.own_end = rr.own_begin;
    rr.reach = split[r] > 0
                   ? std::max(rr.own_end, starts[static_cast<std::size_t>(end - 1)] + window)
                   : rr.own_end;
    first = end;
  }
  return result;
}

Layout model_layout(const Communicator& comm, const Shape& shape, const std::vector<Index>& split) {
  std::vector<Shape> local(split.size(), shape);
  for (std::size_t r = 0; r < split.size(); ++r)
    local[r][0] = split[r];
  return Layout(comm, shape, LayoutOptions{.local_shapes = local});
}

Layout data_layout(const Communicator& comm, const Shape& shape, const std::vector<Index>& starts,
                   Index window, const std::vector<Index>& split) {
  const std::vector<RankRows> rows = rank_rows(starts, window, shape[0], split);
  std::vector<Shape> local(split.size(), shape);
  for (std::size_t r = 0; r < split.size(); ++r)
    local[r][0] = rows[r].own_end - rows[r].own_begin;
  return Layout(comm, shape, LayoutOptions{.local_shapes = local});
}

// The taper of a window along one axis by its position: first and last keep 1 at the data's
// edge; a single window is not tapered.
std::vector<double> axis_taper(Index window, Index overlap, Taper type, Index position,
                               Index count) {
  if (count == 1) return std::vector<double>(static_cast<std::size_t>(window), 1.0);
  std::vector<double> t = taper(window, overlap, type);
  if (position == 0) std::fill(t.begin(), t.begin() + overlap, 1.0);
  if (position == count - 1) std::fill(t.end() - overlap, t.end(), 1.0);
  return t;
}

void check_taper(const std::string& op, Taper taper, Index nwin, Index nover) {
  if (taper != Taper::none && 2 * nover > nwin) {
    throw InvalidArgument(op + ": a " + to_string(taper) +
                          " taper of nover = " + std::to_string(nover) +
                          " samples needs windows of at least " + std::to_string(2 * nover) +
                          " samples, got nwin = " + std::to_string(nwin));
  }
}

template <class T, MemorySpace Space>
void check_operator(const std::string& op, const LocalOperator<T, Space>& local, Index rows,
                    Index cols) {
  if (local.rows() != rows || local.cols() != cols) {
    throw InvalidArgument(op + ": the operator is " + std::to_string(local.rows()) + " x " +
                          std::to_string(local.cols()) + ", a window needs " +
                          std::to_string(rows) + " x " + std::to_string(cols));
  }
}

}  // namespace

template <Scalar T, MemorySpace Space>
WindowedOperator<T, Space>::WindowedOperator(LocalOperator<T, Space> op, const Communicator& comm,
                                             Shape model_shape, Shape data_shape, Axis rows,
                                             Axis columns, Taper taper,
                                             const std::vector<Index>& split, std::string name)
    : LinearOperatorBase<Array>(model_layout(comm, model_shape, split),
                                data_layout(comm, data_shape, rows.starts, rows.window, split),
                                std::move(name)),
      op_(std::move(op)),
      rows_(std::move(rows)),
      columns_(std::move(columns)),
      comm_(comm) {
  agree_failures_ = detail::any_block_runs_user_code(std::vector{op_}, comm);
  columns_total_ = 1;
  for (std::size_t k = 1; k < data_shape.size(); ++k)
    columns_total_ *= data_shape[k];
  const std::vector<RankRows> all = rank_rows(rows_.starts, rows_.window, data_shape[0], split);
  const int me = comm.rank();
  const RankRows& mine = all[static_cast<std::size_t>(me)];
  first_window_ = mine.first_window;
  windows_ = split[static_cast<std::size_t>(me)];
  block_first_ = mine.own_begin;
  own_rows_ = mine.own_end - mine.own_begin;
  extended_rows_ = mine.reach - mine.own_begin;
  // Forward: the rows this rank's windows reach past its own go to their owners; the rows of
  // others' windows that reach into this rank's are added here.
  for (int q = 0; q < comm.size(); ++q) {
    if (q == me) continue;
    const RankRows& other = all[static_cast<std::size_t>(q)];
    const Index send_begin = std::max(mine.own_end, other.own_begin);
    const Index send_end = std::min(mine.reach, other.own_end);
    if (send_begin < send_end)
      sends_.push_back({q, send_begin - block_first_, send_end - send_begin});
    const Index receive_begin = std::max(other.own_end, mine.own_begin);
    const Index receive_end = std::min(other.reach, mine.own_end);
    if (receive_begin < receive_end) {
      receives_.push_back({q, receive_begin - block_first_, receive_end - receive_begin});
    }
  }
  // One taper per combination of positions along the two axes, shared by the windows.
  if (taper != Taper::none) {
    const auto row_count = static_cast<Index>(rows_.starts.size());
    const auto column_count = static_cast<Index>(columns_.starts.size());
    const auto kind = [](Index position, Index count) {
      return count == 1 ? 3 : position == 0 ? 0 : position == count - 1 ? 2 : 1;
    };
    std::map<std::pair<int, int>, Index> offsets;
    std::vector<T> values;
    for (Index i = 0; i < windows_; ++i) {
      const Index row = first_window_ + i;
      for (Index j = 0; j < column_count; ++j) {
        const std::pair<int, int> key{kind(row, row_count), kind(j, column_count)};
        auto found = offsets.find(key);
        if (found == offsets.end()) {
          const std::vector<double> t0 =
              axis_taper(rows_.window, rows_.overlap, taper, row, row_count);
          const std::vector<double> t1 =
              axis_taper(columns_.window, columns_.overlap, taper, j, column_count);
          found = offsets.emplace(key, static_cast<Index>(values.size())).first;
          for (double a : t0) {
            for (double b : t1)
              values.push_back(T(static_cast<real_type_t<T>>(a * b)));
          }
        }
        taper_of_.push_back(found->second);
      }
    }
    tapers_ = detail::copy_to_space<T, Space>(values);
  }
}

// Window (row i of this rank's, column j) of the extended block: gathered into `out` (a
// window-sized array) or added from `in` into the block.
template <Scalar T, MemorySpace Space>
void WindowedOperator<T, Space>::window_box(Index i, Index j, const T* in, T* out,
                                            bool gather) const {
  const Index row = rows_.starts[static_cast<std::size_t>(first_window_ + i)] - block_first_;
  const Index column = columns_.starts[static_cast<std::size_t>(j)];
  const Shape extent{rows_.window, columns_.window};
  const Shape block_strides{columns_total_, 1}, window_strides{columns_.window, 1};
  kernels::BoxAxpby box;
  box.extent = extent;
  box.in_first = Shape{0, 0};
  box.in_last = extent;
  if (gather) {
    box.in_strides = block_strides;
    box.out_strides = window_strides;
    box.in_offset = row * columns_total_ + column;
    kernels::box_axpby(Space{}, box, T(1), in, T(0), out);
  } else {
    box.in_strides = window_strides;
    box.out_strides = block_strides;
    box.out_offset = row * columns_total_ + column;
    kernels::box_axpby(Space{}, box, T(1), in, T(1), out);
  }
}

template <Scalar T, MemorySpace Space>
void WindowedOperator<T, Space>::exchange(bool forward) const {
  std::vector<ReceiveMessage> receives;
  std::vector<SendMessage> sends;
  const auto bytes = [&](Index rows) { return rows * columns_total_ * Index(sizeof(T)); };
  const auto at = [&](T* base, Index row) {
    return reinterpret_cast<std::byte*>(base + row * columns_total_);
  };
  Index incoming_rows = 0;
  for (const Piece& p : receives_)
    incoming_rows += p.count;
  if (forward && incoming_.size() < incoming_rows * columns_total_) {
    incoming_ = Buffer<T, Space>(incoming_rows * columns_total_);
  }
  // Forward: extension rows out, sums in (into `incoming_`); adjoint: own rows out, extension
  // rows in.
  Index next = 0;
  for (const Piece& p : receives_) {
    if (forward) {
      receives.push_back({at(incoming_.data(), next), bytes(p.count), p.peer, 0});
      next += p.count;
    } else {
      sends.push_back({at(extended_.data(), p.first), bytes(p.count), p.peer, 0});
    }
  }
  for (const Piece& p : sends_) {
    if (forward) {
      sends.push_back({at(extended_.data(), p.first), bytes(p.count), p.peer, 0});
    } else {
      receives.push_back({at(extended_.data(), p.first), bytes(p.count), p.peer, 0});
    }
  }
  if (!receives.empty() || !sends.empty()) {
    Request request = transport_(comm_).start(receives, sends);
    request.wait();
  }
  if (forward) {
    next = 0;
    for (const Piece& p : receives_) {
      kernels::axpy(Space{}, p.count * columns_total_, T(1),
                    incoming_.data() + next * columns_total_,
                    extended_.data() + p.first * columns_total_);
      next += p.count;
    }
  }
}

template <Scalar T, MemorySpace Space>
void WindowedOperator<T, Space>::forward_add(T alpha, const Array& x, T beta, Array& y) const {
  const Index block = extended_rows_ * columns_total_;
  if (extended_.size() < block) extended_ = Buffer<T, Space>(block);
  if (window_.size() < op_.rows()) window_ = Buffer<T, Space>(op_.rows());
  if (block > 0) kernels::fill(Space{}, block, T(0), extended_.data());
  const auto column_count = static_cast<Index>(columns_.starts.size());
  const auto apply_windows = [&] {
    for (Index i = 0; i < windows_; ++i) {
      for (Index j = 0; j < column_count; ++j) {
        const Index w = i * column_count + j;
        const auto model =
            LocalArray<T, Space>::wrap(op_.domain(), const_cast<T*>(x.data()) + w * op_.cols());
        auto data = LocalArray<T, Space>::wrap(op_.range(), window_.data());
        op_.apply(model, data);
        if (!taper_of_.empty()) {
          kernels::binary(Space{}, kernels::BinaryOp::multiply, op_.rows(), window_.data(),
                          tapers_.data() + taper_of_[static_cast<std::size_t>(w)], window_.data());
        }
        window_box(i, j, window_.data(), extended_.data(), false);
      }
    }
  };
  detail::apply_blocks(agree_failures_, comm_, apply_windows);
  exchange(true);
  const Index own = own_rows_ * columns_total_;
  if (own == 0) return;
  if (beta == T(0)) {
    kernels::copy(Space{}, own, extended_.data(), y.data());
    if (alpha != T(1)) kernels::scale(Space{}, own, alpha, y.data());
  } else {
    kernels::axpby(Space{}, own, alpha, extended_.data(), beta, y.data());
  }
}

template <Scalar T, MemorySpace Space>
void WindowedOperator<T, Space>::adjoint_add(T alpha, const Array& y, T beta, Array& x) const {
  const Index block = extended_rows_ * columns_total_;
  if (extended_.size() < block) extended_ = Buffer<T, Space>(block);
  if (window_.size() < op_.rows()) window_ = Buffer<T, Space>(op_.rows());
  const Index own = own_rows_ * columns_total_;
  if (own > 0) kernels::copy(Space{}, own, y.data(), extended_.data());
  exchange(false);
  const auto column_count = static_cast<Index>(columns_.starts.size());
  const auto apply_windows = [&] {
    for (Index i = 0; i < windows_; ++i) {
      for (Index j = 0; j < column_count; ++j) {
        const Index w = i * column_count + j;
        window_box(i, j, extended_.data(), window_.data(), true);
        if (!taper_of_.empty()) {
          kernels::binary(Space{}, kernels::BinaryOp::multiply, op_.rows(), window_.data(),
                          tapers_.data() + taper_of_[static_cast<std::size_t>(w)], window_.data());
        }
        const auto data = LocalArray<T, Space>::wrap(op_.range(), window_.data());
        auto model = LocalArray<T, Space>::wrap(op_.domain(), x.data() + w * op_.cols());
        op_.apply_adjoint_add(alpha, data, beta, model);
      }
    }
  };
  detail::apply_blocks(agree_failures_, comm_, apply_windows);
}

template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> Sliding1D(const LocalOperator<T, Space>& op, const Communicator& comm,
                                   Index dim, Index dimd, Index nwin, Index nover, Taper taper,
                                   const std::vector<Index>& windows_per_rank) {
  const std::string name = "Sliding1D";
  // The arguments are each rank's input: an error on any rank is raised on all, before the
  // layouts are made (collectively).
  std::vector<Index> starts, split;
  Index nwins = 0;
  Fingerprint fingerprint;
  fingerprint.add(dim).add(dimd).add(nwin).add(nover).add(taper).add(
      std::span<const Index>(windows_per_rank));
  collective_check(comm, fingerprint, name + "'s arguments", [&] {
    starts = sliding_windows(name, dimd, nwin, nover);
    check_taper(name, taper, nwin, nover);
    nwins = static_cast<Index>(starts.size());
    check_operator(name, op, nwin, op.cols());
    if (dim != nwins * op.cols()) {
      throw InvalidArgument(name + ": the model has dim = " + std::to_string(dim) + " samples, " +
                            std::to_string(nwins) + " windows of " + std::to_string(op.cols()) +
                            " (the operator's columns) need " + std::to_string(nwins * op.cols()));
    }
    split = window_split(name, comm, nwins, windows_per_rank);
  });
  using Op = WindowedOperator<T, Space>;
  return LinearOperator<T, Space>::template make<Op>(
      op, comm, Shape{nwins, op.cols()}, Shape{dimd}, typename Op::Axis{starts, nwin, nover},
      typename Op::Axis{{0}, 1, 0}, taper, split, name);
}

template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> Sliding2D(const LocalOperator<T, Space>& op, const Communicator& comm,
                                   const Shape& dims, const Shape& dimsd, Index nwin, Index nover,
                                   Taper taper, const std::vector<Index>& windows_per_rank) {
  const std::string name = "Sliding2D";
  std::vector<Index> starts, split;
  Index nwins = 0, nop0 = 0;
  Fingerprint fingerprint;
  fingerprint.add(std::span<const Index>(dims))
      .add(std::span<const Index>(dimsd))
      .add(nwin)
      .add(nover)
      .add(taper)
      .add(std::span<const Index>(windows_per_rank));
  collective_check(comm, fingerprint, name + "'s arguments", [&] {
    if (dims.size() != 2 || dimsd.size() != 2) {
      throw InvalidArgument(name + ": dims " + to_string(dims) + " and dimsd " + to_string(dimsd) +
                            " must both be 2-d");
    }
    starts = sliding_windows(name, dimsd[0], nwin, nover);
    check_taper(name, taper, nwin, nover);
    nwins = static_cast<Index>(starts.size());
    if (dims[0] % nwins != 0) {
      throw InvalidArgument(name + ": dims[0] = " + std::to_string(dims[0]) +
                            " is not a multiple of the " + std::to_string(nwins) + " windows");
    }
    nop0 = dims[0] / nwins;
    check_operator(name, op, nwin * dimsd[1], nop0 * dims[1]);
    split = window_split(name, comm, nwins, windows_per_rank);
  });
  using Op = WindowedOperator<T, Space>;
  return LinearOperator<T, Space>::template make<Op>(
      op, comm, Shape{nwins, nop0, dims[1]}, dimsd, typename Op::Axis{starts, nwin, nover},
      typename Op::Axis{{0}, dimsd[1], 0}, taper, split, name);
}

template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> Patch2D(const LocalOperator<T, Space>& op, const Communicator& comm,
                                 const Shape& dims, const Shape& dimsd, const Shape& nwin,
                                 const Shape& nover, const Shape& nop, Taper taper,
                                 const std::vector<Index>& windows_per_rank) {
  const std::string name = "Patch2D";
  std::vector<Index> starts0, starts1, split;
  Index nwins0 = 0, nwins1 = 0;
  Fingerprint fingerprint;
  for (const Shape* s : {&dims, &dimsd, &nwin, &nover, &nop})
    fingerprint.add(std::span<const Index>(*s));
  fingerprint.add(taper).add(std::span<const Index>(windows_per_rank));
  collective_check(comm, fingerprint, name + "'s arguments", [&] {
    for (const Shape* s : {&dims, &dimsd, &nwin, &nover, &nop}) {
      if (s->size() != 2) {
        throw InvalidArgument(
            name + ": dims, dimsd, nwin, nover and nop must have 2 entries, got " + to_string(*s));
      }
    }
    starts0 = sliding_windows(name, dimsd[0], nwin[0], nover[0]);
    starts1 = sliding_windows(name, dimsd[1], nwin[1], nover[1]);
    check_taper(name, taper, nwin[0], nover[0]);
    check_taper(name, taper, nwin[1], nover[1]);
    nwins0 = static_cast<Index>(starts0.size());
    nwins1 = static_cast<Index>(starts1.size());
    if (dims[0] != nwins0 * nop[0] || dims[1] != nwins1 * nop[1]) {
      throw InvalidArgument(name + ": the model dims " + to_string(dims) + " are not the (" +
                            std::to_string(nwins0) + ", " + std::to_string(nwins1) +
                            ") windows times nop " + to_string(nop));
    }
    check_operator(name, op, nwin[0] * nwin[1], nop[0] * nop[1]);
    split = window_split(name, comm, nwins0, windows_per_rank);
  });
  using Op = WindowedOperator<T, Space>;
  return LinearOperator<T, Space>::template make<Op>(
      op, comm, Shape{nwins0, nwins1, nop[0], nop[1]}, dimsd,
      typename Op::Axis{starts0, nwin[0], nover[0]}, typename Op::Axis{starts1, nwin[1], nover[1]},
      taper, split, name);
}

DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_SLIDING, )
DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(WindowedOperator)

}  // namespace distlops
