// runtime/payload_ops.h — the one operator/type table of payload predicates
// (docs/semantics.md §2.2–§2.3): which PAYLOAD_OPERATORs exist, how they are spelled, how
// many values each takes and which field kinds they apply to; which field types can be
// filtered, their kind and their value range. The checker and value conversion
// (compiler/convert.h), the lowering, the IR verifier, the ETW/TDH layer (etw/) and the
// explanation all read this table; only the two engines (runtime/tdh.cc,
// compiler/jit/codegen.cc) spell out what each operator computes.
//
// Adding an operator: a row in kPayloadOps, its PayloadOp value (include/pfc/enable.h),
// the grammar (grammar/rules.h, actions.h, ast.h, dump.cc), the engines and the docs.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "pfc/enable.h"
#include "pfc/schema.h"

namespace pfc::internal {

// What a predicate value is after conversion, and the kind of field it is compared with.
enum class ValueKind : uint8_t { Integer, String, Guid };

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

struct FieldTypeInfo {
  InType type;
  ValueKind kind;
  // Integer kinds: the range a value must fit (docs/semantics.md §2.3).
  bool is_signed;
  uint64_t max_positive;  // largest value
  uint64_t max_negative;  // largest magnitude of a negative value (0 for unsigned)
};

// Every field type a predicate can apply to (scalars only; arrays never). Other types
// (float, double, binary, sid, systemtime) take no predicate.
inline constexpr FieldTypeInfo kPayloadFieldTypes[] = {
    {InType::Int8, ValueKind::Integer, true, 0x7F, 0x80},
    {InType::Int16, ValueKind::Integer, true, 0x7FFF, 0x8000},
    {InType::Int32, ValueKind::Integer, true, 0x7FFFFFFF, 0x80000000},
    {InType::Int64, ValueKind::Integer, true, 0x7FFFFFFFFFFFFFFF, 0x8000000000000000},
    {InType::UInt8, ValueKind::Integer, false, 0xFF, 0},
    {InType::UInt16, ValueKind::Integer, false, 0xFFFF, 0},
    {InType::UInt32, ValueKind::Integer, false, 0xFFFFFFFF, 0},
    {InType::HexInt32, ValueKind::Integer, false, 0xFFFFFFFF, 0},
    {InType::UInt64, ValueKind::Integer, false, ~uint64_t{0}, 0},
    {InType::HexInt64, ValueKind::Integer, false, ~uint64_t{0}, 0},
    {InType::FileTime, ValueKind::Integer, false, ~uint64_t{0}, 0},
    {InType::Pointer, ValueKind::Integer, false, ~uint64_t{0}, 0},
    {InType::Boolean, ValueKind::Integer, false, 1, 0},
    {InType::UnicodeString, ValueKind::String, false, 0, 0},
    {InType::AnsiString, ValueKind::String, false, 0, 0},
    {InType::Guid, ValueKind::Guid, false, 0, 0},
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

// The row of a field type, or null for a type no predicate applies to.
constexpr const FieldTypeInfo* find_payload_field_type(InType type) {
  for (const FieldTypeInfo& t : kPayloadFieldTypes)
    if (t.type == type) return &t;
  return nullptr;
}

constexpr std::optional<ValueKind> payload_value_kind(InType type) {
  const FieldTypeInfo* t = find_payload_field_type(type);
  return t ? std::optional<ValueKind>(t->kind) : std::nullopt;
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
