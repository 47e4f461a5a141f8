// grammar/parse.cc — the one parse call: validates the source (size, NUL, UTF-8), runs the
// PEGTL grammar with the builder as state, and is the only place that catches
// tao::pegtl::parse_error (and the builder's BuildError) to turn them into a Diagnostic.
#include "grammar/parse.h"

#include <algorithm>
#include <limits>
#include <new>
#include <optional>
#include <tao/pegtl.hpp>

#include "base/hex.h"
#include "base/utf8.h"

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
  try {
    internal::Builder builder(source, limits);
    pegtl::parse<internal::rules::grammar, internal::action, internal::control>(in, builder);
    out.script = builder.take_script();
  } catch (const pegtl::parse_error& e) {
    const size_t offset = bom + (e.positions().empty() ? 0 : e.positions().front().byte);
    out.diagnostics.push_back(make_diagnostic(source, offset, std::string(e.message())));
  } catch (const internal::BuildError& e) {
    out.diagnostics.push_back(make_diagnostic(source, e.offset, e.message));
  } catch (const std::bad_alloc&) {
    out.diagnostics.push_back(make_diagnostic(source, 0, "out of memory while parsing"));
  }
  return out;
}

}  // namespace pfc
