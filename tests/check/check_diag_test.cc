// tests/check/check_diag_test.cc — one table row per checker diagnostic: a script and the
// exact "LINE:COL: severity: message" lines it must produce (all of them, sorted).
#include <gtest/gtest.h>

#include <string>

#include "tests/check/test_util.h"

namespace pfc::test {
namespace {

// Lines 1-4 of the session rows; sessions start on line 5.
constexpr std::string_view kPrelude =
    "provider Prov {37a59b93-bb25-4cee-97aa-8b6acd0c4df8} {\n"
    "  event Ev1 (id=1, level=1) { Initiator: wstring; Level: uint32; Small: int8; Flag: bool; }\n"
    "  event Ev2 (id=2, version=1) { Title: string; Id: guid; Ratio: double; Arr: uint16[4]; }\n"
    "}\n";

struct Row {
  std::string_view name;
  std::string script;
  std::string_view want;
};

std::string with_prelude(std::string_view rest) {
  return std::string(kPrelude) + std::string(rest);
}

void run_rows(const std::vector<Row>& rows) {
  for (const Row& r : rows) {
    SCOPED_TRACE(r.name);
    const FrontendOutput out = compile_text(r.script);
    EXPECT_EQ(render_diagnostics(out), r.want) << r.script;
  }
}

TEST(CheckDiagnostics, Providers) {
  run_rows({
      {"duplicate provider", "provider P {}\nprovider P {}\n",
       "2:10: error: duplicate provider 'P' (first declared on line 1)"},
      {"duplicate GUID",
       "provider A {37a59b93-bb25-4cee-97aa-8b6acd0c4df8} {}\n"
       "provider B {37A59B93-BB25-4CEE-97AA-8B6ACD0C4DF8} {}\n",
       "2:12: error: provider 'B' has the same GUID {37A59B93-BB25-4CEE-97AA-8B6ACD0C4DF8} as "
       "provider 'A'"},
      {"derived GUIDs collide (names differ only in case)", "provider Foo {}\nprovider FOO {}\n",
       "2:10: error: provider 'FOO' has the same GUID " +
           Guid::from_provider_name("Foo").to_string() + " as provider 'Foo'"},
      {"legacy is fine", "provider L legacy { event E (id=1) { A: uint32; } }\n", ""},
  });
}

TEST(CheckDiagnostics, Events) {
  run_rows({
      {"duplicate event", "provider P {\n  event E (id=1) {}\n  event E (id=2) {}\n}\n",
       "3:9: error: duplicate event 'E' in provider 'P'"},
      {"duplicate id and version",
       "provider P {\n  event A (id=1, version=2) {}\n  event B (version=2, id=1) {}\n}\n",
       "3:9: error: event 'B' has the same id 1 and version 2 as event 'A'"},
      {"defaults collide", "provider P { event A (level=1) {} event B (level=3) {} }\n",
       "1:41: error: event 'B' has the same id 0 and version 0 as event 'A'"},
      {"attribute ranges",
       "provider P { event A (id=65536, version=256, level=-1, opcode=300, task=70000,\n"
       "  channel=256, keyword=-5) {} }\n",
       "1:26: error: 'id' value 65536 is out of range (0..65535)\n"
       "1:41: error: 'version' value 256 is out of range (0..255)\n"
       "1:52: error: 'level' value -1 is out of range (0..255)\n"
       "1:63: error: 'opcode' value 300 is out of range (0..255)\n"
       "1:73: error: 'task' value 70000 is out of range (0..65535)\n"
       "2:11: error: 'channel' value 256 is out of range (0..255)\n"
       "2:24: error: 'keyword' value -5 is out of range (0..18446744073709551615)"},
      {"attribute maxima ok",
       "provider P { event A (id=65535, version=255, level=255, opcode=255, task=65535,\n"
       "  channel=255, keyword=0xFFFFFFFFFFFFFFFF) {} }\n",
       ""},
      {"duplicate attribute", "provider P { event A (id=1, level=2, id=3) {} }\n",
       "1:38: error: duplicate attribute 'id'"},
  });
}

TEST(CheckDiagnostics, Fields) {
  run_rows({
      {"duplicate field", "provider P { event A (id=1) { X: uint8; X: uint16; } }\n",
       "1:41: error: duplicate field 'X' in event 'A' (first declared on line 1)"},
      {"unknown type with suggestion", "provider P { event A (id=1) { X: uint23; } }\n",
       "1:34: error: unknown type 'uint23'; did you mean 'uint32'?"},
      {"unknown type without suggestion", "provider P { event A (id=1) { X: banana; } }\n",
       "1:34: error: unknown type 'banana'"},
      {"type names are case-insensitive",
       "provider P { event A (id=1) { X: UInt32; Y: WString; } }\n", ""},
      {"count from unknown field",
       "provider P { event A (id=1) { Count: uint16; V: uint32[Cuont]; } }\n",
       "1:56: error: unknown field 'Cuont' in event 'A'; did you mean 'Count'?"},
      {"count from a later field", "provider P { event A (id=1) { V: uint32[N]; N: uint16; } }\n",
       "1:41: error: count field 'N' must be declared before field 'V'"},
      {"count from itself", "provider P { event A (id=1) { N: uint32[N]; } }\n",
       "1:41: error: count field 'N' must be declared before field 'N'"},
      {"count from a bool", "provider P { event A (id=1) { B: bool; V: uint32[B]; } }\n",
       "1:50: error: count field 'B' must have an integer type (int8..uint64), not 'bool'"},
      {"length from a hexint32",
       "provider P { event A (id=1) { H: hexint32; S: wstring length=H; } }\n",
       "1:62: error: length field 'H' must have an integer type (int8..uint64), not 'hexint32'"},
      {"count from an array", "provider P { event A (id=1) { N: uint8[2]; V: uint32[N]; } }\n",
       "1:54: error: count field 'N' must not be an array"},
      {"count from a field with an unknown type: one error",
       "provider P { event A (id=1) { N: nope; V: uint32[N]; } }\n",
       "1:34: error: unknown type 'nope'"},
      {"fixed count out of range",
       "provider P { event A (id=1) { V: uint32[4294967296]; W: uint8[-1]; } }\n",
       "1:41: error: count value 4294967296 is out of range (0..4294967295)\n"
       "1:63: error: count value -1 is out of range (0..4294967295)"},
      {"length on a non-string", "provider P { event A (id=1) { V: uint32 length=4; } }\n",
       "1:48: error: 'length' applies only to string, wstring and binary fields, not 'uint32'"},
      {"binary needs a length", "provider P { event A (id=1) { B: binary; } }\n",
       "1:31: error: binary field 'B' needs a length"},
      {"good extents",
       "provider P { event A (id=1) { N: uint16; L: int8; V: uint32[N]; S: string length=L;\n"
       "  W: wstring[2] length=3; B: binary length=N; E: uint8[0]; Z: binary length=0; } }\n",
       ""},
  });
}

TEST(CheckDiagnostics, Sessions) {
  std::string many;
  // Sessions that enable something: an empty one gets a warning (check_dead_test.cc).
  for (int i = 0; i < 66; ++i) many += "session S" + std::to_string(i) + " { enable Prov; }\n";
  run_rows({
      {"duplicate session", with_prelude("session S {}\nsession S {}\n"),
       "6:9: error: duplicate session 'S' (first declared on line 5)"},
      {"64 sessions are fine", with_prelude(many.substr(0, many.find("session S64"))), ""},
      {"65th session", with_prelude(many),
       "69:9: error: too many sessions: at most 64 are supported"},
      {"unknown provider with suggestion", with_prelude("session S { enable Porv; }\n"),
       "5:20: error: unknown provider 'Porv'; did you mean 'Prov'?"},
      {"unknown provider", with_prelude("session S { enable Nothing; }\n"),
       "5:20: error: unknown provider 'Nothing'"},
      {"provider enabled twice",
       with_prelude("session S {\n  enable Prov;\n  enable Prov level=2;\n}\n"),
       "7:10: error: provider 'Prov' is enabled twice in session 'S' (first on line 6)"},
  });
}

TEST(CheckDiagnostics, Options) {
  run_rows({
      {"duplicate option", with_prelude("session S { enable Prov level=1 level=2; }\n"),
       "5:33: error: duplicate option 'level'"},
      {"level range", with_prelude("session S { enable Prov level=256; }\n"),
       "5:31: error: 'level' value 256 is out of range (0..255)"},
      {"negative keywords", with_prelude("session S { enable Prov any=-1 all=-2; }\n"),
       "5:29: error: 'any' value -1 is out of range (0..18446744073709551615)\n"
       "5:36: error: 'all' value -2 is out of range (0..18446744073709551615)"},
      {"unknown property",
       with_prelude("session S { enable Prov properties=(stack_trce, bogus_property); }\n"),
       "5:37: error: unknown property 'stack_trce'; did you mean 'stack_trace'?\n"
       "5:49: error: unknown property 'bogus_property'"},
      {"duplicate property", with_prelude("session S { enable Prov properties=(sid, SID); }\n"),
       "5:42: error: duplicate property 'sid'"},
      {"all without any", with_prelude("session S { enable Prov all=4; }\n"),
       "5:25: warning: 'all' has no effect without 'any' (MatchAllKeyword is ignored when "
       "MatchAnyKeyword is 0)"},
      {"all with any", with_prelude("session S { enable Prov any=1 all=4; }\n"), ""},
  });
}

TEST(CheckDiagnostics, LegacyProviders) {
  const std::string legacy = "provider L legacy {}\n";
  run_rows({
      {"legacy filters", legacy + "session S { enable L { pid 1; exe \"a.exe\"; } }\n",
       "2:24: error: legacy provider 'L' takes no filters\n"
       "2:31: error: legacy provider 'L' takes no filters"},
      {"legacy options",
       legacy + "session S { enable L any=0x100000000 all=1 properties=(sid); }\n",
       "2:22: warning: legacy provider 'L' sees only the low 32 bits of 'any'\n"
       "2:38: warning: 'all' has no effect on legacy provider 'L'\n"
       "2:44: warning: properties have no effect on legacy provider 'L'"},
      {"last enabler wins",
       legacy + "session A { enable L; }\nsession B { enable L; }\nsession C { enable L; }\n",
       "2:13: warning: legacy provider 'L' is also enabled by session 'C' (line 4); the last "
       "enabler wins, so session 'A' gets none of its events\n"
       "3:13: warning: legacy provider 'L' is also enabled by session 'C' (line 4); the last "
       "enabler wins, so session 'B' gets none of its events"},
  });
}

// docs/language.md §3 "TraceLogging providers".
TEST(CheckDiagnostics, TraceLoggingProviders) {
  const std::string tl =
      "provider T tracelogging {\n"
      "  event E (id=2, version=1, level=4) { A: uint32; B: binary length=4; C: uint16[2]; "
      "D: pointer; S: sid; }\n"
      "  event F (id=0) { N: wstring; }\n"
      "}\n";
  run_rows({
      {"event and field rules", tl,
       "2:12: error: a TraceLogging event has id 0: its events are told apart by name\n"
       "2:18: error: a TraceLogging event has version 0: its events are told apart by name\n"
       "2:68: error: field 'B' of TraceLogging event 'E' must be a scalar: arrays and lengths "
       "come from the event's metadata\n"
       "2:81: error: field 'C' of TraceLogging event 'E' must be a scalar: arrays and lengths "
       "come from the event's metadata\n"
       "2:88: error: type 'pointer' cannot be a field of TraceLogging event 'E' (TraceLogging "
       "writes pointers as hexint64)\n"
       "2:100: error: type 'sid' cannot be a field of TraceLogging event 'E'"},
      {"payload by id",
       "provider T tracelogging { event F (level=4) { N: wstring; } }\n"
       "session S { enable T { payload id=0 all { N is \"a\" } } }\n",
       "2:32: error: events of TraceLogging provider 'T' are told apart by name, not by id: "
       "write 'payload EVENT'"},
      {"same id twice is fine, names are not",
       "provider T tracelogging { event F (level=4) { } event G (level=4) { } "
       "event F (level=2) { } }\n",
       "1:77: error: duplicate event 'F' in provider 'T'"},
  });
}

// docs/language.md §3 "TraceLogging providers": structures and their members' paths.
TEST(CheckDiagnostics, TraceLoggingStructures) {
  const std::string tl =
      "provider T tracelogging { event M (level=4) { Id: uint32; "
      "P: struct { X: int32; In: struct { Z: uint8; } } } }\n";
  run_rows({
      {"members by path",
       tl + "session S { enable T { payload M where P.X gt 1 and P.In.Z eq 2 "
            "and P.X gt Id; } }\n",
       ""},
      {"a structure as a value",
       tl + "session S { enable T { payload M where P eq 1 or P.In lt 2; } }\n",
       "2:40: error: structure 'P' of event 'M' has no value to compare; compare one of its "
       "members ('P.X', 'P.In')\n"
       "2:50: error: structure 'P.In' of event 'M' has no value to compare; compare one of its "
       "members ('P.In.Z')"},
      {"unknown members",
       tl + "session S { enable T { payload M all { P.Y eq 1; P.In.Zz eq 1 } } }\n",
       "2:42: error: structure 'P' of event 'M' has no member 'Y'; did you mean 'X'?\n"
       "2:55: error: structure 'P.In' of event 'M' has no member 'Zz'; did you mean 'Z'?"},
      {"member of a scalar",
       tl + "session S { enable T { payload M where Id.X eq 1 or P.X.Y eq 2; } }\n",
       "2:43: error: field 'Id' of event 'M' has type 'uint32', not a structure: it has no "
       "member 'X'\n"
       "2:57: error: field 'P.X' of event 'M' has type 'int32', not a structure: it has no "
       "member 'Y'"},
      {"a quoted path: the error is at the member inside the quotes",
       tl + "session S { enable T { payload M where \"P.Q\" eq 1; } }\n",
       "2:43: error: structure 'P' of event 'M' has no member 'Q'; did you mean 'X'?"},
      {"a member compared with a structure",
       tl + "session S { enable T { payload M where P.X gt P; } }\n",
       "2:47: error: structure 'P' of event 'M' has no value to compare; compare one of its "
       "members ('P.X', 'P.In')"},
      {"declaration rules",
       "provider T tracelogging { event M (level=4) { P: struct { X: int32; } P: struct { Y: "
       "int8; } Q: struct {} \"P.X\": uint8; R: struct { B: binary; } } }\n",
       "1:71: error: duplicate field 'P' in event 'M' (first declared on line 1)\n"
       "1:94: error: structure 'Q' in event 'M' declares no members\n"
       "1:107: error: duplicate field 'P.X' in event 'M' (first declared on line 1)\n"
       "1:133: error: binary field 'R.B' needs a length\n"
       "1:136: error: type 'binary' cannot be a field of TraceLogging event 'M'"},
      {"structures only in TraceLogging events",
       "provider W { event E (id=1) { A: uint8; P: struct { X: int32; } } }\n",
       "1:44: error: structure 'P' in event 'E': only TraceLogging events declare structures"},
  });
  std::string deep = "provider T tracelogging { event M (level=4) { ";
  for (int i = 0; i < 33; ++i) deep += "S" + std::to_string(i) + ": struct { ";
  deep += "X: int8; ";
  for (int i = 0; i < 33; ++i) deep += "} ";
  deep += "} }\n";
  const FrontendOutput out = compile_text(deep);
  // The 33rd structure inside another one (at column 490) is one too many.
  EXPECT_NE(render_diagnostics(out).find("1:490: error: structure 'S0.S1."), std::string::npos)
      << render_diagnostics(out);
  EXPECT_NE(render_diagnostics(out).find("' nests deeper than the 32 levels TraceLogging metadata "
                                         "allows"),
            std::string::npos);
  EXPECT_EQ(out.diagnostics.size(), 1u);
  // Far deeper: parsed without recursion, reported once, no path built past the limit.
  std::string deeper = "provider T tracelogging { event M (level=4) { ";
  for (int i = 0; i < 100000; ++i) deeper += "S: struct { ";
  deeper += "X: int8; " + std::string(100000, '}') + " } }\n";
  const FrontendOutput far = compile_text(deeper);
  ASSERT_EQ(far.diagnostics.size(), 1u) << render_diagnostics(far);
  EXPECT_NE(far.diagnostics[0].message.find("nests deeper than the 32 levels"), std::string::npos);
}

TEST(CheckDiagnostics, ScopeAndIdFilters) {
  run_rows({
      {"duplicate filter kinds",
       with_prelude("session S { enable Prov {\n  pid 1;\n  exe \"a\";\n  pid 2;\n  exe \"b\";\n"
                    "  event_id in 1;\n  event_id not in 2;\n} }\n"),
       "8:3: error: duplicate 'pid' filter (first on line 6)\n"
       "9:3: error: duplicate 'exe' filter (first on line 7)\n"
       "11:3: error: duplicate 'event_id' filter (first on line 10)"},
      {"pid range", with_prelude("session S { enable Prov { pid 1, -1, 4294967296; } }\n"),
       "5:34: error: pid value -1 is out of range (0..4294967295)\n"
       "5:38: error: pid value 4294967296 is out of range (0..4294967295)"},
      {"empty names",
       with_prelude("session S { enable Prov { exe \"a.exe;;b.exe\";\n"
                    "  package_id \"\"; app_id \"x;\"; } }\n"),
       "5:31: error: empty name in 'exe' list\n"
       "6:14: error: empty name in 'package_id' list\n"
       "6:25: error: empty name in 'app_id' list"},
      {"exe with a path",
       with_prelude(
           "session S { enable Prov { exe \"cmd.exe;C:\\\\Windows\\\\notepad.exe\"; } }\n"),
       "5:31: error: executable names are file names without a path: 'C:\\Windows\\notepad.exe'"},
      {"exe with a slash", with_prelude("session S { enable Prov { exe \"/usr/bin/ls\"; } }\n"),
       "5:31: error: executable names are file names without a path: '/usr/bin/ls'"},
      {"NUL in a name", with_prelude("session S { enable Prov { app_id \"a\\x00b\"; } }\n"),
       "5:34: error: names in 'app_id' list cannot contain NUL characters"},
      {"event id range", with_prelude("session S { enable Prov { event_id in 1, 65536, -3; } }\n"),
       "5:42: error: event id value 65536 is out of range (0..65535)\n"
       "5:49: error: event id value -3 is out of range (0..65535)"},
      {"stack_id without stack_trace",
       with_prelude("session S { enable Prov { stack_id in 1; } }\n"),
       "5:27: warning: 'stack_id' has no effect without properties=(stack_trace)"},
      {"stack_id with stack_trace",
       with_prelude("session S { enable Prov properties=(stack_trace) { stack_id not in 1; } }\n"),
       ""},
  });
}

TEST(CheckDiagnostics, PayloadEvents) {
  run_rows({
      {"unknown event",
       with_prelude("session S { enable Prov { payload Evl all { Level eq 1 } } }\n"),
       "5:35: error: unknown event 'Evl' in provider 'Prov'; did you mean 'Ev1'?"},
      {"unknown id",
       with_prelude("session S { enable Prov { payload id=3 all { Level eq 1 } } }\n"),
       "5:35: error: provider 'Prov' has no event with id 3 and version 0"},
      {"wrong version",
       with_prelude("session S { enable Prov { payload id=2 all { Title is \"x\" } } }\n"),
       "5:35: error: provider 'Prov' has no event with id 2 and version 0; event 'Ev2' has id 2 "
       "and version 1"},
      {"id out of range",
       with_prelude(
           "session S { enable Prov { payload id=65536 version=256 all { Level eq 1 } } }\n"),
       "5:38: error: event id value 65536 is out of range (0..65535)\n"
       "5:52: error: event version value 256 is out of range (0..255)"},
  });
}

TEST(CheckDiagnostics, PayloadPredicates) {
  auto pay = [](std::string_view ev, std::string_view preds) {
    return with_prelude("session S { enable Prov {\n  payload " + std::string(ev) + " all { " +
                        std::string(preds) + " }\n} }\n");
  };
  // Predicates start at 6:21 (`  payload Ev1 all { ` is 20 columns).
  run_rows({
      {"unknown field", pay("Ev1", "Levle eq 1"),
       "6:21: error: unknown field 'Levle' in event 'Ev1'; did you mean 'Level'?"},
      {"array field", pay("Ev2", "Arr eq 1"),
       "6:21: error: field 'Arr' is an array; payload predicates need a scalar field"},
      {"string op on an integer", pay("Ev1", "Level contains \"x\""),
       "6:27: error: operator 'contains' cannot be applied to field 'Level' of type 'uint32'"},
      {"integer op on a string", pay("Ev2", "Title gt 3"),
       "6:27: error: operator 'gt' cannot be applied to field 'Title' of type 'string'"},
      {"eq on a guid", pay("Ev2", "Id eq 3"),
       "6:24: error: operator 'eq' cannot be applied to field 'Id' of type 'guid'; use 'is'"},
      {"double", pay("Ev2", "Ratio is \"1.5\""),
       "6:27: error: operator 'is' cannot be applied to field 'Ratio' of type 'double'"},
      {"out of range", pay("Ev1", "Small eq 200"),
       "6:30: error: value 200 is out of range for field 'Small' of type 'int8' (-128..127)"},
      {"out of range in a string", pay("Ev1", "Flag eq \" 2\""),
       "6:29: error: value 2 is out of range for field 'Flag' of type 'bool' (0..1)"},
      {"empty between", pay("Ev1", "Level between 16,7"),
       "6:35: error: 'between' range is empty: 16 is greater than 7"},
      {"empty between in a string", pay("Ev1", "Small notbetween \"-1,-2\""),
       "6:38: error: 'notbetween' range is empty: -1 is greater than -2"},
      {"modulo zero", pay("Ev1", "Level modulo 0"), "6:34: error: 'modulo' by zero"},
      {"between without a pair", pay("Ev1", "Level between 7"),
       "6:35: error: operator 'between' needs two values 'lo,hi'"},
      {"pair without between", pay("Ev1", "Level ne 7,8"),
       "6:30: error: operator 'ne' takes one value, not a pair"},
      {"pair in a string without between", pay("Ev1", "Level ne \"7,8\""),
       "6:30: error: operator 'ne' takes one value, not a pair"},
      {"bad integer text", pay("Ev1", "Level eq \"seven\""),
       "6:30: error: invalid integer 'seven' for field 'Level' of type 'uint32'"},
      {"bad GUID text", pay("Ev2", "Id is \"{nope}\""),
       "6:27: error: invalid GUID '{nope}' for field 'Id' of type 'guid'; expected "
       "{xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}"},
      {"int for a string field", pay("Ev1", "Initiator is 5"),
       "6:34: error: field 'Initiator' of type 'wstring' needs a string value"},
      {"GUID for an integer field", pay("Ev1", "Level eq {37a59b93-bb25-4cee-97aa-8b6acd0c4df8}"),
       "6:30: error: field 'Level' of type 'uint32' needs an integer value"},
      {"where: every predicate checked",
       with_prelude("session S { enable Prov {\n  payload Ev1 where Levle eq 1 or not (Small eq "
                    "999);\n} }\n"),
       "6:21: error: unknown field 'Levle' in event 'Ev1'; did you mean 'Level'?\n"
       "6:49: error: value 999 is out of range for field 'Small' of type 'int8' (-128..127)"},
  });
}

TEST(CheckDiagnostics, EveryErrorIsReportedInOrder) {
  const std::string script =
      "provider P {\n"
      "  event A (id=1) { X: uint32; X: bogus; }\n"
      "}\n"
      "session S {\n"
      "  enable Q;\n"
      "  enable P level=999 { payload A all { X eq -1; Y eq 2 } }\n"
      "}\n"
      "session S {}\n";
  const FrontendOutput out = compile_text(script);
  EXPECT_EQ(render_diagnostics(out),
            "2:31: error: duplicate field 'X' in event 'A' (first declared on line 2)\n"
            "2:34: error: unknown type 'bogus'\n"
            "5:10: error: unknown provider 'Q'; did you mean 'P'?\n"
            "6:18: error: 'level' value 999 is out of range (0..255)\n"
            "6:45: error: value -1 is out of range for field 'X' of type 'uint32' (0..4294967295)\n"
            "6:49: error: unknown field 'Y' in event 'A'; did you mean 'X'?\n"
            "8:9: error: duplicate session 'S' (first declared on line 4)");
  EXPECT_FALSE(out.ok());
  EXPECT_FALSE(out.checked.ok());
}

TEST(CheckDiagnostics, WarningsAloneAreOk) {
  const FrontendOutput out =
      compile_text(with_prelude("session S { enable Prov all=1 { stack_id in 3; } }\n"));
  EXPECT_EQ(out.diagnostics.size(), 2u);
  EXPECT_TRUE(out.ok());
  EXPECT_TRUE(out.checked.ok());
}

TEST(CheckDiagnostics, ParseErrorsSkipTheChecker) {
  SourceFile source("bad.pfs", "provider P { event }");
  const FrontendOutput out = compile_script(source);
  EXPECT_FALSE(out.ok());
  ASSERT_EQ(out.diagnostics.size(), 1u);
  EXPECT_TRUE(out.checked.diagnostics.empty());
  EXPECT_TRUE(out.checked.script.schema.providers.empty());
}

}  // namespace
}  // namespace pfc::test
