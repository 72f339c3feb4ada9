// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// big-transfer: messages above 2 GiB through the library's data movements, each timed against a
// plain MPI_Send/MPI_Recv of the same bytes in the same run. One message of `n` float64 (default
// 2^28 + 2^21: 2.02 GiB) goes from rank 0 to rank 1 (or back) in each step:
//   send          MPI_Send / MPI_Recv of n MPI_DOUBLE (the reference)
//   comm_send     Communicator::send / recv (one derived datatype above 2^31 - 1 bytes)
//   send_fresh    the reference into a receive buffer that the receive touches first
//   send_fresh_to_root  the same from rank 1 to rank 0 (the reference of the steps whose
//                 result lands on rank 0)
//   scatter       from_root, SCATTER, rank 1 owning all n
//   gather        gather_to(0) of that array
//   allgather_fresh  the reference of allgather: rank 1 sends its block to rank 0 while it
//                 copies it into fresh memory of its own
//   allgather     gather() of that array (every rank receives it)
//   bcast         from_root, BROADCAST
//   redistribute  to a layout where rank 0 owns all n
//   ghost         add_ghost_cells: rank 1 takes rank 0's n-element block as its front ghosts
// Other ranks own nothing. Every value received is checked. The check values are each step's
// time (the slowest rank's, least over the repeats) and its ratios to both references. Peak
// resident memory at the default size: 6.2 GiB on rank 0, 4.2 GiB on rank 1 (measured).
// `chunk_bytes` lowers the per-call limit (set_message_chunk_bytes) so that small runs take the
// same large-message paths.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cases.hpp"

namespace distlops::bench {

namespace {

double value_at(Index i) {
  return 0.5 * double(i) + 1.0;
}

// Values of `data` that differ from value_at(first + i).
Index mismatches(const double* data, Index count, Index first = 0) {
  Index wrong = 0;
  for (Index i = 0; i < count; ++i)
    wrong += data[i] != value_at(first + i);
  return wrong;
}

// `shape` split along axis 0, rank r owning rows[r] rows (none past the list's end).
Layout split_layout(const Communicator& comm, const Shape& shape, const std::vector<Index>& rows) {
  std::vector<Shape> local_shapes(static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r) {
    Shape local = shape;
    local[0] = r < Index(rows.size()) ? rows[r] : 0;
    local_shapes[r] = local;
  }
  return Layout(comm, shape, LayoutOptions{.local_shapes = local_shapes});
}

struct State {
  std::map<std::string, double> seconds;  // least over repeats of the slowest rank's time
  Index wrong = 0;                        // values that arrived wrong on this rank
};

}  // namespace

Case big_transfer_case() {
  Case big_transfer{
      "big-transfer",
      "one > 2 GiB message through scatter, gather, allgather, bcast, redistribute and ghost "
      "cells, against MPI_Send",
      [](const Communicator& comm, const Parameters& p) {
        const Index n = p.integer("n", (Index(1) << 28) + (Index(1) << 21));
        const Index chunk_bytes = p.integer("chunk_bytes", 0);
        if (comm.size() < 2) throw InvalidArgument("big-transfer: needs at least 2 ranks");
        if (n < 1 || n > INT_MAX) {
          throw InvalidArgument(
              "big-transfer: n must be in [1, 2^31 - 1] (one MPI_Send of n "
              "MPI_DOUBLE is the reference), got " +
              std::to_string(n));
        }
        if (chunk_bytes < 0) throw InvalidArgument("big-transfer: chunk_bytes must be >= 0");
        const int rank = comm.rank();
        auto state = std::make_shared<State>();
        Run run;
        run.body = [=] {
          const std::size_t saved_limit = message_chunk_bytes();
          if (chunk_bytes > 0) set_message_chunk_bytes(std::size_t(chunk_bytes));
          auto timed = [&](const std::string& name, auto&& step) {
            comm.barrier();
            const double start = MPI_Wtime();
            step();
            const double seconds = comm.allreduce(MPI_Wtime() - start, ReduceOp::max);
            auto [slot, fresh] = state->seconds.try_emplace(name, seconds);
            if (!fresh) slot->second = std::min(slot->second, seconds);
          };
          std::vector<double> global(rank == 0 ? std::size_t(n) : 0);
          for (Index i = 0; i < Index(global.size()); ++i)
            global[i] = value_at(i);
          {
            // Every rank touches and frees as much memory as its steps hold at their peak, so
            // that the first step to grow a rank's footprint does not pay alone for memory the
            // system has not backed yet: on a virtual machine whose host takes freed memory
            // back, that costs several times an ordinary fault (measured here: a 2 GiB fresh
            // receive on rank 0 took 5.7-6.4 s in that position and 1.3-1.7 s after this).
            const std::size_t warm = std::size_t(rank == 0 ? 1 : 2) * std::size_t(n);
            std::unique_ptr<double[]> touched(new double[warm]);
            std::memset(touched.get(), 0, warm * sizeof(double));
          }
          {
            std::vector<double> received(rank == 1 ? std::size_t(n) : 0);
            timed("send", [&] {
              if (rank == 0) {
                detail::check_mpi(MPI_Send(global.data(), int(n), MPI_DOUBLE, 1, 71, comm.native()),
                                  "MPI_Send");
              } else if (rank == 1) {
                detail::check_mpi(MPI_Recv(received.data(), int(n), MPI_DOUBLE, 0, 71,
                                           comm.native(), MPI_STATUS_IGNORE),
                                  "MPI_Recv");
              }
            });
            state->wrong += mismatches(received.data(), Index(received.size()));
            std::fill(received.begin(), received.end(), 0.0);
            // The library's point-to-point path: one derived datatype above the limit.
            timed("comm_send", [&] {
              if (rank == 0) comm.send(global.data(), n, 1, 72);
              if (rank == 1) comm.recv(received.data(), n, 0, 72);
            });
            state->wrong += mismatches(received.data(), Index(received.size()));
          }
          // The reference into a buffer first touched by the receive, as the library's steps
          // allocate their results: `source`'s n values from rank `from` to rank `to`.
          auto fresh_send = [&](const std::string& name, const double* source, int from, int to,
                                int tag) {
            std::unique_ptr<double[]> fresh;
            timed(name, [&] {
              if (rank == from) {
                detail::check_mpi(MPI_Send(source, int(n), MPI_DOUBLE, to, tag, comm.native()),
                                  "MPI_Send");
              } else if (rank == to) {
                fresh.reset(new double[std::size_t(n)]);
                detail::check_mpi(MPI_Recv(fresh.get(), int(n), MPI_DOUBLE, from, tag,
                                           comm.native(), MPI_STATUS_IGNORE),
                                  "MPI_Recv");
              }
            });
            if (rank == to) state->wrong += mismatches(fresh.get(), n);
          };
          fresh_send("send_fresh", global.data(), 0, 1, 73);
          const Layout on_one = split_layout(comm, {n}, {0, n});
          {
            DistributedArray<double> x;
            timed("scatter", [&] { x = DistributedArray<double>::from_root(on_one, global, 0); });
            state->wrong += mismatches(x.data(), x.local_size());
            // The other direction, for the steps whose result lands on rank 0: receives into
            // fresh memory differ in cost between the ranks.
            fresh_send("send_fresh_to_root", x.data(), 1, 0, 74);
            {
              std::vector<double> on_root;
              timed("gather", [&] { on_root = x.gather_to(0); });
              state->wrong += mismatches(on_root.data(), Index(on_root.size()));
              if (rank == 0) state->wrong += Index(on_root.size()) != n;
            }
            {
              // The reference of allgather: what plain MPI must do for the same result, the
              // owner sending its block to rank 0 while it copies the block into fresh memory of
              // its own, both ranks' results first touched there.
              std::unique_ptr<double[]> fresh;
              timed("allgather_fresh", [&] {
                if (rank == 1) {
                  MPI_Request request;
                  detail::check_mpi(
                      MPI_Isend(x.data(), int(n), MPI_DOUBLE, 0, 75, comm.native(), &request),
                      "MPI_Isend");
                  fresh.reset(new double[std::size_t(n)]);
                  std::memcpy(fresh.get(), x.data(), std::size_t(n) * sizeof(double));
                  detail::check_mpi(MPI_Wait(&request, MPI_STATUS_IGNORE), "MPI_Wait");
                } else if (rank == 0) {
                  fresh.reset(new double[std::size_t(n)]);
                  detail::check_mpi(MPI_Recv(fresh.get(), int(n), MPI_DOUBLE, 1, 75, comm.native(),
                                             MPI_STATUS_IGNORE),
                                    "MPI_Recv");
                }
              });
              if (rank <= 1) state->wrong += mismatches(fresh.get(), n);
            }
            {
              std::vector<double> everywhere;
              timed("allgather", [&] { everywhere = x.gather(); });
              state->wrong += mismatches(everywhere.data(), Index(everywhere.size()));
              state->wrong += Index(everywhere.size()) != n;
            }
            {
              DistributedArray<double> y;
              timed("redistribute", [&] { y = x.redistribute(split_layout(comm, {n}, {n, 0})); });
              state->wrong += mismatches(y.data(), y.local_size());
              if (rank == 0) state->wrong += y.local_size() != n;
            }
          }
          {
            DistributedArray<double> replicated;
            timed("bcast", [&] {
              replicated = DistributedArray<double>::from_root(
                  Layout(comm, {n}, Partition::BROADCAST), global, 0);
            });
            state->wrong += mismatches(replicated.data(), replicated.local_size());
          }
          {
            // n rows of one value on rank 0, one row on rank 1: rank 1's front ghosts are all
            // of rank 0's block.
            std::vector<double> rows = std::move(global);
            if (rank == 1) rows.assign(1, value_at(n));
            const Layout layout = split_layout(comm, {n + 1, 1}, {n, 1});
            const auto x = DistributedArray<double>::wrap(layout, rows);
            LocalArray<double, Host> ghosted;
            timed("ghost", [&] { ghosted = x.add_ghost_cells(rank == 1 ? n : 0, 0); });
            // Checked outside the timed step, as the other steps' results are.
            if (rank == 1) {
              state->wrong += ghosted.size() != n + 1;
              state->wrong += mismatches(ghosted.data(), std::min(ghosted.size(), n + 1));
            }
          }
          set_message_chunk_bytes(saved_limit);
        };
        run.units = 1;
        run.unit_name = "round";
        // Eleven messages of n float64 (allgather's reference and allgather itself count one
        // each, their owner's copy aside), each written once and read once.
        run.bytes_per_unit = 11.0 * 2 * sizeof(double) * double(n);
        run.checks = [=] {
          std::vector<Check> checks;
          checks.push_back({"values_wrong", double(comm.allreduce(state->wrong, ReduceOp::sum))});
          // Ratios to the plain MPI_Send, and for the steps that allocate their result to the
          // MPI_Send into a fresh buffer (first-touch page faults included).
          // Each step against the fresh-buffer send towards the rank its result lands on
          // (rank 1: scatter, bcast, ghost; rank 0: gather, allgather, redistribute).
          const double reference = state->seconds.at("send");
          const double fresh = state->seconds.at("send_fresh");
          const double fresh_to_root = state->seconds.at("send_fresh_to_root");
          for (const char* name :
               {"send", "comm_send", "send_fresh", "send_fresh_to_root", "allgather_fresh",
                "scatter", "gather", "allgather", "bcast", "redistribute", "ghost"}) {
            const std::string step(name);
            const double seconds = state->seconds.at(step);
            checks.push_back({step + "_s", seconds});
            if (step == "send") continue;
            checks.push_back({step + "_vs_send", reference > 0 ? seconds / reference : 0});
            if (step == "comm_send" || step == "send_fresh" || step == "send_fresh_to_root" ||
                step == "allgather_fresh") {
              continue;
            }
            if (step == "allgather") {
              const double plain = state->seconds.at("allgather_fresh");
              checks.push_back({step + "_vs_allgather_fresh", plain > 0 ? seconds / plain : 0});
            }
            const bool lands_on_root =
                step == "gather" || step == "allgather" || step == "redistribute";
            const double base = lands_on_root ? fresh_to_root : fresh;
            checks.push_back({step + "_vs_fresh", base > 0 ? seconds / base : 0});
          }
          return checks;
        };
        run.verify = [](const std::vector<Check>& checks) -> std::vector<std::string> {
          if (check_value(checks, "values_wrong") == 0) return {};
          return {"values arrived wrong after a large transfer"};
        };
        run.default_repeats = 1;
        return run;
      }};
  big_transfer.on_request = true;
  return big_transfer;
}

}  // namespace distlops::bench
