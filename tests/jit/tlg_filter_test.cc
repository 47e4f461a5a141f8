// tests/jit/tlg_filter_test.cc — payload filters on TraceLogging events (docs/language.md
// §3 "TraceLogging providers", runtime/tlg_filter.h): events told apart by the name in
// their metadata, fields and structure members found there by name and path, and the rule
// that an event whose metadata does not hold a declared field with the declared type does
// not match. Each event is routed through the filter view on the interpreter (the
// reference) and on native code at every level, which must agree; random structure
// layouts are checked against the mask their generator decides.
#include <algorithm>
#include <random>
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
  uint8_t members = 0;  // a structure (in_type kInStruct, arity bits allowed): its member count
};

// An event metadata blob (runtime/tlg.h): size word, no tags, name, fields (a structure's
// members follow it).
Bytes meta_of(const std::string& event, const std::vector<MetaField>& fields) {
  Bytes b = {0, 0, 0};  // size word, then a tag byte 0
  put_string(b, event);
  for (const MetaField& f : fields) {
    put_string(b, f.name);
    if (f.members == 0) {
      b.push_back(f.in_type);
      continue;
    }
    b.push_back(f.in_type | tlg::kInChain);
    b.push_back(f.members);
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

Bytes cat(const std::vector<Bytes>& parts) {
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

// Routes each case's event through `script`'s filter view on the interpreter (whose deliver
// mask must be the case's) and on native code at every level (which must agree), and
// checks that the plan cache gives the same view again.
void route_cases(const char* script, const std::vector<Case>& cases) {
  const ProgramSpec spec = spec_from_script(script);
  ASSERT_TRUE(spec.provider.tracelogging);
  auto program = lower(spec);
  ASSERT_TRUE(program.has_value()) << program.error().message;
  AllEngines engines(*program);
  ASSERT_TRUE(engines.ok());
  const tlg::FilterViews views(spec);
  ASSERT_FALSE(views.empty());
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const EventView original = c.event.view();
    EventView storage;
    const EventView& v = views.view(original, storage);
    const EngineResults r = engines.route(v);
    EXPECT_EQ(r.interp.deliver, c.deliver);
    for (const RouteResult& n : r.native) EXPECT_EQ(n, r.interp) << describe(n);
    EventView again;
    const EventView& w = views.view(original, again);
    EXPECT_EQ(Bytes(v.payload, v.payload + v.payload_size),
              Bytes(w.payload, w.payload + w.payload_size));
  }
}

TEST(TlgFilter, NamedEventsAndFieldsFoundByName) {
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
  route_cases(kScript, cases);
}

const char kStructScript[] = R"(provider Geo tracelogging {
  event Moved (level=4) { Id: uint32; Point: struct { X: int32; Inner: struct { Z: uint8; } } }
}
session A { enable Geo { payload Moved where Point.X gt 3 and Point.Inner.Z eq 1 and Id gt 0; } }
session B { enable Geo { payload Moved all { Point.X le 3 } } }
session C { enable Geo; }
)";

Bytes u8(uint8_t v) { return {v}; }

// Structure members named by their paths (docs/language.md §3 "TraceLogging providers"):
// found at any place inside their structures, skipped past whatever precedes them; an
// event whose structure lacks a member, has it with another type, or is an array of
// structures does not match.
TEST(TlgFilter, StructureMembersFoundByPath) {
  constexpr uint8_t S = tlg::kInStruct;
  const std::vector<MetaField> declared = {{"Id", tlg::kInUInt32},
                                           {"Point", S, 2},
                                           {"X", tlg::kInInt32},
                                           {"Inner", S, 1},
                                           {"Z", tlg::kInUInt8}};
  const std::vector<MetaField> reordered = {
      {"Skip", S, 2},       {"A", tlg::kInUInt16}, {"B", tlg::kInAnsiString},
      {"Point", S, 2},      {"Inner", S, 2},       {"Pad", tlg::kInUnicodeString},
      {"Z", tlg::kInUInt8}, {"X", tlg::kInInt32},  {"Id", tlg::kInUInt32}};
  const std::vector<MetaField> no_z = {{"Id", tlg::kInUInt32},
                                       {"Point", S, 2},
                                       {"X", tlg::kInInt32},
                                       {"Inner", S, 1},
                                       {"Q", tlg::kInUInt8}};
  const std::vector<MetaField> x_unsigned = {{"Id", tlg::kInUInt32},
                                             {"Point", S, 2},
                                             {"X", tlg::kInUInt32},
                                             {"Inner", S, 1},
                                             {"Z", tlg::kInUInt8}};
  const std::vector<MetaField> z_top_level = {
      {"Id", tlg::kInUInt32}, {"Point", S, 1}, {"X", tlg::kInInt32}, {"Z", tlg::kInUInt8}};
  const std::vector<MetaField> point_scalar = {{"Id", tlg::kInUInt32}, {"Point", tlg::kInInt32}};
  const std::vector<MetaField> inner_array = {{"Id", tlg::kInUInt32},
                                              {"Point", S, 2},
                                              {"X", tlg::kInInt32},
                                              {"Inner", uint8_t(S | tlg::kArityVcount), 1},
                                              {"Z", tlg::kInUInt8}};
  const std::vector<MetaField> dotted_names = {
      {"Id", tlg::kInUInt32}, {"Point.X", tlg::kInInt32}, {"Point.Inner.Z", tlg::kInUInt8}};
  const Bytes data = cat({u32(7), u32(5), u8(1)});
  const std::vector<Case> cases = {
      {"declared layout, A passes", tl_event("Moved", declared, data), 1 | 4},
      {"declared layout, B passes", tl_event("Moved", declared, cat({u32(7), u32(2), u8(1)})),
       2 | 4},
      {"A's member Z fails", tl_event("Moved", declared, cat({u32(7), u32(5), u8(2)})), 4},
      {"negative member", tl_event("Moved", declared, cat({u32(7), u32(0xFFFFFFFF), u8(1)})),
       2 | 4},
      {"members in another order, after other fields",
       tl_event("Moved", reordered,
                cat({Bytes{1, 0}, str("bb"), Bytes{'w', 0, 0, 0}, u8(1), u32(9), u32(3)})),
       1 | 4},
      {"Inner lacks Z: no match", tl_event("Moved", no_z, data), 4},
      {"Point.X is a uint32: no match", tl_event("Moved", x_unsigned, data), 4},
      {"Z outside Inner: no match", tl_event("Moved", z_top_level, data), 4},
      {"Point is no structure: no match", tl_event("Moved", point_scalar, cat({u32(7), u32(5)})),
       4},
      {"Inner is an array: no match",
       tl_event("Moved", inner_array, cat({u32(7), u32(5), Bytes{1, 0}, u8(1)})), 4},
      {"top-level fields with the paths as names", tl_event("Moved", dotted_names, data), 1 | 4},
      {"data ends inside the structure: no match",
       tl_event("Moved", declared, cat({u32(7), u32(5)})), 4},
  };
  route_cases(kStructScript, cases);
}

// One generated field of a random Moved event: its metadata entry and its value's bytes
// (a structure's members follow it in `fields`; its value is theirs).
struct GenField {
  MetaField meta;
  Bytes value;
};

// A random Moved event for kStructScript: Id, Point (X, Inner (Z)) and padding, in random
// orders, each field sometimes missing, of another type, or (Point, Inner) no structure or
// an array of them. `deliver` is the mask the script's sessions must give it, decided
// here from what was generated rather than by the router's plan.
Case random_moved(std::mt19937& rng) {
  auto chance = [&](int percent) { return static_cast<int>(rng() % 100) < percent; };
  constexpr uint8_t S = tlg::kInStruct;
  const int32_t x = static_cast<int32_t>(rng() % 9) - 2;
  const uint8_t z = static_cast<uint8_t>(rng() % 3);
  const uint32_t id = rng() % 3;
  bool fits = true;
  auto scalar = [&](const std::string& name, uint8_t type, Bytes value) {
    return std::vector<GenField>{{{name, type}, std::move(value)}};
  };
  // A structure `name` of `members` (each a field list), shuffled; sometimes an array of
  // one element (then its members are no scalars the script can name).
  auto structure = [&](const std::string& name, std::vector<std::vector<GenField>> members) {
    std::shuffle(members.begin(), members.end(), rng);
    const bool array = chance(10);
    fits = fits && !array;
    std::vector<GenField> out = {
        {{name, uint8_t(array ? S | tlg::kArityVcount : S), uint8_t(members.size())},
         array ? Bytes{1, 0} : Bytes{}}};
    for (auto& m : members) out.insert(out.end(), m.begin(), m.end());
    return out;
  };
  std::vector<std::vector<GenField>> inner, point, top;
  if (chance(90)) inner.push_back(scalar("Z", tlg::kInUInt8, u8(z)));
  else fits = false;
  if (chance(30)) inner.push_back(scalar("Pad", tlg::kInAnsiString, str("p")));
  if (chance(90)) {
    const bool other = chance(10);
    fits = fits && !other;
    point.push_back(scalar("X", other ? tlg::kInUInt32 : tlg::kInInt32, u32(uint32_t(x))));
  } else {
    fits = false;
  }
  if (!inner.empty() && chance(92)) point.push_back(structure("Inner", inner));
  else fits = false;
  if (chance(30)) point.push_back(scalar("Y", tlg::kInInt16, Bytes{1, 2}));
  if (!point.empty() && chance(92)) top.push_back(structure("Point", point));
  else if (chance(50)) fits = false, top.push_back(scalar("Point", tlg::kInInt32, u32(0)));
  else fits = false;
  const bool wide_id = chance(8);
  fits = fits && !wide_id;
  top.push_back(wide_id ? scalar("Id", tlg::kInUInt64, cat({u32(id), u32(0)}))
                        : scalar("Id", tlg::kInUInt32, u32(id)));
  if (chance(30)) top.push_back(scalar("Pad", tlg::kInUnicodeString, Bytes{'q', 0, 0, 0}));
  std::shuffle(top.begin(), top.end(), rng);
  std::vector<MetaField> meta;
  Bytes data;
  for (const auto& t : top) {
    for (const GenField& f : t) {
      meta.push_back(f.meta);
      data.insert(data.end(), f.value.begin(), f.value.end());
    }
  }
  // Data that ends inside the last field matters only when a filter needs that field.
  const std::string& last = meta.back().name;
  const bool needed = meta.back().members == 0 && (last == "Id" || last == "X" || last == "Z");
  if (chance(10) && needed) {
    data.pop_back();
    fits = false;
  }
  uint64_t deliver = 4;
  if (fits && x > 3 && z == 1 && id > 0) deliver |= 1;
  if (fits && x <= 3) deliver |= 2;
  return {"random Moved event", tl_event("Moved", meta, data), deliver};
}

// Random layouts of kStructScript's event: the interpreter gives the mask decided from the
// generated layout, and native code at every level agrees (fixed seed: reproducible).
TEST(TlgFilter, RandomStructureLayoutsAgreeAcrossEngines) {
  std::mt19937 rng(20261128);
  std::vector<Case> cases;
  cases.reserve(400);
  for (int i = 0; i < 400; ++i) cases.push_back(random_moved(rng));
  uint64_t seen = 0;
  for (const Case& c : cases) seen |= c.deliver;
  EXPECT_EQ(seen, 7u);  // both filters pass and fail somewhere
  route_cases(kStructScript, cases);
}

}  // namespace
}  // namespace pfc::testing
