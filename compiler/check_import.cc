// compiler/check_import.cc — the import part of the semantic checker: providers of
// manifests named by `import "…";` (loaded by compiler/frontend.cc through
// runtime/manifest.h) join the schema and its name indexes, after the script's own
// providers. Clashes and load errors are diagnostics at the import statement.
#include "base/quote.h"
#include "compiler/check_context.h"
#include "compiler/convert.h"

namespace pfc::internal {
namespace {

// Name indexes of a provider that the manifest parser already validated (unique event
// names, (id, version) pairs and field names; every type known).
ProviderIndex index_of(const ProviderDef& p, SourcePos pos) {
  ProviderIndex pix;
  pix.pos = pos;
  for (uint32_t e = 0; e < p.events.size(); ++e) {
    const EventDef& ev = p.events[e];
    pix.events.emplace(ev.name, e);
    pix.by_id.emplace(uint32_t{ev.desc.id} << 8 | ev.desc.version, e);
    EventIndex ix;
    for (uint32_t f = 0; f < ev.fields.size(); ++f) ix.fields.emplace(ev.fields[f].name, f);
    ix.field_ok.assign(ev.fields.size(), true);
    pix.event_index.push_back(std::move(ix));
  }
  return pix;
}

// The provider of the schema that `p` clashes with (same name or GUID), or nullptr.
const ProviderDef* clash(const ProviderDef& p, CheckContext& cx) {
  for (const ProviderDef& other : cx.schema().providers) {
    if (other.name == p.name || other.guid == p.guid) return &other;
  }
  return nullptr;
}

}  // namespace

void add_imported_providers(const std::vector<ManifestImport>& imports, CheckContext& cx) {
  for (const ManifestImport& im : imports) {
    if (!im.error.empty()) {
      cx.error(im.pos, "cannot import manifest " + quote_text(im.path) + ": " + im.error);
      continue;
    }
    for (const ProviderDef& p : im.providers) {
      if (const ProviderDef* other = clash(p, cx)) {
        const bool same_name = other->name == p.name;
        cx.error(im.pos, "manifest " + quote_text(im.path) + " declares provider " +
                             quote_text(p.name) +
                             (same_name ? "" : " with GUID " + p.guid.to_string()) +
                             ", which clashes with provider " + quote_text(other->name) +
                             (same_name ? " (same name)" : " (same GUID)"));
        continue;
      }
      const auto index = static_cast<uint32_t>(cx.schema().providers.size());
      cx.provider_by_name.emplace(p.name, index);
      cx.providers.push_back(index_of(p, im.pos));
      cx.schema().providers.push_back(p);
    }
  }
}

}  // namespace pfc::internal
