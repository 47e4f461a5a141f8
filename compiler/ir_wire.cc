// compiler/ir_wire.cc — the IR wire form (compiler/ir_wire.h, docs/ir.md "Wire form"):
// little-endian, every vector as a u32 count then its elements, every string as a u32 byte
// length then its bytes, the pools in ir::Program's member order. The decoder checks every
// enum where it is read and every count against the bytes left before allocating for it,
// then runs the verifier.
#include "compiler/ir_wire.h"

#include <cstdint>
#include <string>
#include <utility>

#include "base/le.h"
#include "base/payload_ops.h"
#include "base/quote.h"
#include "base/wire_reader.h"
#include "compiler/regex_pred.h"
#include "compiler/str_match.h"
#include "compiler/verify.h"

namespace pfc::ir {

namespace {

constexpr std::string_view kMagic = "PFCIRW\r\n";  // 8 bytes; \r\n catches text-mode mangling
constexpr uint32_t kFormat = 2;
constexpr size_t kInstBytes = 1 + 4 * 4 + 8;  // op, dst, a, b, c, imm

class Writer {
 public:
  template <typename T>
  void put(T v) {
    char b[sizeof(T)];
    store_le(reinterpret_cast<uint8_t*>(b), v);
    out_.append(b, sizeof b);
  }
  void count(size_t n) { put(static_cast<uint32_t>(n)); }
  void string(std::string_view s) {
    count(s.size());
    out_.append(s);
  }
  template <typename T>
  void u64s(const std::vector<T>& v) {
    count(v.size());
    for (uint64_t x : v) put<uint64_t>(x);
  }
  std::string& out() { return out_; }

 private:
  std::string out_;
};

void put_extent(Writer& w, const Extent& e) {
  w.put(static_cast<uint8_t>(e.kind));
  w.put<uint32_t>(e.value);
}

void put_code(Writer& w, const Program& p) {
  w.put<uint32_t>(p.num_regs);
  w.count(p.code.size());
  for (const Inst& in : p.code) {  // one append an instruction
    uint8_t b[kInstBytes];
    b[0] = static_cast<uint8_t>(in.op);
    store_le<uint32_t>(b + 1, in.dst);
    store_le<uint32_t>(b + 5, in.a);
    store_le<uint32_t>(b + 9, in.b);
    store_le<uint32_t>(b + 13, in.c);
    store_le<uint64_t>(b + 17, in.imm);
    w.out().append(reinterpret_cast<const char*>(b), sizeof b);
  }
}

void put_sets(Writer& w, const Program& p) {
  w.count(p.int_sets.size());
  for (const IntSet& s : p.int_sets) w.u64s(s.values);
  w.count(p.str_sets.size());
  for (const StrSet& s : p.str_sets) {
    w.put<uint8_t>(s.case_insensitive ? 1 : 0);
    w.count(s.values.size());
    for (const std::string& v : s.values) w.string(v);
  }
  w.count(p.fields.size());
  for (const FieldDesc& f : p.fields) {
    w.put(static_cast<uint16_t>(f.type));
    put_extent(w, f.count);
    put_extent(w, f.length);
  }
}

void put_preds(Writer& w, const Program& p) {
  w.count(p.int_preds.size());
  for (const IntPred& q : p.int_preds) {
    w.put(static_cast<uint16_t>(q.op));
    w.put<uint64_t>(q.lo);
    w.put<uint64_t>(q.hi);
  }
  w.count(p.str_preds.size());
  for (const StrPred& q : p.str_preds) {
    w.put(static_cast<uint16_t>(q.op));
    w.string(q.text);
    w.count(q.folded.size());
    for (char32_t c : q.folded) w.put<uint32_t>(c);
  }
  w.count(p.guid_preds.size());
  for (const GuidPred& q : p.guid_preds) {
    w.put(static_cast<uint16_t>(q.op));
    for (uint8_t b : q.value.to_bytes()) w.put(b);
  }
}

void put_maps(Writer& w, const Program& p) {
  w.count(p.mask_maps.size());
  for (const MaskMap& m : p.mask_maps) {
    w.u64s(m.keys);
    w.u64s(m.masks);
    w.put<uint64_t>(m.other);
  }
  w.count(p.range_maps.size());
  for (const RangeMap& m : p.range_maps) {
    w.u64s(m.starts);
    w.u64s(m.masks);
    w.put<uint64_t>(m.bad);
  }
  w.count(p.str_maps.size());
  for (const StrMap& m : p.str_maps) {
    w.count(m.preds.size());
    for (uint32_t q : m.preds) w.put<uint32_t>(q);
    w.u64s(m.masks);
    w.put<uint64_t>(m.base);
  }
  w.count(p.checks.size());
  for (const CheckNote& n : p.checks) {
    w.put<uint32_t>(n.slot);
    w.put(static_cast<uint8_t>(n.check));
    w.put<uint32_t>(n.reg);
    w.put<uint8_t>(n.constant ? 1 : 0);
    w.put<uint8_t>(n.bit);
  }
}

class Decoder {
 public:
  explicit Decoder(std::string_view bytes) : r_(bytes) {}
  Result<Program> run();

 private:
  template <typename E>
  E enum_u8(std::string_view what, size_t limit) {
    const size_t at = r_.pos();
    const uint8_t v = r_.u8(what);
    if (v >= limit) r_.fail_at(at, what);
    return static_cast<E>(v);
  }
  bool flag(std::string_view what) { return enum_u8<uint8_t>(what, 2) != 0; }
  PayloadOp payload_op(std::string_view what);
  std::vector<uint64_t> u64s(std::string_view what);
  Extent extent(std::string_view what);
  void code();
  void sets();
  void fields();
  void preds();
  StrPred str_pred();
  void maps();
  void checks();

  WireReader r_;
  Program p_;
};

PayloadOp Decoder::payload_op(std::string_view what) {
  const size_t at = r_.pos();
  const uint16_t v = r_.u16(what);
  if (r_.ok() && internal::find_payload_op(v) == nullptr) r_.fail_at(at, what);
  return static_cast<PayloadOp>(v);
}

std::vector<uint64_t> Decoder::u64s(std::string_view what) {
  std::vector<uint64_t> v(r_.count(what, 8));
  for (uint64_t& x : v) x = r_.u64(what);
  return v;
}

Extent Decoder::extent(std::string_view what) {
  Extent e;
  e.kind = enum_u8<Extent::Kind>(what, 3);
  e.value = r_.u32(what);
  return e;
}

void Decoder::code() {
  p_.num_regs = r_.u32("the register count");
  const size_t regs_at = r_.pos() - 4;
  p_.code.resize(r_.count("an instruction count", kInstBytes));
  if (p_.num_regs > p_.code.size()) r_.fail_at(regs_at, "no more registers than instructions");
  for (Inst& in : p_.code) {
    in.op = enum_u8<Op>("an opcode", kNumOps);
    in.dst = r_.u32("an instruction's dst");
    in.a = r_.u32("an instruction's operand a");
    in.b = r_.u32("an instruction's operand b");
    in.c = r_.u32("an instruction's operand c");
    in.imm = r_.u64("an instruction's imm");
  }
}

void Decoder::sets() {
  p_.int_sets.resize(r_.count("an int set count", 4));
  for (IntSet& s : p_.int_sets) s.values = u64s("an int set's values");
  p_.str_sets.resize(r_.count("a string set count", 5));
  for (StrSet& s : p_.str_sets) {
    s.case_insensitive = flag("a string set's case flag (0 or 1)");
    s.values.resize(r_.count("a string set's value count", 4));
    for (std::string& v : s.values) v = std::string(r_.string("a string set value"));
  }
}

void Decoder::fields() {
  p_.fields.resize(r_.count("a field count", 2 + 5 + 5));
  for (FieldDesc& f : p_.fields) {
    const size_t at = r_.pos();
    const uint16_t type = r_.u16("a field type");
    if (type < uint16_t(InType::UnicodeString) || type > uint16_t(InType::HexInt64))
      r_.fail_at(at, "a field type (1 to 21)");
    f.type = static_cast<InType>(type);
    f.count = extent("a field's count extent (kind 0 to 2)");
    f.length = extent("a field's length extent (kind 0 to 2)");
  }
}

StrPred Decoder::str_pred() {
  const size_t at = r_.pos();
  const PayloadOp op = payload_op("a string predicate's operator");
  std::string text(r_.string("a string predicate's text"));
  std::u32string folded(r_.count("a folded needle's length", 4), U'\0');
  for (char32_t& c : folded) c = r_.u32("a folded needle's character");
  std::shared_ptr<const re2::RE2> re;
  if (r_.ok() && (op == PayloadOp::Regex || op == PayloadOp::RegexCs)) {
    internal::RegexResult compiled = internal::compile_regex(text, op == PayloadOp::RegexCs);
    if (!compiled.re) r_.fail_at(at, "a regex RE2 accepts (" + quote_text(compiled.error) + ")");
    re = std::move(compiled.re);
  }
  return StrPred(op, std::move(text), std::move(folded), std::move(re));
}

void Decoder::preds() {
  p_.int_preds.resize(r_.count("an int predicate count", 18));
  for (IntPred& q : p_.int_preds) {
    q.op = payload_op("an int predicate's operator");
    q.lo = r_.u64("an int predicate's lo");
    q.hi = r_.u64("an int predicate's hi");
  }
  const uint32_t n = r_.count("a string predicate count", 10);
  p_.str_preds.reserve(n);
  for (uint32_t i = 0; i < n && r_.ok(); ++i) p_.str_preds.push_back(str_pred());
  p_.guid_preds.resize(r_.count("a GUID predicate count", 18));
  for (GuidPred& q : p_.guid_preds) {
    q.op = payload_op("a GUID predicate's operator");
    std::string_view g = r_.bytes(16, "a GUID");
    if (r_.ok()) q.value = Guid::from_bytes(reinterpret_cast<const uint8_t*>(g.data()));
  }
}

void Decoder::maps() {
  p_.mask_maps.resize(r_.count("a mask map count", 16));
  for (MaskMap& m : p_.mask_maps) {
    m.keys = u64s("a mask map's keys");
    m.masks = u64s("a mask map's masks");
    m.other = r_.u64("a mask map's other mask");
  }
  p_.range_maps.resize(r_.count("a range map count", 16));
  for (RangeMap& m : p_.range_maps) {
    m.starts = u64s("a range map's starts");
    m.masks = u64s("a range map's masks");
    m.bad = r_.u64("a range map's bad mask");
  }
  p_.str_maps.resize(r_.count("a string map count", 16));
  for (StrMap& m : p_.str_maps) {
    m.preds.resize(r_.count("a string map's pattern count", 4));
    for (uint32_t& q : m.preds) q = r_.u32("a string map's pattern");
    m.masks = u64s("a string map's masks");
    m.base = r_.u64("a string map's base mask");
  }
}

void Decoder::checks() {
  p_.checks.resize(r_.count("a check note count", 11));
  for (CheckNote& n : p_.checks) {
    n.slot = r_.u32("a check note's slot");
    n.check = enum_u8<Check>("a check note's check", kNumChecks);
    n.reg = r_.u32("a check note's register");
    n.constant = flag("a check note's constant (0 or 1)");
    n.bit = r_.u8("a check note's bit");
  }
}

Result<Program> Decoder::run() {
  if (r_.bytes(kMagic.size(), "the IR wire magic") != kMagic) r_.fail_at(0, "the IR wire magic");
  if (r_.ok() && r_.u32("the format") != kFormat)
    r_.fail_at(kMagic.size(), "IR wire format " + std::to_string(kFormat));
  code();
  sets();
  fields();
  preds();
  maps();
  checks();
  r_.expect_end("the end of the program");
  if (!r_.ok()) return make_error("IR wire form, " + r_.error());
  if (auto ok = verify_data(p_); !ok) return make_error("IR wire form: " + ok.error().message);
  internal::attach_str_matchers(p_);  // derived, like StrPred::links and ::regex
  return std::move(p_);
}

// The bytes of the code and predicate sections (most of a large program's wire form), so
// the encoding reserves once instead of growing through every power of two.
size_t main_sections_bytes(const Program& p) {
  size_t n = kInstBytes * p.code.size() + 18 * (p.int_preds.size() + p.guid_preds.size());
  for (const StrPred& q : p.str_preds) n += 10 + q.text.size() + 4 * q.folded.size();
  return n;
}

}  // namespace

std::string encode_program(const Program& program) {
  Writer w;
  w.out().reserve(256 + main_sections_bytes(program));
  w.out().append(kMagic);
  w.put<uint32_t>(kFormat);
  put_code(w, program);
  put_sets(w, program);
  put_preds(w, program);
  put_maps(w, program);
  return std::move(w.out());
}

Result<Program> decode_program(std::string_view bytes) { return Decoder(bytes).run(); }

}  // namespace pfc::ir
