// compiler/frontend.cc — parse + check in one call (frontend.h): the checker runs only on a
// script that parsed; the diagnostics are the parser's or the checker's. Imported
// manifests (`import "…";`) are read here, relative to the script's directory, and parsed
// with runtime/manifest.h before checking.
#include "compiler/frontend.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "runtime/manifest.h"

namespace pfc {
namespace {

// Reads the manifest `file` into `text`; on failure returns "cannot read FILE: REASON"
// (missing, a directory or another non-regular file, unreadable) or the size-limit error.
// Reads at most kMaxManifestBytes + 1 bytes, whatever the file claims to hold.
std::string read_manifest(const std::filesystem::path& file, std::string& text) {
  const std::string cannot = "cannot read " + file.string() + ": ";
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(file, ec);
  if (ec) return cannot + ec.message();
  if (std::filesystem::is_directory(st)) return cannot + "it is a directory";
  if (!std::filesystem::is_regular_file(st)) return cannot + "not a regular file";
  std::ifstream in(file, std::ios::binary);
  if (!in) return cannot + std::strerror(errno);
  constexpr size_t kChunk = size_t{1} << 16;
  while (in && text.size() <= kMaxManifestBytes) {
    const size_t at = text.size();
    text.resize(at + kChunk);
    in.read(text.data() + at, kChunk);
    text.resize(at + static_cast<size_t>(in.gcount()));
  }
  if (in.bad()) return cannot + "read error";
  if (text.size() > kMaxManifestBytes) return manifest_size_error(file.string());
  return {};
}

// Reads and parses one import; failures go to `im.error`.
ManifestImport load_import(const ast::Import& imp, const std::filesystem::path& dir) {
  ManifestImport im;
  im.pos = imp.pos;
  im.path = imp.path.value;
  const std::filesystem::path file = dir / imp.path.value;
  std::string text;
  im.error = read_manifest(file, text);
  if (!im.error.empty()) return im;
  auto parsed = parse_manifest(text);
  if (!parsed) {
    im.error = parsed.error().to_string(file.string());
    return im;
  }
  im.providers = std::move(*parsed);
  return im;
}

}  // namespace

bool FrontendOutput::ok() const {
  return std::none_of(diagnostics.begin(), diagnostics.end(),
                      [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

FrontendOutput compile_script(const SourceFile& source) {
  FrontendOutput out;
  ParseOutput parsed = parse_script(source);
  if (!parsed.ok()) {
    out.diagnostics = std::move(parsed.diagnostics);
    return out;
  }
  std::vector<ManifestImport> imports;
  imports.reserve(parsed.script.imports.size());
  const std::filesystem::path dir = std::filesystem::path(source.name()).parent_path();
  for (const ast::Import& imp : parsed.script.imports) imports.push_back(load_import(imp, dir));
  out.checked = check_declarations(parsed.script, imports, &source);
  // Nothing reads the AST after this; for a large script it is the largest structure
  // (about 230 bytes per predicate), so it goes before the dead-filter analysis lowers
  // the filters to IR.
  parsed.script = {};
  imports.clear();
  add_dead_filter_warnings(out.checked, &source);
  out.diagnostics = out.checked.diagnostics;
  return out;
}

Result<CheckedScript> check_script_text(std::string name, std::string text) {
  const SourceFile source(std::move(name), std::move(text));
  FrontendOutput out = compile_script(source);
  for (const Diagnostic& d : out.diagnostics) {
    if (d.severity != Severity::Error) continue;
    std::string line = source.render(d);
    return make_error(line.substr(0, line.find('\n')));
  }
  return std::move(out.checked.script);
}

}  // namespace pfc
