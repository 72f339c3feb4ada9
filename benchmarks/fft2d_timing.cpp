// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Times one forward + one adjoint complex128 FFT2D (the fft2d case of docs/benchmarks.md: an n x n
// array x = V(41, i) + 1j V(42, i) split along axis 0, axes (0, 1), norm "none"), next to
// FFTW's own out-of-place 2-d transform pair of the same size on one rank and a STREAM-like
// triad that measures the memory bandwidth of the ranks running together.
//
//   mpiexec -n P fft2d_timing [n] [repeats]
//
// Each repeat is timed between barriers and taken as the maximum over ranks; the minimum and
// the median over repeats are reported (after one warm-up), with the bytes an apply must move
// at the least (read the input once, write the output once), the effective bandwidth that
// implies, its ratio to the triad's, the bytes each rank sends to others per transform, the
// machine's load average and the peak resident memory. A table for people, then JSON lines
// (nlohmann-json: strings escaped, a number that is not finite written as null). A size or a
// repeat count that is not a positive integer exits with 2 (examples/support/exit_statuses.txt).
#include <fftw3.h>
#include <sys/resource.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "distlops/distlops.hpp"

using namespace distlops;

namespace {

using Clock = std::chrono::steady_clock;
using C = std::complex<double>;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string load_average() {
  std::ifstream file("/proc/loadavg");
  std::string one, five, fifteen;
  file >> one >> five >> fifteen;
  return one + " " + five + " " + fifteen;
}

double peak_resident_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // kilobytes on Linux
}

struct Summary {
  double min = 0, median = 0;
};

Summary summarise(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  const std::size_t n = times.size();
  return {times.front(), n % 2 ? times[n / 2] : 0.5 * (times[n / 2 - 1] + times[n / 2])};
}

// Times `body` `repeats` times after a warm-up, between barriers, maximum over ranks.
template <class Body>
Summary time_repeats(const Communicator& comm, int repeats, Body&& body) {
  body();
  std::vector<double> times;
  for (int i = 0; i < repeats; ++i) {
    comm.barrier();
    const auto start = Clock::now();
    body();
    const double local = seconds_since(start);
    times.push_back(comm.allreduce(local, ReduceOp::max));
  }
  return summarise(times);
}

struct Bandwidth {
  double best = 0, median = 0;
};

// STREAM's triad a = b + s c on every rank at once; bytes counted as STREAM does (24 per
// element); the aggregate bandwidth of all ranks.
Bandwidth triad_bandwidth(const Communicator& comm, Index n, int repeats) {
  Buffer<double> a(n), b(n), c(n);
  for (Index i = 0; i < n; ++i) {
    a.data()[i] = 0.0;
    b.data()[i] = 1.0 + 1e-9 * double(i);
    c.data()[i] = 2.0;
  }
  const double s = 3.0;
  const Summary time = time_repeats(comm, repeats, [&] {
    double* __restrict pa = a.data();
    const double* __restrict pb = b.data();
    const double* __restrict pc = c.data();
    for (Index i = 0; i < n; ++i)
      pa[i] = pb[i] + s * pc[i];
  });
  const double bytes = 24.0 * double(n) * comm.size();
  return {bytes / time.min, bytes / time.median};
}

// The positional argument `index`, a positive integer of at most `largest`; `fallback` when
// absent, nothing when it is not such a number.
std::optional<long long> positive_argument(int argc, char** argv, int index, long long fallback,
                                           long long largest) {
  if (argc <= index) return fallback;
  const std::string_view text(argv[index]);
  long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 1 || value > largest)
    return std::nullopt;
  return value;
}

}  // namespace

int main(int argc, char** argv) {
  Environment environment(argc, argv);
  const Communicator comm = Communicator::world();
  const bool root = comm.rank() == 0;
  // Every rank reads the same arguments, so all exit alike.
  const auto n_argument = positive_argument(argc, argv, 1, 2048, 1 << 20);
  const auto repeats_argument = positive_argument(argc, argv, 2, 5, 1 << 20);
  if (argc > 3 || !n_argument || !repeats_argument) {
    if (root)
      std::fprintf(stderr,
                   "fft2d_timing: usage: mpiexec -n P fft2d_timing [n] [repeats], two positive "
                   "integers (default 2048 5)\n");
    return 2;
  }
  const Index n = *n_argument;
  const int repeats = static_cast<int>(*repeats_argument);
  const std::string load_before = load_average();

  // Memory bandwidth: 3 arrays of 2^24 doubles (384 MiB) per rank, far beyond any cache.
  const Bandwidth triad = triad_bandwidth(comm, Index(1) << 24, repeats);

  const Index elements = n * n;
  const double minimal_bytes = 2.0 * 2.0 * 16.0 * double(elements);  // forward + adjoint

  struct Row {
    std::string name;
    Summary time;
    double sent_bytes;
  };
  std::vector<Row> rows;

  // FFTW alone, one rank, the same transform pair (fftw_plan_dft_2d, out of place), planned
  // with FFTW_ESTIMATE (as distlops by default) and with FFTW_MEASURE (a few seconds). The
  // input is restored before timing: measuring overwrites the arrays.
  if (comm.size() == 1) {
    Buffer<C> in(elements), out(elements);
    DistributedArray<C> x(Layout(comm, {n, n}));
    fill_random(x, 41);
    auto* pin = reinterpret_cast<fftw_complex*>(in.data());
    auto* pout = reinterpret_cast<fftw_complex*>(out.data());
    for (unsigned flags : {unsigned(FFTW_ESTIMATE), unsigned(FFTW_MEASURE)}) {
      fftw_plan forward = fftw_plan_dft_2d(int(n), int(n), pin, pout, FFTW_FORWARD, flags);
      fftw_plan backward = fftw_plan_dft_2d(int(n), int(n), pout, pin, FFTW_BACKWARD, flags);
      std::copy(x.data(), x.data() + elements, in.data());
      rows.push_back({flags == FFTW_ESTIMATE ? "fftw 2-d, 1 rank, FFTW_ESTIMATE"
                                             : "fftw 2-d, 1 rank, FFTW_MEASURE",
                      time_repeats(comm, repeats,
                                   [&] {
                                     fftw_execute(forward);
                                     fftw_execute(backward);
                                   }),
                      0.0});
      fftw_destroy_plan(forward);
      fftw_destroy_plan(backward);
    }
  }

  // distlops' FFT2D, output in the transposed layout and back in the input's layout.
  double check = 0;
  for (const auto& [output, planning] :
       {std::pair{FFTOutputLayout::transposed, FFTPlanning::estimate},
        std::pair{FFTOutputLayout::same_as_input, FFTPlanning::estimate},
        std::pair{FFTOutputLayout::transposed, FFTPlanning::measure}}) {
    const Layout layout(comm, {n, n});
    const auto op =
        FFT2D<C>(layout, {.norm = FFTNorm::none, .planning = planning, .output = output});
    DistributedArray<C> x(layout), y(op.range()), z(layout);
    fill_random(x, 41);
    const Summary time = time_repeats(comm, repeats, [&] {
      op.apply(x, y);
      op.apply_adjoint(y, z);
    });
    check = y.norm();
    // Bytes this rank sends per forward + adjoint: one all-to-all each way per transpose.
    const Layout by_columns(comm, {n, n}, Partition::SCATTER, 1);
    const double per_transpose = double(RedistributePlan(layout, by_columns).bytes_sent(sizeof(C)));
    const int transposes = output == FFTOutputLayout::transposed ? 1 : 2;
    const double sent = comm.size() > 1 ? 2.0 * transposes * per_transpose : 0.0;
    rows.push_back({std::string("FFT2D, ") + std::to_string(comm.size()) + " rank(s), " +
                        (output == FFTOutputLayout::transposed ? "transposed output"
                                                               : "output in input layout") +
                        (planning == FFTPlanning::measure ? ", MEASURE" : ""),
                    time, comm.allreduce(sent, ReduceOp::max)});
  }

  const double peak = comm.allreduce(peak_resident_mib(), ReduceOp::max);
  const std::string load_after = load_average();
  if (root) {
    std::printf("fft2d: n = %lld, %d rank(s), %d repeats (after one warm-up)\n",
                static_cast<long long>(n), comm.size(), repeats);
    std::printf("load average before: %s, after: %s\n", load_before.c_str(), load_after.c_str());
    std::printf("triad bandwidth, all ranks together: best %.2f GB/s, median %.2f GB/s\n",
                triad.best / 1e9, triad.median / 1e9);
    std::printf("minimal bytes per forward + adjoint: %.1f MB; check |F x| = %.6e\n",
                minimal_bytes / 1e6, check);
    std::printf("%-48s %10s %10s %12s %10s %14s\n", "case", "min [s]", "median [s]", "eff. GB/s",
                "of triad", "sent/rank [MB]");
    for (const Row& row : rows) {
      const double effective = minimal_bytes / row.time.median;
      std::printf("%-48s %10.4f %10.4f %12.2f %9.1f%% %14.1f\n", row.name.c_str(), row.time.min,
                  row.time.median, effective / 1e9, 100.0 * effective / triad.median,
                  row.sent_bytes / 1e6);
    }
    std::printf("peak resident memory of a rank: %.0f MiB\n", peak);
    for (const Row& row : rows) {
      const nlohmann::ordered_json line = {{"case", "fft2d"},
                                           {"variant", row.name},
                                           {"n", n},
                                           {"ranks", comm.size()},
                                           {"repeats", repeats},
                                           {"min_s", row.time.min},
                                           {"median_s", row.time.median},
                                           {"minimal_bytes", minimal_bytes},
                                           {"effective_bandwidth", minimal_bytes / row.time.median},
                                           {"triad_bandwidth", triad.median},
                                           {"sent_bytes_per_rank", row.sent_bytes},
                                           {"peak_rss_mib", peak},
                                           {"load", load_after},
                                           {"check", check}};
      std::printf("%s\n", line.dump().c_str());
    }
  }
  return 0;
}
