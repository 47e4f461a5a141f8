// tests/base/crc32_test.cc — pfc::crc32 (base/crc32.h) equals zlib's CRC-32: the check
// value, every length up to 600 bytes at every alignment in a 16-byte block, continuation
// from any value and at any cut, empty inputs, 1 MB buffers; through crc32 and through each
// path (zlib, 128-bit folding in SSE and AVX encoding, 256-bit folding) the CPU has.
#include "base/crc32.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pfc {
namespace {

uint32_t reference(const uint8_t* p, size_t n, uint32_t crc = 0) {
  return static_cast<uint32_t>(::crc32_z(crc, p, n));
}

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (uint8_t& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

std::span<const uint8_t> bytes_of(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

TEST(Crc32, CheckValue) {
  EXPECT_EQ(crc32(bytes_of("123456789")), 0xCBF43926u);
  EXPECT_EQ(crc32(bytes_of("56789"), crc32(bytes_of("1234"))), 0xCBF43926u);
}

TEST(Crc32, NothingKeepsTheRunningValue) {
  // zlib's crc32_z returns 0 for a null buffer whatever the running value.
  EXPECT_EQ(crc32({}), 0u);
  EXPECT_EQ(crc32(std::span<const uint8_t>(), 0xCBF43926u), 0xCBF43926u);
  const std::vector<uint8_t> none;
  EXPECT_EQ(crc32(none, 0x12345678u), 0x12345678u);
}

TEST(Crc32, CombineEqualsTheCrcOfBothParts) {
  EXPECT_EQ(crc32_combine(crc32(bytes_of("1234")), crc32(bytes_of("56789")), 5), 0xCBF43926u);
  const std::vector<uint8_t> v = random_bytes(70'000, 7);
  for (const size_t cut : {size_t{0}, size_t{1}, size_t{32}, size_t{4097}, v.size()}) {
    const std::span<const uint8_t> a(v.data(), cut), b(v.data() + cut, v.size() - cut);
    EXPECT_EQ(crc32_combine(crc32(a), crc32(b), b.size()), reference(v.data(), v.size())) << cut;
  }
}

TEST(Crc32, ZlibPathIsAlwaysThere) { EXPECT_TRUE(crc32_has(Crc32Path::kZlib)); }

TEST(Crc32, ReportsTheCpuFeatures) {
#if defined(__x86_64__) && defined(__GNUC__)
  const bool clmul = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
  EXPECT_EQ(crc32_has(Crc32Path::kClmul128), clmul);
  const bool avx = clmul && __builtin_cpu_supports("avx");
  EXPECT_EQ(crc32_has(Crc32Path::kClmulAvx128), avx);
  EXPECT_EQ(crc32_has(Crc32Path::kClmul256),
            avx && __builtin_cpu_supports("vpclmulqdq") && __builtin_cpu_supports("avx2"));
#else
  EXPECT_FALSE(crc32_has(Crc32Path::kClmul128));
  EXPECT_FALSE(crc32_has(Crc32Path::kClmulAvx128));
  EXPECT_FALSE(crc32_has(Crc32Path::kClmul256));
#endif
}

// Each test below runs through crc32 (std::nullopt) and through each path by crc32_with.
class Crc32Paths : public testing::TestWithParam<std::optional<Crc32Path>> {
 protected:
  void SetUp() override {
    if (GetParam() && !crc32_has(*GetParam())) GTEST_SKIP() << "this CPU lacks the path";
  }
  uint32_t crc(const uint8_t* p, size_t n, uint32_t from = 0) const {
    const std::span<const uint8_t> bytes(p, n);
    return GetParam() ? crc32_with(*GetParam(), bytes, from) : crc32(bytes, from);
  }
};

TEST_P(Crc32Paths, CheckValue) {
  const auto s = bytes_of("123456789");
  EXPECT_EQ(crc(s.data(), s.size()), 0xCBF43926u);
  EXPECT_EQ(crc(s.data(), 0, 0x12345678u), 0x12345678u);
}

TEST_P(Crc32Paths, EveryLengthAndAlignmentMatchesZlib) {
  const auto data = random_bytes(600 + 16, 1);
  for (size_t align = 0; align < 16; ++align)
    for (size_t n = 0; n <= 600; ++n) {
      const uint8_t* p = data.data() + align;
      ASSERT_EQ(crc(p, n), reference(p, n)) << "n=" << n << " at " << align;
      // Split in two, so that a running value enters the folded path.
      const size_t cut = n / 3;
      ASSERT_EQ(crc(p + cut, n - cut, crc(p, cut)), reference(p, n)) << "n=" << n << " cut " << cut;
    }
}

TEST_P(Crc32Paths, ContinuesFromAnyValueAndAtAnyCut) {
  const auto data = random_bytes(4096, 2);
  std::mt19937 rng(3);
  for (int i = 0; i < 200; ++i) {
    const auto from = static_cast<uint32_t>(rng());
    const size_t n = rng() % data.size();
    ASSERT_EQ(crc(data.data(), n, from), reference(data.data(), n, from)) << n;
  }
  for (size_t cut = 0; cut <= 1000; cut += 7)
    ASSERT_EQ(crc(data.data() + cut, 1000 - cut, crc(data.data(), cut)),
              reference(data.data(), 1000))
        << "cut " << cut;
}

TEST_P(Crc32Paths, MegabyteBuffers) {
  const auto data = random_bytes((size_t{1} << 20) + 5, 4);
  EXPECT_EQ(crc(data.data(), data.size()), reference(data.data(), data.size()));
  EXPECT_EQ(crc(data.data() + 5, data.size() - 5, 0x12345678u),
            reference(data.data() + 5, data.size() - 5, 0x12345678u));
  const std::vector<uint8_t> zeros(size_t{1} << 20, 0), ones(size_t{1} << 20, 0xFF);
  EXPECT_EQ(crc(zeros.data(), zeros.size()), reference(zeros.data(), zeros.size()));
  EXPECT_EQ(crc(ones.data(), ones.size()), reference(ones.data(), ones.size()));
}

std::string path_name(const testing::TestParamInfo<std::optional<Crc32Path>>& info) {
  if (!info.param) return "Best";
  switch (*info.param) {
    case Crc32Path::kZlib: return "Zlib";
    case Crc32Path::kClmul128: return "Clmul128";
    case Crc32Path::kClmulAvx128: return "ClmulAvx128";
    case Crc32Path::kClmul256: return "Clmul256";
  }
  return "Unknown";
}

INSTANTIATE_TEST_SUITE_P(All, Crc32Paths,
                         testing::Values(std::nullopt, std::optional(Crc32Path::kZlib),
                                         std::optional(Crc32Path::kClmul128),
                                         std::optional(Crc32Path::kClmulAvx128),
                                         std::optional(Crc32Path::kClmul256)),
                         path_name);

}  // namespace
}  // namespace pfc
