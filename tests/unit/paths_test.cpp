// SPDX-License-Identifier: MIT
// core/paths: where the keyring, the trust store and the cache live, by the environment.
#include "core/paths.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace {

// Sets (or unsets, with nullopt) the variables for a test and puts them back after it.
class Environment {
public:
    Environment() {
        for (const char* name : kNames)
            if (const char* v = std::getenv(name)) saved_.emplace_back(name, v);
            else saved_.emplace_back(name, std::nullopt);
    }
    ~Environment() {
        for (const auto& [name, value] : saved_) set(name, value);
    }
    static void set(const char* name, const std::optional<std::string>& value) {
        if (value) ::setenv(name, value->c_str(), 1);
        else ::unsetenv(name);
    }

private:
    static constexpr const char* kNames[] = {"HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "PITH_KEYRING"};
    std::vector<std::pair<const char*, std::optional<std::string>>> saved_;
};

using V = std::vector<std::string>;

}  // namespace

TEST_CASE("paths: the XDG variables win over HOME", "[paths]") {
    Environment env;
    env.set("HOME", "/home/a");
    env.set("XDG_CONFIG_HOME", "/x/config");
    env.set("XDG_CACHE_HOME", "/x/cache");
    CHECK(pith::paths::user_keyring() == "/x/config/pith/keyring.json");
    CHECK(pith::paths::keyrings() == V{"/x/config/pith/keyring.json", "/etc/pith/keyring.json"});
    CHECK(pith::paths::trust_stores() == V{"/x/config/pith/trust.pem", "/etc/pith/trust.pem"});
    CHECK(pith::paths::cache_dir() == "/x/cache/pith");
}

TEST_CASE("paths: without XDG variables (or with them empty), HOME's .config and .cache", "[paths]") {
    Environment env;
    env.set("HOME", "/home/a");
    env.set("XDG_CONFIG_HOME", std::nullopt);
    env.set("XDG_CACHE_HOME", "");
    CHECK(pith::paths::user_keyring() == "/home/a/.config/pith/keyring.json");
    CHECK(pith::paths::keyrings() == V{"/home/a/.config/pith/keyring.json", "/etc/pith/keyring.json"});
    CHECK(pith::paths::trust_stores() == V{"/home/a/.config/pith/trust.pem", "/etc/pith/trust.pem"});
    CHECK(pith::paths::cache_dir() == "/home/a/.cache/pith");
}

TEST_CASE("paths: neither XDG nor HOME leaves the system's files only", "[paths]") {
    Environment env;
    env.set("HOME", std::nullopt);
    env.set("XDG_CONFIG_HOME", std::nullopt);
    env.set("XDG_CACHE_HOME", std::nullopt);
    CHECK_FALSE(pith::paths::user_keyring());
    CHECK(pith::paths::keyrings() == V{"/etc/pith/keyring.json"});
    CHECK(pith::paths::trust_stores() == V{"/etc/pith/trust.pem"});
    CHECK_FALSE(pith::paths::cache_dir());
    SECTION("an XDG variable alone is enough") {
        env.set("XDG_CACHE_HOME", "/c");
        CHECK(pith::paths::cache_dir() == "/c/pith");
        CHECK_FALSE(pith::paths::user_keyring());
    }
}

TEST_CASE("paths: a colon list in the environment", "[paths]") {
    Environment env;
    env.set("PITH_KEYRING", std::nullopt);
    CHECK_FALSE(pith::paths::list_from("PITH_KEYRING"));
    env.set("PITH_KEYRING", "");
    CHECK_FALSE(pith::paths::list_from("PITH_KEYRING"));
    env.set("PITH_KEYRING", "/a.json::/b c.json:");
    CHECK(pith::paths::list_from("PITH_KEYRING") == V{"/a.json", "/b c.json"});
    env.set("PITH_KEYRING", ":");
    CHECK(pith::paths::list_from("PITH_KEYRING") == V{});  // set: no default files, and none listed
}
