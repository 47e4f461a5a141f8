// cli/term.h — terminal manners of the `pfc` command: whether stderr gets colour
// (--color=auto|always|never, NO_COLOR, TERM=dumb), the ANSI colours of diagnostics, and
// whether a stream is a terminal (progress display).
#pragma once

#include <string>
#include <string_view>

namespace pfc::cli {

enum class ColorMode : unsigned char { Auto, Always, Never };

// Parses "auto" | "always" | "never" (CLI11 checks the word first).
ColorMode parse_color_mode(std::string_view word);

// always → true; never → false; auto → stderr is a terminal, NO_COLOR is unset or empty
// and TERM is not "dumb" (https://no-color.org: an explicit option wins over NO_COLOR).
bool want_color(ColorMode mode);

// The process-wide choice for stderr, set once by main before any command runs.
void set_stderr_color(bool on);
bool stderr_color();

// True when file descriptor `fd` is a terminal.
bool is_terminal(int fd);

// ANSI SGR wrapping, or the text unchanged when off. Colours as GCC and Clang use them.
class Paint {
 public:
  explicit Paint(bool on) : on_(on) {}
  std::string bold(std::string_view text) const { return wrap("\x1b[1m", text); }
  std::string error(std::string_view text) const { return wrap("\x1b[1;31m", text); }
  std::string warning(std::string_view text) const { return wrap("\x1b[1;35m", text); }
  std::string note(std::string_view text) const { return wrap("\x1b[1;36m", text); }
  std::string caret(std::string_view text) const { return wrap("\x1b[1;32m", text); }

 private:
  std::string wrap(std::string_view sgr, std::string_view text) const;
  bool on_;
};

// A diagnostic as SourceFile::render writes it ("FILE:L:C: SEVERITY: MESSAGE\n<line>\n
// <caret>\n"), coloured when `on`; other text is returned unchanged.
std::string paint_diagnostic(std::string rendered, bool on);

}  // namespace pfc::cli
