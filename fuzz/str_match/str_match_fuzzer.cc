// fuzz/str_match/str_match_fuzzer.cc — mask.strs's matcher (compiler/str_match.h) against
// each pattern tested on its own: up to 64 patterns of every pattern operator (texts the
// checker would reject skipped) with arbitrary session masks, on an arbitrary string field
// (UTF-16 or 8-bit, with or without a length: unpaired surrogates, invalid UTF-8, embedded
// NULs, truncation). pfc_ir_mask_strs_next (the JIT's helper) must return exactly what
// pfc_ir_mask_strs_each (the interpreter's) returns, with the same end offset.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "compiler/lower_payload.h"
#include "compiler/str_match.h"
#include "runtime/tdh.h"

namespace {

constexpr pfc::PayloadOp kOps[] = {
    pfc::PayloadOp::Contains,   pfc::PayloadOp::StartsWith,   pfc::PayloadOp::EndsWith,
    pfc::PayloadOp::Is,         pfc::PayloadOp::Matches,      pfc::PayloadOp::Regex,
    pfc::PayloadOp::ContainsCs, pfc::PayloadOp::StartsWithCs, pfc::PayloadOp::EndsWithCs,
    pfc::PayloadOp::IsCs,       pfc::PayloadOp::MatchesCs,    pfc::PayloadOp::RegexCs};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  FuzzedDataProvider fdp(data, size);
  std::vector<pfc::ir::StrPred> preds;
  pfc::ir::StrMap map;
  const size_t n = fdp.ConsumeIntegralInRange<size_t>(1, 64);
  for (size_t i = 0; i < n && fdp.remaining_bytes() > 0; ++i) {
    const pfc::PayloadOp op = fdp.PickValueInArray(kOps);
    auto pred = pfc::internal::string_pred(op, fdp.ConsumeRandomLengthString(12));
    if (!pred) continue;
    preds.push_back(std::move(*pred));
    map.preds.push_back(static_cast<uint32_t>(preds.size() - 1));
    map.masks.push_back(fdp.ConsumeIntegral<uint64_t>());
  }
  map.base = fdp.ConsumeIntegral<uint64_t>() & 0xF;
  const uint32_t in_type = fdp.ConsumeBool() ? 1 : 2;
  const uint64_t length =
      fdp.ConsumeBool() ? PFC_TDH_NO_LENGTH : fdp.ConsumeIntegralInRange<uint64_t>(0, 80);
  const std::vector<uint8_t> payload = fdp.ConsumeRemainingBytes<uint8_t>();
  map.matcher = pfc::internal::StrMatcher::build(map, preds);
  uint64_t next_each = 0, next_scan = 0;
  const uint64_t each = pfc_ir_mask_strs_each(payload.data(), payload.size(), 0, in_type, length,
                                              &map, preds.data(), &next_each);
  const uint64_t scan =
      pfc_ir_mask_strs_next(payload.data(), payload.size(), 0, in_type, length, &map, &next_scan);
  if (each != scan || next_each != next_scan) {
    std::fprintf(stderr, "str_match_fuzzer: mismatch: each %#llx next %llu, scan %#llx next %llu\n",
                 static_cast<unsigned long long>(each), static_cast<unsigned long long>(next_each),
                 static_cast<unsigned long long>(scan), static_cast<unsigned long long>(next_scan));
    for (size_t i = 0; i < map.preds.size(); ++i)
      std::fprintf(stderr, "  pattern %zu: op %u \"%s\" mask %#llx\n", i,
                   static_cast<unsigned>(preds[map.preds[i]].op), preds[map.preds[i]].text.c_str(),
                   static_cast<unsigned long long>(map.masks[i]));
    std::abort();
  }
  return 0;
}
