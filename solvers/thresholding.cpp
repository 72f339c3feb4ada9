// Host kernels of the thresholding rules.
#include "distlops/solvers/thresholding.hpp"

namespace distlops {

const char* to_string(ThresholdKind kind) {
  switch (kind) {
    case ThresholdKind::soft:
      return "soft";
    case ThresholdKind::hard:
      return "hard";
    case ThresholdKind::half:
      return "half";
  }
  return "unknown";
}

namespace kernels {

template <Scalar T>
void threshold(Host, ThresholdKind kind, Index n, real_type_t<T> t, T* x) {
  using R = real_type_t<T>;
  switch (kind) {
    case ThresholdKind::soft:
      for (Index i = 0; i < n; ++i)
        x[i] = soft_threshold(x[i], t);
      break;
    case ThresholdKind::hard: {
      const R cut = hard_threshold_cut(t);
      for (Index i = 0; i < n; ++i)
        x[i] = hard_threshold(x[i], cut);
      break;
    }
    case ThresholdKind::half: {
      const R cut = half_threshold_cut(t);
      for (Index i = 0; i < n; ++i)
        x[i] = half_threshold(x[i], t, cut);
      break;
    }
  }
}

template void threshold<float>(Host, ThresholdKind, Index, float, float*);
template void threshold<double>(Host, ThresholdKind, Index, double, double*);
template void threshold<std::complex<float>>(Host, ThresholdKind, Index, float,
                                             std::complex<float>*);
template void threshold<std::complex<double>>(Host, ThresholdKind, Index, double,
                                              std::complex<double>*);

}  // namespace kernels
}  // namespace distlops
