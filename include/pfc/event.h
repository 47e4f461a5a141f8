// pfc/event.h — the event as the routing core sees it. EventView is a non-owning,
// standard-layout view (the JIT reads its fields at fixed offsets); Event owns its bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "pfc/schema.h"

namespace pfc {

// A UTF-8 string reference with a fixed, ABI-stable layout.
struct StrRef {
  const char* data = nullptr;
  uint64_t size = 0;
  std::string_view view() const { return {data, static_cast<size_t>(size)}; }
  static StrRef of(std::string_view s) { return {s.data(), s.size()}; }
};

struct EventView {
  EventDescriptor desc;              // @0
  const uint8_t* payload = nullptr;  // @16
  uint64_t payload_size = 0;         // @24
  uint32_t pid = 0;                  // @32
  uint32_t tid = 0;                  // @36
  StrRef exe;                        // @40 executable path; scope filters use its final component
  StrRef package_id;                 // @56
  StrRef app_id;                     // @72
  StrRef name;                       // @88 event name (event-name filters)
  // @104 a TraceLogging event's metadata blob (runtime/tlg.h; null: none), read by the
  // router to find the fields payload filters name (runtime/tlg_filter.h); the routing
  // programs never read it.
  const uint8_t* meta = nullptr;
  uint32_t meta_size = 0;  // @112
  uint32_t data_size = 0;  // @116 with `meta`: the payload's first bytes that hold the fields
                           // (the EventWrite* path routes the blobs behind them too); 0: all
};
static_assert(std::is_standard_layout_v<EventView>);
static_assert(offsetof(EventView, payload) == 16 && offsetof(EventView, pid) == 32 &&
                  offsetof(EventView, exe) == 40 && offsetof(EventView, name) == 88 &&
                  sizeof(EventView) == 120,
              "the JIT depends on this layout");

// An owning event (tests, CLI, capture files). view() is valid while *this is unchanged.
struct Event {
  EventDescriptor desc;
  uint32_t pid = 0;
  uint32_t tid = 0;
  std::string exe;
  std::string package_id;
  std::string app_id;
  std::string name;
  std::vector<uint8_t> payload;
  std::vector<uint8_t> meta;  // TraceLogging metadata (EventView::meta), empty: none

  EventView view() const {
    return EventView{desc,
                     payload.data(),
                     payload.size(),
                     pid,
                     tid,
                     StrRef::of(exe),
                     StrRef::of(package_id),
                     StrRef::of(app_id),
                     StrRef::of(name),
                     meta.empty() ? nullptr : meta.data(),
                     static_cast<uint32_t>(meta.size()),
                     static_cast<uint32_t>(payload.size())};
  }
};

// The routing decision for one event: bit s set = session slot s. `stack` ⊆ `deliver`.
struct RouteResult {
  uint64_t deliver = 0;
  uint64_t stack = 0;
  friend bool operator==(const RouteResult&, const RouteResult&) = default;
};

}  // namespace pfc
