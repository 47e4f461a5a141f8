// cli/trace_script.cc — `pfc trace enable NAME --script FILE.pfs [--session S]`: for every
// provider session S of the script enables, one EnableTraceEx2-equivalent change with the
// enable's level, keywords, properties and every filter kind of the language: PID,
// executable-name, package/app-id, event-id and stack-id filters as the ETW descriptor
// types, payload filters (`all` / `any` / `where` expressions alike) and the provider's
// schema in the pfc enable extension (etw/enable_ext.h). Each provider process compiles
// the same EnableParams from them that `pfc run` routes with (docs/etw.md "The pfc enable
// extension").
#include <utility>

#include "base/scope_kinds.h"
#include "base/utf8.h"
#include "cli/exit_code.h"
#include "cli/script_loader.h"
#include "cli/trace_options.h"
#include "etw/enable_ext.h"
#include "pfc/etw/evntprov.h"

namespace pfc::cli {
namespace {

std::u16string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& n : names) text += (text.empty() ? "" : ";") + n;
  std::u16string out;
  utf8_to_utf16(text, out);
  return out;
}

// The descriptors of one enable; "" or why it cannot be sent (a limit of the descriptors).
std::string to_request(const ProviderDef& provider, const EnableParams& p, EnableRequest& r) {
  r.provider = provider.guid;
  r.level = p.level;
  r.any = p.any;
  r.all = p.all;
  r.properties = p.properties;
  if (p.pids) r.pids = *p.pids;
  for (const internal::ScopeKindInfo& s : internal::kScopeKinds)
    if (s.names != nullptr && p.*s.names) r.names[size_t(s.kind)] = joined(*(p.*s.names));
  if (p.event_ids) {
    r.ids = p.event_ids->ids;
    r.ids_in = p.event_ids->filter_in;
  }
  if (p.stack_ids) {
    r.stack_ids = p.stack_ids->ids;
    r.stack_in = p.stack_ids->filter_in;
  }
  if (p.event_names || p.stack_names || p.stack_level_kw)
    return "event-name or stack level/keyword filters (the ETW API's only)";
  if (r.pids.size() > MAX_EVENT_FILTER_PID_COUNT)
    return std::to_string(r.pids.size()) + " pids (an ETW PID filter holds at most " +
           std::to_string(MAX_EVENT_FILTER_PID_COUNT) + ")";
  for (const auto* ids : {&r.ids, &r.stack_ids})
    if (ids->size() > MAX_EVENT_FILTER_EVENT_ID_COUNT)
      return std::to_string(ids->size()) + " event ids (an ETW EVENT_ID filter holds at most " +
             std::to_string(MAX_EVENT_FILTER_EVENT_ID_COUNT) + ")";
  for (const internal::ScopeKindInfo& s : internal::kScopeKinds) {
    const std::string what = "the " + std::string(s.name) + " filter";
    if (std::string bad = name_list_error(what, r.names[size_t(s.kind)]); !bad.empty()) return bad;
  }
  auto ext = etw::encode_ext(etw::ext_from_script(provider, p.payload));
  if (!ext) return "payload filters and schema larger than 256 KiB";
  r.extension_type = etw::kFilterTypePfcExtension;
  r.extension = std::move(*ext);
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
    EnableRequest r;
    if (const std::string bad = to_request(provider, *e.params, r); !bad.empty()) {
      err << "pfc: error: session '" << wanted << "' enables '" << provider.name << "' with " << bad
          << ": not supported by 'pfc trace enable --script'\n";
      return kExitUsage;
    }
    requests.push_back(std::move(r));
  }
  for (const EnableRequest& r : requests)
    if (const int rc = apply_enable(o.name, r, true, err); rc != kExitOk) return rc;
  return kExitOk;
}

}  // namespace pfc::cli
