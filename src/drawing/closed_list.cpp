// SPDX-License-Identifier: MIT
#include "drawing/closed_list.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <string_view>
#include <tuple>
#include <utility>

#include "pdf/budget.hpp"
#include "pdf/content.hpp"
#include "pdf/objects.hpp"

namespace pith::drawing {
namespace {

using pdf::name_of;
using pdf::Object;
using pdf::Operand;

// ---------------------------------------------------------------- the list

// PDF 1.7's content operators (ISO 32000-1, annex A). Within a compatibility section BX ... EX
// a viewer skips operators it does not know, so what it draws there would depend on the viewer;
// but every operator is checked against this list wherever it stands, so a section holding only
// listed operators draws the same everywhere. d0 and d1 only begin a Type 3 glyph procedure. BI
// stands for the inline image (ID and EI are passed over with its data).
const std::set<std::string_view> kOperators = {
    "b",  "B",  "b*", "B*", "BDC", "BI", "BMC", "BT", "BX", "c",  "cm",  "CS",  "cs", "d",  "Do", "DP", "EMC", "ET",
    "EX", "f",  "F",  "f*", "G",   "g",  "gs",  "h",  "i",  "j",  "J",   "K",   "k",  "l",  "m",  "M",  "MP",  "n",
    "q",  "Q",  "re", "RG", "rg",  "ri", "s",   "S",  "SC", "sc", "SCN", "scn", "sh", "T*", "Tc", "Td", "TD",  "Tf",
    "Tj", "TJ", "TL", "Tm", "Tr",  "Ts", "Tw",  "Tz", "v",  "w",  "W",   "W*",  "y",  "'",  "\""};
const std::set<std::string_view> kGlyphOperators = {"d0", "d1"};
// The operators that end a path, painting it (or not: n) and applying a clip given for it.
const std::set<std::string_view> kPaintings = {"S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n"};

const std::set<std::string> kIntents = {"AbsoluteColorimetric", "RelativeColorimetric", "Saturation", "Perceptual"};

// The blend modes of PDF 1.4 (ISO 32000-1, 11.3.5), which PDF/A-2 allows.
const std::set<std::string> kBlendModes = {
    "Normal",    "Compatible", "Multiply",   "Screen",    "Overlay", "Darken",     "Lighten", "ColorDodge", "ColorBurn",
    "HardLight", "SoftLight",  "Difference", "Exclusion", "Hue",     "Saturation", "Color",   "Luminosity"};

// Graphics-state entries every viewer applies alike. /Name is PDF 1.0's name of the resource,
// and /AAPL:AA Apple's switch for anti-aliasing: neither changes what is drawn. Not listed:
// transfer functions (/TR, /TR2 other than the identity or default), black generation and
// undercolour removal other than the default, halftones other than the default (each applied
// by some renderers and printers and ignored by others: a black generation and undercolour
// removal can turn black type white in print), overprint turned on (simulated by some viewers
// only), and any other key.
const std::set<std::string> kPlainStateKeys = {"Type", "LW", "LC", "LJ",  "ML", "D",   "FL",   "SM",
                                               "SA",   "CA", "ca", "AIS", "TK", "OPM", "Name", "AAPL:AA"};

// The colour space families, each with the numbers a colour in it takes (ISO 32000-1, 8.6);
// kNumbersApart where the space itself says (an ICC profile's /N, DeviceN's names, a pattern's
// base).
constexpr int kNumbersApart = -1;
const std::map<std::string, int, std::less<>> kColourFamilies = {
    {"DeviceGray", 1}, {"CalGray", 1}, {"Indexed", 1},  {"Separation", 1},          {"DeviceRGB", 3},
    {"CalRGB", 3},     {"Lab", 3},     {"DeviceCMYK", 4}, {"ICCBased", kNumbersApart}, {"DeviceN", kNumbersApart},
    {"Pattern", kNumbersApart}};
const std::set<std::string> kFontTypes = {"Type1", "MMType1", "TrueType", "Type0", "Type3"};
const std::set<std::string> kCidFontTypes = {"CIDFontType0", "CIDFontType2"};

// Annotation types a viewer draws from their appearance alone. Not listed: multimedia and 3D
// (drawn by a player, or not at all), printer's marks and trap networks (print only), watermark
// annotations, redactions, projections.
const std::set<std::string> kAnnotationTypes = {
    "Text",      "Link",     "FreeText",  "Line",  "Square", "Circle", "Polygon", "PolyLine",       "Highlight",
    "Underline", "Squiggly", "StrikeOut", "Stamp", "Caret",  "Ink",    "Popup",   "FileAttachment", "Widget"};

// Actions a link or the document may run: each goes somewhere (a page, a file, a URL, another
// program, which viewers ask about first) and none changes what the page shows. Not listed:
// JavaScript, hiding or showing annotations and optional content, resetting or importing form
// data, renditions, transitions, 3D views.
const std::set<std::string> kActions = {"GoTo", "GoToR", "GoToE", "URI", "Named", "Thread", "Launch"};

// The operands each operator takes (ISO 32000-1, annex A), a letter each: n a number, i an
// integer, a a name, s a string, r an array, p a name or a dictionary (marked content's
// properties); an operator not named takes none (SC, sc, SCN and scn take the colour's numbers,
// checked apart). Given other operands the readers part ways: poppler drops the rest of the
// content stream at too few, takes the last ones of too many and skips an operator whose
// operand is of another kind; MuPDF takes the first ones and reads a name as 0.
const std::map<std::string_view, std::string_view> kOperands = {
    {"c", "nnnnnn"}, {"cm", "nnnnnn"}, {"CS", "a"}, {"cs", "a"}, {"d", "rn"}, {"d0", "nn"}, {"d1", "nnnnnn"},
    {"Do", "a"}, {"DP", "ap"}, {"BDC", "ap"}, {"BMC", "a"}, {"MP", "a"}, {"G", "n"}, {"g", "n"}, {"gs", "a"},
    {"i", "n"}, {"j", "i"}, {"J", "i"}, {"K", "nnnn"}, {"k", "nnnn"}, {"l", "nn"}, {"m", "nn"}, {"M", "n"},
    {"re", "nnnn"}, {"RG", "nnn"}, {"rg", "nnn"}, {"ri", "a"}, {"sh", "a"}, {"Tc", "n"}, {"Td", "nn"}, {"TD", "nn"},
    {"Tf", "an"}, {"Tj", "s"}, {"TJ", "r"}, {"TL", "n"}, {"Tm", "nnnnnn"}, {"Tr", "i"}, {"Ts", "n"}, {"Tw", "n"},
    {"Tz", "n"}, {"v", "nnnn"}, {"y", "nnnn"}, {"w", "n"}, {"'", "s"}, {"\"", "nns"}};

bool operand_is(const Operand& o, char kind) {
    switch (kind) {
        case 'n': return o.kind == Operand::Number;
        case 'i': return o.kind == Operand::Number && o.number_text.find('.') == std::string_view::npos;
        case 'a': return o.kind == Operand::Name;
        case 's': return o.kind == Operand::String;
        case 'r': return o.kind == Operand::Array;
        default: return o.kind == Operand::Name || o.kind == Operand::Other;
    }
}

// What is wrong with the `n` operands `op` was given; empty when they are those kOperands names.
std::string operands_wrong(std::string_view op, const std::vector<Operand>& operands, std::size_t n) {
    if (op == "SC" || op == "sc" || op == "SCN" || op == "scn") {  // numbers, and a pattern's name last
        const bool pattern = (op == "SCN" || op == "scn") && n > 0 && operands[n - 1].kind == Operand::Name;
        for (std::size_t i = 0; i + (pattern ? 1 : 0) < n; ++i)
            if (operands[i].kind != Operand::Number) return "an operand that is not a number";
        return n == 0 ? "no operand" : "";
    }
    const auto found = kOperands.find(op);
    const std::string_view want = found == kOperands.end() ? std::string_view() : found->second;
    if (n != want.size()) return std::to_string(n) + " operands (it takes " + std::to_string(want.size()) + ")";
    for (std::size_t i = 0; i < n; ++i)
        if (!operand_is(operands[i], want[i])) return "operand " + std::to_string(i + 1) + " of another kind";
    if (op == "Tr" && (operands[0].number_text.size() != 1 || operands[0].number_text[0] > '7'))
        return "a mode other than 0 to 7";  // MuPDF draws no text in mode 8 or 3.5, poppler fills it
    return "";
}

// A matrix that cannot be inverted (its determinant 0): poppler's Splash, MuPDF and Ghostscript
// draw nothing under it; cairo (pdftocairo, Evince) passes over it and draws with the matrix
// it had. Six plain numbers, read as every reader reads them.
bool singular(const double m[6]) { return m[0] * m[3] - m[1] * m[2] == 0; }

// A number as PDF writes it, and every reader parses alike: digits with at most one point and
// an optional sign in front. "1.2.3", "--5" or "1e5" are read differently by different parsers.
bool plain_number(std::string_view text) {
    std::size_t i = (!text.empty() && (text[0] == '+' || text[0] == '-')) ? 1 : 0;
    bool digits = false, point = false;
    for (; i < text.size(); ++i) {
        if (text[i] >= '0' && text[i] <= '9')
            digits = true;
        else if (text[i] == '.' && !point)
            point = true;
        else
            return false;
    }
    return digits && text.size() <= 40;
}

// A graphics-state entry and its value (resolved) on the list; a soft mask is walked apart.
bool state_entry_listed(const std::string& key, const Object& v) {
    const std::string name = name_of(&v);
    if (key == "RI") return kIntents.count(name) > 0;
    if (key == "BM")  // a name, or an array whose first mode every viewer knows
        return kBlendModes.count(pdf::is_array(v) && !pdf::array_of(v).empty() ? name_of(&pdf::array_of(v)[0])
                                                                                : name) > 0;
    if (key == "TR") return name == "Identity";
    if (key == "TR2") return name == "Identity" || name == "Default";
    if (key == "BG2" || key == "UCR2" || key == "HT") return name == "Default";
    if (key == "OP" || key == "op") return pdf::is_bool(v) && !pdf::bool_of(v);
    if (key == "Font") return pdf::is_array(v) && !pdf::array_of(v).empty();
    if (key == "SMask") return pdf::is_dictionary(v) || name == "None";
    return kPlainStateKeys.count(key) > 0;
}

// ---------------------------------------------------------------- the walk

// The colour space fill or stroke paints in, by the numbers its colour takes (sc, scn): -1 where
// the walk cannot tell (a space off the list is named apart). A pattern space takes a pattern's
// name, after its base space's numbers when it has one.
struct ColourSpace {
    int numbers = 1;  // DeviceGray, a page's first
    bool pattern = false;
};
struct Colours {
    ColourSpace fill, stroke;
};

constexpr int kMaxDepth = 16;               // forms, patterns and glyph procedures within each other
constexpr std::size_t kMaxObjects = 20000;  // objects a page's drawing reaches, each walked once

class Walk {
public:
    Walk(pdf::File& file, std::vector<pdf::Rect> keep_clear = {}) : file_(file), keep_clear_(std::move(keep_clear)) {}

    std::set<std::string> unlisted;  // each named once, in order

    void content(const std::string& bytes, const Object* resources, bool glyph_procedure, int depth);
    void xobject(const Object& value, const Object* resources, int depth, bool appearance = false);
    void annotation(const Object& value, int depth);
    // The annotation's /Rect meets an area kept clear (one that cannot be read meets them all).
    bool meets_kept_area(const Object& annotation) {
        pdf::Rect r;
        if (!pdf::annotation_rect(file_, annotation, r)) return !keep_clear_.empty();
        for (const pdf::Rect& area : keep_clear_)
            if (pdf::overlaps(r, area)) return true;
        return false;
    }
    // A reader may print the paper: "on screen only" or "in print only" where the annotation's
    // flags show it in one of the two (no Print flag: not printed; NoView with Print: printed
    // only); empty where both show it, or neither (Hidden).
    std::string shown_in_one_view(const Object& annotation) {
        const Object* f = pdf::entry(file_, annotation, "F");
        const long long flags = f && pdf::is_integer(*f) ? pdf::integer_of(*f) : 0;
        const bool hidden = flags & 2, screen = !hidden && !(flags & 32), print = !hidden && (flags & 4);
        if (screen == print) return "";
        return screen ? "on screen only (no Print flag)" : "in print only (NoView)";
    }
    // An action and the actions its /Next chains (`whose`: "Link annotation", "the document's
    // open action"): each on kActions.
    void actions(const Object& value, const std::string& whose);

private:
    void operation(std::string_view op, const std::vector<Operand>& operands, std::size_t n, const Object* resources,
                   bool glyph_procedure, int depth);
    void numbers(const Operand& operand);
    void clips(std::string_view op, const std::vector<Operand>& operands, std::size_t n);
    void graphics_state(const Object& value, int depth);
    void soft_mask(const Object& value, int depth);
    void colour_space(const Object& value, const Object* resources, int depth);
    ColourSpace space_named(const std::string& name, const Object* resources);
    ColourSpace space_of(const Object& value, int depth);
    std::string colour_wrong(std::string_view op, const std::vector<Operand>& operands, std::size_t n,
                             const Object* resources);
    void font(const Object& value, const Object* resources, int depth);
    void pattern(const Object& value, const Object* resources, int depth);
    void shading(const Object& value, const Object* resources, int depth);
    void stream_content(const Object& value, const Object* resources, bool glyph_procedure, int depth);
    bool form_matrix_singular(const Object& form);

    // The entry `name` of the page's (or form's) /Resources category, as stored (a reference is
    // left as one, so that each object is walked once); nullptr when absent.
    const Object* resource(const Object* resources, const char* category, const std::string& name);
    // True the first time a reference is reached (direct objects always count as new).
    bool first_visit(const Object& value);
    // Notes the object `value` refers to when it holds a key twice (reading it if not read yet).
    void note_keys_twice(const Object& value);
    void note_keys_twice_referred(const Object& annotation);

    void note(std::string what) { unlisted.insert(std::move(what)); }
    // True (and noted) past kMaxDepth: a drawing nested deeper than any honest page's.
    bool too_deep(int depth) {
        if (depth > kMaxDepth) note("drawing nested more than " + std::to_string(kMaxDepth) + " deep");
        return depth > kMaxDepth;
    }

    // Where a content stream stands, for clips() (one per content stream being walked, innermost
    // last; a form inherits its caller's text rendering mode, as it does in every viewer).
    struct Drawn {
        bool path = false;         // a path is being built (m or re, not yet painted)
        std::string clip;          // W or W* given for the path the next painting ends
        bool glyphs = false;       // the open text object has shown a glyph
        int text_mode = 0;         // Tr, which q and Q save and restore
        Colours colours;           // likewise
        std::vector<std::pair<int, Colours>> saved;
    };

    pdf::File& file_;
    std::vector<pdf::Rect> keep_clear_;  // on this page
    std::set<std::uint32_t> seen_;
    std::vector<Drawn> drawn_;
};

// Object `num` (read already) holds a key twice with different values: Ghostscript draws with the
// first value, poppler and MuPDF with the last. Empty when it holds none.
std::string keys_twice(pdf::File& file, std::uint32_t num) {
    std::string keys;
    for (const std::string& key : file.keys_twice(num)) keys += (keys.empty() ? "/" : ", /") + key;
    if (keys.empty()) return "";
    return "object " + std::to_string(num) + " holding " + keys +
           " twice with different values (Ghostscript reads the first, poppler and MuPDF the last)";
}

// The objects above `node` along its /Parent references (the page tree nodes above a page, the
// fields above a widget), nearest first, each read; at most 32 (a chain may loop).
std::vector<pdf::Ref> ancestors(pdf::File& file, const Object& node) {
    std::vector<pdf::Ref> out;
    for (const Object* at = &node; out.size() < 32 && pdf::is_dictionary(*at);) {
        const Object* parent = pdf::find(*at, "Parent");
        if (!parent || !pdf::is_reference(*parent)) break;
        out.push_back(pdf::reference_of(*parent));
        at = &file.get(out.back());
    }
    return out;
}

bool Walk::first_visit(const Object& value) {
    if (!pdf::is_reference(value)) return true;
    if (seen_.size() >= kMaxObjects) {
        note("more than " + std::to_string(kMaxObjects) + " objects drawn on one page");
        return false;
    }
    if (!seen_.insert(pdf::object_number(pdf::reference_of(value))).second) return false;
    note_keys_twice(value);
    return true;
}

void Walk::note_keys_twice(const Object& value) {
    if (!pdf::is_reference(value)) return;
    const pdf::Ref& ref = pdf::reference_of(value);
    file_.get(ref);  // read, so that its keys are known
    if (std::string twice = keys_twice(file_, pdf::object_number(ref)); !twice.empty()) note(twice);
}

const Object* Walk::resource(const Object* resources, const char* category, const std::string& name) {
    if (!resources) return nullptr;
    const Object* dict = pdf::dictionary_entry(file_, *resources, category);
    return dict ? pdf::find(*dict, pdf::Name(name)) : nullptr;
}

void Walk::numbers(const Operand& operand) {
    if (operand.kind == Operand::Number && !plain_number(operand.number_text))
        note("the number \"" + std::string(operand.number_text.substr(0, 20)) + "\"");
    for (const Operand& item : operand.items) numbers(item);
}

void Walk::content(const std::string& bytes, const Object* resources, bool glyph_procedure, int depth) {
    pdf::ContentLexer lexer(bytes);
    std::vector<Operand> operands;
    std::size_t n = 0;
    std::string_view op;
    // A page's content starts in DeviceGray; a form, a pattern or a glyph goes on from its caller.
    drawn_.push_back({false, "", false, drawn_.empty() ? 0 : drawn_.back().text_mode,
                      drawn_.empty() ? Colours{} : drawn_.back().colours, {}});
    try {
        for (;;) {
            if (n == operands.size()) operands.emplace_back();
            const auto token = lexer.token(op, operands[n]);
            if (token == pdf::ContentLexer::Token::End) break;
            if (token == pdf::ContentLexer::Token::Operand) {
                numbers(operands[n++]);
                continue;
            }
            clips(op, operands, n);
            operation(op, operands, n, resources, glyph_procedure, depth);
            n = 0;
        }
    } catch (const pdf::TooLarge&) {
        drawn_.pop_back();
        throw;
    } catch (const Error&) {
        // a syntax error ends the content for every reader: what precedes it was walked, and
        // the damage is the file's defects' to report
    }
    drawn_.pop_back();
}

// Clips the renderers make differently of the same operators: a clip (W, W*) whose painting ends
// no path clips everything away in MuPDF and nothing in poppler and Ghostscript; a text object
// in a clipping mode (Tr 4 to 7) that shows no glyph clips everything away in Ghostscript and
// nothing in poppler and MuPDF. Either hides, in one viewer only, all that follows.
void Walk::clips(std::string_view op, const std::vector<Operand>& operands, std::size_t n) {
    Drawn& d = drawn_.back();
    const auto shows = [](const Operand& o) {
        if (o.kind == Operand::String) return !o.bytes.empty();
        return o.kind == Operand::Array && std::any_of(o.items.begin(), o.items.end(), [](const Operand& i) {
                   return i.kind == Operand::String && !i.bytes.empty();
               });
    };
    if (op == "m" || op == "re") {
        d.path = true;
    } else if (op == "W" || op == "W*") {  // before or after the path: it takes effect at the painting
        d.clip = op;
    } else if (kPaintings.count(op)) {
        if (!d.clip.empty() && !d.path) note("a clip (" + d.clip + ") with no path to clip to");
        d.path = false;
        d.clip.clear();
    } else if (op == "q") {
        d.saved.emplace_back(d.text_mode, d.colours);
    } else if (op == "Q" && !d.saved.empty()) {
        std::tie(d.text_mode, d.colours) = d.saved.back();
        d.saved.pop_back();
    } else if (op == "Tr" && n > 0 && operands[n - 1].kind == Operand::Number) {
        d.text_mode = static_cast<int>(std::strtol(std::string(operands[n - 1].number_text).c_str(), nullptr, 10));
    } else if (op == "BT") {
        d.glyphs = false;
    } else if ((op == "Tj" || op == "TJ" || op == "'" || op == "\"") && n > 0 && shows(operands[n - 1])) {
        d.glyphs = true;
    } else if (op == "ET" && d.text_mode >= 4 && d.text_mode <= 7 && !d.glyphs) {
        note("a text object in clipping mode " + std::to_string(d.text_mode) + " (Tr) that shows no glyph");
    }
}

void Walk::operation(std::string_view op, const std::vector<Operand>& operands, std::size_t n, const Object* resources,
                     bool glyph_procedure, int depth) {
    if (!kOperators.count(op) && !(glyph_procedure && kGlyphOperators.count(op))) {
        note("content operator " + std::string(op.substr(0, 20)));
        return;
    }
    if (std::string wrong = operands_wrong(op, operands, n); !wrong.empty()) {
        note("content operator " + std::string(op) + " with " + wrong);
        return;
    }
    if (std::string wrong = colour_wrong(op, operands, n, resources); !wrong.empty()) {
        note("content operator " + std::string(op) + " with " + wrong);
        return;
    }
    if (op == "cm") {
        double m[6];
        for (int i = 0; i < 6; ++i) m[i] = std::strtod(std::string(operands[i].number_text).c_str(), nullptr);
        if (singular(m)) note("a matrix that cannot be inverted (cm)");
    }
    const Operand* last = n > 0 ? &operands[n - 1] : nullptr;
    const std::string name = last && last->kind == Operand::Name ? last->bytes : "";
    if (op == "ri" && !kIntents.count(name)) note("rendering intent /" + name);
    if (op == "Tf" && n >= 2 && operands[n - 2].kind == Operand::Name) {  // font size last
        if (const Object* f = resource(resources, "Font", operands[n - 2].bytes)) font(*f, resources, depth);
        return;
    }
    if (name.empty()) return;
    if (op == "gs") {
        if (const Object* gs = resource(resources, "ExtGState", name)) graphics_state(*gs, depth);
    } else if (op == "Do") {
        if (const Object* x = resource(resources, "XObject", name)) xobject(*x, resources, depth);
    } else if (op == "cs" || op == "CS") {
        if (name == "DeviceGray" || name == "DeviceRGB" || name == "DeviceCMYK" || name == "Pattern") return;
        if (const Object* cs = resource(resources, "ColorSpace", name)) colour_space(*cs, resources, depth);
    } else if (op == "sh") {
        if (const Object* s = resource(resources, "Shading", name)) shading(*s, resources, depth);
    } else if (op == "scn" || op == "SCN") {
        if (const Object* p = resource(resources, "Pattern", name)) pattern(*p, resources, depth);
    }
}

// Follows the colour spaces g, rg, k and cs set (and their stroking twins), and says what is wrong
// with the colour sc, SC, scn or SCN gives for its space: poppler and cairo skip such an operator,
// MuPDF and Ghostscript take the numbers they need, so type white in one is black in the other.
std::string Walk::colour_wrong(std::string_view op, const std::vector<Operand>& operands, std::size_t n,
                               const Object* resources) {
    Colours& colours = drawn_.back().colours;
    ColourSpace& space = op[0] >= 'A' && op[0] <= 'Z' ? colours.stroke : colours.fill;
    if (op == "g" || op == "G") space = {1, false};
    else if (op == "rg" || op == "RG") space = {3, false};
    else if (op == "k" || op == "K") space = {4, false};
    else if (op == "cs" || op == "CS") space = space_named(operands[0].bytes, resources);
    if (!(op == "sc" || op == "SC" || op == "scn" || op == "SCN") || space.numbers < 0) return "";
    const bool named = n > 0 && operands[n - 1].kind == Operand::Name;
    const int numbers = static_cast<int>(n) - (named ? 1 : 0);
    if (named != space.pattern)
        return named ? "a pattern where its colour space takes numbers"
                     : "numbers where its colour space takes a pattern";
    if (numbers != space.numbers)
        return std::to_string(numbers) + (numbers == 1 ? " number" : " numbers") + " (its colour space takes " +
               std::to_string(space.numbers) + ")";
    return "";
}

ColourSpace Walk::space_named(const std::string& name, const Object* resources) {
    if (name == "Pattern") return {0, true};
    if (const auto f = kColourFamilies.find(name); f != kColourFamilies.end() && f->second != kNumbersApart)
        return {f->second, false};
    const Object* cs = resource(resources, "ColorSpace", name);
    return cs ? space_of(*cs, 0) : ColourSpace{-1, false};
}

ColourSpace Walk::space_of(const Object& value, int depth) {
    const Object& cs = file_.resolve(value);
    const bool array = pdf::is_array(cs) && !pdf::array_of(cs).empty();
    const std::string family = name_of(array ? &file_.resolve(pdf::array_of(cs)[0]) : &cs);
    const bool has_second = array && pdf::array_of(cs).size() > 1;
    const Object* second = has_second ? &file_.resolve(pdf::array_of(cs)[1]) : nullptr;
    if (family == "Pattern") {
        const bool base = second && depth < kMaxDepth;
        return {base ? space_of(pdf::array_of(cs)[1], depth + 1).numbers : 0, true};
    }
    if (const auto f = kColourFamilies.find(family); f != kColourFamilies.end() && f->second != kNumbersApart)
        return {f->second, false};
    const bool icc = family == "ICCBased" && second && pdf::is_dictionary(*second);
    if (const Object* n = icc ? pdf::entry(file_, *second, "N") : nullptr; n && pdf::is_integer(*n))
        return {static_cast<int>(pdf::integer_of(*n)), false};
    if (family == "DeviceN" && second && pdf::is_array(*second))
        return {static_cast<int>(pdf::array_of(*second).size()), false};
    return {-1, false};
}

void Walk::stream_content(const Object& value, const Object* resources, bool glyph_procedure, int depth) {
    if (!pdf::is_reference(value) || !file_.is_stream(pdf::reference_of(value))) return;
    std::shared_ptr<const std::string> bytes;
    try {
        bytes = file_.stream_decoded_shared(pdf::reference_of(value));
    } catch (const pdf::TooLarge&) {
        throw;
    } catch (const Error&) {
        return;  // undecodable: no reader draws it, and the file's defects say so
    }
    content(*bytes, resources, glyph_procedure, depth);
}

void Walk::graphics_state(const Object& value, int depth) {
    const Object& gs = file_.resolve(value);
    if (!pdf::is_dictionary(gs) || !first_visit(value)) return;
    for (const auto& [key, stored] : pdf::entries(gs)) {
        const Object& v = file_.resolve(*stored);
        if (key == "SMask" && name_of(&v) != "None") soft_mask(v, depth);
        if (key == "Font" && pdf::is_array(v) && !pdf::array_of(v).empty()) font(pdf::array_of(v)[0], nullptr, depth);
        if (!state_entry_listed(key, v))
            note("graphics state /" + key + (name_of(&v).empty() ? "" : " /" + name_of(&v)) +
                 (pdf::is_bool(v) && pdf::bool_of(v) ? " true" : ""));
    }
}

void Walk::soft_mask(const Object& value, int depth) {
    const Object& mask = file_.resolve(value);
    if (!pdf::is_dictionary(mask)) return;
    const std::string type = name_of(pdf::entry(file_, mask, "S"));
    if (type != "Alpha" && type != "Luminosity") note("soft mask /S /" + type);
    const Object* transfer = pdf::entry(file_, mask, "TR");
    if (transfer && name_of(transfer) != "Identity") note("soft mask /TR");
    // A backdrop colour with no colour space for it: poppler drops it (a black backdrop), MuPDF and
    // Ghostscript take it, so a luminosity mask over an empty group hides in one what it shows in
    // the others.
    const Object* group = pdf::find(mask, "G");
    const Object& form = group ? file_.resolve(*group) : mask;
    const Object* group_dict =
        group && pdf::is_dictionary(form) ? pdf::dictionary_entry(file_, form, "Group") : nullptr;
    if (type == "Luminosity" && pdf::has_key(mask, "BC") && !(group_dict && pdf::has_key(*group_dict, "CS")))
        note("a luminosity soft mask's backdrop (/BC) with no group colour space");
    if (group) xobject(*group, nullptr, depth);
}

void Walk::colour_space(const Object& value, const Object* resources, int depth) {
    const Object& cs = file_.resolve(value);
    if (pdf::is_name(cs)) {
        const std::string name = name_of(&cs);
        if (name != "DeviceGray" && name != "DeviceRGB" && name != "DeviceCMYK" && name != "Pattern")
            note("colour space /" + name);
        return;
    }
    if (!pdf::is_array(cs) || pdf::array_of(cs).empty()) return note("a colour space that is not a name or an array");
    if (too_deep(depth)) return;
    if (!first_visit(value)) return;
    const auto& a = pdf::array_of(cs);
    const std::string family = name_of(&file_.resolve(a[0]));
    if (!kColourFamilies.count(family)) return note("colour space /" + family);
    auto item = [&](std::size_t i) -> const Object* { return i < a.size() ? &a[i] : nullptr; };
    if (family == "ICCBased") {
        const Object& profile = item(1) ? file_.resolve(*item(1)) : cs;
        if (const Object* alternate = pdf::is_dictionary(profile) ? pdf::entry(file_, profile, "Alternate") : nullptr)
            colour_space(*alternate, resources, depth + 1);
    } else if (family == "Indexed" || family == "Pattern") {
        if (item(1)) colour_space(*item(1), resources, depth + 1);
    } else if (family == "Separation") {
        if (item(2)) colour_space(*item(2), resources, depth + 1);
    } else if (family == "DeviceN") {
        if (item(2)) colour_space(*item(2), resources, depth + 1);
        const Object* attributes = item(4) ? &file_.resolve(*item(4)) : nullptr;
        if (const Object* colourants = attributes ? pdf::dictionary_entry(file_, *attributes, "Colorants") : nullptr)
            for (const auto& [key, space] : pdf::entries(*colourants)) colour_space(*space, resources, depth + 1);
    }
}

void Walk::xobject(const Object& value, const Object* resources, int depth, bool appearance) {
    if (!first_visit(value)) return;
    const Object& x = file_.resolve(value);
    if (!pdf::is_dictionary(x)) return;
    if (too_deep(depth)) return;
    std::string subtype = name_of(pdf::entry(file_, x, "Subtype"));
    if (appearance && subtype.empty()) subtype = "Form";  // an appearance is drawn as a form, /Subtype or not
    for (const char* key : {"OPI", "Alternates", "Ref", "PS"})
        if (pdf::has_key(x, key)) note(subtype + " XObject with /" + key);
    if (subtype == "Image") {
        if (const Object* cs = pdf::entry(file_, x, "ColorSpace")) colour_space(*cs, resources, depth + 1);
        if (const Object* intent = pdf::entry(file_, x, "Intent"); intent && !kIntents.count(name_of(intent)))
            note("rendering intent /" + name_of(intent));
        if (const Object* mask = pdf::find(x, "SMask")) xobject(*mask, resources, depth + 1);
    } else if (subtype == "Form") {
        if (form_matrix_singular(x)) note("a form whose /Matrix cannot be inverted");
        const Object* own = pdf::dictionary_entry(file_, x, "Resources");
        if (const Object* group = pdf::dictionary_entry(file_, x, "Group"))
            if (const Object* cs = pdf::entry(file_, *group, "CS")) colour_space(*cs, own ? own : resources, depth + 1);
        stream_content(value, own ? own : resources, false, depth + 1);
    } else {
        note("XObject /Subtype /" + subtype);
    }
}

// A form's /Matrix of six numbers that cannot be inverted (an absent or malformed one is the identity).
bool Walk::form_matrix_singular(const Object& form) {
    const auto m = pdf::numbers_in(file_, pdf::entry(file_, form, "Matrix"));
    return m && m->size() == 6 && singular(m->data());
}

void Walk::font(const Object& value, const Object* resources, int depth) {
    if (!first_visit(value)) return;
    const Object& f = file_.resolve(value);
    if (!pdf::is_dictionary(f)) return;
    const std::string subtype = name_of(pdf::entry(file_, f, "Subtype"));
    if (!kFontTypes.count(subtype)) return note("font /Subtype /" + subtype);
    if (subtype == "Type0") {
        const Object* descendants = pdf::entry(file_, f, "DescendantFonts");
        const bool one = descendants && pdf::is_array(*descendants) && !pdf::array_of(*descendants).empty();
        const Object* cid = one ? &file_.resolve(pdf::array_of(*descendants)[0]) : nullptr;
        const std::string cid_type = cid && pdf::is_dictionary(*cid) ? name_of(pdf::entry(file_, *cid, "Subtype")) : "";
        if (!kCidFontTypes.count(cid_type)) note("CID font /Subtype /" + cid_type);
    } else if (subtype == "Type3") {
        if (too_deep(depth)) return;
        const Object* own = pdf::dictionary_entry(file_, f, "Resources");
        if (const Object* procs = pdf::dictionary_entry(file_, f, "CharProcs"))
            for (const auto& [glyph, proc] : pdf::entries(*procs))
                if (first_visit(*proc)) stream_content(*proc, own ? own : resources, true, depth + 1);
    }
}

void Walk::pattern(const Object& value, const Object* resources, int depth) {
    if (!first_visit(value)) return;
    const Object& p = file_.resolve(value);
    if (!pdf::is_dictionary(p)) return;
    if (too_deep(depth)) return;
    const Object* type = pdf::entry(file_, p, "PatternType");
    const long kind = type && pdf::is_number(*type) ? std::lround(pdf::number_value(*type)) : 0;
    if (kind == 1) {
        const Object* own = pdf::dictionary_entry(file_, p, "Resources");
        stream_content(value, own ? own : resources, false, depth + 1);
    } else if (kind == 2) {
        if (const Object* s = pdf::entry(file_, p, "Shading")) shading(*s, resources, depth + 1);
        if (const Object* gs = pdf::entry(file_, p, "ExtGState")) graphics_state(*gs, depth + 1);
    } else {
        note("pattern type " + std::to_string(kind));
    }
}

void Walk::shading(const Object& value, const Object* resources, int depth) {
    if (!first_visit(value)) return;
    const Object& s = file_.resolve(value);
    if (!pdf::is_dictionary(s)) return;
    const Object* type = pdf::entry(file_, s, "ShadingType");
    const long kind = type && pdf::is_number(*type) ? std::lround(pdf::number_value(*type)) : 0;
    if (kind < 1 || kind > 7) note("shading type " + std::to_string(kind));
    if (const Object* cs = pdf::entry(file_, s, "ColorSpace")) colour_space(*cs, resources, depth + 1);
}

// An annotation on the page: its type, and every appearance it may show (each drawn as a form).
void Walk::annotation(const Object& value, int depth) {
    const Object& a = file_.resolve(value);
    if (!pdf::is_dictionary(a)) return;
    note_keys_twice(value);  // which appearance, rectangle or flags a viewer takes must not be its choice
    note_keys_twice_referred(a);
    const std::string subtype = pdf::subtype_of(file_, a);
    if (!kAnnotationTypes.count(subtype)) note("annotation /Subtype /" + subtype);
    // What changes the page once it is open: actions on hover, focus or click, a note opened
    // over the page, another appearance while the pointer rests on it.
    if (pdf::has_key(a, "AA")) note(subtype + " annotation with actions on events (/AA)");
    if (const Object* action = pdf::entry(file_, a, "A")) actions(*action, subtype + " annotation");
    if (const Object* open = pdf::entry(file_, a, "Open"); open && pdf::is_bool(*open) && pdf::bool_of(*open))
        note(subtype + " annotation opened over the page (/Open true)");
    const Object* appearances = pdf::dictionary_entry(file_, a, "AP");
    if (meets_kept_area(a) && (appearances || (subtype != "Link" && subtype != "Popup")))
        if (const std::string where = shown_in_one_view(a); !where.empty())
            note(subtype + " annotation over the title or badge shown " + where);
    if (!appearances) return;
    note_keys_twice(*pdf::find(a, "AP"));
    for (const auto& [kind, shown] : pdf::entries(*appearances)) {
        // The rollover appearance shows while the pointer rests on the annotation, the down
        // appearance while a button presses it: where that is the title or the badge, the
        // reader may see other words there than pith read.
        if ((kind == "R" || kind == "D") && meets_kept_area(a))
            note(subtype + " annotation with a " + (kind == "R" ? "rollover" : "pressed") +
                 " appearance over the title or badge");
        const Object& states = file_.resolve(*shown);
        const bool one_form = pdf::is_reference(*shown) && file_.is_stream(pdf::reference_of(*shown));
        if (!one_form && pdf::is_dictionary(states)) {
            note_keys_twice(*shown);  // the states' dictionary (each form is read by xobject())
            for (const auto& [state, form] : pdf::entries(states)) xobject(*form, nullptr, depth + 1, true);
        } else {
            xobject(*shown, nullptr, depth + 1, true);
        }
    }
}

// What a viewer reads beside the appearance to draw an annotation, when it is an object of its
// own: the border (/BS, /BE), a widget's colours and caption (/MK), and the field above it (/Parent,
// whose /DA, /V and /Q a viewer that draws the field from its value inherits), up the chain.
void Walk::note_keys_twice_referred(const Object& a) {
    for (const char* key : {"BS", "BE", "MK"})
        if (const Object* v = pdf::find(a, key)) note_keys_twice(*v);
    for (const pdf::Ref& field : ancestors(file_, a))
        if (std::string twice = keys_twice(file_, pdf::object_number(field)); !twice.empty()) note(twice);
}

void Walk::actions(const Object& value, const std::string& whose) {
    std::vector<const Object*> todo{&value};  // /Next is an action or an array of them; a chain may loop
    for (int count = 0; !todo.empty(); ++count) {
        if (count == 64) return note(whose + " chains more than 64 actions");
        const Object& action = file_.resolve(*todo.back());
        todo.pop_back();
        if (pdf::is_array(action)) {
            for (const Object& item : pdf::array_of(action)) todo.push_back(&item);
        } else if (pdf::is_dictionary(action)) {
            const std::string type = name_of(pdf::entry(file_, action, "S"));
            if (!kActions.count(type)) note(whose + " runs a /" + type + " action");
            if (const Object* next = pdf::find(action, "Next")) todo.push_back(next);
        }
    }
}

// What the document does when opened, beyond showing its pages: an open action or actions on
// events, document-level scripts, a portable collection (the viewer shows its files instead of
// the cover page), an XFA form (Acrobat draws the form's own layout instead of the page).
void document(pdf::File& file, Walk& walk) {
    const Object& catalog = file.catalog();
    if (const Object* open = pdf::entry(file, catalog, "OpenAction"); open && pdf::is_dictionary(*open))
        walk.actions(*open, "the document's open action");
    if (pdf::has_key(catalog, "AA")) walk.unlisted.insert("the document has actions on events (/AA)");
    const Object* names = pdf::dictionary_entry(file, catalog, "Names");
    if (names && pdf::has_key(*names, "JavaScript")) walk.unlisted.insert("document-level JavaScript");
    if (pdf::has_key(catalog, "Collection")) walk.unlisted.insert("a portable collection (/Collection)");
    const Object* form = pdf::dictionary_entry(file, catalog, "AcroForm");
    if (form && pdf::has_key(*form, "XFA")) walk.unlisted.insert("an XFA form");
}

// The page's entry `key` as the page tree gives it (inherited from the nodes above); nullptr when none has it.
const Object* inherited(pdf::File& file, const pdf::Page& page, const char* key) {
    const Object* node = &file.get(page.ref);
    for (int level = 0; node && pdf::is_dictionary(*node) && level < 32; ++level) {
        if (const Object* value = pdf::entry(file, *node, key)) return value;
        node = pdf::dictionary_entry(file, *node, "Parent");
    }
    return nullptr;
}

// A page box of four numbers (in either corner order); false for anything else.
bool box_of(pdf::File& file, const Object& value, pdf::Rect& box) {
    const auto v = pdf::numbers_in(file, &value);
    if (!v || v->size() != 4) return false;
    const std::vector<double>& n = *v;
    box = {std::min(n[0], n[2]), std::min(n[1], n[3]), std::max(n[0], n[2]), std::max(n[1], n[3])};
    return true;
}

// The page boxes that choose what a viewer shows: poppler takes Letter for a media box that is
// not four numbers, MuPDF the first four of five; a crop box that does not meet the media box
// leaves poppler one line of pixels and MuPDF one pixel or the whole media box.
void boxes(pdf::File& file, const pdf::Page& page, std::set<std::string>& unlisted) {
    pdf::Rect media, crop;
    const Object* media_value = inherited(file, page, "MediaBox");
    if (!media_value || !box_of(file, *media_value, media) || media.width() <= 0 || media.height() <= 0)
        return (void)unlisted.insert("a /MediaBox that is not four numbers around an area");
    const Object* crop_value = inherited(file, page, "CropBox");
    if (!crop_value) return;
    if (!box_of(file, *crop_value, crop)) return (void)unlisted.insert("a /CropBox that is not four numbers");
    if (!pdf::overlaps(crop, media) || crop.width() <= 0 || crop.height() <= 0)
        unlisted.insert("a /CropBox that shows none of the /MediaBox");
}

// /Rotate as the page tree gives it (inherited), and /UserUnit: a rotation that is not a
// multiple of 90 degrees or a unit other than 1 is drawn by some viewers and ignored by others.
void geometry(pdf::File& file, const pdf::Page& page, std::set<std::string>& unlisted) {
    if (const Object* rotate = inherited(file, page, "Rotate")) {
        const double r = pdf::is_number(*rotate) ? pdf::number_value(*rotate) : 1;
        if (r != std::floor(r) || std::fmod(r, 90) != 0) unlisted.insert("/Rotate that is not a multiple of 90");
    }
    boxes(file, page, unlisted);
    if (const Object* unit = pdf::entry(file, file.get(page.ref), "UserUnit"))
        if (!pdf::is_number(*unit) || pdf::number_value(*unit) != 1) unlisted.insert("/UserUnit other than 1");
}

// The page, the page tree nodes above it and its content streams, which choose what it draws:
// each holding a key twice with different values is named.
void keys_twice_above(pdf::File& file, const pdf::Page& page, std::set<std::string>& unlisted) {
    std::vector<std::uint32_t> nums{pdf::object_number(page.ref)};
    const Object& page_dict = file.get(page.ref);
    for (const pdf::Ref& node : ancestors(file, page_dict)) nums.push_back(pdf::object_number(node));
    const Object* contents = pdf::is_dictionary(page_dict) ? pdf::find(page_dict, "Contents") : nullptr;
    if (contents) {
        if (pdf::is_reference(*contents)) nums.push_back(pdf::object_number(pdf::reference_of(*contents)));
        if (const Object& list = file.resolve(*contents); pdf::is_array(list))
            for (const Object& item : pdf::array_of(list))
                if (pdf::is_reference(item)) nums.push_back(pdf::object_number(pdf::reference_of(item)));
    }
    for (std::uint32_t num : nums)
        if (std::string twice = keys_twice(file, num); !twice.empty()) unlisted.insert(twice);
}

}  // namespace

std::vector<std::string> unlisted_constructs(pdf::File& file, int page_index, const std::vector<Area>& keep_clear) {
    const pdf::Page page = file.page(page_index);
    std::vector<pdf::Rect> here;
    for (const Area& a : keep_clear)
        if (a.page == page_index) here.push_back(a.rect);
    Walk walk(file, std::move(here));
    geometry(file, page, walk.unlisted);
    if (pdf::is_dictionary(file.get(page.ref)) && pdf::has_key(file.get(page.ref), "AA"))
        walk.unlisted.insert("the page has actions on events (/AA)");
    const Object* resources = pdf::is_dictionary(page.resources) ? &page.resources : nullptr;
    walk.content(file.page_content(page), resources, false, 0);
    keys_twice_above(file, page, walk.unlisted);
    if (const pdf::Array* annots = pdf::annotations(file, file.get(page.ref)))
        for (const Object& a : *annots) walk.annotation(a, 0);
    return {walk.unlisted.begin(), walk.unlisted.end()};
}

pdf::Rect words_area(const std::vector<page::visible::Word>& words, Span span, const pdf::Page& geometry) {
    const auto box = [&](std::size_t i) {
        return pdf::user({words[i].x0, words[i].y0, words[i].x1, words[i].y1}, geometry);
    };
    pdf::Rect area = box(span.first);
    for (std::size_t i = span.first + 1; i <= span.second && i < words.size(); ++i) {
        const pdf::Rect r = box(i);
        area = {std::min(area.llx, r.llx), std::min(area.lly, r.lly), std::max(area.urx, r.urx),
                std::max(area.ury, r.ury)};
    }
    return area;
}

Area title_area(const page::title::TitleBlock& block, pdf::File& file) {
    const pdf::Page geometry = file.page(block.index);
    if (!block.reading.page || !block.shown.span || block.reading.page->words.empty())
        return {block.index, geometry.crop_box, "the title"};
    return {block.index, words_area(block.reading.page->words, *block.shown.span, geometry), "the title"};
}

std::vector<std::string> unlisted_behaviour(pdf::File& file) {
    Walk walk(file);
    document(file, walk);
    return {walk.unlisted.begin(), walk.unlisted.end()};
}

std::string unlisted_on(pdf::File& file, const std::set<int>& pages, const std::vector<Area>& keep_clear) {
    std::string out;
    if (const std::vector<std::string> what = unlisted_behaviour(file); !what.empty()) {
        out = "the document does what pith's closed list lacks when opened: ";
        for (std::size_t i = 0; i < what.size(); ++i) out += (i ? ", " : "") + what[i];
    }
    for (int index : pages) {
        if (index < 0 || index >= file.page_count()) continue;
        const std::vector<std::string> what = unlisted_constructs(file, index, keep_clear);
        if (what.empty()) continue;
        out += std::string(out.empty() ? "" : "; ") + "page " + std::to_string(index + 1) +
               " draws with what pith's closed list lacks: ";
        for (std::size_t i = 0; i < what.size(); ++i) out += (i ? ", " : "") + what[i];
    }
    return out;
}

}  // namespace pith::drawing
