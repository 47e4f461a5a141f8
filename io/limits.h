// io/limits.h — the input limits of the events-file sources (docs/cli.md "Limits"). Each is
// enforced while reading, so no input of any size or content makes a source hold more. The
// capture limits are the capture format's own (runtime/capture.h), applied by every reader.
#pragma once

#include <cstdint>

namespace pfc::io {

// The longest event text: one JSON Lines line, or one element of a JSON array. A valid
// event needs at most 32 MiB (a 16 MiB payload as "payload_hex") plus its other members.
inline constexpr uint64_t kMaxEventText = uint64_t{40} << 20;

// JSON values in one event text (counted as separators before it is parsed, for texts
// over 1 MiB): bounds the parser's memory for a line of tiny values to about 100 MB.
inline constexpr uint64_t kMaxEventValues = uint64_t{2} << 20;

}  // namespace pfc::io
