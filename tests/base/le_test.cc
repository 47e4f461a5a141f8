// tests/base/le_test.cc — base/le.h: the typed and byte-count forms agree, at unaligned
// addresses, and the byte-count forms touch exactly `bytes` bytes.
#include "base/le.h"

#include <gtest/gtest.h>

namespace pfc {
namespace {

TEST(LittleEndian, TypedFormsAreUnalignedAndLittleEndian) {
  std::vector<uint8_t> b(11, 0xEE);
  store_le<uint64_t>(b.data() + 1, 0x0807060504030201ull);
  EXPECT_EQ(b[0], 0xEE);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(b[1 + i], i + 1);
  EXPECT_EQ(b[9], 0xEE);
  EXPECT_EQ(load_le<uint32_t>(b.data() + 3), 0x06050403u);
  EXPECT_EQ(load_le<uint16_t>(b.data() + 8), 0xEE08u);
  store_le<uint16_t>(b, 9, 0xBBAA);
  EXPECT_EQ(b[9], 0xAA);
  EXPECT_EQ(b[10], 0xBB);
  std::vector<uint8_t> out;
  append_le<int32_t>(out, -2);
  EXPECT_EQ(out, (std::vector<uint8_t>{0xFE, 0xFF, 0xFF, 0xFF}));
}

TEST(LittleEndian, ByteCountFormsTouchOnlyTheirBytes) {
  for (unsigned bytes = 1; bytes <= 8; ++bytes) {
    std::vector<uint8_t> b(10, 0x55);
    store_le(b.data() + 1, 0xF1E2D3C4B5A69788ull, bytes);
    EXPECT_EQ(b[0], 0x55);
    EXPECT_EQ(b[1 + bytes], 0x55) << bytes;
    const uint64_t mask = bytes == 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
    EXPECT_EQ(load_le(b.data() + 1, bytes), 0xF1E2D3C4B5A69788ull & mask) << bytes;
    std::vector<uint8_t> out;
    append_le(out, 0xF1E2D3C4B5A69788ull, bytes);
    EXPECT_EQ(out, std::vector<uint8_t>(b.begin() + 1, b.begin() + 1 + bytes)) << bytes;
  }
  const uint8_t eight[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_EQ(load_le(eight, 8), load_le<uint64_t>(eight));
}

}  // namespace
}  // namespace pfc
