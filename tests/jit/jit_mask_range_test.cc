// tests/jit/jit_mask_range_test.cc — mask.range (docs/ir.md §3, §4 "Predicate indexing"):
// random range maps of every size class the JIT distinguishes (a select chain up to
// kSelectRangeStarts, the inline search, the helper beyond kInlineRangeStarts) over integer fields
// of every width and signedness, probed at and around every start and at the type's edges, on whole
// and truncated payloads. The interpreter must give the mask a brute-force count of the starts
// gives (or `bad`), and native code at O0, O1 and O2 the interpreter's.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "compiler/jit/codegen.h"
#include "tests/jit/jit_test_util.h"

namespace pfc::testing {
namespace {

using ir::Op;

struct Type {
  InType type;
  unsigned bytes;
  bool is_signed;
};
constexpr Type kTypes[] = {
    {InType::UInt8, 1, false},  {InType::Int8, 1, true},    {InType::UInt16, 2, false},
    {InType::Int16, 2, true},   {InType::UInt32, 4, false}, {InType::Int32, 4, true},
    {InType::UInt64, 8, false}, {InType::Int64, 8, true},   {InType::HexInt64, 8, false},
};

// The field's value as the IR sees it: its bits sign- or zero-extended to 64.
uint64_t extend(uint64_t raw, const Type& t) {
  if (t.bytes == 8) return raw;
  const unsigned bits = 8 * t.bytes;
  raw &= (uint64_t{1} << bits) - 1;
  if (t.is_signed && (raw >> (bits - 1)) != 0) raw |= ~uint64_t{0} << bits;
  return raw;
}

// Values worth probing for a field of type t: the type's edges and random values.
std::vector<uint64_t> edges(const Type& t, std::mt19937_64& rng) {
  std::vector<uint64_t> raw = {
      0,    1,      2,      ~uint64_t{0}, uint64_t{1} << 63, (uint64_t{1} << 63) - 1, 0xFF, 0x7F,
      0x80, 0xFFFF, 0x8000, 0xFFFFFFFF,   0x80000000};
  for (int i = 0; i < 8; ++i) raw.push_back(rng());
  std::vector<uint64_t> out;
  out.reserve(raw.size());
  for (uint64_t v : raw) out.push_back(extend(v, t));
  return out;
}

// A random valid map of `n` starts (fewer when the type has fewer values).
ir::RangeMap random_map(size_t n, const Type& t, std::mt19937_64& rng) {
  std::vector<uint64_t> pool = edges(t, rng);
  ir::RangeMap m;
  while (m.starts.size() < n && pool.size() < 4 * n + 64) pool.push_back(extend(rng(), t));
  for (uint64_t v : pool)
    for (uint64_t d : {uint64_t{0}, uint64_t{1}}) m.starts.push_back(v + d);
  std::sort(m.starts.begin(), m.starts.end());
  m.starts.erase(std::unique(m.starts.begin(), m.starts.end()), m.starts.end());
  std::shuffle(m.starts.begin(), m.starts.end(), rng);
  m.starts.resize(std::min(n, m.starts.size()));
  std::sort(m.starts.begin(), m.starts.end());
  for (size_t i = 0; i <= m.starts.size(); ++i) m.masks.push_back(rng() | 1);
  m.bad = rng() % 3 == 0 ? 0 : rng();
  return m;
}

uint64_t brute_force(const ir::RangeMap& m, uint64_t v) {
  size_t i = 0;
  for (uint64_t s : m.starts) i += v >= s ? 1 : 0;
  return m.masks[i];
}

TEST(JitMaskRange, EveryMapSizeMatchesInterpreterAndBruteForce) {
  std::mt19937_64 rng(1807);
  const size_t sizes[] = {0,
                          1,
                          2,
                          9,
                          internal::kSelectRangeStarts,
                          internal::kSelectRangeStarts + 1,
                          100,
                          internal::kInlineRangeStarts + 7};
  for (const Type& t : kTypes) {
    for (size_t n : sizes) {
      // Two fields: `lead` (a uint16) and the tested field after it, so a short payload
      // truncates the tested field (and an empty one both).
      ProgramBuilder b;
      ir::Program& p = b.program();
      p.fields = {ir::FieldDesc{InType::UInt16, {}, {}}, ir::FieldDesc{t.type, {}, {}}};
      p.range_maps = {random_map(n, t, rng), random_map(n / 2, t, rng)};
      const ir::Reg off = b.constant(2);
      const ir::Reg m0 = b.emit(Op::MaskRange, off, 1, 0);
      const ir::Reg m1 = b.emit(Op::MaskRange, b.constant(0), 0, 1);
      b.effect(Op::DeliverMask, m0);
      b.effect(Op::Stack, m1, 5);
      const ir::Program prog = b.finish();
      AllEngines engines(prog);
      ASSERT_TRUE(engines.ok());
      std::vector<uint64_t> probes = edges(t, rng);
      for (uint64_t s : prog.range_maps[0].starts)
        for (uint64_t d : {~uint64_t{0}, uint64_t{0}, uint64_t{1}}) probes.push_back(s + d);
      if (probes.size() > 400) probes.resize(400);
      for (uint64_t v : probes) {
        Event e;
        put_le(e.payload, rng(), 2);
        put_le(e.payload, v, int(t.bytes));
        const uint64_t value = extend(v, t);
        for (size_t cut : {e.payload.size(), e.payload.size() - 1, size_t{2}, size_t{0}}) {
          Event ev = e;
          ev.payload.resize(cut);
          const bool fits = cut == e.payload.size();
          const uint64_t want =
              fits ? brute_force(prog.range_maps[0], value) : prog.range_maps[0].bad;
          const std::string what = std::string(in_type_name(t.type)) + " n=" + std::to_string(n) +
                                   " v=" + std::to_string(value) + " cut=" + std::to_string(cut);
          EngineResults r = engines.route(ev.view());
          ASSERT_EQ(r.interp.deliver, want) << what;
          for (int l = 0; l < 3; ++l)
            ASSERT_EQ(r.native[l], r.interp) << what << " O" << l << ": " << describe(r.native[l])
                                             << " vs " << describe(r.interp);
        }
      }
    }
  }
}

TEST(JitMaskRange, VerifierRejectsMalformedMaps) {
  for (int bad = 0; bad < 4; ++bad) {
    ProgramBuilder b;
    ir::Program& p = b.program();
    p.fields = {ir::FieldDesc{bad == 3 ? InType::UnicodeString : InType::UInt32, {}, {}}};
    ir::RangeMap m{{5, 9}, {1, 2, 3}, 0};
    if (bad == 0) m.starts = {9, 5};
    if (bad == 1) m.masks.pop_back();
    p.range_maps = {m};
    b.effect(Op::DeliverMask, b.emit(Op::MaskRange, b.constant(0), 0, bad == 2 ? 1 : 0));
    const ir::Program prog = b.finish();
    EXPECT_FALSE(Interpreter::create(prog).has_value()) << "case " << bad;
  }
}

}  // namespace
}  // namespace pfc::testing
