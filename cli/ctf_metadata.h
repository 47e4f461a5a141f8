// cli/ctf_metadata.h — the TSDL text of a CTF 1.8 trace written by cli/ctf_writer.h: the
// trace, clock, stream and event-class declarations (docs/logfile.md "Viewing with
// babeltrace2"). The byte layout these declarations describe is the writer's; both follow
// the same table.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pfc/schema.h"

namespace pfc::cli {

// The clock: ns since 1970-01-01 UTC (the log file's FILETIME stamps converted exactly).
inline constexpr uint64_t kCtfClockHz = 1000000000;
// The packet header's magic (CTF 1.8).
inline constexpr uint32_t kCtfMagic = 0xC1FC1FC1;

struct CtfEventClass {
  std::string name;    // shown by viewers: PROVIDER:EVENT, PROVIDER:id=N,version=V
  std::string fields;  // the TSDL members of its payload struct ("" when none)
};

// The payload members of a typed class for `def` (field names per ctf_identifier, made
// unique with _2, _3, ...; count and length members before the arrays and binaries).
std::string ctf_typed_fields(const EventDef& def);
// The payload members of a raw class: u32 payload_length, u8 payload[payload_length].
std::string ctf_raw_fields();

// The whole metadata file: classes[i] has id i; `uuid` is the trace's; `source` (the log
// file's path) goes into the environment.
std::string ctf_metadata(const std::array<uint8_t, 16>& uuid, std::string_view source,
                         const std::vector<CtfEventClass>& classes);

// `text` as a TSDL string literal (quoted; '"' and '\' escaped, control characters as
// \xHH).
std::string tsdl_quote(std::string_view text);

}  // namespace pfc::cli
