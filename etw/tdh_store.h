// etw/tdh_store.h — the process-wide TDH store: provider schemas from loaded manifests
// (TdhLoadManifest*), looked up by TdhCreatePayloadFilter, by EnableTraceEx2 when it
// resolves a payload filter blob, and by EventRegister (a registration routes with its
// GUID's manifest schema). Also the thread's last TDH error message. Thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

#include "etw/util.h"
#include "pfc/schema.h"
#include "runtime/manifest.h"

namespace pfc::etw {

// One provider of a loaded manifest: its schema and what TDH decoding needs beyond it.
struct LoadedProvider {
  ProviderDef def;
  ManifestProviderInfo info;
};

class TdhStore {
 public:
  // Created on first use, never destroyed (like Runtime).
  static TdhStore& get();

  // Adds (or replaces) what the source `key` loaded ("file:<utf-8 path>" or "mem:<bytes>"):
  // `providers` and their `info` (parallel).
  void put(const std::string& key, std::vector<ProviderDef> providers,
           std::vector<ManifestProviderInfo> info);
  // False when `key` is not loaded.
  bool erase(const std::string& key);
  // The schema of `guid` from the most recently loaded manifest describing it, or null.
  // (Payload filters carry their own layouts: nothing needs a schema after unloading.)
  std::shared_ptr<const ProviderDef> find_loaded(const Guid& guid) const;
  // The same provider with its decoding information, or null.
  std::shared_ptr<const LoadedProvider> find_decoding(const Guid& guid) const;
  // Every provider find_decoding finds (the most recently loaded one per GUID).
  std::vector<std::shared_ptr<const LoadedProvider>> all() const;

 private:
  struct Source {
    uint64_t seq = 0;
    std::vector<std::shared_ptr<const LoadedProvider>> providers;
  };
  mutable std::shared_mutex mu_;
  std::map<std::string, Source> sources_;
  uint64_t seq_ = 0;
};

// The calling thread's last TDH error message ("" = the last call succeeded).
void set_tdh_message(std::string message);
const char* tdh_message();

// Returns `rc` after recording `message` (or clearing it for ERROR_SUCCESS).
uint32_t tdh_result(uint32_t rc, std::string message = {});

}  // namespace pfc::etw
