// SPDX-License-Identifier: MIT
#include "core/paths.hpp"

#include <cstdlib>

namespace pith::paths {

namespace {

std::optional<std::string> variable(const char* name) {
    const char* v = std::getenv(name);
    if (!v || !*v) return std::nullopt;
    return std::string(v);
}

// $xdg/pith, else $HOME/fallback/pith.
std::optional<std::string> user_dir(const char* xdg, const char* fallback) {
    if (const auto dir = variable(xdg)) return *dir + "/pith";
    if (const auto home = variable("HOME")) return *home + "/" + fallback + "/pith";
    return std::nullopt;
}

std::vector<std::string> config_files(const std::string& name) {
    std::vector<std::string> out;
    if (const auto dir = user_dir("XDG_CONFIG_HOME", ".config")) out.push_back(*dir + "/" + name);
    out.push_back("/etc/pith/" + name);
    return out;
}

}  // namespace

std::optional<std::string> user_keyring() {
    const auto dir = user_dir("XDG_CONFIG_HOME", ".config");
    if (!dir) return std::nullopt;
    return *dir + "/keyring.json";
}

std::vector<std::string> keyrings() { return config_files("keyring.json"); }
std::vector<std::string> trust_stores() { return config_files("trust.pem"); }
std::optional<std::string> cache_dir() { return user_dir("XDG_CACHE_HOME", ".cache"); }

std::optional<std::vector<std::string>> list_from(const char* name) {
    const auto list = variable(name);
    if (!list) return std::nullopt;
    std::vector<std::string> out;
    for (std::size_t start = 0; start <= list->size();) {
        std::size_t end = list->find(':', start);
        if (end == std::string::npos) end = list->size();
        if (end > start) out.push_back(list->substr(start, end - start));
        start = end + 1;
    }
    return out;
}

}  // namespace pith::paths
