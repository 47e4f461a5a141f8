// examples/filter_events.cc — the events library with the filter API (docs/embedding.md
// "Reading and writing events"): reads an events file (JSON Lines, a JSON array, a capture
// or a log file), routes every event through a compiled filter script and writes each
// event some session receives to OUT as an events-file line (as `pfc run --output events`
// does) or, when OUT ends in ".cap", into a binary capture.
//
//   filter_events SCRIPT EVENTS [OUT]     (EVENTS "-" = standard input; OUT: standard output)
//
// Exit status: 0, 1 when the script or the events file is bad or OUT cannot be written,
// 2 for usage.
#include <pfc/events.h>
#include <pfc/filter.h>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::fputs("usage: filter_events SCRIPT EVENTS [OUT]\n", stderr);
    return 2;
  }
  pfc::FilterOptions options;
  options.engine = pfc::Engine::Interp;  // a short run: no native code needed
  pfc::CompileResult compiled = pfc::Filter::compile_file(argv[1], options);
  if (!compiled.ok()) {
    std::fputs(compiled.report.c_str(), stderr);
    std::fprintf(stderr, "%s\n", compiled.status.message().c_str());
    return 1;
  }
  const pfc::Filter& filter = *compiled.filter;

  // The schema events are resolved against: the filter's providers, in its order (so an
  // event's provider index is the filter's), and the script's session names for "exclude".
  pfc::Schema schema;
  for (size_t i = 0; i < filter.provider_count(); ++i)
    schema.providers.push_back(filter.provider(i));
  const pfc::SourceSchema source_schema{schema, filter.session_names()};

  pfc::SourceProblem problem;
  std::unique_ptr<pfc::EventSource> source = pfc::open_events(argv[2], source_schema, &problem);
  if (source == nullptr) {
    std::fprintf(stderr, "%s: %s\n", problem.file.c_str(), problem.message.c_str());
    return 1;
  }
  const std::string out = argc == 4 ? argv[3] : "-";
  const auto format =
      out.ends_with(".cap") ? pfc::EventSink::Format::Capture : pfc::EventSink::Format::EventsFile;
  std::string error;
  std::unique_ptr<pfc::EventSink> sink = pfc::open_sink(out, format, source_schema, &error);
  if (sink == nullptr) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  int status = 0;
  pfc::SourceEvent event;
  for (;;) {
    const pfc::EventSource::Step step = source->next(event, problem);
    if (step == pfc::EventSource::Step::End) break;
    if (step == pfc::EventSource::Step::Problem) {  // a bad event (skipped), or the end
      std::fprintf(stderr, "%s:%llu:%llu: %s\n", problem.file.c_str(),
                   static_cast<unsigned long long>(problem.line),
                   static_cast<unsigned long long>(problem.column), problem.message.c_str());
      status = 1;
      continue;
    }
    const pfc::RouteResult r = filter.route(event.provider, event.view, event.exclude);
    if (r.deliver != 0 && !sink->write(event)) break;
  }
  if (!sink->finish()) {
    std::fprintf(stderr, "%s\n", sink->error().c_str());
    return 1;
  }
  return status;
}
