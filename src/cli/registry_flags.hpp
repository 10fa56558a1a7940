// SPDX-License-Identifier: MIT
#pragma once
// The options every command that may go to the registry shares (fetch, keys add URL, stamp and
// tex --number/--arxiv, verify --online, batch manifests with "number"/"arxiv").
#include "core/record.hpp"
#include "registry/registry.hpp"

#include <CLI/CLI.hpp>

#include <string>

namespace pith::cli {

struct RegistryFlags {
    std::string registry;   // empty: $PITH_REGISTRY, else https://pith.science
    std::string cacert, cache_dir;
    bool offline = false, refresh = false;
    long timeout_s = 60, connect_timeout_s = 10;
    int retries = 3;
};
// `prefix` goes before timeout, connect-timeout and retries: pith batch has its own --timeout and
// --retries (per worker), so it passes "registry-".
void add_registry_flags(CLI::App* command, RegistryFlags& flags, const std::string& prefix = "");
// Only how a URL is fetched (--cacert, the time limits, --retries, --offline) and --cache-dir:
// for a command that fetches a URL it is given, not the registry's records (pith keys add).
void add_fetch_flags(CLI::App* command, RegistryFlags& flags);
registry::Options registry_options(const RegistryFlags& flags);

// The record `query` names (number, short alias or arxiv:ID), fetched and checked; exit status 1
// when the registry's answer is refused, 2 when it cannot be had.
Record fetch_record(const std::string& query, const RegistryFlags& flags, int& status);

}  // namespace pith::cli
