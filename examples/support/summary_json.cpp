// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "summary_json.hpp"

#include <fstream>
#include <nlohmann/json.hpp>

#include "distlops/core/error.hpp"

namespace distlops::examples {

struct JsonSummary::Document {
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
};

JsonSummary::JsonSummary() : document_(std::make_unique<Document>()) {}

JsonSummary::~JsonSummary() = default;

// nlohmann-json writes a non-finite double as null itself; the summaries rely on that.
JsonSummary& JsonSummary::number(const std::string& key, double value) {
  document_->json[key] = value;
  return *this;
}

JsonSummary& JsonSummary::integer(const std::string& key, long long value) {
  document_->json[key] = value;
  return *this;
}

JsonSummary& JsonSummary::text(const std::string& key, const std::string& value) {
  document_->json[key] = value;
  return *this;
}

JsonSummary& JsonSummary::flag(const std::string& key, bool value) {
  document_->json[key] = value;
  return *this;
}

JsonSummary& JsonSummary::null(const std::string& key) {
  document_->json[key] = nullptr;
  return *this;
}

JsonSummary& JsonSummary::numbers(const std::string& key, const std::vector<double>& values) {
  document_->json[key] = values;
  return *this;
}

std::string JsonSummary::dump() const {
  // replace: a stray byte of a user's string (a file name) cannot abort the summary.
  return document_->json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
         "\n";
}

void JsonSummary::write(const std::string& path) const {
  std::ofstream file(path);
  file << dump();
  file.close();
  if (!file) throw IoError("cannot write " + path);
}

}  // namespace distlops::examples
