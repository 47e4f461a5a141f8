// compiler/ir.h — the typed IR of a routing program: one straight-line instruction list per
// provider that computes every session's deliver and stack bits for one event.
//
// Machine model (both engines implement exactly this; the interpreter is the reference):
//  * Registers are 64-bit unsigned; there are `num_regs` of them and every register is 0
//    when evaluation starts. Booleans are 0 or 1.
//  * Instructions run in order. Jumps go strictly forward, so every program terminates
//    after at most code.size() steps. The last instruction is Return.
//  * Two accumulators, deliver and stack, start at 0; Return yields
//    {deliver, stack & deliver}.
//  * Payload offsets are byte offsets into the event payload; kBadOffset marks a field that
//    cannot be decoded (truncated payload, bad length, missing terminator). Every payload
//    read is bounds-checked against the payload size; an undecodable field makes its
//    predicates false and its LoadField value 0 (docs/semantics.md §2.1).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "base/scope_kinds.h"
#include "pfc/enable.h"
#include "pfc/guid.h"
#include "pfc/schema.h"
#include "runtime/str_search.h"

namespace re2 {
class RE2;
}
namespace pfc::internal {
class StrMatcher;
}

namespace pfc::ir {

using Reg = uint32_t;
inline constexpr Reg kNoReg = 0xFFFFFFFFu;
inline constexpr uint64_t kBadOffset = ~uint64_t{0};

// Event header fields readable with LoadHeader (zero-extended to 64 bits).
enum class HeaderField : uint8_t {
  Id,
  Version,
  Channel,
  Level,
  Opcode,
  Task,
  Keyword,
  Pid,
  Tid,
  PayloadSize,
};

// Event strings testable with StrIn and StrIndex: the name scopes' strings, in ScopeKind
// order (internal::scope_event_string: ExeName is the final path component of
// EventView::exe), then the event's name.
enum class HeaderString : uint8_t {
  ExeName,
  PackageId,
  AppId,
  EventName = internal::kScopeKindCount - internal::kFirstNameScope,
};
constexpr HeaderString scope_string(internal::ScopeKind k) {
  return HeaderString(size_t(k) - internal::kFirstNameScope);
}
static_assert(scope_string(internal::ScopeKind::Exe) == HeaderString::ExeName &&
                  scope_string(internal::ScopeKind::PackageId) == HeaderString::PackageId &&
                  scope_string(internal::ScopeKind::AppId) == HeaderString::AppId,
              "HeaderString's scope names are their ScopeKinds'");

// Comparison conditions for Cmp (U = unsigned, S = signed 64-bit).
enum class Cond : uint8_t { Eq, Ne, ULt, ULe, UGt, UGe, SLt, SLe, SGt, SGe };

enum class Op : uint8_t {
  Const,       // dst = imm
  LoadHeader,  // dst = header field a (HeaderField)
  And,         // dst = r[a] & r[b]
  Or,          // dst = r[a] | r[b]
  Not,         // dst = r[a] == 0 ? 1 : 0
  AndImm,      // dst = r[a] & imm
  Cmp,         // dst = (r[a] <cond b> imm) ? 1 : 0; b is a Cond
  InSet,       // dst = r[a] ∈ int_sets[b] ? 1 : 0
  StrIn,       // dst = header string a (HeaderString) ∈ str_sets[b] ? 1 : 0 (set's case rule)
  Jz,          // if r[a] == 0 jump to instruction b (this index < b < code.size())
  Jmp,         // jump to instruction b (this index < b < code.size())
  Deliver,     // deliver |= (r[a] != 0 ? 1 : 0) << b   (b < 64)
  Stack,       // stack   |= (r[a] != 0 ? 1 : 0) << b   (b < 64)
  Skip,        // dst = offset just past field fields[b] (all elements) starting at offset r[a];
               //       c = register holding its count (kNoReg if fields[b].count is not Field),
               //       imm = register holding its length (kNoReg if fields[b].length is not Field);
               //       kBadOffset if r[a] is kBadOffset or the field does not fit the payload.
  LoadField,   // dst = scalar integer field fields[b] at offset r[a] (sign-extended for signed
               //       types), or 0 if undecodable. Feeds counts and lengths of later fields.
  PredInt,     // dst = int_preds[c] holds for scalar integer field fields[b] at offset r[a]
  PredStr,     // dst = str_preds[c] holds for scalar string field fields[b] at offset r[a];
               //       imm = register holding its length (kNoReg if fields[b].length is not Field)
  PredGuid,    // dst = guid_preds[c] holds for GUID field fields[b] at offset r[a]
  CmpReg,      // dst = (r[a] <cond b> r[c]) ? 1 : 0; b is a Cond (field-to-field comparisons)
  MaskMap,     // dst = mask_maps[b] looked up with key r[a] (a session mask)
  MaskByte,    // dst = mask_maps[c] looked up with key (r[a] >> 8*b) & 0xFF (b < 8)
  MaskIf,      // dst = r[a] != 0 ? imm : 0 (a boolean turned into a session mask)
  Select,      // dst = r[a] != 0 ? r[b] : r[c]
  DeliverMask,  // deliver |= r[a] (every session bit at once)
  MaskRange,    // dst = range_maps[c].masks[interval of scalar integer field fields[b] at offset
                //       r[a]], or range_maps[c].bad if the field is undecodable
  StrIndex,     // dst = 1 + position of header string a (HeaderString) in str_sets[b] (the set's
                //       case rule), 0 if it is not in the set (a mask.map key, docs/ir.md §4)
  MaskStrs,     // dst = str_maps[c].base | (OR of str_maps[c].masks[i] over the patterns i
                //       that hold for scalar string field fields[b] at offset r[a]; none when
                //       it is undecodable); imm = register holding its length (as PredStr)
  Return,       // stop; result = {deliver, stack & deliver}
};
inline constexpr size_t kNumOps = static_cast<size_t>(Op::Return) + 1;

// Opcode mnemonics for dumps, indexed by Op.
inline constexpr std::array<std::string_view, kNumOps> kOpNames = {
    "const",      "load.hdr", "and",          "or",         "not",       "and.imm",   "cmp",
    "in.set",     "str.in",   "jz",           "jmp",        "deliver",   "stack",     "skip",
    "load.field", "pred.int", "pred.str",     "pred.guid",  "cmp.reg",   "mask.map",  "mask.byte",
    "mask.if",    "select",   "deliver.mask", "mask.range", "str.index", "mask.strs", "ret",
};
static_assert(kOpNames.size() == kNumOps && kOpNames.back() == "ret");

struct Inst {
  Op op = Op::Return;
  Reg dst = kNoReg;
  uint32_t a = 0;
  uint32_t b = 0;
  uint32_t c = 0;
  uint64_t imm = 0;
};
static_assert(std::is_trivially_copyable_v<Inst> && sizeof(Inst) <= 32);

// Sorted, duplicate-free.
struct IntSet {
  std::vector<uint64_t> values;
};

// Sorted, duplicate-free; when case_insensitive the values are stored ASCII-lower-cased
// and candidates are lower-cased before the lookup.
struct StrSet {
  std::vector<std::string> values;
  bool case_insensitive = true;
};

// A key → session-mask table (MaskMap / MaskByte): masks[i] for keys[i], `other` for every
// key not listed. Keys sorted and duplicate-free, as many masks as keys (MaskByte: keys
// below 256). Lowering builds one per header field over all sessions (docs/ir.md §4).
struct MaskMap {
  std::vector<uint64_t> keys;
  std::vector<uint64_t> masks;
  uint64_t other = 0;
  uint64_t lookup(uint64_t key) const;  // binary search (compiler/interp.cc)
};

// A value → session-mask table by intervals (MaskRange): `starts` cut the 64-bit values
// (a field's bits sign- or zero-extended, ordered unsigned: a signed range that crosses
// zero is two intervals) into starts.size() + 1 intervals; masks[i] is the mask of the
// values v with exactly i starts <= v (masks[0]: v < starts[0]). Starts strictly
// increasing, one more mask than starts. `bad`: the mask when the field is undecodable.
// Lowering builds one per integer field that several sessions' predicates test
// (docs/ir.md §4 "Predicate indexing").
struct RangeMap {
  std::vector<uint64_t> starts;
  std::vector<uint64_t> masks;
  uint64_t bad = 0;
  uint64_t lookup(uint64_t value) const;  // binary search (compiler/interp.cc)
};

// A pattern → session-mask table over one string field (MaskStrs): preds[i] indexes
// Program::str_preds (CONTAINS, STARTSWITH, ENDSWITH, IS, MATCHES, REGEX or their `.cs`
// forms) and masks[i] holds the sessions it passes; `base` is set whatever the field holds
// (also when it is undecodable). Lowering builds one per string field that several
// sessions' predicates test (docs/ir.md §4 "String indexing"). `matcher` is derived from
// the patterns (compiler/str_match.h, built by attach_str_matchers): all of them in one
// Hyperscan scan; null until then (the JIT's helper then tests them one by one).
struct StrMap {
  std::vector<uint32_t> preds;
  std::vector<uint64_t> masks;
  uint64_t base = 0;
  std::shared_ptr<const internal::StrMatcher> matcher;
};

// A field's decoding recipe (the schema's FieldDef without its name).
struct FieldDesc {
  InType type = InType::UInt32;
  Extent count;
  Extent length;
};

// Integer predicate: field <op> lo (BETWEEN/NOTBETWEEN: lo..hi). Values are the field
// type's bits sign- or zero-extended to 64 (signed types compare signed). MODULO: lo != 0.
struct IntPred {
  PayloadOp op = PayloadOp::Eq;
  uint64_t lo = 0;
  uint64_t hi = 0;
};

// String predicate (every string operator of base/payload_ops.h but In/NotIn), compared
// after simple Unicode case folding (`.cs` operators: without). `folded` is the needle as
// UTF-32, folded unless `.cs` (MATCHES: the compiled glob, runtime/glob.h; REGEX: unused);
// `links` its KMP failure links (runtime/str_search.h), which the constructor computes from
// `folded` and both engines pass to pfc_tdh_str_pred. Change `folded` only through the
// constructor. REGEX / REGEX.CS: `regex` is the compiled pattern (compiler/regex_pred.h),
// which both engines pass to pfc_ir_pred_regex_next; null for every other operator.
struct StrPred {
  PayloadOp op = PayloadOp::Is;
  std::string text;
  std::u32string folded;
  std::vector<uint32_t> links;
  std::shared_ptr<const re2::RE2> regex;

  StrPred() = default;
  StrPred(PayloadOp o, std::string t, std::u32string f,
          std::shared_ptr<const re2::RE2> re = nullptr)
      : op(o), text(std::move(t)), folded(std::move(f)), links(needle_links(folded)),
        regex(std::move(re)) {}
};

struct GuidPred {
  PayloadOp op = PayloadOp::Is;  // Is or IsNot
  Guid value;
};

// The checks of one session, in the order docs/semantics.md §1 lists them (and `pfc run
// --explain` reports them, docs/cli.md).
enum class Check : uint8_t {
  Level,
  Keyword,
  Pid,
  Exe,
  PackageId,
  AppId,
  EventId = Pid + internal::kScopeKindCount,
  EventName,
  Payload,
};
inline constexpr size_t kNumChecks = static_cast<size_t>(Check::Payload) + 1;
constexpr Check scope_check(internal::ScopeKind k) { return Check(size_t(Check::Pid) + size_t(k)); }
static_assert(scope_check(internal::ScopeKind::Exe) == Check::Exe &&
                  scope_check(internal::ScopeKind::PackageId) == Check::PackageId &&
                  scope_check(internal::ScopeKind::AppId) == Check::AppId,
              "Check's scope names are their ScopeKinds'");
// Reason words of --explain, indexed by Check; the scope checks' are their kinds' names.
inline constexpr std::array<std::string_view, kNumChecks> kCheckNames = [] {
  std::array<std::string_view, kNumChecks> names{};
  names[size_t(Check::Level)] = "level";
  names[size_t(Check::Keyword)] = "keyword";
  for (const internal::ScopeKindInfo& s : internal::kScopeKinds)
    names[size_t(scope_check(s.kind))] = s.name;
  names[size_t(Check::EventId)] = "event_id";
  names[size_t(Check::EventName)] = "event_name";
  names[size_t(Check::Payload)] = "payload";
  return names;
}();

// An annotation, not an instruction: after a run, check `check` of session `slot` passed
// iff bit `bit` of register `reg` is set (reg == kNoReg: iff `constant`); boolean registers
// use bit 0, session masks the session's slot. Lowering writes one note
// per check a session has, in Check order, and delivers to the session (before the
// router's exclusion) iff all of its notes pass, so the first failing note explains a
// rejection (Interpreter::explain). Engines do not read notes; the verifier checks them.
struct CheckNote {
  uint32_t slot = 0;
  Check check = Check::Level;
  Reg reg = kNoReg;
  bool constant = true;
  uint8_t bit = 0;
};

struct Program {
  std::vector<Inst> code;
  uint32_t num_regs = 0;
  std::vector<IntSet> int_sets;
  std::vector<StrSet> str_sets;
  std::vector<FieldDesc> fields;
  std::vector<IntPred> int_preds;
  std::vector<StrPred> str_preds;
  std::vector<GuidPred> guid_preds;
  std::vector<MaskMap> mask_maps;
  std::vector<RangeMap> range_maps;
  std::vector<StrMap> str_maps;
  std::vector<CheckNote> checks;  // by slot, then Check order
};

}  // namespace pfc::ir
