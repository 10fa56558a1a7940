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
    Ref add(const Object& value) override;
    Ref add_stream(const Dictionary& dict, const std::string& data) override;

    // Allocates a number now (for objects that refer to each other); define it
    // later with replace()/replace_stream(). write() fails if it stays undefined.
    Ref reserve();

    // New content for an existing (or reserved) object. `data` is written as
    // given (already encoded; put /Filter in `dict`); /Length is set here.
    void replace(const Ref& ref, const Object& value);
    void replace_stream(const Ref& ref, const Dictionary& dict, const std::string& data);

    // Points the trailer's /Info at `ref` (use when the file had no Info dictionary).
    void set_info(const Ref& ref);
    // A comment line written first in the update, e.g. "%PithUpdate 1"; must start with '%'.
    void set_comment(const std::string& line);
    // Only for reconstructed files (File::reconstructed()): write a complete cross-reference section.
    void set_repair(bool repair) { repair_ = repair; }

    // The value this update gives an object so far (nullptr: it keeps the file's), so that a
    // later step (signing) builds on what an earlier one (the badge) replaced.
    const Object* pending(const Ref& ref) const;

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
        Object value;
        bool stream = false;
        std::string data;
        bool defined = false;
    };
    Ref next_ref();
    struct Loc;  // a cross-reference entry of appended()
    void write_objects(std::string& out, std::map<std::uint32_t, Loc>& entries,
                       std::map<std::uint32_t, std::size_t>* offsets) const;
    bool add_old_entries(std::map<std::uint32_t, Loc>& entries) const;
    static std::string xref_table(const std::map<std::uint32_t, Loc>& entries, bool full,
                                  Dictionary& tr, std::uint32_t max_num);
    static std::string xref_stream(std::map<std::uint32_t, Loc>& entries, bool full, Dictionary& tr,
                                   std::uint32_t max_num, std::uint64_t xref_rel);
    File& file_;
    std::uint32_t next_num_;
    std::map<std::uint32_t, Obj> objects_;  // by object number
    std::map<std::uint32_t, std::uint16_t> gens_;
    Ref info_;
    std::string comment_;
    bool repair_ = false;
};

// The whole document `bytes` holds, written again by PoDoFo as one new file (no revisions, none
// of the prior bytes), with `info` as its Info dictionary; `password` opens an encrypted one.
// Throws pith::Error (err::pdf_syntax) when PoDoFo cannot load or write it: for --rewrite.
std::string rewrite_whole(const std::string& bytes, const std::string& name, const std::string& password, const Dictionary& info);

}  // namespace pith::pdf
