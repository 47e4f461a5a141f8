// tests/cli/router_setup_test.cc — build_router (api/script_router.h) compiles each enabled
// provider once, for the script's final state (issue B4: 64 sessions recompiled the
// provider 64 times), and gives the same router state as registering the providers first
// and then applying the enables one by one.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <string>

#include "cli/router_setup.h"
#include "compiler/frontend.h"
#include "compiler/interp.h"

namespace pfc::cli {
namespace {

// The interpreter, counting compilations per provider.
class CountingCompiler final : public ProgramCompiler {
 public:
  Result<std::shared_ptr<const RoutingProgram>> compile(const ProgramSpec& spec) override {
    ++compiles[spec.provider.name];
    return inner_.compile(spec);
  }
  std::map<std::string, int> compiles;

 private:
  InterpCompiler inner_;
};

constexpr const char* kScript = R"(
provider P {11111111-2222-3333-4444-555555555555} { event E (id=1, level=4) { A: uint32; } }
provider L {11111111-2222-3333-4444-666666666666} legacy { event E (id=1) { } }
provider Q {11111111-2222-3333-4444-777777777777} { event E (id=1) { } }
session S1 { enable P level=4 { payload E where A eq 1; } enable L level=2; }
session S2 { enable P level=5 { payload E where A eq 2; } enable L level=3; }
session S3 { enable P { payload E where A gt 2; } }
)";

CheckedScript checked() {
  FrontendOutput out = compile_script(SourceFile("t.pfs", kScript));
  EXPECT_TRUE(out.ok());
  return out.checked.script;
}

TEST(RouterSetup, CompilesEachEnabledProviderOnce) {
  const CheckedScript script = checked();
  auto compiler = std::make_shared<CountingCompiler>();
  auto routed = build_router(script, compiler);
  ASSERT_TRUE(routed) << routed.error().message;
  EXPECT_EQ(compiler->compiles, (std::map<std::string, int>{{"P", 1}, {"L", 1}}));
}

// The same composite states and routing decisions as providers first, enables one by one.
TEST(RouterSetup, SameStateAsRegisteringFirst) {
  const CheckedScript script = checked();
  auto routed = build_router(script, std::make_shared<InterpCompiler>());
  ASSERT_TRUE(routed) << routed.error().message;
  auto reference = Router::create(std::make_shared<InterpCompiler>());
  ASSERT_TRUE(reference);
  std::vector<ProviderHandle> handles;
  handles.reserve(script.schema.providers.size());
  for (const ProviderDef& p : script.schema.providers)
    handles.push_back(*(*reference)->register_provider(p));
  for (const SessionDecl& s : script.sessions)
    ASSERT_TRUE((*reference)->create_session(s.name, nullptr));
  for (size_t i = 0; i < script.sessions.size(); ++i)
    for (const SessionDecl::Enable& e : script.sessions[i].enables)
      ASSERT_TRUE(
          (*reference)->enable(SessionId(i), script.schema.providers[e.provider].guid, e.params));
  for (size_t p = 0; p < handles.size(); ++p) {
    EXPECT_EQ(routed->router->composite(routed->providers[p]), (*reference)->composite(handles[p]))
        << p;
    for (uint32_t a : {1u, 2u, 3u}) {
      for (uint8_t level : {1, 3, 5}) {
        Event e;
        e.desc.id = 1;
        e.desc.level = level;
        e.payload = {uint8_t(a), 0, 0, 0};
        EXPECT_EQ(routed->router->route(routed->providers[p], e.view()),
                  (*reference)->route(handles[p], e.view()))
            << p << " " << a << " " << int(level);
      }
    }
  }
}

}  // namespace
}  // namespace pfc::cli
