// SPDX-License-Identifier: MIT
// Page-tree access for pith::pdf::File: walks only the nodes on the way to the
// requested page, using /Count to skip whole subtrees.
#include "core/error.hpp"
#include "pdf/content.hpp"
#include "pdf/file.hpp"
#include "pdf/file_impl.hpp"


#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace pith::pdf {

using namespace PoDoFo;

namespace {

constexpr int kMaxTreeDepth = 256;

bool is_name(const PdfObject* o, const char* n) { return o && o->IsName() && o->GetName() == PdfName(n); }


struct Inherited {
    const PdfObject* resources = nullptr;
    PdfReference resources_owner;
    bool resources_own = false;
    const PdfObject* media = nullptr;
    const PdfObject* crop = nullptr;
    const PdfObject* rotate = nullptr;
};

// Records the inheritable attributes of `node` (a Pages node or the page).
void collect(File& f, const PdfObject& node, const PdfReference& ref, Inherited& in, bool is_page) {
    const PdfDictionary& d = node.GetDictionary();
    if (const PdfObject* r = f.get_key(d, "Resources")) {
        in.resources = r;
        in.resources_owner = ref;
        in.resources_own = is_page;
    }
    if (const PdfObject* m = f.get_key(d, "MediaBox")) in.media = m;
    if (const PdfObject* c = f.get_key(d, "CropBox")) in.crop = c;
    if (const PdfObject* r = f.get_key(d, "Rotate")) in.rotate = r;
}

Page make_page(File& f, int index, const PdfReference& ref, const Inherited& in) {
    Page p;
    p.index = index;
    p.ref = ref;
    if (!read_rect(f, in.media, p.media_box)) p.media_box = Rect{0, 0, 612, 792};
    Rect crop;
    if (read_rect(f, in.crop, crop)) {
        crop.llx = std::max(crop.llx, p.media_box.llx);
        crop.lly = std::max(crop.lly, p.media_box.lly);
        crop.urx = std::min(crop.urx, p.media_box.urx);
        crop.ury = std::min(crop.ury, p.media_box.ury);
        p.crop_box = (crop.urx > crop.llx && crop.ury > crop.lly) ? crop : p.media_box;
    } else {
        p.crop_box = p.media_box;
    }
    long long rot = 0;
    if (in.rotate && (in.rotate->IsNumber() || in.rotate->IsReal()))
        rot = static_cast<long long>(std::llround(number_value(*in.rotate)));
    rot = ((rot % 360) + 360) % 360;
    p.rotate = static_cast<int>(rot - rot % 90);
    if (in.resources && in.resources->IsDictionary()) {
        p.resources = *in.resources;
        p.resources_owner = in.resources_owner;
        p.resources_from = in.resources_own ? ResourcesFrom::Own : ResourcesFrom::Inherited;
    }
    return p;
}

bool is_pages_node(const PdfObject& o) {
    if (!o.IsDictionary()) return false;
    const PdfObject* t = o.GetDictionary().GetKey("Type");
    if (is_name(t, "Pages")) return true;
    if (is_name(t, "Page")) return false;
    return o.GetDictionary().GetKey("Kids") != nullptr;
}

std::int64_t node_count(File& f, const PdfObject& node) {
    const PdfObject* c = f.get_key(node.GetDictionary(), "Count");
    if (!c || !c->IsNumber()) return -1;
    return c->GetNumber();
}

PdfReference pages_root(File& f, const PdfObject** root) {
    const PdfObject* p = f.catalog().GetDictionary().GetKey("Pages");
    if (!p) throw Error(f.name() + ": document has no page tree (/Pages)", err::pdf_syntax);
    PdfReference ref = p->IsReference() ? p->GetReference() : PdfReference();
    const PdfObject& r = f.resolve(*p);
    if (!r.IsDictionary()) throw Error(f.name() + ": /Pages is not a dictionary", err::pdf_syntax);
    *root = &r;
    return ref;
}

// Viewers take the number of pages from the root's /Count: without one (or with one that is no
// number), poppler, MuPDF and qpdf show no page at all, whatever /Kids lists. So does pith: it
// must not stamp or read a page nobody sees.
bool root_counts_pages(File& f, const PdfObject& root) {
    const PdfObject* c = f.get_key(root.GetDictionary(), "Count");
    if (c && (c->IsNumber() || c->IsReal())) return true;
    f.add_defect("the page tree's root has no /Count: viewers show no page");
    return false;
}

// A kid that cannot be read as a page or a node (missing, or in a broken object stream): readers
// skip it or read something else there, so the pages after it are numbered differently.
void note_not_a_node(File& f, const PdfReference& ref) {
    f.add_defect("the page tree lists object " + std::to_string(ref.ObjectNumber()) + ", which is no page or node");
}

// Full depth-first traversal (used when /Count cannot be trusted). Calls
// visit(index, ref, inherited) for each leaf; stops when visit returns true.
template <typename Visit>
bool traverse(File& f, const PdfObject& node, const PdfReference& ref, Inherited in, int depth,
              std::set<std::uint32_t>& seen, int& index, Visit&& visit) {
    if (depth > kMaxTreeDepth) {
        f.add_defect("the page tree is more than " + std::to_string(kMaxTreeDepth) + " levels deep");
        throw Error(f.name() + ": page tree is too deep", err::pdf_syntax);
    }
    if (!is_pages_node(node)) {
        collect(f, node, ref, in, true);
        return visit(index++, ref, in);
    }
    collect(f, node, ref, in, false);
    const PdfObject* kids = f.get_key(node.GetDictionary(), "Kids");
    if (!kids || !kids->IsArray()) return false;
    for (const PdfObject& k : kids->GetArray()) {
        if (!k.IsReference()) continue;
        if (!seen.insert(k.GetReference().ObjectNumber()).second) {
            f.add_defect("the page tree reaches object " + std::to_string(k.GetReference().ObjectNumber()) +
                         " twice (a loop or a shared node)");
            continue;
        }
        const PdfObject& kid = f.resolve(k);
        if (!kid.IsDictionary()) {
            note_not_a_node(f, k.GetReference());
            continue;
        }
        if (traverse(f, kid, k.GetReference(), in, depth + 1, seen, index, visit)) return true;
    }
    return false;
}

// Walks down the page tree taking the last kid each time, recording a loop as damage: with
// page(0), which walks down the first kids, both edges of the tree are checked for the
// price of a few objects.
void check_last_branch(File& f, const PdfObject& root, const PdfReference& root_ref) {
    std::set<std::uint32_t> path = {root_ref.ObjectNumber()};
    const PdfObject* node = &root;
    for (int depth = 0; depth <= kMaxTreeDepth && is_pages_node(*node); ++depth) {
        const PdfObject* kids = f.get_key(node->GetDictionary(), "Kids");
        if (!kids || !kids->IsArray() || kids->GetArray().empty() || !kids->GetArray().back().IsReference()) return;
        const PdfReference last = kids->GetArray().back().GetReference();
        if (!path.insert(last.ObjectNumber()).second) {
            f.add_defect("the page tree reaches object " + std::to_string(last.ObjectNumber()) +
                         " twice (a loop or a shared node)");
            return;
        }
        node = &f.resolve(kids->GetArray().back());
        if (!node->IsDictionary()) return;
    }
}

// Loops and shared nodes that show without loading anything: a kid that is an ancestor
// (in `path`), or a kid listed twice.
void note_repeated_kids(File& f, const PdfArray& kids, const std::set<std::uint32_t>& path) {
    std::vector<std::uint32_t> kid_numbers;
    for (const PdfObject& k : kids)
        if (k.IsReference()) kid_numbers.push_back(k.GetReference().ObjectNumber());
    std::sort(kid_numbers.begin(), kid_numbers.end());
    for (std::size_t i = 0; i < kid_numbers.size(); ++i)
        if (path.count(kid_numbers[i]) || (i > 0 && kid_numbers[i] == kid_numbers[i - 1]))
            f.add_defect("the page tree reaches object " + std::to_string(kid_numbers[i]) +
                         " twice (a loop or a shared node)");
}

// Whether the Pages node `node` holds a page anywhere below it (nodes in `seen` not entered).
bool holds_page(File& f, const PdfObject& node, int depth, std::set<std::uint32_t>& seen) {
    const PdfObject* kids = depth <= kMaxTreeDepth ? f.get_key(node.GetDictionary(), "Kids") : nullptr;
    if (!kids || !kids->IsArray()) return false;
    for (const PdfObject& k : kids->GetArray()) {
        if (!k.IsReference() || !seen.insert(k.GetReference().ObjectNumber()).second) continue;
        const PdfObject& kid = f.resolve(k);
        if (kid.IsDictionary() && (!is_pages_node(kid) || holds_page(f, kid, depth + 1, seen))) return true;
    }
    return false;
}

// A kid that says /Count 0 is skipped on the way down, as MuPDF does; poppler walks /Kids and
// shows the pages such a node holds, so the two number the pages differently.
void note_uncounted_pages(File& f, const PdfObject& kid, const PdfReference& ref, int depth, const std::set<std::uint32_t>& path) {
    std::set<std::uint32_t> seen = path;
    seen.insert(ref.ObjectNumber());
    if (holds_page(f, kid, depth, seen))
        f.add_ambiguity("the page tree's node " + std::to_string(ref.ObjectNumber()) +
                        " says /Count 0 but holds pages, which some viewers show and others skip");
}

// The fast path to page `index`: down from `node` by the kids' /Count, loading one branch.
// Nothing when /Count cannot lead there (missing, wrong, a loop): then the caller traverses.
std::optional<Page> descend(File& f, const PdfObject* node, PdfReference ref, int index) {
    Inherited in;
    std::set<std::uint32_t> path;
    if (ref.ObjectNumber()) path.insert(ref.ObjectNumber());
    std::int64_t left = index;
    for (int depth = 0; depth <= kMaxTreeDepth; ++depth) {
        if (!is_pages_node(*node)) {
            if (left != 0) return std::nullopt;
            collect(f, *node, ref, in, true);
            return make_page(f, index, ref, in);
        }
        collect(f, *node, ref, in, false);
        const PdfObject* kids = f.get_key(node->GetDictionary(), "Kids");
        if (!kids || !kids->IsArray()) return std::nullopt;
        note_repeated_kids(f, kids->GetArray(), path);
        const PdfObject* next = nullptr;
        for (const PdfObject& k : kids->GetArray()) {
            if (!k.IsReference()) continue;
            const PdfObject& kid = f.resolve(k);
            if (!kid.IsDictionary()) {
                note_not_a_node(f, k.GetReference());
                continue;
            }
            std::int64_t cnt = is_pages_node(kid) ? node_count(f, kid) : 1;
            if (cnt < 0) return std::nullopt;
            if (cnt == 0) note_uncounted_pages(f, kid, k.GetReference(), depth + 1, path);
            if (left < cnt) {
                if (!path.insert(k.GetReference().ObjectNumber()).second) return std::nullopt;  // loop
                next = &kid;
                ref = k.GetReference();
                break;
            }
            left -= cnt;
        }
        if (!next) return std::nullopt;
        node = next;
    }
    return std::nullopt;
}

}  // namespace

bool read_rect(File& f, const PdfObject* o, Rect& r) {
    if (!o || !o->IsArray() || o->GetArray().size() != 4) return false;
    double v[4];
    for (int i = 0; i < 4; ++i) {
        const PdfObject& e = f.resolve(o->GetArray()[i]);
        if (!e.IsNumber() && !e.IsReal()) return false;
        v[i] = number_value(e);
        if (!std::isfinite(v[i])) return false;
    }
    r.llx = std::min(v[0], v[2]);
    r.urx = std::max(v[0], v[2]);
    r.lly = std::min(v[1], v[3]);
    r.ury = std::max(v[1], v[3]);
    return true;
}

int File::page_count() {
    if (impl_->all_pages) return static_cast<int>(impl_->all_pages->size());
    const PdfObject* root;
    const PdfObject* pages = catalog().GetDictionary().GetKey("Pages");
    if (!pages || !resolve(*pages).IsDictionary()) {
        impl_->defect("document has no usable page tree (/Pages): 0 pages");
        return 0;
    }
    PdfReference rref = pages_root(*this, &root);
    if (!root_counts_pages(*this, *root)) return 0;
    std::int64_t c = node_count(*this, *root);
    if (c >= 0 && c <= 10000000) {
        // Trust /Count if the first page can be reached through it (reaching the last one
        // by /Count would load every leaf of a flat tree: thousands of objects for nothing),
        // and the way down along the last kids ends at a page without a loop.
        if (c == 0) return 0;
        try {
            page(0);
            check_last_branch(*this, *root, rref);
            return static_cast<int>(c);
        } catch (const Error&) {
        }
    }
    std::set<std::uint32_t> seen;
    if (rref.ObjectNumber()) seen.insert(rref.ObjectNumber());
    int index = 0;
    traverse(*this, *root, rref, Inherited{}, 0, seen, index, [](int, const PdfReference&, const Inherited&) { return false; });
    return index;
}

Page File::page(int index) {
    if (index < 0) throw Error(name() + ": page index out of range", err::options_invalid);
    if (impl_->all_pages) {
        if (static_cast<std::size_t>(index) >= impl_->all_pages->size())
            throw Error(name() + ": page " + std::to_string(index + 1) + " does not exist", err::options_invalid);
        return (*impl_->all_pages)[static_cast<std::size_t>(index)];
    }
    const PdfObject* root;
    PdfReference rref = pages_root(*this, &root);
    if (!root_counts_pages(*this, *root))
        throw Error(name() + ": page " + std::to_string(index + 1) + " does not exist", err::options_invalid);
    if (auto read = impl_->pages_read.find(index); read != impl_->pages_read.end()) return read->second;
    // A caller walking many pages: one full traversal instead of a descent per page.
    if (impl_->pages_read.size() >= 8) {
        std::vector<Page> pages;
        std::set<std::uint32_t> seen;
        if (rref.ObjectNumber()) seen.insert(rref.ObjectNumber());
        int i = 0;
        traverse(*this, *root, rref, Inherited{}, 0, seen, i, [&](int idx, const PdfReference& ref, const Inherited& in) {
            if (pages.size() >= 10000000) throw Error(name() + ": too many pages", err::pdf_too_large);
            pages.push_back(make_page(*this, idx, ref, in));
            return false;
        });
        impl_->all_pages = std::move(pages);
        return page(index);
    }
    if (std::optional<Page> p = descend(*this, root, rref, index)) return impl_->pages_read[index] = *p;
    // Slow path: full traversal with loop protection.
    std::set<std::uint32_t> seen;
    if (rref.ObjectNumber()) seen.insert(rref.ObjectNumber());
    int i = 0;
    Page result;
    bool found = traverse(*this, *root, rref, Inherited{}, 0, seen, i,
                          [&](int idx, const PdfReference& ref, const Inherited& in) {
                              if (idx != index) return false;
                              result = make_page(*this, index, ref, in);
                              return true;
                          });
    if (!found) throw Error(name() + ": page " + std::to_string(index + 1) + " does not exist", err::options_invalid);
    return impl_->pages_read[index] = result;
}

const std::string& File::page_content(const Page& page) {
    auto& last = impl_->last_page_content;
    if (last.clean && last.page == page.ref.ObjectNumber()) return last.bytes;
    last = {page.ref.ObjectNumber(), true, {}, std::nullopt};
    const PdfObject& node = get(page.ref);
    const PdfObject* c = node.IsDictionary() ? node.GetDictionary().GetKey("Contents") : nullptr;
    if (!c) return last.bytes;
    std::vector<const PdfObject*> parts;
    const PdfObject& resolved = resolve(*c);
    if (resolved.IsArray()) {
        for (const PdfObject& item : resolved.GetArray()) parts.push_back(&item);
    } else {
        parts.push_back(c);
    }
    std::vector<std::string> decoded;
    for (const PdfObject* part : parts) {
        if (!part->IsReference() || !is_stream(part->GetReference())) continue;
        try {
            decoded.push_back(stream_decoded(part->GetReference()));
        } catch (const Error& e) {
            last.clean = false;  // read (and recorded) again when asked again
            const bool too_large = dynamic_cast<const TooLarge*>(&e) != nullptr;  // say why: it decides the error code
            add_defect("page " + std::to_string(page.index + 1) + ": content stream " +
                       std::to_string(part->GetReference().ObjectNumber()) + " cannot be decoded" +
                       (too_large ? std::string(" (") + err::pdf_too_large + ": " + e.what() + ")" : ""));  // a defect has no code of its own
        }
    }
    if (decoded.empty()) return last.bytes;
    // Joined around the largest part, which is moved, not copied: a stamped page is the
    // original content between pith's few bytes, and a fresh copy of megabytes of content
    // costs more in page faults than reading it.
    const auto largest = std::max_element(decoded.begin(), decoded.end(),
                                          [](const std::string& a, const std::string& b) { return a.size() < b.size(); });
    std::string before, after;
    for (auto it = decoded.begin(); it != largest; ++it) before += *it + '\n';
    for (auto it = largest + 1; it != decoded.end(); ++it) after += '\n' + *it;
    last.bytes = std::move(*largest);
    last.bytes.reserve(before.size() + last.bytes.size() + after.size());
    last.bytes.insert(0, before);
    last.bytes += after;
    return last.bytes;
}

void File::check_page(const Page& page) {
    if (!get(page.ref).IsDictionary()) return;
    if (const std::string& content = page_content(page); content.size() <= kMaxTokenizedContent) {
        auto& known = impl_->last_page_content.syntax_error;
        if (!known) {
            try {
                ContentLexer(content).check_syntax();
                known = "";
            } catch (const Error& e) {
                known = e.what();
            }
        }
        if (!known->empty()) add_defect("page " + std::to_string(page.index + 1) + ": content syntax error (" + *known + ")");
    }
    // The XObjects it draws: loading each records a bad /Length or a dangling reference. (Not
    // the fonts: their /Widths and /W arrays can cost more to parse than the rest of a stamp.)
    if (page.resources.IsDictionary()) {
        const PdfObject* xobjects = get_key(page.resources.GetDictionary(), "XObject");
        if (xobjects && xobjects->IsDictionary())
            for (const auto& [name, value] : xobjects->GetDictionary().GetKeys())
                if (value->IsReference()) is_stream(value->GetReference());
    }
    // A linearization dictionary (the file's first object) names the first page.
    if (page.index == 0) {
        const std::string_view head = bytes().substr(header_offset(), 1024);
        const std::size_t obj = head.find(" 0 obj");
        if (obj != std::string_view::npos && head.find("/Linearized", obj) != std::string_view::npos) {
            std::size_t start = obj;
            while (start > 0 && head[start - 1] >= '0' && head[start - 1] <= '9') --start;
            const PdfObject& lin = get(PdfReference(static_cast<std::uint32_t>(std::strtoul(head.data() + start, nullptr, 10)), 0));
            const PdfObject* first = lin.IsDictionary() ? lin.GetDictionary().GetKey("O") : nullptr;
            if (first && first->IsNumber() && first->GetNumber() != static_cast<pdf_int64>(page.ref.ObjectNumber()))
                add_defect("the linearization dictionary names object " + std::to_string(first->GetNumber()) +
                           " as page 1, which is object " + std::to_string(page.ref.ObjectNumber()));
        }
    }
}

// ---------------------------------------------------------------- preflight

namespace {

// Form XObject draws of one content stream and of the forms it draws, each form's count
// worked out once (by object number): a form drawing sixteen forms that each draw sixteen
// more is counted, not walked.
class FormDraws {
public:
    FormDraws(File& file, Budget& budget) : file_(file), budget_(budget) {}

    std::size_t of_content(const std::string& content, const PdfObject* resources) {
        std::size_t draws = 0;
        ContentLexer lexer(content);
        std::string_view op;
        std::vector<Operand> operands;
        try {
            while (lexer.next_operator(op)) {
                if (op != "Do") continue;
                lexer.operands(operands);
                if (operands.size() != 1 || operands[0].kind != Operand::Name) continue;
                const PdfReference* form = named_form(resources, operands[0].bytes);
                if (!form) continue;
                draws += 1 + of_form(*form, resources);
                budget_.form_draws(draws);
            }
        } catch (const TooLarge&) {
            throw;
        } catch (const Error&) {
            // a syntax error ends the content for a reader too
        }
        return draws;
    }

private:
    const PdfReference* named_form(const PdfObject* resources, const std::string& name) {
        const PdfObject* xobjects = resources && resources->IsDictionary() ? file_.get_key(resources->GetDictionary(), "XObject") : nullptr;
        const PdfObject* entry = xobjects && xobjects->IsDictionary() ? xobjects->GetDictionary().GetKey(PdfName(name)) : nullptr;
        if (!entry || !entry->IsReference() || !file_.is_stream(entry->GetReference())) return nullptr;
        const PdfObject* subtype = file_.get_key(file_.get(entry->GetReference()).GetDictionary(), "Subtype");
        return subtype && subtype->IsName() && subtype->GetName() == PdfName("Form") ? &entry->GetReference() : nullptr;
    }

    std::size_t of_form(const PdfReference& ref, const PdfObject* resources) {
        const std::uint32_t num = ref.ObjectNumber();
        if (auto known = counted_.find(num); known != counted_.end()) return known->second;
        if (!drawing_.insert(num).second) budget_.form_draws(std::size_t(-1));  // draws itself: no end
        std::string content;
        try {
            content = file_.stream_decoded(ref);
        } catch (const TooLarge&) {
            throw;
        } catch (const Error&) {
        }
        const PdfObject* own = file_.get_key(file_.get(ref).GetDictionary(), "Resources");
        const std::size_t draws = of_content(content, own ? own : resources);
        drawing_.erase(num);
        counted_[num] = draws;
        return draws;
    }

    File& file_;
    Budget& budget_;
    std::map<std::uint32_t, std::size_t> counted_;
    std::set<std::uint32_t> drawing_;
};

}  // namespace

void File::preflight_page(const Page& page) {
    Budget& budget = *impl_->budget;
    // A best-effort read: the fonts and forms it reads, nothing else needs, and
    // their damage must not make the file refused (a wrong /Length of a ToUnicode map, say).
    struct Forget {
        File& file;
        std::size_t count;
        ~Forget() { file.forget_defects_since(count); }
    } forget{*this, defects().size()};
    const std::string content = page_content(page);
    const PdfObject* resources = page.resources.IsDictionary() ? &page.resources : nullptr;
    FormDraws(*this, budget).of_content(content, resources);
    const PdfObject* fonts = resources ? get_key(resources->GetDictionary(), "Font") : nullptr;
    if (!fonts || !fonts->IsDictionary()) return;
    for (const auto& [name, font] : fonts->GetDictionary().GetKeys()) {
        const PdfObject& f = resolve(*font);
        const PdfObject* map = f.IsDictionary() ? f.GetDictionary().GetKey("ToUnicode") : nullptr;
        if (!map || !map->IsReference() || !is_stream(map->GetReference())) continue;
        try {
            budget.decoded(stream_decoded_shared(map->GetReference())->size());
        } catch (const TooLarge&) {
            throw;
        } catch (const Error&) {
            // an undecodable map: the reader does without it
        }
    }
}

}  // namespace pith::pdf
