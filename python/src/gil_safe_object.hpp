// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file gil_safe_object.hpp
/// GilSafeObject: a Python object (a callable) kept inside library objects that may be
/// destroyed without the GIL (operators, proximal operators released at the end of a solve).

#include <nanobind/nanobind.h>

#include <utility>

namespace distlops::python {

namespace nb = nanobind;

/// Holds a Python object in C++ code that may drop it without the GIL (an operator released
/// at the end of a solve): the last reference is dropped with the GIL taken.
class GilSafeObject {
 public:
  explicit GilSafeObject(nb::object object) : object_(std::move(object)) {}
  GilSafeObject(const GilSafeObject&) = delete;
  GilSafeObject& operator=(const GilSafeObject&) = delete;
  ~GilSafeObject() {
    if (Py_IsInitialized() != 0) {
      nb::gil_scoped_acquire gil;
      object_.reset();
    } else {
      object_.release();  // the interpreter is gone: nothing left to free
    }
  }
  const nb::object& get() const { return object_; }

 private:
  nb::object object_;
};

}  // namespace distlops::python
