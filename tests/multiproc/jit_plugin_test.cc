// tests/multiproc/jit_plugin_test.cc — the JIT of libpfc_etw's `jit` engine is a plugin
// (docs/etw.md "Engine"): a provider process maps no LLVM while no session enables it; once
// a session does, the plugin is loaded and the events are routed as filtered; the default
// engine (the namespace's shared code) never loads it; with the plugin out of
// reach (PFC_ETW_JIT_PLUGIN naming a missing file) or PFC_ETW_ENGINE=interp, the
// interpreter routes the same events and nothing of LLVM is mapped. Providers are
// trace_actor linked with libpfc_etw.so and, for the lookup beside a program, with
// libpfc_etw.a. Each test has its own namespace; every wait is bounded, every child reaped.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "child.h"

namespace pfc::multiproc {
namespace {

constexpr int kWait = 20000;  // ms

class JitPlugin : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/dev/shm/pfc-jitplugin-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    ::setenv("PFC_TRACE_DIR", dir_.c_str(), 1);
  }
  void TearDown() override { remove_namespace(dir_, dir_); }

  std::string dir_;
};

void ok(const std::vector<std::string>& args) {
  int rc = -1;
  const std::string out = run_actor(args, &rc);
  ASSERT_EQ(rc, 0) << args[0] << ": " << out;
}

// How many lines of /proc/PID/maps name `what`.
int mapped(int pid, const std::string& what) {
  std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
  int n = 0;
  for (std::string line; std::getline(maps, line);) n += line.find(what) != std::string::npos;
  return n;
}

struct Seen {
  unsigned id, seq;
  auto operator<=>(const Seen&) const = default;
};

// A provider with no session, then a session enabling event ids 1 and 3: exactly those of
// the 200 events written arrive; the plugin (and LLVM) is mapped afterwards iff
// `expect_plugin`.
void route_through_session(Child& provider, bool expect_plugin) {
  ASSERT_EQ(provider.read_line(kWait), "registered");
  EXPECT_EQ(mapped(provider.pid(), "libLLVM"), 0) << "LLVM mapped with no session";
  EXPECT_EQ(mapped(provider.pid(), "libpfc_etw_jit"), 0) << "plugin mapped with no session";
  provider.send("write 50 1");  // no session: nothing is compiled, nothing loaded
  ASSERT_NE(provider.expect("wrote", kWait), "");
  EXPECT_EQ(mapped(provider.pid(), "libpfc_etw_jit"), 0);

  ok({"start", "S"});
  Child consumer({"consume", "S"});
  ASSERT_EQ(consumer.read_line(kWait), "open");
  ok({"enable", "S", "0x7e1", "4", "0", "1,3"});
  ASSERT_EQ(provider.expect("callback", kWait), "callback 1 4 0xffffffffffffffff");
  provider.send("write 200 1");
  ASSERT_EQ(provider.expect("wrote", kWait), "wrote 50 50 50 50");
  EXPECT_EQ(mapped(provider.pid(), "libpfc_etw_jit") > 0, expect_plugin);
  EXPECT_EQ(mapped(provider.pid(), "libLLVM") > 0, expect_plugin);
  ok({"stop", "S"});

  std::set<Seen> got;
  size_t lines = 0;
  for (std::string line = consumer.read_line(kWait); !line.empty() && line.rfind("done", 0) != 0;
       line = consumer.read_line(kWait)) {
    unsigned pid = 0;
    Seen e{};
    if (std::sscanf(line.c_str(), "event %u %u %u", &pid, &e.id, &e.seq) != 3) continue;
    EXPECT_EQ(pid, unsigned(provider.pid()));
    got.insert(e);
    ++lines;
  }
  EXPECT_EQ(consumer.wait(kWait), 0);
  std::set<Seen> want;
  for (unsigned i = 0; i < 200; ++i)
    if (i % 4 == 0 || i % 4 == 2) want.insert(Seen{1 + i % 4, i});
  EXPECT_EQ(got, want);
  EXPECT_EQ(lines, want.size());  // no duplicates
  provider.send("quit");
  EXPECT_EQ(provider.wait(kWait), 0);
}

TEST_F(JitPlugin, ProviderMapsNoLlvmUntilASessionEnablesItThenLoadsThePlugin) {
  Child provider({"provider", "0x7e1"}, {"PFC_ETW_ENGINE=jit"});
  route_through_session(provider, true);
}

TEST_F(JitPlugin, UnreachablePluginRoutesWithTheInterpreter) {
  Child provider({"provider", "0x7e1"}, {"PFC_ETW_JIT_PLUGIN=" + dir_ + "/no-such-plugin.so"});
  route_through_session(provider, false);
}

TEST_F(JitPlugin, ExplicitJitEngineWithoutThePluginRoutesWithTheInterpreter) {
  Child provider({"provider", "0x7e1"},
                 {"PFC_ETW_ENGINE=jit", "PFC_ETW_JIT_PLUGIN=" + dir_ + "/no-such-plugin.so"});
  route_through_session(provider, false);
}

TEST_F(JitPlugin, DefaultEngineNeverLoadsThePlugin) {
  Child provider({"provider", "0x7e1"}, {"PFC_COMPILER_IDLE_MS=200"});
  route_through_session(provider, false);
}

TEST_F(JitPlugin, InterpreterEngineNeverLoadsThePlugin) {
  Child provider({"provider", "0x7e1"}, {"PFC_ETW_ENGINE=interp"});
  route_through_session(provider, false);
}

TEST_F(JitPlugin, StaticLinkFindsThePlugin) {
  Child provider(Child::Program{TRACE_ACTOR_STATIC}, {"provider", "0x7e1"}, {"PFC_ETW_ENGINE=jit"});
  route_through_session(provider, true);
}

}  // namespace
}  // namespace pfc::multiproc
