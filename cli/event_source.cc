// cli/event_source.cc — the sources opened against a script, and problem rendering.
#include "cli/event_source.h"

#include <algorithm>

#include "cli/term.h"
#include "grammar/source.h"

namespace pfc::cli {

SourceSchema source_schema(const CheckedScript& script) {
  SourceSchema out{script.schema, {}};
  for (const SessionDecl& s : script.sessions) out.sessions.push_back(s.name);
  return out;
}

std::expected<std::unique_ptr<EventSource>, SourceProblem> open_event_source(
    const std::string& path, const CheckedScript& script) {
  SourceProblem problem;
  auto source = open_events(path, source_schema(script), &problem);
  if (!source) return std::unexpected(std::move(problem));
  return source;
}

std::string render_problem(const SourceProblem& p, bool color) {
  const Paint paint(color);
  if (p.line == 0) {
    std::string out = paint.bold("pfc: ") + paint.error("error:") + " ";
    if (!p.file.empty()) out += p.file + ": ";
    return out + p.message + "\n";
  }
  std::string out =
      paint.bold(p.file + ":" + std::to_string(p.line) + ":" + std::to_string(p.column) + ":") +
      " " + paint.error("error:") + " " + paint.bold(p.message) + "\n";
  // The echoed line and caret come from the script renderer (one definition of how lines
  // are shown): render a one-line file and keep everything after its header line.
  const SourceFile echo(p.file, p.echo);
  Diagnostic d{Severity::Error,
               SourcePos{1, uint32_t(std::min<uint64_t>(p.echo_column, ~uint32_t{0})), 0},
               p.message};
  const std::string rendered = echo.render(d);
  const size_t body = rendered.find('\n') + 1;
  const size_t caret = rendered.rfind('\n', rendered.size() - 2) + 1;
  out += rendered.substr(body, caret - body);
  out += paint.caret(rendered.substr(caret, rendered.size() - 1 - caret)) + "\n";
  return out;
}

}  // namespace pfc::cli
