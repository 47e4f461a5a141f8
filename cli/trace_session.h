// cli/trace_session.h — a namespace session as `pfc trace` addresses it through the ETW C
// API: the EVENT_TRACE_PROPERTIES buffer StartTraceW and ControlTraceW fill, and a session
// looked up by name (ControlTraceW QUERY).
#pragma once

#include <memory>
#include <string>

#include "base/error.h"
#include "pfc/etw/evntrace.h"
#include "pfc/etw/pfc_etw_ext.h"

namespace pfc::cli {

// Room for the longest name and log file path StartTraceW takes, with terminators.
struct Properties {
  EVENT_TRACE_PROPERTIES props;
  WCHAR name[PFC_ETW_MAX_SESSION_NAME_CHARS + 1];
  WCHAR file[PFC_ETW_MAX_LOG_FILE_NAME_CHARS + 1];
};

// Zeroed, with its size, WNODE_FLAG_TRACED_GUID and the name's offset set.
std::unique_ptr<Properties> new_properties();

// The handle of the session named `name` (UTF-8); 0 when there is no such session; an
// error when the query fails otherwise (a namespace this process cannot use: its reason,
// not "no session").
Result<TRACEHANDLE> session_handle(const std::string& name);

}  // namespace pfc::cli
