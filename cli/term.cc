// cli/term.cc — colour choice and ANSI painting.
#include "cli/term.h"

#include <unistd.h>

#include <array>
#include <cstdlib>
#include <utility>

namespace pfc::cli {
namespace {

bool g_stderr_color = false;

}  // namespace

ColorMode parse_color_mode(std::string_view word) {
  if (word == "always") return ColorMode::Always;
  if (word == "never") return ColorMode::Never;
  return ColorMode::Auto;
}

bool want_color(ColorMode mode) {
  if (mode != ColorMode::Auto) return mode == ColorMode::Always;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && no_color[0] != '\0') return false;
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::string_view(term) == "dumb") return false;
  return is_terminal(STDERR_FILENO);
}

void set_stderr_color(bool on) { g_stderr_color = on; }
bool stderr_color() { return g_stderr_color; }

bool is_terminal(int fd) { return ::isatty(fd) == 1; }

std::string Paint::wrap(std::string_view sgr, std::string_view text) const {
  if (!on_ || text.empty()) return std::string(text);
  std::string out(sgr);
  out += text;
  out += "\x1b[0m";
  return out;
}

std::string paint_diagnostic(std::string rendered, bool on) {
  if (!on) return rendered;
  const Paint paint(true);
  const size_t eol = rendered.find('\n');
  if (eol == std::string::npos) return rendered;
  const std::string_view head(rendered.data(), eol);
  static constexpr std::array<std::pair<std::string_view, int>, 3> kSeverities = {
      {{": error: ", 0}, {": warning: ", 1}, {": note: ", 2}}};
  for (const auto& [word, kind] : kSeverities) {
    const size_t at = head.find(word);
    if (at == std::string_view::npos) continue;
    const std::string_view label = word.substr(2, word.size() - 3);  // "error:"
    const std::string colored_label = kind == 0   ? paint.error(label)
                                      : kind == 1 ? paint.warning(label)
                                                  : paint.note(label);
    std::string out = paint.bold(head.substr(0, at + 1)) + " " + colored_label + " " +
                      paint.bold(head.substr(at + word.size())) + "\n";
    const std::string_view rest = std::string_view(rendered).substr(eol + 1);
    const size_t line_end = rest.find('\n');
    if (line_end == std::string_view::npos) return out + std::string(rest);
    out += rest.substr(0, line_end + 1);
    std::string_view caret = rest.substr(line_end + 1);
    if (!caret.empty() && caret.back() == '\n') caret.remove_suffix(1);
    return out + paint.caret(caret) + "\n";
  }
  return rendered;
}

}  // namespace pfc::cli
