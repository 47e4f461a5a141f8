// etw/shared_compiler.h — the default engine of libpfc_etw (docs/etw.md "Engine"): routing
// programs compiled once per trace namespace by its compile service and shared by every
// process (docs/namespace.md "Compiled programs"). No compiler in the provider: a program
// routes with the interpreter from the start, and a background thread of the process (never
// the event path, EventRegister or an enable callback) fetches the program's native code from
// the namespace — asking the service for it first when it is not there — checks it and swaps
// it in. Any failure (no service, a compile error, a missing, truncated, corrupted, foreign-
// owned or mismatched file — refused, until the service replaces it —, a kernel that refuses
// to map the code) leaves the program on the interpreter, with the same decisions, counted
// in shared_code_status(). The Hyperscan databases of the program's string maps come from
// the namespace too, each compiled here when its serialised form fails a check.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "runtime/routing_program.h"

namespace pfc::etw {

// The compiler of the shared engine: programs no session enables are plain interpreters.
std::shared_ptr<ProgramCompiler> make_shared_compiler();

struct SharedCodeStatus {
  uint64_t requested = 0;    // programs that asked the namespace for native code
  uint64_t native = 0;       // of those, routing natively now or before they were retired
  uint64_t interpreted = 0;  // of those, kept on the interpreter for a reason
  std::string last_error;    // the latest reason, on one line ("" when none)
  // The string maps' Hyperscan databases of the programs that went native
  // (docs/namespace.md "Compiled programs"): deserialised from the namespace's
  // `prog-KEY.hsdb`, or compiled by this process — of those, `databases_refused` because
  // the file had no usable entry (missing, damaged, another Hyperscan version or
  // platform: `last_database_error` says why).
  uint64_t databases_loaded = 0;
  uint64_t databases_compiled = 0;
  uint64_t databases_refused = 0;
  std::string last_database_error;
};

// What this process's shared programs did so far.
SharedCodeStatus shared_code_status();

}  // namespace pfc::etw
