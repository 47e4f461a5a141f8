// base/crc32.h — CRC-32 (ISO-HDLC: reflected polynomial 0xEDB88320, initial value and final
// XOR 0xFFFFFFFF; the zlib and PNG one): the checksum of capture files (docs/cli.md) and
// of the trace log file's header and buffers (docs/logfile.md). The value is zlib's crc32
// whichever path computes it: carry-less multiplication folding (PCLMULQDQ, or VPCLMULQDQ
// on 256-bit registers) on x86-64 CPUs that have it, checked once at run time, and zlib
// for short inputs, the last bytes and every other CPU. Pure functions: thread-safe.
#pragma once

#include <cstdint>
#include <span>

namespace pfc {

// The CRC-32 of `bytes`, continuing from `crc` (0 to start):
// crc32(b, crc32(a)) == crc32(a followed by b); an empty span returns `crc` unchanged.
uint32_t crc32(std::span<const uint8_t> bytes, uint32_t crc = 0);

// The CRC-32 of `a` followed by `b`, from crc32(a), crc32(b) and b's length (zlib's
// crc32_combine: O(log len_b)), for a writer that checksums a part it only knows later
// (a log buffer's header) in front of bytes it has already checksummed.
uint32_t crc32_combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b);

// The ways crc32 can compute the value, for tests and benchmarks; each later one needs the
// CPU features of the earlier ones.
enum class Crc32Path {
  kZlib,         // zlib's crc32_z only
  kClmul128,     // PCLMULQDQ + SSE4.1 folding of whole 16-byte blocks (inputs ≥ 64 bytes)
  kClmulAvx128,  // the same in AVX (VEX) encoding: fewer instructions (no register copies)
  kClmul256,     // VPCLMULQDQ + AVX2 folding (block runs ≥ 128 bytes), else as kClmulAvx128
};

// Whether this CPU can run `path` (kZlib always can).
bool crc32_has(Crc32Path path);

// crc32 computed by `path` (the same value); a path the CPU lacks (!crc32_has) computes
// with zlib.
uint32_t crc32_with(Crc32Path path, std::span<const uint8_t> bytes, uint32_t crc = 0);

}  // namespace pfc
