// base/etw_types.cc — see etw_types.h.
#include "base/etw_types.h"

#include <sys/random.h>

#include <cerrno>
#include <cstdint>
#include <random>

namespace pfc {

GUID random_guid() {
  uint8_t b[16];
  if (getrandom(b, sizeof b, 0) != static_cast<ssize_t>(sizeof b)) {
    thread_local std::mt19937_64 fallback{std::random_device{}()};
    for (uint8_t& x : b) x = static_cast<uint8_t>(fallback());
  }
  b[7] = static_cast<uint8_t>((b[7] & 0x0F) | 0x40);  // version 4 (Data3's high nibble)
  b[8] = static_cast<uint8_t>((b[8] & 0x3F) | 0x80);  // RFC 4122 variant
  GUID g;
  std::memcpy(&g, b, sizeof g);
  return g;
}

std::string etw_error_text(ULONG rc) {
  if (rc == ERROR_DISK_FULL) return std::strerror(ENOSPC);
  return "error " + std::to_string(rc);
}

}  // namespace pfc
