// cli/generate.cc — `pfc gen`'s event generator: hints from the sessions' filters, random
// candidates per (provider, event) of the schema, accept/reject by routing each candidate
// with the reference interpreter to reach the requested match rate, capture encoding.
#include "cli/generate.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "base/ascii.h"
#include "cli/gen_values.h"
#include "cli/router_setup.h"
#include "runtime/encode.h"

namespace pfc::cli {
namespace {

// Candidates tried for one event before the rate is declared unreachable.
constexpr uint64_t kMaxTries = 20000;

constexpr const char* kExePaths[] = {
    "C:\\Windows\\System32\\svchost.exe", "C:\\Windows\\explorer.exe",
    "C:\\Program Files\\Contoso\\contoso.exe", "C:\\Tools\\trace.exe", "/usr/bin/bash"};

struct ProviderHints {
  std::vector<std::vector<FieldHints>> events;  // by event index, then field index
  std::vector<uint32_t> pids;
  std::vector<std::string> exe_names;
};

void add_predicate_hints(const EventDef& event, const PayloadPredicate& p,
                         std::vector<FieldHints>& fields) {
  if (p.field >= fields.size()) return;
  FieldHints& h = fields[p.field];
  const InType type = event.fields[p.field].type;
  if (in_type_is_string(type)) {
    h.texts.push_back(p.value.text);
  } else if (type == InType::Guid) {
    h.guids.push_back(p.value.guid);
  } else {
    for (uint64_t v : {p.value.lo, p.value.lo - 1, p.value.lo + 1}) h.ints.push_back(v);
    if (p.op == PayloadOp::Between || p.op == PayloadOp::NotBetween)
      for (uint64_t v : {p.value.hi, p.value.hi - 1, p.value.hi + 1}) h.ints.push_back(v);
    if (p.op == PayloadOp::Modulo) h.ints.push_back(p.value.lo * 3);
  }
}

std::vector<ProviderHints> collect_hints(const CheckedScript& script) {
  std::vector<ProviderHints> out(script.schema.providers.size());
  for (size_t p = 0; p < out.size(); ++p) {
    for (const EventDef& e : script.schema.providers[p].events)
      out[p].events.emplace_back(e.fields.size());
  }
  for (const SessionDecl& s : script.sessions) {
    for (const SessionDecl::Enable& en : s.enables) {
      const ProviderDef& provider = script.schema.providers.at(en.provider);
      ProviderHints& hints = out[en.provider];
      if (en.params->pids)
        hints.pids.insert(hints.pids.end(), en.params->pids->begin(), en.params->pids->end());
      if (en.params->exe_names)
        hints.exe_names.insert(hints.exe_names.end(), en.params->exe_names->begin(),
                               en.params->exe_names->end());
      for (const PayloadFilter& f : en.params->payload) {
        for (size_t e = 0; e < provider.events.size(); ++e) {
          const EventDef& def = provider.events[e];
          if (def.desc.id != f.event_id || def.desc.version != f.event_version) continue;
          for (const PayloadPredicate& pred : f.expr.preds)
            add_predicate_hints(def, pred, hints.events[e]);
        }
      }
    }
  }
  return out;
}

// Every (provider, event) pair of the schema: candidates are drawn uniformly from these.
struct EventRef {
  uint32_t provider;
  uint32_t event;
};

std::string random_exe(const ProviderHints& h, Rng& rng) {
  if (rng.chance(10)) return "";
  if (!h.exe_names.empty() && rng.chance(50)) {
    std::string name = h.exe_names[rng.below(h.exe_names.size())];
    if (rng.chance(30))
      for (char& c : name) c = ascii_upper(c);
    return "C:\\Program Files\\App\\" + name;
  }
  return kExePaths[rng.below(std::size(kExePaths))];
}

class Generator {
 public:
  Generator(const CheckedScript& script, ScriptRouter router, uint64_t seed)
      : script_(script), router_(std::move(router)), hints_(collect_hints(script)), rng_(seed) {
    for (uint32_t p = 0; p < script.schema.providers.size(); ++p)
      for (uint32_t e = 0; e < script.schema.providers[p].events.size(); ++e)
        refs_.push_back({p, e});
  }
  bool has_events() const { return !refs_.empty(); }

  // A random event; `matches` says whether some session receives it.
  std::expected<EventRef, GenError> candidate(Event& out, bool& matches) {
    const EventRef ref = refs_[rng_.below(refs_.size())];
    const ProviderHints& h = hints_[ref.provider];
    const EventDef& def = script_.schema.providers[ref.provider].events[ref.event];
    out.desc = def.desc;
    vary_descriptor(out.desc, ref.provider);
    out.pid = !h.pids.empty() && rng_.chance(50) ? h.pids[rng_.below(h.pids.size())]
                                                 : uint32_t(4 + rng_.below(30000));
    out.tid = uint32_t(4 + rng_.below(60000));
    out.exe = random_exe(h, rng_);
    auto payload = encode_payload(def, random_fields(def, h.events[ref.event], rng_));
    if (!payload)
      return std::unexpected(GenError{
          "generated an unencodable value for event '" + def.name + "': " + payload.error().message,
          true});
    out.payload = std::move(*payload);
    // Undeclared ids, and a few declared ones (malformed events), get a cut payload.
    if (out.desc.id != def.desc.id || rng_.chance(3))
      out.payload.resize(rng_.below(out.payload.size() + 1));
    matches = router_.router->route(router_.providers[ref.provider], out.view()).deliver != 0;
    return ref;
  }
  Rng& rng() { return rng_; }

 private:
  // Mostly the schema's descriptor; sometimes another level, keyword or an undeclared id
  // (with a shortened payload), so that header-only filters see both outcomes.
  void vary_descriptor(EventDescriptor& d, uint32_t provider) {
    if (rng_.chance(20)) d.level = uint8_t(rng_.below(7));
    if (rng_.chance(20)) {
      const uint64_t choices[] = {0, uint64_t{1} << rng_.below(64), rng_.next(), d.keyword};
      d.keyword = choices[rng_.below(4)];
    }
    if (rng_.chance(10)) {
      uint16_t max_id = 0;
      for (const EventDef& e : script_.schema.providers[provider].events)
        max_id = std::max(max_id, e.desc.id);
      d.id = uint16_t(max_id + 1 + rng_.below(100));
    }
  }

  const CheckedScript& script_;
  ScriptRouter router_;
  std::vector<ProviderHints> hints_;
  std::vector<EventRef> refs_;
  Rng rng_;
};

// An event whose smallest payload (every field at its default) is over the payload limit
// cannot be generated: that is the script's problem (exit 1), found before drawing values.
std::optional<GenError> check_encodable(const Schema& schema) {
  for (const ProviderDef& p : schema.providers) {
    for (const EventDef& e : p.events) {
      if (auto r = encode_payload(e, {}); !r)
        return GenError{"event '" + e.name + "' of provider '" + p.name +
                            "' cannot be generated: " + r.error().message,
                        false};
    }
  }
  return std::nullopt;
}

std::string rate_text(double rate) {
  std::string s = std::to_string(rate);
  while (s.size() > 1 && s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

std::expected<GenOutput, GenError> generate_events(const CheckedScript& script,
                                                   const GenOptions& options, const GenEmit& emit) {
  auto engine = make_engine("interp");
  if (!engine) return std::unexpected(GenError{engine.error().message, true});
  auto router = build_router(script, engine->compiler);
  if (!router) return std::unexpected(GenError{router.error().message, true});
  Generator gen(script, std::move(*router), options.seed);
  if (!gen.has_events()) return std::unexpected(GenError{"the script declares no events", false});
  if (script.schema.providers.size() > 0xFFFF)
    return std::unexpected(GenError{"too many providers for a capture (more than 65535)", false});
  if (auto bad = check_encodable(script.schema)) return std::unexpected(std::move(*bad));
  GenOutput out;
  uint64_t timestamp = 133'000'000'000'000'000ull;  // 100-ns ticks (a 2022 FILETIME)
  for (uint64_t i = 0; i < options.count; ++i) {
    const double rate = options.match_rate.value_or(0);
    const bool want = std::llround(rate * double(i + 1)) > std::llround(rate * double(i));
    Event e;
    bool matches = false;
    EventRef ref{};
    for (uint64_t tries = 0;; ++tries) {
      if (tries == kMaxTries)
        return std::unexpected(GenError{"--match-rate " + rate_text(rate) +
                                            " cannot be reached: none of " +
                                            std::to_string(kMaxTries) + " random events " +
                                            (want ? "passes" : "fails") + " the sessions' filters",
                                        false});
      auto r = gen.candidate(e, matches);
      if (!r) return std::unexpected(r.error());
      ref = *r;
      if (!options.match_rate || matches == want) break;
    }
    timestamp += 1 + gen.rng().below(10'000);
    if (auto added = emit(uint16_t(ref.provider), e, timestamp); !added)
      return std::unexpected(GenError{added.error().message, true});
    out.matching += matches ? 1 : 0;
  }
  return out;
}

}  // namespace pfc::cli
