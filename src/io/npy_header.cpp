// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The .npy header: a small recursive-descent parser of the Python dictionary literal NumPy
// writes, and the formatter that reproduces numpy.save's header byte for byte. No MPI here:
// the parser is also built into the fuzz target.
#include "distlops/io/npy_header.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

#include "distlops/core/detail/enum_names.hpp"
#include "distlops/core/error.hpp"

namespace distlops::io {

namespace {

constexpr unsigned char magic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
constexpr std::size_t magic_size = sizeof(magic);
constexpr std::size_t version_end = magic_size + 2;
// NumPy aligns the start of the data to this many bytes.
constexpr std::size_t array_align = 64;
// NumPy leaves room for the first axis to grow to this many digits.
constexpr std::size_t growth_axis_max_digits = 21;

[[noreturn]] void fail(const std::string& message) {
  throw IoError(".npy header: " + message);
}

std::string hex_bytes(std::span<const std::byte> bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string text;
  for (std::byte b : bytes) {
    const auto value = std::to_integer<unsigned>(b);
    if (!text.empty()) text += ' ';
    text += digits[value >> 4];
    text += digits[value & 15];
  }
  return text;
}

// Bytes of the header length field for a version (0 for unsupported versions).
std::size_t length_field_size(unsigned major, unsigned minor) {
  if (minor != 0) return 0;
  if (major == 1) return 2;
  if (major == 2 || major == 3) return 4;
  return 0;
}

// A printable rendering of a character for messages.
std::string quoted_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
  static constexpr char digits[] = "0123456789abcdef";
  return std::string("byte 0x") + digits[u >> 4] + digits[u & 15];
}

// Recursive-descent parser of the header dictionary. Positions in messages are offsets into
// the dictionary text (0 = the first byte after the length field).
class DictParser {
 public:
  DictParser(std::string_view text, bool python2_longs) : text_(text), longs_(python2_longs) {}

  NpyHeader parse() {
    skip_space();
    expect('{', "the header must start with '{'");
    std::optional<std::string> descr;
    std::optional<bool> fortran_order;
    std::optional<Shape> shape;
    for (;;) {
      skip_space();
      if (peek() == '}') {
        ++pos_;
        break;
      }
      const std::size_t key_pos = pos_;
      const std::string key = parse_string("a key in quotes or '}'");
      skip_space();
      expect(':', "expected ':' after key '" + key + "'");
      skip_space();
      if (key == "descr") {
        if (descr) fail_at(key_pos, "duplicate key 'descr'");
        if (peek() == '[' || peek() == '(') {
          fail_at(pos_,
                  "unsupported dtype: structured or sub-array dtypes (a list or tuple as "
                  "'descr') are not supported");
        }
        descr = parse_string("a string as the value of 'descr'");
      } else if (key == "fortran_order") {
        if (fortran_order) fail_at(key_pos, "duplicate key 'fortran_order'");
        fortran_order = parse_bool();
      } else if (key == "shape") {
        if (shape) fail_at(key_pos, "duplicate key 'shape'");
        shape = parse_shape();
      } else {
        fail_at(key_pos, "unknown key '" + key +
                             "' (a .npy header has exactly 'descr', 'fortran_order' and 'shape')");
      }
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == '}') {
        ++pos_;
        break;
      }
      fail_at(pos_, "expected ',' or '}' after the value of '" + key + "', found " + found());
    }
    skip_space();
    if (pos_ != text_.size()) {
      fail_at(pos_, "unexpected " + found() + " after the closing '}'");
    }
    if (!descr) fail("the header dictionary lacks the key 'descr'");
    if (!fortran_order) fail("the header dictionary lacks the key 'fortran_order'");
    if (!shape) fail("the header dictionary lacks the key 'shape'");

    NpyHeader header;
    header.dtype = dtype_of(*descr);
    header.descr = std::move(*descr);
    header.fortran_order = *fortran_order;
    header.shape = std::move(*shape);
    return header;
  }

 private:
  [[noreturn]] void fail_at(std::size_t position, const std::string& message) const {
    fail("malformed header dictionary at offset " + std::to_string(position) + ": " + message);
  }

  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool at_end() const { return pos_ >= text_.size(); }
  std::string found() const { return at_end() ? "the end of the header" : quoted_char(peek()); }

  void expect(char c, const std::string& message) {
    if (at_end() || peek() != c) fail_at(pos_, message + ", found " + found());
    ++pos_;
  }

  // Whitespace that Python accepts between tokens inside brackets.
  void skip_space() {
    while (!at_end()) {
      const char c = peek();
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f') break;
      ++pos_;
    }
  }

  std::string parse_string(const char* what) {
    if (at_end() || (peek() != '\'' && peek() != '"')) {
      fail_at(pos_, std::string("expected ") + what + ", found " + found());
    }
    const char quote = peek();
    const std::size_t start = ++pos_;
    while (!at_end() && peek() != quote) {
      const char c = peek();
      if (c == '\\') fail_at(pos_, "escape sequences in strings are not supported");
      if (c == '\n' || c == '\r') fail_at(pos_, "line break inside a string");
      ++pos_;
    }
    if (at_end()) fail_at(start - 1, "unterminated string");
    std::string value(text_.substr(start, pos_ - start));
    ++pos_;
    return value;
  }

  static bool identifier_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           static_cast<unsigned char>(c) >= 0x80;
  }

  bool parse_bool() {
    const std::size_t start = pos_;
    while (!at_end() && identifier_char(peek()))
      ++pos_;
    const std::string_view word = text_.substr(start, pos_ - start);
    if (word == "True") return true;
    if (word == "False") return false;
    fail_at(start, "expected True or False as the value of 'fortran_order', found " +
                       (word.empty() ? found() : "'" + std::string(word) + "'"));
  }

  Index parse_extent() {
    const std::size_t start = pos_;
    if (peek() == '-') fail_at(pos_, "negative extent in 'shape'");
    if (at_end() || peek() < '0' || peek() > '9') {
      fail_at(pos_, "expected a non-negative integer in 'shape', found " + found());
    }
    Index value = 0;
    bool overflow = false;
    while (!at_end() && peek() >= '0' && peek() <= '9') {
      const Index digit = peek() - '0';
      if (value > (std::numeric_limits<Index>::max() - digit) / 10) overflow = true;
      if (!overflow) value = value * 10 + digit;
      ++pos_;
    }
    if (overflow) fail_at(start, "extent in 'shape' exceeds 2^63 - 1");
    if (text_[start] == '0' && pos_ - start > 1 && value != 0) {
      fail_at(start, "integer with leading zeros in 'shape'");
    }
    if (longs_ && !at_end() && (peek() == 'L' || peek() == 'l')) ++pos_;  // Python 2 long
    if (!at_end() && identifier_char(peek())) {
      fail_at(pos_, "unexpected " + found() + " after an integer in 'shape'");
    }
    return value;
  }

  Shape parse_shape() {
    if (peek() != '(') {
      fail_at(pos_,
              "expected a tuple such as (3,) or (2, 3) as the value of 'shape', found " + found());
    }
    ++pos_;
    Shape shape;
    bool trailing_comma = false;
    for (;;) {
      skip_space();
      if (peek() == ')') {
        ++pos_;
        break;
      }
      shape.push_back(parse_extent());
      skip_space();
      trailing_comma = false;
      if (peek() == ',') {
        ++pos_;
        trailing_comma = true;
        continue;
      }
      if (peek() == ')') {
        ++pos_;
        break;
      }
      fail_at(pos_, "expected ',' or ')' in 'shape', found " + found());
    }
    if (shape.size() == 1 && !trailing_comma) {
      fail_at(pos_ - 1,
              "'shape' is a parenthesised integer, not a tuple (a 1-d shape is written (n,))");
    }
    return shape;
  }

  static NpyDtype dtype_of(const std::string& descr) {
    std::string_view code = descr;
    if (!code.empty() && code.front() == '>') {
      fail("unsupported dtype '" + descr + "': big-endian data are not supported");
    }
    if (!code.empty() && (code.front() == '<' || code.front() == '=' || code.front() == '|')) {
      code.remove_prefix(1);
    }
    if (code == "f4") return NpyDtype::float32;
    if (code == "f8") return NpyDtype::float64;
    if (code == "c8") return NpyDtype::complex64;
    if (code == "c16") return NpyDtype::complex128;
    fail("unsupported dtype '" + descr + "' (supported: '<f4', '<f8', '<c8', '<c16')");
  }

  std::string_view text_;
  bool longs_;
  std::size_t pos_ = 0;
};

void append(std::vector<std::byte>& out, std::string_view text) {
  for (char c : text)
    out.push_back(static_cast<std::byte>(c));
}

}  // namespace

const char* npy_descr(NpyDtype dtype) {
  const char* descr =
      distlops::detail::enum_name(dtype, std::array{"<f4", "<f8", "<c8", "<c16"}, nullptr);
  if (descr == nullptr) throw InvalidArgument("npy_descr: unknown dtype");
  return descr;
}

const char* npy_dtype_name(NpyDtype dtype) {
  const char* name = distlops::detail::enum_name(
      dtype, std::array{"float32", "float64", "complex64", "complex128"}, nullptr);
  if (name == nullptr) throw InvalidArgument("npy_dtype_name: unknown dtype");
  return name;
}

std::size_t npy_item_size(NpyDtype dtype) {
  switch (dtype) {
    case NpyDtype::float32:
      return 4;
    case NpyDtype::float64:
    case NpyDtype::complex64:
      return 8;
    case NpyDtype::complex128:
      return 16;
  }
  throw InvalidArgument("npy_item_size: unknown dtype");
}

std::size_t npy_header_size(std::span<const std::byte> prefix) {
  const std::size_t seen = std::min(prefix.size(), magic_size);
  bool magic_matches = true;
  for (std::size_t i = 0; i < seen; ++i)
    magic_matches &= std::to_integer<unsigned char>(prefix[i]) == magic[i];
  if (!magic_matches) {
    fail("not a .npy file: bad magic string (expected 93 4e 55 4d 50 59, found " +
         hex_bytes(prefix.first(seen)) + ")");
  }
  if (prefix.size() < version_end) {
    fail("truncated: " + std::to_string(prefix.size()) +
         " bytes are too few for the magic string and the format version (8 bytes)");
  }
  const auto major = std::to_integer<unsigned>(prefix[magic_size]);
  const auto minor = std::to_integer<unsigned>(prefix[magic_size + 1]);
  const std::size_t field = length_field_size(major, minor);
  if (field == 0) {
    fail("unsupported format version " + std::to_string(major) + "." + std::to_string(minor) +
         " (supported: 1.0, 2.0, 3.0)");
  }
  if (prefix.size() < version_end + field) {
    fail("truncated: " + std::to_string(prefix.size()) +
         " bytes are too few for the header length of format version " + std::to_string(major) +
         ".0 (" + std::to_string(version_end + field) + " bytes)");
  }
  std::uint64_t length = 0;
  for (std::size_t i = field; i-- > 0;)
    length = (length << 8) | std::to_integer<unsigned>(prefix[version_end + i]);
  const std::uint64_t total = version_end + field + length;
  if (total > npy_max_header_bytes) {
    fail("the header declares " + std::to_string(length) + " bytes, more than the limit of " +
         std::to_string(npy_max_header_bytes) + " bytes for the whole header");
  }
  return static_cast<std::size_t>(total);
}

NpyHeader parse_npy_header(std::span<const std::byte> bytes) {
  const std::size_t total = npy_header_size(bytes);
  const unsigned major = std::to_integer<unsigned>(bytes[magic_size]);
  const std::size_t start = version_end + length_field_size(major, 0);
  if (bytes.size() < total) {
    fail("truncated: the header declares " + std::to_string(total - start) + " bytes after the " +
         std::to_string(start) + "-byte prefix, but only " + std::to_string(bytes.size() - start) +
         " are present");
  }
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()) + start, total - start);
  NpyHeader header = DictParser(text, major <= 2).parse();
  header.major_version = static_cast<int>(major);
  header.minor_version = 0;
  header.data_offset = total;

  const auto item = static_cast<Index>(npy_item_size(header.dtype));
  Index bytes_needed = item;
  for (Index extent : header.shape) {
    if (__builtin_mul_overflow(bytes_needed, extent, &bytes_needed)) {
      fail("the shape " + to_string(header.shape) + " of " + npy_dtype_name(header.dtype) +
           " needs more than 2^63 - 1 bytes");
    }
  }
  return header;
}

std::vector<std::byte> make_npy_header(NpyDtype dtype, const Shape& shape, bool fortran_order) {
  std::string dict = "{'descr': '";
  dict += npy_descr(dtype);
  dict += "', 'fortran_order': ";
  dict += fortran_order ? "True" : "False";
  dict += ", 'shape': ";
  dict += to_string(shape);
  dict += ", }";
  if (!shape.empty()) {
    const std::size_t digits = std::to_string(fortran_order ? shape.back() : shape.front()).size();
    if (digits < growth_axis_max_digits) dict.append(growth_axis_max_digits - digits, ' ');
  }
  // The text plus its final newline, padded with spaces so that the data start on a multiple of
  // array_align (a full array_align of padding when already aligned, as NumPy does).
  const std::size_t text_size = dict.size() + 1;
  for (unsigned major : {1u, 2u}) {
    const std::size_t prefix = version_end + length_field_size(major, 0);
    const std::size_t padding = array_align - (prefix + text_size) % array_align;
    const std::size_t length = text_size + padding;
    if (major == 1 && length > 0xffff) continue;
    if (length > 0xffffffffULL) break;
    std::vector<std::byte> header;
    header.reserve(prefix + length);
    for (unsigned char c : magic)
      header.push_back(static_cast<std::byte>(c));
    header.push_back(static_cast<std::byte>(major));
    header.push_back(std::byte{0});
    for (std::size_t i = 0; i < length_field_size(major, 0); ++i)
      header.push_back(static_cast<std::byte>((length >> (8 * i)) & 0xff));
    append(header, dict);
    header.insert(header.end(), padding, std::byte{' '});
    header.push_back(std::byte{'\n'});
    return header;
  }
  throw InvalidArgument("make_npy_header: a header for shape with " + std::to_string(shape.size()) +
                        " axes exceeds the .npy format's limit");
}

}  // namespace distlops::io
