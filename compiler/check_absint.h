// compiler/check_absint.h — abstract evaluation of a lowered routing program (compiler/ir.h)
// for the checker's warnings (docs/language.md §4 "Warnings"): constant folding of header
// loads whose values are known (one declared event's descriptor), and interval analysis of
// integer payload predicates: a boolean computed from one payload field is the set of that
// field's values for which it is true. Not an evaluator: nothing is run on events.
//
// Soundness: a register reported Const holds that value in every run in which its
// instruction executes, on every event with the known header values whose payload fields
// all decode (an undecodable field makes predicates false, docs/semantics.md §2.1; the
// analysis does not model that). Internal to compiler/.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "compiler/check_interval.h"
#include "compiler/ir.h"

namespace pfc::internal {

struct AbstractValue {
  enum class Kind : uint8_t {
    Unknown,     // nothing known
    Const,       // `value`
    FieldBool,   // 0/1: 1 iff the field's value is in `set`
    FieldValue,  // the field's value (LoadField)
  };
  Kind kind = Kind::Unknown;
  uint64_t value = 0;
  ir::Reg offset = ir::kNoReg;  // FieldBool / FieldValue: the field is (offset, desc)
  uint32_t desc = 0;
  IntervalSet set;
};

// Header values known for the analysis; nullopt = any value.
struct KnownHeader {
  std::optional<uint64_t> fields[static_cast<size_t>(ir::HeaderField::PayloadSize) + 1];
  static KnownHeader of_event(const EventDescriptor& d);
  // Any event of a TraceLogging provider: id 0, version 0, the TraceLogging channel; the
  // rest (and the event's name) unknown (docs/language.md §3 "TraceLogging providers").
  static KnownHeader of_tracelogging();
};

// The abstract value of every register, evaluating each instruction as if it executes
// (jumps are ignored: the caller asks about a check's register, valid when it is computed).
std::vector<AbstractValue> evaluate_abstract(const ir::Program& p, const KnownHeader& header);

// True / false when the register is a known boolean, nullopt when it can be either.
std::optional<bool> truth(const AbstractValue& v);

}  // namespace pfc::internal
