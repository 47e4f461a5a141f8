// pfc/enable.h — what one session asks of one provider: EnableTraceEx2's level, keywords,
// EnableProperty flags and filter set, with every value already resolved against the
// provider's schema and converted to the field's type. Produced by the script checker and
// (later) by the ETW API; consumed by the router (composite state) and the compiler
// (routing programs). Semantics: docs/semantics.md.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pfc/guid.h"
#include "pfc/schema.h"

namespace pfc {

// EVENT_ENABLE_PROPERTY_* values (docs/semantics.md §4).
namespace enable_property {
inline constexpr uint32_t kSid = 0x001;
inline constexpr uint32_t kTsId = 0x002;
inline constexpr uint32_t kStackTrace = 0x004;
inline constexpr uint32_t kIgnoreKeyword0 = 0x010;
inline constexpr uint32_t kProcessStartKey = 0x080;
inline constexpr uint32_t kEventKey = 0x100;
inline constexpr uint32_t kExcludeInPrivate = 0x200;
}  // namespace enable_property

// PAYLOAD_OPERATOR values (Windows SDK tdh.h; docs/semantics.md §2.2), then pfc's script-only
// extensions (codes ≥ 64, docs/language.md §3): the ETW-compatible API accepts only ETW's
// codes (base/payload_ops.h kEtwOp). In / NotIn never appear in a PayloadExpr (the
// checker expands them into Eq/Is or Ne/IsNot predicates); the Field* operators compare two
// integer fields of one event and keep the other field's index in PayloadValue::lo.
enum class PayloadOp : uint16_t {
  Eq = 0,
  Ne = 1,
  Le = 2,
  Gt = 3,
  Lt = 4,
  Ge = 5,
  Between = 6,
  NotBetween = 7,
  Modulo = 8,
  Contains = 20,
  DoesntContain = 21,
  Is = 30,
  IsNot = 31,
  // pfc extensions (scripts only).
  In = 64,
  NotIn = 65,
  StartsWith = 66,
  EndsWith = 67,
  Matches = 68,  // glob: * ? [...]
  Regex = 69,    // RE2 syntax
  IsCs = 80,     // case-sensitive forms of the string operators
  IsNotCs = 81,
  ContainsCs = 82,
  DoesntContainCs = 83,
  StartsWithCs = 84,
  EndsWithCs = 85,
  MatchesCs = 86,
  RegexCs = 87,
  FieldEq = 96,  // field-to-field integer comparisons
  FieldNe = 97,
  FieldLe = 98,
  FieldGt = 99,
  FieldLt = 100,
  FieldGe = 101,
};

// A predicate value converted to its field's type (docs/semantics.md §2.3).
struct PayloadValue {
  // Integer-like fields: the value's 64-bit two's complement bits (sign-extended for
  // signed types). BETWEEN / NOTBETWEEN use lo and hi; every other operator uses lo.
  uint64_t lo = 0;
  uint64_t hi = 0;
  std::string text;  // string fields: the value as UTF-8 (case folding happens later)
  Guid guid;         // GUID fields
};

struct PayloadPredicate {
  uint32_t field = 0;  // index into EventDef::fields of the filtered event
  PayloadOp op = PayloadOp::Eq;
  PayloadValue value;
};

// A boolean expression over predicates, stored flat in post-order: every node's children
// come before it, the root is the last node. Evaluating nodes in order needs no recursion,
// whatever the shape (docs/style.md §7).
struct PayloadExpr {
  struct Node {
    enum class Kind : uint8_t { Pred, And, Or, Not };
    Kind kind = Kind::Pred;
    uint32_t index = 0;  // Pred: index into preds; And/Or/Not: first entry in kids
    uint32_t count = 0;  // And/Or: number of children (≥ 1); Not: 1; Pred: 0
  };
  std::vector<PayloadPredicate> preds;
  std::vector<Node> nodes;
  std::vector<uint32_t> kids;  // child node indices, each smaller than its parent's index

  bool empty() const { return nodes.empty(); }
};

// One TdhCreatePayloadFilter-style filter for one event, identified by (id, version), or for
// a TraceLogging provider's event by its name (docs/language.md §3 "TraceLogging providers").
struct PayloadFilter {
  uint16_t event_id = 0;
  uint8_t event_version = 0;
  bool group_all = false;  // EventMatchALLFlags: true = "all" group, false = "any" group
  PayloadExpr expr;
  // The event's payload layout as the filter's creator knew it (a self-contained ETW
  // payload blob); null = the provider's registered schema defines the event.
  std::shared_ptr<const EventDef> layout;
  // Non-empty: the TraceLogging event of this name (id and version are 0); its fields are
  // found by name in each event's metadata (runtime/tlg_filter.h).
  std::string event_name;
};

// EVENT_FILTER_EVENT_ID (event_id filter) and STACKWALK (stack_id filter).
struct EventIdFilter {
  bool filter_in = true;  // true: keep only the listed IDs; false: drop the listed IDs
  std::vector<uint16_t> ids;
};

// EVENT_FILTER_EVENT_NAME / STACKWALK_NAME: applies to events matching level/any/all.
struct EventNameFilter {
  uint8_t level = 0;
  uint64_t any = 0;
  uint64_t all = 0;
  bool filter_in = true;
  std::vector<std::string> names;  // exact, case-sensitive
};

// STACKWALK_LEVEL_KW: events matching (level, any, all) get a stack iff filter_in.
struct LevelKeywordFilter {
  uint8_t level = 0;
  uint64_t any = 0;
  uint64_t all = 0;
  bool filter_in = true;
};

struct EnableParams {
  uint8_t level = 0;        // 0 = every level
  uint64_t any = 0;         // MatchAnyKeyword; 0 = every keyword
  uint64_t all = 0;         // MatchAllKeyword; ignored when any == 0
  uint32_t properties = 0;  // enable_property bits
  Guid source_id;           // passed to enable callbacks

  // Scope filters (absent = no restriction).
  std::optional<std::vector<uint32_t>> pids;
  std::optional<std::vector<std::string>> exe_names;  // final path components
  std::optional<std::vector<std::string>> package_ids;
  std::optional<std::vector<std::string>> app_ids;
  // Attribute filters.
  std::optional<EventIdFilter> event_ids;
  std::optional<EventNameFilter> event_names;
  std::vector<PayloadFilter> payload;  // aggregated; empty = none
  // Stack selection (only with enable_property::kStackTrace).
  std::optional<EventIdFilter> stack_ids;
  std::optional<EventNameFilter> stack_names;
  std::optional<LevelKeywordFilter> stack_level_kw;
  // The provider-side filter (EVENT_FILTER_TYPE_SCHEMATIZED data, EVENT_FILTER_HEADER
  // included; ETW API only): handed to the provider's enable callback unchanged, never
  // evaluated by pfc. Empty = none.
  std::vector<uint8_t> provider_filter;
};

// What a session of a classic (legacy) provider really asks for (docs/semantics.md §1.9): its
// level and the low 32 bits of MatchAnyKeyword (EnableFlags; 0 = every keyword, as for
// any provider). MatchAll, EnableProperty flags and filters have no effect. The lowering,
// `pfc run --explain` and the router's composite state all start from this.
inline EnableParams legacy_effective_params(const EnableParams& p) {
  EnableParams e;
  e.level = p.level;
  e.any = p.any & 0xFFFFFFFFu;
  e.source_id = p.source_id;
  return e;
}

// `p` as it takes effect: legacy_effective_params(p), built in `storage`, for a legacy
// provider, else `p` itself — never a copy of its filters (`legacy ? legacy_effective_params(p)
// : p` would copy `p` whole).
inline const EnableParams& effective_params(const EnableParams& p, bool legacy,
                                            EnableParams& storage) {
  // A temporary `p` cannot bind: the rvalue overload below is deleted.
  if (!legacy) return p;  // NOLINT(bugprone-return-const-ref-from-parameter)
  storage = legacy_effective_params(p);
  return storage;
}
const EnableParams& effective_params(EnableParams&& p, bool legacy, EnableParams& storage) = delete;

}  // namespace pfc
