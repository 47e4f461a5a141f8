// base/error.h — the internal-failure channel (docs/style.md §3): problems in the user's input
// are diagnostics (data); everything else that can fail returns Result<T>.
#pragma once

#include <expected>
#include <string>
#include <utility>

namespace pfc {

// An internal or environmental failure (JIT unavailable, file unreadable, limit hit by an
// API caller). `message` is one human-readable sentence without a trailing newline.
struct Error {
  std::string message;
};

template <typename T>
using Result = std::expected<T, Error>;

inline std::unexpected<Error> make_error(std::string message) {
  return std::unexpected<Error>(Error{std::move(message)});
}

}  // namespace pfc
