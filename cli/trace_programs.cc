// cli/trace_programs.cc — `pfc trace programs` (docs/cli.md): one JSON object per routing
// program in the namespace's cache of compiled programs (docs/namespace.md "Compiled
// programs"), in key order. A code file that fails its checks is shown as failed with the
// check's message, as a provider process would refuse it.
#include <ostream>

#include "cli/exit_code.h"
#include "cli/output.h"
#include "cli/trace_options.h"
#include "compiler/hs_image.h"
#include "compiler/native_file.h"
#include "trace/dir.h"
#include "trace/program_cache.h"

namespace pfc::cli {
namespace {

using State = trace::CachedProgram::State;

// The code file's compile time; a file that fails parse_native_file makes the program failed.
uint64_t compile_us(const trace::TraceDir& dir, trace::CachedProgram& p) {
  auto fd = dir.open_file(p.code_name, false);
  auto bytes = fd ? trace::read_whole_file(fd->get(), trace::kMaxProgramFileBytes, p.code_name)
                  : Result<std::string>(std::unexpected(fd.error()));
  Result<NativeFile> file =
      bytes ? parse_native_file(*bytes) : Result<NativeFile>(std::unexpected(bytes.error()));
  if (file && file->key.hex() != p.key) file = make_error("holds the code of " + file->key.hex());
  if (file) return file->compile_us;
  p.state = State::Failed;
  p.reason = p.code_name + ": " + file.error().message;
  return 0;
}

// The string-map databases of the program's `.hsdb` file as JSON members: their count (0
// without a file) and, when the file fails the check a provider makes, why.
std::string databases_json(const trace::TraceDir& dir, const trace::CachedProgram& p) {
  if (p.databases_name.empty()) return ",\"databases\":0";
  auto fd = dir.open_file(p.databases_name, false);
  auto bytes = fd ? trace::read_whole_file(fd->get(), trace::kMaxProgramFileBytes, p.databases_name)
                  : Result<std::string>(std::unexpected(fd.error()));
  Result<HsImage> image =
      bytes ? parse_hs_image(*bytes, p.key) : Result<HsImage>(std::unexpected(bytes.error()));
  if (image) return ",\"databases\":" + std::to_string(image->entries.size());
  return ",\"databases\":0,\"databases_reason\":" +
         json_quote(p.databases_name + ": " + image.error().message);
}

std::string program_json(const trace::TraceDir& dir, trace::CachedProgram& p) {
  const uint64_t us = p.state == State::Ready ? compile_us(dir, p) : 0;
  std::string out = "{\"key\":\"" + p.key + "\",\"provider\":";
  out += p.provider.empty() ? std::string("null") : json_quote(p.provider);
  out += ",\"bytes\":" + std::to_string(p.bytes) + ",\"compile_us\":" + std::to_string(us) +
         ",\"processes\":" + std::to_string(p.processes) + databases_json(dir, p) + ",\"state\":";
  out += p.state == State::Ready       ? "\"ready\""
         : p.state == State::Compiling ? "\"compiling\""
                                       : "\"failed\"";
  if (p.state == State::Failed) out += ",\"reason\":" + json_quote(p.reason);
  return out + "}\n";
}

}  // namespace

int command_trace_programs(std::ostream& out, std::ostream& err) {
  auto dir = trace::TraceDir::open();
  if (!dir) {
    err << "pfc: error: " << dir.error().message << '\n';
    return kExitInput;
  }
  for (trace::CachedProgram& p : trace::list_cached_programs(*dir)) out << program_json(*dir, p);
  return kExitOk;
}

}  // namespace pfc::cli
