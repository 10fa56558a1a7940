// SPDX-License-Identifier: MIT
#include "page/signs.hpp"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <cstdlib>
#include <utility>
#include <vector>

namespace pith::page::pixels {

std::u32string signs_and_digits(const std::string& text, bool formula) {
    UErrorCode e = U_ZERO_ERROR;
    const icu::Normalizer2* nfkc = icu::Normalizer2::getNFKCInstance(e);
    icu::UnicodeString u = icu::UnicodeString::fromUTF8(text);
    if (U_SUCCESS(e)) u = nfkc->normalize(u, e);
    std::u32string out;
    for (int32_t i = 0; i < u.length(); i = u.moveIndex32(i, 1)) {
        const UChar32 c = u.char32At(i);
        if (kRelationSigns.find(static_cast<char32_t>(c)) != std::u32string_view::npos || (formula && u_isdigit(c)))
            out += static_cast<char32_t>(c);
    }
    return out;
}

bool ocr_reads(char32_t sign) { return std::u32string_view(U"<>=").find(sign) != std::u32string_view::npos; }

std::vector<visible::Word> sign_words(const std::vector<visible::Word>& words) {
    std::vector<visible::Word> out;
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (words[i].text != kNegation || i + 1 == words.size() || signs_and_digits(words[i + 1].text, false).empty()) {
            out.push_back(words[i]);
            continue;
        }
        visible::Word w = words[++i];
        const bool one_sign = signs_and_digits(w.text, false).size() == 1;
        const std::size_t first = one_sign ? w.text.find_first_of("<>=") : std::string::npos;
        if (first != std::string::npos) w.text.insert(first + 1, kNegation);  // "=" U+0338: NFKC's "≠"
        w.x0 = std::min(w.x0, words[i - 1].x0), w.y0 = std::min(w.y0, words[i - 1].y0);
        w.x1 = std::max(w.x1, words[i - 1].x1), w.y1 = std::max(w.y1, words[i - 1].y1);
        out.push_back(std::move(w));
    }
    return out;
}

namespace {

// A connected piece of ink (8-neighbours): its pixels and their box, columns c0..c1 and rows
// r0..r1 inclusive.
struct Piece {
    std::vector<std::pair<int, int>> pixels;  // row, column
    int c0 = 0, r0 = 0, c1 = 0, r1 = 0;
    int width() const { return c1 - c0 + 1; }
    int height() const { return r1 - r0 + 1; }
};

// The ink of the crop: pixels whose luminance lies farther from the background's (the commonest
// level) than half the farthest does, so dark ink on light and light on dark read alike; none
// where nothing stands out.
std::vector<std::vector<bool>> ink_of(const Image& image, int c0, int r0, int c1, int r1) {
    const auto level = [&](int r, int c) {
        const unsigned char* p = &image.rgb[(static_cast<std::size_t>(r - image.row0) * image.columns + c) * 3];
        return (2126 * p[0] + 7152 * p[1] + 722 * p[2]) / 10000;
    };
    std::vector<long> histogram(256);
    for (int r = r0; r <= r1; ++r)
        for (int c = c0; c <= c1; ++c) ++histogram[level(r, c)];
    const int background = static_cast<int>(std::max_element(histogram.begin(), histogram.end()) - histogram.begin());
    int farthest = 0;
    for (int r = r0; r <= r1; ++r)
        for (int c = c0; c <= c1; ++c) farthest = std::max(farthest, std::abs(level(r, c) - background));
    std::vector<std::vector<bool>> ink(r1 - r0 + 1, std::vector<bool>(c1 - c0 + 1, false));
    if (farthest < 64) return ink;  // a quarter of the range: no stroke stands out
    for (int r = r0; r <= r1; ++r)
        for (int c = c0; c <= c1; ++c) ink[r - r0][c - c0] = 2 * std::abs(level(r, c) - background) > farthest;
    return ink;
}

// The pieces of `ink`, the largest first, specks (under a twentieth of the largest) left out.
std::vector<Piece> pieces_of(std::vector<std::vector<bool>> ink) {
    std::vector<Piece> out;
    const int rows = static_cast<int>(ink.size()), columns = rows ? static_cast<int>(ink[0].size()) : 0;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < columns; ++c) {
            if (!ink[r][c]) continue;
            Piece p;
            p.c0 = p.c1 = c, p.r0 = p.r1 = r;
            std::vector<std::pair<int, int>> todo = {{r, c}};
            ink[r][c] = false;
            while (!todo.empty()) {
                const auto [y, x] = todo.back();
                todo.pop_back();
                p.pixels.push_back({y, x});
                p.c0 = std::min(p.c0, x), p.c1 = std::max(p.c1, x), p.r0 = std::min(p.r0, y), p.r1 = std::max(p.r1, y);
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx) {
                        const int ny = y + dy, nx = x + dx;
                        if (ny < 0 || ny >= rows || nx < 0 || nx >= columns || !ink[ny][nx]) continue;
                        ink[ny][nx] = false;
                        todo.push_back({ny, nx});
                    }
            }
            out.push_back(std::move(p));
        }
    std::sort(out.begin(), out.end(), [](const Piece& a, const Piece& b) { return a.pixels.size() > b.pixels.size(); });
    if (!out.empty()) {
        const std::size_t least = std::max<std::size_t>(3, out.front().pixels.size() / 20);
        const auto speck = [&](const Piece& p) { return p.pixels.size() < least; };
        out.erase(std::remove_if(out.begin(), out.end(), speck), out.end());
    }
    return out;
}

// A bar: at least two and a half times as wide as it is tall (TeX's ≤ sets its bar aslant).
bool flat(const Piece& p) { return 5 * p.height() <= 2 * p.width(); }

// Where each row of the piece has ink: its leftmost and rightmost column, and how many.
struct Rows {
    std::vector<int> left, right, count;
};
Rows rows_of(const Piece& p) {
    Rows out{std::vector<int>(p.height(), p.c1), std::vector<int>(p.height(), p.c0), std::vector<int>(p.height(), 0)};
    for (const auto& [r, c] : p.pixels) {
        const int i = r - p.r0;
        out.left[i] = std::min(out.left[i], c), out.right[i] = std::max(out.right[i], c), ++out.count[i];
    }
    return out;
}

// The mean of v over rows from*height .. to*height.
double band(const std::vector<int>& v, double from, double to) {
    const int n = static_cast<int>(v.size());
    const int a = std::clamp(static_cast<int>(from * n), 0, n - 1), b = std::clamp(static_cast<int>(to * n), a + 1, n);
    double sum = 0;
    for (int i = a; i < b; ++i) sum += v[i];
    return sum / (b - a);
}

// '<' or '>' where the piece is one stroke bent at its middle row towards that side (its tip a
// third of its width or more beyond both ends), else 0.
char32_t bent(const Piece& p) {
    if (p.height() < 5 || 5 * p.height() < 3 * p.width()) return 0;
    const Rows rows = rows_of(p);
    const double reach = 0.3 * p.width();
    const double left_tip = band(rows.left, 0.4, 0.6), right_tip = band(rows.right, 0.4, 0.6);
    if (left_tip + reach <= band(rows.left, 0, 0.2) && left_tip + reach <= band(rows.left, 0.8, 1)) return U'<';
    if (right_tip - reach >= band(rows.right, 0, 0.2) && right_tip - reach >= band(rows.right, 0.8, 1)) return U'>';
    return 0;
}

// The runs of rows in which the piece's ink spans most of its width: a bar's rows.
int bar_bands(const Rows& rows, int width) {
    int bands = 0;
    bool in = false;
    for (int n : rows.count) {
        const bool bar = 10 * n >= 6 * width;
        bands += bar && !in;
        in = bar;
    }
    return bands;
}

}  // namespace

char32_t sign_drawn(const Image& image, double x0, double y0, double x1, double y1) {
    const double px = image.dpi / 72;
    const int last_row = image.row0 + static_cast<int>(image.rgb.size() / 3 / std::max(1, image.columns)) - 1;
    const int c0 = std::max(0, static_cast<int>((x0 - image.x0) * px));
    const int c1 = std::min(image.columns - 1, static_cast<int>((x1 - image.x0) * px));
    const int r0 = std::max(image.row0, static_cast<int>((y0 - image.y0) * px));
    const int r1 = std::min(last_row, static_cast<int>((y1 - image.y0) * px));
    if (c1 - c0 < 4 || r1 - r0 < 4) return 0;
    const std::vector<Piece> pieces = pieces_of(ink_of(image, c0, r0, c1, r1));
    if (pieces.size() == 1) {
        const Piece& p = pieces.front();
        if (const char32_t side = bent(p)) return side;
        const Rows rows = rows_of(p);
        // Two bars joined by a stroke across the gap between them.
        return bar_bands(rows, p.width()) == 2 && !flat(p) ? U'\u2260' : 0;
    }
    if (pieces.size() != 2) return 0;
    const Piece& upper = pieces[0].r0 <= pieces[1].r0 ? pieces[0] : pieces[1];
    const Piece& lower = &upper == &pieces[0] ? pieces[1] : pieces[0];
    if (lower.r0 <= upper.r1) return 0;  // not one over the other
    const int overlap = std::min(upper.c1, lower.c1) - std::max(upper.c0, lower.c0) + 1;
    if (flat(upper) && flat(lower) && 10 * overlap >= 6 * std::min(upper.width(), lower.width()) &&
        10 * std::min(upper.width(), lower.width()) >= 6 * std::max(upper.width(), lower.width()))
        return U'=';
    const char32_t side = bent(upper);
    const bool bar = 5 * lower.height() <= 3 * lower.width() && 2 * lower.width() >= upper.width();
    if (side && bar && 10 * overlap >= 6 * lower.width())
        return side == U'<' ? U'\u2264' : U'\u2265';
    return 0;
}

}  // namespace pith::page::pixels
