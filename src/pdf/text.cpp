#include "pdf/text.hpp"

#include "core/error.hpp"
#include "pdf/content.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

#include <unicode/utf16.h>
#include <unicode/utf8.h>

namespace pith::pdf {

using namespace PoDoFo;

namespace {

constexpr char32_t kUnknown = 0xFFFD;
constexpr int kMaxFormDepth = 8;
constexpr int kMaxForms = 256;                       // Form XObjects drawn, in all
constexpr std::size_t kMaxCMapEntries = 1u << 20;    // codes the ToUnicode maps of one page may define, in all
constexpr double kWordGap = 0.25;                    // TJ gap (em) written as a space

// ---------------------------------------------------------------- Unicode

char32_t host_order(pdf_utf16be v) {  // PoDoFo's tables hold UTF-16BE units
#ifdef PODOFO_IS_LITTLE_ENDIAN
    v = static_cast<pdf_utf16be>(((v & 0xFF) << 8) | ((v >> 8) & 0xFF));
#endif
    return v;
}

void append_utf8(std::string& out, char32_t c) {
    if (c > 0x10FFFF || U_IS_SURROGATE(c)) c = kUnknown;
    char bytes[U8_MAX_LENGTH];
    int32_t length = 0;
    U8_APPEND_UNSAFE(bytes, length, static_cast<UChar32>(c));
    out.append(bytes, static_cast<std::size_t>(length));
}

std::u32string from_utf16be(std::string_view bytes) {
    auto unit = [&](std::size_t i) -> char32_t { return (static_cast<unsigned char>(bytes[2 * i]) << 8) | static_cast<unsigned char>(bytes[2 * i + 1]); };
    std::u32string out;
    for (std::size_t i = 0, n = bytes.size() / 2; i < n; ++i) {
        char32_t c = unit(i);
        if (U16_IS_LEAD(c) && i + 1 < n && U16_IS_TRAIL(unit(i + 1))) c = U16_GET_SUPPLEMENTARY(c, unit(++i));
        out += U_IS_SURROGATE(c) ? kUnknown : c;
    }
    return out;
}

bool hex_digits(std::string_view s) {
    for (char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'))) return false;
    return !s.empty();
}

// A glyph name's characters, as the Adobe Glyph List specification maps them: the part before
// the first '.', each '_'-separated component an AGL name, uniXXXX[XXXX...] or uXXXX[XX].
// Empty when a component is none of these (names like "g12" or "cid42"). PoDoFo looks AGL
// names up one by one in a list of thousands, so each name is looked up once per process
// (not thread-safe: pith reads a PDF's pages on one thread).
std::u32string glyph_name_text(const std::string& glyph) {
    static std::unordered_map<std::string, std::u32string> known;
    if (auto it = known.find(glyph); it != known.end()) return it->second;
    std::string_view name = std::string_view(glyph).substr(0, glyph.find('.'));
    std::u32string out;
    while (!name.empty()) {
        const std::string_view part = name.substr(0, name.find('_'));
        name.remove_prefix(std::min(name.size(), part.size() + 1));
        if (part.size() == 1 && std::isalpha(static_cast<unsigned char>(part[0]))) {
            out += static_cast<char32_t>(part[0]);  // the AGL maps every one-letter name to itself
        } else if (char32_t c = host_order(PdfDifferenceEncoding::NameToUnicodeID(PdfName(std::string(part))))) {
            out += c;
        } else if (part.size() >= 7 && part.size() % 4 == 3 && part.substr(0, 3) == "uni" && hex_digits(part.substr(3))) {
            for (std::size_t i = 3; i < part.size(); i += 4) out += static_cast<char32_t>(std::stoul(std::string(part.substr(i, 4)), nullptr, 16));
        } else if (part.size() >= 5 && part.size() <= 7 && part[0] == 'u' && hex_digits(part.substr(1))) {
            out += static_cast<char32_t>(std::stoul(std::string(part.substr(1)), nullptr, 16));
        } else {
            out.clear();
            break;
        }
    }
    if (known.size() < 65536) known.emplace(glyph, out);
    return out;
}

// ---------------------------------------------------------------- fonts

using Encoding = std::array<char32_t, 256>;

// What a font's codes mean, worked out as codes are met: most of page 1's text goes through
// a ToUnicode map, and glyph names are looked up only for codes the page shows.
struct Font {
    int code_bytes = 1;                                  // 2 for the composite fonts pith reads
    bool codes_known = true;                             // false: a composite font's CMap pith does not read
    bool ucs2 = false;                                   // codes are UCS-2 (Adobe's Uni*-UCS2-H/V CMaps)
    std::unordered_map<std::uint32_t, std::u32string> to_unicode;  // the ToUnicode map
    // Simple fonts: the base encoding, and glyph names (/Differences, or the embedded font's own
    // encoding) taking precedence over it.
    Encoding encoding{};
    std::map<std::uint32_t, std::string> glyph_names;
    const PdfObject* builtin_from = nullptr;             // a FontDescriptor whose Type 1 program's encoding is still to read

    // The characters for `code`; empty when pith cannot tell.
    std::u32string decode(File& file, std::uint32_t code);
};

Encoding encoding_of(const PdfEncoding* table) {
    Encoding e{};
    for (int code = 0; code < 256; ++code) e[code] = host_order(table->GetCharCode(code));
    return e;
}

std::optional<Encoding> named_encoding(const std::string& name) {
    const PdfEncoding* table = name == "WinAnsiEncoding"   ? PdfEncodingFactory::GlobalWinAnsiEncodingInstance()
                               : name == "MacRomanEncoding" ? PdfEncodingFactory::GlobalMacRomanEncodingInstance()
                               : name == "StandardEncoding" ? PdfEncodingFactory::GlobalStandardEncodingInstance()
                               : name == "MacExpertEncoding" ? PdfEncodingFactory::GlobalMacExpertEncodingInstance()
                                                             : nullptr;
    if (!table) return std::nullopt;
    return encoding_of(table);
}

// The encoding an embedded Type 1 font program declares in its clear-text part
// ("/Encoding StandardEncoding def", or "dup 65 /A put" lines as pdfTeX's fonts carry it),
// added to `font` where /Differences leaves codes open.
void read_type1_encoding(File& file, const PdfObject& descriptor, Font& font) {
    const PdfObject* program = descriptor.GetDictionary().GetKey("FontFile");
    if (!program || !program->IsReference() || !file.is_stream(program->GetReference())) return;
    const std::string data = file.stream_decoded(program->GetReference());
    const PdfObject* length1 = file.get_key(file.get(program->GetReference()).GetDictionary(), "Length1");
    const std::size_t clear = length1 && length1->IsNumber() ? static_cast<std::size_t>(std::max<pdf_int64>(0, length1->GetNumber())) : data.size();
    std::string_view text(data.data(), std::min(clear, data.size()));
    const std::size_t at = text.find("/Encoding");
    if (at == std::string_view::npos) return;
    text.remove_prefix(at);
    if (text.substr(0, 40).find("StandardEncoding") != std::string_view::npos) {
        font.encoding = *named_encoding("StandardEncoding");
        return;
    }
    for (std::size_t pos = 0; (pos = text.find("dup ", pos)) != std::string_view::npos;) {
        pos += 4;
        std::size_t digits = pos;
        while (digits < text.size() && digits < pos + 3 && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
        if (digits == pos || digits + 1 >= text.size() || text[digits] != ' ' || text[digits + 1] != '/') continue;
        const std::uint32_t code = static_cast<std::uint32_t>(std::stoul(std::string(text.substr(pos, digits - pos))));
        const std::size_t name_end = text.find_first_of(" \t\r\n/", digits + 2);
        if (name_end == std::string_view::npos) break;
        if (code < 256) font.glyph_names.emplace(code, std::string(text.substr(digits + 2, name_end - digits - 2)));  // /Differences first
    }
}

std::u32string Font::decode(File& file, std::uint32_t code) {
    if (auto it = to_unicode.find(code); it != to_unicode.end() && !it->second.empty()) return it->second;
    if (ucs2 && code >= 0x20 && (code < 0xD800 || code > 0xDFFF)) return std::u32string(1, static_cast<char32_t>(code));
    if (code_bytes != 1) return {};
    if (builtin_from) {
        const PdfObject* descriptor = builtin_from;
        builtin_from = nullptr;
        try {
            read_type1_encoding(file, *descriptor, *this);
        } catch (const Error&) {
            // an unreadable font program: its codes stay unknown
        }
    }
    if (auto it = glyph_names.find(code); it != glyph_names.end()) return glyph_name_text(it->second);
    return encoding[code] ? std::u32string(1, encoding[code]) : std::u32string();
}

bool is_standard_14_text_font(const std::string& base_font) {
    for (const char* family : {"Times", "Helvetica", "Courier", "Arial", "TimesNewRoman", "CourierNew"})
        if (base_font.rfind(family, 0) == 0) return true;
    return false;
}

// Codes without a /Differences entry: for a standard font that is not embedded, the Standard
// encoding, or Symbol's and ZapfDingbats' own; an embedded Type 1 font's own (read when first
// needed); else unknown.
void set_default_encoding(File& file, const PdfDictionary& dict, const std::string& subtype, Font& font) {
    const PdfObject* descriptor = file.get_key(dict, "FontDescriptor");
    const bool embedded = descriptor && descriptor->IsDictionary() &&
                          (descriptor->GetDictionary().GetKey("FontFile") || descriptor->GetDictionary().GetKey("FontFile2") ||
                           descriptor->GetDictionary().GetKey("FontFile3"));
    const PdfObject* base = file.get_key(dict, "BaseFont");
    if (embedded && subtype == "Type1")
        font.builtin_from = descriptor;
    else if (!embedded && base && base->IsName() && is_standard_14_text_font(base->GetName().GetName()))
        font.encoding = *named_encoding("StandardEncoding");
    else if (!embedded && base && base->IsName() && base->GetName().GetName() == "Symbol")
        font.encoding = encoding_of(PdfEncodingFactory::GlobalSymbolEncodingInstance());
    else if (!embedded && base && base->IsName() && base->GetName().GetName() == "ZapfDingbats")
        font.encoding = encoding_of(PdfEncodingFactory::GlobalZapfDingbatsEncodingInstance());
}

// A ToUnicode CMap is PostScript, read with the content lexer: only its bfchar and bfrange
// blocks matter, whose operands are hex strings, arrays of them, or (rarely) glyph names.
// `budget`: how many more codes may be defined (kMaxCMapEntries for all fonts of a page).
void read_to_unicode(std::string_view cmap, Font& font, std::size_t& budget) {
    auto code_of = [](const Operand& o, std::uint32_t& code) {
        if (o.kind != Operand::String || o.bytes.empty() || o.bytes.size() > 4) return false;
        code = 0;
        for (char b : o.bytes) code = (code << 8) | static_cast<unsigned char>(b);
        return true;
    };
    auto text_of = [](const Operand& o) {
        return o.kind == Operand::Name ? glyph_name_text(o.bytes) : o.kind == Operand::String ? from_utf16be(o.bytes) : std::u32string();
    };
    auto read_char = [&](const Operand& src, const Operand& dst) {
        std::uint32_t code;
        if (code_of(src, code)) font.to_unicode[code] = text_of(dst);
        --budget;
    };
    auto read_range = [&](const Operand& low, const Operand& high, const Operand& dst) {
        std::uint32_t lo, hi;
        if (!code_of(low, lo) || !code_of(high, hi) || hi < lo || hi - lo > 0xFFFF) return;
        const std::u32string first = text_of(dst);
        for (std::uint32_t code = lo; code <= hi && budget > 0; ++code, --budget) {
            if (dst.kind == Operand::Array) {
                if (code - lo < dst.items.size()) font.to_unicode[code] = text_of(dst.items[code - lo]);
            } else if (!first.empty()) {
                std::u32string chars = first;
                chars.back() += code - lo;
                font.to_unicode[code] = chars;
            }
        }
    };
    // Entries are taken as they come (a block may hold thousands), two operands for a bfchar
    // entry, three for a bfrange entry.
    try {
        ContentLexer lexer(cmap);
        std::string_view op;
        Operand entry[3];
        std::size_t have = 0, needed = 0;  // needed: 0 outside a block
        for (ContentLexer::Token t; budget > 0 && (t = lexer.token(op, entry[have])) != ContentLexer::Token::End;) {
            if (t == ContentLexer::Token::Operator) {
                needed = op == "beginbfchar" ? 2 : op == "beginbfrange" ? 3 : 0;
                if (needed == 2 && entry[0].kind == Operand::Number)  // "n beginbfchar": n entries follow
                    font.to_unicode.reserve(font.to_unicode.size() + static_cast<std::size_t>(std::clamp(entry[0].number(), 0.0, double(budget))));
                have = 0;
            } else if (needed && ++have == needed) {
                if (needed == 2) read_char(entry[0], entry[1]);
                else read_range(entry[0], entry[1], entry[2]);
                have = 0;
            }
        }
    } catch (const Error&) {
        // a map cut short: what was read before stands
    }
}

Font load_font(File& file, const PdfObject& object, std::size_t& cmap_budget) {
    Font font;
    if (!object.IsDictionary()) {
        font.codes_known = false;
        return font;
    }
    const PdfDictionary& d = object.GetDictionary();
    const PdfObject* subtype_object = file.get_key(d, "Subtype");
    const std::string subtype = subtype_object && subtype_object->IsName() ? subtype_object->GetName().GetName() : "";
    const PdfObject* encoding = file.get_key(d, "Encoding");
    if (subtype == "Type0") {
        const std::string cmap = encoding && encoding->IsName() ? encoding->GetName().GetName() : "";
        font.code_bytes = 2;
        // Identity-H/V codes mean what the ToUnicode map says; in Adobe's predefined Uni*-UCS2-H/V
        // CMaps a code is the character's UCS-2 value itself (CJK fonts, as tcpdf writes them).
        font.ucs2 = cmap.rfind("Uni", 0) == 0 && cmap.find("-UCS2-") != std::string::npos &&
                    (cmap.size() > 2 && (cmap.compare(cmap.size() - 2, 2, "-H") == 0 || cmap.compare(cmap.size() - 2, 2, "-V") == 0));
        font.codes_known = cmap == "Identity-H" || cmap == "Identity-V" || font.ucs2;
    } else if (encoding && encoding->IsName()) {
        font.encoding = named_encoding(encoding->GetName().GetName()).value_or(Encoding{});
    } else {
        const PdfObject* base = encoding && encoding->IsDictionary() ? file.get_key(encoding->GetDictionary(), "BaseEncoding") : nullptr;
        if (std::optional<Encoding> named = base && base->IsName() ? named_encoding(base->GetName().GetName()) : std::nullopt)
            font.encoding = *named;
        else
            set_default_encoding(file, d, subtype, font);
        const PdfObject* differences = encoding && encoding->IsDictionary() ? file.get_key(encoding->GetDictionary(), "Differences") : nullptr;
        if (differences && differences->IsArray()) {
            pdf_int64 code = 0;
            for (const PdfObject& item : differences->GetArray()) {
                const PdfObject& entry = file.resolve(item);
                if (entry.IsNumber()) {
                    code = entry.GetNumber();
                } else if (entry.IsName()) {
                    if (code >= 0 && code < 256) font.glyph_names[static_cast<std::uint32_t>(code)] = entry.GetName().GetName();
                    ++code;
                }
            }
        }
    }
    if (const PdfObject* map = d.GetKey("ToUnicode"); map && map->IsReference() && file.is_stream(map->GetReference()))
        read_to_unicode(*file.stream_decoded_shared(map->GetReference()), font, cmap_budget);
    return font;
}

// ---------------------------------------------------------------- content

struct Matrix {
    double a = 1, b = 0, c = 0, d = 1, e = 0, f = 0;
    // `*this` applied first, then `m`.
    Matrix then(const Matrix& m) const {
        return {a * m.a + b * m.c, a * m.b + b * m.d, c * m.a + d * m.c, c * m.b + d * m.d, e * m.a + f * m.c + m.e, e * m.b + f * m.d + m.f};
    }
};

struct GraphicsState {
    Matrix ctm;
    Font* font = nullptr;
    double font_size = 0;
    double leading = 0;
};

// Content without a text-showing operator, and drawing no XObject, shows no text: a figure
// drawn as a Form XObject is passed over without reading it.
bool may_show_text(std::string_view content) {
    for (std::string_view op : {"Tj", "TJ", "'", "\"", "Do"})
        if (content.find(op) != std::string_view::npos) return true;
    return false;
}

// The operators the reading acts on, told apart once per operator (most of a page's content is
// paths and colours, passed over: comparing each operator with a dozen strings cost more than
// lexing it).
enum class TextOp { Other, q, Q, cm, BT, Tf, TL, Td, TD, Tm, TStar, Tj, Quote, DoubleQuote, TJ, Do };

TextOp text_op(std::string_view op) {
    if (op.size() == 1) {
        switch (op[0]) {
            case 'q': return TextOp::q;
            case 'Q': return TextOp::Q;
            case '\'': return TextOp::Quote;
            case '"': return TextOp::DoubleQuote;
            default: return TextOp::Other;
        }
    }
    if (op.size() != 2) return TextOp::Other;
    if (op[0] == 'c') return op[1] == 'm' ? TextOp::cm : TextOp::Other;
    if (op[0] == 'D') return op[1] == 'o' ? TextOp::Do : TextOp::Other;
    if (op[0] == 'B') return op[1] == 'T' ? TextOp::BT : TextOp::Other;
    if (op[0] != 'T') return TextOp::Other;
    switch (op[1]) {
        case 'f': return TextOp::Tf;
        case 'L': return TextOp::TL;
        case 'd': return TextOp::Td;
        case 'D': return TextOp::TD;
        case 'm': return TextOp::Tm;
        case '*': return TextOp::TStar;
        case 'j': return TextOp::Tj;
        case 'J': return TextOp::TJ;
        default: return TextOp::Other;
    }
}

class Reader {
public:
    Reader(File& file, const Page& page, std::size_t max_bytes, std::size_t page_content)
        : file_(file), page_(page), max_bytes_(max_bytes), content_budget_(kMaxTokenizedContent - page_content) {}

    // Records in broken_by()/cut_short() how the page's own content (depth 0) ended.
    void read(const std::string& content, const PdfObject* resources, const GraphicsState& start, int depth) {
        if (depth > kMaxFormDepth || !may_show_text(content)) return;
        std::vector<GraphicsState> stack{start};
        Matrix tm, tlm;
        std::vector<Operand> operands;
        try {
            ContentLexer lexer(content);
            std::string_view op;
            while (out_.size() < max_bytes_) {
                if (!lexer.next_operator(op)) {
                    if (depth == 0) read_whole_ = true;
                    break;
                }
                const TextOp code = text_op(op);
                if (code == TextOp::Other) continue;
                lexer.operands(operands);
                GraphicsState& gs = stack.back();
                auto arg = [&](std::size_t i) { return i < operands.size() ? operands[i].number() : 0.0; };
                auto move_line = [&](double tx, double ty) {
                    tlm = Matrix{1, 0, 0, 1, tx, ty}.then(tlm);
                    tm = tlm;
                };
                switch (code) {
                    case TextOp::q:
                        if (stack.size() < 256) stack.push_back(gs);
                        break;
                    case TextOp::Q:
                        if (stack.size() > 1) stack.pop_back();
                        break;
                    case TextOp::cm:
                        if (operands.size() == 6) gs.ctm = Matrix{arg(0), arg(1), arg(2), arg(3), arg(4), arg(5)}.then(gs.ctm);
                        break;
                    case TextOp::BT:
                        tm = tlm = Matrix{};
                        break;
                    case TextOp::Tf:
                        if (operands.size() != 2) break;
                        gs.font = operands[0].kind == Operand::Name ? font(resources, PdfName(operands[0].bytes)) : nullptr;
                        gs.font_size = arg(1);
                        break;
                    case TextOp::TL:
                        if (operands.size() == 1) gs.leading = arg(0);
                        break;
                    case TextOp::Td:
                        if (operands.size() == 2) move_line(arg(0), arg(1));
                        break;
                    case TextOp::TD:
                        if (operands.size() != 2) break;
                        gs.leading = -arg(1);
                        move_line(arg(0), arg(1));
                        break;
                    case TextOp::Tm:
                        if (operands.size() == 6) tm = tlm = Matrix{arg(0), arg(1), arg(2), arg(3), arg(4), arg(5)};
                        break;
                    case TextOp::TStar:
                        move_line(0, -gs.leading);
                        break;
                    case TextOp::Quote:
                    case TextOp::DoubleQuote:
                        move_line(0, -gs.leading);
                        [[fallthrough]];
                    case TextOp::Tj:
                        if (!operands.empty()) show(gs, tm, {operands.back()});
                        break;
                    case TextOp::TJ:
                        if (operands.size() == 1 && operands[0].kind == Operand::Array) show(gs, tm, operands[0].items);
                        break;
                    case TextOp::Do:
                        if (operands.size() == 1 && operands[0].kind == Operand::Name) draw_form(resources, PdfName(operands[0].bytes), gs, depth);
                        break;
                    case TextOp::Other:
                        break;
                }
            }
        } catch (const UnclosedError& e) {
            if (depth == 0) broken_by_ = e.what(), cut_short_ = true, read_whole_ = true;
        } catch (const Error& e) {
            if (depth == 0) broken_by_ = e.what(), read_whole_ = true;
        }
    }

    std::string& text() { return out_; }
    std::vector<TextRun>& runs() { return runs_; }
    const std::string& broken_by() const { return broken_by_; }
    bool cut_short() const { return cut_short_; }
    bool read_whole() const { return read_whole_; }  // the page's content, to its end or its syntax error

private:
    Font* font(const PdfObject* resources, const PdfName& name) {
        const PdfObject* fonts = resources && resources->IsDictionary() ? file_.get_key(resources->GetDictionary(), "Font") : nullptr;
        const PdfObject* entry = fonts && fonts->IsDictionary() ? fonts->GetDictionary().GetKey(name) : nullptr;
        if (!entry) return nullptr;
        const PdfObject& dict = entry->IsReference() ? file_.get_without_widths(entry->GetReference()) : *entry;  // held by the file's cache
        auto it = fonts_.find(&dict);
        if (it == fonts_.end()) it = fonts_.emplace(&dict, load_font(file_, dict, cmap_budget_)).first;
        return &it->second;
    }

public:
    // The appearances of the page's annotations (form fields, signatures, stamps), which viewers,
    // and poppler's text, show after the page's content. Each starts a line of its own.
    void read_annotations(const PdfObject& page) {
        const PdfObject* annots = page.IsDictionary() ? file_.get_key(page.GetDictionary(), "Annots") : nullptr;
        if (!annots || !annots->IsArray()) return;
        for (const PdfObject& item : annots->GetArray()) {
            if (out_.size() >= max_bytes_) return;
            const PdfObject& annot = file_.resolve(item);
            if (!annot.IsDictionary()) continue;
            const PdfDictionary& a = annot.GetDictionary();
            // Left out: what viewers hide, and (for poppler to judge) what optional content may hide.
            constexpr std::int64_t kInvisible = 1, kHidden = 2, kNoView = 32;
            const PdfObject* flags = file_.get_key(a, "F");
            if ((flags && flags->IsNumber() && (flags->GetNumber() & (kInvisible | kHidden | kNoView))) || a.HasKey("OC")) continue;
            const PdfObject* ap = file_.get_key(a, "AP");
            const PdfObject* normal = ap && ap->IsDictionary() ? ap->GetDictionary().GetKey("N") : nullptr;
            if (normal && !normal->IsReference()) {  // appearance states: the one /AS names
                const PdfObject* states = &file_.resolve(*normal);
                const PdfObject* as = file_.get_key(a, "AS");
                normal = states->IsDictionary() && as && as->IsName() ? states->GetDictionary().GetKey(as->GetName()) : nullptr;
            }
            Rect rect;
            if (!normal || !normal->IsReference() || !read_rect(file_, file_.get_key(a, "Rect"), rect) || rect.urx <= rect.llx ||
                rect.ury <= rect.lly)
                continue;
            if (!out_.empty() && out_.back() != '\n') out_ += '\n';
            have_last_ = false;
            draw_form(normal->GetReference(), nullptr, GraphicsState{}, 0, &rect);
        }
    }

private:
    void draw_form(const PdfObject* resources, const PdfName& name, const GraphicsState& gs, int depth) {
        const PdfObject* xobjects = resources && resources->IsDictionary() ? file_.get_key(resources->GetDictionary(), "XObject") : nullptr;
        const PdfObject* entry = xobjects && xobjects->IsDictionary() ? xobjects->GetDictionary().GetKey(name) : nullptr;
        if (entry && entry->IsReference()) draw_form(entry->GetReference(), resources, gs, depth, nullptr);
    }

    // A Form XObject; an annotation's appearance when `fit` is its /Rect, which the form's
    // transformed /BBox is scaled and moved onto (PDF 32000 12.5.5).
    void draw_form(const PdfReference& ref, const PdfObject* resources, const GraphicsState& gs, int depth, const Rect* fit) {
        if (!file_.is_stream(ref)) return;
        if (++forms_ > kMaxForms) {
            append_utf8(out_, kUnknown);  // not read: nothing is found across it
            return;
        }
        const PdfDictionary& form = file_.get(ref).GetDictionary();
        const PdfObject* subtype = file_.get_key(form, "Subtype");
        if (subtype && (!subtype->IsName() || subtype->GetName() != PdfName("Form"))) return;
        if (!subtype && !fit) return;  // appearance streams may leave out /Subtype
        Matrix matrix;
        if (const PdfObject* m = file_.get_key(form, "Matrix"); m && m->IsArray() && m->GetArray().size() == 6) {
            double v[6];
            for (int i = 0; i < 6; ++i) v[i] = number_value(file_.resolve(m->GetArray()[i]));
            matrix = Matrix{v[0], v[1], v[2], v[3], v[4], v[5]};
        }
        GraphicsState inner = gs;
        inner.ctm = matrix.then(gs.ctm);
        if (fit) {
            Rect box;  // {0 0 0 0} where /BBox is unreadable: the form is then placed at the /Rect's corner
            read_rect(file_, file_.get_key(form, "BBox"), box);
            double xs[4], ys[4];
            const double corners[4][2] = {{box.llx, box.lly}, {box.urx, box.lly}, {box.llx, box.ury}, {box.urx, box.ury}};
            for (int i = 0; i < 4; ++i) {
                xs[i] = corners[i][0] * matrix.a + corners[i][1] * matrix.c + matrix.e;
                ys[i] = corners[i][0] * matrix.b + corners[i][1] * matrix.d + matrix.f;
            }
            const double x0 = *std::min_element(xs, xs + 4), x1 = *std::max_element(xs, xs + 4);
            const double y0 = *std::min_element(ys, ys + 4), y1 = *std::max_element(ys, ys + 4);
            const double sx = x1 > x0 ? (fit->urx - fit->llx) / (x1 - x0) : 1, sy = y1 > y0 ? (fit->ury - fit->lly) / (y1 - y0) : 1;
            inner.ctm = matrix.then(Matrix{sx, 0, 0, sy, fit->llx - x0 * sx, fit->lly - y0 * sy});
        }
        const PdfObject* own = file_.get_key(form, "Resources");
        std::string content;
        try {
            content = file_.stream_decoded(ref, content_budget_);
        } catch (const Error&) {
            append_utf8(out_, kUnknown);  // not read (too much content, or undecodable)
            return;
        }
        content_budget_ -= content.size();
        read(content, own ? own : resources, inner, depth + 1);
    }

    // Writes the strings of one Tj/TJ/'/" with the breaks the content shows.
    void show(const GraphicsState& gs, const Matrix& tm, const std::vector<Operand>& items) {
        const Matrix trm = tm.then(gs.ctm);
        const double size = std::fabs(gs.font_size) * std::hypot(trm.c, trm.d);
        const double length = std::hypot(trm.a, trm.b);
        const double dx = length > 0 ? trm.a / length : 1, dy = length > 0 ? trm.b / length : 0;
        if (have_last_) {
            const double across = std::fabs(dx * (trm.f - last_y_) - dy * (trm.e - last_x_));
            const bool turned = dx * last_dx_ + dy * last_dy_ < 0.99;
            if ((turned || across > 0.5 * std::max(size, last_size_)) && !out_.empty() && out_.back() != '\n') out_ += '\n';
        }
        have_last_ = true;
        last_x_ = trm.e, last_y_ = trm.f, last_dx_ = dx, last_dy_ = dy, last_size_ = size;
        // A run that wrote nothing is replaced by the next: runs stay fewer than the text's bytes
        // however many empty strings the content shows.
        const TextRun run{out_.size(), trm.e, trm.f, dx, dy, size, out_.empty() || out_.back() == '\n'};
        if (!runs_.empty() && runs_.back().offset == run.offset) runs_.back() = run;
        else runs_.push_back(run);
        const Rect& box = page_.crop_box;
        const bool on_page = trm.e >= box.llx - 1 && trm.e <= box.urx + 1 && trm.f >= box.lly - 1 && trm.f <= box.ury + 1;
        for (const Operand& item : items) {
            if (item.kind == Operand::Number) {
                if (-item.number() / 1000 >= kWordGap && !out_.empty() && out_.back() != ' ' && out_.back() != '\n') out_ += ' ';
                continue;
            }
            if (item.kind != Operand::String) continue;
            const std::string_view bytes = item.bytes;
            Font* font = gs.font;
            const std::size_t step = font ? static_cast<std::size_t>(font->code_bytes) : 1;
            for (std::size_t i = 0; i + step <= bytes.size(); i += step) {
                std::uint32_t code = 0;
                for (std::size_t k = 0; k < step; ++k) code = (code << 8) | static_cast<unsigned char>(bytes[i + k]);
                const std::u32string chars = on_page && font && font->codes_known ? font->decode(file_, code) : std::u32string();
                if (chars.empty()) {
                    append_utf8(out_, kUnknown);
                } else {
                    for (char32_t c : chars) append_utf8(out_, c);
                }
            }
        }
    }

    File& file_;
    const Page& page_;
    std::size_t max_bytes_;
    std::string out_;
    std::vector<TextRun> runs_;
    std::map<const PdfObject*, Font> fonts_;
    int forms_ = 0;
    std::size_t content_budget_;  // decoded content the page's forms may still add
    std::size_t cmap_budget_ = kMaxCMapEntries;
    bool have_last_ = false;
    std::string broken_by_;
    bool cut_short_ = false, read_whole_ = false;
    double last_x_ = 0, last_y_ = 0, last_dx_ = 1, last_dy_ = 0, last_size_ = 0;
};

}  // namespace

namespace {

// A best-effort read: damage met in fonts and forms is worked around, not recorded.
struct ForgetDefects {
    File& file;
    std::size_t known;
    ~ForgetDefects() { file.forget_defects_since(known); }
};

std::string cut(std::string& text, std::size_t max_bytes) {
    std::size_t n = std::min(text.size(), max_bytes);
    while (n > 0 && n < text.size() && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
    text.resize(n);
    return std::move(text);
}

}  // namespace

std::optional<ShownText> shown_text(File& file, const Page& page, std::size_t max_bytes) {
    ForgetDefects forget{file, file.defects().size()};
    const std::string& content = file.page_content(page);
    if (content.size() > kMaxTokenizedContent) return std::nullopt;
    Reader reader(file, page, max_bytes, content.size());
    const PdfObject* resources = page.resources.IsDictionary() ? &page.resources : nullptr;
    // Content that breaks off (a string or an array left open) ends what viewers draw, not what
    // they drew before it: the text up to there stands.
    reader.read(content, resources, GraphicsState{}, 0);
    if (reader.read_whole()) file.note_content_syntax(page, reader.broken_by());  // spares check_syntax_later() a pass
    std::string text = cut(reader.text(), max_bytes);
    std::vector<TextRun>& runs = reader.runs();
    while (!runs.empty() && runs.back().offset >= text.size()) runs.pop_back();  // those the cut left out
    return ShownText{std::move(text), std::move(runs), reader.broken_by(), reader.cut_short()};
}

namespace {

// Where text written from `a` (a run of an annotation's appearance) goes into `shown`: into the
// content's line on the same baseline and in the same direction, before its first run that
// starts further along, or at the line's end; nullopt where no line shares the baseline.
std::optional<std::size_t> place_in_line(const ShownText& shown, const TextRun& a) {
    const std::string& text = shown.text;
    const std::vector<TextRun>& runs = shown.runs;
    std::optional<std::size_t> line;  // the first run of the nearest line
    double nearest = 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const TextRun& c = runs[i];
        if (i > 0 && !c.line_start) continue;
        const double across = std::fabs(c.dx * (a.y - c.y) - c.dy * (a.x - c.x));
        if (c.dx * a.dx + c.dy * a.dy >= 0.99 && across <= 0.5 * std::max(a.size, c.size) && (!line || across < nearest))
            line = i, nearest = across;
    }
    if (!line) return std::nullopt;
    const TextRun& c = runs[*line];
    const double along = c.dx * a.x + c.dy * a.y;
    std::size_t next_line = *line + 1;
    while (next_line < runs.size() && !runs[next_line].line_start) ++next_line;
    for (std::size_t r = *line; r < next_line; ++r)
        if (c.dx * runs[r].x + c.dy * runs[r].y > along) return runs[r].offset;
    std::size_t end = next_line < runs.size() ? runs[next_line].offset : text.size();
    while (end > c.offset && text[end - 1] == '\n') --end;
    return end;
}

}  // namespace

std::string with_annotations(File& file, const Page& page, const ShownText& shown, std::size_t max_bytes) {
    ForgetDefects forget{file, file.defects().size()};
    Reader reader(file, page, max_bytes, 0);
    reader.read_annotations(file.get(page.ref));
    const std::string& notes = reader.text();
    const std::vector<TextRun>& note_runs = reader.runs();
    if (notes.empty()) return shown.text;

    struct Insertion {
        std::size_t at;  // offset in shown.text
        double along;    // position along the line, to order insertions at the same offset
        std::string_view words;
    };
    std::vector<Insertion> insertions;
    // Text before the first run (a form not read) and lines on no content line: lines of their own.
    std::string own_lines = notes.substr(0, note_runs.empty() ? notes.size() : note_runs[0].offset);
    for (std::size_t i = 0; i < note_runs.size();) {
        const TextRun& a = note_runs[i];
        std::size_t next = i + 1;
        while (next < note_runs.size() && !note_runs[next].line_start) ++next;
        std::string_view words = std::string_view(notes).substr(a.offset, (next < note_runs.size() ? note_runs[next].offset : notes.size()) - a.offset);
        while (!words.empty() && words.back() == '\n') words.remove_suffix(1);
        i = next;
        if (const std::optional<std::size_t> at = place_in_line(shown, a)) {
            insertions.push_back({*at, a.dx * a.x + a.dy * a.y, words});
        } else {
            if (!own_lines.empty() && own_lines.back() != '\n') own_lines += '\n';
            own_lines += words;
        }
    }
    std::stable_sort(insertions.begin(), insertions.end(),
                     [](const Insertion& x, const Insertion& y) { return x.at != y.at ? x.at < y.at : x.along < y.along; });
    const std::string& text = shown.text;
    std::string out;
    std::size_t done = 0;
    for (const Insertion& insertion : insertions) {  // each set off by spaces from its neighbours
        out.append(text, done, insertion.at - done);
        done = insertion.at;
        if (!out.empty() && out.back() != ' ' && out.back() != '\n') out += ' ';
        out += insertion.words;
        if (done < text.size() && text[done] != '\n' && text[done] != ' ') out += ' ';
    }
    out.append(text, done);
    if (!own_lines.empty()) out += (out.empty() || out.back() == '\n' ? "" : "\n") + own_lines;
    return cut(out, max_bytes);
}

}  // namespace pith::pdf
