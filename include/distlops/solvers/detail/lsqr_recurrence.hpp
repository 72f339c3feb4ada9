// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file lsqr_recurrence.hpp
/// The scalar part of an LSQR iteration (lsqr.hpp), written once for the host and the device:
/// it runs where the solver's scalar slots live (ScalarSlots::lsqr_after_u and lsqr_after_v,
/// whose kernels call these formulas), so that on the device the norms of u, v and w never
/// cross to the host before the iteration's one read-back.
///
/// `LsqrSlots` is the layout of the slots: the recurrence's scalars (`LsqrScalars`, saved in
/// checkpoints in this order), the reductions of the iteration and the coefficients of its
/// vector updates.

#include <array>
#include <cmath>

#include "distlops/config.hpp"
#include "distlops/core/host_device.hpp"
#include "distlops/core/memory_space.hpp"

namespace distlops::detail {

/// The scalars of the LSQR recurrence.
struct LsqrScalars {
  double alfa = 0, beta = 0, rhobar = 0, phibar = 0, bnorm = 0, rnorm = 0, r1norm = 0;
  double anorm = 0, acond = 0, ddnorm = 0, res2 = 0, xnorm = 0, xxnorm = 0, z = 0;
  double cs2 = -1, sn2 = 0, arnorm = 0, arnorm0 = 0, test1 = 1, test2 = 0, istop = 0;
  std::array<double*, 21> fields() {
    return {&alfa,  &beta,  &rhobar, &phibar,  &bnorm, &rnorm,  &r1norm,
            &anorm, &acond, &ddnorm, &res2,    &xnorm, &xxnorm, &z,
            &cs2,   &sn2,   &arnorm, &arnorm0, &test1, &test2,  &istop};
  }
};

/// The fixed parameters of a run.
struct LsqrParameters {
  double damp, dampsq, atol, btol, ctol;
};

/// The slots of an LSQR iteration.
struct LsqrSlots {
  LsqrScalars sc;
  // Reductions: ||u||^2 and ||w||^2 (first batch), ||v||^2 (second batch).
  double u_squared, w_squared, v_squared;
  // Coefficients: u *= u_scale, v *= v_scale before v = A^H u + v, v *= v_normalise,
  // x += x_step w, w = w_v v + w_w w.
  double u_scale, v_scale, v_normalise, x_step, w_v, w_w;
  // 1 when the iteration's scalars are finite, else 0 (the vectors x and w are then unchanged).
  double finite;
};
inline constexpr int lsqr_slot_count = static_cast<int>(sizeof(LsqrSlots) / sizeof(double));
inline constexpr int lsqr_slot_u_squared = 21;
inline constexpr int lsqr_slot_w_squared = 22;
inline constexpr int lsqr_slot_v_squared = 23;
static_assert(sizeof(LsqrScalars) == 21 * sizeof(double));

/// After ||u||^2 of u = A v - alfa u: beta, the estimate of ||A|| and the coefficients that
/// normalise u and start v = A^H u - beta v (u = 0 and v unchanged when beta == 0).
DISTLOPS_HOST_DEVICE inline void lsqr_after_u(LsqrSlots& s, double dampsq) {
  LsqrScalars& sc = s.sc;
  sc.beta = std::sqrt(s.u_squared);
  if (sc.beta > 0) {
    s.u_scale = 1.0 / sc.beta;
    s.v_scale = -sc.beta;
    sc.anorm = std::sqrt(sc.anorm * sc.anorm + sc.alfa * sc.alfa + sc.beta * sc.beta + dampsq);
  } else {
    s.u_scale = 0;
    s.v_scale = 1;
  }
}

/// After ||v||^2: alfa, the rotations, the step of x and w, the norm estimates and istop.
DISTLOPS_HOST_DEVICE inline void lsqr_after_v(LsqrSlots& s, LsqrParameters p) {
  LsqrScalars& sc = s.sc;
  s.v_normalise = 1;
  if (sc.beta > 0) {
    sc.alfa = std::sqrt(s.v_squared);
    if (sc.alfa > 0) s.v_normalise = 1.0 / sc.alfa;
  }
  // Rotations eliminating damp, then the subdiagonal beta.
  const double rhobar1 = std::hypot(sc.rhobar, p.damp);
  const double cs1 = sc.rhobar / rhobar1;
  const double sn1 = p.damp / rhobar1;
  const double psi = sn1 * sc.phibar;
  sc.phibar = cs1 * sc.phibar;
  const double rho = std::hypot(rhobar1, sc.beta);
  const double cs = rhobar1 / rho;
  const double sn = sc.beta / rho;
  const double theta = sn * sc.alfa;
  sc.rhobar = -cs * sc.alfa;
  const double phi = cs * sc.phibar;
  sc.phibar = sn * sc.phibar;
  const double tau = sn * phi;
  const double t1 = phi / rho;
  const double t2 = -theta / rho;
  if (!(std::isfinite(sc.beta) && std::isfinite(sc.alfa) && std::isfinite(t1) &&
        std::isfinite(t2))) {
    s.finite = 0;
    s.x_step = 0;
    s.w_v = 0;
    s.w_w = 1;
    return;
  }
  s.finite = 1;
  const double wnorm = std::sqrt(s.w_squared);
  sc.ddnorm += (wnorm / rho) * (wnorm / rho);
  s.x_step = t1;
  s.w_v = 1;
  s.w_w = t2;
  // The rotation on the right estimating ||x||.
  const double delta = sc.sn2 * rho;
  const double gambar = -sc.cs2 * rho;
  const double rhs = phi - delta * sc.z;
  const double zbar = rhs / gambar;
  sc.xnorm = std::sqrt(sc.xxnorm + zbar * zbar);
  const double gamma = std::hypot(gambar, theta);
  sc.cs2 = gambar / gamma;
  sc.sn2 = theta / gamma;
  sc.z = rhs / gamma;
  sc.xxnorm += sc.z * sc.z;
  // Norm estimates and the stopping tests.
  sc.acond = sc.anorm * std::sqrt(sc.ddnorm);
  sc.res2 += psi * psi;
  sc.rnorm = std::sqrt(sc.phibar * sc.phibar + sc.res2);
  sc.arnorm = sc.alfa * std::fabs(tau);
  sc.r1norm = std::sqrt(std::fabs(sc.rnorm * sc.rnorm - p.dampsq * sc.xxnorm));
  sc.test1 = sc.rnorm / sc.bnorm;
  sc.test2 = sc.arnorm / sc.arnorm0;
  const double test3 = 1.0 / sc.acond;
  const double t1_machine = sc.test1 / (1.0 + sc.anorm * sc.xnorm / sc.bnorm);
  const double rtol = p.btol + p.atol * sc.anorm * sc.xnorm / sc.bnorm;
  int istop = 0;
  if (1.0 + test3 <= 1.0) istop = 6;
  if (1.0 + sc.test2 <= 1.0) istop = 5;
  if (1.0 + t1_machine <= 1.0) istop = 4;
  if (test3 <= p.ctol) istop = 3;
  if (sc.test2 <= p.atol) istop = 2;
  if (sc.test1 <= rtol) istop = 1;
  sc.istop = istop;
}

}  // namespace distlops::detail
