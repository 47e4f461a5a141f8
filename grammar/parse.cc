// grammar/parse.cc — the one parse call: validates the source (size, NUL, UTF-8), runs the
// PEGTL grammar with the builder as state, and is the only place that catches
// tao::pegtl::parse_error (and the builder's BuildError) to turn them into a Diagnostic.
#include "grammar/parse.h"

#include <algorithm>
#include <array>
#include <limits>
#include <new>
#include <optional>
#include <tao/pegtl.hpp>

#include "base/ascii.h"
#include "base/hex.h"
#include "base/suggest.h"
#include "base/utf8.h"

#include "base/payload_ops.h"
#include "grammar/actions.h"
#include "grammar/builder.h"
#include "grammar/errors.h"
#include "grammar/rules.h"

namespace pfc {
namespace {

Diagnostic make_diagnostic(const SourceFile& source, size_t offset, std::string message) {
  return Diagnostic{Severity::Error, source.position(offset), std::move(message)};
}

// The first NUL byte or invalid UTF-8 sequence, or a source over the size limit.
std::optional<Diagnostic> validate_source(const SourceFile& source, const ParseLimits& limits) {
  const std::string& text = source.text();
  const uint64_t max_bytes =
      std::min<uint64_t>(limits.max_source_bytes, std::numeric_limits<uint32_t>::max());
  if (text.size() > max_bytes) {
    return make_diagnostic(source, 0,
                           "source is " + std::to_string(text.size()) +
                               " bytes, more than the limit of " + std::to_string(max_bytes));
  }
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  for (size_t i = 0; i < text.size();) {
    if (p[i] >= 0x80) {
      char32_t cp = 0;
      const size_t len = decode_utf8_sequence(p + i, text.size() - i, &cp);
      if (len == 0) {
        return make_diagnostic(source, i,
                               "invalid UTF-8 (byte " + to_hex(p[i], 2, HexCase::Upper) + ")");
      }
      i += len;
    } else if (p[i] == 0) {
      return make_diagnostic(source, i, "NUL byte in source");
    } else {
      ++i;
    }
  }
  return std::nullopt;
}

// The end of the token before `offset`: back over whitespace and `#` comments (a `#` outside
// a string on the line), where clang reports a missing terminator.
size_t end_of_previous_token(std::string_view text, size_t offset, size_t floor) {
  size_t at = offset;
  while (true) {
    while (at > floor && is_ascii_space(static_cast<unsigned char>(text[at - 1]))) --at;
    const size_t line = text.rfind('\n', at == 0 ? 0 : at - 1);
    const size_t start = line == std::string_view::npos || at == 0 ? floor : line + 1;
    bool quoted = false;
    size_t hash = std::string_view::npos;
    for (size_t i = start; i < at && hash == std::string_view::npos; ++i) {
      if (text[i] == '"' && (i == start || text[i - 1] != '\\')) quoted = !quoted;
      if (text[i] == '#' && !quoted) hash = i;
    }
    if (hash == std::string_view::npos) return at;
    at = hash;
  }
}

// Words the parser knows, for "did you mean" on a misspelt one (docs/language.md §4): the
// words below, every filter keyword (ast::kFilterKindNames) and every operator spelled as
// one word of three letters or more (base/payload_ops.h), in this order (ties go to the
// earlier word).
constexpr std::string_view kLeadWords[] = {"import", "provider", "legacy",    "tracelogging",
                                           "event",  "session",  "enable",    "where",
                                           "group",  "level",    "properties"};
constexpr std::string_view kTailWords[] = {"version", "keyword", "opcode", "channel"};

constexpr bool is_operator_word(const internal::PayloadOpInfo& o) {
  return o.name.size() >= 3 && o.name.find_first_of(". ") == std::string_view::npos &&
         (o.flags & internal::kFieldOp) == 0;
}

constexpr size_t kNumOperatorWords = std::ranges::count_if(internal::kPayloadOps, is_operator_word);

constexpr auto kKeywords = [] {
  std::array<std::string_view, std::size(kLeadWords) + std::size(ast::kFilterKindNames) +
                                   kNumOperatorWords + std::size(kTailWords)>
      words{};
  size_t n = 0;
  for (std::string_view w : kLeadWords) words[n++] = w;
  for (std::string_view w : ast::kFilterKindNames) words[n++] = w;
  for (const internal::PayloadOpInfo& o : internal::kPayloadOps)
    if (is_operator_word(o)) words[n++] = o.name;
  for (std::string_view w : kTailWords) words[n++] = w;
  return words;
}();
constexpr std::string_view kLevelNames[] = {"log_always", "critical", "error",
                                            "warning",    "info",     "verbose"};

// A hint for the text at a parse error: C operators, single quotes, a misspelt keyword or
// level name. "" when there is none.
std::string parse_hint(std::string_view text, size_t offset, std::string_view message) {
  const std::string_view at = text.substr(std::min(offset, text.size()));
  if (at.starts_with("&&")) return "; use 'and' instead of '&&'";
  if (at.starts_with("||")) return "; use 'or' instead of '||'";
  if (at.starts_with("!") && !at.starts_with("!=")) return "; use 'not' instead of '!'";
  if (at.starts_with("'")) return "; strings are written in double quotes (\"...\")";
  size_t n = 0;
  while (n < at.size() && (is_ascii_alnum(static_cast<unsigned char>(at[n])) || at[n] == '_')) ++n;
  const std::string_view word = at.substr(0, n);
  if (word.size() < 3 || is_ascii_digit(static_cast<unsigned char>(word[0]))) return "";
  if (message.find("level name") != std::string_view::npos) {
    for (std::string_view l : kLevelNames) {
      if (l.size() > word.size() && iequals_ascii(l.substr(0, word.size()), word))
        return "; did you mean '" + std::string(l) + "'?";
    }
    return internal::did_you_mean(word, kLevelNames);
  }
  std::optional<size_t> best;
  size_t best_d = 3;
  for (std::string_view k : kKeywords) {
    if (iequals_ascii(k, word)) return "";  // a keyword out of place: no misspelling
  }
  for (size_t k = 0; k < std::size(kKeywords); ++k) {
    const size_t d = internal::edit_distance(word, kKeywords[k], 2);
    if (d > 0 && d < best_d) best = k, best_d = d;
  }
  if (!best || best_d > word.size() / 2) return "";
  return "; did you mean '" + std::string(kKeywords[*best]) + "'?";
}

// A parse error as clang reports it: a missing `;` at the end of the previous token with a
// fix-it, and a hint for what is at the error.
Diagnostic parse_diagnostic(const SourceFile& source, size_t offset, std::string message) {
  const std::string_view text = source.text();
  std::string fixit;
  std::string hint = parse_hint(text, offset, message);
  if (message.starts_with("expected ';'") && message.find(" or ") == std::string::npos) {
    offset = end_of_previous_token(text, offset, source.bom_size());
    fixit = ";";
  }
  Diagnostic d = make_diagnostic(source, offset, std::move(message) + hint);
  d.fixit = std::move(fixit);
  return d;
}

// clang's note at the delimiter an error could not close: "to match this '{'".
Diagnostic unclosed_note(const SourceFile& source, uint32_t offset) {
  const std::string message = std::string("to match this '") + source.text()[offset] + "'";
  return Diagnostic{Severity::Note, source.position(offset), message};
}

}  // namespace

ParseOutput parse_script(const SourceFile& source, const ParseLimits& limits) {
  namespace pegtl = tao::pegtl;
  ParseOutput out;
  if (auto bad = validate_source(source, limits)) {
    out.diagnostics.push_back(std::move(*bad));
    return out;
  }
  const std::string& text = source.text();
  const size_t bom = source.bom_size();  // a leading byte-order mark is skipped
  pegtl::memory_input<pegtl::tracking_mode::lazy, pegtl::eol::lf_crlf> in(
      text.data() + bom, text.data() + text.size(), source.name());
  std::optional<internal::Builder> builder;
  try {
    builder.emplace(source, limits);
    pegtl::parse<internal::rules::grammar, internal::action, internal::control>(in, *builder);
    out.script = builder->take_script();
  } catch (const pegtl::parse_error& e) {
    const size_t offset = bom + (e.positions().empty() ? 0 : e.positions().front().byte);
    out.diagnostics.push_back(parse_diagnostic(source, offset, std::string(e.message())));
    if (builder && builder->unclosed() != internal::Builder::kNoDelim)
      out.diagnostics.push_back(unclosed_note(source, builder->unclosed()));
  } catch (const internal::BuildError& e) {
    out.diagnostics.push_back(make_diagnostic(source, e.offset, e.message));
  } catch (const std::bad_alloc&) {
    out.diagnostics.push_back(make_diagnostic(source, 0, "out of memory while parsing"));
  }
  return out;
}

}  // namespace pfc
