// cli/help_text.h — the footers of `pfc --help` and `pfc COMMAND --help`: examples and
// exit codes (docs/cli.md has the same examples).
#pragma once

namespace pfc::cli {

inline constexpr const char* kMainFooter =
    "Examples:\n"
    "  pfc check trace.pfs\n"
    "  pfc run trace.pfs --events events.jsonl\n"
    "  pfc gen trace.pfs --count 1000000 --seed 1 -o big.cap && pfc run trace.pfs --events big.cap "
    "--count\n"
    "\n"
    "Run 'pfc COMMAND --help' for a command's options. Exit codes: 0 success, 1 errors in the "
    "script or input files (or a failed write), 2 usage errors, 3 internal errors.";

// `pfc mc --help` (mc's options are parsed by parse_mc_args, not CLI11).
inline constexpr const char* kMcHelp =
    "Write the header mc.exe -um generates for an instrumentation manifest\n"
    "Usage: pfc mc -um [-h DIR] [-z BASENAME] MANIFEST.man\n"
    "\n"
    "Options:\n"
    "  -um           user-mode code (required; the only mode)\n"
    "  -h DIR        directory of the header (default: the current directory)\n"
    "  -z BASENAME   the header is BASENAME.h (default: the manifest's name without extension)\n"
    "\n"
    "Examples:\n"
    "  pfc mc -um provider.man                   writes ./provider.h\n"
    "  pfc mc -um -h gen -z etw_events app.man   writes gen/etw_events.h";

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

inline constexpr const char* kTraceExamples =
    "Examples:\n"
    "  pfc trace start MyTrace [--file rec.etl]\n"
    "  pfc trace enable MyTrace Example-Provider --level verbose --any 0x10 --pid 4242\n"
    "  pfc trace show MyTrace --follow --schema trace.pfs | pfc run trace.pfs --events -\n"
    "  pfc trace query MyTrace\n"
    "  pfc trace stop MyTrace\n"
    "Run 'pfc trace SUBCOMMAND --help' for a subcommand's options.";

inline constexpr const char* kTraceStartExamples =
    "Examples:\n"
    "  pfc trace start MyTrace                     a real-time session\n"
    "  pfc trace start Big --buffer-kb 256 --buffers 64\n"
    "  pfc trace start Rec --file rec.etl           a sequential log file\n"
    "  pfc trace start Ring --file ring.etl --circular 64   the newest 64 MB\n"
    "  pfc trace start Both --file rec.etl --realtime       file and real-time\n"
    "Prints the session as 'pfc trace query' does.";

inline constexpr const char* kTraceEnableExamples =
    "Examples:\n"
    "  pfc trace enable MyTrace Example-Provider --level info\n"
    "  pfc trace enable MyTrace {0E95CFBC-58D4-44BA-BE40-E63A853536DF} --any 0x3 --all 0x1\n"
    "  pfc trace enable MyTrace Example-Provider --pid 100,200 --exe app.exe,svc.exe\n"
    "  pfc trace enable MyTrace Example-Provider --event-id not:7,8 --property stack_trace\n"
    "  pfc trace enable MyTrace Example-Provider --schema Example.man   the manifest's GUID\n"
    "  pfc trace enable MyTrace --script trace.pfs                 session MyTrace's enables\n"
    "  pfc trace enable Live --script trace.pfs --session MyTrace  ... applied to Live\n"
    "With --script, every filter of the enable (payload 'where' expressions included) is\n"
    "applied by the provider processes, and the script's schemas are published for 'show'.\n"
    "Prints the session as 'pfc trace query' does.";

inline constexpr const char* kTraceDisableExamples =
    "Examples:\n"
    "  pfc trace disable MyTrace Example-Provider\n"
    "  pfc trace disable MyTrace {37A59B93-BB25-4CEE-97AA-8B6ACD0C4DF8}";

inline constexpr const char* kTraceListExamples =
    "Examples:\n"
    "  pfc trace list          one JSON object per live session";

inline constexpr const char* kTraceProgramsExamples =
    "Examples:\n"
    "  pfc trace programs\n"
    "  {\"key\":\"3f…\",\"provider\":\"{…}\",\"bytes\":20480,\"compile_us\":41230,"
    "\"processes\":64,\"state\":\"ready\"}";

inline constexpr const char* kTraceQueryExamples =
    "Examples:\n"
    "  pfc trace query MyTrace\n"
    "  {\"name\":\"MyTrace\",\"file\":null,\"realtime\":true,\"providers\":[\"{…}\"],\"events\":12,"
    "\"events_lost\":0,\"buffers_written\":0,\"log_buffers_lost\":0,\"realtime_buffers_lost\":0}";

inline constexpr const char* kTraceStopExamples =
    "Examples:\n"
    "  pfc trace stop MyTrace     stops it; prints its final counters as 'query' does";

inline constexpr const char* kTraceShowExamples =
    "Examples:\n"
    "  pfc trace show MyTrace                       what the session holds, then exit\n"
    "  pfc trace show MyTrace --follow              until the session stops or Ctrl-C\n"
    "  pfc trace show MyTrace --schema trace.pfs    decoded \"fields\" for known events\n"
    "  pfc trace show MyTrace --schema Example.man  ... from a manifest\n"
    "  pfc trace show MyTrace --follow | pfc run trace.pfs --events -\n"
    "  pfc trace show rec.etl                       a log file (any existing file is one)\n"
    "  pfc trace show rec.etl --follow              a log file still being written\n"
    "  pfc trace show --session a/b                 a session whose name holds a '/'\n"
    "Schemas published by 'pfc trace enable --script' decode without --schema.";

inline constexpr const char* kTraceExportExamples =
    "Examples:\n"
    "  pfc trace export rec.etl --format ctf -o rec.ctf   then: babeltrace2 rec.ctf\n"
    "  pfc trace export rec.etl --format ctf -o rec.ctf --schema Example.man\n"
    "Event names and typed fields come from the schemas, as in 'pfc trace show'.";

}  // namespace pfc::cli
