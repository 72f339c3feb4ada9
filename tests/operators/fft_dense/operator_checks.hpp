#pragma once
// Checks shared by the FFT, MatrixMult, Fredholm1 and MDC tests, for operators of any memory
// space.
#include "dense_reference.hpp"
#include "distlops/operators/dottest.hpp"
#include "spaces.hpp"
#include "test_support.hpp"

namespace distlops::testing {

/// max |a - b| <= rtol * max(1, max |b|)
template <class T>
bool vectors_close(const DenseVector<T>& a, const DenseVector<T>& b, double rtol) {
  if (a.size() != b.size()) return false;
  if (a.size() == 0) return true;
  const double scale = std::max(1.0, double(b.cwiseAbs().maxCoeff()));
  return double((a - b).cwiseAbs().maxCoeff()) <= rtol * scale;
}

/// Applies `op` forward and adjoint twice (vectors of its domain and range, random input) and
/// returns whether the second time allocated nothing.
template <class Domain, class Range>
bool second_apply_allocates_nothing(const BasicLinearOperator<Domain, Range>& op) {
  Domain x(op.domain());
  Range y(op.range());
  fill_random(x, 1);
  op.apply(x, y);
  op.apply_adjoint(y, x);
  const std::uint64_t before = memory::allocation_count();
  op.apply(x, y);
  op.apply_adjoint(y, x);
  return memory::allocation_count() == before;
}

/// The dot test of an operator that reads only the real parts of its (complex) input and whose
/// adjoint is exact for the real inner product: Re <A u, v> = <u, A^H v> for real u (the real
/// part of the given u is used), and A^H v is real.
template <class Domain, class Range>
bool real_dottest_holds(const BasicLinearOperator<Domain, Range>& op, Domain u, const Range& v) {
  using T = typename Domain::value_type;
  using R = real_type_t<T>;
  using Space = typename Domain::space_type;
  Domain conjugate_u = u;
  conjugate_u.conj_in_place();
  u.axpy(T(1), conjugate_u).scale(T(R(0.5)));  // Re(u), exactly
  const T forward_side = op.apply(u).vdot(v);
  const T adjoint_side = u.vdot(op.apply_adjoint(v));
  const double rtol = space_dottest_tolerance<T, Space>();
  const R scale = std::max<R>(R(1), std::abs(forward_side));
  // Exactly real on the host; the device may leave rounding errors in the imaginary parts.
  const bool real = on_device<Space> ? std::abs(adjoint_side.imag()) <= rtol * scale
                                     : adjoint_side.imag() == R(0);
  return real && std::abs(forward_side.real() - adjoint_side.real()) <= rtol * scale;
}

}  // namespace distlops::testing
