#include "distlops/operators/signal/fft.hpp"

#include <algorithm>
#include <cmath>

#include "fft_stage.hpp"

namespace distlops {

namespace {

using detail::FftAxis;

// The validated options of a transform of arrays of shape `dims`.
struct Spec {
  std::string name;
  Shape dims;
  std::vector<int> axes;       // normalised, in the order given
  std::vector<FftAxis> array;  // one per array axis
  int real_axis = -1;
  double scale = 1;
  FFTPlanning planning = FFTPlanning::estimate;

  bool transformed(int k) const { return array[static_cast<std::size_t>(k)].transform; }
  // The global shape after transforming every axis.
  Shape range_shape() const {
    Shape shape;
    for (const FftAxis& a : array)
      shape.push_back(a.range());
    return shape;
  }
};

template <class Value>
std::vector<Value> per_axis(const std::string& name, const char* what,
                            const std::vector<Value>& given, std::size_t naxes, Value fallback) {
  if (given.empty()) return std::vector<Value>(naxes, fallback);
  if (given.size() == 1) return std::vector<Value>(naxes, given[0]);
  if (given.size() != naxes) {
    throw InvalidArgument(name + ": " + what + " has " + std::to_string(given.size()) +
                          " entries for " + std::to_string(naxes) + " axes");
  }
  return given;
}

// Validates the options (the same verdict on every rank given the same arguments).
template <class Options>
Spec make_spec(std::string name, const Shape& dims, const Options& options,
               std::vector<int> default_axes, std::size_t min_axes, std::size_t max_axes) {
  Spec spec;
  spec.name = std::move(name);
  spec.dims = dims;
  spec.planning = options.planning;
  const int ndim = static_cast<int>(dims.size());
  if (ndim == 0) throw InvalidArgument(spec.name + ": the arrays must have at least one axis");
  for (Index d : dims) {
    if (d < 0) throw InvalidArgument(spec.name + ": negative extent in dims " + to_string(dims));
  }
  const std::vector<int>& axes = options.axes.empty() ? default_axes : options.axes;
  if (axes.size() < min_axes || axes.size() > max_axes) {
    const std::string expected =
        min_axes == max_axes ? std::to_string(min_axes) : "at least " + std::to_string(min_axes);
    throw InvalidArgument(spec.name + ": " + expected + " axes expected, got " +
                          std::to_string(axes.size()));
  }
  for (int axis : axes) {
    if (axis < -ndim || axis >= ndim) {
      throw InvalidArgument(spec.name + ": axis " + std::to_string(axis) +
                            " is out of range for an array of " + std::to_string(ndim) +
                            " dimension(s)");
    }
    const int normal = axis < 0 ? axis + ndim : axis;
    if (std::find(spec.axes.begin(), spec.axes.end(), normal) != spec.axes.end()) {
      throw InvalidArgument(spec.name + ": axis " + std::to_string(normal) + " is repeated");
    }
    spec.axes.push_back(normal);
  }
  const std::size_t naxes = spec.axes.size();
  const auto nfft = per_axis<Index>(spec.name, "nfft", options.nfft, naxes, 0);
  const auto before =
      per_axis<bool>(spec.name, "ifftshift_before", options.ifftshift_before, naxes, false);
  const auto after =
      per_axis<bool>(spec.name, "fftshift_after", options.fftshift_after, naxes, false);
  spec.array.resize(static_cast<std::size_t>(ndim));
  for (int k = 0; k < ndim; ++k)
    spec.array[static_cast<std::size_t>(k)].length = dims[static_cast<std::size_t>(k)];
  double points = 1;
  for (std::size_t i = 0; i < naxes; ++i) {
    const int k = spec.axes[i];
    FftAxis& a = spec.array[static_cast<std::size_t>(k)];
    if (a.length < 1) {
      throw InvalidArgument(spec.name + ": axis " + std::to_string(k) +
                            " to transform is empty in dims " + to_string(dims));
    }
    if (nfft[i] < 0) {
      throw InvalidArgument(spec.name + ": nfft " + std::to_string(nfft[i]) + " for axis " +
                            std::to_string(k) + " is negative");
    }
    a.transform = true;
    a.nfft = nfft[i] == 0 ? a.length : nfft[i];
    a.real = options.real && i + 1 == naxes;
    a.ifftshift_before = before[i];
    a.fftshift_after = after[i];
    points *= static_cast<double>(a.nfft);
  }
  if (options.real) spec.real_axis = spec.axes.back();
  switch (options.norm) {
    case FFTNorm::ortho:
      spec.scale = 1.0 / std::sqrt(points);
      break;
    case FFTNorm::one_over_n:
      spec.scale = 1.0 / points;
      break;
    case FFTNorm::none:
      spec.scale = 1.0;
      break;
  }
  return spec;
}

// ---- local --------------------------------------------------------------------------------------

template <Scalar T>
class LocalFFTOperator final : public LinearOperatorBase<LocalArray<T, Host>> {
 public:
  using Local = LocalArray<T, Host>;
  explicit LocalFFTOperator(const Spec& spec)
      : LinearOperatorBase<Local>(spec.dims, spec.range_shape(), spec.name),
        stage_(spec.array, spec.scale, spec.planning) {}
  void forward(const Local& x, Local& y) const override { stage_.forward(x.data(), y.data()); }
  void adjoint(const Local& y, Local& x) const override { stage_.adjoint(y.data(), x.data()); }

 private:
  detail::FftStage<real_type_t<T>> stage_;
};

template <Scalar T>
LocalOperator<T, Host> make_local(const Spec& spec) {
  return LocalOperator<T, Host>::template make<LocalFFTOperator<T>>(spec);
}

constexpr std::size_t any_number = 1 << 16;

}  // namespace

std::vector<double> fft_frequencies(Index nfft, double sampling, bool real, bool shifted) {
  if (nfft < 1) throw InvalidArgument("fft_frequencies: nfft must be positive");
  const Index count = real ? nfft / 2 + 1 : nfft;
  std::vector<double> frequencies(static_cast<std::size_t>(count));
  for (Index i = 0; i < count; ++i) {
    const Index bin = real || i <= (nfft - 1) / 2 ? i : i - nfft;
    frequencies[static_cast<std::size_t>(i)] =
        static_cast<double>(bin) / (static_cast<double>(nfft) * sampling);
  }
  if (!shifted) return frequencies;
  std::vector<double> result(frequencies.size());
  for (Index o = 0; o < count; ++o)
    result[static_cast<std::size_t>(o)] =
        frequencies[static_cast<std::size_t>((o + count - count / 2) % count)];
  return result;
}

namespace local {

template <Scalar T>
requires is_complex_v<T> LocalOperator<T, Host> FFT(const Shape& dims, const FFTOptions& options) {
  return make_local<T>(make_spec("FFT", dims, options, {-1}, 1, 1));
}
template <Scalar T>
requires is_complex_v<T> LocalOperator<T, Host> FFT2D(const Shape& dims,
                                                      const FFTOptions& options) {
  return make_local<T>(make_spec("FFT2D", dims, options, {-2, -1}, 2, 2));
}
template <Scalar T>
requires is_complex_v<T> LocalOperator<T, Host> FFTND(const Shape& dims,
                                                      const FFTOptions& options) {
  return make_local<T>(make_spec("FFTND", dims, options, {-3, -2, -1}, 1, any_number));
}

template LocalOperator<std::complex<float>, Host> FFT<std::complex<float>>(const Shape&,
                                                                           const FFTOptions&);
template LocalOperator<std::complex<double>, Host> FFT<std::complex<double>>(const Shape&,
                                                                             const FFTOptions&);
template LocalOperator<std::complex<float>, Host> FFT2D<std::complex<float>>(const Shape&,
                                                                             const FFTOptions&);
template LocalOperator<std::complex<double>, Host> FFT2D<std::complex<double>>(const Shape&,
                                                                               const FFTOptions&);
template LocalOperator<std::complex<float>, Host> FFTND<std::complex<float>>(const Shape&,
                                                                             const FFTOptions&);
template LocalOperator<std::complex<double>, Host> FFTND<std::complex<double>>(const Shape&,
                                                                               const FFTOptions&);

}  // namespace local

}  // namespace distlops
