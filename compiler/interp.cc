// compiler/interp.cc — the reference interpreter (a plain switch over ir::Op) and the
// extern "C" set/payload helpers shared with the JIT (interp.h).
#include "compiler/interp.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <string_view>
#include <vector>

#include "base/ascii.h"
#include "base/scope_kinds.h"
#include "compiler/lower.h"
#include "compiler/regex_pred.h"
#include "compiler/str_match.h"
#include "compiler/verify.h"
#include "runtime/tdh.h"

namespace {

using pfc::EventView;
using pfc::Extent;
using pfc::ir::FieldDesc;

static_assert(std::endian::native == std::endian::little && sizeof(pfc::Guid) == 16,
              "pfc_ir_pred_guid passes a Guid's memory as its payload bytes");

// Three-way comparison of `cand` (lower-cased when `fold`) with the stored `value`, bytewise
// unsigned like std::string's ordering.
int compare(std::string_view cand, std::string_view value, bool fold) {
  size_t n = std::min(cand.size(), value.size());
  for (size_t i = 0; i < n; ++i) {
    unsigned char a = static_cast<unsigned char>(cand[i]);
    if (fold) a = pfc::ascii_lower(a);
    unsigned char b = static_cast<unsigned char>(value[i]);
    if (a != b) return a < b ? -1 : 1;
  }
  return cand.size() < value.size() ? -1 : (cand.size() > value.size() ? 1 : 0);
}

// The event string `which` (ir::HeaderString): a name scope's (base/scope_kinds.h) or the
// event's name.
std::string_view header_string(const EventView& e, uint32_t which) {
  if (which == uint32_t(pfc::ir::HeaderString::EventName)) return e.name.view();
  if (which > uint32_t(pfc::ir::HeaderString::EventName)) return {};
  return pfc::internal::scope_event_string(
      e, pfc::internal::kScopeKinds[pfc::internal::kFirstNameScope + which]);
}

uint64_t extent_value(const Extent& e, uint64_t reg_value, uint64_t none) {
  switch (e.kind) {
    case Extent::Kind::None: return none;
    case Extent::Kind::Fixed: return e.value;
    case Extent::Kind::Field: return reg_value;
  }
  return none;
}

// A string/binary length: as extent_value, but a field value never reads as "none".
uint64_t length_value(const Extent& e, uint64_t reg_value) {
  const uint64_t v = extent_value(e, reg_value, PFC_TDH_NO_LENGTH);
  return e.kind == Extent::Kind::Field ? pfc_tdh_field_length(v) : v;
}

}  // namespace

extern "C" {

int pfc_ir_in_set(const pfc::ir::IntSet* set, uint64_t value) {
  return std::binary_search(set->values.begin(), set->values.end(), value) ? 1 : 0;
}

uint64_t pfc_ir_mask_map(const pfc::ir::MaskMap* map, uint64_t key) { return map->lookup(key); }

uint64_t pfc_ir_mask_range(const pfc::ir::RangeMap* map, uint64_t value) {
  return map->lookup(value);
}

uint64_t pfc_ir_mask_range_field(const EventView* e, uint64_t off, const FieldDesc* f,
                                 const pfc::ir::RangeMap* map) {
  int ok = 1;
  uint64_t v = pfc_tdh_load_int(e->payload, e->payload_size, off, uint32_t(f->type), &ok);
  return ok ? map->lookup(v) : map->bad;
}

uint64_t pfc_ir_str_index(const pfc::ir::StrSet* set, const EventView* event, uint32_t which) {
  std::string_view cand = header_string(*event, which);
  size_t lo = 0;
  size_t hi = set->values.size();
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = compare(cand, set->values[mid], set->case_insensitive);
    if (c == 0) return mid + 1;
    if (c < 0) hi = mid;
    else lo = mid + 1;
  }
  return 0;
}

int pfc_ir_str_in(const pfc::ir::StrSet* set, const EventView* event, uint32_t which) {
  return pfc_ir_str_index(set, event, which) != 0 ? 1 : 0;
}

uint64_t pfc_ir_load_header(const EventView* e, uint32_t field) {
  using pfc::ir::HeaderField;
  switch (static_cast<HeaderField>(field)) {
    case HeaderField::Id: return e->desc.id;
    case HeaderField::Version: return e->desc.version;
    case HeaderField::Channel: return e->desc.channel;
    case HeaderField::Level: return e->desc.level;
    case HeaderField::Opcode: return e->desc.opcode;
    case HeaderField::Task: return e->desc.task;
    case HeaderField::Keyword: return e->desc.keyword;
    case HeaderField::Pid: return e->pid;
    case HeaderField::Tid: return e->tid;
    case HeaderField::PayloadSize: return e->payload_size;
  }
  return 0;
}

uint64_t pfc_ir_skip(const EventView* e, uint64_t off, const FieldDesc* f, uint64_t count,
                     uint64_t length) {
  return pfc_tdh_skip(e->payload, e->payload_size, off, uint32_t(f->type),
                      extent_value(f->count, count, 1), length_value(f->length, length));
}

uint64_t pfc_ir_load_field(const EventView* e, uint64_t off, const FieldDesc* f) {
  int ok = 1;
  uint64_t v = pfc_tdh_load_int(e->payload, e->payload_size, off, uint32_t(f->type), &ok);
  return ok ? v : 0;
}

int pfc_ir_pred_int(const EventView* e, uint64_t off, const FieldDesc* f,
                    const pfc::ir::IntPred* p) {
  int ok = 1;
  uint64_t v = pfc_tdh_load_int(e->payload, e->payload_size, off, uint32_t(f->type), &ok);
  if (!ok) return 0;
  return pfc_tdh_int_pred(uint32_t(p->op), pfc::in_type_is_signed(f->type) ? 1 : 0, v, p->lo,
                          p->hi);
}

int pfc_ir_pred_str(const EventView* e, uint64_t off, const FieldDesc* f, const pfc::ir::StrPred* p,
                    uint64_t length) {
  if (p->regex) {
    uint64_t next = 0;
    return pfc_ir_pred_regex_next(e->payload, e->payload_size, off, uint32_t(f->type),
                                  length_value(f->length, length), p->regex.get(), &next);
  }
  return pfc_tdh_str_pred(e->payload, e->payload_size, off, uint32_t(f->type),
                          length_value(f->length, length), uint32_t(p->op), p->folded.data(),
                          p->folded.size(), p->links.data());
}

int pfc_ir_pred_guid(const EventView* e, uint64_t off, const pfc::ir::GuidPred* p) {
  return pfc_tdh_guid_pred(e->payload, e->payload_size, off, uint32_t(p->op),
                           reinterpret_cast<const uint8_t*>(&p->value));
}

}  // extern "C"

namespace pfc {

uint64_t ir::MaskMap::lookup(uint64_t key) const {
  auto it = std::lower_bound(keys.begin(), keys.end(), key);
  return it != keys.end() && *it == key ? masks[size_t(it - keys.begin())] : other;
}

uint64_t ir::RangeMap::lookup(uint64_t value) const {
  auto it = std::upper_bound(starts.begin(), starts.end(), value);
  return masks[size_t(it - starts.begin())];
}

using ir::Cond;
using ir::Inst;
using ir::Op;

namespace {

bool compare_cond(uint64_t a, uint32_t cond, uint64_t imm) {
  auto sa = static_cast<int64_t>(a);
  auto si = static_cast<int64_t>(imm);
  switch (static_cast<Cond>(cond)) {
    case Cond::Eq: return a == imm;
    case Cond::Ne: return a != imm;
    case Cond::ULt: return a < imm;
    case Cond::ULe: return a <= imm;
    case Cond::UGt: return a > imm;
    case Cond::UGe: return a >= imm;
    case Cond::SLt: return sa < si;
    case Cond::SLe: return sa <= si;
    case Cond::SGt: return sa > si;
    case Cond::SGe: return sa >= si;
  }
  return false;
}

// The register file for programs too large for the stack: grown once per thread.
uint64_t* thread_regs(uint32_t n) {
  thread_local std::vector<uint64_t> regs;
  if (regs.size() < n) regs.resize(n);
  return regs.data();
}

}  // namespace

Result<std::unique_ptr<Interpreter>> Interpreter::create(ir::Program prog) {
  if (auto ok = verify(prog); !ok) return std::unexpected(ok.error());
  return std::make_unique<Interpreter>(std::move(prog));
}

RouteResult Interpreter::route(const EventView& event) const noexcept {
  if (prog_.num_regs <= kStackRegs) {
    uint64_t regs[kStackRegs];
    std::memset(regs, 0, sizeof(uint64_t) * prog_.num_regs);
    return run(event, regs);
  }
  uint64_t* regs = thread_regs(prog_.num_regs);
  std::memset(regs, 0, sizeof(uint64_t) * prog_.num_regs);
  return run(event, regs);
}

Explanation Interpreter::explain(const EventView& event) const {
  std::vector<uint64_t> regs(prog_.num_regs, 0);
  Explanation out;
  out.result = run(event, regs.data());
  std::array<std::optional<SessionExplanation>, 64> by_slot;
  for (const ir::CheckNote& n : prog_.checks) {  // verified: slot < 64, register written
    std::optional<SessionExplanation>& s = by_slot[n.slot];
    if (!s) s = SessionExplanation{n.slot, std::nullopt};
    const bool passed = n.reg == ir::kNoReg ? n.constant : ((regs[n.reg] >> n.bit) & 1) != 0;
    if (!passed && !s->failed) s->failed = n.check;
  }
  for (const auto& s : by_slot)
    if (s) out.sessions.push_back(*s);
  return out;
}

// The machine of compiler/ir.h: one case per opcode (a table-like switch).
RouteResult Interpreter::run(const EventView& ev, uint64_t* r) const noexcept {
  uint64_t deliver = 0;
  uint64_t stack = 0;
  const Inst* code = prog_.code.data();
  for (size_t pc = 0;; ++pc) {
    const Inst& in = code[pc];
    switch (in.op) {
      case Op::Const: r[in.dst] = in.imm; break;
      case Op::LoadHeader: r[in.dst] = pfc_ir_load_header(&ev, in.a); break;
      case Op::And: r[in.dst] = r[in.a] & r[in.b]; break;
      case Op::Or: r[in.dst] = r[in.a] | r[in.b]; break;
      case Op::Not: r[in.dst] = r[in.a] == 0 ? 1 : 0; break;
      case Op::AndImm: r[in.dst] = r[in.a] & in.imm; break;
      case Op::Cmp: r[in.dst] = compare_cond(r[in.a], in.b, in.imm) ? 1 : 0; break;
      case Op::InSet: r[in.dst] = uint64_t(pfc_ir_in_set(&prog_.int_sets[in.b], r[in.a])); break;
      case Op::StrIn: r[in.dst] = uint64_t(pfc_ir_str_in(&prog_.str_sets[in.b], &ev, in.a)); break;
      case Op::Jz:
        if (r[in.a] != 0) break;
        [[fallthrough]];
      case Op::Jmp:
        pc = in.b - 1;  // verified: this index < b < code.size()
        break;
      case Op::Deliver: deliver |= uint64_t(r[in.a] != 0) << in.b; break;
      case Op::Stack: stack |= uint64_t(r[in.a] != 0) << in.b; break;
      case Op::Skip: {
        uint64_t count = in.c == ir::kNoReg ? 0 : r[in.c];
        uint64_t length = in.imm == ir::kNoReg ? 0 : r[in.imm];
        r[in.dst] = pfc_ir_skip(&ev, r[in.a], &prog_.fields[in.b], count, length);
        break;
      }
      case Op::LoadField: r[in.dst] = pfc_ir_load_field(&ev, r[in.a], &prog_.fields[in.b]); break;
      case Op::PredInt:
        r[in.dst] =
            uint64_t(pfc_ir_pred_int(&ev, r[in.a], &prog_.fields[in.b], &prog_.int_preds[in.c]));
        break;
      case Op::PredStr: {
        uint64_t length = in.imm == ir::kNoReg ? 0 : r[in.imm];
        r[in.dst] = uint64_t(
            pfc_ir_pred_str(&ev, r[in.a], &prog_.fields[in.b], &prog_.str_preds[in.c], length));
        break;
      }
      case Op::PredGuid:
        r[in.dst] = uint64_t(pfc_ir_pred_guid(&ev, r[in.a], &prog_.guid_preds[in.c]));
        break;
      case Op::CmpReg: r[in.dst] = compare_cond(r[in.a], in.b, r[in.c]) ? 1 : 0; break;
      case Op::MaskMap: r[in.dst] = prog_.mask_maps[in.b].lookup(r[in.a]); break;
      case Op::MaskByte:
        r[in.dst] = prog_.mask_maps[in.c].lookup((r[in.a] >> (8 * in.b)) & 0xFF);
        break;
      case Op::MaskIf: r[in.dst] = r[in.a] != 0 ? in.imm : 0; break;
      case Op::Select: r[in.dst] = r[in.a] != 0 ? r[in.b] : r[in.c]; break;
      case Op::DeliverMask: deliver |= r[in.a]; break;
      case Op::MaskRange:
        r[in.dst] =
            pfc_ir_mask_range_field(&ev, r[in.a], &prog_.fields[in.b], &prog_.range_maps[in.c]);
        break;
      case Op::StrIndex: r[in.dst] = pfc_ir_str_index(&prog_.str_sets[in.b], &ev, in.a); break;
      case Op::MaskStrs: {
        const FieldDesc& f = prog_.fields[in.b];
        const uint64_t length = length_value(f.length, in.imm == ir::kNoReg ? 0 : r[in.imm]);
        uint64_t next = 0;
        r[in.dst] =
            pfc_ir_mask_strs_each(ev.payload, ev.payload_size, r[in.a], uint32_t(f.type), length,
                                  &prog_.str_maps[in.c], prog_.str_preds.data(), &next);
        break;
      }
      case Op::Return: return RouteResult{deliver, stack & deliver};
    }
  }
}

Result<std::shared_ptr<const RoutingProgram>> InterpCompiler::compile(const ProgramSpec& spec) {
  auto prog = lower(spec);
  if (!prog) return std::unexpected(prog.error());
  auto interp = Interpreter::create(std::move(*prog));
  if (!interp) return std::unexpected(interp.error());
  return std::shared_ptr<const RoutingProgram>(std::move(*interp));
}

}  // namespace pfc
