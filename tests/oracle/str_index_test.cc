// tests/oracle/str_index_test.cc — string indexing (docs/ir.md §4 "String indexing"):
// random specs of up to 64 sessions whose string patterns (`contains`, `startswith`,
// `endswith`, `is`, `matches`, `regex` and their `.cs` forms, mixed with `doesntcontain`,
// integers and several patterns per session) test the same UTF-16 and 8-bit fields,
// routed on texts of ASCII and non-ASCII characters in every case variant (KELVIN SIGN,
// LONG S, final sigma, surrogate pairs, unpaired surrogates, invalid UTF-8) and on
// truncated payloads. The indexed lowering (one mask.strs per field: the interpreter tests
// each pattern on its own, the JIT's helper scans them all in one pass), the lowering
// without indexing and the JIT (O0, O1, O2) must all give the oracle's masks, and
// `pfc run --explain`'s first failed check must be the same with and without indexing.
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <string>
#include <thread>

#include "base/utf8.h"
#include "compiler/ir_dump.h"
#include "compiler/jit/jit.h"
#include "compiler/str_match.h"
#include "runtime/tdh.h"
#include "tests/oracle/lowering_check.h"

namespace pfc {
namespace {

using Kind = PayloadExpr::Node::Kind;

constexpr uint16_t kId = 9;
// The filtered event: a UTF-16 string, an 8-bit string, an integer behind them.
constexpr uint32_t kWide = 0, kNarrow = 1, kCode = 2;

// Text pieces (UTF-8): ASCII words in case variants and the characters whose foldings
// are the edge cases (KELVIN SIGN and LONG S fold to ASCII; sigma has three forms).
const char* const kPieces[] = {"time", "TiMe",       "out", "OUT", "k",   "K",      "\u212A", "s",
                               "S",    "\u017F",     "é",   "É",   "ß",   "\u1E9E", "σ",      "Σ",
                               "ς",    "\U0001F600", "中",  "a.b", "x*y", "[",      "\\",     " ",
                               "0",    "9",          "_",   "ab",  "AB",  "-"};

// Glob pieces and regexes (both kinds: inside and outside the prefilter subset).
const char* const kGlobPieces[] = {"*", "?", "[a-k]", "[!x]", "\\*", "[É]", "[k-s]", "[]a]"};
// Regexes of the oracle's subset (oracle_pattern.cc), and beyond it (checked against the
// lowering without indexing, which asks RE2 for each pattern): the prefilter's edges.
const char* const kRegexes[] = {"t.me", "^ab", "[a-k]+e", "o[u-v]t$", "s",   "K",
                                "ſ",    "é+",  "\\.b$",   "k.*s",     "^$",  "[0-9]?9",
                                "σ",    "ẞ",   "^time",   "out$",     "x?y", "a\\.b"};
const char* const kHardRegexes[] = {
    "o(u|U)t$",      "[a-z]+\\d",   "(?i)kelvin", "\\bout", "x{2,3}",       "\\W",    "\\S+k",
    "[[:alpha:]]+9", "a|b",         "(?s).",      "\\d{2}", "(?i:TIME)out", "[^a-z]", "\\x{212A}",
    "(ab)+",         "^[0-9_ -]+$", "\\Atime",    "out\\z", "[Σσ]",         "(?i)ſ",  "[^\\s]k",
    "\\pL+",         "k{2,}",       "(?m)^b$",    "\\C",    "T(?i)ime"};

const PayloadOp kLiteralOps[] = {
    PayloadOp::Contains,   PayloadOp::StartsWith, PayloadOp::EndsWith,
    PayloadOp::Is,         PayloadOp::ContainsCs, PayloadOp::StartsWithCs,
    PayloadOp::EndsWithCs, PayloadOp::IsCs,       PayloadOp::DoesntContain};

class Gen {
 public:
  // `hard`: regexes beyond the oracle's subset too.
  explicit Gen(uint64_t seed, bool hard = false) : rng_(seed), hard_(hard) {}
  uint64_t below(uint64_t n) { return rng_() % n; }

  std::string text(size_t max_pieces) {
    std::string s;
    for (uint64_t n = below(max_pieces + 1); n > 0; --n) s += kPieces[below(std::size(kPieces))];
    return s;
  }

  ProgramSpec spec(uint32_t sessions) {
    ProgramSpec spec;
    EventDef ev{"E", {kId, 0, 0, 4, 0, 0, 0}, {}};
    ev.fields = {FieldDef{"w", InType::UnicodeString, {}, {}},
                 FieldDef{"n", InType::AnsiString, {}, {}}, FieldDef{"c", InType::UInt32, {}, {}}};
    spec.provider.name = "P";
    spec.provider.events = {ev, EventDef{"Other", {kId + 1, 0, 0, 4, 0, 0, 0}, {}}};
    for (uint32_t s = 0; s < sessions; ++s) {
      EnableParams p;
      const uint64_t mode = below(8);  // 0-4: one pattern; 5: AND of two; 6: OR; 7: two filters
      PayloadFilter pf{kId, 0, mode == 5, {}};
      if (mode <= 4) {
        pred(pf.expr, pattern());
      } else {
        std::vector<uint32_t> kids;
        for (uint64_t n = 2 + below(2); n > 0; --n) kids.push_back(pred(pf.expr, term()));
        join(pf.expr, mode == 6 ? Kind::Or : Kind::And, kids);
      }
      p.payload.push_back(std::move(pf));
      if (mode == 7) {
        PayloadFilter second{kId, 0, false, {}};
        pred(second.expr, pattern());
        p.payload.push_back(std::move(second));
      }
      spec.sessions.emplace_back(s, std::move(p));
    }
    return spec;
  }

  Event event() {
    Event e;
    e.desc = {uint16_t(below(12) == 0 ? kId + 1 : kId), 0, 0, 4, 0, 0, 0};
    const size_t pieces = below(4) == 0 ? 30 : 6;  // long texts take the vector paths
    std::u16string wide;
    if (!utf8_to_utf16(text(pieces), wide)) wide.clear();
    if (below(10) == 0) wide.insert(below(wide.size() + 1), 1, char16_t(0xD800 + below(0x800)));
    for (char16_t u : wide) e.payload.push_back(uint8_t(u)), e.payload.push_back(uint8_t(u >> 8));
    e.payload.push_back(0), e.payload.push_back(0);
    std::string narrow = text(pieces);
    if (below(10) == 0) narrow.insert(below(narrow.size() + 1), 1, char(0xC3 + below(0x3D)));
    e.payload.insert(e.payload.end(), narrow.begin(), narrow.end());
    e.payload.push_back(0);
    const uint32_t code = uint32_t(below(100));
    for (int i = 0; i < 4; ++i) e.payload.push_back(uint8_t(code >> (8 * i)));
    if (below(5) == 0) e.payload.resize(below(e.payload.size() + 1));
    return e;
  }

 private:
  // A pattern on one of the string fields: a literal, a glob or a regex.
  PayloadPredicate pattern() {
    const uint32_t field = below(3) == 0 ? kNarrow : kWide;
    const uint64_t k = below(10);
    if (k < 6) return {field, kLiteralOps[below(std::size(kLiteralOps))], {0, 0, text(2), {}}};
    if (k < 8) {
      std::string g;
      for (uint64_t n = 1 + below(4); n > 0; --n)
        g += below(2) ? kGlobPieces[below(std::size(kGlobPieces))] : glob_literal(text(1));
      return {field, below(2) ? PayloadOp::Matches : PayloadOp::MatchesCs, {0, 0, g, {}}};
    }
    const char* re = hard_ && below(2) ? kHardRegexes[below(std::size(kHardRegexes))]
                                       : kRegexes[below(std::size(kRegexes))];
    return {field, below(2) ? PayloadOp::Regex : PayloadOp::RegexCs, {0, 0, re, {}}};
  }

  // `s` as a glob that matches it literally.
  static std::string glob_literal(const std::string& s) {
    std::string out;
    for (char c : s) {
      if (c == '[' || c == ']' || c == '\\' || c == '*' || c == '?') out += '\\';
      out += c;
    }
    return out;
  }

  PayloadPredicate term() {
    if (below(6) == 0) return {kCode, PayloadOp::Lt, {below(100), 0, "", {}}};
    return pattern();
  }

  static uint32_t pred(PayloadExpr& e, PayloadPredicate p) {
    e.preds.push_back(std::move(p));
    e.nodes.push_back({Kind::Pred, uint32_t(e.preds.size() - 1), 0});
    return uint32_t(e.nodes.size() - 1);
  }
  static void join(PayloadExpr& e, Kind kind, const std::vector<uint32_t>& kids) {
    e.nodes.push_back({kind, uint32_t(e.kids.size()), uint32_t(kids.size())});
    e.kids.insert(e.kids.end(), kids.begin(), kids.end());
  }

  std::mt19937_64 rng_;
  bool hard_ = false;
};

int count(const ir::Program& p, ir::Op op) {
  int n = 0;
  for (const ir::Inst& in : p.code) n += in.op == op;
  return n;
}

// Session s of `spec` becomes one filter of event kId: the expression of preds, nodes, kids.
void set_session(ProgramSpec& spec, uint32_t s, std::vector<PayloadPredicate> preds,
                 std::vector<PayloadExpr::Node> nodes, std::vector<uint32_t> kids = {}) {
  PayloadFilter f{kId, 0, false, {}};
  f.expr.preds = std::move(preds);
  f.expr.nodes = std::move(nodes);
  f.expr.kids = std::move(kids);
  EnableParams params;
  params.payload = {std::move(f)};
  spec.sessions[s] = SessionEntry{s, std::move(params)};
}

int check_case(const ProgramSpec& spec, const std::vector<Event>& events, bool jit,
               const std::string& what) {
  std::vector<EventView> views;
  views.reserve(events.size());
  for (const Event& e : events) views.push_back(e.view());
  return check_lowerings(spec, views, LowerOptions{}, LowerOptions{false}, jit, what);
}

TEST(StringIndex, RandomSpecsAgreeWithOracle) {
  int indexed = 0, failures = 0;
  const bool jit = Jit::shared().has_value();
  for (uint64_t seed = 1; seed <= 120 && failures < 3; ++seed) {
    Gen g(seed);
    const ProgramSpec spec = g.spec(seed % 4 == 0 ? 64 : 2 + uint32_t(g.below(10)));
    std::vector<Event> events;
    events.reserve(80);
    for (int i = 0; i < 80; ++i) events.push_back(g.event());
    auto prog = lower(spec);
    ASSERT_TRUE(prog.has_value()) << prog.error().message;
    indexed += count(*prog, ir::Op::MaskStrs) > 0;
    failures += check_case(spec, events, jit && seed % 2 == 0, "seed " + std::to_string(seed)) > 0;
  }
  EXPECT_EQ(failures, 0);
  EXPECT_GT(indexed, 100);  // nearly every case shares a string field
}

// 64 sessions, one distinct pattern each on one field: one mask.strs, no pred.str.
TEST(StringIndex, SixtyFourPatternsOneScan) {
  const PayloadOp ops[] = {PayloadOp::Contains, PayloadOp::Matches, PayloadOp::Regex};
  for (PayloadOp op : ops) {
    Gen g{uint64_t(op)};
    ProgramSpec spec = g.spec(64);
    for (uint32_t s = 0; s < 64; ++s) {
      std::string text = "w" + std::to_string(s) + "x";
      if (op == PayloadOp::Matches) text = "*" + text.append("*");
      set_session(spec, s, {{kWide, op, {0, 0, text, {}}}}, {{Kind::Pred, 0, 0}});
    }
    auto prog = lower(spec);
    ASSERT_TRUE(prog.has_value()) << prog.error().message;
    EXPECT_EQ(count(*prog, ir::Op::MaskStrs), 1);
    EXPECT_EQ(count(*prog, ir::Op::PredStr), 0);
    std::vector<Event> events;
    for (int i = 0; i < 200; ++i) {
      Event e = g.event();
      if (i % 2 == 0 && e.desc.id == kId) {  // a hit: W<s>X at the start of the wide text
        std::string hit = "W" + std::to_string(i % 64) + "X";
        for (size_t j = 0; j < hit.size() && 2 * j + 1 < e.payload.size(); ++j)
          e.payload[2 * j] = uint8_t(hit[j]), e.payload[2 * j + 1] = 0;
      }
      events.push_back(std::move(e));
    }
    EXPECT_EQ(check_case(spec, events, Jit::shared().has_value(), "64 patterns"), 0);
  }
}

// The matcher on its own against each pattern tested on its own (RE2 for regexes, also
// those beyond the oracle's subset), on every kind of text.
TEST(StringIndex, MatcherEqualsEachPattern) {
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    Gen g(seed, true);
    ProgramSpec spec = g.spec(seed % 3 == 0 ? 64 : 2 + uint32_t(g.below(10)));
    auto prog = lower(spec);
    ASSERT_TRUE(prog.has_value()) << prog.error().message;
    for (int i = 0; i < 40; ++i) {
      const Event e = g.event();
      for (const ir::Inst& in : prog->code) {
        if (in.op != ir::Op::MaskStrs) continue;
        const ir::StrMap& map = prog->str_maps[in.c];
        const auto type = uint32_t(prog->fields[in.b].type);
        // The field's offset: 0 for the wide one; the narrow one follows it.
        uint64_t off = 0, next_each = 0, next_scan = 0;
        if (type == uint32_t(InType::AnsiString))
          off = pfc_tdh_skip(e.payload.data(), e.payload.size(), 0, 1, 1, PFC_TDH_NO_LENGTH);
        const uint64_t each =
            pfc_ir_mask_strs_each(e.payload.data(), e.payload.size(), off, type, PFC_TDH_NO_LENGTH,
                                  &map, prog->str_preds.data(), &next_each);
        const uint64_t scan = pfc_ir_mask_strs_next(e.payload.data(), e.payload.size(), off, type,
                                                    PFC_TDH_NO_LENGTH, &map, &next_scan);
        if (each != scan) {
          std::string why;
          for (size_t j = 0; j < map.preds.size(); ++j)
            if (map.masks[j] & (each ^ scan)) {
              ir::StrMap one;
              one.preds = {map.preds[j]};
              one.masks = {1};
              uint64_t nx = 0;
              why += " spred#" + std::to_string(map.preds[j]) + " op " +
                     std::to_string(int(prog->str_preds[map.preds[j]].op)) + " '" +
                     prog->str_preds[map.preds[j]].text + "' =" +
                     std::to_string(pfc_ir_mask_strs_each(e.payload.data(), e.payload.size(), off,
                                                          type, PFC_TDH_NO_LENGTH, &one,
                                                          prog->str_preds.data(), &nx));
            }
          for (size_t j = off; j < e.payload.size(); ++j) why += " " + std::to_string(e.payload[j]);
          ADD_FAILURE() << "seed " << seed << " event " << i << " type " << type << " each " << each
                        << " scan " << scan << why;
        }
        ASSERT_EQ(next_each, next_scan);
      }
    }
  }
}

// Threads scanning one matcher at once, each with its own scratch and buffers, while another
// thread builds new matchers (growing the scratch prototype): every result as each pattern
// on its own gives it.
TEST(StringIndex, ThreadsScanOneMatcher) {
  Gen g(77, true);
  const ProgramSpec spec = g.spec(64);
  auto prog = lower(spec);
  ASSERT_TRUE(prog.has_value()) << prog.error().message;
  std::vector<Event> events;
  events.reserve(300);
  for (int i = 0; i < 300; ++i) events.push_back(g.event());
  std::atomic<int> bad{0};
  auto scan_all = [&] {
    for (int round = 0; round < 3; ++round)
      for (const Event& e : events)
        for (const ir::Inst& in : prog->code) {
          if (in.op != ir::Op::MaskStrs) continue;
          const ir::StrMap& map = prog->str_maps[in.c];
          const auto type = uint32_t(prog->fields[in.b].type);
          // The wide field is at offset 0; the narrow one follows it.
          const uint64_t off =
              type == uint32_t(InType::AnsiString)
                  ? pfc_tdh_skip(e.payload.data(), e.payload.size(), 0, 1, 1, PFC_TDH_NO_LENGTH)
                  : 0;
          uint64_t n1 = 0, n2 = 0;
          const uint64_t each =
              pfc_ir_mask_strs_each(e.payload.data(), e.payload.size(), off, type,
                                    PFC_TDH_NO_LENGTH, &map, prog->str_preds.data(), &n1);
          if (each != pfc_ir_mask_strs_next(e.payload.data(), e.payload.size(), off, type,
                                            PFC_TDH_NO_LENGTH, &map, &n2))
            ++bad;
        }
  };
  std::vector<std::thread> threads;
  threads.reserve(5);
  for (int t = 0; t < 4; ++t) threads.emplace_back(scan_all);
  threads.emplace_back([&] {
    for (uint64_t seed = 100; seed < 110; ++seed) {
      Gen other(seed, true);
      EXPECT_TRUE(lower(other.spec(32)).has_value());
    }
  });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(bad.load(), 0);
}

// Regexes beyond the oracle's subset: the JIT of the indexed program (the matcher) and the
// interpreter of the indexed program must route as the interpreter without indexing
// (pred.str per pattern, RE2 on its own).
TEST(StringIndex, HardRegexesAgreeWithoutIndexing) {
  const bool jit = Jit::shared().has_value();
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    Gen g(seed, true);
    const ProgramSpec spec = g.spec(seed % 3 == 0 ? 64 : 2 + uint32_t(g.below(10)));
    auto with = lowered_interp(spec, LowerOptions{});
    auto without = lowered_interp(spec, LowerOptions{false});
    ASSERT_TRUE(with && without);
    std::shared_ptr<const JitProgram> native;
    if (jit) {
      auto p = JitProgram::create(with->program(), OptLevel::O1);
      ASSERT_TRUE(p.has_value()) << p.error().message;
      native = *p;
    }
    for (int i = 0; i < 80; ++i) {
      const Event e = g.event();
      const RouteResult want = without->route(e.view());
      ASSERT_EQ(want, with->route(e.view())) << "seed " << seed << " event " << i;
      if (native) {
        ASSERT_EQ(want, native->route(e.view())) << "seed " << seed << " event " << i;
      }
    }
  }
}

}  // namespace
}  // namespace pfc

namespace pfc {
namespace {

// The ASCII literal path at its edges (narrowed UTF-16, compiler/str_literals.h): 64
// literal patterns of every operator on both string fields, on texts of 0..70 characters
// with a needle (case-varied, k and s as KELVIN SIGN / LONG S) at the start, the end or
// inside, and one other character (the fold sources, ß and ẞ, É, a lone surrogate, a
// surrogate pair) at every position — the last unit of a vector block included: the
// matcher must give what each pattern on its own gives.
TEST(StringIndex, AsciiLiteralEdges) {
  const char* const needles[] = {"kelvin", "ks", "s", "k", "TiMe", "out", "a b", "sk"};
  ProgramSpec spec = Gen(5).spec(64);
  for (uint32_t s = 0; s < 64; ++s) {
    set_session(spec, s,
                {{s % 3 == 0 ? kNarrow : kWide,
                  kLiteralOps[s % 8],
                  {0, 0, needles[(s / 8) % std::size(needles)], {}}}},
                {{Kind::Pred, 0, 0}});
  }
  auto prog = lower(spec);
  ASSERT_TRUE(prog.has_value()) << prog.error().message;
  const std::u16string odd[] = {u"\u212A", u"\u017F", u"\u00DF",    u"\u1E9E",
                                u"\u00C9", u"\xD800", u"\U0001F600"};
  const std::u16string plants[] = {u"kelvin", u"\u212AElViN", u"K\u017F", u"TIME", u"a b", u"s"};
  std::mt19937_64 rng(11);
  int hits = 0;
  for (size_t len = 0; len <= 70; ++len) {
    for (size_t at = 0; at <= len; ++at) {
      std::u16string text;
      for (size_t i = 0; i < len; ++i) text += char16_t(u"xyzKS o"[rng() % 7]);
      const std::u16string& plant = plants[rng() % std::size(plants)];
      if (plant.size() <= len) {
        const size_t where = at % 3 == 0   ? 0
                             : at % 3 == 1 ? len - plant.size()
                                           : at % (len - plant.size() + 1);
        text.replace(where, plant.size(), plant);
      }
      if (at < len) text.replace(at, 1, odd[rng() % std::size(odd)]);
      std::string narrow;
      ASSERT_TRUE(utf16_to_utf8(text, narrow, Unpaired::Replace));
      Event e;
      e.desc = {kId, 0, 0, 4, 0, 0, 0};
      for (char16_t u : text) e.payload.push_back(uint8_t(u)), e.payload.push_back(uint8_t(u >> 8));
      e.payload.insert(e.payload.end(), {0, 0});
      e.payload.insert(e.payload.end(), narrow.begin(), narrow.end());
      e.payload.insert(e.payload.end(), {0, 0, 0, 0, 0});
      for (const ir::Inst& in : prog->code) {
        if (in.op != ir::Op::MaskStrs) continue;
        const ir::StrMap& map = prog->str_maps[in.c];
        const auto type = uint32_t(prog->fields[in.b].type);
        const uint64_t off = type == uint32_t(InType::AnsiString) ? 2 * text.size() + 2 : 0;
        uint64_t n1 = 0, n2 = 0;
        const uint64_t each =
            pfc_ir_mask_strs_each(e.payload.data(), e.payload.size(), off, type, PFC_TDH_NO_LENGTH,
                                  &map, prog->str_preds.data(), &n1);
        const uint64_t scan = pfc_ir_mask_strs_next(e.payload.data(), e.payload.size(), off, type,
                                                    PFC_TDH_NO_LENGTH, &map, &n2);
        ASSERT_EQ(each, scan) << "len " << len << " at " << at << " type " << type;
        ASSERT_EQ(n1, n2);
        hits += each != map.base;
      }
    }
  }
  EXPECT_GT(hits, 1000);
}

}  // namespace
}  // namespace pfc

namespace pfc {
namespace {

// More ASCII literals on one field than the literal filter takes (64 sessions, each an OR
// of two `contains`): they go to Hyperscan with the other literals, and the matcher still
// gives what each pattern on its own gives.
TEST(StringIndex, MoreAsciiLiteralsThanTheFilterTakes) {
  Gen g(6);
  ProgramSpec spec = g.spec(64);
  for (uint32_t s = 0; s < 64; ++s) {
    set_session(spec, s,
                {{kWide, PayloadOp::Contains, {0, 0, "k" + std::to_string(s), {}}},
                 {kWide, PayloadOp::EndsWith, {0, 0, std::to_string(s) + "s", {}}}},
                {{Kind::Pred, 0, 0}, {Kind::Pred, 1, 0}, {Kind::Or, 0, 2}}, {0, 1});
  }
  auto prog = lower(spec);
  ASSERT_TRUE(prog.has_value()) << prog.error().message;
  ASSERT_EQ(count(*prog, ir::Op::MaskStrs), 1);
  int hits = 0;
  for (int i = 0; i < 400; ++i) {
    std::u16string text = i % 2 ? u"x\u212A" : u"y";
    text += char16_t(u'0' + i % 7);
    if (i % 3 == 0) text += char16_t(u'0' + i % 10);
    if (i % 4 == 0) text += u"\u017F";
    Event e;
    e.desc = {kId, 0, 0, 4, 0, 0, 0};
    for (char16_t u : text) e.payload.push_back(uint8_t(u)), e.payload.push_back(uint8_t(u >> 8));
    e.payload.insert(e.payload.end(), {0, 0, 0, 0, 0, 0, 0});
    for (const ir::Inst& in : prog->code) {
      if (in.op != ir::Op::MaskStrs) continue;
      const ir::StrMap& map = prog->str_maps[in.c];
      ASSERT_GT(map.preds.size(), internal::AsciiLiterals::kMax);
      uint64_t n1 = 0, n2 = 0;
      const uint64_t each =
          pfc_ir_mask_strs_each(e.payload.data(), e.payload.size(), 0, 1, PFC_TDH_NO_LENGTH, &map,
                                prog->str_preds.data(), &n1);
      const uint64_t scan = pfc_ir_mask_strs_next(e.payload.data(), e.payload.size(), 0, 1,
                                                  PFC_TDH_NO_LENGTH, &map, &n2);
      ASSERT_EQ(each, scan) << i;
      hits += each != map.base;
    }
  }
  EXPECT_GT(hits, 100);
}

}  // namespace
}  // namespace pfc
