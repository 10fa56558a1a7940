// SPDX-License-Identifier: MIT
#include "verify/poppler_module.hpp"

#include "core/error.hpp"
#include "core/platform.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <string>

namespace pith::poppler_module {

void* symbol(const char* name) {
    std::string dir = platform::executable_dir();
    if (dir.empty()) dir = ".";
    std::string tried;
    for (const std::string& path : {dir + "/pith-text.so", dir + "/" PITH_TEXT_MODULE_FROM_BINDIR}) {
        // A second dlopen() of a loaded module only counts a reference: no cache needed.
        if (void* module = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
            if (void* fn = ::dlsym(module, name)) return fn;
        }
        const char* why = ::dlerror();
        tried += (tried.empty() ? "" : "; ") + (why ? std::string(why) : path);
    }
    throw Error(std::string("cannot load pith's text module (pith-text.so): ") + tried, err::install_incomplete);
}

}  // namespace pith::poppler_module
