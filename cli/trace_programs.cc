// cli/trace_programs.cc — `pfc trace programs` (docs/cli.md): one JSON object per routing
// program in the namespace's cache of compiled programs (docs/namespace.md "Compiled
// programs"), in key order, as PfcEnumerateTracePrograms reports them: a code file that
// fails its checks is shown as failed with the check's message, as a provider process
// would refuse it.
#include <ostream>
#include <vector>

#include "cli/exit_code.h"
#include "cli/output.h"
#include "cli/trace_options.h"
#include "pfc/etw/pfc_etw_ext.h"

namespace pfc::cli {
namespace {

constexpr int kMaxTries = 8;  // the cache may grow between the size and the filling call

// The UTF-8 text at `offset` of the enumeration's buffer.
std::string text_at(const std::vector<ULONGLONG>& buffer, ULONG offset) {
  return reinterpret_cast<const char*>(buffer.data()) + offset;
}

std::string program_json(const std::vector<ULONGLONG>& buffer, const PFC_TRACE_PROGRAM_INFO& p) {
  const std::string provider = text_at(buffer, p.ProviderOffset);
  std::string out = "{\"key\":\"" + text_at(buffer, p.KeyOffset) + "\",\"provider\":";
  out += provider.empty() ? std::string("null") : json_quote(provider);
  out += ",\"bytes\":" + std::to_string(p.CodeBytes) +
         ",\"compile_us\":" + std::to_string(p.CompileMicroseconds) +
         ",\"processes\":" + std::to_string(p.Processes) +
         ",\"databases\":" + std::to_string(p.Databases);
  if (const std::string why = text_at(buffer, p.DatabasesReasonOffset); !why.empty())
    out += ",\"databases_reason\":" + json_quote(why);
  out += ",\"state\":";
  out += p.State == PFC_TRACE_PROGRAM_READY       ? "\"ready\""
         : p.State == PFC_TRACE_PROGRAM_COMPILING ? "\"compiling\""
                                                  : "\"failed\"";
  if (p.State == PFC_TRACE_PROGRAM_FAILED)
    out += ",\"reason\":" + json_quote(text_at(buffer, p.ReasonOffset));
  return out + "}\n";
}

}  // namespace

int command_trace_programs(std::ostream& out, std::ostream& err) {
  std::vector<ULONGLONG> buffer;  // 8-byte aligned, as the structure needs
  ULONG size = 0;
  ULONG rc = ERROR_INSUFFICIENT_BUFFER;
  for (int tries = 0; rc == ERROR_INSUFFICIENT_BUFFER && tries < kMaxTries; ++tries) {
    buffer.assign((size + sizeof(ULONGLONG) - 1) / sizeof(ULONGLONG), 0);
    auto* info = reinterpret_cast<PPFC_TRACE_PROGRAM_ENUMERATION_INFO>(
        buffer.empty() ? nullptr : buffer.data());
    rc = PfcEnumerateTracePrograms(info, &size);
  }
  if (rc != ERROR_SUCCESS) {
    err << "pfc: error: " << api_error("PfcEnumerateTracePrograms", rc) << '\n';
    return kExitInput;
  }
  const auto* info = reinterpret_cast<const PFC_TRACE_PROGRAM_ENUMERATION_INFO*>(buffer.data());
  for (ULONG i = 0; i < info->NumberOfPrograms; ++i) out << program_json(buffer, info->Programs[i]);
  return kExitOk;
}

}  // namespace pfc::cli
