// tests/cli/emit_ir_test.cc — `pfc compile --emit ir` prints exactly the programs the router
// installs: the script is routed in-process through a recording ProgramCompiler (what the
// router really compiled, last compile per provider) and the dump of those programs must
// equal the command's output — for legacy providers too, where the router keeps only the
// last enabler (docs/semantics.md §1.9).
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

#include "cli/router_setup.h"
#include "cli/script_loader.h"
#include "compiler/interp.h"
#include "compiler/ir_dump.h"
#include "compiler/lower.h"
#include "tests/cli/process.h"

namespace pfc::test {
namespace {

// Records the spec of every program the router compiles; routes with the interpreter.
class RecordingCompiler final : public ProgramCompiler {
 public:
  Result<std::shared_ptr<const RoutingProgram>> compile(const ProgramSpec& spec) override {
    last[spec.provider.name] = spec;
    return InterpCompiler().compile(spec);
  }
  std::map<std::string, ProgramSpec> last;  // provider name → its installed program's spec
};

TEST(EmitIr, EqualsTheProgramsTheRouterInstalls) {
  const std::string script = std::string(PFC_DATA_DIR) + "/legacy_emit.pfs";
  std::ostringstream err;
  auto loaded = cli::load_script(script, err);
  ASSERT_TRUE(loaded.has_value()) << err.str();
  auto recorder = std::make_shared<RecordingCompiler>();
  auto routed = build_router(loaded->checked(), recorder);
  ASSERT_TRUE(routed.has_value()) << routed.error().message;

  // The legacy provider's program serves only B (slot 1), the last enabler.
  ASSERT_EQ(recorder->last.count("L"), 1u);
  ASSERT_EQ(recorder->last["L"].sessions.size(), 1u);
  EXPECT_EQ(recorder->last["L"].sessions[0].slot, 1u);
  ASSERT_EQ(recorder->last["M"].sessions.size(), 2u);

  std::string expected;
  for (const char* name : {"L", "M"}) {
    auto program = lower(recorder->last[name]);
    ASSERT_TRUE(program.has_value()) << program.error().message;
    expected += "; provider " + std::string(name) + "\n" + dump_ir(*program);
  }
  const ProcessResult got = run_process(PFC_BINARY, {"compile", script, "--emit", "ir"});
  EXPECT_EQ(got.exit_code, 0) << got.err;
  EXPECT_EQ(got.err, "");
  EXPECT_EQ(got.out, expected);
}

}  // namespace
}  // namespace pfc::test
