// tests/former_bugs/former_bugs_test.cc — runs every former-bug case (cases/<name>/) on each
// engine: the reference interpreter, the JIT at O0 and at the default level, and the
// independent oracle. A case is a script, events (JSON Lines with `event` or `id`/`version`
// and `payload_hex` — the reproducer format the fuzzers print, tests/oracle/repro.h) and
// the expected `pfc run` output derived from docs/semantics.md. Test names: <case>/<engine>.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/hex.h"
#include "compiler/frontend.h"
#include "compiler/interp.h"
#include "compiler/jit/jit.h"
#include "compiler/lower.h"
#include "tests/oracle/oracle.h"

namespace pfc {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    if (!l.empty()) out.push_back(l);
  }
  return out;
}

std::vector<uint8_t> unhex(const std::string& h) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i + 1 < h.size(); i += 2)
    out.push_back(uint8_t(hex_digit_value(h[i]) << 4 | hex_digit_value(h[i + 1])));
  return out;
}

// One event of the case and the provider it belongs to.
struct CaseEvent {
  uint32_t provider = 0;
  Event event;
};

CaseEvent parse_event(const std::string& line, const Schema& schema) {
  const nlohmann::json j = nlohmann::json::parse(line);
  CaseEvent ce;
  const std::string prov = j.at("provider");
  const ProviderDef* p = nullptr;
  for (uint32_t i = 0; i < schema.providers.size(); ++i) {
    if (schema.providers[i].name == prov) p = &schema.providers[i], ce.provider = i;
  }
  if (p == nullptr) throw std::runtime_error("unknown provider " + prov);
  const EventDef* def = nullptr;
  for (const EventDef& d : p->events) {
    if (j.contains("event")
            ? d.name == j["event"].get<std::string>()
            : d.desc.id == j.value("id", 0) && d.desc.version == j.value("version", 0))
      def = &d;
  }
  Event& e = ce.event;
  if (def != nullptr) e.desc = def->desc, e.name = def->name;
  if (j.contains("id")) e.desc.id = j["id"];
  if (j.contains("version")) e.desc.version = j["version"];
  if (j.contains("level")) e.desc.level = j["level"];
  if (j.contains("keyword")) e.desc.keyword = std::stoull(std::string(j["keyword"]), nullptr, 0);
  e.pid = j.value("pid", 0u);
  e.tid = j.value("tid", 0u);
  e.exe = j.value("exe", "");
  e.package_id = j.value("package_id", "");
  e.app_id = j.value("app_id", "");
  if (j.contains("fields") && !j["fields"].empty()) throw std::runtime_error("use payload_hex");
  e.payload = unhex(j.value("payload_hex", ""));
  return ce;
}

std::string result_line(size_t seq, RouteResult r, const CheckedScript& s) {
  auto names = [&](uint64_t mask) {
    std::string out = "[";
    for (uint32_t i = 0; i < s.sessions.size(); ++i) {
      if (mask >> i & 1) out += (out.size() > 1 ? ",\"" : "\"") + s.sessions[i].name + "\"";
    }
    return out + "]";
  };
  return "{\"seq\":" + std::to_string(seq) + ",\"sessions\":" + names(r.deliver) +
         ",\"stack\":" + names(r.stack) + "}";
}

enum class EngineKind { Interp, JitO0, JitDefault, Oracle };

struct Param {
  std::string name;
  EngineKind engine;
};

void PrintTo(const Param& p, std::ostream* os) { *os << p.name; }

class FormerBug : public testing::TestWithParam<Param> {};

TEST_P(FormerBug, Routes) {
  const fs::path dir =
      fs::path(PFC_FORMER_BUGS_DIR) / GetParam().name.substr(0, GetParam().name.rfind('/'));
  const SourceFile src("script.pfs", read(dir / "script.pfs"));
  const FrontendOutput out = compile_script(src);
  ASSERT_TRUE(out.ok()) << (out.diagnostics.empty() ? "" : src.render(out.diagnostics[0]));
  const CheckedScript& script = out.checked.script;
  std::vector<ProgramSpec> specs;
  std::vector<std::shared_ptr<const RoutingProgram>> programs;
  for (uint32_t pi = 0; pi < script.schema.providers.size(); ++pi) {
    ProgramSpec spec{script.schema.providers[pi], {}};
    for (uint32_t si = 0; si < script.sessions.size(); ++si) {
      for (const SessionDecl::Enable& en : script.sessions[si].enables) {
        if (en.provider == pi) spec.sessions.push_back(SessionEntry::sharing(si, en.params));
      }
    }
    Result<ir::Program> prog = lower(spec);
    ASSERT_TRUE(prog.has_value()) << prog.error().message;
    if (GetParam().engine == EngineKind::Interp) programs.push_back(*Interpreter::create(*prog));
    if (GetParam().engine == EngineKind::JitO0 || GetParam().engine == EngineKind::JitDefault) {
      auto jit = JitProgram::create(
          *prog, GetParam().engine == EngineKind::JitO0 ? OptLevel::O0 : kDefaultOptLevel);
      ASSERT_TRUE(jit.has_value()) << jit.error().message;
      programs.push_back(*jit);
    }
    specs.push_back(std::move(spec));
  }
  const std::vector<std::string> events = lines(read(dir / "events.jsonl"));
  const std::vector<std::string> expected = lines(read(dir / "expected.jsonl"));
  ASSERT_EQ(events.size(), expected.size());
  for (size_t i = 0; i < events.size(); ++i) {
    const CaseEvent ce = parse_event(events[i], script.schema);
    const EventView view = ce.event.view();
    const RouteResult r =
        GetParam().engine == EngineKind::Oracle
            ? oracle_route(specs[ce.provider].provider, specs[ce.provider].sessions, view)
            : programs[ce.provider]->route(view);
    EXPECT_EQ(result_line(i, r, script), expected[i]) << "event: " << events[i];
  }
}

std::vector<Param> all_params() {
  std::vector<Param> out;
  std::vector<std::string> cases;
  for (const auto& entry : fs::directory_iterator(PFC_FORMER_BUGS_DIR)) {
    if (entry.is_directory()) cases.push_back(entry.path().filename().string());
  }
  std::sort(cases.begin(), cases.end());
  for (const std::string& c : cases) {
    out.push_back({c + "/interp", EngineKind::Interp});
    out.push_back({c + "/jit_O0", EngineKind::JitO0});
    out.push_back({c + "/jit_default", EngineKind::JitDefault});
    out.push_back({c + "/oracle", EngineKind::Oracle});
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Cases, FormerBug, testing::ValuesIn(all_params()),
                         [](const testing::TestParamInfo<Param>& p) {
                           std::string n = p.param.name;
                           for (char& c : n) c = (c == '/') ? '_' : c;
                           return n;
                         });

}  // namespace
}  // namespace pfc

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
