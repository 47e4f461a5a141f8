// etw/jit_plugin.cc — libpfc_etw_jit.so, the JIT plugin of libpfc_etw (etw/jit_plugin.h,
// docs/etw.md "Engine"): the one exported function hands out the engine factory of
// compiler/jit/engine.h. Everything else in the plugin is local (jit_plugin.map).
#include "etw/jit_plugin.h"

#include "compiler/jit/engine.h"

namespace pfc::etw {
namespace {

std::shared_ptr<ProgramCompiler> make_compiler(Engine engine) {
  return make_program_compiler(engine);
}

constexpr JitPlugin kPlugin{kJitPluginAbi, kJitPluginLayout, kJitPluginBuild, &make_compiler};

}  // namespace
}  // namespace pfc::etw

extern "C" __attribute__((visibility("default"))) const pfc::etw::JitPlugin* pfc_etw_jit_plugin() {
  return &pfc::etw::kPlugin;
}
