// cli/mc_header.h — the C header mc.exe -um generates for an instrumentation manifest
// (`pfc mc`, docs/cli.md): provider GUIDs, EVENT_DESCRIPTORs, the symbols' value macros,
// the trace context with its enable bits and mc's enable callback, EventRegister/
// EventUnregister macros and, per event, EventEnabled<Event>() and EventWrite<Event>(…)
// over mc's template functions (Template_<signature>). Pure: manifest in, text out.
#pragma once

#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "pfc/schema.h"
#include "runtime/manifest.h"

namespace pfc::cli {

// A construct the header cannot express, at its element in the manifest.
struct McError {
  ManifestPosition at;
  std::string message;  // one line
};

// The header for the providers of one manifest (parse_manifest's result and its info).
// `source` names the manifest in the header's opening comment.
std::expected<std::string, McError> mc_header(const std::vector<ProviderDef>& providers,
                                              const std::vector<ManifestProviderInfo>& info,
                                              std::string_view source);

}  // namespace pfc::cli
