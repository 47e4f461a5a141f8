// runtime/sha1.h — a small SHA-1 (FIPS 180-4) used only to derive provider GUIDs from
// names (Guid::from_provider_name). Not for security purposes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace pfc::internal {

// Incremental SHA-1. Not thread-safe per instance; instances are independent.
class Sha1 {
 public:
  Sha1();
  void update(const uint8_t* data, size_t size);
  // Finishes the hash; the object must not be updated afterwards.
  std::array<uint8_t, 20> finish();

 private:
  void block(const uint8_t* p);

  std::array<uint32_t, 5> h_;
  std::array<uint8_t, 64> buf_{};
  size_t buf_len_ = 0;
  uint64_t total_ = 0;  // bytes hashed so far
};

}  // namespace pfc::internal
