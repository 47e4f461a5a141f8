// fuzz/check/check_fuzzer.cc — arbitrary bytes as a .pfs script through compile_script
// (parser + checker). Checks: no crash; every diagnostic lies inside the input, its
// line:column agrees with its byte offset, it is one line, and it renders; and every script
// the checker accepts lowers, verifies and routes (interpreter) — and, when its string
// values stay in the oracle's alphabet and its provider is neither legacy nor TraceLogging,
// routes like the oracle on synthetic events (each declared event with an empty payload
// and with the input's bytes as payload).
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "compiler/frontend.h"
#include "compiler/interp.h"
#include "compiler/lower.h"
#include "tests/oracle/oracle.h"
#include "tests/oracle/oracle_internal.h"

namespace {

using namespace pfc;

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "check_fuzzer: %s: %s\n", what, detail.c_str());
  std::abort();
}

void check_diagnostics(const SourceFile& src, const std::vector<Diagnostic>& diags) {
  for (const Diagnostic& d : diags) {
    if (d.pos.offset > src.text().size()) fail("diagnostic outside the input", d.message);
    const SourcePos p = src.position(d.pos.offset);
    if (p.line != d.pos.line || p.column != d.pos.column) {
      fail("diagnostic line:column does not match its offset",
           std::to_string(d.pos.line) + ":" + std::to_string(d.pos.column) + " vs " +
               std::to_string(p.line) + ":" + std::to_string(p.column) + " " + d.message);
    }
    if (d.message.find('\n') != std::string::npos) fail("multi-line diagnostic", d.message);
    (void)src.render(d);
  }
}

bool needles_in_alphabet(const EnableParams& p) {
  for (const PayloadFilter& f : p.payload) {
    for (const PayloadPredicate& pr : f.expr.preds) {
      for (char32_t c : oracle_internal::decode_utf8(pr.value.text)) {
        if (!oracle_internal::in_needle_alphabet(c)) return false;
      }
    }
  }
  return true;
}

// Known finding F2 (docs/fuzzing.md): an all-ones count/length source is read as "no
// length" by the engines; such events are not compared with the oracle.
bool all_ones_extent(const ProviderDef& provider, const Event& e) {
  const EventDef* def = nullptr;
  for (const EventDef& d : provider.events) {
    if (d.desc.id == e.desc.id && d.desc.version == e.desc.version) def = &d;
  }
  if (def == nullptr) return false;
  const auto values = oracle_internal::decode_payload(*def, e.payload.data(), e.payload.size());
  for (const FieldDef& f : def->fields) {
    for (const Extent& x : {f.count, f.length}) {
      if (x.kind == Extent::Kind::Field && values[x.value].ok &&
          values[x.value].int_value == ~uint64_t{0}) {
        return true;
      }
    }
  }
  return false;
}

std::vector<Event> probe_events(const ProviderDef& provider, const uint8_t* data, size_t size) {
  std::vector<Event> out;
  for (const EventDef& def : provider.events) {
    Event e;
    e.desc = def.desc;
    e.name = def.name;
    out.push_back(e);
    e.payload.assign(data, data + std::min<size_t>(size, 256));
    out.push_back(e);
  }
  return out;
}

void route_checked(const CheckedScript& script, const uint8_t* data, size_t size) {
  for (uint32_t pi = 0; pi < script.schema.providers.size(); ++pi) {
    ProgramSpec spec{script.schema.providers[pi], {}};
    // Not compared with the oracle: legacy providers (the router picks the last enabler)
    // and TraceLogging ones (the oracle reads no event metadata: it tells their events
    // apart by descriptor, which is id 0 for all of them, so it applies a filter on one
    // event to every event, metadata or not; docs/language.md "TraceLogging providers").
    bool oracle_ok = !spec.provider.legacy && !spec.provider.tracelogging;
    for (uint32_t si = 0; si < script.sessions.size(); ++si) {
      for (const SessionDecl::Enable& en : script.sessions[si].enables) {
        if (en.provider != pi) continue;
        spec.sessions.push_back(SessionEntry::sharing(si, en.params));
        oracle_ok = oracle_ok && needles_in_alphabet(*en.params);
      }
    }
    Result<ir::Program> prog = lower(spec);
    if (!prog) fail("a checked script does not lower", prog.error().message);
    Result<std::unique_ptr<Interpreter>> interp = Interpreter::create(std::move(*prog));
    if (!interp) fail("a lowered program does not verify", interp.error().message);
    for (const Event& e : probe_events(spec.provider, data, size)) {
      const RouteResult got = (*interp)->route(e.view());
      if (!oracle_ok) continue;                         // needles outside the oracle's alphabet
      if (all_ones_extent(spec.provider, e)) continue;  // known finding F2
      const RouteResult want = oracle_route(spec.provider, spec.sessions, e.view());
      if (got != want)
        fail("interpreter and oracle disagree on a checked script", spec.provider.name);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 16 * 1024) return 0;  // budget: longer scripts cost time and add no new paths
  const SourceFile src("fuzz.pfs", std::string(reinterpret_cast<const char*>(data), size));
  const FrontendOutput out = compile_script(src);
  check_diagnostics(src, out.diagnostics);
  if (!out.ok()) return 0;  // rejected script: nothing to lower
  route_checked(out.checked.script, data, size);
  return 0;
}
