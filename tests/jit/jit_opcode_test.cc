// tests/jit/jit_opcode_test.cc — hand-built IR programs covering every opcode (including
// truncated payloads, bad offsets and jumps), each run on the interpreter and on native
// code at O0/O1/O2 against expected values written out by hand.
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "compiler/jit/codegen.h"
#include "compiler/regex_pred.h"
#include "compiler/str_match.h"
#include "runtime/casefold.h"
#include "tests/jit/jit_test_util.h"

namespace pfc::testing {
namespace {

using ir::Op;
constexpr uint64_t kBad = ir::kBadOffset;

struct Probe {
  Event event;
  RouteResult expected;
};

struct Case {
  std::string name;
  std::function<void(ProgramBuilder&)> build;
  std::vector<Probe> probes;
};

Event header_event() {
  Event e;
  e.desc = EventDescriptor{0x1234, 7, 9, 4, 200, 0xBEEF, 0xF00000000000000Full};
  e.pid = 0xDEADBEEF;
  e.tid = 77;
  e.exe = "C:\\dir\\Foo.EXE";
  e.package_id = "Pkg.One";
  e.app_id = "app";
  e.name = "Start";
  e.payload = {1, 2, 3, 4, 5};
  return e;
}

Event with_payload(std::vector<uint8_t> payload) {
  Event e = header_event();
  e.payload = std::move(payload);
  return e;
}

Probe value(Event e, uint64_t v) { return Probe{std::move(e), RouteResult{v, 0}}; }
Probe truth(Event e, bool v) { return value(std::move(e), v ? 1 : 0); }

ir::FieldDesc field(InType t, Extent count = {}, Extent length = {}) { return {t, count, length}; }
Extent fixed(uint32_t v) { return {Extent::Kind::Fixed, v}; }
Extent from_field(uint32_t v) { return {Extent::Kind::Field, v}; }

uint32_t add_field(ProgramBuilder& b, ir::FieldDesc f) {
  b.program().fields.push_back(f);
  return static_cast<uint32_t>(b.program().fields.size() - 1);
}

// `dst = op field at offset 0`, delivered as a value (exposed) or a boolean (bit 0).
void field_at_zero(ProgramBuilder& b, Op op, ir::FieldDesc f, uint32_t pool = 0,
                   bool expose = true) {
  uint32_t fi = add_field(b, f);
  ir::Reg off = b.constant(0);
  ir::Reg r = b.emit(op, off, fi, op == Op::Skip ? ir::kNoReg : pool,
                     op == Op::Skip || op == Op::PredStr ? ir::kNoReg : 0);
  if (expose) b.expose(r);
  else b.effect(Op::Deliver, r, 0);
}

std::vector<Case> header_cases() {
  const uint64_t expected[] = {0x1234,     7,  9, 4, 200, 0xBEEF, 0xF00000000000000Full,
                               0xDEADBEEF, 77, 5};
  std::vector<Case> cases;
  for (uint32_t f = 0; f <= static_cast<uint32_t>(ir::HeaderField::PayloadSize); ++f)
    cases.push_back({"load.hdr." + std::to_string(f),
                     [f](ProgramBuilder& b) { b.expose(b.emit(Op::LoadHeader, f)); },
                     {value(header_event(), expected[f])}});
  return cases;
}

std::vector<Case> cmp_cases() {
  struct Row {
    ir::Cond cond;
    uint64_t a, imm;
    bool expected;
  };
  const uint64_t m1 = ~uint64_t{0};
  const Row rows[] = {
      {ir::Cond::Eq, 5, 5, true},   {ir::Cond::Eq, 5, 6, false},   {ir::Cond::Ne, 5, 6, true},
      {ir::Cond::ULt, 5, m1, true}, {ir::Cond::SLt, 5, m1, false}, {ir::Cond::ULe, 5, 5, true},
      {ir::Cond::UGt, m1, 5, true}, {ir::Cond::SGt, m1, 5, false}, {ir::Cond::UGe, 4, 5, false},
      {ir::Cond::SLe, m1, 0, true}, {ir::Cond::SGe, 0, m1, true},  {ir::Cond::SLt, m1, 0, true},
  };
  std::vector<Case> cases;
  for (const Row& row : rows)
    cases.push_back(
        {"cmp." + std::to_string(static_cast<int>(row.cond)) + "." + std::to_string(row.a),
         [row](ProgramBuilder& b) {
           b.effect(Op::Deliver,
                    b.emit(Op::Cmp, b.constant(row.a), static_cast<uint32_t>(row.cond), 0, row.imm),
                    0);
         },
         {truth(header_event(), row.expected)}});
  for (const Row& row : rows)  // cmp.reg: the same rows with imm in a register
    cases.push_back(
        {"cmp.reg." + std::to_string(static_cast<int>(row.cond)) + "." + std::to_string(row.a),
         [row](ProgramBuilder& b) {
           b.effect(Op::Deliver,
                    b.emit(Op::CmpReg, b.constant(row.a), static_cast<uint32_t>(row.cond),
                           b.constant(row.imm)),
                    0);
         },
         {truth(header_event(), row.expected)}});
  return cases;
}

std::vector<Case> logic_cases() {
  auto binary = [](Op op, uint64_t x, uint64_t y) {
    return [=](ProgramBuilder& b) { b.expose(b.emit(op, b.constant(x), b.constant(y))); };
  };
  return {
      {"const",
       [](ProgramBuilder& b) { b.expose(b.constant(0x8000000000000001ull)); },
       {value(header_event(), 0x8000000000000001ull)}},
      {"and", binary(Op::And, 0xF0F0, 0xFF00), {value(header_event(), 0xF000)}},
      {"or", binary(Op::Or, 0xF0F0, 0xFF00), {value(header_event(), 0xFFF0)}},
      {"not.0",
       [](ProgramBuilder& b) { b.expose(b.emit(Op::Not, b.constant(0))); },
       {value(header_event(), 1)}},
      {"not.7",
       [](ProgramBuilder& b) { b.expose(b.emit(Op::Not, b.constant(7))); },
       {value(header_event(), 0)}},
      {"and.imm",
       [](ProgramBuilder& b) { b.expose(b.emit(Op::AndImm, b.constant(0x1234), 0, 0, 0xFF)); },
       {value(header_event(), 0x34)}},
  };
}

std::vector<Case> set_cases() {
  auto in_set = [](const std::vector<uint64_t>& values) {
    return [values](ProgramBuilder& b) {
      b.program().int_sets.push_back({values});
      ir::Reg v = b.emit(Op::LoadHeader, static_cast<uint32_t>(ir::HeaderField::Pid));
      b.effect(Op::Deliver, b.emit(Op::InSet, v, 0), 0);
    };
  };
  std::vector<uint64_t> large;
  for (uint64_t v = 0; v < 600; v += 3) large.push_back(v);
  auto pid = [](uint32_t p) {
    Event e = header_event();
    e.pid = p;
    return e;
  };
  auto str_in = [](ir::HeaderString which, const std::vector<std::string>& values, bool ci) {
    return [=](ProgramBuilder& b) {
      b.program().str_sets.push_back({values, ci});
      b.effect(Op::Deliver, b.emit(Op::StrIn, static_cast<uint32_t>(which), 0), 0);
    };
  };
  auto str_index = [](ir::HeaderString which, const std::vector<std::string>& values, bool ci) {
    return [=](ProgramBuilder& b) {
      b.program().str_sets.push_back({values, ci});
      b.expose(b.emit(Op::StrIndex, static_cast<uint32_t>(which), 0));
    };
  };
  auto exe = [](std::string path) {
    Event e = header_event();
    e.exe = std::move(path);
    return e;
  };
  using HS = ir::HeaderString;
  return {
      {"in.set.small",
       in_set({1, 5, 9}),
       {truth(pid(5), true), truth(pid(6), false), truth(pid(0), false)}},
      {"in.set.large",
       in_set(large),
       {truth(pid(99), true), truth(pid(100), false), truth(pid(3000), false)}},
      {"in.set.empty", in_set({}), {truth(pid(0), false)}},
      {"str.in.exe.ci",
       str_in(HS::ExeName, {"bar.exe", "foo.exe"}, true),
       {truth(exe("C:\\dir\\Foo.EXE"), true), truth(exe("/usr/bin/foo.exe"), true),
        truth(exe("foo.exe.x"), false), truth(exe(""), false)}},
      {"str.in.exe.cs",
       str_in(HS::ExeName, {"Foo.EXE"}, false),
       {truth(exe("C:\\dir\\Foo.EXE"), true), truth(exe("/usr/bin/foo.exe"), false)}},
      {"str.in.package", str_in(HS::PackageId, {"pkg.one"}, true), {truth(header_event(), true)}},
      {"str.in.app", str_in(HS::AppId, {"App"}, false), {truth(header_event(), false)}},
      {"str.in.name",
       str_in(HS::EventName, {"Start", "Stop"}, false),
       {truth(header_event(), true)}},
      {"str.index.exe.ci",
       str_index(HS::ExeName, {"a.exe", "bar.exe", "foo.exe"}, true),
       {value(exe("C:\\dir\\Foo.EXE"), 3), value(exe("/bin/a.exe"), 1), value(exe("x"), 0),
        value(exe(""), 0)}},
      {"str.index.name.cs",
       str_index(HS::EventName, {"Start", "Stop"}, false),
       {value(header_event(), 1)}},
  };
}

std::vector<Case> control_cases() {
  auto level = [](uint8_t l) {
    Event e = header_event();
    e.desc.level = l;
    return e;
  };
  return {
      {"jz",
       [](ProgramBuilder& b) {
         ir::Reg l = b.emit(Op::LoadHeader, static_cast<uint32_t>(ir::HeaderField::Level));
         ir::Reg one = b.constant(1);
         size_t jz = b.effect(Op::Jz, l, 0);
         b.effect(Op::Deliver, one, 0);
         b.patch_target(jz, b.here());
         b.effect(Op::Deliver, one, 1);
       },
       {value(level(0), 2), value(level(3), 3)}},
      {"jmp",
       [](ProgramBuilder& b) {
         ir::Reg one = b.constant(1);
         size_t jmp = b.effect(Op::Jmp, 0, 0);
         b.effect(Op::Deliver, one, 0);
         b.effect(Op::Return);
         b.patch_target(jmp, b.here());
         b.effect(Op::Deliver, one, 63);
       },
       {value(header_event(), uint64_t{1} << 63)}},
      {"deliver.stack",
       [](ProgramBuilder& b) {
         ir::Reg one = b.constant(1);
         ir::Reg zero = b.constant(0);
         b.effect(Op::Deliver, one, 3);
         b.effect(Op::Deliver, zero, 4);
         b.effect(Op::Stack, one, 3);
         b.effect(Op::Stack, one, 5);  // not delivered: masked out
       },
       {Probe{header_event(), RouteResult{8, 8}}}},
  };
}

std::vector<Case> skip_cases() {
  auto skip0 = [](ir::FieldDesc f) {
    return [f](ProgramBuilder& b) { field_at_zero(b, Op::Skip, f); };
  };
  // count (uint8 or int8 field 0) then uint32[count]: offset past the array.
  auto counted = [](InType count_type) {
    return [count_type](ProgramBuilder& b) {
      uint32_t f0 = add_field(b, field(count_type));
      uint32_t f1 = add_field(b, field(InType::UInt32, from_field(0)));
      ir::Reg zero = b.constant(0);
      ir::Reg n = b.emit(Op::LoadField, zero, f0);
      ir::Reg off1 = b.emit(Op::Skip, zero, f0, ir::kNoReg, ir::kNoReg);
      b.expose(b.emit(Op::Skip, off1, f1, n, ir::kNoReg));
    };
  };
  // length (uint16 field 0) then binary[length].
  auto binary = [](ProgramBuilder& b) {
    uint32_t f0 = add_field(b, field(InType::UInt16));
    uint32_t f1 = add_field(b, field(InType::Binary, {}, from_field(0)));
    ir::Reg zero = b.constant(0);
    ir::Reg len = b.emit(Op::LoadField, zero, f0);
    ir::Reg off1 = b.emit(Op::Skip, zero, f0, ir::kNoReg, ir::kNoReg);
    b.expose(b.emit(Op::Skip, off1, f1, ir::kNoReg, len));
  };
  auto from_bad = [](ProgramBuilder& b) {
    uint32_t f = add_field(b, field(InType::UInt8));
    b.expose(b.emit(Op::Skip, b.constant(kBad), f, ir::kNoReg, ir::kNoReg));
  };
  auto w = [](const std::u16string& s, bool nul) {
    std::vector<uint8_t> p;
    put_wstring(p, s, nul);
    return p;
  };
  return {
      {"skip.u32",
       skip0(field(InType::UInt32)),
       {value(with_payload({1, 2, 3, 4}), 4), value(with_payload({1, 2, 3}), kBad),
        value(with_payload({}), kBad)}},
      {"skip.u16x3",
       skip0(field(InType::UInt16, fixed(3))),
       {value(with_payload({0, 0, 0, 0, 0, 0, 9}), 6), value(with_payload({0, 0, 0, 0, 0}), kBad)}},
      {"skip.guid",
       skip0(field(InType::Guid)),
       {value(with_payload(std::vector<uint8_t>(16)), 16),
        value(with_payload(std::vector<uint8_t>(15)), kBad)}},
      {"skip.count0", skip0(field(InType::UInt64, fixed(0))), {value(with_payload({}), 0)}},
      {"skip.counted",
       counted(InType::UInt8),
       {value(with_payload({2, 0, 0, 0, 0, 0, 0, 0, 0}), 9),
        value(with_payload({3, 0, 0, 0, 0, 0, 0, 0, 0}), kBad), value(with_payload({0}), 1),
        value(with_payload({}), kBad)}},
      {"skip.counted.negative",
       counted(InType::Int8),
       {value(with_payload({0xFF, 0, 0, 0, 0}), kBad)}},
      {"skip.wstring",
       skip0(field(InType::UnicodeString)),
       {value(with_payload(w(u"hi", true)), 6), value(with_payload(w(u"hi", false)), kBad),
        value(with_payload({0}), kBad)}},
      {"skip.string.len3",
       skip0(field(InType::AnsiString, {}, fixed(3))),
       {value(with_payload({'a', 'b', 'c', 'd'}), 3), value(with_payload({'a', 'b'}), kBad)}},
      {"skip.binary",
       binary,
       {value(with_payload({2, 0, 7, 7}), 4), value(with_payload({3, 0, 7, 7}), kBad)}},
      {"skip.bad", from_bad, {value(with_payload({1, 2, 3}), kBad)}},
  };
}

std::vector<Case> load_cases() {
  auto load0 = [](InType t) {
    return [t](ProgramBuilder& b) { field_at_zero(b, Op::LoadField, field(t)); };
  };
  auto from_bad = [](ProgramBuilder& b) {
    uint32_t f = add_field(b, field(InType::UInt8));
    b.expose(b.emit(Op::LoadField, b.constant(kBad), f));
  };
  auto at_end = [](ProgramBuilder& b) {  // offset == payload size: nothing left
    uint32_t f = add_field(b, field(InType::UInt8));
    b.expose(b.emit(Op::LoadField,
                    b.emit(Op::LoadHeader, static_cast<uint32_t>(ir::HeaderField::PayloadSize)),
                    f));
  };
  return {
      {"load.i8",
       load0(InType::Int8),
       {value(with_payload({0xFF}), ~uint64_t{0}), value(with_payload({0x7F}), 0x7F)}},
      {"load.u8",
       load0(InType::UInt8),
       {value(with_payload({0xFF}), 0xFF), value(with_payload({}), 0)}},
      {"load.u16",
       load0(InType::UInt16),
       {value(with_payload({0x34, 0x12}), 0x1234), value(with_payload({0x34}), 0)}},
      {"load.i16", load0(InType::Int16), {value(with_payload({0xFE, 0xFF}), ~uint64_t{1})}},
      {"load.i32",
       load0(InType::Int32),
       {value(with_payload({0, 0, 0, 0x80}), 0xFFFFFFFF80000000ull)}},
      {"load.hex32",
       load0(InType::HexInt32),
       {value(with_payload({0, 0, 0, 0x80}), 0x80000000ull)}},
      {"load.bool",
       load0(InType::Boolean),
       {value(with_payload({1, 0, 0, 0}), 1), value(with_payload({1, 0, 0}), 0)}},
      {"load.u64",
       load0(InType::UInt64),
       {value(with_payload({1, 2, 3, 4, 5, 6, 7, 8}), 0x0807060504030201ull),
        value(with_payload({1, 2, 3, 4, 5, 6, 7}), 0)}},
      {"load.pointer",
       load0(InType::Pointer),
       {value(with_payload({0, 0, 0, 0, 0, 0, 0, 0x80}), 0x8000000000000000ull)}},
      {"load.filetime",
       load0(InType::FileTime),
       {value(with_payload({9, 0, 0, 0, 0, 0, 0, 0}), 9)}},
      {"load.bad", from_bad, {value(with_payload({1}), 0)}},
      {"load.at_end", at_end, {value(with_payload({1, 2}), 0)}},
  };
}

std::vector<Case> pred_int_cases() {
  struct Row {
    InType type;
    std::vector<uint8_t> bytes;
    PayloadOp op;
    uint64_t lo, hi;
    bool expected;
  };
  const uint64_t m1 = ~uint64_t{0}, m2 = ~uint64_t{1};
  const std::vector<uint8_t> i16_m1 = {0xFF, 0xFF}, u16_7 = {7, 0}, trunc = {7};
  const Row rows[] = {
      {InType::Int16, i16_m1, PayloadOp::Eq, m1, 0, true},
      {InType::UInt16, i16_m1, PayloadOp::Eq, 0xFFFF, 0, true},
      {InType::Int16, i16_m1, PayloadOp::Lt, 0, 0, true},
      {InType::UInt16, i16_m1, PayloadOp::Lt, 0, 0, false},
      {InType::Int16, i16_m1, PayloadOp::Gt, m2, 0, true},
      {InType::UInt16, u16_7, PayloadOp::Ne, 7, 0, false},
      {InType::UInt16, u16_7, PayloadOp::Le, 7, 0, true},
      {InType::UInt16, u16_7, PayloadOp::Ge, 8, 0, false},
      {InType::UInt16, u16_7, PayloadOp::Between, 7, 9, true},
      {InType::UInt16, u16_7, PayloadOp::Between, 8, 9, false},
      {InType::Int16, i16_m1, PayloadOp::Between, m2, 0, true},
      {InType::UInt16, u16_7, PayloadOp::NotBetween, 1, 6, true},
      {InType::Int16, i16_m1, PayloadOp::NotBetween, m2, 0, false},
      {InType::UInt16, u16_7, PayloadOp::Modulo, 7, 0, true},
      {InType::UInt16, u16_7, PayloadOp::Modulo, 3, 0, false},
      {InType::Int16, i16_m1, PayloadOp::Modulo, 3, 0, false},  // signed: -1 % 3 != 0
      {InType::UInt64,
       {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},
       PayloadOp::Modulo,
       3,
       0,
       true},                                                                        // 2^64-1
      {InType::Int64, {0, 0, 0, 0, 0, 0, 0, 0x80}, PayloadOp::Modulo, m1, 0, true},  // INT64_MIN %
                                                                                     // -1
      {InType::UInt16, trunc, PayloadOp::Ne, 9, 0, false},  // undecodable: false for NE too
      {InType::UInt16, trunc, PayloadOp::NotBetween, 100, 200, false},
  };
  std::vector<Case> cases;
  int i = 0;
  for (const Row& row : rows)
    cases.push_back({"pred.int." + std::to_string(i++),
                     [row](ProgramBuilder& b) {
                       b.program().int_preds.push_back({row.op, row.lo, row.hi});
                       field_at_zero(b, Op::PredInt, field(row.type), 0, false);
                     },
                     {truth(with_payload(row.bytes), row.expected)}});
  return cases;
}

std::vector<Case> pred_other_cases() {
  auto pred_str = [](InType t, PayloadOp op, const std::u32string& folded) {
    return [=](ProgramBuilder& b) {
      b.program().str_preds.emplace_back(op, "", folded);
      field_at_zero(b, Op::PredStr, field(t), 0, false);
    };
  };
  auto w = [](const std::u16string& s, bool nul) {
    std::vector<uint8_t> p;
    put_wstring(p, s, nul);
    return with_payload(p);
  };
  auto a = [](const std::string& s, bool nul) {
    std::vector<uint8_t> p;
    put_string(p, s, nul);
    return with_payload(p);
  };
  Guid g{0x01020304, 0x0506, 0x0708, {9, 10, 11, 12, 13, 14, 15, 16}};
  auto pred_guid = [g](PayloadOp op) {
    return [=](ProgramBuilder& b) {
      b.program().guid_preds.push_back({op, g});
      field_at_zero(b, Op::PredGuid, field(InType::Guid), 0, false);
    };
  };
  std::vector<uint8_t> gb = {4, 3, 2, 1, 6, 5, 8, 7, 9, 10, 11, 12, 13, 14, 15, 16};
  std::vector<uint8_t> other = gb;
  other[15] = 0;
  using P = PayloadOp;
  return {
      {"pred.str.is",
       pred_str(InType::UnicodeString, P::Is, U"hello"),
       {truth(w(u"HeLLo", true), true), truth(w(u"hello!", true), false),
        truth(w(u"hello", false), false)}},
      {"pred.str.contains",
       pred_str(InType::AnsiString, P::Contains, U"ll"),
       {truth(a("HELLO", true), true), truth(a("help", true), false)}},
      {"pred.str.doesntcontain",
       pred_str(InType::AnsiString, P::DoesntContain, U"ll"),
       {truth(a("help", true), true), truth(a("help", false), false)}},
      {"pred.str.isnot",
       pred_str(InType::UnicodeString, P::IsNot, U"x"),
       {truth(w(u"y", true), true), truth(w(u"X", true), false), truth(w(u"y", false), false)}},
      {"pred.guid.is",
       pred_guid(P::Is),
       {truth(with_payload(gb), true), truth(with_payload(other), false),
        truth(with_payload({gb.begin(), gb.end() - 1}), false)}},
      {"pred.guid.isnot",
       pred_guid(P::IsNot),
       {truth(with_payload(gb), false), truth(with_payload(other), true),
        truth(with_payload({gb.begin(), gb.end() - 1}), false)}},
  };
}

// Session-mask ops. The three maps exercise codegen's three lookups (codegen.h): a dense
// table (keys spanning < kDenseMaskSpan), a select chain (<= kInlineMaskKeys sparse keys)
// and the pfc_ir_mask_map call.
std::vector<Case> mask_cases() {
  auto by_pid = [](const ir::MaskMap& m) {
    return [m](ProgramBuilder& b) {
      b.program().mask_maps.push_back(m);
      ir::Reg v = b.emit(Op::LoadHeader, static_cast<uint32_t>(ir::HeaderField::Pid));
      b.effect(Op::DeliverMask, b.emit(Op::MaskMap, v, 0));
    };
  };
  auto pid = [](uint32_t p) {
    Event e = header_event();
    e.pid = p;
    return e;
  };
  auto keyword = [](uint64_t k) {
    Event e = header_event();
    e.desc.keyword = k;
    return e;
  };
  ir::MaskMap dense{{3, 4, 9}, {0x30, 0x40, 0x90}, 0x7};
  ir::MaskMap sparse{{5, 70000, 0xDEADBEEF}, {0x5, 0x70000, 0xDEAD}, 0x1};
  ir::MaskMap large;
  for (uint64_t k = 0; k < 40; ++k) {
    large.keys.push_back(k * 5000);
    large.masks.push_back(k + 100);
  }
  large.other = 0xFF;
  ir::MaskMap bytes{{0, 0x12, 0xFF}, {0xA, 0xB, 0xC}, 0xD};
  return {
      {"mask.map.dense",
       by_pid(dense),
       {value(pid(3), 0x30), value(pid(9), 0x90), value(pid(5), 0x7), value(pid(2), 0x7),
        value(pid(10), 0x7), value(pid(0xFFFFFFFF), 0x7)}},
      {"mask.map.sparse",
       by_pid(sparse),
       {value(pid(5), 0x5), value(pid(70000), 0x70000), value(pid(0xDEADBEEF), 0xDEAD),
        value(pid(6), 0x1)}},
      {"mask.map.large",
       by_pid(large),
       {value(pid(0), 100), value(pid(195000), 139), value(pid(5000), 101), value(pid(5001), 0xFF),
        value(pid(0xDEADBEEF), 0xFF)}},
      {"mask.byte",
       [bytes](ProgramBuilder& b) {
         b.program().mask_maps.push_back(bytes);
         ir::Reg kw = b.emit(Op::LoadHeader, static_cast<uint32_t>(ir::HeaderField::Keyword));
         ir::Reg low = b.emit(Op::MaskByte, kw, 0, 0);
         ir::Reg high = b.emit(Op::MaskByte, kw, 7, 0);
         b.effect(Op::DeliverMask, low);
         ir::Reg is_c = b.emit(Op::Cmp, high, static_cast<uint32_t>(ir::Cond::Eq), 0, 0xC);
         b.effect(Op::DeliverMask, b.emit(Op::MaskIf, is_c, 0, 0, uint64_t{1} << 63));
       },
       {value(keyword(0), 0xA), value(keyword(0x12), 0xB),
        value(keyword(0xFF000000000000FFull), 0xC | uint64_t{1} << 63),
        value(keyword(0x1200000000000034ull), 0xD)}},
      {"mask.range",  // a uint32 field: the interval's mask, `bad` when truncated
       [](ProgramBuilder& b) {
         b.program().fields.push_back(ir::FieldDesc{InType::UInt32, {}, {}});
         b.program().range_maps.push_back(ir::RangeMap{{10, 20}, {0x1, 0x2, 0x4}, 0x8});
         b.effect(Op::DeliverMask, b.emit(Op::MaskRange, b.constant(0), 0, 0));
       },
       {value(with_payload({5, 0, 0, 0}), 0x1), value(with_payload({10, 0, 0, 0}), 0x2),
        value(with_payload({19, 0, 0, 0}), 0x2), value(with_payload({20, 0, 0, 0}), 0x4),
        value(with_payload({0, 0, 0, 0x80}), 0x4), value(with_payload({20, 0, 0}), 0x8)}},
      {"mask.if.bool",  // a boolean operand: a shift for one bit, a select for several
       [](ProgramBuilder& b) {
         ir::Reg l = b.emit(Op::LoadHeader, static_cast<uint32_t>(ir::HeaderField::Level));
         ir::Reg is_4 = b.emit(Op::Cmp, l, static_cast<uint32_t>(ir::Cond::Eq), 0, 4);
         ir::Reg one = b.emit(Op::MaskIf, is_4, 0, 0, 0x10);
         ir::Reg several = b.emit(Op::MaskIf, is_4, 0, 0, 0xF000000000000F00ull);
         b.effect(Op::DeliverMask, b.emit(Op::Or, one, several));
       },
       {value(header_event(), 0xF000000000000F10ull), value(
                                                          [] {
                                                            Event e = header_event();
                                                            e.desc.level = 5;
                                                            return e;
                                                          }(),
                                                          0)}},
      {"mask.if.select",
       [](ProgramBuilder& b) {
         ir::Reg l = b.emit(Op::LoadHeader, static_cast<uint32_t>(ir::HeaderField::Level));
         ir::Reg m = b.emit(Op::MaskIf, l, 0, 0, 0xF0);
         b.effect(Op::DeliverMask, b.emit(Op::Select, l, m, b.constant(0x3)));
         b.effect(Op::DeliverMask, b.constant(0x100));
       },
       {value(header_event(), 0x1F0), value(
                                          [] {
                                            Event e = header_event();
                                            e.desc.level = 0;
                                            return e;
                                          }(),
                                          0x103)}},
  };
}

// mask.strs over a wstring at offset 0: contains "ab" (bit 0), startswith.cs "X" (bit 1),
// regex "k.*s" (bit 2), base 8; the text, truncated (undecodable: base only).
Case mask_strs_case() {
  auto build = [](ProgramBuilder& b) {
    ir::Program& p = b.program();
    uint32_t fi = add_field(b, field(InType::UnicodeString));
    p.str_preds.emplace_back(PayloadOp::Contains, "ab", fold_utf8("ab"));
    p.str_preds.emplace_back(PayloadOp::StartsWithCs, "X", U"X");
    p.str_preds.push_back(
        ir::StrPred{PayloadOp::Regex, "k.*s", {}, internal::compile_regex("k.*s", false).re});
    p.str_maps.push_back(ir::StrMap{{0, 1, 2}, {1, 2, 4}, 8, nullptr});
    internal::attach_str_matchers(p);
    b.effect(Op::DeliverMask, b.emit(Op::MaskStrs, b.constant(0), fi, 0, ir::kNoReg));
  };
  auto text = [](const std::u16string& s, bool nul = true) {
    std::vector<uint8_t> out;
    put_wstring(out, s, nul);
    return with_payload(out);
  };
  return {"mask.strs",
          build,
          {value(text(u"xAB"), 9), value(text(u"Xkos"), 14), value(text(u"x\u212As"), 12),
           value(text(u"Xab", false), 8), value(text(u""), 8)}};
}

std::vector<Case> all_cases() {
  std::vector<Case> all;
  for (auto&& part :
       {header_cases(), cmp_cases(), logic_cases(), set_cases(), control_cases(), skip_cases(),
        load_cases(), pred_int_cases(), pred_other_cases(), mask_cases()})
    all.insert(all.end(), part.begin(), part.end());
  all.push_back(mask_strs_case());
  return all;
}

TEST(JitOpcodes, EveryOpcodeMatchesExpectedOnEveryEngine) {
  for (const Case& c : all_cases()) {
    SCOPED_TRACE(c.name);
    ProgramBuilder b;
    c.build(b);
    ir::Program program = b.finish();
    AllEngines engines(program);
    ASSERT_TRUE(engines.ok());
    for (size_t i = 0; i < c.probes.size(); ++i) {
      SCOPED_TRACE("probe " + std::to_string(i));
      EngineResults r = engines.route(c.probes[i].event.view());
      EXPECT_EQ(r.interp, c.probes[i].expected) << describe(r.interp);
      for (int l = 0; l < 3; ++l)
        EXPECT_EQ(r.native[l], c.probes[i].expected) << "O" << l << ": " << describe(r.native[l]);
    }
  }
}

TEST(JitOpcodes, CoversEveryOpcode) {
  std::vector<bool> seen(ir::kNumOps, false);
  for (const Case& c : all_cases()) {
    ProgramBuilder b;
    c.build(b);
    for (const ir::Inst& in : b.finish().code) seen[static_cast<size_t>(in.op)] = true;
  }
  for (size_t op = 0; op < ir::kNumOps; ++op) EXPECT_TRUE(seen[op]) << ir::kOpNames[op];
}

TEST(JitOpcodes, MalformedProgramsAreErrors) {
  struct Row {
    std::string name;
    std::function<void(ir::Program&)> spoil;
    std::string message;
  };
  const Row rows[] = {
      {"no ret", [](ir::Program& p) { p.code.pop_back(); }, "last instruction is not ret"},
      {"backward jump",
       [](ir::Program& p) {
         p.code.insert(p.code.begin() + 1, ir::Inst{Op::Jmp, ir::kNoReg, 0, 0});
       },
       "jump target"},
      {"register", [](ir::Program& p) { p.code[0].dst = 99; }, "dst %99 out of range"},
      {"set",
       [](ir::Program& p) {
         p.code.insert(p.code.begin() + 1, ir::Inst{Op::InSet, 0, 0, 3});
       },
       "int set index out of range"},
      {"bit",
       [](ir::Program& p) {
         p.code.insert(p.code.begin() + 1, ir::Inst{Op::Deliver, ir::kNoReg, 0, 64});
       },
       "session bit"},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.name);
    ProgramBuilder b;
    b.effect(Op::Deliver, b.constant(1), 0);
    ir::Program p = b.finish();
    row.spoil(p);
    auto native = JitProgram::create(p, OptLevel::O1);
    ASSERT_FALSE(native.has_value());
    EXPECT_NE(native.error().message.find(row.message), std::string::npos)
        << native.error().message;
    EXPECT_FALSE(emit_llvm(p, OptLevel::O0).has_value());
  }
}

TEST(JitEmit, LlvmAndAsmTextNameTheFunction) {
  ProgramBuilder b;
  b.effect(Op::Deliver, b.emit(Op::LoadHeader, static_cast<uint32_t>(ir::HeaderField::Level)), 2);
  ir::Program p = b.finish();
  for (OptLevel l : {OptLevel::O0, OptLevel::O2}) {
    auto ll = emit_llvm(p, l);
    ASSERT_TRUE(ll.has_value()) << ll.error().message;
    EXPECT_NE(ll->find(" i64 @pfc_route(ptr"), std::string::npos) << *ll;
    auto as = emit_asm(p, l);
    ASSERT_TRUE(as.has_value()) << as.error().message;
    EXPECT_NE(as->find("pfc_route:"), std::string::npos) << *as;
  }
  EXPECT_EQ(*emit_llvm(p, OptLevel::O2), *emit_llvm(p, OptLevel::O2));  // deterministic
  // O2 removes the register allocas.
  EXPECT_EQ(emit_llvm(p, OptLevel::O2)->find("alloca"), std::string::npos);
}

TEST(JitOptLevel, NamesRoundTrip) {
  for (OptLevel l : {OptLevel::O0, OptLevel::O1, OptLevel::O2})
    EXPECT_EQ(opt_level_from_name(opt_level_name(l)), l);
  EXPECT_FALSE(opt_level_from_name("O3").has_value());
}

}  // namespace
}  // namespace pfc::testing
