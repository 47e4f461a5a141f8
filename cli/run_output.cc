// cli/run_output.cc — the output modes of `pfc run` (cli/run_output.h).
#include "cli/run_output.h"

#include <chrono>
#include <cstdlib>
#include <unordered_map>

#include "base/hex.h"
#include "cli/counts.h"
#include "io/capture_sink.h"
#include "io/event_decode.h"

namespace pfc::cli {
namespace {

using io::CaptureSink;
using io::decode_fields;
using io::field_value_json;
using io::payload_hex;

// The contract's lines. Without --explain they are assembled in one reused buffer from
// session names quoted once (this is the hot path of `pfc run`); with it, by
// format_route_line.
class DecisionsOutput final : public RunOutput {
 public:
  DecisionsOutput(const std::vector<std::string>& sessions, OutputFile& out)
      : sessions_(sessions), out_(out) {
    for (const std::string& name : sessions) quoted_.push_back(json_quote(name));
  }
  Result<void> event(uint64_t seq, const SourceEvent&, const RouteResult& r,
                     const std::vector<Rejection>* why) override {
    if (why != nullptr) {
      out_.write(format_route_line(seq, sessions_, r, why));
      return {};
    }
    line_ = "{\"seq\":";
    line_ += std::to_string(seq);
    line_ += ",\"sessions\":";
    append_names(r.deliver);
    line_ += ",\"stack\":";
    append_names(r.stack);
    line_ += "}\n";
    out_.write(line_);
    return {};
  }
  Result<void> finish() override { return {}; }

 private:
  void append_names(uint64_t mask) {
    line_ += '[';
    for (uint64_t m = mask; m != 0; m &= m - 1) {
      const size_t slot = size_t(__builtin_ctzll(m));
      if (slot >= quoted_.size()) break;
      if (m != mask) line_ += ',';
      line_ += quoted_[slot];
    }
    line_ += ']';
  }

  const std::vector<std::string>& sessions_;
  OutputFile& out_;
  std::vector<std::string> quoted_;  // by slot
  std::string line_;
};

// The selected events as events-file lines (docs/cli.md "Output"): a JSON Lines event's
// line as it came (SourceEvent::text, then '\n'), every other event re-encoded by
// events_file_line (pfc/events.h). `reencode` re-encodes every event: the tests' way of comparing
// the two (make_run_output).
class EventsOutput final : public RunOutput {
 public:
  EventsOutput(const CheckedScript& script, const std::vector<std::string>& sessions,
               uint64_t selected, bool reencode, OutputFile& out)
      : schema_{script.schema, sessions}, selected_(selected), reencode_(reencode), out_(out) {}
  Result<void> event(uint64_t, const SourceEvent& e, const RouteResult& r,
                     const std::vector<Rejection>*) override {
    if ((r.deliver & selected_) == 0) return {};
    if (e.text.empty() || reencode_) {
      out_.write(events_file_line(schema_, e));
      return {};
    }
    out_.write(e.text);
    out_.write("\n");
    return {};
  }
  Result<void> finish() override { return {}; }

 private:
  const SourceSchema schema_;
  uint64_t selected_;
  bool reencode_;
  OutputFile& out_;
};

// RFC 4180 quoting: a cell holding ',', '"', CR or LF is quoted, quotes doubled.
std::string csv_cell(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

std::string csv_value(const FieldValue& v) {
  if (v.kind == FieldValue::Kind::String) return csv_cell(v.string_value);
  if (v.kind == FieldValue::Kind::Guid) return v.guid_value.to_string();
  return csv_cell(field_value_json(v));
}

// Field columns: every field name of the schema once, in declaration order.
struct CsvColumns {
  std::vector<std::string> names;
  std::unordered_map<const EventDef*, std::vector<size_t>> column_of;  // field index → column
};

CsvColumns csv_columns(const CheckedScript& script) {
  CsvColumns c;
  std::unordered_map<std::string, size_t> index;
  for (const ProviderDef& p : script.schema.providers) {
    for (const EventDef& e : p.events) {
      std::vector<size_t>& cols = c.column_of[&e];
      for (const FieldDef& f : e.fields) {
        auto [it, added] = index.try_emplace(f.name, c.names.size());
        if (added) c.names.push_back(f.name);
        cols.push_back(it->second);
      }
    }
  }
  return c;
}

class CsvOutput final : public RunOutput {
 public:
  CsvOutput(const CheckedScript& script, const std::vector<std::string>& sessions, OutputFile& out)
      : script_(script), sessions_(sessions), out_(out), columns_(csv_columns(script)) {
    out_.write(csv_header(script));
  }
  Result<void> event(uint64_t seq, const SourceEvent& e, const RouteResult& r,
                     const std::vector<Rejection>*) override {
    std::string row =
        std::to_string(seq) + ',' + csv_cell(script_.schema.providers[e.provider].name) + ',';
    if (e.def != nullptr) row += csv_cell(e.def->name);
    row += ',';
    bool first = true;
    std::string names;
    for (size_t slot = 0; slot < sessions_.size() && slot < 64; ++slot) {
      if ((r.deliver >> slot & 1) == 0) continue;
      if (!first) names += ';';
      first = false;
      names += sessions_[slot];
    }
    row += csv_cell(names);
    std::vector<std::string> cells(columns_.names.size() + 1);
    const auto fields = e.def != nullptr ? decode_fields(*e.def, e.view) : std::nullopt;
    if (fields) {
      const std::vector<size_t>& cols = columns_.column_of.at(e.def);
      for (size_t i = 0; i < fields->size(); ++i) cells[cols[i]] = csv_value((*fields)[i].second);
    } else {
      cells.back() = payload_hex(e.view);
    }
    for (const std::string& c : cells) row += ',' + c;
    out_.write(row + '\n');
    return {};
  }
  Result<void> finish() override { return {}; }

 private:
  const CheckedScript& script_;
  const std::vector<std::string>& sessions_;
  OutputFile& out_;
  CsvColumns columns_;
};

class CaptureOutput final : public RunOutput {
 public:
  CaptureOutput(CaptureSink sink, uint64_t selected)
      : sink_(std::move(sink)), selected_(selected) {}
  Result<void> event(uint64_t, const SourceEvent& e, const RouteResult& r,
                     const std::vector<Rejection>*) override {
    if ((r.deliver & selected_) == 0) return {};
    return sink_.add(uint16_t(e.provider), e.view, e.timestamp);
  }
  Result<void> finish() override { return sink_.finish(); }

 private:
  CaptureSink sink_;
  uint64_t selected_;
};

class CountOutput final : public RunOutput {
 public:
  CountOutput(const std::vector<std::string>& sessions, std::string engine, OutputFile& out)
      : sessions_(sessions), engine_(std::move(engine)), out_(out), counts_(sessions.size()),
        start_(std::chrono::steady_clock::now()) {}
  Result<void> event(uint64_t, const SourceEvent&, const RouteResult& r,
                     const std::vector<Rejection>*) override {
    counts_.add(r);
    return {};
  }
  Result<void> finish() override {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    out_.write(format_counts(counts_, sessions_, engine_, seconds));
    return {};
  }

 private:
  const std::vector<std::string>& sessions_;
  std::string engine_;
  OutputFile& out_;
  RouteCounts counts_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

std::string csv_header(const CheckedScript& script) {
  std::string out = "seq,provider,event,sessions";
  for (const std::string& name : csv_columns(script).names) out += ',' + csv_cell(name);
  return out + ",payload_hex\n";
}

Result<std::unique_ptr<RunOutput>> make_run_output(const RunOutputOptions& o,
                                                   const CheckedScript& script,
                                                   const std::vector<std::string>& sessions,
                                                   OutputFile& out) {
  switch (o.mode) {
    case OutputMode::Decisions: return std::make_unique<DecisionsOutput>(sessions, out);
    case OutputMode::Events:
      return std::make_unique<EventsOutput>(script, sessions, o.selected,
                                            std::getenv(kReencodeEventsVar) != nullptr, out);
    case OutputMode::Csv: return std::make_unique<CsvOutput>(script, sessions, out);
    case OutputMode::Count: return std::make_unique<CountOutput>(sessions, o.engine, out);
    case OutputMode::Capture: break;
  }
  std::vector<Guid> guids;
  guids.reserve(script.schema.providers.size());
  for (const ProviderDef& p : script.schema.providers) guids.push_back(p.guid);
  auto sink = CaptureSink::open(out, std::move(guids));
  if (!sink) return std::unexpected(sink.error());
  return std::make_unique<CaptureOutput>(std::move(*sink), o.selected);
}

}  // namespace pfc::cli
