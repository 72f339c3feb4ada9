// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The --set keys of every case: what its setup reads, and what the values must be. A case that
// reads a key not listed here raises (Parameters), so a new case adds its line at once; the
// driver checks every --set against these lists before any case runs.
#include <map>

#include "distlops/core/error.hpp"
#include "keys.hpp"

namespace distlops::bench {

namespace {

using Keys = std::vector<Key>;

Keys sizes(std::initializer_list<const char*> names) {
  Keys keys;
  for (const char* name : names)
    keys.push_back(integer_key(name));
  return keys;
}

Keys operator+(Keys a, const Keys& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The tables are made once and never destroyed: under SimGrid's SMPI every simulated rank runs
// in one process and initialises its own privatised copy of a function-local static, and at exit
// the process would run the destructor once per rank on the one copy mapped then (a double
// free after the simulation has ended).
const std::map<std::string, Keys>& host_keys() {
  static const auto* keys = new std::map<std::string, Keys>{
      {"firstderivative", sizes({"nx", "ny"})},
      {"laplacian-apply", sizes({"nx", "ny"})},
      {"blockdiag-cgls", sizes({"n", "niter"}) + Keys{real_key("max_model_error")}},
      {"tiny-cgls", sizes({"n", "niter"}) + Keys{real_key("max_model_error")}},
      {"user-cgls", sizes({"n", "niter"}) + Keys{real_key("max_model_error")}},
      {"laplacian-cg", sizes({"nx", "ny", "niter"}) + Keys{real_key("max_model_error")}},
      {"laplacian3d-cg",
       sizes({"n", "nx", "ny", "nz", "niter"}) +
           Keys{real_key("max_model_error"), choice_key("grid", {"slab", "pencil", "box"})}},
      {"vstack-cgls", sizes({"n", "m", "niter"}) + Keys{real_key("max_model_error")}},
      {"hstack-cgls", sizes({"n", "m", "niter"}) + Keys{real_key("max_model_error")}},
      {"fft2d",
       sizes({"nx", "ny"}) + Keys{choice_key("planning", {"estimate", "measure", "patient"})}},
      {"fft3d", sizes({"n", "nx", "ny", "nz"}) +
                    Keys{choice_key("grid", {"slab", "pencil"}),
                         choice_key("planning", {"estimate", "measure", "patient"})}},
      {"fftw2d",
       sizes({"nx", "ny"}) + Keys{choice_key("fftw_planning", {"estimate", "measure", "patient"})}},
      {"convolve2d", sizes({"nx", "ny", "kx", "ky"})},
      {"poststack", sizes({"nx", "nz", "niter"}) +
                        Keys{real_key("noise"), real_key("eps"), real_key("min_gain")}},
      {"primaldual-tv", sizes({"nx", "ny", "niter"}) + Keys{real_key("weight")}},
      {"kirchhoff-lsm", sizes({"nx", "nz", "ns", "nr", "niter"})},
      {"big-transfer", Keys{integer_key("n"), integer_key("chunk_bytes", 0)}},
      {"reshape", sizes({"n", "nx", "ny", "nz", "reference_repeats"})},
      {"pingpong", Keys{integer_key("bytes", 0), integer_key("count")}},
      {"io-hdf5", Keys{integer_key("n"), directory_key("dir"), integer_key("dd_mib")}},
  };
  return *keys;
}

const std::map<std::string, Keys>& device_keys() {
  static const auto* keys = new std::map<std::string, Keys>{
      {"small-allreduce", sizes({"values", "calls"})},
      {"small-allreduce-plain", sizes({"values", "calls"})},
      {"firstderivative", sizes({"nx", "ny"})},
      {"laplacian-apply", sizes({"nx", "ny"})},
      {"laplacian-cg", sizes({"nx", "ny", "niter"})},
      {"tiny-laplacian-cg", sizes({"nx", "ny", "niter"})},
      {"blockdiag-cgls", sizes({"n", "niter"})},
  };
  return *keys;
}

}  // namespace

const std::vector<Key>& case_keys(const std::string& name, bool device) {
  const auto& table = device ? device_keys() : host_keys();
  const auto found = table.find(name);
  if (found == table.end()) {
    throw std::logic_error("distlops_bench: case " + name +
                           " has no keys in benchmarks/case_keys.cpp (add its line there)");
  }
  return found->second;
}

}  // namespace distlops::bench
