// trace/program_cache.h — the namespace's compiled programs (docs/namespace.md "Compiled
// programs"): the files of one program, named by its content key (32 lowercase hex digits,
// compiler/native_file.h),
//   prog-KEY.req   the request: a header line naming the provider, then the IR wire bytes
//   prog-KEY.so    the compiled program file (written by the compile service only)
//   prog-KEY.fail  why there is no usable code for KEY, on one line (the service's verdict)
//   prog-KEY.refused  the latest process that refused prog-KEY.so, and why, on one line
//   prog-KEY.hsdb  the program's Hyperscan databases, serialised (compiler/hs_image.h;
//                  written by the compile service, before the .so)
//   prog-KEY.tmp-PID-START   one of the above being written (renamed into place)
// and the compile service's `compiler.lock` (held while a service runs) and `compiler.log`
// (one line per compile). A process routing with a program holds a shared flock on its
// open `.so` file, which dies with the process; the service removes a file only while it
// holds the exclusive flock. Every file is written whole and renamed into place, so a
// reader never sees part of one. No compiler types: keys and bytes only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "trace/dir.h"
#include "trace/sys.h"

namespace pfc::trace {

inline constexpr char kCompilerLock[] = "compiler.lock";
inline constexpr char kCompilerLog[] = "compiler.log";
inline constexpr size_t kMaxProgramFileBytes = size_t{256} << 20;  // .req, .so, .hsdb files
inline constexpr size_t kMaxFailureBytes = 4096;

enum class ProgramFile : uint8_t { Request, Code, Failure, Refusal, Databases };

// True for exactly 32 lowercase hex digits.
bool valid_program_key(std::string_view key);
// "prog-KEY.req" / ".so" / ".fail" / ".refused" / ".hsdb".
std::string program_file_name(std::string_view key, ProgramFile kind);
struct ProgramFileName {
  std::string key;
  ProgramFile kind;
};
// The inverse of program_file_name; nullopt for every other name (temporary files too).
std::optional<ProgramFileName> parse_program_file_name(std::string_view name);

// The request file's bytes: "PFCREQ 1 PROVIDER\n" (PROVIDER: the GUID as text, 38
// characters with braces) followed by the IR wire bytes.
std::string encode_request(std::string_view provider, std::string_view wire);
struct Request {
  std::string_view provider;  // into the bytes
  std::string_view wire;      // into the bytes
};
// Refuses anything not exactly of that form, naming what is wrong.
Result<Request> decode_request(std::string_view bytes);

// Writes `bytes` to a fresh temporary file of this process (0600, O_NOFOLLOW) and renames
// it to `name`, replacing what was there — or, `keep_existing`, not (RENAME_NOREPLACE where
// the file system has it: the first of several writers of the same bytes wins, success for
// all). The temporary is removed again on failure. `written_point`, when given, is the
// crash point (trace/testpoint.h) between the two.
Result<void> write_file_atomic(const TraceDir& dir, const std::string& name, std::string_view bytes,
                               const char* written_point = nullptr, bool keep_existing = false);
// The whole content of the open file `fd`, refusing more than `limit` bytes; `what` names
// the file in errors.
Result<std::string> read_whole_file(int fd, size_t limit, const std::string& what);
// Temporary files of processes that no longer run (for the service to remove).
std::vector<std::string> stale_program_temporaries(const TraceDir& dir);

// Whether a compile service holds `compiler.lock` now (a LOCK_EX|LOCK_NB probe, released at
// once: a service starting during the probe exits, so a caller that saw none starts one).
bool compile_service_running(const TraceDir& dir);
// The lock a service holds for its lifetime; an invalid descriptor when another holds it.
// A provider that finds no service takes it and hands it to the service it starts (its
// descriptor 3), so of many providers asking at once exactly one starts a service.
Result<UniqueFd> take_compile_service_lock(const TraceDir& dir);
// The lock handed to this service as descriptor `fd` by its starter: refused unless `fd`
// is the directory's `compiler.lock` and its exclusive flock is (taken again on the same
// open file: this succeeds for the holder, or when no process holds it) this service's.
// Made close-on-exec, so the linker the service runs does not hold it.
Result<UniqueFd> adopt_compile_service_lock(const TraceDir& dir, int fd);

// The program file `name` opened and marked as used by this process (a shared flock that
// lasts as long as the descriptor), refused when it was removed meanwhile. Errors: the
// file is missing (ENOENT in the message and `missing` set), not ours, or unreadable.
struct UsedFile {
  UniqueFd fd;
};
Result<UsedFile> open_program_file_used(const TraceDir& dir, const std::string& name,
                                        bool* missing);
// The exclusive flock of `name`, taken without waiting: a descriptor holding it when no
// process marks the file as used (remove it while holding this), an invalid one when some
// process does or the file is missing.
UniqueFd lock_unused(const TraceDir& dir, const std::string& name);
// How many processes hold a shared flock on the file with this device and inode
// (/proc/locks).
uint32_t processes_using(uint64_t dev, uint64_t ino);

// One key's files as `pfc trace programs` shows them (docs/cli.md).
struct CachedProgram {
  enum class State : uint8_t { Compiling, Ready, Failed };
  std::string key;
  std::string provider;  // from the request ("" when it is gone or unreadable)
  State state = State::Compiling;
  std::string reason;          // Failed: the failure file's text, else the refusal's
  uint64_t bytes = 0;          // the .so file's size (0 without one)
  uint32_t processes = 0;      // live processes routing with the .so
  std::string code_name;       // the .so file's name when there is one
  std::string databases_name;  // the .hsdb file's name when there is one
};
// Every key of the directory, sorted: failed when a failure file or a refusal exists (a
// refused `.so` may still be used by the processes that did not refuse it), else ready
// when the code exists, else compiling (a request only).
std::vector<CachedProgram> list_cached_programs(const TraceDir& dir);

}  // namespace pfc::trace
