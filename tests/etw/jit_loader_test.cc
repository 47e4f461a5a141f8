// tests/etw/jit_loader_test.cc — libpfc_etw's engine (etw/jit_loader.h, docs/etw.md
// "Engine"): the JIT plugin is loaded at the first compilation of a program some session
// enables, never before and never for the interpreter engine; a plugin that is missing,
// is not a plugin or comes from another build leaves the interpreter routing, and
// jit_plugin_status() says why on one line. The loader is process-wide and loads once, so
// every scenario runs in a child process of its own (EXPECT_EXIT).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <string>

#include "compiler/interp.h"
#include "etw/jit_loader.h"

namespace pfc::etw {
namespace {

ProgramSpec spec_with_sessions(bool with_session) {
  ProgramSpec spec;
  spec.provider.name = "P";
  spec.provider.guid = Guid::from_provider_name("P");
  if (with_session) {
    EnableParams p;
    p.event_ids = EventIdFilter{true, {1, 3}};
    spec.sessions.emplace_back(0, std::move(p));
  }
  return spec;
}

bool plugin_mapped() {
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);)
    if (line.find("libpfc_etw_jit") != std::string::npos) return true;
  return false;
}

// "" when `compiler` routes events 1..4 as the interpreter does (ids 1 and 3 to session 0).
std::string routes_like_the_interpreter(ProgramCompiler& compiler) {
  const ProgramSpec spec = spec_with_sessions(true);
  auto got = compiler.compile(spec);
  auto want = InterpCompiler().compile(spec);
  if (!got || !want) return "compile failed";
  for (uint16_t id = 1; id <= 4; ++id) {
    EventView e;
    e.desc.id = id;
    e.desc.level = 4;
    const RouteResult r = (*got)->route(e);
    if (r != (*want)->route(e) || r.deliver != (id % 2 == 1 ? 1u : 0u))
      return "event " + std::to_string(id) + " routed differently";
  }
  return "";
}

// Runs `scenario` in a child process, which prints what went wrong and exits non-zero.
[[noreturn]] void run_and_exit(const std::function<std::string()>& scenario) {
  const std::string why = scenario();
  std::fputs(why.c_str(), stderr);
  std::fflush(stderr);
  std::_Exit(why.empty() ? 0 : 1);
}

void in_child(const std::function<std::string()>& scenario) {
  EXPECT_EXIT(run_and_exit(scenario), ::testing::ExitedWithCode(0), "");
}

std::string expect_unavailable(const std::string& plugin, const std::string& message_part) {
  ::setenv("PFC_ETW_JIT_PLUGIN", plugin.c_str(), 1);
  auto compiler = make_etw_compiler(Engine::Jit);
  if (std::string why = routes_like_the_interpreter(*compiler); !why.empty()) return why;
  const JitPluginStatus s = jit_plugin_status();
  if (s.state != JitPluginState::Unavailable) return "state is not Unavailable";
  if (s.path != plugin) return "path " + s.path;
  if (s.message.find(message_part) == std::string::npos || s.message.find('\n') != s.message.npos)
    return "message: " + s.message;
  if (s.interpreted != 1) return "interpreted " + std::to_string(s.interpreted);
  return "";
}

TEST(JitLoader, LoadsThePluginAtTheFirstProgramWithASession) {
  in_child([] {
    auto compiler = make_etw_compiler(Engine::Jit);
    if (!compiler->compile(spec_with_sessions(false))) return std::string("compile failed");
    if (jit_plugin_status().state != JitPluginState::NotLoaded || plugin_mapped())
      return std::string("loaded for a program with no session");
    if (std::string why = routes_like_the_interpreter(*compiler); !why.empty()) return why;
    const JitPluginStatus s = jit_plugin_status();
    if (s.state != JitPluginState::Loaded) return "not loaded: " + s.message;
    if (s.path != PFC_TEST_JIT_PLUGIN || !plugin_mapped()) return "loaded " + s.path;
    return s.interpreted == 0 ? std::string() : std::string("a program was interpreted");
  });
}

TEST(JitLoader, InterpreterEngineNeverLoadsThePlugin) {
  in_child([] {
    auto compiler = make_etw_compiler(Engine::Interp);
    if (std::string why = routes_like_the_interpreter(*compiler); !why.empty()) return why;
    return jit_plugin_status().state == JitPluginState::NotLoaded && !plugin_mapped()
               ? std::string()
               : std::string("loaded");
  });
}

TEST(JitLoader, MissingPluginRoutesWithTheInterpreter) {
  in_child([] { return expect_unavailable("/nonexistent/libpfc_etw_jit.so", "/nonexistent"); });
}

TEST(JitLoader, LibraryWithoutTheEntryPointIsRefused) {
  in_child([] { return expect_unavailable(PFC_TEST_NOT_A_PLUGIN, "not a pfc JIT plugin"); });
}

TEST(JitLoader, PluginOfAnotherBuildIsRefused) {
  in_child([] { return expect_unavailable(PFC_TEST_OTHER_BUILD_PLUGIN, "from another build"); });
}

}  // namespace
}  // namespace pfc::etw
