// cli/trace_args.cc — the CLI11 structure of `pfc trace` (docs/cli.md "pfc trace"); the
// commands themselves are cli/trace_command.cc and cli/trace_show.cc.
#include "cli/trace_args.h"

#include "cli/help_text.h"

namespace pfc::cli {
namespace {

CLI::App* sub(CLI::App& trace, TraceOptions& o, const char* name, const char* what,
              const char* footer) {
  CLI::App* s = trace.add_subcommand(name, what);
  s->footer(footer);
  s->callback([&o, name] { o.action = name; });
  return s;
}

void add_name(CLI::App* s, TraceOptions& o) {
  s->add_option("NAME", o.name, "session name")->required();
}

void add_enable(CLI::App& trace, TraceOptions& o) {
  CLI::App* s = sub(trace, o, "enable", "Enable a provider for a session (EnableTraceEx2)",
                    kTraceEnableExamples);
  add_name(s, o);
  s->add_option("PROVIDER", o.provider,
                "{GUID}, or a name: looked up in --schema files, else its EventSource GUID");
  s->add_option("--level", o.level,
                "0-255 or critical, error, warning, info, verbose (default verbose)");
  s->add_option("--any", o.any, "MatchAnyKeyword (decimal or 0x…; default 0)");
  s->add_option("--all", o.all, "MatchAllKeyword (decimal or 0x…; default 0)");
  s->add_option("--pid", o.pids, "only these processes: P,... (at most 8; PID filter)");
  s->add_option("--exe", o.exes, "only these executables: NAME,... (EXECUTABLE_NAME filter)");
  s->add_option("--event-id", o.event_ids,
                "[not:]ID,...: only these event ids (not: first: all but them)");
  s->add_option("--property", o.properties,
                "EnableProperty flags: stack_trace, sid, ts_id, "
                "ignore_keyword_0, ... or a number");
  s->add_option("--script", o.script,
                "enable what the script's session enables, every filter kind included");
  s->add_option("--session", o.session, "with --script: the script's session (default NAME)");
  s->add_option("--schema", o.schemas,
                "filter script (.pfs) or manifest (.man) naming PROVIDER (repeatable)");
}

}  // namespace

void add_trace(CLI::App& app, TraceOptions& o) {
  CLI::App* trace =
      app.add_subcommand("trace",
                         "Control and read system-wide real-time and log-file sessions "
                         "(start, enable, show, stop ...)");
  trace->require_subcommand(1);
  trace->footer(kTraceExamples);
  CLI::App* start = sub(*trace, o, "start", "Start a real-time or log-file session (StartTraceW)",
                        kTraceStartExamples);
  add_name(start, o);
  start->add_flag("--realtime", o.realtime, "real-time delivery too (the default without --file)");
  start->add_option("--file", o.file, "write the events to this log file (docs/logfile.md)");
  start->add_option("--circular", o.circular,
                    "with --file: a circular log file of MB megabytes (the newest events)");
  start->add_option("--buffer-kb", o.buffer_kb, "BufferSize in KB (default 64)");
  start->add_option("--buffers", o.buffers,
                    "MaximumBuffers (each writing process gets "
                    "BufferSize × max(buffers, 128) of ring)");
  add_enable(*trace, o);
  CLI::App* disable =
      sub(*trace, o, "disable", "Disable a provider for a session", kTraceDisableExamples);
  add_name(disable, o);
  disable->add_option("PROVIDER", o.provider, "{GUID} or name (as for enable)")->required();
  disable->add_option("--schema", o.schemas,
                      "filter script (.pfs) or manifest (.man) naming PROVIDER (repeatable)");
  sub(*trace, o, "list", "Print every live session (one JSON object each)", kTraceListExamples);
  add_name(sub(*trace, o, "query", "Print a session's settings and counters (JSON)",
               kTraceQueryExamples),
           o);
  add_name(
      sub(*trace, o, "stop", "Stop a session; print its final counters (JSON)", kTraceStopExamples),
      o);
  CLI::App* show =
      sub(*trace, o, "show", "Print a session's or a log file's events as events-file lines",
          kTraceShowExamples);
  show->add_option("NAME|FILE", o.name,
                   "a session's name, or a log file (an existing file, or a path with a '/')");
  show->add_option("--session", o.session,
                   "show the session of this name (instead of NAME|FILE): for a name that "
                   "holds a '/' or names a file");
  show->add_option("--schema", o.schemas,
                   "filter script (.pfs) or manifest (.man) declaring providers: decoded "
                   "\"fields\" (adds to the schemas published with the enables; repeatable)");
  show->add_flag("--follow", o.follow,
                 "keep reading until the session stops (a file: is closed) or Ctrl-C");
  CLI::App* exp = sub(*trace, o, "export", "Write a log file as a CTF trace (babeltrace2 reads it)",
                      kTraceExportExamples);
  exp->add_option("FILE", o.name, "the log file")->required();
  exp->add_option("--format", o.format, "the trace format: ctf")->required();
  exp->add_option("-o,--output", o.output, "the directory to write (created if missing)")
      ->required();
  exp->add_option("--schema", o.schemas,
                  "filter script (.pfs) or manifest (.man) declaring providers: decoded fields "
                  "(adds to the file's schemas; repeatable)");
}

}  // namespace pfc::cli
