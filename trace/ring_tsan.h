// trace/ring_tsan.h — ThreadSanitizer's view of a ring whose writer and reader live in one
// process (tests). They map the ring file at two addresses, and TSan keys synchronisation
// by address: the chain writer commit (release) → reader takes the record (acquire) →
// reader publishes tail (release) → writer reads tail (acquire) → writer reuses the slot a
// lap later crosses the two mappings, so TSan would not see it and would report the reuse
// as a race. Under TSan a writer registers its mapping by the ring's identity, and a reader
// of the same ring in the same process repeats its acquires and releases on the writer's
// addresses. In other builds these are empty inline functions.
#pragma once

#include <cstdint>

#if defined(__SANITIZE_THREAD__)
#define PFC_RING_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PFC_RING_TSAN 1
#endif
#endif

namespace pfc::trace::ring_tsan {

#ifdef PFC_RING_TSAN
// The writer's mapping of the ring (instance, salt), whose header starts at `base`.
void register_writer(uint64_t instance, uint32_t salt, void* base);
// That mapping, for a reader of the same ring; nullptr when no writer here registered it.
void* writer_base(uint64_t instance, uint32_t salt);
void acquire(void* address);
void release(void* address);
#else
inline void register_writer(uint64_t, uint32_t, void*) {}
inline void* writer_base(uint64_t, uint32_t) { return nullptr; }
inline void acquire(void*) {}
inline void release(void*) {}
#endif

}  // namespace pfc::trace::ring_tsan
