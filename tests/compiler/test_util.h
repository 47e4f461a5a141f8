// tests/compiler/test_util.h — helpers for the compiler tests: schema/session builders,
// a little-endian payload writer, and route() = lower → verify → Interpreter.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/interp.h"
#include "compiler/ir_dump.h"
#include "compiler/lower.h"
#include "compiler/verify.h"
#include "pfc/enable.h"
#include "pfc/event.h"
#include "pfc/schema.h"

namespace pfc::testing {

// Little-endian payload bytes, written field by field.
class Bytes {
 public:
  Bytes& u8(uint8_t v) { return raw(&v, 1); }
  Bytes& u16(uint16_t v) { return raw(&v, 2); }
  Bytes& u32(uint32_t v) { return raw(&v, 4); }
  Bytes& u64(uint64_t v) { return raw(&v, 8); }
  // NUL-terminated UTF-16LE of ASCII/BMP text given as UTF-16 code units.
  Bytes& wstr(std::u16string_view s, bool nul = true) {
    for (char16_t c : s) u16(static_cast<uint16_t>(c));
    if (nul) u16(0);
    return *this;
  }
  Bytes& str(std::string_view s, bool nul = true) {
    raw(s.data(), s.size());
    if (nul) u8(0);
    return *this;
  }
  Bytes& guid(const Guid& g) {
    auto b = g.to_bytes();
    return raw(b.data(), b.size());
  }
  Bytes& raw(const void* p, size_t n) {
    auto* b = static_cast<const uint8_t*>(p);
    data.insert(data.end(), b, b + n);
    return *this;
  }
  Bytes& truncate(size_t n) {
    data.resize(n);
    return *this;
  }
  std::vector<uint8_t> data;
};

inline FieldDef field(std::string name, InType t, Extent count = {}, Extent length = {}) {
  return FieldDef{std::move(name), t, count, length};
}
inline Extent fixed(uint32_t v) { return Extent{Extent::Kind::Fixed, v}; }
inline Extent from(uint32_t f) { return Extent{Extent::Kind::Field, f}; }

inline EventDef event_def(std::string name, uint16_t id, uint8_t version,
                          std::vector<FieldDef> fields, uint8_t level = 0, uint64_t keyword = 0) {
  EventDef e;
  e.name = std::move(name);
  e.desc.id = id;
  e.desc.version = version;
  e.desc.level = level;
  e.desc.keyword = keyword;
  e.fields = std::move(fields);
  return e;
}

// An event instance with descriptor fields and payload.
inline Event event(uint16_t id, uint8_t level = 0, uint64_t keyword = 0,
                   std::vector<uint8_t> payload = {}, uint8_t version = 0) {
  Event e;
  e.desc.id = id;
  e.desc.version = version;
  e.desc.level = level;
  e.desc.keyword = keyword;
  e.payload = std::move(payload);
  return e;
}

// A payload predicate / single-predicate expression.
inline PayloadPredicate pred(uint32_t field, PayloadOp op, uint64_t lo = 0, uint64_t hi = 0) {
  PayloadPredicate p;
  p.field = field;
  p.op = op;
  p.value.lo = lo;
  p.value.hi = hi;
  return p;
}
inline PayloadPredicate pred_str(uint32_t field, PayloadOp op, std::string text) {
  PayloadPredicate p;
  p.field = field;
  p.op = op;
  p.value.text = std::move(text);
  return p;
}
inline PayloadPredicate pred_guid(uint32_t field, PayloadOp op, const Guid& g) {
  PayloadPredicate p;
  p.field = field;
  p.op = op;
  p.value.guid = g;
  return p;
}

// A filter whose predicates are AND-ed (match_any = false) or OR-ed.
PayloadFilter filter(uint16_t id, std::vector<PayloadPredicate> preds, bool match_any = false,
                     bool group_all = false, uint8_t version = 0);
// A filter with expression `not preds[0]`.
PayloadFilter not_filter(uint16_t id, PayloadPredicate p);

// lower → verify (asserting both succeed) → Interpreter.
std::unique_ptr<Interpreter> compile(const ProgramSpec& spec);
// The deliver/stack masks of one event under `spec`.
RouteResult route(const ProgramSpec& spec, const Event& e);

// A provider with one event per id in `ids` (version 0, no fields).
ProviderDef plain_provider(const std::vector<uint16_t>& ids = {1, 2, 3});
// A spec with one session at slot 0.
ProgramSpec one_session(ProviderDef provider, EnableParams params);

// Six sessions whose string patterns need both Hyperscan databases of a map (a glob, a
// non-ASCII literal or a regex each, OR-ed with `literals` ASCII literals of both case
// rules) on field 0 of event 1, a UTF-16 string, and with `narrow` the same on event 2, an
// 8-bit string: the string-database tests' program (compiler/hs_image.h).
ProgramSpec hs_spec(uint32_t literals, bool narrow);
// Every string map of `prog` gives on each text (a UTF-16 field at offset 0) what testing
// each of its patterns on its own gives, with the same end offset.
void expect_str_maps_exact(const ir::Program& prog, std::initializer_list<const char16_t*> texts);

}  // namespace pfc::testing
