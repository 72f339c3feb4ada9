// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Shared libraries opened on first use (detail/dynamic_library.hpp).
#include "distlops/core/detail/dynamic_library.hpp"

#include <dlfcn.h>

#include <utility>

#include "distlops/core/error.hpp"

namespace distlops::cuda {

namespace {

// dlerror()'s message for the last failure, which it clears.
std::string loader_message() {
  const char* message = dlerror();
  return message ? message : "no message from the dynamic loader";
}

}  // namespace

DynamicLibrary::DynamicLibrary(std::string what, std::initializer_list<const char*> candidates)
    : what_(std::move(what)) {
  std::string tried;
  for (const char* candidate : candidates) {
    if (candidate == nullptr || *candidate == '\0') continue;
    // RTLD_LOCAL: the library's symbols serve only the functions resolved here.
    handle_ = dlopen(candidate, RTLD_NOW | RTLD_LOCAL);
    if (handle_) {
      loaded_from_ = candidate;
      return;
    }
    tried += std::string(tried.empty() ? "" : "; ") + candidate + ": " + loader_message();
  }
  throw DeviceError(what_ + " cannot be loaded (" + (tried.empty() ? "no file named" : tried) +
                    ")");
}

void* DynamicLibrary::symbol(const char* name) const {
  dlerror();  // so that the message below is this lookup's
  void* address = dlsym(handle_, name);
  if (address == nullptr) {
    throw DeviceError(what_ + " (" + loaded_from_ + ") lacks the function " + name + " (" +
                      loader_message() + ")");
  }
  return address;
}

}  // namespace distlops::cuda
