#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The distlops authors
# Writes the places a new operator needs, for a working placeholder operator that the author
# then turns into the real one (docs/architecture.md, "Adding an operator"):
#
#   bash scripts/new_operator.sh NAME GROUP
#
# NAME is the operator's name in CamelCase (PyLops' name: Cumsum, SecondDirectionalDerivative);
# GROUP is the group it joins, a folder of operators/ (dense, derivative, local, signal, stack,
# waveeq). The placeholder is the scaled identity y = scale x (adjoint conj(scale) y), on one
# rank's array (local::NAME) and on the blocks of a DistributedArray (NAME), with its own
# kernel in both memory spaces, a test against its serial reference, the Python binding of both
# forms (Python names NAME and MPINAME) and a row of the catalogue. Everything builds, and the
# test passes, before the author changes anything. The files, with name the snake_case of NAME:
#
#   include/distlops/operators/GROUP/name.hpp   the factories' declarations and documentation
#   operators/GROUP/name.cpp                     the algorithm, its checks and their agreement
#                                                across ranks, the distributed form
#   operators/GROUP/name_kernels.hpp             the kernel, declared for both spaces
#   operators/host/name_kernels.cpp              its host definition
#   operators/cuda/name_kernels.cu               its device definition
#   tests/operators/GROUP/test_name.cpp          serial reference and dot tests, 1-4 ranks, every
#                                                space (registered by tests/operators/CMakeLists.txt)
#   python/src/GROUP.cpp                         two lines: the binding of both factories
#   docs/operators.md                            the catalogue row
#   include/distlops/distlops.hpp                one include line (nothing to fill)
#
# The build finds the new sources by folder; the Python package wraps every bound factory
# (python/distlops/_factories.py), so a new operator needs no other edit. The script refuses to
# overwrite anything and changes nothing when it cannot write every place.
set -euo pipefail

usage() {
  echo "usage: $0 NAME GROUP   (NAME in CamelCase, GROUP a folder of operators/)" >&2
  exit 2
}
[[ $# -eq 2 ]] || usage
name=$1
group=$2
[[ $name =~ ^[A-Z][A-Za-z0-9]*$ ]] || { echo "$0: NAME must be CamelCase, got '$name'" >&2; exit 2; }
[[ $group =~ ^[a-z][a-z0-9_]*$ ]] || { echo "$0: GROUP must be a folder name, got '$group'" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
if [[ ! -d operators/$group || $group == host || $group == cuda ]]; then
  echo "$0: no operator group '$group'; the groups are:" \
    "$(cd operators && ls -d */ | tr -d / | grep -v -x -e host -e cuda | tr '\n' ' ')" >&2
  exit 2
fi
# NonStationaryConvolve1D -> non_stationary_convolve1d: an underscore before a capital that
# follows a lower-case letter.
snake=$(sed -E 's/([a-z])([A-Z])/\1_\2/g' <<<"$name" | tr '[:upper:]' '[:lower:]')
upper=$(tr '[:lower:]' '[:upper:]' <<<"$snake")

header=include/distlops/operators/$group/$snake.hpp
source=operators/$group/$snake.cpp
kernels=operators/$group/${snake}_kernels.hpp
host=operators/host/${snake}_kernels.cpp
device=operators/cuda/${snake}_kernels.cu
test=tests/operators/$group/test_$snake.cpp
binding=python/src/$group.cpp
catalogue=docs/operators.md
for file in "$header" "$source" "$kernels" "$host" "$device" "$test"; do
  if [[ -e $file ]]; then
    echo "$0: $file exists; choose another name" >&2
    exit 1
  fi
done
marker="// new_operator.sh: bindings of new operators above this line"
grep -qF "$marker" "$binding" || { echo "$0: $binding has no line '$marker'" >&2; exit 1; }
row_marker="<!-- new_operator.sh: rows of new operators above this line -->"
grep -qF "$row_marker" "$catalogue" || { echo "$0: $catalogue has no line '$row_marker'" >&2; exit 1; }
grep -qE "\"(local_)?$name\"" python/src/*.cpp && { echo "$0: $name is bound already" >&2; exit 1; }

# Writes stdin to $1 with the placeholders replaced.
emit() {
  mkdir -p "$(dirname "$1")"
  sed -e "s/@NAME@/$name/g" -e "s/@SNAKE@/$snake/g" -e "s/@UPPER@/$upper/g" \
      -e "s/@GROUP@/$group/g" >"$1"
}

emit "$header" <<'EOF'
// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file @SNAKE@.hpp
/// `@NAME@`: the placeholder of scripts/new_operator.sh, the scaled identity y = scale x
/// (adjoint x = conj(scale) y) on one rank's arrays (`local::@NAME@`) and on each rank's block
/// of a DistributedArray (`@NAME@`, no communication). Replace it with the operator's
/// definition: the formula, PyLops' name and arguments, the shapes of domain and range, the
/// differences from PyLops, the errors.

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops {

namespace local {

/// @NAME@ of arrays of shape `dims`.
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> @NAME@(const Shape& dims, T scale);

}  // namespace local

/// @NAME@ of the arrays of `layout` (domain and range). Collective.
template <Scalar T, MemorySpace Space = Host>
LinearOperator<T, Space> @NAME@(const Layout& layout, T scale);

/// \cond
#define DISTLOPS_DETAIL_@UPPER@(PREFIX, T, S) \
  PREFIX template LocalOperator<T, S> local::@NAME@<T, S>(const Shape&, T); \
  PREFIX template LinearOperator<T, S> @NAME@<T, S>(const Layout&, T);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_@UPPER@, extern)
/// \endcond

}  // namespace distlops
EOF

emit "$source" <<'EOF'
// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// @NAME@: the local operator, written once for every memory space (checks, data moved into the
// space, kernel calls of @SNAKE@_kernels.hpp), and the distributed one, a block per rank.
#include "distlops/operators/@GROUP@/@SNAKE@.hpp"

#include <cmath>

#include "../support.hpp"
#include "../two_way_operator.hpp"
#include "@SNAKE@_kernels.hpp"
#include "distlops/core/collective_check.hpp"
#include "distlops/operators/reshape.hpp"
#include "distlops/operators/stack/block_diag.hpp"
#include "distlops/operators/stack/replicated.hpp"

namespace distlops {

namespace {

// The checks of both forms' arguments: InvalidArgument naming the operator. (Names here must
// be unique in the library: the sources are compiled in unity batches.)
template <class T>
void check_@SNAKE@_arguments(const Shape& dims, T scale) {
  detail::check_shape("@NAME@", "dims", dims);
  if (!std::isfinite(std::abs(scale))) throw InvalidArgument("@NAME@: the scale is not finite");
}

// The operator: forward and adjoint are one computation in two directions (two_way_operator.hpp),
// here the factor that multiplies the input, scale or conj(scale).
template <Scalar T, MemorySpace Space>
class @NAME@Operator final : public detail::TwoWayOperator<T, Space, T> {
 public:
  @NAME@Operator(const Shape& dims, T scale)
      : detail::TwoWayOperator<T, Space, T>(dims, dims, "@NAME@") {
    check_@SNAKE@_arguments(dims, scale);
    this->forward_ = scale;
    this->adjoint_ = conjugate(scale);
  }

 private:
  void apply(const T& factor, T alpha, const T* in, T beta, T* out) const override {
    kernels::@SNAKE@(Space{}, element_count(this->domain()), alpha * factor, in, beta, out);
  }
};

}  // namespace

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> local::@NAME@(const Shape& dims, T scale) {
  return LocalOperator<T, Space>::template make<@NAME@Operator<T, Space>>(dims, scale);
}

template <Scalar T, MemorySpace Space>
LinearOperator<T, Space> @NAME@(const Layout& layout, T scale) {
  const Communicator& comm = layout.communicator();
  // Each rank passes its own arguments: every rank must pass the same (their fingerprint), and
  // an error on any rank is raised on all before anyone enters a collective.
  Fingerprint arguments;
  arguments.add(layout.fingerprint()).add(scale);
  collective_check(comm, arguments, "@NAME@'s arguments",
                   [&] { check_@SNAKE@_arguments(layout.global_shape(), scale); });
  const LocalOperator<T, Space> block = local::@NAME@<T, Space>(layout.local_shape(), scale);
  if (layout.replicated()) {
    return reshape(Replicated(block, comm, layout.partition()), layout, layout);
  }
  return reshape(BlockDiag({block}, comm), layout, layout);
}

DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_@UPPER@, )

}  // namespace distlops
EOF

emit "$kernels" <<'EOF'
// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The kernel of @NAME@, one definition per memory space (operators/host/ and
// operators/cuda/@SNAKE@_kernels.*). Pointers are memory of the space.
#include "distlops/core/instantiate.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

namespace distlops::kernels {

/// out[i] = scale * in[i] + beta * out[i] for i < n (out not read when beta == 0).
template <Scalar T>
void @SNAKE@(Host, Index n, T scale, const T* in, T beta, T* out);
template <Scalar T>
void @SNAKE@(Cuda, Index n, T scale, const T* in, T beta, T* out);

// The instantiations of both definitions (instantiate.hpp).
#define DISTLOPS_DETAIL_@UPPER@_KERNELS(PREFIX, T, S) \
  PREFIX template void @SNAKE@<T>(S, Index, T, const T*, T, T*);

}  // namespace distlops::kernels
EOF

emit "$host" <<'EOF'
// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// @NAME@ on the host (@SNAKE@_kernels.hpp).
#include "../@GROUP@/@SNAKE@_kernels.hpp"

namespace distlops::kernels {

template <Scalar T>
void @SNAKE@(Host, Index n, T scale, const T* in, T beta, T* out) {
  for (Index i = 0; i < n; ++i)
    out[i] = beta == T(0) ? scale * in[i] : scale * in[i] + beta * out[i];
}

DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_@UPPER@_KERNELS, , ::distlops::Host)

}  // namespace distlops::kernels
EOF

emit "$device" <<'EOF'
// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// @NAME@ on the device (@SNAKE@_kernels.hpp): a grid-stride loop over the points, with the
// arithmetic of pointwise.hpp.
#include "../@GROUP@/@SNAKE@_kernels.hpp"
#include "distlops/core/detail/cuda_launch.cuh"

namespace distlops::kernels {

namespace {

using namespace device;
namespace pw = pointwise;

template <class D>
__global__ void @SNAKE@_kernel(Index n, D scale, const D* in, D beta, D* out) {
  for (Index p = first_index(); p < n; p += grid_stride())
    out[p] = accumulate(pw::multiply(scale, in[p]), beta, out + p);
}

}  // namespace

template <Scalar T>
void @SNAKE@(Cuda, Index n, T scale, const T* in, T beta, T* out) {
  launch_elements("@NAME@ kernel launch", n, @SNAKE@_kernel<scalar_t<T>>, value(scale),
                  pointer(in), value(beta), pointer(out));
}

DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_@UPPER@_KERNELS, , ::distlops::Cuda)

}  // namespace distlops::kernels
EOF

emit "$test" <<'EOF'
// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// @NAME@ against its serial reference, the matrix built here from the operator's definition
// (the placeholder: scale times the identity; replace it with the operator's own): the local
// operator on 1-d to 3-d arrays, the distributed one on uneven splits with ranks that hold
// nothing and on replicated arrays, at 1 to 4 ranks; dot tests; bad arguments raised on every
// rank. In every memory space.
#include "dense_reference.hpp"
#include "distlops/operators/@GROUP@/@SNAKE@.hpp"
#include "expect_everywhere.hpp"
#include "local_operator_checks.hpp"
#include "spaces.hpp"
#include "test_support.hpp"

using namespace distlops;
using namespace distlops::testing;

namespace {

// The matrix of @NAME@ on arrays of `dims`, entry by entry from the definition.
template <class T>
DenseMatrix<T> reference_matrix(const Shape& dims, T scale) {
  const Index n = element_count(dims);
  DenseMatrix<T> m = DenseMatrix<T>::Zero(n, n);
  for (Index i = 0; i < n; ++i)
    m(i, i) = scale;
  return m;
}

}  // namespace

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("local @NAME@ matches its reference", "[@SNAKE@][local]",
                                  DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const T scale = random_scalar<T>(1);
  for (const Shape& dims : {Shape{7}, Shape{4, 3}, Shape{2, 3, 4}}) {
    INFO("dims " << to_string(dims));
    check_local_operator(local::@NAME@<T, Space>(dims, scale), reference_matrix(dims, scale), dims,
                         dims);
  }
}

DISTLOPS_SPACE_TEMPLATE_TEST_CASE("distributed @NAME@ matches its reference on every layout",
                                  "[@SNAKE@][distributed]", DISTLOPS_SCALAR_TYPES) {
  using T = TestType;
  const Communicator comm = world();
  const double rtol = 10 * space_tolerance<T, Space>();
  const T scale = random_scalar<T>(2);
  // Rank 0 holds the rows the others leave; rank r > 0 holds r % 2 rows: even ranks none.
  std::vector<Shape> uneven(static_cast<std::size_t>(comm.size()), Shape{0, 3});
  Index rest = 7;
  for (int r = 1; r < comm.size(); ++r) {
    uneven[static_cast<std::size_t>(r)][0] = r % 2;
    rest -= r % 2;
  }
  uneven[0][0] = rest;
  const std::vector<Layout> layouts = {
      Layout(comm, {9, 4}), Layout(comm, {3, 8}, Partition::SCATTER, 1),
      Layout(comm, {5, 2}, Partition::BROADCAST), Layout(comm, {7, 3}, LayoutOptions{.local_shapes = uneven})};
  for (const Layout& layout : layouts) {
    INFO("layout " << layout.describe());
    const auto op = @NAME@<T, Space>(layout, scale);
    CHECK(op.domain() == layout);
    CHECK(op.range() == layout);
    const DenseMatrix<T> reference = reference_matrix(layout.global_shape(), scale);
    DistributedArray<T, Space> x(layout), y(layout);
    fill_random(x, 3);
    fill_random(y, 4);
    CHECK(matrices_close(DenseMatrix<T>(global_vector(op.apply(x))),
                         DenseMatrix<T>(reference * global_vector(x)), rtol));
    CHECK(matrices_close(DenseMatrix<T>(global_vector(op.apply_adjoint(y))),
                         DenseMatrix<T>(reference.adjoint() * global_vector(y)), rtol));
    CHECK(dottest(op, 5, space_dottest_tolerance<T, Space>()).passed);
  }
  expect_in_step(comm);
}

TEMPLATE_TEST_CASE("@NAME@ rejects bad arguments on every rank", "[@SNAKE@][errors]", float,
                   std::complex<double>) {
  using T = TestType;
  const Communicator comm = world();
  const Layout layout(comm, {6, 2});
  const T nan(std::numeric_limits<double>::quiet_NaN());
  expect_everywhere<InvalidArgument>(
      comm, [&] { (void)@NAME@<T>(layout, nan); }, "@NAME@: the scale is not finite");
  if (comm.size() > 1) {
    // Bad on one rank only, or different on one rank: every rank raises.
    const T scale = comm.rank() == 1 ? nan : T(2);
    expect_everywhere<InvalidArgument>(
        comm, [&] { (void)@NAME@<T>(layout, scale); }, "the scale is not finite");
    const T other(comm.rank() == 1 ? 3 : 2);
    expect_everywhere<InvalidArgument>(
        comm, [&] { (void)@NAME@<T>(layout, other); }, "@NAME@'s arguments differs between ranks");
  }
  CHECK_THROWS_AS(local::@NAME@<T>(Shape{}, T(1)), InvalidArgument);
}
EOF

# The Python binding of both forms above the marker of the group's binding unit, the catalogue
# row above the catalogue's marker.
insert_above() {  # file marker line...
  local file=$1 marker=$2
  shift 2
  LINES=$(printf '%s\n' "$@") MARKER=$marker awk \
    'index($0, ENVIRON["MARKER"]) { printf "%s", ENVIRON["LINES"] } { print }' "$file" >"$file.new"
  mv "$file.new" "$file"
}
insert_above "$binding" "$marker" \
  "  factories.local(\"$name\", []<class T>() { return &local::$name<T, Host>; });" \
  "  factories.distributed(\"$name\", []<class T>() { return &$name<T, Host>; });"
insert_above "$catalogue" "$row_marker" \
  "| \`$name<T>(layout, scale)\`, \`local::$name<T>(dims, scale)\` | \`$group/$snake.hpp\` | the placeholder of scripts/new_operator.sh: y = scale x on each rank's block | (PyLops' name) | \`MPI$name\`, \`$name\` | one kernel (\`${snake}_kernels.cu\`) |"

# The header in the umbrella header, in order.
include_line="#include \"distlops/operators/$group/$snake.hpp\""
INCLUDE=$include_line awk 'BEGIN { line = ENVIRON["INCLUDE"] }
  !done && /^#include "distlops\// && $0 > line { print line; done = 1 } { print }' \
  include/distlops/distlops.hpp >include/distlops/distlops.hpp.new
mv include/distlops/distlops.hpp.new include/distlops/distlops.hpp

if command -v clang-format >/dev/null; then
  clang-format -i "$header" "$source" "$kernels" "$host" "$device" "$test" "$binding"
fi
printf '%s\n' "$name (group $group): written" "  $header" "  $source" "  $kernels" "  $host" \
  "  $device" "  $test" "  $binding (two lines)" "  $catalogue (one row)" \
  "  include/distlops/distlops.hpp (one include)" \
  "Build (the build finds the sources by folder), run test_${group}_$snake, then fill the places" \
  "of docs/architecture.md's checklist."
