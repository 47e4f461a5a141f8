// cli/engine.cc — --engine name → ProgramCompiler via make_compiler (tiered.h).
#include "cli/engine.h"

#include <string>

#include "compiler/jit/tiered.h"

namespace pfc::cli {

void EngineErrors::record(const Error& e) {
  std::lock_guard lock(mu_);
  if (!first_) first_ = e;
}

std::optional<Error> EngineErrors::first() const {
  std::lock_guard lock(mu_);
  return first_;
}

Result<EngineChoice> make_engine(std::string_view name) {
  const std::optional<Engine> engine = engine_from_name(name);
  if (!engine) return make_error("unknown engine '" + std::string(name) + "'");
  EngineChoice choice;
  choice.errors = std::make_shared<EngineErrors>();
  choice.strict = *engine == Engine::Jit;
  EngineOptions options;
  options.on_jit_error = [errors = choice.errors](const Error& e) { errors->record(e); };
  choice.compiler = make_compiler(*engine, std::move(options));
  return choice;
}

}  // namespace pfc::cli
