// SPDX-License-Identifier: MIT
#pragma once
// Internal state of pith::pdf::File, shared by file.cpp, pages.cpp and update.cpp.
#include "pdf/budget.hpp"
#include "pdf/crypt.hpp"
#include "pdf/file.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace pith::pdf {

struct XrefEntry {
    std::uint8_t type = 0;    // 0 free, 1 at offset, 2 inside object stream
    std::uint16_t gen = 0;    // generation (type 1); 0 for type 2
    std::uint32_t index = 0;  // index inside the object stream (type 2)
    std::uint64_t value = 0;  // offset relative to the header (type 1) or object stream number (type 2)
};

// Cross-reference entries by object number, in one sorted vector (files list tens of
// thousands: a node per entry costs more to build and free than the rest of a stamp).
// add() collects; finish() sorts, keeping the first entry added for each number (sections
// are read newest first); find() works after finish().
class XrefTable {
public:
    using Item = std::pair<std::uint32_t, XrefEntry>;
    void add(std::uint32_t num, const XrefEntry& e) { items_.emplace_back(num, e); }
    void reserve_more(std::size_t n) {
        if (items_.size() + n > items_.capacity()) items_.reserve(std::max(items_.size() + n, 2 * items_.capacity()));
    }
    void finish();
    const XrefEntry* find(std::uint32_t num) const;
    std::size_t size() const { return items_.size(); }
    void clear() { items_.clear(); }
    std::vector<Item>::const_iterator begin() const { return items_.begin(); }
    std::vector<Item>::const_iterator end() const { return items_.end(); }

private:
    std::vector<Item> items_;
};

struct XrefSection {
    std::uint64_t rel = 0;   // startxref / Prev value that led here
    std::uint64_t tail = 0;  // absolute offset where the section (trailer / stream) ends
    XrefKind kind = XrefKind::Table;
    std::vector<std::uint32_t> objects;  // in-use entries it lists
};

struct CachedObject {
    PoDoFo::PdfObject value{PoDoFo::PdfVariant()};  // PdfObject() would be an empty dictionary
    bool partial = false;  // read by get_without_widths(), and widths were left out
    bool stream = false;
    std::uint64_t data_abs = 0;  // absolute offset of the stream data
    std::uint64_t data_len = 0;
};

struct ObjStm {
    std::string data;
    std::vector<std::pair<std::uint32_t, std::uint64_t>> entries;  // objnum, offset in data
};

struct File::Impl {
    std::string name;
    // What reading this file may cost: the active Budget::Scope's (one input file's work), else its own.
    Budget own_budget;
    Budget* budget = Budget::active() ? Budget::active() : &own_budget;
    std::string owned;          // bytes when not mmapped
    void* map = nullptr;
    std::size_t map_len = 0;
    const char* d = nullptr;    // file bytes
    std::uint64_t n = 0;        // file length
    std::uint64_t hdr = 0;      // header offset
    std::string version;

    XrefTable xref;
    std::vector<XrefSection> sections;  // newest first
    PoDoFo::PdfDictionary trailer;
    std::uint64_t startxref = 0;
    XrefKind kind = XrefKind::Table;
    bool reconstructed = false;
    std::vector<std::string> defects;  // what a conforming reader would have to repair
    // Objects readers may resolve differently though nothing needs repair (listed twice in one
    // cross-reference section or object stream): File::ambiguous_definitions().
    std::vector<std::string> ambiguities;
    std::map<std::uint32_t, std::vector<std::string>> keys_twice;  // File::keys_twice()
    // What the scan of the whole file for definitions found (File::ambiguous_definitions()),
    // once made: the bytes do not change, and the scan reads every one of them.
    std::optional<std::vector<std::string>> defined_differently;
    // The last page_content(), kept for its callers (check_page and the text reading ask for the
    // same page in turn) and served again if it decoded cleanly.
    struct PageContent {
        std::uint32_t page = 0;  // the page's object number
        bool clean = false;
        std::string bytes;
        std::optional<std::string> syntax_error;  // once known: "" when the syntax holds
    } last_page_content;
    std::uint32_t max_num = 0;

    std::unordered_map<std::uint32_t, CachedObject> cache;
    // Partial objects read again whole: kept, as callers may still hold them.
    std::vector<std::unordered_map<std::uint32_t, CachedObject>::node_type> retired;
    std::unordered_map<std::uint32_t, std::shared_ptr<ObjStm>> objstms;
    // Streams many objects share (ToUnicode maps), decoded once: stream_decoded_shared().
    std::unordered_map<std::uint32_t, std::shared_ptr<const std::string>> shared_streams;
    std::optional<std::unordered_map<std::uint32_t, XrefEntry>> scanned;  // built on demand
    int depth = 0;
    std::map<int, Page> pages_read;               // by index: the pages asked for so far
    std::optional<std::vector<Page>> all_pages;  // filled once a caller walks many pages

    std::unique_ptr<PoDoFo::PdfEncrypt> enc;
    std::unique_ptr<Crypt> crypt;  // our own cipher with the key PoDoFo derived
    PoDoFo::PdfReference enc_ref;
    bool has_encrypt = false;
    bool metadata_encrypted = true;  // /EncryptMetadata


    ~Impl();
    [[noreturn]] void fail(const std::string& what, const char* code = err::pdf_syntax) const;
    void defect(const std::string& what);
    void ambiguity(const std::string& what);

    void init(const OpenOptions& opt);
    // The steps of init().
    void read_header();
    bool cut_short() const;
    std::uint64_t find_startxref();
    void read_sections(std::uint64_t off);
    void check_size();
    const CachedObject& load(const PoDoFo::PdfReference& ref, bool without_widths = false);
};

// Stream bytes (decrypted; decoded if `decode`).
std::string stream_bytes(File::Impl& f, const PoDoFo::PdfReference& ref, bool decode,
                         std::size_t limit = kMaxDecodedSize);
// Whether a stream with this dictionary is encrypted in this file (XRef never; Metadata per /EncryptMetadata; Identity crypt filters not).
bool stream_is_encrypted(const File::Impl& f, const PoDoFo::PdfDictionary& dict);
}  // namespace pith::pdf
