// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "synthetic.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "distlops/core/random.hpp"

namespace distlops::examples {

std::vector<double> impedance_model(Index nx, Index nz) {
  std::vector<double> model(static_cast<std::size_t>(nx * nz));
  // Interfaces as fractions of the depth, with the impedance of the layer below each.
  const double interfaces[] = {0.18, 0.32, 0.47, 0.62, 0.80};
  const double impedances[] = {4000, 5200, 4600, 6400, 5600, 7200};
  for (Index ix = 0; ix < nx; ++ix) {
    const double x = nx > 1 ? double(ix) / double(nx - 1) : 0.0;
    // Normal fault dipping to the right (through x = 0.55 at the top, x = 0.8 at the bottom):
    // beyond the fault plane the layers drop by 6 % of the depth.
    const double fault_top = 0.55;
    for (Index iz = 0; iz < nz; ++iz) {
      const double z = nz > 1 ? double(iz) / double(nz - 1) : 0.0;
      const bool beyond_fault = x > fault_top + 0.25 * z;
      const double depth = beyond_fault ? z - 0.06 : z;
      int layer = 0;
      while (layer < 5 && depth > interfaces[layer])
        ++layer;
      double value = impedances[layer];
      // Gentle lateral trend.
      value *= 1.0 + 0.05 * (x - 0.5);
      // Wedge: a high-impedance layer thinning from 12 % of the depth at the left to nothing
      // at 70 % of the width, sitting on top of the third interface.
      const double wedge_top = interfaces[2] - 0.12 * std::max(0.0, 1.0 - x / 0.7);
      if (!beyond_fault && z > wedge_top && z <= interfaces[2]) value = 7600;
      model[static_cast<std::size_t>(ix * nz + iz)] = value;
    }
  }
  return model;
}

std::vector<double> ricker(double f0, double dt, Index nt) {
  std::vector<double> wavelet(static_cast<std::size_t>(nt));
  const Index centre = nt / 2;
  for (Index i = 0; i < nt; ++i) {
    const double t = double(i - centre) * dt;
    const double a = std::numbers::pi * f0 * t;
    wavelet[i] = (1.0 - 2.0 * a * a) * std::exp(-a * a);
  }
  return wavelet;
}

double gaussian(std::uint64_t key, std::uint64_t index) {
  const double u1 = std::max(uniform_value(key, index), 1e-300);
  const double u2 = uniform_value(key + 1, index);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

std::vector<double> smooth(const std::vector<double>& field, Index nx, Index nz, Index rx,
                           Index rz) {
  auto average = [](const std::vector<double>& in, Index n_outer, Index n, Index stride_outer,
                    Index stride, Index radius) {
    std::vector<double> out(in.size());
    for (Index o = 0; o < n_outer; ++o) {
      for (Index i = 0; i < n; ++i) {
        double sum = 0;
        Index count = 0;
        for (Index k = std::max<Index>(0, i - radius); k <= std::min(n - 1, i + radius); ++k) {
          sum += in[o * stride_outer + k * stride];
          ++count;
        }
        out[o * stride_outer + i * stride] = sum / double(count);
      }
    }
    return out;
  };
  const std::vector<double> along_z = average(field, nx, nz, nz, 1, rz);
  return average(along_z, nz, nx, 1, nz, rx);
}

}  // namespace distlops::examples
