// cli/limits.h — the input limits of the `pfc` command (docs/cli.md "Limits"). Each is
// enforced while reading, so no input of any size or content makes pfc hold more.
#pragma once

#include <cstdint>

namespace pfc::cli {

// The longest event text: one JSON Lines line, or one element of a JSON array. A valid
// event needs at most 32 MiB (a 16 MiB payload as "payload_hex") plus its other members.
inline constexpr uint64_t kMaxEventText = uint64_t{40} << 20;

// JSON values in one event text (counted as separators before it is parsed, for texts
// over 1 MiB): bounds the parser's memory for a line of tiny values to about 100 MB.
inline constexpr uint64_t kMaxEventValues = uint64_t{2} << 20;

// A capture record's payload (the encoder's bound on a payload, runtime/encode.h).
inline constexpr uint64_t kMaxCapturePayload = uint64_t{16} << 20;

// A capture's string table (executable paths), all strings together.
inline constexpr uint64_t kMaxCaptureStrings = uint64_t{64} << 20;

// Problems reported for one input (bad events of an events file, errors of a script)
// before pfc stops reporting them.
inline constexpr uint64_t kMaxInputProblems = 100;

}  // namespace pfc::cli
