// SPDX-License-Identifier: MIT
#include "page/poppler_module.hpp"

#include "core/error.hpp"
#include "core/platform.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <string>

namespace pith::page::poppler_module {

void* symbol(const char* name, const char* module) {
    std::string dir = platform::executable_dir();
    if (dir.empty()) dir = ".";
    std::string installed = PITH_TEXT_MODULE_FROM_BINDIR;  // pith's modules are installed side by side
    installed = installed.substr(0, installed.rfind('/') + 1) + module;
    std::string tried;
    for (const std::string& path : {dir + "/" + module, dir + "/" + installed}) {
        // A second dlopen() of a loaded module only counts a reference: no cache needed.
        if (void* module = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
            if (void* fn = ::dlsym(module, name)) return fn;
        }
        const char* why = ::dlerror();
        tried += (tried.empty() ? "" : "; ") + (why ? std::string(why) : path);
    }
    const std::string what = std::string(module) == "pith-text.so" ? "text" : "OCR";
    throw Error("cannot load pith's " + what + " module (" + module + "): " + tried, err::install_incomplete);
}

}  // namespace pith::page::poppler_module
