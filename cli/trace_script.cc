// cli/trace_script.cc — `pfc trace enable NAME --script FILE.pfs [--session S]`: for every
// provider session S of the script enables, the same EnableTraceEx2 call `pfc trace
// enable NAME PROVIDER ...` would make with the enable's level, keywords, properties and
// PID / executable-name / event-id filters. Filters the command line cannot express yet
// (payload `where` expressions, event names, package and app ids, stack filters) are
// refused with a usage error before anything is enabled.
#include "base/utf8.h"
#include "cli/exit_code.h"
#include "cli/script_loader.h"
#include "cli/trace_options.h"

namespace pfc::cli {
namespace {

// The first filter kind of `p` that cannot be sent yet, or "".
std::string unsupported(const EnableParams& p) {
  if (!p.payload.empty()) return "payload filters (where expressions)";
  if (p.event_names) return "event-name filters";
  if (p.package_ids || p.app_ids) return "package/app id filters";
  if (p.stack_ids || p.stack_names || p.stack_level_kw) return "stack filters";
  return "";
}

std::string to_request(const ProviderDef& provider, const EnableParams& p, EnableRequest& r) {
  r.provider = provider.guid;
  r.level = p.level;
  r.any = p.any;
  r.all = p.all;
  r.properties = p.properties;
  if (p.pids) r.pids = *p.pids;
  if (p.exe_names) {
    std::string joined;
    for (const std::string& e : *p.exe_names) joined += (joined.empty() ? "" : ";") + e;
    utf8_to_utf16(joined, r.exe);
    if (p.exe_names->empty()) return "an empty executable-name filter";
  }
  if (p.event_ids) {
    r.ids = p.event_ids->ids;
    r.ids_in = p.event_ids->filter_in;
    if (r.ids.empty()) return "an empty event-id filter";
  }
  if (p.pids && p.pids->empty()) return "an empty process-id filter";
  return "";
}

}  // namespace

int enable_script(const TraceOptions& o, std::ostream& err) {
  auto script = load_script(o.script, err);
  if (!script) return script.error();
  const CheckedScript& checked = script->checked();
  const std::string wanted = o.session.empty() ? o.name : o.session;
  const SessionDecl* session = nullptr;
  for (const SessionDecl& s : checked.sessions)
    if (s.name == wanted) session = &s;
  if (session == nullptr) {
    err << "pfc: error: " << o.script << ": no session named '" << wanted << "' in the script\n";
    return kExitInput;
  }
  std::vector<EnableRequest> requests;
  for (const SessionDecl::Enable& e : session->enables) {
    const ProviderDef& provider = checked.schema.providers[e.provider];
    std::string bad = unsupported(e.params);
    EnableRequest r;
    if (bad.empty()) bad = to_request(provider, e.params, r);
    if (!bad.empty()) {
      err << "pfc: error: session '" << wanted << "' enables '" << provider.name << "' with " << bad
          << ": not supported by 'pfc trace enable --script' yet\n";
      return kExitUsage;
    }
    requests.push_back(std::move(r));
  }
  for (const EnableRequest& r : requests)
    if (const int rc = apply_enable(o.name, r, true, err); rc != kExitOk) return rc;
  return kExitOk;
}

}  // namespace pfc::cli
