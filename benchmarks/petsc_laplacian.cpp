// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The PETSc peer of laplacian-cg and laplacian-apply (docs/benchmarks.md): the same 2-d Laplacian
// (axes (0, 1), centered, edge off: PyLops' rows, zero at the ends of each axis) assembled as
// an MPIAIJ matrix split by grid rows as distlops splits axis 0, x_true and y = A x_true from
// the same formula (key 21), timed like distlops_bench (barriers, slowest rank, median over
// repeats after one warm-up), printed as one JSON line with the check values of the driver:
//
//   mpiexec -n 2 build/benchmarks/petsc_laplacian --case laplacian-cg [--nx N --ny N
//           --niter 100 --repeats 3]     (N: 2048 for laplacian-cg, 4096 for laplacian-apply)
//
// laplacian-cg: KSPCG without preconditioner, x0 = 0, rtol = atol = 0 (weights -1, so that CG
// sees a positive semi-definite operator); checks cost_first (||y||) and model_error.
// laplacian-apply: MatMult + MatMultTranspose (weights 1) per repeat; checks norm_Lx.
// Built only where pkg-config finds PETSc: a peer to compare with, not a dependency.
#include <petscksp.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "distlops/core/random.hpp"

namespace {

#define CHECK_PETSC(call)                                                              \
  do {                                                                                 \
    const PetscErrorCode code_ = (call);                                               \
    if (code_ != 0) {                                                                  \
      std::fprintf(stderr, "petsc_laplacian: %s failed with code %d\n", #call, code_); \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                    \
    }                                                                                  \
  } while (0)

struct Options {
  std::string name = "laplacian-cg";
  PetscInt nx = 0, ny = 0, niter = 100, repeats = 3;  // sizes 0: the case's defaults
};

// The grid rows of `rank`: n / P + 1 for ranks below n % P, n / P after (distlops' split).
void grid_rows(PetscInt n, int rank, int size, PetscInt& first, PetscInt& count) {
  const PetscInt base = n / size, extra = n % size;
  count = base + (rank < extra ? 1 : 0);
  first = rank * base + std::min<PetscInt>(rank, extra);
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t m = values.size() / 2;
  return values.size() % 2 ? values[m] : 0.5 * (values[m - 1] + values[m]);
}

// Wall time of body() between barriers, the slowest rank's.
template <class F>
double timed(F&& body) {
  MPI_Barrier(PETSC_COMM_WORLD);
  const double start = MPI_Wtime();
  body();
  double elapsed = MPI_Wtime() - start, slowest = 0;
  MPI_Allreduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD);
  return slowest;
}

}  // namespace

int main(int argc, char** argv) {
  CHECK_PETSC(PetscInitialize(&argc, &argv, nullptr, nullptr));
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--case") {
      o.name = value;
    } else if (key == "--nx") {
      o.nx = std::stol(value);
    } else if (key == "--ny") {
      o.ny = std::stol(value);
    } else if (key == "--niter") {
      o.niter = std::stol(value);
    } else if (key == "--repeats") {
      o.repeats = std::stol(value);
    } else {
      std::fprintf(stderr, "petsc_laplacian: unknown option %s\n", key.c_str());
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  const bool solve = o.name == "laplacian-cg";
  if (!solve && o.name != "laplacian-apply") {
    std::fprintf(stderr, "petsc_laplacian: unknown case %s\n", o.name.c_str());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  // The driver's defaults: 2048 x 2048 for laplacian-cg, 4096 x 4096 for laplacian-apply.
  const PetscInt default_size = solve ? 2048 : 4096;
  if (o.nx == 0) o.nx = default_size;
  if (o.ny == 0) o.ny = default_size;
  int rank = 0, size = 1;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  PetscInt first = 0, rows = 0;
  grid_rows(o.nx, rank, size, first, rows);
  const PetscInt nx = o.nx, ny = o.ny, local = rows * ny;
  const PetscScalar weight = solve ? -1.0 : 1.0;

  Mat a;
  CHECK_PETSC(MatCreateAIJ(PETSC_COMM_WORLD, local, local, PETSC_DETERMINE, PETSC_DETERMINE, 5,
                           nullptr, 2, nullptr, &a));
  for (PetscInt i = first; i < first + rows; ++i) {
    for (PetscInt j = 0; j < ny; ++j) {
      PetscInt columns[5];
      PetscScalar values[5];
      int count = 0;
      const PetscInt row = i * ny + j;
      PetscScalar centre = 0;
      if (i > 0 && i < nx - 1) {  // second difference along axis 0
        columns[count] = row - ny;
        values[count++] = weight;
        columns[count] = row + ny;
        values[count++] = weight;
        centre += -2.0 * weight;
      }
      if (j > 0 && j < ny - 1) {  // along axis 1
        columns[count] = row - 1;
        values[count++] = weight;
        columns[count] = row + 1;
        values[count++] = weight;
        centre += -2.0 * weight;
      }
      if (count > 0) {
        columns[count] = row;
        values[count++] = centre;
      }
      CHECK_PETSC(MatSetValues(a, 1, &row, count, columns, values, INSERT_VALUES));
    }
  }
  CHECK_PETSC(MatAssemblyBegin(a, MAT_FINAL_ASSEMBLY));
  CHECK_PETSC(MatAssemblyEnd(a, MAT_FINAL_ASSEMBLY));

  Vec x_true, y, x, z;
  CHECK_PETSC(MatCreateVecs(a, &x_true, &y));
  CHECK_PETSC(VecDuplicate(x_true, &x));
  CHECK_PETSC(VecDuplicate(x_true, &z));
  {
    PetscScalar* values = nullptr;
    CHECK_PETSC(VecGetArray(x_true, &values));
    for (PetscInt k = 0; k < local; ++k) {
      values[k] = distlops::signed_uniform_value(21, static_cast<std::uint64_t>(first * ny + k));
    }
    CHECK_PETSC(VecRestoreArray(x_true, &values));
  }
  CHECK_PETSC(MatMult(a, x_true, y));
  PetscReal norm_y = 0;
  CHECK_PETSC(VecNorm(y, NORM_2, &norm_y));

  std::vector<double> seconds;
  PetscInt iterations = 0;
  double units = 2;  // applies per repeat
  char checks[256];
  if (solve) {
    KSP ksp;
    PC pc;
    CHECK_PETSC(KSPCreate(PETSC_COMM_WORLD, &ksp));
    CHECK_PETSC(KSPSetOperators(ksp, a, a));
    CHECK_PETSC(KSPSetType(ksp, KSPCG));
    CHECK_PETSC(KSPGetPC(ksp, &pc));
    CHECK_PETSC(PCSetType(pc, PCNONE));
    // Exactly niter iterations: no convergence test can stop it earlier.
    CHECK_PETSC(KSPSetTolerances(ksp, 0.0, 0.0, PETSC_DEFAULT, o.niter));
    CHECK_PETSC(KSPSetConvergenceTest(ksp, KSPConvergedSkip, nullptr, nullptr));
    CHECK_PETSC(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
    CHECK_PETSC(KSPSetUp(ksp));
    auto body = [&] {
      CHECK_PETSC(VecSet(x, 0.0));
      CHECK_PETSC(KSPSolve(ksp, y, x));
    };
    body();  // warm-up
    for (PetscInt r = 0; r < o.repeats; ++r)
      seconds.push_back(timed(body));
    CHECK_PETSC(KSPGetIterationNumber(ksp, &iterations));
    units = static_cast<double>(iterations);
    PetscReal error = 0, norm_true = 0;
    CHECK_PETSC(VecNorm(x_true, NORM_2, &norm_true));
    CHECK_PETSC(VecAXPY(x, -1.0, x_true));
    CHECK_PETSC(VecNorm(x, NORM_2, &error));
    std::snprintf(checks, sizeof checks,
                  "{\"iterations\":%ld,\"cost_first\":%.10g,\"model_error\":%.10g}",
                  static_cast<long>(iterations), static_cast<double>(norm_y),
                  static_cast<double>(error / norm_true));
    CHECK_PETSC(KSPDestroy(&ksp));
  } else {
    auto body = [&] {
      CHECK_PETSC(MatMult(a, x_true, y));
      CHECK_PETSC(MatMultTranspose(a, y, z));
    };
    body();
    for (PetscInt r = 0; r < o.repeats; ++r)
      seconds.push_back(timed(body));
    PetscReal norm_z = 0;
    CHECK_PETSC(VecNorm(z, NORM_2, &norm_z));
    std::snprintf(checks, sizeof checks, "{\"norm_Lx\":%.10g,\"norm_LtLx\":%.10g}",
                  static_cast<double>(norm_y), static_cast<double>(norm_z));
  }
  const double median = median_of(seconds);
  if (rank == 0) {
    std::printf(
        "{\"case\":\"%s\",\"ranks\":%d,\"peer\":\"PETSc %s\",\"parameters\":{\"nx\":%ld,"
        "\"ny\":%ld},\"median_seconds\":%.6g,\"seconds_per_unit\":%.6g,\"checks\":%s}\n",
        o.name.c_str(), size, solve ? "KSPCG" : "MatMult", static_cast<long>(nx),
        static_cast<long>(ny), median, median / units, checks);
  }
  CHECK_PETSC(VecDestroy(&x_true));
  CHECK_PETSC(VecDestroy(&y));
  CHECK_PETSC(VecDestroy(&x));
  CHECK_PETSC(VecDestroy(&z));
  CHECK_PETSC(MatDestroy(&a));
  CHECK_PETSC(PetscFinalize());
  return 0;
}
