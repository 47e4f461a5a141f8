// bench/limit/operator_workloads.cc — the language's own operators (docs/language.md §3.1)
// against hand-written C++ using the same libraries: `in` with 1,000 values (a sorted table
// and binary search), `matches` (a glob compiled by runtime/glob.h, matched by a plain
// backtracking loop) and `regex` (RE2, called directly on the UTF-8 form), each on one
// session; the strings are 256 UTF-16 units.
#include <re2/re2.h>
#include <algorithm>
#include <span>

#include "base/ascii.h"
#include "base/utf8.h"
#include "bench/limit/workload.h"
#include "compiler/regex_pred.h"
#include "runtime/casefold.h"
#include "runtime/glob.h"

namespace pfc::bench {
namespace {

using Kind = PayloadExpr::Node::Kind;

FieldDef field(const char* name, InType type) { return FieldDef{name, type, {}, {}}; }

PayloadFilter one_pred(uint16_t id, PayloadPredicate p) {
  PayloadFilter f{id, 0, false, {}};
  f.expr.preds = {std::move(p)};
  f.expr.nodes = {{Kind::Pred, 0, 0}};
  return f;
}

// A provider with one event `id` of `fields`, and one session enabling it with `filter`.
Workload one_event(const char* name, uint16_t id, std::vector<FieldDef> fields,
                   PayloadFilter filter) {
  Workload w;
  w.name = name;
  ProviderDef& p = w.spec.provider;
  p.name = std::string(name) + "-Provider";
  p.guid = Guid::from_provider_name(p.name);
  p.events = {EventDef{"E", {id, 0, 0, 4, 0, 0, 0}, std::move(fields)}};
  EnableParams params;
  params.payload = {std::move(filter)};
  w.spec.sessions.emplace_back(0, params);
  return w;
}

// The UTF-16 string at the payload's start: its units before the terminator, or false
// when there is none (the engines' "cannot decode": the predicate is false).
bool leading_wstr(const EventView& e, std::u16string& out) {
  out.clear();
  for (uint64_t off = 0; off + 2 <= e.payload_size; off += 2) {
    const uint16_t u = load_u16(e.payload + off);
    if (u == 0) return true;
    out.push_back(char16_t(u));
  }
  return false;
}

// --- InSet1000: Req { Status: uint32 }, Status in <1,000 values> ---------------------

constexpr size_t kSetSize = 1000;

std::vector<uint32_t> set_values() {
  BenchRng rng(40);
  std::vector<uint32_t> v;
  while (v.size() < kSetSize) {
    const auto x = uint32_t(rng.below(200000));
    if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
  }
  return v;
}

class InSetHand final : public RoutingProgram {
 public:
  explicit InSetHand(std::vector<uint32_t> values) : sorted_(std::move(values)) {
    std::sort(sorted_.begin(), sorted_.end());
  }
  RouteResult route(const EventView& e) const noexcept override {
    if (e.desc.id != 40 || e.desc.version != 0) return {1, 0};
    if (e.payload_size < 4) return {0, 0};
    return {std::binary_search(sorted_.begin(), sorted_.end(), load_u32(e.payload)) ? 1u : 0u, 0};
  }

 private:
  std::vector<uint32_t> sorted_;
};

// --- Glob1: Log { Message: wstring }, Message matches "*time*out?[0-9]*" ---------------

constexpr char kGlob[] = "*time*out?[0-9]*";

inline char32_t fold_unit(char16_t u) { return u < 0x80 ? ascii_lower(char32_t{u}) : fold_case(u); }

class GlobHand final : public RoutingProgram {
 public:
  GlobHand() : code_(compile_glob(kGlob, true).code) {}
  RouteResult route(const EventView& e) const noexcept override {
    if (e.desc.id != 41 || e.desc.version != 0) return {1, 0};
    thread_local std::u16string text;
    if (!leading_wstr(e, text)) return {0, 0};
    return {match(text) ? 1u : 0u, 0};
  }

 private:
  // Pattern position after the token at `i`.
  size_t next(size_t i) const {
    const char32_t t = code_[i];
    return t == kGlobClass || t == kGlobNotClass ? i + 2 + 2 * code_[i + 1] : i + 1;
  }
  bool token_matches(size_t i, char32_t c) const {
    const char32_t t = code_[i];
    if (t == kGlobAny) return true;
    if (t != kGlobClass && t != kGlobNotClass) return t == c;
    bool in = false;
    for (size_t r = 0; r < code_[i + 1]; ++r)
      in = in || (c >= code_[i + 2 + 2 * r] && c <= code_[i + 3 + 2 * r]);
    return in == (t == kGlobClass);
  }
  // Classic wildcard matching: on a mismatch, retry from the last `*` one unit further.
  // (The text has no surrogate pairs, so units are code points.)
  bool match(const std::u16string& text) const {
    size_t p = 0, t = 0, star = std::u32string::npos, resume = 0;
    while (t < text.size()) {
      if (p < code_.size() && code_[p] == kGlobStar) {
        star = p++;
        resume = t;
      } else if (p < code_.size() && token_matches(p, fold_unit(text[t]))) {
        p = next(p);
        ++t;
      } else if (star != std::u32string::npos) {
        p = star + 1;
        t = ++resume;
      } else {
        return false;
      }
    }
    while (p < code_.size() && code_[p] == kGlobStar) ++p;
    return p == code_.size();
  }

  std::u32string code_;
};

// --- Regex1: Http { Url: wstring }, Url regex "^https?://[a-z0-9.]+\.(com|org)/api/v[0-9]+/" -

constexpr char kRegex[] = R"(^https?://[a-z0-9.]+\.(com|org)/api/v[0-9]+/)";

class RegexHand final : public RoutingProgram {
 public:
  RegexHand() : re_(internal::compile_regex(kRegex, false).re) {}
  RouteResult route(const EventView& e) const noexcept override {
    if (e.desc.id != 42 || e.desc.version != 0) return {1, 0};
    uint64_t end = 0;
    while (end + 2 <= e.payload_size && load_u16(e.payload + end) != 0) end += 2;
    if (end + 2 > e.payload_size) return {0, 0};  // no terminator
    thread_local std::string utf8;
    utf8.clear();
    utf16le_to_utf8(std::span<const uint8_t>(e.payload, end), utf8, Unpaired::Replace);
    return {RE2::PartialMatch(utf8, *re_) ? 1u : 0u, 0};
  }

 private:
  std::shared_ptr<const re2::RE2> re_;
};

// 256 units of text from `pieces` and random letters; some events cut short.
std::u16string random_text(BenchRng& rng, std::span<const char16_t* const> pieces) {
  static constexpr char kPlain[] =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/.:";
  std::u16string s;
  while (s.size() < 256) {
    if (rng.chance(6)) s += pieces[rng.below(pieces.size())];
    else s += char16_t(kPlain[rng.below(sizeof kPlain - 1)]);
  }
  s.resize(256);
  return s;
}

void add_text_events(Workload& w, uint16_t id, uint64_t seed,
                     std::span<const char16_t* const> prefixes,
                     std::span<const char16_t* const> pieces) {
  BenchRng rng(seed);
  for (size_t i = 0; i < kEventsPerWorkload; ++i) {
    std::u16string s = random_text(rng, pieces);
    const char16_t* prefix = prefixes[rng.below(prefixes.size())];
    s.replace(0, std::char_traits<char16_t>::length(prefix), prefix);
    Event e;
    e.desc.id = id;
    e.payload = PayloadWriter().wstr(s).bytes;
    if (rng.chance(3)) e.payload.resize(rng.below(e.payload.size() + 1));
    w.events.push_back(std::move(e));
  }
}

}  // namespace

Workload in_set_workload() {
  const std::vector<uint32_t> values = set_values();
  // `Status in v1, ..., v1000` as the checker expands it: an `or` of `eq` (lowered to one set).
  PayloadFilter f{40, 0, false, {}};
  for (uint32_t i = 0; i < values.size(); ++i) {
    f.expr.preds.push_back(PayloadPredicate{0, PayloadOp::Eq, {values[i], 0, "", {}}});
    f.expr.nodes.push_back({Kind::Pred, i, 0});
    f.expr.kids.push_back(i);
  }
  f.expr.nodes.push_back({Kind::Or, 0, uint32_t(values.size())});
  Workload w = one_event("InSet1000", 40, {field("Status", InType::UInt32)}, std::move(f));
  BenchRng rng(41);
  for (size_t i = 0; i < kEventsPerWorkload; ++i) {
    Event e;
    e.desc.id = 40;
    const uint32_t v =
        rng.chance(50) ? values[rng.below(values.size())] : uint32_t(rng.below(200000));
    e.payload = PayloadWriter().le(v, 4).bytes;
    if (rng.chance(3)) e.payload.resize(rng.below(5));
    w.events.push_back(std::move(e));
  }
  w.hand = std::make_unique<InSetHand>(values);
  return w;
}

Workload glob_workload() {
  PayloadPredicate p{0, PayloadOp::Matches, {0, 0, kGlob, {}}};
  Workload w =
      one_event("Glob1", 41, {field("Message", InType::UnicodeString)}, one_pred(41, std::move(p)));
  static constexpr const char16_t* kPieces[] = {u"time", u"TIME",          u"out",        u"OuT7",
                                                u"out",  u"\u00C9t\u00E9", u"\u212Aelvin"};
  static constexpr const char16_t* kPrefixes[] = {u""};
  add_text_events(w, 41, 42, kPrefixes, kPieces);
  w.hand = std::make_unique<GlobHand>();
  return w;
}

Workload regex_workload() {
  PayloadPredicate p{0, PayloadOp::Regex, {0, 0, kRegex, {}}};
  Workload w =
      one_event("Regex1", 42, {field("Url", InType::UnicodeString)}, one_pred(42, std::move(p)));
  static constexpr const char16_t* kPieces[] = {u"/api/", u".com", u"v2/", u"\u00E9"};
  static constexpr const char16_t* kPrefixes[] = {
      u"https://svc.example.com/api/v2/", u"HTTP://a.b.org/api/v17/", u"https://x.net/api/v1/",
      u"ftp://example.com/api/v2/", u"https://example.com/API/x/"};
  add_text_events(w, 42, 43, kPrefixes, kPieces);
  w.hand = std::make_unique<RegexHand>();
  return w;
}

}  // namespace pfc::bench
