// etw/jit_plugin.h — the contract between libpfc_etw and its JIT plugin, libpfc_etw_jit.so
// (docs/etw.md "Engine"). The plugin holds the LLVM JIT (compiler/jit/ and everything it
// needs, its own copy, all hidden) and exports one C function, kJitPluginEntry, returning
// the JitPlugin below. Library and plugin exchange C++ objects (a ProgramSpec in, a
// RoutingProgram out), so they must come from the same build: the loader (etw/jit_loader.h)
// accepts a plugin only when its abi, layout and build equal the library's own.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "base/error.h"
#include "pfc/enable.h"
#include "pfc/event.h"
#include "pfc/filter.h"
#include "pfc/schema.h"
#include "runtime/routing_program.h"

#ifndef PFC_ETW_BUILD_VERSION
#error "PFC_ETW_BUILD_VERSION (the project version) must be defined by the build"
#endif

namespace pfc::etw {

inline constexpr char kJitPluginFile[] = "libpfc_etw_jit.so";
inline constexpr char kJitPluginEntry[] = "pfc_etw_jit_plugin";
// Raised whenever JitPlugin or the meaning of its members changes.
inline constexpr uint32_t kJitPluginAbi = 1;
// The version of pfc and the compiler that built this side.
inline constexpr char kJitPluginBuild[] = "pfc " PFC_ETW_BUILD_VERSION ", " __VERSION__;

// The sizes and alignments of the types that cross the boundary, folded into one number: a
// plugin built with other headers or another standard library ABI does not match.
template <typename... T>
constexpr uint64_t layout_of() {
  uint64_t h = 1469598103934665603ull;
  ((h = (h ^ sizeof(T)) * 1099511628211ull, h = (h ^ alignof(T)) * 1099511628211ull), ...);
  return h;
}
inline constexpr uint64_t kJitPluginLayout =
    layout_of<ProgramSpec, SessionEntry, ProviderDef, EventDef, FieldDef, EnableParams,
              PayloadFilter, EventView, RouteResult, Error, std::string,
              std::shared_ptr<const RoutingProgram>>();

struct JitPlugin {
  uint32_t abi;       // kJitPluginAbi: checked first, before any other member is read
  uint64_t layout;    // kJitPluginLayout
  const char* build;  // kJitPluginBuild
  // The program compiler of `engine` (make_program_compiler, compiler/jit/engine.h).
  std::shared_ptr<ProgramCompiler> (*make_compiler)(Engine engine);
};

// The type of the exported entry point.
using JitPluginEntry = const JitPlugin* (*)();

}  // namespace pfc::etw
