// tests/tdh_api/manifest_test.cc — runtime/manifest.h: the example manifest's schema, the
// XML features the parser must handle (namespace prefixes, winmeta and custom names,
// counts/lengths by number or field name, UTF-16 input, embedded manifests), and a table
// of rejected manifests with the position and message of the error.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "runtime/manifest.h"

namespace pfc {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

constexpr const char* kHead =
    R"(<instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events" )"
    R"(xmlns:win="http://manifests.microsoft.com/win/2004/08/windows/events"><instrumentation><events>)";
constexpr const char* kTail = "</events></instrumentation></instrumentationManifest>";

std::string wrap(
    const std::string& provider_body,
    const std::string& attrs = R"(name="P" guid="{11111111-2222-3333-4444-555555555555}")") {
  return std::string(kHead) + "<provider " + attrs + ">" + provider_body + "</provider>" + kTail;
}

TEST(Manifest, ExampleSchema) {
  auto parsed = parse_manifest(read(PFC_EXAMPLE_MAN));
  ASSERT_TRUE(parsed) << parsed.error().to_string("Example.man");
  ASSERT_EQ(parsed->size(), 1u);
  const ProviderDef& p = (*parsed)[0];
  EXPECT_EQ(p.name, "Example-Provider");
  EXPECT_EQ(p.guid.to_string(), "{37A59B93-BB25-4CEE-97AA-8B6ACD0C4DF8}");
  ASSERT_EQ(p.events.size(), 4u);
  const EventDef& e1 = p.events[0];
  EXPECT_EQ(e1.name, "Example_Event_1");
  EXPECT_EQ(e1.desc, (EventDescriptor{1, 0, 16, 1, 1, 1, 0x1}));
  ASSERT_EQ(e1.fields.size(), 2u);
  EXPECT_EQ(e1.fields[0].name, "Initiator");
  EXPECT_EQ(e1.fields[0].type, InType::UnicodeString);
  EXPECT_EQ(e1.fields[1].type, InType::UInt32);
  const EventDef& e2 = p.events[1];
  EXPECT_EQ(e2.desc, (EventDescriptor{2, 0, 16, 1, 10, 2, 0x6}));  // task-scoped opcode
  ASSERT_EQ(e2.fields.size(), 3u);
  EXPECT_EQ(e2.fields[1].type, InType::Guid);
  const EventDef& e3 = p.events[2];
  EXPECT_EQ(e3.desc.level, 16);  // custom level
  EXPECT_TRUE(e3.fields.empty());
  EXPECT_EQ(p.events[3].desc, (EventDescriptor{4, 0, 0, 4, 0, 0, 0x1}));
}

TEST(Manifest, PrefixedNamespacesExtentsAndWinmeta) {
  const std::string xml =
      R"(<?xml version="1.0"?><m:instrumentationManifest xmlns:m="http://schemas.microsoft.com/win/2004/08/events" )"
      R"(xmlns:w="http://manifests.microsoft.com/win/2004/08/windows/events"><m:instrumentation><m:events>)"
      R"(<m:provider name="Q" guid="{11111111-2222-3333-4444-555555555555}"><m:events>)"
      R"(<m:event value="0x10" version="2" level="w:Verbose" opcode="w:Stop" keywords="w:AuditSuccess K" template="T"/>)"
      R"(</m:events><m:keywords><m:keyword name="K" mask="0x8"/></m:keywords>)"
      R"(<m:templates><m:template tid="T"><m:data name="N" inType="w:UInt16"/>)"
      R"(<m:data name="S" inType="w:AnsiString" length="N"/><m:data name="A" inType="w:Int32" count="3"/>)"
      R"(<m:data name="B" inType="w:Binary" length="4"/><m:data name="Ip" inType="w:Binary" outType="w:IPv6"/>)"
      R"(<m:data name="Arr" inType="w:UnicodeString" count="N"/>)"
      R"(<m:struct name="St"><m:data name="X" inType="w:UInt8"/></m:struct><m:data name="After" inType="w:UInt8"/>)"
      R"(</m:template></m:templates></m:provider></m:events></m:instrumentation></m:instrumentationManifest>)";
  auto parsed = parse_manifest(xml);
  ASSERT_TRUE(parsed) << parsed.error().to_string("x");
  const EventDef& e = (*parsed)[0].events[0];
  EXPECT_EQ(e.name, "event_16_v2");
  EXPECT_EQ(e.desc, (EventDescriptor{16, 2, 0, 5, 2, 0, 0x0020000000000008}));
  ASSERT_EQ(e.fields.size(), 6u);  // fields from the struct on cannot be located
  EXPECT_EQ(e.fields[1].length.kind, Extent::Kind::Field);
  EXPECT_EQ(e.fields[1].length.value, 0u);
  EXPECT_EQ(e.fields[2].count.kind, Extent::Kind::Fixed);
  EXPECT_EQ(e.fields[2].count.value, 3u);
  EXPECT_EQ(e.fields[4].length.value, 16u);  // IPv6 binary
  EXPECT_EQ(e.fields[5].count.kind, Extent::Kind::Field);
}

TEST(Manifest, Utf16WithBom) {
  const std::string utf8 = wrap(R"(<events><event value="1"/></events>)");
  std::string utf16 = "\xFF\xFE";
  for (char c : utf8) {
    utf16 += c;
    utf16 += '\0';
  }
  auto parsed = parse_manifest(utf16);
  ASSERT_TRUE(parsed) << parsed.error().to_string("x");
  EXPECT_EQ((*parsed)[0].events[0].name, "event_1");
}

TEST(Manifest, EmbeddedInBinary) {
  const std::string man =
      "<?xml version=\"1.0\"?>\n" + wrap(R"(<events><event value="7"/></events>)");
  const char prefix[] =
      "\x7f"
      "ELF\0\0junk instrumentationManifest <x";
  std::string bin(prefix, sizeof prefix - 1);
  bin += man;
  bin += std::string("\0\0tail", 6);
  auto found = find_embedded_manifest(bin);
  ASSERT_TRUE(found);
  EXPECT_EQ(*found, man);
  EXPECT_FALSE(find_embedded_manifest("no manifest here <instrumentationManifest>"));
}

struct BadCase {
  std::string xml;
  ManifestError::Kind kind;
  uint32_t line;
  std::string message;  // substring
};

TEST(Manifest, RejectedManifests) {
  using K = ManifestError::Kind;
  const std::string other_ns =
      R"(<instrumentationManifest xmlns="urn:other"><instrumentation/></instrumentationManifest>)";
  const std::vector<BadCase> cases = {
      {"<a><b></a>", K::Xml, 1, "XML error"},
      {"", K::Xml, 1, "XML error"},
      {other_ns, K::Content, 1, "root element is not an instrumentationManifest"},
      {std::string(kHead) + kTail, K::Content, 1, "declares no provider"},
      {wrap("", R"(name="P")"), K::Content, 1, "no valid guid"},
      {wrap("", R"(guid="{11111111-2222-3333-4444-555555555555}")"), K::Content, 1,
       "without a name"},
      {wrap(R"(<events><event value="70000"/></events>)"), K::Content, 1, "value in 0..65535"},
      {wrap(R"(<events><event value="1" level="win:Loud"/></events>)"), K::Content, 1,
       "unknown level 'win:Loud'"},
      {wrap(R"(<events><event value="1" level="x:Verbose"/></events>)"), K::Content, 1,
       "undeclared namespace prefix 'x'"},
      {wrap(R"(<events><event value="1" keywords="Nope"/></events>)"), K::Content, 1,
       "unknown keyword 'Nope'"},
      {wrap(R"(<events><event value="1" template="T"/></events>)"), K::Content, 1,
       "unknown template 'T'"},
      {wrap(R"(<events><event value="1" symbol="A"/><event value="1" symbol="B"/></events>)"),
       K::Content, 1, "same value 1"},
      {wrap(R"(<events><event value="1" symbol="A"/><event value="2" symbol="A"/></events>)"),
       K::Content, 1, "duplicate event 'A'"},
      {wrap("<templates><template tid=\"T\">\n<data name=\"X\" "
            "inType=\"win:Int128\"/></template></templates>"),
       K::Content, 2, "unknown inType 'win:Int128'"},
      {wrap(
           R"(<templates><template tid="T"><data name="X" inType="UInt8"/></template></templates>)"),
       K::Content, 1, "unknown inType 'UInt8'"},
      {wrap(
           R"(<templates><template tid="T"><data name="B" inType="win:Binary"/></template></templates>)"),
       K::Content, 1, "needs a length"},
      {wrap(
           R"(<templates><template tid="T"><data name="S" inType="win:UnicodeString" length="L"/></template></templates>)"),
       K::Content, 1, "names no earlier data element: 'L'"},
      {wrap(
           R"(<templates><template tid="T"><data name="G" inType="win:GUID"/><data name="S" inType="win:AnsiString" count="G"/></template></templates>)"),
       K::Content, 1, "not a scalar integer"},
      {wrap(
           R"(<templates><template tid="T"><data name="I" inType="win:UInt32" length="4"/></template></templates>)"),
       K::Content, 1, "length applies only"},
      {wrap(
           R"(<templates><template tid="T"><data name="I" inType="win:UInt32"/><data name="I" inType="win:UInt8"/></template></templates>)"),
       K::Content, 1, "duplicate data element 'I'"},
      {wrap(R"(<keywords><keyword name="K" mask="zz"/></keywords>)"), K::Content, 1, "mask 'zz'"},
  };
  for (const BadCase& c : cases) {
    auto parsed = parse_manifest(c.xml);
    ASSERT_FALSE(parsed) << c.xml;
    EXPECT_EQ(parsed.error().kind, c.kind) << c.xml;
    EXPECT_EQ(parsed.error().line, c.line) << c.xml << "\n" << parsed.error().message;
    EXPECT_NE(parsed.error().message.find(c.message), std::string::npos)
        << parsed.error().message << " (wanted: " << c.message << ")";
    EXPECT_EQ(parsed.error().message.find('\n'), std::string::npos);
  }
}

// Documented limits (docs/limits.md): no entity expansion (a DOCTYPE is refused, so the
// "billion laughs" cannot grow), the text size, attributes per element and the fields of
// all events together (templates are copied into every event that uses them).
TEST(Manifest, LimitsAreEnforcedWithoutExpanding) {
  using K = ManifestError::Kind;
  std::string laughs = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n";
  for (int i = 1; i <= 9; ++i) {
    laughs += "<!ENTITY lol" + std::to_string(i) + " \"";
    for (int k = 0; k < 10; ++k)
      laughs += "&lol" + (i == 1 ? std::string() : std::to_string(i - 1)) + ";";
    laughs += "\">\n";
  }
  laughs += "]>\n" + wrap(R"(<events><event value="1" symbol="&lol9;"/></events>)");
  auto parsed = parse_manifest(laughs);
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error().kind, K::Content);
  EXPECT_EQ(parsed.error().line, 2u);
  EXPECT_EQ(parsed.error().message,
            "DOCTYPE declarations are not supported (no entities are expanded)");
  // Without a DOCTYPE an undeclared entity reference stays as written (never expanded).
  auto literal = parse_manifest(wrap(R"(<events><event value="1" symbol="a&lol9;"/></events>)"));
  ASSERT_TRUE(literal) << literal.error().message;
  EXPECT_EQ((*literal)[0].events[0].name, "a&lol9;");

  parsed = parse_manifest(std::string(kMaxManifestBytes + 1, ' '));
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error().message,
            "the manifest is more than the limit of 64 MiB of manifest text");

  std::string attrs = R"(name="P" guid="{11111111-2222-3333-4444-555555555555}")";
  for (size_t i = 0; i < kMaxManifestAttributes; ++i) attrs += " a" + std::to_string(i) + "=\"\"";
  parsed = parse_manifest(wrap("", attrs));
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error().message, "element 'provider' has more than 64 attributes");

  // A 1,024-field template used by 1,025 events: 1,049,600 fields, over the limit.
  std::string fields;
  for (int i = 0; i < 1024; ++i)
    fields += R"(<data name="f)" + std::to_string(i) + R"(" inType="win:UInt8"/>)";
  std::string events;
  for (int i = 1; i <= 1025; ++i)
    events += R"(<event value=")" + std::to_string(i) + R"(" template="T"/>)";
  const std::string tpl = R"(<templates><template tid="T">)" + fields + "</template></templates>";
  parsed = parse_manifest(wrap(tpl + "<events>" + events + "</events>"));
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error().message,
            "the events have more than 1048576 fields together (each event counts its template's "
            "fields)");
  events.resize(events.rfind("<event"));  // 1,024 events: exactly at the limit
  parsed = parse_manifest(wrap(tpl + "<events>" + events + "</events>"));
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ((*parsed)[0].events.size(), 1024u);
}

// Duplicate checks and name lookups are hash-based: 100,000 providers, events and
// length-referencing data elements parse in about a second (the quadratic scans took
// minutes; ctest's 60 s timeout bounds it).
TEST(Manifest, ManyProvidersEventsAndFieldsParse) {
  std::string xml = kHead;
  constexpr int kN = 100000;
  for (int i = 0; i < kN; ++i) {
    char guid[64];
    std::snprintf(guid, sizeof guid, "{%08X-2222-3333-4444-555555555555}", i);
    xml += "<provider name=\"P" + std::to_string(i) + "\" guid=\"" + guid + "\"/>";
  }
  std::string tpl = R"(<templates><template tid="T">)";
  std::string events;
  for (int i = 0; i < kN; ++i) {
    const std::string n = std::to_string(i);
    tpl.append(R"(<data name="n)")
        .append(n)
        .append(R"(" inType="win:UInt16"/><data name="s)")
        .append(n)
        .append(R"(" inType="win:AnsiString" length="n)")
        .append(n)
        .append(R"("/>)");
    events.append(R"(<event value=")")
        .append(std::to_string(i % 65536))
        .append(R"(" version=")")
        .append(std::to_string(i / 65536))
        .append(R"(" symbol="E)")
        .append(n)
        .append(R"("/>)");
  }
  xml += R"(<provider name="Big" guid="{99999999-2222-3333-4444-555555555555}">)" + tpl +
         "</template></templates><events>" + events + "</events></provider>" + kTail;
  auto parsed = parse_manifest(xml);
  ASSERT_TRUE(parsed) << parsed.error().message;
  ASSERT_EQ(parsed->size(), size_t{kN} + 1);
  EXPECT_EQ(parsed->back().events.size(), size_t{kN});
}

}  // namespace
}  // namespace pfc
