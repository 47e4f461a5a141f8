// etw/jit_loader.h — the program compiler behind libpfc_etw's router (docs/etw.md
// "Engine"). libpfc_etw holds the interpreter only; the LLVM JIT is a plugin,
// libpfc_etw_jit.so (etw/jit_plugin.h), loaded with dlopen the first time a program that
// some session enables must be compiled — never for a provider no session enables — so a
// provider process maps no LLVM until a session needs native code. When the plugin cannot
// be loaded (not found, a dlopen error, another build), every program is routed by the
// interpreter, correctly; jit_plugin_status() says why.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "pfc/filter.h"
#include "runtime/routing_program.h"

namespace pfc::etw {

// The compiler of `engine` (PFC_ETW_ENGINE): interp → the interpreter, never the plugin;
// auto → the namespace's shared code (etw/shared_compiler.h), never the plugin (the
// interpreter in a build without the JIT); jit and
// crosscheck → the plugin's compiler of that engine, loaded at the first compile() of a
// program with at least one session, or the interpreter when the plugin is unavailable.
std::shared_ptr<ProgramCompiler> make_etw_compiler(Engine engine);

enum class JitPluginState : uint8_t {
  NotLoaded,    // no program needed native code yet
  Loaded,       // the plugin is mapped and its compiler in use
  Unavailable,  // loading failed: `message` says why; the interpreter routes
};

struct JitPluginStatus {
  JitPluginState state = JitPluginState::NotLoaded;
  std::string path;          // the plugin loaded or tried ("" when none was found)
  std::string message;       // Unavailable: why, on one line
  uint64_t interpreted = 0;  // programs that wanted native code and got the interpreter
};

// What this process's loader did so far.
JitPluginStatus jit_plugin_status();

}  // namespace pfc::etw
