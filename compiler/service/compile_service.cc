// compiler/service/compile_service.cc — see compile_service.h.
#include "compiler/service/compile_service.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "compiler/ir_wire.h"
#include "compiler/jit/shared_code.h"
#include "compiler/native_file.h"
#include "compiler/str_match.h"
#include "trace/dir.h"
#include "trace/program_cache.h"
#include "trace/testpoint.h"

namespace pfc::service {
namespace {

using trace::program_file_name;
using trace::ProgramFile;

constexpr size_t kMaxLogBytes = 64 * 1024;
// Over the byte budget, a program is removed once unused this long (or keep_ms, if
// shorter): new code is unused until its waiting providers, woken by the rename, open it.
constexpr uint64_t kBudgetGraceMs = 2000;

uint64_t env_number(const char* name, uint64_t fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  uint64_t value = 0;
  const char* end = text + std::char_traits<char>::length(text);
  auto [ptr, ec] = std::from_chars(text, end, value);
  return ec == std::errc() && ptr == end ? value : fallback;
}

// CPU time of this (single-threaded) process and its reaped children — the linker runs as
// one (compiler/jit/shared_code.h).
uint64_t cpu_us() {
  uint64_t us = 0;
  for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    struct rusage r {};
    ::getrusage(who, &r);
    for (const struct timeval& t : {r.ru_utime, r.ru_stime})
      us += static_cast<uint64_t>(t.tv_sec) * 1000000u + static_cast<uint64_t>(t.tv_usec);
  }
  return us;
}

uint64_t mtime_ns(const struct stat& st) {
  return static_cast<uint64_t>(st.st_mtim.tv_sec) * 1000000000u +
         static_cast<uint64_t>(st.st_mtim.tv_nsec);
}

std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  if (text.size() > trace::kMaxFailureBytes - 1) text.resize(trace::kMaxFailureBytes - 1);
  return text;
}

// The service's PID in compiler.lock, for people and tests.
void record_pid(int fd) {
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) == 0) (void)!::pwrite(fd, pid.data(), pid.size(), 0);
}

// What the directory holds for one key.
struct Entry {
  bool request = false, code = false, failure = false, refusal = false;
  uint64_t bytes = 0;
};

class Service {
 public:
  Service(trace::TraceDir dir, trace::UniqueFd lock, const ServiceOptions& options)
      : dir_(std::move(dir)), lock_(std::move(lock)), options_(options) {}

  int run() {
    for (const std::string& name : trace::stale_program_temporaries(dir_)) dir_.remove(name);
    trace::UniqueFd watch(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
    if (watch) (void)::inotify_add_watch(watch.get(), dir_.path().c_str(), IN_MOVED_TO);
    uint64_t last_work = trace::mono_ns();
    for (;;) {
      auto entries = scan();
      if (serve(entries)) last_work = trace::mono_ns();
      const bool cached = reclaim(scan());
      if (!cached && trace::mono_ns() - last_work >= options_.idle_ms * 1000000) {
        if (leave()) return 0;
        last_work = trace::mono_ns();
        continue;
      }
      wait_for_change(watch.get());
    }
  }

 private:
  std::map<std::string, Entry> scan() const {
    std::map<std::string, Entry> out;
    for (const std::string& name : dir_.list("prog-")) {
      auto parsed = trace::parse_program_file_name(name);
      if (!parsed) continue;
      Entry& e = out[parsed->key];
      if (parsed->kind != ProgramFile::Databases)
        (parsed->kind == ProgramFile::Request   ? e.request
         : parsed->kind == ProgramFile::Code    ? e.code
         : parsed->kind == ProgramFile::Failure ? e.failure
                                                : e.refusal) = true;
      struct stat st;
      if (::fstatat(dir_.fd(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0)
        e.bytes += static_cast<uint64_t>(st.st_size);
    }
    // A failure this service could not write down counts as written: it is not compiled
    // again (on a full file system that would loop for ever and never let the service
    // go idle); the next service tries again.
    for (const std::string& key : unwritten_failures_)
      if (auto it = out.find(key); it != out.end()) it->second.failure = true;
    return out;
  }

  // Compiles every request that has neither code nor a failure, and checks code some
  // process refused. True when one was compiled.
  bool serve(const std::map<std::string, Entry>& entries) {
    bool worked = false;
    for (const auto& [key, e] : entries) {
      if (e.code && e.refusal && !e.failure) worked |= check_refused(key);
      if (!e.request || e.code || e.failure) continue;
      compile(key);
      worked = true;
    }
    return worked;
  }

  // A process refused KEY's code file (prog-KEY.refused, docs/namespace.md "Compiled
  // programs"). The service checks the file as every process does before it runs one:
  // when it fails the check, it is bad for every process, and the program is compiled
  // again, the new file renamed over it (the refusing processes wait for that); when it
  // passes, the refusal was that process's own and stays for `pfc trace programs`. A
  // refusal older than the file is about a file since replaced, and is removed. Each
  // refusal is checked once. True when the program was compiled again.
  bool check_refused(const std::string& key) {
    const std::string refusal = program_file_name(key, ProgramFile::Refusal);
    struct stat ref, code;
    if (::fstatat(dir_.fd(), refusal.c_str(), &ref, AT_SYMLINK_NOFOLLOW) != 0 ||
        ::fstatat(dir_.fd(), program_file_name(key, ProgramFile::Code).c_str(), &code,
                  AT_SYMLINK_NOFOLLOW) != 0)
      return false;
    if (mtime_ns(ref) < mtime_ns(code)) {  // also the refusal this service just answered
      dir_.remove(refusal);
      checked_refusals_.erase(key);
      return false;
    }
    const std::pair<uint64_t, uint64_t> id(ref.st_ino, mtime_ns(ref));
    if (checked_refusals_[key] == id) return false;
    checked_refusals_[key] = id;
    const std::optional<std::string> fault = code_fault(key);
    if (!fault) return false;
    std::string why = "(unreadable)";
    if (auto fd = dir_.open_file(refusal, false))
      if (auto text = trace::read_whole_file(fd->get(), trace::kMaxFailureBytes, refusal))
        why = *text;
    log(key + " refused: " + one_line(why) + " (the service's check: " + one_line(*fault) +
        "); compiling it again");
    // The refusal stays until the new file is in place (then it is older than the file):
    // a service killed before the rename leaves it for the next one to answer.
    compile(key);
    return true;
  }

  // Why KEY's code file fails the checks a process makes before running it (nullopt: none).
  std::optional<std::string> code_fault(const std::string& key) const {
    const std::string name = program_file_name(key, ProgramFile::Code);
    auto fd = dir_.open_file(name, false);
    if (!fd) return fd.error().message;
    auto bytes = trace::read_whole_file(fd->get(), trace::kMaxProgramFileBytes,
                                        "trace file '" + dir_.path() + "/" + name + "'");
    if (!bytes) return bytes.error().message;
    if (auto file = parse_native_file_of(*bytes, key); !file) return file.error().message;
    return std::nullopt;
  }

  void compile(const std::string& key) {
    const uint64_t cpu0 = cpu_us();
    std::string provider, databases;
    auto bytes = compile_request(key, provider, databases);
    trace::testpoint("compiler.compiled");
    const uint64_t cpu = cpu_us() - cpu0;
    if (bytes) {
      write_databases(key, databases);
      auto w = trace::write_file_atomic(dir_, program_file_name(key, ProgramFile::Code), *bytes,
                                        "compiler.tmp-written");
      if (w) {
        log(key + " compiled " + provider + " cpu_us=" + std::to_string(cpu) +
            " bytes=" + std::to_string(bytes->size()));
        return;
      }
      bytes = std::unexpected(w.error());
    }
    const std::string reason = one_line(bytes.error().message);
    if (!trace::write_file_atomic(dir_, program_file_name(key, ProgramFile::Failure), reason,
                                  "compiler.tmp-written"))
      unwritten_failures_.insert(key);
    log(key + " failed " + provider + " cpu_us=" + std::to_string(cpu) + ": " + reason);
  }

  // The program's Hyperscan databases (`databases`: serialize_str_databases's file, "" for
  // none) renamed into place before its code, so a provider woken by the code's rename
  // finds them; a program without databases has no file (an old one is removed). A write
  // that fails is logged: the providers then compile the databases themselves.
  void write_databases(const std::string& key, const std::string& databases) {
    const std::string name = program_file_name(key, ProgramFile::Databases);
    if (databases.empty()) {
      dir_.remove(name);
      return;
    }
    if (auto w = trace::write_file_atomic(dir_, name, databases); !w)
      log(key + " databases not written: " + one_line(w.error().message));
  }

  // The request's bytes checked (its key recomputed, its IR decoded and verified), then
  // compiled: the file's bytes, or why not; `databases` receives the file of its string
  // maps' Hyperscan databases, which decoding the program built.
  Result<std::string> compile_request(const std::string& key, std::string& provider,
                                      std::string& databases) {
    const std::string name = program_file_name(key, ProgramFile::Request);
    auto fd = dir_.open_file(name, false);
    if (!fd) return std::unexpected(fd.error());
    auto bytes = trace::read_whole_file(fd->get(), trace::kMaxProgramFileBytes,
                                        "request '" + dir_.path() + "/" + name + "'");
    if (!bytes) return std::unexpected(bytes.error());
    auto request = trace::decode_request(*bytes);
    if (!request) return std::unexpected(request.error());
    provider = std::string(request->provider);
    const ProgramKey pkey = program_key(request->wire);
    if (pkey.hex() != key)
      return make_error("request: its bytes have key " + pkey.hex() +
                        " here (a process of another CPU identity or code version asked, or "
                        "the file is damaged)");
    auto program = ir::decode_program(request->wire);
    if (!program) return std::unexpected(program.error());
    databases = internal::serialize_str_databases(*program, pkey);
    return compile_shared(*program, pkey);
  }

  // Removes what no process has used for keep_ms, and, beyond the byte budget, programs
  // unused for kBudgetGraceMs (longest unused first). True when anything is left in the
  // cache.
  bool reclaim(const std::map<std::string, Entry>& entries) {
    const uint64_t now = trace::mono_ns();
    uint64_t total = 0;
    std::vector<std::pair<uint64_t, std::string>> unused;  // (since, key)
    std::map<std::string, uint64_t> since;
    for (const auto& [key, e] : entries) {
      total += e.bytes;
      if (e.request && !e.code && !e.failure) continue;  // being compiled
      trace::UniqueFd held;
      if (e.code) {
        held = trace::lock_unused(dir_, program_file_name(key, ProgramFile::Code));
        if (!held) continue;  // in use (or just removed)
      }
      auto it = unused_since_.find(key);
      since[key] = it != unused_since_.end() ? it->second : now;
      unused.emplace_back(since[key], key);
    }
    unused_since_ = std::move(since);
    std::sort(unused.begin(), unused.end());
    size_t left = entries.size();
    for (const auto& [first, key] : unused) {
      const uint64_t unused_ms = (now - first) / 1000000;
      const bool expired = unused_ms >= options_.keep_ms;
      const bool over = total > options_.max_bytes && unused_ms >= kBudgetGraceMs;
      if (!expired && !over) continue;
      const Entry& e = entries.at(key);
      if (remove(key, e)) {
        total -= e.bytes;
        --left;
      }
    }
    return left > 0;
  }

  // Removes one key's files, the code first and only while no process uses it.
  bool remove(const std::string& key, const Entry& e) {
    if (e.code) {
      const std::string code = program_file_name(key, ProgramFile::Code);
      trace::UniqueFd held = trace::lock_unused(dir_, code);
      if (!held) return false;
      dir_.remove(code);
    }
    dir_.remove(program_file_name(key, ProgramFile::Databases));
    dir_.remove(program_file_name(key, ProgramFile::Request));
    dir_.remove(program_file_name(key, ProgramFile::Failure));
    dir_.remove(program_file_name(key, ProgramFile::Refusal));
    unused_since_.erase(key);
    checked_refusals_.erase(key);
    unwritten_failures_.erase(key);
    return true;
  }

  // Gives the lock up; a request that arrived meanwhile (its writer saw the lock held and
  // started no service) is served by taking it again. True: exit now.
  bool leave() {
    lock_ = trace::UniqueFd();
    for (const auto& [key, e] : scan()) {
      if (!e.request || e.code || e.failure) continue;
      auto again = trace::take_compile_service_lock(dir_);
      if (!again || !*again) return true;  // another service took over
      lock_ = std::move(*again);
      record_pid(lock_.get());
      return false;
    }
    return true;
  }

  void wait_for_change(int watch) {
    struct pollfd p {
      watch, POLLIN, 0
    };
    if (watch < 0 || ::poll(&p, 1, 250) <= 0) {
      if (watch < 0) ::usleep(50000);
      return;
    }
    char buf[4096];
    while (::read(watch, buf, sizeof buf) > 0) {
    }
  }

  // One line per compile in compiler.log, which restarts when it reaches kMaxLogBytes.
  void log(const std::string& line) {
    auto fd = dir_.open_file(trace::kCompilerLog, true);
    if (!fd) return;
    struct stat st;
    if (::fstat(fd->get(), &st) == 0 && static_cast<uint64_t>(st.st_size) > kMaxLogBytes)
      (void)!::ftruncate(fd->get(), 0);
    const std::string text = line + "\n";
    (void)!::pwrite(fd->get(), text.data(), text.size(), ::lseek(fd->get(), 0, SEEK_END));
  }

  trace::TraceDir dir_;
  trace::UniqueFd lock_;
  ServiceOptions options_;
  std::map<std::string, uint64_t> unused_since_;  // key → when first seen unused (mono ns)
  // key → the refusal file (inode, mtime) checked last
  std::map<std::string, std::pair<uint64_t, uint64_t>> checked_refusals_;
  std::set<std::string> unwritten_failures_;  // keys that failed, with no failure file
};

}  // namespace

ServiceOptions options_from_environment() {
  ServiceOptions o;
  o.idle_ms = env_number("PFC_COMPILER_IDLE_MS", o.idle_ms);
  o.keep_ms = env_number("PFC_COMPILER_KEEP_MS", o.keep_ms);
  o.max_bytes = env_number("PFC_COMPILER_CACHE_MB", o.max_bytes >> 20) << 20;
  return o;
}

int run_compile_service(const ServiceOptions& options, int lock_fd) {
  auto dir = trace::TraceDir::open_existing();
  if (!dir) return 3;
  auto lock = lock_fd >= 0 ? trace::adopt_compile_service_lock(*dir, lock_fd)
                           : trace::take_compile_service_lock(*dir);
  if (!lock) return 3;
  if (!*lock) return 0;  // another service serves this namespace
  record_pid(lock->get());
  trace::testpoint("compiler.locked");
  return Service(std::move(*dir), std::move(*lock), options).run();
}

}  // namespace pfc::service
