// io/json_text.h — the JSON text every writer of events-file and output lines shares.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pfc::io {

// `s` as a JSON string literal (quotes included). Invalid UTF-8 becomes U+FFFD.
std::string json_quote(std::string_view s);

// Appends ["A","B"] (JSON strings) for the slots set in `mask`, in slot (= declaration)
// order; `names` maps slot → name.
void append_names(std::string& out, uint64_t mask, const std::vector<std::string>& names);

}  // namespace pfc::io
