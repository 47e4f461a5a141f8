// io/event_sink.cc — EventSink (pfc/events.h): events-file lines or a capture, written
// through an OutputFile (io/output_file.h) and, for a capture, a CaptureSink
// (io/capture_sink.h).
#include <optional>

#include "io/capture_sink.h"
#include "io/output_file.h"
#include "pfc/events.h"

namespace pfc {
namespace {

class FileSink final : public EventSink {
 public:
  FileSink(io::OutputFile out, const SourceSchema& schema)
      : out_(std::move(out)), schema_(schema) {}

  // For a capture: the provider table (capture index = schema index). Fails for too many.
  Result<void> start_capture() {
    std::vector<Guid> guids;
    guids.reserve(schema_.schema.providers.size());
    for (const ProviderDef& p : schema_.schema.providers) guids.push_back(p.guid);
    auto sink = io::CaptureSink::open(out_, std::move(guids));
    if (!sink) return std::unexpected(sink.error());
    capture_.emplace(std::move(*sink));
    return {};
  }

  bool write(const SourceEvent& e) override {
    if (!error_.empty()) return false;
    if (capture_) {
      if (auto added = capture_->add(uint16_t(e.provider), e.view, e.timestamp); !added)
        return fail(added.error().message);
    } else {
      out_.write(events_file_line(schema_, e));
    }
    return !out_.failed() || fail(out_.error_message());
  }

  bool finish() override {
    if (!error_.empty()) return false;
    if (capture_) {
      if (auto done = capture_->finish(); !done) return fail(done.error().message);
    }
    return out_.close() || fail(out_.error_message());
  }

  std::string error() const override { return error_; }

 private:
  bool fail(std::string message) {
    error_ = message.empty() ? "cannot write " + out_.name() + ": the reader closed the pipe"
                             : std::move(message);
    return false;
  }

  io::OutputFile out_;  // before capture_, which writes to it
  const SourceSchema schema_;
  std::optional<io::CaptureSink> capture_;
  std::string error_;
};

}  // namespace

std::unique_ptr<EventSink> open_sink(const std::string& path, EventSink::Format format,
                                     const SourceSchema& schema, std::string* error) {
  auto out = io::OutputFile::open(path);
  if (!out) {
    *error = out.error().message;
    return nullptr;
  }
  auto sink = std::make_unique<FileSink>(std::move(*out), schema);
  if (format == EventSink::Format::Capture) {
    if (auto started = sink->start_capture(); !started) {
      *error = started.error().message;
      return nullptr;
    }
  }
  return sink;
}

}  // namespace pfc
