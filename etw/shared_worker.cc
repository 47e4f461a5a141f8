// etw/shared_worker.cc — see shared_worker.h.
#include "etw/shared_worker.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <thread>
#include <vector>

#include "compiler/hs_image.h"
#include "compiler/ir_wire.h"
#include "compiler/str_match.h"
#include "etw/beside.h"
#include "etw/spawn.h"
#include "trace/dir.h"
#include "trace/program_cache.h"

namespace pfc::etw {
namespace {

using trace::program_file_name;
using trace::ProgramFile;

constexpr uint64_t kProbeEveryMs = 1000;  // re-check the service (and the request) this often

// PFC_TRACE_COMPILER (ignored in setuid and setgid programs), else beside libpfc_etw or in
// its installed tree's libexec, then the build tree's (for the build tree's programs
// only), then the configured install directory — as the session host is found.
std::string compiler_executable() {
  if (const char* env = ::secure_getenv("PFC_TRACE_COMPILER"); env != nullptr && *env != '\0')
    return env;
#ifdef PFC_BUILD_TRACE_COMPILER
  const auto executable = [](const std::string& path) {
    return !path.empty() && ::access(path.c_str(), X_OK) == 0;
  };
  const char* built = own_directory_within(PFC_BUILD_DIR) ? PFC_BUILD_TRACE_COMPILER : "";
  return find_beside(
      {"pfc-trace-compiler", "../libexec/pfc-trace-compiler", "../../libexec/pfc-trace-compiler"},
      {built, PFC_LIBEXEC_DIR "/pfc-trace-compiler"}, executable);
#else
  return "";
#endif
}

// Starts the service `exe` for `dir`, handing it `lock` (compiler.lock, held; the service
// adopts it as descriptor 3, and this process closes its own as soon as the service is
// spawned). It detaches at once; etw/spawn.h reaps it.
Result<void> start_service(const std::string& exe, const trace::TraceDir& dir,
                           trace::UniqueFd lock) {
  const SpawnResult r = spawn_and_reap({exe, "--locked"}, dir.path(), lock.release(), true);
  if (r.error != 0) return make_error(trace::errno_text("cannot start " + exe, r.error));
  return {};
}

std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

// One program the worker is working on: held weakly, so a retired program's job (its
// interpreter, its IR) is freed with the program, not when the worker gets to it.
struct Active {
  std::weak_ptr<SharedJob> weak;
  std::shared_ptr<SharedJob> job;  // weak, locked for the length of one step
  std::string wire;
  ProgramKey key;
  std::string hex;
  uint64_t deadline = 0;
  uint64_t next_probe = 0;
  // The code file this process refused (device, inode): it waits for the service's
  // replacement rather than reading the same file again.
  std::optional<std::pair<uint64_t, uint64_t>> refused;
  std::optional<std::pair<uint64_t, uint64_t>> next_refused;  // the one being checked
};

enum class Step : uint8_t { Waiting, Done };

class Worker {
 public:
  Worker() : wake_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}

  void submit(const std::shared_ptr<SharedJob>& job) {
    shared_counters().requested.fetch_add(1, std::memory_order_relaxed);
    {
      std::lock_guard lock(mu_);
      queue_.emplace_back(job);
    }
    const uint64_t one = 1;
    (void)!::write(wake_.get(), &one, sizeof one);
  }

  // Asks for the service to be started now, before the program is lowered and its request
  // written (a provider's first enable: the service's start overlaps the lowering).
  void prestart() {
    if (prestart_.exchange(true, std::memory_order_relaxed)) return;
    const uint64_t one = 1;
    (void)!::write(wake_.get(), &one, sizeof one);
  }

  // The thread's loop; never returns (the process ends with it).
  void run() {
    for (;;) {
      if (prestart_.exchange(false, std::memory_order_relaxed)) start_service_early();
      take_queue();
      active_.erase(std::remove_if(active_.begin(), active_.end(),
                                   [this](Active& a) {
                                     a.job = a.weak.lock();
                                     const bool done = !a.job || step(a) == Step::Done;
                                     a.job.reset();
                                     return done;
                                   }),
                    active_.end());
      wait();
    }
  }

 private:
  void take_queue() {
    std::vector<std::weak_ptr<SharedJob>> jobs;
    {
      std::lock_guard lock(mu_);
      jobs.swap(queue_);
    }
    for (auto& weak : jobs) {
      const std::shared_ptr<SharedJob> job = weak.lock();
      if (!job || program_gone(*job)) continue;
      Active a;
      a.weak = weak;
      a.wire = ir::encode_program(job->interp->program());
      a.key = program_key(a.wire);
      a.hex = a.key.hex();
      a.deadline = trace::mono_ns() + kSharedCodeWaitMs * 1000000;
      active_.push_back(std::move(a));
    }
  }

  void wait() {
    uint64_t n;
    struct pollfd p[2] = {{wake_.get(), POLLIN, 0}, {watch_.get(), POLLIN, 0}};
    const int timeout = active_.empty() && wake_ ? -1 : 200;  // (no eventfd: poll the queue)
    if (::poll(p, watch_ ? 2 : 1, timeout) <= 0) return;
    while (::read(wake_.get(), &n, sizeof n) > 0) {
    }
    char buf[4096];
    while (watch_ && ::read(watch_.get(), buf, sizeof buf) > 0) {
    }
  }

  // The directory of PFC_TRACE_DIR, opened once; again when it names another directory
  // (tests of one process use several namespaces), with its inotify watch.
  Result<void> open_dir() {
    if (dir_ && dir_->path() == trace::TraceDir::default_path()) return {};
    auto dir = trace::TraceDir::open();
    if (!dir) return std::unexpected(dir.error());
    dir_ = std::move(*dir);
    watch_ = trace::UniqueFd(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
    if (watch_ && ::inotify_add_watch(watch_.get(), dir_->path().c_str(), IN_MOVED_TO) < 0)
      watch_ = trace::UniqueFd();
    return {};
  }

  // prestart(): the service started unless one runs. Failures are left to the program's
  // own request, which reports them.
  void start_service_early() {
    const std::string exe = compiler_executable();
    if (exe.empty() || !open_dir()) return;
    auto lock = trace::take_compile_service_lock(*dir_);
    if (lock && *lock) (void)start_service(exe, *dir_, std::move(*lock));
  }

  bool program_gone(SharedJob& job) {
    std::lock_guard lock(job.mu);
    return job.slot == nullptr;
  }

  Step step(Active& a) {
    if (program_gone(*a.job)) return Step::Done;  // retired before its code came
    if (auto opened = open_dir(); !opened) return fail(a, opened.error().message);
    const trace::TraceDir& dir = *dir_;
    if (auto failure = read_failure(dir, a.hex)) return fail(a, "compile: " + *failure);
    if (const std::string code = program_file_name(a.hex, ProgramFile::Code);
        !refused_before(a, dir, code)) {
      bool missing = false;
      auto used = trace::open_program_file_used(dir, code, &missing);
      if (used) return load(a, std::move(used->fd));
      if (!missing) return refuse(a, used.error().message, Refusal::WaitForAnother);
    }
    const uint64_t now = trace::mono_ns();
    if (now >= a.deadline)
      return fail(a, "no answer from the compile service within " +
                         std::to_string(kSharedCodeWaitMs / 1000) + " s");
    if (now >= a.next_probe) {
      a.next_probe = now + kProbeEveryMs * 1000000;
      if (auto asked = ask(dir, a); !asked) return fail(a, asked.error().message);
    }
    return Step::Waiting;
  }

  // The request written (unless there), then the service started unless one runs: the
  // process that takes compiler.lock hands it to the service it starts, so of all the
  // processes asking at once one starts a service. The request comes first: a service that
  // is about to exit looks for requests after it let the lock go, so a request written
  // before the lock is tried is never left unserved.
  Result<void> ask(const trace::TraceDir& dir, const Active& a) {
    const std::string exe = compiler_executable();
    if (exe.empty())
      return make_error("pfc-trace-compiler not found beside libpfc_etw (set PFC_TRACE_COMPILER)");
    const std::string req = program_file_name(a.hex, ProgramFile::Request);
    if (::faccessat(dir.fd(), req.c_str(), F_OK, AT_SYMLINK_NOFOLLOW) != 0) {
      auto w = trace::write_file_atomic(dir, req, trace::encode_request(a.job->provider, a.wire),
                                        nullptr, true);
      if (!w) return w;
    }
    auto lock = trace::take_compile_service_lock(dir);
    if (!lock) return std::unexpected(lock.error());
    if (!*lock) return {};  // a service runs
    return start_service(exe, dir, std::move(*lock));
  }

  std::optional<std::string> read_failure(const trace::TraceDir& dir, const std::string& hex) {
    auto fd = dir.open_file(program_file_name(hex, ProgramFile::Failure), false);
    if (!fd) return std::nullopt;
    auto text = trace::read_whole_file(fd->get(), trace::kMaxFailureBytes, "failure file");
    return text ? *text : text.error().message;
  }

  // Whether the code file `name` is the one this process refused already (recorded
  // whatever the check that failed, so a refusal's own rename, which wakes every waiting
  // process, never has it read and refuse the same file again).
  static bool refused_before(Active& a, const trace::TraceDir& dir, const std::string& name) {
    struct stat st;
    if (::fstatat(dir.fd(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return false;
    const std::pair<uint64_t, uint64_t> id(st.st_dev, st.st_ino);
    if (a.refused == id) return true;
    a.next_refused = id;
    return false;
  }

  Step load(Active& a, trace::UniqueFd fd) {
    const std::string what =
        "trace file '" + dir_->path() + "/" + program_file_name(a.hex, ProgramFile::Code) + "'";
    auto bytes = trace::read_whole_file(fd.get(), trace::kMaxProgramFileBytes, what);
    if (!bytes) return refuse(a, bytes.error().message, Refusal::WaitForAnother);
    auto file = parse_native_file_of(*bytes, a.hex);
    if (!file) return refuse(a, what + ": " + file.error().message, Refusal::WaitForAnother);
    // The file is sound, this process cannot load it: no other file would do better.
    auto native = load_native(*file, a.job->interp->program());
    if (!native) return refuse(a, what + ": " + native.error().message, Refusal::Final);
    install_databases(a);
    std::lock_guard lock(a.job->mu);
    if (a.job->slot == nullptr) return Step::Done;
    const SharedRouteFn fn = (*native)->fn();
    a.job->native = std::move(*native);
    a.job->used = std::move(fd);
    a.job->slot->store(fn, std::memory_order_release);
    shared_counters().native.fetch_add(1, std::memory_order_relaxed);
    return Step::Done;
  }

  // The program's string-map databases (compiler/str_match.h), which the lowering left
  // out: deserialised from `prog-KEY.hsdb` where its entries pass their checks, compiled
  // here otherwise (a missing, damaged or foreign file, another Hyperscan version or
  // platform), counted. Before the native function is stored: only its code scans them.
  void install_databases(const Active& a) {
    const std::string name = program_file_name(a.hex, ProgramFile::Databases);
    const std::string what = "trace file '" + dir_->path() + "/" + name + "'";
    std::string missing;
    std::string bytes;
    std::optional<HsImage> image;
    if (auto fd = dir_->open_file(name, false); !fd) {
      missing = fd.error().message;
    } else if (auto read = trace::read_whole_file(fd->get(), trace::kMaxProgramFileBytes, what);
               !read) {
      missing = read.error().message;
    } else {
      bytes = std::move(*read);
      if (auto parsed = parse_hs_image(bytes, a.hex)) image = std::move(*parsed);
      else missing = what + ": " + parsed.error().message;
    }
    const internal::HsDbCounts n = internal::install_str_databases(
        a.job->interp->program(), image ? &*image : nullptr, missing);
    SharedCounters& c = shared_counters();
    c.databases_loaded.fetch_add(n.loaded, std::memory_order_relaxed);
    c.databases_compiled.fetch_add(n.compiled, std::memory_order_relaxed);
    c.databases_refused.fetch_add(n.refused, std::memory_order_relaxed);
    if (n.refused == 0) return;
    std::lock_guard lock(c.mu);
    c.last_database_error = one_line(n.why);
  }

  enum class Refusal : uint8_t { WaitForAnother, Final };

  // A code file this process refused: the namespace is told in `prog-KEY.refused` (which
  // `pfc trace programs` shows as failed, and which makes the service check the file
  // itself and compile the program again when the file fails its check too); other
  // processes are not stopped from loading the file after their own checks. The program
  // stays on the interpreter; WaitForAnother: until the service renames another file into
  // place (asked for at once), Final: for good (counted as interpreted).
  Step refuse(Active& a, const std::string& why, Refusal kind) {
    const std::string text =
        one_line("process " + std::to_string(::getpid()) + " refused the code: " + why)
            .substr(0, trace::kMaxFailureBytes - 1);
    (void)trace::write_file_atomic(*dir_, program_file_name(a.hex, ProgramFile::Refusal), text);
    if (kind == Refusal::Final) return fail(a, why);
    a.refused = a.next_refused;
    {
      SharedCounters& c = shared_counters();
      std::lock_guard lock(c.mu);
      c.last_error = one_line(why);
    }
    a.next_probe = 0;
    return Step::Waiting;
  }

  Step fail(Active&, const std::string& why) {
    SharedCounters& c = shared_counters();
    c.interpreted.fetch_add(1, std::memory_order_relaxed);
    std::lock_guard lock(c.mu);
    c.last_error = one_line(why);
    return Step::Done;
  }

  std::mutex mu_;
  std::vector<std::weak_ptr<SharedJob>> queue_;  // under mu_
  trace::UniqueFd wake_;                         // eventfd: a job was queued
  std::atomic<bool> prestart_{false};            // prestart() asked, not yet done
  // The worker thread's own:
  std::vector<Active> active_;
  std::optional<trace::TraceDir> dir_;
  trace::UniqueFd watch_;  // inotify on the directory: a file was renamed into it
};

// The process's worker, started on first use; a forked child starts its own (the parent's
// thread does not exist there; its jobs stay with the parent). Never destroyed: the thread
// runs until the process ends.
struct WorkerSlot {
  std::mutex mu;
  pid_t pid = 0;
  Worker* worker = nullptr;
};

WorkerSlot& worker_slot() {
  static WorkerSlot* slot = [] {
    auto* s = new WorkerSlot();
    // A fork while another thread holds the slot's lock must not leave it locked in the
    // child: held across fork, released on both sides.
    ::pthread_atfork([] { worker_slot().mu.lock(); }, [] { worker_slot().mu.unlock(); },
                     [] { worker_slot().mu.unlock(); });
    return s;
  }();
  return *slot;
}

Worker& worker() {
  WorkerSlot* slot = &worker_slot();
  std::lock_guard lock(slot->mu);
  if (slot->worker == nullptr || slot->pid != ::getpid()) {
    slot->pid = ::getpid();
    slot->worker = new Worker();
    std::thread([w = slot->worker] { w->run(); }).detach();
  }
  return *slot->worker;
}

}  // namespace

void submit_shared_job(const std::shared_ptr<SharedJob>& job) { worker().submit(job); }

void prestart_shared_service() { worker().prestart(); }

SharedCounters& shared_counters() {
  static SharedCounters* c = new SharedCounters();
  return *c;
}

}  // namespace pfc::etw
