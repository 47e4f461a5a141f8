// etw/guard.h — the C boundary of libpfc_etw: no exception leaves an exported function
// (docs/style.md §4, docs/etw.md "Error codes"). Every export runs its body as
//   return guarded([&]() -> ULONG { ... });                 // returns the error code
//   return guarded([&]() -> TRACEHANDLE { ... }, fail_handle); // and so on
// std::bad_alloc becomes ERROR_NOT_ENOUGH_MEMORY, any other exception
// ERROR_INTERNAL_ERROR, and the export's failure policy turns that code into its result.
// The try block costs nothing while nothing throws (table-driven unwinding); hot paths
// that must stay frameless (EventWrite's quiet path) test before entering the guard.
#pragma once

#include <exception>
#include <new>
#include <utility>

#include "etw/util.h"
#include "pfc/etw/evntrace.h"
#include "runtime/epoch.h"

namespace pfc::etw {

// Failure policies: what an export returns for the error `rc`. None allocates or throws.
// The error code itself (functions returning ULONG).
inline ULONG fail_code(ULONG rc) noexcept { return rc; }
// INVALID_PROCESSTRACE_HANDLE with GetLastError() = rc (functions returning a handle).
inline TRACEHANDLE fail_handle(ULONG rc) noexcept {
  set_last_error(rc);
  return INVALID_PROCESSTRACE_HANDLE;
}
// FALSE (EventEnabled-type functions: an event nobody can be told about is not enabled).
inline BOOLEAN fail_false(ULONG) noexcept { return FALSE; }
// The code with PfcTdhGetLastErrorMessage() saying what happened (Tdh* functions).
ULONG fail_tdh(ULONG rc) noexcept;

// Runs `body` and returns what it returns; an exception escaping it returns `fail(code)`.
// The thread is registered for epoch reclamation first: the core's readers then never
// allocate (where they would terminate, runtime/epoch.h).
template <class Body, class Fail = ULONG (*)(ULONG) noexcept>
auto guarded(Body&& body, Fail fail = fail_code) noexcept -> decltype(body()) {
  try {
    EpochDomain::prepare_thread();
    return body();
  } catch (const std::bad_alloc&) {
    return fail(ERROR_NOT_ENOUGH_MEMORY);
  } catch (...) {
    return fail(ERROR_INTERNAL_ERROR);
  }
}

// Runs `undo` when its scope is left by an exception: the rollback of a change an export
// made before something threw, so that a failed call leaves nothing half-done. `undo`
// must not throw.
template <class Undo>
class UndoOnThrow {
 public:
  explicit UndoOnThrow(Undo undo) : undo_(std::move(undo)), active_(std::uncaught_exceptions()) {}
  ~UndoOnThrow() {
    if (std::uncaught_exceptions() > active_) undo_();
  }
  UndoOnThrow(const UndoOnThrow&) = delete;
  UndoOnThrow& operator=(const UndoOnThrow&) = delete;

 private:
  Undo undo_;
  int active_;
};

// Runs `step`, a part of an export that follows its committed change (cleanup, counters):
// when it throws, the change stands and the export still succeeds.
template <class Step>
void best_effort(Step&& step) noexcept {
  (void)guarded([&] {
    step();
    return ULONG{ERROR_SUCCESS};
  });
}

}  // namespace pfc::etw
