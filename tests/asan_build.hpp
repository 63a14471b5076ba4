#pragma once
// CORANK_TEST_ASAN is defined in a build under AddressSanitizer (GCC's and
// clang's ways of saying so), for tests whose measure it changes: resident
// memory, address-space limits.
#if defined(__SANITIZE_ADDRESS__)
#define CORANK_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CORANK_TEST_ASAN 1
#endif
#endif
