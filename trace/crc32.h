// trace/crc32.h — the CRC-32 of the log file's buffers and header (docs/logfile.md): zlib's
// CRC-32 (reflected polynomial 0xEDB88320, initial value and final xor 0xFFFFFFFF), the
// same value zlib's crc32() gives, computed with PCLMULQDQ folding when the CPU has it
// (checked once at run time) and by zlib otherwise. The format does not depend on which.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pfc::trace {

// The CRC-32 of `n` bytes at `p`, continuing from `crc` (0 to start):
// crc32(b, nb, crc32(a, na)) == crc32(a followed by b).
uint32_t crc32(const uint8_t* p, size_t n, uint32_t crc = 0);

// The two implementations, for tests: zlib's, and the folding one (only when
// crc32_has_clmul(); otherwise it is zlib's too).
uint32_t crc32_zlib(const uint8_t* p, size_t n, uint32_t crc = 0);
uint32_t crc32_clmul(const uint8_t* p, size_t n, uint32_t crc = 0);
bool crc32_has_clmul();

}  // namespace pfc::trace
