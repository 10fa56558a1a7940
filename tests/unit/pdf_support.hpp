// SPDX-License-Identifier: MIT
#pragma once
// Helpers for the pdf_* unit tests (and the object lexer's fuzz target): build small PDFs by
// hand, compare parsed values.
#include <podofo/podofo.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

namespace pdftest {

// Same kind and value, element by element (reals compared bit for bit).
inline bool same_value(const PoDoFo::PdfVariant& a, const PoDoFo::PdfVariant& b) {
    if (a.GetDataType() != b.GetDataType()) return false;
    if (a.IsArray()) {
        const PoDoFo::PdfArray &x = a.GetArray(), &y = b.GetArray();
        if (x.size() != y.size()) return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (!same_value(x[i], y[i])) return false;
        return true;
    }
    if (a.IsDictionary()) {
        const auto &x = a.GetDictionary().GetKeys(), &y = b.GetDictionary().GetKeys();
        if (x.size() != y.size()) return false;
        for (auto i = x.begin(), j = y.begin(); i != x.end(); ++i, ++j)
            if (i->first.GetName() != j->first.GetName() || !same_value(*i->second, *j->second)) return false;
        return true;
    }
    if (a.IsReal()) {
        const double x = a.GetReal(), y = b.GetReal();
        return std::memcmp(&x, &y, sizeof x) == 0;
    }
    if (a.IsName()) return a.GetName().GetName() == b.GetName().GetName();  // PoDoFo cannot write some names
    std::string x, y;
    a.ToString(x);
    b.ToString(y);
    return x == y;
}

// Objects by number (bodies without "N 0 obj"/"endobj").
using Objects = std::map<int, std::string>;

inline std::string deflate(const std::string& in) {
    uLongf cap = compressBound(in.size());
    std::string out(cap, '\0');
    compress2(reinterpret_cast<Bytef*>(&out[0]), &cap, reinterpret_cast<const Bytef*>(in.data()), in.size(), 9);
    out.resize(cap);
    return out;
}

// A classic-xref PDF; `prefix` goes before "%PDF-"; offsets are relative to the header
// unless `absolute_offsets`.
inline std::string classic(const Objects& objs, const std::string& trailer_extra = "/Root 1 0 R",
                           const std::string& prefix = "", bool absolute_offsets = false) {
    std::string s = prefix + "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
    const std::size_t base = absolute_offsets ? 0 : prefix.size();
    std::map<int, std::size_t> off;
    int max = 0;
    for (const auto& [n, body] : objs) {
        off[n] = s.size() - base;
        s += std::to_string(n) + " 0 obj\n" + body + "\nendobj\n";
        max = std::max(max, n);
    }
    std::size_t xref = s.size() - base;
    s += "xref\n0 " + std::to_string(max + 1) + "\n0000000000 65535 f \n";
    char line[32];
    for (int n = 1; n <= max; ++n) {
        if (off.count(n)) std::snprintf(line, sizeof line, "%010zu 00000 n \n", off[n]);
        else std::snprintf(line, sizeof line, "0000000000 00000 f \n");
        s += line;
    }
    s += "trailer\n<< /Size " + std::to_string(max + 1) + " " + trailer_extra + " >>\nstartxref\n" +
         std::to_string(xref) + "\n%%EOF\n";
    return s;
}

// Appends a classic incremental update replacing/adding `objs`.
inline std::string classic_update(const std::string& file, const Objects& objs, std::size_t prev, int size,
                                  const std::string& trailer_extra = "/Root 1 0 R") {
    std::string s = file;
    std::map<int, std::size_t> off;
    for (const auto& [n, body] : objs) {
        off[n] = s.size();
        s += std::to_string(n) + " 0 obj\n" + body + "\nendobj\n";
    }
    std::size_t xref = s.size();
    s += "xref\n";
    char line[32];
    for (const auto& [n, o] : off) {
        s += std::to_string(n) + " 1\n";
        std::snprintf(line, sizeof line, "%010zu 00000 n \n", o);
        s += line;
    }
    s += "trailer\n<< /Size " + std::to_string(size) + " /Prev " + std::to_string(prev) + " " + trailer_extra +
         " >>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
    return s;
}

inline std::size_t startxref_of(const std::string& pdf) {
    std::size_t k = pdf.rfind("startxref");
    return std::stoul(pdf.substr(k + 10));
}

// A PDF 1.5 file with an xref stream (PNG Up predictor, /W [1 2 1]) whose
// objects `in_objstm` are stored in one object stream (number `stm`).
inline std::string xref_stream_file(const Objects& direct, const Objects& in_objstm, int stm, int xnum) {
    std::string s = "%PDF-1.5\n%\xE2\xE3\xCF\xD3\n";
    struct E { int type; std::size_t a; int b; };
    std::map<int, E> ent;
    for (const auto& [n, body] : direct) {
        ent[n] = {1, s.size(), 0};
        s += std::to_string(n) + " 0 obj\n" + body + "\nendobj\n";
    }
    // object stream
    std::string header, data;
    int idx = 0;
    for (const auto& [n, body] : in_objstm) {
        header += std::to_string(n) + " " + std::to_string(data.size()) + " ";
        data += body + "\n";
        ent[n] = {2, static_cast<std::size_t>(stm), idx++};
    }
    std::string content = deflate(header + data);
    ent[stm] = {1, s.size(), 0};
    s += std::to_string(stm) + " 0 obj\n<< /Type /ObjStm /N " + std::to_string(in_objstm.size()) + " /First " +
         std::to_string(header.size()) + " /Filter /FlateDecode /Length " + std::to_string(content.size()) +
         " >>\nstream\n" + content + "\nendstream\nendobj\n";
    ent[xnum] = {1, s.size(), 0};
    int max = ent.rbegin()->first;
    // rows with PNG Up predictor: [2][type][off hi][off lo][gen/idx]
    std::string raw;
    unsigned char prev[4] = {0, 0, 0, 0};
    for (int n = 0; n <= max; ++n) {
        unsigned char row[4] = {0, 0, 0, 0};
        if (n == 0) {
            row[0] = 0; row[1] = 0; row[2] = 0; row[3] = 0xff;
        } else if (ent.count(n)) {
            const E& e = ent[n];
            row[0] = static_cast<unsigned char>(e.type);
            row[1] = static_cast<unsigned char>((e.a >> 8) & 0xff);
            row[2] = static_cast<unsigned char>(e.a & 0xff);
            row[3] = static_cast<unsigned char>(e.b);
        }
        raw.push_back(2);
        for (int i = 0; i < 4; ++i) raw.push_back(static_cast<char>(row[i] - prev[i]));
        std::copy(row, row + 4, prev);
    }
    std::string packed = deflate(raw);
    std::size_t xoff = s.size();
    s += std::to_string(xnum) + " 0 obj\n<< /Type /XRef /Size " + std::to_string(max + 1) +
         " /W [1 2 1] /Root 1 0 R /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 4 >> /Length " +
         std::to_string(packed.size()) + " >>\nstream\n" + packed + "\nendstream\nendobj\nstartxref\n" +
         std::to_string(xoff) + "\n%%EOF\n";
    return s;
}

inline std::string run(const std::string& cmd, int* rc = nullptr) {
    std::string out;
    FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    if (!p) return out;
    char buf[4096];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    int st = pclose(p);
    if (rc) *rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return out;
}

inline bool have_qpdf() {
    int rc = 0;
    run("qpdf --version", &rc);
    return rc == 0;
}

inline std::string temp_path(const std::string& name) {
    return "/tmp/pith-pdf-test-" + std::to_string(::getpid()) + "-" + name;
}

inline void write_file(const std::string& path, const std::string& data) {
    FILE* f = std::fopen(path.c_str(), "wb");
    std::fwrite(data.data(), 1, data.size(), f);
    std::fclose(f);
}

inline std::string read_file(const std::string& path) {
    std::string s;
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return s;
    char buf[65536];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
    std::fclose(f);
    return s;
}

}  // namespace pdftest
