// base/payload_ops.h — the one operator table of payload predicates (docs/semantics.md
// §2.2–§2.3): which PAYLOAD_OPERATORs exist, how they are spelled, how many values each takes
// and which field kinds they apply to; with the field types' kinds and ranges of
// base/in_types.h, which operator applies to which field. The grammar (its operator keywords,
// the AST dump, "did you mean"), the checker and value conversion (compiler/convert.h), the
// lowering, the IR verifier, the ETW/TDH layer (etw/) and the explanation all read this
// table; only the two engines (runtime/tdh.cc, compiler/jit/codegen_payload.cc) spell out
// what each operator computes. In base/ beside base/in_types.h (docs/architecture.md §2).
//
// Adding an operator: docs/architecture.md "Adding an operator, a filter, a field type".
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "base/in_types.h"
#include "pfc/enable.h"

namespace pfc::internal {

// A set of ValueKinds (bit 1 << kind).
using ValueKinds = uint8_t;
inline constexpr ValueKinds kind_bit(ValueKind k) { return ValueKinds(1u << uint8_t(k)); }
inline constexpr ValueKinds kIntegerKind = kind_bit(ValueKind::Integer);
inline constexpr ValueKinds kStringKind = kind_bit(ValueKind::String);
inline constexpr ValueKinds kGuidKind = kind_bit(ValueKind::Guid);

// Operator properties (PayloadOpInfo::flags).
using OpFlags = uint8_t;
inline constexpr OpFlags kEtwOp = 1;          // an ETW PAYLOAD_OPERATOR (the ETW API's subset)
inline constexpr OpFlags kListOp = 2;         // `in` / `not in`: a list, expanded by the checker
inline constexpr OpFlags kFieldOp = 4;        // compares with another integer field of the event
inline constexpr OpFlags kCaseSensitive = 8;  // string operator without case folding (`.cs`)
inline constexpr OpFlags kPatternOp = 16;     // the value is a pattern (glob or regex)

struct PayloadOpInfo {
  PayloadOp op;
  std::string_view name;  // script spelling, also used in diagnostics
  ValueKinds kinds;       // field kinds the operator applies to
  uint8_t values;         // 1, or 2 for a "lo,hi" pair (lo <= hi)
  bool nonzero;           // the (first) value must not be 0
  OpFlags flags;
};

// Every operator: ETW's in PAYLOAD_OPERATOR order, then pfc's script-only extensions
// (docs/language.md §3.1). Field* rows are spelled like their literal forms (`gt`) and
// chosen by the checker when the value is a field name.
inline constexpr PayloadOpInfo kPayloadOps[] = {
    {PayloadOp::Eq, "eq", kIntegerKind, 1, false, kEtwOp},
    {PayloadOp::Ne, "ne", kIntegerKind, 1, false, kEtwOp},
    {PayloadOp::Le, "le", kIntegerKind, 1, false, kEtwOp},
    {PayloadOp::Gt, "gt", kIntegerKind, 1, false, kEtwOp},
    {PayloadOp::Lt, "lt", kIntegerKind, 1, false, kEtwOp},
    {PayloadOp::Ge, "ge", kIntegerKind, 1, false, kEtwOp},
    {PayloadOp::Between, "between", kIntegerKind, 2, false, kEtwOp},
    {PayloadOp::NotBetween, "notbetween", kIntegerKind, 2, false, kEtwOp},
    {PayloadOp::Modulo, "modulo", kIntegerKind, 1, true, kEtwOp},
    {PayloadOp::Contains, "contains", kStringKind, 1, false, kEtwOp},
    {PayloadOp::DoesntContain, "doesntcontain", kStringKind, 1, false, kEtwOp},
    {PayloadOp::Is, "is", kStringKind | kGuidKind, 1, false, kEtwOp},
    {PayloadOp::IsNot, "isnot", kStringKind | kGuidKind, 1, false, kEtwOp},
    {PayloadOp::In, "in", kIntegerKind | kStringKind | kGuidKind, 1, false, kListOp},
    {PayloadOp::NotIn, "not in", kIntegerKind | kStringKind | kGuidKind, 1, false, kListOp},
    {PayloadOp::StartsWith, "startswith", kStringKind, 1, false, 0},
    {PayloadOp::EndsWith, "endswith", kStringKind, 1, false, 0},
    {PayloadOp::Matches, "matches", kStringKind, 1, false, kPatternOp},
    {PayloadOp::Regex, "regex", kStringKind, 1, false, kPatternOp},
    {PayloadOp::IsCs, "is.cs", kStringKind, 1, false, kCaseSensitive},
    {PayloadOp::IsNotCs, "isnot.cs", kStringKind, 1, false, kCaseSensitive},
    {PayloadOp::ContainsCs, "contains.cs", kStringKind, 1, false, kCaseSensitive},
    {PayloadOp::DoesntContainCs, "doesntcontain.cs", kStringKind, 1, false, kCaseSensitive},
    {PayloadOp::StartsWithCs, "startswith.cs", kStringKind, 1, false, kCaseSensitive},
    {PayloadOp::EndsWithCs, "endswith.cs", kStringKind, 1, false, kCaseSensitive},
    {PayloadOp::MatchesCs, "matches.cs", kStringKind, 1, false, kCaseSensitive | kPatternOp},
    {PayloadOp::RegexCs, "regex.cs", kStringKind, 1, false, kCaseSensitive | kPatternOp},
    {PayloadOp::FieldEq, "eq", kIntegerKind, 1, false, kFieldOp},
    {PayloadOp::FieldNe, "ne", kIntegerKind, 1, false, kFieldOp},
    {PayloadOp::FieldLe, "le", kIntegerKind, 1, false, kFieldOp},
    {PayloadOp::FieldGt, "gt", kIntegerKind, 1, false, kFieldOp},
    {PayloadOp::FieldLt, "lt", kIntegerKind, 1, false, kFieldOp},
    {PayloadOp::FieldGe, "ge", kIntegerKind, 1, false, kFieldOp},
};

// The row of a PAYLOAD_OPERATOR code, or null for a code that is no operator.
constexpr const PayloadOpInfo* find_payload_op(uint16_t code) {
  for (const PayloadOpInfo& o : kPayloadOps)
    if (uint16_t(o.op) == code) return &o;
  return nullptr;
}
constexpr const PayloadOpInfo* find_payload_op(PayloadOp op) {
  return find_payload_op(uint16_t(op));
}

// The row of an ETW PAYLOAD_OPERATOR code (the ETW-compatible API's operators), or null.
constexpr const PayloadOpInfo* find_etw_payload_op(uint16_t code) {
  const PayloadOpInfo* o = find_payload_op(code);
  return o != nullptr && (o->flags & kEtwOp) != 0 ? o : nullptr;
}

constexpr bool payload_op_has(PayloadOp op, OpFlags flag) {
  const PayloadOpInfo* o = find_payload_op(op);
  return o != nullptr && (o->flags & flag) != 0;
}

// The literal operator a field-to-field operator compares like (FieldGt → Gt), or `op`.
constexpr PayloadOp field_op_base(PayloadOp op) {
  if (!payload_op_has(op, kFieldOp)) return op;
  return static_cast<PayloadOp>(uint16_t(op) - uint16_t(PayloadOp::FieldEq));
}
constexpr PayloadOp field_op_of(PayloadOp literal) {
  return static_cast<PayloadOp>(uint16_t(PayloadOp::FieldEq) + uint16_t(literal));
}

// The row of a field type a predicate can apply to (scalars only), or null.
constexpr const InTypeInfo* find_payload_field_type(InType type) {
  const InTypeInfo* t = find_in_type(type);
  return t != nullptr && t->kind ? t : nullptr;
}

constexpr std::optional<ValueKind> payload_value_kind(InType type) {
  const InTypeInfo* t = find_in_type(type);
  return t ? t->kind : std::nullopt;
}

// The script spelling ("eq", "doesntcontain", ...); "?" for an unknown code.
constexpr std::string_view payload_op_name(PayloadOp op) {
  const PayloadOpInfo* o = find_payload_op(op);
  return o ? o->name : std::string_view("?");
}

constexpr bool payload_op_takes_pair(PayloadOp op) {
  const PayloadOpInfo* o = find_payload_op(op);
  return o != nullptr && o->values == 2;
}

constexpr bool payload_op_applies(ValueKind kind, PayloadOp op) {
  const PayloadOpInfo* o = find_payload_op(op);
  return o != nullptr && (o->kinds & kind_bit(kind)) != 0;
}

// docs/semantics.md §2.2: whether `op` may compare a scalar field of type `type`.
constexpr bool payload_op_applies(InType type, PayloadOp op) {
  const std::optional<ValueKind> kind = payload_value_kind(type);
  return kind && payload_op_applies(*kind, op);
}

// "an integer", "a string", "a GUID" (diagnostics).
constexpr std::string_view value_kind_noun(ValueKind kind) {
  switch (kind) {
    case ValueKind::Integer: return "an integer";
    case ValueKind::String: return "a string";
    case ValueKind::Guid: return "a GUID";
  }
  return "a value";
}

}  // namespace pfc::internal
