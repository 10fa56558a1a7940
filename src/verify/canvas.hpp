// SPDX-License-Identifier: MIT
#pragma once
// An RGB picture to draw outlines and labels on, written as PNG with zlib (which pith links
// already): what `pith verify --picture` draws on (src/verify/picture.cpp).
#include <string>
#include <string_view>
#include <vector>

namespace pith::verify::picture {

struct Rgb {
    unsigned char r = 0, g = 0, b = 0;
};

enum class Line { Solid, Dashed };

class Canvas {
public:
    Canvas(int width, int height, Rgb background);
    int width() const { return width_; }
    int height() const { return height_; }
    // x0..x1, y0..y1 exclusive of x1 and y1; what falls outside the canvas is left out.
    void fill(int x0, int y0, int x1, int y1, Rgb colour);
    // Copies rows * columns RGB pixels with their top-left corner at x, y.
    void paste(const std::vector<unsigned char>& rgb, int columns, int rows, int x, int y);
    // A frame `thickness` pixels wide just outside the box x0..x1, y0..y1 (it covers nothing inside).
    void frame(int x0, int y0, int x1, int y1, int thickness, Line line, Rgb colour);
    // Printable ASCII in a 7 x 14 pixel cell each (times `scale`), from the top-left corner x, y;
    // another character shows as '?', a UTF-8 sequence as one. Returns the x after the text.
    int text(int x, int y, std::string_view s, Rgb colour, int scale = 1);
    std::string png(std::string_view description) const;  // description: an iTXt Description chunk

private:
    int width_, height_;
    std::vector<unsigned char> rgb_;
};

inline constexpr int kGlyphWidth = 7, kGlyphHeight = 14;

// `s` with every UTF-8 sequence as one character: what text() draws, for measuring and wrapping.
std::string ascii(std::string_view s);

}  // namespace pith::verify::picture
