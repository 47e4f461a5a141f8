// compiler/regex_pred.cc — see regex_pred.h.
#include "compiler/regex_pred.h"

#include <span>

#include <re2/re2.h>

#include "base/utf8.h"
#include "runtime/tdh.h"

namespace pfc::internal {

RegexResult compile_regex(std::string_view pattern, bool case_sensitive) {
  RE2::Options options;
  options.set_encoding(RE2::Options::EncodingUTF8);
  options.set_case_sensitive(case_sensitive);
  options.set_log_errors(false);
  auto re = std::make_shared<const RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
  if (!re->ok()) return {nullptr, re->error(), re->error_arg()};
  return {std::move(re), {}};
}

}  // namespace pfc::internal

extern "C" int pfc_ir_pred_regex_next(const uint8_t* payload, uint64_t size, uint64_t off,
                                      uint32_t in_type, uint64_t length, const re2::RE2* re,
                                      uint64_t* next) {
  uint64_t end = 0;
  if (!pfc_tdh_string_bounds(payload, size, off, in_type, length, &end, next)) return 0;
  const auto* begin = reinterpret_cast<const char*>(payload + off);
  if (in_type == 2) return RE2::PartialMatch(re2::StringPiece(begin, end - off), *re) ? 1 : 0;
  thread_local std::string utf8;
  utf8.clear();
  pfc::utf16le_to_utf8(std::span<const uint8_t>(payload + off, end - off), utf8,
                       pfc::Unpaired::Replace);
  return RE2::PartialMatch(re2::StringPiece(utf8), *re) ? 1 : 0;
}
