// tests/trace/dir_test.cc — the namespace directory is created private and refused when it
// is shared, a symlink or not a directory.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "trace/dir.h"
#include "trace_test_util.h"

namespace pfc::trace {
namespace {

using testing::TempNamespace;

TEST(TraceDir, CreatedWithMode0700) {
  TempNamespace ns;
  const std::string sub = ns.path() + "/inner";
  ::setenv("PFC_TRACE_DIR", sub.c_str(), 1);
  auto d = TraceDir::open();
  ASSERT_TRUE(d) << d.error().message;
  struct stat st;
  ASSERT_EQ(::stat(sub.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  auto f = d->open_file("x", true);
  ASSERT_TRUE(f);
  ASSERT_EQ(::fstat(f->get(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST(TraceDir, SharedDirectoryIsRefused) {
  TempNamespace ns;
  ASSERT_EQ(::chmod(ns.path().c_str(), 0755), 0);
  auto d = TraceDir::open();
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("accessible to other users"), std::string::npos);
}

TEST(TraceDir, SymlinkIsRefused) {
  TempNamespace ns;
  const std::string link = ns.path() + "/link";
  const std::string real = ns.path() + "/real";
  ASSERT_EQ(::mkdir(real.c_str(), 0700), 0);
  ASSERT_EQ(::symlink(real.c_str(), link.c_str()), 0);
  ::setenv("PFC_TRACE_DIR", link.c_str(), 1);
  EXPECT_FALSE(TraceDir::open());
}

TEST(TraceDir, SymlinkedFileIsRefused) {
  TempNamespace ns;
  auto d = ns.open();
  ASSERT_EQ(::symlink("/etc/passwd", (ns.path() + "/state").c_str()), 0);
  EXPECT_FALSE(d.open_file("state", false));
}

TEST(TraceDir, DefaultPathFollowsTheEnvironment) {
  ::unsetenv("PFC_TRACE_DIR");
  ::setenv("XDG_RUNTIME_DIR", "/run/user/1234", 1);
  EXPECT_EQ(TraceDir::default_path(), "/run/user/1234/pfc");
  ::unsetenv("XDG_RUNTIME_DIR");
  EXPECT_EQ(TraceDir::default_path(), "/dev/shm/pfc-" + std::to_string(::geteuid()));
}

}  // namespace
}  // namespace pfc::trace
