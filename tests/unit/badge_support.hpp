// SPDX-License-Identifier: MIT
#pragma once
// Test helpers for the badge tests: ObjectSink adapters, zlib inflate, running
// external tools, reading PGM renderings.
#include <podofo/podofo.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "pdf/object_sink.hpp"

namespace badge_test {

// Records what the badge asks for; numbers objects 100, 101, ...
class RecordingSink : public pith::pdf::ObjectSink {
public:
    struct Entry {
        PoDoFo::PdfObject object;  // the dictionary (for streams) or value
        bool is_stream = false;
        std::string data;  // raw (encoded) stream data
    };
    std::map<long, Entry> objects;
    std::vector<long> order;

    PoDoFo::PdfReference add(const PoDoFo::PdfObject& value) override {
        return put(Entry{value, false, {}});
    }
    PoDoFo::PdfReference add_stream(const PoDoFo::PdfDictionary& dict, const std::string& data) override {
        return put(Entry{PoDoFo::PdfObject(dict), true, data});
    }
    const Entry& get(const PoDoFo::PdfReference& r) const { return objects.at(r.ObjectNumber()); }
    const Entry& get(const PoDoFo::PdfObject& o) const { return get(o.GetReference()); }

    // Everything, serialised in creation order (for determinism and size checks).
    std::string serialise() const {
        std::string out;
        for (long n : order) {
            const Entry& e = objects.at(n);
            std::string s;
            e.object.ToString(s, PoDoFo::ePdfWriteMode_Compact);
            out += std::to_string(n) + " 0 obj\n" + s;
            if (e.is_stream) out += "\nstream\n" + e.data + "\nendstream";
            out += "\nendobj\n";
        }
        return out;
    }

private:
    long next_ = 100;
    PoDoFo::PdfReference put(Entry e) {
        long n = next_++;
        objects.emplace(n, std::move(e));
        order.push_back(n);
        return PoDoFo::PdfReference(n, 0);
    }
};

// Creates the objects in a PdfMemDocument.
class DocumentSink : public pith::pdf::ObjectSink {
public:
    explicit DocumentSink(PoDoFo::PdfMemDocument& doc) : doc_(doc) {}
    PoDoFo::PdfReference add(const PoDoFo::PdfObject& value) override {
        return doc_.GetObjects().CreateObject(value)->Reference();
    }
    PoDoFo::PdfReference add_stream(const PoDoFo::PdfDictionary& dict, const std::string& data) override {
        PoDoFo::PdfObject* obj = doc_.GetObjects().CreateObject(PoDoFo::PdfVariant(dict));
        PoDoFo::PdfMemoryInputStream in(data.data(), static_cast<PoDoFo::pdf_long>(data.size()));
        obj->GetStream()->SetRawData(&in, static_cast<PoDoFo::pdf_long>(data.size()));
        return obj->Reference();
    }

private:
    PoDoFo::PdfMemDocument& doc_;
};

inline std::string inflate(const std::string& in) {
    z_stream zs{};
    if (inflateInit(&zs) != Z_OK) throw std::runtime_error("inflateInit");
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    zs.avail_in = static_cast<uInt>(in.size());
    std::string out;
    char buf[16384];
    int rc;
    do {
        zs.next_out = reinterpret_cast<Bytef*>(buf);
        zs.avail_out = sizeof buf;
        rc = ::inflate(&zs, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END) {
            inflateEnd(&zs);
            throw std::runtime_error("inflate failed");
        }
        out.append(buf, sizeof buf - zs.avail_out);
    } while (rc != Z_STREAM_END);
    inflateEnd(&zs);
    return out;
}

struct RunResult {
    int status = -1;  // exit code, or -1 if the command could not run
    std::string out;  // stdout (stderr is merged when asked)
};

inline RunResult run(const std::string& cmd) {
    RunResult r;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return r;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

inline bool have_tool(const std::string& name) {
    return run("command -v " + name + " >/dev/null 2>&1").status == 0;
}

inline std::string quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\'') out += "'\\''";
        else out += c;
    }
    return out + "'";
}

// A scratch directory, removed at the end unless PITH_TEST_KEEP is set.
struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string& tag) {
        path = std::filesystem::temp_directory_path() /
               ("pith-badge-" + tag + "-" + std::to_string(::getpid()));
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempDir() {
        if (!std::getenv("PITH_TEST_KEEP")) {
            std::error_code ec;
            std::filesystem::remove_all(path, ec);
        }
    }
    std::string file(const std::string& name) const { return (path / name).string(); }
};

// Binary PGM (P5, maxval 255) as written by pdftoppm -gray.
struct Gray {
    int width = 0, height = 0;
    std::vector<unsigned char> px;
    unsigned char at(int x, int y) const { return px[static_cast<size_t>(y) * width + x]; }
};

inline Gray read_pgm(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw std::runtime_error("cannot open " + path);
    std::string magic;
    int maxval = 0;
    Gray g;
    f >> magic >> g.width >> g.height >> maxval;
    f.get();
    if (magic != "P5" || maxval != 255) throw std::runtime_error("not an 8-bit P5 PGM: " + path);
    g.px.resize(static_cast<size_t>(g.width) * g.height);
    f.read(reinterpret_cast<char*>(g.px.data()), static_cast<std::streamsize>(g.px.size()));
    if (!f) throw std::runtime_error("short PGM: " + path);
    return g;
}

}  // namespace badge_test
