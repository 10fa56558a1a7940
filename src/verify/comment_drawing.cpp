// SPDX-License-Identifier: MIT
// A comment's appearance read into the paths it paints, and the rules that hold it to what a
// viewer draws from the comment's own data (comment_drawing.hpp).
#include "verify/comment_drawing.hpp"

#include "core/error.hpp"
#include "pdf/content.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

namespace pith::verify::comments {
namespace {

using pdf::Operand;

Point apply(const Matrix& m, Point p) { return {m[0] * p.x + m[2] * p.y + m[4], m[1] * p.x + m[3] * p.y + m[5]}; }

// `a` then `b`.
Matrix times(const Matrix& a, const Matrix& b) {
    return {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3], a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]};
}

double distance(Point a, Point b) { return std::hypot(a.x - b.x, a.y - b.y); }

double to_segment(Point p, Point a, Point b) {
    const double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
    if (len2 <= 0) return distance(p, a);
    const double t = std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / len2, 0.0, 1.0);
    return distance(p, {a.x + t * dx, a.y + t * dy});
}

double to_polyline(Point p, const Polyline& line) {
    if (line.size() == 1) return distance(p, line[0]);
    double best = INFINITY;
    for (std::size_t i = 1; i < line.size(); ++i) best = std::min(best, to_segment(p, line[i - 1], line[i]));
    return best;
}

double cross(Point o, Point a, Point b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

bool segments_cross(Point a, Point b, Point c, Point d) {
    const double d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d);
    return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

double between_segments(Point a, Point b, Point c, Point d) {
    if (segments_cross(a, b, c, d)) return 0;
    return std::min({to_segment(a, c, d), to_segment(b, c, d), to_segment(c, a, b), to_segment(d, a, b)});
}

// The least distance between two polylines (0 where they cross).
double between(const Polyline& p, const Polyline& q) {
    if (p.size() == 1 || q.size() == 1) return p.size() == 1 ? to_polyline(p[0], q) : to_polyline(q[0], p);
    double best = INFINITY;
    for (std::size_t i = 1; i < p.size(); ++i)
        for (std::size_t j = 1; j < q.size(); ++j)
            best = std::min(best, between_segments(p[i - 1], p[i], q[j - 1], q[j]));
    return best;
}

pdf::Rect box_of(const Polyline& points) {
    pdf::Rect r{INFINITY, INFINITY, -INFINITY, -INFINITY};
    for (const Point& p : points) {
        r.llx = std::min(r.llx, p.x), r.lly = std::min(r.lly, p.y);
        r.urx = std::max(r.urx, p.x), r.ury = std::max(r.ury, p.y);
    }
    return r;
}

// Whether two boxes come within `gap` of each other.
bool near(const pdf::Rect& a, const pdf::Rect& b, double gap) {
    return a.llx - gap <= b.urx && b.llx - gap <= a.urx && a.lly - gap <= b.ury && b.lly - gap <= a.ury;
}

// ---- Reading the appearance

// Bounds on what one appearance may ask of the reader (a hostile file).
constexpr std::size_t kMaxPoints = 200000;
constexpr int kMaxDepth = 32;
constexpr std::size_t kMaxInkPoints = 20000;  // on one page: a reader's heaviest page of ink holds a few thousand

// The operators an appearance of a comment may use: paths and their painting, colour given as
// numbers in a device space, the graphics state (its /ExtGState entries are checked apart:
// ext_gstate_rule) and marked content. Text, images, shadings, forms, patterns and Type 3 glyph
// operators are not on the list, nor clipping: a clip shaped as letters turns a highlight's box
// into the word in the viewers that draw the appearance.
const std::set<std::string_view> kStateOperators = {"w",  "J",  "j",  "M",   "d",   "ri",  "i",  "gs",  "RG",
                                                     "rg", "G",  "g",  "K",   "k",   "SC",  "sc", "SCN", "scn",
                                                     "CS", "cs", "BMC", "BDC", "EMC", "MP", "DP"};
const std::set<std::string_view> kPaintOperators = {"S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n"};

struct State {
    Matrix ctm = kIdentity;
    double width = 1;  // as the content sets it: scaled by the matrix in force when the path is painted
};

class Reader {
public:
    explicit Reader(const Matrix& to_page) { state_.ctm = to_page; }
    Drawing read(std::string_view content);

private:
    bool operation(std::string_view op, const std::vector<Operand>& operands);
    bool state_operation(std::string_view op, const std::vector<Operand>& operands);
    bool path_operation(std::string_view op, const std::vector<double>& n);
    void paint(std::string_view op);
    void add(double x, double y) {
        current_.points.push_back(apply(state_.ctm, {x, y}));
        ++points_;
    }
    void close_subpath() {
        if (!current_.points.empty()) subpaths_.push_back(std::move(current_));
        current_ = Painted{};
    }

    State state_;
    std::vector<State> saved_;
    Painted current_;
    std::vector<Painted> subpaths_;  // the current path's subpaths
    Drawing out_;
    std::size_t points_ = 0;
};

bool numbers(const std::vector<Operand>& operands, std::vector<double>& out) {
    out.clear();
    for (const Operand& o : operands) {
        if (o.kind != Operand::Number) return false;
        out.push_back(std::strtod(std::string(o.number_text).c_str(), nullptr));
    }
    return std::all_of(out.begin(), out.end(), [](double v) { return std::isfinite(v); });
}

Drawing Reader::read(std::string_view content) {
    try {
        pdf::ContentLexer lexer(content);
        std::string_view op;
        std::vector<Operand> operands;
        while (lexer.next_operator(op)) {
            lexer.operands(operands);
            if (!operation(op, operands)) {
                if (out_.refused.empty()) out_.refused = "the operator " + std::string(op) + " as written there";
                return out_;
            }
            if (points_ > kMaxPoints) {
                out_.refused = "more than " + std::to_string(kMaxPoints) + " points";
                return out_;
            }
        }
    } catch (const Error& e) {
        out_.refused = std::string("content that does not parse (") + e.what() + ")";
    }
    return out_;
}

bool Reader::operation(std::string_view op, const std::vector<Operand>& operands) {
    if (kPaintOperators.count(op)) {
        paint(op);
        return true;
    }
    if (kStateOperators.count(op)) return state_operation(op, operands);
    std::vector<double> n;
    if (op == "q" || op == "Q" || op == "cm") {
        if (op == "q" && saved_.size() < kMaxDepth) saved_.push_back(state_);
        else if (op == "q") return false;
        if (op == "Q" && !saved_.empty()) state_ = saved_.back(), saved_.pop_back();
        if (op != "cm") return true;
        if (!numbers(operands, n) || n.size() != 6) return false;
        state_.ctm = times({n[0], n[1], n[2], n[3], n[4], n[5]}, state_.ctm);
        return true;
    }
    return numbers(operands, n) && path_operation(op, n);
}

// Colours only as numbers in a device space: a pattern (a name operand) can paint anything.
bool Reader::state_operation(std::string_view op, const std::vector<Operand>& operands) {
    if (op == "CS" || op == "cs") {
        static const std::set<std::string> device = {"DeviceGray", "DeviceRGB", "DeviceCMYK"};
        return operands.size() == 1 && operands[0].kind == Operand::Name && device.count(operands[0].bytes);
    }
    std::vector<double> n;
    if (op == "SC" || op == "sc" || op == "SCN" || op == "scn") return numbers(operands, n) && n.size() <= 4;
    if (op == "w") {
        if (!numbers(operands, n) || n.size() != 1) return false;
        state_.width = std::abs(n[0]);
    }
    return true;
}

bool Reader::path_operation(std::string_view op, const std::vector<double>& n) {
    const std::size_t want = op == "m" || op == "l"                 ? 2
                             : op == "c"                              ? 6
                             : op == "v" || op == "y" || op == "re" ? 4
                             : op == "h"                              ? 0
                                                                      : 99;
    if (want == 99 || n.size() != want) return false;
    if (op == "m") close_subpath();
    if (op == "re") {
        close_subpath();
        add(n[0], n[1]), add(n[0] + n[2], n[1]), add(n[0] + n[2], n[1] + n[3]), add(n[0], n[1] + n[3]), add(n[0], n[1]);
        current_.segments = 4;
        close_subpath();
        return true;
    }
    if (op == "h") {
        if (!current_.points.empty()) current_.points.push_back(current_.points.front()), ++current_.segments;
        return true;
    }
    for (std::size_t i = 0; i + 1 < n.size(); i += 2) add(n[i], n[i + 1]);
    if (op != "m") ++current_.segments;
    return true;
}

void Reader::paint(std::string_view op) {
    close_subpath();
    const bool stroke = op == "S" || op == "s" || op == "B" || op == "B*" || op == "b" || op == "b*";
    const bool fill = op != "S" && op != "s" && op != "n";
    const Matrix& m = state_.ctm;  // a width scales with the square root of the area's scale
    const double width = state_.width * std::sqrt(std::abs(m[0] * m[3] - m[1] * m[2]));
    for (Painted& p : subpaths_) {
        if (op == "n") break;  // a clipping path, or nothing
        p.stroked = stroke, p.filled = fill, p.width = width;
        out_.paths.push_back(std::move(p));
    }
    subpaths_.clear();
}

// ---- Quads

// A quad in its own frame: u along its text (from its first point to its second, which both
// the specification's order and the order every viewer writes put along the baseline), v across.
struct Quad {
    Point origin, u, v;
    double length = 0, v0 = 0, v1 = 0;  // along u: 0..length; across: v0..v1
    Point local(Point p) const {
        const double dx = p.x - origin.x, dy = p.y - origin.y;
        return {dx * u.x + dy * u.y, dx * v.x + dy * v.y};
    }
    double height() const { return v1 - v0; }
};

bool read_quads(const std::vector<double>& n, std::vector<Quad>& out) {
    if (n.empty() || n.size() % 8 != 0) return false;
    for (std::size_t i = 0; i < n.size(); i += 8) {
        Quad q;
        q.origin = {n[i], n[i + 1]};
        q.length = distance(q.origin, {n[i + 2], n[i + 3]});
        if (!(q.length > 0)) return false;
        q.u = {(n[i + 2] - n[i]) / q.length, (n[i + 3] - n[i + 1]) / q.length};
        q.v = {-q.u.y, q.u.x};
        q.v0 = INFINITY, q.v1 = -INFINITY;
        for (int k = 0; k < 8; k += 2) {
            const double across = q.local({n[i + k], n[i + k + 1]}).y;
            q.v0 = std::min(q.v0, across), q.v1 = std::max(q.v1, across);
        }
        out.push_back(q);
    }
    return true;
}

// A convex outline (its points, curve control points included, turning one way, once round):
// the box, rounded or not, every viewer fills for a highlight. A filled letter's outline turns
// both ways (E, T, F, K) or encloses a hole, another subpath.
bool convex(const Polyline& points) {
    Polyline p;
    for (const Point& pt : points)
        if (p.empty() || distance(p.back(), pt) > 1e-3) p.push_back(pt);
    if (p.size() > 1 && distance(p.front(), p.back()) <= 1e-3) p.pop_back();
    if (p.size() < 3) return true;
    const double tolerance = 1e-3 * std::pow(std::max(box_of(p).width(), box_of(p).height()), 2);
    int left = 0, right = 0;
    double turned = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const Point a = p[i], b = p[(i + 1) % p.size()], c = p[(i + 2) % p.size()];
        const double turn = cross(a, b, c);
        left += turn > tolerance, right += turn < -tolerance;
        turned += std::atan2(turn, (b.x - a.x) * (c.x - b.x) + (b.y - a.y) * (c.y - b.y));
    }
    return (left == 0 || right == 0) && std::abs(std::abs(turned) - 2 * 3.14159265358979323846) < 0.1;
}

// Whether `p` is a mark of `subtype` on quad `q`: inside it (with the tolerance every viewer's
// drawing needs: a highlight's rounded ends reach out by about half its height, a line has its
// width), along most of its length, and as a highlight covering it, as a line thin across it.
bool marks_quad(const std::string& subtype, const Painted& p, const Quad& q) {
    Polyline local;
    for (const Point& pt : p.points) local.push_back(q.local(pt));
    const pdf::Rect b = box_of(local);
    const double h = q.height(), reach = 0.5 * h + 2, slack = 2 + 0.1 * h + (p.stroked ? p.width / 2 : 0);
    if (b.llx < -reach || b.urx > q.length + reach || b.lly < q.v0 - slack || b.ury > q.v1 + slack) return false;
    if (b.width() < 0.6 * q.length) return false;
    if (subtype == "Highlight")
        return !p.stroked && p.filled && b.height() >= 0.6 * h && p.segments <= 16 && convex(p.points);
    if (b.height() > 0.5 * h + p.width + 0.5) return false;
    // A line along the quad: its points go one way (an underline, a squiggle), or it is a thin bar.
    bool forward = true, backward = true;
    for (std::size_t i = 1; i < local.size(); ++i) {
        forward &= local[i].x >= local[i - 1].x - 0.5;
        backward &= local[i].x <= local[i - 1].x + 0.5;
    }
    return forward || backward || b.height() <= 0.15 * h + p.width + 0.5;
}

// ---- Ink

// A straight line (an underline, a strike, a bar): every point near its chord.
bool straight(const Polyline& s, double width) {
    const double chord = distance(s.front(), s.back());
    const double tolerance = std::max(1.5 * width + 1, 0.08 * chord);
    return std::all_of(s.begin(), s.end(), [&](Point p) { return to_segment(p, s.front(), s.back()) <= tolerance; });
}

// A closed loop (a circle or a box around words): its ends meet.
bool loop(const Polyline& s, double width) {
    const pdf::Rect b = box_of(s);
    return distance(s.front(), s.back()) <= std::max(3 * width + 2, 0.25 * std::hypot(b.width(), b.height()));
}

}  // namespace

pdf::Rect transformed_box(const pdf::Rect& bbox, const Matrix& m) {
    return box_of({apply(m, {bbox.llx, bbox.lly}), apply(m, {bbox.urx, bbox.lly}), apply(m, {bbox.urx, bbox.ury}),
                   apply(m, {bbox.llx, bbox.ury})});
}

bool appearance_to_page(const pdf::Rect& bbox, const Matrix& form, const pdf::Rect& rect, Matrix& out) {
    const pdf::Rect t = transformed_box(bbox, form);
    if (!(t.width() > 0) || !(t.height() > 0)) return false;
    const double sx = rect.width() / t.width(), sy = rect.height() / t.height();
    out = times(form, {sx, 0, 0, sy, rect.llx - sx * t.llx, rect.lly - sy * t.lly});
    return std::all_of(out.begin(), out.end(), [](double v) { return std::isfinite(v); });
}

Drawing read_drawing(std::string_view content, const Matrix& to_page) { return Reader(to_page).read(content); }

std::string markup_rule(const std::string& subtype, const Drawing& drawing, const std::vector<double>& quads) {
    if (!drawing.refused.empty()) return "whose appearance uses " + drawing.refused + " (not a comment's drawing)";
    std::vector<Quad> q;
    if (!read_quads(quads, q)) return "whose /QuadPoints are not quads";
    for (const Painted& p : drawing.paths)
        if (!std::any_of(q.begin(), q.end(), [&](const Quad& one) { return marks_quad(subtype, p, one); }))
            return "whose appearance paints what a viewer does not draw from its /QuadPoints (" +
                   std::string(subtype == "Highlight" ? "one filled box a quad" : "a line along a quad") + ")";
    return "";
}

std::string ink_appearance_rule(const Drawing& drawing, const std::vector<Polyline>& ink, double width) {
    if (!drawing.refused.empty()) return "whose appearance uses " + drawing.refused + " (not a comment's drawing)";
    if (ink.empty()) return "whose /InkList holds no stroke";
    for (const Painted& p : drawing.paths) {
        if (p.filled || p.width > 2 * width + 1) return "whose appearance fills or paints wider than its ink (/BS /W)";
        const double tolerance = width + p.width / 2 + 3;
        for (const Point& pt : p.points)
            if (std::none_of(ink.begin(), ink.end(),
                             [&](const Polyline& s) { return to_polyline(pt, s) <= tolerance; }))
                return "whose appearance strokes away from its /InkList";
    }
    return "";
}

std::string ink_marks_rule(const std::vector<Polyline>& ink, double width, const std::vector<Stroke>& earlier) {
    std::vector<Stroke> all = earlier;
    std::size_t points = 0;
    for (const auto& s : all) points += s.points.size();
    for (const Polyline& s : ink) {
        if (s.empty()) return "whose /InkList holds an empty stroke";
        if ((points += s.size()) > kMaxInkPoints)  // each pair of strokes is compared: a bound on the work
            return "whose ink, with the other ink comments on its page, holds over " + std::to_string(kMaxInkPoints) +
                   " points";
        if (!straight(s, width) && !loop(s, width))
            return "whose ink strokes bend without closing (handwriting or letters, not a line or a loop that marks "
                   "the text)";
        for (const Stroke& other : all)
            if (near(box_of(s), box_of(other.points), (width + other.width) / 2 + 1) &&
                between(s, other.points) <= (width + other.width) / 2 + 1)
                return "whose ink strokes join other strokes (letters, not marks that stand apart)";
        all.push_back({s, width});
    }
    return "";
}

std::string note_rule(const pdf::Rect& rect, const pdf::Rect* form_box) {
    const auto big = [](const pdf::Rect& r) { return r.width() > kIconSize || r.height() > kIconSize; };
    if (big(rect) || (form_box && big(*form_box)))
        return "larger than a note's icon (" + std::to_string(int(kIconSize)) + " by " +
               std::to_string(int(kIconSize)) + " points)";
    return "";
}

std::string ext_gstate_rule(const std::vector<std::pair<std::string, std::string>>& entries) {
    // What a graphics state may set in a comment's appearance: line style, alpha, blend mode,
    // overprint, flatness. A soft mask, transfer functions, halftones and the like reshape or
    // recolour what is painted, each viewer its own way.
    static const std::set<std::string> allowed = {"Type", "LW", "LC", "LJ", "ML", "D",  "RI", "CA", "ca",
                                                  "BM",   "AIS", "SA", "OP", "op", "OPM", "FL", "SM", "TK"};
    for (const auto& [key, value] : entries)
        if (!allowed.count(key) && !(key == "SMask" && value == "None"))
            return "a graphics state that sets /" + key;
    return "";
}

std::string popup_rule(const Drawing& drawing) {
    if (!drawing.refused.empty())
        return "whose appearance uses " + drawing.refused + " (a pop-up's appearance paints nothing)";
    if (!drawing.paths.empty()) return "whose appearance paints (viewers draw a pop-up themselves)";
    return "";
}

}  // namespace pith::verify::comments
