// tests/tdh/tdh_skip_test.cc — pfc_tdh_skip and pfc_tdh_load_int: sizes of every type,
// arrays, declared and referenced lengths/counts, missing terminators, overflow, and an
// exhaustive truncation walk of a multi-field payload.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "payload_builder.h"
#include "pfc/schema.h"
#include "runtime/tdh.h"

namespace pfc {
namespace {

using testing::exact_copy;
using testing::Payload;

constexpr uint64_t kBad = PFC_TDH_BAD_OFFSET;
constexpr uint64_t kNoLen = PFC_TDH_NO_LENGTH;

uint64_t skip(const Payload& p, uint64_t off, InType t, uint64_t count = 1,
              uint64_t length = kNoLen) {
  auto buf = exact_copy(p.bytes, p.size());
  return pfc_tdh_skip(buf.get(), p.size(), off, static_cast<uint32_t>(t), count, length);
}

TEST(TdhSkip, FixedSizeTypes) {
  const InType fixed[] = {InType::Int8,    InType::UInt8,    InType::Int16,      InType::UInt16,
                          InType::Int32,   InType::UInt32,   InType::Int64,      InType::UInt64,
                          InType::Float,   InType::Double,   InType::Boolean,    InType::Guid,
                          InType::Pointer, InType::FileTime, InType::SystemTime, InType::HexInt32,
                          InType::HexInt64};
  for (InType t : fixed) {
    SCOPED_TRACE(in_type_name(t));
    const uint64_t n = in_type_fixed_size(t);
    Payload p;
    p.bytes.assign(3 + n * 4, 0xAB);
    EXPECT_EQ(skip(p, 3, t), 3 + n);
    EXPECT_EQ(skip(p, 3, t, 4), 3 + 4 * n);        // exactly fills the payload
    EXPECT_EQ(skip(p, 3, t, 5), kBad);             // one element too many
    EXPECT_EQ(skip(p, 4 + 3 * n, t), kBad);        // last element one byte short
    EXPECT_EQ(skip(p, p.size(), t, 0), p.size());  // count 0 at the end
    EXPECT_EQ(skip(p, 3, t, UINT64_MAX), kBad);    // count * size overflows
    if (n > 1) {
      EXPECT_EQ(skip(p, 3, t, (UINT64_MAX / n) + 1), kBad);  // just past the overflow
    }
    EXPECT_EQ(skip(p, 3, t, 1, 5), 3 + n);  // a length is ignored
  }
}

TEST(TdhSkip, BadOffsetsAndTypes) {
  Payload p;
  p.u32(1);
  EXPECT_EQ(skip(p, kBad, InType::UInt8), kBad);
  EXPECT_EQ(skip(p, kBad, InType::UInt8, 0), kBad);
  EXPECT_EQ(skip(p, 5, InType::UInt8, 0), kBad);  // past the end
  EXPECT_EQ(skip(p, 4, InType::UInt8, 0), 4u);
  for (uint32_t t : {0u, 22u, 25u, 300u, 0xFFFFu}) {
    EXPECT_EQ(pfc_tdh_skip(p.bytes.data(), p.size(), 0, t, 1, kNoLen), kBad) << t;
  }
  EXPECT_EQ(pfc_tdh_skip(nullptr, 0, 0, 8, 1, kNoLen), kBad);
  EXPECT_EQ(pfc_tdh_skip(nullptr, 0, 0, 8, 0, kNoLen), 0u);
  EXPECT_EQ(pfc_tdh_skip(nullptr, 0, 0, 1, 1, kNoLen), kBad);
  EXPECT_EQ(pfc_tdh_skip(nullptr, 0, 0, 2, 1, kNoLen), kBad);
  EXPECT_EQ(pfc_tdh_skip(nullptr, 0, 0, 19, 1, kNoLen), kBad);
}

TEST(TdhSkip, WideStrings) {
  Payload p;
  p.u8(7).wstr(u"ab").wstr(u"").wstr(u"x");  // 1 + 6 + 2 + 4 bytes
  EXPECT_EQ(skip(p, 1, InType::UnicodeString), 7u);
  EXPECT_EQ(skip(p, 7, InType::UnicodeString), 9u);
  EXPECT_EQ(skip(p, 1, InType::UnicodeString, 3), 13u);
  EXPECT_EQ(skip(p, 1, InType::UnicodeString, 4), kBad);
  EXPECT_EQ(skip(p, 11, InType::UnicodeString), 13u);
  // Declared lengths are in UTF-16 code units and include nothing else.
  EXPECT_EQ(skip(p, 1, InType::UnicodeString, 1, 2), 5u);
  EXPECT_EQ(skip(p, 1, InType::UnicodeString, 3, 2), 13u);
  EXPECT_EQ(skip(p, 1, InType::UnicodeString, 1, 6), 13u);
  EXPECT_EQ(skip(p, 1, InType::UnicodeString, 1, 7), kBad);
  EXPECT_EQ(skip(p, 1, InType::UnicodeString, 1, UINT64_MAX / 2 + 1), kBad);  // 2*len overflows
  EXPECT_EQ(skip(p, 1, InType::UnicodeString, 1, kNoLen - 1), kBad);
  EXPECT_EQ(skip(p, 1, InType::UnicodeString, UINT64_MAX, 0), 1u);  // zero-size elements
  EXPECT_EQ(skip(p, 1, InType::UnicodeString, UINT64_MAX, 1), kBad);
  EXPECT_EQ(skip(p, 1, InType::UnicodeString, UINT64_MAX), kBad);  // scans end at the payload end
}

TEST(TdhSkip, WideStringTerminatorIsAlignedToTheField) {
  // Units 0x0061 0x6200 0x0000: bytes 61 00 00 62 00 00. The 00 00 at bytes 1..2 straddles
  // two units and is not a terminator.
  Payload p;
  p.raw({0x61, 0x00, 0x00, 0x62, 0x00, 0x00});
  EXPECT_EQ(skip(p, 0, InType::UnicodeString), 6u);
  // Started at an odd offset the units are 00 00 → empty string.
  EXPECT_EQ(skip(p, 1, InType::UnicodeString), 3u);
}

TEST(TdhSkip, MissingTerminators) {
  Payload w;
  w.wstr(u"abc", false);
  EXPECT_EQ(skip(w, 0, InType::UnicodeString), kBad);
  w.u8(0);  // half a terminator
  EXPECT_EQ(skip(w, 0, InType::UnicodeString), kBad);
  Payload s;
  s.str("abc", false);
  EXPECT_EQ(skip(s, 0, InType::AnsiString), kBad);
  EXPECT_EQ(skip(s, 3, InType::AnsiString), kBad);  // empty remainder
  s.u8(0);
  EXPECT_EQ(skip(s, 0, InType::AnsiString), 4u);
  EXPECT_EQ(skip(s, 3, InType::AnsiString), 4u);
}

// The offset past the NUL-terminated wstring at off, one unit at a time (the reference
// for the word-at-a-time scan).
uint64_t wstring_end(const std::vector<uint8_t>& b, uint64_t off) {
  for (uint64_t i = off; i + 2 <= b.size(); i += 2)
    if (b[i] == 0 && b[i + 1] == 0) return i + 2;
  return kBad;
}

TEST(TdhSkip, WideStringScanAgreesWithUnitByUnitAtEverySizeAndPosition) {
  // Payloads of 0..40 bytes (whole words, a tail under 8 bytes, an odd last byte) from
  // every offset 0..3, with no NUL unit or one at each unit position, NUL bytes straddling
  // two units, and nonzero bytes after the terminator. Each through an exact-size buffer.
  for (uint64_t size = 0; size <= 40; ++size) {
    for (uint64_t off = 0; off <= std::min<uint64_t>(size, 3); ++off) {
      for (uint64_t nul = off; nul <= size + 1; nul += 2) {  // nul > size - 2: none
        std::vector<uint8_t> b(size);
        for (uint64_t i = 0; i < size; ++i) b[i] = static_cast<uint8_t>(0x41 + i % 7);
        if (off + 1 < size) b[off + 1] = 0;  // a straddling 00 00 with the next byte
        if (off + 2 < size) b[off + 2] = 0;
        if (off + 2 < size) b[off + 3 < size ? off + 3 : off + 2] = 0x62;
        if (nul + 2 <= size) b[nul] = b[nul + 1] = 0;
        Payload p;
        p.bytes = b;
        SCOPED_TRACE(::testing::Message() << "size " << size << " off " << off << " nul " << nul);
        EXPECT_EQ(skip(p, off, InType::UnicodeString), wstring_end(b, off));
        // Two strings: the general path, which must agree with two single scans.
        const uint64_t first = wstring_end(b, off);
        EXPECT_EQ(skip(p, off, InType::UnicodeString, 2),
                  first == kBad ? kBad : wstring_end(b, first));
      }
    }
  }
}

TEST(TdhSkip, AnsiStrings) {
  Payload p;
  p.str("hello").str("").str("\xC3\xA9");
  EXPECT_EQ(skip(p, 0, InType::AnsiString), 6u);
  EXPECT_EQ(skip(p, 6, InType::AnsiString), 7u);
  EXPECT_EQ(skip(p, 0, InType::AnsiString, 3), 10u);
  EXPECT_EQ(skip(p, 0, InType::AnsiString, 1, 3), 3u);
  EXPECT_EQ(skip(p, 0, InType::AnsiString, 2, 5), 10u);
  EXPECT_EQ(skip(p, 0, InType::AnsiString, 1, 11), kBad);
  EXPECT_EQ(skip(p, 0, InType::AnsiString, UINT64_MAX, 2), kBad);
}

TEST(TdhSkip, Binary) {
  Payload p;
  p.bytes.assign(10, 0);
  EXPECT_EQ(skip(p, 0, InType::Binary), kBad);  // a binary needs a length
  EXPECT_EQ(skip(p, 0, InType::Binary, 1, 0), 0u);
  EXPECT_EQ(skip(p, 2, InType::Binary, 1, 8), 10u);
  EXPECT_EQ(skip(p, 2, InType::Binary, 1, 9), kBad);
  EXPECT_EQ(skip(p, 0, InType::Binary, 2, 5), 10u);
  EXPECT_EQ(skip(p, 0, InType::Binary, 3, 4), kBad);
  EXPECT_EQ(skip(p, 0, InType::Binary, UINT64_MAX / 2 + 1, 2), kBad);  // overflow
  EXPECT_EQ(skip(p, 0, InType::Binary, 2, UINT64_MAX / 2 + 1), kBad);
}

TEST(TdhSkip, Sid) {
  Payload p;
  p.raw({1, 2, 0, 0, 0, 0, 0, 5}).u32(21).u32(500);  // S-1-5-21-500: 16 bytes
  p.raw({1, 0, 0, 0, 0, 0, 0, 0});                   // no sub-authorities: 8 bytes
  EXPECT_EQ(skip(p, 0, InType::Sid), 16u);
  EXPECT_EQ(skip(p, 16, InType::Sid), 24u);
  EXPECT_EQ(skip(p, 0, InType::Sid, 2), 24u);
  EXPECT_EQ(skip(p, 0, InType::Sid, 3), kBad);
  EXPECT_EQ(skip(p, 0, InType::Sid, UINT64_MAX), kBad);
  EXPECT_EQ(skip(p, 17, InType::Sid), kBad);  // fewer than 8 bytes left
  p.bytes[17] = 1;                            // second SID now claims 12 bytes
  EXPECT_EQ(skip(p, 16, InType::Sid), kBad);
  p.bytes[17] = 255;  // the largest count
  EXPECT_EQ(skip(p, 16, InType::Sid), kBad);
}

TEST(TdhLoadInt, EveryIntegerType) {
  struct Row {
    InType t;
    std::vector<uint8_t> bytes;
    uint64_t expected;
  };
  const Row rows[] = {
      {InType::Int8, {0xFF}, UINT64_MAX},
      {InType::Int8, {0x7F}, 127},
      {InType::Int8, {0x80}, static_cast<uint64_t>(-128)},
      {InType::UInt8, {0xFF}, 255},
      {InType::Int16, {0x00, 0x80}, static_cast<uint64_t>(-32768)},
      {InType::Int16, {0xFF, 0x7F}, 32767},
      {InType::UInt16, {0x00, 0x80}, 0x8000},
      {InType::Int32, {0xFE, 0xFF, 0xFF, 0xFF}, static_cast<uint64_t>(-2)},
      {InType::UInt32, {0xFE, 0xFF, 0xFF, 0xFF}, 0xFFFFFFFE},
      {InType::HexInt32, {0x78, 0x56, 0x34, 0x12}, 0x12345678},
      {InType::HexInt32, {0xFF, 0xFF, 0xFF, 0xFF}, 0xFFFFFFFF},
      {InType::Boolean, {1, 0, 0, 0}, 1},
      {InType::Boolean, {0, 0, 0, 0x80}, 0x80000000},
      {InType::Int64, {0, 0, 0, 0, 0, 0, 0, 0x80}, 0x8000000000000000},
      {InType::UInt64, {1, 2, 3, 4, 5, 6, 7, 8}, 0x0807060504030201},
      {InType::HexInt64, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}, UINT64_MAX},
      {InType::FileTime, {0x00, 0x80, 0x3E, 0xD5, 0xDE, 0xB1, 0x9D, 0x01}, 0x019DB1DED53E8000},
      {InType::Pointer, {0xEF, 0xBE, 0xAD, 0xDE, 0, 0, 0, 0}, 0xDEADBEEF},
  };
  for (const Row& r : rows) {
    SCOPED_TRACE(in_type_name(r.t));
    std::vector<uint8_t> bytes = {0x11};
    bytes.insert(bytes.end(), r.bytes.begin(), r.bytes.end());
    auto buf = exact_copy(bytes, bytes.size());
    int ok = -1;
    EXPECT_EQ(pfc_tdh_load_int(buf.get(), bytes.size(), 1, static_cast<uint32_t>(r.t), &ok),
              r.expected);
    EXPECT_EQ(ok, 1);
    ok = -1;  // one byte short
    EXPECT_EQ(pfc_tdh_load_int(buf.get(), bytes.size() - 1, 1, static_cast<uint32_t>(r.t), &ok),
              0u);
    EXPECT_EQ(ok, 0);
    ok = -1;
    pfc_tdh_load_int(buf.get(), bytes.size(), kBad, static_cast<uint32_t>(r.t), &ok);
    EXPECT_EQ(ok, 0);
    ok = -1;
    pfc_tdh_load_int(buf.get(), bytes.size(), bytes.size() + 1, static_cast<uint32_t>(r.t), &ok);
    EXPECT_EQ(ok, 0);
  }
}

TEST(TdhLoadInt, RejectsNonIntegerTypes) {
  std::vector<uint8_t> bytes(32, 0);
  for (InType t : {InType::Float, InType::Double, InType::Guid, InType::SystemTime, InType::Sid,
                   InType::Binary, InType::UnicodeString, InType::AnsiString}) {
    int ok = -1;
    EXPECT_EQ(pfc_tdh_load_int(bytes.data(), bytes.size(), 0, static_cast<uint32_t>(t), &ok), 0u);
    EXPECT_EQ(ok, 0) << in_type_name(t);
  }
  int ok = -1;
  pfc_tdh_load_int(bytes.data(), bytes.size(), 0, 0, &ok);
  EXPECT_EQ(ok, 0);
}

// Walks the fields of `fields` over the payload the way both engines do: each field's
// count/length is a constant or the loaded value of an earlier integer field. Returns the
// start offset of every field and the end offset (kBad from the first field that fails).
std::vector<uint64_t> walk(const std::vector<FieldDef>& fields, const uint8_t* payload,
                           uint64_t size) {
  std::vector<uint64_t> offs;
  std::vector<uint64_t> values(fields.size(), 0);
  uint64_t off = 0;
  auto extent = [&](const Extent& e, uint64_t none) -> uint64_t {
    if (e.kind == Extent::Kind::Fixed) return e.value;
    if (e.kind == Extent::Kind::Field) return values[e.value];
    return none;
  };
  for (size_t i = 0; i < fields.size(); ++i) {
    const FieldDef& f = fields[i];
    offs.push_back(off);
    if (!f.count.present() && in_type_is_integer(f.type)) {
      int ok = 0;
      values[i] = pfc_tdh_load_int(payload, size, off, static_cast<uint32_t>(f.type), &ok);
      if (!ok) off = kBad;
    }
    off = pfc_tdh_skip(payload, size, off, static_cast<uint32_t>(f.type), extent(f.count, 1),
                       extent(f.length, kNoLen));
  }
  offs.push_back(off);
  return offs;
}

FieldDef field(const char* name, InType t, Extent count = {}, Extent length = {}) {
  return FieldDef{name, t, count, length};
}
Extent fixed(uint32_t v) { return {Extent::Kind::Fixed, v}; }
Extent ref(uint32_t v) { return {Extent::Kind::Field, v}; }

TEST(TdhWalk, ReferencedCountsAndLengthsAndExhaustiveTruncation) {
  const std::vector<FieldDef> fields = {
      field("A", InType::UInt8),                          // 0
      field("Name", InType::UnicodeString),               // 1
      field("N", InType::UInt16),                         // 2
      field("Items", InType::Int32, ref(2)),              // 3: N elements
      field("Len", InType::UInt32),                       // 4
      field("Fixed", InType::UnicodeString, {}, ref(4)),  // 5: Len characters
      field("Tag", InType::AnsiString),                   // 6
      field("Owner", InType::Sid),                        // 7
      field("Blob", InType::Binary, {}, fixed(3)),        // 8
      field("Names", InType::AnsiString, ref(0)),         // 9: A strings
      field("Id", InType::Guid),                          // 10
      field("Flag", InType::Boolean),                     // 11
  };
  Payload p;
  p.u8(2).wstr(u"h\u00e9").u16(3).u32(1).u32(UINT32_MAX).u32(7).u32(2).wstr(u"xy", false);
  p.str("tag").raw({1, 1, 0, 0, 0, 0, 0, 5}).u32(18).raw({9, 8, 7}).str("a").str("bc");
  p.raw({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}).u32(1);
  const std::vector<uint64_t> expected = {0, 1, 7, 9, 21, 25, 29, 33, 45, 48, 53, 69, 73};
  ASSERT_EQ(p.size(), expected.back());
  {
    auto buf = exact_copy(p.bytes, p.size());
    EXPECT_EQ(walk(fields, buf.get(), p.size()), expected);
  }
  // Every truncation: fields that end within the prefix keep their offsets; the first one
  // that does not fit yields kBad, and so does everything after it.
  for (uint64_t n = 0; n < p.size(); ++n) {
    SCOPED_TRACE(n);
    auto buf = exact_copy(p.bytes, n);
    const std::vector<uint64_t> got = walk(fields, buf.get(), n);
    bool broken = false;
    for (size_t i = 1; i < expected.size(); ++i) {
      if (expected[i] > n) broken = true;
      EXPECT_EQ(got[i], broken ? kBad : expected[i]) << "field end " << i;
    }
  }
}

TEST(TdhWalk, HugeReferencedCountFails) {
  const std::vector<FieldDef> fields = {field("N", InType::UInt64),
                                        field("Items", InType::UInt64, ref(0)),
                                        field("Strs", InType::UnicodeString, ref(0))};
  for (uint64_t n : {uint64_t{3}, uint64_t{1} << 61, UINT64_MAX / 8 + 1, UINT64_MAX}) {
    Payload p;
    p.u64(n).u64(1).u64(2);
    auto buf = exact_copy(p.bytes, p.size());
    const auto got = walk(fields, buf.get(), p.size());
    EXPECT_EQ(got[2], kBad) << n;
    EXPECT_EQ(got[3], kBad) << n;
  }
}

}  // namespace
}  // namespace pfc
