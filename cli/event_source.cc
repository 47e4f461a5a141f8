// cli/event_source.cc — format detection (open_event_source) and problem rendering.
#include "cli/event_source.h"

#include <algorithm>

#include "base/ascii.h"
#include "cli/limits.h"
#include "cli/source_parts.h"
#include "cli/term.h"
#include "grammar/source.h"
#include "pfc/capture.h"
#include "trace/logfile.h"

namespace pfc::cli {
namespace {

enum class Format : uint8_t { Capture, Log, JsonLines, JsonArray };

// Looks at the first bytes (reading more only while they are white space).
Result<Format> detect(ByteReader& reader) {
  auto head = reader.fill_to(kCaptureMagic.size());
  if (!head) return std::unexpected(head.error());
  const auto bytes = [&] {
    return std::span(reinterpret_cast<const uint8_t*>(reader.data().data()), reader.data().size());
  };
  if (is_capture(bytes())) return Format::Capture;
  if (trace::is_log_file(bytes().data(), bytes().size())) return Format::Log;
  for (size_t i = 0;; ++i) {
    if (i == reader.data().size()) {
      auto f = reader.fill(kMaxEventText);
      if (!f) return std::unexpected(f.error());
      if (*f != ByteReader::Fill::More) return Format::JsonLines;
    }
    const char c = reader.data()[i];
    if (!is_ascii_space(c)) return c == '[' ? Format::JsonArray : Format::JsonLines;
  }
}

}  // namespace

std::expected<std::unique_ptr<EventSource>, SourceProblem> open_event_source(
    const std::string& path, const CheckedScript& script) {
  auto reader = ByteReader::open(path);
  const auto io_problem = [&](const Error& e) {
    SourceProblem p;
    p.message = e.message;
    p.fatal = true;
    return std::unexpected(std::move(p));
  };
  if (!reader) return io_problem(reader.error());
  auto format = detect(*reader);
  if (!format) return io_problem(format.error());
  switch (*format) {
    case Format::Capture: return make_capture_source(std::move(*reader), script);
    case Format::Log: return make_log_source(std::move(*reader), path, script);
    case Format::JsonArray: return make_json_source(std::move(*reader), script, true);
    case Format::JsonLines: break;
  }
  return make_json_source(std::move(*reader), script, false);
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
