// tests/tdh_api/blob_test.cc — etw/payload_blob.h: encode/decode round trip, the checks of
// decode_blob (re-checksummed structural corruption must never crash and never yields
// out-of-range references), and resolve_blob's schema checks.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "etw/payload_blob.h"

namespace pfc::etw {
namespace {

ProviderDef schema() {
  ProviderDef p;
  p.name = "P";
  p.guid = *Guid::parse("{37A59B93-BB25-4CEE-97AA-8B6ACD0C4DF8}");
  EventDef e;
  e.name = "E";
  e.desc.id = 1;
  e.fields = {{"S", InType::UnicodeString, {}, {}},
              {"N", InType::Int8, {}, {}},
              {"G", InType::Guid, {}, {}},
              {"A", InType::UInt32, {Extent::Kind::Fixed, 2}, {}}};
  p.events.push_back(e);
  return p;
}

BlobContents sample() {
  BlobContents c;
  c.provider = schema().guid;
  BlobFilter f;
  f.event_id = 1;
  f.match_any = true;
  f.group_all = true;
  PayloadValue s;
  s.text = "h\xC3\xA9llo";
  PayloadValue n;
  n.lo = static_cast<uint64_t>(-5);
  n.hi = 100;
  PayloadValue g;
  g.guid = *Guid::parse("{0E95CFBC-58D4-44BA-BE40-E63A853536DF}");
  f.preds = {{0, PayloadOp::Contains, InType::UnicodeString, s},
             {1, PayloadOp::Between, InType::Int8, n},
             {2, PayloadOp::IsNot, InType::Guid, g}};
  f.layout = blob_layout(schema().events[0], f.preds);
  c.filters = {f, f};
  c.filters[1].group_all = false;
  c.filters[1].preds.resize(1);
  return c;
}

void rechecksum(std::vector<uint8_t>& b) {
  const uint32_t sum = blob_checksum(b.data(), b.size());
  std::memcpy(b.data() + kBlobChecksumOffset, &sum, 4);
}

// FNV-1a 32 over every byte, the checksum field's four read as zeros (docs/etw.md
// "Payload filter blob"), for blobs of every length around the field.
TEST(PayloadBlob, ChecksumIsFnv1aWithItsFieldZeroed) {
  std::vector<uint8_t> b;
  for (size_t n = 0; n <= 40; ++n) {
    uint32_t want = 2166136261u;
    for (size_t i = 0; i < n; ++i) {
      const bool field = i >= kBlobChecksumOffset && i < kBlobChecksumOffset + 4;
      want = (want ^ (field ? 0u : b[i])) * 16777619u;
    }
    EXPECT_EQ(blob_checksum(b.data(), n), want) << n;
    b.push_back(static_cast<uint8_t>(n * 37 + 11));
  }
}

TEST(PayloadBlob, RoundTrip) {
  const BlobContents c = sample();
  const std::vector<uint8_t> b = encode_blob(c);
  EXPECT_EQ(b.size(), blob_size(c));
  auto d = decode_blob(b.data(), b.size());
  ASSERT_TRUE(d);
  ASSERT_EQ(d->filters.size(), 2u);
  EXPECT_EQ(d->provider, c.provider);
  EXPECT_TRUE(d->filters[0].match_any && d->filters[0].group_all && !d->filters[1].group_all);
  EXPECT_EQ(d->filters[0].preds[0].value.text, "h\xC3\xA9llo");
  EXPECT_EQ(d->filters[0].preds[1].value.lo, static_cast<uint64_t>(-5));
  EXPECT_EQ(d->filters[0].preds[1].value.hi, 100u);
  EXPECT_EQ(d->filters[0].preds[2].value.guid, c.filters[0].preds[2].value.guid);
  ASSERT_EQ(d->filters[0].layout.size(), 3u);  // fields 0..2: the highest tested is 2
  const ProviderDef p = schema();
  auto r = resolve_blob(*d, &p);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->size(), 2u);
  ASSERT_TRUE((*r)[0].layout);
  EXPECT_EQ((*r)[0].layout->fields[1].name, "N");  // names from the schema when it has them
  EXPECT_EQ((*r)[0].expr.nodes.back().kind, PayloadExpr::Node::Kind::Or);
  EXPECT_EQ((*r)[0].expr.nodes.back().count, 3u);
  EXPECT_TRUE((*r)[0].group_all);
}

TEST(PayloadBlob, TruncatedAndCorrupted) {
  const std::vector<uint8_t> b = encode_blob(sample());
  for (size_t n = 0; n < b.size(); ++n) {
    std::vector<uint8_t> cut(b.begin(), b.begin() + static_cast<ptrdiff_t>(n));
    EXPECT_FALSE(decode_blob(cut.data(), cut.size())) << n;
    if (n >= kBlobHeaderSize) {  // consistent sizes and checksum: still rejected
      const auto size = static_cast<uint32_t>(n);
      std::memcpy(cut.data() + 8, &size, 4);
      rechecksum(cut);
      EXPECT_FALSE(decode_blob(cut.data(), cut.size())) << n;
    }
  }
  int decoded = 0;
  for (uint32_t seed = 1; seed <= 3000; ++seed) {
    std::mt19937 rng(seed);
    std::vector<uint8_t> bad = b;
    bad[rng() % bad.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    EXPECT_FALSE(decode_blob(bad.data(), bad.size())) << seed;  // the checksum catches it
    rechecksum(bad);
    auto d = decode_blob(bad.data(), bad.size());
    if (!d) continue;
    ++decoded;  // a still-consistent blob: references stay inside it and resolving is safe
    for (const BlobFilter& f : d->filters) {
      EXPECT_GE(f.preds.size(), 1u);
      EXPECT_LE(f.preds.size(), kBlobMaxPredicates);
    }
    const ProviderDef p = schema();
    (void)resolve_blob(*d, &p);
    (void)resolve_blob(*d, nullptr);
  }
  EXPECT_GT(decoded, 0);  // value bytes may change without breaking the structure
}

TEST(PayloadBlob, ResolveChecksTheSchema) {
  const ProviderDef p = schema();
  auto expect_rejected = [&](auto mutate, const char* what) {
    BlobContents c = sample();
    mutate(c);
    const std::vector<uint8_t> b = encode_blob(c);
    auto d = decode_blob(b.data(), b.size());
    ASSERT_TRUE(d) << what;
    EXPECT_FALSE(resolve_blob(*d, &p)) << what;
  };
  expect_rejected(
      [](BlobContents& c) {
        for (BlobFilter& f : c.filters)
          f.layout[0].length = {Extent::Kind::Fixed, 3};  // both: they agree
      },
      "layout disagrees with the loaded manifest");
  expect_rejected([](BlobContents& c) { c.filters[0].preds[1].value.hi = 200; }, "int8 range");
  expect_rejected(
      [](BlobContents& c) { c.filters[0].preds[1].value.hi = static_cast<uint64_t>(-9); },
      "empty range");
  expect_rejected([](BlobContents& c) { c.filters[0].preds[1].op = PayloadOp::Contains; },
                  "op/type");
  expect_rejected(
      [](BlobContents& c) {
        c.filters[1].preds[0] = {1, PayloadOp::Modulo, InType::Int8, {}};
      },
      "modulo 0");
  expect_rejected([](BlobContents& c) { c.provider.data1 ^= 1; }, "provider");
}

TEST(PayloadBlob, LayoutIsCheckedWhenDecoding) {
  auto expect_undecodable = [](auto mutate, const char* what) {
    BlobContents c = sample();
    mutate(c);
    const std::vector<uint8_t> b = encode_blob(c);
    EXPECT_FALSE(decode_blob(b.data(), b.size())) << what;
  };
  expect_undecodable([](BlobContents& c) { c.filters[1].preds[0].field = 9; },
                     "field beyond the layout");
  expect_undecodable([](BlobContents& c) { c.filters[1].preds[0].type = InType::AnsiString; },
                     "type");
  expect_undecodable(
      [](BlobContents& c) {
        c.filters[0].layout[2].count = {Extent::Kind::Fixed, 2};
      },
      "array field");
  expect_undecodable(
      [](BlobContents& c) {
        c.filters[0].layout[1].length = {Extent::Kind::Field, 1};
      },
      "length from a later field");
  expect_undecodable([](BlobContents& c) { c.filters[0].layout.clear(); }, "no layout");
}

// Layouts a manifest could not declare decoded and resolved, so EnableTraceEx2 accepted
// them, but no provider process could compile a routing program from them (found by
// fuzz/etw_blob): a count or length must come from an earlier scalar Int8..UInt64 field,
// lengths apply to strings and binary only, binary data needs a length.
TEST(PayloadBlob, LayoutsFollowTheManifestRules) {
  auto decodes = [](std::vector<FieldDef> layout) {
    BlobContents c = sample();
    c.filters.resize(1);
    c.filters[0].event_id = 7;
    c.filters[0].preds.resize(1);  // field 0 (wstring): the layout's later fields are untested
    c.filters[0].layout.resize(1);
    c.filters[0].layout.insert(c.filters[0].layout.end(), layout.begin(), layout.end());
    const std::vector<uint8_t> b = encode_blob(c);
    return decode_blob(b.data(), b.size()).has_value();
  };
  const Extent from0{Extent::Kind::Field, 0}, from1{Extent::Kind::Field, 1},
      four{Extent::Kind::Fixed, 4};
  EXPECT_FALSE(decodes({{"B", InType::Binary, {}, from0}})) << "length from a wstring";
  EXPECT_FALSE(decodes({{"A", InType::UInt16, four, {}}, {"B", InType::Binary, {}, from1}}))
      << "length from an array";
  EXPECT_FALSE(decodes({{"H", InType::HexInt32, {}, {}}, {"B", InType::Binary, {}, from1}}))
      << "length from a hexInt32 (not a count type in manifests)";
  EXPECT_FALSE(decodes({{"N", InType::UInt8, {}, {}}, {"A", InType::UInt32, from1, from1}}))
      << "length on an integer";
  EXPECT_FALSE(decodes({{"B", InType::Binary, {}, {}}})) << "binary without a length";
  EXPECT_TRUE(decodes({{"N", InType::UInt8, {}, {}},
                       {"B", InType::Binary, {}, from1},
                       {"A", InType::Int64, from1, {}},
                       {"S", InType::AnsiString, four, from1},
                       {"W", InType::UnicodeString, {}, four}}))
      << "every extent a manifest allows";
}

// Two filters on one event carrying different layouts decoded and resolved, but a routing
// program lays an event out once (compiler/lower.cc takes the longest layout, which the
// others must be prefixes of) and refused them (found by fuzz/etw_blob).
TEST(PayloadBlob, FiltersOnOneEventAgreeOnItsLayout) {
  BlobContents c = sample();  // filter 1 tests field 0 only: a 1-field layout is enough
  c.filters[1].layout.resize(1);
  std::vector<uint8_t> b = encode_blob(c);
  EXPECT_TRUE(decode_blob(b.data(), b.size())) << "a prefix";
  c.filters[1].layout[0].type = InType::AnsiString;
  c.filters[1].preds[0].type = InType::AnsiString;
  b = encode_blob(c);
  EXPECT_FALSE(decode_blob(b.data(), b.size())) << "field 0 differs";
  c.filters[1].event_version = 1;
  b = encode_blob(c);
  EXPECT_TRUE(decode_blob(b.data(), b.size())) << "another event version: its own layout";
}

TEST(PayloadBlob, ResolvesWithoutAnySchema) {
  // A provider process that never loaded the manifest: the blob's layout is enough, for
  // events the schema does not know as well.
  BlobContents c = sample();
  c.filters[0].event_id = 7;
  const std::vector<uint8_t> b = encode_blob(c);
  auto d = decode_blob(b.data(), b.size());
  ASSERT_TRUE(d);
  auto r = resolve_blob(*d, nullptr);
  ASSERT_TRUE(r);
  ASSERT_TRUE((*r)[0].layout);
  EXPECT_EQ((*r)[0].layout->fields.size(), 3u);
  EXPECT_EQ((*r)[0].layout->fields[0].type, InType::UnicodeString);
  const ProviderDef p = schema();
  EXPECT_TRUE(resolve_blob(*d, &p));  // event 7 is not in the schema: the layout decides
}

}  // namespace
}  // namespace pfc::etw
