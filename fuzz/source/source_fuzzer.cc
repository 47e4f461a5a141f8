// fuzz/source/source_fuzzer.cc — the event sources of `pfc run --events` (pfc/events.h,
// opened by cli/event_source.h: JSON Lines, one JSON array, binary captures) on arbitrary bytes,
// read against the schema of source.pfs (every field type). Checks, for every input:
//  - no crash, hang or out-of-bounds read: every event's payload and strings are read whole
//    (ASan), at most kMaxSteps steps are taken and the source must end by then;
//  - the interface's contract: an event's provider index names a provider of the script,
//    its def (when set) is that provider's event with the same id and version; a problem
//    has a message; after a fatal problem or End every call returns End; consumed() never
//    passes size();
//  - the two JSON forms agree: when the input is JSON Lines (first non-blank byte '{') and
//    every line was read without a problem, the same lines as one JSON array give the same
//    events, field for field and byte for byte;
//  - SourceEvent::text: for JSON Lines read without a problem, the events' texts are the
//    non-blank lines exactly (`--output events` writes them as they came); for every other
//    form it is empty.
// Seeds: fuzz/corpus/source/ (JSON files written by hand, captures by `pfc gen`).
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "base/ascii.h"
#include "cli/event_source.h"
#include "compiler/frontend.h"
#include "grammar/source.h"

namespace {

using namespace pfc;
using cli::EventSource;
using cli::SourceEvent;
using cli::SourceProblem;

constexpr int kMaxSteps = 4096;

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "source_fuzzer: %s\n", what.c_str());
  std::abort();
}

struct World {
  std::unique_ptr<SourceFile> source;
  FrontendOutput front;
  const CheckedScript& script() const { return front.checked.script; }
};
World* g_world = nullptr;

// One event as plain data, to compare the two JSON forms.
struct Flat {
  uint32_t provider = 0;
  EventDescriptor desc;
  uint32_t pid = 0, tid = 0;
  std::string payload, exe, package_id, app_id, name;
  bool operator==(const Flat& o) const {
    return provider == o.provider && desc == o.desc && pid == o.pid && tid == o.tid &&
           payload == o.payload && exe == o.exe && package_id == o.package_id &&
           app_id == o.app_id && name == o.name;
  }
};

std::string copy(StrRef s) { return std::string(s.data == nullptr ? "" : s.data, s.size); }

// Reads the whole event (ASan checks every byte) and checks it against the script.
Flat flatten(const SourceEvent& e) {
  const auto& providers = g_world->script().schema.providers;
  if (e.provider >= providers.size()) __builtin_trap();
  if (e.def != nullptr &&
      (e.def->desc.id != e.view.desc.id || e.def->desc.version != e.view.desc.version))
    __builtin_trap();
  if (e.view.payload == nullptr && e.view.payload_size != 0) __builtin_trap();
  Flat f;
  f.provider = e.provider;
  f.desc = e.view.desc;
  f.pid = e.view.pid;
  f.tid = e.view.tid;
  if (e.view.payload_size != 0)
    f.payload.assign(reinterpret_cast<const char*>(e.view.payload), e.view.payload_size);
  f.exe = copy(e.view.exe);
  f.package_id = copy(e.view.package_id);
  f.app_id = copy(e.view.app_id);
  f.name = copy(e.view.name);
  return f;
}

// An in-memory file holding `bytes`, opened by path as `pfc run --events` would.
struct MemFile {
  int fd = -1;
  explicit MemFile(const std::string& bytes) {
    fd = ::memfd_create("source_fuzzer", 0);
    if (fd < 0) die("memfd_create failed");
    if (!bytes.empty() &&
        ::write(fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size()))
      die("memfd write failed");
  }
  ~MemFile() { ::close(fd); }
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd); }
};

struct ReadResult {
  bool opened = false;
  bool problems = false;
  std::vector<Flat> events;
  std::vector<std::string> texts;  // SourceEvent::text of each event
};

ReadResult read_all(const std::string& bytes) {
  ReadResult out;
  MemFile file(bytes);
  auto opened = cli::open_event_source(file.path(), g_world->script());
  if (!opened) {
    if (opened.error().message.empty()) __builtin_trap();
    return out;
  }
  out.opened = true;
  EventSource& source = **opened;
  SourceEvent event;
  SourceProblem problem;
  bool ended = false;
  for (int step = 0; step < kMaxSteps && !ended; ++step) {
    const EventSource::Step s = source.next(event, problem);
    if (source.size() && source.consumed() > *source.size()) __builtin_trap();
    if (s == EventSource::Step::Event) {
      out.events.push_back(flatten(event));
      out.texts.emplace_back(event.text);
    } else if (s == EventSource::Step::Problem) {
      if (problem.message.empty()) __builtin_trap();
      out.problems = true;
      if (problem.fatal) ended = true;
    } else {
      ended = true;
    }
  }
  // Inputs are at most a few kB, so kMaxSteps steps always reach the end.
  if (!ended && bytes.size() < kMaxSteps / 2) __builtin_trap();
  if (ended && source.next(event, problem) != EventSource::Step::End) __builtin_trap();
  return out;
}

// The non-blank lines of JSON Lines text, without their '\n'.
std::vector<std::string> nonblank_lines(const std::string& bytes) {
  std::vector<std::string> out;
  std::istringstream lines(bytes);
  for (std::string line; std::getline(lines, line);)
    if (!trim_ascii_space(line).empty()) out.push_back(line);  // blank as for the source
  return out;
}

// The same lines as one JSON array, or "" when the input is not plain JSON Lines.
std::string as_array(const std::string& bytes) {
  const size_t first = bytes.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || bytes[first] != '{') return "";
  std::string out = "[";
  bool any = false;
  for (const std::string& line : nonblank_lines(bytes)) {
    out += (any ? "," : "") + line + "\n";
    any = true;
  }
  return out + "]";
}

bool all_empty(const std::vector<std::string>& texts) {
  for (const std::string& t : texts)
    if (!t.empty()) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::ifstream in(PFC_SOURCE_FUZZ_SCRIPT);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) die("cannot read " PFC_SOURCE_FUZZ_SCRIPT);
  g_world = new World;
  g_world->source = std::make_unique<SourceFile>(PFC_SOURCE_FUZZ_SCRIPT, text.str());
  g_world->front = compile_script(*g_world->source);
  if (!g_world->front.ok()) die("source.pfs does not check");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64 * 1024) return -1;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const ReadResult lines = read_all(bytes);
  if (!lines.opened || lines.problems) return 0;
  const std::string array = as_array(bytes);
  if (array.empty()) {
    if (!all_empty(lines.texts)) __builtin_trap();  // a capture, an array: nothing to pass
    return 0;
  }
  if (lines.texts != nonblank_lines(bytes)) {
    std::fprintf(stderr, "source_fuzzer: an event's text is not its line\n");
    __builtin_trap();
  }
  const ReadResult joined = read_all(array);
  if (!all_empty(joined.texts)) __builtin_trap();
  if (!joined.opened || joined.problems || joined.events != lines.events) {
    std::fprintf(stderr, "source_fuzzer: JSON Lines gave %zu events, the array %s\n",
                 lines.events.size(),
                 joined.problems ? "a problem" : std::to_string(joined.events.size()).c_str());
    __builtin_trap();
  }
  return 0;
}
