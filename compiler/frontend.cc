// compiler/frontend.cc — parse + check in one call (frontend.h): the checker runs only on a
// script that parsed; the diagnostics are the parser's or the checker's. Imported
// manifests (`import "…";`) are read here, relative to the script's directory, and parsed
// with runtime/manifest.h before checking.
#include "compiler/frontend.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "runtime/manifest.h"

namespace pfc {
namespace {

// Reads and parses one import; failures go to `im.error`.
ManifestImport load_import(const ast::Import& imp, const std::filesystem::path& dir) {
  ManifestImport im;
  im.pos = imp.pos;
  im.path = imp.path.value;
  const std::filesystem::path file = dir / imp.path.value;
  std::error_code ec;
  std::ifstream in;
  if (std::filesystem::is_regular_file(file, ec)) in.open(file, std::ios::binary);
  if (!in) {
    im.error = "cannot read " + file.string();
    return im;
  }
  std::ostringstream text;
  text << in.rdbuf();
  auto parsed = parse_manifest(text.str());
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
  out.ast = std::move(parsed.script);
  if (!parsed.ok()) {
    out.diagnostics = std::move(parsed.diagnostics);
    return out;
  }
  std::vector<ManifestImport> imports;
  const std::filesystem::path dir = std::filesystem::path(source.name()).parent_path();
  for (const ast::Import& imp : out.ast.imports) imports.push_back(load_import(imp, dir));
  out.checked = check_script(out.ast, imports);
  out.diagnostics = out.checked.diagnostics;
  return out;
}

}  // namespace pfc
