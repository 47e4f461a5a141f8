// tests/router/fake_compiler.h — a ProgramCompiler for router tests that needs no real
// compiler: each program delivers to a session by the level rule alone (docs/semantics.md §1.1)
// and stacks when the session set kStackTrace. Programs count live instances and carry a
// magic tag so a use after free is detected even without a sanitizer.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "runtime/routing_program.h"

namespace pfc::test {

// Any session enabled at this level makes compilation fail.
inline constexpr uint8_t kFailLevel = 0xEE;

class FakeProgram final : public RoutingProgram {
 public:
  static constexpr uint64_t kAlive = 0xA11CE5EA5EULL;
  static inline std::atomic<int> live{0};
  static inline std::atomic<uint64_t> bad_reads{0};         // route() on a dead program
  static inline thread_local uint64_t last_generation = 0;  // of the last route() here

  FakeProgram(const ProgramSpec& spec, uint64_t generation) : generation_(generation) {
    for (const SessionEntry& s : spec.sessions)
      rules_.push_back(Rule{s.slot, s.params->level,
                            (s.params->properties & enable_property::kStackTrace) != 0});
    live.fetch_add(1);
  }
  ~FakeProgram() override {
    magic_.store(0xDEADDEADULL, std::memory_order_relaxed);
    live.fetch_sub(1);
  }

  RouteResult route(const EventView& event) const noexcept override {
    if (magic_.load(std::memory_order_relaxed) != kAlive) bad_reads.fetch_add(1);
    last_generation = generation_;
    RouteResult r;
    const uint8_t level = event.desc.level;
    for (const Rule& rule : rules_) {
      if (level != 0 && rule.level != 0 && level > rule.level) continue;
      r.deliver |= uint64_t{1} << rule.slot;
      if (rule.stack) r.stack |= uint64_t{1} << rule.slot;
    }
    return r;
  }
  uint64_t generation() const { return generation_; }

 private:
  struct Rule {
    uint32_t slot;
    uint8_t level;
    bool stack;
  };
  std::atomic<uint64_t> magic_{kAlive};
  uint64_t generation_;
  std::vector<Rule> rules_;
};

class FakeCompiler final : public ProgramCompiler {
 public:
  Result<std::shared_ptr<const RoutingProgram>> compile(const ProgramSpec& spec) override {
    compiles_.fetch_add(1);
    for (const SessionEntry& s : spec.sessions)
      if (s.params->level == kFailLevel) return make_error("fake compile failure");
    {
      std::lock_guard<std::mutex> lock(mu_);
      last_spec_ = spec;
    }
    return std::make_shared<FakeProgram>(spec, generation_.fetch_add(1) + 1);
  }
  int compiles() const { return compiles_.load(); }
  ProgramSpec last_spec() const {
    std::lock_guard<std::mutex> lock(mu_);
    return last_spec_;
  }

 private:
  std::atomic<int> compiles_{0};
  std::atomic<uint64_t> generation_{0};
  mutable std::mutex mu_;
  ProgramSpec last_spec_;
};

}  // namespace pfc::test
