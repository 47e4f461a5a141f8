// etw/shared_worker.h — the background thread of a process's shared programs
// (etw/shared_compiler.h, docs/namespace.md "Compiled programs"): one per process, started at
// the first program some session enables. For each program it encodes the IR, computes the
// content key, and loads `prog-KEY.so` when the namespace has it; otherwise it writes the
// request, starts the compile service when none runs (handing it compiler.lock), and waits
// for the service's answer (inotify on the directory, at most kSharedCodeWaitMs). A file
// that fails a check is refused (`prog-KEY.refused`) and the thread waits for the service's
// replacement. The program's native function is swapped in only after the file passed
// every check and its code was loaded.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "compiler/interp.h"
#include "compiler/native_file.h"
#include "trace/sys.h"

namespace pfc::etw {

// How long a program waits for the service before it stays on the interpreter.
inline constexpr uint64_t kSharedCodeWaitMs = 60000;

// One program's way to native code: owned by the program, held weakly by the worker.
struct SharedJob {
  SharedJob(std::shared_ptr<const Interpreter> interp, std::string provider)
      : interp(std::move(interp)), provider(std::move(provider)) {}

  std::mutex mu;
  // The program's swap target; null once the program is destroyed (under mu).
  std::atomic<SharedRouteFn>* slot = nullptr;
  // Destroyed after `native`, whose table points into its program.
  const std::shared_ptr<const Interpreter> interp;
  const std::string provider;  // the provider GUID as text, for the request
  // Set by the worker under mu before the slot is stored; freed with the job, i.e. with the
  // program or just after it (the router retires programs through its EpochDomain).
  std::unique_ptr<LoadedNative> native;
  trace::UniqueFd used;  // the open .so with this process's shared flock: "in use"
};

// Hands `job` to the process's worker (started on first use, again after fork), which
// keeps only a weak reference. Never blocks on the namespace.
void submit_shared_job(const std::shared_ptr<SharedJob>& job);

// Has the worker start the namespace's compile service unless one runs (a provider about to
// lower a program it will ask native code for). Never blocks on the namespace.
void prestart_shared_service();

// Counters behind shared_code_status().
struct SharedCounters {
  std::atomic<uint64_t> requested{0}, native{0}, interpreted{0};
  std::atomic<uint64_t> databases_loaded{0}, databases_compiled{0}, databases_refused{0};
  std::mutex mu;
  std::string last_error;           // under mu
  std::string last_database_error;  // under mu
};
SharedCounters& shared_counters();

}  // namespace pfc::etw
