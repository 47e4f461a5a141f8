// cli/commands/mc.cc — `pfc mc -um [-h DIR] [-z BASENAME] MANIFEST.man` (docs/cli.md): writes
// DIR/BASENAME.h, the header mc.exe -um generates for the manifest (cli/mc_header.h). mc's
// own option spellings (-um, -h DIR, -z NAME) do not fit CLI11's, so main hands the
// arguments after "mc" to parse_mc_args.
#include <filesystem>

#include "cli/commands/commands.h"
#include "cli/exit_code.h"
#include "cli/files.h"
#include "cli/mc_header.h"
#include "cli/output_file.h"
#include "runtime/manifest.h"

namespace pfc::cli {

std::expected<McOptions, std::string> parse_mc_args(const std::vector<std::string>& args) {
  McOptions o;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help") {
      o.help = true;
    } else if (a == "-um") {
      o.user_mode = true;
    } else if (a == "-h" || a == "-z") {
      if (i + 1 == args.size()) return std::unexpected("mc: " + a + " needs a value");
      (a == "-h" ? o.dir : o.base) = args[++i];
    } else if (a.size() > 1 && a[0] == '-') {
      return std::unexpected("mc: unknown option '" + a + "'");
    } else if (!o.manifest.empty()) {
      return std::unexpected("mc: more than one manifest given ('" + o.manifest + "', '" + a +
                             "')");
    } else {
      o.manifest = a;
    }
  }
  if (o.help) return o;
  if (!o.user_mode) return std::unexpected("mc: -um is required (pfc mc writes user-mode code)");
  if (o.manifest.empty()) return std::unexpected("mc: MANIFEST is required");
  if (o.base.empty() && o.manifest == "-")
    return std::unexpected("mc: a manifest from standard input (-) needs -z BASENAME");
  if (o.base.empty()) o.base = std::filesystem::path(o.manifest).stem().string();
  if (o.base.empty() || o.base.find('/') != std::string::npos)
    return std::unexpected("mc: -z " + o.base + ": expected a file name without a directory");
  return o;
}

int command_mc(const McOptions& options, std::ostream& err) {
  const std::string name = options.manifest == "-" ? "<stdin>" : options.manifest;
  auto text = read_whole_file(options.manifest, kMaxManifestBytes, "a manifest's limit");
  if (!text) {
    err << "pfc: error: " << text.error().message << '\n';
    return kExitInput;
  }
  std::vector<ManifestProviderInfo> info;
  auto parsed = parse_manifest(*text, info);
  if (!parsed) {
    err << "pfc: error: " << parsed.error().to_string(name) << '\n';
    return kExitInput;
  }
  auto header = mc_header(*parsed, info, std::filesystem::path(name).filename().string());
  if (!header) {
    const McError& e = header.error();
    err << "pfc: error: "
        << ManifestError{ManifestError::Kind::Content, e.at.line, e.at.column, e.message}.to_string(
               name)
        << '\n';
    return kExitInput;
  }
  auto out =
      OutputFile::open((std::filesystem::path(options.dir) / (options.base + ".h")).string());
  if (!out) {
    err << "pfc: error: " << out.error().message << '\n';
    return kExitInput;
  }
  out->write(*header);
  return out->close() ? kExitOk : report_write_error(*out, err);
}

}  // namespace pfc::cli
