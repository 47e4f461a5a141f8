// cli/trace_schemas.h — provider schemas for `pfc trace`: from --schema files (filter
// scripts .pfs, instrumentation manifests .man), published with a session's enables or
// recorded in a log file (PfcEnumerateTraceSchemas, docs/etw.md "pfc extensions"). `show`
// decodes fields with them; `enable` and `disable` resolve PROVIDER names with them
// (docs/cli.md "pfc trace").
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "pfc/schema.h"

namespace pfc::cli {

// Loads every file: FILE.pfs through the checker (its diagnostics printed), FILE.man
// through the manifest parser. Returns nullopt, or the exit code of the first failure
// (1: the file cannot be read or has errors; 2: neither .pfs nor .man).
std::optional<int> load_trace_schemas(const std::vector<std::string>& paths,
                                      std::vector<ProviderDef>& out, std::ostream& err);

// The providers whose schemas the enables of session `name` published, in enable order
// (empty when none, or when the namespace cannot be read).
std::vector<ProviderDef> published_schemas(const std::string& name);

// The provider schemas a log file records (docs/logfile.md, section 2), in its order:
// manifests (kind 2) and pfc enable extensions (kind 3) are decoded; other kinds, and
// schemas that do not decode, are skipped with a warning to `err`, as are schemas the
// writer had to leave out. Empty when `path` is not a readable log file (its reader says
// why).
std::vector<ProviderDef> log_file_schemas(const std::string& path, std::ostream& err);

}  // namespace pfc::cli
