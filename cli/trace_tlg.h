// cli/trace_tlg.h — TraceLogging events in `pfc trace show` (docs/cli.md "trace show"):
// named and decoded from their own metadata with the TDH API (docs/etw.md "TraceLogging"),
// without any schema.
#pragma once

#include <string>

#include "pfc/etw/evntcons.h"

namespace pfc::cli {

struct TlgLine {
  std::string provider;  // the provider traits' name ("" when the event has none)
  std::string event;     // the event's name
  std::string fields;    // a JSON object: structures as objects, arrays as arrays
};

// Decodes `r` when it is a TraceLogging event (an EVENT_SCHEMA_TL item); false when it is
// not one or TDH cannot decode it (the line then shows the payload as hex).
bool decode_tlg(EVENT_RECORD& r, TlgLine& out);

}  // namespace pfc::cli
