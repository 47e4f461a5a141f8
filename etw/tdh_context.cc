// etw/tdh_context.cc — see tdh_context.h.
#include "etw/tdh_context.h"

#include "etw/enable_ext.h"
#include "etw/session_info.h"

namespace pfc::etw {
namespace {

thread_local TraceSchemas* tls_delivering = nullptr;

}  // namespace

std::vector<LoadedProvider> decode_log_schema(const trace::ProviderSchema& s) {
  std::vector<LoadedProvider> out;
  if (s.kind == trace::kSchemaPfcExtension) {
    auto ext = decode_ext(s.data.data(), s.data.size(), nullptr);
    if (ext && ext->schema && ext->schema->guid == s.provider)
      out.push_back(LoadedProvider{std::move(*ext->schema), {}});
  } else if (s.kind == trace::kSchemaManifest) {
    std::vector<ManifestProviderInfo> info;
    auto parsed = parse_manifest(
        std::string_view(reinterpret_cast<const char*>(s.data.data()), s.data.size()), info);
    if (!parsed) return out;
    for (size_t i = 0; i < parsed->size(); ++i)
      out.push_back(LoadedProvider{std::move((*parsed)[i]), std::move(info[i])});
  }
  return out;
}

void TraceSchemas::refresh() {
  for (LoadedProvider& p : fetch_()) {
    const Guid g = p.def.guid;
    by_guid_[g] = std::make_shared<const LoadedProvider>(std::move(p));
  }
}

void TraceSchemas::prefetch() {
  std::lock_guard<std::mutex> lock(mu_);
  refresh();
}

std::shared_ptr<const LoadedProvider> TraceSchemas::find(const Guid& guid) {
  std::lock_guard<std::mutex> lock(mu_);
  if (auto it = by_guid_.find(guid); it != by_guid_.end()) return it->second;
  refresh();
  auto it = by_guid_.find(guid);
  return it == by_guid_.end() ? nullptr : it->second;
}

std::shared_ptr<TraceSchemas> log_file_schemas(const trace::LogInfo& info) {
  return std::make_shared<TraceSchemas>([&info] {
    std::vector<LoadedProvider> out;
    for (const trace::ProviderSchema& s : info.schemas) {
      for (LoadedProvider& p : decode_log_schema(s)) out.push_back(std::move(p));
    }
    return out;
  });
}

std::shared_ptr<TraceSchemas> session_trace_schemas(std::u16string name) {
  return std::make_shared<TraceSchemas>([name = std::move(name)] {
    std::vector<LoadedProvider> out;
    auto found = session_schemas(name);
    if (!found) return out;
    for (ProviderDef& d : *found) out.push_back(LoadedProvider{std::move(d), {}});
    return out;
  });
}

DeliveryScope::DeliveryScope(TraceSchemas* schemas) : saved_(tls_delivering) {
  tls_delivering = schemas;
}

DeliveryScope::~DeliveryScope() { tls_delivering = saved_; }

std::shared_ptr<const LoadedProvider> delivering_provider(const Guid& guid) {
  return tls_delivering == nullptr ? nullptr : tls_delivering->find(guid);
}

}  // namespace pfc::etw
