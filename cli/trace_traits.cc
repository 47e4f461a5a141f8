// cli/trace_traits.cc — the PROV_TRAITS item of an event read for `pfc trace show`
// (cli/trace_traits.h).
#include "cli/trace_traits.h"

#include <cstring>

#include "base/utf8.h"

namespace pfc::cli {

std::optional<ProviderTraits> traits_of(const EVENT_RECORD& r) {
  if (r.ExtendedData == nullptr) return std::nullopt;
  for (USHORT i = 0; i < r.ExtendedDataCount; ++i) {
    const EVENT_HEADER_EXTENDED_DATA_ITEM& x = r.ExtendedData[i];
    if (x.ExtType != EVENT_HEADER_EXT_TYPE_PROV_TRAITS) continue;
    const auto* p = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(x.DataPtr));
    if (x.DataSize < 3 || p == nullptr || (p[0] | p[1] << 8) != x.DataSize) return std::nullopt;
    const void* nul = std::memchr(p + 2, 0, x.DataSize - 2);
    if (nul == nullptr) return std::nullopt;
    ProviderTraits t;
    t.name.assign(reinterpret_cast<const char*>(p + 2), static_cast<const uint8_t*>(nul) - (p + 2));
    if (!is_valid_utf8(t.name)) t.name.clear();
    PVOID trait = nullptr;
    USHORT size = 0;
    EtwGetTraitFromProviderTraits(const_cast<uint8_t*>(p), EtwProviderTraitTypeGroup, &trait,
                                  &size);
    if (trait != nullptr && size == 16) t.group = Guid::from_bytes(static_cast<uint8_t*>(trait));
    return t;
  }
  return std::nullopt;
}

}  // namespace pfc::cli
