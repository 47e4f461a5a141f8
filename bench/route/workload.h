// bench/route/workload.h — the routing benchmark workload, shared by every engine's bench:
// the EnableTraceEx2 example filter set (examples/etw-sample.pfs) for 1 or 8 sessions, a fixed
// event mix, and a hand-written C++ router for the same filters (the performance baseline).
// Header-only so the JIT benchmarks can reuse it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pfc/enable.h"
#include "pfc/event.h"
#include "runtime/casefold.h"
#include "runtime/routing_program.h"

namespace pfc::bench {

inline const Guid kExampleGuid = *Guid::parse("{0E95CFBC-58D4-44BA-BE40-E63A853536DF}");

// Session s (slot s): level 1 + s % 5; Example_Event_1 all { Initiator is "User"; Level
// between 7, 16 + s }; Example_Event_2 any { Title contains "UNI"; InstanceId is
// {0E95CFBC-…}; ErrorCode ne s }. Sessions share some predicates, not all.
inline uint8_t example_level(uint32_t s) { return uint8_t(1 + s % 5); }
inline uint64_t example_hi(uint32_t s) { return 16 + s; }

inline ProgramSpec example_spec(uint32_t sessions) {
  auto field = [](const char* n, InType t) { return FieldDef{n, t, {}, {}}; };
  ProgramSpec spec;
  spec.provider.name = "Example-Provider";
  EventDef e1{"Example_Event_1",
              {1, 0, 0, 1, 0, 0, 0},
              {field("Initiator", InType::UnicodeString), field("Level", InType::UInt32)}};
  EventDef e2{"Example_Event_2",
              {2, 0, 0, 1, 0, 0, 0},
              {field("Title", InType::UnicodeString), field("InstanceId", InType::Guid),
               field("ErrorCode", InType::UInt32)}};
  spec.provider.events = {e1, e2};
  using Kind = PayloadExpr::Node::Kind;
  for (uint32_t s = 0; s < sessions; ++s) {
    EnableParams p;
    p.level = example_level(s);
    PayloadFilter f1{1, 0, false, {}};
    f1.expr.preds = {PayloadPredicate{0, PayloadOp::Is, {0, 0, "User", {}}},
                     PayloadPredicate{1, PayloadOp::Between, {7, example_hi(s), "", {}}}};
    f1.expr.nodes = {{Kind::Pred, 0, 0}, {Kind::Pred, 1, 0}, {Kind::And, 0, 2}};
    f1.expr.kids = {0, 1};
    PayloadFilter f2{2, 0, false, {}};
    f2.expr.preds = {PayloadPredicate{0, PayloadOp::Contains, {0, 0, "UNI", {}}},
                     PayloadPredicate{1, PayloadOp::Is, {0, 0, "", kExampleGuid}},
                     PayloadPredicate{2, PayloadOp::Ne, {s, 0, "", {}}}};
    f2.expr.nodes = {{Kind::Pred, 0, 0}, {Kind::Pred, 1, 0}, {Kind::Pred, 2, 0}, {Kind::Or, 0, 3}};
    f2.expr.kids = {0, 1, 2};
    p.payload = {f1, f2};
    spec.sessions.push_back(SessionEntry{s, p});
  }
  return spec;
}

// The event mix: Example_Event_1/2 with matching and non-matching payloads, a truncated
// one, and an event no filter names.
inline std::vector<Event> example_events() {
  struct W {
    std::vector<uint8_t> b;
    W& wstr(std::u16string_view s) {
      for (char16_t c : s) u16(uint16_t(c));
      return u16(0);
    }
    W& u16(uint16_t v) { return raw(&v, 2); }
    W& u32(uint32_t v) { return raw(&v, 4); }
    W& guid(const Guid& g) {
      auto a = g.to_bytes();
      return raw(a.data(), a.size());
    }
    W& raw(const void* p, size_t n) {
      auto* c = static_cast<const uint8_t*>(p);
      b.insert(b.end(), c, c + n);
      return *this;
    }
  };
  auto ev = [](uint16_t id, uint8_t level, std::vector<uint8_t> payload) {
    Event e;
    e.desc.id = id;
    e.desc.level = level;
    e.payload = std::move(payload);
    return e;
  };
  std::vector<Event> out = {
      ev(1, 1, W().wstr(u"User").u32(7).b),
      ev(1, 1, W().wstr(u"user").u32(16).b),
      ev(1, 3, W().wstr(u"Admin").u32(10).b),
      ev(1, 1, W().wstr(u"User").u32(20).b),
      ev(2, 1, W().wstr(u"UNIX system").guid({}).u32(0).b),
      ev(2, 2, W().wstr(u"community").guid({}).u32(0).b),
      ev(2, 1, W().wstr(u"Hello").guid(kExampleGuid).u32(0).b),
      ev(2, 4, W().wstr(u"Hello").guid({}).u32(5).b),
      ev(3, 1, {}),
  };
  out.push_back(out[6]);
  out.back().payload.resize(6);  // truncated: Title only
  return out;
}

// A hand-written router for example_spec(sessions): decodes each field once and evaluates
// every session directly. Same results as the IR engines on this workload.
class HandRouter final : public RoutingProgram {
 public:
  explicit HandRouter(uint32_t sessions) : n_(sessions) {}

  RouteResult route(const EventView& e) const noexcept override {
    uint64_t level_ok = 0;
    for (uint32_t s = 0; s < n_; ++s) {
      if (e.desc.level == 0 || e.desc.level <= example_level(s)) level_ok |= uint64_t{1} << s;
    }
    if (level_ok == 0 || e.desc.version != 0 || (e.desc.id != 1 && e.desc.id != 2))
      return {level_ok, 0};
    const uint8_t* p = e.payload;
    const uint64_t size = e.payload_size;
    uint64_t end = wstr_end(p, size, 0);  // offset past the first field's terminator
    if (e.desc.id == 1) {
      bool user = end != kBad && wstr_equals(p, 0, end, u"user");
      if (!user || end + 4 > size) return {0, 0};
      uint32_t level;
      __builtin_memcpy(&level, p + end, 4);
      uint64_t out = 0;
      for (uint32_t s = 0; s < n_; ++s) {
        if (level >= 7 && level <= example_hi(s)) out |= uint64_t{1} << s;
      }
      return {out & level_ok, 0};
    }
    if (end == kBad) return {0, 0};
    bool uni = wstr_contains(p, 0, end, u"uni");
    bool guid = end + 16 <= size && __builtin_memcmp(p + end, guid_bytes_.data(), 16) == 0;
    if (uni || guid) return {level_ok, 0};
    if (end + 20 > size) return {0, 0};
    uint32_t code;
    __builtin_memcpy(&code, p + end + 16, 4);
    uint64_t out = 0;
    for (uint32_t s = 0; s < n_; ++s) {
      if (code != s) out |= uint64_t{1} << s;
    }
    return {out & level_ok, 0};
  }

 private:
  static constexpr uint64_t kBad = ~uint64_t{0};

  static char16_t unit(const uint8_t* p, uint64_t off) {
    return char16_t(p[off] | (p[off + 1] << 8));
  }
  static uint64_t wstr_end(const uint8_t* p, uint64_t size, uint64_t off) {
    for (; off + 2 <= size; off += 2) {
      if (unit(p, off) == 0) return off + 2;
    }
    return kBad;
  }
  // [off, end) holds the string and its terminator; `needle` is lower-case ASCII.
  static bool wstr_equals(const uint8_t* p, uint64_t off, uint64_t end,
                          std::u16string_view needle) {
    if ((end - off) / 2 - 1 != needle.size()) return false;
    for (size_t i = 0; i < needle.size(); ++i) {
      if (fold_case(unit(p, off + 2 * i)) != char32_t(needle[i])) return false;
    }
    return true;
  }
  static bool wstr_contains(const uint8_t* p, uint64_t off, uint64_t end,
                            std::u16string_view needle) {
    uint64_t len = (end - off) / 2 - 1;
    for (uint64_t start = 0; start + needle.size() <= len; ++start) {
      if (wstr_equals(p, off + 2 * start, off + 2 * (start + needle.size()) + 2, needle))
        return true;
    }
    return false;
  }

  uint32_t n_;
  std::array<uint8_t, 16> guid_bytes_ = kExampleGuid.to_bytes();
};

}  // namespace pfc::bench
