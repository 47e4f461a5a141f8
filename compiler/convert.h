// compiler/convert.h — payload predicate values: the conversion of a value to its field's
// type the way TDH converts PAYLOAD_FILTER_PREDICATE.Value text (docs/semantics.md §2.3),
// following the operator/type table of base/payload_ops.h (which operators apply to
// which field types, how many values they take, each type's range). Used by
// compiler/check for script literals; the text form also serves the ETW-compatible API.
#pragma once

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

#include "base/payload_ops.h"
#include "grammar/ast.h"
#include "pfc/enable.h"
#include "pfc/schema.h"

namespace pfc::internal {

// An integer as written: magnitude and sign ("-0" is zero).
struct IntText {
  uint64_t magnitude = 0;
  bool negative = false;
};
// Parses TDH integer text: ASCII whitespace around the number is ignored, then an optional
// '-', then decimal digits or 0x/0X and hex digits; the magnitude must fit in 64 bits.
std::optional<IntText> parse_int_text(std::string_view text);

// The converted value, or a one-line diagnostic message (field name and type included).
using ConvertResult = std::expected<PayloadValue, std::string>;

// Converts PAYLOAD_FILTER_PREDICATE.Value text for field `field` of type `type` used with
// `op`: integers (pairs "lo,hi" for BETWEEN/NOTBETWEEN) range-checked against the type,
// strings taken as they are (UTF-8), GUIDs in registry format with braces after trimming.
// Also rejects operators that do not apply to the type, MODULO 0 and empty BETWEEN ranges.
ConvertResult convert_value_text(std::string_view field, InType type, PayloadOp op,
                                 std::string_view text);

// The same for a script literal: an int, an int pair, a GUID literal, or a string (which is
// converted exactly like convert_value_text).
ConvertResult convert_value(std::string_view field, InType type, PayloadOp op,
                            const ast::Value& value);

// Whether two fields can be compared with each other (field-to-field operators, FieldEq..FieldGe;
// docs/language.md §3.1): both scalar integers, and not a signed one against a 64-bit unsigned
// one (no common 64-bit comparison). The first offending field and what is wrong with it.
enum class FieldPairIssue : uint8_t { None, FirstNotInteger, SecondNotInteger, SignedWide };
FieldPairIssue field_pair_issue(const FieldDef& a, const FieldDef& b);

}  // namespace pfc::internal
