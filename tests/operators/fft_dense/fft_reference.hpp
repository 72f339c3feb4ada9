#pragma once
// Serial references for the FFT tests: PyLops' FFTND written step by step (ifftshift, real
// part, zero-padding or truncation, DFT, half spectrum with sqrt(2) weights, scaling,
// fftshift) with a naive O(n^2) DFT in long double, independent of FFTW and of the library's
// code. The reference matrix of an operator is the reference applied to unit vectors.
#include <array>
#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "distlops/operators/signal/fft.hpp"
#include "operator_checks.hpp"
#include "spaces.hpp"

namespace distlops::testing {

struct FftCase {
  std::vector<int> axes;  // normalised
  std::vector<Index> nfft;
  FFTNorm norm = FFTNorm::none;
  bool real = false;
  std::vector<bool> ifftshift_before;
  std::vector<bool> fftshift_after;
};

/// "axes (0 1 ) nfft (4, 6) norm 1 real 0 shifts 01 10": for the INFO of a failing check.
inline std::string describe(const FftCase& c) {
  std::string text = "axes (";
  for (int a : c.axes)
    text += std::to_string(a) + " ";
  text += ") nfft " + to_string(c.nfft) + " norm " + std::to_string(int(c.norm)) + " real " +
          std::to_string(c.real) + " shifts";
  for (std::size_t i = 0; i < c.axes.size(); ++i)
    text += " " + std::to_string(c.ifftshift_before[i]) + std::to_string(c.fftshift_after[i]);
  return text;
}

using Wide = std::complex<long double>;

// Applies `f` (a line of length n -> a line of some length m) along `axis` of a C-order array.
template <class F>
std::vector<Wide> along_axis(const std::vector<Wide>& x, const Shape& shape, int axis,
                             Shape& out_shape, F&& f) {
  Index outer = 1, inner = 1;
  for (int k = 0; k < axis; ++k)
    outer *= shape[k];
  for (std::size_t k = static_cast<std::size_t>(axis) + 1; k < shape.size(); ++k)
    inner *= shape[k];
  const Index n = shape[axis];
  std::vector<Wide> line(static_cast<std::size_t>(n));
  out_shape = shape;
  std::vector<Wide> result;
  Index m = -1;
  for (Index o = 0; o < outer; ++o) {
    for (Index i = 0; i < inner; ++i) {
      for (Index l = 0; l < n; ++l)
        line[l] = x[(o * n + l) * inner + i];
      const std::vector<Wide> mapped = f(line);
      if (m < 0) {
        m = static_cast<Index>(mapped.size());
        out_shape[axis] = m;
        result.assign(static_cast<std::size_t>(outer * m * inner), Wide(0));
      }
      for (Index l = 0; l < m; ++l)
        result[(o * m + l) * inner + i] = mapped[l];
    }
  }
  if (m < 0) {
    // No lines (an empty axis elsewhere): the output length comes from an empty line.
    out_shape[axis] = static_cast<Index>(f(std::vector<Wide>(static_cast<std::size_t>(n))).size());
  }
  return result;
}

// numpy.fft.fftshift (by n / 2) and ifftshift (by -(n / 2)) of a line.
inline std::vector<Wide> roll(const std::vector<Wide>& v, bool inverse) {
  const Index n = static_cast<Index>(v.size());
  std::vector<Wide> out(v.size());
  const Index shift = inverse ? n - n / 2 : n / 2;
  for (Index i = 0; i < n; ++i)
    out[(i + shift) % n] = v[i];
  return out;
}

inline std::vector<Wide> dft(const std::vector<Wide>& v, int sign) {
  const Index n = static_cast<Index>(v.size());
  std::vector<Wide> out(v.size(), Wide(0));
  const long double pi = std::numbers::pi_v<long double>;
  std::vector<Wide> twiddle(v.size());  // exp(sign 2 pi i m / n)
  for (Index m = 0; m < n; ++m) {
    const long double phase = sign * 2 * pi * static_cast<long double>(m) / n;
    twiddle[m] = Wide(std::cos(phase), std::sin(phase));
  }
  for (Index k = 0; k < n; ++k) {
    Wide sum = 0;
    for (Index j = 0; j < n; ++j)
      sum += v[j] * twiddle[(k * j) % n];
    out[k] = sum;
  }
  return out;
}

// PyLops' forward FFTND of x (shape dims) for case c.
inline std::vector<Wide> reference_forward(std::vector<Wide> x, Shape shape, const FftCase& c) {
  const std::size_t naxes = c.axes.size();
  Shape next;
  for (std::size_t i = 0; i < naxes; ++i) {
    if (c.ifftshift_before[i]) {
      x = along_axis(x, shape, c.axes[i], next, [](const auto& v) { return roll(v, true); });
    }
  }
  if (c.real) {
    for (Wide& v : x)
      v = Wide(v.real(), 0);
  }
  long double points = 1;
  for (std::size_t i = 0; i < naxes; ++i) {
    const Index nfft = c.nfft[i];
    points *= nfft;
    x = along_axis(x, shape, c.axes[i], next, [&](const auto& v) {
      std::vector<Wide> padded(static_cast<std::size_t>(nfft), Wide(0));
      for (std::size_t j = 0; j < v.size() && j < padded.size(); ++j)
        padded[j] = v[j];
      return dft(padded, -1);
    });
    shape = next;
  }
  if (c.real) {
    const Index nfft = c.nfft.back();
    x = along_axis(x, shape, c.axes.back(), next, [&](const auto& v) {
      std::vector<Wide> half(v.begin(), v.begin() + nfft / 2 + 1);
      for (Index k = 1; k <= (nfft - 1) / 2; ++k)
        half[k] *= std::sqrt(2.0L);
      return half;
    });
    shape = next;
  }
  const long double scale = c.norm == FFTNorm::ortho        ? 1 / std::sqrt(points)
                            : c.norm == FFTNorm::one_over_n ? 1 / points
                                                            : 1;
  for (Wide& v : x)
    v *= scale;
  for (std::size_t i = 0; i < naxes; ++i) {
    if (c.fftshift_after[i]) {
      x = along_axis(x, shape, c.axes[i], next, [](const auto& v) { return roll(v, false); });
    }
  }
  return x;
}

// The reference matrix (rows: output elements, columns: input elements) of case c for inputs
// of shape dims; for real cases the columns are the images of real unit vectors.
template <class T>
DenseMatrix<T> reference_matrix(const Shape& dims, const FftCase& c) {
  const Index n = element_count(dims);
  DenseMatrix<T> matrix;
  for (Index j = 0; j < n; ++j) {
    std::vector<Wide> unit(static_cast<std::size_t>(n), Wide(0));
    unit[j] = 1;
    const std::vector<Wide> column = reference_forward(unit, dims, c);
    if (j == 0) matrix.resize(static_cast<Eigen::Index>(column.size()), n);
    for (std::size_t i = 0; i < column.size(); ++i) {
      using R = real_type_t<T>;
      matrix(static_cast<Eigen::Index>(i), j) =
          T(static_cast<R>(column[i].real()), static_cast<R>(column[i].imag()));
    }
  }
  return matrix;
}

// The expected adjoint of the reference matrix M: M^H y, or Re(M^H y) for real-input cases
// (the exact adjoint of a map that reads only real parts, for the real inner product).
template <class T>
DenseVector<T> reference_adjoint(const DenseMatrix<T>& m, const DenseVector<T>& y, bool real) {
  DenseVector<T> x = m.adjoint() * y;
  if (real) x = x.real().template cast<T>();
  return x;
}

/// Checks the forward, the accumulating forward, the adjoint and the dot test of `op` (local or
/// distributed, of any memory space) against the reference matrix m of case c.
template <class Domain, class Range>
void check_against_reference(const BasicLinearOperator<Domain, Range>& op,
                             const DenseMatrix<typename Domain::value_type>& m, const FftCase& c,
                             std::uint64_t seed) {
  using T = typename Domain::value_type;
  using Space = typename Domain::space_type;
  const double rtol = space_tolerance<T, Space>();
  REQUIRE(op.cols() == m.cols());
  REQUIRE(op.rows() == m.rows());
  Domain x(op.domain());
  Range y(op.range());
  fill_random(x, seed);
  fill_random(y, seed + 2);
  DenseVector<T> xv = global_vector(x);
  if (c.real) xv = xv.real().template cast<T>();  // the forward reads real parts only
  CHECK(vectors_close<T>(global_vector(op.apply(x)), m * xv, rtol));
  CHECK(vectors_close<T>(global_vector(op.apply_adjoint(y)),
                         reference_adjoint<T>(m, global_vector(y), c.real), rtol));
  // The accumulating forward: alpha A x + beta y.
  const T alpha = random_scalar<T>(seed + 8), beta = random_scalar<T>(seed + 9);
  Range z = y;
  op.apply_add(alpha, x, beta, z);
  CHECK(vectors_close<T>(global_vector(z),
                         DenseVector<T>(alpha * (m * xv) + beta * global_vector(y)), rtol));
  if (!c.real) {
    CHECK(dottest(op, seed + 4, space_dottest_tolerance<T, Space>()).passed);
    return;
  }
  Domain u(op.domain());
  fill_random(u, seed + 6);
  CHECK(real_dottest_holds(op, u, y));
}

/// Layouts of a shape for the distributed transforms: the default split along each axis, a
/// split along axis 0 in which rank 0 owns all planes but one, the last rank that plane and
/// the others nothing, and a replicated one.
std::vector<Layout> layouts_of(const Communicator& comm, const Shape& shape) {
  std::vector<Layout> layouts;
  for (int axis = 0; axis < int(shape.size()); ++axis)
    layouts.emplace_back(comm, shape, Partition::SCATTER, axis);
  if (comm.size() > 1) {
    std::vector<Shape> local(comm.size(), shape);
    for (int r = 0; r < comm.size(); ++r)
      local[r][0] = 0;
    local[comm.size() - 1][0] = 1;
    local[0][0] = shape[0] - 1;
    layouts.emplace_back(comm, shape, LayoutOptions{.local_shapes = local});
  }
  layouts.emplace_back(comm, shape, Partition::BROADCAST);
  return layouts;
}

}  // namespace distlops::testing
