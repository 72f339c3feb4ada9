// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Kirchhoff: the tables (traveltimes, and with `dynamic` amplitudes, angles and apertures) are
// built once on the host in double precision and moved into the space of the data; the spray
// and stack kernels (kirchhoff_kernels.hpp) read them, and the wavelet is a Convolve1D along
// time after the spray. The distributed form is the VStack of each rank's operator, seen with
// the model's and the data's layouts, after a gather of the model when it is split.
#include "distlops/operators/waveeq/kirchhoff.hpp"

#include <cmath>
#include <complex>
#include <numbers>
#include <string>
#include <vector>

#include "../support.hpp"
#include "distlops/core/collective_check.hpp"
#include "distlops/core/redistribute.hpp"
#include "distlops/core/transport.hpp"
#include "distlops/operators/local/accumulating_operator.hpp"
#include "distlops/operators/local/convolve1d.hpp"
#include "distlops/operators/reshape.hpp"
#include "distlops/operators/stack/vstack.hpp"
#include "kirchhoff_kernels.hpp"

namespace distlops {

namespace kirchhoff_tables {

// The image grid's shape: (nx, nz) or (ny, nx, nz).
inline Shape model_shape(const KirchhoffGeometry& g) {
  return g.dimension() == 3 ? Shape{g.y.n, g.x.n, g.z.n} : Shape{g.x.n, g.z.n};
}

inline void check_finite(const std::string& what, std::span<const double> values) {
  for (double v : values) {
    if (!std::isfinite(v))
      throw InvalidArgument("Kirchhoff: " + what + " holds a non-finite value");
  }
}

inline void check_axis(const char* name, const KirchhoffAxis& axis) {
  if (axis.n < 2 || !(axis.step > 0) || !std::isfinite(axis.origin) || !std::isfinite(axis.step)) {
    throw InvalidArgument(std::string("Kirchhoff: axis ") + name +
                          " needs at least 2 points and a finite positive step, got n = " +
                          std::to_string(axis.n) + ", step " + std::to_string(axis.step));
  }
}

inline void check_table(const char* what, std::span<const double> table, Index count, Index ni) {
  if (static_cast<Index>(table.size()) != count * ni) {
    throw InvalidArgument(std::string("Kirchhoff: the ") + what + " table has " +
                          std::to_string(table.size()) + " values, expected " +
                          std::to_string(count) + " x " + std::to_string(ni));
  }
  check_finite(std::string("the ") + what + " table", table);
}

inline void check_aperture(const char* what, const std::array<double, 2>& bounds) {
  if (!(bounds[0] >= 0 && bounds[1] > bounds[0]) || !std::isfinite(bounds[1])) {
    throw InvalidArgument(std::string("Kirchhoff: the ") + what +
                          " aperture needs 0 <= first bound < second bound, got {" +
                          std::to_string(bounds[0]) + ", " + std::to_string(bounds[1]) + "}");
  }
}

// Every argument but the sources' count and position is checked here; the number of sources
// may be zero (a rank without sources).
inline void check_arguments(const KirchhoffGeometry& g, std::span<const double> sources,
                            std::span<const double> receivers, std::span<const double> wavelet,
                            Index center, const KirchhoffOptions& o) {
  if (g.y.n != 0) check_axis("y", g.y);
  check_axis("x", g.x);
  check_axis("z", g.z);
  if (g.nt < 2 || !(g.dt > 0) || !std::isfinite(g.dt)) {
    throw InvalidArgument("Kirchhoff: the time axis needs nt >= 2 and a finite dt > 0, got nt = " +
                          std::to_string(g.nt) + ", dt " + std::to_string(g.dt));
  }
  const auto dim = static_cast<std::size_t>(g.dimension());
  for (const auto& [what, points] :
       {std::pair{"source", sources}, std::pair{"receiver", receivers}}) {
    if (points.size() % dim != 0) {
      throw InvalidArgument(std::string("Kirchhoff: ") + std::to_string(points.size()) + " " +
                            what + " coordinates are not points of " + std::to_string(dim) +
                            " coordinates each");
    }
    check_finite(std::string(what) + " coordinates", points);
  }
  if (receivers.empty()) throw InvalidArgument("Kirchhoff: no receivers");
  const auto nh = static_cast<Index>(wavelet.size());
  if (nh == 0 || nh > g.nt) {
    throw InvalidArgument("Kirchhoff: the wavelet has " + std::to_string(nh) +
                          " samples, expected 1 to nt = " + std::to_string(g.nt));
  }
  if (center < 0 || center >= nh) {
    throw InvalidArgument("Kirchhoff: the wavelet centre " + std::to_string(center) +
                          " is outside [0, " + std::to_string(nh) + ")");
  }
  check_finite("the wavelet", wavelet);
  const Index ni = element_count(model_shape(g));
  const auto ns = static_cast<Index>(sources.size() / dim);
  const auto nr = static_cast<Index>(receivers.size() / dim);
  if (o.traveltimes == KirchhoffTraveltimes::analytic) {
    if (!(o.velocity > 0) || !std::isfinite(o.velocity)) {
      throw InvalidArgument("Kirchhoff: analytic traveltimes need a finite velocity > 0, got " +
                            std::to_string(o.velocity));
    }
  } else {
    check_table("source traveltime", o.tables.source_traveltimes, ns, ni);
    check_table("receiver traveltime", o.tables.receiver_traveltimes, nr, ni);
    if (o.dynamic) {
      check_table("source amplitude", o.tables.source_amplitudes, ns, ni);
      check_table("receiver amplitude", o.tables.receiver_amplitudes, nr, ni);
    }
  }
  if (o.dynamic) {
    if (o.velocity_model.empty()) {
      if (!(o.velocity > 0) || !std::isfinite(o.velocity)) {
        throw InvalidArgument("Kirchhoff: dynamic weights need a velocity model or a velocity > 0");
      }
    } else {
      check_table("velocity", o.velocity_model, 1, ni);
      for (double v : o.velocity_model) {
        if (!(v > 0)) throw InvalidArgument("Kirchhoff: the velocity model holds a value <= 0");
      }
    }
    check_aperture("angle", o.angle_aperture);
    if (o.aperture) {
      if (g.dimension() == 3) {
        throw InvalidArgument("Kirchhoff: the offset aperture is defined in 2-D only");
      }
      check_aperture("offset", *o.aperture);
    }
  }
  if (o.model_partition != Partition::BROADCAST && o.model_partition != Partition::SCATTER) {
    throw InvalidArgument("Kirchhoff: the model is BROADCAST or SCATTER");
  }
}

// NumPy's gradient along `axis` of an array of `shape` (C order), with spacing h: central
// differences inside, one-sided ones at both ends.
inline void gradient(const double* f, const Shape& shape, std::size_t axis, double h, double* out) {
  Index inner = 1;
  for (std::size_t k = axis + 1; k < shape.size(); ++k)
    inner *= shape[k];
  const Index n = shape[axis];
  const Index outer = element_count(shape) / (n * inner);
  for (Index o = 0; o < outer; ++o) {
    for (Index j = 0; j < n; ++j) {
      const Index prev = j == 0 ? 0 : j - 1, next = j == n - 1 ? n - 1 : j + 1;
      const double span = double(next - prev) * h;
      for (Index i = 0; i < inner; ++i) {
        const Index base = o * n * inner + i;
        out[base + j * inner] = (f[base + next * inner] - f[base + prev * inner]) / span;
      }
    }
  }
}

// The tables of one set of points (sources or receivers), row k for point k.
struct PointTables {
  Index count = 0;
  std::vector<double> times, distances, amplitudes, angles, x_index;
  double max_distance = 0;
};

// Traveltimes (and distances) of the points at every image point.
inline PointTables traveltimes(const KirchhoffGeometry& g, std::span<const double> points,
                               std::span<const double> table, const KirchhoffOptions& o) {
  const int dim = g.dimension();
  const Shape shape = model_shape(g);
  const Index ni = element_count(shape);
  PointTables t;
  t.count = static_cast<Index>(points.size()) / dim;
  if (o.traveltimes == KirchhoffTraveltimes::tables) {
    t.times.assign(table.begin(), table.end());
  } else {
    t.times.resize(static_cast<std::size_t>(t.count * ni));
    t.distances.resize(t.times.size());
    const Index ny = dim == 3 ? g.y.n : 1;
    for (Index k = 0; k < t.count; ++k) {
      const double* p = points.data() + k * dim;
      const double py = dim == 3 ? p[0] : 0, px = p[dim - 2], pz = p[dim - 1];
      double* row = t.times.data() + k * ni;
      double* distance = t.distances.data() + k * ni;
      Index i = 0;
      for (Index iy = 0; iy < ny; ++iy) {
        const double dy = dim == 3 ? g.y.origin + double(iy) * g.y.step - py : 0;
        for (Index ix = 0; ix < g.x.n; ++ix) {
          const double dx = g.x.origin + double(ix) * g.x.step - px;
          for (Index iz = 0; iz < g.z.n; ++iz, ++i) {
            const double dz = g.z.origin + double(iz) * g.z.step - pz;
            // PyLops' order of operations: the time from the distance, the distance back from
            // the time (the amplitudes use the latter).
            row[i] = std::sqrt(dx * dx + dz * dz + dy * dy) / o.velocity;
            distance[i] = row[i] * o.velocity;
            t.max_distance = std::max(t.max_distance, distance[i]);
          }
        }
      }
    }
  }
  return t;
}

// Angles with the vertical of the traveltime gradients, and the x grid index of each point.
inline void angles(const KirchhoffGeometry& g, std::span<const double> points, PointTables& t) {
  const int dim = g.dimension();
  const Shape shape = model_shape(g);
  const Index ni = element_count(shape);
  t.angles.resize(t.times.size());
  t.x_index.resize(static_cast<std::size_t>(t.count));
  std::vector<double> gz(static_cast<std::size_t>(ni)), gx(gz.size()), gy(dim == 3 ? gz.size() : 0);
  const auto z_axis = static_cast<std::size_t>(dim - 1), x_axis = static_cast<std::size_t>(dim - 2);
  for (Index k = 0; k < t.count; ++k) {
    const double* row = t.times.data() + k * ni;
    gradient(row, shape, x_axis, g.x.step, gx.data());
    gradient(row, shape, z_axis, g.z.step, gz.data());
    if (dim == 3) gradient(row, shape, 0, g.y.step, gy.data());
    double* angle = t.angles.data() + k * ni;
    for (std::size_t i = 0; i < gz.size(); ++i) {
      if (dim == 2) {
        angle[i] = std::atan2(gx[i], gz[i]);
      } else {
        const double norm = std::sqrt(gy[i] * gy[i] + gx[i] * gx[i] + gz[i] * gz[i]);
        const double sign = gx[i] > 0 ? 1.0 : (gx[i] < 0 ? -1.0 : 0.0);
        angle[i] = norm > 0 ? sign * std::acos(gz[i] / norm) : 0.0;
      }
    }
    t.x_index[static_cast<std::size_t>(k)] =
        std::floor((points[static_cast<std::size_t>(k * dim + dim - 2)] - g.x.origin) / g.x.step);
  }
}

// Geometrical spreading of the analytic traveltimes, with the distance floor `floor`.
inline void spreading(int dim, double floor, PointTables& t) {
  t.amplitudes.resize(t.distances.size());
  for (std::size_t i = 0; i < t.distances.size(); ++i) {
    const double d = t.distances[i] + floor;
    t.amplitudes[i] = dim == 2 ? 1.0 / std::sqrt(d) : 1.0 / d;
  }
}

// PyLops' wavelet filter: the spectrum times sqrt(i omega) (2-D) or -i omega (3-D), by a direct
// real DFT (wavelets are short).
inline std::vector<double> filtered_wavelet(std::span<const double> w, double dt, int dim) {
  const auto n = static_cast<Index>(w.size());
  const double two_pi = 2 * std::numbers::pi;
  std::vector<double> result(w.size(), 0.0);
  for (Index k = 0; k <= n / 2; ++k) {
    std::complex<double> bin = 0;
    for (Index t = 0; t < n; ++t)
      bin += w[static_cast<std::size_t>(t)] * std::polar(1.0, -two_pi * double(k * t) / double(n));
    const double omega = two_pi * double(k) / (double(n) * dt);
    bin *= dim == 2 ? std::sqrt(std::complex<double>(0, omega)) : std::complex<double>(0, -omega);
    // The inverse real DFT: bins between 0 and n / 2 stand for their mirror images too; the
    // imaginary parts of bin 0 and of the Nyquist bin (n even) are dropped.
    const bool single = k == 0 || (n % 2 == 0 && k == n / 2);
    for (Index t = 0; t < n; ++t) {
      const double phase = two_pi * double(k * t) / double(n);
      const double term = single
                              ? bin.real() * std::cos(phase)
                              : 2 * (bin.real() * std::cos(phase) - bin.imag() * std::sin(phase));
      result[static_cast<std::size_t>(t)] += term / double(n);
    }
  }
  return result;
}

// The 21 values of PyLops' aperture slope: 1, then the falling half of a 39-point Hanning window.
inline std::array<double, 21> aperture_taper() {
  std::array<double, 21> taper{};
  taper[0] = 1;
  for (int k = 1; k <= 20; ++k)
    taper[static_cast<std::size_t>(k)] =
        0.5 - 0.5 * std::cos(2 * std::numbers::pi * (20 - k) / 38.0);
  return taper;
}

// Everything a rank's operator reads, on the host.
struct Plan {
  KirchhoffGeometry geometry;
  PointTables sources, receivers;
  std::vector<double> slowness;
  const KirchhoffOptions* options = nullptr;
};

// The plan of one rank's points. `agree_max` turns this rank's largest source distance into
// the largest of all ranks (the distance floor of the amplitudes is global).
template <class AgreeMax>
Plan make_plan(const KirchhoffGeometry& g, std::span<const double> sources,
               std::span<const double> receivers, const KirchhoffOptions& o, AgreeMax agree_max) {
  Plan plan{g,
            traveltimes(g, sources, o.tables.source_traveltimes, o),
            traveltimes(g, receivers, o.tables.receiver_traveltimes, o),
            {},
            &o};
  if (!o.dynamic) return plan;
  angles(g, sources, plan.sources);
  angles(g, receivers, plan.receivers);
  if (o.traveltimes == KirchhoffTraveltimes::analytic) {
    const double floor =
        1e-2 * (agree_max(plan.sources.max_distance) + plan.receivers.max_distance);
    spreading(g.dimension(), floor, plan.sources);
    spreading(g.dimension(), floor, plan.receivers);
  } else {
    plan.sources.amplitudes.assign(o.tables.source_amplitudes.begin(),
                                   o.tables.source_amplitudes.end());
    plan.receivers.amplitudes.assign(o.tables.receiver_amplitudes.begin(),
                                     o.tables.receiver_amplitudes.end());
  }
  const Index ni = element_count(model_shape(g));
  plan.slowness.assign(static_cast<std::size_t>(ni), 1.0 / o.velocity);
  for (std::size_t i = 0; i < o.velocity_model.size(); ++i)
    plan.slowness[i] = 1.0 / o.velocity_model[i];
  return plan;
}

}  // namespace kirchhoff_tables

namespace {

// The spray (forward) and stack (adjoint) of one rank's pairs, without the wavelet.
template <Scalar T, MemorySpace Space>
class KirchhoffSprayOperator final : public local::AccumulatingOperator<T, Space> {
 public:
  using Vector = typename local::AccumulatingOperator<T, Space>::Vector;
  using R = real_type_t<T>;

  explicit KirchhoffSprayOperator(const kirchhoff_tables::Plan& plan)
      : local::AccumulatingOperator<T, Space>(
            kirchhoff_tables::model_shape(plan.geometry),
            Shape{plan.sources.count, plan.receivers.count, plan.geometry.nt}, "Kirchhoff") {
    const KirchhoffGeometry& g = plan.geometry;
    const KirchhoffOptions& o = *plan.options;
    view_.ns = plan.sources.count;
    view_.nr = plan.receivers.count;
    view_.nt = g.nt;
    view_.ni = element_count(this->domain());
    view_.nz = g.z.n;
    view_.dt = static_cast<R>(g.dt);
    view_.source_times = keep(plan.sources.times);
    view_.receiver_times = keep(plan.receivers.times);
    if (o.dynamic) {
      view_.source_amplitudes = keep(plan.sources.amplitudes);
      view_.receiver_amplitudes = keep(plan.receivers.amplitudes);
      view_.source_angles = keep(plan.sources.angles);
      view_.receiver_angles = keep(plan.receivers.angles);
      view_.slowness = keep(plan.slowness);
      view_.source_x_index = keep(plan.sources.x_index);
      view_.receiver_x_index = keep(plan.receivers.x_index);
      const double degree = std::numbers::pi / 180;
      view_.angle_min = static_cast<R>(o.angle_aperture[0] * degree);
      view_.angle_max = static_cast<R>(o.angle_aperture[1] * degree);
      view_.offset_aperture = o.aperture.has_value();
      if (o.aperture) {
        view_.aperture_min = static_cast<R>((*o.aperture)[0]);
        view_.aperture_max = static_cast<R>((*o.aperture)[1]);
      }
      const auto taper = kirchhoff_tables::aperture_taper();
      for (std::size_t k = 0; k < taper.size(); ++k)
        view_.taper[k] = static_cast<R>(taper[k]);
    }
  }

  void forward_add(T alpha, const Vector& x, T beta, Vector& y) const override {
    kernels::kirchhoff_spray(Space{}, view_, alpha, x.data(), beta, y.data());
  }
  void adjoint_add(T alpha, const Vector& y, T beta, Vector& x) const override {
    kernels::kirchhoff_stack(Space{}, view_, alpha, y.data(), beta, x.data());
  }

 private:
  // A table converted to R and kept in the space; returns where it lives.
  const R* keep(const std::vector<double>& values) {
    std::vector<R> converted(values.begin(), values.end());
    tables_.push_back(detail::copy_to_space<R, Space>(converted));
    return tables_.back().data();
  }

  std::vector<Buffer<R, Space>> tables_;
  kernels::KirchhoffView<R> view_;
};

// The wavelet after the spray.
template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> kirchhoff_of_plan(const kirchhoff_tables::Plan& plan,
                                          std::span<const double> wavelet, Index center) {
  const auto spray = LocalOperator<T, Space>::template make<KirchhoffSprayOperator<T, Space>>(plan);
  const std::vector<double> filtered =
      plan.options->wavelet_filter
          ? kirchhoff_tables::filtered_wavelet(wavelet, plan.geometry.dt, plan.geometry.dimension())
          : std::vector<double>(wavelet.begin(), wavelet.end());
  const std::vector<T> taps(filtered.begin(), filtered.end());
  return local::Convolve1D<T, Space>(spray.range(), std::span<const T>(taps), center, -1) * spray;
}

// The gather of a split model onto every rank (forward) and its adjoint, the cut of a replicated
// model back to this rank's block.
template <Scalar T, MemorySpace Space>
class KirchhoffModelGather final : public LinearOperatorBase<DistributedArray<T, Space>> {
 public:
  using Array = DistributedArray<T, Space>;
  bool runs_user_code() const override { return false; }
  KirchhoffModelGather(const Layout& split, const Layout& whole)
      : LinearOperatorBase<Array>(split, whole, "KirchhoffModelGather"),
        gather_(split, whole),
        cut_(whole, split) {}
  void forward(const Array& x, Array& y) const override {
    gather_.execute(transport_, x.data(), y.data());
  }
  void adjoint(const Array& y, Array& x) const override {
    cut_.execute(transport_, y.data(), x.data());
  }

 private:
  RedistributePlan gather_, cut_;
  KeptTransport<Space> transport_;
};

}  // namespace

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> local::Kirchhoff(const KirchhoffGeometry& geometry,
                                         std::span<const double> sources,
                                         std::span<const double> receivers,
                                         std::span<const double> wavelet, Index wavelet_center,
                                         const KirchhoffOptions& options) {
  kirchhoff_tables::check_arguments(geometry, sources, receivers, wavelet, wavelet_center, options);
  const auto plan = kirchhoff_tables::make_plan(geometry, sources, receivers, options,
                                                [](double local) { return local; });
  return kirchhoff_of_plan<T, Space>(plan, wavelet, wavelet_center);
}

template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> Kirchhoff(const KirchhoffGeometry& geometry,
                                   std::span<const double> sources,
                                   std::span<const double> receivers,
                                   std::span<const double> wavelet, Index wavelet_center,
                                   const KirchhoffOptions& options, const Communicator& comm) {
  // Everything but the sources (and their tables) must be equal on every rank.
  Fingerprint same;
  for (const KirchhoffAxis& axis : {geometry.y, geometry.x, geometry.z})
    same.add(axis.n).add(axis.origin).add(axis.step);
  same.add(geometry.nt).add(geometry.dt).add(receivers).add(wavelet).add(wavelet_center);
  same.add(options.traveltimes).add(options.velocity).add(options.velocity_model);
  same.add(options.tables.receiver_traveltimes).add(options.tables.receiver_amplitudes);
  same.add(options.wavelet_filter).add(options.dynamic).add(options.aperture.has_value());
  if (options.aperture) same.add((*options.aperture)[0]).add((*options.aperture)[1]);
  same.add(options.angle_aperture[0]).add(options.angle_aperture[1]).add(options.model_partition);
  collective_check(comm, same, "Kirchhoff's geometry, receivers, wavelet and options", [&] {
    kirchhoff_tables::check_arguments(geometry, sources, receivers, wavelet, wavelet_center,
                                      options);
  });
  const auto plan = kirchhoff_tables::make_plan(
      geometry, sources, receivers, options,
      [&](double local) { return comm.allreduce(local, ReduceOp::max); });
  const Shape model = kirchhoff_tables::model_shape(geometry);
  const std::vector<Index> counts = comm.allgather(plan.sources.count);
  std::vector<Shape> data_shapes;
  Index total = 0;
  for (Index count : counts) {
    data_shapes.push_back(Shape{count, plan.receivers.count, geometry.nt});
    total += count;
  }
  const Layout data(comm, Shape{total, plan.receivers.count, geometry.nt},
                    LayoutOptions{.local_shapes = data_shapes});
  const Layout whole(comm, model, Partition::BROADCAST);
  const auto stack = reshape(
      VStack({kirchhoff_of_plan<T, Space>(plan, wavelet, wavelet_center)}, comm), whole, data);
  if (options.model_partition == Partition::BROADCAST) return stack;
  const Layout split(comm, model, Partition::SCATTER);
  return stack *
         LinearOperator<T, Space>::template make<KirchhoffModelGather<T, Space>>(split, whole);
}

#define DISTLOPS_INSTANTIATE_KIRCHHOFF(T, S)                                      \
  template LocalOperator<T, S> local::Kirchhoff<T, S>(                            \
      const KirchhoffGeometry&, std::span<const double>, std::span<const double>, \
      std::span<const double>, Index, const KirchhoffOptions&);                   \
  template LinearOperator<T, S> Kirchhoff<T, S>(                                  \
      const KirchhoffGeometry&, std::span<const double>, std::span<const double>, \
      std::span<const double>, Index, const KirchhoffOptions&, const Communicator&);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_INSTANTIATE_KIRCHHOFF)

}  // namespace distlops
