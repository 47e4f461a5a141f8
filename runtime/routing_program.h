// runtime/routing_program.h — the compiled form of every session's checks for one provider.
// runtime/ defines the interface; compiler/ implements it (reference interpreter, JIT).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "base/error.h"
#include "pfc/enable.h"
#include "pfc/event.h"
#include "pfc/schema.h"

namespace pfc {

// One session's enable state on the provider, and the session's bit in route results.
// The parameters are shared, never copied, between the router's enable state and the
// specs it compiles (a script's payload filter may hold millions of predicates).
struct SessionEntry {
  SessionEntry() = default;
  // Takes `params` into a new shared value.
  SessionEntry(uint32_t slot, EnableParams params)
      : slot(slot), params(std::make_shared<const EnableParams>(std::move(params))) {}
  // Shares `params` (not null).
  static SessionEntry sharing(uint32_t slot, std::shared_ptr<const EnableParams> params) {
    return SessionEntry(slot, std::move(params), Shared{});
  }

  // The parameters, to change them: `params` is first replaced by a private copy, so other
  // holders of the old value never see the change. Each call copies.
  EnableParams& edit() {
    auto own = std::make_shared<EnableParams>(*params);
    params = own;
    return *own;
  }

  uint32_t slot = 0;  // 0..63: bit `slot` in RouteResult masks
  std::shared_ptr<const EnableParams> params =
      std::make_shared<const EnableParams>();  // never null

 private:
  struct Shared {};
  // Initialises `params` directly: the default member initializer's empty EnableParams is
  // never allocated for a shared entry.
  SessionEntry(uint32_t slot, std::shared_ptr<const EnableParams> params, Shared)
      : slot(slot), params(std::move(params)) {}
};

// Everything a routing program is compiled from. The program copies what it needs:
// the spec need not outlive it.
struct ProgramSpec {
  ProviderDef provider;
  std::vector<SessionEntry> sessions;  // any order; slots unique
};

// The calling convention of generated routing code (docs/jit.md): the function returns the
// deliver mask of one event and stores `stack & deliver` into *stack (a plain i64 return
// keeps FastISel from handing the return block to SelectionDAG, which a two-register
// struct return would).
using NativeRouteFn = uint64_t (*)(const EventView* event, uint64_t* stack);

// For functions that call a NativeRouteFn: clang's -fsanitize=function reads a type hash in
// front of every indirect callee, which generated code does not have.
#if defined(__clang__)
#define PFC_CALLS_JIT_CODE __attribute__((no_sanitize("function")))
#else
#define PFC_CALLS_JIT_CODE
#endif

// Calls generated code and returns {deliver, stack & deliver}. The generated function
// always stores *stack, so the slot is not zeroed first.
PFC_CALLS_JIT_CODE inline RouteResult call_native(NativeRouteFn fn,
                                                  const EventView& event) noexcept {
  uint64_t stack;
  const uint64_t deliver = fn(&event, &stack);
  return RouteResult{deliver, stack};
}

class RoutingProgram {
 public:
  virtual ~RoutingProgram() = default;
  // Decides which sessions receive `event` and which of those get a stack
  // (docs/semantics.md §1–§2; the EventWriteEx exclusion mask of §1.8 is applied by the
  // router). Thread-safe,
  // never allocates, never throws; malformed payloads make the affected predicates false.
  virtual RouteResult route(const EventView& event) const noexcept = 0;
  // For a program whose route() is the call of a native function once one is in place
  // (a tiered program: the interpreter until then): the slot that function is stored in,
  // which lives as long as the program and, once set, never changes. The router then calls
  // the function itself, one dispatch less per event. Null (the default) for every other
  // program.
  virtual const std::atomic<NativeRouteFn>* native_slot() const noexcept { return nullptr; }
};

// Builds routing programs; the router calls it whenever a provider's enable state changes.
// Implementations must be thread-safe.
class ProgramCompiler {
 public:
  virtual ~ProgramCompiler() = default;
  virtual Result<std::shared_ptr<const RoutingProgram>> compile(const ProgramSpec& spec) = 0;
};

}  // namespace pfc
