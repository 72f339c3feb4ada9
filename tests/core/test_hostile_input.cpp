// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Bad input at every entry point, given on every rank, on rank 0 only and on the last rank only:
// every rank must raise the same exception (same type, same message), none may return, and none
// may be left waiting. Each run is watched by an alarm: a rank still inside a run after
// kWatchdogSeconds prints the kind and ends the program, so a hang fails this test within
// seconds (and CTest's TIMEOUT bounds it anyway). DISTLOPS_HOSTILE_KIND=<substring> selects
// kinds by name.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <typeinfo>

#include "distlops/core/collective_check.hpp"
#include "distlops/core/ghost_cells.hpp"
#include "distlops/core/reshape_plan.hpp"
#include "distlops/core/stacked_distributed_array.hpp"
#include "distlops/io/io_config.hpp"
#include "distlops/io/npy.hpp"
#include "distlops/io/npz.hpp"
#include "distlops/operators/dense/matrix_mult.hpp"
#include "distlops/operators/derivative/derivatives.hpp"
#include "distlops/operators/halo.hpp"
#include "distlops/operators/local/function_operator.hpp"
#include "distlops/operators/local/matrix_mult.hpp"
#include "distlops/operators/reshape.hpp"
#include "distlops/operators/signal/convolvend.hpp"
#include "distlops/operators/signal/fft.hpp"
#include "distlops/operators/signal/poststack.hpp"
#include "distlops/operators/signal/sliding.hpp"
#include "distlops/operators/stack/block_diag.hpp"
#include "distlops/operators/stack/replicated.hpp"
#include "distlops/operators/stack/vstack.hpp"
#include "distlops/solvers/cg.hpp"
#include "distlops/solvers/cgls.hpp"
#include "distlops/solvers/lsqr.hpp"
#include "distlops/solvers/proximal/admm.hpp"
#include "distlops/solvers/proximal/box.hpp"
#include "distlops/solvers/proximal/composition.hpp"
#include "distlops/solvers/proximal/euclidean_ball.hpp"
#include "distlops/solvers/proximal/l1.hpp"
#include "distlops/solvers/proximal/l2.hpp"
#include "distlops/solvers/proximal/l21.hpp"
#include "distlops/solvers/proximal/linearized_admm.hpp"
#include "distlops/solvers/proximal/primal_dual.hpp"
#include "distlops/solvers/proximal/proximal_gradient.hpp"
#include "expect_everywhere.hpp"
#include "test_support.hpp"
#if DISTLOPS_WITH_HDF5
#include "distlops/io/hdf5.hpp"
#endif
#if DISTLOPS_WITH_SEGYIO
#include "distlops/io/segy.hpp"
#endif

using namespace distlops;
using namespace distlops::io;
using namespace distlops::testing;

namespace {

constexpr unsigned kWatchdogSeconds = 20;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One kind of bad input. `run(comm, bad)` performs the call with the bad argument where `bad`
// is true and a good one elsewhere. For kinds whose bad value is valid by itself (it is wrong
// only because it differs between ranks) the all-ranks variant is skipped.
struct Kind {
  const char* name;
  bool differs_only;
  std::function<void(const Communicator&, bool)> run;
};

enum class Variant { all, first, last };
const char* name_of(Variant v) {
  return v == Variant::all ? "all ranks" : v == Variant::first ? "rank 0 only" : "last rank only";
}

char watchdog_text[512];
void on_alarm(int) {
  const ssize_t ignored = write(STDERR_FILENO, watchdog_text, std::strlen(watchdog_text));
  (void)ignored;
  _exit(3);
}

struct Tally {
  int runs = 0;
  int clean = 0;
};

// Runs every selected kind in every variant; CHECKs that the outcome is clean on every rank.
void run_kinds(const std::vector<Kind>& kinds, Tally& tally) {
  const Communicator comm = world();
  const int size = comm.size();
  const char* filter = std::getenv("DISTLOPS_HOSTILE_KIND");
  struct sigaction action {};
  action.sa_handler = on_alarm;
  sigaction(SIGALRM, &action, nullptr);
  for (const Kind& kind : kinds) {
    if (filter && std::strstr(kind.name, filter) == nullptr) continue;
    for (Variant variant : {Variant::all, Variant::first, Variant::last}) {
      if (variant == Variant::all && kind.differs_only) continue;
      const int rank = comm.rank();
      const bool bad =
          variant == Variant::all || (variant == Variant::first ? rank == 0 : rank == size - 1);
      std::snprintf(watchdog_text, sizeof watchdog_text,
                    "HANG: kind '%s', bad on %s, rank %d of %d still inside after %u s\n",
                    kind.name, name_of(variant), rank, size, kWatchdogSeconds);
      bool raised = false;
      std::string what;
      alarm(kWatchdogSeconds);
      try {
        kind.run(comm, bad);
      } catch (const std::exception& error) {
        raised = true;
        what = std::string(typeid(error).name()) + ": " + error.what();
      }
      alarm(0);
      Fingerprint hash;
      hash.add(std::string_view(what));
      const std::vector<int> all_raised = comm.allgather(raised ? 1 : 0);
      const std::vector<std::uint64_t> hashes = comm.allgather(hash.value());
      bool clean = true;
      for (int r = 0; r < size; ++r)
        clean = clean && all_raised[r] == 1 && hashes[r] == hashes[0];
      INFO("kind '" << kind.name << "', bad on " << name_of(variant) << ", rank " << rank
                    << (raised ? " raised " + what : std::string(" returned")));
      CHECK(clean);
      ++tally.runs;
      tally.clean += clean ? 1 : 0;
    }
  }
}

using Array = DistributedArray<double>;

// Layouts built collectively on every rank, so that a kind can pick one per rank.
struct Layouts {
  explicit Layouts(const Communicator& c)
      : comm(c),
        // At least one element per rank, so that a bad rank always owns some (16 ranks).
        vector(c, {std::max<Index>(11, c.size())}),
        longer(c, {std::max<Index>(11, c.size()) + 1}),
        matrix(c, {9, 4}),
        wider(c, {9, 5}),
        matrix_axis1(c, {9, 4}, Partition::SCATTER, 1),
        matrix_broadcast(c, {9, 4}, Partition::BROADCAST),
        matrix_masked(c, {9, 4}, LayoutOptions{.mask = std::vector<int>(c.size(), 0)}),
        flat(c, {36}),
        shifted(c, {36}, LayoutOptions{.local_shapes = shifted_split(c, 36)}) {}

  // Default split but one element moved from the first to the last rank (valid, different).
  static std::vector<Shape> shifted_split(const Communicator& c, Index n) {
    std::vector<Index> extents = default_split(n, c.size());
    std::vector<Shape> shapes;
    if (c.size() > 1) {
      --extents.front();
      ++extents.back();
    }
    for (Index e : extents)
      shapes.push_back({e});
    return shapes;
  }

  Communicator comm;
  Layout vector, longer, matrix, wider, matrix_axis1, matrix_broadcast, matrix_masked, flat,
      shifted;
};

Array ones(const Layout& layout) {
  return Array(layout, 1.0);
}

// A (rows, 4) layout in which the ranks given bad input own no rows and the others two each,
// so that the offending ranks hold no data (every rank learns which ones are bad first).
Layout bad_ranks_own_nothing(const Communicator& comm, bool bad) {
  const std::vector<int> flags = comm.allgather(bad ? 1 : 0);
  std::vector<Shape> shapes;
  Index rows = 0;
  for (const int flag : flags) {
    shapes.push_back({flag ? 0 : 2, 4});
    rows += flag ? 0 : 2;
  }
  return Layout(comm, {rows, 4}, LayoutOptions{.local_shapes = shapes});
}

// Alternating mask colours: with two ranks or more, two groups.
Layout masked_pairs(const Communicator& comm) {
  std::vector<int> mask;
  for (int r = 0; r < comm.size(); ++r)
    mask.push_back(r % 2);
  return Layout(comm, {9, 4}, LayoutOptions{.mask = mask});
}

std::vector<Kind> layout_kinds() {
  return {
      {"layout: negative extent", false,
       [](const Communicator& comm, bool bad) { (void)Layout(comm, {bad ? -1 : 4}); }},
      {"layout: axis out of range", false,
       [](const Communicator& comm, bool bad) {
         (void)Layout(comm, {4, 3}, Partition::SCATTER, bad ? 2 : 0);
       }},
      {"layout: empty global shape", false,
       [](const Communicator& comm, bool bad) { (void)Layout(comm, bad ? Shape{} : Shape{4}); }},
      {"layout: unknown partition", false,
       [](const Communicator& comm, bool bad) {
         (void)Layout(comm, {4}, bad ? static_cast<Partition>(7) : Partition::SCATTER);
       }},
      {"layout: local shapes summing wrong", false,
       [](const Communicator& comm, bool bad) {
         std::vector<Shape> local(static_cast<std::size_t>(comm.size()), Shape{2});
         if (bad) local[0] = {3};
         (void)Layout(comm, {Index(2 * comm.size())}, LayoutOptions{.local_shapes = local});
       }},
      {"layout: too few local shapes", false,
       [](const Communicator& comm, bool bad) {
         std::vector<Shape> local(static_cast<std::size_t>(comm.size() - (bad ? 1 : 0)), Shape{2});
         (void)Layout(comm, {Index(2 * comm.size())}, LayoutOptions{.local_shapes = local});
       }},
      {"layout: mask of the wrong length", false,
       [](const Communicator& comm, bool bad) {
         (void)Layout(comm, {4},
                      LayoutOptions{.mask = std::vector<int>(comm.size() + (bad ? 1 : 0), 0)});
       }},
      {"layout: negative mask colour", false,
       [](const Communicator& comm, bool bad) {
         (void)Layout(comm, {4},
                      LayoutOptions{.mask = std::vector<int>(comm.size(), bad ? -1 : 0)});
       }},
      {"layout: extents multiplying past 2^63", false,
       [](const Communicator& comm, bool bad) {
         const Index big = Index(1) << 40;
         (void)Layout(comm, {0, bad ? big : 2, big});
       }},
      {"layout: global shape differs", true,
       [](const Communicator& comm, bool bad) { (void)Layout(comm, {bad ? 5 : 4}); }},
      {"layout: axis differs", true,
       [](const Communicator& comm, bool bad) {
         (void)Layout(comm, {4, 3}, Partition::SCATTER, bad ? 1 : 0);
       }},
      {"layout: partition differs", true,
       [](const Communicator& comm, bool bad) {
         (void)Layout(comm, {4}, bad ? Partition::BROADCAST : Partition::SCATTER);
       }},
      {"from_local_shape: number of dimensions differs", true,
       [](const Communicator& comm, bool bad) {
         (void)Layout::from_local_shape(comm, bad ? Shape{2, 1} : Shape{2});
       }},
      {"from_local_shape: axis out of range", false,
       [](const Communicator& comm, bool bad) {
         (void)Layout::from_local_shape(comm, Shape{2}, Partition::SCATTER, bad ? 3 : 0);
       }},
  };
}

std::vector<Kind> array_kinds() {
  auto binary = [](const char* name, auto pick, auto operation, bool differs_only = false) {
    return Kind{name, differs_only, [=](const Communicator& comm, bool bad) {
                  const Layouts l(comm);
                  const Array x = ones(l.matrix);
                  Array y = bad ? pick(l) : ones(l.matrix);
                  operation(x, y);
                }};
  };
  auto other_shape = [](const Layouts& l) { return ones(l.wider); };
  auto other_axis = [](const Layouts& l) { return ones(l.matrix_axis1); };
  auto other_partition = [](const Layouts& l) { return ones(l.matrix_broadcast); };
  auto masked = [](const Layouts& l) { return ones(l.matrix_masked); };
  auto empty = [](const Layouts&) { return Array(); };
  auto add = [](const Array& x, Array& y) { (void)(x + y); };
  auto axpy = [](const Array& x, Array& y) { y.axpy(2.0, x); };
  auto axpby = [](const Array& x, Array& y) { y.axpby(2.0, x, 3.0); };
  auto copy = [](const Array& x, Array& y) { y.copy_from(x); };
  auto dot = [](const Array& x, Array& y) { (void)x.dot(y); };
  auto vdot = [](const Array& x, Array& y) { (void)y.vdot(x); };
  auto in_place = [](const Array& x, Array& y) { y *= x; };
  std::vector<Kind> kinds = {
      binary("x + y: y of another shape", other_shape, add),
      binary("x + y: y of another partition", other_partition, add),
      binary("x + y: empty y", empty, add),
      binary("axpy: x of another shape", other_shape, axpy),
      binary("axpy: x split along another axis", other_axis, axpy),
      binary("axpby: x of another partition", other_partition, axpby),
      binary("copy_from: another axis", other_axis, copy),
      binary("copy_from: empty source", empty, copy),
      binary("dot: another axis", other_axis, dot),
      binary("dot: another mask", masked, dot),
      binary("dot: empty operand", empty, dot),
      binary("vdot: another shape", other_shape, vdot),
      binary("*=: another partition", other_partition, in_place),
      {"dot: both operands of another layout", true,
       [](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         const Layout& layout = bad ? l.shifted : l.flat;
         (void)ones(layout).dot(ones(layout));
       }},
      {"norm: axis out of range", false,
       [](const Communicator& comm, bool bad) {
         (void)ones(Layouts(comm).matrix).norm(2, bad ? 2 : 0);
       }},
      {"norm: NaN ord", false,
       [](const Communicator& comm, bool bad) {
         (void)ones(Layouts(comm).matrix).norm(bad ? kNaN : 2.0);
       }},
      {"norm: NaN ord along an axis", false,
       [](const Communicator& comm, bool bad) {
         (void)ones(Layouts(comm).matrix).norm(bad ? kNaN : 2.0, 1);
       }},
      {"norm: ord differs", true,
       [](const Communicator& comm, bool bad) {
         (void)ones(Layouts(comm).matrix).norm(bad ? 1.0 : 2.0);
       }},
      {"norm: axis differs", true,
       [](const Communicator& comm, bool bad) {
         (void)ones(Layouts(comm).matrix).norm(2.0, bad ? 1 : 0);
       }},
      {"from_global: wrong size", false,
       [](const Communicator& comm, bool bad) {
         const std::vector<double> global(bad ? 10 : 11, 1.0);
         (void)Array::from_global(Layouts(comm).vector, global);
       }},
      {"from_global: layout differs", true,
       [](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         const std::vector<double> global(36, 1.0);
         (void)Array::from_global(bad ? l.shifted : l.flat, global);
       }},
      {"from_root: root out of range", false,
       [](const Communicator& comm, bool bad) {
         const std::vector<double> global(11, 1.0);
         (void)Array::from_root(Layouts(comm).vector, global, bad ? comm.size() : 0);
       }},
      {"from_root: root differs", true,
       [](const Communicator& comm, bool bad) {
         const std::vector<double> global(11, 1.0);
         (void)Array::from_root(Layouts(comm).vector, global, bad ? comm.size() - 1 : 0);
       }},
      {"wrap: local memory of the wrong size", false,
       [](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         std::vector<double> local(static_cast<std::size_t>(l.vector.local_size() + (bad ? 1 : 0)));
         (void)Array::wrap(l.vector, local);
       }},
      {"gather_to: root out of range", false,
       [](const Communicator& comm, bool bad) {
         (void)ones(Layouts(comm).vector).gather_to(bad ? -1 : 0);
       }},
      {"gather_to: root differs", true,
       [](const Communicator& comm, bool bad) {
         (void)ones(Layouts(comm).vector).gather_to(bad ? comm.size() - 1 : 0);
       }},
      {"view: other local sizes", false,
       [](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         Array x = ones(l.flat);
         (void)x.view(bad ? l.longer : l.flat);
       }},
      {"view: a split along another axis", false,
       [](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         // (9, 4) split along axis 1 and (4, 9) along axis 0 have the same local sizes, but
         // other elements in each block.
         const Layout transposed(comm, {4, 9});
         Array x = ones(bad ? l.matrix_axis1 : transposed);
         (void)x.view(transposed);
       }},
      {"view: target differs", true,
       [](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         Array x = ones(l.flat);
         // (12, 3) splits its rows as (36,) splits its elements at 2, 3 and 4 ranks.
         const Layout rows(comm, {12, 3});
         (void)x.view(bad ? rows : l.flat);
       }},
      {"redistribute: target of another global shape", false,
       [](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         (void)ones(l.matrix).redistribute(bad ? l.wider : l.matrix_axis1);
       }},
      {"redistribute: target differs", true,
       [](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         (void)ones(l.flat).redistribute(bad ? l.shifted : l.flat);
       }},
      {"redistribute: axis out of range", false,
       [](const Communicator& comm, bool bad) {
         (void)ones(Layouts(comm).matrix).redistribute(bad ? 2 : 1);
       }},
      {"redistribute: axis differs", true,
       [](const Communicator& comm, bool bad) {
         (void)ones(Layouts(comm).matrix).redistribute(bad ? 0 : 1);
       }},
      {"redistribute: empty array", false,
       [](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         const Array x = bad ? Array() : ones(l.matrix);
         (void)x.redistribute(l.matrix_axis1);
       }},
      {"norm: axis out of range on a rank that owns nothing", false,
       [](const Communicator& comm, bool bad) {
         (void)ones(bad_ranks_own_nothing(comm, bad)).norm(2, bad ? 2 : 0);
       }},
      {"norm: NaN ord on a rank that owns nothing", false,
       [](const Communicator& comm, bool bad) {
         (void)ones(bad_ranks_own_nothing(comm, bad)).norm(bad ? kNaN : 2.0);
       }},
      {"norm: ord differs on a rank that owns nothing", true,
       [](const Communicator& comm, bool bad) {
         (void)ones(bad_ranks_own_nothing(comm, bad)).norm(bad ? 1.0 : 2.0);
       }},
      {"norm: axis differs on a rank that owns nothing", true,
       [](const Communicator& comm, bool bad) {
         (void)ones(bad_ranks_own_nothing(comm, bad)).norm(2.0, bad ? 1 : 0);
       }},
      {"gather: masked differs", true,
       [](const Communicator& comm, bool bad) { (void)ones(masked_pairs(comm)).gather(bad); }},
      {"gather_to: root differs on a rank that owns nothing", true,
       [](const Communicator& comm, bool bad) {
         (void)ones(bad_ranks_own_nothing(comm, bad)).gather_to(bad ? comm.size() - 1 : 0);
       }},
      {"from_root: root out of range on a rank that owns nothing", false,
       [](const Communicator& comm, bool bad) {
         const Layout layout = bad_ranks_own_nothing(comm, bad);
         const std::vector<double> global(static_cast<std::size_t>(layout.global_size()), 1.0);
         (void)Array::from_root(layout, global, bad ? -1 : 0);
       }},
      {"check_replicas: another partition", true,
       [](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         ones(bad ? l.matrix : l.matrix_broadcast).check_replicas();
       }},
      {"redistribute: axis out of range on a rank that owns nothing", false,
       [](const Communicator& comm, bool bad) {
         (void)ones(bad_ranks_own_nothing(comm, bad)).redistribute(bad ? 2 : 1);
       }},
      {"redistribute: target differs on a rank that owns nothing", true,
       [](const Communicator& comm, bool bad) {
         const Layout source = bad_ranks_own_nothing(comm, bad);
         const Layout broadcast(comm, source.global_shape(), Partition::BROADCAST);
         const Layout by_columns(comm, source.global_shape(), Partition::SCATTER, 1);
         (void)ones(source).redistribute(bad ? broadcast : by_columns);
       }},
      {"redistribute: partition differs", true,
       [](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         (void)ones(l.matrix).redistribute(bad ? l.matrix_broadcast : l.matrix_axis1);
       }},
      {"view: target differs on a rank that owns nothing", true,
       [](const Communicator& comm, bool bad) {
         const Layout source = bad_ranks_own_nothing(comm, bad);
         Array x = ones(source);
         const Layout rows(comm, source.global_shape(),
                           LayoutOptions{.local_shapes = source.local_shapes()});
         const Layout flat(comm, {source.global_size()}, LayoutOptions{.local_shapes = [&] {
                             std::vector<Shape> shapes;
                             for (const Shape& s : source.local_shapes())
                               shapes.push_back({s[0] * s[1]});
                             return shapes;
                           }()});
         (void)x.view(bad ? flat : rows);
       }},
      {"to_dist: global of the wrong size", false,
       [](const Communicator& comm, bool bad) {
         const std::vector<double> global(bad ? 35 : 36, 1.0);
         (void)Array::to_dist(global, {.shape = {9, 4}, .comm = comm});
       }},
      {"to_dist: axis differs", true,
       [](const Communicator& comm, bool bad) {
         const std::vector<double> global(36, 1.0);
         (void)Array::to_dist(global, {.shape = {9, 4}, .comm = comm, .axis = bad ? 1 : 0});
       }},
      {"ghost cells: negative width", false,
       [](const Communicator& comm, bool bad) {
         (void)ones(Layouts(comm).matrix).add_ghost_cells(bad ? -1 : 1, 1);
       }},
      {"ghost cells: wider than the neighbour's block", false,
       [](const Communicator& comm, bool bad) {
         (void)ones(Layouts(comm).matrix).add_ghost_cells(bad ? 100 : 1, bad ? 100 : 1);
       }},
      {"ghost cells: of a replicated array", false,
       [](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         (void)ones(bad ? l.matrix_broadcast : l.matrix).add_ghost_cells(1, 1);
       }},
  };
  return kinds;
}

std::vector<Kind> operator_kinds() {
  using Options = DerivativeOptions;
  auto derivative = [](const char* name, bool differs_only, auto make_options) {
    return Kind{name, differs_only, [=](const Communicator& comm, bool bad) {
                  (void)FirstDerivative<double>(Layouts(comm).matrix, make_options(bad));
                }};
  };
  auto apply_kind = [](const char* name, auto call) {
    return Kind{name, false, [=](const Communicator& comm, bool bad) {
                  const Layouts l(comm);
                  const LinearOperator<double> op =
                      FirstDerivative<double>(l.matrix, {.axis = 0, .edge = true});
                  call(l, op, bad);
                }};
  };
  return {
      derivative("FirstDerivative: order 4", false,
                 [](bool bad) { return Options{.order = bad ? 4 : 3}; }),
      derivative("FirstDerivative: axis out of range", false,
                 [](bool bad) { return Options{.axis = bad ? 2 : 0}; }),
      derivative("FirstDerivative: zero sampling", false,
                 [](bool bad) { return Options{.sampling = bad ? 0.0 : 1.0}; }),
      derivative("FirstDerivative: NaN sampling", false,
                 [](bool bad) { return Options{.sampling = bad ? kNaN : 1.0}; }),
      derivative("FirstDerivative: sampling differs", true,
                 [](bool bad) { return Options{.sampling = bad ? 2.0 : 1.0}; }),
      derivative("FirstDerivative: order differs", true,
                 [](bool bad) { return Options{.order = bad ? 5 : 3}; }),
      derivative("FirstDerivative: axis differs", true,
                 [](bool bad) { return Options{.axis = bad ? 1 : 0}; }),
      derivative("FirstDerivative: kind differs", true,
                 [](bool bad) {
                   return Options{.kind = bad ? DerivativeKind::forward : DerivativeKind::centered};
                 }),
      {"SecondDerivative: infinite sampling", false,
       [](const Communicator& comm, bool bad) {
         (void)SecondDerivative<double>(
             Layouts(comm).matrix,
             {.sampling = bad ? std::numeric_limits<double>::infinity() : 1.0});
       }},
      {"Laplacian: options of mismatched lengths", false,
       [](const Communicator& comm, bool bad) {
         LaplacianOptions options;
         if (bad) options.weights = {1.0};
         (void)Laplacian<double>(Layouts(comm).matrix, options);
       }},
      {"Laplacian: weights differ", true,
       [](const Communicator& comm, bool bad) {
         (void)Laplacian<double>(Layouts(comm).matrix, {.weights = {1.0, bad ? 2.0 : 1.0}});
       }},
      {"Gradient: wrong number of samplings", false,
       [](const Communicator& comm, bool bad) {
         (void)Gradient<double>(
             Layouts(comm).matrix,
             {.sampling = bad ? std::vector<double>{1, 1, 1} : std::vector<double>{1, 1}});
       }},
      apply_kind("apply: x of another shape",
                 [](const Layouts& l, const LinearOperator<double>& op, bool bad) {
                   (void)op.apply(ones(bad ? l.wider : l.matrix));
                 }),
      apply_kind("apply_adjoint: y of another size",
                 [](const Layouts& l, const LinearOperator<double>& op, bool bad) {
                   (void)op.apply_adjoint(ones(bad ? l.longer : l.matrix));
                 }),
      apply_kind("apply: into y of another layout",
                 [](const Layouts& l, const LinearOperator<double>& op, bool bad) {
                   Array y = ones(bad ? l.matrix_broadcast : l.matrix);
                   op.apply(ones(l.matrix), y);
                 }),
      apply_kind("apply: x split along another axis",
                 [](const Layouts& l, const LinearOperator<double>& op, bool bad) {
                   (void)op.apply(ones(bad ? l.matrix_axis1 : l.matrix));
                 }),
      apply_kind("apply: x of another split",
                 [](const Layouts& l, const LinearOperator<double>& op, bool bad) {
                   const Layout flat_op(l.comm, {36});
                   const LinearOperator<double> first = FirstDerivative<double>(flat_op);
                   (void)first.apply(ones(bad ? l.shifted : l.flat));
                   (void)op;
                 }),
      apply_kind("apply: empty x",
                 [](const Layouts& l, const LinearOperator<double>& op, bool bad) {
                   (void)op.apply(bad ? Array() : ones(l.matrix));
                 }),
      apply_kind("apply_add: y of another shape",
                 [](const Layouts& l, const LinearOperator<double>& op, bool bad) {
                   Array y = ones(bad ? l.wider : l.matrix);
                   op.apply_add(1.0, ones(l.matrix), 1.0, y);
                 }),
      {"BlockDiag: apply to x of another layout", false,
       [](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         const std::vector<double> a(9, 0.5);
         const LinearOperator<double> op =
             BlockDiag<double>({local::MatrixMult<double>(3, 3, a)}, comm);
         const Layout other(comm, {op.cols() + 1});
         (void)op.apply(ones(bad ? other : op.domain()));
       }},
      {"BlockDiag: an empty operator handle", false,
       [](const Communicator& comm, bool bad) {
         const std::vector<double> a(12, 0.5);
         (void)BlockDiag<double>(
             {bad ? LocalOperator<double>() : local::MatrixMult<double>(3, 4, a)}, comm);
       }},
      {"VStack: blocks of different column counts", true,
       [](const Communicator& comm, bool bad) {
         const std::vector<double> a(12, 0.5);
         (void)VStack<double>({local::MatrixMult<double>(bad ? 4 : 3, bad ? 3 : 4, a)}, comm);
       }},
      {"HStack: blocks of different row counts", true,
       [](const Communicator& comm, bool bad) {
         const std::vector<double> a(12, 0.5);
         (void)HStack<double>({local::MatrixMult<double>(bad ? 4 : 3, bad ? 3 : 4, a)}, comm);
       }},
      // One extra row on every rank is a valid larger matrix: on one rank only, a bad block.
      {"MatrixMult: block of the wrong shape", true,
       [](const Communicator& comm, bool bad) {
         // The block the grid expects (where the rank count forms one), one row too many.
         const Index n = 6, k = 5, m = 3;
         MatrixBlock expected{};
         try {
           expected =
               matrix_mult_blocks(MatrixMultKind::summa, n, k, m, comm.rank(), comm.size()).a;
         } catch (const InvalidArgument&) {
         }
         const EigenRowMajorMatrix<double> block =
             EigenRowMajorMatrix<double>::Ones(expected.rows() + (bad ? 1 : 0), expected.cols());
         (void)MatrixMult<double>(block, m, MatrixMultKind::summa, comm);
       }},
      {"FFT2D: norm differs", true,
       [](const Communicator& comm, bool bad) {
         (void)FFT2D<std::complex<double>>(Layout(comm, {8, 6}),
                                           {.norm = bad ? FFTNorm::none : FFTNorm::ortho});
       }},
      {"FFT2D: axis out of range", false,
       [](const Communicator& comm, bool bad) {
         (void)FFT2D<std::complex<double>>(Layout(comm, {8, 6}), {.axes = {0, bad ? 2 : 1}});
       }},
      {"FFT2D: negative nfft", false,
       [](const Communicator& comm, bool bad) {
         (void)FFT2D<std::complex<double>>(Layout(comm, {8, 6}), {.nfft = {8, bad ? -1 : 6}});
       }},
  };
}

std::vector<Kind> solver_kinds() {
  auto problem = [](const Communicator& comm) {
    return FirstDerivative<double>(Layout(comm, {9, 4}), {.axis = 1});
  };
  auto laplacian = [](const Communicator& comm) { return Laplacian<double>(Layout(comm, {9, 4})); };
  return {
      {"cg: y of another shape", false,
       [=](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         (void)cg(laplacian(comm), ones(bad ? l.wider : l.matrix));
       }},
      {"cg: x0 of another split", false,
       [=](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         (void)cg(laplacian(comm), ones(l.matrix), ones(bad ? l.matrix_axis1 : l.matrix));
       }},
      {"cg: NaN tol", false,
       [=](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         CgOptions<Array> options;
         options.tol = bad ? kNaN : 0.0;
         (void)cg(laplacian(comm), ones(l.matrix), options);
       }},
      {"cg: niter differs", true,
       [=](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         CgOptions<Array> options;
         options.niter = bad ? 3 : 2;
         (void)cg(laplacian(comm), ones(l.matrix), options);
       }},
      {"cgls: y of another partition", false,
       [=](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         (void)cgls(problem(comm), ones(bad ? l.matrix_broadcast : l.matrix));
       }},
      {"cgls: x0 of another shape", false,
       [=](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         (void)cgls(problem(comm), ones(l.matrix), ones(bad ? l.wider : l.matrix));
       }},
      {"cgls: negative damp", false,
       [=](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         CglsOptions<Array> options;
         options.damp = bad ? -1.0 : 0.0;
         (void)cgls(problem(comm), ones(l.matrix), options);
       }},
      {"cgls: damp differs", true,
       [=](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         CglsOptions<Array> options;
         options.damp = bad ? 0.5 : 0.0;
         (void)cgls(problem(comm), ones(l.matrix), options);
       }},
      {"lsqr: y of another axis", false,
       [=](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         (void)lsqr(problem(comm), ones(bad ? l.matrix_axis1 : l.matrix));
       }},
      {"lsqr: negative niter", false,
       [=](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         LsqrOptions<Array> options;
         options.niter = bad ? -1 : 2;
         (void)lsqr(problem(comm), ones(l.matrix), options);
       }},
  };
}

using Stacked = StackedDistributedArray<double>;

std::vector<Kind> stacked_kinds() {
  // Two blocks: a (9, 4) matrix and an (11,) vector.
  auto stack = [](const Layouts& l) { return Stacked({ones(l.matrix), ones(l.vector)}); };
  auto other_block = [](const Layouts& l) { return Stacked({ones(l.matrix), ones(l.longer)}); };
  auto fewer_blocks = [](const Layouts& l) { return Stacked({ones(l.matrix)}); };
  auto binary = [=](const char* name, auto pick, auto operation) {
    return Kind{name, false, [=](const Communicator& comm, bool bad) {
                  const Layouts l(comm);
                  const Stacked x = stack(l);
                  Stacked y = bad ? pick(l) : stack(l);
                  operation(x, y);
                }};
  };
  auto dot = [](const Stacked& x, Stacked& y) { (void)x.dot(y); };
  auto vdot = [](const Stacked& x, Stacked& y) { (void)y.vdot(x); };
  auto axpy = [](const Stacked& x, Stacked& y) { y.axpy(2.0, x); };
  auto add = [](const Stacked& x, Stacked& y) { (void)(x + y); };
  auto copy = [](const Stacked& x, Stacked& y) { y.copy_from(x); };
  return {
      binary("stacked dot: a block of another layout", other_block, dot),
      binary("stacked dot: fewer blocks", fewer_blocks, dot),
      binary("stacked vdot: a block of another layout", other_block, vdot),
      binary("stacked axpy: fewer blocks", fewer_blocks, axpy),
      binary("stacked x + y: a block of another layout", other_block, add),
      binary("stacked copy_from: fewer blocks", fewer_blocks, copy),
      {"stacked norm: NaN ord", false,
       [=](const Communicator& comm, bool bad) {
         (void)stack(Layouts(comm)).norm(bad ? kNaN : 2.0);
       }},
      {"stacked norm: NaN ord on a rank that owns nothing", false,
       [](const Communicator& comm, bool bad) {
         const Layout nothing_here = bad_ranks_own_nothing(comm, bad);
         (void)Stacked({ones(nothing_here), ones(nothing_here)}).norm(bad ? kNaN : 2.0);
       }},
      {"stacked dot: a block of another layout on a rank that owns nothing", true,
       [](const Communicator& comm, bool bad) {
         const Layout nothing_here = bad_ranks_own_nothing(comm, bad);
         const Layout by_columns(comm, nothing_here.global_shape(), Partition::SCATTER, 1);
         const Stacked x({ones(by_columns)});
         (void)x.dot(Stacked({ones(bad ? nothing_here : by_columns)}));
       }},
      {"stacked norm: ord differs", true,
       [=](const Communicator& comm, bool bad) {
         (void)stack(Layouts(comm)).norm(bad ? 1.0 : 2.0);
       }},
      {"stacked norm: fewer blocks", true,
       [=](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         (void)(bad ? fewer_blocks(l) : stack(l)).norm();
       }},
      {"stacked norm: a block of another layout", true,
       [=](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         (void)(bad ? other_block(l) : stack(l)).norm();
       }},
      {"stacked gather: fewer blocks", true,
       [=](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         (void)(bad ? fewer_blocks(l) : stack(l)).gather();
       }},
      {"stacked view: a layout of fewer blocks", false,
       [=](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         Stacked x = stack(l);
         (void)x.view(bad ? StackedLayout({l.matrix}) : x.layout());
       }},
      {"stacked view: a block of other local sizes", false,
       [=](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         Stacked x = stack(l);
         (void)x.view(StackedLayout({l.matrix, bad ? l.longer : l.vector}));
       }},
  };
}

// The scratch directory of this run, the same on every rank (rank 0's process id names it).
std::filesystem::path scratch(const Communicator& comm) {
  const long id =
      comm.allreduce(comm.rank() == 0 ? static_cast<long>(getpid()) : 0L, ReduceOp::sum);
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("distlops_hostile_" + std::to_string(id));
  collective_check(comm, [&] { std::filesystem::create_directories(dir); });
  return dir;
}

std::vector<Kind> io_kinds() {
  return {
      {"read_npy: missing file", false,
       [](const Communicator& comm, bool bad) {
         const std::filesystem::path dir = scratch(comm);
         write_npy(dir / "a.npy", ones(Layouts(comm).vector));
         (void)read_npy<double>(dir / (bad ? "missing.npy" : "a.npy"), comm);
       }},
      {"read_npy: layout of another shape", false,
       [](const Communicator& comm, bool bad) {
         const std::filesystem::path dir = scratch(comm);
         const Layouts l(comm);
         write_npy(dir / "b.npy", ones(l.vector));
         (void)read_npy<double>(dir / "b.npy", bad ? l.longer : l.vector);
       }},
      {"read_npy: file name differs", true,
       [](const Communicator& comm, bool bad) {
         const std::filesystem::path dir = scratch(comm);
         write_npy(dir / "c.npy", ones(Layouts(comm).vector));
         write_npy(dir / "d.npy", ones(Layouts(comm).longer));
         (void)read_npy<double>(dir / (bad ? "d.npy" : "c.npy"), comm);
       }},
      {"write_npy: path differs", true,
       [](const Communicator& comm, bool bad) {
         const std::filesystem::path dir = scratch(comm);
         write_npy(dir / (bad ? "f.npy" : "g.npy"), ones(Layouts(comm).vector));
       }},
      {"write_npy: array of another layout", true,
       [](const Communicator& comm, bool bad) {
         const std::filesystem::path dir = scratch(comm);
         const Layouts l(comm);
         write_npy(dir / "h.npy", ones(bad ? l.shifted : l.flat));
       }},
      {"write_npy: array of another layout on a rank that owns nothing", true,
       [](const Communicator& comm, bool bad) {
         const std::filesystem::path dir = scratch(comm);
         const Layout source = bad_ranks_own_nothing(comm, bad);
         const Layout by_columns(comm, source.global_shape(), Partition::SCATTER, 1);
         write_npy(dir / "i.npy", ones(bad ? source : by_columns));
       }},
      {"write_npy: directory missing", false,
       [](const Communicator& comm, bool bad) {
         const std::filesystem::path dir = scratch(comm);
         write_npy(dir / (bad ? "no/such/dir/e.npy" : "e.npy"), ones(Layouts(comm).vector));
       }},
      {"write_npy: an empty array whose bytes overflow", false,
       [](const Communicator& comm, bool bad) {
         const Index big = Index(1) << 61;
         const DistributedArray<std::complex<double>> x(Layout(comm, {0, bad ? big : 4}));
         write_npy(std::filesystem::temp_directory_path() / "distlops_hostile_never.npy", x);
       }},
  };
}

// A FunctionOperator from `model` to `data` samples whose callables throw where `bad` (a user
// function failing on some ranks only) and otherwise copy what fits and zero the rest.
LocalOperator<double> user_block(bool bad, Index model, Index data) {
  auto body = [bad](const LocalArray<double>& in, LocalArray<double>& out) {
    if (bad) throw std::runtime_error("the user's function failed on this rank");
    for (Index i = 0; i < out.size(); ++i)
      out.data()[i] = i < in.size() ? in.data()[i] : 0.0;
  };
  return local::FunctionOperator<double>(body, body, {model}, {data}, "UserBlock");
}

// Exceptions thrown by user code inside the distributed operators that hold local ones: each
// apply is followed by a collective (a norm, a solver's reductions) that a failing rank never
// reaches unless the operator agrees on the failure.
LinearOperator<double> sliding_user_blocks(const Communicator& comm, bool bad) {
  const Index windows = std::max<Index>(5, comm.size());
  return Sliding1D<double>(user_block(bad, 2, 3), comm, 2 * windows, 3 * windows, 3, 0,
                           Taper::none);
}

std::vector<Kind> user_code_kinds() {
  return {
      {"user code: BlockDiag forward throws", false,
       [](const Communicator& comm, bool bad) {
         const LinearOperator<double> op = BlockDiag<double>({user_block(bad, 3, 4)}, comm);
         (void)op.apply(ones(op.domain())).norm();
       }},
      {"user code: BlockDiag adjoint throws", false,
       [](const Communicator& comm, bool bad) {
         const LinearOperator<double> op = BlockDiag<double>({user_block(bad, 3, 4)}, comm);
         (void)op.apply_adjoint(ones(op.range())).norm();
       }},
      {"user code: a scaled sum of blocks in BlockDiag throws", false,
       [](const Communicator& comm, bool bad) {
         const LocalOperator<double> sum = 2.0 * (user_block(bad, 3, 3) + user_block(false, 3, 3));
         const LinearOperator<double> op = BlockDiag<double>({sum}, comm);
         (void)op.apply(ones(op.domain())).norm();
       }},
      {"user code: BlockDiag throws inside cgls", false,
       [](const Communicator& comm, bool bad) {
         const LinearOperator<double> op = BlockDiag<double>({user_block(bad, 3, 4)}, comm);
         CglsOptions<Array> options;
         options.niter = 5;
         (void)cgls(op, ones(op.range()), options);
       }},
      {"user code: VStack forward throws", false,
       [](const Communicator& comm, bool bad) {
         const LinearOperator<double> op = VStack<double>({user_block(bad, 3, 2)}, comm);
         (void)op.apply(ones(op.domain())).norm();
       }},
      {"user code: HStack forward throws", false,
       [](const Communicator& comm, bool bad) {
         const LinearOperator<double> op = HStack<double>({user_block(bad, 2, 3)}, comm);
         (void)op.apply(ones(op.domain())).norm();
       }},
      {"user code: Replicated forward throws", false,
       [](const Communicator& comm, bool bad) {
         const LinearOperator<double> op = Replicated<double>(user_block(bad, 3, 3), comm);
         (void)op.apply(ones(op.domain())).norm();
       }},
      // At least one window per rank, so that the bad rank applies the operator.
      {"user code: Sliding1D forward throws", false,
       [](const Communicator& comm, bool bad) {
         const LinearOperator<double> op = sliding_user_blocks(comm, bad);
         (void)op.apply(ones(op.domain())).norm();
       }},
      {"user code: Sliding1D adjoint throws", false,
       [](const Communicator& comm, bool bad) {
         const LinearOperator<double> op = sliding_user_blocks(comm, bad);
         (void)op.apply_adjoint(ones(op.range())).norm();
       }},
  };
}

#if DISTLOPS_WITH_SEGYIO
// A post-stack SEG-Y file of `traces` traces of `samples` zero samples (IEEE floats, format 5),
// written by rank 0: a 3200-byte text header, the 400-byte binary header (big-endian sample
// interval in microseconds, samples per trace, format), then each trace's 240-byte header
// (samples and interval again) and samples.
void write_segy_file(const Communicator& comm, const std::filesystem::path& path, int traces,
                     int samples, int interval_us) {
  collective_check(comm, [&] {
    if (comm.rank() != 0) return;
    std::vector<unsigned char> bytes(3600 + std::size_t(traces) * (240 + 4 * std::size_t(samples)),
                                     0);
    std::fill_n(bytes.begin(), 3200, ' ');
    auto put16 = [&](std::size_t at, int value) {
      bytes[at] = static_cast<unsigned char>((value >> 8) & 0xff);
      bytes[at + 1] = static_cast<unsigned char>(value & 0xff);
    };
    put16(3200 + 16, interval_us);
    put16(3200 + 20, samples);
    put16(3200 + 24, 5);
    for (int t = 0; t < traces; ++t) {
      const std::size_t header = 3600 + std::size_t(t) * (240 + 4 * std::size_t(samples));
      put16(header + 114, samples);
      put16(header + 116, interval_us);
    }
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file) throw std::runtime_error("cannot write " + path.string());
    const std::size_t written = std::fwrite(bytes.data(), 1, bytes.size(), file);
    std::fclose(file);
    if (written != bytes.size()) throw std::runtime_error("cannot write " + path.string());
  });
}
#endif

// Files of other formats than .npy and the solvers' checkpoints.
std::vector<Kind> file_format_kinds() {
  auto cgls_checkpoint = [](const Communicator& comm, const std::filesystem::path& dir, int every,
                            bool resume) {
    CglsOptions<Array> options;
    options.niter = 2;
    options.checkpoint.directory = dir.string();
    options.checkpoint.every = every;
    options.checkpoint.resume = resume;
    (void)cgls(FirstDerivative<double>(Layouts(comm).matrix, {.axis = 1}),
               ones(Layouts(comm).matrix), options);
  };
  std::vector<Kind> kinds = {
      {"read_npz: missing file", false,
       [](const Communicator& comm, bool bad) {
         (void)read_npz<double>(scratch(comm) / (bad ? "missing.npz" : "missing_too.npz"), "a",
                                comm);
       }},
      {"read_npz: not an archive", false,
       [](const Communicator& comm, bool bad) {
         const std::filesystem::path dir = scratch(comm);
         write_npy(dir / "npz_a.npy", ones(Layouts(comm).vector));
         (void)read_npz<double>(dir / (bad ? "npz_a.npy" : "npz_missing.npz"), "a", comm);
       }},
      {"npz_members: path differs", true,
       [](const Communicator& comm, bool bad) {
         (void)npz_members(scratch(comm) / (bad ? "p.npz" : "q.npz"), comm);
       }},
      {"checkpoint: directory differs", true,
       [=](const Communicator& comm, bool bad) {
         const std::filesystem::path dir = scratch(comm);
         cgls_checkpoint(comm, dir / (bad ? "ck_a" : "ck_b"), 1, false);
       }},
      {"checkpoint: negative interval", false,
       [=](const Communicator& comm, bool bad) {
         cgls_checkpoint(comm, scratch(comm) / "ck_c", bad ? -1 : 1, false);
       }},
      {"checkpoint: resume from a directory without one", false,
       [=](const Communicator& comm, bool bad) {
         cgls_checkpoint(comm, scratch(comm) / "ck_none", 0, bad);
       }},
  };
#if DISTLOPS_WITH_HDF5
  const std::vector<Kind> hdf5 = {
      {"read_hdf5: missing dataset", false,
       [](const Communicator& comm, bool bad) {
         const std::filesystem::path dir = scratch(comm);
         write_hdf5(dir / "a.h5", ones(Layouts(comm).vector));
         (void)read_hdf5<double>(dir / "a.h5", Layouts(comm).vector, bad ? "other" : "data");
       }},
      {"read_hdf5: dataset name differs", true,
       [](const Communicator& comm, bool bad) {
         const std::filesystem::path dir = scratch(comm);
         write_hdf5(dir / "b.h5", ones(Layouts(comm).vector), "x");
         write_hdf5(dir / "c.h5", ones(Layouts(comm).vector), "y");
         (void)read_hdf5<double>(dir / (bad ? "c.h5" : "b.h5"), Layouts(comm).vector,
                                 bad ? "y" : "x");
       }},
      {"read_hdf5: layout of another shape", false,
       [](const Communicator& comm, bool bad) {
         const std::filesystem::path dir = scratch(comm);
         const Layouts l(comm);
         write_hdf5(dir / "d.h5", ones(l.vector));
         (void)read_hdf5<double>(dir / "d.h5", bad ? l.longer : l.vector);
       }},
      {"write_hdf5: dataset name differs", true,
       [](const Communicator& comm, bool bad) {
         write_hdf5(scratch(comm) / "e.h5", ones(Layouts(comm).vector), bad ? "u" : "v");
       }},
  };
  kinds.insert(kinds.end(), hdf5.begin(), hdf5.end());
#endif
#if DISTLOPS_WITH_SEGYIO
  const std::vector<Kind> segy = {
      {"read_segy: expected trace count differs", true,
       [](const Communicator& comm, bool bad) {
         const std::filesystem::path path = scratch(comm) / "a.sgy";
         write_segy_file(comm, path, 6, 5, 4000);
         (void)read_segy(path, comm, {.traces = bad ? 7 : 6});
       }},
      {"read_segy: expected sample interval differs", true,
       [](const Communicator& comm, bool bad) {
         const std::filesystem::path path = scratch(comm) / "b.sgy";
         write_segy_file(comm, path, 6, 5, 4000);
         (void)read_segy(path, comm, {.sample_interval = bad ? 0.002 : 0.004});
       }},
      {"read_segy: missing file", false,
       [](const Communicator& comm, bool bad) {
         const std::filesystem::path dir = scratch(comm);
         write_segy_file(comm, dir / "c.sgy", 6, 5, 4000);
         (void)read_segy(dir / (bad ? "missing.sgy" : "c.sgy"), comm);
       }},
      {"read_segy: layout of another shape", false,
       [](const Communicator& comm, bool bad) {
         const std::filesystem::path path = scratch(comm) / "d.sgy";
         write_segy_file(comm, path, 6, 5, 4000);
         (void)read_segy(path, Layout(comm, {bad ? 7 : 6, 5}));
       }},
  };
  kinds.insert(kinds.end(), segy.begin(), segy.end());
#endif
  return kinds;
}

// Operators built from windows, convolutions and the post-stack model, and Reshape.
std::vector<Kind> signal_operator_kinds() {
  const std::vector<double> identity9 = [] {
    std::vector<double> a(9, 0.0);
    a[0] = a[4] = a[8] = 1.0;
    return a;
  }();
  const std::vector<double> wavelet{0.25, 0.5, 0.25};
  return {
      // Five windows of 3 samples, 3 model samples each.
      {"Sliding1D: data shorter than a window", false,
       [=](const Communicator& comm, bool bad) {
         (void)Sliding1D<double>(local::MatrixMult<double>(3, 3, identity9), comm, 15, bad ? 2 : 15,
                                 3, 0, Taper::none);
       }},
      {"Sliding1D: taper differs", true,
       [=](const Communicator& comm, bool bad) {
         (void)Sliding1D<double>(local::MatrixMult<double>(3, 3, identity9), comm, 15, 15, 3, 0,
                                 bad ? Taper::hanning : Taper::none);
       }},
      {"Sliding2D: negative overlap", false,
       [=](const Communicator& comm, bool bad) {
         (void)Sliding2D<double>(local::MatrixMult<double>(3, 3, identity9), comm, {15, 1}, {15, 1},
                                 3, bad ? -1 : 0, Taper::none);
       }},
      {"Patch2D: taper differs", true,
       [=](const Communicator& comm, bool bad) {
         (void)Patch2D<double>(local::MatrixMult<double>(3, 3, identity9), comm, {9, 1}, {9, 1},
                               {3, 1}, {0, 0}, {3, 1}, bad ? Taper::hanning : Taper::none);
       }},
      {"Convolve2D: a 1-d filter", false,
       [=](const Communicator& comm, bool bad) {
         const std::vector<double> h(bad ? 3 : 9, 0.1);
         (void)Convolve2D<double>(Layouts(comm).matrix, h, bad ? Shape{3} : Shape{3, 3});
       }},
      {"ConvolveND: offset differs", true,
       [=](const Communicator& comm, bool bad) {
         const std::vector<double> h(9, 0.1);
         (void)ConvolveND<double>(Layouts(comm).matrix, h, {3, 3}, {bad ? 0 : 1, 1});
       }},
      {"ConvolveND: filter differs", true,
       [=](const Communicator& comm, bool bad) {
         const std::vector<double> h(9, bad ? 0.2 : 0.1);
         (void)ConvolveND<double>(Layouts(comm).matrix, h, {3, 3});
       }},
      {"PoststackLinearModelling: empty wavelet", false,
       [=](const Communicator& comm, bool bad) {
         const std::vector<double> w = bad ? std::vector<double>{} : wavelet;
         (void)PoststackLinearModelling<double>(w, Layouts(comm).matrix);
       }},
      {"PoststackLinearModelling: wavelet differs", true,
       [=](const Communicator& comm, bool bad) {
         const std::vector<double> w{0.25, bad ? 0.6 : 0.5, 0.25};
         (void)PoststackLinearModelling<double>(w, Layouts(comm).matrix);
       }},
      {"Reshape: a target of other local sizes", false,
       [](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         (void)Reshape<double>(l.flat, bad ? l.shifted : l.flat);
       }},
      {"Reshape: target differs", true,
       [](const Communicator& comm, bool bad) {
         // (9, 2, 2) split along axis 0 holds the same elements per rank as (9, 4).
         const Layouts l(comm);
         const Layout cube(comm, {9, 2, 2});
         (void)Reshape<double>(l.matrix, bad ? cube : l.matrix).apply(ones(l.matrix)).norm();
       }},
  };
}

// The proximal operators: bad parameters on some ranks (checked at the first call, since a
// constructor cannot tell the other ranks), arguments that differ between ranks, and the
// proximal solvers given such operators.
std::vector<Kind> proximal_kinds() {
  using L1Op = L1<Array>;
  auto call = [](const char* name, bool differs_only, auto body) {
    return Kind{name, differs_only, [=](const Communicator& comm, bool bad) {
                  const Layouts l(comm);
                  Array x(l.vector);
                  fill_random(x, 5);
                  body(l, x, bad);
                }};
  };
  auto pg_options = [] {
    ProximalGradientOptions<Array> options;
    options.niter = 4;
    options.tol = 1e-12;
    options.tau = 0.5;
    return options;
  };
  return {
      call("prox: negative tau", false,
           [](const Layouts&, const Array& x, bool bad) { (void)L1Op(0.1).prox(x, bad ? -1 : 1); }),
      call("prox: NaN tau", false,
           [](const Layouts&, const Array& x, bool bad) {
             (void)L2<Array>(0.5).prox(x, bad ? kNaN : 1.0);
           }),
      call("prox: tau differs", true,
           [](const Layouts&, const Array& x, bool bad) {
             (void)L1Op(0.1).prox(x, bad ? 0.5 : 1.0);
           }),
      call("prox_conjugate: tau differs", true,
           [](const Layouts&, const Array& x, bool bad) {
             (void)EuclideanBall<Array>(1.0).prox_conjugate(x, bad ? 0.5 : 1.0);
           }),
      call("prox: out of another layout", false,
           [](const Layouts& l, const Array& x, bool bad) {
             Array out = ones(bad ? l.longer : l.vector);
             L1Op(0.1).prox(x, 1.0, out);
           }),
      call("gradient: out of another layout", false,
           [](const Layouts& l, const Array& x, bool bad) {
             Array out = ones(bad ? l.longer : l.vector);
             L2<Array>(0.5).gradient(x, out);
           }),
      call("L1: weights of another layout", false,
           [](const Layouts& l, const Array& x, bool bad) {
             (void)L1Op(ones(bad ? l.longer : l.vector), 0.1).prox(x, 1.0);
           }),
      call("L1: negative sigma", false,
           [](const Layouts&, const Array& x, bool bad) { (void)L1Op(bad ? -0.1 : 0.1).value(x); }),
      call("L1: sigma differs", true,
           [](const Layouts&, const Array& x, bool bad) { (void)L1Op(bad ? 0.2 : 0.1).value(x); }),
      call("L1: a schedule that throws", false,
           [](const Layouts&, const Array& x, bool bad) {
             const L1Op f([bad](int k) {
               if (bad && k > 0) throw std::runtime_error("the user's schedule failed");
               return 0.1;
             });
             (void)f.prox(x, 1.0);
           }),
      call("L2: b of another layout", false,
           [](const Layouts& l, const Array& x, bool bad) {
             (void)L2<Array>(ones(bad ? l.longer : l.vector), 1.0).prox(x, 1.0);
           }),
      call("L2: sigma differs", true,
           [](const Layouts&, const Array& x, bool bad) {
             (void)L2<Array>(bad ? 2.0 : 1.0).gradient(x);
           }),
      call("L2: x outside the operator's domain", false,
           [](const Layouts& l, const Array&, bool bad) {
             const LinearOperator<double> op = FirstDerivative<double>(l.longer);
             (void)L2<Array>(op, ones(op.range()), 1.0).value(ones(bad ? l.vector : l.longer));
           }),
      call("Box: lower above upper", false,
           [](const Layouts&, const Array& x, bool bad) {
             (void)Box<Array>(bad ? 1.0 : -1.0, bad ? -1.0 : 1.0).prox(x, 1.0);
           }),
      call("Box: bounds differ", true,
           [](const Layouts&, const Array& x, bool bad) {
             (void)Box<Array>(-1.0, bad ? 2.0 : 1.0).value(x);
           }),
      call("Box: element-wise bounds crossed in a bad rank's elements", false,
           [](const Layouts& l, const Array& x, bool bad) {
             Array lower = ones(l.vector);
             for (Index i = 0; bad && i < lower.local_size(); ++i)
               lower.data()[i] = 3.0;
             (void)Box<Array>(lower, Array(l.vector, 2.0)).prox(x, 1.0);
           }),
      call("EuclideanBall: negative radius", false,
           [](const Layouts&, const Array& x, bool bad) {
             (void)EuclideanBall<Array>(bad ? -1.0 : 1.0).prox(x, 1.0);
           }),
      call("EuclideanBall: centre of another layout", false,
           [](const Layouts& l, const Array& x, bool bad) {
             (void)EuclideanBall<Array>(ones(bad ? l.longer : l.vector), 1.0).value(x);
           }),
      call("EuclideanBall: radius differs", true,
           [](const Layouts&, const Array& x, bool bad) {
             (void)EuclideanBall<Array>(bad ? 2.0 : 1.0).prox(x, 1.0);
           }),
      call("Precomposed: a = 0", false,
           [](const Layouts&, const Array& x, bool bad) {
             (void)Precomposed<Array>(L1Op(0.1), bad ? 0.0 : 2.0).prox(x, 1.0);
           }),
      call("Postcomposed: an inner function with a bad parameter", false,
           [](const Layouts&, const Array& x, bool bad) {
             (void)Postcomposed<Array>(L1Op(bad ? -1.0 : 1.0), 2.0).value(x);
           }),
      call("Postcomposed: s differs", true,
           [](const Layouts&, const Array& x, bool bad) {
             (void)Postcomposed<Array>(L1Op(0.1), bad ? 3.0 : 2.0).prox(x, 1.0);
           }),
      {"L21: components of different layouts", false,
       [](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         const Stacked x({ones(l.vector), ones(bad ? l.longer : l.vector)});
         (void)L21<Stacked>(0.1).prox(x, 1.0);
       }},
      {"L21: sigma differs", true,
       [](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         const Stacked x({ones(l.vector), ones(l.vector)});
         (void)L21<Stacked>(bad ? 0.2 : 0.1).value(x);
       }},
      call("proximal_gradient: g's sigma differs (with a tolerance)", true,
           [=](const Layouts&, const Array& x, bool bad) {
             (void)proximal_gradient(L2<Array>(x, 1.0), L1Op(bad ? 1.0 : 0.0), x, pg_options());
           }),
      call("proximal_gradient: g built with a negative sigma", false,
           [=](const Layouts&, const Array& x, bool bad) {
             (void)proximal_gradient(L2<Array>(x, 1.0), L1Op(bad ? -1.0 : 1.0), x, pg_options());
           }),
      call("proximal_gradient: f's b of another layout", false,
           [=](const Layouts& l, const Array& x, bool bad) {
             (void)proximal_gradient(L2<Array>(ones(bad ? l.longer : l.vector), 1.0), L1Op(0.1), x,
                                     pg_options());
           }),
      call("admm: g's radius differs", true,
           [](const Layouts& l, const Array& x, bool bad) {
             const LinearOperator<double> identity = Reshape<double>(l.vector, l.vector);
             AdmmOptions<Array> options;
             options.niter = 2;
             (void)admm(EuclideanBall<Array>(bad ? 2.0 : 1.0), identity, x, identity, x, options);
           }),
      call("primal_dual: f of another kind", true,
           [](const Layouts&, const Array& x, bool bad) {
             const LinearOperator<double> k = FirstDerivative<double>(x.layout());
             PrimalDualOptions<Array> options;
             options.niter = 2;
             options.tau = options.sigma = 0.4;
             options.check_steps = false;
             const L2<Array> l2(x, 1.0);
             const L1Op l1(1.0);
             const ProxOperator<Array>& f = bad ? static_cast<const ProxOperator<Array>&>(l1) : l2;
             (void)primal_dual(f, L1Op(0.1), k, x, options);
           }),
      call("linearized_admm: g with a negative radius", false,
           [](const Layouts&, const Array& x, bool bad) {
             const LinearOperator<double> a = FirstDerivative<double>(x.layout());
             LinearizedAdmmOptions<Array> options;
             options.niter = 2;
             options.mu = 0.1;
             options.check_steps = false;
             (void)linearized_admm(L2<Array>(x, 1.0), EuclideanBall<Array>(bad ? -1.0 : 1.0), a, x,
                                   options);
           }),
  };
}

// A user's operator, y = 2 x, that throws where `bad`. With `collective` the others compute a
// norm of their own inside it, a collective the failing rank never reaches.
class UserScaling final : public LinearOperatorBase<Array> {
 public:
  UserScaling(const Layout& layout, bool bad, bool collective)
      : LinearOperatorBase(layout, layout, "UserScaling"), bad_(bad), collective_(collective) {}
  void forward(const Array& x, Array& y) const override { scale(x, y); }
  void adjoint(const Array& y, Array& x) const override { scale(y, x); }

 private:
  void scale(const Array& in, Array& out) const {
    if (bad_) throw std::runtime_error("the user's operator failed on this rank");
    if (!collective_) {
      for (Index i = 0; i < in.local_size(); ++i)
        out.data()[i] = 2.0 * in.data()[i];
      return;
    }
    out.copy_from(in).scale(2.0);
    (void)out.norm();
  }
  bool bad_, collective_;
};

// A user's proximal operator: prox copies x, value is ||x||^2 / 2; with `bad` prox throws (after
// the others reach a norm of their own when `collective`) or value returns another number.
class UserProx final : public ProxOperator<Array> {
 public:
  enum class Failure { none, prox_throws, value_differs };
  UserProx(Failure failure, bool collective) : failure_(failure), collective_(collective) {}
  std::string name() const override { return "UserProx"; }
  std::shared_ptr<const ProxOperator<Array>> clone() const override {
    return std::make_shared<UserProx>(*this);
  }

 protected:
  double do_value(const Array& x) const override {
    const double norm = x.norm();
    return 0.5 * norm * norm + (failure_ == Failure::value_differs ? 1.0 : 0.0);
  }
  void do_prox(const Array& x, double, Array& out) const override {
    if (failure_ == Failure::prox_throws) throw std::runtime_error("the user's prox failed");
    if (!collective_) {
      std::copy_n(x.data(), x.local_size(), out.data());
      return;
    }
    out.copy_from(x);
    (void)out.norm();
  }

 private:
  Failure failure_;
  bool collective_;
};

// Code of the user's inside the library: operators, proximal operators and callbacks that
// throw on some ranks, or return values that differ, where the others go on to a collective.
std::vector<Kind> extension_kinds() {
  auto cg_on = [](const Communicator& comm, bool bad, bool collective) {
    const Layouts l(comm);
    const auto op = LinearOperator<double>::make<UserScaling>(l.vector, bad, collective);
    CgOptions<Array> options;
    options.niter = 3;
    (void)cg(op, ones(l.vector), options);
  };
  auto pg_with = [](const Communicator& comm, UserProx::Failure failure, bool collective) {
    const Layouts l(comm);
    const Array b = ones(l.vector);
    ProximalGradientOptions<Array> options;
    options.niter = 3;
    options.tau = 0.5;
    (void)proximal_gradient(L2<Array>(b, 1.0), UserProx(failure, collective), b, options);
  };
  using Failure = UserProx::Failure;
  return {
      {"user operator: forward throws inside cg", false,
       [=](const Communicator& comm, bool bad) { cg_on(comm, bad, false); }},
      {"user operator: throws where the others reach a norm of their own inside cg", false,
       [=](const Communicator& comm, bool bad) { cg_on(comm, bad, true); }},
      {"user operator: adjoint throws inside cgls", false,
       [](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         const auto op = LinearOperator<double>::make<UserScaling>(l.vector, bad, false);
         (void)cgls(op, ones(l.vector));
       }},
      {"user operator: throws in a plain apply", false,
       [](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         const auto op = LinearOperator<double>::make<UserScaling>(l.vector, bad, false);
         (void)op.apply(ones(l.vector)).norm();
       }},
      {"user operator: throws inside a sum with a library operator", false,
       [](const Communicator& comm, bool bad) {
         const Layouts l(comm);
         const auto op = LinearOperator<double>::make<UserScaling>(l.vector, bad, true) +
                         FirstDerivative<double>(l.vector);
         (void)op.apply(ones(l.vector)).norm();
       }},
      {"user prox: prox throws inside proximal_gradient", false,
       [=](const Communicator& comm, bool bad) {
         pg_with(comm, bad ? Failure::prox_throws : Failure::none, false);
       }},
      {"user prox: throws where the others reach a norm of their own", false,
       [=](const Communicator& comm, bool bad) {
         pg_with(comm, bad ? Failure::prox_throws : Failure::none, true);
       }},
      {"user prox: value differs", true,
       [=](const Communicator& comm, bool bad) {
         pg_with(comm, bad ? Failure::value_differs : Failure::none, false);
       }},
      {"user prox: prox throws outside a solver", false,
       [](const Communicator& comm, bool bad) {
         const Array x = ones(Layouts(comm).vector);
         (void)UserProx(bad ? Failure::prox_throws : Failure::none, true).prox(x, 1.0).norm();
       }},
      {"user callback: throws inside proximal_gradient", false,
       [](const Communicator& comm, bool bad) {
         const Array b = ones(Layouts(comm).vector);
         ProximalGradientOptions<Array> options;
         options.niter = 3;
         options.tau = 0.5;
         options.callback = [bad](int, const Array&, double, double) {
           if (bad) throw std::runtime_error("the user's callback failed");
           return CallbackAction::proceed;
         };
         (void)proximal_gradient(L2<Array>(b, 1.0), L1<Array>(0.1), b, options);
       }},
  };
}

// ---- box layouts: grids, explicit boxes, reshapes and ghost cells on every axis --------------

// Rows of a (size, 4) array, one per rank, in rank order or in reverse.
std::vector<ArrayBox> row_boxes(const Communicator& comm, bool reverse) {
  std::vector<ArrayBox> boxes;
  const Index n = comm.size();
  for (Index r = 0; r < n; ++r) {
    const Index row = reverse ? n - 1 - r : r;
    boxes.push_back({{row, 0}, {row + 1, 4}});
  }
  return boxes;
}

std::vector<Kind> box_layout_kinds() {
  auto grid_layout = [](const Communicator& comm, const Shape& shape) {
    return Layout(comm, shape, LayoutOptions{.grid = default_grid(shape, comm.size())});
  };
  return {
      {"box layout: grid product is not the rank count", false,
       [](const Communicator& comm, bool bad) {
         (void)Layout(comm, {8, 8}, LayoutOptions{.grid = {comm.size() + (bad ? 1 : 0), 1}});
       }},
      {"box layout: grid without one entry per axis", false,
       [](const Communicator& comm, bool bad) {
         (void)Layout(comm, {8, 8},
                      LayoutOptions{.grid = bad ? std::vector<int>{comm.size(), 1, 1}
                                                : std::vector<int>{comm.size(), 1}});
       }},
      {"box layout: grid extents summing wrong", false,
       [](const Communicator& comm, bool bad) {
         (void)Layout(
             comm, {8, 8},
             LayoutOptions{.grid_extents = {default_split(bad ? 7 : 8, comm.size()), {8}}});
       }},
      {"box layout: grid of a replicated array", false,
       [](const Communicator& comm, bool bad) {
         (void)Layout(comm, {8, 8},
                      LayoutOptions{.partition = bad ? Partition::BROADCAST : Partition::SCATTER,
                                    .grid = {comm.size(), 1}});
       }},
      {"box layout: grid differs", true,
       [](const Communicator& comm, bool bad) {
         (void)Layout(comm, {8, 8},
                      LayoutOptions{.grid = bad ? std::vector<int>{1, comm.size()}
                                                : std::vector<int>{comm.size(), 1}});
       }},
      {"box layout: overlapping boxes", false,
       [](const Communicator& comm, bool bad) {
         std::vector<ArrayBox> boxes = row_boxes(comm, false);
         if (bad) boxes[1].upper[0] = 2, boxes[1].lower[0] = 0;
         (void)Layout(comm, {comm.size(), 4}, LayoutOptions{.boxes = boxes});
       }},
      {"box layout: boxes leaving a gap", false,
       [](const Communicator& comm, bool bad) {
         std::vector<ArrayBox> boxes = row_boxes(comm, false);
         if (bad) boxes[0].upper[1] = 3;
         (void)Layout(comm, {comm.size(), 4}, LayoutOptions{.boxes = boxes});
       }},
      {"box layout: boxes differ", true,
       [](const Communicator& comm, bool bad) {
         (void)Layout(comm, {comm.size(), 4}, LayoutOptions{.boxes = row_boxes(comm, bad)});
       }},
      {"from_local_box: box outside the array", false,
       [](const Communicator& comm, bool bad) {
         ArrayBox mine = row_boxes(comm, false)[static_cast<std::size_t>(comm.rank())];
         if (bad) mine.upper[1] = 5;
         (void)Layout::from_local_box(comm, {comm.size(), 4}, mine);
       }},
      {"from_local_box: corners of another length", false,
       [](const Communicator& comm, bool bad) {
         ArrayBox mine = row_boxes(comm, false)[static_cast<std::size_t>(comm.rank())];
         if (bad) mine.upper.push_back(1);
         (void)Layout::from_local_box(comm, {comm.size(), 4}, mine);
       }},
      {"reshape: target of another global shape", false,
       [=](const Communicator& comm, bool bad) {
         const Layout source = grid_layout(comm, {6, 4});
         const Layout wide = grid_layout(comm, {4, 6}), same(comm, {6, 4}, Partition::SCATTER, 1);
         (void)ones(source).redistribute(bad ? wide : same);
       }},
      {"reshape: plan of other layouts", false,
       [=](const Communicator& comm, bool bad) {
         const Layout source = grid_layout(comm, {6, 4});
         const Layout everywhere(comm, {6, 4}, Partition::BROADCAST);
         const ReshapePlan plan(source, everywhere);
         Array target(bad ? source : everywhere);
         ones(source).redistribute(plan, target);
       }},
      {"ghost exchange: grid axis longer than the array axis", false,
       [](const Communicator& comm, bool bad) {
         // Axis 1 of 1 plane cut into `size` parts: every rank but the first owns nothing.
         const Layout thin(comm, {3, 1}, LayoutOptions{.grid = {1, comm.size()}});
         const GhostWidths along = bad ? GhostWidths{2, 2} : GhostWidths{0, 0};
         (void)GhostExchange(thin, std::vector<GhostWidths>{{0, 0}, along});
       }},
      {"ghost exchange: widths for too few axes", false,
       [=](const Communicator& comm, bool bad) {
         (void)GhostExchange(grid_layout(comm, {6, 4}),
                             std::vector<GhostWidths>(bad ? 1 : 2, GhostWidths{1, 1}));
       }},
      {"ghost exchange: negative width", false,
       [=](const Communicator& comm, bool bad) {
         (void)GhostExchange(grid_layout(comm, {6, 4}),
                             std::vector<GhostWidths>(2, GhostWidths{bad ? -1 : 1, 1}));
       }},
      {"ghost exchange: reach differs", true,
       [=](const Communicator& comm, bool bad) {
         (void)GhostExchange(grid_layout(comm, {6, 4}), std::vector<GhostWidths>(2, {1, 1}),
                             bad ? GhostReach::any : GhostReach::neighbours);
       }},
      {"ghost exchange: neighbours of boxes without a grid", false,
       [](const Communicator& comm, bool bad) {
         const Layout boxes(comm, {comm.size(), 4}, LayoutOptions{.boxes = row_boxes(comm, true)});
         (void)GhostExchange(boxes, std::vector<GhostWidths>(2, GhostWidths{bad ? 1 : 0, 0}),
                             GhostReach::neighbours);
       }},
      {"Halo: replicated layout", false,
       [=](const Communicator& comm, bool bad) {
         const Layout grid = grid_layout(comm, {6, 4});
         const Layout everywhere(comm, {6, 4}, Partition::BROADCAST);
         (void)Halo<double>(bad ? everywhere : grid, 1);
       }},
      {"Halo: ghost width beyond the array on a grid", false,
       [=](const Communicator& comm, bool bad) {
         // 7 planes along axis 0, which the default grid cuts from 2 ranks on: no neighbour
         // owns that many.
         const Layout grid = grid_layout(comm, {6, 4});
         const Index width = bad ? 7 : 1;
         (void)Halo<double>(grid, HaloWidths::per_axis({width, 1}));
       }},
      {"Halo: layouts differ", true,
       [=](const Communicator& comm, bool bad) {
         const Layout rows(comm, {6, 4}), columns(comm, {6, 4}, Partition::SCATTER, 1);
         (void)Halo<double>(bad ? columns : rows, 1);
       }},
      {"add_ghost_cells: box layout", false,
       [=](const Communicator& comm, bool bad) {
         const Layout source =
             bad ? Layout(comm, {comm.size(), 4}, LayoutOptions{.boxes = row_boxes(comm, true)})
                 : Layout(comm, {comm.size(), 4});
         (void)ones(source).add_ghost_cells(0, 0);
       }},
  };
}

void report(const Tally& tally, const char* family) {
  const Communicator comm = world();
  if (comm.rank() == 0) {
    std::printf("hostile input, %s: %d runs at %d ranks, %d clean\n", family, tally.runs,
                comm.size(), tally.clean);
  }
}

}  // namespace

TEST_CASE("hostile input: layouts", "[hostile]") {
  Tally tally;
  run_kinds(layout_kinds(), tally);
  report(tally, "layouts");
}

TEST_CASE("hostile input: arrays", "[hostile]") {
  Tally tally;
  run_kinds(array_kinds(), tally);
  report(tally, "arrays");
}

TEST_CASE("hostile input: stacked arrays", "[hostile]") {
  Tally tally;
  run_kinds(stacked_kinds(), tally);
  report(tally, "stacked arrays");
}

TEST_CASE("hostile input: operators", "[hostile]") {
  Tally tally;
  run_kinds(operator_kinds(), tally);
  report(tally, "operators");
}

TEST_CASE("hostile input: solvers", "[hostile]") {
  Tally tally;
  run_kinds(solver_kinds(), tally);
  report(tally, "solvers");
}

TEST_CASE("hostile input: user code inside operators", "[hostile]") {
  Tally tally;
  run_kinds(user_code_kinds(), tally);
  report(tally, "user code");
}

TEST_CASE("hostile input: user operators, proximal operators and callbacks", "[hostile]") {
  Tally tally;
  run_kinds(extension_kinds(), tally);
  report(tally, "extension points");
}

TEST_CASE("hostile input: proximal operators and solvers", "[hostile]") {
  Tally tally;
  run_kinds(proximal_kinds(), tally);
  report(tally, "proximal");
}

TEST_CASE("hostile input: windows, convolutions, post-stack and Reshape", "[hostile]") {
  Tally tally;
  run_kinds(signal_operator_kinds(), tally);
  report(tally, "signal operators");
}

TEST_CASE("hostile input: box layouts", "[hostile][box]") {
  Tally tally;
  run_kinds(box_layout_kinds(), tally);
  report(tally, "box layouts");
}

// The FFTs take every layout but one: explicit boxes (in reverse rank order they form no grid
// from 2 ranks on) whose cut axis changes its extent cannot return to the input's boxes. The
// same error, naming the way out, on every rank.
TEST_CASE("the FFTs refuse on every rank the boxes they cannot return to", "[hostile][box]") {
  const Communicator comm = world();
  if (comm.size() < 2) return;
  const Layout boxes(comm, {comm.size(), 4}, LayoutOptions{.boxes = row_boxes(comm, true)});
  REQUIRE_FALSE(boxes.is_slab());
  const std::string expected = "same_as_input";
  const DistributedFFTOptions padded{.nfft = {comm.size() + 2, 4},
                                     .output = FFTOutputLayout::same_as_input};
  expect_everywhere<InvalidArgument>(
      comm, [&] { (void)FFT2D<std::complex<double>>(boxes, padded); }, expected);
  expect_everywhere<InvalidArgument>(
      comm,
      [&] {
        (void)FFTND<std::complex<double>>(boxes, {.axes = {0, 1},
                                                  .nfft = {comm.size() + 2, 4},
                                                  .output = FFTOutputLayout::same_as_input});
      },
      expected);
}

TEST_CASE("hostile input: files", "[hostile]") {
  Tally tally;
  run_kinds(io_kinds(), tally);
  run_kinds(file_format_kinds(), tally);
  report(tally, "files");
  const Communicator comm = world();
  const long id =
      comm.allreduce(comm.rank() == 0 ? static_cast<long>(getpid()) : 0L, ReduceOp::sum);
  comm.barrier();
  if (comm.rank() == 0) {
    std::filesystem::remove_all(std::filesystem::temp_directory_path() /
                                ("distlops_hostile_" + std::to_string(id)));
  }
}
