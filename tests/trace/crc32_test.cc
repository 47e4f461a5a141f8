// tests/trace/crc32_test.cc — trace::crc32 (the log file's checksum) equals zlib's CRC-32
// for every length, alignment and starting value, whichever implementation the CPU runs.
#include "trace/crc32.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <random>
#include <vector>

namespace pfc::trace {
namespace {

uint32_t reference(const uint8_t* p, size_t n, uint32_t crc) {
  return static_cast<uint32_t>(::crc32(crc, p, static_cast<uInt>(n)));
}

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

TEST(Crc32, KnownValue) {
  const auto* s = reinterpret_cast<const uint8_t*>("123456789");
  EXPECT_EQ(crc32(s, 9), 0xCBF43926u);
  EXPECT_EQ(crc32(s, 0), 0u);
}

TEST(Crc32, EveryLengthAndOffsetMatchesZlib) {
  const auto data = random_bytes(600, 1);
  for (size_t off = 0; off < 16; ++off)
    for (size_t n = 0; off + n <= data.size(); ++n) {
      ASSERT_EQ(crc32_clmul(data.data() + off, n), reference(data.data() + off, n, 0))
          << "offset " << off << " length " << n;
    }
}

TEST(Crc32, ContinuesFromAnyValue) {
  const auto data = random_bytes(4096, 2);
  std::mt19937 rng(3);
  for (int i = 0; i < 200; ++i) {
    const uint32_t seed = static_cast<uint32_t>(rng());
    const size_t n = rng() % data.size();
    ASSERT_EQ(crc32_clmul(data.data(), n, seed), reference(data.data(), n, seed)) << n;
  }
  // Split anywhere: crc(b, crc(a)) == crc(a b).
  for (size_t cut = 0; cut <= 300; cut += 7)
    ASSERT_EQ(crc32_clmul(data.data() + cut, 1000 - cut, crc32_clmul(data.data(), cut)),
              reference(data.data(), 1000, 0));
}

TEST(Crc32, LargeBufferAndSpecialContents) {
  auto data = random_bytes(1u << 20, 4);
  EXPECT_EQ(crc32(data.data(), data.size()), reference(data.data(), data.size(), 0));
  EXPECT_EQ(crc32_zlib(data.data(), data.size()), reference(data.data(), data.size(), 0));
  std::vector<uint8_t> zeros(100'000, 0), ones(100'000, 0xFF);
  EXPECT_EQ(crc32(zeros.data(), zeros.size()), reference(zeros.data(), zeros.size(), 0));
  EXPECT_EQ(crc32(ones.data(), ones.size()), reference(ones.data(), ones.size(), 0));
}

TEST(Crc32, ReportsTheImplementation) {
#if defined(__x86_64__)
  EXPECT_EQ(crc32_has_clmul(), __builtin_cpu_supports("pclmul") != 0);
#else
  EXPECT_FALSE(crc32_has_clmul());
#endif
}

}  // namespace
}  // namespace pfc::trace
