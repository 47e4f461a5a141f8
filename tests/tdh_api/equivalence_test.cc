// tests/tdh_api/equivalence_test.cc — one schema source, two filter paths: the same filters
// written as a .pfs script (checked with the manifest imported) and built with
// TdhCreatePayloadFilter / TdhAggregatePayloadFilters (decoded as EnableTraceEx2 does)
// produce identical EnableParams payloads, and route a generated event stream identically
// through the reference interpreter. Also: the checker's import diagnostics.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "compiler/check.h"
#include "compiler/frontend.h"
#include "compiler/interp.h"
#include "etw/payload_blob.h"
#include "grammar/parse.h"
#include "pfc/etw/tdh.h"
#include "runtime/encode.h"
#include "runtime/manifest.h"
#include "runtime/router.h"

namespace pfc {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

ManifestImport example_import() {
  ManifestImport im;
  im.path = "Example.man";
  im.pos = SourcePos{1, 1, 0};
  im.providers = *parse_manifest(read(PFC_EXAMPLE_MAN));
  return im;
}

constexpr const char* kSessions = R"(
session Script {
  enable Example-Provider level=verbose {
    payload Example_Event_1 all { Initiator is "User"; Level between 7,16 }
    payload Example_Event_2 any { Title contains "UNI";
                                  InstanceId is {0E95CFBC-58D4-44BA-BE40-E63A853536DF};
                                  ErrorCode ne 0 }
    payload Example_Event_1 any { Level modulo "3"; Initiator doesntcontain "min" } group=all
  }
}
)";

// The same three filters through the TDH API, decoded and resolved like EnableTraceEx2.
std::vector<PayloadFilter> tdh_filters(const ProviderDef& provider) {
  const GUID g = {0x37a59b93, 0xbb25, 0x4cee, {0x97, 0xaa, 0x8b, 0x6a, 0xcd, 0x0c, 0x4d, 0xf8}};
  std::u16string path(PFC_EXAMPLE_MAN, PFC_EXAMPLE_MAN + std::strlen(PFC_EXAMPLE_MAN));
  EXPECT_EQ(TdhLoadManifest(path.data()), ERROR_SUCCESS);
  EVENT_DESCRIPTOR e1{}, e2{};
  e1.Id = 1;
  e2.Id = 2;
  PAYLOAD_FILTER_PREDICATE p1[] = {{(LPWSTR)u"Initiator", PAYLOADFIELD_IS, (LPWSTR)u"User"},
                                   {(LPWSTR)u"Level", PAYLOADFIELD_BETWEEN, (LPWSTR)u"7,16"}};
  PAYLOAD_FILTER_PREDICATE p2[] = {
      {(LPWSTR)u"Title", PAYLOADFIELD_CONTAINS, (LPWSTR)u"UNI"},
      {(LPWSTR)u"InstanceId", PAYLOADFIELD_IS, (LPWSTR)u" {0E95CFBC-58D4-44BA-BE40-E63A853536DF}"},
      {(LPWSTR)u"ErrorCode", PAYLOADFIELD_NE, (LPWSTR)u"0"}};
  PAYLOAD_FILTER_PREDICATE p3[] = {
      {(LPWSTR)u"Level", PAYLOADFIELD_MODULO, (LPWSTR)u"3"},
      {(LPWSTR)u"Initiator", PAYLOADFIELD_DOESNTCONTAIN, (LPWSTR)u"min"}};
  PVOID f[3] = {};
  EXPECT_EQ(TdhCreatePayloadFilter(&g, &e1, FALSE, 2, p1, &f[0]), ERROR_SUCCESS);
  EXPECT_EQ(TdhCreatePayloadFilter(&g, &e2, TRUE, 3, p2, &f[1]), ERROR_SUCCESS);
  EXPECT_EQ(TdhCreatePayloadFilter(&g, &e1, TRUE, 2, p3, &f[2]), ERROR_SUCCESS);
  BOOLEAN all[3] = {FALSE, FALSE, TRUE};
  EVENT_FILTER_DESCRIPTOR desc{};
  EXPECT_EQ(TdhAggregatePayloadFilters(3, f, all, &desc), ERROR_SUCCESS);
  auto blob = etw::decode_blob(reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(desc.Ptr)),
                               desc.Size);
  EXPECT_TRUE(blob);
  auto filters = etw::resolve_blob(*blob, &provider);
  EXPECT_TRUE(filters);
  EXPECT_EQ(TdhCleanupPayloadEventFilterDescriptor(&desc), ERROR_SUCCESS);
  for (PVOID& p : f) EXPECT_EQ(TdhDeletePayloadFilter(&p), ERROR_SUCCESS);
  EXPECT_EQ(TdhUnloadManifest(path.data()), ERROR_SUCCESS);
  return filters.value_or(std::vector<PayloadFilter>{});
}

void expect_same(const PayloadFilter& a, const PayloadFilter& b) {
  EXPECT_EQ(a.event_id, b.event_id);
  EXPECT_EQ(a.event_version, b.event_version);
  EXPECT_EQ(a.group_all, b.group_all);
  ASSERT_EQ(a.expr.preds.size(), b.expr.preds.size());
  for (size_t i = 0; i < a.expr.preds.size(); ++i) {
    const PayloadPredicate& x = a.expr.preds[i];
    const PayloadPredicate& y = b.expr.preds[i];
    EXPECT_EQ(x.field, y.field);
    EXPECT_EQ(x.op, y.op);
    EXPECT_EQ(x.value.lo, y.value.lo);
    EXPECT_EQ(x.value.hi, y.value.hi);
    EXPECT_EQ(x.value.text, y.value.text);
    EXPECT_EQ(x.value.guid, y.value.guid);
  }
  ASSERT_EQ(a.expr.nodes.size(), b.expr.nodes.size());
  for (size_t i = 0; i < a.expr.nodes.size(); ++i) {
    EXPECT_EQ(a.expr.nodes[i].kind, b.expr.nodes[i].kind);
    EXPECT_EQ(a.expr.nodes[i].index, b.expr.nodes[i].index);
    EXPECT_EQ(a.expr.nodes[i].count, b.expr.nodes[i].count);
  }
  EXPECT_EQ(a.expr.kids, b.expr.kids);
}

// A random event of the example provider, fields drawn from small pools so that every
// predicate is sometimes true and sometimes false.
Event random_event(const ProviderDef& p, std::mt19937& rng) {
  static const char* kInitiators[] = {"User", "user", "USER", "Admin", "", "Users"};
  static const char* kTitles[] = {"UNIX", "a unit", "Title", "", "u-n-i"};
  const Guid target = *Guid::parse("{0E95CFBC-58D4-44BA-BE40-E63A853536DF}");
  const EventDef& ev = p.events[rng() % p.events.size()];
  std::vector<std::pair<std::string, FieldValue>> v;
  if (ev.desc.id == 1) {
    v.emplace_back("Initiator", FieldValue::of_string(kInitiators[rng() % 6]));
    v.emplace_back("Level", FieldValue::of_uint(rng() % 21));
  } else if (ev.desc.id == 2) {
    Guid g = target;
    if (rng() % 2) g.data1 = static_cast<uint32_t>(rng());
    v.emplace_back("Title", FieldValue::of_string(kTitles[rng() % 5]));
    v.emplace_back("InstanceId", FieldValue::of_guid(g));
    v.emplace_back("ErrorCode", FieldValue::of_uint(rng() % 3 == 0 ? 0 : rng() % 5));
  }
  Event e;
  e.desc = ev.desc;
  e.payload = *encode_payload(ev, v);
  if (rng() % 10 == 0 && !e.payload.empty())
    e.payload.resize(rng() % e.payload.size());  // truncated
  return e;
}

TEST(Equivalence, ScriptAndTdhRouteIdentically) {
  ParseOutput parsed = parse_script(SourceFile("equiv.pfs", kSessions));
  ASSERT_TRUE(parsed.ok());
  const ManifestImport im = example_import();
  CheckOutput checked = check_script(parsed.script, {im});
  ASSERT_TRUE(checked.ok()) << (checked.diagnostics.empty() ? "" : checked.diagnostics[0].message);
  const ProviderDef& provider = checked.script.schema.providers.at(0);
  const EnableParams& script = *checked.script.sessions.at(0).enables.at(0).params;
  const std::vector<PayloadFilter> tdh = tdh_filters(provider);
  ASSERT_EQ(script.payload.size(), 3u);
  ASSERT_EQ(tdh.size(), 3u);
  for (size_t i = 0; i < 3; ++i) expect_same(script.payload[i], tdh[i]);

  auto router = Router::create(std::make_shared<InterpCompiler>());
  ASSERT_TRUE(router);
  auto handle = (*router)->register_provider(provider);
  ASSERT_TRUE(handle);
  const SessionId a = *(*router)->create_session("script", nullptr);
  const SessionId b = *(*router)->create_session("tdh", nullptr);
  EnableParams via_tdh = script;
  via_tdh.payload = tdh;
  ASSERT_TRUE((*router)->enable(a, provider.guid, script));
  ASSERT_TRUE((*router)->enable(b, provider.guid, via_tdh));
  std::mt19937 rng(20240611);
  int passed = 0, dropped = 0;
  for (int i = 0; i < 5000; ++i) {
    const Event e = random_event(provider, rng);
    const RouteResult r = (*router)->route(*handle, e.view());
    const bool in_a = (r.deliver >> a) & 1, in_b = (r.deliver >> b) & 1;
    ASSERT_EQ(in_a, in_b) << "event " << i << " id " << e.desc.id;
    (in_a ? passed : dropped) += e.desc.id != 3;
  }
  EXPECT_GT(passed, 100);
  EXPECT_GT(dropped, 100);
}

TEST(Import, CheckerDiagnosticsAtTheImport) {
  const std::string clash = R"(
provider Example-Provider { event X (id=1) { A: uint8; } }
provider Other {37a59b93-bb25-4cee-97aa-8b6acd0c4df8} { }
)";
  ParseOutput parsed = parse_script(SourceFile("c.pfs", clash));
  ASSERT_TRUE(parsed.ok());
  ManifestImport im = example_import();
  im.pos = SourcePos{7, 3, 99};
  CheckOutput out = check_script(parsed.script, {im});
  ASSERT_EQ(out.diagnostics.size(), 1u);
  EXPECT_EQ(out.diagnostics[0].pos.line, 7u);
  EXPECT_NE(out.diagnostics[0].message.find("clashes with provider 'Example-Provider' (same name)"),
            std::string::npos)
      << out.diagnostics[0].message;

  ManifestImport missing;
  missing.path = "nope.man";
  missing.pos = SourcePos{2, 1, 5};
  missing.error = "cannot read /x/nope.man";
  ParseOutput empty = parse_script(SourceFile("e.pfs", "session S { enable Example-Provider; }"));
  ASSERT_TRUE(empty.ok());
  out = check_script(empty.script, {missing});
  ASSERT_GE(out.diagnostics.size(), 2u);  // the import, then the unknown provider
  EXPECT_EQ(out.diagnostics[0].pos.line, 1u);
  EXPECT_EQ(out.diagnostics[1].pos.line, 2u);
  EXPECT_EQ(out.diagnostics[1].message,
            "cannot import manifest 'nope.man': cannot read /x/nope.man");
}

// The `import` statement end to end. Needs the grammar rule for `import "…";` (added
// with the grammar); until then the parser rejects the statement and the test is skipped.
TEST(Import, FrontendLoadsRelativeToTheScript) {
  const std::string dir =
      std::string(PFC_EXAMPLE_MAN).substr(0, std::string(PFC_EXAMPLE_MAN).rfind('/'));
  const std::string text = std::string("import \"Example.man\";\n") + kSessions;
  if (!parse_script(SourceFile(dir + "/x.pfs", text)).ok()) GTEST_SKIP() << "no import rule yet";
  FrontendOutput out = compile_script(SourceFile(dir + "/x.pfs", text));
  ASSERT_TRUE(out.ok()) << out.diagnostics[0].message;
  EXPECT_EQ(out.checked.script.schema.providers.at(0).name, "Example-Provider");
  EXPECT_EQ(out.checked.script.sessions.at(0).enables.at(0).params->payload.size(), 3u);

  const std::string bad = "\nimport \"missing.man\";\n";
  out = compile_script(SourceFile(dir + "/y.pfs", bad));
  ASSERT_EQ(out.diagnostics.size(), 1u);
  EXPECT_EQ(out.diagnostics[0].pos.line, 2u);
  EXPECT_NE(out.diagnostics[0].message.find("cannot import manifest 'missing.man'"),
            std::string::npos);
}

}  // namespace
}  // namespace pfc
