// runtime/tlg_filter.h — payload filters on TraceLogging events (docs/language.md §3
// "TraceLogging providers"). A script declares a TraceLogging event by name with the fields
// its filters use; each event brings its own metadata, which says where those fields are
// and what they are. The routing program is lowered for a fixed layout — one conformance
// byte, then the declared fields in declared order — and the router gives it, for each
// TraceLogging event, a view of that layout built from the event's data: the byte is 1
// when every declared field is a scalar of the metadata with the declared type and the
// data holds the fields up to the last one needed, else 0 and nothing follows (every
// filter on the event then fails: the event does not match). A declared field is found by
// its path: a top-level field by its name, a structure member by the names of its
// structures and its own joined by '.' ("Point.X"; the first field of the metadata with
// that path, outside arrays of structures). A metadata blob is parsed once per distinct
// blob and thread (a per-thread cache of plans); an event then costs a cache lookup and a
// walk over its fields up to the last declared one.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pfc/event.h"
#include "pfc/schema.h"
#include "runtime/routing_program.h"

namespace pfc::tlg {

// Whether a script field of type `t` can be declared in a TraceLogging event: TraceLogging
// writes it as a scalar whose in-type is `t` (every type but binary, pointer and sid).
bool filter_field_type(pfc::InType t);

// The event `name` of the spec's provider as the TraceLogging payload filters see it: the
// provider's declaration, else the layout the filters carry (all of them the same), else
// null (then lowering fails).
const EventDef* declared_event(const ProgramSpec& spec, std::string_view name);

// The layout a TraceLogging event's payload filters are lowered with: a uint8 conformance
// byte, then the declared fields (field i of the declaration is field i + 1 here).
EventDef filter_layout(const EventDef& declared);

// Per router registration: the declared TraceLogging events its program filters.
class FilterViews {
 public:
  // The TraceLogging events `spec`'s payload filters name (none: empty()).
  explicit FilterViews(const ProgramSpec& spec);
  bool empty() const noexcept { return events_.empty(); }
  // The view the program is run on: `event` itself unless it is a TraceLogging event
  // (EventView::meta set) whose name is one of the declared events; then a copy whose
  // payload is the filter layout's bytes, built in a per-thread buffer valid until the
  // thread's next call.
  const EventView& view(const EventView& event, EventView& storage) const noexcept;

 private:
  std::map<std::string, std::vector<FieldDef>, std::less<>> events_;
  uint64_t id_;  // tells this table's cached plans from those of others
};

}  // namespace pfc::tlg
