// SPDX-License-Identifier: MIT
#pragma once
// Does this PDF show the paper title the record names?
//
// `pith verify` uses this to notice a badge moved onto another paper: the record's title
// (the plain title embedded at stamping, or only its title_canon_sha256) is compared with
// what a reader sees on page 1.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "page/visible.hpp"

namespace pith::page::title {

// compare() looks at no more of page 1 than this many bytes (cut at a UTF-8 boundary): a title
// is near the top of page 1.
inline constexpr std::size_t kMaxTextBytes = 200 * 1024;

// Normalised for comparison (UTF-8 in and out; invalid UTF-8 becomes U+FFFD):
//  - words hyphenated across a line break joined: "Distri-\nbuted" -> "distributed"
//    (hyphen dropped before a lower-case letter, kept before an upper-case one:
//    "Self-\nSupervised" -> "self-supervised"); a soft hyphen at a line end always joins;
//    other soft hyphens and format characters (zero-width space/joiners, BOM) removed;
//  - case folded (Unicode full case folding: "Straße" -> "strasse");
//  - NFKD, then combining marks dropped: accents ("Café" -> "cafe"), ligatures ("ﬁ" -> "fi"),
//    full-width and other compatibility forms;
//  - every dash (Unicode Pd, minus sign) becomes "-", and a run of them one "-" (a title typed
//    with TeX's -- or --- reads as the en or em dash LaTeX prints); curly/angle quotes become ' or ";
//  - every run of white space / control characters becomes one space; trimmed;
//  - TeX's logo as LaTeX prints it: "LATEX 2ε" reads "latex2e", as a title typed "LaTeX2e".
std::string normalise(std::string_view text);

enum class Outcome { Matches, Differs, NothingToCompare };

struct Result {
    Outcome outcome;
    std::string explanation;  // one sentence for the user
    std::string matched_on;   // "page 1" when Matches, else empty
    std::string found = {};   // matched by the hash alone: the page's lines that hash to it
};

// `title`: the record's plain title, empty if not known; `title_hash`: title_canon_sha256
// (SHA-256 hex of pith::unicode_lower(title)), may be empty; `page1`: the text page 1 shows
// (nullopt if none). A title the PDF declares (Info /Title, XMP dc:title) is never compared:
// whoever sends the PDF chooses it.
//
// With a plain title: Matches when its normalised form occurs in normalised page-1 text
// (plain substring, or the same words with white space/punctuation differences at word
// boundaries: "KOMA - Script" shows "KOMA-Script").
// Runs of right-to-left script match in either order: many producers store them in visual
// order, which reads reversed.
// With only the hash: Matches when a line of page 1, or 2-4 consecutive non-empty lines
// joined with a space (raw and with white space collapsed, and a few more spellings: NFC,
// NFKC, straight quotes, hyphenated line ends joined) hash to it.
// If both are given and the plain title does not hash to title_hash, the hash wins (the
// plain title is ignored and the explanation says so).
// Otherwise Differs when page 1 has text, else NothingToCompare. No title and no hash:
// NothingToCompare.
Result compare(const std::string& title, const std::string& title_hash, const std::optional<std::string>& page1);

// Where a record's title stands on a page as a reader sees it: `pith verify`'s title check and
// `pith stamp`'s refusal of a record that is not the paper's. Text nobody sees never binds.
enum class Shown {
    AsTitle,     // visible, and set as the paper's title
    NotAsTitle,  // visible only inside other text or in small type (a citation, a footnote)
    Hidden,      // only as text a reader cannot see, on a page that shows other text
    Scanned,     // only in the text layer of a page that shows no glyphs (a scan with OCR)
    Differs,     // the page shows text, and not this title
    Unknown,     // nothing to compare (no title hash, no text), or the title's words do not line up
};
struct OnPage {
    Shown shown = Shown::Unknown;
    std::string explanation;  // one sentence for the user
    // AsTitle: the title's first and last word in page.words.
    std::optional<std::pair<std::size_t, std::size_t>> span;
    // AsTitle: the words of the span that spell part of a formula, a logo or TeX pith cannot
    // typeset (indices into page.words): OCR does not read those, so the pixels are not asked to.
    std::vector<std::size_t> formula_words = {};
    // NotAsTitle: where the record's title stands among page.words all the same (the first place).
    std::optional<std::pair<std::size_t, std::size_t>> elsewhere = std::nullopt;
    // AsTitle, beside formula_words: the text words of the title each of them holds ("sparse" in
    // "k-Sparse", "non" in "Non-TeX"; "" where none), which the pixels must show all the same.
    std::vector<std::string> formula_text = {};
    // AsTitle: the words of the span whose word of the record goes on into the next word on its
    // line (the text layer parts "LaT", "e", "X" where TeX lowers the E): read by the pixels whole.
    std::vector<std::size_t> joined_words = {};
};
// pith's badge ("pith:XXXXXXXX") on the page is no text of the paper's.
bool badge_word(const visible::Word& w);

// `plain` counts only when it hashes to `hash` (pith:title itself is not signed); with only the hash,
// the page's lines that hash to it are the title as printed.
OnPage on_page(const std::string& plain, const std::string& hash, const std::optional<visible::Page>& page);

// The page that carries the title block: page 1, or, in a class that typesets front matter
// first (a cover, highlights, a graphical abstract), a later page among the first kTitlePages
// when every page before it is front matter: at most kFrontMatterWords visible words, none in
// type larger than the title's, and the record's title among them or at most kCoverWords words;
// in the text layer and in the pixels. A paper whose first page shows its own text and title cannot
// borrow a title printed further on.
inline constexpr int kTitlePages = 3;
inline constexpr std::size_t kFrontMatterWords = 150;
struct TitleBlock {
    int index = 0;                // 0-based page
    OnPage shown;                 // as on_page() judges that page (explanation naming it)
    visible::Reading reading;     // that page's reading
};
// A page that shows words but not the record's title holds at most this many (a cover with a
// logo): more, and it may name another paper.
inline constexpr std::size_t kCoverWords = 3;
// `read(i)` reads page i (0-based); it is called for 0, 1, ... only while the title is not
// found. Page 1's judgement stands when no later page qualifies, a reading fails, or page 1 is
// a scan. The text layer's front matter must be front matter in the pixels too:
// `pixels_why(i, page, title_size, title_words)` says why page i is not ("" when it is), given
// the title's type (points) on the title block's page and the record's title as page i's text
// layer shows it (empty when it does not): pixels::not_front_matter.
using FrontMatterPixels =
    std::function<std::string(int, const visible::Page&, double, const std::vector<std::string>&)>;
TitleBlock title_block(const std::string& plain, const std::string& hash, int page_count,
                       const std::function<visible::Reading(int)>& read, const FrontMatterPixels& pixels_why);

}  // namespace pith::page::title
