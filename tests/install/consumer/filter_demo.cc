// tests/install/consumer/filter_demo.cc — an embedder of the installed C++ API
// (pfc/filter.h): compiles a script with an error (diagnostics as data), then a good one,
// routes and explains events, adds a provider and a session by hand. Exits 0 when every
// result is the expected one; prints what differed otherwise.
#include <pfc/filter.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

int failures = 0;

void expect(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "filter_demo: FAILED: %s\n", what);
    ++failures;
  }
}

const char* kScript = R"(provider App {6B0D5E3C-8F1A-4B6E-9C2D-3A4F5B6C7D8E} {
    event Tick (id=1, level=4) { counter: uint32; }
}
session all { enable App level=verbose; }
session some {
    enable App level=4 { payload Tick all { counter gt 5 } }
}
)";
pfc::Event tick(uint8_t level, uint32_t counter) {
  pfc::Event e;
  e.desc.id = 1;
  e.desc.level = level;
  e.name = "Tick";
  e.payload.resize(4);
  std::memcpy(e.payload.data(), &counter, 4);
  return e;
}

}  // namespace

int main(int argc, char** argv) {
  const pfc::Engine engine =
      pfc::engine_from_name(argc > 1 ? argv[1] : "auto").value_or(pfc::Engine::Auto);
  pfc::FilterOptions options;
  options.engine = engine;
  int delivered = 0;
  options.on_event = [&](pfc::SessionId, const pfc::EventView&, bool) { ++delivered; };

  pfc::CompileResult bad = pfc::Filter::compile("session s { enable Nope; }", options);
  expect(!bad.ok() && !bad.diagnostics.empty(), "a bad script gives diagnostics");
  expect(!bad.diagnostics.empty() && bad.diagnostics[0].severity == pfc::Severity::Error &&
             bad.diagnostics[0].pos.line == 1,
         "the diagnostic is an error on line 1");
  expect(bad.report.find("<script>:1:") != std::string::npos, "the report names the position");

  pfc::CompileResult good = pfc::Filter::compile(kScript, options, "demo.pfs");
  if (!good.ok()) {
    std::fprintf(stderr, "%s%s\n", good.report.c_str(), good.status.message().c_str());
    return 1;
  }
  pfc::Filter& filter = *good.filter;
  const auto app = filter.find_provider("App");
  expect(app && *app == 0, "provider App is index 0");
  expect(filter.find_session("some") == 1u, "session some is slot 1");
  expect(filter.enabled(0, 4, 0), "App is enabled at information");

  const pfc::Event small = tick(4, 3), big = tick(4, 9);
  expect(filter.route(0, small.view()).deliver == 0b01, "counter 3 goes to 'all' only");
  expect(filter.write(0, big.view()).deliver == 0b11, "counter 9 goes to both");
  expect(delivered == 2, "write() delivered to both sessions");

  pfc::Decision why;
  expect(filter.explain(0, small.view(), 0, &why).ok(), "explain succeeds");
  expect(why.rejected.size() == 1 && why.rejected[0].session == 1 &&
             why.rejected[0].reason == "payload",
         "session 'some' rejects counter 3 for its payload filter");

  pfc::ProviderDef other;
  other.name = "Other";
  other.guid = *pfc::Guid::parse("{0E95CFBC-58D4-44BA-BE40-E63A853536DF}");
  size_t index = 0;
  pfc::SessionId mine = 0;
  expect(filter.add_provider(other, &index).ok() && index == 1, "add_provider");
  expect(filter.add_session("mine", &mine).ok() && mine == 2, "add_session gets slot 2");
  pfc::EnableParams params;
  params.level = 5;
  expect(filter.enable(mine, other.guid, params).ok(), "enable by hand");
  pfc::Event e;
  e.desc.level = 5;
  expect(filter.route(1, e.view()).deliver == 0b100, "Other routes to 'mine'");
  expect(!filter.add_session("mine", nullptr).ok(), "a second session 'mine' is refused");

  std::printf("filter_demo: engine %s, %s\n",
              std::string(pfc::engine_name(filter.engine())).c_str(), failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
