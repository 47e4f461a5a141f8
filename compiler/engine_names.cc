// compiler/engine_names.cc — engine_name and engine_from_name (pfc/filter.h): the engine
// names, in pfc_compiler so that a library without the JIT (libpfc_etw, docs/etw.md
// "Engine") reads them from the same table as the engine factory (compiler/jit/engine.h).
#include <cstddef>
#include <iterator>

#include "pfc/filter.h"

namespace pfc {

namespace {

constexpr std::string_view kEngineNames[] = {"interp", "jit", "auto", "crosscheck"};

}  // namespace

std::string_view engine_name(Engine engine) { return kEngineNames[static_cast<size_t>(engine)]; }

std::optional<Engine> engine_from_name(std::string_view name) {
  for (size_t i = 0; i < std::size(kEngineNames); ++i)
    if (name == kEngineNames[i]) return static_cast<Engine>(i);
  return std::nullopt;
}

}  // namespace pfc
