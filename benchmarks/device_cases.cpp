#include "device_cases.hpp"

#if DISTLOPS_WITH_CUDA
#include "distlops/core/cuda_context.hpp"
#endif

namespace distlops::bench {

#if DISTLOPS_WITH_CUDA
namespace {

constexpr double word = sizeof(double);

// A forward and an adjoint apply of `op` on device arrays of `layout`; the repeat ends when
// the device is idle. Each apply reads its input and writes its output once.
Run stencil_run(const LinearOperator<double, Cuda>& op, const Layout& layout, const char* forward,
                const char* adjoint, int repeats) {
  auto x = std::make_shared<DistributedArray<double, Cuda>>(layout);
  auto y = std::make_shared<DistributedArray<double, Cuda>>(layout);
  auto z = std::make_shared<DistributedArray<double, Cuda>>(layout);
  fill_random(*x, 31);
  Run run;
  run.body = [=] {
    op.apply(*x, *y);
    op.apply_adjoint(*y, *z);
    cuda::Context::get().synchronize();
  };
  run.units = 2;
  run.unit_name = "apply";
  run.bytes_per_unit = 2.0 * word * double(layout.global_size());
  run.checks = [=] { return std::vector<Check>{{forward, y->norm()}, {adjoint, z->norm()}}; };
  run.default_repeats = repeats;
  return run;
}

}  // namespace

std::vector<Case> device_cases() {
  return {
      {"firstderivative",
       "forward + adjoint FirstDerivative (centered, order 3) along axis 0, on the device",
       [](const Communicator& comm, const Parameters& p) {
         const Index nx = p.integer("nx", 4096), ny = p.integer("ny", 4096);
         const Layout layout(comm, {nx, ny});
         return stencil_run(FirstDerivative<double, Cuda>(layout, {.axis = 0, .order = 3}), layout,
                            "norm_Dx", "norm_DtDx", 20);
       }},
      {"laplacian-apply", "forward + adjoint 2-d Laplacian split along axis 0, on the device",
       [](const Communicator& comm, const Parameters& p) {
         const Index nx = p.integer("nx", 4096), ny = p.integer("ny", 4096);
         const Layout layout(comm, {nx, ny});
         return stencil_run(Laplacian<double, Cuda>(layout, {.axes = {0, 1}}), layout, "norm_Lx",
                            "norm_LtLx", 10);
       }},
  };
}
#else
std::vector<Case> device_cases() {
  return {};
}
#endif

}  // namespace distlops::bench
