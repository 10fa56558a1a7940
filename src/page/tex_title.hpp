// SPDX-License-Identifier: MIT
#pragma once
// A record's title as the page shows it (doc/titles.md).
//
// The registry's records come from arXiv, whose titles are the TeX the authors typed:
// `Learning $k$-Sparse Polynomials in $O(n\log n)$ Time`, `Schr\"odinger Bridges`, `Trust \&
// Provenance`. typeset() turns such a title into the text a reader sees on the page (ö, –, &,
// "k", "O(n log n)"), deterministically and without running TeX: accents and special letters,
// dashes and quotes, escaped characters, font commands, grouping braces, `~` and `\\`, and
// inline math (Greek letters, common operators and relations, sub- and superscripts, \log-style
// operators, \sqrt, \frac). What it cannot typeset (an unknown macro) it marks as such; the
// matcher never lets such a part stand for more than a few of the page's words, and says so.
#include <string>
#include <string_view>
#include <vector>

namespace pith::page::tex_title {

struct Piece {
    enum class Kind {
        Text,     // text as typeset: word boundaries are kept when matching
        Math,     // a formula's characters: spacing inside it varies with the typesetter
        Unknown,  // TeX pith cannot typeset (a macro it does not know): `text` is the source
    };
    Kind kind = Kind::Text;
    std::string text;  // UTF-8
};

struct Typeset {
    std::vector<Piece> pieces;
    // The title as a reader would read it, unknown parts as their TeX source: for messages.
    std::string text() const;
    // The TeX of every part that could not be typeset, in order.
    std::vector<std::string> unknown() const;
};

// `tex`: a title as the record writes it. Never throws; a title without TeX comes back as one
// Text piece (braces, `~`, `$` and backslashes are what make TeX).
Typeset typeset(std::string_view tex);

}  // namespace pith::page::tex_title
