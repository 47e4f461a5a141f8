// etw/mirror.cc — applying the published namespace state to this process's router
// (docs/namespace.md §2): sessions by slot and instance, then every session's enable of
// every provider in enable order, converted here from the controller's API arguments. The
// router stays the one source of enable state; this file only translates.
#include <pthread.h>

#include "etw/enable_wire.h"
#include "etw/filters.h"
#include "etw/state.h"
#include "trace/testpoint.h"

namespace pfc::etw {
namespace {

// What the controller asked, converted as EnableTraceEx2 would in this process (pfc-private
// descriptor types included: only pfc's controllers publish them); false
// when the published arguments do not convert here (the enable is then not applied).
bool convert_entry(const trace::EnableEntry& e, EnableRequest* req) {
  auto params = decode_enable_parameters(e.filters);
  if (!params) return false;
  return convert_enable(e.level, e.any, e.all, params->has ? &params->params : nullptr, req,
                        true) == ERROR_SUCCESS;
}

}  // namespace

void Runtime::sync() {
  if (!link.ensure()) return;
  auto state = link.store().read();
  if (!state) return;  // corrupt: the next control operation rewrites it
  std::lock_guard<std::mutex> lock(control_mu);
  sync_locked(*state);
}

void Runtime::listen() {
  link.start_listener([this] { sync(); });
}

void Runtime::sync_locked(const trace::NamespaceState& state) {
  if (state.generation != 0 && state.generation <= link.applied()) return;  // older than applied
  apply_sessions(state);
  trace::testpoint("mirror.sessions-applied");
  apply_enables(state);
  link.set_applied(state.generation);
}

// Stops every local session whose slot now holds another instance or nothing, then
// creates the new ones (two passes: a restarted session may reuse a name at another slot).
void Runtime::apply_sessions(const trace::NamespaceState& state) {
  for (uint32_t slot = 0; slot < kMaxSessions; ++slot) {
    std::shared_ptr<Session> local = session_by_logger(static_cast<uint16_t>(slot + 1));
    const trace::SessionEntry* entry = state.session_by_slot(slot);
    if (!local || (entry != nullptr && entry->instance == local->instance())) continue;
    (void)router().stop_session(slot);  // providers see the new composite
    std::erase_if(applied_, [&](const auto& kv) { return kv.first.second == slot; });
    local->close();
    set_session(slot, nullptr);
  }
  for (const trace::SessionEntry& entry : state.sessions) {
    if (session_by_logger(static_cast<uint16_t>(entry.slot + 1))) continue;
    auto s = std::make_shared<Session>(entry, &link);
    if (router().create_session(u16_to_utf8(entry.name), s, entry.slot))
      set_session(entry.slot, std::move(s));
  }
}

void Runtime::apply_enables(const trace::NamespaceState& state) {
  for (auto it = applied_.begin(); it != applied_.end();) {
    const auto& [guid, slot] = it->first;
    bool present = false;
    for (const auto& e : state.enables) present |= e.slot == slot && e.provider == guid;
    if (present) {
      ++it;
      continue;
    }
    (void)router().disable(slot, guid);
    it = applied_.erase(it);
  }
  for (const trace::EnableEntry& e : state.enables) {
    if (!session_by_logger(static_cast<uint16_t>(e.slot + 1))) continue;
    Applied& a = applied_[{e.provider, e.slot}];
    if (a.seq != e.seq) {
      EnableRequest req;
      if (convert_entry(e, &req)) {
        (void)apply_enable(e.slot, e.provider, req);
      } else {  // not convertible here: the session gets nothing from this process
        (void)router().disable(e.slot, e.provider);
      }
    } else if (a.capture_seq != e.capture_seq) {
      (void)router().capture_state(e.slot, e.provider);
    }
    a.seq = e.seq;
    a.capture_seq = e.capture_seq;
  }
}

// The router applies the legacy rules (last enabler wins; only level and the low 32 bits
// of MatchAny count) and keeps the whole request, provider-side filter included.
bool Runtime::apply_enable(uint32_t slot, const Guid& guid, EnableRequest& req) {
  return router().enable(slot, guid, req.params).has_value();
}

// A forked child keeps the parent's registrations and mirror, but not its mappings or
// threads (docs/namespace.md §6): it re-joins the namespace on its next use.
void Runtime::reset_after_fork() {
  link.reset_after_fork();
  for (auto& s : sessions_)
    if (s) s->forget_ring();
  new (&control_mu) std::mutex();
}

}  // namespace pfc::etw
