// cli/trace_script.cc — `pfc trace enable NAME --script FILE.pfs [--session S]`: the script
// checked here (its diagnostics printed as every command prints them), then
// PfcEnableTraceScript applies each enable of session S to NAME: level, keywords,
// properties and every filter kind of the language — PID, executable-name,
// package/app-id, event-id and stack-id filters as the ETW descriptor types, payload
// filters (`all` / `any` / `where` expressions alike) and the provider's schema in the pfc
// enable extension, which libpfc_etw writes. Each provider process compiles the same
// EnableParams from them that `pfc run` routes with (docs/etw.md "The pfc enable
// extension").
#include <string>

#include "cli/exit_code.h"
#include "cli/script_loader.h"
#include "cli/trace_options.h"
#include "cli/trace_session.h"
#include "pfc/etw/pfc_etw_ext.h"

namespace pfc::cli {
namespace {

// PfcGetEnableTraceScriptProblem's text.
std::string script_problem() {
  ULONG size = 0;
  std::string text;
  ULONG rc = PfcGetEnableTraceScriptProblem(nullptr, 0, &size);
  while (rc == ERROR_MORE_DATA) {
    text.resize(size);
    rc = PfcGetEnableTraceScriptProblem(text.data(), size, &size);
  }
  if (rc != ERROR_SUCCESS || size == 0) return "";
  text.resize(size - 1);
  return text;
}

}  // namespace

int enable_script(const TraceOptions& o, std::ostream& err) {
  auto script = load_script(o.script, err);
  if (!script) return script.error();
  const std::string wanted = o.session.empty() ? o.name : o.session;
  const Result<TRACEHANDLE> handle = session_handle(o.name);
  if (!handle) {
    err << "pfc: error: " << handle.error().message << '\n';
    return kExitInput;
  }
  const std::string& text = script->source->text();
  const ULONG rc = PfcEnableTraceScript(*handle, text.data(), static_cast<ULONG>(text.size()),
                                        o.script.c_str(), wanted.c_str(), kEnableTimeoutMs);
  switch (rc) {
    case ERROR_NOT_FOUND:  // as the checker's diagnostics, printed above, never are
      err << "pfc: error: " << o.script << ": " << script_problem() << '\n';
      return kExitInput;
    case ERROR_INVALID_DATA: err << "pfc: error: " << script_problem() << '\n'; return kExitInput;
    case ERROR_NOT_SUPPORTED:
      err << "pfc: error: " << script_problem()
          << ": not supported by 'pfc trace enable --script'\n";
      return kExitUsage;
    default:  // the script is sound: handle 0 (no session NAME) made EnableTraceEx2 fail
      return enable_outcome(o.name, *handle == 0 ? ERROR_WMI_INSTANCE_NOT_FOUND : rc, err);
  }
}

}  // namespace pfc::cli
