// SPDX-License-Identifier: MIT
#pragma once
// pith::pdf::File - a lazy, read-only view of a PDF file.
//
// Opening reads only the header, the cross-reference sections (the /Prev
// chain) and the /Encrypt dictionary. Objects are parsed when asked for and
// cached; object streams are decoded on first use. Every failure is a
// pith::Error naming the file and the problem.
//
// Offsets: PDF offsets (xref entries, startxref, /Prev) are relative to the
// "%PDF-" header; when the header sits at a non-zero position the reader
// adds header_offset() itself. Offsets this API hands out are *absolute*
// positions in bytes() unless documented otherwise.
#include "pdf/types.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pith::pdf {

// Default cap on a decoded stream (bytes); protects against decompression bombs.
inline constexpr std::size_t kMaxDecodedSize = std::size_t(512) << 20;

enum class XrefKind { Table, Stream };

// One revision of the file: the original document, then one per incremental update.
struct Revision {
    std::uint64_t end = 0;        // absolute offset just past this revision's "%%EOF" and its EOL
    std::uint64_t eof_end = 0;    // absolute offset just past "%%EOF" (no EOL)
    std::uint64_t startxref = 0;  // the startxref value (relative to the header) of this revision
    XrefKind kind = XrefKind::Table;
    std::vector<std::uint32_t> objects;  // object numbers it defines or replaces (in-use entries), sorted
};

struct Rect {
    double llx = 0, lly = 0, urx = 0, ury = 0;
    double width() const { return urx - llx; }
    double height() const { return ury - lly; }
};

// The two rectangles share some area (touching edges do not count).
inline bool overlaps(const Rect& a, const Rect& b) { return a.llx < b.urx && b.llx < a.urx && a.lly < b.ury && b.lly < a.ury; }

enum class ResourcesFrom { Own, Inherited, Absent };

struct Page {
    int index = 0;                       // 0-based
    Ref ref;            // the page object
    Rect media_box;                      // effective (inherited), normalised; US Letter if absent
    Rect crop_box;                       // effective, clipped to media_box; = media_box if absent
    int rotate = 0;                      // 0, 90, 180 or 270
    ResourcesFrom resources_from = ResourcesFrom::Absent;
    Ref resources_owner;  // node holding /Resources (page or ancestor); (0,0) if absent
    Object resources{PoDoFo::PdfVariant()};  // the effective /Resources, resolved (Null if absent)
};

// A rectangle of the page's default user space where a reader sees it: points from the top-left
// corner of the page as displayed (its crop box turned by /Rotate), x0 <= x1, y0 <= y1.
struct Shown {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};
inline Shown shown(const Rect& r, const Page& page) {
    const Rect& c = page.crop_box;
    auto at = [&](double x, double y) -> std::pair<double, double> {
        switch (page.rotate) {
            case 90: return {y - c.lly, x - c.llx};
            case 180: return {c.urx - x, y - c.lly};
            case 270: return {c.ury - y, c.urx - x};
            default: return {x - c.llx, c.ury - y};
        }
    };
    const auto [ax, ay] = at(r.llx, r.lly);
    const auto [bx, by] = at(r.urx, r.ury);
    return {std::min(ax, bx), std::min(ay, by), std::max(ax, bx), std::max(ay, by)};
}

// The inverse of shown(): a box where a reader sees it, in the page's default user space.
inline Rect user(const Shown& s, const Page& page) {
    const Rect& c = page.crop_box;
    auto at = [&](double x, double y) -> std::pair<double, double> {
        switch (page.rotate) {
            case 90: return {c.llx + y, c.lly + x};
            case 180: return {c.urx - x, c.lly + y};
            case 270: return {c.urx - y, c.ury - x};
            default: return {c.llx + x, c.ury - y};
        }
    };
    const auto [ax, ay] = at(s.x0, s.y0);
    const auto [bx, by] = at(s.x1, s.y1);
    return {std::min(ax, bx), std::min(ay, by), std::max(ax, bx), std::max(ay, by)};
}

struct OpenOptions {
    std::string password;            // tried after the empty password
    bool password_given = false;     // true when the user passed --password
};

class File {
public:
    static File open(const std::string& path, const OpenOptions& options = {});
    // The same for a file already open (`fd` stays open, and is the caller's to close);
    // `name` names it in messages.
    static File open(int fd, const std::string& name, const OpenOptions& options = {});
    static File from_bytes(std::string bytes, const std::string& name = "<memory>",
                           const OpenOptions& options = {});
    // The document this file held when it was `length` bytes long (an earlier revision), read
    // from the same bytes, not a copy: this File must outlive it.
    File prefix(std::uint64_t length, const std::string& name, const OpenOptions& options = {}) const;
    File(File&&) noexcept;
    File& operator=(File&&) noexcept;
    ~File();

    const std::string& name() const;
    std::string_view bytes() const;          // the whole original file
    std::uint64_t header_offset() const;     // position of "%PDF-" in bytes()
    std::string version() const;             // from the header, e.g. "1.7"

    // Cross-reference facts.
    XrefKind xref_kind() const;              // flavour of the last (newest) xref section
    std::uint64_t startxref() const;         // last startxref value (relative to header)
    std::uint32_t max_object_number() const; // highest object number known (xref + /Size - 1)
    bool reconstructed() const;              // xref was rebuilt by scanning the file
    // Damage found so far in what was read (broken cross-reference data, objects not where the
    // xref says, wrong stream lengths, page-tree loops, ...): what a strict reader would refuse
    // and a lenient one repairs. The reader works around each; callers decide whether to go on.
    const std::vector<std::string>& defects() const;
    void add_defect(const std::string& what);  // for checks outside the reader (page tree, page content)
    void add_ambiguity(const std::string& what);  // the same for ambiguous_definitions() (the page tree)
    // Drops what was recorded after the first `count` defects: for best-effort reads, whose
    // damage must not make the file refused.
    void forget_defects_since(std::size_t count);

    // Object definitions readers resolve differently though nothing needs repair: an object
    // listed twice in one cross-reference section or in one object stream's header (of the
    // object streams read so far; MuPDF keeps the first, poppler and pith the one the entry's
    // index names), defined twice in one revision, or -- when bytes precede "%PDF-", which makes
    // MuPDF rebuild the cross-reference data by scanning -- defined later in the file than where
    // the cross-reference data puts it, or where none lists it; and a page-tree node that says
    // /Count 0 over pages (met on the way to a page). Scans the file on the first call only.
    std::vector<std::string> ambiguous_definitions();
    // The keys a dictionary in object `num` (read already) holds twice with different values:
    // PoDoFo, poppler, MuPDF and qpdf keep the last value, Ghostscript the first. Empty for an
    // object not read yet.
    std::vector<std::string> keys_twice(std::uint32_t num) const;

    // The newest trailer (for xref streams: the stream dictionary), without stream keys.
    const Dictionary& trailer() const;
    Ref root_ref() const;
    const Object& catalog();           // throws if /Root is not a dictionary
    const Object* info();              // nullptr if no usable /Info dictionary
    Ref info_ref() const;        // (0,0) if /Info is absent or direct

    // Objects. get() returns a Null object for free / nonexistent objects (as the spec says).
    bool exists(const Ref& ref);
    // Object `num` with the generation the cross-reference data gives it (0 when it has none).
    Ref reference(std::uint32_t num) const;
    const Object& get(const Ref& ref);
    // The same, but with a CID font's glyph widths (/W and /W2 arrays of numbers, at any depth)
    // left out, for reading text: they can cost more to parse than the rest of a verify. A
    // later get() of the object reads it whole.
    const Object& get_without_widths(const Ref& ref);
    // Follows indirect references (bounded chain); returns `obj` itself if direct.
    const Object& resolve(const Object& obj);
    // Looks up `key` in `dict` and resolves it; nullptr if absent or null.
    const Object* get_key(const Dictionary& dict, const char* key);

    bool is_stream(const Ref& ref);
    // Stream data as stored (still filtered) but decrypted.
    std::string stream_encoded(const Ref& ref);
    // Stream data with all filters removed (Flate/LZW/ASCIIHex/ASCII85/RunLength + predictors);
    // throws when it would be more than `limit` bytes.
    std::string stream_decoded(const Ref& ref, std::size_t limit = kMaxDecodedSize);
    // The same, decoded once for all its users (a ToUnicode map 300 fonts share is one map).
    std::shared_ptr<const std::string> stream_decoded_shared(const Ref& ref);

    // Encryption (nullptr when the file is not encrypted).
    bool encrypted() const;
    PoDoFo::PdfEncrypt* encryption() const;
    Ref encrypt_ref() const;  // (0,0) if /Encrypt is direct or absent

    // Revisions, oldest first.
    std::vector<Revision> revisions();

    // Pages.
    int page_count();
    Page page(int index);  // 0-based; throws pith::Error if out of range
    // Reads what a viewer needs to show `page` -- its content streams (to the end of their syntax)
    // and the XObjects it names -- and records what is damaged there in defects().
    // For page 1 of a linearized file, also that the linearization dictionary names it.
    void check_page(const Page& page);
    // Before poppler renders `page` (in verify's child): what that asks of a reader, within this
    // file's budget -- its content, each font's ToUnicode map (charged once per font that uses
    // it, as a reader decodes it for each), every Form XObject draw (a form drawing itself is
    // endless). Throws TooLarge past the budget, so that the child is stopped, not awaited.
    void preflight_page(const Page& page);
    // The page's content streams decoded and joined (they form one stream of content syntax: a
    // token may span two); one that cannot be decoded is left out and recorded in defects().
    // Valid until the next call.
    const std::string& page_content(const Page& page);

    struct Impl;
private:
    explicit File(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
    friend class Update;
};

// A page with more content than this is not checked (check_page): a bound on the work a hostile
// file can ask for.
inline constexpr std::size_t kMaxTokenizedContent = std::size_t(16) << 20;

// A rectangle array (references resolved) as llx <= urx, lly <= ury; false unless it holds four
// finite numbers.
bool read_rect(File& file, const Object* array, Rect& rect);

// "damaged PDF: <first defect> (and N more)", or "" when defects() is empty.
std::string damage_message(const File& file);

// A string's text (UTF-8) or a name's; "" for anything else, and for null.
std::string text_of(const Object* obj);

// Number helpers that accept integers and reals (PDF allows either).
double number_value(const Object& obj, double fallback = 0);

// A number for content streams, locale-independent: at most 4 decimals, no trailing zeros, no exponent.
std::string format_number(double value);

// Serialise an object the way the writer does (for tests and debugging).
std::string to_pdf_string(const Object& obj);

}  // namespace pith::pdf
