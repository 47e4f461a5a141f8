// compiler/convert.cc — TDH-style value conversion for payload predicates (see convert.h;
// rules in docs/semantics.md §2.3), driven by the table of base/payload_ops.h.
#include "compiler/convert.h"

#include "base/ascii.h"
#include "base/integer_text.h"
#include "base/quote.h"
#include "base/utf8.h"

namespace pfc::internal {
namespace {

// The integer row of `t` (the caller knows it is an integer-like type).
const InTypeInfo& int_row(InType t) { return *find_payload_field_type(t); }

bool is_int_type(InType t) { return payload_value_kind(t) == ValueKind::Integer; }
bool is_string_type(InType t) { return payload_value_kind(t) == ValueKind::String; }

std::string int_text(IntText v) {
  return (v.negative && v.magnitude != 0 ? "-" : "") + std::to_string(v.magnitude);
}

std::string field_desc(std::string_view field, InType type) {
  return "field " + quote_text(field) + " of type '" + std::string(in_type_name(type)) + "'";
}

std::string range_text(const InTypeInfo& s) {
  return (s.max_negative ? "-" + std::to_string(s.max_negative) : std::string("0")) + ".." +
         std::to_string(s.max_positive);
}

// Range-checks `v` for the shape and returns its 64-bit two's complement bits.
std::expected<uint64_t, std::string> to_bits(std::string_view field, InType type, IntText v) {
  const InTypeInfo& s = int_row(type);
  const bool ok = v.negative ? v.magnitude <= s.max_negative : v.magnitude <= s.max_positive;
  if (!(ok || (v.negative && v.magnitude == 0))) {
    return std::unexpected("value " + int_text(v) + " is out of range for " +
                           field_desc(field, type) + " (" + range_text(s) + ")");
  }
  return v.negative ? uint64_t{0} - v.magnitude : v.magnitude;
}

bool less_than(InType type, uint64_t a, uint64_t b) {
  return int_row(type).is_signed ? static_cast<int64_t>(a) < static_cast<int64_t>(b) : a < b;
}

std::string to_signed_text(InType type, uint64_t bits) {
  return int_row(type).is_signed ? std::to_string(static_cast<int64_t>(bits))
                                 : std::to_string(bits);
}

// Converts one integer, or a pair for BETWEEN/NOTBETWEEN, after the operator check.
ConvertResult finish_ints(std::string_view field, InType type, PayloadOp op, IntText lo,
                          std::optional<IntText> hi) {
  PayloadValue out;
  auto l = to_bits(field, type, lo);
  if (!l) return std::unexpected(l.error());
  out.lo = *l;
  if (hi) {
    auto h = to_bits(field, type, *hi);
    if (!h) return std::unexpected(h.error());
    out.hi = *h;
    if (less_than(type, out.hi, out.lo)) {
      return std::unexpected("'" + std::string(payload_op_name(op)) +
                             "' range is empty: " + to_signed_text(type, out.lo) +
                             " is greater than " + to_signed_text(type, out.hi));
    }
  }
  if (find_payload_op(op)->nonzero && out.lo == 0) {
    return std::unexpected("'" + std::string(payload_op_name(op)) + "' by zero");
  }
  return out;
}

std::string pair_error(PayloadOp op) {
  return "operator '" + std::string(payload_op_name(op)) + "' takes one value, not a pair";
}

std::string needs_pair_error(PayloadOp op) {
  return "operator '" + std::string(payload_op_name(op)) + "' needs two values 'lo,hi'";
}

ConvertResult convert_string(std::string_view field, InType type, std::string_view text) {
  if (text.find('\0') != std::string_view::npos) {
    return std::unexpected("string value for " + field_desc(field, type) +
                           " cannot contain NUL characters");
  }
  if (type == InType::UnicodeString && !is_valid_utf8(text)) {
    return std::unexpected("string value for " + field_desc(field, type) + " is not valid UTF-8");
  }
  PayloadValue out;
  out.text = std::string(text);
  return out;
}

ConvertResult convert_guid_text(std::string_view field, std::string_view text) {
  const std::optional<Guid> g = Guid::parse(trim_ascii_space(text));
  if (!g) {
    return std::unexpected("invalid GUID " + quote_text(text) + " for " +
                           field_desc(field, InType::Guid) +
                           "; expected {xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}");
  }
  PayloadValue out;
  out.guid = *g;
  return out;
}

ConvertResult convert_int_text(std::string_view field, InType type, PayloadOp op,
                               std::string_view text) {
  const size_t comma = text.find(',');
  const bool pair = payload_op_takes_pair(op);
  if (!pair && comma != std::string_view::npos) return std::unexpected(pair_error(op));
  if (pair && comma == std::string_view::npos) return std::unexpected(needs_pair_error(op));
  const std::string_view first = pair ? text.substr(0, comma) : text;
  const std::optional<IntText> lo = parse_int_text(first);
  if (!lo) {
    return std::unexpected("invalid integer " + quote_text(first) + " for " +
                           field_desc(field, type));
  }
  std::optional<IntText> hi;
  if (pair) {
    const std::string_view second = text.substr(comma + 1);
    hi = parse_int_text(second);
    if (!hi) {
      return std::unexpected("invalid integer " + quote_text(second) + " for " +
                             field_desc(field, type));
    }
  }
  return finish_ints(field, type, op, *lo, hi);
}

std::string kind_error(std::string_view field, InType type) {
  return field_desc(field, type) + " needs " +
         std::string(value_kind_noun(*payload_value_kind(type))) + " value";
}

std::expected<void, std::string> check_op(std::string_view field, InType type, PayloadOp op) {
  if (payload_op_applies(type, op)) return {};
  return std::unexpected("operator '" + std::string(payload_op_name(op)) +
                         "' cannot be applied to " + field_desc(field, type));
}

}  // namespace

std::optional<IntText> parse_int_text(std::string_view text) {
  const std::optional<ParsedInteger> v = parse_integer_text(trim_ascii_space(text));
  if (!v || v->overflow) return std::nullopt;
  return IntText{v->magnitude, v->negative};
}

ConvertResult convert_value_text(std::string_view field, InType type, PayloadOp op,
                                 std::string_view text) {
  if (auto ok = check_op(field, type, op); !ok) return std::unexpected(ok.error());
  if (is_string_type(type)) return convert_string(field, type, text);
  if (payload_value_kind(type) == ValueKind::Guid) return convert_guid_text(field, text);
  return convert_int_text(field, type, op, text);
}

ConvertResult convert_value(std::string_view field, InType type, PayloadOp op,
                            const ast::Value& value) {
  if (auto ok = check_op(field, type, op); !ok) return std::unexpected(ok.error());
  using Kind = ast::Value::Kind;
  if (value.kind == Kind::String) return convert_value_text(field, type, op, value.text);
  const bool pair = value.kind == Kind::IntPair;
  if (pair && !payload_op_takes_pair(op)) return std::unexpected(pair_error(op));
  if (value.kind == Kind::Guid) {
    if (type != InType::Guid) return std::unexpected(kind_error(field, type));
    return convert_guid_text(field, value.text);
  }
  if (!is_int_type(type)) return std::unexpected(kind_error(field, type));
  if (!pair && payload_op_takes_pair(op)) return std::unexpected(needs_pair_error(op));
  auto as_text = [](const ast::Int& i) { return IntText{i.magnitude, i.negative}; };
  return finish_ints(field, type, op, as_text(value.lo),
                     pair ? std::optional<IntText>(as_text(value.hi)) : std::nullopt);
}

FieldPairIssue field_pair_issue(const FieldDef& a, const FieldDef& b) {
  const auto scalar_int = [](const FieldDef& f) {
    return payload_value_kind(f.type) == ValueKind::Integer && !f.count.present();
  };
  if (!scalar_int(a)) return FieldPairIssue::FirstNotInteger;
  if (!scalar_int(b)) return FieldPairIssue::SecondNotInteger;
  const auto is_signed = [](InType t) { return in_type_is_signed(t); };
  const auto is_wide_unsigned = [](InType t) {
    return !in_type_is_signed(t) && in_type_fixed_size(t) == 8;
  };
  if ((is_signed(a.type) && is_wide_unsigned(b.type)) ||
      (is_wide_unsigned(a.type) && is_signed(b.type)))
    return FieldPairIssue::SignedWide;
  return FieldPairIssue::None;
}

}  // namespace pfc::internal
