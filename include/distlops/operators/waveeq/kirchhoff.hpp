// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file kirchhoff.hpp
/// `Kirchhoff`: the linear Kirchhoff demigration operator of PyLops'
/// `waveeqprocessing.Kirchhoff` (and its adjoint, migration). A reflectivity model m on a
/// regular grid of image points is mapped to data d(s, r, t) of every source s and receiver r:
///
///   d(s, r, :) = w * sum_i a(s, r, i) m_i spike(t_s(i) + t_r(i)),
///
/// where t_s(i) and t_r(i) are the traveltimes from source and receiver to image point i, the
/// spike at time tau is split linearly between samples floor(tau / dt) and the next (nothing
/// when that sample is not in [0, nt - 1)), and w is the wavelet, convolved along time with its
/// centre at sample `wavelet_center` (PyLops' Convolve1D with `offset`). Without `dynamic` the
/// weight a is 1 (kinematic operator); with it
///
///   a(s, r, i) = 2 cos((theta_s - theta_r) / 2) A_s(i) A_r(i) / v(i) * taper(s, r, i),
///
/// with the amplitudes A of the geometrical spreading (2-D: 1 / sqrt(dist + eps), 3-D:
/// 1 / (dist + eps), eps = 0.01 (max dist over sources + max dist over receivers), for the
/// analytic traveltimes; the user's tables otherwise), theta the angle of the traveltime
/// gradient with the vertical (finite differences of the tables, as NumPy's gradient), v the
/// velocity, and a taper of the angle and offset apertures (a Hanning slope of 20 steps from the
/// first bound of an aperture to the second, zero beyond). The adjoint is exact.
///
/// Shapes: model (nx, nz) in 2-D and (ny, nx, nz) in 3-D (PyLops flattens the latter to
/// (ny nx, nz): same elements); data (ns, nr, nt). Points (sources, receivers) are given point
/// after point, each as (x, z) in 2-D and (y, x, z) in 3-D, anywhere on or in the grid.
///
/// Traveltimes: `analytic`, sqrt(|p - q|^2) / velocity for a constant velocity; or `tables`,
/// the user's tables of every source and receiver at every image point, shaped (ns, n image
/// points) and (nr, n image points) (point-major: PyLops' tables transposed), read, for
/// instance, with io/npy.hpp or io/hdf5.hpp (a table split over the ranks by source: each rank
/// reads its rows).
///
/// Differences from PyLops: the mode `eikonal` and the single table of summed traveltimes are
/// not offered (a pair of tables from any solver is); traveltime gradients of user tables use
/// the grid spacings (PyLops uses unit spacing there); the 3-D receiver angle takes the sign of
/// the receiver's own gradient (PyLops takes the source's); the offset aperture applies its
/// taper between its bounds (PyLops applies the taper's first value, 1, there); the offset
/// aperture is rejected in 3-D (PyLops drops it with a warning).
///
/// Errors: InvalidArgument for a grid axis with fewer than 2 points or a non-positive step, a
/// point count that is not a multiple of the dimension, a time axis with nt < 2 or dt <= 0, an
/// empty wavelet or one longer than nt, a centre outside it, a non-positive analytic velocity,
/// tables of the wrong size, non-finite values, bad apertures. The distributed form raises them
/// on every rank.

#include <array>
#include <optional>
#include <span>

#include "distlops/core/communicator.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/partition.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops {

/// A regular axis: n points from `origin` with `step` (> 0).
struct KirchhoffAxis {
  Index n = 0;        ///< Number of points (0 for the absent y axis of a 2-D grid).
  double origin = 0;  ///< First point.
  double step = 1;    ///< Spacing.
};

/// The image grid and the time axis of the data.
struct KirchhoffGeometry {
  KirchhoffAxis y;  ///< Crossline axis; n = 0 for a 2-D grid.
  KirchhoffAxis x;  ///< Inline axis.
  KirchhoffAxis z;  ///< Depth axis.
  Index nt = 0;     ///< Time samples of the data (the first at t = 0).
  double dt = 0;    ///< Time step.
  /// 2 or 3.
  int dimension() const { return y.n > 0 ? 3 : 2; }
};

/// Where traveltimes (and, with `dynamic`, amplitudes) come from.
enum class KirchhoffTraveltimes {
  analytic,  ///< Straight rays in a constant velocity (PyLops' mode "analytic").
  tables,    ///< The user's tables (PyLops' mode "byot" with a pair of tables).
};

/// The user's tables, point-major: row k holds the values of source (receiver) k at every image
/// point in the model's C order. Only this rank's sources in the distributed form.
struct KirchhoffTables {
  std::span<const double> source_traveltimes;    ///< (ns, n image points)
  std::span<const double> receiver_traveltimes;  ///< (nr, n image points)
  std::span<const double> source_amplitudes;     ///< (ns, n image points), with `dynamic`
  std::span<const double> receiver_amplitudes;   ///< (nr, n image points), with `dynamic`
};

/// PyLops' keyword arguments of Kirchhoff, and the distribution of the model.
struct KirchhoffOptions {
  /// Where traveltimes come from (analytic or the user's tables).
  KirchhoffTraveltimes traveltimes = KirchhoffTraveltimes::analytic;
  /// The constant velocity (analytic traveltimes; with `dynamic` also the v of the weight when
  /// `velocity_model` is empty).
  double velocity = 0;
  /// The velocity at every image point (model shape), for the weight of `dynamic`.
  std::span<const double> velocity_model = {};
  /// The tables of KirchhoffTraveltimes::tables.
  KirchhoffTables tables = {};
  /// Filter the wavelet by sqrt(i omega) (2-D) or -i omega (3-D) (PyLops' wavfilter).
  bool wavelet_filter = false;
  /// Amplitudes, obliquity and apertures (see above), or the kinematic operator.
  bool dynamic = false;
  /// Offset aperture, |source x index - receiver x index| / (z index + 1) (2-D, `dynamic`):
  /// taper from the first bound, nothing from the second. PyLops' scalar a is {0.8 a, a}.
  std::optional<std::array<double, 2>> aperture = std::nullopt;
  /// Angle aperture in degrees (`dynamic`), as `aperture`; PyLops' default 90 is {72, 90}.
  std::array<double, 2> angle_aperture = {72.0, 90.0};
  /// Distributed form: the model replicated (BROADCAST) or split along its first axis
  /// (SCATTER: gathered for the forward, summed and cut back for the adjoint).
  Partition model_partition = Partition::BROADCAST;
};

namespace local {

/// Kirchhoff demigration of one rank's sources and receivers (`sources`, `receivers`: points of
/// geometry.dimension() coordinates each), with the real `wavelet` centred at `wavelet_center`.
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Kirchhoff(const KirchhoffGeometry& geometry,
                                  std::span<const double> sources,
                                  std::span<const double> receivers,
                                  std::span<const double> wavelet, Index wavelet_center,
                                  const KirchhoffOptions& options = {});

}  // namespace local

/// Kirchhoff demigration with the sources split over the ranks (PyLops-MPI's VStack of one
/// Kirchhoff per rank): `sources` are this rank's (any number, none included), the receivers,
/// wavelet and options the same on every rank. Data (ns, nr, nt) split along sources in rank
/// order; model replicated or split (options.model_partition). Collective.
template <Scalar T, MemorySpace Space = Host>
LinearOperator<T, Space> Kirchhoff(const KirchhoffGeometry& geometry,
                                   std::span<const double> sources,
                                   std::span<const double> receivers,
                                   std::span<const double> wavelet, Index wavelet_center,
                                   const KirchhoffOptions& options = {},
                                   const Communicator& comm = Communicator::world());

/// \cond
#define DISTLOPS_DETAIL_EXTERN_KIRCHHOFF(T, S)                                    \
  extern template LocalOperator<T, S> local::Kirchhoff<T, S>(                     \
      const KirchhoffGeometry&, std::span<const double>, std::span<const double>, \
      std::span<const double>, Index, const KirchhoffOptions&);                   \
  extern template LinearOperator<T, S> Kirchhoff<T, S>(                           \
      const KirchhoffGeometry&, std::span<const double>, std::span<const double>, \
      std::span<const double>, Index, const KirchhoffOptions&, const Communicator&);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_DETAIL_EXTERN_KIRCHHOFF)
#undef DISTLOPS_DETAIL_EXTERN_KIRCHHOFF
/// \endcond

}  // namespace distlops
