// SPDX-License-Identifier: MIT
#pragma once
// pith-text.so, the module that holds poppler (see src/poppler/page_text_module.cpp), loaded on
// first use by pith::visible (page_words(), page_glance()) and pith::pixels.

namespace pith::page::poppler_module {

// The address of `name` in `module` (pith-text.so, or pith-ocr.so for Tesseract), found beside
// the executable (build tree) or beside PITH_TEXT_MODULE_FROM_BINDIR relative to it (installed).
// Loaded once per process. Throws pith::Error naming what was tried when the module or the
// symbol cannot be loaded.
void* symbol(const char* name, const char* module = "pith-text.so");

}  // namespace pith::page::poppler_module
