// SPDX-License-Identifier: MIT
// pith batch: the manifest (JSON Lines, one file per line), checked in full before any work starts.
#include "batch/batch.hpp"

#include "core/error.hpp"
#include "core/files.hpp"
#include "stamp/options_table.hpp"

#include <unordered_map>

namespace pith::batch {

std::uint64_t fnv1a64(std::string_view text) {
    std::uint64_t h = 14695981039346656037ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

Shard parse_shard(const std::string& text) {
    auto slash = text.find('/');
    auto bad = [&] { return Error("--shard \"" + text + "\": expected I/N with 0 <= I < N (for example 0/4)", err::options_invalid); };
    if (slash == std::string::npos || slash == 0 || slash + 1 == text.size()) throw bad();
    auto number = [&](const std::string& s) {
        if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) throw bad();
        return std::stoull(s);
    };
    Shard s{number(text.substr(0, slash)), number(text.substr(slash + 1))};
    if (s.count == 0 || s.index >= s.count) throw bad();
    return s;
}

namespace {

std::string where(const std::string& source, std::size_t line) {
    return (source == "-" ? std::string("standard input") : source) + ":" + std::to_string(line);
}

// One manifest line's JSON object, and its values checked for type; every error names the line.
class Line {
public:
    Line(std::string_view text, const std::string& at) : at_(at) {
        try {
            j_ = parse_json(text, at);
        } catch (const Error& x) {
            fail(x.what());
        }
        if (!j_.is_object()) fail("a manifest line must be a JSON object, like {\"input\":…,\"record\":…,\"output\":…}");
    }
    const Json& json() const { return j_; }
    [[noreturn]] void fail(const std::string& what) const {
        throw Error(what.rfind(at_, 0) == 0 ? what : at_ + ": " + what, err::manifest_invalid);
    }
    [[noreturn]] void fail(const std::string& key, const std::string& what) const { fail("\"" + key + "\" " + what); }
    std::string str(const std::string& key) const {
        if (!j_[key].is_string()) fail(key, "must be a string");
        return j_[key].get<std::string>();
    }
    bool boolean(const std::string& key) const {
        if (!j_[key].is_boolean()) fail(key, "must be true or false");
        return j_[key].get<bool>();
    }
    double number(const std::string& key) const {
        if (!j_[key].is_number() || j_[key].is_binary()) fail(key, "must be a number");
        return j_[key].get<double>();
    }

private:
    std::string at_;
    Json j_;
};

// input, output, id, record, number, arxiv: which file, and which record goes into it.
bool read_source_key(const Line& l, const std::string& key, Entry& e) {
    const Json& v = l.json()[key];
    if (key == "input") e.input = l.str(key);
    else if (key == "output") e.output = l.str(key);
    else if (key == "id") {
        if (v.is_string()) e.id = v.get<std::string>();
        else if (v.is_number_integer()) e.id = v.dump();
        else l.fail(key, "must be a string or an integer");
    } else if (key == "record") {
        if (v.is_string()) e.record_path = v.get<std::string>();
        else if (v.is_object()) e.record_inline = v;
        else l.fail(key, "must be a path (string) or a record (object)");
    } else if (key == "number" || key == "arxiv") {
        if (e.record_query) l.fail(key, "cannot be given with \"number\" or \"arxiv\" together");
        try {
            e.record_query = registry::parse_query((key == "arxiv" ? "arxiv:" : "") + l.str(key)).text;
        } catch (const Error& x) {
            l.fail(x.what());
        }
    } else return false;
    return true;
}

// A key of the stamp options table (stamp/options_table.hpp): its value read as the row's type,
// then set and checked by the row, as `pith stamp` does with the flag.
bool read_option_key(const Line& l, const std::string& key, Entry& e) {
    const stamp::Option* option = stamp::option_of_key(key);
    if (!option || !option->apply) return false;
    options::Value v;
    switch (option->row.type) {
        case options::Type::Flag: v.flag = l.boolean(key); break;
        case options::Type::Integer:
        case options::Type::Number: v.number = l.number(key); break;
        case options::Type::Point: {
            const Json& xy = l.json()[key];
            if (!xy.is_array() || xy.size() != 2 || !xy[0].is_number() || !xy[1].is_number())
                l.fail(key, "must be [X, Y], two numbers (pt from the lower-left of the page as the reader sees it)");
            v.point[0] = xy[0].get<double>(), v.point[1] = xy[1].get<double>();
            break;
        }
        case options::Type::Text:
        case options::Type::Texts: v.text = l.str(key); break;
    }
    try {
        option->apply(e.options, v);
    } catch (const Error& x) {
        l.fail("\"" + key + "\": " + x.what());
    }
    return true;
}

// What a line must have once all its keys are read.
void check_complete(const Line& l, Entry& e, Mode mode, const std::string& default_record) {
    if (e.record_query && (e.record_path || e.record_inline)) l.fail("give one of \"record\", \"number\" and \"arxiv\"");
    if (e.input.empty()) l.fail("\"input\" is missing or empty");
    if (mode != Mode::Stamp) return;
    if (e.output.empty()) l.fail("\"output\" is missing or empty");
    if (e.output == "-" || e.input == "-") l.fail("standard input/output cannot be used in a batch");
    if (!e.record_path && !e.record_inline && !e.record_query) {
        if (default_record.empty()) l.fail("\"record\" is missing (give one per line or --record for all)");
        e.record_path = default_record;
    }
}

}  // namespace

Entry parse_entry(std::string_view text, std::size_t line, const std::string& source, Mode mode,
                  const std::string& default_record) {
    Entry e;
    e.line = line;
    std::size_t first = text.find_first_not_of(" \t");
    if (mode == Mode::Verify && first != std::string_view::npos && text[first] != '{') {
        e.input = std::string(text.substr(first));  // a bare path
        while (!e.input.empty() && (e.input.back() == ' ' || e.input.back() == '\t')) e.input.pop_back();
        return e;
    }
    const Line l(text, where(source, line));
    for (auto it = l.json().begin(); it != l.json().end(); ++it)
        if (!read_source_key(l, it.key(), e) && !read_option_key(l, it.key(), e))
            l.fail("unknown key \"" + it.key() + "\" (known: " + stamp::manifest_keys() + ")");
    check_complete(l, e, mode, default_record);
    return e;
}

Manifest parse_manifest(std::string text, const std::string& source, Mode mode, const Shard& shard,
                        const std::string& default_record) {
    Manifest m;
    m.source = source;
    m.text = std::move(text);
    std::unordered_map<std::uint64_t, std::pair<std::size_t, std::string>> outputs;  // hash -> (line, output)
    std::size_t pos = 0, line = 0;
    const std::string& t = m.text;
    while (pos < t.size()) {
        std::size_t end = t.find('\n', pos);
        if (end == std::string::npos) end = t.size();
        ++line;
        std::size_t len = end - pos;
        if (len && t[pos + len - 1] == '\r') --len;
        std::string_view view(t.data() + pos, len);
        std::size_t first = view.find_first_not_of(" \t");
        if (first != std::string_view::npos && view[first] != '#') {
            Entry e = parse_entry(view, line, source, mode, default_record);
            ++m.lines_total;
            if (mode == Mode::Stamp) {
                auto [it, fresh] = outputs.try_emplace(fnv1a64(e.output), line, e.output);
                if (!fresh && it->second.second == e.output)
                    throw Error(where(source, line) + ": output \"" + e.output + "\" is also the output of line " +
                                std::to_string(it->second.first), err::manifest_invalid);
            }
            if (shard.contains(e.input)) m.jobs.push_back({line, pos, len});
        }
        pos = end + 1;
    }
    return m;
}

Manifest load_manifest(const std::string& path, Mode mode, const Shard& shard, const std::string& default_record) {
    return parse_manifest(read_file_or_stdin(path, std::size_t(16) << 30), path, mode, shard, default_record);
}

std::vector<registry::Query> registry_queries(const Manifest& m, Mode mode, const std::string& default_record) {
    std::vector<registry::Query> queries;
    for (const auto& job : m.jobs) {
        Entry e = parse_entry(std::string_view(m.text.data() + job.offset, job.length), job.line, m.source, mode, default_record);
        if (e.record_query) queries.push_back(registry::parse_query(*e.record_query));
    }
    return queries;
}

}  // namespace pith::batch
