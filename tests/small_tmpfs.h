// tests/small_tmpfs.h — a test fixture whose trace namespace lies on a small tmpfs of its
// own, for the tests of a full file system (docs/namespace.md §3 "A full file system"):
// mounted on a fresh directory under /tmp (root only: others are skipped), the namespace
// directory `ns` in it named by PFC_TRACE_DIR, unmounted on every path. fill() takes every
// free block.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

namespace pfc::tests {

class SmallTmpfs : public ::testing::Test {
 protected:
  // `size`: the tmpfs's size option ("4m").
  explicit SmallTmpfs(const char* size) : size_(size) {}
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "not root: cannot mount a small tmpfs to fill";
    char tmpl[] = "/tmp/pfc-full-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr) << std::strerror(errno);
    mnt_ = tmpl;
    const std::string options = "size=" + size_ + ",mode=0700";
    ASSERT_EQ(::mount("tmpfs", mnt_.c_str(), "tmpfs", 0, options.c_str()), 0)
        << std::strerror(errno);
    mounted_ = true;
    ::setenv("PFC_TRACE_DIR", (mnt_ + "/ns").c_str(), 1);
  }
  void TearDown() override {
    if (mounted_) ::umount2(mnt_.c_str(), MNT_DETACH);
    if (!mnt_.empty()) ::rmdir(mnt_.c_str());
  }
  // Takes every free block of the file system.
  void fill() const {
    std::FILE* f = std::fopen((mnt_ + "/fill").c_str(), "ab");
    if (f == nullptr) FAIL() << "fopen: " << std::strerror(errno);
    std::setvbuf(f, nullptr, _IONBF, 0);
    static const char page[4096] = {};
    while (std::fwrite(page, 1, sizeof page, f) == sizeof page) {
    }
    while (std::fwrite(page, 1, 1, f) == 1) {
    }
    std::fclose(f);
  }

  std::string mnt_;

 private:
  std::string size_;
  bool mounted_ = false;
};

}  // namespace pfc::tests
