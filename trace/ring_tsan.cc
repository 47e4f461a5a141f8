// trace/ring_tsan.cc — see ring_tsan.h (compiled to nothing outside TSan builds).
#include "trace/ring_tsan.h"

#ifdef PFC_RING_TSAN
#include <sanitizer/tsan_interface.h>

#include <map>
#include <mutex>
#include <utility>

namespace pfc::trace::ring_tsan {
namespace {

std::mutex& registry_mutex() {
  static std::mutex mu;
  return mu;
}

// (instance, salt) → the writer's mapping. Entries are never removed: a test process
// makes few rings, and a stale address only serves as a synchronisation key.
std::map<std::pair<uint64_t, uint32_t>, void*>& registry() {
  static std::map<std::pair<uint64_t, uint32_t>, void*> writers;
  return writers;
}

}  // namespace

void register_writer(uint64_t instance, uint32_t salt, void* base) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry()[{instance, salt}] = base;
}

void* writer_base(uint64_t instance, uint32_t salt) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  const auto it = registry().find({instance, salt});
  return it == registry().end() ? nullptr : it->second;
}

void acquire(void* address) { __tsan_acquire(address); }
void release(void* address) { __tsan_release(address); }

}  // namespace pfc::trace::ring_tsan
#endif
