// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// HDF5 checkpoints: at the same rank count a resumed run equals the uninterrupted one bit for
// bit; taken at P ranks and resumed at Q != P ranks it agrees to rounding (the reductions add
// in another order); a stacked model, a complex type; the files left are the manifest and one
// file; mismatches fail on every rank.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <hdf5.h>

#include "box_layouts.hpp"
#include "distlops/operators/stack/stacked.hpp"
#include "expect_everywhere.hpp"
#include "solver_test_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

template <class T>
struct Problem {
  Problem(Index n, const Communicator& comm)
      : domain(comm, {n}),
        range(comm, {n + n / 2}),
        op(dense_operator<Array<T>>(well_conditioned<T>(n + n / 2, n, 2), domain, range)),
        y(range) {
    fill_random(y, 4);
  }
  Layout domain, range;
  LinearOperator<T> op;
  Array<T> y;
};

template <class T>
CglsOptions<Array<T>> hdf5_options(const std::string& directory, int niter) {
  CglsOptions<Array<T>> options;
  options.niter = niter;
  options.damp = 0.1;
  options.checkpoint.directory = directory;
  options.checkpoint.format = CheckpointFormat::hdf5;
  return options;
}

/// max |a - b| / max |b| over the global vectors.
template <class T>
double relative_difference(const DenseVector<T>& a, const DenseVector<T>& b) {
  double difference = 0, scale = 0;
  for (Index i = 0; i < a.size(); ++i) {
    difference = std::max(difference, static_cast<double>(std::abs(a[i] - b[i])));
    scale = std::max(scale, static_cast<double>(std::abs(b[i])));
  }
  return difference / scale;
}

}  // namespace

TEMPLATE_TEST_CASE("an HDF5 checkpoint resumes bit for bit at the same rank count",
                   "[solvers][checkpoint][hdf5]", double, std::complex<float>) {
  using T = TestType;
  const Communicator comm = world();
  const ScratchDirectory scratch;
  const Problem<T> p(29, comm);
  const auto full = cgls(p.op, p.y, hdf5_options<T>("", 12));
  auto first = hdf5_options<T>(scratch.sub("same"), 12);
  first.checkpoint.every = 2;
  first.callback = [](int iteration, const Array<T>&, double, double) {
    return iteration == 7 ? CallbackAction::stop : CallbackAction::proceed;
  };
  (void)cgls(p.op, p.y, first);
  auto second = hdf5_options<T>(scratch.sub("same"), 12);
  second.checkpoint.resume = true;
  const auto resumed = cgls(p.op, p.y, second);
  CHECK(resumed.resumed_from == 6);
  const DenseVector<T> a = global_vector(resumed.x), b = global_vector(full.x);
  CHECK(std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(T)) == 0);
  CHECK(resumed.residual_norms == full.residual_norms);
  // Left behind: the manifest and the current generation's file (saves at 2, 4, 6: g3).
  if (comm.rank() == 0) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(scratch.sub("same")))
      names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    CHECK(names == std::vector<std::string>{"checkpoint.current", "checkpoint.g3.h5"});
  }
}

TEST_CASE("an HDF5 checkpoint taken at P ranks resumes at Q ranks", "[solvers][checkpoint][hdf5]") {
  const Communicator comm = world();
  if (comm.size() < 2) return;  // one rank cannot change its count
  const ScratchDirectory scratch;
  // Saved by P = size - 1 ranks (2 at 3 ranks), resumed by all Q = size ranks; and the other
  // way round, saved by all and resumed by the first P.
  const int p_ranks = comm.size() - 1;
  const bool in_p = comm.rank() < p_ranks;
  const Communicator part = comm.split(in_p ? 0 : 1, comm.rank());
  const int niter = 14, k = 8;
  const Problem<double> all(41, comm);
  const auto uninterrupted = cgls(all.op, all.y, hdf5_options<double>("", niter));

  auto save = [&](const Problem<double>& problem, const std::string& directory) {
    auto options = hdf5_options<double>(directory, k);
    options.checkpoint.every = 4;
    (void)cgls(problem.op, problem.y, options);
  };
  auto resume = [&](const Problem<double>& problem, const std::string& directory) {
    auto options = hdf5_options<double>(directory, niter);
    options.checkpoint.resume = true;
    return cgls(problem.op, problem.y, options);
  };
  // P -> Q
  if (in_p) save(Problem<double>(41, part), scratch.sub("p-to-q"));
  comm.barrier();
  const auto resumed = resume(all, scratch.sub("p-to-q"));
  CHECK(resumed.resumed_from == k);
  CHECK(resumed.iterations == niter);
  const DenseVector<double> reference = global_vector(uninterrupted.x);  // collective
  const double difference = relative_difference(global_vector(resumed.x), reference);
  if (comm.rank() == 0) {
    std::printf(
        "HDF5 checkpoint %d -> %d ranks: max relative difference of x after %d "
        "iterations %.3g\n",
        p_ranks, comm.size(), niter, difference);
  }
  CHECK(difference < 1e-12);
  CHECK(std::abs(resumed.residual_norms.back() - uninterrupted.residual_norms.back()) <
        1e-12 * uninterrupted.residual_norms.front());
  // The histories up to k come from the file: those of the P-rank run.
  REQUIRE(resumed.residual_norms.size() == uninterrupted.residual_norms.size());
  // Q -> P
  save(all, scratch.sub("q-to-p"));
  if (in_p) {
    const Problem<double> fewer(41, part);
    const auto back = resume(fewer, scratch.sub("q-to-p"));
    CHECK(back.resumed_from == k);
    const double back_difference = relative_difference(global_vector(back.x), reference);
    if (comm.rank() == 0) {
      std::printf(
          "HDF5 checkpoint %d -> %d ranks: max relative difference of x after %d "
          "iterations %.3g\n",
          comm.size(), p_ranks, niter, back_difference);
    }
    CHECK(back_difference < 1e-12);
  }
  comm.barrier();
}

TEST_CASE("an HDF5 checkpoint resumes on another process grid",
          "[solvers][checkpoint][hdf5][box]") {
  const Communicator comm = world();
  const ScratchDirectory scratch;
  // A (6, 7) model and a (9, 7) data array cut over process grids; saved on one grid, resumed
  // on others at the same rank count, and (from 2 ranks) saved by all ranks but the last and
  // resumed by all.
  const Shape model{6, 7}, data{9, 7};
  const DenseMatrix<double> matrix = well_conditioned<double>(63, 42, 3);
  auto problem = [&](const Layout& domain_layout, const Layout& range_layout) {
    return dense_operator<Array<double>>(matrix, domain_layout, range_layout);
  };
  auto by_grid = [](const Communicator& on, const Shape& shape, std::vector<int> grid) {
    return Layout(on, shape, LayoutOptions{.grid = std::move(grid)});
  };
  const int niter = 12, k = 6;
  const Layout domain = by_grid(comm, model, default_grid(model, comm.size()));
  const Layout range = by_grid(comm, data, default_grid(data, comm.size()));
  Array<double> y(range);
  fill_random(y, 7);
  const DenseVector<double> global_y = global_vector(y);
  const auto uninterrupted = cgls(problem(domain, range), y, hdf5_options<double>("", niter));
  const DenseVector<double> reference = global_vector(uninterrupted.x);
  auto resume_on = [&](const Layout& new_domain, const Layout& new_range,
                       const std::string& directory) {
    Array<double> data_there(new_range);
    scatter_vector<double>(global_y, data_there);
    auto options = hdf5_options<double>(directory, niter);
    options.checkpoint.resume = true;
    const auto resumed = cgls(problem(new_domain, new_range), data_there, options);
    CHECK(resumed.resumed_from == k);
    CHECK(resumed.x.layout() == new_domain);
    CHECK(relative_difference(global_vector(resumed.x), reference) < 1e-12);
  };
  {
    auto options = hdf5_options<double>(scratch.sub("grid"), k);
    options.checkpoint.every = 3;
    (void)cgls(problem(domain, range), y, options);
  }
  // The other grid of two axes, a slab along the last axis, explicit boxes.
  const std::vector<int> grid = default_grid(model, comm.size());
  resume_on(by_grid(comm, model, {grid[1], grid[0]}), Layout(comm, data, Partition::SCATTER, 1),
            scratch.sub("grid"));
  resume_on(box_test_layouts(comm, model, false).back().layout,
            box_test_layouts(comm, data, false).back().layout, scratch.sub("grid"));
  if (comm.size() > 1) {
    const bool in_p = comm.rank() < comm.size() - 1;
    const Communicator part = comm.split(in_p ? 0 : 1, comm.rank());
    if (in_p) {
      const Layout fewer_domain = by_grid(part, model, default_grid(model, part.size()));
      const Layout fewer_range = by_grid(part, data, {1, part.size()});
      Array<double> data_there(fewer_range);
      scatter_vector<double>(global_y, data_there);
      auto options = hdf5_options<double>(scratch.sub("fewer"), k);
      options.checkpoint.every = 3;
      (void)cgls(problem(fewer_domain, fewer_range), data_there, options);
    }
    comm.barrier();
    resume_on(domain, range, scratch.sub("fewer"));
  }
  comm.barrier();
}

TEST_CASE("a stacked model and mismatches with HDF5 checkpoints", "[solvers][checkpoint][hdf5]") {
  const Communicator comm = world();
  const ScratchDirectory scratch;
  const Problem<double> p(20, comm);
  // A stacked range: CGLS keeps stacked vectors, each leaf a dataset.
  const auto stacked = StackedVStack({p.op, 2.0 * p.op});
  StackedDistributedArray<double> y(stacked.range());
  fill_random(y, 5);
  CglsOptions<Array<double>> full;
  full.niter = 9;
  const auto uninterrupted = cgls(stacked, y, full);
  auto first = full;
  first.niter = 5;
  first.checkpoint.directory = scratch.sub("stacked");
  first.checkpoint.every = 5;
  first.checkpoint.format = CheckpointFormat::hdf5;
  (void)cgls(stacked, y, first);
  auto second = full;
  second.checkpoint.directory = scratch.sub("stacked");
  second.checkpoint.resume = true;
  const auto resumed = cgls(stacked, y, second);
  CHECK(resumed.resumed_from == 5);
  const DenseVector<double> a = global_vector(resumed.x), b = global_vector(uninterrupted.x);
  CHECK(std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(double)) == 0);

  // Another solver, scalar type and sizes fail on every rank.
  CgOptions<Array<double>> cg_resume;
  cg_resume.checkpoint = second.checkpoint;
  const auto normal = p.op.adjoint() * p.op;
  Array<double> rhs(p.domain);
  fill_random(rhs, 3);
  expect_everywhere<InvalidArgument>(
      comm, [&] { (void)cg(normal, rhs, cg_resume); }, "written by solver cgls");
  const Problem<double> larger(21, comm);
  const auto larger_stacked = StackedVStack({larger.op, 2.0 * larger.op});
  StackedDistributedArray<double> larger_y(larger_stacked.range());
  fill_random(larger_y, 5);
  expect_everywhere<ShapeMismatch>(
      comm, [&] { (void)cgls(larger_stacked, larger_y, second); }, "vector block");
  // A damaged file: one byte of the first data chunk flipped; Fletcher32 catches it.
  auto options = hdf5_options<double>(scratch.sub("damaged"), 4);
  options.checkpoint.every = 4;
  (void)cgls(p.op, p.y, options);
  if (comm.rank() == 0) {
    const std::string path = scratch.sub("damaged") + "/checkpoint.g1.h5";
    // Where HDF5 put the first chunk of block0 (x), read with HDF5's serial API.
    haddr_t address = HADDR_UNDEF;
    {
      const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
      const hid_t dataset = H5Dopen2(file, "block0", H5P_DEFAULT);
      hsize_t offset[1];
      unsigned filter_mask = 0;
      hsize_t bytes = 0;
      const hid_t space = H5Dget_space(dataset);
      REQUIRE(H5Dget_chunk_info(dataset, space, 0, offset, &filter_mask, &address, &bytes) >= 0);
      H5Sclose(space);
      H5Dclose(dataset);
      H5Fclose(file);
    }
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    char byte = 0;
    file.seekg(static_cast<std::streamoff>(address + 3));
    file.read(&byte, 1);
    byte = static_cast<char>(byte ^ 0x40);
    file.seekp(static_cast<std::streamoff>(address + 3));
    file.write(&byte, 1);
  }
  comm.barrier();
  auto damaged = hdf5_options<double>(scratch.sub("damaged"), 6);
  damaged.checkpoint.resume = true;
  CHECK_THROWS_AS(cgls(p.op, p.y, damaged), IoError);
  expect_in_step(comm);
}
