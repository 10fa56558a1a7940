#include "verify/text_module.hpp"

#include "core/error.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <string>

namespace pith::text_module {

namespace {

std::string executable_dir() {
    char path[PATH_MAX];
    ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0) return ".";
    std::string p(path, static_cast<std::size_t>(n));
    return p.substr(0, p.rfind('/'));
}

}  // namespace

void* symbol(const char* name) {
    const std::string dir = executable_dir();
    std::string tried;
    for (const std::string& path : {dir + "/pith-text.so", dir + "/" PITH_TEXT_MODULE_FROM_BINDIR}) {
        // A second dlopen() of a loaded module only counts a reference: no cache needed.
        if (void* module = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
            if (void* fn = ::dlsym(module, name)) return fn;
        }
        const char* why = ::dlerror();
        tried += (tried.empty() ? "" : "; ") + (why ? std::string(why) : path);
    }
    throw Error(std::string("cannot load pith's text module (pith-text.so): ") + tried);
}

}  // namespace pith::text_module
