// cli/trace_options.h — the arguments of `pfc trace` (docs/cli.md "pfc trace") as the
// command line gave them (text), and the conversion of PROVIDER, levels, keywords,
// properties and filters into EnableTraceEx2 arguments. Conversion failures are usage
// errors (exit 2) described by the returned text.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "base/enable_request.h"
#include "pfc/guid.h"
#include "pfc/schema.h"

namespace pfc::cli {

struct TraceOptions {
  std::string action;  // start, enable, disable, list, query, stop, show, export
  std::string name;    // NAME
  std::string provider;
  std::string file;      // start --file PATH
  std::string circular;  // start --circular MB
  bool realtime = false;
  std::string buffer_kb;
  std::string buffers;
  std::string level;
  std::string any;
  std::string all;
  std::vector<std::string> pids;        // --pid, comma lists, repeatable
  std::vector<std::string> exes;        // --exe
  std::vector<std::string> event_ids;   // --event-id [not:]ID,...
  std::vector<std::string> properties;  // --property
  std::string script;                   // enable --script (not supported yet)
  std::string session;  // enable --script: the script's session; show: the session's name
  std::vector<std::string> schemas;  // show / enable / disable --schema FILE.pfs|FILE.man
  bool follow = false;
  std::string format;  // export --format
  std::string output;  // export -o DIR
};

// PROVIDER: "{GUID}"; else the GUID of the provider of that name in `schemas` (--schema
// files); else the name's EventSource GUID (SHA-1 name hash, Guid::from_provider_name).
Guid provider_guid(const std::string& text, const std::vector<ProviderDef>& schemas = {});
// Fills `out` from the options (PROVIDER resolved with `schemas`); returns "" or the usage
// error's text.
std::string build_enable(const TraceOptions& o, const std::vector<ProviderDef>& schemas,
                         EnableRequest& out);
// A decimal number from 1 to `max` (--buffer-kb, --buffers); "" or the error text.
std::string parse_count(const std::string& option, const std::string& text, uint32_t max,
                        uint32_t& out);

// Whether `show` always reads the NAME|FILE argument `name` as a log file's path: it holds a
// '/', or it is "." or "..". (A name that names an existing file is a path too, but only
// where that file exists; `show --session` shows either kind, docs/cli.md "pfc trace".)
bool always_a_path(std::string_view name);

// An ETW call failed with `rc`: when that is ERROR_ACCESS_DENIED from a namespace this
// process cannot use (another user's trace directory, docs/namespace.md), the namespace's
// reason ("cannot open trace directory 'D': Permission denied"); else nullopt.
std::optional<std::string> namespace_reason(uint32_t rc);
// The namespace's reason (above), else "CALL failed with RC".
std::string api_error(const char* call, uint32_t rc);

// The Timeout of every enable: providers apply the change before `pfc trace` returns.
inline constexpr uint32_t kEnableTimeoutMs = 10000;
// EnableTraceEx2 (enable, or disable when !on) for the session `name`, with
// kEnableTimeoutMs; prints errors; returns the exit code (cli/trace_command.cc).
int apply_enable(const std::string& name, const EnableRequest& r, bool on, std::ostream& err);
// The exit code of an enable of session `name` that returned `rc`, its error or the
// warning of a provider process that was late printed (cli/trace_command.cc).
int enable_outcome(const std::string& name, uint32_t rc, std::ostream& err);
// `enable NAME --script FILE [--session S]` (cli/trace_script.cc): PfcEnableTraceScript of
// session S (default NAME) of the script.
int enable_script(const TraceOptions& o, std::ostream& err);

// `pfc trace ACTION`: results to `out`, errors to `err`; returns the exit code.
int command_trace(const TraceOptions& options, std::ostream& out, std::ostream& err);
// `pfc trace show` (cli/trace_show.cc).
int command_trace_show(const TraceOptions& options, std::ostream& out, std::ostream& err);
// `pfc trace export FILE --format ctf -o DIR` (cli/trace_export.cc).
int command_trace_export(const TraceOptions& options, std::ostream& err);
// `pfc trace programs` (cli/trace_programs.cc).
int command_trace_programs(std::ostream& out, std::ostream& err);

}  // namespace pfc::cli
