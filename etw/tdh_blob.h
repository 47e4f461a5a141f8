// etw/tdh_blob.h — the Windows layouts the TDH decoding functions return: a fixed head
// followed by NUL-terminated UTF-16 strings (TRACE_EVENT_INFO, EVENT_MAP_INFO,
// PROVIDER_ENUMERATION_INFO), and the sizing protocol that copies them out.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "base/utf8.h"
#include "etw/tdh_store.h"
#include "pfc/etw/tdh.h"

namespace pfc::etw {

// A fixed-layout head followed by NUL-terminated UTF-16 strings; offsets from its start.
class Blob {
 public:
  // `head` bytes, at least `min` (the C struct's own size, one array element included).
  Blob(size_t head, size_t min) : bytes_(std::max(head, min), 0) {}
  // Appends `text` (UTF-8); returns its offset, 0 for "".
  ULONG add(const std::string& text) {
    return text.empty() ? 0 : add_units(utf8_to_u16_lossy(text));
  }
  // Appends the units and a NUL; returns their offset.
  ULONG add_units(std::u16string_view units) {
    const size_t at = bytes_.size();
    bytes_.resize(at + (units.size() + 1) * 2, 0);
    std::memcpy(bytes_.data() + at, units.data(), units.size() * 2);
    return static_cast<ULONG>(at);
  }
  // Appends `n` raw bytes and a 0 byte when `n` is odd (strings after stay 2-aligned);
  // returns their offset.
  ULONG add_bytes(const void* p, size_t n) {
    const size_t at = bytes_.size();
    bytes_.resize(at + n + n % 2, 0);
    if (n != 0) std::memcpy(bytes_.data() + at, p, n);
    return static_cast<ULONG>(at);
  }
  // Appends one empty string (the end of a string list).
  void add_terminator() { bytes_.resize(bytes_.size() + 2, 0); }
  template <class T>
  void put(size_t at, const T& value) {
    std::memcpy(bytes_.data() + at, &value, sizeof(T));
  }
  std::vector<uint8_t> finish() { return std::move(bytes_); }

 private:
  std::vector<uint8_t> bytes_;
};

// The Windows sizing protocol: copies `bytes` when *size holds them, else reports the size.
inline ULONG copy_out(const std::vector<uint8_t>& bytes, void* buffer, ULONG* size) {
  const ULONG needed = static_cast<ULONG>(bytes.size());
  const bool fits = buffer != nullptr && *size >= needed;
  *size = needed;
  if (!fits) {
    return tdh_result(ERROR_INSUFFICIENT_BUFFER,
                      "the buffer is too small: " + std::to_string(needed) + " bytes needed");
  }
  std::memcpy(buffer, bytes.data(), needed);
  return tdh_result(ERROR_SUCCESS);
}

}  // namespace pfc::etw
