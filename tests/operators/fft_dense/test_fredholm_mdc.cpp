// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Fredholm1 (local and distributed, replicated or split model and data, with and without the
// stored adjoint kernel) against per-slice Eigen products, and MDC against its definition
// written out with a naive DFT: every partition, the transposed layout, one- and two-sided
// time axes, the conjugated and prescaled kernels; kernels split over the ranks so that some
// own no frequencies and some no traces; dot tests; in every memory space (device collectives
// over both of their paths); numbers computed by PyLops; errors on every rank.
#include <numbers>

#include "distlops/operators/signal/fredholm1.hpp"
#include "distlops/operators/waveeq/mdc.hpp"
#include "operator_checks.hpp"
#include "spaces.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

// Slices [begin, end) of a (nsl, rows, cols) array as a LocalArray.
template <class T>
LocalArray<T> slices(const std::vector<T>& global, Index rows, Index cols, Index begin, Index end) {
  LocalArray<T> result({end - begin, rows, cols});
  std::copy(global.begin() + begin * rows * cols, global.begin() + end * rows * cols,
            result.data());
  return result;
}

// y[k] = G[k] x[k] (adjoint: G[k]^H) for the global arrays, in C order.
template <class T>
std::vector<T> reference_fredholm(const std::vector<T>& g, const std::vector<T>& x, Index nsl,
                                  Index nx, Index ny, Index nz, bool adjoint) {
  std::vector<T> y(static_cast<std::size_t>(nsl * (adjoint ? ny : nx) * nz), T(0));
  for (Index k = 0; k < nsl; ++k) {
    for (Index i = 0; i < nx; ++i) {
      for (Index j = 0; j < ny; ++j) {
        const T gij = g[(k * nx + i) * ny + j];
        for (Index z = 0; z < nz; ++z) {
          if (adjoint) {
            y[(k * ny + j) * nz + z] += conjugate(gij) * x[(k * nx + i) * nz + z];
          } else {
            y[(k * nx + i) * nz + z] += gij * x[(k * ny + j) * nz + z];
          }
        }
      }
    }
  }
  return y;
}

// How many slices each rank owns: PyLops-MPI's default split, or everything on the last rank.
std::vector<Index> split_of(Index n, int size, bool last_only) {
  if (!last_only) return default_split(n, size);
  std::vector<Index> counts(static_cast<std::size_t>(size), 0);
  counts.back() = n;
  return counts;
}
Index start_of(const std::vector<Index>& counts, int rank) {
  Index start = 0;
  for (int r = 0; r < rank; ++r)
    start += counts[r];
  return start;
}

// ---- MDC reference -------------------------------------------------------------------------

struct MdcCase {
  Index nt, nr, ns, nv, nf;
  double dt, dr;
  bool twosided, conj, prescaled, transpose;
};

// MDC of a model x (nt, nr, nv) with kernel g (nf, ns, nr), from its definition.
std::vector<double> reference_mdc(const std::vector<std::complex<double>>& g,
                                  const std::vector<double>& x, const MdcCase& c) {
  using C = std::complex<long double>;
  const long double pi = std::numbers::pi_v<long double>;
  const Index nt = c.nt;
  const long double scale = c.prescaled ? 1.0L : c.dt * c.dr * std::sqrt((long double)nt);
  auto weight = [&](Index f) {
    return (f >= 1 && f <= (nt - 1) / 2 ? std::sqrt(2.0L) : 1.0L) / std::sqrt((long double)nt);
  };
  std::vector<double> y(static_cast<std::size_t>(nt * c.ns * c.nv), 0.0);
  for (Index v = 0; v < c.nv; ++v) {
    // Spectra of the model traces (after the ifftshift of two-sided time axes).
    std::vector<C> spectrum(static_cast<std::size_t>(c.nf * c.nr), C(0));
    for (Index f = 0; f < c.nf; ++f) {
      for (Index r = 0; r < c.nr; ++r) {
        C sum = 0;
        for (Index t = 0; t < nt; ++t) {
          const Index source = c.twosided ? (t + nt / 2) % nt : t;
          const long double phase = -2 * pi * static_cast<long double>((f * t) % nt) / nt;
          sum +=
              (long double)x[(source * c.nr + r) * c.nv + v] * C(std::cos(phase), std::sin(phase));
        }
        spectrum[f * c.nr + r] = weight(f) * sum;
      }
    }
    for (Index s = 0; s < c.ns; ++s) {
      for (Index t = 0; t < nt; ++t) {
        C sum = 0;
        for (Index f = 0; f < c.nf; ++f) {
          C product = 0;
          for (Index r = 0; r < c.nr; ++r) {
            C gsr(g[(f * c.ns + s) * c.nr + r]);
            if (c.conj) gsr = std::conj(gsr);
            product += gsr * spectrum[f * c.nr + r];
          }
          const long double phase = 2 * pi * static_cast<long double>((f * t) % nt) / nt;
          sum += weight(f) * scale * product * C(std::cos(phase), std::sin(phase));
        }
        y[(t * c.ns + s) * c.nv + v] = static_cast<double>(sum.real());
      }
    }
  }
  return y;
}

// (nt, n, nv) -> (n, nv, nt) with `to_last`, and back without.
template <class T>
std::vector<T> move_time(const std::vector<T>& a, Index nt, Index n, Index nv, bool to_last) {
  std::vector<T> b(a.size());
  for (Index t = 0; t < nt; ++t) {
    for (Index i = 0; i < n; ++i) {
      for (Index v = 0; v < nv; ++v) {
        const Index first = (t * n + i) * nv + v, last = (i * nv + v) * nt + t;
        b[to_last ? last : first] = a[to_last ? first : last];
      }
    }
  }
  return b;
}

// This rank's frequencies of the global kernel g (nf, ns, nr), in the order MDC expects.
template <class R>
LocalArray<std::complex<R>> local_kernel(const std::vector<std::complex<double>>& g,
                                         const MdcCase& c, Index begin, Index end) {
  const Index nf = end - begin;
  LocalArray<std::complex<R>> local(c.transpose ? Shape{c.ns, c.nr, nf} : Shape{nf, c.ns, c.nr});
  for (Index f = 0; f < nf; ++f)
    for (Index s = 0; s < c.ns; ++s)
      for (Index r = 0; r < c.nr; ++r) {
        const auto value = std::complex<R>(g[((begin + f) * c.ns + s) * c.nr + r]);
        local.data()[c.transpose ? (s * c.nr + r) * nf + f : (f * c.ns + s) * c.nr + r] = value;
      }
  return local;
}

std::vector<std::complex<double>> mdc_kernel(const MdcCase& c) {
  std::vector<std::complex<double>> g(static_cast<std::size_t>(c.nf * c.ns * c.nr));
  for (std::size_t i = 0; i < g.size(); ++i)
    g[i] = {double(i) / 5 - 1, std::sin(double(i))};
  return g;
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("local Fredholm1 equals per-slice products", "[fredholm1][local]",
                                  DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const double rtol = 10 * space_tolerance<T, Space>();
  struct Case {
    Index nsl, nx, ny;
  };
  // Empty kernels (no slices, or slices without rows) too.
  for (const Case& c : std::vector<Case>{{3, 4, 5}, {1, 6, 2}, {0, 3, 4}, {2, 0, 3}}) {
    for (Index nz : {1, 3}) {
      for (bool keep : {false, true}) {
        INFO("nsl " << c.nsl << " nx " << c.nx << " ny " << c.ny << " nz " << nz << " keep "
                    << keep);
        const std::vector<T> g = random_values<T>(c.nsl * c.nx * c.ny, 1);
        const auto op = local::Fredholm1<T, Space>(slices(g, c.nx, c.ny, 0, c.nsl), nz, keep);
        CHECK(op.domain() == Shape{c.nsl, c.ny, nz});
        CHECK(op.range() == Shape{c.nsl, c.nx, nz});
        LocalArray<T, Space> x(op.domain()), y(op.range());
        fill_random(x, 2);
        fill_random(y, 3);
        CHECK(all_close(values_of(op.apply(x)),
                        reference_fredholm(g, values_of(x), c.nsl, c.nx, c.ny, nz, false), rtol));
        CHECK(all_close(values_of(op.apply_adjoint(y)),
                        reference_fredholm(g, values_of(y), c.nsl, c.nx, c.ny, nz, true), rtol));
        CHECK(dottest(op, 4, space_dottest_tolerance<T, Space>()).passed);
        CHECK(second_apply_allocates_nothing(op));
      }
    }
  }
  CHECK_THROWS_AS((local::Fredholm1<T, Space>(LocalArray<T>({3, 4}), 1)), InvalidArgument);
  CHECK_THROWS_AS((local::Fredholm1<T, Space>(LocalArray<T>({3, 4, 2}), -1)), InvalidArgument);
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("distributed Fredholm1 equals per-slice products",
                                  "[fredholm1][distributed]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const double rtol = 10 * space_tolerance<T, Space>();
  const Index nx = 3, ny = 4;
  for_each_collective_path<Space>([&] {
    for (Index nsl : {5, 2}) {
      const std::vector<T> g = random_values<T>(nsl * nx * ny, 7);
      for (bool last_only : {false, true}) {
        const std::vector<Index> counts = split_of(nsl, comm.size(), last_only);
        const Index begin = start_of(counts, comm.rank());
        const auto local_g = slices(g, nx, ny, begin, begin + counts[comm.rank()]);
        for (Partition partition :
             {Partition::BROADCAST, Partition::UNSAFE_BROADCAST, Partition::SCATTER}) {
          for (Index nz : {1, 2}) {
            for (bool keep : {false, true}) {
              INFO("nsl " << nsl << " last only " << last_only << " " << to_string(partition)
                          << " nz " << nz << " keep " << keep);
              const auto op =
                  Fredholm1<T, Space>(local_g, nz, {.partition = partition, .keep_adjoint = keep});
              CHECK(op.domain().global_shape() == Shape{nsl, ny, nz});
              CHECK(op.range().partition() == partition);
              DistributedArray<T, Space> x(op.domain()), y(op.range());
              fill_random(x, 8);
              fill_random(y, 9);
              CHECK(all_close(op.apply(x).gather(),
                              reference_fredholm(g, x.gather(), nsl, nx, ny, nz, false), rtol));
              CHECK(all_close(op.apply_adjoint(y).gather(),
                              reference_fredholm(g, y.gather(), nsl, nx, ny, nz, true), rtol));
              CHECK(dottest(op, 10, space_dottest_tolerance<T, Space>()).passed);
            }
          }
        }
      }
    }
  });
}

TEST_CASE("Fredholm1 matches numbers computed by PyLops", "[fredholm1][pylops]") {
  using C = std::complex<double>;
  const Communicator comm = world();
  // G = np.arange(24.0).reshape(2,3,4)/10 + 1j*np.cos(np.arange(24.0)).reshape(2,3,4)
  // F = pylops.signalprocessing.Fredholm1(G, nz=2, saveGt=True, dtype="complex128")
  // F @ (np.sin(np.arange(16.0)) + 1j*np.arange(16.0)/8)
  // F.H @ (np.cos(np.arange(12.0)) - 0.5j*np.arange(12.0))
  std::vector<C> g(24), x(16), y(12);
  for (Index i = 0; i < 24; ++i)
    g[i] = C(double(i) / 10, std::cos(double(i)));
  for (Index i = 0; i < 16; ++i)
    x[i] = C(std::sin(double(i)), double(i) / 8);
  for (Index i = 0; i < 12; ++i)
    y[i] = C(std::cos(double(i)), -0.5 * double(i));
  const std::vector<C> forward{
      {0.6712368084181751, 1.4328557073980717},   {0.8181449681557971, 1.0913599508574525},
      {-1.3114510129596322, 0.27062205248130744}, {-0.9927543163892671, 0.2895813507054823},
      {0.3982071973347242, 1.3552864157039426},   {1.4443543513937962, 2.581500915038983},
      {0.3608969847795235, 7.0652817442167875},   {-0.2366376454783473, 7.228766580573813},
      {0.1553655382000425, 9.577336364966088},    {-0.5198655169747914, 11.42587737422913},
      {4.643187197518676, 12.660439222973292},    {4.062320719391724, 12.974256645908447}};
  const std::vector<C> adjoint{
      {0.2552700571710925, -3.367116893986052},   {0.6751482655473546, -3.7461317283987374},
      {0.8422456612553058, -3.3178116681962804},  {1.396511172786278, -2.802649945220662},
      {0.01464104871064154, -2.332735088545845},  {0.6632239596657403, -2.0865806616934885},
      {-1.473064418852379, -1.5933806359310712},  {-0.8657970300351822, -2.6700025994880816},
      {-1.500073032237145, -20.60717294461698},   {-1.4327468519095636, -23.91054198288826},
      {0.3557804130874239, -22.570923739150675},  {0.5151276686072275, -24.682411734206923},
      {1.1847066208601764, -23.274253570247982},  {1.4749443146066454, -24.597026437132758},
      {0.22235121636011745, -23.173798700686202}, {0.5502035143061372, -24.974072714177307}};
  const std::vector<Index> counts = split_of(2, comm.size(), false);
  const Index begin = start_of(counts, comm.rank());
  for (Partition partition : {Partition::BROADCAST, Partition::SCATTER}) {
    const auto op = Fredholm1<C>(slices(g, 3, 4, begin, begin + counts[comm.rank()]), 2,
                                 {.partition = partition});
    const auto xd = DistributedArray<C>::from_global(op.domain(), x);
    const auto yd = DistributedArray<C>::from_global(op.range(), y);
    CHECK(all_close(op.apply(xd).gather(), forward, 1e-13));
    CHECK(all_close(op.apply_adjoint(yd).gather(), adjoint, 1e-13));
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("bad Fredholm1 arguments fail on every rank",
                                  "[fredholm1][errors]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const int size = comm.size();
  CHECK_THROWS_AS((Fredholm1<T, Space>(LocalArray<T>({2, 3}), 1)), InvalidArgument);
  CHECK_THROWS_AS((Fredholm1<T, Space>(LocalArray<T>({2, 3, 4}), -2)), InvalidArgument);
  if (size > 1) {
    const Index nx = comm.rank() == size - 1 ? 4 : 3;
    CHECK_THROWS_AS((Fredholm1<T, Space>(LocalArray<T>({1, nx, 4}), 1)), InvalidArgument);
    CHECK_THROWS_AS((Fredholm1<T, Space>(LocalArray<T>({1, 3, 4}), comm.rank() == 0 ? 2 : 1)),
                    InvalidArgument);
  }
  CHECK(comm.allreduce(1, ReduceOp::sum) == size);
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("MDC equals its definition on every split", "[mdc]", float,
                                  double) {
  using R = TestType;
  const Communicator comm = world();
  const double rtol = space_factor<Space>() * (std::is_same_v<R, float> ? 1e-4 : 1e-11);
  const std::vector<MdcCase> cases{
      {7, 3, 2, 2, 3, 0.5, 2.0, true, false, false, false},
      {7, 3, 2, 2, 4, 1.0, 1.0, true, true, false, true},
      {6, 2, 3, 1, 2, 0.3, 1.5, false, false, true, false},
      {8, 5, 1, 3, 5, 1.0, 0.5, false, true, false, true},
      {5, 1, 2, 2, 1, 2.0, 1.0, true, false, false, false},
  };
  std::uint64_t seed = 1;
  for (const MdcCase& c : cases) {
    const auto g = mdc_kernel(c);
    for (bool last_only : {false, true}) {
      const std::vector<Index> counts = split_of(c.nf, comm.size(), last_only);
      const Index begin = start_of(counts, comm.rank());
      const auto local_g = local_kernel<R>(g, c, begin, begin + counts[comm.rank()]);
      for (Partition partition : {Partition::BROADCAST, Partition::SCATTER}) {
        for (bool keep : {false, true}) {
          INFO("nt " << c.nt << " nr " << c.nr << " ns " << c.ns << " nv " << c.nv << " nf " << c.nf
                     << " twosided " << c.twosided << " conj " << c.conj << " prescaled "
                     << c.prescaled << " transpose " << c.transpose << " last only " << last_only
                     << " " << to_string(partition) << " keep " << keep);
          const MDCOptions options{.dt = c.dt,
                                   .dr = c.dr,
                                   .twosided = c.twosided,
                                   .conj = c.conj,
                                   .transpose = c.transpose,
                                   .prescaled = c.prescaled,
                                   .keep_adjoint = keep,
                                   .partition = partition};
          const auto op = MDC<R, Space>(local_g, c.nt, c.nv, options);
          const Shape model = c.transpose ? Shape{c.nr, c.nv, c.nt} : Shape{c.nt, c.nr, c.nv};
          const Shape data = c.transpose ? Shape{c.ns, c.nv, c.nt} : Shape{c.nt, c.ns, c.nv};
          CHECK(op.domain().global_shape() == model);
          CHECK(op.range().global_shape() == data);
          DistributedArray<R, Space> x(op.domain());
          fill_random(x, seed++);
          std::vector<double> xc;
          for (R value : x.gather())
            xc.push_back(value);
          if (c.transpose) xc = move_time(xc, c.nt, c.nr, c.nv, false);
          std::vector<double> expected = reference_mdc(g, xc, c);
          if (c.transpose) expected = move_time(expected, c.nt, c.ns, c.nv, true);
          std::vector<R> expected_r(expected.begin(), expected.end());
          for_each_collective_path<Space>(
              [&] { CHECK(all_close(op.apply(x).gather(), expected_r, rtol)); });
          // The adjoint against the transposed reference matrix.
          DistributedArray<R, Space> y(op.range());
          fill_random(y, seed++);
          const std::vector<R> yv = y.gather();
          const Index n = element_count(model);
          std::vector<double> adjoint(static_cast<std::size_t>(n), 0.0);
          for (Index j = 0; j < n; ++j) {
            std::vector<double> unit(static_cast<std::size_t>(n), 0.0);
            unit[j] = 1.0;
            if (c.transpose) unit = move_time(unit, c.nt, c.nr, c.nv, false);
            std::vector<double> column = reference_mdc(g, unit, c);
            if (c.transpose) column = move_time(column, c.nt, c.ns, c.nv, true);
            for (std::size_t i = 0; i < column.size(); ++i)
              adjoint[j] += column[i] * double(yv[i]);
          }
          for_each_collective_path<Space>([&] {
            CHECK(all_close(op.apply_adjoint(y).gather(),
                            std::vector<R>(adjoint.begin(), adjoint.end()), rtol));
            CHECK(dottest(op, seed, space_dottest_tolerance<R, Space>()).passed);
          });
          ++seed;
        }
      }
    }
  }
}

TEST_CASE("MDC matches numbers computed by PyLops", "[mdc][pylops]") {
  const Communicator comm = world();
  // nt, nr, ns, nv, nf = 7, 3, 2, 2, 3
  // G = np.arange(nf*ns*nr).reshape(nf,ns,nr)/5 - 1 +
  // 1j*np.sin(np.arange(nf*ns*nr)).reshape(nf,ns,nr) M = pylops.waveeqprocessing.MDC(G, nt=nt,
  // nv=nv, dt=0.5, dr=2.0, twosided=True) M @ (np.cos(np.arange(42)*0.7) + np.arange(42)/20) M.H @
  // (np.sin(np.arange(28)*1.3) - np.arange(28)/30)
  const MdcCase c{7, 3, 2, 2, 3, 0.5, 2.0, true, false, false, false};
  const auto g = mdc_kernel(c);
  std::vector<double> x(42), y(28);
  for (Index i = 0; i < 42; ++i)
    x[i] = std::cos(double(i) * 0.7) + double(i) / 20;
  for (Index i = 0; i < 28; ++i)
    y[i] = std::sin(double(i) * 1.3) - double(i) / 30;
  const std::vector<double> forward{
      -3.716852288346435,  -8.822617679955437,  -3.7222831074704104, -6.053337699081206,
      -1.2671696195488236, -0.6749464352862282, -2.568033566633044,  -2.6376636243583236,
      -7.413086552608145,  -2.396039557938934,  7.4110406015097645,  10.737624530483588,
      -10.434771433338886, -13.884555932134717, 6.272736591046822,   5.225570091851473,
      -6.817520786857604,  -11.30888450900516,  -7.035168835395176,  -10.391494168732894,
      -6.9285752078251335, -2.1698500054093204, -9.214036824857564,  -7.639783655839222,
      -8.521998768136031,  -6.054848098788363,  -2.6227958804653406, -0.6613840581040658};
  const std::vector<double> adjoint{
      0.6521577845088559,  2.8447094621819926,  -0.15368400153802547, -3.0372720749694135,
      -0.6468291861697487, -6.1372147323859165, -1.9144581075340257,  -0.5897776354793463,
      1.328449431431398,   -3.707626960042012,  2.633079839253409,    -5.22893572233011,
      -0.404704939788126,  -1.0106858016167166, 2.128085015488562,    -1.2866275367952247,
      2.7557410531561803,  -1.630273105246846,  3.619847175917999,    1.0587101889241786,
      5.527297573825829,   3.8682220647458423,  6.269670173722527,    4.900410219490128,
      4.048528577768397,   1.5161133490676093,  4.561467814506071,    6.693111857414485,
      5.026011299469117,   9.040929522682308,   2.3540019927674587,   1.9895033119682597,
      -1.965947463809143,  4.121369765561748,   -4.230642751633926,   4.901881708430162,
      2.09332164981344,    3.788600771322087,   -3.8785424147709264,  -0.3102222926703195,
      -7.16147265098403,   -2.7620618905175807};
  // M2 = pylops.waveeqprocessing.MDC(G, nt=6, nv=1, dt=1.0, dr=1.0, twosided=False, conj=True)
  // M2 @ np.cos(np.arange(18)*0.3); M2.H @ (np.arange(12)/7.0)
  const MdcCase c2{6, 3, 2, 1, 3, 1.0, 1.0, false, true, false, false};
  std::vector<double> x2(18), y2(12);
  for (Index i = 0; i < 18; ++i)
    x2[i] = std::cos(double(i) * 0.3);
  for (Index i = 0; i < 12; ++i)
    y2[i] = double(i) / 7.0;
  const std::vector<double> forward2{5.251891059165222,   7.864106043679311,   4.538210658468106,
                                     0.9261848060249835,  1.0006599941418677,  -5.381109788419253,
                                     -0.9459920170670595, -4.091881483684543,  -4.0059637212359185,
                                     -1.9808472702788222, -1.3456313093298748, 3.667845662640795};
  const std::vector<double> adjoint2{-5.875627198237743,  -5.649240318707597,   -5.247821277332872,
                                     -3.897273475299358,  -3.6723275192298055,  -3.5456513477339517,
                                     -0.7948979310417529, -0.05647860586105199, 0.6051783420487702,
                                     -4.154198149715826,  -3.415778824535126,   -2.754121876625304,
                                     -1.0978566264042975, 0.24685606922327932,  1.4932989802771583,
                                     0.2830898693313901,  1.6292434884195628,   3.1504292693523115};
  const std::vector<Index> counts = split_of(3, comm.size(), false);
  const Index begin = start_of(counts, comm.rank());
  for (Partition partition : {Partition::BROADCAST, Partition::SCATTER}) {
    const auto op = MDC<double>(local_kernel<double>(g, c, begin, begin + counts[comm.rank()]), 7,
                                2, {.dt = 0.5, .dr = 2.0, .partition = partition});
    CHECK(all_close(op.apply(DistributedArray<double>::from_global(op.domain(), x)).gather(),
                    forward, 1e-12));
    CHECK(all_close(op.apply_adjoint(DistributedArray<double>::from_global(op.range(), y)).gather(),
                    adjoint, 1e-12));
    const auto op2 = MDC<double>(local_kernel<double>(g, c2, begin, begin + counts[comm.rank()]), 6,
                                 1, {.twosided = false, .conj = true, .partition = partition});
    // nv == 1: arrays without the virtual-source axis, split alike, are seen without copy.
    const Layout model2 = partition == Partition::SCATTER
                              ? Layout(comm, {6, 3}, Partition::SCATTER, 1)
                              : Layout(comm, {6, 3}, partition);
    const Layout data2 = partition == Partition::SCATTER
                             ? Layout(comm, {6, 2}, Partition::SCATTER, 1)
                             : Layout(comm, {6, 2}, partition);
    const auto xd = DistributedArray<double>::from_global(model2, x2);
    const auto yd = DistributedArray<double>::from_global(data2, y2);
    DistributedArray<double> out(data2), back(model2);
    op2.apply(xd, out);
    op2.apply_adjoint(yd, back);
    CHECK(all_close(out.gather(), forward2, 1e-12));
    CHECK(all_close(back.gather(), adjoint2, 1e-12));
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("a second apply of Fredholm1 and MDC allocates nothing",
                                  "[mdc][allocation]", float, double) {
  using R = TestType;
  const Communicator comm = world();
  const MdcCase c{9, 4, 3, 2, 4, 1.0, 1.0, true, false, false, false};
  const std::vector<Index> counts = split_of(c.nf, comm.size(), false);
  const Index begin = start_of(counts, comm.rank());
  for (Partition partition : {Partition::BROADCAST, Partition::SCATTER}) {
    const auto mdc =
        MDC<R, Space>(local_kernel<R>(mdc_kernel(c), c, begin, begin + counts[comm.rank()]), c.nt,
                      c.nv, {.partition = partition});
    const auto fredholm = Fredholm1<std::complex<R>, Space>(
        local_kernel<R>(mdc_kernel(c), c, begin, begin + counts[comm.rank()]), 2,
        {.partition = partition});
    CHECK(second_apply_allocates_nothing(mdc));
    CHECK(second_apply_allocates_nothing(fredholm));
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("bad MDC arguments fail on every rank", "[mdc][errors]", float,
                                  double) {
  using R = TestType;
  using C = std::complex<R>;
  const Communicator comm = world();
  const int size = comm.size();
  const Index mine = comm.rank() == 0 ? 2 : 0;  // frequencies on rank 0 only
  CHECK_THROWS_AS((MDC<R, Space>(LocalArray<C>({mine, 2, 3}), 6, 1)),
                  InvalidArgument);  // even, two-sided
  CHECK_THROWS_AS((MDC<R, Space>(LocalArray<C>({mine, 2}), 7, 1)), InvalidArgument);
  CHECK_THROWS_AS((MDC<R, Space>(LocalArray<C>({mine, 2, 3}), 7, 0)), InvalidArgument);
  // More frequencies than a real transform of 3 samples has (2).
  CHECK_THROWS_AS((MDC<R, Space>(LocalArray<C>({comm.rank() == 0 ? 3 : 0, 2, 3}), 3, 1)),
                  InvalidArgument);
  if (size > 1) {
    CHECK_THROWS_AS((MDC<R, Space>(LocalArray<C>({mine, 2, 3}), comm.rank() == 1 ? 9 : 7, 1)),
                    InvalidArgument);
    CHECK_THROWS_AS((MDC<R, Space>(LocalArray<C>({mine, 2, comm.rank() == 1 ? 4 : 3}), 7, 1)),
                    InvalidArgument);
  }
  CHECK(comm.allreduce(1, ReduceOp::sum) == size);
}
