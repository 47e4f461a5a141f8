// compiler/verify.cc — the IR verifier (verify.h): one pass over the code with a per-
// register "written at" table, then the constant pools.
#include "compiler/verify.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "base/ascii.h"
#include "base/payload_ops.h"
#include "compiler/str_match.h"
#include "runtime/glob.h"

namespace pfc {
namespace {

using ir::Inst;
using ir::kNoReg;
using ir::Op;

constexpr uint32_t kNumHeaderFields = uint32_t(ir::HeaderField::PayloadSize) + 1;
constexpr uint32_t kNumHeaderStrings = uint32_t(ir::HeaderString::EventName) + 1;
constexpr uint32_t kNumConds = uint32_t(ir::Cond::SGe) + 1;

bool known_type(InType t) { return in_type_known(uint16_t(t)); }

class Verifier {
 public:
  static constexpr uint32_t kMaxRegs = uint32_t{1} << 24;
  Verifier(const ir::Program& p, bool matchers)
      : p_(p), matchers_(matchers), written_(std::min(p.num_regs, kMaxRegs + 1), false) {}

  Result<void> run() {
    if (p_.code.empty() || p_.code.back().op != Op::Return)
      return fail_pool("last instruction is not ret");
    if (p_.num_regs > kMaxRegs) return fail_pool("more than 2^24 registers");
    for (i_ = 0; i_ < p_.code.size(); ++i_) {
      const Inst& in = p_.code[i_];
      if (size_t(in.op) >= ir::kNumOps) return fail("unknown opcode " + std::to_string(int(in.op)));
      if (auto r = operands(in); !r) return r;
      if (auto r = define(in); !r) return r;
    }
    if (auto r = pools(); !r) return r;
    return notes();
  }

 private:
  Result<void> fail(const std::string& msg) const {
    const Inst& in = p_.code[i_];
    std::string name = size_t(in.op) < ir::kNumOps ? std::string(ir::kOpNames[size_t(in.op)]) : "?";
    return make_error("inst " + std::to_string(i_) + " (" + name + "): " + msg);
  }
  static Result<void> fail_pool(const std::string& msg) { return make_error("pool: " + msg); }

  static bool has_dst(Op op) {
    return op != Op::Jz && op != Op::Jmp && op != Op::Deliver && op != Op::Stack &&
           op != Op::DeliverMask && op != Op::Return;
  }

  Result<void> use(uint64_t r, const char* what) const {
    if (r >= p_.num_regs)
      return fail(std::string(what) + " register %" + std::to_string(r) + " out of range");
    if (!written_[r])
      return fail(std::string(what) + " register %" + std::to_string(r) + " read before any write");
    return {};
  }
  Result<void> optional_use(uint64_t r, bool wanted, const char* what) const {
    if (!wanted) {
      if (r != kNoReg)
        return fail(std::string(what) + " register given but the field has no such extent");
      return {};
    }
    if (r == kNoReg) return fail(std::string(what) + " register missing for a field-sized extent");
    return use(r, what);
  }

  Result<void> define(const Inst& in) {
    if (!has_dst(in.op)) {
      if (in.dst != kNoReg) return fail("dst given on an instruction without a result");
      return {};
    }
    if (in.dst >= p_.num_regs) return fail("dst %" + std::to_string(in.dst) + " out of range");
    if (written_[in.dst]) return fail("register %" + std::to_string(in.dst) + " written twice");
    written_[in.dst] = true;
    return {};
  }

  Result<void> jump(const Inst& in) const {
    if (in.b <= i_ || in.b >= p_.code.size())
      return fail("jump target @" + std::to_string(in.b) + " not forward or past the end");
    return {};
  }

  Result<const ir::FieldDesc*> field(uint32_t b) const {
    if (b >= p_.fields.size()) return std::unexpected(fail("field index out of range").error());
    const ir::FieldDesc& f = p_.fields[b];
    if (!known_type(f.type)) return std::unexpected(fail("field has an unknown type").error());
    return &f;
  }

  Result<void> scalar(const ir::FieldDesc& f, bool ok_type, const char* kind) const {
    if (!ok_type) return fail(std::string("field is not ") + kind);
    if (f.count.present()) return fail("field is an array");
    return {};
  }

  Result<void> payload(const Inst& in) const {
    if (auto r = use(in.a, "offset"); !r) return r;
    auto f = field(in.b);
    if (!f) return std::unexpected(f.error());
    const ir::FieldDesc& d = **f;
    bool len_field = d.length.kind == Extent::Kind::Field;
    switch (in.op) {
      case Op::Skip:
        if (auto r = optional_use(in.c, d.count.kind == Extent::Kind::Field, "count"); !r) return r;
        return optional_use(in.imm, len_field, "length");
      case Op::LoadField: return scalar(d, in_type_is_integer(d.type), "a scalar integer");
      case Op::PredInt: {
        if (auto r = scalar(d, in_type_is_integer(d.type), "a scalar integer"); !r) return r;
        if (in.c >= p_.int_preds.size()) return fail("int predicate index out of range");
        return {};
      }
      case Op::PredStr: {
        if (auto r = scalar(d, in_type_is_string(d.type), "a scalar string"); !r) return r;
        if (in.c >= p_.str_preds.size()) return fail("string predicate index out of range");
        return optional_use(in.imm, len_field, "length");
      }
      case Op::MaskStrs: {
        if (auto r = scalar(d, in_type_is_string(d.type), "a scalar string"); !r) return r;
        if (in.c >= p_.str_maps.size()) return fail("string map index out of range");
        return optional_use(in.imm, len_field, "length");
      }
      case Op::MaskRange: {
        if (auto r = scalar(d, in_type_is_integer(d.type), "a scalar integer"); !r) return r;
        if (in.c >= p_.range_maps.size()) return fail("range map index out of range");
        return {};
      }
      default: {  // PredGuid
        const bool guid = internal::payload_value_kind(d.type) == internal::ValueKind::Guid;
        if (auto r = scalar(d, guid, "a scalar GUID"); !r) return r;
        if (in.c >= p_.guid_preds.size()) return fail("GUID predicate index out of range");
        return {};
      }
    }
  }

  // One case per opcode (a table-like switch).
  Result<void> operands(const Inst& in) const {
    switch (in.op) {
      case Op::Const: return {};
      case Op::LoadHeader:
        if (in.a >= kNumHeaderFields) return fail("unknown header field");
        return {};
      case Op::And:
      case Op::Or:
        if (auto r = use(in.a, "a"); !r) return r;
        return use(in.b, "b");
      case Op::Not:
      case Op::AndImm: return use(in.a, "a");
      case Op::Cmp:
        if (in.b >= kNumConds) return fail("unknown condition");
        return use(in.a, "a");
      case Op::CmpReg:
        if (in.b >= kNumConds) return fail("unknown condition");
        if (auto r = use(in.a, "a"); !r) return r;
        return use(in.c, "c");
      case Op::InSet:
        if (in.b >= p_.int_sets.size()) return fail("int set index out of range");
        return use(in.a, "a");
      case Op::StrIn:
      case Op::StrIndex:
        if (in.a >= kNumHeaderStrings) return fail("unknown header string");
        if (in.b >= p_.str_sets.size()) return fail("string set index out of range");
        return {};
      case Op::Jz:
        if (auto r = use(in.a, "condition"); !r) return r;
        return jump(in);
      case Op::Jmp: return jump(in);
      case Op::Deliver:
      case Op::Stack:
        if (in.b >= 64) return fail("session bit " + std::to_string(in.b) + " not below 64");
        return use(in.a, "a");
      case Op::Skip:
      case Op::LoadField:
      case Op::PredInt:
      case Op::PredStr:
      case Op::PredGuid:
      case Op::MaskRange:
      case Op::MaskStrs: return payload(in);
      case Op::MaskMap:
        if (in.b >= p_.mask_maps.size()) return fail("mask map index out of range");
        return use(in.a, "a");
      case Op::MaskByte:
        if (in.b >= 8) return fail("byte " + std::to_string(in.b) + " not below 8");
        if (in.c >= p_.mask_maps.size()) return fail("mask map index out of range");
        if (!p_.mask_maps[in.c].keys.empty() && p_.mask_maps[in.c].keys.back() > 0xFF)
          return fail("mask map has a key above 255");
        return use(in.a, "a");
      case Op::MaskIf:
      case Op::DeliverMask: return use(in.a, "a");
      case Op::Select:
        if (auto r = use(in.a, "a"); !r) return r;
        if (auto r = use(in.b, "b"); !r) return r;
        return use(in.c, "c");
      case Op::Return: return {};
    }
    return fail("unknown opcode");
  }

  // A mask.strs table: one mask per pattern, each pattern a string predicate of an
  // operator the multi-pattern match takes (compiler/str_match.h).
  Result<void> str_map(size_t k) const {
    const ir::StrMap& m = p_.str_maps[k];
    const std::string name = "string map " + std::to_string(k);
    if (m.masks.size() != m.preds.size()) return fail_pool(name + " has not one mask per pattern");
    if (matchers_ && !m.matcher) return fail_pool(name + " has no matcher (attach_str_matchers)");
    for (uint32_t q : m.preds) {
      if (q >= p_.str_preds.size()) return fail_pool(name + ": string predicate out of range");
      if (!internal::is_str_map_op(p_.str_preds[q].op))
        return fail_pool(name + ": spred#" + std::to_string(q) + " is no pattern");
    }
    return {};
  }

  Result<void> pools() const {
    for (size_t k = 0; k < p_.int_sets.size(); ++k) {
      const auto& v = p_.int_sets[k].values;
      if (std::adjacent_find(v.begin(), v.end(), std::greater_equal<>()) != v.end())
        return fail_pool("int set " + std::to_string(k) + " not sorted and duplicate-free");
    }
    for (size_t k = 0; k < p_.str_sets.size(); ++k) {
      const ir::StrSet& s = p_.str_sets[k];
      if (std::adjacent_find(s.values.begin(), s.values.end(), std::greater_equal<>()) !=
          s.values.end())
        return fail_pool("string set " + std::to_string(k) + " not sorted and duplicate-free");
      for (const std::string& v : s.values) {
        if (s.case_insensitive && std::ranges::any_of(v, is_ascii_upper<char>))
          return fail_pool("case-insensitive string set " + std::to_string(k) +
                           " has an upper-case value");
      }
    }
    for (size_t k = 0; k < p_.mask_maps.size(); ++k) {
      const ir::MaskMap& m = p_.mask_maps[k];
      if (std::adjacent_find(m.keys.begin(), m.keys.end(), std::greater_equal<>()) != m.keys.end())
        return fail_pool("mask map " + std::to_string(k) + " keys not sorted and duplicate-free");
      if (m.masks.size() != m.keys.size())
        return fail_pool("mask map " + std::to_string(k) + " has not one mask per key");
    }
    for (size_t k = 0; k < p_.range_maps.size(); ++k) {
      const ir::RangeMap& m = p_.range_maps[k];
      if (std::adjacent_find(m.starts.begin(), m.starts.end(), std::greater_equal<>()) !=
          m.starts.end())
        return fail_pool("range map " + std::to_string(k) + " starts not strictly increasing");
      if (m.masks.size() != m.starts.size() + 1)
        return fail_pool("range map " + std::to_string(k) + " has not one mask more than starts");
    }
    for (size_t k = 0; k < p_.str_maps.size(); ++k) {
      if (auto r = str_map(k); !r) return r;
    }
    for (size_t k = 0; k < p_.int_preds.size(); ++k) {
      const ir::IntPred& q = p_.int_preds[k];
      if (!internal::payload_op_applies(internal::ValueKind::Integer, q.op) ||
          internal::payload_op_has(q.op, internal::OpFlags(internal::kListOp | internal::kFieldOp)))
        return fail_pool("int predicate " + std::to_string(k) + " has a non-integer operator");
      if (internal::find_payload_op(q.op)->nonzero && q.lo == 0)
        return fail_pool("int predicate " + std::to_string(k) + " is " +
                         std::string(internal::payload_op_name(q.op)) + " 0");
    }
    for (size_t k = 0; k < p_.str_preds.size(); ++k) {
      const ir::StrPred& q = p_.str_preds[k];
      if (!internal::payload_op_applies(internal::ValueKind::String, q.op) ||
          internal::payload_op_has(q.op, internal::kListOp))
        return fail_pool("string predicate " + std::to_string(k) + " has a non-string operator");
      const bool glob = q.op == PayloadOp::Matches || q.op == PayloadOp::MatchesCs;
      if (glob && !glob_code_ok(q.folded))
        return fail_pool("string predicate " + std::to_string(k) + " has a malformed glob");
      const bool regex = q.op == PayloadOp::Regex || q.op == PayloadOp::RegexCs;
      if (regex != (q.regex != nullptr))
        return fail_pool(
            "string predicate " + std::to_string(k) +
            (regex ? " has no compiled regex" : " has a regex but is no regex operator"));
    }
    for (size_t k = 0; k < p_.guid_preds.size(); ++k) {
      if (!internal::payload_op_applies(internal::ValueKind::Guid, p_.guid_preds[k].op) ||
          internal::payload_op_has(p_.guid_preds[k].op, internal::kListOp))
        return fail_pool("GUID predicate " + std::to_string(k) + " has a non-GUID operator");
    }
    return {};
  }

  // Check notes: slot < 64, bit < 64, a known check, a register some instruction writes, and per
  // slot strictly increasing checks.
  Result<void> notes() const {
    std::array<int, 64> last;
    last.fill(-1);
    for (size_t k = 0; k < p_.checks.size(); ++k) {
      const ir::CheckNote& n = p_.checks[k];
      const std::string at = "check note " + std::to_string(k);
      if (n.slot >= 64) return fail_pool(at + ": session bit not below 64");
      if (n.bit >= 64) return fail_pool(at + ": register bit not below 64");
      if (size_t(n.check) >= ir::kNumChecks) return fail_pool(at + ": unknown check");
      if (n.reg != kNoReg && (n.reg >= p_.num_regs || !written_[n.reg]))
        return fail_pool(at + ": register %" + std::to_string(n.reg) + " is never written");
      if (int(n.check) <= last[n.slot]) return fail_pool(at + ": checks of a session out of order");
      last[n.slot] = int(n.check);
    }
    return {};
  }

  const ir::Program& p_;
  bool matchers_;
  std::vector<bool> written_;
  size_t i_ = 0;
};

}  // namespace

Result<void> verify(const ir::Program& prog) { return Verifier(prog, true).run(); }

Result<void> verify_data(const ir::Program& prog) { return Verifier(prog, false).run(); }

}  // namespace pfc
