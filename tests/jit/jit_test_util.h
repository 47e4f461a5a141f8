// tests/jit/jit_test_util.h — helpers for the JIT tests: a tiny ir::Program builder (one
// fresh register per value, as the verifier wants), owning test events, and a runner that
// routes an event on the interpreter and on native code at every optimisation level.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "compiler/interp.h"
#include "compiler/ir.h"
#include "compiler/jit/jit.h"
#include "pfc/event.h"

namespace pfc::testing {

class ProgramBuilder {
 public:
  ir::Reg emit(ir::Op op, uint32_t a = 0, uint32_t b = 0, uint32_t c = 0, uint64_t imm = 0) {
    ir::Reg dst = prog_.num_regs++;
    prog_.code.push_back(ir::Inst{op, dst, a, b, c, imm});
    return dst;
  }
  // An instruction without a destination (jz, jmp, deliver, stack, ret).
  size_t effect(ir::Op op, uint32_t a = 0, uint32_t b = 0) {
    prog_.code.push_back(ir::Inst{op, ir::kNoReg, a, b, 0, 0});
    return prog_.code.size() - 1;
  }
  ir::Reg constant(uint64_t v) { return emit(ir::Op::Const, 0, 0, 0, v); }
  // Delivers every bit of r as session bit i, so deliver == r.
  void expose(ir::Reg r) {
    for (uint32_t i = 0; i < 64; ++i)
      effect(ir::Op::Deliver, emit(ir::Op::AndImm, r, 0, 0, uint64_t{1} << i), i);
  }
  void patch_target(size_t jump, size_t target) {
    prog_.code[jump].b = static_cast<uint32_t>(target);
  }
  size_t here() const { return prog_.code.size(); }
  ir::Program& program() { return prog_; }
  ir::Program finish() {
    effect(ir::Op::Return);
    return std::move(prog_);
  }

 private:
  ir::Program prog_;
};

inline void put_le(std::vector<uint8_t>& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
inline void put_wstring(std::vector<uint8_t>& out, const std::u16string& s, bool nul = true) {
  for (char16_t c : s) put_le(out, c, 2);
  if (nul) put_le(out, 0, 2);
}
inline void put_string(std::vector<uint8_t>& out, const std::string& s, bool nul = true) {
  out.insert(out.end(), s.begin(), s.end());
  if (nul) out.push_back(0);
}

// The result of routing one event on every engine: the interpreter first, then native code
// at O0, O1, O2.
struct EngineResults {
  RouteResult interp;
  RouteResult native[3];
};

// Compiles `program` on the interpreter and the JIT at every level (failing the test on an
// error) and routes events through all of them.
class AllEngines {
 public:
  explicit AllEngines(const ir::Program& program) {
    auto interp = Interpreter::create(program);
    EXPECT_TRUE(interp.has_value()) << (interp ? "" : interp.error().message);
    if (interp) interp_ = std::move(*interp);
    for (OptLevel l : {OptLevel::O0, OptLevel::O1, OptLevel::O2}) {
      auto native = JitProgram::create(program, l);
      EXPECT_TRUE(native.has_value()) << (native ? "" : native.error().message);
      if (native) native_.push_back(std::move(*native));
    }
  }
  bool ok() const { return interp_ && native_.size() == 3; }
  EngineResults route(const EventView& e) const {
    EngineResults r;
    r.interp = interp_->route(e);
    for (size_t i = 0; i < 3; ++i) r.native[i] = native_[i]->route(e);
    return r;
  }

 private:
  std::unique_ptr<Interpreter> interp_;
  std::vector<std::shared_ptr<const JitProgram>> native_;
};

inline std::string describe(const RouteResult& r) {
  return "{deliver=" + std::to_string(r.deliver) + ", stack=" + std::to_string(r.stack) + "}";
}

}  // namespace pfc::testing

#include "compiler/frontend.h"

namespace pfc::testing {

// The ProgramSpec of provider 0 of a script that must check cleanly (slot = session index).
inline ProgramSpec spec_from_script(const std::string& text) {
  FrontendOutput out = compile_script(SourceFile("test.pfs", text));
  ProgramSpec spec;
  EXPECT_TRUE(out.ok()) << (out.diagnostics.empty() ? "" : out.diagnostics[0].message) << "\n"
                        << text;
  if (!out.ok()) return spec;
  const CheckedScript& script = out.checked.script;
  spec.provider = script.schema.providers.at(0);
  for (uint32_t slot = 0; slot < script.sessions.size(); ++slot)
    for (const SessionDecl::Enable& e : script.sessions[slot].enables)
      if (e.provider == 0) spec.sessions.push_back(SessionEntry::sharing(slot, e.params));
  return spec;
}

}  // namespace pfc::testing
