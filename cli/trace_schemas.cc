// cli/trace_schemas.cc — see trace_schemas.h.
#include "cli/trace_schemas.h"

#include "base/utf8.h"
#include "cli/exit_code.h"
#include "cli/files.h"
#include "cli/script_loader.h"
#include "etw/session_info.h"
#include "runtime/manifest.h"

namespace pfc::cli {
namespace {

std::optional<int> load_manifest(const std::string& path, std::vector<ProviderDef>& out,
                                 std::ostream& err) {
  auto text = read_whole_file(path, kMaxManifestBytes, "a manifest's limit");
  if (!text) {
    err << "pfc: error: " << text.error().message << '\n';
    return kExitInput;
  }
  auto parsed = parse_manifest(*text);
  if (!parsed) {
    err << "pfc: error: " << parsed.error().to_string(path) << '\n';
    return kExitInput;
  }
  out.insert(out.end(), parsed->begin(), parsed->end());
  return std::nullopt;
}

}  // namespace

std::optional<int> load_trace_schemas(const std::vector<std::string>& paths,
                                      std::vector<ProviderDef>& out, std::ostream& err) {
  for (const std::string& path : paths) {
    if (path.ends_with(".man")) {
      if (auto rc = load_manifest(path, out, err)) return rc;
    } else if (path.ends_with(".pfs")) {
      auto script = load_script(path, err);
      if (!script) return script.error();
      const auto& providers = script->checked().schema.providers;
      out.insert(out.end(), providers.begin(), providers.end());
    } else {
      err << "pfc: error: --schema " << path
          << ": expected a filter script (.pfs) or an instrumentation manifest (.man)\n"
          << "Run 'pfc trace --help' for usage.\n";
      return kExitUsage;
    }
  }
  return std::nullopt;
}

std::vector<ProviderDef> published_schemas(const std::string& name) {
  std::u16string wide;
  utf8_to_utf16(name, wide);
  auto found = etw::session_schemas(wide);
  return found ? std::move(*found) : std::vector<ProviderDef>{};
}

}  // namespace pfc::cli
