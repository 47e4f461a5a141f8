// compiler/lower.h — lowering: one provider's ProgramSpec (schema + every session's
// EnableParams) to the IR of compiler/ir.h, implementing docs/semantics.md §1–§2 for all
// sessions at once. The lowering scheme is documented in docs/ir.md.
#pragma once

#include "base/error.h"
#include "compiler/ir.h"
#include "runtime/routing_program.h"

namespace pfc {

struct LowerOptions {
  // Predicate indexing (docs/ir.md §4): integer payload predicates of several sessions on
  // one field become one mask.range. Off: each session's predicates one by one (tests
  // compare the two).
  bool index_predicates = true;
  // Scope indexing (docs/ir.md §4 "Session masks"): sessions' exe / package_id / app_id
  // lists of a kind, when two differ, become one str.index and one mask.map. Off: one str.in
  // per distinct list (tests compare the two).
  bool index_scopes = true;
  // String maps' matchers (compiler/str_match.h) built without their Hyperscan databases,
  // which StrMatcher::install_databases adds later: a provider of the shared engine, whose
  // interpreter never scans them and whose native code takes them from the namespace's
  // cache (docs/namespace.md "Compiled programs"). Until then the matcher tests those
  // patterns one by one.
  bool defer_string_databases = false;
};

// Lowers `spec` to one straight-line IR program computing every session's deliver and
// stack bits (bit = SessionEntry::slot). Deterministic: equal specs (up to session order)
// give identical programs. Header loads, sets, field offsets and predicates are computed
// once per event and shared by all sessions; payload work for one (id, version) is guarded
// so that other events, and events no session filtering that key accepted, skip it.
// Fails (Error) only on a spec the checker should have rejected: slot ≥ 64 or duplicated,
// a payload filter naming an event or field the provider does not declare, a malformed
// expression, or an operator/type pair docs/semantics.md §2.2 does not allow. Thread-safe (pure).
Result<ir::Program> lower(const ProgramSpec& spec, const LowerOptions& options = {});

}  // namespace pfc
