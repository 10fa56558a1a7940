// SPDX-License-Identifier: MIT
#pragma once
// PITH_ADDRESS_SANITIZER: defined when AddressSanitizer is on (GCC says so with
// __SANITIZE_ADDRESS__, clang with __has_feature). It reserves terabytes of address space, so
// no address-space limit (RLIMIT_AS) fits under it.
#if defined(__SANITIZE_ADDRESS__)
#define PITH_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PITH_ADDRESS_SANITIZER 1
#endif
#endif
