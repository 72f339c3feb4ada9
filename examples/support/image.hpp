// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Small raster graphics for the examples: an RGB canvas, colour maps, a 5x7 bitmap font, and
// PNG output through zlib. Enough to draw a 2-d field with its colour scale and a line plot of
// a solver's cost, without a plotting library.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace distlops::examples {

struct Colour {
  std::uint8_t r, g, b;
};

/// Colour maps from [0, 1] to RGB.
enum class ColourMap {
  seismic,  // blue - white - red, for signed data
  gray,
  viridis,  // perceptually uniform dark blue - green - yellow, for positive fields
};
Colour colour_at(ColourMap map, double t);

class Canvas {
 public:
  Canvas(int width, int height, Colour background = {255, 255, 255});
  int width() const { return width_; }
  int height() const { return height_; }
  void set(int x, int y, Colour colour);
  void fill_rect(int x, int y, int w, int h, Colour colour);
  void line(int x0, int y0, int x1, int y1, Colour colour, int thickness = 1);
  /// Text in the 5x7 font (digits, letters, a few signs), `scale` pixels per font pixel.
  void text(int x, int y, const std::string& text, Colour colour, int scale = 2);
  static int text_width(const std::string& text, int scale = 2);
  /// Writes the canvas as a PNG file.
  void save_png(const std::string& path) const;

 private:
  int width_, height_;
  std::vector<std::uint8_t> pixels_;  // RGB rows
};

/// Axis annotation of a field image: the axes' names, and the coordinates of the first drawn
/// sample and the sampling along the horizontal (x) and vertical (y, downwards) directions.
/// Without names, no axes are drawn.
struct FieldAxes {
  std::string x_label;
  std::string y_label;
  double x_origin = 0, x_step = 1;
  double y_origin = 0, y_step = 1;
};

/// An image of a 2-d field (rows x cols, row-major: rows drawn top to bottom, as seismic
/// sections with time going down) with a title and a colour bar labelled from vmin to vmax.
/// `transpose` draws field[i][j] at column i, row j (traces as columns).
void save_field_png(const std::string& path, const std::vector<double>& field, int rows, int cols,
                    const std::string& title, ColourMap map, double vmin, double vmax,
                    bool transpose = false, const FieldAxes& axes = {});

/// A line plot of y against first_x, first_x + 1, ..., with a logarithmic y axis when `log_y`.
void save_line_plot_png(const std::string& path, const std::vector<double>& values,
                        const std::string& title, const std::string& x_label,
                        const std::string& y_label, bool log_y, int first_x = 1);

}  // namespace distlops::examples
