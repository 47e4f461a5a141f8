// tests/multiproc/trace_cli_errors_test.cc — the messages and exit codes of `pfc trace`
// (docs/cli.md "pfc trace", "Output") as separate processes, each test in a private
// namespace (PFC_TRACE_DIR): standard output that fails (a closed pipe, a full disk),
// another user's namespace, option values over the ETW API's limits, and sessions whose
// names `show NAME` would read as a log file.
#include <gtest/gtest.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "child.h"
#include "process.h"
#include "trace_cli_fixture.h"

namespace pfc::multiproc {
namespace {

using test::ProcessResult;
using test::run_process;
using test::StdoutTo;

constexpr int kWait = 20000;
constexpr const char* kTag =
    "0x31";  // trace_actor's provider {00000031-0000-4000-8000-000000000001}
constexpr const char* kGuid = "{00000031-0000-4000-8000-000000000001}";

long lines(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

// A trace_actor provider of kTag (enabled before it registers) writes `n` events and quits.
void write_events(int n) {
  Child p({"provider", kTag});
  ASSERT_NE(p.expect("callback 1", kWait), "");
  ASSERT_EQ(p.expect("registered", kWait), "registered");
  p.send("write " + std::to_string(n) + " 1");
  ASSERT_NE(p.expect("wrote", kWait), "");
  p.send("quit");
  EXPECT_EQ(p.wait(kWait), 0);
}

using TraceCliErrors = TraceCliFixture;

TEST_F(TraceCliErrors, ShowAndListIntoAClosedPipeAreQuietAndAFullDiskNamesItsReason) {
  const std::string file = dir_ + "/rec.etl";
  ASSERT_EQ(pfc({"start", "S", "--file", file}).exit_code, 0);
  ASSERT_EQ(pfc({"enable", "S", kGuid}).exit_code, 0);
  write_events(500);
  ASSERT_EQ(pfc({"stop", "S"}).exit_code, 0);
  ASSERT_EQ(lines(pfc({"show", file}).out), 500);
  ASSERT_EQ(pfc({"start", "Live"}).exit_code, 0);
  const std::string full = "pfc: error: cannot write <stdout>: No space left on device\n";
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"trace", "show", file}, {"trace", "list"}, {"trace", "query", "Live"}}) {
    const ProcessResult piped = run_process(PFC_BINARY, args, "", StdoutTo::ClosedPipe);
    EXPECT_EQ(piped.exit_code, 1) << args[1];
    EXPECT_EQ(piped.err, "") << args[1];
    const ProcessResult disk = run_process(PFC_BINARY, args, "", StdoutTo::DevFull);
    EXPECT_EQ(disk.exit_code, 1) << args[1];
    EXPECT_EQ(disk.err, full) << args[1];
  }
  EXPECT_EQ(pfc({"stop", "Live"}).exit_code, 0);
}

// A user created for the test and removed after it.
class SecondUser {
 public:
  SecondUser() : name_("pfct" + std::to_string(::getpid())) {
    if (run_process("/usr/sbin/useradd", {"-M", "-N", "-s", "/usr/sbin/nologin", name_})
            .exit_code != 0)
      return;
    if (const passwd* pw = ::getpwnam(name_.c_str()); pw != nullptr) {
      uid_ = pw->pw_uid;
      gid_ = pw->pw_gid;
      created_ = true;
    }
  }
  ~SecondUser() {
    if (created_) (void)run_process("/usr/sbin/userdel", {name_});
  }
  SecondUser(const SecondUser&) = delete;
  SecondUser& operator=(const SecondUser&) = delete;

  bool created() const { return created_; }
  // `pfc trace ARGS` as this user (setpriv), with umask `mask`.
  ProcessResult pfc_trace(const std::vector<std::string>& args, const char* mask = "022") const {
    std::vector<std::string> argv = {"--reuid=" + std::to_string(uid_),
                                     "--regid=" + std::to_string(gid_),
                                     "--clear-groups",
                                     "/bin/sh",
                                     "-c",
                                     std::string("umask ") + mask + "; exec \"$0\" trace \"$@\"",
                                     PFC_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process("/usr/bin/setpriv", argv);
  }

 private:
  std::string name_;
  uid_t uid_ = 0;
  gid_t gid_ = 0;
  bool created_ = false;
};

TEST_F(TraceCliErrors, AnotherUsersNamespaceIsNamedByEverySubcommand) {
  if (::geteuid() != 0)
    GTEST_SKIP() << "needs root: creates a second user (useradd) to reach another user's "
                    "namespace";
  ASSERT_EQ(pfc({"start", "RootS"}).exit_code, 0);
  ASSERT_EQ(::chmod(dir_.c_str(), 0755), 0);  // the namespace inside stays 0700
  const SecondUser other;
  ASSERT_TRUE(other.created()) << "useradd failed";
  const std::string want =
      "pfc: error: cannot open trace directory '" + dir_ + "/ns': Permission denied\n";
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"start", "X"},
                                             {"start", "X", "--file", dir_ + "/x.etl"},
                                             {"enable", "RootS", kGuid},
                                             {"disable", "RootS", kGuid},
                                             {"list"},
                                             {"query", "RootS"},
                                             {"stop", "RootS"},
                                             {"show", "RootS"},
                                             {"programs"}}) {
    const ProcessResult r = other.pfc_trace(args);
    EXPECT_EQ(r.exit_code, 1) << args[0] << ' ' << args.back();
    EXPECT_EQ(r.err, want) << args[0] << ' ' << args.back();
  }
  const ProcessResult masked = other.pfc_trace({"start", "X"}, "0777");
  EXPECT_EQ(masked.err, want);
  EXPECT_EQ(pfc({"stop", "RootS"}).exit_code, 0);
}

TEST_F(TraceCliErrors, EnableValuesOverTheApisLimitsAreUsageErrorsNamingThem) {
  ASSERT_EQ(pfc({"start", "S"}).exit_code, 0);
  const std::string at_limit(511, 'a');  // 511 UTF-16 units + NUL = 1024 bytes
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--property", "0xffffffff"},
       "--property 0xffffffff: 0xfffff000 is not an EnableProperty flag (the flags are 0xfff"},
      {{"--property", "provider_group"},
       "--property provider_group: 0x20 (provider_group) is not supported by EnableTraceEx2"},
      {{"--property", "sid,0x20"}, "--property 0x20: 0x20 (provider_group) is not supported"},
      {{"--exe", std::string(100000, 'a')},
       "--exe: the names take 200002 bytes as UTF-16 (joined by ';', NUL-terminated), more "
       "than the limit of 1024 bytes of an ETW name-list filter"},
      {{"--exe", at_limit + ",b"}, "--exe: the names take 1028 bytes"},
      {{"--pid", "1,2,3,4,5,6,7,8,9"}, "--pid: at most 8 process ids"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"enable", "S", kGuid};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const ProcessResult r = pfc(args);
    EXPECT_EQ(r.exit_code, 2) << c.message << ": " << r.err;
    EXPECT_EQ(r.err.rfind("pfc: error: " + c.message, 0), 0u) << r.err;
  }
  EXPECT_NE(pfc({"query", "S"}).out.find("\"providers\":[]"), std::string::npos);
  const ProcessResult fits = pfc({"enable", "S", kGuid, "--exe", at_limit, "--property", "0x800"});
  EXPECT_EQ(fits.exit_code, 0) << fits.err;
  // A script's filter over a limit: the same check, naming the session and the provider.
  const std::string script =
      write_file("pids.pfs", R"(provider P {00000031-0000-4000-8000-000000000001} {
    event E (id=1) { N: uint32; }
}
session S { enable P { pid 1, 2, 3, 4, 5, 6, 7, 8, 9; } }
)");
  const ProcessResult s = pfc({"enable", "S", "--script", script});
  EXPECT_EQ(s.exit_code, 2) << s.err;
  EXPECT_EQ(s.err,
            "pfc: error: session 'S' enables 'P' with 9 pids (an ETW PID filter holds at most 8): "
            "not supported by 'pfc trace enable --script'\n");
  EXPECT_EQ(pfc({"stop", "S"}).exit_code, 0);
}

TEST_F(TraceCliErrors, SessionsNamedLikeFilesAreShownWithTheSessionOption) {
  write_file("rec", "not a log file");
  // `pfc trace start` refuses the names `show NAME` always reads as a path...
  for (const char* name : {"a/b", "..", "."}) {
    const ProcessResult refused = pfc({"start", name});
    EXPECT_EQ(refused.exit_code, 2) << name;
    EXPECT_EQ(refused.err.rfind(std::string("pfc: error: NAME '") + name +
                                    "': a session name may not hold a '/' or be '.' or '..'",
                                0),
              0u)
        << refused.err;
  }
  // ...but not "rec" (a path only where such a file exists); the C API takes any name.
  ASSERT_EQ(pfc({"start", "rec"}).exit_code, 0);
  int rc = 0;
  ASSERT_EQ(run_actor({"start", "a/b"}, &rc), "start 0\n");
  ASSERT_EQ(run_actor({"start", ".."}, &rc), "start 0\n");
  for (const char* name : {"a/b", "rec", ".."})
    ASSERT_EQ(pfc({"enable", name, kGuid}).exit_code, 0) << name;
  write_events(20);
  for (const std::string name : {"a/b", "rec", ".."}) {
    const ProcessResult as_file = run_process(PFC_BINARY, {"trace", "show", name}, dir_);
    EXPECT_EQ(as_file.exit_code, 1) << name;
    const std::string note = std::string("pfc: note: a session is named '")
                                 .append(name)
                                 .append("': pfc trace show --session '")
                                 .append(name)
                                 .append("'\n");
    EXPECT_NE(as_file.err.find(note), std::string::npos) << as_file.err;
    const ProcessResult shown = run_process(PFC_BINARY, {"trace", "show", "--session", name}, dir_);
    EXPECT_EQ(shown.exit_code, 0) << name << ": " << shown.err;
    EXPECT_EQ(lines(shown.out), 20) << name;
    EXPECT_EQ(pfc({"stop", name}).exit_code, 0) << name;
  }
  const ProcessResult none = pfc({"show"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.err.rfind("pfc: error: give NAME|FILE or --session NAME", 0), 0u) << none.err;
  EXPECT_EQ(pfc({"show", "x", "--session", "y"}).exit_code, 2);
}

}  // namespace
}  // namespace pfc::multiproc
