// compiler/interp.h — the reference interpreter: runs an ir::Program per event. It is the
// gold standard (docs/style.md §8): every other engine is tested against it. Also declares the
// extern "C" helpers both engines call for sets and payload work, so the JIT executes
// exactly the same code as the interpreter.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "compiler/ir.h"
#include "pfc/event.h"
#include "runtime/routing_program.h"

extern "C" {

// 1 if `value` is in `set` (sorted values: binary search), else 0.
int pfc_ir_in_set(const pfc::ir::IntSet* set, uint64_t value);

// Op::MaskMap / MaskByte: the mask `map` holds for `key` (binary search).
uint64_t pfc_ir_mask_map(const pfc::ir::MaskMap* map, uint64_t key);

// Op::MaskRange: the mask of the interval of `map` holding `value` (binary search; the JIT
// calls it for large maps, compiler/jit/codegen.h).
uint64_t pfc_ir_mask_range(const pfc::ir::RangeMap* map, uint64_t value);
// Op::MaskRange on the scalar integer field at `off`: pfc_ir_mask_range of its value, or
// map->bad when it cannot be decoded.
uint64_t pfc_ir_mask_range_field(const pfc::EventView* event, uint64_t off,
                                 const pfc::ir::FieldDesc* field, const pfc::ir::RangeMap* map);

// Op::StrIndex: 1 + the position in `set` of header string `which` (pfc::ir::HeaderString)
// of `event`, or 0 if it is not in the set (binary search). ExeName is the final path
// component of event->exe (after the last '/' or '\\'); an absent string is the empty
// string. For case-insensitive sets the candidate is ASCII-lower-cased on the fly (no
// allocation). The one string-set search: pfc_ir_str_in is `pfc_ir_str_index(…) != 0`.
uint64_t pfc_ir_str_index(const pfc::ir::StrSet* set, const pfc::EventView* event, uint32_t which);
// Op::StrIn: 1 if header string `which` of `event` is in `set`, else 0.
int pfc_ir_str_in(const pfc::ir::StrSet* set, const pfc::EventView* event, uint32_t which);

// Header field `field` (pfc::ir::HeaderField) of `event`, zero-extended.
uint64_t pfc_ir_load_header(const pfc::EventView* event, uint32_t field);

// Op::Skip: offset just past `field` (all elements) starting at `off`, or kBadOffset.
// `count` / `length` are the values of the count/length registers; they are used only when
// the descriptor's extent is Extent::Kind::Field (pass 0 otherwise).
uint64_t pfc_ir_skip(const pfc::EventView* event, uint64_t off, const pfc::ir::FieldDesc* field,
                     uint64_t count, uint64_t length);

// Op::LoadField: the scalar integer field at `off`, sign-extended for signed types; 0 when
// it cannot be decoded.
uint64_t pfc_ir_load_field(const pfc::EventView* event, uint64_t off,
                           const pfc::ir::FieldDesc* field);

// Op::PredInt / PredStr / PredGuid: 1 if the predicate holds for the field at `off`, 0 if not
// or if the field cannot be decoded (docs/semantics.md §2.1). `length` as for pfc_ir_skip.
int pfc_ir_pred_int(const pfc::EventView* event, uint64_t off, const pfc::ir::FieldDesc* field,
                    const pfc::ir::IntPred* pred);
int pfc_ir_pred_str(const pfc::EventView* event, uint64_t off, const pfc::ir::FieldDesc* field,
                    const pfc::ir::StrPred* pred, uint64_t length);
int pfc_ir_pred_guid(const pfc::EventView* event, uint64_t off, const pfc::ir::GuidPred* pred);

}  // extern "C"

namespace pfc {

// Why one session did or did not receive an event, read from the program's check notes
// (ir::CheckNote): the first check that failed, in ir::Check order.
struct SessionExplanation {
  uint32_t slot = 0;
  std::optional<ir::Check> failed;  // nullopt: every check passed (delivered before exclusion)
};

struct Explanation {
  RouteResult result;                        // what route() returns for the event
  std::vector<SessionExplanation> sessions;  // every session with check notes, by slot
};

// Routes events by interpreting a verified IR program: a plain switch over Op. Immutable
// after construction, so route() is thread-safe; it never allocates (registers live on the
// stack up to kStackRegs, beyond that in a thread_local buffer grown once per thread).
class Interpreter final : public RoutingProgram {
 public:
  static constexpr uint32_t kStackRegs = 256;

  // Verifies `prog` first; fails with the verifier's error.
  static Result<std::unique_ptr<Interpreter>> create(ir::Program prog);
  // Precondition: `prog` passed verify().
  explicit Interpreter(ir::Program prog) : prog_(std::move(prog)) {}

  RouteResult route(const EventView& event) const noexcept override;
  const ir::Program& program() const { return prog_; }
  // The same run as route(), plus each session's first failed check: the explanation is
  // derived from the engine, not re-evaluated. Allocates (not for the hot path).
  // Thread-safe.
  Explanation explain(const EventView& event) const;

 private:
  RouteResult run(const EventView& event, uint64_t* regs) const noexcept;

  ir::Program prog_;
};

// lower → verify → Interpreter. Stateless; thread-safe.
class InterpCompiler final : public ProgramCompiler {
 public:
  Result<std::shared_ptr<const RoutingProgram>> compile(const ProgramSpec& spec) override;
};

}  // namespace pfc
