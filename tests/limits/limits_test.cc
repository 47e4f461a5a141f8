// tests/limits/limits_test.cc — hostile input sizes through the real `pfc` (issue 12's
// reproducers): each run is capped in address space and killed after a generous time, so
// a quadratic path or an unbounded allocation fails the test instead of the machine.
// Timeouts are about 50x the time the case takes on the CI machine; never an assertion on
// time itself. No input may end in exit 3.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process.h"

namespace pfc::test {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kMiB = uint64_t{1} << 20;

// `pfc ARGS` in `dir` under `timeout -s KILL seconds prlimit --as=mib`. A kill shows as
// exit code 137, an allocation failure under the cap as exit 3 or a signal (-1).
ProcessResult run_capped(const std::vector<std::string>& args, const std::string& dir,
                         uint64_t mib, int seconds) {
  std::vector<std::string> argv = {"-s", "KILL", std::to_string(seconds), "prlimit",
                                   "--as=" + std::to_string(mib * kMiB), PFC_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process("/usr/bin/timeout", argv, dir);
}

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
  for (int i = 0; i < 200000; ++i) exes += (i ? ";" : "") + std::string("app") + std::to_string(i) + ".exe";
  write("s.pfs", std::string(kProvider) + "session S { enable P { pid " + pids + "; exe \"" + exes +
                     "\"; } }\n");
  const ProcessResult r = run_capped({"check", "s.pfs"}, dir(), 1024, 60);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
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
    for (int k = 0; k < 10; ++k) laughs += "&a" + (i == 1 ? std::string() : std::to_string(i - 1)) + ";";
    laughs += "\">";
  }
  laughs += "]>\n<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/events\">"
            "<instrumentation><events><provider name=\"&a12;\" guid=\"{11111111-2222-3333-4444-555555555555}\"/>"
            "</events></instrumentation></instrumentationManifest>\n";
  write("laughs.man", laughs);
  write("big.man", std::string(65 * kMiB, ' '));
  write("s.pfs", "import \"laughs.man\";\nimport \"big.man\";\n");
  const ProcessResult r = run_capped({"check", "s.pfs"}, dir(), 1024, 60);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("laughs.man:2:11: DOCTYPE declarations are not supported"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("big.man is more than the limit of 64 MiB of manifest text"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace pfc::test
