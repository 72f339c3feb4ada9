// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#include "image.hpp"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>
#include <stdexcept>

namespace distlops::examples {

namespace {

// 5x7 glyphs, one byte per row, the low 5 bits from left (bit 4) to right (bit 0).
const std::map<char, std::array<std::uint8_t, 7>>& font() {
  static const std::map<char, std::array<std::uint8_t, 7>> glyphs = {
      {'0', {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E}},
      {'1', {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E}},
      {'2', {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F}},
      {'3', {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E}},
      {'4', {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02}},
      {'5', {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E}},
      {'6', {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E}},
      {'7', {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08}},
      {'8', {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E}},
      {'9', {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C}},
      {'A', {0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11}},
      {'B', {0x1E, 0x11, 0x11, 0x1E, 0x11, 0x11, 0x1E}},
      {'C', {0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E}},
      {'D', {0x1C, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1C}},
      {'E', {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F}},
      {'F', {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10}},
      {'G', {0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F}},
      {'H', {0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11}},
      {'I', {0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E}},
      {'J', {0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0C}},
      {'K', {0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11}},
      {'L', {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F}},
      {'M', {0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11}},
      {'N', {0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11}},
      {'O', {0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E}},
      {'P', {0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10}},
      {'Q', {0x0E, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0D}},
      {'R', {0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11}},
      {'S', {0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E}},
      {'T', {0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}},
      {'U', {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E}},
      {'V', {0x11, 0x11, 0x11, 0x11, 0x11, 0x0A, 0x04}},
      {'W', {0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A}},
      {'X', {0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11}},
      {'Y', {0x11, 0x11, 0x11, 0x0A, 0x04, 0x04, 0x04}},
      {'Z', {0x1F, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1F}},
      {'.', {0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C}},
      {',', {0x00, 0x00, 0x00, 0x00, 0x0C, 0x04, 0x08}},
      {'-', {0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00}},
      {'+', {0x00, 0x04, 0x04, 0x1F, 0x04, 0x04, 0x00}},
      {':', {0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x0C, 0x00}},
      {'=', {0x00, 0x00, 0x1F, 0x00, 0x1F, 0x00, 0x00}},
      {'(', {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02}},
      {')', {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08}},
      {'/', {0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00}},
      {'_', {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1F}},
      {'|', {0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}},
      {'[', {0x0E, 0x08, 0x08, 0x08, 0x08, 0x08, 0x0E}},
      {']', {0x0E, 0x02, 0x02, 0x02, 0x02, 0x02, 0x0E}},
      {';', {0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x04, 0x08}},
      {'%', {0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03}},
      {'^', {0x04, 0x0A, 0x11, 0x00, 0x00, 0x00, 0x00}},
      {' ', {0, 0, 0, 0, 0, 0, 0}},
  };
  return glyphs;
}

Colour mix(Colour a, Colour b, double t) {
  auto channel = [&](std::uint8_t x, std::uint8_t y) {
    return static_cast<std::uint8_t>(std::lround(x + (y - x) * t));
  };
  return {channel(a.r, b.r), channel(a.g, b.g), channel(a.b, b.b)};
}

Colour piecewise(const std::vector<Colour>& stops, double t) {
  t = std::clamp(t, 0.0, 1.0) * double(stops.size() - 1);
  const std::size_t i = std::min(stops.size() - 2, static_cast<std::size_t>(t));
  return mix(stops[i], stops[i + 1], t - double(i));
}

std::string tick_label(double value) {
  std::ostringstream text;
  if (value != 0 && (std::abs(value) >= 1e4 || std::abs(value) < 1e-2)) {
    text << std::scientific << std::setprecision(1) << value;
  } else {
    text << std::setprecision(3) << value;
  }
  return text.str();
}

/// A round tick step (1, 2 or 5 times a power of ten) giving about `target` intervals.
double nice_step(double range, int target) {
  const double raw = std::abs(range) / std::max(1, target);
  if (!(raw > 0) || !std::isfinite(raw)) return 1;
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (double multiple : {1.0, 2.0, 5.0}) {
    if (multiple * decade >= raw) return multiple * decade;
  }
  return 10 * decade;
}

void write_chunk(std::ofstream& out, const char* type, const std::vector<std::uint8_t>& data) {
  auto be32 = [&](std::uint32_t v) {
    const unsigned char bytes[4] = {
        static_cast<unsigned char>(v >> 24), static_cast<unsigned char>(v >> 16),
        static_cast<unsigned char>(v >> 8), static_cast<unsigned char>(v)};
    out.write(reinterpret_cast<const char*>(bytes), 4);
  };
  be32(static_cast<std::uint32_t>(data.size()));
  out.write(type, 4);
  if (!data.empty())
    out.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size()));
  uLong crc = crc32(0, reinterpret_cast<const Bytef*>(type), 4);
  crc = crc32(crc, data.data(), static_cast<uInt>(data.size()));
  be32(static_cast<std::uint32_t>(crc));
}

}  // namespace

Colour colour_at(ColourMap map, double t) {
  switch (map) {
    case ColourMap::seismic:
      return piecewise({{0, 0, 77}, {0, 0, 255}, {255, 255, 255}, {255, 0, 0}, {128, 0, 0}}, t);
    case ColourMap::gray:
      return piecewise({{0, 0, 0}, {255, 255, 255}}, t);
    case ColourMap::viridis:
      return piecewise({{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}},
                       t);
  }
  return {0, 0, 0};
}

Canvas::Canvas(int width, int height, Colour background)
    : width_(width), height_(height), pixels_(static_cast<std::size_t>(3 * width * height)) {
  fill_rect(0, 0, width, height, background);
}

void Canvas::set(int x, int y, Colour colour) {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
  std::uint8_t* p = &pixels_[static_cast<std::size_t>(3 * (y * width_ + x))];
  p[0] = colour.r;
  p[1] = colour.g;
  p[2] = colour.b;
}

void Canvas::fill_rect(int x, int y, int w, int h, Colour colour) {
  for (int j = y; j < y + h; ++j) {
    for (int i = x; i < x + w; ++i)
      set(i, j, colour);
  }
}

void Canvas::line(int x0, int y0, int x1, int y1, Colour colour, int thickness) {
  // Bresenham, drawing a square brush of `thickness` pixels.
  const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
  const int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
  int error = dx + dy;
  while (true) {
    fill_rect(x0 - thickness / 2, y0 - thickness / 2, thickness, thickness, colour);
    if (x0 == x1 && y0 == y1) break;
    const int e2 = 2 * error;
    if (e2 >= dy) {
      error += dy;
      x0 += sx;
    }
    if (e2 <= dx) {
      error += dx;
      y0 += sy;
    }
  }
}

int Canvas::text_width(const std::string& text, int scale) {
  return static_cast<int>(text.size()) * 6 * scale;
}

void Canvas::text(int x, int y, const std::string& text, Colour colour, int scale) {
  for (char c : text) {
    const char upper = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const auto glyph = font().find(upper);
    if (glyph != font().end()) {
      for (int row = 0; row < 7; ++row) {
        for (int column = 0; column < 5; ++column) {
          if (glyph->second[row] & (0x10 >> column)) {
            fill_rect(x + column * scale, y + row * scale, scale, scale, colour);
          }
        }
      }
    }
    x += 6 * scale;
  }
}

void Canvas::save_png(const std::string& path) const {
  // Images of at most 256 colours (colour maps sampled per pixel, text, white) are written
  // with a palette, one byte per pixel; others as RGB. Each row is prefixed with filter
  // type 0 (none); zlib compresses the whole image.
  std::map<std::uint32_t, std::uint8_t> palette;
  bool indexed = true;
  for (std::size_t i = 0; indexed && i < pixels_.size(); i += 3) {
    const std::uint32_t key =
        std::uint32_t(pixels_[i]) << 16 | std::uint32_t(pixels_[i + 1]) << 8 | pixels_[i + 2];
    if (!palette.count(key)) {
      if (palette.size() == 256) indexed = false;
      palette.emplace(key, static_cast<std::uint8_t>(palette.size()));
    }
  }
  const int channels = indexed ? 1 : 3;
  std::vector<std::uint8_t> raw;
  raw.reserve(static_cast<std::size_t>((channels * width_ + 1) * height_));
  for (int y = 0; y < height_; ++y) {
    raw.push_back(0);
    const auto row = pixels_.begin() + 3 * y * width_;
    if (!indexed) {
      raw.insert(raw.end(), row, row + 3 * width_);
      continue;
    }
    for (int x = 0; x < width_; ++x) {
      const auto p = row + 3 * x;
      raw.push_back(palette.at(std::uint32_t(p[0]) << 16 | std::uint32_t(p[1]) << 8 | p[2]));
    }
  }
  uLongf compressed_size = compressBound(static_cast<uLong>(raw.size()));
  std::vector<std::uint8_t> compressed(compressed_size);
  if (compress2(compressed.data(), &compressed_size, raw.data(), static_cast<uLong>(raw.size()),
                9) != Z_OK) {
    throw std::runtime_error("PNG: zlib compression failed for " + path);
  }
  compressed.resize(compressed_size);
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error("PNG: cannot open " + path + " for writing");
  const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  out.write(reinterpret_cast<const char*>(signature), 8);
  auto be32 = [](std::vector<std::uint8_t>& v, std::uint32_t x) {
    v.insert(v.end(), {static_cast<std::uint8_t>(x >> 24), static_cast<std::uint8_t>(x >> 16),
                       static_cast<std::uint8_t>(x >> 8), static_cast<std::uint8_t>(x)});
  };
  std::vector<std::uint8_t> header;
  be32(header, static_cast<std::uint32_t>(width_));
  be32(header, static_cast<std::uint32_t>(height_));
  // 8-bit samples, palette (3) or RGB (2), deflate, no filter, no interlace.
  header.insert(header.end(), {8, static_cast<std::uint8_t>(indexed ? 3 : 2), 0, 0, 0});
  write_chunk(out, "IHDR", header);
  if (indexed) {
    std::vector<std::uint8_t> colours(3 * palette.size());
    for (const auto& [key, index] : palette) {
      colours[3 * index] = static_cast<std::uint8_t>(key >> 16);
      colours[3 * index + 1] = static_cast<std::uint8_t>(key >> 8);
      colours[3 * index + 2] = static_cast<std::uint8_t>(key);
    }
    write_chunk(out, "PLTE", colours);
  }
  write_chunk(out, "IDAT", compressed);
  write_chunk(out, "IEND", {});
  if (!out) throw std::runtime_error("PNG: writing " + path + " failed");
}

namespace {
/// The colour map sampled at 240 levels: indistinguishable from the continuous map, and it
/// leaves the image few enough colours for a palette PNG (a third of the size).
Colour level_colour(ColourMap map, double t) {
  constexpr double levels = 239;
  return colour_at(map, std::round(std::clamp(t, 0.0, 1.0) * levels) / levels);
}
}  // namespace

void save_field_png(const std::string& path, const std::vector<double>& field, int rows, int cols,
                    const std::string& title, ColourMap map, double vmin, double vmax,
                    bool transpose, const FieldAxes& axes) {
  // Drawn size: image rows and columns after the optional transpose, each sample at least
  // one pixel, enlarged to about 600 pixels wide.
  const int image_rows = transpose ? cols : rows;
  const int image_cols = transpose ? rows : cols;
  const int zoom = std::max(1, 600 / std::max(1, image_cols));
  const int zoom_y = std::max(1, 400 / std::max(1, image_rows));
  const int plot_w = image_cols * zoom, plot_h = image_rows * zoom_y;
  const bool annotated = !axes.x_label.empty() || !axes.y_label.empty();
  const int left = annotated ? 80 : 20, top = annotated ? 62 : 40, bar_w = 24, gap = 20;
  const int bottom = annotated ? 66 : 30;
  const Colour black{0, 0, 0};
  Canvas canvas(left + plot_w + gap + bar_w + 110, top + plot_h + bottom);
  canvas.text(left, 12, title, black, 2);
  const double range = vmax > vmin ? vmax - vmin : 1.0;
  for (int i = 0; i < image_rows; ++i) {
    for (int j = 0; j < image_cols; ++j) {
      const double value = transpose ? field[static_cast<std::size_t>(j) * cols + i]
                                     : field[static_cast<std::size_t>(i) * cols + j];
      canvas.fill_rect(left + j * zoom, top + i * zoom_y, zoom, zoom_y,
                       level_colour(map, (value - vmin) / range));
    }
  }
  if (annotated) {
    // Frame, round ticks on both axes (at sample centres) and the axes' names: x below the
    // ticks, y above its tick labels.
    canvas.line(left - 1, top - 1, left + plot_w, top - 1, black);
    canvas.line(left - 1, top + plot_h, left + plot_w, top + plot_h, black);
    canvas.line(left - 1, top - 1, left - 1, top + plot_h, black);
    canvas.line(left + plot_w, top - 1, left + plot_w, top + plot_h, black);
    auto ticks = [&](double origin, double step, int samples, int pixels_per_sample, auto&& draw) {
      const double last = origin + step * (samples - 1);
      const double lo = std::min(origin, last), hi = std::max(origin, last);
      const double tick_step = nice_step(hi - lo, 6);
      for (double v = std::ceil(lo / tick_step - 1e-9) * tick_step; v <= hi + 1e-9 * tick_step;
           v += tick_step) {
        const double sample = step != 0 ? (v - origin) / step : 0.0;
        draw(static_cast<int>(std::lround((sample + 0.5) * pixels_per_sample)),
             tick_label(std::abs(v) < 1e-9 * tick_step ? 0.0 : v));
      }
    };
    ticks(axes.x_origin, axes.x_step, image_cols, zoom, [&](int x, const std::string& label) {
      canvas.line(left + x, top + plot_h, left + x, top + plot_h + 5, black);
      canvas.text(left + x - Canvas::text_width(label, 2) / 2, top + plot_h + 10, label, black, 2);
    });
    ticks(axes.y_origin, axes.y_step, image_rows, zoom_y, [&](int y, const std::string& label) {
      canvas.line(left - 6, top + y, left - 1, top + y, black);
      canvas.text(left - 10 - Canvas::text_width(label, 2), top + y - 7, label, black, 2);
    });
    canvas.text(left + plot_w / 2 - Canvas::text_width(axes.x_label, 2) / 2, top + plot_h + 36,
                axes.x_label, black, 2);
    canvas.text(std::max(4, left - 10 - Canvas::text_width(axes.y_label, 2) / 2), top - 22,
                axes.y_label, black, 2);
  }
  // Colour bar: vmax at the top, vmin at the bottom, five labelled ticks.
  const int bar_x = left + plot_w + gap;
  for (int y = 0; y < plot_h; ++y) {
    canvas.fill_rect(bar_x, top + y, bar_w, 1,
                     level_colour(map, 1.0 - double(y) / std::max(1, plot_h - 1)));
  }
  for (int tick = 0; tick <= 4; ++tick) {
    const int y = top + tick * (plot_h - 1) / 4;
    canvas.line(bar_x + bar_w, y, bar_x + bar_w + 4, y, black);
    canvas.text(bar_x + bar_w + 8, y - 7, tick_label(vmax - tick * range / 4), black, 2);
  }
  canvas.save_png(path);
}

void save_line_plot_png(const std::string& path, const std::vector<double>& values,
                        const std::string& title, const std::string& x_label,
                        const std::string& y_label, bool log_y, int first_x) {
  const int width = 720, height = 460, left = 110, right = 30, top = 64, bottom = 60;
  Canvas canvas(width, height);
  canvas.text(left, 14, title, {0, 0, 0}, 2);
  const int plot_w = width - left - right, plot_h = height - top - bottom;
  canvas.line(left, top, left, top + plot_h, {0, 0, 0});
  canvas.line(left, top + plot_h, left + plot_w, top + plot_h, {0, 0, 0});
  if (values.empty()) {
    canvas.save_png(path);
    return;
  }
  auto transform = [&](double v) { return log_y ? std::log10(std::max(v, 1e-300)) : v; };
  double lo = transform(values[0]), hi = lo;
  for (double v : values) {
    lo = std::min(lo, transform(v));
    hi = std::max(hi, transform(v));
  }
  if (log_y) {
    lo = std::floor(lo);
    hi = std::ceil(hi);
  }
  if (hi <= lo) hi = lo + 1;
  const std::size_t n = values.size();
  auto point = [&](std::size_t i) {
    const int x =
        left +
        static_cast<int>(std::lround(double(i) / double(std::max<std::size_t>(1, n - 1)) * plot_w));
    const int y = top + plot_h -
                  static_cast<int>(std::lround((transform(values[i]) - lo) / (hi - lo) * plot_h));
    return std::pair<int, int>{x, y};
  };
  for (std::size_t i = 1; i < n; ++i) {
    const auto [x0, y0] = point(i - 1);
    const auto [x1, y1] = point(i);
    canvas.line(x0, y0, x1, y1, {31, 119, 180}, 2);
  }
  // y ticks: decades on a log axis, five steps otherwise.
  const int ticks = log_y ? static_cast<int>(hi - lo) : 4;
  for (int t = 0; t <= ticks; ++t) {
    const double v = lo + (hi - lo) * t / std::max(1, ticks);
    const int y = top + plot_h - static_cast<int>(std::lround((v - lo) / (hi - lo) * plot_h));
    canvas.line(left - 5, y, left, y, {0, 0, 0});
    const std::string label = tick_label(log_y ? std::pow(10.0, v) : v);
    canvas.text(left - 10 - Canvas::text_width(label, 2), y - 7, label, {0, 0, 0}, 2);
  }
  for (int t = 0; t <= 4; ++t) {
    const int x = left + t * plot_w / 4;
    canvas.line(x, top + plot_h, x, top + plot_h + 5, {0, 0, 0});
    const std::string label =
        std::to_string(first_x + static_cast<long>(std::lround(double(n - 1) * t / 4)));
    canvas.text(x - Canvas::text_width(label, 2) / 2, top + plot_h + 10, label, {0, 0, 0}, 2);
  }
  canvas.text(left + plot_w / 2 - Canvas::text_width(x_label, 2) / 2, height - 22, x_label,
              {0, 0, 0}, 2);
  canvas.text(8, top - 26, y_label, {0, 0, 0}, 2);
  canvas.save_png(path);
}

}  // namespace distlops::examples
