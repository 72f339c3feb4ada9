// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The keys of --set: the keys each case reads and what their values must be (case_keys.cpp),
// against which the driver checks every --set before any case runs, so that a typo (--set
// nn=5) or a bad value is an error that lists the keys instead of a run at the default size.
#include <map>
#include <string>
#include <vector>

#include "distlops/core/types.hpp"

namespace distlops::bench {

struct Key {
  enum class Kind { integer, real, choice, directory, text };
  std::string name;
  Kind kind = Kind::integer;
  /// integer and real: the least value allowed.
  double minimum = 1;
  /// choice: the values allowed.
  std::vector<std::string> choices = {};
};

/// A whole number of at least `minimum` (sizes and counts: 1).
Key integer_key(const std::string& name, Index minimum = 1);
/// A finite number of at least `minimum`.
Key real_key(const std::string& name, double minimum = 0);
/// One of `choices`.
Key choice_key(const std::string& name, std::vector<std::string> choices);
/// A directory the case writes in: made when missing and proved writable before any case runs.
Key directory_key(const std::string& name);

/// --set label=TEXT: free text that every case takes, copied into each JSON line's "settings"
/// to tell runs apart.
const Key& label_key();

/// What is wrong with `value` for `key`, or an empty string when nothing is (a directory's
/// existence and rights are checked apart, collectively).
std::string key_value_problem(const Key& key, const std::string& value);

/// The integer and real values of keys that pass key_value_problem.
long long integer_value(const std::string& value);
double real_value(const std::string& value);

/// One line per key for --list and the errors: "nx (whole number >= 1)".
std::string describe(const Key& key);

/// The keys the case called `name` reads, in the host space or (`device`) with --space cuda.
/// Adding a case adds its keys in case_keys.cpp: a case that reads a key not listed there
/// raises (Parameters).
const std::vector<Key>& case_keys(const std::string& name, bool device);

/// Checks every key given with --set against the keys of the cases called `names` (the
/// selected ones) and label_key(): an unknown key, or a value that a case taking the key
/// refuses, throws examples::ExitError with exit_status::usage, its message listing the keys of
/// the selection. Returns the (key, value) pairs of directory keys, to prepare before the work.
std::vector<std::pair<std::string, std::string>> check_settings(
    const std::map<std::string, std::string>& given, const std::vector<std::string>& names,
    bool device);

}  // namespace distlops::bench
