// pith-text.so: page text by poppler-cpp, loaded with dlopen() by pith::title::page_text()
// only when `pith verify` needs it, so that no other pith run pays for loading poppler.
#include <poppler/cpp/poppler-document.h>
#include <poppler/cpp/poppler-global.h>
#include <poppler/cpp/poppler-page.h>

#include <climits>
#include <cstddef>
#include <memory>
#include <string>

namespace {
void silence(const std::string&, void*) {}
}  // namespace

// The text of page `index` (0-based) goes to sink(context, utf8, size). Returns 1 when the
// page was laid out, 0 when poppler cannot open or unlock the file or the page does not exist.
extern "C" __attribute__((visibility("default"))) int pith_page_text(const char* pdf, std::size_t size, int index,
                                                                     const char* password,
                                                                     void (*sink)(void*, const char*, std::size_t),
                                                                     void* context) {
    poppler::set_debug_error_function(&silence, nullptr);
    if (index < 0 || size == 0 || size > static_cast<std::size_t>(INT_MAX)) return 0;
    try {
        std::unique_ptr<poppler::document> doc(
            poppler::document::load_from_raw_data(pdf, static_cast<int>(size), password, password));
        if (!doc || doc->is_locked() || index >= doc->pages()) return 0;
        std::unique_ptr<poppler::page> page(doc->create_page(index));
        if (!page) return 0;
        const poppler::byte_array utf8 =
            page->text(poppler::rectf(), poppler::page::non_raw_non_physical_layout).to_utf8();
        sink(context, utf8.data(), utf8.size());
        return 1;
    } catch (...) {
        return 0;
    }
}
