// tests/grammar/dump_test.cc — table {script, expected AST dump} covering every production of
// docs/language.md §2–§3: each attribute, type, option, filter kind, operator (word and symbol),
// value form, payload form, and names spelled like keywords.
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "grammar/dump.h"
#include "tests/grammar/test_util.h"

namespace pfc::test {
namespace {

struct DumpCase {
  const char* script;
  const char* dump;
};

// Wraps predicates into a minimal session so the table rows stay short.
std::string where(const std::string& expr) {
  return "session s { enable p { payload E where " + expr + "; } }";
}
std::string where_dump(const std::string& tree) {
  return "(session s (enable p (payload E where " + tree + ")))\n";
}

const DumpCase kProviderCases[] = {
    {"", ""},
    {"  # only a comment\n\t\r\n", ""},
    {"provider P {}", "(provider P)\n"},
    {"import \"a.man\"; provider P {}", "(import \"a.man\")\n(provider P)\n"},
    {"IMPORT \"dir/b \\\"q\\\".man\";", "(import \"dir/b \\\"q\\\".man\")\n"},
    {"provider P{}#c", "(provider P)\n"},
    {"PROVIDER P { }", "(provider P)\n"},
    {"provider Example-Provider {37a59b93-bb25-4cee-97aa-8b6acd0c4df8} {}",
     "(provider Example-Provider {37A59B93-BB25-4CEE-97AA-8B6ACD0C4DF8})\n"},
    {"provider P legacy {}", "(provider P legacy)\n"},
    {"provider P {0E95CFBC-58D4-44BA-BE40-E63A853536DF} Legacy {}",
     "(provider P {0E95CFBC-58D4-44BA-BE40-E63A853536DF} legacy)\n"},
    {"provider \"My Provider\\t\\\"x\\\"\" {}", "(provider \"My Provider\\t\\\"x\\\"\")\n"},
    {"provider provider {}", "(provider provider)\n"},
    {"provider legacy legacy {}", "(provider legacy legacy)\n"},
    {"provider P TraceLogging { event E (level=4) { N: string; } }",
     "(provider P tracelogging (event E (level 4) (field N string)))\n"},
    {"provider tracelogging tracelogging {}", "(provider tracelogging tracelogging)\n"},
    {"provider P tracelogging { event E (level=4) { A: uint8; P: STRUCT { X: int32; "
     "Q: struct { Z: string; } } R: struct {} B: uint16; } }",
     "(provider P tracelogging (event E (level 4) (field A uint8) (struct P (field X int32) "
     "(struct Q (field Z string))) (struct R) (field B uint16)))\n"},
    {"provider P { event E (id=1) { struct: struct { struct: int8; } } }",
     "(provider P (event E (id 1) (struct struct (field struct int8))))\n"},
    {"provider a.b-c_1 {}", "(provider a.b-c_1)\n"},
    {"provider _x {event E (id=1) {}}", "(provider _x (event E (id 1)))\n"},
    {"provider P {event E (id=1,version=2,level=3,keyword=0x8000000000000000,opcode=10,"
     "task=11,channel=16) {}}",
     "(provider P (event E (id 1) (version 2) (level 3) (keyword 9223372036854775808) "
     "(opcode 10) (task 11) (channel 16)))\n"},
    {"provider P {event E (ID=1, Version=0X1f, LEVEL=verbose) {}}",
     "(provider P (event E (id 1) (version 31) (level 5)))\n"},
    {"provider P {event E (level=log_always) {} event F (level=critical) {}"
     " event G (level=ERROR) {} event H (level=Warning) {} event I (level=info) {}"
     " event J (level=verbose) {}}",
     "(provider P (event E (level 0)) (event F (level 1)) (event G (level 2)) (event H (level 3))"
     " (event I (level 4)) (event J (level 5)))\n"},
    {"provider P {event E (id=-1, task=18446744073709551615) {}}",
     "(provider P (event E (id -1) (task 18446744073709551615)))\n"},
    {"provider P {event E (id=verbose) {}}", "(provider P (event E (id 5)))\n"},
    {"provider P {event event (id=1) {}}", "(provider P (event event (id 1)))\n"},
    {"provider P {event \"two words\" (id=1) {}}", "(provider P (event \"two words\" (id 1)))\n"},
    {"provider P { event E (id=1) { a: int8; b: uint8; c: int16; d: uint16; e: int32; f: uint32;"
     " g: int64; h: uint64; i: float; j: double; k: bool; l: guid; m: pointer; n: filetime;"
     " o: systemtime; p: sid; q: hexint32; r: hexint64; s: wstring; t: string; u: binary; } }",
     "(provider P (event E (id 1) (field a int8) (field b uint8) (field c int16) (field d uint16)"
     " (field e int32) (field f uint32) (field g int64) (field h uint64) (field i float)"
     " (field j double) (field k bool) (field l guid) (field m pointer) (field n filetime)"
     " (field o systemtime) (field p sid) (field q hexint32) (field r hexint64) (field s wstring)"
     " (field t string) (field u binary)))\n"},
    {"provider P { event E (id=1) { x: UInt32; y: no_such_type; } }",
     "(provider P (event E (id 1) (field x UInt32) (field y no_such_type)))\n"},
    {"provider P { event E (id=1) { n: uint16; a: uint32[4]; b: uint32[n]; c: wstring length=8;"
     " d: binary length=n; e: string[2] length=0x10; f: binary[n] length=n; } }",
     "(provider P (event E (id 1) (field n uint16) (field a uint32 (count 4))"
     " (field b uint32 (count n)) (field c wstring (length 8)) (field d binary (length n))"
     " (field e string (count 2) (length 16)) (field f binary (count n) (length n))))\n"},
    {"provider P { event E (id=1) { Level: uint32; not: bool; and: int8; \"in\": guid;"
     " length: uint8; x: binary length=length; y: uint8[\"in\"]; } }",
     "(provider P (event E (id 1) (field Level uint32) (field not bool) (field and int8)"
     " (field in guid) (field length uint8) (field x binary (length length))"
     " (field y uint8 (count in))))\n"},
    {"provider P { event E (id=1) { \"a b\": uint8; \"\": uint8; \"1x\": uint8; } }",
     "(provider P (event E (id 1) (field \"a b\" uint8) (field \"\" uint8) (field \"1x\" "
     "uint8)))\n"},
    {"provider P { event E (id = 1) { a : uint8 [ 2 ] length = 3 ; } }",
     "(provider P (event E (id 1) (field a uint8 (count 2) (length 3))))\n"},
    {"provider A {} provider B {}", "(provider A)\n(provider B)\n"},
    {"provider P {\r\n  event E (id=1) {\r\n    a: uint8; # c\r\n  }\r\n}\r\n",
     "(provider P (event E (id 1) (field a uint8)))\n"},
};

const DumpCase kSessionCases[] = {
    {"session S {}", "(session S)\n"},
    {"SESSION \"my trace\" { }", "(session \"my trace\")\n"},
    {"session session { enable enable; }", "(session session (enable enable))\n"},
    {"session S { enable P; enable Q {} }", "(session S (enable P) (enable Q))\n"},
    {"session S { enable P level=5 any=0xff all=0x0; }",
     "(session S (enable P (level 5) (any 255) (all 0)))\n"},
    {"session S { enable P LEVEL=Verbose; enable Q level=log_always; }",
     "(session S (enable P (level 5)) (enable Q (level 0)))\n"},
    {"session S { enable P any=18446744073709551615 all=-1; }",
     "(session S (enable P (any 18446744073709551615) (all -1)))\n"},
    {"session S { enable P properties=(ignore_keyword_0, stack_trace, sid, ts_id,"
     " process_start_key, event_key); }",
     "(session S (enable P (properties ignore_keyword_0 stack_trace sid ts_id process_start_key"
     " event_key)))\n"},
    {"session S { enable P properties=(stack_trace) level=1; }",
     "(session S (enable P (properties stack_trace) (level 1)))\n"},
    {"session S { enable P properties = ( \"odd one\" , bogus ) ; }",
     "(session S (enable P (properties \"odd one\" bogus)))\n"},
    {"session S { enable P { pid 42; } }", "(session S (enable P (pid 42)))\n"},
    {"session S { enable P { pid 1, 2 ,0x10; } }", "(session S (enable P (pid 1 2 16)))\n"},
    {"session S { enable P { exe \"a.exe;b.exe\"; } }",
     "(session S (enable P (exe \"a.exe;b.exe\")))\n"},
    {"session S { enable P { package_id \"Pkg\\u{e9}\"; app_id \"App\\\\1\"; } }",
     "(session S (enable P (package_id \"Pkg\xc3\xa9\") (app_id \"App\\\\1\")))\n"},
    {"session S { enable P { event_id in 1, 2, 3; stack_id not in 4; } }",
     "(session S (enable P (event_id in 1 2 3) (stack_id not in 4)))\n"},
    {"session S { enable P { EVENT_ID NOT IN 7; STACK_ID In 8, 9; } }",
     "(session S (enable P (event_id not in 7) (stack_id in 8 9)))\n"},
    {"session S { enable P { payload E all { a eq 1 } } }",
     "(session S (enable P (payload E all (and (eq a 1)))))\n"},
    {"session S { enable P { payload E any { a eq 1; } } }",
     "(session S (enable P (payload E any (or (eq a 1)))))\n"},
    {"session S { enable P { payload E all { a eq 1; b eq 2; c eq 3 }; } }",
     "(session S (enable P (payload E all (and (eq a 1) (eq b 2) (eq c 3)))))\n"},
    {"session S { enable P { payload E any { a eq 1 } group=all; payload E all { a eq 1 }"
     " GROUP = ANY } }",
     "(session S (enable P (payload E any (or (eq a 1)) (group all))"
     " (payload E all (and (eq a 1)) (group any))))\n"},
    {"session S { enable P { payload id=3 all { a eq 1 } payload id=4 version=1 any { a eq 1 }"
     " payload ID = 0x5 Version = 2 where a eq 1; } }",
     "(session S (enable P (payload (id 3) all (and (eq a 1)))"
     " (payload (id 4 version 1) any (or (eq a 1))) (payload (id 5 version 2) where (eq a 1))))\n"},
    {"session S { enable P { payload id all { a eq 1 } payload version any { a eq 1 }"
     " payload where where a eq 1; payload \"an event\" all { a eq 1 } } }",
     "(session S (enable P (payload id all (and (eq a 1))) (payload version any (or (eq a 1)))"
     " (payload where where (eq a 1)) (payload \"an event\" all (and (eq a 1)))))\n"},
    {"session S { enable P { payload all all { all eq 1 } payload any any { any eq 1 } } }",
     "(session S (enable P (payload all all (and (eq all 1))) (payload any any (or (eq any "
     "1)))))\n"},
    {"session A {} session B { enable P; }", "(session A)\n(session B (enable P))\n"},
    {"provider P {} session S {} provider Q {}", "(provider P)\n(provider Q)\n(session S)\n"},
};

// Every operator spelling, through the block form.
const DumpCase kOperatorCases[] = {
    {"session s { enable p { payload E all { a eq 1; a == 1; a ne 1; a != 1; a le 1; a <= 1 } } }",
     "(session s (enable p (payload E all (and (eq a 1) (eq a 1) (ne a 1) (ne a 1) (le a 1)"
     " (le a 1)))))\n"},
    {"session s { enable p { payload E all { a gt 1; a > 1; a lt 1; a < 1; a ge 1; a >= 1 } } }",
     "(session s (enable p (payload E all (and (gt a 1) (gt a 1) (lt a 1) (lt a 1) (ge a 1)"
     " (ge a 1)))))\n"},
    {"session s { enable p { payload E all { a between 1,2; a notbetween 1,2; a not between 1,2;"
     " a modulo 2,0 } } }",
     "(session s (enable p (payload E all (and (between a 1 2) (notbetween a 1 2)"
     " (notbetween a 1 2) (modulo a 2 0)))))\n"},
    {"session s { enable p { payload E all { a contains \"x\"; a doesntcontain \"y\"; a is \"z\";"
     " a isnot \"w\" } } }",
     "(session s (enable p (payload E all (and (contains a \"x\") (doesntcontain a \"y\")"
     " (is a \"z\") (isnot a \"w\")))))\n"},
    {"session s { enable p { payload E all { a EQ 1; a Between 1,2; a NOT BETWEEN 1,2;"
     " a IsNot 1; a==1;a<=-1;a>=2;a<3;a>4;a!=5 } } }",
     "(session s (enable p (payload E all (and (eq a 1) (between a 1 2) (notbetween a 1 2)"
     " (isnot a 1) (eq a 1) (le a -1) (ge a 2) (lt a 3) (gt a 4) (ne a 5)))))\n"},
    // docs/language.md §3.1: script-only operators, lists and field values.
    {"session s { enable p { payload E all { a startswith \"x\"; a EndsWith \"y\";"
     " a matches \"*\"; a REGEX \"^b\" } } }",
     "(session s (enable p (payload E all (and (startswith a \"x\") (endswith a \"y\")"
     " (matches a \"*\") (regex a \"^b\")))))\n"},
    {"session s { enable p { payload E all { a is.cs \"x\"; a IsNot.CS \"x\"; a contains.cs \"x\";"
     " a doesntcontain.cs \"x\"; a startswith.cs \"x\"; a endswith.cs \"x\";"
     " a matches.cs \"x\"; a regex.cs \"x\" } } }",
     "(session s (enable p (payload E all (and (is.cs a \"x\") (isnot.cs a \"x\")"
     " (contains.cs a \"x\") (doesntcontain.cs a \"x\") (startswith.cs a \"x\")"
     " (endswith.cs a \"x\") (matches.cs a \"x\") (regex.cs a \"x\")))))\n"},
    {"session s { enable p { payload E all { a in 1; a in 1, -2 ,0x3; a not in \"x\", \"y\";"
     " a IN {0e95cfbc-58d4-44ba-be40-e63a853536df}; a NOT IN 4 } } }",
     "(session s (enable p (payload E all (and (in a 1) (in a 1 -2 3) (notin a \"x\" \"y\")"
     " (in a {0E95CFBC-58D4-44BA-BE40-E63A853536DF}) (notin a 4)))))\n"},
    {"session s { enable p { payload E all { a gt b; a == b.c-d; a != and } } }",
     "(session s (enable p (payload E all (and (gt a (field b)) (eq a (field b.c-d))"
     " (ne a (field and))))))\n"},
};

// Every value form.
const DumpCase kValueCases[] = {
    {"session s { enable p { payload E all { a eq 0; a eq -7; a eq 0x2A; a eq -0x10;"
     " a eq 18446744073709551615; a eq -18446744073709551615 } } }",
     "(session s (enable p (payload E all (and (eq a 0) (eq a -7) (eq a 42) (eq a -16)"
     " (eq a 18446744073709551615) (eq a -18446744073709551615)))))\n"},
    {"session s { enable p { payload E all { a between 7,16; a between -1 , 0xff;"
     " a between \"7,16\" } } }",
     "(session s (enable p (payload E all (and (between a 7 16) (between a -1 255)"
     " (between a \"7,16\")))))\n"},
    {"session s { enable p { payload E all { a is {0e95cfbc-58d4-44ba-be40-e63a853536df} } } }",
     "(session s (enable p (payload E all (and (is a "
     "{0E95CFBC-58D4-44BA-BE40-E63A853536DF})))))\n"},
    {"session s { enable p { payload E all { a is "
     "\"q\\\"b\\\\s\\nn\\tt\\x41\\xe9\\u{1F600}\\u{0}\" } } }",
     "(session s (enable p (payload E all (and (is a \"q\\\"b\\\\s\\nn\\tt"
     "A\xc3\xa9\xf0\x9f\x98\x80\\u0000\")))))\n"},
    {"session s { enable p { payload E all { a is \"\"; a is \"caf\xc3\xa9 \xe2\x82\xac\" } } }",
     "(session s (enable p (payload E all (and (is a \"\") (is a \"caf\xc3\xa9 "
     "\xe2\x82\xac\")))))\n"},
    {"session s { enable p { payload E all { a is \"\\u{10FFFF}\\u{000041}\" } } }",
     "(session s (enable p (payload E all (and (is a \"\xf4\x8f\xbf\xbf"
     "A\")))))\n"},
};

TEST(DumpTest, Providers) {
  for (const DumpCase& c : kProviderCases) EXPECT_EQ(dump_of(c.script), c.dump) << c.script;
}

TEST(DumpTest, Sessions) {
  for (const DumpCase& c : kSessionCases) EXPECT_EQ(dump_of(c.script), c.dump) << c.script;
}

TEST(DumpTest, Operators) {
  for (const DumpCase& c : kOperatorCases) EXPECT_EQ(dump_of(c.script), c.dump) << c.script;
}

TEST(DumpTest, Values) {
  for (const DumpCase& c : kValueCases) EXPECT_EQ(dump_of(c.script), c.dump) << c.script;
}

// `where` expressions: precedence, flattening of chains, `not`, parentheses, and operator
// words used as field names.
TEST(DumpTest, WhereExpressions) {
  const std::pair<const char*, const char*> cases[] = {
      {"a eq 1", "(eq a 1)"},
      {"a eq 1 and b eq 2", "(and (eq a 1) (eq b 2))"},
      {"a eq 1 and b eq 2 and c eq 3", "(and (eq a 1) (eq b 2) (eq c 3))"},
      {"a eq 1 or b eq 2 or c eq 3", "(or (eq a 1) (eq b 2) (eq c 3))"},
      {"a eq 1 or b eq 2 and c eq 3", "(or (eq a 1) (and (eq b 2) (eq c 3)))"},
      {"a eq 1 and b eq 2 or c eq 3 and d eq 4",
       "(or (and (eq a 1) (eq b 2)) (and (eq c 3) (eq d 4)))"},
      {"(a eq 1 or b eq 2) and c eq 3", "(and (or (eq a 1) (eq b 2)) (eq c 3))"},
      {"a eq 1 and (b eq 2 and c eq 3)", "(and (eq a 1) (and (eq b 2) (eq c 3)))"},
      {"((a eq 1))", "(eq a 1)"},
      {"not a eq 1", "(not (eq a 1))"},
      {"not not a eq 1", "(not (not (eq a 1)))"},
      {"not a eq 1 and b eq 2", "(and (not (eq a 1)) (eq b 2))"},
      {"not (a eq 1 and b eq 2)", "(not (and (eq a 1) (eq b 2)))"},
      {"(not a eq 1)", "(not (eq a 1))"},
      {"not(a eq 1)or(b eq 2)", "(or (not (eq a 1)) (eq b 2))"},
      {"NOT a eq 1 AND b eq 2 OR c eq 3", "(or (and (not (eq a 1)) (eq b 2)) (eq c 3))"},
      {"not eq 1", "(eq not 1)"},
      {"not not eq 1", "(not (eq not 1))"},
      {"not == 1 and not != 2", "(and (eq not 1) (ne not 2))"},
      {"not eq eq 1", "(not (eq eq 1))"},
      {"not not between 1,2", "(notbetween not 1 2)"},
      {"not between between 1,2", "(not (between between 1 2))"},
      {"not is \"x\" or not is {0E95CFBC-58D4-44BA-BE40-E63A853536DF}",
       "(or (is not \"x\") (is not {0E95CFBC-58D4-44BA-BE40-E63A853536DF}))"},
      {"and eq 1 and or eq 2 or in eq 3", "(or (and (eq and 1) (eq or 2)) (eq in 3))"},
      {"where eq 1 and Level between 7,16", "(and (eq where 1) (between Level 7 16))"},
      {"\"a b\" eq 1 and \"not\" eq 2", "(and (eq \"a b\" 1) (eq not 2))"},
      {"a eq 1 # comment\n and b eq 2", "(and (eq a 1) (eq b 2))"},
      // §3.1: `in` lists end at and/or; `not in` after a field; `not` as a field before `in`.
      {"a in 1, 2 and b not in 3 or c eq d", "(or (and (in a 1 2) (notin b 3)) (eq c (field d)))"},
      {"not in 1, 2", "(in not 1 2)"},
      {"not not in 1", "(notin not 1)"},
      {"not in in 1", "(not (in in 1))"},
      {"in in 1 and matches matches \"x\"", "(and (in in 1) (matches matches \"x\"))"},
      {"not a gt b", "(not (gt a (field b)))"},
      {"(a eq 1 or b eq 2) and not (c eq 3 or d eq 4) or e eq 5",
       "(or (and (or (eq a 1) (eq b 2)) (not (or (eq c 3) (eq d 4)))) (eq e 5))"},
  };
  for (const auto& [expr, tree] : cases) {
    EXPECT_EQ(dump_of(where(expr)), where_dump(tree)) << expr;
  }
}

// The flat post-order layout of ast.h: children before parents, root last, And/Or from
// `where` have ≥ 2 children, Not has exactly one.
TEST(DumpTest, WhereTreeIsFlatPostOrder) {
  const SourceFile source("t.pfs", where("not (a eq 1 or b eq 2) and c eq 3 and (d eq 4)"));
  const ParseOutput out = parse_script(source);
  ASSERT_TRUE(out.ok());
  const ast::Expr& e = out.script.sessions[0].enables[0].filters[0].expr;
  ASSERT_EQ(e.preds.size(), 4u);
  for (size_t i = 0; i < e.nodes.size(); ++i) {
    const ast::ExprNode& n = e.nodes[i];
    if (n.kind == ast::ExprNode::Kind::Pred) {
      EXPECT_LT(n.index, e.preds.size());
      continue;
    }
    EXPECT_EQ(n.count >= 2, n.kind != ast::ExprNode::Kind::Not);
    if (n.kind == ast::ExprNode::Kind::Not) {
      EXPECT_EQ(n.count, 1u);
    }
    for (uint32_t k = 0; k < n.count; ++k) {
      EXPECT_LT(e.kids[n.index + k], i);
    }
  }
  EXPECT_EQ(e.nodes.back().kind, ast::ExprNode::Kind::And);
  EXPECT_EQ(e.nodes.back().count, 3u);
}

TEST(DumpTest, EtwSampleFromLanguageContract) {
  std::ifstream file(std::string(PFC_SOURCE_DIR) + "/examples/etw-sample.pfs");
  ASSERT_TRUE(file.good());
  std::stringstream text;
  text << file.rdbuf();
  EXPECT_EQ(dump_of(text.str()),
            "(provider Example-Provider {37A59B93-BB25-4CEE-97AA-8B6ACD0C4DF8}"
            " (event Example_Event_1 (id 1) (level 1) (field Initiator wstring)"
            " (field Level uint32))"
            " (event Example_Event_2 (id 2) (level 1) (field Title wstring)"
            " (field InstanceId guid) (field ErrorCode uint32)))\n"
            "(session MyTrace (enable Example-Provider (level 5)"
            " (payload Example_Event_1 all (and (is Initiator \"User\") (between Level 7 16)))"
            " (payload Example_Event_2 any (or (contains Title \"UNI\")"
            " (is InstanceId {0E95CFBC-58D4-44BA-BE40-E63A853536DF}) (ne ErrorCode 0)))))\n");
}

// An `import` is dumped first, before the providers, whatever the source order.
TEST(DumpTest, ImportsComeFirst) {
  ast::Script script;
  script.providers.emplace_back().name.text = "P";
  script.imports.push_back(ast::Import{ast::String{"dir/a b.man", {}}, {}});
  EXPECT_EQ(dump_ast(script), "(import \"dir/a b.man\")\n(provider P)\n");
}

// Positions recorded in the AST point at the start of the construct.
TEST(DumpTest, Positions) {
  const SourceFile source("t.pfs",
                          "provider P {\n  event E (id=1) { f: uint8; }\n}\n"
                          "session S {\n\tenable P level=verbose {\n"
                          "    payload E where \"é\" eq 1 or f between 1,2;\n  }\n}\n");
  const ParseOutput out = parse_script(source);
  ASSERT_TRUE(out.ok());
  const auto& ev = out.script.providers[0].events[0];
  EXPECT_EQ(ev.pos.line, 2u);
  EXPECT_EQ(ev.pos.column, 3u);
  EXPECT_EQ(ev.fields[0].type.pos.column, 23u);
  const auto& en = out.script.sessions[0].enables[0];
  EXPECT_EQ(en.pos.line, 5u);
  EXPECT_EQ(en.pos.column, 2u);
  EXPECT_EQ(en.options[0].value.pos.column, 17u);
  const auto& flt = en.filters[0];
  EXPECT_EQ(flt.pos.line, 6u);
  EXPECT_EQ(flt.pos.column, 5u);
  EXPECT_EQ(flt.expr.preds[0].pos.column, 21u);
  EXPECT_EQ(flt.expr.preds[0].op_pos.column, 25u);  // 'é' is one column
  EXPECT_EQ(flt.expr.preds[1].value.pos.column, 43u);
  EXPECT_EQ(flt.expr.preds[1].value.pos.offset, source.text().find("1,2;"));
}

}  // namespace
}  // namespace pfc::test
