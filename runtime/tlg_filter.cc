// runtime/tlg_filter.cc — the filter views of TraceLogging events (runtime/tlg_filter.h).
#include "runtime/tlg_filter.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string_view>

#include "runtime/tlg.h"

namespace pfc::tlg {
namespace {

// Where each declared field is in one metadata blob: `top[j]` is the metadata index of the
// field that declared field j is. `conform` is false when the blob does not parse or a
// declared field is missing, not a scalar, of another type or inside an array of
// structures.
struct Plan {
  bool conform = false;
  EventMeta meta;
  std::vector<uint32_t> top;  // per declared field: index into meta.fields
  uint32_t last = 0;          // the greatest of `top`
};

// Whether `f` is a structure that is no array: its value is its members' values, in order.
bool holds_members(const Field& f) { return f.in_type == kInStruct && f.arity == 0; }

// Whether field `i` of `m` has the path `path` ("Outer.Inner.X": the names of its
// structures, none of them an array, and its own, joined by '.'; a top-level field's is its
// name). Compared from the field up its parents, without building paths.
bool has_path(const EventMeta& m, uint32_t i, std::string_view path) {
  for (uint32_t j = i;;) {
    const Field& f = m.fields[j];
    if (!path.ends_with(f.name)) return false;
    path.remove_suffix(f.name.size());
    if (f.parent == 0) return path.empty();
    if (!path.ends_with('.')) return false;
    path.remove_suffix(1);
    j = f.parent - 1;
    if (!holds_members(m.fields[j])) return false;
  }
}

Plan make_plan(const uint8_t* p, uint32_t size, const std::vector<FieldDef>& declared) {
  Plan plan;
  auto m = parse_event(p, size);
  if (!m) return plan;
  plan.meta = std::move(*m);
  for (const FieldDef& d : declared) {
    uint32_t found = 0;
    while (found < plan.meta.fields.size() && !has_path(plan.meta, found, d.name)) ++found;
    if (found == plan.meta.fields.size()) return plan;
    const Field& f = plan.meta.fields[found];
    if (f.arity != 0 || f.in_type != static_cast<uint8_t>(d.type)) return plan;
    plan.top.push_back(found);
    plan.last = std::max(plan.last, found);
  }
  plan.conform = true;
  return plan;
}

// The field whose value follows field `i`'s start in the data: a structure that is no
// array, its first member; otherwise the field after `i` and its members.
uint32_t next_in_data(const EventMeta& m, uint32_t i) {
  return holds_members(m.fields[i]) ? i + 1 : m.fields[i].end;
}

// The plans one thread has made, by table id and metadata bytes. Few distinct
// blobs per provider are usual; past kMaxPlans the oldest is replaced.
struct CachedPlan {
  uint64_t table = 0;
  std::vector<uint8_t> bytes;
  Plan plan;
};
constexpr size_t kMaxPlans = 64;
struct PlanCache {
  std::vector<CachedPlan> entries;
  size_t next = 0;
};

const Plan& plan_for(uint64_t table, const EventView& e, const std::vector<FieldDef>& declared) {
  thread_local PlanCache cache;
  for (const CachedPlan& c : cache.entries) {
    if (c.table == table && c.bytes.size() == e.meta_size &&
        std::memcmp(c.bytes.data(), e.meta, e.meta_size) == 0)
      return c.plan;
  }
  CachedPlan c{table, std::vector<uint8_t>(e.meta, e.meta + e.meta_size),
               make_plan(e.meta, e.meta_size, declared)};
  if (cache.entries.size() < kMaxPlans) {
    cache.entries.push_back(std::move(c));
    return cache.entries.back().plan;
  }
  CachedPlan& slot = cache.entries[cache.next];
  cache.next = (cache.next + 1) % kMaxPlans;
  slot = std::move(c);
  return slot.plan;
}

// Appends the filter layout's bytes of `e` under `plan` to `out` (which holds the
// conformance byte, 0): the declared fields' bytes, the byte set to 1 when they all decode.
void fill(const Plan& plan, const EventView& e, std::vector<uint8_t>& out) {
  if (!plan.conform) return;
  const uint64_t size =
      e.data_size != 0 ? std::min<uint64_t>(e.data_size, e.payload_size) : e.payload_size;
  const Walker walker(plan.meta, e.payload, size);
  std::vector<std::pair<uint64_t, uint64_t>> span(plan.last + 1);  // [start, end) by index
  uint64_t off = 0;
  for (uint32_t i = 0; !plan.top.empty() && i <= plan.last; i = next_in_data(plan.meta, i)) {
    if (holds_members(plan.meta.fields[i])) continue;  // its members follow
    uint64_t next = 0;
    if (!walker.skip_field(i, off, next)) return;
    span[i] = {off, next};
    off = next;
  }
  for (uint32_t i : plan.top)
    out.insert(out.end(), e.payload + span[i].first, e.payload + span[i].second);
  out[0] = 1;
}

std::atomic<uint64_t> next_table{1};

}  // namespace

bool filter_field_type(pfc::InType t) {
  return t != pfc::InType::Binary && t != pfc::InType::Pointer && t != pfc::InType::Sid;
}

const EventDef* declared_event(const ProgramSpec& spec, std::string_view name) {
  if (const EventDef* e = spec.provider.find_event(name)) return e;
  const EventDef* carried = nullptr;
  for (const SessionEntry& s : spec.sessions) {
    for (const PayloadFilter& f : s.params->payload) {
      if (f.event_name != name || !f.layout) continue;
      if (carried != nullptr && carried->fields.size() != f.layout->fields.size()) return nullptr;
      if (carried != nullptr)
        for (size_t i = 0; i < carried->fields.size(); ++i)
          if (carried->fields[i].name != f.layout->fields[i].name ||
              carried->fields[i].type != f.layout->fields[i].type)
            return nullptr;
      carried = f.layout.get();
    }
  }
  return carried;
}

EventDef filter_layout(const EventDef& declared) {
  EventDef out;
  out.name = declared.name;
  out.desc = declared.desc;
  out.fields.push_back(FieldDef{"", pfc::InType::UInt8, {}, {}});
  out.fields.insert(out.fields.end(), declared.fields.begin(), declared.fields.end());
  return out;
}

FilterViews::FilterViews(const ProgramSpec& spec) : id_(next_table.fetch_add(1)) {
  if (spec.provider.legacy) return;
  for (const SessionEntry& s : spec.sessions) {
    for (const PayloadFilter& f : s.params->payload) {
      if (f.event_name.empty() || events_.contains(f.event_name)) continue;
      if (const EventDef* e = declared_event(spec, f.event_name))
        events_.emplace(f.event_name, e->fields);
    }
  }
}

// Returns `event` or `storage`, both the caller's (a temporary argument is the caller's
// error, as with std::min): hence the NOLINTs.
const EventView& FilterViews::view(const EventView& event, EventView& storage) const noexcept {
  if (event.meta == nullptr || event.name.size == 0)
    return event;  // NOLINT(bugprone-return-const-ref-from-parameter): see above
  const auto it = events_.find(event.name.view());
  if (it == events_.end())
    return event;  // NOLINT(bugprone-return-const-ref-from-parameter): see above
  storage = event;
  try {
    thread_local std::vector<uint8_t> buf;
    buf.assign(1, 0);
    fill(plan_for(id_, event, it->second), event, buf);
    storage.payload = buf.data();
    storage.payload_size = buf.size();
  } catch (...) {  // out of memory: the event does not match
    static const uint8_t kNoMatch = 0;
    storage.payload = &kNoMatch;
    storage.payload_size = 1;
  }
  return storage;
}

}  // namespace pfc::tlg
