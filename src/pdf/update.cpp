// SPDX-License-Identifier: MIT
#include "pdf/update.hpp"

#include "core/error.hpp"
#include "core/files.hpp"
#include "pdf/budget.hpp"
#include "pdf/crypt.hpp"
#include "pdf/file_impl.hpp"
#include "pdf/filters.hpp"

#include <sodium.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace pith::pdf {

using namespace PoDoFo;

namespace {

std::string serialise(const PdfObject& obj, const PdfEncrypt* enc) {
    PdfRefCountedBuffer buf;
    PdfOutputDevice dev(&buf);
    obj.PdfVariant::Write(&dev, ePdfWriteMode_Clean, enc);
    return std::string(buf.GetBuffer(), dev.GetLength());
}

std::string hash16(const std::string& a, const std::string& b) {
    unsigned char out[16];
    crypto_generichash_state st;
    crypto_generichash_init(&st, nullptr, 0, sizeof out);
    crypto_generichash_update(&st, reinterpret_cast<const unsigned char*>(a.data()), a.size());
    crypto_generichash_update(&st, reinterpret_cast<const unsigned char*>(b.data()), b.size());
    crypto_generichash_final(&st, out, sizeof out);
    return std::string(reinterpret_cast<const char*>(out), sizeof out);
}

void put_be(std::string& s, std::uint64_t v, int width) {
    for (int i = width - 1; i >= 0; --i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

}  // namespace

Update::Update(File& file) : file_(file), next_num_(file.max_object_number() + 1) {
    if (next_num_ > 8388607) throw Error(file.name() + ": no free object numbers left", err::pdf_too_large);
}

PdfReference Update::next_ref() {
    if (next_num_ > 8388607) throw Error(file_.name() + ": too many objects", err::pdf_too_large);
    PdfReference r(next_num_++, 0);
    gens_[r.ObjectNumber()] = 0;
    return r;
}

PdfReference Update::reserve() {
    PdfReference r = next_ref();
    objects_[r.ObjectNumber()] = Obj{};
    return r;
}

PdfReference Update::add(const PdfObject& value) {
    PdfReference r = next_ref();
    replace(r, value);
    return r;
}

PdfReference Update::add_stream(const PdfDictionary& dict, const std::string& data) {
    PdfReference r = next_ref();
    replace_stream(r, dict, data);
    return r;
}

void Update::replace(const PdfReference& ref, const PdfObject& value) {
    if (ref.ObjectNumber() == 0 || ref.ObjectNumber() >= next_num_)
        throw Error("internal: replace() of unknown object " + std::to_string(ref.ObjectNumber()), err::internal_error);
    Obj o;
    o.value = value;
    o.defined = true;
    objects_[ref.ObjectNumber()] = std::move(o);
    gens_[ref.ObjectNumber()] = static_cast<std::uint16_t>(ref.GenerationNumber());
}

void Update::replace_stream(const PdfReference& ref, const PdfDictionary& dict, const std::string& data) {
    replace(ref, PdfObject(dict));
    Obj& o = objects_[ref.ObjectNumber()];
    o.stream = true;
    o.data = data;
}

void Update::set_info(const PdfReference& ref) { info_ = ref; }

void Update::set_comment(const std::string& line) {
    if (!line.empty() && (line[0] != '%' || line.find_first_of("\r\n") != std::string::npos))
        throw Error("internal: update comment must be one line starting with %", err::internal_error);
    comment_ = line;
}

const PdfObject* Update::pending(const PdfReference& ref) const {
    auto it = objects_.find(ref.ObjectNumber());
    return it != objects_.end() && it->second.defined ? &it->second.value : nullptr;
}

// One entry of the update's cross-reference section: type 1 (offset) or 2 (in an object stream).
struct Update::Loc {
    std::uint8_t type;
    std::uint64_t value;
    std::uint32_t gen;
};

namespace {

// The object numbers a section lists: those of `entries`, after object 0 for a full table.
template <class Entries>
std::vector<std::uint32_t> numbers(const Entries& entries, bool with_zero) {
    std::vector<std::uint32_t> nums;
    if (with_zero) nums.push_back(0);
    for (const auto& [num, l] : entries) nums.push_back(num);
    return nums;
}

// Cross-reference subsections: runs of consecutive numbers (start, count).
std::vector<std::pair<std::uint32_t, std::uint32_t>> runs_of(const std::vector<std::uint32_t>& nums) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> runs;
    for (std::uint32_t n : nums) {
        if (!runs.empty() && runs.back().first + runs.back().second == n) ++runs.back().second;
        else runs.emplace_back(n, 1);
    }
    return runs;
}

// /ID: keep ID[0]; a new ID[1] derived from the old ID and the update's objects (`written`).
void set_id(PdfDictionary& tr, const File::Impl& f, const std::string& written) {
    std::string id0;
    const PdfObject* id = f.trailer.GetKey("ID");
    if (id && id->IsArray() && !id->GetArray().empty() &&
        (id->GetArray()[0].IsString() || id->GetArray()[0].IsHexString())) {
        const PdfString& s = id->GetArray()[0].GetString();
        id0.assign(s.GetString(), s.GetLength());
    }
    if (f.has_encrypt && id0.empty()) return;  // an encrypted file without /ID must keep deriving its key without one
    if (id0.empty()) {
        std::string head(f.d, static_cast<std::size_t>(std::min<std::uint64_t>(f.n, 65536)));
        id0 = hash16(head, std::to_string(f.n));
    }
    std::string id1 = hash16(id0 + std::to_string(f.n), written);
    PdfArray ids;
    ids.push_back(PdfObject(PdfString(id0.data(), static_cast<pdf_long>(id0.size()), true)));
    ids.push_back(PdfObject(PdfString(id1.data(), static_cast<pdf_long>(id1.size()), true)));
    tr.AddKey("ID", ids);
}

}  // namespace

std::string Update::appended(std::map<std::uint32_t, std::size_t>* offsets) const {
    const File::Impl& f = *file_.impl_;
    std::string out;
    if (f.n > 0 && f.d[f.n - 1] != '\n' && f.d[f.n - 1] != '\r') out += '\n';
    if (!comment_.empty()) out += comment_ + "\n";
    std::map<std::uint32_t, Loc> entries;
    write_objects(out, entries, offsets);

    // Full table when the reader had to reconstruct (the old sections are unusable).
    const bool full = f.reconstructed && repair_;
    bool needs_stream = f.kind == XrefKind::Stream;
    if (full && add_old_entries(entries)) needs_stream = true;
    std::uint32_t max_num = std::max<std::uint32_t>(file_.max_object_number(), next_num_ - 1);
    if (!entries.empty()) max_num = std::max(max_num, entries.rbegin()->first);

    PdfDictionary tr = f.trailer;
    for (const char* k : {"Prev", "XRefStm", "Length", "Filter", "DecodeParms", "W", "Index", "Type", "DL"})
        tr.RemoveKey(k);
    if (!full && !(f.reconstructed && f.startxref == 0)) tr.AddKey("Prev", PdfObject(static_cast<pdf_int64>(f.startxref)));
    if (info_.ObjectNumber()) tr.AddKey("Info", info_);
    set_id(tr, f, out);

    const std::uint64_t xref_rel = f.n + out.size() - f.hdr;
    if (!needs_stream) out += xref_table(entries, full, tr, max_num);
    else out += xref_stream(entries, full, tr, max_num, xref_rel);
    out += "startxref\n" + std::to_string(xref_rel) + "\n%%EOF\n";
    return out;
}

// Each object of the update, appended to `out`; its cross-reference entry into `entries`.
void Update::write_objects(std::string& out, std::map<std::uint32_t, Loc>& entries,
                           std::map<std::uint32_t, std::size_t>* offsets) const {
    const File::Impl& f = *file_.impl_;
    const std::uint64_t base = f.n;  // absolute offset where the update starts
    for (const auto& [num, o] : objects_) {
        if (!o.defined) throw Error("internal: object " + std::to_string(num) + " was reserved but never defined", err::internal_error);
        std::uint16_t gen = gens_.count(num) ? gens_.at(num) : 0;
        PdfReference ref(num, gen);
        entries[num] = Loc{1, base + out.size() - f.hdr, gen};
        if (offsets) (*offsets)[num] = out.size();
        out += std::to_string(num) + " " + std::to_string(gen) + " obj\n";
        const Crypt* crypt = f.crypt.get();
        if (!o.stream) {
            PdfObject v = o.value;
            if (crypt) crypt->encrypt_strings(v, ref);
            out += serialise(v, nullptr);
            out += "\nendobj\n";
            continue;
        }
        std::string data = o.data;
        PdfObject dict = o.value;
        if (crypt) {
            if (stream_is_encrypted(f, dict.GetDictionary())) data = crypt->encrypt(ref, data);
            crypt->encrypt_strings(dict, ref);
        }
        dict.GetDictionary().AddKey("Length", PdfObject(static_cast<pdf_int64>(data.size())));
        out += serialise(dict, nullptr);
        out += "\nstream\n";
        out += data;
        out += "\nendstream\nendobj\n";
    }
}

// For a repairing update: the file's own objects that still parse, into `entries`. True if one
// of them is inside an object stream (then only a cross-reference stream can list it).
bool Update::add_old_entries(std::map<std::uint32_t, Loc>& entries) const {
    bool needs_stream = false;
    for (const auto& [num, e] : file_.impl_->xref) {
        if (e.type == 0 || entries.count(num)) continue;
        try {  // a scanned offset that does not parse would make the repaired file unreadable: leave it out
            file_.get(PdfReference(num, static_cast<std::uint16_t>(e.type == 1 ? e.gen : 0)));
        } catch (const Error&) {
            continue;
        }
        entries[num] = Loc{e.type, e.value, e.type == 1 ? e.gen : e.index};
        if (e.type == 2) needs_stream = true;
    }
    return needs_stream;
}

// A cross-reference table and its trailer.
std::string Update::xref_table(const std::map<std::uint32_t, Loc>& entries, bool full, PdfDictionary& tr,
                               std::uint32_t max_num) {
    std::string out;
    tr.AddKey("Size", PdfObject(static_cast<pdf_int64>(max_num) + 1));
    out += "xref\n";
    char line[64];
    for (auto [start, count] : runs_of(numbers(entries, full))) {
        out += std::to_string(start) + " " + std::to_string(count) + "\n";
        for (std::uint32_t n = start; n < start + count; ++n) {
            if (n == 0) {
                out += "0000000000 65535 f\r\n";
                continue;
            }
            const Loc& l = entries.at(n);
            std::snprintf(line, sizeof line, "%010llu %05u n\r\n", static_cast<unsigned long long>(l.value),
                          static_cast<unsigned>(l.gen));
            out += line;
        }
    }
    out += "trailer\n" + serialise(PdfObject(tr), nullptr) + "\n";
    return out;
}

// A cross-reference stream (object max_num + 1, at `xref_rel`) holding the trailer `tr`.
std::string Update::xref_stream(std::map<std::uint32_t, Loc>& entries, bool full, PdfDictionary& tr,
                                std::uint32_t max_num, std::uint64_t xref_rel) {
    const std::uint32_t xnum = max_num + 1;
    entries[xnum] = Loc{1, xref_rel, 0};
    std::uint64_t maxv = 0;
    std::uint32_t maxg = 0;
    for (const auto& [num, l] : entries) {
        maxv = std::max(maxv, l.value);
        maxg = std::max(maxg, l.gen);
    }
    int w1 = 1;
    while (w1 < 8 && (maxv >> (8 * w1)) != 0) ++w1;
    int w2 = maxg > 0xffff ? 4 : 2;
    std::string data;
    PdfArray index;
    for (auto [start, count] : runs_of(numbers(entries, full))) {
        index.push_back(PdfObject(static_cast<pdf_int64>(start)));
        index.push_back(PdfObject(static_cast<pdf_int64>(count)));
        for (std::uint32_t n = start; n < start + count; ++n) {
            const Loc l = n == 0 ? Loc{0, 0, 65535} : entries.at(n);  // object 0: the head of the free list
            put_be(data, l.type, 1);
            put_be(data, l.value, w1);
            put_be(data, l.gen, w2);
        }
    }
    std::string packed = flate_encode(data);
    tr.AddKey("Type", PdfName("XRef"));
    tr.AddKey("Size", PdfObject(static_cast<pdf_int64>(xnum) + 1));
    PdfArray w;
    w.push_back(PdfObject(static_cast<pdf_int64>(1)));
    w.push_back(PdfObject(static_cast<pdf_int64>(w1)));
    w.push_back(PdfObject(static_cast<pdf_int64>(w2)));
    tr.AddKey("W", w);
    tr.AddKey("Index", index);
    tr.AddKey("Filter", PdfName("FlateDecode"));
    tr.AddKey("Length", PdfObject(static_cast<pdf_int64>(packed.size())));
    return std::to_string(xnum) + " 0 obj\n" + serialise(PdfObject(tr), nullptr) + "\nstream\n" + packed +
           "\nendstream\nendobj\n";
}

void Update::write(std::ostream& os) const {
    std::string tail = appended();
    std::string_view orig = file_.bytes();
    os.write(orig.data(), static_cast<std::streamsize>(orig.size()));
    os.write(tail.data(), static_cast<std::streamsize>(tail.size()));
    os.flush();
    if (!os) throw Error("cannot write output", err::output_unwritable);
}


void Update::write_file(const std::string& path) const {
    std::string tail = appended();
    write_file_atomically(path, {file_.bytes(), tail});
}

std::string rewrite_whole(const std::string& bytes, const std::string& name, const std::string& password, const Dictionary& info) {
    ensure_rc4();
    try {
        PdfMemDocument doc;
        try {
            doc.LoadFromBuffer(bytes.data(), static_cast<long>(bytes.size()));
        } catch (const PdfError& e) {
            if (e.GetError() != ePdfError_InvalidPassword) throw;
            doc.SetPassword(password);
        }
        // PoDoFo sets /ModDate (and /Producer) when it loads: put back the Info pith wrote.
        doc.GetInfo()->GetObject()->GetDictionary() = info;
        PdfRefCountedBuffer buffer;
        PdfOutputDevice device(&buffer);
        doc.Write(&device);
        return std::string(buffer.GetBuffer(), device.GetLength());
    } catch (const PdfError& e) {
        throw Error(name + ": --rewrite failed: PoDoFo cannot rewrite this file (" + podofo_words(e) +
                    "); stamp it without --rewrite", err::pdf_syntax);
    }
}

}  // namespace pith::pdf
