#pragma once
/// \file stencil_operator.hpp
/// `local::StencilOperator<T, Space>`: a sum of 1-D derivative stencils (stencil.hpp), each
/// along one axis of an N-d array (C order): y = sum_t D_t x, where D_t acts along axis_t. It
/// is the operator object behind FirstDerivative, SecondDerivative and Laplacian; the shape of
/// the domain and of the range is `dims`.
///
/// The loops visit the output once, in contiguous segments (rows near the ends of the
/// innermost derivative axis one by one, the rows between them in one piece) cut into blocks
/// that stay in cache; each term adds all its points to a block in one fused pass.
/// forward_add and adjoint_add accumulate y = alpha A x + beta y in the same passes.

#include <string>
#include <vector>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/accumulating_operator.hpp"
#include "distlops/operators/local/stencil.hpp"

namespace distlops::local {

/// One term of a StencilOperator: the derivative `spec` along `axis` (in [0, ndim)).
struct StencilTerm {
  int axis = 0;
  stencil::Spec<double> spec;
};

template <Scalar T, MemorySpace Space = Host>
class StencilOperator final : public AccumulatingOperator<T, Space> {
 public:
  using Vector = typename AccumulatingOperator<T, Space>::Vector;
  using real_type = real_type_t<T>;

  /// The terms' axes must lie in [0, dims.size()) and their specs be valid for `dims`
  /// (the factories FirstDerivative, SecondDerivative and Laplacian check this); at least one
  /// term.
  StencilOperator(Shape dims, const std::vector<StencilTerm>& terms, std::string name);

  void forward_add(T alpha, const Vector& x, T beta, Vector& y) const override;
  void adjoint_add(T alpha, const Vector& y, T beta, Vector& x) const override;

 private:
  struct Term {
    int axis;
    stencil::Spec<real_type> spec;
  };
  void apply(bool adjoint, T alpha, const T* in, T beta, T* out) const;
  void apply_host(bool adjoint, T alpha, const T* in, T beta, T* out) const;

  Shape dims_;
  Shape strides_;
  std::vector<Term> terms_;
  int last_axis_ = 0;  // the largest axis of any term
};

DISTLOPS_EXTERN_TEMPLATE_CLASS(StencilOperator)

}  // namespace distlops::local
