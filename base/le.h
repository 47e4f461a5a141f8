// base/le.h — unaligned little-endian integers in byte buffers: the one helper behind the
// capture format (runtime/), the ETW filter blobs (etw/) and the trace namespace's files
// (trace/). pfc's hosts are little-endian, so the typed forms are a memcpy; the byte-count
// forms read and write the low `bytes` bytes (1–8) of a value.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace pfc {

static_assert(std::endian::native == std::endian::little,
              "pfc's formats assume a little-endian host");

template <typename T>
requires std::is_trivially_copyable_v<T> T load_le(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename T>
requires std::is_trivially_copyable_v<T>
void store_le(uint8_t* p, T v) { std::memcpy(p, &v, sizeof v); }

// `out[at, at + sizeof(T))` must exist.
template <typename T>
requires std::is_trivially_copyable_v<T>
void store_le(std::vector<uint8_t>& out, size_t at, T v) { store_le(out.data() + at, v); }

template <typename T>
requires std::is_trivially_copyable_v<T>
void append_le(std::vector<uint8_t>& out, T v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  out.insert(out.end(), p, p + sizeof v);
}

// The low `bytes` bytes at `p`, zero-extended.
inline uint64_t load_le(const uint8_t* p, unsigned bytes) {
  uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i) v |= uint64_t{p[i]} << (8 * i);
  return v;
}

inline void store_le(uint8_t* p, uint64_t v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) p[i] = uint8_t(v >> (8 * i));
}

inline void append_le(std::vector<uint8_t>& out, uint64_t v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) out.push_back(uint8_t(v >> (8 * i)));
}

}  // namespace pfc
