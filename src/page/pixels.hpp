// SPDX-License-Identifier: MIT
#pragma once
// The title read a second, independent way: from the pixels (doc/visible.md
// "The title from pixels").
//
// The text layer is written by whoever sends the PDF: a font's ToUnicode map can spell one title
// while its glyphs draw another, and a colour can pass an ink threshold while a reader barely
// sees it. Once title::on_page() has found the record's title among the page's words, the title
// block is rendered as a viewer shows it (poppler's Splash, in pith-text.so) and read with
// Tesseract (pith-ocr.so), both in a limited child; judge() then requires that the pixels show
// the same words in the same place, at a contrast a reader can read, and that no text the
// pixels show on the page is set larger (above the title, or anywhere below it). The pages a
// title block after front matter skips are read too (not_front_matter()).
#include "core/child.hpp"

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "page/visible.hpp"

namespace pith::page::pixels {

// Rendered so that the title's x-height (about 0.45 of its font size) is this many pixels: what
// Tesseract's LSTM models read reliably (doc/dev/pixels.md), within kMinDpi..kMaxDpi.
inline constexpr double kXHeightPixels = 20;
inline constexpr double kMinDpi = 72, kMaxDpi = 300;
// WCAG 2 contrast ratio of the title's glyphs against their background: below it a reader
// barely sees the words. WCAG asks 3:1 of large text for comfortable reading; honest grey titles
// stand at 2.5:1 (the corpus's tug2005.pdf), forged faint ones at 1.6:1 and below (doc/dev/pixels.md).
inline constexpr double kMinContrast = 2.0;
// The title is the page's own when no line the pixels show outranks it (judge()), each line's
// type measured by the text layer where it explains the ink, else by the ink (its height and
// letters): above the title, a line right over it (at most kPrefixGap of its type apart) in
// kAboveType of its type or more ("A Critique of", "Retracted:"; a chapter's number and a class's
// labels and running heads stand one LaTeX size smaller, 0.83, or less), or one of two words or
// more anywhere above it in kLargerType or more (one larger word alone may be a logo or a label:
// "Highlights", a university's name, the corpus's GeoBase); beside it, a line of two words or
// more in kAboveType or more (another title printed beside it); below it, a line of two words or
// more in kLargerType or more (another title set larger under it; honest authors, dates and
// translations may stand in the title's type); beside or below it, a line in kHugeType times its
// type (FAKE, a rubber stamp across the page; two letters are enough there, so not less: a form's
// empty boxes beside its small title, read as "PT", stand at 2.2).
inline constexpr double kAboveType = 0.85, kPrefixGap = 1.0, kLargerType = 1.1, kHugeType = 3.0;
// Front matter (not_front_matter()): two words side by side this many times the title's type.
inline constexpr double kOutrankRatio = 1.3;
// Between two words of the title on a line the page shows a space and nothing else: what OCR reads
// there, over no word of the text layer, further than this share of the title's type (more than
// a space, 0.25-0.33 of it, a justified line's wider one) leaves the title unconfirmed, whatever
// OCR made of it (a raised word drawn as outlines read as a quote mark, hollow letters read "|").
inline constexpr double kGapInk = 0.6;
// Tesseract's confidence (0-100) below which a word it reads counts neither as an extra word
// nor as one that outranks the title: specks, rules and logos read as letters.
inline constexpr double kMinConfidence = 50;
// Wall-clock limit for rendering the region; the child's CPU and wall-clock limits.
inline constexpr double kRenderSeconds = 10;
inline constexpr unsigned long kChildCpuSeconds = 20;
inline constexpr double kChildWallSeconds = 40;
// Tesseract's language for Latin script, the script of most arXiv titles: the one `pith batch`
// starts in its parent; a title in another script starts its own in the child (languages_for()).
inline constexpr const char* kLatin = "eng";

// The Tesseract languages that read a title's scripts (doc/visible.md "Titles in other scripts"):
// eng for Latin; chi_sim and chi_tra for Han, jpn when it has kana, kor, rus, ell, ara, heb, hin, tha;
// eng after them when the title also has Latin words. A script counts where a word has two
// letters of it (a lone Greek letter is a formula's), or one of a script written without spaces.
// Han is read twice, by chi_sim and by chi_tra apart: the two models together write simplified
// characters in their traditional forms (计算 as 計算), which compare as other characters.
struct Languages {
    std::string tesseract;  // "eng", "chi_sim chi_tra+eng": engines apart by spaces, each "a+b"; "" when pith knows no OCR data for a script
    std::string why;        // then: "the title is written in Ethiopic, for which ..."
    // The region's resolution times this: Tesseract reads Han and kana, whose characters stand a
    // full em high, more steadily at 0.75 of the resolution that gives Latin its x-height
    // (doc/dev/pixels.md).
    double dpi_scale = 1;
};
Languages languages_for(const std::vector<visible::Word>& title);

// The rest of the page below the title is read for type larger than the title's only: at the
// resolution that gives the title this x-height (larger type reads from 13 pixels up), and only
// its lines of text at least as tall as a line in the title's type (Tesseract's layout
// analysis finds them without reading; the page's body text is never read).
inline constexpr double kRestXHeightPixels = 10;
inline constexpr double kRestMinDpi = 36, kRestMaxDpi = 150;
// Words read there carry this pass number (OcrWord::pass), after the title's passes: two for each
// of at most two engines (Han is read by chi_sim and chi_tra apart).
inline constexpr int kPassBelow = 4;
// Where no pass reads each word of the title exactly, its lines and words are read once more,
// closer: rendered at this many times the title block's resolution (at most kMaxCloserDpi), each
// line read alone (Tesseract's single-line mode; pass kPassCloser + k) and each word read alone
// (kPassAlone + k) by reader k: each of at most two engines, then the language data the title's
// accented letters call for. A word is confirmed only by a reading that gives exactly it (judge()).
// Only what can still change the judgement is read: lines before words, a reader's data started
// when its turn comes, words read alone only where a reading alone counts (to_read_alone()),
// nothing once judge() agrees.
inline constexpr double kCloserScale = 4, kMaxCloserDpi = 600;
inline constexpr int kCloserReaders = 6;
inline constexpr int kPassCloser = kPassBelow + 1;
inline constexpr int kPassAlone = kPassCloser + kCloserReaders;
inline constexpr int kLastPass = kPassAlone + kCloserReaders - 1;
// A relation sign OCR has no character for (≤ ≥ ≠), set as a word of its own, is read from its
// strokes in the closer rendering (signs.hpp), as a word of this pass.
inline constexpr int kPassStrokes = kLastPass + 1;
// A word whose margin in the closer rendering reaches a neighbour set without a space (a
// formula's pieces) is read alone once more, its box cut at the middle of the gap, by the first
// reader: as a word of this pass.
inline constexpr int kPassTight = kPassStrokes + 1;
// Each glyph of a TeX logo in the title that no reading of the title block gives whole, drawn
// alone by poppler at kLetterPixels pixels to the logo's type size and read alone
// (logo_letters.hpp), as a word of this pass: one word a glyph, its text what Tesseract read
// ("" for nothing).
inline constexpr int kPassLetters = kPassTight + 1;
inline constexpr double kLetterPixels = 100;

// The part of the page rendered: points, page as displayed (CropBox, /Rotate), origin top-left.
struct Region {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    double dpi = 0;
    // The rest of the page, from rest_y0 down to page_height, read at rest_dpi for lines at least
    // rest_line points tall (none when rest_dpi is 0).
    double rest_y0 = 0, page_height = 0, rest_dpi = 0, rest_line = 0;
};
// Full width, from the top of the page to a line and a half below the title's last line (so
// that the next line is read whole, not as junk on the title's edge), at the resolution that
// gives the title kXHeightPixels; then the rest of the page below the title's last line.
Region region_for(const visible::Page& page, const std::vector<visible::Word>& title);

struct Image {
    int columns = 0, rows = 0;
    double dpi = 0;
    double x0 = 0, y0 = 0;           // points: the page position of the render's top-left pixel's corner
    std::vector<unsigned char> rgb;  // rows * columns * 3, row 0 at the top
    int row0 = 0;                    // rgb's row 0 is the render's row row0 (around())
};
struct OcrWord {
    std::string text;                          // UTF-8 as Tesseract reads it
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;     // points, page as displayed, origin top-left
    double confidence = 0;                     // 0-100
    // 2k, 2k+1: the k-th engine's sparse-text and automatic layouts; kPassBelow; kPassCloser + k;
    // kPassAlone + k; kPassStrokes; kPassTight; kPassLetters
    int pass = 0;
};
struct Reading {
    bool read = false;  // the region was rendered and OCR ran
    std::string why;    // when not: why not (no OCR data, not rendered in time, ...)
    Image image;
    std::vector<OcrWord> words;  // of every pass, each in Tesseract's order
};

// The title's words split into those the pixels are asked to read and those they are not: words
// that spell part of the record's formulas or logos (title::OnPage::formula_words), which OCR
// does not read (α as "a", the LaTeX logo as "ETRX"). With them, the page's badge words
// (title::badge_word()): what OCR reads of a badge is no line of the paper's (judge()); and the
// page's visible words, which measure the type of what the pixels show (judge()).
// `glued`: the unread words that hold text words of the title besides their formula or logo
// ("k-Sparse"), each with those words as its text ("sparse"), which the pixels must show.
struct TitleWords {
    std::vector<visible::Word> read, unread, badge, page, glued;
    std::vector<visible::Word> all() const;  // for region_for()
};
// `joined`: words the record's word goes on from into the next on the line (title::OnPage::joined_words):
// the pixels read them as one word, the record's.
TitleWords title_words(const visible::Page& page, std::pair<std::size_t, std::size_t> span,
                       const std::vector<std::size_t>& unread, const std::vector<std::string>& unread_text = {},
                       const std::vector<std::size_t>& joined = {});

// The regions x0..x1, y0..y1 (points from the top left of page `index` as displayed) rendered
// in this process at their dpi as a viewer shows them, from one opening of the file, each to
// `rendered` as soon as it is drawn (in order, so that its reading can start while the next is
// drawn); an image's columns are 0 when poppler did not render it whole within kRenderSeconds,
// and a region poppler does not draw at all (the page did not open, the region is off it) is not
// handed over. render_region(): one, columns 0 when not drawn. Throws pith::Error when
// pith-text.so cannot be loaded.
struct Slice {
    double x0, y0, x1, y1, dpi;
};
void render_regions(std::string_view pdf, int index, const std::string& password, const std::vector<Slice>& slices,
                    const std::function<void(std::size_t, Image)>& rendered);
Image render_region(std::string_view pdf, int index, const std::string& password, double x0, double y0, double x1, double y1,
                    double dpi);

// The region rendered and read in this process with Tesseract's `languages` (languages_for()).
// Throws pith::Error when pith-text.so cannot be loaded; a missing pith-ocr.so or OCR data is a
// Reading with `why`. Given the `title` the reading will be judged against, it stops once the
// first pass (and the page below) agree with it: judge() keeps the best pass's judgement, which
// no later pass can change then.
Reading read(std::string_view pdf, int index, const std::string& password, const Region& region, const Languages& languages,
             const TitleWords* title = nullptr);

// What a Reader's child is asked: the region of page `index`, read with `languages`, judged
// against `title` when given (read()'s arguments).
struct Request {
    int index = 0;
    Region region;
    Languages languages;
    std::optional<TitleWords> title;
};

// The same in a child process with a reading's limits (visible::ChildReader), which works while
// the caller goes on; collect() waits for it (given a title, the image it returns is around()
// the title's words: what judge() reads). Started before the caller knows what to read, the
// child loads Tesseract for kLatin, most of a reading's cost, while the caller lays the page out
// and finds the title; ask() then says what to read.
class Reader {
public:
    Reader(std::string_view pdf, const std::string& password);
    // Started and asked at once (Tesseract loaded for the request's languages).
    Reader(std::string_view pdf, const std::string& password, Request request);
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;
    void ask(Request request);  // once
    Reading collect();          // after ask()

private:
    void start(const std::string& engine);
    std::string_view pdf_;
    std::string password_;
    std::optional<Request> request_;  // read in this process where no child could be started
    child::Child child_;              // not started where no child could be
};
// The Reader that reads `request`: `started` (a Reader started before the request was known),
// asked it; where there is none, a Reader started and asked now.
std::unique_ptr<Reader> reader_for(std::unique_ptr<Reader> started, std::string_view pdf, const std::string& password, Request request);

// For the child's pipes: lossless encodings of a Reading and a Request and their inverses
// (nullopt on junk).
std::string encode(const Reading& r);
std::optional<Reading> decode(std::string_view bytes);
std::string encode(const Request& q);
std::optional<Request> decode_request(std::string_view bytes);

enum class Verdict {
    Agrees,      // the pixels show the title's words, there, legibly, and nothing above it larger
    Unverified,  // the pixels cannot be read for this title (no OCR, a script without OCR data, a formula)
    Differs,     // the pixels show other words where the text layer has the title
    Faint,       // the title's glyphs are too faint for a reader (contrast below kMinContrast)
    Outranked,   // the pixels show other text above the title in larger type, or anywhere below it
};
struct Judgement {
    Verdict verdict = Verdict::Unverified;
    std::string explanation;  // one sentence for the user, naming both readings
    double contrast = 0;      // the least contrast ratio of the title's words
};
// `title`: the words the text layer matched as the title (title::OnPage::span), in order. Each
// OCR pass is judged; the best judgement stands (each segmentation misses lines the other
// reads: one on a mostly empty strip, the other where a line touches the next).
// `page`: the page's visible words (TitleWords::page), which measure the type of the lines the
// pixels show where they explain their ink.
Judgement judge(const std::vector<visible::Word>& title, const Reading& r, const std::vector<visible::Word>& page = {});

// judge() on the words to read; what OCR reads where an unread word stands is left out.
Judgement judge(const TitleWords& title, Reading r);

// Which of title.read's words a closer reading must still read alone, given the passes of `r`:
// those some judgement of judge() could weigh a reading alone of. A word every pass's alignment
// leaves unconfirmed, and a word with a relation sign (each reading of it is weighed); none
// when no pass agrees (readings alone are then weighed by nothing).
std::vector<bool> to_read_alone(const TitleWords& title, const Reading& r);

// Front matter, as the pixels show it (title::title_block). A page before the title block's is
// read whole at kFrontMatterDpi (body text of 10 pt stands 9 pixels high: enough to count words
// and to see larger ones). It is front matter when its pixels show no more than
// title::kFrontMatterWords words, no two side by side in type larger than the title's, and
// either the record's title (when its text layer shows it) or at most title::kCoverWords words
// (a logo, a picture): a cover that names another paper is not skipped.
inline constexpr double kFrontMatterDpi = 150;
Region whole_page(const visible::Page& page);
// Why the reading of a whole page (whole_page()) is not front matter before a title set in
// `title_size` points ("" when it is); `title_words`: the record's title as the page's text
// layer shows it (empty when it does not show it).
std::string not_front_matter(const Reading& r, double title_size, const std::vector<std::string>& title_words);
// The same, the page read in a child (Reader).
std::string not_front_matter(std::string_view pdf, int index, const std::string& password, const visible::Page& page,
                             double title_size, const std::vector<std::string>& title_words);

// WCAG 2 contrast ratio (1-21) between the glyphs in the box (points) and their background: the
// background is the commonest luminance around the box, the glyphs the 90th percentile of the
// pixels that differ from it.
double contrast(const Image& image, double x0, double y0, double x1, double y1);
// The rows of `image` that contrast() reads for the words (each word's box and its margin):
// what judge() needs of a reading's image, a part of the title block's.
Image around(Image image, const std::vector<visible::Word>& words);

// Levenshtein distance between two strings of code points.
std::size_t edit_distance(std::u32string_view a, std::u32string_view b);

// Loads Tesseract and its data for `languages` once in this process (pith batch calls it for
// kLatin before starting its workers so that they inherit it). Returns "" when ready, else why
// not, naming the script and the Debian package of the data that is missing.
std::string preload(const std::string& languages = kLatin);
// poppler's module (visible::preload) and Tesseract's Latin data loaded in this process, for the
// reading children of every file it then stamps or verifies to inherit: a process that reads
// many files (pith batch, pith verify A B C) loads them once. What does not load is left for each
// file's reading to report.
void preload_readers();

}  // namespace pith::page::pixels
