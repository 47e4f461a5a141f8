// io/event_source.cc — format detection and open_events (pfc/events.h).
#include <span>

#include "base/ascii.h"
#include "io/limits.h"
#include "io/source_parts.h"
#include "pfc/events.h"
#include "runtime/capture.h"
#include "trace/logfile.h"

namespace pfc {
namespace {

enum class Format : uint8_t { Capture, Log, JsonLines, JsonArray };

// Looks at the first bytes (reading more only while they are white space).
Result<Format> detect(io::ByteReader& reader) {
  auto head = reader.fill_to(kCaptureMagic.size());
  if (!head) return std::unexpected(head.error());
  const auto bytes = [&] {
    return std::span(reinterpret_cast<const uint8_t*>(reader.data().data()), reader.data().size());
  };
  if (is_capture(bytes())) return Format::Capture;
  if (trace::is_log_file(bytes().data(), bytes().size())) return Format::Log;
  for (size_t i = 0;; ++i) {
    if (i == reader.data().size()) {
      auto f = reader.fill(io::kMaxEventText);
      if (!f) return std::unexpected(f.error());
      if (*f != io::ByteReader::Fill::More) return Format::JsonLines;
    }
    const char c = reader.data()[i];
    if (!is_ascii_space(c)) return c == '[' ? Format::JsonArray : Format::JsonLines;
  }
}

std::expected<std::unique_ptr<EventSource>, SourceProblem> open_source(const std::string& path,
                                                                       const SourceSchema& schema) {
  auto reader = io::ByteReader::open(path);
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
    case Format::Capture: return io::make_capture_source(std::move(*reader), schema);
    case Format::Log: return io::make_log_source(std::move(*reader), path, schema);
    case Format::JsonArray: return io::make_json_source(std::move(*reader), schema, true);
    case Format::JsonLines: break;
  }
  return io::make_json_source(std::move(*reader), schema, false);
}

}  // namespace

std::unique_ptr<EventSource> open_events(const std::string& path, const SourceSchema& schema,
                                         SourceProblem* problem) {
  auto source = open_source(path, schema);
  if (source) return std::move(*source);
  *problem = std::move(source.error());
  return nullptr;
}

}  // namespace pfc
