// cli/trace_traits.h — a provider's traits in `pfc trace show` (docs/cli.md "pfc trace
// show"): the name and group an event's EVENT_HEADER_EXT_TYPE_PROV_TRAITS item carries
// (docs/etw.md "Provider traits"), read with the public EtwGetTraitFromProviderTraits.
#pragma once

#include <optional>
#include <string>

#include "pfc/etw/evntcons.h"
#include "pfc/guid.h"

namespace pfc::cli {

struct ProviderTraits {
  std::string name;           // the provider name ("" when it is not UTF-8)
  std::optional<Guid> group;  // the group trait (type 1) when it holds a GUID
};

// The traits of `r`'s PROV_TRAITS item; nullopt when `r` has none, or when the item's size
// word disagrees with its size or its name is not NUL-terminated inside it (a damaged item
// is left out, as a reader that checks the blob would).
std::optional<ProviderTraits> traits_of(const EVENT_RECORD& r);

}  // namespace pfc::cli
