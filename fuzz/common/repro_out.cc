// fuzz/common/repro_out.cc — see repro_out.h.
#include "common/repro_out.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "tests/oracle/repro.h"

namespace pfc::fuzz {
namespace {

void write_file(const std::string& dir, const char* name, const std::string& text) {
  std::ofstream out(dir + "/" + name, std::ios::binary);
  out << text;
}

}  // namespace

void report_mismatch(const std::string& what, const ProgramSpec& spec,
                     const std::vector<Event>& events, const std::vector<RouteResult>& results) {
  const std::string script = repro::script(spec);
  const std::string jsonl = repro::events_jsonl(spec, events);
  std::string expected;
  for (size_t i = 0; i < results.size(); ++i) expected += repro::result_line(i, results[i]) + "\n";
  std::fprintf(stderr, "\n==== pfc routing mismatch: %s\n", what.c_str());
  if (!repro::expressible(spec, events)) {
    std::fprintf(stderr, "(parts of this case have no script spelling; see the # lines)\n");
  }
  std::fprintf(stderr, "---- script.pfs\n%s---- events.jsonl\n%s---- expected.jsonl (oracle)\n%s",
               script.c_str(), jsonl.c_str(), expected.c_str());
  if (const char* dir = std::getenv("PFC_FUZZ_REPRO_DIR")) {
    write_file(dir, "script.pfs", script);
    write_file(dir, "events.jsonl", jsonl);
    write_file(dir, "expected.jsonl", expected);
  }
}

}  // namespace pfc::fuzz
