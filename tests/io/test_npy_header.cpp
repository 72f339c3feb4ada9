// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The .npy header alone (no MPI): the formatter against headers NumPy wrote, the parser on
// every spelling NumPy accepts and on malformed input of every kind.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "distlops/io/npy_header.hpp"
#include "test_support.hpp"

using namespace distlops;
using namespace distlops::io;

namespace {

std::vector<std::byte> file_bytes(const std::string& name) {
  std::ifstream in(std::filesystem::path(DISTLOPS_NPY_DATA_DIR) / name, std::ios::binary);
  REQUIRE(in.good());
  const std::vector<char> chars((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  for (std::size_t i = 0; i < chars.size(); ++i)
    bytes[i] = static_cast<std::byte>(chars[i]);
  return bytes;
}

std::vector<std::byte> bytes_of(std::string_view text) {
  std::vector<std::byte> bytes;
  for (char c : text)
    bytes.push_back(static_cast<std::byte>(c));
  return bytes;
}

// A file prefix with the given version and dictionary text (length field computed).
std::vector<std::byte> with_header(std::string_view dict, int major = 1) {
  std::vector<std::byte> bytes = bytes_of(std::string("\x93NUMPY", 6));
  bytes.push_back(static_cast<std::byte>(major));
  bytes.push_back(std::byte{0});
  const std::size_t field = major == 1 ? 2 : 4;
  for (std::size_t i = 0; i < field; ++i)
    bytes.push_back(static_cast<std::byte>((dict.size() >> (8 * i)) & 0xff));
  const std::vector<std::byte> text = bytes_of(dict);
  bytes.insert(bytes.end(), text.begin(), text.end());
  return bytes;
}

std::string message_of(std::span<const std::byte> bytes) {
  try {
    (void)parse_npy_header(bytes);
  } catch (const IoError& error) {
    return error.what();
  }
  return "no IoError";
}

}  // namespace

TEST_CASE("make_npy_header writes the bytes numpy.save writes", "[npy][header]") {
  struct Case {
    const char* file;
    NpyDtype dtype;
    Shape shape;
    bool fortran_order;
  };
  const std::vector<Case> cases = {
      {"f4_7.npy", NpyDtype::float32, {7}, false},
      {"f8_5x3.npy", NpyDtype::float64, {5, 3}, false},
      {"f8_3x4x5.npy", NpyDtype::float64, {3, 4, 5}, false},
      {"c8_3x4x2.npy", NpyDtype::complex64, {3, 4, 2}, false},
      {"c16_4x3.npy", NpyDtype::complex128, {4, 3}, false},
      {"f8_0x3.npy", NpyDtype::float64, {0, 3}, false},
      {"f8_scalar.npy", NpyDtype::float64, {}, false},
      {"f8_3x4_fortran.npy", NpyDtype::float64, {3, 4}, true},
  };
  for (const Case& c : cases) {
    INFO(c.file);
    const std::vector<std::byte> file = file_bytes(c.file);
    const std::vector<std::byte> header = make_npy_header(c.dtype, c.shape, c.fortran_order);
    REQUIRE(header.size() <= file.size());
    CHECK(header.size() % 64 == 0);
    CHECK(std::equal(header.begin(), header.end(), file.begin()));
  }
}

TEST_CASE("headers written by NumPy parse", "[npy][header]") {
  struct Case {
    const char* file;
    int version;
    NpyDtype dtype;
    const char* descr;
    Shape shape;
    bool fortran_order;
    std::size_t data_offset;
  };
  const std::vector<Case> cases = {
      {"f4_7.npy", 1, NpyDtype::float32, "<f4", {7}, false, 128},
      {"f8_5x3.npy", 1, NpyDtype::float64, "<f8", {5, 3}, false, 128},
      {"f8_3x4x5.npy", 1, NpyDtype::float64, "<f8", {3, 4, 5}, false, 128},
      {"c8_3x4x2.npy", 1, NpyDtype::complex64, "<c8", {3, 4, 2}, false, 128},
      {"c16_4x3.npy", 1, NpyDtype::complex128, "<c16", {4, 3}, false, 128},
      {"f8_0x3.npy", 1, NpyDtype::float64, "<f8", {0, 3}, false, 128},
      {"f8_5x3_v2.npy", 2, NpyDtype::float64, "<f8", {5, 3}, false, 128},
      {"c16_4x3_v3.npy", 3, NpyDtype::complex128, "<c16", {4, 3}, false, 128},
      {"f8_5x3_handmade.npy", 1, NpyDtype::float64, "|f8", {5, 3}, false, 80},
      {"c8_3x4x2_handmade.npy", 1, NpyDtype::complex64, "=c8", {3, 4, 2}, false, 80},
      {"f4_7_python2.npy", 1, NpyDtype::float32, "<f4", {7}, false, 80},
      {"f8_3x4_fortran.npy", 1, NpyDtype::float64, "<f8", {3, 4}, true, 128},
      {"f8_scalar.npy", 1, NpyDtype::float64, "<f8", {}, false, 128},
  };
  for (const Case& c : cases) {
    INFO(c.file);
    const std::vector<std::byte> file = file_bytes(c.file);
    const NpyHeader header = parse_npy_header(file);
    CHECK(header.major_version == c.version);
    CHECK(header.minor_version == 0);
    CHECK(header.dtype == c.dtype);
    CHECK(header.descr == c.descr);
    CHECK(header.shape == c.shape);
    CHECK(header.fortran_order == c.fortran_order);
    CHECK(header.data_offset == c.data_offset);
    CHECK(npy_header_size(file) == c.data_offset);
    // The file holds exactly the data the header announces.
    CHECK(static_cast<Index>(file.size()) ==
          static_cast<Index>(c.data_offset) + header.data_bytes());
  }
}

TEST_CASE("every spelling of the dictionary that NumPy accepts parses", "[npy][header]") {
  const std::vector<std::pair<std::string, Shape>> accepted = {
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }", {3, 4}},
      {"{'descr':'<f8','fortran_order':False,'shape':(3,4)}", {3, 4}},
      {"{\"descr\": \"<f8\", \"fortran_order\": False, \"shape\": (3, 4)}", {3, 4}},
      {"  {'shape': (3,), 'descr': '<f8', 'fortran_order': False}\n", {3}},
      {"{'fortran_order': False, 'shape': (), 'descr': '<f8',}", {}},
      {"{'fortran_order':False,'descr':'f8','shape':( 0 , )}" + std::string(100, ' ') + "\n", {0}},
      {"{\n'descr'\t:\r\n'<f8'\f,\n'fortran_order' : False ,\n'shape' : (\n2 ,\n3 ,\n) ,\n}\n",
       {2, 3}},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (00, 9223372036854775807)}",
       {0, 9223372036854775807}},
  };
  for (const auto& [dict, shape] : accepted) {
    INFO(dict);
    const std::vector<std::byte> bytes = with_header(dict);
    const NpyHeader header = parse_npy_header(bytes);
    CHECK(header.dtype == NpyDtype::float64);
    CHECK(header.shape == shape);
    CHECK_FALSE(header.fortran_order);
    CHECK(header.data_offset == bytes.size());
  }
  // All orders of the keys.
  std::vector<std::string> items = {"'descr': '<c16'", "'fortran_order': True", "'shape': (2,)"};
  std::sort(items.begin(), items.end());
  do {
    const std::string dict = "{" + items[0] + ", " + items[1] + ", " + items[2] + "}";
    INFO(dict);
    const NpyHeader header = parse_npy_header(with_header(dict));
    CHECK(header.dtype == NpyDtype::complex128);
    CHECK(header.shape == Shape{2});
    CHECK(header.fortran_order);
  } while (std::next_permutation(items.begin(), items.end()));
  // Byte orders and dtypes.
  const std::vector<std::pair<std::string, NpyDtype>> dtypes = {
      {"<f4", NpyDtype::float32},   {"=f4", NpyDtype::float32},     {"|f4", NpyDtype::float32},
      {"f4", NpyDtype::float32},    {"<f8", NpyDtype::float64},     {"<c8", NpyDtype::complex64},
      {"|c8", NpyDtype::complex64}, {"<c16", NpyDtype::complex128}, {"=c16", NpyDtype::complex128},
  };
  for (const auto& [descr, dtype] : dtypes) {
    INFO(descr);
    const auto header = parse_npy_header(
        with_header("{'descr': '" + descr + "', 'fortran_order': False, 'shape': (1,)}"));
    CHECK(header.dtype == dtype);
    CHECK(header.descr == descr);
  }
  // Python 2 long integers in versions 1.0 and 2.0.
  for (int major : {1, 2}) {
    const auto header = parse_npy_header(
        with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (3L, 4l), }", major));
    CHECK(header.shape == Shape{3, 4});
    CHECK(header.major_version == major);
  }
}

TEST_CASE("malformed headers raise IoError with a precise message", "[npy][header][errors]") {
  const std::string good = "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }";
  struct Case {
    std::vector<std::byte> bytes;
    std::string expected;
  };
  auto dict = [](std::string_view text) { return with_header(text); };
  auto shape = [](std::string_view text) {
    return with_header("{'descr': '<f8', 'fortran_order': False, 'shape': " + std::string(text) +
                       "}");
  };
  std::vector<Case> cases = {
      // magic, version, length
      {{}, "too few for the magic string"},
      {bytes_of("\x93NUM"), "too few for the magic string"},
      {bytes_of("PK\x03\x04 zip file"), "bad magic string"},
      {bytes_of("\x93NUMPX\x01\x00\x10\x00"),
       "bad magic string (expected 93 4e 55 4d 50 59, found 93 4e 55 4d 50 58)"},
      {bytes_of(std::string("\x93NUMPY\x00\x00\x10\x00", 10)), "unsupported format version 0.0"},
      {bytes_of(std::string("\x93NUMPY\x04\x00\x10\x00\x00\x00", 12)),
       "unsupported format version 4.0"},
      {bytes_of(std::string("\x93NUMPY\x01\x01\x10\x00", 10)), "unsupported format version 1.1"},
      {bytes_of(std::string("\x93NUMPY\x01\x00\x10", 9)), "too few for the header length"},
      {bytes_of(std::string("\x93NUMPY\x02\x00\x10\x00\x00", 11)), "too few for the header length"},
      {bytes_of(std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12)), "more than the limit"},
      // truncated dictionary
      {[&] {
         auto b = with_header(good);
         b.resize(b.size() - 5);
         return b;
       }(),
       "truncated: the header declares 57 bytes after the 10-byte prefix, but only 52 are present"},
      // not a dictionary
      {dict(""), "the header must start with '{', found the end of the header"},
      {dict("   \n"), "the header must start with '{'"},
      {dict("['descr', '<f8']"), "the header must start with '{', found '['"},
      {dict("{'descr': '<f8', 'fortran_order': False, 'shape': (3,)"),
       "expected ',' or '}' after the value of 'shape', found the end of the header"},
      {dict("{'descr': '<f8' 'fortran_order': False, 'shape': (3,)}"), "expected ',' or '}'"},
      {dict("{,}"), "expected a key in quotes or '}', found ','"},
      {dict("{'descr': '<f8',, 'fortran_order': False, 'shape': (3,)}"), "found ','"},
      {dict("{descr: '<f8', 'fortran_order': False, 'shape': (3,)}"), "found 'd'"},
      {dict("{'descr' '<f8', 'fortran_order': False, 'shape': (3,)}"),
       "expected ':' after key 'descr'"},
      {dict("{'descr': '<f8, 'fortran_order': False, 'shape': (3,)}"), "at offset"},
      {dict("{'descr': '<f8', 'fortran_order': False, 'shape': (3,)}}"),
       "unexpected '}' after the closing '}'"},
      {dict(good + "x"), "unexpected 'x' after the closing '}'"},
      {dict(good + std::string(1, '\0')), "unexpected byte 0x00 after the closing '}'"},
      {dict("{'descr': '<f8', 'fortran_order': False, 'shape': (3,), 'descr': '<f8'}"),
       "duplicate key 'descr'"},
      {dict("{'descr': '<f8', 'fortran_order': False, 'shape': (3,), 'shape': (3,)}"),
       "duplicate key 'shape'"},
      {dict("{'descr': '<f8', 'fortran_order': False, 'fortran_order': False, 'shape': (3,)}"),
       "duplicate key 'fortran_order'"},
      {dict("{'descr': '<f8', 'fortran_order': False, 'shape': (3,), 'order': 'C'}"),
       "unknown key 'order'"},
      {dict("{'descr': '<f8', 'fortran_order': False}"), "lacks the key 'shape'"},
      {dict("{'descr': '<f8', 'shape': (3,)}"), "lacks the key 'fortran_order'"},
      {dict("{'fortran_order': False, 'shape': (3,)}"), "lacks the key 'descr'"},
      {dict("{}"), "lacks the key"},
      {dict("{'descr': 'a\\nb', 'fortran_order': False, 'shape': (3,)}"), "escape sequences"},
      {dict("{'descr': '<f8\n', 'fortran_order': False, 'shape': (3,)}"),
       "line break inside a string"},
      {dict("{'descr': '<f8', 'fortran_order': False, 'shape': (3,), 'unterminated}"),
       "unterminated string"},
      // values
      {dict("{'descr': 8, 'fortran_order': False, 'shape': (3,)}"),
       "expected a string as the value of 'descr'"},
      {dict("{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (3,)}"), "structured"},
      {dict("{'descr': '<f8', 'fortran_order': 'False', 'shape': (3,)}"), "expected True or False"},
      {dict("{'descr': '<f8', 'fortran_order': 0, 'shape': (3,)}"),
       "expected True or False as the value of 'fortran_order', found '0'"},
      {dict("{'descr': '<f8', 'fortran_order': false, 'shape': (3,)}"), "found 'false'"},
      {dict("{'descr': '<f8', 'fortran_order': Falsey, 'shape': (3,)}"), "found 'Falsey'"},
      {shape("[3]"), "expected a tuple such as (3,)"},
      {shape("3"), "expected a tuple"},
      {shape("(3)"), "parenthesised integer, not a tuple"},
      {shape("(-1,)"), "negative extent"},
      {shape("(+1,)"), "expected a non-negative integer in 'shape', found '+'"},
      {shape("(3.0,)"), "expected ',' or ')' in 'shape', found '.'"},
      {shape("(3j,)"), "unexpected 'j' after an integer"},
      {shape("(,)"), "expected a non-negative integer in 'shape', found ','"},
      {shape("(3,,)"), "found ','"},
      {shape("(1 2)"), "expected ',' or ')' in 'shape', found '2'"},
      {shape("('3',)"), "found '''"},
      {shape("((3,),)"), "found '('"},
      {shape("(3,"), "expected a non-negative integer in 'shape', found '}'"},
      {shape("(03,)"), "leading zeros"},
      {shape("(0x10,)"), "unexpected 'x' after an integer"},
      {shape("(9223372036854775808,)"), "exceeds 2^63 - 1"},
      {shape("(99999999999999999999999999,)"), "exceeds 2^63 - 1"},
      {shape("(4611686018427387904, 4)"), "needs more than 2^63 - 1 bytes"},
      {shape("(1152921504606846976,)"), "needs more than 2^63 - 1 bytes"},
      {with_header("{'descr': '<f8', 'fortran_order': False, 'shape': (3L,)}", 3),
       "unexpected 'L' after an integer"},
      // dtypes
      {dict("{'descr': '>f8', 'fortran_order': False, 'shape': (3,)}"),
       "unsupported dtype '>f8': big-endian"},
      {dict("{'descr': '<i8', 'fortran_order': False, 'shape': (3,)}"),
       "unsupported dtype '<i8' (supported: '<f4', '<f8', '<c8', '<c16')"},
      {dict("{'descr': '<f2', 'fortran_order': False, 'shape': (3,)}"), "unsupported dtype '<f2'"},
      {dict("{'descr': '<f16', 'fortran_order': False, 'shape': (3,)}"),
       "unsupported dtype '<f16'"},
      {dict("{'descr': 'float64', 'fortran_order': False, 'shape': (3,)}"),
       "unsupported dtype 'float64'"},
      {dict("{'descr': '', 'fortran_order': False, 'shape': (3,)}"), "unsupported dtype ''"},
      {dict("{'descr': '|O', 'fortran_order': False, 'shape': (3,)}"), "unsupported dtype '|O'"},
  };
  for (const Case& c : cases) {
    std::string shown;
    for (std::byte b : c.bytes)
      shown += static_cast<char>(b);
    INFO("input: " << shown);
    // An exact-size copy, so that a sanitized build catches any read past the end.
    const std::vector<std::byte> exact(c.bytes.begin(), c.bytes.end());
    CHECK_THROWS_AS(parse_npy_header(exact), IoError);
    const std::string message = message_of(exact);
    INFO("message: " << message);
    CHECK(message.find(c.expected) != std::string::npos);
  }
}

TEST_CASE("every proper prefix of a header is rejected as truncated", "[npy][header][errors]") {
  for (const char* file : {"f8_5x3.npy", "f8_5x3_v2.npy", "c16_4x3_v3.npy", "f4_7_python2.npy"}) {
    const std::vector<std::byte> bytes = file_bytes(file);
    const std::size_t header_size = npy_header_size(bytes);
    for (std::size_t size = 0; size < header_size; ++size) {
      const std::vector<std::byte> prefix(bytes.begin(), bytes.begin() + size);
      const std::string message = message_of(prefix);
      INFO(file << " cut to " << size << " bytes: " << message);
      CHECK(message.find("truncated") != std::string::npos);
    }
    CHECK_NOTHROW(parse_npy_header(std::span(bytes).first(header_size)));
  }
}

TEST_CASE("make_npy_header chooses the smallest version and aligns the data", "[npy][header]") {
  // NumPy's rule: version 1.0 unless the dictionary, padded so that the data start on a multiple
  // of 64 bytes, exceeds the 65535 bytes its 2-byte length field can hold. A shape of n ones
  // gives a dictionary of 51 + (3n - 2 or 2) + 4 + 20 characters plus the newline.
  auto expected_version = [](std::size_t axes) {
    const std::size_t text = 51 + (axes == 1 ? 2 : 3 * axes - 2) + 4 + 20 + 1;
    return text + 64 - (10 + text) % 64 <= 65535 ? 1 : 2;
  };
  for (std::size_t axes :
       {std::size_t{1}, std::size_t{2}, std::size_t{10}, std::size_t{21790}, std::size_t{21817},
        std::size_t{21818}, std::size_t{21850}, std::size_t{30000}}) {
    const Shape shape(axes, 1);
    const std::vector<std::byte> header = make_npy_header(NpyDtype::complex64, shape);
    INFO(axes << " axes, " << header.size() << " bytes");
    CHECK(header.size() % 64 == 0);
    CHECK(header.back() == std::byte{'\n'});
    const NpyHeader parsed = parse_npy_header(header);
    CHECK(parsed.shape == shape);
    CHECK(parsed.dtype == NpyDtype::complex64);
    CHECK(parsed.data_offset == header.size());
    CHECK(parsed.major_version == expected_version(axes));
  }
  CHECK(expected_version(21817) == 1);
  CHECK(expected_version(21818) == 2);
}
