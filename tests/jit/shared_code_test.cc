// tests/jit/shared_code_test.cc — shared compiled code (compiler/jit/shared_code.h,
// compiler/native_file.h): compile_shared → parse_native_file → load_native routes exactly
// as the interpreter on the golden corpus (with its events) and on generated cases; two
// loads of one file are independent; a failed link is an Error.
#include "compiler/jit/shared_code.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "compiler/interp.h"
#include "compiler/ir_wire.h"
#include "tests/compiler/corpus.h"
#include "tests/jit/jit_test_util.h"

namespace pfc::testing {
namespace {

// The loaded code of `program`, compiled at `level` (failing the test on an error).
std::unique_ptr<LoadedNative> load(const ir::Program& program, OptLevel level,
                                   std::string* file_bytes = nullptr) {
  const ProgramKey key = program_key(ir::encode_program(program));
  auto bytes = compile_shared(program, key, level);
  EXPECT_TRUE(bytes.has_value()) << bytes.error().message;
  if (!bytes) return nullptr;
  auto file = parse_native_file(*bytes);
  EXPECT_TRUE(file.has_value()) << file.error().message;
  if (!file) return nullptr;
  EXPECT_EQ(file->key, key);
  auto loaded = load_native(*file, program);
  EXPECT_TRUE(loaded.has_value()) << loaded.error().message;
  if (file_bytes) *file_bytes = *bytes;
  return loaded ? std::move(*loaded) : nullptr;
}

PFC_CALLS_JIT_CODE RouteResult call_shared(SharedRouteFn fn, const Event& e) {
  const EventView view = e.view();
  uint64_t stack = 0;
  const uint64_t deliver = fn(&view, &stack);
  return RouteResult{deliver, stack};
}

void expect_routes_as_interpreter(const CorpusProgram& c, const std::vector<Event>& events,
                                  OptLevel level) {
  auto interp = Interpreter::create(c.program);
  ASSERT_TRUE(interp.has_value()) << c.name;
  auto loaded = load(c.program, level);
  ASSERT_TRUE(loaded) << c.name;
  for (const Event& e : events)
    ASSERT_EQ(call_shared(loaded->fn(), e), (*interp)->route(e.view()))
        << c.name << " at " << opt_level_name(level) << ", event id " << e.desc.id;
}

TEST(SharedCode, GoldenCorpusRoutesAsTheInterpreter) {
  for (const CorpusProgram& c : golden_programs()) {
    expect_routes_as_interpreter(c, c.events, kDefaultOptLevel);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(SharedCode, GeneratedCasesRouteAsTheInterpreterAtEveryLevel) {
  std::vector<CorpusProgram> cases = generated_programs(1000, 40);
  ASSERT_GT(cases.size(), 30u);
  std::vector<Event> events;
  for (const CorpusProgram& c : cases)
    events.insert(events.end(), c.events.begin(), c.events.end());
  for (size_t i = 0; i < cases.size(); ++i) {
    const OptLevel level = static_cast<OptLevel>(i % 3);
    expect_routes_as_interpreter(cases[i], events, level);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// str.in always calls its helper with the string set's address: a program whose set holds
// `value`, delivering bit 0 iff the exe name is in it.
ir::Program exe_in(const std::string& value) {
  ProgramBuilder b;
  b.program().str_sets.push_back(ir::StrSet{{value}, true});
  const ir::Reg hit = b.emit(ir::Op::StrIn, static_cast<uint32_t>(ir::HeaderString::ExeName), 0);
  b.effect(ir::Op::Deliver, hit, 0);
  return b.finish();
}

TEST(SharedCode, TwoLoadsOfOneFileHaveTheirOwnTables) {
  const ir::Program a = exe_in("a.exe");
  std::string bytes;
  auto first = load(a, kDefaultOptLevel, &bytes);
  ASSERT_TRUE(first);
  auto file = parse_native_file(bytes);
  ASSERT_TRUE(file.has_value());
  // The same code with another program's set of the same shape: its table points there.
  const ir::Program b = exe_in("b.exe");
  auto second = load_native(*file, b);
  ASSERT_TRUE(second.has_value()) << second.error().message;
  EXPECT_NE(first->fn(), (*second)->fn());
  Event ea, eb;
  ea.exe = "C:\\a.exe";
  eb.exe = "/bin/b.exe";
  EXPECT_EQ(call_shared(first->fn(), ea).deliver, 1u);
  EXPECT_EQ(call_shared(first->fn(), eb).deliver, 0u);
  EXPECT_EQ(call_shared((*second)->fn(), ea).deliver, 0u);
  EXPECT_EQ(call_shared((*second)->fn(), eb).deliver, 1u);
  first.reset();  // unloading one leaves the other working
  EXPECT_EQ(call_shared((*second)->fn(), eb).deliver, 1u);
}

TEST(SharedCode, SlotsAreCheckedAgainstTheProgram) {
  std::string bytes;
  ASSERT_TRUE(load(exe_in("a.exe"), kDefaultOptLevel, &bytes));
  auto file = parse_native_file(bytes);
  ASSERT_TRUE(file.has_value());
  ir::Program empty;
  empty.code = {ir::Inst{}};
  auto loaded = load_native(*file, empty);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().message, "table slot names string set 0 of 0");
}

TEST(SharedCode, CancelledCompilesStop) {
  const ir::Program p = exe_in("a.exe");
  int asked = 0;
  auto r = compile_shared(p, ProgramKey{}, kDefaultOptLevel, [&] { return ++asked == 2; });
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message, kCancelledMessage);
}

// The linker runs in a private directory under TMPDIR that is gone afterwards.
TEST(SharedCode, TheLinkDirectoryIsRemoved) {
  char pattern[] = "/tmp/pfc-shared-test-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::string dir = pattern;
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old ? old : "";
  setenv("TMPDIR", dir.c_str(), 1);
  auto r = compile_shared(exe_in("a.exe"), ProgramKey{});
  if (old) setenv("TMPDIR", saved.c_str(), 1);
  else unsetenv("TMPDIR");
  EXPECT_TRUE(r.has_value()) << r.error().message;
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
}

TEST(SharedCode, VerifierFailuresAreErrors) {
  ir::Program bad;
  auto r = compile_shared(bad, ProgramKey{});
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("pool: "), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace pfc::testing
