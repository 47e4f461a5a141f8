// tests/sanitizer.h — whether this test binary is built with a sanitizer (the asan-ubsan
// and tsan presets), for the few tests whose bounds cannot hold there: shadow memory
// multiplies the resident set and reserves terabytes of address space, and instrumented
// code runs several times slower. Those tests scale their bounds by the factors below, or
// skip with a reason when the measurement itself is impossible (an address-space cap).
#pragma once

namespace pfc::test {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

// Resident-set bounds are multiplied by this in sanitizer builds.
inline constexpr long kMemoryFactor = kSanitized ? 8 : 1;
// Wall-time bounds that guard against super-linear algorithms (not benchmarks) are
// multiplied by this in sanitizer builds (Debug and instrumented: about 20× slower).
inline constexpr double kSlowFactor = kSanitized ? 25.0 : 1.0;

}  // namespace pfc::test
