// The combine kernel behind stencil operators: a weighted sum of a few shifted inputs. The
// common tap counts are unrolled so that the compiler keeps every source pointer in a
// register and vectorises the loop.
#include <complex>

#include "distlops/core/kernels.hpp"

namespace distlops::kernels {

namespace {

template <int K, class T>
void combine_fixed(Index n, const T* c, const T* const* s, T beta, T* y) {
  const T* __restrict src[K > 0 ? K : 1];
  T coef[K > 0 ? K : 1];
  for (int k = 0; k < K; ++k) {
    src[k] = s[k];
    coef[k] = c[k];
  }
  if (beta == T(0)) {
    for (Index i = 0; i < n; ++i) {
      T sum = coef[0] * src[0][i];
      for (int k = 1; k < K; ++k)
        sum += coef[k] * src[k][i];
      y[i] = sum;
    }
  } else {
    for (Index i = 0; i < n; ++i) {
      T sum = beta * y[i];
      for (int k = 0; k < K; ++k)
        sum += coef[k] * src[k][i];
      y[i] = sum;
    }
  }
}

template <class T>
void combine_any(Index n, int count, const T* c, const T* const* s, T beta, T* y) {
  if (beta == T(0)) {
    for (Index i = 0; i < n; ++i)
      y[i] = T(0);
  } else if (beta != T(1)) {
    for (Index i = 0; i < n; ++i)
      y[i] *= beta;
  }
  for (int k = 0; k < count; ++k) {
    const T coefficient = c[k];
    const T* __restrict source = s[k];
    for (Index i = 0; i < n; ++i)
      y[i] += coefficient * source[i];
  }
}

}  // namespace

template <Scalar T>
void combine(Host, Index n, int count, const T* coefficients, const T* const* sources, T beta,
             T* y) {
  switch (count) {
    case 1:
      return combine_fixed<1>(n, coefficients, sources, beta, y);
    case 2:
      return combine_fixed<2>(n, coefficients, sources, beta, y);
    case 3:
      return combine_fixed<3>(n, coefficients, sources, beta, y);
    case 4:
      return combine_fixed<4>(n, coefficients, sources, beta, y);
    case 5:
      return combine_fixed<5>(n, coefficients, sources, beta, y);
    case 6:
      return combine_fixed<6>(n, coefficients, sources, beta, y);
    case 7:
      return combine_fixed<7>(n, coefficients, sources, beta, y);
    default:
      return combine_any(n, count, coefficients, sources, beta, y);
  }
}

template void combine<float>(Host, Index, int, const float*, const float* const*, float, float*);
template void combine<double>(Host, Index, int, const double*, const double* const*, double,
                              double*);
template void combine<std::complex<float>>(Host, Index, int, const std::complex<float>*,
                                           const std::complex<float>* const*, std::complex<float>,
                                           std::complex<float>*);
template void combine<std::complex<double>>(Host, Index, int, const std::complex<double>*,
                                            const std::complex<double>* const*,
                                            std::complex<double>, std::complex<double>*);

}  // namespace distlops::kernels
