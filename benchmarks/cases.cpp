#include "cases.hpp"

namespace distlops::bench {

namespace {

constexpr double word = sizeof(double);

// firstderivative: one forward and one adjoint centered (order 3) first derivative along
// axis 0 of an (nx, ny) array split along axis 0. Each apply reads its input once and
// writes its output once: 2 nx ny words.
Case first_derivative_case() {
  return {"firstderivative", "forward + adjoint FirstDerivative (centered, order 3) along axis 0",
          [](const Communicator& comm, const Parameters& p) {
            const Index nx = p.integer("nx", 4096), ny = p.integer("ny", 4096);
            const Layout layout(comm, {nx, ny});
            const auto op = FirstDerivative<double>(layout, {.axis = 0, .order = 3});
            auto x = std::make_shared<DistributedArray<double>>(layout);
            auto y = std::make_shared<DistributedArray<double>>(layout);
            auto z = std::make_shared<DistributedArray<double>>(layout);
            fill_random(*x, 31);
            Run run;
            run.body = [=] {
              op.apply(*x, *y);
              op.apply_adjoint(*y, *z);
            };
            run.units = 2;
            run.unit_name = "apply";
            run.bytes_per_unit = 2.0 * word * double(nx * ny);
            run.checks = [=] {
              return std::vector<Check>{{"norm_Dx", y->norm()}, {"norm_DtDx", z->norm()}};
            };
            run.default_repeats = 20;
            return run;
          }};
}

// laplacian-apply: one forward and one adjoint 2-d Laplacian (axes (0, 1), centered, edge
// off, weights 1) of an (nx, ny) array split along axis 0: 2 nx ny words per apply.
Case laplacian_apply_case() {
  return {"laplacian-apply", "forward + adjoint 2-d Laplacian of an array split along axis 0",
          [](const Communicator& comm, const Parameters& p) {
            const Index nx = p.integer("nx", 4096), ny = p.integer("ny", 4096);
            const Layout layout(comm, {nx, ny});
            const auto op = Laplacian<double>(layout, {.axes = {0, 1}});
            auto x = std::make_shared<DistributedArray<double>>(layout);
            auto y = std::make_shared<DistributedArray<double>>(layout);
            auto z = std::make_shared<DistributedArray<double>>(layout);
            fill_random(*x, 21);
            Run run;
            run.body = [=] {
              op.apply(*x, *y);
              op.apply_adjoint(*y, *z);
            };
            run.units = 2;
            run.unit_name = "apply";
            run.bytes_per_unit = 2.0 * word * double(nx * ny);
            run.checks = [=] {
              return std::vector<Check>{{"norm_Lx", y->norm()}, {"norm_LtLx", z->norm()}};
            };
            run.default_repeats = 10;
            return run;
          }};
}

}  // namespace

std::vector<Case> all_cases() {
  return {first_derivative_case(), laplacian_apply_case(), poststack_case()};
}

}  // namespace distlops::bench
