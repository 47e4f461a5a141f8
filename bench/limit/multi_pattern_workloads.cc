// bench/limit/multi_pattern_workloads.cc — 64 sessions, each with its own pattern on one
// field (docs/ir.md §4 "String indexing"): Contains64, Glob64 and Regex64, on the texts of
// StringContains1, Glob1 and Regex1 (256 UTF-16 units, non-ASCII characters mixed in),
// half the events matching some session. Hand: a loop calling the best single-pattern
// matcher per session — wide_find (runtime/wide_search.h) for CONTAINS, runtime/glob.h's
// matcher through pfc_tdh_str_pred for MATCHES, RE2::PartialMatch on one UTF-8
// conversion for REGEX.
#include <re2/re2.h>
#include <span>

#include "base/utf8.h"
#include "bench/limit/workload.h"
#include "compiler/regex_pred.h"
#include "runtime/casefold.h"
#include "runtime/glob.h"
#include "runtime/str_search.h"
#include "runtime/tdh.h"
#include "runtime/wide_search.h"

namespace pfc::bench {
namespace {

using Kind = PayloadExpr::Node::Kind;
constexpr uint32_t kSessions = 64;

// A provider with event `id` { Title: wstring } and 64 sessions, session s filtering it
// with `op` and patterns[s].
Workload sessions_workload(const char* name, uint16_t id, PayloadOp op,
                           const std::vector<std::string>& patterns) {
  Workload w;
  w.name = name;
  ProviderDef& p = w.spec.provider;
  p.name = std::string(name) + "-Provider";
  p.guid = Guid::from_provider_name(p.name);
  p.events = {
      EventDef{"E", {id, 0, 0, 4, 0, 0, 0}, {FieldDef{"Title", InType::UnicodeString, {}, {}}}}};
  for (uint32_t s = 0; s < kSessions; ++s) {
    PayloadFilter f{id, 0, false, {}};
    f.expr.preds = {PayloadPredicate{0, op, {0, 0, patterns[s], {}}}};
    f.expr.nodes = {{Kind::Pred, 0, 0}};
    EnableParams params;
    params.payload = {std::move(f)};
    w.spec.sessions.emplace_back(s, params);
  }
  return w;
}

// 64 distinct lower-case words of `len` letters.
std::vector<std::string> words(uint64_t seed, size_t len) {
  BenchRng rng(seed);
  std::vector<std::string> out;
  while (out.size() < kSessions) {
    std::string w;
    for (size_t i = 0; i < len; ++i) w += char('a' + rng.below(26));
    if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
  }
  return out;
}

// The characters of the NUL-terminated UTF-16 string at the payload's start: [b, *e), or
// false when it has no terminator (undecodable: every predicate false).
bool wide_text(const EventView& e, const uint8_t** end) {
  const uint8_t* b = e.payload;
  const uint8_t* stop = b + (e.payload_size & ~uint64_t{1});
  *end = wide_find_nul(b, stop);
  return *end != stop;
}

// 256 units: ASCII letters with some of `exotic` mixed in; `hit` (in random case) at a
// random position in half the texts.
std::u16string text(BenchRng& rng, std::u16string_view exotic, const std::string* hit) {
  static constexpr char kPlain[] =
      "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789:";
  std::u16string s;
  while (s.size() < 256) {
    if (rng.chance(3)) s += exotic[rng.below(exotic.size())];
    else s += char16_t(kPlain[rng.below(sizeof kPlain - 1)]);
  }
  s.resize(256);
  if (hit != nullptr) {
    std::u16string h;
    for (char c : *hit) h += char16_t(rng.chance(40) ? ascii_upper(c) : c);
    s.replace(rng.below(256 - h.size() + 1), h.size(), h);
  }
  return s;
}

void add_events(Workload& w, uint16_t id, uint64_t seed, std::u16string_view exotic,
                const std::vector<std::string>& hits) {
  BenchRng rng(seed);
  for (size_t i = 0; i < kEventsPerWorkload; ++i) {
    const std::string* hit = rng.chance(50) ? &hits[rng.below(hits.size())] : nullptr;
    Event e;
    e.desc.id = id;
    e.payload = PayloadWriter().wstr(text(rng, exotic, hit)).bytes;
    if (rng.chance(3)) e.payload.resize(rng.below(e.payload.size() + 1));
    w.events.push_back(std::move(e));
  }
}

// --- Contains64: session s: Title contains words[s] -------------------------------------

class ContainsHand final : public RoutingProgram {
 public:
  explicit ContainsHand(const std::vector<std::string>& words) {
    for (const std::string& w : words) {
      cps_.emplace_back(w.begin(), w.end());
      links_.push_back(needle_links(cps_.back()));
    }
    for (size_t s = 0; s < words.size(); ++s) {
      WideNeedle n{};
      wide_needle(cps_[s].data(), links_[s].data(), cps_[s].size(), true, &n);
      needles_.push_back(n);
    }
  }
  RouteResult route(const EventView& e) const noexcept override {
    if (e.desc.id != 50 || e.desc.version != 0) return {~uint64_t{0}, 0};
    const uint8_t* end = nullptr;
    if (!wide_text(e, &end)) return {0, 0};
    uint64_t out = 0;
    for (size_t s = 0; s < needles_.size(); ++s)
      if (wide_find(e.payload, end, needles_[s]) != end) out |= uint64_t{1} << s;
    return {out, 0};
  }

 private:
  std::vector<std::u32string> cps_;
  std::vector<std::vector<uint32_t>> links_;
  std::vector<WideNeedle> needles_;
};

// --- Glob64: session s: Title matches "*<word>*out?[0-9]*" -------------------------------

class GlobHand final : public RoutingProgram {
 public:
  explicit GlobHand(const std::vector<std::string>& globs) {
    for (const std::string& g : globs) code_.push_back(compile_glob(g, true).code);
  }
  RouteResult route(const EventView& e) const noexcept override {
    if (e.desc.id != 51 || e.desc.version != 0) return {~uint64_t{0}, 0};
    uint64_t out = 0;
    for (size_t s = 0; s < code_.size(); ++s)
      if (pfc_tdh_str_pred(e.payload, e.payload_size, 0, 1, PFC_TDH_NO_LENGTH,
                           uint32_t(PayloadOp::Matches), code_[s].data(), code_[s].size(),
                           nullptr) != 0)
        out |= uint64_t{1} << s;
    return {out, 0};
  }

 private:
  std::vector<std::u32string> code_;
};

// --- Regex64: session s: Url regex "^https?://[a-z0-9.]+\.(com|org)/<word>/v[0-9]+/" ------

class RegexHand final : public RoutingProgram {
 public:
  explicit RegexHand(const std::vector<std::string>& patterns) {
    for (const std::string& p : patterns) re_.push_back(internal::compile_regex(p, false).re);
  }
  RouteResult route(const EventView& e) const noexcept override {
    if (e.desc.id != 52 || e.desc.version != 0) return {~uint64_t{0}, 0};
    const uint8_t* end = nullptr;
    if (!wide_text(e, &end)) return {0, 0};
    thread_local std::string utf8;
    utf8.clear();
    utf16le_to_utf8(std::span<const uint8_t>(e.payload, end), utf8, Unpaired::Replace);
    uint64_t out = 0;
    for (size_t s = 0; s < re_.size(); ++s)
      if (RE2::PartialMatch(utf8, *re_[s])) out |= uint64_t{1} << s;
    return {out, 0};
  }

 private:
  std::vector<std::shared_ptr<const re2::RE2>> re_;
};

}  // namespace

Workload contains64_workload() {
  const std::vector<std::string> ws = words(50, 7);
  Workload w = sessions_workload("Contains64", 50, PayloadOp::Contains, ws);
  add_events(w, 50, 51, u"\u00E9\u03A3\u212A\u4E2D\u017F", ws);
  w.hand = std::make_unique<ContainsHand>(ws);
  return w;
}

Workload glob64_workload() {
  const std::vector<std::string> ws = words(52, 4);
  std::vector<std::string> globs, hits;
  for (const std::string& x : ws) {
    globs.push_back("*" + x + "*out?[0-9]*");
    hits.push_back(x + "-out:7");
  }
  Workload w = sessions_workload("Glob64", 51, PayloadOp::Matches, globs);
  add_events(w, 51, 53, u"\u00C9\u00E9\u212A", hits);
  w.hand = std::make_unique<GlobHand>(globs);
  return w;
}

Workload regex64_workload() {
  const std::vector<std::string> ws = words(54, 5);
  std::vector<std::string> res;
  res.reserve(ws.size());
  for (const std::string& x : ws)
    res.push_back(R"(^https?://[a-z0-9.]+\.(com|org)/)" + x + R"(/v[0-9]+/)");
  Workload w = sessions_workload("Regex64", 52, PayloadOp::Regex, res);
  BenchRng rng(55);
  for (size_t i = 0; i < kEventsPerWorkload; ++i) {
    std::u16string s = text(rng, u"\u00E9", nullptr);
    const bool hit = rng.chance(50);
    const std::string& x = ws[rng.below(ws.size())];
    const std::string prefix = (hit ? "https://svc.example.com/" : "https://svc.example.net/") + x +
                               "/v" + std::to_string(rng.below(20)) + "/";
    s.replace(0, prefix.size(), std::u16string(prefix.begin(), prefix.end()));
    Event e;
    e.desc.id = 52;
    e.payload = PayloadWriter().wstr(s).bytes;
    if (rng.chance(3)) e.payload.resize(rng.below(e.payload.size() + 1));
    w.events.push_back(std::move(e));
  }
  w.hand = std::make_unique<RegexHand>(res);
  return w;
}

}  // namespace pfc::bench
