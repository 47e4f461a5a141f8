// compiler/hs_loader.h — Hyperscan (libhs, the multi-pattern engine of compiler/str_match.h;
// docs/jit.md "String indexing"), loaded with dlopen the first time a matcher builds a
// database, so a process that never builds one (a provider no session enables, a
// program without string patterns) maps none of it. When it cannot be loaded, every
// pattern is tested on its own — the same answers, one scan per pattern — and
// hyperscan_status() says why.
#pragma once

#include <hs/hs.h>

#include <string>

namespace pfc::internal {

// The functions str_match.cc calls, resolved from the loaded library.
struct HsApi {
  decltype(&::hs_compile_multi) compile_multi;
  decltype(&::hs_free_compile_error) free_compile_error;
  decltype(&::hs_free_database) free_database;
  decltype(&::hs_alloc_scratch) alloc_scratch;
  decltype(&::hs_clone_scratch) clone_scratch;
  decltype(&::hs_free_scratch) free_scratch;
  decltype(&::hs_scan) scan;
  // The namespace's serialised databases (compiler/hs_image.h).
  decltype(&::hs_serialize_database) serialize_database;
  decltype(&::hs_deserialize_database) deserialize_database;
  decltype(&::hs_version) version;
  decltype(&::hs_populate_platform) populate_platform;
};

// The library loaded on the first call (thread-safe), or null when it cannot be: the file
// is PFC_HYPERSCAN_LIBRARY when set (not in setuid/setgid programs), else kHsLibrary.
const HsApi* hyperscan();

#define PFC_HS_STR2(x) #x
#define PFC_HS_STR(x) PFC_HS_STR2(x)
// The SONAME of the libhs the build compiled against (its major version).
inline constexpr const char* kHsLibrary = "libhs.so." PFC_HS_STR(HS_MAJOR);

struct HsStatus {
  bool tried = false;   // hyperscan() was called
  bool loaded = false;  // and it returned the library
  std::string file;     // the file it tried
  std::string message;  // not loaded: why, on one line ("FILE: dlerror's text")
};
HsStatus hyperscan_status();

// dlopen + dlsym of FILE, uncached (what hyperscan() does once); null with `message` set.
const HsApi* load_hyperscan(const std::string& file, std::string& message);

}  // namespace pfc::internal
