// compiler/verify.h — the IR verifier: checks that a program obeys the machine model of
// compiler/ir.h before any engine runs it. Run after lowering and after every pass.
#pragma once

#include "base/error.h"
#include "compiler/ir.h"

namespace pfc {

// Checks `prog` and returns the first violation as an Error whose message starts with
// "inst N (mnemonic): " (or "pool: " for constant pools). Checked: opcode and operand
// ranges (HeaderField, HeaderString, Cond, pool indices, Deliver/Stack bit < 64), register
// indices < num_regs, every register written by at most one instruction and read only after
// an earlier instruction writes it, dst present exactly on value-producing ops, jumps
// strictly forward and ≤ code.size(), field descriptors consistent with their ops (Skip's
// count/length registers present iff the descriptor's extent is a Field; LoadField/PredInt
// on scalar integer fields, PredStr on scalar strings, PredGuid on scalar GUIDs; predicate
// operators valid for their pool; MODULO not by 0), sets sorted and duplicate-free, Return
// last, and check notes (slot < 64, known check, a written register, per slot in Check
// order; string maps: one mask per pattern, pattern operators, a matcher). The one
// verifier: both engines run only programs that pass it.
// Pure and thread-safe.
Result<void> verify(const ir::Program& prog);
// verify() but for the string maps' matchers, which are derived: for a program being
// rebuilt from data (compiler/ir_wire.h), before attach_str_matchers (compiler/str_match.h).
Result<void> verify_data(const ir::Program& prog);

}  // namespace pfc
