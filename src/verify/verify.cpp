#include "verify/verify.hpp"

#include "core/cpus.hpp"
#include "core/error.hpp"
#include "core/sanitizer.hpp"
#include "core/files.hpp"
#include "core/number.hpp"
#include "core/text.hpp"
#include "pdf/file.hpp"
#include "stamp/stamp.hpp"
#include "verify/changes.hpp"
#include "verify/title.hpp"
#include "verify/visible.hpp"
#include "xmp/xmp.hpp"

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
        Link link;
        if (const PdfObject* action = file.get_key(d, "A"); action && action->IsDictionary()) {
            link.uri = text_of(file.get_key(action->GetDictionary(), "URI"));
            link.action = text_of(file.get_key(action->GetDictionary(), "S"));
            link.chained = action->GetDictionary().HasKey("Next");
        }
        link.pith_badge = stamp::is_badge_annotation(file, annot);
        if (!link.pith_badge && body_of_link(link.uri).empty()) continue;
        link.page = index + 1;
        if (const PdfObject* rect = file.get_key(d, "Rect"); rect && rect->IsArray() && rect->GetArray().size() == 4)
            for (int i = 0; i < 4; ++i) link.rect[i] = pdf::number_value(file.resolve(rect->GetArray()[i]));
        links.push_back(link);
    }
}

Embedded extract_from(pdf::File& file) {
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
        file.check_page(file.page(index));
    }
    for (const auto& link : e.links)
        if (link.pith_badge) e.badge_page = link.page;
    return e;
}

// What page 1 (and the badge's page) shows a reader comes from poppler, which lays the page
// out and renders it (src/verify/visible.hpp) and parses the whole file its own way: it runs in
// a child with CPU and memory limits, so a PDF that crashes or hangs poppler costs a finding,
// not the run. The child works while the other checks run (the receipt, the hash of the
// bytes before pith's update, the difference analysis).
struct PageText {
    std::optional<visible::Page> page;  // nullopt: poppler cannot open the page
    bool failed = false;                // poppler crashed, ran out of time or memory, or could not be loaded
    std::string why;                    // when failed
};

PageText page_text_or_failure(std::string_view bytes, int index, const std::string& password) {
    try {
        return {visible::page_words(bytes, index, password), false, {}};
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
        const OtherCpus elsewhere;
        child_ = ::fork();
        elsewhere.give_to(child_);  // in both: whichever runs first
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
#ifndef PITH_ADDRESS_SANITIZER
            struct rlimit memory = {kPageTextMemory, kPageTextMemory};
            ::setrlimit(RLIMIT_AS, &memory);
#endif
            PageText t = page_text_or_failure(bytes_, page_, password_);  // 'W' words, 'N' no page, 'E' why not
            const std::string message = t.failed ? "E" + t.why : t.page ? "W" + visible::encode(*t.page) : "N";
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
        if (message[0] == 'W') {
            auto page = visible::decode(std::string_view(message).substr(1));
            if (!page) return {std::nullopt, true, "poppler's child sent words that do not decode"};
            return {std::move(page), false, {}};
        }
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

pdf::OpenOptions open_options(const std::string& password) { return pdf::OpenOptions{password, !password.empty()}; }

std::optional<PithNumber> try_number(const std::string& text) {
    if (text.empty()) return std::nullopt;
    try {
        return parse_number(text);
    } catch (const Error&) {
        return std::nullopt;
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
        links_json.push_back({{"page", l.page}, {"rect", {l.rect[0], l.rect[1], l.rect[2], l.rect[3]}}, {"uri", l.uri},
                              {"action", l.action}, {"chained", l.chained}, {"pith_badge", l.pith_badge}});
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

// What a page's text says of the badge: it shows pith:<the number's first 8 letters>, another
// Pith number (with or without that one), or none.
enum class BadgeText { Shown, Other, None };

// The badge shows "pith:" and, after any white space, 8 upper-case base32 letters. Another
// number anywhere on the page wins: a paper must never show two.
BadgeText badge_text(const std::string& page_text, const PithNumber& number) {
    bool shown = false, other = false;
    for (std::size_t at = page_text.find("pith:"); at != std::string::npos; at = page_text.find("pith:", at + 1)) {
        std::size_t p = at + 5;
        while (p < page_text.size() && (page_text[p] == ' ' || (page_text[p] >= '\t' && page_text[p] <= '\r'))) ++p;
        if (p + 8 > page_text.size() ||
            !std::all_of(page_text.begin() + p, page_text.begin() + p + 8, [](char c) { return is_base32_letter(c, false); }))
            continue;
        if (page_text.compare(p, 8, number.body, 0, 8) == 0) shown = true;
        else other = true;
    }
    return other ? BadgeText::Other : shown ? BadgeText::Shown : BadgeText::None;
}

// A pith XMP property's value, "" when absent.
std::string property(const xmp::Properties& p, const char* name) {
    auto it = p.find(name);
    return it == p.end() ? std::string() : it->second;
}

// 1. The number as embedded, and whether the metadata reads one way only.
std::optional<PithNumber> check_number(const Embedded& e, Report& report) {
    Findings& f = report.findings;
    const auto& p = e.xmp.pith;
    const std::string xmp_text = property(p, "number");
    std::optional<PithNumber> xmp_number = try_number(xmp_text);
    std::optional<PithNumber> info_number = try_number(e.info.count("PithNumber") ? e.info.at("PithNumber") : "");
    if (!xmp_text.empty() && !xmp_number) f.fail("pith.metadata.malformed", "XMP pith:number \"" + xmp_text + "\" is not a Pith number");
    if (!e.xmp.ambiguities.empty())
        f.fail("pith.metadata.ambiguous", "the XMP metadata can be read more than one way, so other readers may see other values: " +
                                              joined(e.xmp.ambiguities));
    std::optional<PithNumber> number = xmp_number ? xmp_number : info_number;
    if (!number) {
        f.fail("pith.metadata.malformed", "the pith metadata holds no readable Pith number");
        return std::nullopt;
    }
    report.number = number->is_full() ? number->full() : number->short_form(number->body.size());
    f.ok("pith.metadata.present", std::string("pith metadata found (") + (xmp_number ? "XMP" : "") +
                                      (xmp_number && info_number ? " and " : "") + (info_number ? "Info" : "") + ")");
    return number;
}

// 2-3. The record, its hash and the number derived from them.
struct RecordData {
    std::optional<Record> record;
    std::optional<Sha256> hash;
};

RecordData check_record_data(const xmp::Properties& p, const PithNumber& number, const std::string& shown, Findings& f) {
    auto prop = [&](const char* name) { return property(p, name); };
    RecordData r;
    if (!prop("canonicalRecord").empty()) {
        try {
            r.record = read_record(prop("canonicalRecord"), "embedded canonical record");
        } catch (const Error& err) {
            f.fail("pith.record.malformed", err.what());
        }
    }
    if (r.record) {
        r.hash = r.record->canonical_hash;
        const std::string stated = prop("canonicalSha256");
        if (stated.empty())
            f.info("pith.hash.not_stated", "no pith:canonicalSha256 embedded; recomputed " + to_hex(*r.hash));
        else if (stated == to_hex(*r.hash))
            f.ok("pith.hash.match", "canonical hash " + stated + " recomputes from the embedded canonical record");
        else
            f.fail("pith.hash.mismatch", "embedded canonical hash " + stated + " differs from the recomputed " + to_hex(*r.hash));
        if (r.record->number.body == number.body && (number.year == 0 || number.year == r.record->number.year))
            f.ok("pith.number.match", "Pith number " + r.record->number.full() + " derives from the embedded record");
        else
            f.fail("pith.number.mismatch", "embedded number " + shown + " differs from " + r.record->number.full() + ", derived from the embedded record");
        return r;
    }
    // Without the record there is no signed title to bind the paper to: never trusted.
    if (auto stated = sha256_from_hex(prop("canonicalSha256"))) {
        r.hash = *stated;
        f.info("pith.record.absent", "no canonical record embedded: the hash cannot be recomputed and the paper's title cannot be checked");
        if (number_from_hash(*stated, number.year).body.substr(0, number.body.size()) == number.body)
            f.ok("pith.number.match", "Pith number " + shown + " derives from the embedded canonical hash");
        else
            f.fail("pith.number.mismatch", "embedded number " + shown + " does not derive from the embedded canonical hash");
    } else {
        f.info("pith.record.absent", "only the number is embedded: no canonical record to check it or the paper's title against");
    }
    return r;
}

// 4. The receipt. A key that is revoked, or outside its validity now, makes it at most
// unverified: the receipt's signed_at is not signed, so it cannot show the signature is older.
bool check_receipt_data(const xmp::Properties& p, const std::optional<Sha256>& hash, const Keyring& keyring, Findings& f) {
    auto prop = [&](const char* name) { return property(p, name); };
    bool valid = false;
    if (!prop("receiptSignature").empty() && hash) {
        Receipt receipt{prop("receiptKeyId"), prop("receiptAlgorithm"), prop("receiptSignature"), prop("receiptFingerprint"),
                        prop("receiptSignedAt"), "", "canonical_sha256_bytes"};
        ReceiptCheck check = check_receipt(receipt, *hash, keyring, now_rfc3339());
        const std::string code = std::string("receipt.") + pith::to_string(check.status);
        if (check.status == ReceiptStatus::Valid) {
            valid = true;
            f.ok(code, check.explanation);
        } else if (check.status == ReceiptStatus::KeyUnknown || check.status == ReceiptStatus::KeyRevoked ||
                   check.status == ReceiptStatus::KeyOutsideValidity) {
            f.info(code, check.explanation);
        } else {
            f.fail(code, check.explanation);
        }
    } else {
        f.info("receipt.absent", prop("receiptSignature").empty() ? "no receipt embedded" : "a receipt is embedded but no hash to check it against");
    }
    for (const auto& w : keyring.warnings) f.info("keyring.entry_refused", w);
    return valid;
}

// 5. Info, XMP and links name one number; every pith link is a plain link to the resolver.
void check_links(pdf::File& file, const Embedded& e, const PithNumber& number, const std::string& shown, const Baseline& baseline,
                 const std::string& resolver, Findings& f) {
    std::vector<std::string> disagreements, unsafe, elsewhere;
    const auto xmp_number = try_number(property(e.xmp.pith, "number"));
    const auto info_number = try_number(e.info.count("PithNumber") ? e.info.at("PithNumber") : "");
    if (xmp_number && info_number && info_number->body != xmp_number->body)
        disagreements.push_back("Info /PithNumber is " + e.info.at("PithNumber"));
    for (const auto& link : e.links) {
        const std::string body = body_of_link(link.uri), where = "the link on page " + std::to_string(link.page);
        if (body.empty() || number.body.compare(0, body.size(), body) != 0 || body.size() > number.body.size())
            disagreements.push_back(where + " points to " + (link.uri.empty() ? "nothing" : link.uri));
        if (link.action != "URI" || link.chained)
            unsafe.push_back(where + " runs a /" + (link.action.empty() ? "?" : link.action) + " action" + (link.chained ? " with more chained after it (/Next)" : ""));
        else if (!body.empty() && link.uri.rfind(resolver, 0) != 0)
            elsewhere.push_back(where + " goes to " + link.uri);
    }
    if (!disagreements.empty()) f.fail("pith.links.mismatch", "not everything names " + shown + ": " + joined(disagreements));
    if (!unsafe.empty()) f.fail("pith.link.action", "a pith link must only open the resolver: " + joined(unsafe));
    if (!elsewhere.empty()) f.fail("pith.link.host", "a pith link must go to " + resolver + ": " + joined(elsewhere));
    if (disagreements.empty() && unsafe.empty() && elsewhere.empty()) {
        if (!e.links.empty())
            f.ok("pith.links.match", "the metadata and " + std::to_string(e.links.size()) + " link" + (e.links.size() == 1 ? "" : "s") +
                                         " to " + resolver + " name the same number");
        else
            f.info("pith.links.absent", "no link to the Pith resolver found on page 1 or the badge's page");
    }
    // Another link over the badge takes the reader elsewhere when they click it.
    if (!baseline.badge_drawn || baseline.badge_page >= file.page_count()) return;
    const PdfObject& page = file.get(file.page(baseline.badge_page).ref);
    const PdfObject* annots = page.IsDictionary() ? file.get_key(page.GetDictionary(), "Annots") : nullptr;
    if (!annots || !annots->IsArray()) return;
    for (const auto& item : annots->GetArray()) {
        const PdfObject& a = file.resolve(item);
        if (!a.IsDictionary() || text_of(file.get_key(a.GetDictionary(), "Subtype")) != "Link" || stamp::is_badge_annotation(file, a))
            continue;
        pdf::Rect r;
        if (pdf::read_rect(file, file.get_key(a.GetDictionary(), "Rect"), r) && pdf::overlaps(r, baseline.badge_rect)) {
            f.fail("pith.link.overlap", "another link lies over the badge on page " + std::to_string(baseline.badge_page + 1));
            return;
        }
    }
}

// The first few reasons why words of a page are hidden.
std::string hidden_reasons(const visible::Page& page) {
    std::vector<std::string> why;
    for (const auto& w : page.words)
        if (!w.visible && why.size() < 3 && std::find(why.begin(), why.end(), w.hidden_why) == why.end()) why.push_back(w.hidden_why);
    return joined(why);
}

// Letters and digits only (ASCII punctuation and spaces dropped): "Models," spells "models".
std::string letters(std::string s) {
    s.erase(std::remove_if(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80 && !std::isalnum(static_cast<unsigned char>(c)); }),
            s.end());
    return s;
}

// Every run of visible words that spells `title` in reading order (normalised, punctuation and
// spaces ignored, so a word hyphenated at a line end joins the next): its first and last word.
std::vector<std::pair<std::size_t, std::size_t>> title_spans(const std::vector<const visible::Word*>& words, const std::string& title) {
    const std::string want = letters(title::normalise(title));
    std::vector<std::string> norm;
    for (const auto* w : words) norm.push_back(letters(title::normalise(w->text)));
    std::vector<std::pair<std::size_t, std::size_t>> spans;
    for (std::size_t i = 0; i < words.size() && !want.empty(); ++i) {
        std::string got;
        for (std::size_t j = i; j < words.size(); ++j) {
            const std::string& w = norm[j];
            if (w.empty() && got.empty()) break;  // a span starts with a word
            got += w;
            if (got.size() > want.size() || want.compare(0, got.size(), got) != 0) break;
            if (got == want) {
                spans.emplace_back(i, j);
                break;
            }
        }
    }
    return spans;
}

// A title is set as a title: on lines of its own (it starts a line and ends one), in type no
// smaller than most of the page's text, and not as a column of one-word lines at the size of
// the text around it. A citation in running text, a footnote, a reference list or a column of
// labels is not. (Heuristics, measured on the corpus: doc/trust.md.)
bool set_as_title(const std::vector<const visible::Word*>& words, std::pair<std::size_t, std::size_t> span) {
    if (span.first > 0 && !words[span.first - 1]->line_end) return false;
    if (!words[span.second]->line_end && span.second + 1 < words.size()) return false;
    std::vector<double> sizes;
    for (const auto* w : words) sizes.push_back(w->size);
    std::nth_element(sizes.begin(), sizes.begin() + sizes.size() / 2, sizes.end());
    const double median = sizes[sizes.size() / 2];
    std::size_t lines = 0, count = span.second - span.first + 1;
    double smallest = words[span.first]->size;
    for (std::size_t i = span.first; i <= span.second; ++i) {
        smallest = std::min(smallest, words[i]->size);
        lines += words[i]->line_end || i == span.second;
    }
    if (smallest < 0.85 * median) return false;
    return lines < 3 || count >= 2 * lines || smallest > 1.1 * median;
}

// A word's box (top-left origin, the page as displayed) in the page's default user space.
pdf::Rect user_rect(const visible::Word& w, const pdf::Page& page) {
    const pdf::Rect& c = page.crop_box;
    auto at = [&](double x, double y) -> std::pair<double, double> {
        switch (page.rotate) {
            case 90: return {c.llx + y, c.lly + x};
            case 180: return {c.urx - x, c.lly + y};
            case 270: return {c.urx - y, c.ury - x};
            default: return {c.llx + x, c.ury - y};
        }
    };
    auto [ax, ay] = at(w.x0, w.y0);
    auto [bx, by] = at(w.x1, w.y1);
    return {std::min(ax, bx), std::min(ay, by), std::max(ax, bx), std::max(ay, by)};
}

struct TitleCheck {
    std::optional<pdf::Rect> area;  // where page 1 shows it, when the record gives the plain title
};

// 7. The record's title against what page 1 shows a reader: text nobody sees never binds.
TitleCheck check_title(const std::string& plain, const std::string& hash, const std::optional<visible::Page>& page,
                       const pdf::Page& geometry, Findings& f) {
    TitleCheck out;
    const std::optional<std::string> shown = page ? std::optional<std::string>(visible::visible_text(*page)) : std::nullopt;
    const title::Result t = title::compare(plain, hash, shown);
    if (t.outcome == title::Outcome::Matches) {
        std::vector<const visible::Word*> words;
        for (const auto& w : page->words)
            if (w.visible) words.push_back(&w);
        // Where the plain title is known, find it as a title; where its words cannot be lined up
        // (text stored in visual order), the text match stands.
        const auto spans = !plain.empty() && pith::title_hash(plain) == hash ? title_spans(words, plain)
                                                                             : std::vector<std::pair<std::size_t, std::size_t>>{};
        const auto as_title = std::find_if(spans.begin(), spans.end(), [&](const auto& span) { return set_as_title(words, span); });
        if (!spans.empty() && as_title == spans.end()) {
            f.fail("pith.title.not_title", "the record's title is on page 1 only inside other text or in small type (a citation, a "
                                           "footnote, a reference), not set as the paper's title");
            return out;
        }
        f.ok("pith.title.match", t.explanation);
        if (as_title != spans.end()) {
            pdf::Rect area = user_rect(*words[as_title->first], geometry);
            for (std::size_t i = as_title->first + 1; i <= as_title->second; ++i) {
                const pdf::Rect r = user_rect(*words[i], geometry);
                area = {std::min(area.llx, r.llx), std::min(area.lly, r.lly), std::max(area.urx, r.urx), std::max(area.ury, r.ury)};
            }
            out.area = area;
        }
        return out;
    }
    const bool shows_text = page && std::any_of(page->words.begin(), page->words.end(), [](const visible::Word& w) {
                                return w.visible && w.text.rfind("pith:", 0) != 0;  // a badge is no text of the paper's
                            });
    if (page && title::compare(plain, hash, visible::all_text(*page)).outcome == title::Outcome::Matches) {
        if (shows_text)
            f.fail("pith.title.hidden", "the record's title is on page 1 only as text a reader cannot see (" + hidden_reasons(*page) + ")");
        else  // a scan with an OCR layer: the title is in the image, which pith cannot read
            f.info("pith.title.none", "page 1 shows no text drawn as glyphs (a scanned page?): the record's title is only in its "
                                      "invisible text layer, which cannot bind it");
    } else if (t.outcome == title::Outcome::Differs)
        f.fail("pith.title.differs", t.explanation);
    else
        f.info("pith.title.none", t.explanation);
    return out;
}

// 6. The badge text a reader sees on the badge's page: the number's first 8 letters, and no
// other Pith number.
void check_badge_text(const Embedded& e, const PithNumber& number, const Baseline& baseline, const std::optional<visible::Page>& page,
                      Findings& f) {
    const BadgeText badge = badge_text(page ? visible::visible_text(*page) : "", number);
    const std::string expected = "pith:" + number.body.substr(0, 8), where = "page " + std::to_string(e.badge_page);
    const bool hidden = badge == BadgeText::None && page && badge_text(visible::all_text(*page), number) == BadgeText::Shown;
    if (badge == BadgeText::Shown)
        f.ok("pith.badge.text.match", where + " shows " + expected);
    else if (badge == BadgeText::Other)
        f.fail("pith.badge.text.mismatch", where + " shows a different Pith number than " + expected);
    else if (hidden && !baseline.badge_drawn)  // drawn to be unseen
        f.fail("pith.badge.hidden", "the badge's text " + expected + " is on " + where + " only where a reader cannot see it (" +
                                        hidden_reasons(*page) + ")");
    else  // none, or pith stamp's own badge, unchanged since (9), hidden by its page (too small, content left open)
        f.info("pith.badge.text.absent", "no visible badge text " + expected + " found on " + where +
                                             (hidden ? " (pith stamp drew it, but it is " + hidden_reasons(*page) + ")" : ""));
}

// The reasons a report without failures is not trusted: every check must have been made.
std::vector<std::string> missing_evidence(const Findings& f, bool receipt_valid, bool badge_expected, bool unverified_record) {
    auto listed = [](const std::vector<Finding>& section, const char* code) {
        return std::any_of(section.begin(), section.end(), [&](const Finding& x) { return x.code == code; });
    };
    auto has = [&](const char* code) { return listed(f.success, code); };
    std::vector<std::string> missing;
    if (!receipt_valid) missing.push_back("no valid receipt under a trusted key");
    if (listed(f.informational, "pith.record.absent"))
        missing.push_back("no canonical record to recompute the hash from");
    if (!has("pith.title.match")) missing.push_back("the record's title was not found on page 1");
    if (badge_expected && !has("pith.badge.text.match")) missing.push_back("the badge is not visible");
    if (!has("pith.update.match") && !has("pith.update.none")) missing.push_back("the stamp could not be checked");
    if (unverified_record) missing.push_back("the record was stamped with --allow-unverified");
    return missing;
}

// `prefix_hash`: hashing the file from its start since it was opened (check 8).
Report verify_file(pdf::File& file, const std::string& path, const Keyring& keyring, const Options& options,
                   PrefixSha256& prefix_hash) {
    Embedded e = extract_from(file);
    Report report;
    report.file = path;
    Findings& f = report.findings;
    const auto& p = e.xmp.pith;
    auto prop = [&](const char* name) { return property(p, name); };

    if (!e.xmp_error.empty()) f.fail("pith.metadata.malformed", "the XMP metadata is not well-formed: " + e.xmp_error);
    if (!e.any_pith_data()) {
        if (!e.links.empty()) {
            f.fail("pith.metadata.absent", "a Pith badge links to " + e.links.front().uri + " but the PDF carries no pith metadata");
            report.state = State::Invalid;
        } else {
            f.info("pith.metadata.absent", "no pith metadata (XMP or Info) and no Pith badge link");
            report.state = f.failure.empty() ? State::Absent : State::Invalid;
        }
        return report;
    }
    const std::optional<PithNumber> number = check_number(e, report);
    if (!number) {
        report.state = State::Invalid;
        return report;
    }
    const RecordData data = check_record_data(p, *number, report.number, f);

    // What page 1 and the badge's page show a reader (checks 6 and 7): poppler lays them out and
    // renders them in a child that works while checks 4, 5, 8 and 9 run. Only a title that
    // hashes to the signed title_canon_sha256 counts: pith:title itself is not signed.
    const std::string title_hash = data.record && data.record->title_hash ? *data.record->title_hash : "";
    const std::string signed_title = data.record ? prop("title") : "";
    std::optional<PageTextChild> page1_child, badge_page_child;
    if (!options.render)
        f.info("pith.text.skipped", "the pages were not rendered (a stamper's check of its own output): title and badge not checked");
    else if (file.page_count() > 0) {  // without pages there is nothing for poppler to read either
        page1_child.emplace(file.bytes(), 0, options.password);
        if (e.badge_page != 1) badge_page_child.emplace(file.bytes(), e.badge_page - 1, options.password);
    }

    const bool receipt_valid = check_receipt_data(p, data.hash, keyring, f);

    // 8. The bytes before pith's update, and pith's update itself.
    std::optional<std::uint64_t> prior_length;
    if (!prop("priorLength").empty()) {
        prior_length = std::strtoull(prop("priorLength").c_str(), nullptr, 10);
        if (*prior_length > file.bytes().size() || to_hex(prefix_hash.digest(*prior_length)) != prop("priorSha256"))
            f.fail("pith.prior.mismatch", "the " + prop("priorLength") + " bytes pith stamped onto are no longer the start of the file");
        else
            f.ok("pith.prior.match", "the " + prop("priorLength") + " bytes pith stamped onto are unchanged");
    }
    const Baseline baseline = check_pith_update(file, prior_length, options.password, f);
    if (!prior_length && baseline.found)
        f.ok("pith.update.none", "no update of pith stamp's: the pith data was written with the document (made by " +
                                     (prop("stampTool").empty() ? std::string("an unknown tool") : prop("stampTool")) + ")");
    check_links(file, e, *number, report.number, baseline, options.resolver, f);

    // poppler's layout and rendering of the pages.
    PageText page1, badge_page;
    if (page1_child) page1 = page1_child->collect();
    if (badge_page_child) badge_page = badge_page_child->collect();
    if (page1.failed || badge_page.failed)  // a file that defeats the text checks is not given their benefit
        f.fail("pith.text.failed", "the page text could not be extracted (" + (page1.failed ? page1.why : badge_page.why) +
                                       "), so the checks that need it cannot be made");

    // 6. The visible badge text.
    if (options.render) check_badge_text(e, *number, baseline, badge_page_child ? badge_page.page : page1.page, f);

    // 7. The title, as a reader sees it on page 1.
    const TitleCheck title = options.render ? check_title(signed_title, title_hash, page1.page, file.page_count() > 0 ? file.page(0) : pdf::Page{}, f)
                                            : TitleCheck{};

    // 9. What changed after the stamp.
    std::vector<Area> keep_clear;
    if (baseline.badge_drawn) keep_clear.push_back({baseline.badge_page, baseline.badge_rect, "the badge"});
    else  // pith.sty's badge: its links
        for (const auto& l : e.links) keep_clear.push_back({l.page - 1, {l.rect[0], l.rect[1], l.rect[2], l.rect[3]}, "the badge"});
    if (title.area) keep_clear.push_back({0, *title.area, "the title"});
    check_later_changes(file, baseline, keep_clear, options.password, f);

    // 10. The record the reader fetched.
    if (options.expected) {
        const auto& record = data.record;
        if (record ? record->canonical_bytes == options.expected->canonical_bytes : options.expected->number.body == number->body)
            f.ok("pith.record.expected.match", "the embedded " + std::string(record ? "record" : "number") + " equals " + options.expected->source);
        else
            f.fail("pith.record.expected.mismatch", "the embedded " + std::string(record ? "record" : "number") + " differs from " + options.expected->source);
    }
    const bool unverified_record = prop("unverified") == "True";
    if (unverified_record)
        f.info("pith.record.unverified", "the record was stamped with --allow-unverified: its stated hash or number did not recompute");

    const bool badge_expected = baseline.badge_drawn || !e.links.empty();
    const std::vector<std::string> missing = missing_evidence(f, receipt_valid, badge_expected, unverified_record);
    if (!f.failure.empty()) {
        report.state = State::Invalid;
    } else if (missing.empty()) {
        report.state = State::Trusted;
    } else {
        report.state = State::Unverified;
        f.info("pith.evidence.missing", "not trusted: " + joined(missing));
    }
    return report;
}

// Damage the reader worked around: a refusal unless the caller allows it.
void check_damage(const pdf::File& file, bool allow_damaged) {
    if (!allow_damaged && !file.defects().empty())
        throw Error(file.name() + ": " + pdf::damage_message(file) + " (--allow-damaged reads it anyway)");
}

}  // namespace

Embedded extract(const std::string& path, const std::string& password, bool allow_damaged) {
    const InputFile in(path);  // "-": standard input
    pdf::File file = pdf::File::open(in.fd(), path, open_options(password));
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
    check_damage(file, options.allow_damaged);  // the rest while reading the pages
    for (const std::string& defect : file.defects())
        report.findings.info("pdf.damaged", "the PDF is damaged (" + defect + "); read with --allow-damaged");
    return report;
}

}  // namespace pith::verify
