// pfc/routing_program.h — the compiled form of every session's checks for one provider.
// runtime/ defines the interface; compiler/ implements it (reference interpreter, JIT).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "pfc/enable.h"
#include "pfc/error.h"
#include "pfc/event.h"
#include "pfc/schema.h"

namespace pfc {

// One session's enable state on the provider, and the session's bit in route results.
struct SessionEntry {
  uint32_t slot = 0;  // 0..63: bit `slot` in RouteResult masks
  EnableParams params;
};

// Everything a routing program is compiled from. The program copies what it needs:
// the spec need not outlive it.
struct ProgramSpec {
  ProviderDef provider;
  std::vector<SessionEntry> sessions;  // any order; slots unique
};

class RoutingProgram {
 public:
  virtual ~RoutingProgram() = default;
  // Decides which sessions receive `event` and which of those get a stack
  // (docs/semantics.md §1–§2; the EventWriteEx exclusion mask of §1.8 is applied by the
  // router). Thread-safe,
  // never allocates, never throws; malformed payloads make the affected predicates false.
  virtual RouteResult route(const EventView& event) const noexcept = 0;
};

// Builds routing programs; the router calls it whenever a provider's enable state changes.
// Implementations must be thread-safe.
class ProgramCompiler {
 public:
  virtual ~ProgramCompiler() = default;
  virtual Result<std::shared_ptr<const RoutingProgram>> compile(const ProgramSpec& spec) = 0;
};

}  // namespace pfc
