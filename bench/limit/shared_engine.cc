// bench/limit/shared_engine.cc — see shared_engine.h.
#include "bench/limit/shared_engine.h"

#include <cstdio>
#include <cstdlib>

#include "compiler/ir_wire.h"
#include "compiler/jit/shared_code.h"
#include "compiler/lower.h"

namespace pfc::bench {

namespace {

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "bench_limit: shared code: %s\n", message.c_str());
  std::abort();
}

// Owns the program (the table points into it) and the loaded code.
class SharedProgram final : public RoutingProgram {
 public:
  explicit SharedProgram(ir::Program program) : program_(std::move(program)) {}
  void load() {
    auto bytes = compile_shared(program_, program_key(ir::encode_program(program_)));
    if (!bytes) fail(bytes.error().message);
    auto file = parse_native_file(*bytes);
    if (!file) fail(file.error().message);
    auto loaded = load_native(*file, program_);
    if (!loaded) fail(loaded.error().message);
    code_ = std::move(*loaded);
    fn_ = code_->fn();
  }
  PFC_CALLS_JIT_CODE RouteResult route(const EventView& event) const noexcept override {
    return call_native(fn_, event);
  }

 private:
  ir::Program program_;
  std::unique_ptr<LoadedNative> code_;
  SharedRouteFn fn_ = nullptr;
};

}  // namespace

std::shared_ptr<const RoutingProgram> build_shared(const ProgramSpec& spec) {
  auto program = lower(spec);
  if (!program) fail("lower failed: " + program.error().message);
  auto shared = std::make_shared<SharedProgram>(std::move(*program));
  shared->load();
  return shared;
}

}  // namespace pfc::bench
