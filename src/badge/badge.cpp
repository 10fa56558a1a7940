// SPDX-License-Identifier: MIT
#include "badge/badge.hpp"

#include <qrencode.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <vector>

#include "badge/badge_font.hpp"
#include "core/error.hpp"
#include "pdf/file.hpp"
#include "pdf/filters.hpp"
#include "pdf/objects.hpp"

namespace pith::badge {
namespace {

using pdf::Array;
using pdf::Dictionary;
using pdf::Name;
using pdf::Object;
using pdf::Ref;

// ---- small helpers -------------------------------------------------------

std::string num(double v) { return pdf::format_number(v); }

double round4(double v) { return std::llround(v * 10000.0) / 10000.0; }

Object real(double v) { return Object(round4(v)); }
Object integer(long long v) { return pdf::integer_value(v); }

Ref add_flate_stream(pith::pdf::ObjectSink& sink, Dictionary dict, const std::string& data) {
    pdf::put(dict, Name("Filter"), Name("FlateDecode"));
    return sink.add_stream(dict, pdf::flate_encode(data));
}

// Literal PDF string with ( ) \ escaped.
std::string pdf_literal(const std::string& s) {
    std::string out = "(";
    for (char c : s) {
        if (c == '(' || c == ')' || c == '\\') out += '\\';
        out += c;
    }
    return out + ")";
}

std::string hex4(unsigned v) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "%04X", v & 0xFFFFu);
    return buf;
}
std::string hex2(unsigned v) {
    char buf[4];
    std::snprintf(buf, sizeof buf, "%02X", v & 0xFFu);
    return buf;
}

const font::Glyph* glyph_for(unsigned char c) {
    if (c < 0x20 || c > 0x7E) return nullptr;
    const font::Glyph& g = font::kGlyphs[c - 0x20];
    return g.code == c ? &g : nullptr;
}

// Font-level vertical metrics (1000 units): ascender of 'h'/'l', descender of 'p'.
constexpr int kAscent = 760;
constexpr int kDescent = -208;

// ---- QR code --------------------------------------------------------------

struct Module { int x, y, w, h; };  // in modules, y downwards from the top row

struct QrMatrix {
    int width = 0;
    std::vector<unsigned char> dark;  // width*width, row-major, 1 = dark
};

QrMatrix encode_qr(const std::string& url) {
    if (url.empty()) throw pith::Error("badge: a QR code was requested but the URL is empty", err::options_invalid);
    errno = 0;
    QRcode* code = QRcode_encodeString(url.c_str(), 0, QR_ECLEVEL_M, QR_MODE_8, 1);
    if (code == nullptr) {
        int e = errno;
        throw pith::Error("badge: cannot encode the URL as a QR code (" +
                          std::string(e == ERANGE ? "URL too long" : std::strerror(e)) + "): " + url, err::options_invalid);
    }
    QrMatrix m;
    m.width = code->width;
    m.dark.resize(static_cast<size_t>(m.width) * m.width);
    for (size_t i = 0; i < m.dark.size(); ++i) m.dark[i] = code->data[i] & 1;
    QRcode_free(code);
    return m;
}

// Merge dark modules into rectangles: horizontal runs per row, then runs with
// the same x range in consecutive rows into one taller rectangle.
std::vector<Module> merge_modules(const QrMatrix& m) {
    std::vector<Module> rects;
    std::map<std::pair<int, int>, size_t> open;  // (x, w) -> index of rect ending at previous row
    for (int y = 0; y < m.width; ++y) {
        std::map<std::pair<int, int>, size_t> next;
        int x = 0;
        while (x < m.width) {
            if (!m.dark[static_cast<size_t>(y) * m.width + x]) { ++x; continue; }
            int x0 = x;
            while (x < m.width && m.dark[static_cast<size_t>(y) * m.width + x]) ++x;
            std::pair<int, int> key{x0, x - x0};
            auto it = open.find(key);
            if (it != open.end()) {
                rects[it->second].h += 1;
                next[key] = it->second;
            } else {
                rects.push_back({x0, y, x - x0, 1});
                next[key] = rects.size() - 1;
            }
        }
        open.swap(next);
    }
    return rects;
}

// ---- Type 3 font ------------------------------------------------------------

struct FontRefs {
    Ref font;
    int ink_ymin = 0, ink_ymax = 0;  // 1000-unit extent of the used glyph boxes
};

std::string to_unicode_cmap(const std::vector<const font::Glyph*>& glyphs) {
    std::string s =
        "/CIDInit /ProcSet findresource begin\n"
        "12 dict begin\n"
        "begincmap\n"
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
        "/CMapName /Adobe-Identity-UCS def\n"
        "/CMapType 2 def\n"
        "1 begincodespacerange\n<00> <FF>\nendcodespacerange\n";
    for (size_t i = 0; i < glyphs.size(); i += 100) {
        size_t n = std::min<size_t>(100, glyphs.size() - i);
        s += std::to_string(n) + " beginbfchar\n";
        for (size_t j = i; j < i + n; ++j)
            s += "<" + hex2(glyphs[j]->code) + "> <" + hex4(glyphs[j]->code) + ">\n";
        s += "endbfchar\n";
    }
    s += "endcmap\n"
         "CMapName currentdict /CMap defineresource pop\n"
         "end\n"
         "end\n";
    return s;
}

// One glyph procedure per glyph; `bbox`: the union of the inked glyphs' boxes.
Dictionary char_procs(pith::pdf::ObjectSink& sink, const std::vector<const font::Glyph*>& glyphs, int bbox[4]) {
    Dictionary procs;
    int bx0 = 0, by0 = 0, bx1 = 0, by1 = 0;
    bool any_ink = false;
    for (const font::Glyph* g : glyphs) {
        // "wx 0 llx lly urx ury d1": the glyph is a shape painted in the current colour.
        std::string proc = std::to_string(g->advance) + " 0 " + std::to_string(g->bbox[0]) + " " +
                           std::to_string(g->bbox[1]) + " " + std::to_string(g->bbox[2]) + " " +
                           std::to_string(g->bbox[3]) + " d1\n";
        if (g->path[0] != '\0') {
            proc += g->path;
            proc += " f\n";
            if (!any_ink) {
                bx0 = g->bbox[0]; by0 = g->bbox[1]; bx1 = g->bbox[2]; by1 = g->bbox[3];
                any_ink = true;
            } else {
                bx0 = std::min(bx0, g->bbox[0]); by0 = std::min(by0, g->bbox[1]);
                bx1 = std::max(bx1, g->bbox[2]); by1 = std::max(by1, g->bbox[3]);
            }
        }
        pdf::put(procs, Name(g->name), add_flate_stream(sink, Dictionary(), proc));
    }
    bbox[0] = bx0;
    bbox[1] = by0;
    bbox[2] = bx1;
    bbox[3] = by1;
    return procs;
}

FontRefs add_font(pith::pdf::ObjectSink& sink, const std::vector<const font::Glyph*>& glyphs) {
    FontRefs out;
    int bb[4];
    Dictionary procs = char_procs(sink, glyphs, bb);
    const int bx0 = bb[0], by0 = bb[1], bx1 = bb[2], by1 = bb[3];
    Ref tounicode = add_flate_stream(sink, Dictionary(), to_unicode_cmap(glyphs));

    int first = glyphs.front()->code, last = glyphs.back()->code;
    Array widths;
    Array differences;
    size_t gi = 0;
    for (int c = first; c <= last; ++c) {
        if (gi < glyphs.size() && glyphs[gi]->code == c) {
            pdf::append(widths, integer(glyphs[gi]->advance));
            pdf::append(differences, integer(c));
            pdf::append(differences, Name(glyphs[gi]->name));
            ++gi;
        } else {
            pdf::append(widths, integer(0));
        }
    }
    Dictionary encoding;
    pdf::put(encoding, Name("Type"), Name("Encoding"));
    pdf::put(encoding, Name("Differences"), differences);

    Array matrix;
    for (double v : {0.001, 0.0, 0.0, 0.001, 0.0, 0.0}) pdf::append(matrix, Object(v));
    Array fbbox;
    for (int v : {bx0, by0, bx1, by1}) pdf::append(fbbox, integer(v));

    Dictionary f;
    pdf::put(f, Name("Type"), Name("Font"));
    pdf::put(f, Name("Subtype"), Name("Type3"));
    pdf::put(f, Name("FontBBox"), fbbox);
    pdf::put(f, Name("FontMatrix"), matrix);
    pdf::put(f, Name("CharProcs"), procs);
    pdf::put(f, Name("Encoding"), encoding);
    pdf::put(f, Name("FirstChar"), integer(first));
    pdf::put(f, Name("LastChar"), integer(last));
    pdf::put(f, Name("Widths"), widths);
    pdf::put(f, Name("ToUnicode"), tounicode);
    pdf::put(f, Name("Resources"), Dictionary());
    out.font = sink.add(Object(f));
    out.ink_ymin = by0;
    out.ink_ymax = by1;
    return out;
}

// CalRGB with sRGB primaries, D65 white and gamma 2.2: device-independent, so
// PDF/A accepts it whatever the output intent (or none).
Array calrgb() {
    Dictionary d;
    Array white, gamma, matrix;
    for (double v : {0.9505, 1.0, 1.089}) pdf::append(white, Object(v));
    for (int i = 0; i < 3; ++i) gamma.push_back(Object(2.2));
    for (double v : {0.4124, 0.2126, 0.0193, 0.3576, 0.7152, 0.1192, 0.1805, 0.0722, 0.9505})
        pdf::append(matrix, Object(v));
    pdf::put(d, Name("WhitePoint"), white);
    pdf::put(d, Name("Gamma"), gamma);
    pdf::put(d, Name("Matrix"), matrix);
    Array cs;
    pdf::append(cs, Name("CalRGB"));
    pdf::append(cs, d);
    return cs;
}

// Closed rounded rectangle path.
std::string rounded_rect(double x, double y, double w, double h, double r) {
    const double k = 0.5523 * r;  // Bezier circle approximation
    double x1 = x + w, y1 = y + h;
    std::string s;
    s += num(x + r) + " " + num(y) + " m\n";
    s += num(x1 - r) + " " + num(y) + " l\n";
    s += num(x1 - r + k) + " " + num(y) + " " + num(x1) + " " + num(y + r - k) + " " + num(x1) + " " + num(y + r) + " c\n";
    s += num(x1) + " " + num(y1 - r) + " l\n";
    s += num(x1) + " " + num(y1 - r + k) + " " + num(x1 - r + k) + " " + num(y1) + " " + num(x1 - r) + " " + num(y1) + " c\n";
    s += num(x + r) + " " + num(y1) + " l\n";
    s += num(x + r - k) + " " + num(y1) + " " + num(x) + " " + num(y1 - r + k) + " " + num(x) + " " + num(y1 - r) + " c\n";
    s += num(x) + " " + num(y + r) + " l\n";
    s += num(x) + " " + num(y + r - k) + " " + num(x + r - k) + " " + num(y) + " " + num(x + r) + " " + num(y) + " c\nh\n";
    return s;
}

// The glyphs `label` uses, sorted by code, unique; `text_w_units`: its advance, in glyph units.
std::vector<const font::Glyph*> glyphs_of(const std::string& label, double& text_w_units) {
    if (label.empty()) throw pith::Error("badge: the label is empty", err::options_invalid);
    std::vector<const font::Glyph*> glyphs;  // used glyphs, sorted by code, unique
    text_w_units = 0;
    for (unsigned char c : label) {
        const font::Glyph* g = glyph_for(c);
        if (g == nullptr)
            throw pith::Error("badge: the label may only contain printable ASCII characters: " + label, err::options_invalid);
        text_w_units += g->advance;
        if (std::find(glyphs.begin(), glyphs.end(), g) == glyphs.end()) glyphs.push_back(g);
    }
    std::sort(glyphs.begin(), glyphs.end(),
              [](const font::Glyph* a, const font::Glyph* b) { return a->code < b->code; });
    return glyphs;
}

void check_options(const Options& opt) {
    const bool boxed = opt.style == "boxed";
    if (!boxed && opt.style != "plain")
        throw pith::Error("badge: unknown style '" + opt.style + "' (use plain or boxed)", err::options_invalid);
    if (!(opt.text_size_pt >= 2 && opt.text_size_pt <= 200))
        throw pith::Error("badge: text size must be between 2 and 200 pt", err::options_invalid);
    if (opt.qr && !(opt.qr_module_pt >= 0.1 && opt.qr_module_pt <= 20))
        throw pith::Error("badge: QR module size must be between 0.1 and 20 pt", err::options_invalid);
    for (double c : opt.color)
        if (!(c >= 0 && c <= 1)) throw pith::Error("badge: colour components must be between 0 and 1", err::options_invalid);
}

// Where things go in the badge (pt).
struct Layout {
    bool boxed;
    double s;        // text size
    double lw;       // frame line width (boxed)
    double qr_side;  // the QR code with its quiet zone
    double width, height, text_x, qr_x, baseline;
    static constexpr double quiet = 4;  // QR quiet zone, modules
};

Layout layout(const Options& opt, const QrMatrix& qr, double text_w_units, const FontRefs& fr) {
    Layout l;
    const bool boxed = l.boxed = opt.style == "boxed";
    const double s = l.s = opt.text_size_pt;
    const double em = s / 1000.0;
    const int asc_u = std::max(kAscent, 0);
    const double text_w = text_w_units * em;
    const double asc = std::max(asc_u, fr.ink_ymax) * em;
    const double desc = std::min(kDescent, fr.ink_ymin) * em;  // negative
    const double text_h = asc - desc;

    l.lw = boxed ? std::max(0.4, s / 16.0) : 0;   // frame line width
    const double inset = boxed ? l.lw : 0;         // keep the stroke inside the BBox
    const double pad_x = boxed ? 0.6 * s : 0.15 * s;
    const double pad_y = boxed ? 0.4 * s : 0.15 * s;
    l.qr_side = opt.qr ? (qr.width + 2 * Layout::quiet) * opt.qr_module_pt : 0;

    double height = 0;
    if (opt.qr) {
        l.qr_x = inset;
        l.text_x = inset + l.qr_side;  // the quiet zone separates QR and label
        height = std::max(l.qr_side + 2 * inset, text_h + 2 * pad_y);
    } else {
        l.qr_x = 0;
        l.text_x = pad_x;
        height = text_h + 2 * pad_y;
    }
    l.width = round4(l.text_x + text_w + pad_x);
    l.height = round4(height);
    l.baseline = (l.height - text_h) / 2 - desc;
    return l;
}

// The badge's content stream: frame, QR code, label.
std::string content(const Layout& l, const Options& opt, const QrMatrix& qr, const std::string& label) {
    const auto& col = opt.color;
    const std::string rgb = num(col[0]) + " " + num(col[1]) + " " + num(col[2]);
    std::string cs = "/CS0 cs /CS0 CS\n";
    if (l.boxed) {
        double r = std::min(0.35 * l.s, (l.height - l.lw) / 2);
        cs += "1 1 1 sc " + rgb + " SC " + num(l.lw) + " w\n";
        cs += rounded_rect(l.lw / 2, l.lw / 2, l.width - l.lw, l.height - l.lw, r);
        cs += "B\n";
    }
    if (opt.qr) {
        const double m = opt.qr_module_pt, quiet = Layout::quiet;
        const double qy = (l.height - l.qr_side) / 2;
        if (!l.boxed) cs += "1 1 1 sc " + num(l.qr_x) + " " + num(qy) + " " + num(l.qr_side) + " " + num(l.qr_side) + " re f\n";
        cs += rgb + " sc\nq " + num(m) + " 0 0 " + num(-m) + " " + num(l.qr_x + quiet * m) + " " +
              num(qy + l.qr_side - quiet * m) + " cm\n";
        for (const Module& r : merge_modules(qr))
            cs += std::to_string(r.x) + " " + std::to_string(r.y) + " " + std::to_string(r.w) + " " +
                  std::to_string(r.h) + " re\n";
        cs += "f Q\n";
    } else {
        cs += rgb + " sc\n";
    }
    cs += "BT /F1 " + num(l.s) + " Tf " + num(l.text_x) + " " + num(l.baseline) + " Td " + pdf_literal(label) +
          " Tj ET\n";
    return cs;
}

// The Form XObject drawing `cs` with the badge's font.
Ref form_xobject(pith::pdf::ObjectSink& sink, const FontRefs& fr, const Layout& l, const std::string& cs) {
    Dictionary fonts;
    pdf::put(fonts, Name("F1"), fr.font);
    Dictionary colorspaces;
    pdf::put(colorspaces, Name("CS0"), calrgb());
    Dictionary resources;
    pdf::put(resources, Name("Font"), fonts);
    pdf::put(resources, Name("ColorSpace"), colorspaces);

    Array bbox;
    pdf::append(bbox, integer(0));
    pdf::append(bbox, integer(0));
    pdf::append(bbox, real(l.width));
    pdf::append(bbox, real(l.height));

    Dictionary x;
    pdf::put(x, Name("Type"), Name("XObject"));
    pdf::put(x, Name("Subtype"), Name("Form"));
    pdf::put(x, Name("FormType"), integer(1));
    pdf::put(x, Name("BBox"), bbox);
    pdf::put(x, Name("Resources"), resources);
    return add_flate_stream(sink, x, cs);
}

}  // namespace

Badge draw(pith::pdf::ObjectSink& sink, const std::string& label, const std::string& url,
           const Options& opt) {
    double text_w_units = 0;
    const std::vector<const font::Glyph*> glyphs = glyphs_of(label, text_w_units);
    check_options(opt);
    QrMatrix qr;
    if (opt.qr) qr = encode_qr(url);
    const FontRefs fr = add_font(sink, glyphs);
    const Layout l = layout(opt, qr, text_w_units, fr);
    Badge b;
    b.xobject = form_xobject(sink, fr, l, content(l, opt, qr, label));
    b.width_pt = l.width;
    b.height_pt = l.height;
    return b;
}

std::string describe(const Options& o) {
    char line[160];
    std::snprintf(line, sizeof line, "style=%s text=%.6g qr=%d module=%.6g color=%.6g,%.6g,%.6g", o.style.c_str(), o.text_size_pt,
                  o.qr ? 1 : 0, o.qr_module_pt, o.color[0], o.color[1], o.color[2]);
    return line;
}

std::optional<Options> options_from(const std::string& text) {
    char style[16] = {0};
    int qr = 0, used = 0;
    Options o;
    if (std::sscanf(text.c_str(), "style=%15[a-z] text=%lf qr=%d module=%lf color=%lf,%lf,%lf%n", style, &o.text_size_pt, &qr,
                    &o.qr_module_pt, &o.color[0], &o.color[1], &o.color[2], &used) != 7 ||
        static_cast<std::size_t>(used) != text.size() || (qr != 0 && qr != 1))
        return std::nullopt;
    o.style = style;
    o.qr = qr == 1;
    return describe(o) == text ? std::optional<Options>(o) : std::nullopt;  // one spelling per look
}

}  // namespace pith::badge
