// tests/compiler/corpus.cc — see corpus.h.
#include "tests/compiler/corpus.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <simdjson.h>

#include "cli/json_event.h"
#include "compiler/frontend.h"
#include "compiler/lower.h"
#include "tests/oracle/gen.h"

namespace pfc::testing {

namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The events of `dir`/events.jsonl (one object per line; other lines are left out) that
// are of provider `provider`.
std::vector<Event> golden_events(const std::filesystem::path& dir, const CheckedScript& script,
                                 uint32_t provider) {
  std::vector<Event> events;
  std::istringstream lines(read_file(dir / "events.jsonl"));
  simdjson::dom::parser parser;
  for (std::string line; std::getline(lines, line);) {
    simdjson::dom::element doc;
    if (parser.parse(simdjson::padded_string(line)).get(doc) != simdjson::SUCCESS) continue;
    cli::InputEvent in;
    if (doc.is_object() && cli::read_json_event(doc, script, in) && in.provider == provider)
      events.push_back(std::move(in.event));
  }
  return events;
}

// Every provider's program of one checked script (slot = session index).
void lower_script(const std::filesystem::path& dir, const CheckedScript& script,
                  std::vector<CorpusProgram>& out) {
  const std::string name = "golden/" + dir.filename().string();
  for (uint32_t p = 0; p < script.schema.providers.size(); ++p) {
    ProgramSpec spec;
    spec.provider = script.schema.providers[p];
    for (uint32_t slot = 0; slot < script.sessions.size(); ++slot)
      for (const SessionDecl::Enable& e : script.sessions[slot].enables)
        if (e.provider == p) spec.sessions.push_back(SessionEntry::sharing(slot, e.params));
    auto program = lower(spec);
    EXPECT_TRUE(program.has_value()) << name << ": " << program.error().message;
    if (program)
      out.push_back({name + " provider " + std::to_string(p), std::move(*program),
                     golden_events(dir, script, p)});
  }
}

}  // namespace

std::vector<CorpusProgram> golden_programs() {
  std::vector<std::filesystem::path> scripts;
  for (const auto& dir : std::filesystem::directory_iterator(PFC_GOLDEN_DIR))
    if (std::filesystem::exists(dir.path() / "script.pfs")) scripts.push_back(dir.path());
  std::sort(scripts.begin(), scripts.end());
  std::vector<CorpusProgram> out;
  for (const auto& dir : scripts) {
    FrontendOutput front = compile_script(SourceFile("script.pfs", read_file(dir / "script.pfs")));
    if (front.ok()) lower_script(dir, front.checked.script, out);
  }
  EXPECT_GT(out.size(), 10u) << "golden corpus at " << PFC_GOLDEN_DIR;
  return out;
}

std::vector<CorpusProgram> generated_programs(uint64_t first_seed, uint32_t count) {
  std::vector<CorpusProgram> out;
  for (uint64_t seed = first_seed; seed < first_seed + count; ++seed) {
    gen::RngEntropy entropy(seed);
    gen::Case c = gen::generate(entropy);
    auto program = lower(c.spec);
    if (program)
      out.push_back(
          {"generated " + std::to_string(seed), std::move(*program), std::move(c.events)});
  }
  return out;
}

}  // namespace pfc::testing
