// io/log_source.cc — a trace log file (docs/logfile.md) as an EventSource: `pfc run SCRIPT
// --events FILE` filters a recording again offline. Read one buffer at a time through
// trace::LogReader (every length, count and CRC checked): from a file with pread (any
// mode), from standard input forward only (sequential files). An event of a provider the
// script does not declare is a non-fatal problem, as in JSON input; damage ends the input
// with a fatal problem after the events before it; a file that was never closed ends with
// a non-fatal problem saying so.
#include <fcntl.h>

#include <cstring>

#include "io/source_parts.h"
#include "runtime/tlg.h"
#include "trace/logfile.h"

namespace pfc::io {
namespace {

// Standard input (or any ByteReader) as a forward-only LogInput.
class StreamInput final : public trace::LogInput {
 public:
  explicit StreamInput(ByteReader& reader) : reader_(reader) {}
  Result<size_t> read_at(uint64_t offset, uint8_t* out, size_t n) override {
    if (offset < reader_.offset()) return make_error("cannot read backwards in a stream");
    while (reader_.offset() < offset) {  // skip the gap
      auto got = reader_.fill_to(1);
      if (!got) return std::unexpected(got.error());
      if (!*got) return size_t{0};
      reader_.consume(std::min<uint64_t>(reader_.data().size(), offset - reader_.offset()));
    }
    auto got = reader_.fill_to(n);
    if (!got) return std::unexpected(got.error());
    const size_t have = std::min(n, reader_.data().size());
    std::memcpy(out, reader_.data().data(), have);
    reader_.consume(have);
    return have;
  }
  bool seekable() const override { return false; }

 private:
  ByteReader& reader_;
};

class LogSource final : public EventSource {
 public:
  LogSource(ByteReader reader, const SourceSchema& script)
      : reader_(std::move(reader)), script_(script) {}

  std::optional<SourceProblem> open(const std::string& path) {
    std::unique_ptr<trace::LogInput> input;
    if (path != "-") {
      trace::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
      if (fd) input = trace::fd_input(std::move(fd));
    }
    if (input == nullptr) input = std::make_unique<StreamInput>(reader_);
    auto r = trace::LogReader::open(std::move(input), reader_.name());
    if (!r) return problem(r.error().message, true);
    log_.emplace(std::move(*r));
    return std::nullopt;
  }

  Step next(SourceEvent& event, SourceProblem& out) override {
    for (;;) {
      if (done_) return Step::End;
      trace::RingReader::View v;
      switch (log_->next(v)) {
        case trace::LogReader::Step::Event: break;
        case trace::LogReader::Step::End: done_ = true; return Step::End;
        case trace::LogReader::Step::Pending:
          if (log_->release_held()) continue;  // records held back for the merge come first
          done_ = true;
          out = *problem(log_->not_closed_warning(), false);
          return Step::Problem;
        case trace::LogReader::Step::Damaged:
          done_ = true;
          out = *problem(log_->problem(), true);
          return Step::Problem;
      }
      ++index_;
      if (fill(v, event, out)) return Step::Event;
      return Step::Problem;
    }
  }

  std::string_view unit() const override { return "record"; }
  uint64_t consumed() const override {
    return log_ ? log_->buffers_read() * uint64_t{log_->info().buffer_size} : 0;
  }
  std::optional<uint64_t> size() const override { return reader_.file_size(); }
  void set_before_read(std::function<void()> hook) override {
    reader_.set_before_read(std::move(hook));
  }

 private:
  std::optional<SourceProblem> problem(const std::string& message, bool fatal) const {
    SourceProblem p;
    p.message = message;  // the reader's text names the file
    p.fatal = fatal;
    return p;
  }

  bool fill(const trace::RingReader::View& v, SourceEvent& event, SourceProblem& out) {
    const trace::EventRecord& h = v.header;
    const ProviderDef* p = script_.schema.find_provider(h.provider);
    if (p == nullptr) {
      out = *problem(reader_.name() + ": record " + std::to_string(index_) + ": provider " +
                         h.provider.to_string() + " is not declared in the script",
                     false);
      return false;
    }
    event.provider = uint32_t(p - script_.schema.providers.data());
    const EventDescriptor d{h.id, h.version, h.channel, h.level, h.opcode, h.task, h.keyword};
    // A TraceLogging provider's declarations name fields, not a payload layout: its events
    // are printed undecoded (docs/language.md §3 "TraceLogging providers").
    event.def = p->tracelogging ? nullptr : p->find_event(d.id, d.version);
    name_ = event.def != nullptr ? event.def->name : std::string();
    event.view = EventView{};
    event.view.desc = d;
    event.view.payload = v.payload;
    event.view.payload_size = h.payload_len;
    // A TraceLogging record: its payload without the blobs behind it, named by its
    // metadata, as the provider routed it (runtime/tlg.h, docs/etw.md "TraceLogging").
    if (tlg::Split tl;
        (h.flags & tlg::kRecordFlag) != 0 && tlg::split(v.payload, h.payload_len, tl)) {
      event.view.payload_size = tl.payload_size;
      if (tl.meta_size != 0) {  // else a registration's traits alone (docs/etw.md)
        name_ = tlg::event_name(tl.meta, tl.meta_size);
        event.view.meta = tl.meta;
        event.view.meta_size = tl.meta_size;
        event.view.data_size = tl.payload_size;
      }
    }
    event.view.pid = h.pid;
    event.view.tid = h.tid;
    event.view.name = StrRef{name_.data(), name_.size()};
    event.exclude = 0;
    event.timestamp = static_cast<uint64_t>(h.filetime);
    event.where = index_;
    return true;
  }

  ByteReader reader_;
  const SourceSchema script_;  // a copy: the caller's may be a temporary
  std::optional<trace::LogReader> log_;
  std::string name_;
  uint64_t index_ = 0;
  bool done_ = false;
};

}  // namespace

std::expected<std::unique_ptr<EventSource>, SourceProblem> make_log_source(
    ByteReader reader, const std::string& path, const SourceSchema& script) {
  auto source = std::make_unique<LogSource>(std::move(reader), script);
  if (auto problem = source->open(path)) return std::unexpected(std::move(*problem));
  return source;
}

}  // namespace pfc::io
