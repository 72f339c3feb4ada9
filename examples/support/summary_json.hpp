// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The summary.json of an example, written by nlohmann-json (compiled once, in
// summary_json.cpp): keys in the order given, strings escaped, and NaN or infinite numbers,
// which JSON cannot hold, written as null.
#include <memory>
#include <string>
#include <vector>

namespace distlops::examples {

class JsonSummary {
 public:
  JsonSummary();
  ~JsonSummary();
  JsonSummary(const JsonSummary&) = delete;
  JsonSummary& operator=(const JsonSummary&) = delete;

  /// A number; null when it is NaN or infinite.
  JsonSummary& number(const std::string& key, double value);
  JsonSummary& integer(const std::string& key, long long value);
  JsonSummary& text(const std::string& key, const std::string& value);
  JsonSummary& flag(const std::string& key, bool value);
  JsonSummary& null(const std::string& key);
  /// An array of numbers; NaN and infinite ones are null.
  JsonSummary& numbers(const std::string& key, const std::vector<double>& values);

  /// The document, indented by two spaces.
  std::string dump() const;
  /// Writes dump() to `path`; throws IoError naming it when it cannot.
  void write(const std::string& path) const;

 private:
  struct Document;
  std::unique_ptr<Document> document_;
};

}  // namespace distlops::examples
