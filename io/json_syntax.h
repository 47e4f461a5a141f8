// io/json_syntax.h — a readable, positioned message for JSON text the fast parser
// (simdjson) rejected: nlohmann::json's SAX parser re-reads the text (only on this error
// path) and names what it found where ("syntax error while parsing object key -
// unexpected '}'; expected string literal").
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace pfc::io {

struct JsonSyntaxError {
  size_t offset = 0;  // byte offset in the text of the last character read
  std::string message;
};

// The first syntax error in `text` (one JSON value), or nullopt when nlohmann accepts it.
// Control and non-ASCII bytes in the message become '?' (it quotes what it read).
std::optional<JsonSyntaxError> json_syntax_error(std::string_view text);

}  // namespace pfc::io
