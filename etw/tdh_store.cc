// etw/tdh_store.cc — the process-wide TDH store (tdh_store.h) and the thread-local last
// error message of the TDH functions.
#include "etw/tdh_store.h"

#include <algorithm>
#include <mutex>

#include "etw/guard.h"

namespace pfc::etw {
namespace {

thread_local std::string tls_message;

}  // namespace

TdhStore& TdhStore::get() {
  static TdhStore* store = new TdhStore();  // never destroyed: used until process exit
  return *store;
}

void TdhStore::put(const std::string& key, std::vector<ProviderDef> providers,
                   std::vector<ManifestProviderInfo> info) {
  Source src;
  info.resize(providers.size());
  for (size_t i = 0; i < providers.size(); ++i) {
    src.providers.push_back(std::make_shared<const LoadedProvider>(
        LoadedProvider{std::move(providers[i]), std::move(info[i])}));
  }
  std::unique_lock lock(mu_);
  src.seq = ++seq_;
  sources_[key] = std::move(src);
}

bool TdhStore::erase(const std::string& key) {
  std::unique_lock lock(mu_);
  return sources_.erase(key) != 0;
}

std::shared_ptr<const ProviderDef> TdhStore::find_loaded(const Guid& guid) const {
  std::shared_ptr<const LoadedProvider> found = find_decoding(guid);
  if (!found) return nullptr;
  return std::shared_ptr<const ProviderDef>(found, &found->def);
}

std::shared_ptr<const LoadedProvider> TdhStore::find_decoding(const Guid& guid) const {
  std::shared_lock lock(mu_);
  std::shared_ptr<const LoadedProvider> best;
  uint64_t best_seq = 0;
  for (const auto& [key, src] : sources_) {
    for (const auto& p : src.providers) {
      if (p->def.guid == guid && src.seq > best_seq) {
        best = p;
        best_seq = src.seq;
      }
    }
  }
  return best;
}

std::vector<std::shared_ptr<const LoadedProvider>> TdhStore::all() const {
  std::vector<Guid> guids;
  {
    std::shared_lock lock(mu_);
    for (const auto& [key, src] : sources_) {
      for (const auto& p : src.providers) {
        if (std::find(guids.begin(), guids.end(), p->def.guid) == guids.end())
          guids.push_back(p->def.guid);
      }
    }
  }
  std::vector<std::shared_ptr<const LoadedProvider>> out;
  for (const Guid& g : guids) {
    if (auto p = find_decoding(g)) out.push_back(std::move(p));
  }
  return out;
}

void set_tdh_message(std::string message) { tls_message = std::move(message); }

const char* tdh_message() { return tls_message.c_str(); }

uint32_t tdh_result(uint32_t rc, std::string message) {
  set_tdh_message(rc == 0 ? std::string() : std::move(message));
  return rc;
}

// The messages fit std::string's inline buffer (at least 15 characters): assigning them
// never allocates.
ULONG fail_tdh(ULONG rc) noexcept {
  tls_message.assign(rc == ERROR_NOT_ENOUGH_MEMORY ? "out of memory" : "internal error");
  return rc;
}

}  // namespace pfc::etw
