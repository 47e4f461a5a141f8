// tests/compiler/alloc_test.cc — Interpreter::route allocates nothing: the global operator
// new is replaced by a counting one (this executable only).
#include <atomic>
#include <cstdlib>
#include <new>

#include "compiler/lower.h"
#include "compiler/str_match.h"
#include "runtime/tdh.h"
#include "test_util.h"

namespace {
std::atomic<long> g_allocs{0};
}

// The replacements pair malloc with free; g++ cannot see that they replace each other.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(std::size_t n) {
  g_allocs.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);  // NOLINT(clang-analyzer-cplusplus.NewDelete): the replacement's own release
}

namespace pfc::testing {
namespace {

ProgramSpec busy_spec(uint32_t sessions, uint32_t extra_preds) {
  ProgramSpec spec;
  spec.provider.name = "P";
  spec.provider.events.push_back(
      event_def("E", 1, 0,
                {field("s", InType::UnicodeString), field("n", InType::UInt32),
                 field("g", InType::Guid), field("a", InType::AnsiString)}));
  for (uint32_t s = 0; s < sessions; ++s) {
    EnableParams p;
    p.level = 5;
    p.properties = enable_property::kStackTrace;
    p.exe_names = std::vector<std::string>{"App.exe"};
    p.event_names = EventNameFilter{0, 0, 0, true, {"E"}};
    std::vector<PayloadPredicate> preds = {
        pred_str(0, PayloadOp::Contains, "user"), pred(1, PayloadOp::Gt, s),
        pred_guid(2, PayloadOp::IsNot, Guid{}), pred_str(3, PayloadOp::Is, "x")};
    // String predicates: integer ones on a field the sessions share would be indexed
    // (one mask.range), and the program would stay small.
    for (uint32_t k = 0; k < extra_preds; ++k)
      preds.push_back(pred_str(3, PayloadOp::IsNot, "y" + std::to_string(s * 1000 + k)));
    p.payload = {filter(1, preds, true)};
    spec.sessions.emplace_back(s, p);
  }
  return spec;
}

TEST(InterpAlloc, RouteAllocatesNothing) {
  // Small programs use the stack; a large one uses the per-thread buffer after warm-up.
  for (uint32_t extra : {0u, 400u}) {
    auto interp = compile(busy_spec(8, extra));
    ASSERT_TRUE(interp);
    if (extra) {
      ASSERT_GT(interp->program().num_regs, Interpreter::kStackRegs);
    }
    Event e =
        event(1, 3, 0, Bytes().wstr(u"SuperUser").u32(9).guid(Guid{1, 0, 0, {}}).str("x").data);
    e.exe = "/opt/APP.EXE";
    e.name = "E";
    RouteResult first = interp->route(e.view());  // warm-up (thread buffer)
    long before = g_allocs.load();
    RouteResult r{};
    for (int i = 0; i < 1000; ++i) r = interp->route(e.view());
    EXPECT_EQ(g_allocs.load(), before);
    EXPECT_EQ(r, first);
    EXPECT_EQ(r.deliver, 0xFFu);
  }
}

// The JIT's mask.strs helper (compiler/str_match.h) after a warm-up scan per thread:
// literals, globs and regexes of 16 sessions on ASCII, non-ASCII and empty texts. (The
// regexes match none of the texts: RE2 allocates the set of matches when some regex of a
// set matches, docs/jit.md "String indexing".)
TEST(MatcherAlloc, MaskStrsScanAllocatesNothing) {
  ProgramSpec spec;
  spec.provider.name = "P";
  spec.provider.events.push_back(event_def("E", 1, 0, {field("s", InType::UnicodeString)}));
  const PayloadOp ops[] = {PayloadOp::Contains, PayloadOp::StartsWithCs, PayloadOp::Matches,
                           PayloadOp::Regex};
  const char* texts[] = {"user", "Super", "*u?er*", "^zz[0-9]+$"};
  for (uint32_t s = 0; s < 16; ++s) {
    EnableParams p;
    p.payload = {filter(1, {pred_str(0, ops[s % 4], texts[s % 4] + std::to_string(s / 4))})};
    spec.sessions.emplace_back(s, p);
  }
  auto prog = lower(spec);
  ASSERT_TRUE(prog.has_value());
  ASSERT_EQ(prog->str_maps.size(), 1u);
  const ir::StrMap& map = prog->str_maps[0];
  for (const char16_t* text :
       {u"SuperUser0 and user1", u"S\u00FCper \u212Aelvin user2 \U0001F600", u""}) {
    const std::vector<uint8_t> payload = Bytes().wstr(text).data;
    uint64_t next = 0;
    const uint64_t first =
        pfc_ir_mask_strs_next(payload.data(), payload.size(), 0, 1, PFC_TDH_NO_LENGTH, &map, &next);
    const long before = g_allocs.load();
    for (int i = 0; i < 1000; ++i) {
      EXPECT_EQ(pfc_ir_mask_strs_next(payload.data(), payload.size(), 0, 1, PFC_TDH_NO_LENGTH, &map,
                                      &next),
                first);
    }
    EXPECT_EQ(g_allocs.load(), before);
  }
}

}  // namespace
}  // namespace pfc::testing
