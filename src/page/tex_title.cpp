// SPDX-License-Identifier: MIT
#include "page/tex_title.hpp"

#include <cstring>
#include <map>
#include <set>

#include <unicode/normalizer2.h>
#include <unicode/unistr.h>

namespace pith::page::tex_title {

namespace {

using Kind = Piece::Kind;

// ---------------------------------------------------------------- what TeX prints

// Text-mode symbols and letters, and the logos (typeset as a formula would be: their letters
// are kerned and raised, so spacing inside them varies).
const std::map<std::string, std::string>& letters() {
    static const std::map<std::string, std::string> m = {
        {"ss", "ß"}, {"SS", "SS"}, {"o", "ø"}, {"O", "Ø"}, {"aa", "å"}, {"AA", "Å"}, {"ae", "æ"}, {"AE", "Æ"},
        {"oe", "œ"}, {"OE", "Œ"}, {"l", "ł"}, {"L", "Ł"}, {"i", "ı"}, {"j", "ȷ"}, {"dh", "ð"}, {"DH", "Ð"},
        {"th", "þ"}, {"TH", "Þ"}, {"ng", "ŋ"}, {"NG", "Ŋ"}, {"dj", "đ"}, {"DJ", "Đ"},
        {"textendash", "–"}, {"textemdash", "—"}, {"textquoteleft", "‘"}, {"textquoteright", "’"},
        {"textquotedblleft", "“"}, {"textquotedblright", "”"}, {"dots", "…"}, {"ldots", "…"}, {"textellipsis", "…"},
        {"S", "§"}, {"P", "¶"}, {"copyright", "©"}, {"textcopyright", "©"}, {"textregistered", "®"},
        {"texttrademark", "™"}, {"pounds", "£"}, {"textsterling", "£"}, {"euro", "€"}, {"texteuro", "€"},
        {"textdegree", "°"}, {"textbullet", "•"}, {"dag", "†"}, {"ddag", "‡"}, {"textdagger", "†"},
        {"textdaggerdbl", "‡"}, {"textasciitilde", "~"}, {"textasciicircum", "^"}, {"textbackslash", "\\"},
        {"textbar", "|"}, {"textless", "<"}, {"textgreater", ">"}, {"guillemotleft", "«"}, {"guillemotright", "»"},
        {"textmu", "µ"}, {"textperthousand", "‰"}, {"textsection", "§"},
    };
    return m;
}
const std::map<std::string, std::string>& logos() {
    static const std::map<std::string, std::string> m = {
        {"TeX", "TeX"}, {"LaTeX", "LaTeX"}, {"LaTeXe", "LaTeX2e"}, {"BibTeX", "BibTeX"}, {"XeTeX", "XeTeX"},
        {"XeLaTeX", "XeLaTeX"}, {"LuaTeX", "LuaTeX"}, {"LuaLaTeX", "LuaLaTeX"}, {"pdfTeX", "pdfTeX"},
        {"pdfLaTeX", "pdfLaTeX"}, {"eTeX", "eTeX"}, {"ConTeXt", "ConTeXt"}, {"AmS", "AMS"}, {"AmSTeX", "AMSTeX"},
        {"METAFONT", "METAFONT"}, {"MF", "METAFONT"}, {"MP", "METAPOST"}, {"METAPOST", "METAPOST"},
    };
    return m;
}

// Math: Greek letters, operator names, relations and symbols, as Unicode.
const std::map<std::string, std::string>& math_symbols() {
    static const std::map<std::string, std::string> m = {
        {"alpha", "α"}, {"beta", "β"}, {"gamma", "γ"}, {"delta", "δ"}, {"epsilon", "ϵ"}, {"varepsilon", "ε"},
        {"zeta", "ζ"}, {"eta", "η"}, {"theta", "θ"}, {"vartheta", "ϑ"}, {"iota", "ι"}, {"kappa", "κ"},
        {"varkappa", "ϰ"}, {"lambda", "λ"}, {"mu", "μ"}, {"nu", "ν"}, {"xi", "ξ"}, {"pi", "π"}, {"varpi", "ϖ"},
        {"rho", "ρ"}, {"varrho", "ϱ"}, {"sigma", "σ"}, {"varsigma", "ς"}, {"tau", "τ"}, {"upsilon", "υ"},
        {"phi", "ϕ"}, {"varphi", "φ"}, {"chi", "χ"}, {"psi", "ψ"}, {"omega", "ω"}, {"Gamma", "Γ"},
        {"Delta", "Δ"}, {"Theta", "Θ"}, {"Lambda", "Λ"}, {"Xi", "Ξ"}, {"Pi", "Π"}, {"Sigma", "Σ"},
        {"Upsilon", "Υ"}, {"Phi", "Φ"}, {"Psi", "Ψ"}, {"Omega", "Ω"}, {"digamma", "ϝ"},
        {"leq", "≤"}, {"le", "≤"}, {"geq", "≥"}, {"ge", "≥"}, {"neq", "≠"}, {"ne", "≠"}, {"ll", "≪"},
        {"gg", "≫"}, {"approx", "≈"}, {"sim", "∼"}, {"simeq", "≃"}, {"cong", "≅"}, {"equiv", "≡"},
        {"propto", "∝"}, {"times", "×"}, {"cdot", "⋅"}, {"cdots", "⋯"}, {"ldots", "…"}, {"dots", "…"},
        {"pm", "±"}, {"mp", "∓"}, {"div", "÷"}, {"ast", "∗"}, {"star", "⋆"}, {"circ", "∘"}, {"bullet", "∙"},
        {"oplus", "⊕"}, {"otimes", "⊗"}, {"infty", "∞"}, {"partial", "∂"}, {"nabla", "∇"}, {"sum", "∑"},
        {"prod", "∏"}, {"int", "∫"}, {"oint", "∮"}, {"in", "∈"}, {"notin", "∉"}, {"ni", "∋"}, {"subset", "⊂"},
        {"subseteq", "⊆"}, {"supset", "⊃"}, {"supseteq", "⊇"}, {"cup", "∪"}, {"cap", "∩"}, {"setminus", "∖"},
        {"emptyset", "∅"}, {"varnothing", "∅"}, {"forall", "∀"}, {"exists", "∃"}, {"neg", "¬"}, {"lnot", "¬"},
        {"wedge", "∧"}, {"land", "∧"}, {"vee", "∨"}, {"lor", "∨"}, {"to", "→"}, {"rightarrow", "→"},
        {"leftarrow", "←"}, {"gets", "←"}, {"Rightarrow", "⇒"}, {"Leftarrow", "⇐"}, {"leftrightarrow", "↔"},
        {"Leftrightarrow", "⇔"}, {"iff", "⟺"}, {"implies", "⟹"}, {"mapsto", "↦"}, {"uparrow", "↑"},
        {"downarrow", "↓"}, {"ell", "ℓ"}, {"hbar", "ℏ"}, {"Re", "ℜ"}, {"Im", "ℑ"}, {"aleph", "ℵ"}, {"wp", "℘"},
        {"prime", "′"}, {"dagger", "†"}, {"ddagger", "‡"}, {"langle", "⟨"}, {"rangle", "⟩"}, {"vert", "|"},
        {"lvert", "|"}, {"rvert", "|"}, {"Vert", "‖"}, {"lVert", "‖"}, {"rVert", "‖"}, {"mid", "∣"},
        {"parallel", "∥"}, {"perp", "⊥"}, {"top", "⊤"}, {"bot", "⊥"}, {"vdash", "⊢"}, {"models", "⊨"},
        {"lceil", "⌈"}, {"rceil", "⌉"}, {"lfloor", "⌊"}, {"rfloor", "⌋"}, {"backslash", "\\"}, {"colon", ":"},
        {"angle", "∠"}, {"triangle", "△"}, {"square", "□"}, {"Box", "□"}, {"diamond", "⋄"}, {"sharp", "♯"},
        {"flat", "♭"}, {"natural", "♮"}, {"lbrace", "{"}, {"rbrace", "}"}, {"checkmark", "✓"}, {"S", "§"},
    };
    return m;
}
const std::set<std::string>& operator_names() {
    static const std::set<std::string> s = {
        "log", "ln", "lg", "exp", "sin", "cos", "tan", "sec", "csc", "cot", "sinh", "cosh", "tanh", "coth",
        "arcsin", "arccos", "arctan", "max", "min", "sup", "inf", "lim", "liminf", "limsup", "det", "dim",
        "ker", "deg", "gcd", "hom", "arg", "Pr", "mod", "bmod", "tr", "Tr", "rank", "poly", "polylog",
    };
    return s;
}

// Commands whose argument is shown as it is (font, emphasis, case and box commands, math
// alphabets and accents).
const std::set<std::string>& shows_argument() {
    static const std::set<std::string> s = {
        "textit", "textbf", "textrm", "textsf", "texttt", "textsc", "textup", "textsl", "textmd", "textnormal",
        "emph", "underline", "mbox", "hbox", "text", "textsuperscript", "textsubscript", "uppercase",
        "MakeUppercase", "lowercase", "MakeLowercase", "MakeTextUppercase", "NoCaseChange", "url", "nolinkurl",
        "mathrm", "mathit", "mathbf", "mathsf", "mathtt", "mathcal", "mathbb", "mathfrak", "mathscr",
        "mathnormal", "boldsymbol", "bm", "pmb", "operatorname", "hat", "widehat", "tilde", "widetilde", "bar",
        "overline", "vec", "dot", "ddot", "acute", "grave", "breve", "check", "mathring", "overrightarrow",
        "overleftarrow", "underbrace", "overbrace", "ensuremath", "textnormal", "smash", "mathbin", "mathrel",
        "mathop", "mathord", "texorpdfstring",
    };
    return s;
}
// Commands that print nothing: declarations, sizes, spacing in math, and marks whose argument is
// not part of the title (footnotes, labels).
const std::set<std::string>& prints_nothing() {
    static const std::set<std::string> s = {
        "em", "it", "bf", "rm", "sc", "tt", "sf", "sl", "itshape", "bfseries", "scshape", "upshape",
        "slshape", "mdseries", "normalfont", "rmfamily", "sffamily", "ttfamily", "tiny", "scriptsize",
        "footnotesize", "small", "normalsize", "large", "Large", "LARGE", "huge", "Huge", "boldmath",
        "unboldmath", "protect", "relax", "displaystyle", "textstyle", "scriptstyle", "scriptscriptstyle",
        "left", "right", "middle", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr", "biggl", "biggr",
        "Biggl", "Biggr", "limits", "nolimits", "ignorespaces", "xspace", "noindent", "centering", "raggedright",
        "nobreak", "allowbreak", "not", "null", "strut", "unskip", "sloppy",
    };
    return s;
}
// Commands whose arguments print nothing in the title (each: how many mandatory arguments).
const std::map<std::string, int>& drops_arguments() {
    static const std::map<std::string, int> m = {
        {"thanks", 1}, {"footnote", 1}, {"tnoteref", 1}, {"fnref", 1}, {"corref", 1}, {"label", 1},
        {"vspace", 1}, {"phantom", 1}, {"hphantom", 1}, {"vphantom", 1}, {"footnotemark", 0},
        {"titlenote", 1}, {"fnmsep", 0}, {"linebreak", 0}, {"pagebreak", 0},
    };
    return m;
}
// Control words that print a space.
const std::set<std::string>& spaces() {
    static const std::set<std::string> s = {"quad", "qquad", "enspace", "thinspace", "newline", "par", "hfill",
                                            "space", "hspace", "enskip", "medskip", "smallskip", "bigskip", "break"};
    return s;
}

// Accents: the combining character each puts over or under its letter.
const char* accent_mark(const std::string& name) {
    static const std::map<std::string, const char*> m = {
        {"'", "\u0301"}, {"`", "\u0300"}, {"^", "\u0302"}, {"\"", "\u0308"}, {"~", "\u0303"}, {"=", "\u0304"},
        {".", "\u0307"}, {"u", "\u0306"}, {"v", "\u030C"}, {"H", "\u030B"}, {"c", "\u0327"}, {"k", "\u0328"},
        {"r", "\u030A"}, {"d", "\u0323"}, {"b", "\u0331"}, {"t", "\u0361"},
    };
    const auto it = m.find(name);
    return it == m.end() ? nullptr : it->second;
}

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The first character of `utf8` with `mark` after it, composed (NFC): "o" + U+0308 is "ö".
// The dotless letters of \"\i and \^\j take the accent as i and j.
std::string accented(std::string utf8, const char* mark) {
    if (utf8.empty()) return std::string(mark);
    if (utf8.rfind("ı", 0) == 0) utf8.replace(0, std::strlen("ı"), "i");
    if (utf8.rfind("ȷ", 0) == 0) utf8.replace(0, std::strlen("ȷ"), "j");
    std::size_t first = 1;
    while (first < utf8.size() && (static_cast<unsigned char>(utf8[first]) & 0xC0) == 0x80) ++first;
    const std::string combined = utf8.substr(0, first) + mark + utf8.substr(first);
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
    if (U_FAILURE(status)) return combined;
    const icu::UnicodeString composed = nfc->normalize(icu::UnicodeString::fromUTF8(combined), status);
    if (U_FAILURE(status)) return combined;
    std::string out;
    composed.toUTF8String(out);
    return out;
}

// ---------------------------------------------------------------- the reader

// How a run of TeX ends.
enum class Until { End, Brace, Dollar, DoubleDollar, Paren, Bracket };

class Reader {
public:
    explicit Reader(std::string_view tex) : s_(tex) {}

    Typeset run() {
        read(false, Until::End);
        return std::move(out_);
    }

private:
    static constexpr int kMaxDepth = 32;  // groups nested deeper are not typeset
    std::string_view s_;
    std::size_t i_ = 0;
    int depth_ = 0;
    Typeset out_;

    void emit(Kind kind, const std::string& text) {
        if (text.empty()) return;
        if (text == " " && !out_.pieces.empty() && out_.pieces.back().text.back() == ' ') return;  // one space, as TeX
        if (!out_.pieces.empty() && out_.pieces.back().kind == kind && kind != Kind::Unknown) out_.pieces.back().text += text;
        else out_.pieces.push_back({kind, text});
    }
    void emit(bool math, const std::string& text) { emit(math ? Kind::Math : Kind::Text, text); }
    bool at(std::string_view what) const { return s_.substr(i_, what.size()) == what; }
    void skip_spaces() {
        while (i_ < s_.size() && is_space(s_[i_])) ++i_;
    }

    // What a run of TeX prints, read into a sub-reader's pieces and flattened to text: for an
    // accent's or \sqrt's argument.
    std::string argument_text(bool math) {
        Reader sub(argument_source());
        sub.depth_ = depth_ + 1;
        sub.read(math, Until::End);
        std::string text;
        for (const Piece& p : sub.out_.pieces) text += p.text;
        return text;
    }
    // The next argument's source: a braced group's inside, or one token.
    std::string_view argument_source() {
        skip_spaces();
        if (i_ >= s_.size()) return {};
        if (s_[i_] == '{') {
            const std::size_t start = ++i_;
            for (int level = 1; i_ < s_.size(); ++i_) {
                if (s_[i_] == '\\') ++i_;
                else if (s_[i_] == '{') ++level;
                else if (s_[i_] == '}' && --level == 0) return s_.substr(start, i_++ - start);
            }
            return s_.substr(start);
        }
        const std::size_t start = i_;
        if (s_[i_] == '\\') {
            ++i_;
            if (i_ < s_.size() && is_letter(s_[i_]))
                while (i_ < s_.size() && is_letter(s_[i_])) ++i_;
            else if (i_ < s_.size()) one_character();
            return s_.substr(start, i_ - start);
        }
        return one_character();
    }
    // One UTF-8 character.
    std::string_view one_character() {
        const std::size_t start = i_++;
        while (i_ < s_.size() && (static_cast<unsigned char>(s_[i_]) & 0xC0) == 0x80) ++i_;
        return s_.substr(start, i_ - start);
    }
    void skip_optional() {
        std::size_t j = i_;
        while (j < s_.size() && is_space(s_[j])) ++j;
        if (j >= s_.size() || s_[j] != '[') return;
        const std::size_t close = s_.find(']', j);
        i_ = close == std::string_view::npos ? s_.size() : close + 1;
    }
    // Reads a group's or an argument's TeX in this reader's mode.
    void read_argument(bool math) {
        skip_spaces();
        if (i_ < s_.size() && s_[i_] == '{') {
            ++i_;
            read(math, Until::Brace);
        } else {
            Reader sub(argument_source());
            sub.depth_ = depth_ + 1;
            sub.read(math, Until::End);
            for (Piece& p : sub.out_.pieces) emit(p.kind, p.text);
        }
    }

    void read(bool math, Until until) {
        if (++depth_ > kMaxDepth) {
            emit(Kind::Unknown, std::string(s_.substr(i_)));
            i_ = s_.size();
            --depth_;
            return;
        }
        while (i_ < s_.size()) {
            const char c = s_[i_];
            if (c == '}') {
                ++i_;
                if (until == Until::Brace) break;
                continue;  // unbalanced: ignored
            }
            if (c == '$' && math) {
                if (until == Until::DoubleDollar && at("$$")) { i_ += 2; break; }
                if (until == Until::Dollar) { ++i_; break; }
                if (until == Until::Brace) break;  // unbalanced group inside a formula: its $ ends both
                ++i_;
                continue;
            }
            if (c == '\\' && math && ((until == Until::Paren && at("\\)")) || (until == Until::Bracket && at("\\]")))) {
                i_ += 2;
                break;
            }
            step(math);
        }
        --depth_;
    }

    void step(bool math) {
        const char c = s_[i_];
        switch (c) {
            case '\\': return command(math);
            case '{': ++i_; return read(math, Until::Brace);
            case '$':
                if (at("$$")) { i_ += 2; return read(true, Until::DoubleDollar); }
                ++i_;
                return read(true, Until::Dollar);
            case '~': ++i_; return emit(math, " ");
            case '^': case '_':
                ++i_;
                if (math) return read_argument(true);
                return emit(false, std::string(1, c));
            default: break;
        }
        if (!math && (c == '-' || c == '`' || c == '\'')) return punctuation(c);
        if (math && c == '\'') { ++i_; return emit(true, "′"); }
        if (is_space(c)) {
            skip_spaces();
            return emit(math, " ");
        }
        emit(math, std::string(one_character()));
    }

    // TeX's ligatures of punctuation: -- and ---, `` and ''.
    void punctuation(char c) {
        std::size_t n = 0;
        while (i_ + n < s_.size() && s_[i_ + n] == c && n < 3) ++n;
        i_ += n;
        if (c == '-') return emit(false, n == 1 ? "-" : n == 2 ? "–" : "—");
        const bool open = c == '`';
        for (; n >= 2; n -= 2) emit(false, open ? "“" : "”");
        if (n == 1) emit(false, open ? "‘" : "’");
    }

    void command(bool math) {
        ++i_;  // the backslash
        if (i_ >= s_.size()) return;
        std::string name;
        if (is_letter(s_[i_])) {
            while (i_ < s_.size() && is_letter(s_[i_])) name += s_[i_++];
            if (i_ < s_.size() && s_[i_] == '*') ++i_;  // \\* and starred forms print the same
            skip_spaces();                          // TeX ignores spaces after a control word
        } else {
            name = std::string(one_character());
        }
        control(name, math);
    }

    void control(const std::string& name, bool math) {
        if (const char* mark = accent_mark(name); mark && !math) return emit(false, accented(argument_text(false), mark));
        if (name == "\\" || name == " " || name == "newline") {
            skip_optional();
            return emit(math, " ");
        }
        if (name == "(") return read(true, Until::Paren);
        if (name == "[") return read(true, Until::Bracket);
        if (name.size() == 1 && std::strchr("&%_$#{}", name[0])) return emit(math, name);
        if (name == "|") return emit(math, "‖");
        if (name.size() == 1 && std::strchr(",;:!>-/@", name[0])) return emit(math, math || name == "-" || name == "/" || name == "@" ? "" : " ");
        if (spaces().count(name)) {
            if (name == "hspace") argument_source();
            return emit(math, " ");
        }
        if (prints_nothing().count(name)) return;
        if (const auto d = drops_arguments().find(name); d != drops_arguments().end()) {
            skip_optional();
            for (int k = 0; k < d->second; ++k) argument_source();
            return;
        }
        if (const auto l = logos().find(name); l != logos().end()) return emit(Kind::Math, l->second);
        if (shows_argument().count(name)) return read_argument(math || name == "ensuremath");
        if (name == "href") {
            argument_source();
            return read_argument(math);
        }
        if (math) return math_control(name);
        if (const auto l = letters().find(name); l != letters().end()) return emit(false, l->second);
        emit(Kind::Unknown, "\\" + name);  // its arguments, if any, are read as text
    }

    void math_control(const std::string& name) {
        if (const auto m = math_symbols().find(name); m != math_symbols().end()) return emit(true, m->second);
        if (operator_names().count(name)) return emit(true, " " + (name == "bmod" ? std::string("mod") : name) + " ");
        if (name == "pmod") return emit(true, "(mod " + argument_text(true) + ")");
        if (name == "sqrt") {
            skip_optional();
            return emit(true, "√" + argument_text(true));
        }
        if (name == "frac" || name == "dfrac" || name == "tfrac" || name == "binom") {
            const std::string num = argument_text(true), den = argument_text(true);
            return emit(true, num + " " + den);
        }
        if (const auto l = letters().find(name); l != letters().end()) return emit(true, l->second);
        emit(Kind::Unknown, "\\" + name);
    }
};

}  // namespace

std::string Typeset::text() const {
    std::string out;
    for (const Piece& p : pieces) out += p.text;
    return out;
}

std::vector<std::string> Typeset::unknown() const {
    std::vector<std::string> out;
    for (const Piece& p : pieces)
        if (p.kind == Kind::Unknown) out.push_back(p.text);
    return out;
}

Typeset typeset(std::string_view tex) { return Reader(tex).run(); }

}  // namespace pith::page::tex_title
