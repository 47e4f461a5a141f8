// trace/testpoint.cc — see testpoint.h.
#include "trace/testpoint.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

#ifdef PFC_TESTPOINTS
namespace pfc::trace::testpoint_detail {
namespace {

struct Target {
  std::string name;
  long count = 1;
};

const Target* target() {
  static const Target* t = []() -> const Target* {
    const char* spec = std::getenv("PFC_TEST_CRASH_AT");
    if (spec == nullptr || *spec == '\0') return nullptr;
    auto* out = new Target;
    const char* colon = std::strchr(spec, ':');
    out->name = colon != nullptr ? std::string(spec, colon) : std::string(spec);
    if (colon != nullptr) out->count = std::max(1L, std::strtol(colon + 1, nullptr, 10));
    return out;
  }();
  return t;
}

std::atomic<long> hits{0};

}  // namespace

bool armed() { return target() != nullptr; }

void reach(const char* name) {
  const Target* t = target();
  if (t == nullptr || t->name != name) return;
  if (hits.fetch_add(1) + 1 == t->count) ::kill(::getpid(), SIGKILL);
}

}  // namespace pfc::trace::testpoint_detail
#endif
