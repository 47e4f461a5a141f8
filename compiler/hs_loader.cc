// compiler/hs_loader.cc — see hs_loader.h.
#include "compiler/hs_loader.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>

namespace pfc::internal {
namespace {

struct Loader {
  std::once_flag once;
  const HsApi* api = nullptr;
  HsStatus status;                // written once, before `done`
  std::atomic<bool> done{false};  // the load was tried
};

Loader& loader() {
  static Loader* l = new Loader();  // never destroyed: matchers may outlive static objects
  return *l;
}

template <typename F>
bool resolve(void* handle, const char* name, F& out) {
  out = reinterpret_cast<F>(::dlsym(handle, name));
  return out != nullptr;
}

}  // namespace

const HsApi* load_hyperscan(const std::string& file, std::string& message) {
  void* handle = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* error = ::dlerror();
    message = error != nullptr ? error : file + ": dlopen failed";
    std::replace(message.begin(), message.end(), '\n', ' ');
    return nullptr;
  }
  auto api = std::make_unique<HsApi>();
  const char* missing = nullptr;
  if (!resolve(handle, "hs_compile_multi", api->compile_multi)) missing = "hs_compile_multi";
  else if (!resolve(handle, "hs_free_compile_error", api->free_compile_error))
    missing = "hs_free_compile_error";
  else if (!resolve(handle, "hs_free_database", api->free_database)) missing = "hs_free_database";
  else if (!resolve(handle, "hs_alloc_scratch", api->alloc_scratch)) missing = "hs_alloc_scratch";
  else if (!resolve(handle, "hs_clone_scratch", api->clone_scratch)) missing = "hs_clone_scratch";
  else if (!resolve(handle, "hs_free_scratch", api->free_scratch)) missing = "hs_free_scratch";
  else if (!resolve(handle, "hs_scan", api->scan)) missing = "hs_scan";
  else if (!resolve(handle, "hs_serialize_database", api->serialize_database))
    missing = "hs_serialize_database";
  else if (!resolve(handle, "hs_deserialize_database", api->deserialize_database))
    missing = "hs_deserialize_database";
  else if (!resolve(handle, "hs_version", api->version)) missing = "hs_version";
  else if (!resolve(handle, "hs_populate_platform", api->populate_platform))
    missing = "hs_populate_platform";
  if (missing != nullptr) {
    message = file + ": not Hyperscan (no " + missing + ")";
    ::dlclose(handle);
    return nullptr;
  }
  return api.release();  // the library stays loaded for the process's life
}

const HsApi* hyperscan() {
  Loader& l = loader();
  std::call_once(l.once, [&l] {
    const char* env = ::secure_getenv("PFC_HYPERSCAN_LIBRARY");
    l.status.file = env != nullptr && *env != '\0' ? env : kHsLibrary;
    l.api = load_hyperscan(l.status.file, l.status.message);
    l.status.loaded = l.api != nullptr;
    l.status.tried = true;
    l.done.store(true, std::memory_order_release);
  });
  return l.api;
}

HsStatus hyperscan_status() {
  const Loader& l = loader();
  return l.done.load(std::memory_order_acquire) ? l.status : HsStatus{};
}

}  // namespace pfc::internal
