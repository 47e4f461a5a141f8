// runtime/capture.h — internal parts of the capture format (pfc/capture.h): little-endian
// byte access, the body checksum, and the field offsets of a record's fixed part.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace pfc::internal {

// Offsets inside the 48-byte fixed part of a record (docs/cli.md, "The capture format").
namespace capture_record {
inline constexpr uint32_t kPayloadSize = 0;  // u32
inline constexpr uint32_t kProvider = 4;     // u16
inline constexpr uint32_t kFlags = 6;        // u16, must be 0
inline constexpr uint32_t kDescriptor = 8;   // id u16, version, channel, level, opcode u8,
                                             // task u16, keyword u64 (16 bytes)
inline constexpr uint32_t kPid = 24;         // u32
inline constexpr uint32_t kTid = 28;         // u32
inline constexpr uint32_t kTimestamp = 32;   // u64
inline constexpr uint32_t kExe = 40;         // u32 string index or kCaptureNoExe
inline constexpr uint32_t kReserved = 44;    // u32, must be 0
}  // namespace capture_record

// Offsets inside the 40-byte header.
namespace capture_header {
inline constexpr uint32_t kMagic = 0;          // 8 bytes
inline constexpr uint32_t kVersion = 8;        // u16
inline constexpr uint32_t kHeaderSize = 10;    // u16
inline constexpr uint32_t kProviderCount = 12; // u32
inline constexpr uint32_t kStringCount = 16;   // u32
inline constexpr uint32_t kBodyCrc = 20;       // u32, CRC-32 of every byte after the header
inline constexpr uint32_t kRecordCount = 24;   // u64
inline constexpr uint32_t kBodySize = 32;      // u64, bytes after the header
}  // namespace capture_header

// CRC-32 (ISO-HDLC: reflected polynomial 0xEDB88320, initial value and final XOR ~0; the
// zlib and PNG one, computed by zlib) of `bytes`, continuing from `crc` (0 to start):
// crc32(b, crc32(a)) == crc32(a followed by b).
uint32_t crc32(std::span<const uint8_t> bytes, uint32_t crc = 0);

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

}  // namespace pfc::internal
