// SPDX-License-Identifier: MIT
// poppler's side of reader_diff: the page objects poppler's core reads, in page order. Kept
// apart from pith's side so that poppler's headers (Object, Ref, Dict in the global namespace)
// and PoDoFo's never meet in one translation unit.
#include "reader_diff.hpp"

#include <poppler/Catalog.h>
#include <poppler/Error.h>
#include <poppler/GlobalParams.h>
#include <poppler/PDFDoc.h>
#include <poppler/Stream.h>

#include <climits>
#include <memory>
#include <optional>

namespace {
void silence(ErrorCategory, Goffset, const char*) {}
}  // namespace

// Opened the way src/poppler/page_text_module.cpp opens a file (from memory, the password as
// user and owner password), so that this is the reader verify's child uses.
Pages poppler_pages(const std::string& bytes, const std::string& password) {
    if (!globalParams) globalParams = std::make_unique<GlobalParams>();
    setErrorCallback(&silence);
    Pages out;
    if (bytes.empty() || bytes.size() > static_cast<std::size_t>(INT_MAX)) {
        out.error = "empty or too large";
        return out;
    }
    const std::optional<GooString> pw = password.empty() ? std::nullopt : std::optional<GooString>(GooString(password));
    PDFDoc doc(new MemStream(bytes.data(), 0, static_cast<Goffset>(bytes.size()), Object(objNull)), pw, pw);
    if (!doc.isOk()) {
        out.error = "poppler error " + std::to_string(doc.getErrorCode());
        return out;
    }
    const int n = doc.getNumPages();
    for (int i = 1; i <= n; ++i) {
        const Ref* ref = doc.getCatalog()->getPageRef(i);
        out.refs.push_back(ref ? PageRef{ref->num, ref->gen} : PageRef{-1, -1});
    }
    return out;
}
