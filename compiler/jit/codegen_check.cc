// compiler/jit/codegen_check.cc — the structural checks codegen needs before it indexes
// pools, registers and blocks: a malformed program is an Error, never a crash.
#include <string>

#include "compiler/jit/codegen.h"

namespace pfc::internal {
namespace {

bool is_int_op(PayloadOp op) { return static_cast<uint16_t>(op) <= 8; }
bool is_str_op(PayloadOp op) {
  return op == PayloadOp::Contains || op == PayloadOp::DoesntContain || op == PayloadOp::Is ||
         op == PayloadOp::IsNot;
}

// Returns a description of what is wrong with instruction `i`, or "" when it is fine.
// One case per opcode, hence the length.
std::string check_inst(const ir::Program& p, size_t i) {
  const ir::Inst& in = p.code[i];
  auto reg_ok = [&](uint64_t r) { return r < p.num_regs; };
  auto opt_reg_ok = [&](uint64_t r) { return r == ir::kNoReg || r < p.num_regs; };
  bool writes = in.op != ir::Op::Jz && in.op != ir::Op::Jmp && in.op != ir::Op::Deliver &&
                in.op != ir::Op::Stack && in.op != ir::Op::Return;
  if (writes && !reg_ok(in.dst)) return "destination register out of range";
  switch (in.op) {
    case ir::Op::Const:
    case ir::Op::Return:
      return "";
    case ir::Op::LoadHeader:
      return in.a <= static_cast<uint32_t>(ir::HeaderField::PayloadSize) ? "" : "bad header field";
    case ir::Op::And:
    case ir::Op::Or:
      return reg_ok(in.a) && reg_ok(in.b) ? "" : "operand register out of range";
    case ir::Op::Not:
    case ir::Op::AndImm:
      return reg_ok(in.a) ? "" : "operand register out of range";
    case ir::Op::Cmp:
      if (!reg_ok(in.a)) return "operand register out of range";
      return in.b <= static_cast<uint32_t>(ir::Cond::SGe) ? "" : "bad condition";
    case ir::Op::InSet:
      if (!reg_ok(in.a)) return "operand register out of range";
      return in.b < p.int_sets.size() ? "" : "int set out of range";
    case ir::Op::StrIn:
      if (in.a > static_cast<uint32_t>(ir::HeaderString::EventName)) return "bad header string";
      return in.b < p.str_sets.size() ? "" : "string set out of range";
    case ir::Op::Jz:
      if (!reg_ok(in.a)) return "operand register out of range";
      [[fallthrough]];
    case ir::Op::Jmp:
      return in.b > i && in.b < p.code.size() ? "" : "jump target not forward or out of range";
    case ir::Op::Deliver:
    case ir::Op::Stack:
      if (!reg_ok(in.a)) return "operand register out of range";
      return in.b < 64 ? "" : "session bit out of range";
    case ir::Op::Skip:
    case ir::Op::LoadField:
    case ir::Op::PredInt:
    case ir::Op::PredStr:
    case ir::Op::PredGuid:
      break;
  }
  if (!reg_ok(in.a)) return "offset register out of range";
  if (in.b >= p.fields.size()) return "field out of range";
  const ir::FieldDesc& f = p.fields[in.b];
  using K = Extent::Kind;
  switch (in.op) {
    case ir::Op::Skip:
      if ((f.count.kind == K::Field) != (in.c != ir::kNoReg) || !opt_reg_ok(in.c))
        return "count register does not match the field";
      [[fallthrough]];
    case ir::Op::PredStr:
      if (in.op == ir::Op::PredStr) {
        if (in.c >= p.str_preds.size()) return "string predicate out of range";
        if (!is_str_op(p.str_preds[in.c].op)) return "bad string predicate operator";
        if (f.type != InType::UnicodeString && f.type != InType::AnsiString)
          return "string predicate on a non-string field";
      }
      if ((f.length.kind == K::Field) != (in.imm != ir::kNoReg) || !opt_reg_ok(in.imm))
        return "length register does not match the field";
      return "";
    case ir::Op::LoadField:
      return "";
    case ir::Op::PredInt:
      if (in.c >= p.int_preds.size()) return "int predicate out of range";
      if (!is_int_op(p.int_preds[in.c].op)) return "bad int predicate operator";
      if (p.int_preds[in.c].op == PayloadOp::Modulo && p.int_preds[in.c].lo == 0)
        return "MODULO by zero";
      return "";
    case ir::Op::PredGuid:
      if (in.c >= p.guid_preds.size()) return "GUID predicate out of range";
      return p.guid_preds[in.c].op == PayloadOp::Is || p.guid_preds[in.c].op == PayloadOp::IsNot
                 ? ""
                 : "bad GUID predicate operator";
    default:
      return "";
  }
}

}  // namespace

Result<void> check_codegen_input(const ir::Program& program) {
  if (program.code.empty() || program.code.back().op != ir::Op::Return)
    return make_error("IR program does not end with ret");
  for (size_t i = 0; i < program.code.size(); ++i) {
    if (program.code[i].op > ir::Op::Return)
      return make_error("IR instruction " + std::to_string(i) + ": unknown opcode");
    std::string problem = check_inst(program, i);
    if (!problem.empty())
      return make_error("IR instruction " + std::to_string(i) + " (" +
                        std::string(ir::kOpNames[static_cast<size_t>(program.code[i].op)]) +
                        "): " + problem);
  }
  return {};
}

}  // namespace pfc::internal
