// tests/tdh/payload_builder.h — builds raw little-endian payloads for the TDH tests, and
// copies them into exactly-sized heap buffers so that ASan flags any read past the end.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pfc::testing {

struct Payload {
  std::vector<uint8_t> bytes;

  Payload& u8(uint64_t v) { return put(v, 1); }
  Payload& u16(uint64_t v) { return put(v, 2); }
  Payload& u32(uint64_t v) { return put(v, 4); }
  Payload& u64(uint64_t v) { return put(v, 8); }
  Payload& put(uint64_t v, int width) {
    for (int i = 0; i < width; ++i) bytes.push_back(static_cast<uint8_t>(v >> (8 * i)));
    return *this;
  }
  // UTF-16LE code units, then a 0x0000 terminator when `terminate`.
  Payload& wstr(const std::u16string& s, bool terminate = true) {
    for (char16_t c : s) u16(c);
    if (terminate) u16(0);
    return *this;
  }
  // Raw bytes, then a 0x00 terminator when `terminate`.
  Payload& str(const std::string& s, bool terminate = true) {
    for (char c : s) bytes.push_back(static_cast<uint8_t>(c));
    if (terminate) bytes.push_back(0);
    return *this;
  }
  Payload& raw(std::initializer_list<uint8_t> b) {
    bytes.insert(bytes.end(), b);
    return *this;
  }
  uint64_t size() const { return bytes.size(); }
};

// A heap copy of the first `n` bytes (a fresh allocation of exactly n bytes, so any read
// past it is a heap-buffer-overflow under ASan). n == 0 yields a null pointer.
inline std::unique_ptr<uint8_t[]> exact_copy(const std::vector<uint8_t>& bytes, size_t n) {
  if (n == 0) return nullptr;
  auto p = std::make_unique<uint8_t[]>(n);
  for (size_t i = 0; i < n; ++i) p[i] = bytes[i];
  return p;
}

}  // namespace pfc::testing
