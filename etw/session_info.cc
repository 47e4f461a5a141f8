// etw/session_info.cc — see session_info.h.
#include "etw/session_info.h"

#include "etw/enable_ext.h"
#include "etw/enable_wire.h"
#include "etw/state.h"

namespace pfc::etw {
namespace {

Result<trace::NamespaceState> read_state() {
  Runtime& rt = Runtime::get();
  if (auto ok = rt.link.ensure(); !ok) return std::unexpected(ok.error());
  return rt.link.store().read();
}

}  // namespace

Result<void> namespace_access() {
  auto st = read_state();
  if (!st) return std::unexpected(st.error());
  return {};
}

Result<std::vector<ProviderDef>> session_schemas(const std::u16string& name) {
  auto st = read_state();
  if (!st) return std::unexpected(st.error());
  std::vector<ProviderDef> out;
  const trace::SessionEntry* e = st->session_by_name(name);
  if (e == nullptr) return out;
  for (const trace::EnableEntry& en : st->enables) {
    if (en.slot != e->slot) continue;
    const auto params = decode_enable_parameters(en.filters);
    if (!params) continue;
    for (size_t i = 0; i < params->descriptors.size(); ++i) {
      if (params->descriptors[i].Type != kFilterTypePfcExtension) continue;
      const std::vector<uint8_t>& data = params->data[i];
      auto ext = decode_ext(data.data(), data.size(), nullptr);
      if (ext && ext->schema) out.push_back(std::move(*ext->schema));
    }
  }
  return out;
}

}  // namespace pfc::etw
