// tests/jit/tlg_filter_test.cc — payload filters on TraceLogging events (docs/language.md
// §3 "TraceLogging providers", runtime/tlg_filter.h): events told apart by the name in
// their metadata, fields found there by name, and the rule that an event whose metadata
// does not hold a declared field with the declared type does not match. Each event is
// routed through the filter view on the interpreter (the reference) and on native code at
// every level, which must agree.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "compiler/lower.h"
#include "runtime/tlg.h"
#include "runtime/tlg_filter.h"
#include "tests/jit/jit_test_util.h"

namespace pfc::testing {
namespace {

const char kScript[] = R"(provider Comp tracelogging {
  event Sent (level=4) { Count: uint32; Name: string; }
  event Other (level=4) { Count: uint32; }
}
session A { enable Comp { payload Sent where Count gt 3 and Name contains "x"; } }
session B { enable Comp { payload Sent all { Count le 3 } } }
session C { enable Comp; }
)";

using Bytes = std::vector<uint8_t>;

struct MetaField {
  std::string name;
  uint8_t in_type;
};

// An event metadata blob (runtime/tlg.h): size word, no tags, name, scalar fields.
Bytes meta_of(const std::string& event, const std::vector<MetaField>& fields) {
  Bytes b = {0, 0, 0};  // size word, then a tag byte 0
  put_string(b, event);
  for (const MetaField& f : fields) {
    put_string(b, f.name);
    b.push_back(f.in_type);
  }
  b[0] = static_cast<uint8_t>(b.size());
  b[1] = static_cast<uint8_t>(b.size() >> 8);
  return b;
}

Bytes u32(uint32_t v) { return {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)}; }

Event tl_event(const std::string& name, const std::vector<MetaField>& fields, const Bytes& data) {
  Event e;
  e.desc.level = 4;
  e.desc.channel = tlg::kChannel;
  e.name = name;
  e.meta = meta_of(name, fields);
  e.payload = data;
  return e;
}

Bytes cat(std::vector<Bytes> parts) {
  Bytes out;
  for (const Bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}
Bytes str(const std::string& s) {
  Bytes b;
  put_string(b, s);
  return b;
}

struct Case {
  std::string what;
  Event event;
  uint64_t deliver;  // bits A=1, B=2, C=4
};

TEST(TlgFilter, NamedEventsAndFieldsFoundByName) {
  const ProgramSpec spec = spec_from_script(kScript);
  ASSERT_TRUE(spec.provider.tracelogging);
  auto program = lower(spec);
  ASSERT_TRUE(program.has_value()) << program.error().message;
  AllEngines engines(*program);
  ASSERT_TRUE(engines.ok());
  const tlg::FilterViews views(spec);
  ASSERT_FALSE(views.empty());

  const std::vector<MetaField> declared = {{"Count", tlg::kInUInt32}, {"Name", tlg::kInAnsiString}};
  const std::vector<MetaField> swapped = {{"Name", tlg::kInAnsiString}, {"Count", tlg::kInUInt32}};
  const std::vector<MetaField> extra = {{"Pad", tlg::kInUnicodeString},
                                        {"Name", tlg::kInAnsiString},
                                        {"Id", tlg::kInUInt64},
                                        {"Count", tlg::kInUInt32}};
  const std::vector<Case> cases = {
      {"declared order, A passes", tl_event("Sent", declared, cat({u32(5), str("xyz")})), 1 | 4},
      {"declared order, B passes", tl_event("Sent", declared, cat({u32(2), str("xyz")})), 2 | 4},
      {"A's string fails", tl_event("Sent", declared, cat({u32(5), str("abc")})), 4},
      {"fields in another order", tl_event("Sent", swapped, cat({str("axb"), u32(9)})), 1 | 4},
      {"other fields around them",
       tl_event("Sent", extra, cat({Bytes{'p', 0, 0, 0}, str("x"), Bytes(8, 0), u32(4)})), 1 | 4},
      {"Count is a uint64 here: no match",
       tl_event("Sent", {{"Count", tlg::kInUInt64}, {"Name", tlg::kInAnsiString}},
                cat({Bytes(8, 0), str("x")})),
       4},
      {"Name is missing: no match", tl_event("Sent", {{"Count", tlg::kInUInt32}}, u32(1)), 4},
      {"Count is an array: no match",
       tl_event(
           "Sent",
           {{"Count", uint8_t(tlg::kInUInt32 | tlg::kArityVcount)}, {"Name", tlg::kInAnsiString}},
           cat({Bytes{1, 0}, u32(9), str("x")})),
       4},
      {"truncated data: no match", tl_event("Sent", declared, cat({u32(5), Bytes{'x'}})), 4},
      {"damaged metadata: no match",
       [&] {
         Event e = tl_event("Sent", declared, cat({u32(5), str("x")}));
         e.meta.back() = 0x1F;  // an unknown in-type
         return e;
       }(),
       4},
      {"another event is not filtered", tl_event("Other", {{"Count", tlg::kInUInt32}}, u32(0)),
       1 | 2 | 4},
      {"an unnamed event is not filtered",
       [] {
         Event e;
         e.desc.level = 4;
         return e;
       }(),
       1 | 2 | 4},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const EventView original = c.event.view();
    EventView storage;
    const EventView& v = views.view(original, storage);
    const EngineResults r = engines.route(v);
    EXPECT_EQ(r.interp.deliver, c.deliver);
    for (const RouteResult& n : r.native) EXPECT_EQ(n, r.interp) << describe(n);
    // The plan cache gives the same view again.
    EventView again;
    const EventView& w = views.view(original, again);
    EXPECT_EQ(Bytes(v.payload, v.payload + v.payload_size),
              Bytes(w.payload, w.payload + w.payload_size));
  }
}

}  // namespace
}  // namespace pfc::testing
