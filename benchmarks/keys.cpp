// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "keys.hpp"

#include <charconv>
#include <cmath>
#include <set>
#include <sstream>

#include "distlops/core/error.hpp"
#include "support/exit_status.hpp"

namespace distlops::bench {

namespace {

/// `text` whole as a T, or false.
template <class T>
bool parse_whole(const std::string& text, T& value) {
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  return error == std::errc() && stop == end && !text.empty();
}

std::string format(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

std::string choices_text(const Key& key) {
  std::string text;
  for (std::size_t i = 0; i < key.choices.size(); ++i)
    text += (i ? "|" : "") + key.choices[i];
  return text;
}

}  // namespace

Key integer_key(const std::string& name, Index minimum) {
  return {name, Key::Kind::integer, static_cast<double>(minimum)};
}

Key real_key(const std::string& name, double minimum) {
  return {name, Key::Kind::real, minimum};
}

Key choice_key(const std::string& name, std::vector<std::string> choices) {
  return {name, Key::Kind::choice, 0, std::move(choices)};
}

Key directory_key(const std::string& name) {
  return {name, Key::Kind::directory, 0};
}

const Key& label_key() {
  static const Key key{"label", Key::Kind::text, 0};
  return key;
}

long long integer_value(const std::string& value) {
  long long number = 0;
  if (!parse_whole(value, number)) throw InvalidArgument("not a whole number: " + value);
  return number;
}

double real_value(const std::string& value) {
  double number = 0;
  if (!parse_whole(value, number)) throw InvalidArgument("not a number: " + value);
  return number;
}

std::string key_value_problem(const Key& key, const std::string& value) {
  switch (key.kind) {
    case Key::Kind::integer: {
      long long number = 0;
      if (!parse_whole(value, number)) return "expected a whole number";
      if (static_cast<double>(number) < key.minimum)
        return "expected at least " + format(key.minimum);
      return {};
    }
    case Key::Kind::real: {
      double number = 0;
      if (!parse_whole(value, number) || !std::isfinite(number)) return "expected a finite number";
      if (number < key.minimum) return "expected at least " + format(key.minimum);
      return {};
    }
    case Key::Kind::choice:
      for (const std::string& choice : key.choices) {
        if (value == choice) return {};
      }
      return "expected one of " + choices_text(key);
    case Key::Kind::directory:
      return value.empty() ? "expected a directory" : std::string();
    case Key::Kind::text:
      return {};
  }
  return {};
}

std::string describe(const Key& key) {
  switch (key.kind) {
    case Key::Kind::integer:
      return key.name + " (whole number >= " + format(key.minimum) + ")";
    case Key::Kind::real:
      return key.name + " (number >= " + format(key.minimum) + ")";
    case Key::Kind::choice:
      return key.name + " (" + choices_text(key) + ")";
    case Key::Kind::directory:
      return key.name + " (directory, written in)";
    case Key::Kind::text:
      return key.name + " (any text)";
  }
  return key.name;
}

std::vector<std::pair<std::string, std::string>> check_settings(
    const std::map<std::string, std::string>& given, const std::vector<std::string>& names,
    bool device) {
  // Every key of the selection, once, with the cases that read it.
  std::map<std::string, std::vector<std::pair<std::string, const Key*>>> readers;
  for (const std::string& name : names) {
    for (const Key& key : case_keys(name, device))
      readers[key.name].emplace_back(name, &key);
  }
  auto valid_keys = [&] {
    std::string list;
    for (const auto& [name, takers] : readers)
      list += "\n  " + describe(*takers.front().second);
    return list + "\n  " + describe(label_key());
  };
  std::vector<std::pair<std::string, std::string>> directories;
  for (const auto& [name, value] : given) {
    if (name == label_key().name) continue;
    const auto found = readers.find(name);
    if (found == readers.end()) {
      throw examples::ExitError(
          examples::exit_status::usage,
          "--set " + name + "=" + value + ": no selected case takes the key " + name +
              "; the keys of the selected cases are (--list gives each case's):" + valid_keys());
    }
    for (const auto& [case_name, key] : found->second) {
      const std::string problem = key_value_problem(*key, value);
      if (!problem.empty()) {
        throw examples::ExitError(
            examples::exit_status::usage,
            "--set " + name + "=" + value + ": " + problem + " (case " + case_name + ")");
      }
    }
    if (found->second.front().second->kind == Key::Kind::directory)
      directories.emplace_back(name, value);
  }
  return directories;
}

}  // namespace distlops::bench
