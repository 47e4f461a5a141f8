// etw/pfc_ext.cc — the pfc extensions of controllers (pfc/etw/pfc_etw_ext.h, docs/etw.md
// "pfc extensions"): PfcGetNamespaceProblem (whether this process can use the trace
// namespace), PfcGetStartTraceProblem (why the thread's last StartTraceW failed) and
// PfcEnumerateTracePrograms (the namespace's cache of compiled programs, docs/namespace.md
// "Compiled programs", with the checks a provider process makes of its files).
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/hs_image.h"
#include "compiler/native_file.h"
#include "etw/file_session.h"
#include "etw/guard.h"
#include "etw/session_info.h"
#include "etw/util.h"
#include "pfc/etw/pfc_etw_ext.h"
#include "trace/dir.h"
#include "trace/program_cache.h"

namespace pfc::etw {
namespace {

using State = trace::CachedProgram::State;

// One program with what the checks of its files found.
struct Checked {
  trace::CachedProgram p;
  uint64_t compile_us = 0;
  uint32_t databases = 0;
  std::string databases_reason;
};

Result<std::string> read_program_file(const trace::TraceDir& dir, const std::string& name) {
  auto fd = dir.open_file(name, false);
  if (!fd) return std::unexpected(fd.error());
  return trace::read_whole_file(fd->get(), trace::kMaxProgramFileBytes, name);
}

// The code file's compile time; a file that fails parse_native_file makes the program failed.
void check_code(const trace::TraceDir& dir, Checked& c) {
  trace::CachedProgram& p = c.p;
  auto bytes = read_program_file(dir, p.code_name);
  Result<NativeFile> file =
      bytes ? parse_native_file(*bytes) : Result<NativeFile>(std::unexpected(bytes.error()));
  if (file && file->key.hex() != p.key) file = make_error("holds the code of " + file->key.hex());
  if (file) {
    c.compile_us = file->compile_us;
    return;
  }
  p.state = State::Failed;
  p.reason = p.code_name + ": " + file.error().message;
}

// The string-map databases of the program's `.hsdb` file: their count, or why the file
// fails the check a provider makes.
void check_databases(const trace::TraceDir& dir, Checked& c) {
  const trace::CachedProgram& p = c.p;
  if (p.databases_name.empty()) return;
  auto bytes = read_program_file(dir, p.databases_name);
  Result<HsImage> image =
      bytes ? parse_hs_image(*bytes, p.key) : Result<HsImage>(std::unexpected(bytes.error()));
  if (image) c.databases = static_cast<uint32_t>(image->entries.size());
  else c.databases_reason = p.databases_name + ": " + image.error().message;
}

ULONG state_code(State s) {
  switch (s) {
    case State::Ready: return PFC_TRACE_PROGRAM_READY;
    case State::Compiling: return PFC_TRACE_PROGRAM_COMPILING;
    case State::Failed: break;
  }
  return PFC_TRACE_PROGRAM_FAILED;
}

// The enumeration's bytes: the header and array, then the texts.
std::vector<uint8_t> enumeration_bytes(const std::vector<Checked>& all) {
  const size_t head = offsetof(PFC_TRACE_PROGRAM_ENUMERATION_INFO, Programs);
  std::vector<uint8_t> out(head + all.size() * sizeof(PFC_TRACE_PROGRAM_INFO), 0);
  const auto text = [&out](const std::string& s) {
    if (out.size() + s.size() + 1 > std::numeric_limits<ULONG>::max())
      throw std::length_error("program enumeration over 4 GiB");
    const auto at = static_cast<ULONG>(out.size());
    out.insert(out.end(), s.begin(), s.end());
    out.push_back(0);
    return at;
  };
  for (size_t i = 0; i < all.size(); ++i) {
    const Checked& c = all[i];
    PFC_TRACE_PROGRAM_INFO info{};
    info.CodeBytes = c.p.bytes;
    info.CompileMicroseconds = c.compile_us;
    info.State = state_code(c.p.state);
    info.Processes = c.p.processes;
    info.Databases = c.databases;
    info.KeyOffset = text(c.p.key);
    info.ProviderOffset = text(c.p.provider);
    info.ReasonOffset = text(c.p.state == State::Failed ? c.p.reason : std::string());
    info.DatabasesReasonOffset = text(c.databases_reason);
    std::memcpy(out.data() + head + i * sizeof info, &info, sizeof info);
  }
  const auto count = static_cast<ULONG>(all.size());
  std::memcpy(out.data() + offsetof(PFC_TRACE_PROGRAM_ENUMERATION_INFO, NumberOfPrograms), &count,
              sizeof count);
  return out;
}

}  // namespace
}  // namespace pfc::etw

using namespace pfc::etw;

extern "C" {

ULONG PfcGetNamespaceProblem(PCHAR Buffer, ULONG BufferSize, PULONG TextSize) {
  return guarded([&]() -> ULONG {
    if (TextSize == nullptr || (Buffer == nullptr && BufferSize != 0))
      return ERROR_INVALID_PARAMETER;
    const pfc::Result<void> usable = namespace_access();
    return copy_text_out(usable ? std::string() : usable.error().message, Buffer, BufferSize,
                         TextSize);
  });
}

ULONG PfcGetStartTraceProblem(PCHAR Buffer, ULONG BufferSize, PULONG TextSize) {
  return guarded([&]() -> ULONG {
    if (TextSize == nullptr || (Buffer == nullptr && BufferSize != 0))
      return ERROR_INVALID_PARAMETER;
    return copy_text_out(start_problem(), Buffer, BufferSize, TextSize);
  });
}

ULONG PfcEnumerateTracePrograms(PPFC_TRACE_PROGRAM_ENUMERATION_INFO Buffer, PULONG BufferSize) {
  return guarded([&]() -> ULONG {
    if (BufferSize == nullptr || (Buffer == nullptr && *BufferSize != 0))
      return ERROR_INVALID_PARAMETER;
    auto dir = pfc::trace::TraceDir::open();
    if (!dir) return ERROR_ACCESS_DENIED;
    std::vector<Checked> all;
    for (pfc::trace::CachedProgram& p : pfc::trace::list_cached_programs(*dir)) {
      all.push_back(Checked{std::move(p)});
      if (all.back().p.state == State::Ready) check_code(*dir, all.back());
      check_databases(*dir, all.back());
    }
    const std::vector<uint8_t> bytes = enumeration_bytes(all);
    return copy_bytes_out(bytes.data(), bytes.size(), Buffer, BufferSize);
  });
}

}  // extern "C"
