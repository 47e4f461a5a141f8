// bench/limit/workload.h — the workloads of bench_limit (pfc against the practical limit and
// against libpcap's bpf_filter): each is a ProgramSpec, a fixed random event mix, a
// hand-written C++ router for exactly those filters, and for the integer-only workloads a
// hand-assembled BPF program per session over big-endian copies of the same records.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bench/limit/bpf_router.h"
#include "pfc/event.h"
#include "runtime/routing_program.h"

namespace pfc::bench {

struct Workload {
  std::string name;  // the <Workload> part of the benchmark names
  ProgramSpec spec;
  std::vector<Event> events;
  std::unique_ptr<RoutingProgram> hand;
  std::unique_ptr<BpfRouter> bpf;  // null unless the workload is integer-only
};

// Header-only filters (level, keywords, pid lists, event-ID sets) for `sessions` sessions.
Workload header_workload(uint32_t sessions);
// Io-Provider: event 10 "Io" { Status: uint32; Bytes: uint64; Flags: uint16; Latency: uint32 }
// and event 11 "Tick" { } (IntPayload8's and Payload64's schema).
ProviderDef io_provider();
// Integer payload predicates on a fixed layout, 8 sessions.
Workload int_payload_workload();
// 64 sessions, two payload predicates each, one of them shared by 16 sessions.
Workload payload64_workload();
// The EnableTraceEx2 example filters (bench/route/workload.h) for 1 or 8 sessions.
Workload example_workload(uint32_t sessions);
// CONTAINS on 256-character UTF-16 strings, case-insensitive, 1 session.
Workload string_workload();
// An integer predicate on a field that follows three strings and a counted array.
Workload var_layout_workload();
// The language's operators, 1 session each: `in` with 1,000 values, `matches` and `regex` on
// 256-character UTF-16 strings (operator_workloads.cc).
Workload in_set_workload();
Workload glob_workload();
Workload regex_workload();
// 64 sessions, each its own CONTAINS / MATCHES / REGEX pattern on one field
// (multi_pattern_workloads.cc).
Workload contains64_workload();
Workload glob64_workload();
Workload regex64_workload();
// Eight sessions with a level and an exe list each (scope_workload.cc).
Workload scope_workload();

// Deterministic PRNG (splitmix64) for the event mixes.
class BenchRng {
 public:
  explicit BenchRng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t n) { return next() % n; }
  bool chance(uint32_t percent) { return below(100) < percent; }

 private:
  uint64_t s_;
};

// Little-endian payload builder.
struct PayloadWriter {
  std::vector<uint8_t> bytes;
  PayloadWriter& le(uint64_t v, unsigned size) {
    for (unsigned i = 0; i < size; ++i) bytes.push_back(uint8_t(v >> (8 * i)));
    return *this;
  }
  PayloadWriter& wstr(std::u16string_view s) {
    for (char16_t c : s) le(c, 2);
    return le(0, 2);
  }
  PayloadWriter& str(std::string_view s) {
    bytes.insert(bytes.end(), s.begin(), s.end());
    bytes.push_back(0);
    return *this;
  }
};

// Events in the mixes: this many per workload, so branch predictors cannot learn them.
inline constexpr size_t kEventsPerWorkload = 4096;

inline uint16_t load_u16(const uint8_t* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}
inline uint32_t load_u32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline uint64_t load_u64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

}  // namespace pfc::bench
