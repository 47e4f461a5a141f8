// cli/events_json.h — the event file reader of `pfc run` (docs/cli.md "The events file"): JSON Lines →
// owning Events resolved against the checked script's schema, plus per-event exclusion
// masks. Problems in the file are diagnostics positioned in the events file.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/check.h"
#include "grammar/source.h"
#include "pfc/event.h"

namespace pfc::cli {

struct InputEvent {
  uint32_t provider = 0;  // index into CheckedScript::schema.providers
  Event event;
  uint64_t exclude = 0;  // bit s = session slot s named in "exclude"
  uint32_t line = 0;     // 1-based line in the events file
};

struct EventsInput {
  std::vector<InputEvent> events;       // in input order; complete only when ok()
  std::vector<Diagnostic> diagnostics;  // one per bad line, in line order
  bool ok() const { return diagnostics.empty(); }
};

// Reads every line of `file`; blank lines are skipped. A bad line (malformed JSON, unknown
// provider/event/field/session/key, value out of range, bad payload_hex) gives one error
// diagnostic and the reader goes on with the next line, so all bad lines are reported.
EventsInput read_events(const SourceFile& file, const CheckedScript& script);

}  // namespace pfc::cli
