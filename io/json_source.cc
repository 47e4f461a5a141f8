// io/json_source.cc — JSON events files as an EventSource: JSON Lines (one event per line,
// blank lines skipped) or one JSON array of events, parsed one event at a time with
// simdjson's DOM parser. The input is read in blocks (io/byte_reader.h); at most one event
// text (≤ kMaxEventText) and the current block are held. A bad event is a non-fatal problem
// (the source goes on with the next one); a line or element over the limit, or a broken
// array structure, is fatal.
#include <cstring>

#include <simdjson.h>

#include "base/ascii.h"
#include "grammar/source.h"
#include "io/json_event.h"
#include "io/json_scan.h"
#include "io/json_syntax.h"
#include "io/limits.h"
#include "io/source_parts.h"

namespace pfc::io {
namespace {

// One event's text and the position of its first byte.
struct Record {
  std::string_view text;
  TextPos start;
};

class JsonSource final : public EventSource {
 public:
  JsonSource(ByteReader reader, const SourceSchema& script, bool array)
      : reader_(std::move(reader)), script_(script), array_(array) {}
  // (No parser_.set_max_capacity: simdjson 3.0.1 inverts its test and caps every document at
  // 32 bytes. Records are bounded by kMaxEventText before they reach the parser.)

  Step next(SourceEvent& event, SourceProblem& problem) override {
    for (;;) {
      if (done_) return Step::End;
      Record rec;
      const Step step = array_ ? next_element(rec, problem) : next_line(rec, problem);
      if (step != Step::Event) {
        if (step == Step::End || problem.fatal) done_ = true;
        return step;
      }
      if (trim_ascii_space(rec.text).empty()) {
        consume_record();
        continue;
      }
      const bool ok = interpret(rec, problem);
      consume_record();
      if (!ok) return Step::Problem;
      event.provider = input_.provider;
      event.def = input_.def;
      event.view = input_.event.view();
      event.exclude = input_.exclude;
      event.where = rec.start.line;
      // consume_record() only moves the read position: the bytes stay until the next fill().
      event.text = array_ ? std::string_view() : rec.text;
      return Step::Event;
    }
  }

  std::string_view unit() const override { return "line"; }
  uint64_t consumed() const override { return reader_.offset(); }
  std::optional<uint64_t> size() const override { return reader_.file_size(); }
  void set_before_read(std::function<void()> hook) override {
    reader_.set_before_read(std::move(hook));
  }

 private:
  // JSON Lines: the next line (without its '\n'), or the last one without a newline.
  Step next_line(Record& rec, SourceProblem& problem) {
    for (;;) {
      const std::string_view data = reader_.data();
      const void* nl = std::memchr(data.data() + scanned_, '\n', data.size() - scanned_);
      if (nl != nullptr) {
        const size_t len = size_t(static_cast<const char*>(nl) - data.data());
        rec = Record{data.substr(0, len), TextPos{line_, 1}};
        pending_ = len + 1;
        return Step::Event;
      }
      scanned_ = data.size();
      auto f = reader_.fill(kMaxEventText + 1);
      if (!f) return io_problem(f.error(), problem);
      if (*f == ByteReader::Fill::Full) return too_long(TextPos{line_, 1}, problem);
      if (*f == ByteReader::Fill::End) {
        if (reader_.data().empty()) return Step::End;
        rec = Record{reader_.data(), TextPos{line_, 1}};
        pending_ = rec.text.size();
        return Step::Event;
      }
    }
  }

  // JSON array: the next element's text. State: before the '[' (first call), between
  // elements, after the ']'.
  Step next_element(Record& rec, SourceProblem& problem) {
    if (!opened_) {
      if (auto s = skip_space(problem); s != Step::Event) return s;
      consume(1);  // '[' (how the format was detected)
      opened_ = true;
      if (auto s = skip_space(problem); s != Step::Event) return eof_in_array(problem, s);
      if (reader_.data()[0] == ']') {
        consume(1);
        closed_ = true;
      }
    }
    if (closed_) return after_array(problem);
    if (auto s = skip_space(problem); s != Step::Event) return eof_in_array(problem, s);
    if (reader_.data()[0] == ',' || reader_.data()[0] == ']')
      return structure_problem(0, "malformed JSON: an event is missing in the JSON array", problem);
    JsonScan scan;
    for (;;) {
      if (scan_json_value(reader_.data(), scan)) break;
      auto f = reader_.fill(kMaxEventText + 1);
      if (!f) return io_problem(f.error(), problem);
      if (*f == ByteReader::Fill::Full) return too_long(pos_, problem);
      if (*f == ByteReader::Fill::End) return eof_in_array(problem, Step::End);
    }
    const char end = reader_.data()[scan.pos];
    if (end == '}')
      return structure_problem(scan.pos, "malformed JSON: unexpected '}' in the JSON array",
                               problem);
    rec = Record{reader_.data().substr(0, scan.pos), pos_};
    pending_ = scan.pos + 1;
    if (end == ']') closed_ = true;
    return Step::Event;
  }

  Step skip_space(SourceProblem& problem) {
    for (;;) {
      const std::string_view data = reader_.data();
      size_t i = 0;
      while (i < data.size() && is_ascii_space(data[i])) ++i;
      consume(i);
      if (i < data.size()) return Step::Event;
      auto f = reader_.fill(ByteReader::kBlock);
      if (!f) return io_problem(f.error(), problem);
      if (*f == ByteReader::Fill::End) return Step::End;
    }
  }

  // After the ']': only white space may follow.
  Step after_array(SourceProblem& problem) {
    if (auto s = skip_space(problem); s != Step::Event) return s;
    return structure_problem(0, "malformed JSON: text after the end of the JSON array", problem);
  }

  Step eof_in_array(SourceProblem& problem, Step s) {
    if (s == Step::Problem) return s;
    return structure_problem(reader_.data().size(),
                             "malformed JSON: the file ends inside the JSON array (no closing ']')",
                             problem);
  }

  // Parses and resolves one event; false with `problem` set when it is bad.
  bool interpret(const Record& rec, SourceProblem& problem) {
    if (const void* nul = std::memchr(rec.text.data(), 0, rec.text.size()); nul != nullptr) {
      const size_t at = size_t(static_cast<const char*>(nul) - rec.text.data());
      problem = at_offset(rec, at, "a NUL byte (U+0000) is not allowed in JSON text");
      return false;
    }
    if (rec.text.size() > (size_t{1} << 20) &&
        count_json_separators(rec.text, kMaxEventValues) > kMaxEventValues) {
      problem = at_offset(
          rec, first_non_space(rec.text),
          "more than " + std::to_string(kMaxEventValues) + " JSON values in one event (the limit)");
      return false;
    }
    simdjson::dom::element doc;
    if (const auto error = parser_.parse(rec.text.data(), rec.text.size(), false).get(doc)) {
      problem = syntax_problem(rec, error);
      return false;
    }
    auto read = read_json_event(doc, script_, input_);
    if (!read) {
      const JsonEventError& e = read.error();
      size_t at =
          e.key.empty() ? std::string_view::npos : member_key_offset(rec.text, e.key, e.nth);
      if (at == std::string_view::npos) at = first_non_space(rec.text);
      problem = at_offset(rec, at, e.message);
      return false;
    }
    return true;
  }

  static size_t first_non_space(std::string_view t) {
    size_t i = 0;
    while (i < t.size() && is_ascii_space(t[i])) ++i;
    return i == t.size() ? 0 : i;
  }

  SourceProblem syntax_problem(const Record& rec, simdjson::error_code error) {
    if (error == simdjson::CAPACITY || error == simdjson::MEMALLOC)
      return at_offset(rec, 0,
                       std::string("cannot parse the event: ") + simdjson::error_message(error));
    if (auto e = json_syntax_error(rec.text))
      return at_offset(rec, e->offset == 0 ? first_non_space(rec.text) : e->offset,
                       "malformed JSON: " + e->message);
    return at_offset(rec, first_non_space(rec.text),
                     std::string("malformed JSON: ") + simdjson::error_message(error));
  }

  // A problem at byte `at` of the record: its position and the line holding it.
  SourceProblem at_offset(const Record& rec, size_t at, std::string message) const {
    SourceProblem p;
    p.file = reader_.name();
    const TextPos pos = advance_pos(rec.start, rec.text.substr(0, at));
    p.line = pos.line;
    p.column = pos.column;
    const size_t nl_before = rec.text.substr(0, at).rfind('\n');
    size_t begin = nl_before == std::string_view::npos ? 0 : nl_before + 1;
    const size_t nl_after = rec.text.find('\n', at);
    size_t end = nl_after == std::string_view::npos ? rec.text.size() : nl_after;
    echo_window(rec.text, at, begin, end);
    p.echo = std::string(rec.text.substr(begin, end - begin));
    p.echo_column = advance_pos({1, 1}, rec.text.substr(begin, at - begin)).column;
    p.message = std::move(message);
    return p;
  }

  Step structure_problem(size_t at, std::string message, SourceProblem& problem) {
    problem = at_offset(Record{reader_.data(), pos_}, std::min(at, reader_.data().size()),
                        std::move(message));
    problem.fatal = true;
    return Step::Problem;
  }

  Step too_long(TextPos start, SourceProblem& problem) {
    problem = SourceProblem{};
    problem.file = reader_.name();
    problem.message = std::string(array_ ? "the array element" : "line") + " starting at line " +
                      std::to_string(start.line) + " is longer than the limit of " +
                      std::to_string(kMaxEventText) + " bytes for one event; stopping";
    problem.fatal = true;
    return Step::Problem;
  }

  Step io_problem(const Error& error, SourceProblem& problem) {
    problem = SourceProblem{};
    problem.file = reader_.name();
    problem.message = error.message;
    problem.fatal = true;
    return Step::Problem;
  }

  void consume(size_t n) {
    if (array_) pos_ = advance_pos(pos_, reader_.data().substr(0, n));
    reader_.consume(n);
    scanned_ = 0;
  }

  void consume_record() {
    if (!array_) {
      reader_.consume(pending_);
      ++line_;
      scanned_ = 0;
      return;
    }
    consume(pending_);
  }

  ByteReader reader_;
  const SourceSchema script_;  // a copy: the caller's may be a temporary
  const bool array_;
  simdjson::dom::parser parser_;
  InputEvent input_;
  bool done_ = false;
  size_t pending_ = 0;  // bytes of the current record (and its terminator) to consume
  size_t scanned_ = 0;  // JSON Lines: bytes of data() known to hold no '\n'
  uint64_t line_ = 1;   // JSON Lines: the line data() starts
  TextPos pos_;         // JSON array: the position of data()[0]
  bool opened_ = false;
  bool closed_ = false;
};

}  // namespace

std::unique_ptr<EventSource> make_json_source(ByteReader reader, const SourceSchema& script,
                                              bool array) {
  return std::make_unique<JsonSource>(std::move(reader), script, array);
}

}  // namespace pfc::io
