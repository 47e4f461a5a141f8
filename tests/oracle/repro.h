// tests/oracle/repro.h — prints a routing case in pfc's external languages (docs/language.md,
// docs/cli.md): the spec as a `.pfs` script (session i = slot i; empty filler
// sessions keep the slots) and the events as JSON Lines with `payload_hex`, plus the
// expected `pfc run` output. Used by the fuzzers to print minimal reproducers and by
// tests/former_bugs to store them. Parts the script language cannot express (event-name
// and stack filters of the ETW API, event names that differ from the schema's) are
// written as `#` comments, so the reader sees them.
#pragma once

#include <string>
#include <vector>

#include "pfc/event.h"
#include "runtime/routing_program.h"

namespace pfc::repro {

// True when every part of `spec` and `events` has a script / JSON Lines spelling.
bool expressible(const ProgramSpec& spec, const std::vector<Event>& events);

std::string script(const ProgramSpec& spec);
std::string events_jsonl(const ProgramSpec& spec, const std::vector<Event>& events);
// One `pfc run` output line: {"seq":N,"sessions":["S0",...],"stack":[...]}.
std::string result_line(size_t seq, const RouteResult& r);

}  // namespace pfc::repro
