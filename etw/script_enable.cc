// etw/script_enable.cc — PfcEnableTraceScript and PfcGetEnableTraceScriptProblem
// (pfc/etw/pfc_etw_ext.h, docs/etw.md "pfc extensions"): every enable of one session of a
// filter script applied to a trace session, each as EnableTraceEx2 with the ETW
// descriptors of its filters and the pfc enable extension (etw/enable_ext.h) for its
// payload filters and schema — the extension's format stays the library's own.
#include <string>
#include <vector>

#include "base/enable_request.h"
#include "compiler/frontend.h"
#include "etw/enable_ext.h"
#include "etw/guard.h"
#include "etw/private_enable.h"
#include "etw/util.h"
#include "pfc/etw/pfc_etw_ext.h"

namespace pfc::etw {
namespace {

thread_local std::string t_problem;  // the calling thread's last PfcEnableTraceScript's

ULONG script_failed(ULONG rc, std::string text) {
  t_problem = std::move(text);
  return rc;
}

// The requests of session `name`'s enables in `script`; ERROR_SUCCESS or the failure with
// its problem set.
ULONG script_requests(const CheckedScript& script, const std::string& name,
                      std::vector<EnableRequest>& out) {
  const SessionDecl* session = nullptr;
  for (const SessionDecl& s : script.sessions)
    if (s.name == name) session = &s;
  if (session == nullptr)
    return script_failed(ERROR_NOT_FOUND, "no session named '" + name + "' in the script");
  for (const SessionDecl::Enable& e : session->enables) {
    const ProviderDef& provider = script.schema.providers[e.provider];
    EnableRequest r;
    std::string bad = request_from_params(provider.guid, *e.params, r);
    if (bad.empty()) {
      auto ext = encode_ext(ext_from_script(provider, e.params->payload));
      if (ext) {
        r.extension_type = kFilterTypePfcExtension;
        r.extension = std::move(*ext);
      } else {
        bad = "payload filters and schema larger than 256 KiB";
      }
    }
    if (!bad.empty()) {
      std::string why = "session '" + name + "' enables '";
      why += provider.name;
      why += "' with ";
      why += bad;
      return script_failed(ERROR_NOT_SUPPORTED, std::move(why));
    }
    out.push_back(std::move(r));
  }
  return ERROR_SUCCESS;
}

// EnableTraceEx2(ENABLE_PROVIDER) of one request, the private descriptor type admitted.
ULONG apply(TRACEHANDLE h, const EnableRequest& r, ULONG timeout) {
  std::vector<std::vector<uint8_t>> bodies;
  std::vector<EVENT_FILTER_DESCRIPTOR> f = enable_descriptors(r, bodies);
  ENABLE_TRACE_PARAMETERS params = enable_parameters(r, f);
  const GUID g = to_win(r.provider);
  return enable_trace(h, &g, EVENT_CONTROL_CODE_ENABLE_PROVIDER, r.level, r.any, r.all, timeout,
                      &params, true);
}

}  // namespace
}  // namespace pfc::etw

using namespace pfc::etw;

extern "C" {

ULONG PfcEnableTraceScript(TRACEHANDLE TraceHandle, PCSTR ScriptText, ULONG ScriptTextSize,
                           PCSTR ScriptPath, PCSTR SessionName, ULONG Timeout) {
  return guarded([&]() -> ULONG {
    t_problem.clear();
    if ((ScriptText == nullptr && ScriptTextSize != 0) || SessionName == nullptr)
      return ERROR_INVALID_PARAMETER;
    std::string text(ScriptText == nullptr ? "" : ScriptText, ScriptTextSize);
    auto script = pfc::check_script_text(ScriptPath == nullptr ? "" : ScriptPath, std::move(text));
    if (!script) return script_failed(ERROR_INVALID_DATA, script.error().message);
    std::vector<pfc::EnableRequest> requests;  // all checked before any is applied
    if (const ULONG rc = script_requests(*script, SessionName, requests); rc != ERROR_SUCCESS)
      return rc;
    ULONG outcome = ERROR_SUCCESS;
    for (const pfc::EnableRequest& r : requests) {
      const ULONG rc = apply(TraceHandle, r, Timeout);
      if (rc == ERROR_TIMEOUT) outcome = ERROR_TIMEOUT;  // applied; some process was late
      else if (rc != ERROR_SUCCESS) return rc;
    }
    return outcome;
  });
}

ULONG PfcGetEnableTraceScriptProblem(PCHAR Buffer, ULONG BufferSize, PULONG TextSize) {
  return guarded([&]() -> ULONG {
    if (TextSize == nullptr || (Buffer == nullptr && BufferSize != 0))
      return ERROR_INVALID_PARAMETER;
    return copy_text_out(t_problem, Buffer, BufferSize, TextSize);
  });
}

}  // extern "C"
