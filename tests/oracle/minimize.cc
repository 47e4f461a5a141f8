// tests/oracle/minimize.cc — see minimize.h. Each pass tries a list of candidate edits and
// keeps the first that still fails; passes repeat until none applies.
#include "tests/oracle/minimize.h"

namespace pfc::gen {
namespace {

using Edit = std::function<bool(Case&)>;  // false: nothing to edit

// Every single-step simplification of one session's parameters.
std::vector<Edit> param_edits(size_t s) {
  auto on = [s](auto f) -> Edit {
    return [s, f](Case& c) { return f(c.spec.sessions.at(s).edit()); };
  };
  std::vector<Edit> e = {
      on([](EnableParams& p) { return p.pids && (p.pids.reset(), true); }),
      on([](EnableParams& p) { return p.exe_names && (p.exe_names.reset(), true); }),
      on([](EnableParams& p) { return p.package_ids && (p.package_ids.reset(), true); }),
      on([](EnableParams& p) { return p.app_ids && (p.app_ids.reset(), true); }),
      on([](EnableParams& p) { return p.event_ids && (p.event_ids.reset(), true); }),
      on([](EnableParams& p) { return p.event_names && (p.event_names.reset(), true); }),
      on([](EnableParams& p) { return p.stack_ids && (p.stack_ids.reset(), true); }),
      on([](EnableParams& p) { return p.stack_names && (p.stack_names.reset(), true); }),
      on([](EnableParams& p) { return p.stack_level_kw && (p.stack_level_kw.reset(), true); }),
      on([](EnableParams& p) { return p.level != 0 && (p.level = 0, true); }),
      on([](EnableParams& p) { return p.any != 0 && (p.any = 0, true); }),
      on([](EnableParams& p) { return p.all != 0 && (p.all = 0, true); }),
      on([](EnableParams& p) { return p.properties != 0 && (p.properties = 0, true); }),
  };
  for (size_t f = 0; f < 8; ++f) {
    e.push_back(on([f](EnableParams& p) {
      return f < p.payload.size() && (p.payload.erase(p.payload.begin() + f), true);
    }));
  }
  return e;
}

bool named_by_filter(const Case& c, const EventDef& def) {
  for (const SessionEntry& s : c.spec.sessions) {
    for (const PayloadFilter& f : s.params->payload) {
      if (f.event_id == def.desc.id && f.event_version == def.desc.version) return true;
    }
  }
  return false;
}

std::vector<Edit> edits(const Case& c) {
  std::vector<Edit> e;
  for (size_t i = 0; c.events.size() > 1 && i < c.events.size(); ++i) {
    e.emplace_back([i](Case& x) {
      x.events = {x.events[i]};
      return true;
    });
  }
  for (size_t i = 0; c.spec.sessions.size() > 1 && i < c.spec.sessions.size(); ++i) {
    e.emplace_back([i](Case& x) {
      x.spec.sessions.erase(x.spec.sessions.begin() + i);
      return true;
    });
  }
  for (size_t i = 0; i < c.spec.sessions.size(); ++i) {
    for (Edit& p : param_edits(i)) e.push_back(std::move(p));
  }
  for (size_t i = 0; i < c.spec.provider.events.size(); ++i) {
    e.emplace_back([i](Case& x) {
      auto& evs = x.spec.provider.events;
      if (named_by_filter(x, evs[i])) return false;  // filters must name declared events
      evs.erase(evs.begin() + i);
      return true;
    });
  }
  return e;
}

}  // namespace

Case minimize(Case c, const std::function<bool(const Case&)>& fails) {
  bool progress = true;
  while (progress) {
    progress = false;
    for (const Edit& edit : edits(c)) {
      Case trial = c;
      if (!edit(trial) || !fails(trial)) continue;
      c = std::move(trial);
      progress = true;
      break;  // the edit list depends on the case: rebuild it
    }
  }
  return c;
}

}  // namespace pfc::gen
