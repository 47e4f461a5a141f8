// etw/session_info.h — what `pfc trace stop` prints about the session it stops (docs/cli.md
// "pfc trace"): its settings, the provider GUIDs it enabled (from the control state, in
// enable order) and its final counters summed over its rings (etw/counters.h); list and
// query use the C API instead. Not part of the C API: the pfc command links pfc_etw_core
// and calls these directly.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "etw/counters.h"
#include "pfc/guid.h"
#include "pfc/schema.h"

namespace pfc::etw {

struct SessionInfo {
  std::string name;      // UTF-8
  std::string log_file;  // UTF-8; empty: no log file
  bool realtime = false;
  std::vector<Guid> providers;  // enabled for this session, in enable order
  SessionCounters counters;
};

// Whether this process can use the namespace (open its directory, read its state): the
// reason when not, e.g. "cannot open trace directory 'D': Permission denied" for another
// user's. That is what an ETW call's ERROR_ACCESS_DENIED means when it fails.
Result<void> namespace_access();
// Stops the session named `name` with ControlTraceW(STOP) and returns what it was, its
// counters final (read from its rings, which are mapped before the stop so the removal
// of their files does not lose them). nullopt when no such session exists; an error with
// the ETW code's text when STOP fails.
Result<std::optional<SessionInfo>> stop_session(const std::u16string& name);
// The provider schemas published with the enables of the session named `name` (pfc enable
// extensions, etw/enable_ext.h), in enable order; empty when there are none or no such
// session. Extensions that do not decode are skipped.
Result<std::vector<ProviderDef>> session_schemas(const std::u16string& name);

}  // namespace pfc::etw
