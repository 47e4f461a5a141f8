// etw/jit_loader.cc — see jit_loader.h.
#include "etw/jit_loader.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "compiler/interp.h"
#include "etw/beside.h"
#include "etw/jit_plugin.h"
#include "etw/shared_compiler.h"

namespace pfc::etw {
namespace {

// The process's one attempt to load the plugin. Never destroyed, never unloaded: programs
// and compilers of the plugin live as long as the process's router.
struct Loader {
  std::once_flag once;
  std::atomic<JitPluginState> state{JitPluginState::NotLoaded};
  std::string path;     // written inside `once`, read after `state` left NotLoaded
  std::string message;  // the same
  const JitPlugin* plugin = nullptr;
  std::atomic<uint64_t> interpreted{0};
};

Loader& loader() {
  static Loader* l = new Loader();
  return *l;
}

#ifdef PFC_ETW_JIT_PLUGIN_BUILT
bool readable(const std::string& path) { return ::access(path.c_str(), R_OK) == 0; }

// PFC_ETW_JIT_PLUGIN (ignored in setuid and setgid programs: secure_getenv), else beside
// libpfc_etw (the shared library's directory; for a static link the program's, and its
// ../LIBDIR), else the install directory, else — only for a library or program of the build
// tree — the build tree's plugin.
std::string plugin_path() {
  if (const char* env = ::secure_getenv("PFC_ETW_JIT_PLUGIN"); env != nullptr && *env != '\0')
    return env;
  const char* built = own_directory_within(PFC_BUILD_DIR) ? PFC_ETW_JIT_PLUGIN_BUILT : "";
  return find_beside(
      {kJitPluginFile, "../" PFC_ETW_LIBDIR_NAME "/libpfc_etw_jit.so", "../lib/libpfc_etw_jit.so"},
      {PFC_ETW_JIT_PLUGIN_INSTALLED, built}, readable);
}

std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

// dlopen + the entry point + the build checks; nullptr with `message` set on failure. A
// plugin that fails a check stays mapped (unloading LLVM is not safe), unused.
const JitPlugin* open_plugin(const std::string& path, std::string& message) {
  if (path.empty()) {
    message = std::string(kJitPluginFile) + " not found beside libpfc_etw";
    return nullptr;
  }
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* error = ::dlerror();
    message = one_line(error != nullptr ? error : path + ": dlopen failed");
    return nullptr;
  }
  auto entry = reinterpret_cast<JitPluginEntry>(::dlsym(handle, kJitPluginEntry));
  const JitPlugin* plugin = entry != nullptr ? entry() : nullptr;
  if (plugin == nullptr) {
    message = path + ": not a pfc JIT plugin (no " + kJitPluginEntry + ")";
    return nullptr;
  }
  if (plugin->abi != kJitPluginAbi) {
    message = path + ": plugin interface " + std::to_string(plugin->abi) + ", this library has " +
              std::to_string(kJitPluginAbi);
    return nullptr;
  }
  if (plugin->layout != kJitPluginLayout || std::strcmp(plugin->build, kJitPluginBuild) != 0 ||
      plugin->make_compiler == nullptr) {
    message = one_line(path + ": from another build (" + plugin->build +
                       "; this library: " + kJitPluginBuild + ")");
    return nullptr;
  }
  return plugin;
}
#else
// A build without the JIT (PFC_ENABLE_JIT=OFF) has no plugin.
std::string plugin_path() { return ""; }

const JitPlugin* open_plugin(const std::string&, std::string& message) {
  message = "this pfc was built without the JIT (PFC_ENABLE_JIT=OFF)";
  return nullptr;
}
#endif

// The plugin, loaded on the first call; nullptr when it is unavailable.
const JitPlugin* jit_plugin() {
  Loader& l = loader();
  std::call_once(l.once, [&l] {
    l.path = plugin_path();
    l.plugin = open_plugin(l.path, l.message);
    l.state.store(l.plugin != nullptr ? JitPluginState::Loaded : JitPluginState::Unavailable,
                  std::memory_order_release);
  });
  return l.plugin;
}

// jit, crosscheck: the plugin's compiler from the first program with a session on.
class PluginCompiler final : public ProgramCompiler {
 public:
  explicit PluginCompiler(Engine engine) : engine_(engine) {}

  Result<std::shared_ptr<const RoutingProgram>> compile(const ProgramSpec& spec) override {
    if (spec.sessions.empty()) return interp_.compile(spec);
    std::call_once(once_, [this] {
      if (const JitPlugin* plugin = jit_plugin()) native_ = plugin->make_compiler(engine_);
    });
    if (native_) return native_->compile(spec);
    loader().interpreted.fetch_add(1, std::memory_order_relaxed);
    return interp_.compile(spec);
  }

 private:
  Engine engine_;
  InterpCompiler interp_;
  std::once_flag once_;
  std::shared_ptr<ProgramCompiler> native_;  // set inside once_, then read-only
};

}  // namespace

std::shared_ptr<ProgramCompiler> make_etw_compiler(Engine engine) {
  if (engine == Engine::Interp) return std::make_shared<InterpCompiler>();
#ifdef PFC_ETW_JIT_PLUGIN_BUILT
  if (engine == Engine::Auto) return make_shared_compiler();
#else
  // A build without the JIT has no compile service either.
  if (engine == Engine::Auto) return std::make_shared<InterpCompiler>();
#endif
  return std::make_shared<PluginCompiler>(engine);
}

JitPluginStatus jit_plugin_status() {
  const Loader& l = loader();
  JitPluginStatus s;
  s.state = l.state.load(std::memory_order_acquire);
  if (s.state != JitPluginState::NotLoaded) {
    s.path = l.path;
    s.message = l.message;
  }
  s.interpreted = l.interpreted.load(std::memory_order_relaxed);
  return s;
}

}  // namespace pfc::etw
