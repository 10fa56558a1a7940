// SPDX-License-Identifier: MIT
#pragma once
// pith::pdf::Update - an incremental update appended to a File.
//
// The output is the original file byte for byte, then (optionally) a comment
// line, the new and replaced objects, one cross-reference section in the same
// flavour as the file's newest one (table or stream) and a trailer whose /Prev
// is the previous startxref. Nothing else is rewritten. For a file whose
// cross-reference data had to be reconstructed, set_repair(true) makes the
// section list every object (no /Prev), which repairs the file for readers
// without recovery; by default the update stays minimal and such readers
// recover the file as they did before.
#include "pdf/file.hpp"
#include "pdf/object_sink.hpp"

#include <cstdint>
#include <map>
#include <ostream>
#include <string>

namespace pith::pdf {

class Update : public ObjectSink {
public:
    explicit Update(File& file);  // `file` must outlive the Update

    // ObjectSink: new objects numbered above the file's highest object number.
    PoDoFo::PdfReference add(const PoDoFo::PdfObject& value) override;
    PoDoFo::PdfReference add_stream(const PoDoFo::PdfDictionary& dict, const std::string& data) override;

    // Allocates a number now (for objects that refer to each other); define it
    // later with replace()/replace_stream(). write() fails if it stays undefined.
    PoDoFo::PdfReference reserve();

    // New content for an existing (or reserved) object. `data` is written as
    // given (already encoded; put /Filter in `dict`); /Length is set here.
    void replace(const PoDoFo::PdfReference& ref, const PoDoFo::PdfObject& value);
    void replace_stream(const PoDoFo::PdfReference& ref, const PoDoFo::PdfDictionary& dict, const std::string& data);

    // Points the trailer's /Info at `ref` (use when the file had no Info dictionary).
    void set_info(const PoDoFo::PdfReference& ref);
    // A comment line written first in the update, e.g. "%PithUpdate 1"; must start with '%'.
    void set_comment(const std::string& line);
    // Only for reconstructed files (File::reconstructed()): write a complete cross-reference section.
    void set_repair(bool repair) { repair_ = repair; }

    // The value this update gives an object so far (nullptr: it keeps the file's), so that a
    // later step (signing) builds on what an earlier one (the badge) replaced.
    const PoDoFo::PdfObject* pending(const PoDoFo::PdfReference& ref) const;

    // The bytes appended after the original file (deterministic for the same input).
    // `offsets`: where each object of the update starts, counted from the start of the result.
    std::string appended(std::map<std::uint32_t, std::size_t>* offsets = nullptr) const;
    // Original bytes + appended(), to a stream (e.g. std::cout).
    void write(std::ostream& out) const;
    // Same, to `path` atomically: temp file in the same directory, then rename.
    // On failure nothing is left behind and `path` is untouched. `path` may be
    // the input file itself.
    void write_file(const std::string& path) const;

private:
    struct Obj {
        PoDoFo::PdfObject value;
        bool stream = false;
        std::string data;
        bool defined = false;
    };
    PoDoFo::PdfReference next_ref();
    struct Loc;  // a cross-reference entry of appended()
    void write_objects(std::string& out, std::map<std::uint32_t, Loc>& entries,
                       std::map<std::uint32_t, std::size_t>* offsets) const;
    bool add_old_entries(std::map<std::uint32_t, Loc>& entries) const;
    static std::string xref_table(const std::map<std::uint32_t, Loc>& entries, bool full,
                                  PoDoFo::PdfDictionary& tr, std::uint32_t max_num);
    static std::string xref_stream(std::map<std::uint32_t, Loc>& entries, bool full, PoDoFo::PdfDictionary& tr,
                                   std::uint32_t max_num, std::uint64_t xref_rel);
    File& file_;
    std::uint32_t next_num_;
    std::map<std::uint32_t, Obj> objects_;  // by object number
    std::map<std::uint32_t, std::uint16_t> gens_;
    PoDoFo::PdfReference info_;
    std::string comment_;
    bool repair_ = false;
};

}  // namespace pith::pdf
