// bench/limit/payload_workloads.cc — the payload workloads: integer predicates on a fixed
// layout (8 sessions, with a BPF baseline), CONTAINS on 256-character UTF-16 strings, and
// an integer predicate behind three strings and a counted array.
#include <algorithm>

#include "base/ascii.h"
#include "bench/limit/workload.h"
#include "runtime/casefold.h"

namespace pfc::bench {
namespace {

using Kind = PayloadExpr::Node::Kind;

FieldDef field(const char* name, InType type) { return FieldDef{name, type, {}, {}}; }

// One payload filter whose predicates are all AND-ed (`payload E all { … }`).
PayloadFilter all_of(uint16_t id, std::vector<PayloadPredicate> preds) {
  PayloadFilter f{id, 0, false, {}};
  const uint32_t n = uint32_t(preds.size());
  f.expr.preds = std::move(preds);
  for (uint32_t i = 0; i < n; ++i) {
    f.expr.nodes.push_back({Kind::Pred, i, 0});
    f.expr.kids.push_back(i);
  }
  if (n > 1) f.expr.nodes.push_back({Kind::And, 0, n});
  return f;
}

PayloadPredicate pred(uint32_t field, PayloadOp op, uint64_t lo, uint64_t hi = 0,
                      std::string text = "") {
  return PayloadPredicate{field, op, {lo, hi, std::move(text), {}}};
}

void maybe_truncate(Event& e, BenchRng& rng) {
  if (rng.chance(3)) e.payload.resize(rng.below(e.payload.size() + 1));
}

// --- IntPayload8: Io { Status: uint32; Bytes: uint64; Flags: uint16; Latency: uint32 } ---

constexpr uint32_t kIoSessions = 8;
constexpr uint64_t kBytesHi = 1 << 20;
uint64_t bytes_lo(uint32_t s) { return 512 * (s + 1); }
uint32_t latency_min(uint32_t s) { return 100 + 25 * s; }

class IntPayloadHand final : public RoutingProgram {
 public:
  RouteResult route(const EventView& e) const noexcept override {
    if (e.desc.id != 10 || e.desc.version != 0) return {0xFF, 0};
    if (e.payload_size < 18) return {0, 0};  // Latency (bytes 14..18) is in every filter
    const uint32_t status = load_u32(e.payload);
    const uint64_t bytes = load_u64(e.payload + 4);
    const uint32_t latency = load_u32(e.payload + 14);
    uint64_t out = 0;
    for (uint32_t s = 0; s < kIoSessions; ++s) {
      const bool status_ok = s % 2 == 0 ? status != 0 : status == 200;
      if (status_ok && bytes >= bytes_lo(s) && bytes <= kBytesHi && latency > latency_min(s))
        out |= uint64_t{1} << s;
    }
    return {out, 0};
  }
};

std::vector<bpf_insn> io_bpf_program(uint32_t s) {
  BpfAsm a;
  const int accept = a.label(), reject = a.label();
  a.stmt(BPF_LD | BPF_H | BPF_ABS, 0);
  a.jump(BPF_JEQ, 10, BpfAsm::kNext, accept);
  a.stmt(BPF_LD | BPF_B | BPF_ABS, 3);
  a.jump(BPF_JEQ, 0, BpfAsm::kNext, accept);
  a.stmt(BPF_LD | BPF_W | BPF_ABS, kBpfHeaderSize + 0);  // Status
  if (s % 2 == 0) a.jump(BPF_JEQ, 0, reject, BpfAsm::kNext);
  else a.jump(BPF_JEQ, 200, BpfAsm::kNext, reject);
  a.stmt(BPF_LD | BPF_W | BPF_ABS, kBpfHeaderSize + 4);  // Bytes, high half
  a.jump(BPF_JEQ, 0, BpfAsm::kNext, reject);
  a.stmt(BPF_LD | BPF_W | BPF_ABS, kBpfHeaderSize + 8);  // Bytes, low half
  a.jump(BPF_JGE, uint32_t(bytes_lo(s)), BpfAsm::kNext, reject);
  a.jump(BPF_JGT, uint32_t(kBytesHi), reject, BpfAsm::kNext);
  a.stmt(BPF_LD | BPF_W | BPF_ABS, kBpfHeaderSize + 14);  // Latency
  a.jump(BPF_JGT, latency_min(s), accept, reject);
  a.bind(accept);
  a.stmt(BPF_RET | BPF_K, 1);
  a.bind(reject);
  a.stmt(BPF_RET | BPF_K, 0);
  return a.finish();
}

// The payload's fields in big-endian, cut where the little-endian payload was cut.
std::vector<uint8_t> io_bpf_record(const Event& e) {
  std::vector<uint8_t> r = bpf_header(e.view());
  if (e.desc.id == 10) {
    std::vector<uint8_t> full(18, 0);
    std::copy(e.payload.begin(), e.payload.end(), full.begin());
    const uint8_t* p = full.data();
    append_be(r, load_u32(p), 4);
    append_be(r, load_u64(p + 4), 8);
    append_be(r, load_u16(p + 12), 2);
    append_be(r, load_u32(p + 14), 4);
    r.resize(kBpfHeaderSize + e.payload.size());
  }
  return r;
}

Event io_event(BenchRng& rng) {
  Event e;
  e.desc.id = rng.chance(90) ? 10 : 11;
  if (e.desc.id == 11) return e;
  const uint32_t statuses[] = {0, 200, 200, 404, uint32_t(rng.below(1000))};
  PayloadWriter w;
  w.le(statuses[rng.below(5)], 4).le(rng.next() >> (43 + rng.below(21)), 8);
  w.le(rng.below(65536), 2).le(rng.below(400), 4);
  e.payload = std::move(w.bytes);
  maybe_truncate(e, rng);
  return e;
}

}  // namespace

ProviderDef io_provider() {
  ProviderDef p;
  p.name = "Io-Provider";
  p.guid = Guid::from_provider_name(p.name);
  p.events = {EventDef{"Io",
                       {10, 0, 0, 4, 0, 0, 0},
                       {field("Status", InType::UInt32), field("Bytes", InType::UInt64),
                        field("Flags", InType::UInt16), field("Latency", InType::UInt32)}},
              EventDef{"Tick", {11, 0, 0, 4, 0, 0, 0}, {}}};
  return p;
}

Workload int_payload_workload() {
  Workload w;
  w.name = "IntPayload8";
  w.spec.provider = io_provider();
  w.bpf = std::make_unique<BpfRouter>();
  for (uint32_t s = 0; s < kIoSessions; ++s) {
    EnableParams params;
    const PayloadPredicate status =
        s % 2 == 0 ? pred(0, PayloadOp::Ne, 0) : pred(0, PayloadOp::Eq, 200);
    params.payload = {all_of(10, {status, pred(1, PayloadOp::Between, bytes_lo(s), kBytesHi),
                                  pred(3, PayloadOp::Gt, latency_min(s))})};
    w.spec.sessions.emplace_back(s, params);
    w.bpf->add_session(s, io_bpf_program(s));
  }
  BenchRng rng(10);
  for (size_t i = 0; i < kEventsPerWorkload; ++i) w.events.push_back(io_event(rng));
  for (const Event& e : w.events) w.bpf->records.push_back(io_bpf_record(e));
  w.hand = std::make_unique<IntPayloadHand>();
  return w;
}

// --- StringContains1: Log { Message: wstring; Code: uint32 }, Message contains "timeout" ---

namespace {

constexpr char16_t kNeedle[] = u"timeout";
constexpr size_t kNeedleLen = 7;

// Folds one UTF-16 unit: ASCII inline, everything else through the case-folding table.
// (Surrogates fold to themselves; no supplementary character folds to ASCII.)
inline char32_t fold_unit(uint16_t u) {
  if (u < 0x80) return ascii_lower(char32_t{u});
  return fold_case(u);
}

class StringHand final : public RoutingProgram {
 public:
  RouteResult route(const EventView& e) const noexcept override {
    if (e.desc.id != 20 || e.desc.version != 0) return {1, 0};
    const uint8_t* p = e.payload;
    const uint64_t units = e.payload_size / 2;
    uint64_t len = 0;
    while (len < units && load_u16(p + 2 * len) != 0) ++len;
    if (len == units) return {0, 0};  // no terminator: undecodable
    for (uint64_t start = 0; start + kNeedleLen <= len; ++start) {
      if (fold_unit(load_u16(p + 2 * start)) != U't') continue;
      size_t k = 1;
      while (k < kNeedleLen && fold_unit(load_u16(p + 2 * (start + k))) == char32_t(kNeedle[k]))
        ++k;
      if (k == kNeedleLen) return {1, 0};
    }
    return {0, 0};
  }
};

std::u16string random_message(BenchRng& rng) {
  static constexpr char16_t kExotic[] = {0xE9, 0x3A3, 0x212A, 0x4E2D, 0x17F};
  static constexpr char kPlain[] =
      "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789:";
  std::u16string s;
  while (s.size() < 256) {
    if (rng.chance(3)) s += kExotic[rng.below(5)];
    else if (rng.chance(4)) s += u"time";  // a near miss
    else s += char16_t(kPlain[rng.below(sizeof kPlain - 1)]);
  }
  s.resize(256);
  if (rng.chance(50)) {
    std::u16string hit = kNeedle;
    for (char16_t& c : hit)
      if (rng.chance(40)) c = char16_t(c - 32);
    s.replace(rng.below(256 - kNeedleLen + 1), kNeedleLen, hit);
  }
  return s;
}

}  // namespace

Workload string_workload() {
  Workload w;
  w.name = "StringContains1";
  ProviderDef& p = w.spec.provider;
  p.name = "Log-Provider";
  p.guid = Guid::from_provider_name(p.name);
  p.events = {EventDef{"Log",
                       {20, 0, 0, 4, 0, 0, 0},
                       {field("Message", InType::UnicodeString), field("Code", InType::UInt32)}}};
  EnableParams params;
  params.payload = {all_of(20, {pred(0, PayloadOp::Contains, 0, 0, "TimeOut")})};
  w.spec.sessions.emplace_back(0, params);
  BenchRng rng(20);
  for (size_t i = 0; i < kEventsPerWorkload; ++i) {
    Event e;
    e.desc.id = 20;
    e.payload = PayloadWriter().wstr(random_message(rng)).le(rng.below(100), 4).bytes;
    maybe_truncate(e, rng);
    w.events.push_back(std::move(e));
  }
  w.hand = std::make_unique<StringHand>();
  return w;
}

// --- VarLayout1: Req { Host: wstring; Path: string; Agent: wstring; Count: uint16;
//     Items: uint32[Count]; Status: uint32 }, Status between 400,599 ---

namespace {

class VarLayoutHand final : public RoutingProgram {
 public:
  RouteResult route(const EventView& e) const noexcept override {
    if (e.desc.id != 30 || e.desc.version != 0) return {1, 0};
    const uint8_t* p = e.payload;
    const uint64_t size = e.payload_size;
    uint64_t off = skip_wstr(p, size, 0);
    off = skip_str(p, size, off);
    off = skip_wstr(p, size, off);
    if (off > size || size - off < 2) return {0, 0};
    const uint64_t count = load_u16(p + off);
    off += 2;
    if ((size - off) / 4 < count) return {0, 0};
    off += 4 * count;
    if (size - off < 4) return {0, 0};
    const uint32_t status = load_u32(p + off);
    return {status >= 400 && status <= 599 ? 1u : 0u, 0};
  }

 private:
  static constexpr uint64_t kBad = ~uint64_t{0};
  // Offset past a NUL-terminated UTF-16 string at `off`, or kBad (kBad stays kBad).
  static uint64_t skip_wstr(const uint8_t* p, uint64_t size, uint64_t off) {
    if (off == kBad) return kBad;
    for (; off + 2 <= size; off += 2)
      if (load_u16(p + off) == 0) return off + 2;
    return kBad;
  }
  static uint64_t skip_str(const uint8_t* p, uint64_t size, uint64_t off) {
    if (off == kBad || off >= size) return kBad;
    const void* nul = std::memchr(p + off, 0, size - off);
    return nul == nullptr ? kBad : uint64_t(static_cast<const uint8_t*>(nul) - p) + 1;
  }
};

std::u16string random_wide(BenchRng& rng) {
  std::u16string s(4 + rng.below(37), u'a');
  for (char16_t& c : s) c = char16_t('a' + rng.below(26));
  return s;
}

}  // namespace

Workload var_layout_workload() {
  Workload w;
  w.name = "VarLayout1";
  ProviderDef& p = w.spec.provider;
  p.name = "Web-Provider";
  p.guid = Guid::from_provider_name(p.name);
  FieldDef items = field("Items", InType::UInt32);
  items.count = Extent{Extent::Kind::Field, 3};
  p.events = {EventDef{"Req",
                       {30, 0, 0, 4, 0, 0, 0},
                       {field("Host", InType::UnicodeString), field("Path", InType::AnsiString),
                        field("Agent", InType::UnicodeString), field("Count", InType::UInt16),
                        items, field("Status", InType::UInt32)}}};
  EnableParams params;
  params.payload = {all_of(30, {pred(5, PayloadOp::Between, 400, 599)})};
  w.spec.sessions.emplace_back(0, params);
  BenchRng rng(30);
  const uint32_t statuses[] = {200, 200, 301, 404, 500};
  for (size_t i = 0; i < kEventsPerWorkload; ++i) {
    Event e;
    e.desc.id = 30;
    std::u16string path16 = random_wide(rng);
    PayloadWriter pw;
    pw.wstr(random_wide(rng)).str(std::string(path16.begin(), path16.end())).wstr(random_wide(rng));
    const uint64_t count = rng.below(9);
    pw.le(count, 2);
    for (uint64_t k = 0; k < count; ++k) pw.le(rng.next(), 4);
    pw.le(rng.chance(80) ? statuses[rng.below(5)] : 100 + rng.below(500), 4);
    e.payload = std::move(pw.bytes);
    maybe_truncate(e, rng);
    w.events.push_back(std::move(e));
  }
  w.hand = std::make_unique<VarLayoutHand>();
  return w;
}

}  // namespace pfc::bench
