// cli/trace_session.cc — sessions by name through ControlTraceW (cli/trace_session.h).
#include "cli/trace_session.h"

#include <cstddef>
#include <cstring>

#include "base/utf8.h"
#include "cli/trace_options.h"

namespace pfc::cli {

std::unique_ptr<Properties> new_properties() {
  auto p = std::make_unique<Properties>();
  std::memset(p.get(), 0, sizeof *p);
  p->props.Wnode.BufferSize = sizeof *p;
  p->props.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
  p->props.LoggerNameOffset = offsetof(Properties, name);
  return p;
}

Result<TRACEHANDLE> session_handle(const std::string& name) {
  auto p = new_properties();
  std::u16string w;
  utf8_to_utf16(name, w);
  const ULONG rc =
      ControlTraceW(0, reinterpret_cast<LPCWSTR>(w.c_str()), &p->props, EVENT_TRACE_CONTROL_QUERY);
  if (rc == ERROR_WMI_INSTANCE_NOT_FOUND) return TRACEHANDLE{0};
  if (rc != ERROR_SUCCESS) return make_error(api_error("ControlTraceW(QUERY)", rc));
  return p->props.Wnode.HistoricalContext;
}

}  // namespace pfc::cli
