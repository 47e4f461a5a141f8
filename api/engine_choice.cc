// api/engine_choice.cc — engine → ProgramCompiler via make_program_compiler
// (compiler/jit/engine.h), recording the JIT failures and crosscheck disagreements.
#include "api/engine_choice.h"

#include <string>

#include "base/hex.h"
#include "compiler/jit/engine.h"

namespace pfc {

void EngineErrors::record(const Error& e) {
  std::lock_guard lock(mu_);
  if (!first_) first_ = e;
}

std::optional<Error> EngineErrors::first() const {
  std::lock_guard lock(mu_);
  return first_;
}

void EngineErrors::record_mismatch(std::string message) {
  std::lock_guard lock(mu_);
  if (mismatches_++ == 0) first_mismatch_ = std::move(message);
}

uint64_t EngineErrors::mismatches() const {
  std::lock_guard lock(mu_);
  return mismatches_;
}

std::optional<std::string> EngineErrors::first_mismatch() const {
  std::lock_guard lock(mu_);
  return first_mismatch_;
}

namespace {

std::string describe(const Mismatch& m) {
  return "event id " + std::to_string(m.desc.id) + " version " + std::to_string(m.desc.version) +
         " (" + std::to_string(m.payload_size) +
         " payload bytes): interpreter deliver=" + to_hex(m.interp.deliver) +
         " stack=" + to_hex(m.interp.stack) + ", JIT deliver=" + to_hex(m.native.deliver) +
         " stack=" + to_hex(m.native.stack);
}

}  // namespace

Result<EngineChoice> make_engine(std::string_view name) {
  const std::optional<Engine> engine = engine_from_name(name);
  if (!engine) return make_error("unknown engine '" + std::string(name) + "'");
  return make_engine(*engine);
}

EngineChoice make_engine(Engine engine, std::function<void(const Error&)> on_jit_error) {
  EngineChoice choice;
  choice.errors = std::make_shared<EngineErrors>();
  choice.strict = engine == Engine::Jit;
  EngineOptions options;
  options.on_jit_error = [errors = choice.errors, also = std::move(on_jit_error)](const Error& e) {
    errors->record(e);
    if (also) also(e);
  };
  options.on_mismatch = [errors = choice.errors](const Mismatch& m) {
    errors->record_mismatch(describe(m));
  };
  choice.compiler = make_program_compiler(engine, std::move(options));
  return choice;
}

}  // namespace pfc
