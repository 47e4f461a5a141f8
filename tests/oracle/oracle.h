// tests/oracle/oracle.h — the independent oracle: a deliberately simple implementation of
// docs/semantics.md §1–§2 (legacy providers §1.9), written straight from the spec.
// It shares no code with compiler/ or runtime/ — only the vocabulary types of
// include/pfc/{schema,enable,event}.h — and is the third voice in every differential test
// (interpreter, JIT, oracle). Slow and obvious on purpose: it decodes the whole payload
// into values first, then evaluates each session's rules one by one.
//
// Choices where the rules leave room (each one is also documented in docs/semantics.md,
// docs/ir.md or runtime/tdh.h, which the oracle follows; see docs/fuzzing.md):
// - counts and lengths taken from a field use its value as 64-bit two's complement
//   (sign-extended for signed types): a negative count is a huge count that does not fit,
//   except for zero-size elements (strings/binaries of length 0), which take no bytes;
// - fixed-length strings end at their first NUL unit (NUL padding);
// - text decodes as UTF-16LE (surrogate pairs joined, lone surrogates kept) or UTF-8
//   (invalid byte b → U+DC00 + b, one byte at a time); case folding is hand-written and
//   exact only for needles from the alphabet of oracle_internal.h (ASCII, Latin-1, Latin
//   Extended-A, Greek, Cyrillic): callers must keep string predicate values inside it
//   (field text may be anything);
// - event-name and level/keyword stack filters "apply" per §1.1–§1.2 without
//   IGNORE_KEYWORD_0; several stack filters are AND-ed; an empty payload expression is true;
// - legacy providers (docs/semantics.md §1.9, the user contract
//   whose checker warnings say `all` and `properties` have no effect): level and keyword
//   rules only, MatchAny truncated to 32 bits (0 after truncation = every keyword),
//   MatchAll and every property ignored (so no IGNORE_KEYWORD_0 and no stacks), no filters.
#pragma once

#include <vector>

#include "pfc/enable.h"
#include "pfc/event.h"
#include "pfc/schema.h"
#include "runtime/routing_program.h"

namespace pfc {

// The routing decision docs/semantics.md §1–§2 gives for `event` of `provider`, enabled by
// `sessions` (bit = SessionEntry::slot; slots must be < 64 and unique). The EventWriteEx
// exclusion (§1.8) is not applied. Payload filters must name events of `provider` and
// scalar fields of matching types (as the checker guarantees); anything else makes the
// filter false. Pure, thread-safe; reads only [payload, payload + payload_size).
RouteResult oracle_route(const ProviderDef& provider, const std::vector<SessionEntry>& sessions,
                         const EventView& event);

}  // namespace pfc
