// tests/jit/tiered_test.cc — JIT lifecycle (install, replace, remove many programs; run
// under ASan/LSan for leaks), tiering (interpreter first, swap to native, fallback when the
// JIT fails, shutdown with queued work), engine selection and crosscheck, and routing from
// two threads while programs tier up and are replaced (run under TSan).
#include <atomic>
#include <bit>
#include <memory>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "compiler/jit/tiered.h"
#include "runtime/epoch.h"
#include "tests/jit/jit_test_util.h"

namespace pfc::testing {
namespace {

using ir::Op;

// A program delivering session bit `bit` when the event's level is `level`, with a stack.
ir::Program level_program(uint32_t bit, uint8_t level) {
  ProgramBuilder b;
  ir::Reg l = b.emit(Op::LoadHeader, static_cast<uint32_t>(ir::HeaderField::Level));
  ir::Reg hit = b.emit(Op::Cmp, l, static_cast<uint32_t>(ir::Cond::Eq), 0, level);
  b.effect(Op::Deliver, hit, bit);
  b.effect(Op::Stack, hit, bit);
  return b.finish();
}

Event level_event(uint8_t level) {
  Event e;
  e.desc.level = level;
  return e;
}

RouteResult bit_result(uint32_t bit) { return {uint64_t{1} << bit, uint64_t{1} << bit}; }

TEST(JitLifecycle, InstallReplaceRemoveManyPrograms) {
  std::vector<std::shared_ptr<const JitProgram>> live(8);
  for (uint32_t i = 0; i < 200; ++i) {
    auto p = JitProgram::create(level_program(i % 64, 3), i % 2 ? OptLevel::O0 : kDefaultOptLevel);
    ASSERT_TRUE(p.has_value()) << p.error().message;
    EXPECT_EQ((*p)->route(level_event(3).view()), bit_result(i % 64));
    EXPECT_EQ((*p)->route(level_event(2).view()), RouteResult{});
    live[i % live.size()] = std::move(*p);  // replaces (and removes) an older program
  }
  for (uint32_t slot = 0; slot < live.size(); ++slot) {
    uint32_t i = 200 - live.size() + slot;  // the last program installed in each slot
    EXPECT_EQ(live[i % live.size()]->route(level_event(3).view()), bit_result(i % 64));
  }
  live.clear();
}

TEST(Tiered, ServesInterpreterThenSwapsToNative) {
  TieredCompiler compiler;
  auto p = compiler.compile_ir(level_program(5, 1));
  ASSERT_TRUE(p.has_value()) << p.error().message;
  EXPECT_EQ((*p)->route(level_event(1).view()), bit_result(5));  // whichever tier serves
  (*p)->wait();
  EXPECT_EQ((*p)->tier(), TieredProgram::Tier::Native);
  EXPECT_FALSE((*p)->error().has_value());
  EXPECT_EQ((*p)->route(level_event(1).view()), bit_result(5));
  EXPECT_EQ((*p)->route(level_event(2).view()), RouteResult{});
}

// Verifies (so the interpreter runs it) but fails codegen's stricter check: a jz to
// code.size() that is never taken.
// A valid program; the JIT is made to fail by asking for an optimisation level it does
// not know (the interpreter has no such setting).
ir::Program program_to_route() {
  ProgramBuilder b;
  ir::Reg one = b.constant(1);
  b.effect(Op::Deliver, one, 9);
  return b.finish();
}

TEST(Tiered, JitFailureKeepsInterpreterServing) {
  std::atomic<int> reported{0};
  EngineOptions options;
  options.on_jit_error = [&](const Error&) { reported.fetch_add(1); };
  options.level = static_cast<OptLevel>(7);
  for (bool wait : {false, true}) {
    TieredCompiler compiler(options, wait);
    auto p = compiler.compile_ir(program_to_route());
    ASSERT_TRUE(p.has_value()) << p.error().message;
    (*p)->wait();
    EXPECT_EQ((*p)->tier(), TieredProgram::Tier::Failed);
    ASSERT_TRUE((*p)->error().has_value());
    EXPECT_NE((*p)->error()->message.find("unknown optimisation level"), std::string::npos)
        << (*p)->error()->message;
    EXPECT_EQ((*p)->route(Event{}.view()), (RouteResult{uint64_t{1} << 9, 0}));
  }
  EXPECT_EQ(reported.load(), 2);
}

TEST(Tiered, WaitModeReturnsNativeCode) {
  TieredCompiler compiler({}, /*wait=*/true);
  auto p = compiler.compile_ir(level_program(0, 4));
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ((*p)->tier(), TieredProgram::Tier::Native);
}

TEST(Tiered, ShutdownAndEarlyDestructionAreSafe) {
  std::vector<std::shared_ptr<const TieredProgram>> kept;
  {
    TieredCompiler compiler;
    for (uint32_t i = 0; i < 20; ++i) {
      auto p = compiler.compile_ir(level_program(i, 2));
      ASSERT_TRUE(p.has_value());
      if (i % 2) kept.push_back(std::move(*p));  // even ones die at once (cancelled)
    }
  }  // joins the worker; queued programs stay on the interpreter
  for (size_t i = 0; i < kept.size(); ++i) {
    kept[i]->wait();
    EXPECT_NE(kept[i]->tier(), TieredProgram::Tier::Interp);
    EXPECT_EQ(kept[i]->route(level_event(2).view()), bit_result(static_cast<uint32_t>(2 * i + 1)));
  }
}

TEST(Engines, NamesRoundTripAndEveryEngineRoutesAlike) {
  for (Engine e : {Engine::Interp, Engine::Jit, Engine::Auto, Engine::Crosscheck})
    EXPECT_EQ(engine_from_name(engine_name(e)), e);
  EXPECT_FALSE(engine_from_name("fast").has_value());

  ProgramSpec spec = spec_from_script(R"(provider P {
      event E (id=1, level=4) { a: uint32; s: string; }
    }
    session A { enable P level=4 { payload E where a gt 3 and s contains "b"; } }
    session B { enable P level=2 properties=(stack_trace); }
  )");
  std::vector<Event> events;
  for (uint8_t level : {1, 2, 4})
    for (uint8_t a : {1, 9}) {
      Event e;
      e.desc.id = 1;
      e.desc.level = level;
      e.payload = {a, 0, 0, 0, 'a', 'b', 0};
      events.push_back(e);
    }
  auto reference = InterpCompiler().compile(spec);
  ASSERT_TRUE(reference.has_value());
  uint64_t mismatches = 0;
  EngineOptions options;
  options.on_mismatch = [&](const Mismatch&) { ++mismatches; };
  for (Engine engine : {Engine::Interp, Engine::Jit, Engine::Auto, Engine::Crosscheck}) {
    SCOPED_TRACE(engine_name(engine));
    auto program = make_program_compiler(engine, options)->compile(spec);
    ASSERT_TRUE(program.has_value()) << program.error().message;
    for (const Event& e : events)
      EXPECT_EQ((*program)->route(e.view()), (*reference)->route(e.view()));
    if (auto* checked = dynamic_cast<const CrosscheckProgram*>(program->get())) {
      EXPECT_EQ(checked->mismatches(), 0u);
      EXPECT_FALSE(checked->first_mismatch().has_value());
    }
  }
  EXPECT_EQ(mismatches, 0u);
}

// Two threads route through an epoch-protected pointer while the main thread publishes a
// new tiered program (each one tiering up in the background) and retires the old one.
// Every result must be one some published program could give; under TSan this checks the
// swap and the reclamation.
TEST(TieredConcurrency, RouteWhileTieringAndReplacing) {
  EpochDomain domain;
  TieredCompiler compiler;
  auto first = compiler.compile_ir(level_program(0, 3));
  ASSERT_TRUE(first.has_value());
  // Ownership of the published program: a heap shared_ptr per version, freed by retire.
  auto* owner = new std::shared_ptr<const RoutingProgram>(std::move(*first));
  std::atomic<const RoutingProgram*> current{owner->get()};
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> routed{0};
  std::atomic<uint64_t> bad{0};
  auto reader = [&] {
    const EventView hit = level_event(3).view();
    while (!stop.load(std::memory_order_relaxed)) {
      auto guard = domain.enter();
      const RoutingProgram* p = current.load(std::memory_order_acquire);
      RouteResult r = p->route(hit);
      if (std::popcount(r.deliver) != 1 || r.stack != r.deliver) bad.fetch_add(1);
      routed.fetch_add(1, std::memory_order_relaxed);
    }
  };
  std::thread t1(reader), t2(reader);
  for (uint32_t v = 1; v <= 60; ++v) {
    auto next = compiler.compile_ir(level_program(v % 64, 3));
    if (!next.has_value()) {  // not ASSERT: the readers must still be stopped and joined
      ADD_FAILURE() << "compile_ir failed for version " << v;
      break;
    }
    auto* next_owner = new std::shared_ptr<const RoutingProgram>(std::move(*next));
    current.store(next_owner->get(), std::memory_order_release);
    std::shared_ptr<const RoutingProgram>* old = owner;
    owner = next_owner;
    domain.retire([old] { delete old; });
    if (v % 10 == 0) static_cast<const TieredProgram*>(owner->get())->wait();  // some reach native
  }
  stop.store(true);
  t1.join();
  t2.join();
  domain.synchronize();
  delete owner;
  EXPECT_EQ(bad.load(), 0u);
  EXPECT_GT(routed.load(), 0u);
}

}  // namespace
}  // namespace pfc::testing
