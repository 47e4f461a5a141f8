// io/event_line.h — the one writer of events-file lines (docs/cli.md "The events file"), in
// parts so that `pfc trace show` can cache a line's head and add its own members (ts, cpu)
// after the descriptor: head, descriptor, tail. pfc/events.h events_file_line is the three
// in a row.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pfc/event.h"
#include "pfc/schema.h"

namespace pfc::io {

// {"provider":PROVIDER, then "event":NAME when `def` is non-null, and "id", "version" when
// `def` is null or `always_ids` (`pfc trace show` names both).
std::string event_line_head(std::string_view provider, const EventDef* def,
                            const EventDescriptor& desc, bool always_ids);

// ,"level":…,"keyword":"0x…","opcode":…,"task":…,"channel":…,"pid":…,"tid":…
void append_event_descriptor(std::string& out, const EventView& event);

// ,"exe", ,"package_id", ,"app_id" when non-empty, the payload (",fields" or
// ",payload_hex", io/event_decode.h), ,"exclude":[names] when `exclude` is non-zero
// (`sessions` maps slot → name), then "}\n".
void append_event_tail(std::string& out, const EventDef* def, const EventView& event,
                       uint64_t exclude, const std::vector<std::string>& sessions);

}  // namespace pfc::io
