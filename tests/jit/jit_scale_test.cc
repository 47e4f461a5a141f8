// tests/jit/jit_scale_test.cc — large programs (issue B4): the fast register allocator is
// quadratic in a basic block's length, so the pipeline cuts blocks after 512 instructions
// (counted here in the emitted LLVM IR, at every level) without changing a result; and a
// TieredCompiler destroyed while its thread compiles a large program does not wait for it.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <sstream>
#include <string>

#include "compiler/jit/tiered.h"
#include "compiler/lower.h"
#include "jit_test_util.h"

namespace pfc::testing {
namespace {

// One session whose filter is an `or` of n predicates of every kind (helper calls too).
std::string chain_script(int n) {
  std::string preds;
  for (int i = 0; i < n; ++i) {
    if (i) preds += " or ";
    switch (i % 4) {
      case 0: preds += "A eq " + std::to_string(i); break;
      case 1: preds += "S contains \"x" + std::to_string(i) + "\""; break;
      case 2: preds += "A between " + std::to_string(i) + "," + std::to_string(i + 1); break;
      default: preds += "B lt -" + std::to_string(i); break;
    }
  }
  return "provider P { event E (id=1) { A: uint32; B: int64; S: string; } }\n"
         "session S { enable P { payload E where " +
         preds + "; } }\n";
}

// A: uint32, B: int64 (0), S: string (NUL-terminated).
std::vector<uint8_t> payload(uint32_t a, const std::string& s) {
  std::vector<uint8_t> out(12, 0);
  for (int i = 0; i < 4; ++i) out[i] = uint8_t(a >> (8 * i));
  for (char c : s) out.push_back(uint8_t(c));
  out.push_back(0);
  return out;
}

// The most instructions in one basic block of the LLVM IR text.
size_t longest_block(const std::string& ir) {
  std::istringstream in(ir);
  std::string line;
  size_t longest = 0, current = 0;
  bool in_function = false;
  while (std::getline(in, line)) {
    if (line.starts_with("define ")) in_function = true, current = 0;
    else if (line == "}") in_function = false, longest = std::max(longest, current);
    else if (!in_function || line.empty()) continue;
    else if (line.starts_with("  ")) ++current;
    else longest = std::max(longest, current), current = 0;  // a label starts a block
  }
  return longest;
}

TEST(JitScale, LongBlocksAreCutAtEveryLevel) {
  auto program = lower(spec_from_script(chain_script(3000)));
  ASSERT_TRUE(program) << program.error().message;
  for (OptLevel level : {OptLevel::O0, OptLevel::O1, OptLevel::O2}) {
    auto ir = emit_llvm(*program, level);
    ASSERT_TRUE(ir) << ir.error().message;
    EXPECT_LE(longest_block(*ir), 513u) << static_cast<int>(level);  // 512 + the branch
    EXPECT_GT(ir->size(), 100000u);                                  // the chain is really there
  }
}

TEST(JitScale, CutProgramsRouteLikeTheInterpreter) {
  auto program = lower(spec_from_script(chain_script(3000)));
  ASSERT_TRUE(program) << program.error().message;
  auto interp = Interpreter::create(*program);
  ASSERT_TRUE(interp);
  for (OptLevel level : {OptLevel::O0, OptLevel::O1}) {
    auto native = JitProgram::create(*program, level);
    ASSERT_TRUE(native) << native.error().message;
    // Matches at the first, a middle and the last predicates, and none.
    for (const std::string& s :
         {std::string("x1"), std::string("x1501"), std::string("x2997"), std::string("zz")}) {
      for (uint32_t a : {0u, 1500u, 2998u, 99999u}) {
        Event e;
        e.desc.id = 1;
        e.payload = payload(a, s);
        EXPECT_EQ((*native)->route(e.view()), (*interp)->route(e.view())) << s << " " << a;
      }
    }
  }
}

// `F in` / `F not in` a list of n strings on field F (string or wstring), one session.
std::string string_list_script(int n, const char* type, bool in, bool long_values) {
  std::string values;
  for (int i = 0; i < n; ++i)
    values +=
        (i ? ", \"" : "\"") + std::string(long_values ? "value-" : "v") + std::to_string(i) + "\"";
  return std::string("provider P { event E (id=1) { F: ") + type +
         "; } }\nsession S { enable P { payload E where F " + (in ? "in " : "not in ") + values +
         "; } }\n";
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A string list is one helper call per value whose 0/1 result feeds the conjunction or
// disjunction directly: no `icmp` per value (an `icmp ne %call, 0` in an `and` chain made
// EarlyCSE walk the rest of the chain from every compare, O(n^2): docs/jit.md "Large
// programs"). So the generated code grows linearly and its compares not at all.
TEST(JitScale, StringListsAreLinearWithoutComparePerValue) {
  struct Shape {
    const char* type;
    bool in, long_values;
  };
  for (const Shape& sh : {Shape{"wstring", false, false}, Shape{"wstring", true, true},
                          Shape{"string", true, true}, Shape{"string", false, false}}) {
    size_t icmps[2] = {}, lines[2] = {};
    for (int k = 0; k < 2; ++k) {
      const int n = 500 << k;
      auto program = lower(spec_from_script(string_list_script(n, sh.type, sh.in, sh.long_values)));
      ASSERT_TRUE(program) << program.error().message;
      auto ir = emit_llvm(*program, OptLevel::O0);  // the code generator's own output
      ASSERT_TRUE(ir) << ir.error().message;
      EXPECT_EQ(count(*ir, "call i32 @pfc_"), size_t(n)) << sh.type;
      icmps[k] = count(*ir, "icmp ");
      lines[k] = count(*ir, "\n");
    }
    EXPECT_EQ(icmps[1], icmps[0]) << sh.type << " " << sh.in;
    EXPECT_LT(icmps[0], 10u) << sh.type << " " << sh.in;
    EXPECT_LE(lines[1], 2 * lines[0] + 50) << sh.type << " " << sh.in;
  }
}

// Destroying the compiler abandons the compilation in progress (at its next stage
// boundary) instead of waiting for it, and reports no error for it.
TEST(JitScale, DestroyedCompilerDoesNotWaitForItsThread) {
  auto program = lower(spec_from_script(chain_script(20000)));  // about a second to compile
  ASSERT_TRUE(program) << program.error().message;
  std::atomic<int> reported{0};
  EngineOptions options;
  options.on_jit_error = [&](const Error&) { reported.fetch_add(1); };
  auto compiler = std::make_unique<TieredCompiler>(options);
  auto p = compiler->compile_ir(*program);
  ASSERT_TRUE(p);
  compiler.reset();  // returns at once: waiting would have let the compile finish (Native)
  EXPECT_NE((*p)->tier(), TieredProgram::Tier::Native);
  (*p)->wait();
  EXPECT_EQ((*p)->tier(), TieredProgram::Tier::Failed);
  const std::string why = (*p)->error().value_or(Error{}).message;
  EXPECT_TRUE(why == kCancelledMessage || why == "compiler shut down before tier-up") << why;
  EXPECT_EQ(reported.load(), 0);
  Event e;
  e.desc.id = 1;
  e.payload = payload(7, "x1");
  EXPECT_EQ((*p)->route(e.view()).deliver, 1u);  // the interpreter keeps serving
}

// Programs over kMaxJitInstructions are not compiled (no copy is made for the JIT either):
// the error names the limit, and the tiered engines keep routing them with the interpreter.
TEST(JitScale, ProgramsOverTheLimitStayOnTheInterpreter) {
  ProgramBuilder b;
  ir::Reg last = b.constant(1);
  while (b.here() < kMaxJitInstructions) last = b.constant(1);
  b.effect(ir::Op::Deliver, last, 3);
  const ir::Program program = b.finish();
  ASSERT_GT(program.code.size(), kMaxJitInstructions);
  auto native = JitProgram::create(program, OptLevel::O1);
  ASSERT_FALSE(native);
  EXPECT_TRUE(is_jit_limit_error(native.error())) << native.error().message;
  EXPECT_EQ(native.error().message, "the routing program has " +
                                        std::to_string(program.code.size()) +
                                        " IR instructions, more than the JIT's limit of 262144");
  EXPECT_FALSE(emit_llvm(program, OptLevel::O1));
  for (bool wait : {false, true}) {
    std::atomic<int> reported{0};
    EngineOptions options;
    options.on_jit_error = [&](const Error& e) { reported += is_jit_limit_error(e); };
    TieredCompiler compiler(options, wait);
    auto p = compiler.compile_ir(program);
    ASSERT_TRUE(p);
    EXPECT_EQ((*p)->tier(), TieredProgram::Tier::Failed);  // at once, without a compile
    EXPECT_EQ(reported.load(), 1);
    EXPECT_EQ((*p)->route(Event{}.view()).deliver, uint64_t{1} << 3);
  }
}

}  // namespace
}  // namespace pfc::testing
