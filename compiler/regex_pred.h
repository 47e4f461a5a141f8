// compiler/regex_pred.h — the `regex` / `regex.cs` payload predicates (docs/language.md §3.1):
// RE2 (linear-time, no backtracking) compiled once when a program is built and called by
// both engines through one extern "C" helper (the JIT registers it as an absolute symbol).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace pfc::internal {

struct RegexResult {
  std::shared_ptr<const re2::RE2> re;  // null on error
  std::string error;                   // RE2's message, e.g. "missing ): (a"
  std::string error_arg;               // the offending part of the pattern (RE2's error_arg)
};

// Compiles an RE2 pattern (UTF-8; case-insensitive unless `case_sensitive`; unanchored:
// the predicate holds when the pattern matches anywhere in the string). Never logs.
RegexResult compile_regex(std::string_view pattern, bool case_sensitive);

}  // namespace pfc::internal

extern "C" {

// Whether `re` matches the string field at `off` (in_type 1 = UTF-16LE, converted to UTF-8
// with unpaired surrogates as U+FFFD; 2 = 8-bit text, given to RE2 as is): 1 or 0. Returns
// 0 when the field cannot be decoded. *next receives what pfc_tdh_skip returns for the field (as
// pfc_tdh_str_pred_next). UTF-16 fields are converted into a per-thread buffer.
int pfc_ir_pred_regex_next(const uint8_t* payload, uint64_t size, uint64_t off, uint32_t in_type,
                           uint64_t length, const re2::RE2* re, uint64_t* next);
}
