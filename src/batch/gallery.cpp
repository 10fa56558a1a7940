// SPDX-License-Identifier: MIT
// pith batch --gallery DIR: a contact sheet of a report, one static HTML page that works from
// the file system (no server, no network): page 1 of every file with its regions outlined
// (thumbnails the workers drew, DIR/thumbs/LINE.png), its state, number, warnings and failures,
// and filters by state and by code in a few lines of plain JavaScript.
#include "batch/batch.hpp"

#include "core/error.hpp"
#include "core/files.hpp"
#include "verify/picture.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace pith::batch {

namespace {

using verify::picture::html_escaped;

std::string text_of(const Json& j, const char* key) {
    return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

std::vector<std::string> list_of(const Json& j, const char* key) {
    std::vector<std::string> out;
    if (j.contains(key) && j[key].is_array())
        for (const Json& item : j[key])
            if (item.is_string()) out.push_back(item.get<std::string>());
    return out;
}

// What a line says of its file: the verify state (stamp mode: the check's), else its status.
std::string state_of(const Json& line) {
    const std::string state = text_of(line, "state");
    return state.empty() ? text_of(line, "status") : state;
}

// The codes a card is filtered by: its failures, "warning" when it has warnings, its error's code.
std::vector<std::string> codes_of(const Json& line) {
    std::vector<std::string> codes = list_of(line, "failures");
    if (!list_of(line, "warnings").empty()) codes.push_back("warning");
    if (!text_of(line, "error_code").empty()) codes.push_back(text_of(line, "error_code"));
    return codes;
}

// One card: the thumbnail (or a note that there is none), then the words; the state is written
// out, never shown by colour alone.
std::string card(const Json& line, const std::string& dir) {
    const std::string state = state_of(line), file = text_of(line, "output").empty() ? text_of(line, "input") : text_of(line, "output");
    const std::string number = text_of(line, "number");
    const std::vector<std::string> warnings = list_of(line, "warnings"), failures = list_of(line, "failures");
    std::string codes;
    for (const std::string& c : codes_of(line)) codes += c + " ";
    const std::string thumb = text_of(line, "thumbnail");
    const bool shown = !thumb.empty() && file_exists(dir + "/" + thumb);
    std::string out = "<li class=\"card " + html_escaped(state) + "\" data-state=\"" + html_escaped(state) + "\" data-codes=\"" + html_escaped(codes) + "\">";
    if (shown)
        out += "<img loading=\"lazy\" src=\"" + html_escaped(thumb) + "\" alt=\"page 1 of " + html_escaped(file) + ", " + html_escaped(state) +
               ": the badge and links outlined as pith checked them\">";
    else
        out += "<div class=\"none\">no picture (" + html_escaped(text_of(line, "error").empty() ? "not checked" : "not readable") + ")</div>";
    out += "<p><b class=\"state\">" + html_escaped(state) + "</b> line " + std::to_string(line.value("line", 0)) + "<br><span class=\"file\">" +
           html_escaped(file) + "</span><br>" + (number.empty() ? std::string("no number") : html_escaped(number)) + "</p>";
    std::string notes;
    for (const std::string& f : failures) notes += "<li>failure: <code>" + html_escaped(f) + "</code></li>";
    for (const std::string& w : warnings) notes += "<li>warning: " + html_escaped(w) + "</li>";
    if (!text_of(line, "error").empty()) notes += "<li>error: " + html_escaped(text_of(line, "error")) + "</li>";
    return out + (notes.empty() ? "" : "<ul>" + notes + "</ul>") + "</li>\n";
}

constexpr const char* kStyle =
    "body{font:14px/1.4 system-ui,sans-serif;color:#24292f;margin:16px}\n"
    "#cards{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:12px}\n"
    ".card{border:1px solid #8c959f;padding:8px;background:#fff}.card img{display:block;max-width:100%;border:1px solid #d0d7de}\n"
    ".card p{margin:6px 0;overflow-wrap:anywhere}.card ul{margin:0;padding-left:18px;font-size:12px}.file{overflow-wrap:anywhere}\n"
    ".state{text-transform:uppercase;padding:0 4px;color:#fff;background:#0969da}\n"
    ".trusted .state,.stamped .state,.skipped .state{background:#1a7f37}.invalid .state,.failed .state,.unreadable .state{background:#cf222e}\n"
    ".trusted,.stamped,.skipped{border-left:6px solid #1a7f37}.invalid,.failed,.unreadable{border-left:6px double #cf222e}\n"
    ".none{height:120px;display:flex;align-items:center;justify-content:center;background:#f6f8fa}\n";

// Filters by state and by code; the choice lives in the address (#state=invalid&code=warning),
// so a link can name one, and the count says how many cards show.
constexpr const char* kScript =
    "const state=document.getElementById('state'),code=document.getElementById('code'),shown=document.getElementById('shown');\n"
    "function apply(){let n=0;for(const c of document.querySelectorAll('.card')){\n"
    " const ok=(!state.value||c.dataset.state===state.value)&&(!code.value||c.dataset.codes.split(' ').includes(code.value));\n"
    " c.hidden=!ok;if(ok)n++;}\n"
    " shown.textContent=n+' of '+document.querySelectorAll('.card').length+' shown';\n"
    " history.replaceState(null,'','#state='+encodeURIComponent(state.value)+'&code='+encodeURIComponent(code.value));}\n"
    "const wanted=new URLSearchParams(location.hash.slice(1));\n"
    "if(wanted.has('state'))state.value=wanted.get('state');if(wanted.has('code'))code.value=wanted.get('code');\n"
    "state.onchange=code.onchange=apply;apply();\n";

std::string options_html(const std::set<std::string>& values, const char* all) {
    std::string out = std::string("<option value=\"\">") + all + "</option>";
    for (const std::string& v : values) out += "<option value=\"" + html_escaped(v) + "\">" + html_escaped(v) + "</option>";
    return out;
}

// The report's file lines, the last of each manifest line (a rerun's answer wins).
std::map<std::size_t, Json> file_lines(const std::string& report) {
    std::ifstream in(report);
    if (!in) throw Error(report + ": cannot read the report for the gallery: " + std::strerror(errno), err::input_not_found);
    std::map<std::size_t, Json> lines;
    for (std::string text; std::getline(in, text);) {
        const Json j = Json::parse(text, nullptr, false);
        if (j.is_object() && text_of(j, "event") == "file" && j.contains("line") && j["line"].is_number_unsigned())
            lines[j["line"].get<std::size_t>()] = j;
    }
    return lines;
}

}  // namespace

void prepare_gallery(const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir + "/thumbs", ec);
    if (ec) throw Error("--gallery " + dir + ": cannot create " + dir + "/thumbs: " + ec.message(), err::output_unwritable);
    AtomicFile probe(dir + "/index.html");  // a directory pith cannot write in fails now, before any work
}

std::size_t write_gallery(const std::string& dir, const std::string& report) {
    const std::map<std::size_t, Json> lines = file_lines(report);
    std::set<std::string> states, codes;
    std::string cards;
    for (const auto& [number, line] : lines) {
        states.insert(state_of(line));
        for (const std::string& c : codes_of(line)) codes.insert(c);
        cards += card(line, dir);
    }
    const std::string page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>pith batch: " +
                             std::to_string(lines.size()) + " files</title><style>" + kStyle + "</style></head><body>\n<h1>pith batch: " +
                             std::to_string(lines.size()) + " files (" + html_escaped(report) + ")</h1>\n<form><label>State <select id=\"state\">" +
                             options_html(states, "all") + "</select></label> <label>Failure or warning <select id=\"code\">" +
                             options_html(codes, "any") + "</select></label> <output id=\"shown\" aria-live=\"polite\"></output></form>\n" +
                             "<ul id=\"cards\">\n" + cards + "</ul>\n<script>\n" + kScript + "</script>\n</body></html>\n";
    write_file_atomically(dir + "/index.html", {page});
    return lines.size();
}

}  // namespace pith::batch
