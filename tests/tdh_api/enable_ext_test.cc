// tests/tdh_api/enable_ext_test.cc — etw/enable_ext.h: round trip of payload expressions,
// layouts and schema; decode_ext refusing every truncation and structural corruption
// (re-checksummed) without crashing; convert_enable taking the type only from pfc's own
// controllers, and the public EnableTraceEx2 refusing it.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <random>

#include "etw/enable_ext.h"
#include "etw/filters.h"
#include "etw/payload_blob.h"
#include "pfc/etw/evntrace.h"

namespace pfc::etw {
namespace {

using Kind = PayloadExpr::Node::Kind;

ProviderDef schema() {
  ProviderDef p;
  p.name = "Example-Provider";
  p.guid = *Guid::parse("{37A59B93-BB25-4CEE-97AA-8B6ACD0C4DF8}");
  EventDef e;
  e.name = "Example_Event_1";
  e.desc.id = 1;
  e.desc.level = 4;
  e.desc.keyword = 0x10;
  e.fields = {{"Initiator", InType::UnicodeString, {}, {}},
              {"Level", InType::UInt32, {}, {}},
              {"Count", InType::UInt16, {}, {}},
              {"Items", InType::UInt32, {Extent::Kind::Field, 2}, {}}};
  p.events.push_back(e);
  EventDef empty;
  empty.name = "Empty";
  empty.desc.id = 2;
  empty.desc.version = 1;
  p.events.push_back(empty);
  return p;
}

// (Initiator contains "Us" and not Level between 7,16) or Level eq 3, then a flat `all`.
std::vector<PayloadFilter> filters() {
  PayloadFilter f;
  f.event_id = 1;
  f.group_all = true;
  PayloadValue s, between, three;
  s.text = "Us";
  between.lo = 7;
  between.hi = 16;
  three.lo = 3;
  f.expr.preds = {
      {0, PayloadOp::Contains, s}, {1, PayloadOp::Between, between}, {1, PayloadOp::Eq, three}};
  f.expr.nodes = {{Kind::Pred, 0, 0}, {Kind::Pred, 1, 0}, {Kind::Not, 0, 1},
                  {Kind::And, 1, 2},  {Kind::Pred, 2, 0}, {Kind::Or, 3, 2}};
  f.expr.kids = {1, 0, 2, 3, 4};
  PayloadFilter flat;
  flat.event_id = 1;
  flat.expr = make_flat_expr({{1, PayloadOp::Ne, three}}, false);
  return {f, flat};
}

std::vector<uint8_t> sample() {
  auto b = encode_ext(ext_from_script(schema(), filters()));
  EXPECT_TRUE(b.has_value());
  return b.value_or(std::vector<uint8_t>{});
}

void rechecksum(std::vector<uint8_t>& b) {
  const uint32_t sum = blob_checksum(b.data(), b.size());
  std::memcpy(b.data() + 12, &sum, 4);
}

bool same_expr(const PayloadExpr& a, const PayloadExpr& b) {
  if (a.preds.size() != b.preds.size() || a.nodes.size() != b.nodes.size() || a.kids != b.kids)
    return false;
  for (size_t i = 0; i < a.nodes.size(); ++i)
    if (a.nodes[i].kind != b.nodes[i].kind || a.nodes[i].index != b.nodes[i].index ||
        a.nodes[i].count != b.nodes[i].count)
      return false;
  for (size_t i = 0; i < a.preds.size(); ++i)
    if (a.preds[i].field != b.preds[i].field || a.preds[i].op != b.preds[i].op ||
        a.preds[i].value.lo != b.preds[i].value.lo || a.preds[i].value.hi != b.preds[i].value.hi ||
        a.preds[i].value.text != b.preds[i].value.text)
      return false;
  return true;
}

TEST(EnableExt, RoundTripKeepsExpressionsLayoutsAndSchema) {
  const std::vector<uint8_t> b = sample();
  const auto d = decode_ext(b.data(), b.size(), nullptr);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->provider, schema().guid);
  ASSERT_EQ(d->payload.size(), 2u);
  const std::vector<PayloadFilter> want = filters();
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_TRUE(same_expr(d->payload[i].expr, want[i].expr)) << i;
    EXPECT_EQ(d->payload[i].event_id, 1);
    EXPECT_EQ(d->payload[i].group_all, want[i].group_all);
    ASSERT_TRUE(d->payload[i].layout);
    EXPECT_EQ(d->payload[i].layout->fields.size(), 2u);  // up to Level, the highest tested
  }
  ASSERT_TRUE(d->schema.has_value());
  const ProviderDef s = schema();
  EXPECT_EQ(d->schema->name, s.name);
  ASSERT_EQ(d->schema->events.size(), 2u);
  for (size_t e = 0; e < 2; ++e) {
    EXPECT_EQ(d->schema->events[e].name, s.events[e].name);
    EXPECT_EQ(d->schema->events[e].desc, s.events[e].desc);
    ASSERT_EQ(d->schema->events[e].fields.size(), s.events[e].fields.size());
    for (size_t f = 0; f < s.events[e].fields.size(); ++f) {
      EXPECT_EQ(d->schema->events[e].fields[f].name, s.events[e].fields[f].name);
      EXPECT_TRUE(same_field(d->schema->events[e].fields[f], s.events[e].fields[f]));
    }
  }
  // A loaded manifest that agrees is accepted; one whose layout differs is not.
  EXPECT_TRUE(decode_ext(b.data(), b.size(), &s).has_value());
  ProviderDef other = s;
  other.events[0].fields[1].type = InType::Int32;
  EXPECT_FALSE(decode_ext(b.data(), b.size(), &other).has_value());
}

TEST(EnableExt, SchemaOnlyAndLimits) {
  auto b = encode_ext(ext_from_script(schema(), {}));
  ASSERT_TRUE(b.has_value());
  const auto d = decode_ext(b->data(), b->size(), nullptr);
  ASSERT_TRUE(d.has_value());
  EXPECT_TRUE(d->payload.empty());
  EXPECT_TRUE(d->schema.has_value());
  ProviderDef huge = schema();
  huge.events[0].name.assign(kExtMaxBytes, 'x');
  EXPECT_FALSE(encode_ext(ext_from_script(huge, {})).has_value());
}

// A TraceLogging provider's filters travel by event name (docs/etw.md "The pfc enable
// extension", filter flag 4): the decoded filter names its event and carries the whole
// declared event, field names included; a filter by id on such a schema, or a named
// filter without it, is refused.
TEST(EnableExt, TraceLoggingFiltersTravelByName) {
  ProviderDef tl;
  tl.name = "Pfc.Test.TlgScript";
  tl.guid = *Guid::parse("{6D1B7A2C-0000-4000-8000-00000000A001}");
  tl.tracelogging = true;
  for (const char* name : {"Other", "Sent"}) {
    EventDef e;
    e.name = name;
    e.desc.level = 4;
    e.fields = {{"Name", InType::AnsiString, {}, {}}, {"Count", InType::UInt32, {}, {}}};
    tl.events.push_back(e);
  }
  PayloadFilter f;
  f.event_name = "Sent";
  PayloadValue four;
  four.lo = 4;
  f.expr = make_flat_expr({{1, PayloadOp::Ge, four}}, false);
  const auto b = encode_ext(ext_from_script(tl, {f}));
  ASSERT_TRUE(b.has_value());
  const auto d = decode_ext(b->data(), b->size(), nullptr);
  ASSERT_TRUE(d.has_value());
  ASSERT_EQ(d->payload.size(), 1u);
  const PayloadFilter& g = d->payload[0];
  EXPECT_EQ(g.event_name, "Sent");
  EXPECT_EQ(g.event_id, 0);
  ASSERT_TRUE(g.layout);
  ASSERT_EQ(g.layout->fields.size(), 2u);
  EXPECT_EQ(g.layout->fields[1].name, "Count");
  EXPECT_EQ(g.expr.preds[0].field, 1u);
  ASSERT_TRUE(d->schema.has_value());
  EXPECT_TRUE(d->schema->tracelogging);

  PayloadFilter by_id = f;
  by_id.event_name.clear();
  by_id.event_id = 1;
  ProviderDef plain = tl;
  plain.tracelogging = false;
  plain.events[1].desc.id = 1;
  ExtContents c = ext_from_script(plain, {by_id});
  c.schema->tracelogging = true;  // a TraceLogging schema with a filter by id
  const auto wrong = encode_ext(c);
  ASSERT_TRUE(wrong.has_value());
  EXPECT_FALSE(decode_ext(wrong->data(), wrong->size(), nullptr).has_value());
  c = ext_from_script(tl, {f});
  c.schema.reset();  // a named filter needs the schema
  EXPECT_FALSE(encode_ext(c).has_value());
}

// One flat `all` filter on event 1 over `preds`, encoded.
std::vector<uint8_t> encoded(std::vector<PayloadPredicate> preds) {
  PayloadFilter f;
  f.event_id = 1;
  f.expr = make_flat_expr(std::move(preds), false);
  return encode_ext(ext_from_script(schema(), {f})).value_or(std::vector<uint8_t>{});
}

PayloadPredicate text_pred(uint32_t field, PayloadOp op, const char* text) {
  PayloadValue v;
  v.text = text;
  return {field, op, v};
}

PayloadPredicate field_pred(uint32_t field, PayloadOp op, uint64_t other) {
  PayloadValue v;
  v.lo = other;
  return {field, op, v};
}

TEST(EnableExt, LanguageOperatorsRoundTrip) {
  PayloadFilter f;
  f.event_id = 1;
  f.expr = make_flat_expr(
      {text_pred(0, PayloadOp::StartsWith, "Us"), text_pred(0, PayloadOp::EndsWithCs, "er"),
       text_pred(0, PayloadOp::Matches, "*s[a-f]?"), text_pred(0, PayloadOp::RegexCs, "^U.*r$"),
       text_pred(0, PayloadOp::IsNotCs, "x"), field_pred(1, PayloadOp::FieldGt, 2)},
      false);
  const auto b = encode_ext(ext_from_script(schema(), {f}));
  ASSERT_TRUE(b.has_value());
  const auto d = decode_ext(b->data(), b->size(), nullptr);
  ASSERT_TRUE(d.has_value());
  ASSERT_EQ(d->payload.size(), 1u);
  EXPECT_TRUE(same_expr(d->payload[0].expr, f.expr));
  ASSERT_TRUE(d->payload[0].layout);
  EXPECT_EQ(d->payload[0].layout->fields.size(), 3u);  // up to Count, the compared field
  // ETW's own payload blob still carries ETW's operators only.
  BlobFilter bf;
  bf.event_id = 1;
  bf.preds = {{0, PayloadOp::StartsWith, InType::UnicodeString, text_pred(0, {}, "Us").value}};
  bf.layout = {schema().events[0].fields[0]};
  BlobContents blob{schema().guid, {bf}};
  const std::vector<uint8_t> bytes = encode_blob(blob);
  EXPECT_FALSE(decode_blob(bytes.data(), bytes.size()).has_value());
}

TEST(EnableExt, BadPatternsAndFieldReferencesAreRefused) {
  const std::vector<std::vector<PayloadPredicate>> bad = {
      {text_pred(0, PayloadOp::Regex, "a(")},      // does not compile
      {text_pred(0, PayloadOp::MatchesCs, "[a")},  // unterminated class
      {text_pred(1, PayloadOp::StartsWith, "1")},  // string operator on an integer
      {field_pred(1, PayloadOp::FieldGt, 3)},      // the other field is an array
      {field_pred(1, PayloadOp::FieldLe, 0)},      // ... a string
      {field_pred(0, PayloadOp::FieldEq, 1)},      // the first field is a string
      {text_pred(0, PayloadOp::In, "Us")},         // lists arrive expanded, never as such
  };
  for (size_t i = 0; i < bad.size(); ++i) {
    const std::vector<uint8_t> b = encoded(bad[i]);
    ASSERT_FALSE(b.empty()) << i;
    EXPECT_FALSE(decode_ext(b.data(), b.size(), nullptr).has_value()) << i;
  }
  // The other field beyond the layout the filter carries.
  std::vector<uint8_t> b = encoded({field_pred(1, PayloadOp::FieldGt, 2)});
  const auto ok = decode_ext(b.data(), b.size(), nullptr);
  ASSERT_TRUE(ok.has_value());
  const size_t layout_at = load_le<uint32_t>(b.data() + 48);
  EXPECT_EQ(load_le<uint16_t>(b.data() + layout_at), 3u);
  b[kExtHeaderSize + kExtFilterSize + 8] = 7;  // the predicate's value: field 7
  rechecksum(b);
  EXPECT_FALSE(decode_ext(b.data(), b.size(), nullptr).has_value());
}

// The fuzzer's seeds stay valid extensions of the current format version (they are meant to
// reach past the header checks; fuzz/corpus/etw_ext/).
TEST(EnableExt, FuzzSeedsDecode) {
  for (const char* name : {"expressions", "field-compare", "schema-only"}) {
    std::ifstream in(std::string(PFC_SOURCE_DIR) + "/fuzz/corpus/etw_ext/" + name + ".ext",
                     std::ios::binary);
    const std::vector<uint8_t> b{std::istreambuf_iterator<char>(in), {}};
    ASSERT_FALSE(b.empty()) << name;
    EXPECT_TRUE(decode_ext(b.data(), b.size(), nullptr).has_value()) << name;
  }
}

TEST(EnableExt, EveryTruncationIsRefused) {
  const std::vector<uint8_t> b = sample();
  for (size_t n = 0; n < b.size(); ++n) {
    std::vector<uint8_t> cut(b.begin(), b.begin() + static_cast<ptrdiff_t>(n));
    if (n >= 16) {  // a consistent size and checksum: only the structure can refuse it
      const auto size = static_cast<uint32_t>(n);
      std::memcpy(cut.data() + 8, &size, 4);
      rechecksum(cut);
    }
    EXPECT_FALSE(decode_ext(cut.data(), cut.size(), nullptr).has_value()) << n;
  }
}

TEST(EnableExt, MalformedTreesAreRefused) {
  const std::vector<uint8_t> b = sample();
  // Node table: after the header, 2 filter records and 4 predicate records.
  const size_t nodes = kExtHeaderSize + 2 * kExtFilterSize + 4 * kBlobPredicateSize;
  const size_t kids = nodes + 8 * kExtNodeSize;
  struct Patch {
    size_t at;
    uint32_t value;
  };
  for (const Patch p : {Patch{kids, 5},                          // a child after its parent
                        Patch{kids + 4, 1},                      // node 1 used twice, node 0 never
                        Patch{nodes + 2 * kExtNodeSize + 8, 2},  // Not with two children
                        Patch{nodes + 4, 9},                     // Pred index past the predicates
                        Patch{nodes, 7}}) {                      // unknown node kind
    std::vector<uint8_t> bad = b;
    std::memcpy(bad.data() + p.at, &p.value, p.at == nodes ? 1 : 4);
    rechecksum(bad);
    EXPECT_FALSE(decode_ext(bad.data(), bad.size(), nullptr).has_value()) << p.at;
  }
}

TEST(EnableExt, RandomCorruptionNeverCrashes) {
  const std::vector<uint8_t> b = sample();
  std::mt19937 rng(15);
  int decoded = 0;
  for (int i = 0; i < 20000; ++i) {
    std::vector<uint8_t> bad = b;
    for (int k = 0; k < 1 + i % 3; ++k) bad[rng() % bad.size()] = static_cast<uint8_t>(rng());
    rechecksum(bad);
    if (auto d = decode_ext(bad.data(), bad.size(), nullptr)) {
      ++decoded;  // then every reference is in range
      for (const PayloadFilter& f : d->payload) {
        for (const auto& n : f.expr.nodes) {
          if (n.kind == Kind::Pred) {
            EXPECT_LT(n.index, f.expr.preds.size());
          }
        }
        for (const PayloadPredicate& p : f.expr.preds) EXPECT_LT(p.field, f.layout->fields.size());
      }
    }
  }
  EXPECT_LT(decoded, 20000);
}

TEST(EnableExt, OnlyPfcControllersMayPassTheType) {
  std::vector<uint8_t> b = sample();
  EVENT_FILTER_DESCRIPTOR d{reinterpret_cast<uintptr_t>(b.data()), ULONG(b.size()),
                            kFilterTypePfcExtension};
  ENABLE_TRACE_PARAMETERS p{};
  p.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
  p.EnableFilterDesc = &d;
  p.FilterDescCount = 1;
  EnableRequest req;
  EXPECT_EQ(convert_enable(5, 0, 0, &p, &req), ERROR_INVALID_PARAMETER);
  ASSERT_EQ(convert_enable(5, 0, 0, &p, &req, true), ERROR_SUCCESS);
  EXPECT_EQ(req.params.payload.size(), 2u);
  EXPECT_EQ(req.payload_provider, schema().guid);
  EXPECT_TRUE(req.schema.has_value());
  const GUID g{0x37a59b93, 0xbb25, 0x4cee, {0x97, 0xaa, 0x8b, 0x6a, 0xcd, 0x0c, 0x4d, 0xf8}};
  EXPECT_EQ(EnableTraceEx2(1, &g, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 0, &p),
            ERROR_INVALID_PARAMETER);
  b[b.size() - 1] ^= 1;  // checksum mismatch
  EXPECT_EQ(convert_enable(5, 0, 0, &p, &req, true), ERROR_INVALID_PARAMETER);
}

}  // namespace
}  // namespace pfc::etw
