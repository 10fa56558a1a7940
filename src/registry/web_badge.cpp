// SPDX-License-Identifier: MIT
#include "registry/web_badge.hpp"

#include "badge/badge_font.hpp"
#include "core/error.hpp"
#include "core/files.hpp"

#include <qrencode.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace pith::registry {
namespace {

// The layout constants of src/badge/badge.cpp (font ascent/descent in 1000 units, paddings).
constexpr int kAscent = 760, kDescent = -208;

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    std::string s = buf;
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s == "-0" ? "0" : s;
}

const badge::font::Glyph& glyph(unsigned char c) {
    if (c < 0x20 || c > 0x7E || badge::font::kGlyphs[c - 0x20].code != c)
        throw Error("badge: the label may only contain printable ASCII characters", err::options_invalid);
    return badge::font::kGlyphs[c - 0x20];
}

// PDF path operators (x y m, x y l, x1 y1 x2 y2 x3 y3 c, h) to SVG path data, in glyph units.
std::string svg_path(const char* pdf) {
    std::istringstream in(pdf);
    std::string token, out;
    std::vector<std::string> operands;
    while (in >> token) {
        if (token == "m" || token == "l" || token == "c" || token == "h") {
            out += token == "m" ? "M" : token == "l" ? "L" : token == "c" ? "C" : "Z";
            for (std::size_t i = 0; i < operands.size(); ++i) out += (i ? " " : "") + operands[i];
            operands.clear();
        } else {
            operands.push_back(token);
        }
    }
    return out;
}

std::string hex_colour(const std::array<double, 3>& c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", int(std::lround(c[0] * 255)), int(std::lround(c[1] * 255)),
                  int(std::lround(c[2] * 255)));
    return buf;
}

std::string xml_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '&') out += "&amp;";
        else if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else if (c == '"') out += "&quot;";
        else out += c;
    }
    return out;
}

// The QR code's dark modules as one path of unit squares (row-major).
std::string qr_path(const std::string& url, int& width) {
    errno = 0;
    QRcode* code = QRcode_encodeString(url.c_str(), 0, QR_ECLEVEL_M, QR_MODE_8, 1);
    if (!code) throw Error("badge: cannot encode the URL as a QR code: " + url, err::options_invalid);
    width = code->width;
    std::string d;
    for (int y = 0; y < width; ++y)
        for (int x = 0; x < width; ++x)
            if (code->data[y * width + x] & 1) d += "M" + std::to_string(x) + " " + std::to_string(y) + "h1v1h-1z";
    QRcode_free(code);
    return d;
}

}  // namespace

WebBadge web_badge(const PithNumber& number, const std::string& resolver, const badge::Options& opt) {
    if (!number.is_full() && number.body.size() != kBodyLength)
        throw Error("badge: give the whole number (pith:YEAR:BODY or BODY); `pith fetch " + number.short_form() +
                    "` prints it", err::options_invalid);
    const bool boxed = opt.style == "boxed";
    if (!boxed && opt.style != "plain") throw Error("badge: unknown style '" + opt.style + "' (use plain or boxed)", err::options_invalid);
    if (!(opt.text_size_pt >= 2 && opt.text_size_pt <= 200)) throw Error("badge: text size must be between 2 and 200", err::options_invalid);
    WebBadge b;
    b.label = number.short_form();
    b.link = resolver + number.body;

    const double s = opt.text_size_pt, em = s / 1000.0;
    double advance = 0;
    int ink_min = 0, ink_max = 0;
    for (unsigned char c : b.label) {
        const auto& g = glyph(c);
        advance += g.advance;
        ink_min = std::min(ink_min, g.bbox[1]);
        ink_max = std::max(ink_max, g.bbox[3]);
    }
    const double asc = std::max(kAscent, ink_max) * em, desc = std::min(kDescent, ink_min) * em;
    const double text_h = asc - desc, text_w = advance * em;
    const double lw = boxed ? std::max(0.4, s / 16.0) : 0, inset = boxed ? lw : 0;
    const double pad_x = boxed ? 0.6 * s : 0.15 * s, pad_y = boxed ? 0.4 * s : 0.15 * s;
    int qr_width = 0;
    std::string qr = opt.qr ? qr_path(b.link, qr_width) : "";
    const double quiet = 4, qr_side = opt.qr ? (qr_width + 2 * quiet) * opt.qr_module_pt : 0;
    const double text_x = opt.qr ? inset + qr_side : pad_x;
    b.height = opt.qr ? std::max(qr_side + 2 * inset, text_h + 2 * pad_y) : text_h + 2 * pad_y;
    b.width = text_x + text_w + pad_x;
    const double baseline = b.height - ((b.height - text_h) / 2 - desc);  // SVG y grows downwards
    const std::string colour = hex_colour(opt.color);

    std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(b.width) + "\" height=\"" +
                      num(b.height) + "\" viewBox=\"0 0 " + num(b.width) + " " + num(b.height) +
                      "\" role=\"img\" aria-label=\"" + xml_escape(b.label) + "\">\n<title>" + xml_escape(b.label) +
                      " (" + xml_escape(number.full()) + ")</title>\n";
    if (boxed) {
        double r = std::min(0.35 * s, (b.height - lw) / 2);
        svg += "<rect x=\"" + num(lw / 2) + "\" y=\"" + num(lw / 2) + "\" width=\"" + num(b.width - lw) + "\" height=\"" +
               num(b.height - lw) + "\" rx=\"" + num(r) + "\" fill=\"#ffffff\" stroke=\"" + colour +
               "\" stroke-width=\"" + num(lw) + "\"/>\n";
    }
    if (opt.qr) {
        const double m = opt.qr_module_pt, qy = (b.height - qr_side) / 2;
        if (!boxed)
            svg += "<rect x=\"" + num(inset) + "\" y=\"" + num(qy) + "\" width=\"" + num(qr_side) + "\" height=\"" +
                   num(qr_side) + "\" fill=\"#ffffff\"/>\n";
        svg += "<path fill=\"" + colour + "\" transform=\"translate(" + num(inset + quiet * m) + " " +
               num(qy + quiet * m) + ") scale(" + num(m) + ")\" d=\"" + qr + "\"/>\n";
    }
    svg += "<g fill=\"" + colour + "\">\n";
    double x = text_x;
    for (unsigned char c : b.label) {
        const auto& g = glyph(c);
        if (*g.path)
            svg += "<path transform=\"translate(" + num(x) + " " + num(baseline) + ") scale(" + num(em) + " " +
                   num(-em) + ")\" d=\"" + svg_path(g.path) + "\"/>\n";
        x += g.advance * em;
    }
    svg += "</g>\n</svg>\n";
    b.svg = svg;
    return b;
}

std::string badge_html(const WebBadge& b) {
    std::string svg = b.svg.substr(0, b.svg.size() - 1);  // without the final newline
    return "<a href=\"" + xml_escape(b.link) + "\" title=\"" + xml_escape(b.label) +
           " on the Pith registry\" style=\"display:inline-block;line-height:0\">" + svg + "</a>\n";
}

std::string badge_markdown(const WebBadge& b, const std::string& image_url) {
    return "[![" + b.label + "](" + image_url + ")](" + b.link + ")\n";
}

std::string svg_to_png(const std::string& svg, double scale) {
    char dir_template[] = "/tmp/pith-badge-XXXXXX";
    if (!mkdtemp(dir_template)) throw Error(std::string("badge: cannot make a temporary directory: ") + std::strerror(errno), err::output_unwritable);
    const std::string dir = dir_template, in = dir + "/badge.svg", out = dir + "/badge.png";
    auto cleanup = [&] {
        std::remove(in.c_str());
        std::remove(out.c_str());
        ::rmdir(dir.c_str());
    };
    std::string png;
    try {
        write_file_atomically(in, {svg});
        const std::string res = std::to_string(72 * scale);  // mutool: dpi, with 72 = one pixel per SVG unit
        pid_t pid = fork();
        if (pid == 0) {
            std::freopen("/dev/null", "w", stdout);
            std::freopen("/dev/null", "w", stderr);
            execlp("mutool", "mutool", "draw", "-q", "-r", res.c_str(), "-o", out.c_str(), in.c_str(), (char*)nullptr);
            _exit(127);
        }
        int status = 0;
        if (pid < 0 || waitpid(pid, &status, 0) < 0) throw Error("badge: cannot run mutool", err::install_incomplete);
        if (!WIFEXITED(status) || WEXITSTATUS(status) == 127)
            throw Error("badge: --png needs mutool (Debian package mupdf-tools); --svg needs nothing", err::install_incomplete);
        if (WEXITSTATUS(status) != 0 || !file_exists(out)) throw Error("badge: mutool could not render the SVG", err::install_incomplete);
        png = read_file_or_stdin(out, 64u << 20);
    } catch (...) {
        cleanup();
        throw;
    }
    cleanup();
    return png;
}

}  // namespace pith::registry
