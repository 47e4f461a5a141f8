// cli/help_text.h — the footers of `pfc --help` and `pfc COMMAND --help`: examples and
// exit codes (docs/cli.md has the same examples).
#pragma once

namespace pfc::cli {

inline constexpr const char* kMainFooter =
    "Examples:\n"
    "  pfc check trace.pfs\n"
    "  pfc run trace.pfs --events events.jsonl\n"
    "  pfc gen trace.pfs --count 1000000 --seed 1 -o big.cap && pfc run trace.pfs --events big.cap --count\n"
    "\n"
    "Run 'pfc COMMAND --help' for a command's options. Exit codes: 0 success, 1 errors in the "
    "script or input files (or a failed write), 2 usage errors, 3 internal errors.";

inline constexpr const char* kCheckExamples =
    "Examples:\n"
    "  pfc check trace.pfs                       diagnostics only; exit 0 when clean\n"
    "  pfc check trace.pfs --events e.jsonl      also check every event of e.jsonl\n"
    "  generate-script | pfc check -             the script from standard input";

inline constexpr const char* kRunExamples =
    "Examples:\n"
    "  pfc run trace.pfs --events e.jsonl                     one decision line per event\n"
    "  pfc run trace.pfs --events e.jsonl --explain           ... and why sessions rejected it\n"
    "  tail -f e.jsonl | pfc run trace.pfs --events -         streaming from standard input\n"
    "  pfc run trace.pfs --events big.cap --count             per-session totals, events/s\n"
    "  pfc run trace.pfs --events e.jsonl --output events --session A > a.jsonl\n"
    "                                                         pfc as a filter: A's events\n"
    "  pfc run trace.pfs --events big.cap --output csv -o out.csv\n"
    "  pfc run trace.pfs --events big.cap --output capture -o matched.cap";

inline constexpr const char* kGenExamples =
    "Examples:\n"
    "  pfc gen trace.pfs --count 1000000 --seed 1 -o big.cap\n"
    "  pfc gen trace.pfs --count 1000 --seed 7 --match-rate 0.25 -o quarter.cap\n"
    "  pfc gen trace.pfs --count 50000000 --seed 1 -o - | pfc run trace.pfs --events - --count";

inline constexpr const char* kStateExamples =
    "Examples:\n"
    "  pfc state trace.pfs         one JSON line per provider: level, keywords, sessions";

inline constexpr const char* kCompileExamples =
    "Examples:\n"
    "  pfc compile trace.pfs --emit ir     the routing program of each enabled provider\n"
    "  pfc compile trace.pfs --emit asm    the JIT's machine code";

}  // namespace pfc::cli
