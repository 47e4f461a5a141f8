// trace/names.h — the names of a namespace's per-process files (docs/namespace.md §1):
//   p-PID-START                   a process's applied-generation file
//   r-INSTANCE-PID-START          one session's ring for one writing process
//   c-INSTANCE-PID-START[-REST]   a consumer's marker (REST: its handle, or "host")
//   b-INSTANCE                    a file session host's doorbell (a FIFO)
// One formatter and one strict parser for all of them: decimal digits only (no sign,
// no whitespace, no leading '+'), PID within 32 bits, nothing after START but "-REST".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "trace/sys.h"

namespace pfc::trace {

struct ObjectName {
  std::optional<uint64_t> instance;  // absent for kind 'p'
  ProcessKey process;
  std::string_view rest;  // after "START-", empty when the name ends at START
};

// "<kind>-[<instance>-]<pid>-<start>[-<rest>]".
std::string object_name(char kind, std::optional<uint64_t> instance, const ProcessKey& process,
                        std::string_view rest = {});

// Parses what object_name writes for this kind (with an instance iff `with_instance`);
// nullopt for anything else. `rest` points into `name`.
std::optional<ObjectName> parse_object_name(std::string_view name, char kind, bool with_instance);

// "b-<instance>", and its parser (nullopt for anything else).
std::string bell_name(uint64_t instance);
std::optional<uint64_t> parse_bell_name(std::string_view name);

}  // namespace pfc::trace
