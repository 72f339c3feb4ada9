// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// reshape: one ReshapePlan execution moving an (nx, ny, nz) float64 array (default 512^3,
// 1 GiB) from slabs across axis 0 (the default split) to pencils along axis 0 (axes 1 and 2 cut
// over default_grid(shape, P, {1, 2})): the transpose of a distributed 3-d FFT between its
// first axis and the others. x holds its global C-order indices, so the check counts every
// value that arrives wrong. Least bytes per reshape: read the source once and write the
// destination once, 2 * 8 nx ny nz bytes.
//
// The reference, measured in the same run: one MPI_Alltoallv with the plan's per-rank counts
// (the rank's own block included) between the contiguous blocks, as a reshape of buffers that
// were already packed would move them. After the timed repeats, `reference_repeats` (default
// 5) rounds time one reshape (the process's HostBoxTransfer, packed by default), one with
// every box described by datatypes (HostBoxTransfer::datatypes) and one MPI_Alltoallv,
// alternately, between barriers (the slowest rank's time); the checks are their medians and
// ratios to the MPI_Alltoallv, whose goal is 1.5 at most.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <memory>

#include "cases.hpp"

namespace distlops::bench {

namespace {

struct ReshapeState {
  ReshapeState(const Layout& source, const Layout& destination)
      : plan(source, destination),
        plan_with_datatypes(source, destination),
        x(source),
        y(destination) {}
  ReshapePlan plan;
  ReshapePlan plan_with_datatypes;  // run with HostBoxTransfer::datatypes (its own datatypes)
  DistributedArray<double> x, y;
};

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// Values of y that are not their global C-order index, summed over the ranks.
double mismatches(const Communicator& comm, const DistributedArray<double>& y) {
  const Layout& layout = y.layout();
  const Shape& shape = layout.global_shape();
  const ArrayBox box = layout.box();
  const Shape extent = box.extent();
  double wrong = 0;
  Index position = 0;
  for (Index i = 0; i < extent[0]; ++i) {
    for (Index j = 0; j < extent[1]; ++j) {
      const Index first =
          ((box.lower[0] + i) * shape[1] + box.lower[1] + j) * shape[2] + box.lower[2];
      for (Index k = 0; k < extent[2]; ++k)
        wrong += y.local()[static_cast<std::size_t>(position++)] != double(first + k) ? 1 : 0;
    }
  }
  return comm.allreduce(wrong, ReduceOp::sum);
}

// C ints for MPI_Alltoallv; the reference needs counts below 2^31 per rank.
std::vector<int> as_ints(const std::vector<Index>& values) {
  std::vector<int> ints;
  for (Index value : values) {
    if (value > INT_MAX) {
      throw InvalidArgument(
          "reshape: a count of the MPI_Alltoallv reference passes 2^31 - 1 elements; use a "
          "smaller array or more ranks");
    }
    ints.push_back(static_cast<int>(value));
  }
  return ints;
}

std::vector<int> displacements_of(const std::vector<int>& counts) {
  std::vector<int> displacements(counts.size(), 0);
  for (std::size_t r = 1; r < counts.size(); ++r)
    displacements[r] = displacements[r - 1] + counts[r - 1];
  return displacements;
}

}  // namespace

Case reshape_case() {
  return {
      "reshape",
      "float64 slabs across axis 0 to pencils along it, one all-to-all, against MPI_Alltoallv",
      [](const Communicator& comm, const Parameters& p) {
        const Index n = p.integer("n", 512);
        const Index nx = p.integer("nx", n), ny = p.integer("ny", n), nz = p.integer("nz", n);
        const int reference_repeats = static_cast<int>(p.integer("reference_repeats", 5));
        if (reference_repeats < 1) throw InvalidArgument("reshape: reference_repeats must be >= 1");
        const Shape shape{nx, ny, nz};
        const Layout slabs(comm, shape);
        const Layout pencils(
            comm, shape,
            LayoutOptions{.grid = default_grid(shape, comm.size(), std::vector<int>{1, 2})});
        auto state = std::make_shared<ReshapeState>(slabs, pencils);
        {
          // x = its global indices: the slab of rows [lower, upper) along axis 0.
          const Index first = slabs.box().lower[0] * ny * nz;
          std::span<double> local = state->x.local();
          for (std::size_t i = 0; i < local.size(); ++i)
            local[i] = double(first + Index(i));
        }
        Run run;
        run.body = [=] { state->x.redistribute(state->plan, state->y); };
        run.units = 1;
        run.unit_name = "reshape";
        run.bytes_per_unit = 2.0 * sizeof(double) * double(nx) * double(ny) * double(nz);
        run.checks = [=] {
          const double wrong = mismatches(comm, state->y);
          // The reference moves the same bytes between the blocks as contiguous buffers (its
          // output is not the pencils: timing only, after the check above).
          const std::vector<int> send_counts = as_ints(state->plan.send_counts());
          const std::vector<int> receive_counts = as_ints(state->plan.receive_counts());
          const std::vector<int> send_displacements = displacements_of(send_counts);
          const std::vector<int> receive_displacements = displacements_of(receive_counts);
          auto timed = [&](auto&& step) {
            comm.barrier();
            const double start = MPI_Wtime();
            step();
            return comm.allreduce(MPI_Wtime() - start, ReduceOp::max);
          };
          std::vector<double> reshape_seconds, datatypes_seconds, alltoallv_seconds;
          const HostBoxTransfer setting = host_box_transfer();
          for (int round = 0; round < reference_repeats; ++round) {
            reshape_seconds.push_back(timed([&] { state->x.redistribute(state->plan, state->y); }));
            set_host_box_transfer(HostBoxTransfer::datatypes);
            datatypes_seconds.push_back(
                timed([&] { state->x.redistribute(state->plan_with_datatypes, state->y); }));
            set_host_box_transfer(setting);
            alltoallv_seconds.push_back(timed([&] {
              detail::check_mpi(
                  MPI_Alltoallv(state->x.data(), send_counts.data(), send_displacements.data(),
                                MPI_DOUBLE, state->y.data(), receive_counts.data(),
                                receive_displacements.data(), MPI_DOUBLE, comm.native()),
                  "MPI_Alltoallv");
            }));
          }
          const double reshape = median_of(reshape_seconds);
          const double datatypes = median_of(datatypes_seconds);
          const double alltoallv = median_of(alltoallv_seconds);
          const double moved =
              double(comm.allreduce(state->plan.bytes_sent(sizeof(double)), ReduceOp::sum));
          return std::vector<Check>{{"mismatches", wrong},
                                    {"reshape_seconds", reshape},
                                    {"alltoallv_seconds", alltoallv},
                                    {"ratio_to_alltoallv", reshape / alltoallv},
                                    {"datatypes_seconds", datatypes},
                                    {"datatypes_ratio_to_alltoallv", datatypes / alltoallv},
                                    {"bytes_between_ranks", moved}};
        };
        run.verify = [](const std::vector<Check>& checks) {
          std::vector<std::string> failures;
          if (check_value(checks, "mismatches") != 0) {
            failures.push_back("reshape: " + std::to_string(check_value(checks, "mismatches")) +
                               " values arrived wrong");
          }
          return failures;
        };
        run.default_repeats = 5;
        return run;
      }};
}

}  // namespace distlops::bench
