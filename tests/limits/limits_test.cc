// tests/limits/limits_test.cc — hostile input sizes through the real `pfc` (the limits of
// docs/limits.md): each run is capped in address space and killed after a generous time, so
// a quadratic path or an unbounded allocation fails the test instead of the machine.
// Timeouts are about 50x the time the case takes on the CI machine; never an assertion on
// time itself. No input may end in exit 3.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process.h"
#include "tests/sanitizer.h"

namespace pfc::test {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kMiB = uint64_t{1} << 20;

// `pfc ARGS` in `dir` under `timeout -s KILL seconds prlimit --as=mib`. A kill shows as
// exit code 137, an allocation failure under the cap as exit 3 or a signal (-1).
// Sanitizer builds (tests/sanitizer.h) run without the cap: ASan and TSan reserve
// terabytes of address space for their shadow memory at start-up, so under any cap that
// means something the process dies before main. There the cap is only the safety net it is
// for most cases (their point is an error message, a limit or linear time); the cases whose
// point is the memory bound itself skip (kCapIsTheTest). The time bound is scaled by
// kSlowFactor (Debug, instrumented), within ctest's 300 s.
ProcessResult run_capped(const std::vector<std::string>& args, const std::string& dir, uint64_t mib,
                         int seconds) {
  const int limit = kSanitized ? std::min(280, int(seconds * kSlowFactor)) : seconds;
  std::vector<std::string> argv = {"-s", "KILL", std::to_string(limit)};
  if (!kSanitized) argv.insert(argv.end(), {"prlimit", "--as=" + std::to_string(mib * kMiB)});
  argv.emplace_back(PFC_BINARY);
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process("/usr/bin/timeout", argv, dir);
}

// Why a case whose assertion is the address-space cap skips in sanitizer builds.
constexpr const char* kCapIsTheTest =
    "sanitizer build: this case asserts what pfc does within an address-space cap (prlimit "
    "--as), and a sanitizer's shadow memory (terabytes of reserved address space) cannot run "
    "under one; its resident memory is also several times the bound being tested";

// A fresh directory for one test's inputs, removed afterwards.
class Limits : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("pfc_limits_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return name;
  }
  std::string dir() const { return dir_.string(); }

 private:
  fs::path dir_;
};

constexpr const char* kProvider =
    "provider P {11111111-2222-3333-4444-555555555555} {\n"
    "  event E (id=1) { A: uint32; S: wstring; }\n}\n";

// B7: `pfc check` deduplicates pid and executable lists with hash sets (400,000 pids took
// 32 s to several minutes; now well under a second).
TEST_F(Limits, LongPidAndExeListsCheckInLinearTime) {
  std::string pids, exes;
  for (int i = 0; i < 400000; ++i) pids += (i ? ", " : "") + std::to_string(7 * i);
  for (int i = 0; i < 200000; ++i)
    exes += (i ? ";" : "") + std::string("app") + std::to_string(i) + ".exe";
  write("s.pfs", std::string(kProvider) + "session S { enable P { pid " + pids + "; exe \"" + exes +
                     "\"; } }\n");
  const ProcessResult r = run_capped({"check", "s.pfs"}, dir(), 1024, 60);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

// A one-line script with an error on every predicate: each error echoes only a window of
// the line around its caret, and after 100 errors one line says the rest are not shown
// (before, 20,000 errors each echoed the whole 300 KB line: 6 GB of output).
TEST_F(Limits, ErrorsOnAHugeLineAreWindowedAndCapped) {
  std::string preds;
  for (int i = 0; i < 20000; ++i)
    preds += (i ? " and " : "") + ("S ne \"" + std::to_string(i) + "\"");
  write("s.pfs",
        std::string(kProvider) + "session S { enable P { payload E where " + preds + "; } }\n");
  const ProcessResult r = run_capped({"check", "s.pfs"}, dir(), 1024, 60);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("s.pfs: too many errors (100); stopping\n100 errors generated.\n"),
            std::string::npos)
      << r.err.substr(r.err.size() - std::min<size_t>(r.err.size(), 500));
  EXPECT_LT(r.err.size(), 100 * 600u);
}

// A script of one `and` chain of `n` predicates (about 21 bytes each), of the four kinds
// a large generated filter mixes: !=, between, contains and >.
std::string long_chain_script(int n) {
  std::string preds;
  preds.reserve(static_cast<size_t>(n) * 24);
  for (int i = 0; i < n; ++i) {
    const std::string k = std::to_string(i);
    switch (i % 4) {
      case 0: preds += "A ne " + k; break;
      case 1: preds += "A between " + k + "," + std::to_string(i + 5); break;
      case 2: preds += "S contains \"x" + k + "\""; break;
      default: preds += "A gt " + k; break;
    }
    preds += " and ";
  }
  preds += "A ne 1";
  return std::string(kProvider) + "session S { enable P { payload E where " + preds + "; } }\n";
}

// A 5 MB script of one 246,000-predicate `and` chain checks under a 384 MiB address-space
// cap (before: the AST's 320-byte predicates in a doubling vector, the checker's copies of
// the filter and the dead-filter IR were all alive at once; it needed about 500 MiB).
TEST_F(Limits, OneLongChainChecksInBoundedMemory) {
  if (kSanitized) GTEST_SKIP() << kCapIsTheTest;
  write("s.pfs", long_chain_script(246000));
  const ProcessResult r = run_capped({"check", "s.pfs"}, dir(), 384, 120);
  EXPECT_EQ(r.exit_code, 0) << r.err.substr(0, 500);
}

// Out of memory is the input's size against the process's limits, not a failure of pfc:
// a clear error and exit 1, never exit 3 ("internal error: std::bad_alloc"). The cap lets
// the script parse and not check (the checker's copy of the chain is what runs out); pfc's
// own mappings count against it too (LLVM, Hyperscan's 10 MB of code), so it sits 16 MiB
// above the smallest cap that parses.
TEST_F(Limits, OutOfMemoryIsAnInputError) {
  if (kSanitized) GTEST_SKIP() << kCapIsTheTest;
  write("s.pfs", long_chain_script(246000));
  const ProcessResult r = run_capped({"check", "s.pfs"}, dir(), 284, 120);
  EXPECT_EQ(r.exit_code, 1) << r.err.substr(0, 500);
  EXPECT_EQ(r.err,
            "pfc: error: out of memory: the input needs more memory than this process may use "
            "(docs/limits.md)\n");
}

// A 10 MB chain (492,000 predicates) routes under a 448 MiB address-space cap: the router,
// its programs' specs and the checked script share one copy of the filter, and lowering
// reserves the program's instructions up front. Before, `pfc run` held four copies of the
// filter and the doubling instruction vector's slack; it needed about 490 MiB (now about
// 410 MiB, most of it the mapped libraries).
TEST_F(Limits, OneLongChainRunsInBoundedMemory) {
  if (kSanitized) GTEST_SKIP() << kCapIsTheTest;
  write("s.pfs", long_chain_script(492000));
  write("e.jsonl",
        "{\"provider\":\"P\",\"event\":\"E\",\"fields\":{\"A\":4294967295,\"S\":\"y\"}}\n");
  const ProcessResult r =
      run_capped({"run", "s.pfs", "--events", "e.jsonl", "--engine", "interp"}, dir(), 448, 120);
  EXPECT_EQ(r.exit_code, 0) << r.err.substr(0, 500);
  // No value is both above every bound and inside `A between 1,6`: the event is dropped.
  EXPECT_EQ(r.out, "{\"seq\":0,\"sessions\":[],\"stack\":[]}\n");
}

// B12: an import that cannot be read is "cannot read FILE: REASON", not an XML error.
TEST_F(Limits, UnreadableImportsNameTheReason) {
  fs::create_directory(fs::path(dir()) / "adir.man");
  write("s.pfs", "import \"adir.man\";\nimport \"nope.man\";\n");
  const ProcessResult r = run_capped({"check", "s.pfs"}, dir(), 1024, 60);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("s.pfs:1:1: error: cannot import manifest 'adir.man': cannot read "
                       "adir.man: it is a directory"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("s.pfs:2:1: error: cannot import manifest 'nope.man': cannot read "
                       "nope.man: No such file or directory"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("XML"), std::string::npos) << r.err;
}

// Manifests: a "billion laughs" DOCTYPE is refused without expanding anything, and a
// manifest over 64 MiB is refused after reading at most the limit.
TEST_F(Limits, ManifestImportsAreBounded) {
  std::string laughs = "<?xml version=\"1.0\"?>\n<!DOCTYPE m [<!ENTITY a \"aaaaaaaaaa\">";
  for (int i = 1; i <= 12; ++i) {
    laughs += "<!ENTITY a" + std::to_string(i) + " \"";
    for (int k = 0; k < 10; ++k)
      laughs += "&a" + (i == 1 ? std::string() : std::to_string(i - 1)) + ";";
    laughs += "\">";
  }
  laughs +=
      "]>\n<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/events\">"
      "<instrumentation><events><provider name=\"&a12;\" "
      "guid=\"{11111111-2222-3333-4444-555555555555}\"/>"
      "</events></instrumentation></instrumentationManifest>\n";
  write("laughs.man", laughs);
  write("big.man", std::string(65 * kMiB, ' '));
  write("s.pfs", "import \"laughs.man\";\nimport \"big.man\";\n");
  const ProcessResult r = run_capped({"check", "s.pfs"}, dir(), 1024, 60);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("laughs.man:2:11: DOCTYPE declarations are not supported"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("big.man is more than the limit of 64 MiB of manifest text"),
            std::string::npos)
      << r.err;
}

// B5: the 16 MiB payload bound is on the whole payload. `gen` refuses an event whose
// smallest payload is over it (eight 16 MiB binaries; a 2^32-element array) before
// building anything, and never builds values for huge fixed-count arrays.
TEST_F(Limits, GenRespectsTheWholePayloadBound) {
  std::string big2 = "event Big2 (id=4) {";
  for (int i = 1; i <= 8; ++i) big2 += " B" + std::to_string(i) + ": binary length=16777216;";
  write("big2.pfs", "provider P {\n  " + big2 + " }\n}\nsession S { enable P; }\n");
  ProcessResult r = run_capped({"gen", "big2.pfs", "--count", "5", "--seed", "1", "-o", "x.cap"},
                               dir(), 1024, 60);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(
      r.err.find("event 'Big2' of provider 'P' cannot be generated: field 'B2': length 16777216 "
                 "would exceed the payload limit of 16777216 bytes"),
      std::string::npos)
      << r.err;
  write("huge.pfs",
        "provider P { event E (id=1) { B: uint32[4294967295]; } }\nsession S { enable P; }\n");
  r = run_capped({"gen", "huge.pfs", "--count", "5", "--seed", "1", "-o", "x.cap"}, dir(), 1024,
                 60);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("field 'B': 4294967295 elements would exceed the payload limit"),
            std::string::npos)
      << r.err;
  // Just under the bound: 4,000,000 uint32 elements (16 MB) are generated as defaults.
  write("wide.pfs",
        "provider P { event E (id=1) { B: uint32[4000000]; } }\nsession S { enable P; }\n");
  r = run_capped({"gen", "wide.pfs", "--count", "3", "--seed", "1", "-o", "x.cap"}, dir(), 1024,
                 120);
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// Item i of `A eq 0 or A between 1,1 or A eq 2 …`: one IR predicate per item (an or of
// `eq` alone would become a single in.set, docs/ir.md §4).
std::string or_chain_item(int i) {
  const std::string v = std::to_string(i);
  return std::string(i ? " or " : "") + (i % 2 ? "A between " + v + "," + v : "A eq " + v);
}

// B4: with --engine auto the interpreter routes at once and pfc exits without waiting for
// the background compilation of a large program (it ends with quick_exit); the output is
// complete all the same.
TEST_F(Limits, AutoEngineDoesNotWaitForTheCompileAtExit) {
  std::string preds;
  for (int i = 0; i < 40000; ++i) preds += or_chain_item(i);
  write("s.pfs",
        std::string(kProvider) + "session S { enable P { payload E where " + preds + "; } }\n");
  std::string events;
  for (int i = 0; i < 100; ++i)
    events += R"({"provider":"P","event":"E","fields":{"A":)" + std::to_string(i * 300) + "}}\n";
  write("e.jsonl", events);
  const ProcessResult r =
      run_capped({"run", "s.pfs", "--events", "e.jsonl", "--engine", "auto"}, dir(), 2048, 120);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 100);
  EXPECT_EQ(r.out.substr(r.out.rfind('{', r.out.size() - 2)),
            "{\"seq\":99,\"sessions\":[\"S\"],\"stack\":[]}\n");
}

// Programs over the JIT's limit (2^18 IR instructions): --engine jit, --debug-crosscheck
// and --emit llvm say so and exit 1 (no multi-GB compile, no exit 3); auto and interp route with
// the interpreter.
TEST_F(Limits, ProgramsOverTheJitLimitAreAnErrorOnlyWhereTheJitIsRequired) {
  std::string preds;
  for (int i = 0; i < 150000; ++i) preds += or_chain_item(i);
  write("s.pfs",
        std::string(kProvider) + "session S { enable P { payload E where " + preds + "; } }\n");
  write("e.jsonl", "{\"provider\":\"P\",\"event\":\"E\",\"fields\":{\"A\":149999}}\n");
  ProcessResult r =
      run_capped({"run", "s.pfs", "--events", "e.jsonl", "--engine", "jit"}, dir(), 2048, 120);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("pfc: error: --engine jit: the routing program has "), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("IR instructions, more than the JIT's limit of 262144"), std::string::npos)
      << r.err;
  r = run_capped({"compile", "s.pfs", "--emit", "llvm"}, dir(), 2048, 120);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("pfc: error: --emit llvm: provider 'P': the routing program has"),
            std::string::npos)
      << r.err;
  // --debug-crosscheck needs the JIT as much as --engine jit: the same error, exit 1.
  r = run_capped({"run", "s.pfs", "--events", "e.jsonl", "--debug-crosscheck"}, dir(), 2048, 120);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("pfc: error: --debug-crosscheck: cannot compile the routing program of "
                       "provider 'P': the routing program has "),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "");
  for (const char* engine : {"auto", "interp"}) {
    r = run_capped({"run", "s.pfs", "--events", "e.jsonl", "--engine", engine}, dir(), 2048, 120);
    EXPECT_EQ(r.exit_code, 0) << engine << r.err;
    EXPECT_EQ(r.out, "{\"seq\":0,\"sessions\":[\"S\"],\"stack\":[]}\n") << engine;
  }
}

}  // namespace
}  // namespace pfc::test
