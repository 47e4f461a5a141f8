// tests/io/events_test.cc — the events library through its public header (pfc/events.h):
// every format read back (JSON Lines, JSON array, capture, log file), every input limit
// (io/limits.h, the capture format's in runtime/capture.h, applied by the streaming source
// and the in-memory CaptureReader alike), every kind of error with its position, the
// events-file line writer and the sinks (what they write reads back as the same events) and
// payload ↔ named field values.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "base/le.h"
#include "io/event_fields.h"
#include "io/limits.h"
#include "pfc/events.h"
#include "runtime/capture.h"
#include "tests/trace/logfile_test_util.h"
#include "trace/logfile.h"

namespace pfc {
namespace {

using trace::testing::TempFile;

const Guid kApp = *Guid::parse("{6B0D5E3C-8F1A-4B6E-9C2D-3A4F5B6C7D8E}");
const Guid kOther = *Guid::parse("{6B0D5E3C-8F1A-4B6E-9C2D-3A4F5B6C7D8F}");

// Provider App: Tick (id 1, level 4) { counter: uint32; name: string; }, Bare (id 2) {}.
Schema app_schema() {
  ProviderDef p;
  p.name = "App";
  p.guid = kApp;
  EventDef tick;
  tick.name = "Tick";
  tick.desc.id = 1;
  tick.desc.level = 4;
  tick.fields = {FieldDef{"counter", InType::UInt32, {}, {}},
                 FieldDef{"name", InType::AnsiString, {}, {}}};
  EventDef bare;
  bare.name = "Bare";
  bare.desc.id = 2;
  p.events = {tick, bare};
  Schema s;
  s.providers.push_back(p);
  return s;
}

// Tick's payload: counter (LE), name NUL-terminated.
std::vector<uint8_t> tick_payload(uint32_t counter, const std::string& name) {
  std::vector<uint8_t> out;
  append_le(out, counter, 4);
  out.insert(out.end(), name.begin(), name.end());
  out.push_back(0);
  return out;
}

// A temporary file (tests/trace/logfile_test_util.h) holding `text`.
void write_text(const TempFile& file, std::string_view text) {
  file.write(std::vector<uint8_t>(text.begin(), text.end()));
}

// An event as read: what a test compares.
struct Read {
  uint32_t provider = 0;
  std::string event;  // the schema's name, "" when undeclared
  EventDescriptor desc;
  uint32_t pid = 0;
  std::string exe;
  std::vector<uint8_t> payload;
  uint64_t timestamp = 0;
  uint64_t where = 0;
  std::string text;
  std::string line;  // events_file_line
};

// Everything a source gives: events, then the problems ("L:C: message", or the message
// alone when it has no line; "fatal: " first when fatal).
struct Outcome {
  std::vector<Read> events;
  std::vector<std::string> problems;
  std::string unit;
};

std::string describe(const SourceProblem& p) {
  std::string out = p.fatal ? "fatal: " : "";
  if (p.line != 0) out += std::to_string(p.line) + ":" + std::to_string(p.column) + ": ";
  return out + p.message;
}

Outcome read_all(const std::string& path, const SourceSchema& schema) {
  Outcome out;
  SourceProblem problem;
  std::unique_ptr<EventSource> source = open_events(path, schema, &problem);
  if (source == nullptr) {
    EXPECT_TRUE(problem.fatal);
    out.problems.push_back("open: " + describe(problem));
    return out;
  }
  out.unit = std::string(source->unit());
  SourceEvent e;
  for (int guard = 0; guard < 1000; ++guard) {
    switch (source->next(e, problem)) {
      case EventSource::Step::End: return out;
      case EventSource::Step::Problem: out.problems.push_back(describe(problem)); continue;
      case EventSource::Step::Event: break;
    }
    Read r;
    r.provider = e.provider;
    r.event = e.def != nullptr ? e.def->name : "";
    r.desc = e.view.desc;
    r.pid = e.view.pid;
    r.exe = std::string(e.view.exe.view());
    r.payload.assign(e.view.payload, e.view.payload + e.view.payload_size);
    r.timestamp = e.timestamp;
    r.where = e.where;
    r.text = std::string(e.text);
    r.line = events_file_line(schema, e);
    out.events.push_back(std::move(r));
  }
  ADD_FAILURE() << "the source did not end";
  return out;
}

class EventsTest : public ::testing::Test {
 protected:
  Schema schema_ = app_schema();
  SourceSchema source_{schema_, {"all", "big"}};
  TempFile file_;
};

// --- each format -------------------------------------------------------------------------

TEST_F(EventsTest, JsonLinesKeepLinesAndDecodeFields) {
  const std::string first =
      R"({"provider":"App","event":"Tick","pid":7,"fields":{"counter":3,"name":"a"}})";
  const std::string second = R"({"provider":"App","id":9,"payload_hex":"0102","exclude":["big"]})";
  write_text(file_, first + "\n\n" + second + "\r\n");
  const Outcome o = read_all(file_.path(), source_);
  ASSERT_EQ(o.problems, std::vector<std::string>{});
  ASSERT_EQ(o.events.size(), 2u);
  EXPECT_EQ(o.unit, "line");
  EXPECT_EQ(o.events[0].event, "Tick");
  EXPECT_EQ(o.events[0].desc.level, 4);  // the schema's descriptor
  EXPECT_EQ(o.events[0].pid, 7u);
  EXPECT_EQ(o.events[0].payload, tick_payload(3, "a"));
  EXPECT_EQ(o.events[0].where, 1u);
  EXPECT_EQ(o.events[0].text, first);
  EXPECT_EQ(o.events[0].line,
            R"({"provider":"App","event":"Tick","level":4,"keyword":"0x0","opcode":0,"task":0,)"
            R"("channel":0,"pid":7,"tid":0,"fields":{"counter":3,"name":"a"}})"
            "\n");
  EXPECT_EQ(o.events[1].event, "");
  EXPECT_EQ(o.events[1].desc.id, 9);
  EXPECT_EQ(o.events[1].where, 3u);
  EXPECT_EQ(o.events[1].text, second + "\r");
  EXPECT_EQ(o.events[1].line,
            R"({"provider":"App","id":9,"version":0,"level":0,"keyword":"0x0","opcode":0,)"
            R"("task":0,"channel":0,"pid":0,"tid":0,"payload_hex":"0102","exclude":["big"]})"
            "\n");
}

TEST_F(EventsTest, JsonArrayElementsByLine) {
  write_text(file_,
             "  [\n"
             R"({"provider":"App","event":"Bare"},)"
             "\n"
             R"( {"provider":"App","event":"Tick","fields":{"counter":1,"name":""}}])"
             "\n");
  const Outcome o = read_all(file_.path(), source_);
  ASSERT_EQ(o.problems, std::vector<std::string>{});
  ASSERT_EQ(o.events.size(), 2u);
  EXPECT_EQ(o.unit, "line");
  EXPECT_EQ(o.events[0].event, "Bare");
  EXPECT_EQ(o.events[0].where, 2u);
  EXPECT_EQ(o.events[0].text, "");  // JSON Lines only
  EXPECT_EQ(o.events[1].payload, tick_payload(1, ""));
  EXPECT_EQ(o.events[1].where, 3u);
}

TEST_F(EventsTest, CaptureRecordsWithTimestamps) {
  CaptureWriter w;
  const uint16_t app = *w.add_provider(kApp);
  Event tick;
  tick.desc = schema_.providers[0].events[0].desc;
  tick.payload = tick_payload(5, "xyz");
  tick.exe = "/bin/app";
  tick.pid = 42;
  ASSERT_TRUE(w.add(app, tick, 1000));
  Event other;
  other.desc.id = 77;
  ASSERT_TRUE(w.add(app, other, 2000));
  file_.write(w.finish());
  const Outcome o = read_all(file_.path(), source_);
  ASSERT_EQ(o.problems, std::vector<std::string>{});
  ASSERT_EQ(o.events.size(), 2u);
  EXPECT_EQ(o.unit, "record");
  EXPECT_EQ(o.events[0].event, "Tick");
  EXPECT_EQ(o.events[0].exe, "/bin/app");
  EXPECT_EQ(o.events[0].payload, tick.payload);
  EXPECT_EQ(o.events[0].timestamp, 1000u);
  EXPECT_EQ(o.events[0].where, 0u);
  EXPECT_EQ(o.events[1].event, "");
  EXPECT_EQ(o.events[1].timestamp, 2000u);
  EXPECT_EQ(o.events[1].where, 1u);
  EXPECT_EQ(o.events[0].line,
            R"({"provider":"App","event":"Tick","level":4,"keyword":"0x0","opcode":0,"task":0,)"
            R"("channel":0,"pid":42,"tid":0,"exe":"/bin/app","fields":{"counter":5,"name":"xyz"}})"
            "\n");
}

// A closed log file holding `events` (provider, id) with filetimes 100, 101, ...
std::vector<uint8_t> log_file(const std::vector<std::pair<Guid, uint16_t>>& events,
                              const std::vector<uint8_t>& payload) {
  TempFile f;
  trace::LogInfo info;
  info.session = u"io-test";
  info.buffer_size = trace::kMinLogBuffer;
  auto w =
      trace::LogWriter::create(trace::UniqueFd(::open(f.path().c_str(), O_RDWR | O_CLOEXEC)), info);
  EXPECT_TRUE(w) << w.error().message;
  int64_t filetime = 100;
  for (const auto& [guid, id] : events) {
    trace::EventRecord h{};
    h.provider = guid;
    h.id = id;
    h.pid = 9;
    h.filetime = filetime++;
    h.payload_len = uint32_t(payload.size());
    EXPECT_TRUE(w->add(h, payload.data(), nullptr));
  }
  EXPECT_TRUE(w->close(filetime, 0));
  return f.bytes();
}

TEST_F(EventsTest, LogFileRecordsAndUndeclaredProviders) {
  file_.write(log_file({{kApp, 1}, {kOther, 1}, {kApp, 2}}, tick_payload(8, "b")));
  const Outcome o = read_all(file_.path(), source_);
  ASSERT_EQ(o.events.size(), 2u);
  EXPECT_EQ(o.unit, "record");
  EXPECT_EQ(o.events[0].event, "Tick");
  EXPECT_EQ(o.events[0].pid, 9u);
  EXPECT_EQ(o.events[0].payload, tick_payload(8, "b"));
  EXPECT_EQ(o.events[0].timestamp, 100u);
  EXPECT_EQ(o.events[0].where, 1u);
  EXPECT_EQ(o.events[1].event, "Bare");
  EXPECT_EQ(o.events[1].where, 3u);
  // The undeclared provider is a problem naming its record; reading goes on.
  ASSERT_EQ(o.problems.size(), 1u);
  EXPECT_EQ(o.problems[0], file_.path() + ": record 2: provider " + kOther.to_string() +
                               " is not declared in the script");
}

// Every line events_file_line writes reads back as the same event.
TEST_F(EventsTest, WrittenLinesReadBackAsTheSameEvents) {
  CaptureWriter w;
  const uint16_t app = *w.add_provider(kApp);
  Event tick;
  tick.desc = schema_.providers[0].events[0].desc;
  tick.desc.keyword = 0x8000000000000001;
  tick.desc.opcode = 3;
  tick.payload = tick_payload(7, "\xc3\xa9t\xc3\xa9");
  tick.exe = "C:\\app \"x\".exe";
  ASSERT_TRUE(w.add(app, tick, 1));
  Event raw = tick;
  raw.payload = {1, 2, 3};  // does not decode as Tick: payload_hex
  ASSERT_TRUE(w.add(app, raw, 2));
  file_.write(w.finish());
  const Outcome first = read_all(file_.path(), source_);
  ASSERT_EQ(first.events.size(), 2u);
  EXPECT_NE(first.events[1].line.find(R"("payload_hex":"010203")"), std::string::npos);
  TempFile lines;
  write_text(lines, first.events[0].line + first.events[1].line);
  const Outcome again = read_all(lines.path(), source_);
  ASSERT_EQ(again.problems, std::vector<std::string>{});
  ASSERT_EQ(again.events.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(again.events[i].desc, first.events[i].desc);
    EXPECT_EQ(again.events[i].exe, first.events[i].exe);
    EXPECT_EQ(again.events[i].payload, first.events[i].payload);
    EXPECT_EQ(again.events[i].line, first.events[i].line);
  }
}

// The sinks: what a source reads, written in either format, reads back as the same events.
TEST_F(EventsTest, SinksWriteWhatSourcesReadBack) {
  CaptureWriter w;
  const uint16_t app = *w.add_provider(kApp);
  Event tick;
  tick.desc = schema_.providers[0].events[0].desc;
  tick.payload = tick_payload(5, "xyz");
  tick.exe = "/bin/app";
  ASSERT_TRUE(w.add(app, tick, 1000));
  tick.payload = {9};  // not a Tick payload: payload_hex, or the raw bytes in a capture
  ASSERT_TRUE(w.add(app, tick, 2000));
  file_.write(w.finish());
  const Outcome first = read_all(file_.path(), source_);
  ASSERT_EQ(first.events.size(), 2u);
  for (const EventSink::Format format :
       {EventSink::Format::EventsFile, EventSink::Format::Capture}) {
    SCOPED_TRACE(int(format));
    TempFile out;
    std::string error;
    std::unique_ptr<EventSink> sink = open_sink(out.path(), format, source_, &error);
    ASSERT_NE(sink, nullptr) << error;
    SourceProblem problem;
    std::unique_ptr<EventSource> source = open_events(file_.path(), source_, &problem);
    ASSERT_NE(source, nullptr);
    SourceEvent e;
    while (source->next(e, problem) == EventSource::Step::Event) ASSERT_TRUE(sink->write(e));
    ASSERT_TRUE(sink->finish()) << sink->error();
    const Outcome again = read_all(out.path(), source_);
    ASSERT_EQ(again.problems, std::vector<std::string>{});
    ASSERT_EQ(again.events.size(), 2u);
    for (size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(again.events[i].line, first.events[i].line);
      EXPECT_EQ(again.events[i].payload, first.events[i].payload);
      // A capture keeps the timestamps; events-file lines do not carry them.
      EXPECT_EQ(again.events[i].timestamp,
                format == EventSink::Format::Capture ? first.events[i].timestamp : 0u);
    }
  }
}

TEST_F(EventsTest, SinkErrorsNameTheFile) {
  std::string error;
  EXPECT_EQ(open_sink("/nonexistent/out.jsonl", EventSink::Format::EventsFile, source_, &error),
            nullptr);
  EXPECT_EQ(error, "cannot write /nonexistent/out.jsonl: No such file or directory");
  for (const EventSink::Format format :
       {EventSink::Format::EventsFile, EventSink::Format::Capture}) {
    SCOPED_TRACE(int(format));
    std::unique_ptr<EventSink> full = open_sink("/dev/full", format, source_, &error);
    ASSERT_NE(full, nullptr) << error;
    const Event bare{};
    SourceEvent e;
    e.view = bare.view();
    bool ok = true;
    for (int i = 0; i < 5000 && ok; ++i) ok = full->write(e);  // past the output buffer
    ok = ok && full->finish();
    EXPECT_FALSE(ok);
    EXPECT_EQ(full->error(), "cannot write /dev/full: No space left on device");
    EXPECT_FALSE(full->write(e));  // stays failed
  }
}

// --- each error, with its position -------------------------------------------------------

struct ErrorCase {
  const char* what;
  std::string input;
  std::vector<std::string> problems;  // describe(): "L:C: message", "fatal: " when fatal
  size_t events;                      // events read besides the problems
};

TEST_F(EventsTest, JsonErrorsNameTheirLineAndColumn) {
  const std::string good = R"({"provider":"App","event":"Bare"})";
  const std::vector<ErrorCase> cases = {
      {"malformed JSON, the next line still read",
       good + "\n{\"provider\":\"App\",}\n" + good + "\n",
       {"2:19: malformed JSON: syntax error while parsing object key - unexpected '}'; expected "
        "string literal"},
       2},
      {"unknown provider at its value's key",
       good + "\n  {\"provider\":\"Nope\"}\n",
       {"2:4: unknown provider 'Nope'"},
       1},
      {"unknown field",
       R"({"provider":"App","event":"Tick","fields":{"count":1}})",
       {"1:34: unknown field 'count' in event 'Tick'"},
       0},
      {"unknown session in exclude",
       R"({"provider":"App","event":"Bare","exclude":["none"]})",
       {"1:34: unknown session 'none' in \"exclude\""},
       0},
      {"a NUL byte",
       std::string("{\"provider\":\0}", 14) + "\n" + good,
       {"1:13: a NUL byte (U+0000) is not allowed in JSON text"},
       1},
      {"an array without its end",
       "[" + good + ",\n" + good,
       {"fatal: 2:34: malformed JSON: the file ends inside the JSON array (no closing ']')"},
       1},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.what);
    write_text(file_, c.input);
    const Outcome o = read_all(file_.path(), source_);
    EXPECT_EQ(o.problems, c.problems);
    EXPECT_EQ(o.events.size(), c.events);
  }
}

// A capture of `n` Bare events of App, each with `payload` bytes.
std::vector<uint8_t> capture(size_t n, size_t payload = 0, const Guid& provider = kApp) {
  CaptureWriter w;
  const uint16_t p = *w.add_provider(provider);
  Event e;
  e.desc.id = 2;
  e.payload.assign(payload, 0xAA);
  for (size_t i = 0; i < n; ++i) EXPECT_TRUE(w.add(p, e, i));
  return w.finish();
}

// Record i of a capture of one provider and no strings starts here.
constexpr uint64_t record_offset(uint64_t i, uint64_t payload) {
  return kCaptureHeaderSize + 16 + i * (kCaptureRecordHeaderSize + payload);
}

TEST_F(EventsTest, CaptureErrorsNameTheirRecordAndOffset) {
  std::vector<uint8_t> truncated = capture(3, 4);
  truncated.resize(record_offset(2, 4) + 10);
  std::vector<uint8_t> flags = capture(2);
  flags[record_offset(1, 0) + internal::capture_record::kFlags] = 1;
  std::vector<uint8_t> crc = capture(2, 4);
  crc.back() ^= 1;
  const std::vector<ErrorCase> cases = {
      {"truncated record",
       std::string(truncated.begin(), truncated.end()),
       {"fatal: capture: record 2 at offset 160: truncated (10 of 48 fixed bytes)"},
       2},
      {"flags not zero",
       std::string(flags.begin(), flags.end()),
       {"fatal: capture: record 1 at offset 104: reserved fields are not zero"},
       1},
      {"checksum", std::string(crc.begin(), crc.end()), {}, 2},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.what);
    write_text(file_, c.input);
    const Outcome o = read_all(file_.path(), source_);
    if (c.problems.empty()) {  // the checksum: named after the last record
      ASSERT_EQ(o.problems.size(), 1u);
      EXPECT_EQ(o.problems[0].rfind(
                    "fatal: capture: checksum mismatch: the header (offset 20) says 0x", 0),
                0u)
          << o.problems[0];
    } else {
      EXPECT_EQ(o.problems, c.problems);
    }
    EXPECT_EQ(o.events.size(), c.events);
  }
}

TEST_F(EventsTest, OpenFailuresAreFatalProblems) {
  {
    const Outcome o = read_all("/nonexistent/events.jsonl", source_);
    ASSERT_EQ(o.problems.size(), 1u);
    EXPECT_EQ(o.problems[0].rfind("open: fatal: cannot read /nonexistent/events.jsonl: ", 0), 0u)
        << o.problems[0];
  }
  {
    file_.write(capture(1, 0, kOther));
    const Outcome o = read_all(file_.path(), source_);
    ASSERT_EQ(o.problems.size(), 1u);
    EXPECT_EQ(o.problems[0], "open: fatal: capture provider 0 " + kOther.to_string() +
                                 " is not declared in the script");
  }
}

TEST_F(EventsTest, DamagedLogFileEndsWithItsProblem) {
  std::vector<uint8_t> log = log_file({{kApp, 2}, {kApp, 2}}, {});
  // A byte of the first record of the only buffer (after its header): its checksum fails.
  const uint8_t magic[4] = {'P', 'B', 'U', 'F'};
  const auto buffer = std::search(log.begin(), log.end(), magic, magic + 4);
  ASSERT_NE(buffer, log.end());
  buffer[trace::kLogBufferHeaderSize + 20] ^= 0xFF;
  file_.write(log);
  const Outcome o = read_all(file_.path(), source_);
  ASSERT_EQ(o.problems.size(), 1u);
  EXPECT_EQ(o.problems[0], "fatal: " + file_.path() + ": damaged buffer (CRC mismatch) at offset " +
                               std::to_string(buffer - log.begin()));
  EXPECT_EQ(o.events.size(), 0u);
}

// --- each limit --------------------------------------------------------------------------

TEST_F(EventsTest, EventTextLimit) {
  const std::string good = R"({"provider":"App","event":"Bare"})";
  write_text(file_, good + "\n" + std::string(io::kMaxEventText + 1, ' ') + "\n" + good + "\n");
  const Outcome o = read_all(file_.path(), source_);
  EXPECT_EQ(o.problems, std::vector<std::string>{
                            "fatal: line starting at line 2 is longer than the limit of " +
                            std::to_string(io::kMaxEventText) + " bytes for one event; stopping"});
  EXPECT_EQ(o.events.size(), 1u);
}

TEST_F(EventsTest, EventValuesLimit) {
  std::string values = R"({"provider":"App","event":"Bare","pid":[)";
  for (uint64_t i = 0; i <= io::kMaxEventValues; ++i) values += "0,";
  values += "0]}";
  write_text(file_, values + "\n");
  const Outcome o = read_all(file_.path(), source_);
  EXPECT_EQ(o.problems,
            std::vector<std::string>{"1:1: more than " + std::to_string(io::kMaxEventValues) +
                                     " JSON values in one event (the limit)"});
}

TEST_F(EventsTest, FieldElementsLimit) {
  // An array field: its elements are counted as they are converted.
  schema_.providers[0].events[1].fields = {
      FieldDef{"xs", InType::UInt8, Extent{Extent::Kind::Fixed, 2000000}, {}}};
  std::string line = R"({"provider":"App","event":"Bare","fields":{"xs":[)";
  for (uint64_t i = 0; i <= io::kMaxFieldElements; ++i) line += "0,";
  line += "0]}}";
  write_text(file_, line + "\n");
  const Outcome o = read_all(file_.path(), source_);
  ASSERT_EQ(o.problems.size(), 1u);
  EXPECT_NE(o.problems[0].find("more than " + std::to_string(io::kMaxFieldElements)),
            std::string::npos)
      << o.problems[0];
}

// The capture limits: the same error from the streaming source and CaptureReader.
TEST_F(EventsTest, CaptureLimitsInEveryReader) {
  std::vector<uint8_t> big = capture(1);
  store_le(&big[record_offset(0, 0)], internal::kMaxCapturePayload + 1, 4);
  const std::string payload_error = "capture: record 0 at offset 56: payload of " +
                                    std::to_string(internal::kMaxCapturePayload + 1) +
                                    " bytes exceeds the limit of " +
                                    std::to_string(internal::kMaxCapturePayload) + " bytes";
  // One string whose length alone passes the string table's limit.
  std::vector<uint8_t> strings = capture(0);
  store_le(&strings[internal::capture_header::kStringCount], 1, 4);
  store_le(&strings[internal::capture_header::kBodySize], 16 + 4, 8);
  append_le(strings, internal::kMaxCaptureStrings, 4);
  const std::string strings_error = "capture: the string table exceeds the limit of " +
                                    std::to_string(internal::kMaxCaptureStrings) +
                                    " bytes (string 0 at offset 56)";
  for (const auto& [bytes, error] : {std::pair{big, payload_error}, {strings, strings_error}}) {
    SCOPED_TRACE(error);
    file_.write(bytes);
    const Outcome o = read_all(file_.path(), source_);
    ASSERT_FALSE(o.problems.empty());
    EXPECT_NE(o.problems.back().find(error), std::string::npos) << o.problems.back();
    auto reader = CaptureReader::open(bytes);
    ASSERT_FALSE(reader);
    EXPECT_EQ(reader.error().message, error);
  }
}

// --- payload ↔ named field values --------------------------------------------------------

TEST_F(EventsTest, FieldsJsonBothWays) {
  const EventDef& tick = schema_.providers[0].events[0];
  std::vector<uint8_t> payload;
  EXPECT_EQ(events_encode_fields(tick, R"({"counter":12,"name":"hi"})", &payload), "");
  EXPECT_EQ(payload, tick_payload(12, "hi"));
  EventView view;
  view.payload = payload.data();
  view.payload_size = payload.size();
  EXPECT_EQ(events_fields_json(tick, view), R"({"counter":12,"name":"hi"})");
  view.payload_size = 3;  // truncated: no exact decoding
  EXPECT_EQ(events_fields_json(tick, view), std::nullopt);

  const std::vector<std::pair<std::string, std::string>> errors = {
      {R"({"count":1})", "unknown field 'count' in event 'Tick'"},
      {R"({"counter":-1})", "field 'counter': "},
      {"[1]", "the fields must be a JSON object"},
      {"{", "the fields are not valid JSON: "},
  };
  for (const auto& [json, error] : errors) {
    SCOPED_TRACE(json);
    EXPECT_EQ(events_encode_fields(tick, json, &payload).rfind(error, 0), 0u)
        << events_encode_fields(tick, json, &payload);
  }
}

}  // namespace
}  // namespace pfc
