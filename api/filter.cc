// api/filter.cc — the public Filter (pfc/filter.h) over the front end (compiler/frontend.h),
// the engine factory (api/engine_choice.h), the script router set-up (api/script_router.h)
// and the explainer (api/explain.h).
#include "pfc/filter.h"

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <stdexcept>

#include "api/engine_choice.h"
#include "api/explain.h"
#include "api/script_router.h"
#include "compiler/frontend.h"
#include "runtime/router.h"

namespace pfc {
namespace {

// The largest script compile_file reads: 128 MiB, as `pfc` (docs/cli.md "Limits").
constexpr uint64_t kMaxScriptFileBytes = uint64_t{128} << 20;

// Forwards one session's deliveries to FilterOptions::on_event with its id.
class SessionSink : public Sink {
 public:
  SessionSink(SessionId id, const FilterOptions& options) : id_(id), on_event_(options.on_event) {}
  void deliver(const EventView& event, bool with_stack) override {
    if (on_event_) on_event_(id_, event, with_stack);
  }

 private:
  SessionId id_;
  std::function<void(SessionId, const EventView&, bool)> on_event_;
};

Status to_status(const Error& e) { return Status::error(e.message); }

}  // namespace

// The state behind a Filter. Providers live in fixed chunks published with release stores, so
// route() can index them without a lock while add_provider appends (kChunks * kChunkSize providers
// at most).
struct detail::FilterState {
  static constexpr size_t kChunkSize = 256;
  static constexpr size_t kChunks = 256;
  struct Provider {
    ProviderDef def;
    ProviderHandle handle = nullptr;
  };
  using Chunk = std::array<Provider, kChunkSize>;

  FilterOptions options;
  Engine engine = Engine::Auto;
  EngineChoice choice;
  std::unique_ptr<Router> router;
  std::mutex mu;  // serialises the changing calls
  std::array<std::unique_ptr<Chunk>, kChunks> chunk_owners;
  std::array<std::atomic<const Chunk*>, kChunks> chunks{};
  std::atomic<size_t> provider_count{0};
  std::map<std::string, SessionId, std::less<>> sessions;  // live sessions by name
  std::atomic<uint64_t> live{0};                           // bit s = slot s in use

  const Provider* find(size_t index) const {
    if (index >= provider_count.load(std::memory_order_acquire)) return nullptr;
    return &(*chunks[index / kChunkSize].load(std::memory_order_acquire))[index % kChunkSize];
  }
  Status add(const ProviderDef& def, ProviderHandle handle, size_t* index);
  Status add_session(std::string name, SessionId* id);
};

Status detail::FilterState::add(const ProviderDef& def, ProviderHandle handle, size_t* index) {
  const size_t at = provider_count.load(std::memory_order_relaxed);
  if (at >= kChunks * kChunkSize) return Status::error("too many providers");
  if (!chunk_owners[at / kChunkSize]) {
    chunk_owners[at / kChunkSize] = std::make_unique<Chunk>();
    chunks[at / kChunkSize].store(chunk_owners[at / kChunkSize].get(), std::memory_order_release);
  }
  (*chunk_owners[at / kChunkSize])[at % kChunkSize] = Provider{def, handle};
  provider_count.store(at + 1, std::memory_order_release);
  if (index) *index = at;
  return {};
}

Status detail::FilterState::add_session(std::string name, SessionId* id) {
  // The slot is not known before create_session: the sink finds it through `slot`.
  const uint64_t used = live.load(std::memory_order_relaxed);
  SessionId slot = 0;
  while (slot < kMaxSessions && ((used >> slot) & 1)) ++slot;
  if (slot == kMaxSessions) return Status::error("no free session slot (at most 64 sessions)");
  auto created = router->create_session(name, std::make_shared<SessionSink>(slot, options), slot);
  if (!created) return to_status(created.error());
  sessions.emplace(std::move(name), *created);
  live.fetch_or(uint64_t{1} << *created, std::memory_order_relaxed);
  if (id) *id = *created;
  return {};
}

Filter::Filter(std::unique_ptr<detail::FilterState> state) : impl_(std::move(state)) {}
Filter::~Filter() = default;

Status Filter::make(const FilterOptions& options, std::unique_ptr<Filter>* out) {
  auto impl = std::make_unique<detail::FilterState>();
  impl->options = options;
  impl->engine = options.engine;
  std::function<void(const Error&)> on_jit_error;
  if (options.on_jit_error)
    on_jit_error = [f = options.on_jit_error](const Error& e) { f(e.message); };
  impl->choice = make_engine(options.engine, std::move(on_jit_error));
  auto router = Router::create(impl->choice.compiler);
  if (!router) return to_status(router.error());
  impl->router = std::move(*router);
  if (out) *out = std::unique_ptr<Filter>(new Filter(std::move(impl)));
  return {};
}

namespace {

// The filter of a checked script: sessions and enables, then providers (build_router's order).
Status set_up(detail::FilterState& impl, const CheckedScript& script) {
  auto names = add_script_sessions(*impl.router, script, [&](SessionId id) {
    return std::make_shared<SessionSink>(id, impl.options);
  });
  if (!names) return to_status(names.error());
  for (SessionId id = 0; id < names->size(); ++id) {
    impl.sessions.emplace((*names)[id], id);
    impl.live.fetch_or(uint64_t{1} << id, std::memory_order_relaxed);
  }
  auto handles = register_script_providers(*impl.router, script);
  if (!handles) return to_status(handles.error());
  for (size_t i = 0; i < handles->size(); ++i) {
    Status added = impl.add(script.schema.providers[i], (*handles)[i], nullptr);
    if (!added) return added;
  }
  return {};
}

}  // namespace

CompileResult Filter::compile(std::string_view text, const FilterOptions& options,
                              std::string name) {
  CompileResult out;
  const SourceFile source(std::move(name), std::string(text));
  FrontendOutput front = compile_script(source);
  const bool checked = front.ok();
  out.diagnostics = std::move(front.diagnostics);
  for (const Diagnostic& d : out.diagnostics) out.report += source.render(d);
  if (!checked) return out;
  std::unique_ptr<Filter> filter;
  out.status = make(options, &filter);
  if (!out.status) return out;
  out.status = set_up(*filter->impl_, front.checked.script);
  if (out.status) out.filter = std::move(filter);
  return out;
}

CompileResult Filter::compile_file(const std::string& path, const FilterOptions& options) {
  std::ifstream in(path, std::ios::binary);
  CompileResult out;
  if (!in) {
    out.status = Status::error("cannot read " + path + ": " + std::strerror(errno));
    return out;
  }
  std::string text;
  std::array<char, 1 << 16> chunk;
  while (in.read(chunk.data(), chunk.size()) || in.gcount() > 0) {
    text.append(chunk.data(), static_cast<size_t>(in.gcount()));
    if (text.size() > kMaxScriptFileBytes) {
      out.status = Status::error("cannot read " + path + ": larger than the limit of " +
                                 std::to_string(kMaxScriptFileBytes) + " bytes for a script");
      return out;
    }
  }
  if (in.bad()) {
    out.status = Status::error("cannot read " + path + ": read error");
    return out;
  }
  return compile(text, options, path);
}

Engine Filter::engine() const { return impl_->engine; }

size_t Filter::provider_count() const {
  return impl_->provider_count.load(std::memory_order_acquire);
}

const ProviderDef& Filter::provider(size_t index) const {
  const detail::FilterState::Provider* p = impl_->find(index);
  if (!p) throw std::out_of_range("pfc::Filter::provider: no provider " + std::to_string(index));
  return p->def;
}

std::optional<size_t> Filter::find_provider(std::string_view name_or_guid) const {
  const std::optional<Guid> guid = Guid::parse(name_or_guid);
  const size_t n = provider_count();
  for (size_t i = 0; i < n; ++i) {
    const ProviderDef& def = impl_->find(i)->def;
    if (guid ? def.guid == *guid : def.name == name_or_guid) return i;
  }
  return std::nullopt;
}

Status Filter::add_provider(const ProviderDef& provider, size_t* index) {
  std::lock_guard lock(impl_->mu);
  auto handle = impl_->router->register_provider(provider);
  if (!handle) return to_status(handle.error());
  Status added = impl_->add(provider, *handle, index);
  if (!added) impl_->router->unregister_provider(*handle);
  return added;
}

std::optional<SessionId> Filter::find_session(std::string_view name) const {
  std::lock_guard lock(impl_->mu);
  auto it = impl_->sessions.find(name);
  if (it == impl_->sessions.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> Filter::session_names() const {
  std::lock_guard lock(impl_->mu);
  std::vector<std::string> out;
  for (const auto& [name, id] : impl_->sessions) {
    if (id >= out.size()) out.resize(id + 1);
    out[id] = name;
  }
  return out;
}

Status Filter::add_session(std::string name, SessionId* id) {
  std::lock_guard lock(impl_->mu);
  return impl_->add_session(std::move(name), id);
}

Status Filter::stop_session(SessionId session) {
  std::lock_guard lock(impl_->mu);
  auto stopped = impl_->router->stop_session(session);
  if (!stopped) return to_status(stopped.error());
  std::erase_if(impl_->sessions, [&](const auto& entry) { return entry.second == session; });
  impl_->live.fetch_and(~(uint64_t{1} << session), std::memory_order_relaxed);
  return {};
}

Status Filter::enable(SessionId session, const Guid& provider, const EnableParams& params) {
  std::lock_guard lock(impl_->mu);
  auto enabled = impl_->router->enable(session, provider, params);
  return enabled ? Status() : to_status(enabled.error());
}

Status Filter::disable(SessionId session, const Guid& provider) {
  std::lock_guard lock(impl_->mu);
  auto disabled = impl_->router->disable(session, provider);
  return disabled ? Status() : to_status(disabled.error());
}

bool Filter::enabled(size_t provider, uint8_t level, uint64_t keyword) const noexcept {
  const detail::FilterState::Provider* p = impl_->find(provider);
  return p && p->handle->enabled(level, keyword);
}

RouteResult Filter::route(size_t provider, const EventView& event,
                          uint64_t exclude) const noexcept {
  const detail::FilterState::Provider* p = impl_->find(provider);
  return p ? impl_->router->route(p->handle, event, exclude) : RouteResult{};
}

RouteResult Filter::write(size_t provider, const EventView& event, uint64_t exclude) {
  const detail::FilterState::Provider* p = impl_->find(provider);
  return p ? impl_->router->write(p->handle, event, exclude) : RouteResult{};
}

Status Filter::explain(size_t provider, const EventView& event, uint64_t exclude,
                       Decision* out) const {
  const detail::FilterState::Provider* p = impl_->find(provider);
  if (!p) return Status::error("no provider " + std::to_string(provider));
  auto explainer = Explainer::create(*impl_->router, {p->handle}, kMaxSessions);
  if (!explainer) return to_status(explainer.error());
  const ExplainedRoute explained = explainer->explain(0, event, exclude);
  const uint64_t live = impl_->live.load(std::memory_order_relaxed);
  Decision decision;
  decision.result = explained.result;
  for (const Rejection& r : explained.why)
    if ((live >> r.slot) & 1) decision.rejected.push_back({r.slot, std::string(r.reason)});
  if (out) *out = std::move(decision);
  return {};
}

std::string Filter::jit_error() const {
  const std::optional<Error> first = impl_->choice.errors->first();
  return first ? first->message : std::string();
}

}  // namespace pfc
