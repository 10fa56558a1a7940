#include "verify/verify.hpp"

#include "core/cpus.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/number.hpp"
#include "core/text.hpp"
#include "pdf/file.hpp"
#include "pdf/text.hpp"
#include "stamp/stamp.hpp"
#include "verify/title.hpp"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string_view>

namespace pith::verify {
namespace {

using PoDoFo::PdfObject;
using PoDoFo::PdfReference;
using PoDoFo::PdfVariant;

constexpr rlim_t kPageTextSeconds = 20;                // CPU seconds poppler may spend on one page
constexpr rlim_t kPageTextMemory = rlim_t{2} << 30;    // bytes of address space

std::string text_of(const PdfObject* o) {
    if (!o) return {};
    if (o->IsString() || o->IsHexString()) return o->GetString().GetStringUtf8();
    if (o->IsName()) return o->GetName().GetName();
    return {};
}

bool is_base32_letter(char c, bool lower_too) {
    return (c >= 'A' && c <= 'Z') || (c >= '2' && c <= '7') || (lower_too && c >= 'a' && c <= 'z');
}

// The body a resolver link names: https://host/pith/BODY[.json|/...] (8 to 26 letters, any
// case, then one of . / ? # or the end), upper-cased; "" if the link names none.
std::string body_of_link(const std::string& uri) {
    for (std::size_t at = uri.find("/pith/"); at != std::string::npos; at = uri.find("/pith/", at + 1)) {
        std::size_t end = at + 6;
        while (end < uri.size() && is_base32_letter(uri[end], true)) ++end;
        const std::size_t length = end - at - 6;
        if (length < 8 || length > 26 || (end < uri.size() && std::string_view("./?#").find(uri[end]) == std::string_view::npos))
            continue;
        std::string body = uri.substr(at + 6, length);
        std::transform(body.begin(), body.end(), body.begin(), [](unsigned char c) { return std::toupper(c); });
        return body;
    }
    return {};
}

void collect_links(pdf::File& file, int index, std::vector<Link>& links) {
    const PdfObject& page = file.get(file.page(index).ref);
    if (!page.IsDictionary()) return;
    const PdfObject* annots = file.get_key(page.GetDictionary(), "Annots");
    if (!annots || !annots->IsArray()) return;
    for (const auto& item : annots->GetArray()) {
        const PdfObject& annot = file.resolve(item);
        if (!annot.IsDictionary()) continue;
        const auto& d = annot.GetDictionary();
        std::string uri;
        if (const PdfObject* action = file.get_key(d, "A"); action && action->IsDictionary())
            uri = text_of(file.get_key(action->GetDictionary(), "URI"));
        bool badge = text_of(file.get_key(d, "NM")) == "pith-badge";
        if (!badge && body_of_link(uri).empty()) continue;
        Link link;
        link.page = index + 1;
        link.uri = uri;
        link.pith_badge = badge;
        if (const PdfObject* rect = file.get_key(d, "Rect"); rect && rect->IsArray() && rect->GetArray().size() == 4)
            for (int i = 0; i < 4; ++i) link.rect[i] = pdf::number_value(file.resolve(rect->GetArray()[i]));
        links.push_back(link);
    }
}

// `syntax_later`: the pages' content syntax is left for File::check_syntax_later().
Embedded extract_from(pdf::File& file, bool syntax_later = false) {
    Embedded e;
    e.file = file.name();
    const PdfObject& catalog = file.catalog();
    if (const PdfObject* md = catalog.GetDictionary().GetKey("Metadata"); md && md->IsReference() && file.is_stream(md->GetReference())) {
        e.has_xmp = true;
        try {
            e.xmp = xmp::read(file.stream_decoded(md->GetReference()));
        } catch (const Error& err) {
            e.xmp_error = err.what();
        }
    }
    if (const PdfObject* info = file.info())
        for (const char* key : {"PithNumber", "Title"})
            if (std::string v = text_of(file.get_key(info->GetDictionary(), key)); !v.empty()) e.info[key] = v;

    auto revisions = file.revisions();
    if (auto update = stamp::find_pith_update(file)) e.pith_revision = update->revision;
    for (std::size_t i = 0; i < revisions.size(); ++i)
        e.revisions.push_back({revisions[i].end, revisions[i].objects.size(), e.pith_revision == i});

    // Links: page 1, and the pages pith's own update rewrote (where `pith stamp` put the badge).
    const int count = file.page_count();
    std::set<int> pages;
    if (count > 0) pages.insert(0);
    if (e.pith_revision && count > 0) {
        const auto& touched = revisions[*e.pith_revision].objects;
        std::set<std::uint32_t> wanted;
        for (std::uint32_t num : touched) {
            const PdfObject& o = file.get(PdfReference(num, 0));
            if (o.IsDictionary() && text_of(o.GetDictionary().GetKey("Type")) == "Page") wanted.insert(num);
        }
        for (int i = 0; i < count && !wanted.empty(); ++i)
            if (wanted.erase(file.page(i).ref.ObjectNumber())) pages.insert(i);
    }
    for (int index : pages) {
        collect_links(file, index, e.links);
        file.check_page(file.page(index), syntax_later);
    }
    for (const auto& link : e.links)
        if (link.pith_badge) e.badge_page = link.page;
    return e;
}

// Page text for what pith's quick reading (pdf::shown_text) leaves open comes from poppler,
// which parses the whole file its own way: it runs in a child with CPU and memory limits, so a
// PDF that crashes or hangs poppler costs a finding, not the run. The child works while the
// other checks run (the receipt, the hash of the bytes before pith's update).
struct PageText {
    std::optional<std::string> text;  // nullopt: the page has no text
    bool failed = false;              // poppler crashed, ran out of time or memory, or could not be loaded
    std::string why;                  // when failed
};

PageText page_text_or_failure(std::string_view bytes, int index, const std::string& password) {
    try {
        return {title::page_text(bytes, index, password), false, {}};
    } catch (const Error& e) {
        return {std::nullopt, true, e.what()};
    }
}

// poppler's work on one page, in a child process started by the constructor.
class PageTextChild {
public:
    PageTextChild(std::string_view bytes, int page, const std::string& password)
        : bytes_(bytes), page_(page), password_(password) {
        int fds[2];
        if (::pipe(fds) != 0) return;
        std::fflush(nullptr);
        cpu_set_t cpus;
        const bool elsewhere = other_cpus(cpus);
        child_ = ::fork();
        if (child_ >= 0 && elsewhere) ::sched_setaffinity(child_, sizeof cpus, &cpus);  // in both: whichever runs first
        if (child_ < 0) {
            ::close(fds[0]);
            ::close(fds[1]);
            return;
        }
        if (child_ == 0) {
            ::close(fds[0]);
            if (std::getenv("PITH_TEST_PAGE_TEXT_CRASH")) std::abort();  // test hook: a PDF that crashes poppler
            struct rlimit cpu = {kPageTextSeconds, kPageTextSeconds + 1};
            ::setrlimit(RLIMIT_CPU, &cpu);
#ifndef __SANITIZE_ADDRESS__  // AddressSanitizer reserves terabytes of address space: no limit fits
            struct rlimit memory = {kPageTextMemory, kPageTextMemory};
            ::setrlimit(RLIMIT_AS, &memory);
#endif
            PageText t = page_text_or_failure(bytes_, page_, password_);  // 'T' text, 'N' no text, 'E' why not
            const std::string message = t.failed ? "E" + t.why : t.text ? "T" + *t.text : "N";
            ::_exit(write_all(fds[1], message) ? 0 : 1);
        }
        ::close(fds[1]);
        pipe_ = fds[0];
    }
    PageTextChild(const PageTextChild&) = delete;
    PageTextChild& operator=(const PageTextChild&) = delete;
    ~PageTextChild() {
        if (child_ > 0) {
            ::kill(child_, SIGKILL);
            reap();
        }
        if (pipe_ >= 0) ::close(pipe_);
    }

    PageText collect() {
        if (child_ < 0) return page_text_or_failure(bytes_, page_, password_);  // no child: in this process then
        std::string message;
        char buffer[65536];
        for (ssize_t n; (n = ::read(pipe_, buffer, sizeof buffer)) != 0;) {
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) break;
            message.append(buffer, static_cast<std::size_t>(n));
        }
        const int status = reap();
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || message.empty())
            return {std::nullopt, true, "poppler crashed or ran out of time or memory"};
        if (message[0] == 'E') return {std::nullopt, true, message.substr(1)};
        if (message[0] == 'T') return {message.substr(1), false, {}};
        return {};
    }

private:
    int reap() {
        int status = 0;
        while (::waitpid(child_, &status, 0) < 0 && errno == EINTR) {
        }
        child_ = -1;
        return status;
    }

    std::string_view bytes_;
    int page_;
    std::string password_;
    pid_t child_ = -1;
    int pipe_ = -1;
};

// The XObject `pith stamp` drew its badge with on `page` (a reference), if the page names one.
const PdfObject* badge_xobject(pdf::File& file, const pdf::Page& page) {
    if (!page.resources.IsDictionary()) return nullptr;
    const PdfObject* xobjects = file.get_key(page.resources.GetDictionary(), "XObject");
    const PdfObject* badge = xobjects && xobjects->IsDictionary()
                                 ? xobjects->GetDictionary().GetKey(PoDoFo::PdfName(stamp::kBadgeResourceName)) : nullptr;
    return badge && badge->IsReference() ? badge : nullptr;
}

pdf::OpenOptions open_options(const std::string& password) { return pdf::OpenOptions{password, !password.empty()}; }

std::optional<PithNumber> try_number(const std::string& text) {
    if (text.empty()) return std::nullopt;
    try {
        return parse_number(text);
    } catch (const Error&) {
        return std::nullopt;
    }
}

// Revisions appended after pith's: what they change.
void check_later_revisions(pdf::File& file, const Embedded& e, Findings& f) {
    auto revisions = file.revisions();
    std::size_t pith = *e.pith_revision;
    if (pith + 1 == revisions.size()) {
        f.ok("pith.revisions.none_after", "nothing was appended after pith's update");
        return;
    }
    std::set<std::uint32_t> later;
    for (std::size_t i = pith + 1; i < revisions.size(); ++i) later.insert(revisions[i].objects.begin(), revisions[i].objects.end());

    pdf::File stamped = pdf::File::from_bytes(std::string(file.bytes().substr(0, revisions[pith].end)), file.name() + " (as stamped)");
    std::vector<std::string> problems;
    int stamped_pages = stamped.page_count(), pages = file.page_count();
    if (stamped_pages != pages)
        problems.push_back("the page count changed from " + std::to_string(stamped_pages) + " to " + std::to_string(pages));

    std::set<std::uint32_t> protected_objects;  // pith's metadata, page content streams, the badge's drawing
    if (const PdfObject* md = stamped.catalog().GetDictionary().GetKey("Metadata"); md && md->IsReference())
        protected_objects.insert(md->GetReference().ObjectNumber());
    std::set<std::uint32_t> badge_objects;  // the badge XObject and what it draws with (font, glyphs)
    auto collect_badge = [&](auto&& self, const PdfObject& o, int depth) -> void {
        if (depth > 8 || badge_objects.size() > 256) return;
        if (o.IsReference()) {
            if (badge_objects.insert(o.GetReference().ObjectNumber()).second) self(self, stamped.get(o.GetReference()), depth + 1);
        } else if (o.IsArray()) {
            for (const auto& item : o.GetArray()) self(self, item, depth + 1);
        } else if (o.IsDictionary()) {
            for (const auto& [key, item] : o.GetDictionary().GetKeys()) self(self, *item, depth + 1);
        }
    };
    for (int i = 0; i < std::min(stamped_pages, pages); ++i) {
        pdf::Page before = stamped.page(i);
        const PdfObject& old_page = stamped.get(before.ref);
        if (const PdfObject* contents = old_page.GetDictionary().GetKey("Contents")) {
            const PdfObject& c = stamped.resolve(*contents);
            if (contents->IsReference()) protected_objects.insert(contents->GetReference().ObjectNumber());
            if (c.IsArray())
                for (const auto& item : c.GetArray())
                    if (item.IsReference()) protected_objects.insert(item.GetReference().ObjectNumber());
        }
        if (const PdfObject* badge = badge_xobject(stamped, before)) collect_badge(collect_badge, *badge, 0);
        if (!later.count(before.ref.ObjectNumber())) continue;
        const PdfObject& new_page = file.get(file.page(i).ref);
        auto contents_of = [](pdf::File& in, const PdfObject& page) {
            const PdfObject* c = page.GetDictionary().GetKey("Contents");
            return c ? pdf::to_pdf_string(in.resolve(*c)) + pdf::to_pdf_string(*c) : std::string();
        };
        if (file.page(i).ref != before.ref || contents_of(stamped, old_page) != contents_of(file, new_page))
            problems.push_back("the content of page " + std::to_string(i + 1) + " was replaced");
    }
    for (std::uint32_t num : later)
        if (badge_objects.count(num) && !protected_objects.count(num))
            problems.push_back("the badge's drawing (object " + std::to_string(num) + ") was replaced");
    for (std::uint32_t num : later)
        if (protected_objects.count(num)) {
            const PdfObject& o = stamped.get(PdfReference(num, 0));
            bool metadata = o.IsDictionary() && text_of(o.GetDictionary().GetKey("Type")) == "Metadata";
            problems.push_back(metadata ? "the XMP metadata was rewritten" : "content stream " + std::to_string(num) + " was replaced");
        }
    std::size_t count = revisions.size() - pith - 1;
    std::string what = std::to_string(count) + " revision" + (count == 1 ? "" : "s") + " appended after pith's update (" +
                       std::to_string(later.size()) + " objects)";
    if (problems.empty()) {
        f.info("pith.revisions.after", what + " leave the page content and pith's data unchanged (comments, form data or signatures)");
    } else {
        std::string list;
        for (const auto& p : problems) list += (list.empty() ? "" : "; ") + p;
        f.fail("pith.revisions.modified", what + ": " + list);
    }
}

}  // namespace

const char* to_string(State state) {
    switch (state) {
        case State::Trusted: return "trusted";
        case State::Unverified: return "unverified";
        case State::Invalid: return "invalid";
        case State::Absent: return "absent";
    }
    return "?";
}

Json Embedded::to_json() const {
    Json links_json = Json::array();
    for (const auto& l : links)
        links_json.push_back({{"page", l.page}, {"rect", {l.rect[0], l.rect[1], l.rect[2], l.rect[3]}}, {"uri", l.uri}, {"pith_badge", l.pith_badge}});
    Json revisions_json = Json::array();
    for (const auto& r : revisions) revisions_json.push_back({{"end", r.end}, {"objects", r.objects}, {"pith", r.pith}});
    Json xmp_json = Json::object();
    for (const auto& [k, v] : xmp.pith) xmp_json[k] = v;
    std::string number = xmp.pith.count("number") ? xmp.pith.at("number") : info.count("PithNumber") ? info.at("PithNumber") : "";
    return {{"file", file},
            {"number", number.empty() ? Json(nullptr) : Json(number)},
            {"xmp", {{"present", has_xmp}, {"error", xmp_error.empty() ? Json(nullptr) : Json(xmp_error)}, {"pith", xmp_json},
                     {"dc_title", xmp.title}, {"pdfa", xmp.pdfa_part.empty() ? Json(nullptr) : Json(xmp.pdfa_part + xmp.pdfa_conformance)},
                     {"pith_declared_for_pdfa", xmp.pith_declared_for_pdfa}}},
            {"info", info},
            {"links", links_json},
            {"revisions", revisions_json},
            {"pith_revision", pith_revision ? Json(*pith_revision) : Json(nullptr)},
            {"defects", defects}};
}

Json Report::to_json() const {
    Json j = {{"file", file}, {"state", to_string(state)}, {"number", number.empty() ? Json(nullptr) : Json(number)}};
    j.update(findings.to_json());
    return j;
}

namespace {

// What a page's text says of the badge: it shows pith:<the number's first 8 letters>, only
// another Pith number, or none.
enum class BadgeText { Shown, Other, None };

// The badge shows "pith:" and, after any white space, 8 upper-case base32 letters.
BadgeText badge_text(const std::string& page_text, const PithNumber& number) {
    bool other = false;
    for (std::size_t at = page_text.find("pith:"); at != std::string::npos; at = page_text.find("pith:", at + 1)) {
        std::size_t p = at + 5;
        while (p < page_text.size() && (page_text[p] == ' ' || (page_text[p] >= '\t' && page_text[p] <= '\r'))) ++p;
        if (p + 8 > page_text.size() ||
            !std::all_of(page_text.begin() + p, page_text.begin() + p + 8, [](char c) { return is_base32_letter(c, false); }))
            continue;
        if (page_text.compare(p, 8, number.body, 0, 8) == 0) return BadgeText::Shown;
        other = true;
    }
    return other ? BadgeText::Other : BadgeText::None;
}

// pith's quick reading of a page's text; nullopt where it gives none.
std::optional<pdf::ShownText> quick_text(pdf::File& file, int index) {
    try {
        return pdf::shown_text(file, file.page(index), title::kMaxTextBytes);
    } catch (const Error&) {
        return std::nullopt;
    } catch (const PoDoFo::PdfError&) {
        return std::nullopt;
    }
}

// A page's quick text with its annotations' text placed in it; `shown.text` where that fails.
std::string quick_with_annotations(pdf::File& file, int index, const pdf::ShownText& shown) {
    try {
        return pdf::with_annotations(file, file.page(index), shown, title::kMaxTextBytes);
    } catch (const Error&) {
        return shown.text;
    } catch (const PoDoFo::PdfError&) {
        return shown.text;
    }
}

// `prefix_hash`: hashing the file from its start since it was opened (check 8).
Report verify_file(pdf::File& file, const std::string& path, const Keyring& keyring, const Options& options,
                   PrefixSha256& prefix_hash) {
    Embedded e = extract_from(file, true);  // the syntax after the text reading, which lexes page 1's content anyway
    Report report;
    report.file = path;
    Findings& f = report.findings;
    const auto& p = e.xmp.pith;
    auto prop = [&](const char* name) { auto it = p.find(name); return it == p.end() ? std::string() : it->second; };

    bool badge_links = !e.links.empty();
    if (!e.xmp_error.empty()) f.fail("pith.metadata.malformed", "the XMP metadata is not well-formed: " + e.xmp_error);
    if (!e.any_pith_data()) {
        if (badge_links) {
            f.fail("pith.metadata.absent", "a Pith badge links to " + e.links.front().uri + " but the PDF carries no pith metadata");
            report.state = State::Invalid;
        } else {
            f.info("pith.metadata.absent", "no pith metadata (XMP or Info) and no Pith badge link");
            report.state = f.failure.empty() ? State::Absent : State::Invalid;
        }
        return report;
    }

    // 1. The number as embedded.
    std::optional<PithNumber> xmp_number = try_number(prop("number"));
    std::optional<PithNumber> info_number = try_number(e.info.count("PithNumber") ? e.info.at("PithNumber") : "");
    if (!prop("number").empty() && !xmp_number) f.fail("pith.metadata.malformed", "XMP pith:number \"" + prop("number") + "\" is not a Pith number");
    std::optional<PithNumber> number = xmp_number ? xmp_number : info_number;
    if (!number) {
        f.fail("pith.metadata.malformed", "the pith metadata holds no readable Pith number");
        report.state = State::Invalid;
        return report;
    }
    report.number = number->is_full() ? number->full() : number->short_form(number->body.size());
    f.ok("pith.metadata.present", std::string("pith metadata found (") + (xmp_number ? "XMP" : "") +
                                      (xmp_number && info_number ? " and " : "") + (info_number ? "Info" : "") + ")");

    // 2-3. The record, its hash and the number derived from them.
    std::optional<Record> record;
    std::optional<Sha256> hash;
    if (!prop("canonicalRecord").empty()) {
        try {
            record = read_record(prop("canonicalRecord"), "embedded canonical record");
        } catch (const Error& err) {
            f.fail("pith.record.malformed", err.what());
        }
    }
    if (record) {
        hash = record->canonical_hash;
        std::string stated = prop("canonicalSha256");
        if (stated.empty())
            f.info("pith.hash.not_stated", "no pith:canonicalSha256 embedded; recomputed " + to_hex(*hash));
        else if (stated == to_hex(*hash))
            f.ok("pith.hash.match", "canonical hash " + stated + " recomputes from the embedded canonical record");
        else
            f.fail("pith.hash.mismatch", "embedded canonical hash " + stated + " differs from the recomputed " + to_hex(*hash));
        if (record->number.body == number->body && (number->year == 0 || number->year == record->number.year))
            f.ok("pith.number.match", "Pith number " + record->number.full() + " derives from the embedded record");
        else
            f.fail("pith.number.mismatch", "embedded number " + report.number + " differs from " + record->number.full() + ", derived from the embedded record");
    } else if (auto stated = sha256_from_hex(prop("canonicalSha256"))) {
        hash = *stated;
        f.info("pith.record.absent", "no canonical record embedded: the hash cannot be recomputed");
        if (number_from_hash(*stated, number->year).body.substr(0, number->body.size()) == number->body)
            f.ok("pith.number.match", "Pith number " + report.number + " derives from the embedded canonical hash");
        else
            f.fail("pith.number.mismatch", "embedded number " + report.number + " does not derive from the embedded canonical hash");
    } else {
        f.info("pith.record.absent", "only the number is embedded: no canonical record or hash to recompute");
    }

    // Page text for checks 6 and 7. pith's quick reading of the page settles what it finds: the
    // record's title, the badge's number. Everything else -- and so every failure -- is
    // poppler's to say (what the quick reading misses may be in a font it cannot decode or in
    // another order), in a child that works while checks 4, 5 and 8 run.
    std::vector<std::string> declared;
    if (!e.xmp.title.empty()) declared.push_back(e.xmp.title);
    if (e.info.count("Title")) declared.push_back(e.info.at("Title"));
    const std::string title_hash = record && record->title_hash ? *record->title_hash : "";
    title::Result t = title::compare(prop("title"), title_hash, declared, std::nullopt);
    const bool has_title = !prop("title").empty() || !title_hash.empty();  // without one, no text can match
    std::optional<pdf::ShownText> page1_quick;
    auto title_in = [&](const std::optional<std::string>& text) {
        title::Result q = title::compare(prop("title"), title_hash, declared, text);
        if (q.outcome == title::Outcome::Matches) t = q;
        return q.outcome == title::Outcome::Matches;
    };
    if (has_title && t.outcome != title::Outcome::Matches) {
        page1_quick = quick_text(file, 0);
        if (page1_quick && !title_in(page1_quick->text))  // then with the page's form fields and stamps
            if (std::string all = quick_with_annotations(file, 0, *page1_quick); all.size() != page1_quick->text.size()) title_in(all);
    }
    std::optional<pdf::ShownText> badge_page_quick;
    if (e.badge_page != 1 || !page1_quick) badge_page_quick = quick_text(file, e.badge_page - 1);
    const std::optional<pdf::ShownText>& badge_quick = e.badge_page == 1 && page1_quick ? page1_quick : badge_page_quick;
    BadgeText badge = badge_text(badge_quick ? badge_quick->text : "", *number);
    // `pith stamp` draws its badge after everything else on the page: content that leaves a
    // string or an array open before it swallows the badge, for every reader.
    const bool stamped_badge = std::any_of(e.links.begin(), e.links.end(), [&](const Link& l) { return l.pith_badge && l.page == e.badge_page; });
    const bool badge_swallowed = badge != BadgeText::Shown && stamped_badge && badge_quick && badge_quick->cut_short;
    const bool title_open = has_title && t.outcome != title::Outcome::Matches, badge_open = badge != BadgeText::Shown && !badge_swallowed;
    std::optional<PageTextChild> page1_child, badge_page_child;
    if (file.page_count() > 0) {  // without pages there is nothing for poppler to read either
        if (title_open || (badge_open && e.badge_page == 1)) page1_child.emplace(file.bytes(), 0, options.password);
        if (badge_open && e.badge_page != 1) badge_page_child.emplace(file.bytes(), e.badge_page - 1, options.password);
    }

    // 4. Receipt.
    bool receipt_valid = false;
    if (!prop("receiptSignature").empty() && hash) {
        Receipt receipt{prop("receiptKeyId"), prop("receiptAlgorithm"), prop("receiptSignature"), prop("receiptFingerprint"),
                        prop("receiptSignedAt"), "", "canonical_sha256_bytes"};
        ReceiptCheck check = check_receipt(receipt, *hash, keyring);
        std::string code = std::string("receipt.") + pith::to_string(check.status);
        if (check.status == ReceiptStatus::Valid) {
            receipt_valid = true;
            f.ok(code, check.explanation);
        } else if (check.status == ReceiptStatus::KeyUnknown) {
            f.info(code, check.explanation);
        } else {
            f.fail(code, check.explanation);
        }
    } else {
        f.info("receipt.absent", prop("receiptSignature").empty() ? "no receipt embedded" : "a receipt is embedded but no hash to check it against");
    }
    for (const auto& w : keyring.warnings) f.info("keyring.entry_refused", w);

    // 5. Info, XMP and links agree.
    std::vector<std::string> disagreements;
    if (xmp_number && info_number && info_number->body != xmp_number->body)
        disagreements.push_back("Info /PithNumber is " + e.info.at("PithNumber"));
    int pith_links = 0;
    for (const auto& link : e.links) {
        std::string body = body_of_link(link.uri);
        ++pith_links;
        if (body.empty() || number->body.compare(0, body.size(), body) != 0 || body.size() > number->body.size())
            disagreements.push_back("the link on page " + std::to_string(link.page) + " points to " + (link.uri.empty() ? "nothing" : link.uri));
    }
    if (!disagreements.empty()) {
        std::string list;
        for (const auto& d : disagreements) list += (list.empty() ? "" : "; ") + d;
        f.fail("pith.links.mismatch", "not everything names " + report.number + ": " + list);
    } else if (pith_links) {
        f.ok("pith.links.match", std::string(xmp_number && info_number ? "XMP, Info" : xmp_number ? "XMP" : "Info") + " and " +
                                     std::to_string(pith_links) + " badge link" + (pith_links == 1 ? "" : "s") + " name the same number");
    } else {
        f.info("pith.links.absent", "no link to the Pith resolver found on page 1 or the stamped page");
    }

    // The bytes before pith's update (check 8 reports it).
    std::optional<std::string> prior_sha256;
    const std::uint64_t prior_length = std::strtoull(prop("priorLength").c_str(), nullptr, 10);
    if (!prop("priorLength").empty() && prior_length <= file.bytes().size())
        prior_sha256 = to_hex(prefix_hash.digest(prior_length));

    // poppler's page text, where the quick reading left a check open.
    PageText page1, badge_page;
    if (page1_child) page1 = page1_child->collect();
    if (badge_page_child) badge_page = badge_page_child->collect();
    if (page1.failed || badge_page.failed)  // a file that defeats the text checks is not given their benefit
        f.fail("pith.text.failed", "the page text could not be extracted (" + (page1.failed ? page1.why : badge_page.why) +
                                       "), so the checks that need it cannot be made");
    if (title_open) t = title::compare(prop("title"), title_hash, declared, page1.text);
    if (badge_open) badge = badge_text((badge_page_child ? badge_page : page1).text.value_or(""), *number);

    // 6. The visible badge text.
    const std::string expected_short = number->body.substr(0, 8);
    if (badge == BadgeText::Shown)
        f.ok("pith.badge.text.match", "page " + std::to_string(e.badge_page) + " shows pith:" + expected_short);
    else if (badge == BadgeText::Other)
        f.fail("pith.badge.text.mismatch", "page " + std::to_string(e.badge_page) + " shows a different Pith number than pith:" + expected_short);
    else
        f.info("pith.badge.text.absent", "no visible badge text pith:" + expected_short + " found on page " + std::to_string(e.badge_page) +
                                             (badge_swallowed ? ": its content breaks off before the badge (" + badge_quick->broken_by + ")" : ""));

    // 7. Title binding (compared above).
    if (t.outcome == title::Outcome::Matches) f.ok("pith.title.match", t.explanation);
    else if (t.outcome == title::Outcome::Differs) f.fail("pith.title.differs", t.explanation);
    else f.info("pith.title.none", t.explanation);

    // 8. Changes after stamping.
    if (!prop("priorLength").empty()) {
        if (!prior_sha256 || *prior_sha256 != prop("priorSha256"))
            f.fail("pith.prior.mismatch", "the " + prop("priorLength") + " bytes pith stamped onto are no longer the start of the file");
        else
            f.ok("pith.prior.match", "the " + prop("priorLength") + " bytes pith stamped onto are unchanged");
        if (e.pith_revision)
            check_later_revisions(file, e, f);
        else
            f.fail("pith.revisions.rewritten", "pith's update is no longer a revision of the file: it was rewritten after stamping");
    } else {
        f.info("pith.revisions.unrecorded", "no record of the file before the pith data was added (made by " +
                                                (prop("stampTool").empty() ? std::string("an unknown tool") : prop("stampTool")) + ")");
    }

    // 9. The record the reader fetched.
    if (options.expected) {
        if (record ? record->canonical_bytes == options.expected->canonical_bytes : options.expected->number.body == number->body)
            f.ok("pith.record.expected.match", "the embedded " + std::string(record ? "record" : "number") + " equals " + options.expected->source);
        else
            f.fail("pith.record.expected.mismatch", "the embedded " + std::string(record ? "record" : "number") + " differs from " + options.expected->source);
    }
    if (prop("unverified") == "True")
        f.info("pith.record.unverified", "the record was stamped with --allow-unverified: its stated hash or number did not recompute");

    if (!f.failure.empty()) report.state = State::Invalid;
    else if (receipt_valid && prop("unverified") != "True") report.state = State::Trusted;
    else report.state = State::Unverified;
    return report;
}

// Damage the reader worked around: a refusal unless the caller allows it.
void check_damage(const pdf::File& file, bool allow_damaged) {
    if (!allow_damaged && !file.defects().empty())
        throw Error(file.name() + ": " + pdf::damage_message(file) + " (--allow-damaged reads it anyway)");
}

}  // namespace

Embedded extract(const std::string& path, const std::string& password, bool allow_damaged) {
    pdf::File file = pdf::File::open(path, open_options(password));
    check_damage(file, allow_damaged);  // most damage shows on opening
    Embedded e = extract_from(file);
    check_damage(file, allow_damaged);  // the rest while reading page 1
    e.defects = file.defects();
    return e;
}

Report verify(const std::string& path, const Keyring& keyring, const Options& options) {
    const InputFile in(path);
    PrefixSha256 prefix_hash(in.fd());  // on another core, while the file is parsed
    pdf::File file = pdf::File::open(in.fd(), path, open_options(options.password));
    check_damage(file, options.allow_damaged);  // most damage shows on opening
    Report report = verify_file(file, path, keyring, options, prefix_hash);
    file.check_syntax_later();
    check_damage(file, options.allow_damaged);
    for (const std::string& defect : file.defects())
        report.findings.info("pdf.damaged", "the PDF is damaged (" + defect + "); read with --allow-damaged");
    return report;
}

}  // namespace pith::verify
