// base/enable_request.h — one enable as EnableTraceEx2's arguments, for every controller of
// pfc's that builds them (the pfc command's `enable`, and PfcEnableTraceScript in etw/):
// the request, its filters as ETW descriptors (docs/etw.md "Filters"), and the ETW part
// of a filter script's enable with the limits of those descriptors.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/scope_kinds.h"
#include "pfc/enable.h"
#include "pfc/etw/evntprov.h"
#include "pfc/etw/evntrace.h"
#include "pfc/guid.h"

namespace pfc {

// EnableTraceEx2's arguments for one enable (the filters as raw descriptor bodies).
struct EnableRequest {
  Guid provider;
  uint8_t level = 5;
  uint64_t any = 0;
  uint64_t all = 0;
  uint32_t properties = 0;
  std::vector<uint32_t> pids;
  // The name scopes' lists (base/scope_kinds.h), indexed by ScopeKind: names joined by ';'
  // (empty: none; the Pid slot stays empty).
  std::array<std::u16string, internal::kScopeKindCount> names;
  std::vector<uint16_t> ids;        // EVENT_ID (empty: none)
  bool ids_in = true;               // false: all events but the listed ids
  std::vector<uint16_t> stack_ids;  // STACKWALK (empty: none)
  bool stack_in = true;
  // A further descriptor (the pfc enable extension of a script's enable): its Type and
  // data (empty: none).
  uint32_t extension_type = 0;
  std::vector<uint8_t> extension;
};

// The filter descriptors of `r`, pointing into `r` and `bodies` (which must outlive them
// and not change): PID, the name scopes, EVENT_ID, STACKWALK, then the extension.
std::vector<EVENT_FILTER_DESCRIPTOR> enable_descriptors(const EnableRequest& r,
                                                        std::vector<std::vector<uint8_t>>& bodies);

// EnableTraceEx2's parameters (version 2) of `r`, naming the descriptors `f`
// (enable_descriptors' result, which must outlive them and not change).
ENABLE_TRACE_PARAMETERS enable_parameters(const EnableRequest& r,
                                          std::vector<EVENT_FILTER_DESCRIPTOR>& f);

// "" or why `names` (a ';'-joined UTF-16 name list labelled `what`) does not fit an ETW
// name-list filter (MAX_EVENT_FILTER_DATA_SIZE bytes with its NUL, docs/etw.md "Filters").
std::string name_list_error(std::string_view what, const std::u16string& names);

// Fills `r` with everything of a checked script's enable `p` of `provider` but its payload
// filters (the pfc enable extension carries those); "" or why ETW's descriptors cannot
// carry it (event-name or stack level/keyword filters, a list over its descriptor's limit).
std::string request_from_params(const Guid& provider, const EnableParams& p, EnableRequest& r);

}  // namespace pfc
