// base/scope_kinds.h — the one table of scope filters (docs/semantics.md §1.3): for each kind
// its name (the script keyword, `--explain`'s reason word, the IR dump's string name, the
// event's JSON member and `pfc trace`'s option), its ETW filter type, where a session keeps
// its list (EnableParams) and which string of the event a name list tests (EventView, Event). The
// grammar, the checker, the lowering, the interpreter, the IR dump, the ETW descriptor reader
// (etw/filters.cc, which checks the filter types against pfc/etw/evntprov.h), the event
// copy (runtime/sink.cc), the events-file writer (io/event_line.cc) and `pfc trace` read it. In
// base/ beside base/in_types.h (docs/architecture.md §2).
//
// Adding a scope kind: docs/architecture.md "Adding an operator, a filter, a field type".
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pfc/enable.h"
#include "pfc/event.h"

namespace pfc::internal {

// In docs/semantics.md §1.3's order, which is also the order of the grammar's FilterKind and
// the IR's Check values for them (each checks that).
enum class ScopeKind : uint8_t { Pid, Exe, PackageId, AppId };
inline constexpr size_t kScopeKindCount = size_t(ScopeKind::AppId) + 1;

using ScopeNames = std::optional<std::vector<std::string>>;

struct ScopeKindInfo {
  ScopeKind kind;
  std::string_view name;     // "pid", "exe", ...
  uint32_t etw_filter_type;  // EVENT_FILTER_TYPE_* (pfc/etw/evntprov.h)
  // Name scopes: the session's list and the event's string it tests; null for Pid, whose
  // list is EnableParams::pids and whose value is EventView::pid.
  ScopeNames EnableParams::*names;
  StrRef EventView::*event_string;
  std::string Event::*event_owned;  // the same string in an owning Event
  // Names compare by their final path component (after the last '/' or '\\'), both the
  // names of an ETW descriptor and the event's string.
  bool final_component;
};

inline constexpr ScopeKindInfo kScopeKinds[] = {
    {ScopeKind::Pid, "pid", 0x80000004u, nullptr, nullptr, nullptr, false},
    {ScopeKind::Exe, "exe", 0x80000008u, &EnableParams::exe_names, &EventView::exe, &Event::exe,
     true},
    {ScopeKind::PackageId, "package_id", 0x80000010u, &EnableParams::package_ids,
     &EventView::package_id, &Event::package_id, false},
    {ScopeKind::AppId, "app_id", 0x80000020u, &EnableParams::app_ids, &EventView::app_id,
     &Event::app_id, false},
};

constexpr bool scope_kinds_in_value_order() {
  for (size_t i = 0; i < std::size(kScopeKinds); ++i) {
    const ScopeKindInfo& s = kScopeKinds[i];
    if (size_t(s.kind) != i || (s.names == nullptr) != (s.kind == ScopeKind::Pid) ||
        (s.event_string == nullptr) != (s.names == nullptr) ||
        (s.event_owned == nullptr) != (s.names == nullptr))
      return false;
  }
  return true;
}
static_assert(std::size(kScopeKinds) == kScopeKindCount, "one row per ScopeKind");
static_assert(scope_kinds_in_value_order(), "kScopeKinds rows in ScopeKind order, name lists");

constexpr const ScopeKindInfo& scope_kind(ScopeKind k) { return kScopeKinds[size_t(k)]; }

// The row of an EVENT_FILTER_TYPE_* value, or null for a type that is no scope filter.
constexpr const ScopeKindInfo* find_scope_kind_by_etw_type(uint32_t type) {
  for (const ScopeKindInfo& s : kScopeKinds)
    if (s.etw_filter_type == type) return &s;
  return nullptr;
}

// The name scopes (every kind but Pid), in table order.
inline constexpr size_t kFirstNameScope = size_t(ScopeKind::Exe);

// What follows the last '/' or '\\' of `path` (all of it when there is none).
constexpr std::string_view final_path_component(std::string_view path) {
  const size_t cut = path.find_last_of("/\\");
  return cut == std::string_view::npos ? path : path.substr(cut + 1);
}

// `name` as a name scope of kind `s` compares it: its final path component where the row
// says so.
constexpr std::string_view scope_name_key(const ScopeKindInfo& s, std::string_view name) {
  return s.final_component ? final_path_component(name) : name;
}

// The string of `e` that a name scope `s` tests (s.names non-null).
inline std::string_view scope_event_string(const EventView& e, const ScopeKindInfo& s) {
  return scope_name_key(s, (e.*s.event_string).view());
}

}  // namespace pfc::internal
