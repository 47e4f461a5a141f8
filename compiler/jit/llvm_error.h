// compiler/jit/llvm_error.h — the single place where llvm::Error and llvm::Expected<T> are
// turned into pfc::Error (docs/style.md §4). Internal to compiler/jit/.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include <llvm/Support/Error.h>

#include "base/error.h"

namespace pfc::internal {

// Consumes `err` and returns its message prefixed by `what` ("what: message").
// `err` must hold a failure.
inline Error llvm_to_error(llvm::Error err, std::string_view what) {
  return Error{std::string(what) + ": " + llvm::toString(std::move(err))};
}

// Converts an llvm::Error that may be success into a Result<void>.
inline Result<void> llvm_result(llvm::Error err, std::string_view what) {
  if (!err) return {};
  return std::unexpected(llvm_to_error(std::move(err), what));
}

// Converts an llvm::Expected<T> into a Result<T>.
template <typename T>
Result<T> llvm_result(llvm::Expected<T> value, std::string_view what) {
  if (!value) return std::unexpected(llvm_to_error(value.takeError(), what));
  return std::move(*value);
}

}  // namespace pfc::internal
