// compiler/check.h — semantic checking: resolves the AST against its own schema, converts
// values with TDH rules (docs/semantics.md §2.3), and produces the schema plus every session's
// EnableParams. Reports every error it finds (not just the first), with positions.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "grammar/ast.h"
#include "grammar/source.h"
#include "pfc/enable.h"
#include "pfc/schema.h"

namespace pfc {

struct SessionDecl {
  struct Enable {
    uint32_t provider = 0;  // index into CheckedScript::schema.providers
    // Shared with the routers built from the script (a filter may hold millions of
    // predicates). Not null; not to be changed once a router holds it.
    std::shared_ptr<EnableParams> params = std::make_shared<EnableParams>();
    SourcePos pos;
    std::vector<SourcePos> payload_pos;  // the `payload` keyword of each params.payload[i]
  };
  std::string name;
  SourcePos pos;
  std::vector<Enable> enables;  // in source order; a provider at most once per session
};

struct CheckedScript {
  Schema schema;                      // providers in source order
  std::vector<SessionDecl> sessions;  // in source order; index = session slot (≤ 64)
};

struct CheckOutput {
  CheckedScript script;                 // meaningful only when ok()
  std::vector<Diagnostic> diagnostics;  // sorted by position
  bool ok() const;                      // no diagnostic of severity Error
};

CheckOutput check_script(const ast::Script& script);

// A manifest named by `import "…";`, loaded by the caller (compiler/frontend.cc).
struct ManifestImport {
  SourcePos pos;                       // the import statement (diagnostics)
  std::string path;                    // as written
  std::vector<ProviderDef> providers;  // the manifest's providers (empty when `error` is set)
  std::string error;                   // non-empty: why it could not be loaded (one line)
};

// check_script with imported manifests: their providers join the schema after the script's
// own (in import order), so sessions can enable them and payload filters can name their
// events and fields. A load error, or an imported provider whose name or GUID is already
// declared (by the script or an earlier import), is a diagnostic at the import. With the
// script's `source`, errors about one character of a `matches`/`regex` pattern point at it
// (without it, at the pattern's opening quote).
CheckOutput check_script(const ast::Script& script, const std::vector<ManifestImport>& imports,
                         const SourceFile* source = nullptr);

// check_script in two steps, so a caller can free the AST between them (the dead-filter
// analysis lowers every payload filter to IR; for a large script the AST is the largest
// structure): check_declarations reports every error; add_dead_filter_warnings then adds
// the dead-filter warnings (docs/cli.md "Diagnostics"; nothing when `out` has an error),
// keeping `out.diagnostics` sorted. Together they give exactly check_script's output.
CheckOutput check_declarations(const ast::Script& script,
                               const std::vector<ManifestImport>& imports,
                               const SourceFile* source = nullptr);
void add_dead_filter_warnings(CheckOutput& out, const SourceFile* source = nullptr);

}  // namespace pfc
