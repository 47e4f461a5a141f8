// compiler/ir_dump.cc — IR text dump (ir_dump.h). Format, e.g.:
//     3: %3 = cmp.ule %1, 5
//     7: jz %4, @12
//    11: deliver %7, bit 0
// followed by the non-empty constant pools ("int_sets:", "str_sets:", ...).
#include "compiler/ir_dump.h"

#include <array>
#include <cstdio>
#include <string_view>
#include <type_traits>

#include "base/hex.h"
#include "base/payload_ops.h"
#include "base/scope_kinds.h"

namespace pfc {
namespace {

using ir::Inst;
using ir::kNoReg;
using ir::Op;

constexpr std::array<std::string_view, 10> kHeaderNames = {
    "id", "version", "channel", "level", "opcode", "task", "keyword", "pid", "tid", "payload_size"};
// The name scopes' names (base/scope_kinds.h), then "event_name".
constexpr std::array<std::string_view, size_t(ir::HeaderString::EventName) + 1> kStringNames = [] {
  std::array<std::string_view, size_t(ir::HeaderString::EventName) + 1> names{};
  for (size_t k = internal::kFirstNameScope; k < internal::kScopeKindCount; ++k)
    names[size_t(ir::scope_string(internal::ScopeKind(k)))] = internal::kScopeKinds[k].name;
  names[size_t(ir::HeaderString::EventName)] = "event_name";
  return names;
}();
constexpr std::array<std::string_view, 10> kCondNames = {"eq",  "ne",  "ult", "ule", "ugt",
                                                         "uge", "slt", "sle", "sgt", "sge"};

template <size_t N>
std::string_view name_of(const std::array<std::string_view, N>& names, uint64_t i) {
  return i < N ? names[i] : std::string_view("?");
}

std::string num(uint64_t v) { return v <= 0xFFFF ? std::to_string(v) : to_hex(v); }

// Concatenation by appending (`"lit" + std::string&&` trips g++ 12's -Wrestrict in
// optimised builds).
std::string part(std::string_view v) { return std::string(v); }
std::string part(const char* v) { return std::string(v); }
std::string part(const std::string& v) { return v; }
template <typename T>
requires std::is_integral_v<T> std::string part(T v) { return std::to_string(v); }
template <typename... A>
std::string cat(const A&... a) {
  std::string s;
  (s.append(part(a)), ...);
  return s;
}

std::string reg(uint64_t r) { return cat("%", r); }

std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (char ch : s) {
    auto u = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (u < 0x20 || u == 0x7F) {
      append_byte_escape(out, u, HexCase::Upper);
    } else {
      out += ch;
    }
  }
  out += '"';
  return out;
}

// ", count %c" / ", length %l" suffixes of payload instructions.
std::string extent_regs(const Inst& in, bool count) {
  std::string s;
  if (count && in.c != kNoReg) s += cat(", count ", reg(in.c));
  if (in.imm != kNoReg) s += cat(", length ", reg(in.imm));
  return s;
}

// One case per opcode (a table-like switch).
std::string operands(const Inst& in) {
  switch (in.op) {
    case Op::Const: return num(in.imm);
    case Op::LoadHeader: return std::string(name_of(kHeaderNames, in.a));
    case Op::And:
    case Op::Or: return cat(reg(in.a), ", ", reg(in.b));
    case Op::Not: return reg(in.a);
    case Op::AndImm: return cat(reg(in.a), ", ", to_hex(in.imm));
    case Op::Cmp: return cat(reg(in.a), ", ", num(in.imm));
    case Op::InSet: return cat(reg(in.a), ", iset#", in.b);
    case Op::StrIn:
    case Op::StrIndex: return cat(name_of(kStringNames, in.a), ", sset#", in.b);
    case Op::Jz: return cat(reg(in.a), ", @", in.b);
    case Op::Jmp: return cat("@", in.b);
    case Op::Deliver:
    case Op::Stack: return cat(reg(in.a), ", bit ", in.b);
    case Op::Skip: return cat(reg(in.a), ", field#", in.b, extent_regs(in, true));
    case Op::LoadField: return cat(reg(in.a), ", field#", in.b);
    case Op::PredInt: return cat(reg(in.a), ", field#", in.b, ", ipred#", in.c);
    case Op::PredStr:
      return cat(reg(in.a), ", field#", in.b, ", spred#", in.c, extent_regs(in, false));
    case Op::PredGuid: return cat(reg(in.a), ", field#", in.b, ", gpred#", in.c);
    case Op::CmpReg: return cat(reg(in.a), ", ", reg(in.c));
    case Op::MaskMap: return cat(reg(in.a), ", mmap#", in.b);
    case Op::MaskByte: return cat(reg(in.a), ", byte ", in.b, ", mmap#", in.c);
    case Op::MaskIf: return cat(reg(in.a), ", ", to_hex(in.imm));
    case Op::Select: return cat(reg(in.a), ", ", reg(in.b), ", ", reg(in.c));
    case Op::DeliverMask: return reg(in.a);
    case Op::MaskRange: return cat(reg(in.a), ", field#", in.b, ", rmap#", in.c);
    case Op::MaskStrs:
      return cat(reg(in.a), ", field#", in.b, ", smap#", in.c, extent_regs(in, false));
    case Op::Return: return "";
  }
  return "?";
}

std::string inst_line(size_t i, const Inst& in) {
  char idx[32];
  std::snprintf(idx, sizeof idx, "%4zu: ", i);
  std::string line = idx;
  if (size_t(in.op) >= ir::kNumOps) return cat(line, "? op ", int(in.op));
  if (in.dst != kNoReg) line += cat(reg(in.dst), " = ");
  line += ir::kOpNames[size_t(in.op)];
  if (in.op == Op::Cmp || in.op == Op::CmpReg) line += cat(".", name_of(kCondNames, in.b));
  std::string ops = operands(in);
  if (!ops.empty()) line += cat(" ", ops);
  return line;
}

std::string extent(const Extent& e) {
  if (e.kind == Extent::Kind::Fixed) return std::to_string(e.value);
  return cat("f", e.value);  // the event's field number holding the value
}

void dump_pools(const ir::Program& p, std::string& out) {
  if (!p.int_sets.empty()) out += "int_sets:\n";
  for (size_t k = 0; k < p.int_sets.size(); ++k) {
    out += cat("  iset#", k, " = {");
    for (size_t j = 0; j < p.int_sets[k].values.size(); ++j)
      out += cat(j ? ", " : "", num(p.int_sets[k].values[j]));
    out += "}\n";
  }
  if (!p.str_sets.empty()) out += "str_sets:\n";
  for (size_t k = 0; k < p.str_sets.size(); ++k) {
    out += cat("  sset#", k, p.str_sets[k].case_insensitive ? " = nocase {" : " = exact {");
    for (size_t j = 0; j < p.str_sets[k].values.size(); ++j)
      out += cat(j ? ", " : "", quoted(p.str_sets[k].values[j]));
    out += "}\n";
  }
  if (!p.fields.empty()) out += "fields:\n";
  for (size_t k = 0; k < p.fields.size(); ++k) {
    const ir::FieldDesc& f = p.fields[k];
    out += cat("  field#", k, " = ", in_type_name(f.type));
    if (f.count.present()) out += cat("[", extent(f.count), "]");
    if (f.length.present()) out += cat(" length=", extent(f.length));
    out += "\n";
  }
  if (!p.int_preds.empty()) out += "int_preds:\n";
  for (size_t k = 0; k < p.int_preds.size(); ++k) {
    const ir::IntPred& q = p.int_preds[k];
    out += cat("  ipred#", k, " = ", internal::payload_op_name(q.op), " ", num(q.lo));
    if (internal::payload_op_takes_pair(q.op)) out += cat(", ", num(q.hi));
    out += "\n";
  }
  if (!p.str_preds.empty()) out += "str_preds:\n";
  for (size_t k = 0; k < p.str_preds.size(); ++k) {
    out += cat("  spred#", k, " = ", internal::payload_op_name(p.str_preds[k].op), " ",
               quoted(p.str_preds[k].text), "\n");
  }
  if (!p.guid_preds.empty()) out += "guid_preds:\n";
  for (size_t k = 0; k < p.guid_preds.size(); ++k) {
    out += cat("  gpred#", k, " = ", internal::payload_op_name(p.guid_preds[k].op), " ",
               p.guid_preds[k].value.to_string(), "\n");
  }
  if (!p.mask_maps.empty()) out += "mask_maps:\n";
  for (size_t k = 0; k < p.mask_maps.size(); ++k) {
    const ir::MaskMap& m = p.mask_maps[k];
    out += cat("  mmap#", k, " = {");
    for (size_t j = 0, end = 0; j < m.keys.size(); j = end) {
      // A run of consecutive keys with one mask prints as `first..last: mask`.
      for (end = j + 1;
           end < m.keys.size() && m.keys[end] == m.keys[end - 1] + 1 && m.masks[end] == m.masks[j];
           ++end) {
      }
      out += cat(j ? ", " : "", num(m.keys[j]));
      if (end - j > 1) out += cat("..", num(m.keys[end - 1]));
      out += cat(": ", to_hex(m.masks[j]));
    }
    out += cat("} else ", to_hex(m.other), "\n");
  }
  if (!p.range_maps.empty()) out += "range_maps:\n";
  for (size_t k = 0; k < p.range_maps.size(); ++k) {
    // `{mask, [start: mask]…} bad mask`: each start opens the interval up to the next.
    const ir::RangeMap& m = p.range_maps[k];
    out += cat("  rmap#", k, " = {", m.masks.empty() ? std::string() : to_hex(m.masks[0]));
    for (size_t j = 0; j < m.starts.size() && j + 1 < m.masks.size(); ++j)
      out += cat(", ", num(m.starts[j]), ": ", to_hex(m.masks[j + 1]));
    out += cat("} bad ", to_hex(m.bad), "\n");
  }
  if (!p.str_maps.empty()) out += "str_maps:\n";
  for (size_t k = 0; k < p.str_maps.size(); ++k) {
    // `{spred#i: mask, …} base mask`
    const ir::StrMap& m = p.str_maps[k];
    out += cat("  smap#", k, " = {");
    for (size_t j = 0; j < m.preds.size() && j < m.masks.size(); ++j)
      out += cat(j ? ", " : "", "spred#", m.preds[j], ": ", to_hex(m.masks[j]));
    out += cat("} base ", to_hex(m.base), "\n");
  }
}

}  // namespace

std::string dump_ir(const ir::Program& prog) {
  std::string out =
      cat("code: ", prog.code.size(), " instructions, ", prog.num_regs, " registers\n");
  for (size_t i = 0; i < prog.code.size(); ++i) out += cat(inst_line(i, prog.code[i]), "\n");
  dump_pools(prog, out);
  return out;
}

}  // namespace pfc
