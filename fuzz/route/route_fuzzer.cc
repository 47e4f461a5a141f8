// fuzz/route/route_fuzzer.cc — structure-aware differential routing: FuzzedDataProvider
// drives tests/oracle/gen.h to build a provider schema (every field type, arrays, counts
// and lengths from fields), sessions with every filter kind and payload expressions, and
// events (valid, truncated, corrupted, garbage payloads). The reference interpreter, the
// JIT at O0 and at the default level, and the independent oracle must agree on the deliver
// and stack masks of every event. A disagreement prints a minimized reproducer (script.pfs
// + events.jsonl + the oracle's expected output; files too with PFC_FUZZ_REPRO_DIR) and
// aborts. Disagreements explained by a known finding (crosscheck.h) are not reported.
// PFC_FUZZ_NO_JIT=1 skips the JIT (faster: interpreter vs oracle only).
#include <cstdlib>

#include "common/fdp_entropy.h"
#include "common/repro_out.h"
#include "tests/oracle/crosscheck.h"

namespace {

bool jit_enabled() {
  static const bool on = std::getenv("PFC_FUZZ_NO_JIT") == nullptr;
  return on;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;  // budget: larger inputs only make larger cases, not new ones
  FuzzedDataProvider fdp(data, size);
  pfc::fuzz::FdpEntropy entropy(fdp);
  pfc::gen::Limits limits;
  limits.legacy_quirks = true;  // legacy sessions with all/properties (former bug F1)
  const pfc::gen::Case c = pfc::gen::generate(entropy, limits);
  const pfc::gen::EngineSet engines{true, jit_enabled(), jit_enabled()};
  if (pfc::gen::crosscheck(c, engines).agree) return 0;  // the common case: no minimizing
  const pfc::gen::Verdict v = pfc::gen::crosscheck_and_explain(c, engines);
  pfc::fuzz::report_mismatch(v.what.substr(0, v.what.find('\n')), v.minimized.spec,
                             v.minimized.events, v.oracle);
  std::abort();
}
