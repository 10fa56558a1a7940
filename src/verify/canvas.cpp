// SPDX-License-Identifier: MIT
#include "verify/canvas.hpp"

#include "core/error.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace pith::verify::picture {
namespace {

const unsigned char kGlyphs[95][kGlyphHeight] = {
#include "verify/glyphs.inc"
};

void put32(std::string& out, std::uint32_t v) {
    for (int shift : {24, 16, 8, 0}) out += static_cast<char>((v >> shift) & 0xff);
}

void chunk(std::string& out, const char* type, std::string_view data) {
    put32(out, static_cast<std::uint32_t>(data.size()));
    const std::size_t start = out.size();
    out += type;
    out.append(data);
    const auto* bytes = reinterpret_cast<const Bytef*>(out.data() + start);
    put32(out, static_cast<std::uint32_t>(::crc32(0, bytes, static_cast<uInt>(out.size() - start))));
}

// Each row with the PNG filter (none, Sub or Up) whose bytes sum smallest, as libpng chooses.
std::string filtered(const std::vector<unsigned char>& rgb, int width, int height) {
    const std::size_t stride = static_cast<std::size_t>(width) * 3;
    std::string out;
    out.reserve((stride + 1) * height);
    std::string candidates[3];
    for (int y = 0; y < height; ++y) {
        const unsigned char* row = rgb.data() + y * stride;
        const unsigned char* up = y ? row - stride : nullptr;
        for (auto& c : candidates) c.assign(stride, '\0');
        for (std::size_t i = 0; i < stride; ++i) {
            candidates[0][i] = static_cast<char>(row[i]);
            candidates[1][i] = static_cast<char>(row[i] - (i >= 3 ? row[i - 3] : 0));
            candidates[2][i] = static_cast<char>(row[i] - (up ? up[i] : 0));
        }
        int best = 0;
        long best_sum = -1;
        for (int f = 0; f < 3; ++f) {
            long sum = 0;
            for (char c : candidates[f]) sum += std::abs(static_cast<signed char>(c));
            if (best_sum < 0 || sum < best_sum) best = f, best_sum = sum;
        }
        out += static_cast<char>(best == 0 ? 0 : best == 1 ? 1 : 2);
        out += candidates[best];
    }
    return out;
}

}  // namespace

std::string ascii(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            out += c >= 32 && c < 127 ? static_cast<char>(c) : '?';
            continue;
        }
        out += '?';
        while (i + 1 < s.size() && (static_cast<unsigned char>(s[i + 1]) & 0xc0) == 0x80) ++i;
    }
    return out;
}

Canvas::Canvas(int width, int height, Rgb background)
    : width_(std::max(1, width)), height_(std::max(1, height)), rgb_(static_cast<std::size_t>(width_) * height_ * 3) {
    fill(0, 0, width_, height_, background);
}

void Canvas::fill(int x0, int y0, int x1, int y1, Rgb colour) {
    x0 = std::max(x0, 0), y0 = std::max(y0, 0), x1 = std::min(x1, width_), y1 = std::min(y1, height_);
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) {
            unsigned char* p = &rgb_[(static_cast<std::size_t>(y) * width_ + x) * 3];
            p[0] = colour.r, p[1] = colour.g, p[2] = colour.b;
        }
}

void Canvas::paste(const std::vector<unsigned char>& rgb, int columns, int rows, int x, int y) {
    for (int r = 0; r < rows && y + r < height_; ++r) {
        if (y + r < 0) continue;
        const int from = std::max(0, -x), to = std::min(columns, width_ - x);
        if (to <= from) return;
        std::copy_n(&rgb[(static_cast<std::size_t>(r) * columns + from) * 3], (to - from) * 3,
                    &rgb_[(static_cast<std::size_t>(y + r) * width_ + x + from) * 3]);
    }
}

void Canvas::frame(int x0, int y0, int x1, int y1, int thickness, Line line, Rgb colour) {
    constexpr int kDash = 8, kGap = 5;
    auto on = [&](int along) { return line == Line::Solid || along % (kDash + kGap) < kDash; };
    for (int x = x0 - thickness; x < x1 + thickness; ++x)
        if (on(x - x0 + thickness)) {
            fill(x, y0 - thickness, x + 1, y0, colour);
            fill(x, y1, x + 1, y1 + thickness, colour);
        }
    for (int y = y0; y < y1; ++y)
        if (on(y - y0)) {
            fill(x0 - thickness, y, x0, y + 1, colour);
            fill(x1, y, x1 + thickness, y + 1, colour);
        }
}

int Canvas::text(int x, int y, std::string_view s, Rgb colour, int scale) {
    for (char c : ascii(s)) {
        const unsigned char* glyph = kGlyphs[c - 32];
        for (int row = 0; row < kGlyphHeight; ++row)
            for (int col = 0; col < kGlyphWidth; ++col)
                if (glyph[row] & (1 << (kGlyphWidth - 1 - col)))
                    fill(x + col * scale, y + row * scale, x + (col + 1) * scale, y + (row + 1) * scale, colour);
        x += kGlyphWidth * scale;
    }
    return x;
}

std::string Canvas::png(std::string_view description) const {
    const std::string raw = filtered(rgb_, width_, height_);
    uLongf size = ::compressBound(static_cast<uLong>(raw.size()));
    std::string packed(size, '\0');
    if (::compress2(reinterpret_cast<Bytef*>(packed.data()), &size, reinterpret_cast<const Bytef*>(raw.data()),
                    static_cast<uLong>(raw.size()), 9) != Z_OK)
        throw Error("cannot compress the picture (zlib)", err::internal_error);
    packed.resize(size);
    std::string header;
    put32(header, static_cast<std::uint32_t>(width_));
    put32(header, static_cast<std::uint32_t>(height_));
    header += std::string("\x08\x02\x00\x00\x00", 5);  // 8 bits a channel, RGB, deflate, no interlace
    std::string out = "\x89PNG\r\n\x1a\n";
    chunk(out, "IHDR", header);
    // iTXt: keyword, NUL, no compression (0, 0), no language tag or translated keyword (NUL NUL), UTF-8 text.
    chunk(out, "iTXt", std::string("Description\0\0\0\0\0", 16) + std::string(description));
    chunk(out, "IDAT", packed);
    chunk(out, "IEND", "");
    return out;
}

}  // namespace pith::verify::picture
