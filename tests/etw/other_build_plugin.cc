// tests/etw/other_build_plugin.cc — plugins etw/jit_loader.cc must refuse without calling
// them: built as other_build_plugin, a JIT plugin as another pfc build would make it (the
// right entry point and interface number, PFC_ETW_BUILD_VERSION "0-other-build"); built
// with PFC_TEST_NO_ENTRY as not_a_plugin, a shared library without the entry point.
#include "etw/jit_plugin.h"

#ifdef PFC_TEST_NO_ENTRY
extern "C" __attribute__((visibility("default"))) int pfc_test_not_a_plugin() { return 0; }
#else
extern "C" __attribute__((visibility("default"))) const pfc::etw::JitPlugin* pfc_etw_jit_plugin() {
  static const pfc::etw::JitPlugin plugin{pfc::etw::kJitPluginAbi, pfc::etw::kJitPluginLayout,
                                          pfc::etw::kJitPluginBuild, nullptr};
  return &plugin;
}
#endif
