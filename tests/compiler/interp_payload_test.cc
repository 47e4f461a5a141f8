// tests/compiler/interp_payload_test.cc — docs/semantics.md §2 on the reference interpreter:
// every operator on every compatible type (checked against an in-test oracle), undecodable
// fields, variable-length layouts, counts/lengths from earlier fields, aggregation.
#include <limits>

#include "test_util.h"

namespace pfc::testing {
namespace {

constexpr uint16_t kId = 10;

ProgramSpec spec_with(std::vector<FieldDef> fields, std::vector<PayloadFilter> filters) {
  ProviderDef prov;
  prov.name = "P";
  prov.events.push_back(event_def("E", kId, 0, std::move(fields)));
  prov.events.push_back(event_def("Other", kId + 1, 0, {}));
  EnableParams p;
  p.payload = std::move(filters);
  return one_session(std::move(prov), std::move(p));
}

struct IntType {
  InType type;
  unsigned bytes;
  bool is_signed;
};

constexpr IntType kIntTypes[] = {
    {InType::Int8, 1, true},      {InType::UInt8, 1, false},    {InType::Int16, 2, true},
    {InType::UInt16, 2, false},   {InType::Int32, 4, true},     {InType::UInt32, 4, false},
    {InType::Int64, 8, true},     {InType::UInt64, 8, false},   {InType::Boolean, 4, false},
    {InType::HexInt32, 4, false}, {InType::HexInt64, 8, false}, {InType::FileTime, 8, false},
    {InType::Pointer, 8, false},
};

// Edge values of a type as 64-bit bits (sign-extended for signed types).
std::vector<uint64_t> edges(const IntType& t) {
  if (t.type == InType::Boolean) return {0, 1, 2};
  unsigned bits = t.bytes * 8;
  uint64_t umax = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  if (!t.is_signed) return {0, 1, 3, umax / 2, umax / 2 + 1, umax - 1, umax};
  int64_t max = int64_t(umax / 2);
  int64_t min = -max - 1;
  return {uint64_t(min), uint64_t(min + 1), uint64_t(int64_t{-3}), ~uint64_t{0}, 0, 1, 3,
          uint64_t(max)};
}

// Independent oracle for docs/semantics.md §2.2 integer operators.
bool oracle(PayloadOp op, bool is_signed, uint64_t v, uint64_t lo, uint64_t hi) {
  auto lt = [&](uint64_t a, uint64_t b) { return is_signed ? int64_t(a) < int64_t(b) : a < b; };
  bool in = !lt(v, lo) && !lt(hi, v);
  switch (op) {
    case PayloadOp::Eq: return v == lo;
    case PayloadOp::Ne: return v != lo;
    case PayloadOp::Le: return !lt(lo, v);
    case PayloadOp::Gt: return lt(lo, v);
    case PayloadOp::Lt: return lt(v, lo);
    case PayloadOp::Ge: return !lt(v, lo);
    case PayloadOp::Between: return in;
    case PayloadOp::NotBetween: return !in;
    case PayloadOp::Modulo:
      if (!is_signed) return v % lo == 0;
      if (int64_t(lo) == -1) return true;
      return int64_t(v) % int64_t(lo) == 0;
    default: return false;
  }
}

std::vector<uint8_t> le_bytes(uint64_t v, unsigned n) {
  Bytes b;
  b.raw(&v, n);
  return b.data;
}

constexpr PayloadOp kIntOps[] = {PayloadOp::Eq,      PayloadOp::Ne,         PayloadOp::Le,
                                 PayloadOp::Gt,      PayloadOp::Lt,         PayloadOp::Ge,
                                 PayloadOp::Between, PayloadOp::NotBetween, PayloadOp::Modulo};

TEST(InterpPayloadInt, EveryOperatorOnEveryIntegerType) {
  int checked = 0;
  for (const IntType& t : kIntTypes) {
    std::vector<uint64_t> vals = edges(t);
    for (PayloadOp op : kIntOps) {
      for (uint64_t lo : vals) {
        for (uint64_t hi : vals) {
          bool range_op = op == PayloadOp::Between || op == PayloadOp::NotBetween;
          if (!range_op && hi != vals.front()) continue;
          if (op == PayloadOp::Modulo && lo == 0) continue;
          auto interp = compile(
              spec_with({field("f", t.type)}, {filter(kId, {pred(0, op, lo, range_op ? hi : 0)})}));
          for (uint64_t v : vals) {
            bool want = oracle(op, t.is_signed, v, lo, range_op ? hi : 0);
            Event e = event(kId, 0, 0, le_bytes(v, t.bytes));
            ASSERT_EQ(interp->route(e.view()).deliver, want ? 1u : 0u)
                << in_type_name(t.type) << " op " << int(op) << " v " << int64_t(v) << " lo "
                << int64_t(lo) << " hi " << int64_t(hi);
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 3000);
}

TEST(InterpPayloadInt, UndecodableIsFalseForEveryOperatorAndNotIsTrue) {
  for (const IntType& t : kIntTypes) {
    for (PayloadOp op : kIntOps) {
      uint64_t lo = op == PayloadOp::Modulo ? 1 : 0;
      uint64_t hi = 5;
      auto plain = compile(spec_with({field("f", t.type)}, {filter(kId, {pred(0, op, lo, hi)})}));
      auto negated =
          compile(spec_with({field("f", t.type)}, {not_filter(kId, pred(0, op, lo, hi))}));
      for (unsigned n = 0; n < t.bytes; ++n) {
        Event e = event(kId, 0, 0, le_bytes(0, n));
        EXPECT_EQ(plain->route(e.view()).deliver, 0u)
            << in_type_name(t.type) << " op " << int(op) << " size " << n;
        EXPECT_EQ(negated->route(e.view()).deliver, 1u)
            << in_type_name(t.type) << " op " << int(op);
      }
    }
  }
}

struct StrCase {
  PayloadOp op;
  std::string needle;
  std::u16string value;
  bool want;
};

const StrCase kStrCases[] = {
    {PayloadOp::Is, "User", u"User", true},
    {PayloadOp::Is, "User", u"uSER", true},
    {PayloadOp::Is, "User", u"Users", false},
    {PayloadOp::Is, "User", u"", false},
    {PayloadOp::Is, "", u"", true},
    {PayloadOp::IsNot, "User", u"USER", false},
    {PayloadOp::IsNot, "User", u"Admin", true},
    {PayloadOp::Contains, "UNI", u"community", true},
    {PayloadOp::Contains, "UNI", u"comm", false},
    {PayloadOp::Contains, "uni", u"UNI", true},
    {PayloadOp::DoesntContain, "UNI", u"community", false},
    {PayloadOp::DoesntContain, "UNI", u"comm", true},
    {PayloadOp::Is,
     "\xC3\x89"
     "cole",
     u"\u00E9COLE", true},                                     // É/é: simple folding
    {PayloadOp::Contains, "\xCE\xA3", u"\u03C3\u03C3", true},  // Σ matches σ
};

TEST(InterpPayloadStr, OperatorsOnWideAndAnsiStrings) {
  for (InType type : {InType::UnicodeString, InType::AnsiString}) {
    for (const StrCase& c : kStrCases) {
      bool ascii =
          std::all_of(c.value.begin(), c.value.end(), [](char16_t ch) { return ch < 0x80; });
      Bytes b;
      if (type == InType::UnicodeString) {
        b.wstr(c.value);
      } else {
        if (!ascii) continue;  // the ANSI payload writer here is ASCII-only
        b.str(std::string(c.value.begin(), c.value.end()));
      }
      auto interp =
          compile(spec_with({field("s", type)}, {filter(kId, {pred_str(0, c.op, c.needle)})}));
      EXPECT_EQ(interp->route(event(kId, 0, 0, b.data).view()).deliver, c.want ? 1u : 0u)
          << in_type_name(type) << " op " << int(c.op) << " " << c.needle;
    }
  }
}

TEST(InterpPayloadStr, AnsiUtf8Folding) {
  auto interp =
      compile(spec_with({field("s", InType::AnsiString)}, {filter(kId, {pred_str(0, PayloadOp::Is,
                                                                                 "\xC3\x89"
                                                                                 "COLE")})}));
  EXPECT_EQ(interp
                ->route(event(kId, 0, 0,
                              Bytes()
                                  .str("\xC3\xA9"
                                       "cole")
                                  .data)
                            .view())
                .deliver,
            1u);
  EXPECT_EQ(interp->route(event(kId, 0, 0, Bytes().str("ecole").data).view()).deliver, 0u);
}

TEST(InterpPayloadStr, UndecodableIsFalseForEveryOperator) {
  for (InType type : {InType::UnicodeString, InType::AnsiString}) {
    for (PayloadOp op :
         {PayloadOp::Is, PayloadOp::IsNot, PayloadOp::Contains, PayloadOp::DoesntContain}) {
      auto plain = compile(spec_with({field("s", type)}, {filter(kId, {pred_str(0, op, "zz")})}));
      auto negated =
          compile(spec_with({field("s", type)}, {not_filter(kId, pred_str(0, op, "zz"))}));
      // Missing terminator, an odd byte, and an empty payload.
      Bytes unterminated =
          type == InType::UnicodeString ? Bytes().wstr(u"abc", false) : Bytes().str("abc", false);
      Bytes odd = Bytes().u8('a');
      for (const Bytes& b : {unterminated, odd, Bytes()}) {
        if (type == InType::AnsiString && b.data.size() == 1)
          continue;  // "a" unterminated: same case
        EXPECT_EQ(plain->route(event(kId, 0, 0, b.data).view()).deliver, 0u) << int(op);
        EXPECT_EQ(negated->route(event(kId, 0, 0, b.data).view()).deliver, 1u) << int(op);
      }
    }
  }
}

TEST(InterpPayloadGuid, IsIsNotAndTruncated) {
  Guid g = *Guid::parse("{0E95CFBC-58D4-44BA-BE40-E63A853536DF}");
  Guid h = *Guid::parse("{0E95CFBC-58D4-44BA-BE40-E63A853536DE}");
  auto is = compile(
      spec_with({field("g", InType::Guid)}, {filter(kId, {pred_guid(0, PayloadOp::Is, g)})}));
  auto isnot = compile(
      spec_with({field("g", InType::Guid)}, {filter(kId, {pred_guid(0, PayloadOp::IsNot, g)})}));
  EXPECT_EQ(is->route(event(kId, 0, 0, Bytes().guid(g).data).view()).deliver, 1u);
  EXPECT_EQ(is->route(event(kId, 0, 0, Bytes().guid(h).data).view()).deliver, 0u);
  EXPECT_EQ(isnot->route(event(kId, 0, 0, Bytes().guid(g).data).view()).deliver, 0u);
  EXPECT_EQ(isnot->route(event(kId, 0, 0, Bytes().guid(h).data).view()).deliver, 1u);
  std::vector<uint8_t> cut = Bytes().guid(g).truncate(15).data;
  EXPECT_EQ(is->route(event(kId, 0, 0, cut).view()).deliver, 0u);
  EXPECT_EQ(isnot->route(event(kId, 0, 0, cut).view()).deliver, 0u);
}

TEST(InterpPayloadLayout, FieldsAfterVariableLengthFields) {
  std::vector<FieldDef> fields = {field("ws", InType::UnicodeString), field("n", InType::UInt32),
                                  field("s", InType::AnsiString),     field("x", InType::UInt16),
                                  field("sid", InType::Sid),          field("y", InType::Int8)};
  auto interp = compile(
      spec_with(fields, {filter(kId, {pred(3, PayloadOp::Eq, 0xBEEF), pred(1, PayloadOp::Eq, 7),
                                      pred(5, PayloadOp::Eq, uint64_t(int64_t{-2}))})}));
  Bytes ok = Bytes().wstr(u"hello").u32(7).str("abc").u16(0xBEEF);
  ok.u8(1).u8(2).raw("\0\0\0\0\0\5", 6).u32(18).u32(99);  // S-1-5-18-99: 8 + 2*4 bytes
  ok.u8(0xFE);
  EXPECT_EQ(interp->route(event(kId, 0, 0, ok.data).view()).deliver, 1u);
  Bytes other =
      Bytes().wstr(u"").u32(7).str("").u16(0xBEEF).u8(1).u8(0).raw("\0\0\0\0\0\5", 6).u8(0xFE);
  EXPECT_EQ(interp->route(event(kId, 0, 0, other.data).view()).deliver, 1u);
  EXPECT_EQ(
      interp->route(event(kId, 0, 0, Bytes(ok).truncate(ok.data.size() - 1).data).view()).deliver,
      0u);
  Bytes wrong = Bytes().wstr(u"hello").u32(7).str("abcd").u16(0xBEEF);
  EXPECT_EQ(interp->route(event(kId, 0, 0, wrong.data).view()).deliver, 0u);
}

TEST(InterpPayloadLayout, CountAndLengthFromEarlierFields) {
  std::vector<FieldDef> fields = {field("cnt", InType::UInt16),
                                  field("arr", InType::UInt32, from(0)),
                                  field("len", InType::UInt8),
                                  field("name", InType::UnicodeString, {}, from(2)),
                                  field("blob", InType::Binary, {}, from(2)),
                                  field("fixed", InType::UInt64, fixed(2)),
                                  field("tail", InType::UInt32)};
  auto interp = compile(spec_with(
      fields, {filter(kId, {pred_str(3, PayloadOp::Is, "abc"), pred(6, PayloadOp::Eq, 77)})}));
  auto make = [](uint16_t cnt, uint8_t len, const std::u16string& name, size_t blob) {
    Bytes b;
    b.u16(cnt);
    for (uint16_t i = 0; i < cnt; ++i) b.u32(i);
    b.u8(len).wstr(name, false);
    for (size_t i = 0; i < blob; ++i) b.u8(0xAA);
    return b.u64(1).u64(2).u32(77);
  };
  EXPECT_EQ(interp->route(event(kId, 0, 0, make(3, 3, u"abc", 3).data).view()).deliver, 1u);
  EXPECT_EQ(interp->route(event(kId, 0, 0, make(0, 3, u"ABC", 3).data).view()).deliver, 1u);
  // Lengths disagreeing with the bytes shift "tail": its predicate sees other bytes.
  EXPECT_EQ(interp->route(event(kId, 0, 0, make(2, 3, u"abc", 3).truncate(0).data).view()).deliver,
            0u);
  Bytes too_many = make(3, 3, u"abc", 3);
  too_many.data[0] = 0xE8;  // count 1000: the array runs past the payload
  too_many.data[1] = 0x03;
  EXPECT_EQ(interp->route(event(kId, 0, 0, too_many.data).view()).deliver, 0u);
  EXPECT_EQ(interp->route(event(kId, 0, 0, make(1, 2, u"ab", 2).data).view()).deliver, 0u);
}

TEST(InterpPayloadLayout, ConstantOffsetsPastTheEndAreUndecodable) {
  // Zero-size field after a truncated fixed one: reached by a constant offset.
  std::vector<FieldDef> fields = {field("a", InType::UInt32),
                                  field("s", InType::UnicodeString, {}, fixed(0)),
                                  field("b", InType::UInt8)};
  auto is_empty = compile(spec_with(fields, {filter(kId, {pred_str(1, PayloadOp::Is, "")})}));
  auto not_b = compile(spec_with(fields, {not_filter(kId, pred(2, PayloadOp::Ne, 9))}));
  EXPECT_EQ(is_empty->route(event(kId, 0, 0, Bytes().u32(1).data).view()).deliver, 1u);
  EXPECT_EQ(is_empty->route(event(kId, 0, 0, Bytes().u16(1).data).view()).deliver, 0u);
  EXPECT_EQ(not_b->route(event(kId, 0, 0, Bytes().u32(1).data).view()).deliver, 1u);
  EXPECT_EQ(not_b->route(event(kId, 0, 0, Bytes().u32(1).u8(9).data).view()).deliver, 1u);
  EXPECT_EQ(not_b->route(event(kId, 0, 0, Bytes().u32(1).u8(8).data).view()).deliver, 0u);
}

// a: uint32, b: uint32 → pass/fail per (a, b) for several filter sets.
struct AggCase {
  const char* name;
  std::vector<PayloadFilter> filters;
  bool (*want)(uint32_t a, uint32_t b);
};

TEST(InterpPayloadAggregation, GroupsAndMatchAny) {
  auto eq = [](uint32_t f, uint64_t v) { return pred(f, PayloadOp::Eq, v); };
  const AggCase cases[] = {
      {"all-preds",
       {filter(kId, {eq(0, 1), eq(1, 2)})},
       [](uint32_t a, uint32_t b) { return a == 1 && b == 2; }},
      {"any-preds",
       {filter(kId, {eq(0, 1), eq(1, 2)}, true)},
       [](uint32_t a, uint32_t b) { return a == 1 || b == 2; }},
      {"any-group",
       {filter(kId, {eq(0, 1)}), filter(kId, {eq(1, 2)})},
       [](uint32_t a, uint32_t b) { return a == 1 || b == 2; }},
      {"all-group",
       {filter(kId, {eq(0, 1)}, false, true), filter(kId, {eq(1, 2)}, false, true)},
       [](uint32_t a, uint32_t b) { return a == 1 && b == 2; }},
      {"mixed",
       {filter(kId, {eq(0, 1)}, false, true), filter(kId, {eq(1, 2)}), filter(kId, {eq(1, 3)})},
       [](uint32_t a, uint32_t b) { return a == 1 && (b == 2 || b == 3); }},
      {"other-version-only",
       {filter(kId, {eq(0, 1)}, false, false, 1)},
       [](uint32_t, uint32_t) { return true; }},
  };
  for (const AggCase& c : cases) {
    ProgramSpec spec =
        spec_with({field("a", InType::UInt32), field("b", InType::UInt32)}, c.filters);
    spec.provider.events.push_back(event_def("E_v1", kId, 1, {field("a", InType::UInt32)}));
    auto interp = compile(spec);
    for (uint32_t a : {0u, 1u}) {
      for (uint32_t b : {0u, 2u, 3u}) {
        Event e = event(kId, 0, 0, Bytes().u32(a).u32(b).data);
        EXPECT_EQ(interp->route(e.view()).deliver, c.want(a, b) ? 1u : 0u)
            << c.name << " a=" << a << " b=" << b;
      }
    }
    // Events no filter names pass.
    EXPECT_EQ(interp->route(event(kId + 1).view()).deliver, 1u) << c.name;
  }
}

TEST(InterpPayload, EnableTraceEx2Example) {
  ProviderDef prov;
  prov.name = "Example-Provider";
  prov.events.push_back(
      event_def("Example_Event_1", 1, 0,
                {field("Initiator", InType::UnicodeString), field("Level", InType::UInt32)}, 1));
  prov.events.push_back(
      event_def("Example_Event_2", 2, 0,
                {field("Title", InType::UnicodeString), field("InstanceId", InType::Guid),
                 field("ErrorCode", InType::UInt32)},
                1));
  Guid g = *Guid::parse("{0E95CFBC-58D4-44BA-BE40-E63A853536DF}");
  EnableParams p;
  p.level = 5;
  p.payload = {filter(1, {pred_str(0, PayloadOp::Is, "User"), pred(1, PayloadOp::Between, 7, 16)}),
               filter(2,
                      {pred_str(0, PayloadOp::Contains, "UNI"), pred_guid(1, PayloadOp::Is, g),
                       pred(2, PayloadOp::Ne, 0)},
                      true)};
  auto interp = compile(one_session(prov, p));
  auto e1 = [&](const std::u16string& who, uint32_t lvl) {
    return event(1, 1, 0, Bytes().wstr(who).u32(lvl).data);
  };
  auto e2 = [&](const std::u16string& title, Guid id, uint32_t code) {
    return event(2, 1, 0, Bytes().wstr(title).guid(id).u32(code).data);
  };
  EXPECT_EQ(interp->route(e1(u"user", 7).view()).deliver, 1u);
  EXPECT_EQ(interp->route(e1(u"USER", 16).view()).deliver, 1u);
  EXPECT_EQ(interp->route(e1(u"User", 17).view()).deliver, 0u);
  EXPECT_EQ(interp->route(e1(u"Admin", 8).view()).deliver, 0u);
  EXPECT_EQ(interp->route(e2(u"Unicorn", Guid{}, 0).view()).deliver, 1u);
  EXPECT_EQ(interp->route(e2(u"x", g, 0).view()).deliver, 1u);
  EXPECT_EQ(interp->route(e2(u"x", Guid{}, 5).view()).deliver, 1u);
  EXPECT_EQ(interp->route(e2(u"x", Guid{}, 0).view()).deliver, 0u);
}

TEST(InterpPayload, SharedRegionAcrossSessions) {
  // Session 0 filters the event but fails its level; session 1 filters it too and passes;
  // session 2 has no payload filter. The region must still run for session 1.
  ProgramSpec spec = spec_with({field("a", InType::UInt32)}, {});
  EnableParams s0;
  s0.level = 1;
  s0.payload = {filter(kId, {pred(0, PayloadOp::Eq, 5)})};
  EnableParams s1;
  s1.payload = {filter(kId, {pred(0, PayloadOp::Gt, 4)})};
  EnableParams s2;
  spec.sessions = {SessionEntry{0, s0}, SessionEntry{1, s1}, SessionEntry{2, s2}};
  auto interp = compile(spec);
  EXPECT_EQ(interp->route(event(kId, 3, 0, Bytes().u32(5).data).view()).deliver, 0b110u);
  EXPECT_EQ(interp->route(event(kId, 1, 0, Bytes().u32(5).data).view()).deliver, 0b111u);
  EXPECT_EQ(interp->route(event(kId, 1, 0, Bytes().u32(4).data).view()).deliver, 0b100u);
  EXPECT_EQ(interp->route(event(kId + 1, 1, 0).view()).deliver, 0b111u);
}

TEST(InterpPayload, EmptyFilterPassesOnlyItsEvent) {
  // An always-true filter for event A must not let a failing filter for event B pass.
  ProgramSpec spec = spec_with({field("a", InType::UInt32)}, {});
  spec.provider.events.push_back(event_def("B", 20, 0, {field("b", InType::UInt32)}));
  EnableParams p;
  PayloadFilter empty;
  empty.event_id = kId;
  p.payload = {empty, filter(20, {pred(0, PayloadOp::Eq, 1)})};
  spec.sessions = {SessionEntry{0, p}};
  auto interp = compile(spec);
  EXPECT_EQ(interp->route(event(kId, 0, 0, Bytes().u32(0).data).view()).deliver, 1u);
  EXPECT_EQ(interp->route(event(20, 0, 0, Bytes().u32(0).data).view()).deliver, 0u);
  EXPECT_EQ(interp->route(event(20, 0, 0, Bytes().u32(1).data).view()).deliver, 1u);
}

TEST(Lower, RejectsInvalidPayloadSpecs) {
  auto bad = [](std::vector<FieldDef> fields, PayloadFilter f) {
    return !lower(spec_with(std::move(fields), {std::move(f)})).has_value();
  };
  EXPECT_TRUE(
      bad({field("a", InType::UInt32)}, filter(99, {pred(0, PayloadOp::Eq, 1)})));  // unknown event
  EXPECT_TRUE(
      bad({field("a", InType::UInt32)}, filter(kId, {pred(1, PayloadOp::Eq, 1)})));  // no field
  EXPECT_TRUE(bad({field("a", InType::UInt32)}, filter(kId, {pred(0, PayloadOp::Modulo, 0)})));
  EXPECT_TRUE(bad({field("a", InType::UInt32)}, filter(kId, {pred(0, PayloadOp::Is, 0)})));
  EXPECT_TRUE(bad({field("a", InType::Float)}, filter(kId, {pred(0, PayloadOp::Eq, 0)})));
  EXPECT_TRUE(bad({field("a", InType::UnicodeString)}, filter(kId, {pred(0, PayloadOp::Eq, 0)})));
  EXPECT_TRUE(
      bad({field("a", InType::UInt32, fixed(2))}, filter(kId, {pred(0, PayloadOp::Eq, 0)})));
  EXPECT_TRUE(bad({field("a", InType::UInt32, from(1)), field("b", InType::UInt32)},
                  filter(kId, {pred(1, PayloadOp::Eq, 0)})));
  PayloadFilter cyclic = filter(kId, {pred(0, PayloadOp::Eq, 1), pred(0, PayloadOp::Eq, 2)});
  cyclic.expr.kids[0] = 2;  // child after its parent
  EXPECT_TRUE(bad({field("a", InType::UInt32)}, cyclic));
}

}  // namespace
}  // namespace pfc::testing
