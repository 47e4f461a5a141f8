// tests/grammar/diag_test.cc — table {script, "LINE:COL: message"} with a row for every
// must<> point of grammar/errors.h (checked by MessageCoverage), every literal error the
// builder raises, and source validation (NUL, UTF-8, size), plus rendering.
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "grammar/errors.h"
#include "tests/grammar/test_util.h"

namespace pfc::test {
namespace {

struct DiagCase {
  std::string script;
  std::string diag;
};

const std::vector<DiagCase>& diag_cases() {
  static const std::vector<DiagCase> cases = {
      // script / providers
      {"hello", "1:1: expected 'import', 'provider' or 'session'"},
      {"import a.man;", "1:8: expected a quoted manifest path after 'import'"},
      {"import \"a.man\"", "1:15: expected ';' after the import path"},
      {"providerP {}", "1:1: expected 'import', 'provider' or 'session'; did you mean 'provider'?"},
      {"provider P {} }", "1:15: expected 'import', 'provider' or 'session'"},
      {"provider {", "1:10: expected a provider name after 'provider'"},
      {"provider", "1:9: expected a provider name after 'provider'"},
      {"provider P {37A59B93-BB25} {}",
       "1:12: malformed GUID (expected {XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX})"},
      {"provider P {37A59B93-BB25-4CEE-97AA-8B6ACD0C4DF} {}",
       "1:12: malformed GUID (expected {XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX})"},
      {"provider P x", "1:12: expected '{' after provider name"},
      {"provider P legacy legacy {}", "1:19: expected '{' after provider name"},
      {"provider P legacy tracelogging {}", "1:19: expected '{' after provider name"},
      {"provider P { x }", "1:14: expected 'event' or '}' in provider body"},
      {"provider P {", "1:13: expected 'event' or '}' in provider body"},
      {"provider P { event (", "1:20: expected an event name after 'event'"},
      {"provider P { event E {", "1:22: expected '(' after event name"},
      {"provider P { event E () {} }",
       "1:23: expected an event attribute (id, version, level, keyword, opcode, task or "
       "channel)"},
      {"provider P { event E (id=1, name=2) {} }",
       "1:29: expected an event attribute (id, version, level, keyword, opcode, task or "
       "channel)"},
      {"provider P { event E (id 1) {} }", "1:26: expected '=' after event attribute name"},
      {"provider P { event E (level=loud) {} }",
       "1:29: expected an integer or a level name (log_always, critical, error, warning, info, "
       "verbose)"},
      {"provider P { event E (id=1 version=2) {} }",
       "1:28: expected ',' or ')' after event attribute"},
      {"provider P { event E (id=1) ; }", "1:29: expected '{' after event attributes"},
      {"provider P { event E (id=1) { 5 } }",
       "1:31: expected a field declaration or '}' in event body"},
      {"provider P { event E (id=1) { Level uint32; } }",
       "1:37: expected ':' after field name 'Level'"},
      {"provider P { event E (id=1) { a: ; } }",
       "1:34: expected a type name or 'struct' after ':'"},
      {"provider P tracelogging { event E (level=1) { a: struct; } }",
       "1:56: expected '{' after 'struct'"},
      {"provider P tracelogging { event E (level=1) { a: struct { b: int8; }",
       "1:69: expected a field declaration or '}' in event body"},
      {"provider P tracelogging { event E (level=1) { a: struct { b: int8 } } }",
       "1:66: expected ';' to end the declaration of field 'b'"},
      {"provider P { event E (id=1) { a: uint8[]; } }",
       "1:40: expected an integer or a field name after '['"},
      {"provider P { event E (id=1) { a: uint8[4; } }", "1:41: expected ']' after array count"},
      {"provider P { event E (id=1) { a: binary length 4; } }",
       "1:48: expected '=' after 'length'"},
      {"provider P { event E (id=1) { a: binary length=; } }",
       "1:48: expected an integer or a field name after 'length='"},
      {"provider P { event E (id=1) { a: uint8 b: uint8; } }",
       "1:39: expected ';' to end the declaration of field 'a'"},  // after `uint8`
      {"provider P {\n  event E (id=1) {\n    a uint8;\n  }\n}",
       "3:7: expected ':' after field name 'a'"},
      {"provider P { event E (id=1) { \"a\\nb\x01\" uint8; } }",
       "1:39: expected ':' after field name 'a\\nb\\x01'"},
      {"session S { enable P { payload E all { \"" + std::string(100, 'x') + "\" 1 } } }",
       "1:143: expected an operator after field name '" + std::string(80, 'x') + "...'"},
      {"provider \"\xc3\xa9\xc3\xa9\xc3\xa9\" x", "1:16: expected '{' after provider name"},
      // sessions and enables
      {"session {", "1:9: expected a session name after 'session'"},
      {"session S enable", "1:11: expected '{' after session name"},
      {"session S { pid 1; }", "1:13: expected 'enable' or '}' in session body"},
      {"session S { enable ; }", "1:20: expected a provider name after 'enable'"},
      {"session S { enable P level 5; }", "1:28: expected '=' after option name"},
      {"session S { enable P level=loud; }",
       "1:28: expected an integer or a level name after 'level='"},
      {"session S { enable P any=x; }", "1:26: expected an integer after 'any='"},
      {"session S { enable P all=verbose; }", "1:26: expected an integer after 'all='"},
      {"session S { enable P properties=stack_trace; }", "1:33: expected '(' after 'properties='"},
      {"session S { enable P properties=(); }", "1:34: expected a property name"},
      {"session S { enable P properties=(sid ts_id); }",
       "1:38: expected ',' or ')' after property name"},
      {"session S { enable P { 7 } }",
       "1:24: expected a filter (pid, exe, package_id, app_id, event_id, stack_id, payload) or "
       "'}'"},
      {"session S { enable P }",
       "1:22: expected an option (level, any, all, properties), ';' or '{' after 'enable'"},
      {"session S { enable P { payloads } }",
       "1:24: expected a filter (pid, exe, package_id, app_id, event_id, stack_id, payload) or "
       "'}'; did you mean 'payload'?"},
      // scope and id filters
      {"session S { enable P { pid x; } }", "1:28: expected a process id (integer)"},
      {"session S { enable P { pid 1, ; } }", "1:31: expected a process id (integer)"},
      {"session S { enable P { pid 1 2; } }", "1:30: expected ',' or ';' after process id"},
      {"session S { enable P { exe a.exe; } }", "1:28: expected a string after the filter keyword"},
      {"session S { enable P { app_id \"a\" \"b\"; } }",
       "1:34: expected ';' after the filter string"},
      // hints (docs/language.md §4): C operators, single quotes, misspelt words and levels
      {"sesion S {}", "1:1: expected 'import', 'provider' or 'session'; did you mean 'session'?"},
      {"session S { enable P level=warn; }",
       "1:28: expected an integer or a level name after 'level='; did you mean 'warning'?"},
      {"session S { enable P level=verbos; }",
       "1:28: expected an integer or a level name after 'level='; did you mean 'verbose'?"},
      {"session S { enable P { payload E where a eq 1 && b eq 2; } }",
       "1:47: expected 'and', 'or' or ';'; use 'and' instead of '&&'"},
      {"session S { enable P { payload E where a eq 1 || b eq 2; } }",
       "1:47: expected 'and', 'or' or ';'; use 'or' instead of '||'"},
      {"session S { enable P { payload E where !a eq 1; } }",
       "1:40: expected a predicate, 'not' or '('; use 'not' instead of '!'"},
      {"session S { enable P { payload E all { a is 'x' } } }",
       "1:45: expected a value (integer, string or GUID) after the operator; strings are "
       "written in double quotes (\"...\")"},
      {"session S { enable P { payload E wher a eq 1; } }",
       "1:34: expected 'all', 'any' or 'where' after the payload event; did you mean 'where'?"},
      {"provider P { event E (id=1 version=2) {} }",
       "1:28: expected ',' or ')' after event attribute"},  // a keyword: no suggestion
      {"session S { enable P { event_id 1; } }", "1:33: expected 'in' or 'not in'"},
      {"session S { enable P { event_id not 1; } }", "1:37: expected 'in' or 'not in'"},
      {"session S { enable P { event_id in; } }", "1:35: expected an id (integer)"},
      {"session S { enable P { stack_id in 1 2; } }", "1:38: expected ',' or ';' after id"},
      // payload filters
      {"session S { enable P { payload { a eq 1 } } }",
       "1:32: expected an event name or 'id=' after 'payload'"},
      {"session S { enable P { payload id=x all { a eq 1 } } }",
       "1:35: expected an integer after 'id='"},
      {"session S { enable P { payload id=1 version 2 all { a eq 1 } } }",
       "1:45: expected '=' after 'version'"},
      {"session S { enable P { payload id=1 version= all { a eq 1 } } }",
       "1:46: expected an integer after 'version='"},
      {"session S { enable P { payload E { a eq 1 } } }",
       "1:34: expected 'all', 'any' or 'where' after the payload event"},
      {"session S { enable P { payload id=1 E all { a eq 1 } } }",
       "1:37: expected 'all', 'any' or 'where' after the payload event"},
      {"session S { enable P { payload E all a eq 1; } }",
       "1:38: expected '{' after 'all' or 'any'"},
      {"session S { enable P { payload E all { } } }",
       "1:40: expected a predicate (field name, operator, value)"},
      {"session S { enable P { payload E any { a eq 1;; } } }",
       "1:47: expected ';' or '}' after predicate"},
      {"session S { enable P { payload E all { a eq 1 b eq 2 } } }",
       "1:47: expected ';' or '}' after predicate"},
      {"session S { enable P { payload E all { a eq 1 } group all } }",
       "1:55: expected '=' after 'group'"},
      {"session S { enable P { payload E all { a eq 1 } group=both } }",
       "1:55: expected 'all' or 'any' after 'group='"},
      {"session S { enable P { payload E all { Level 5 } } }",
       "1:46: expected an operator after field name 'Level'"},
      {"session S { enable P { payload E all { a = 5 } } }",
       "1:42: expected an operator after field name 'a'"},
      {"session S { enable P { payload E all { a eq } } }",
       "1:45: expected a value (integer, string or GUID) after the operator"},
      {"session S { enable P { payload E all { a in } } }",
       "1:45: expected a value (integer, string or GUID) after 'in'"},
      {"session S { enable P { payload E all { a not in b } } }",
       "1:49: expected a value (integer, string or GUID) after 'in'"},
      {"session S { enable P { payload E all { a in 1, 2, } } }",
       "1:51: expected a value (integer, string or GUID) after ','"},
      {"session S { enable P { payload E all { a in 1,2 3 } } }",
       "1:49: expected ';' or '}' after predicate"},
      {"session S { enable P { payload E all { a is.cs } } }",
       "1:48: expected a value (integer, string or GUID) after the operator"},
      {"session S { enable P { payload E all { a is.ci \"x\" } } }",
       "1:42: expected an operator after field name 'a'"},
      {"session S { enable P { payload E all { a eq 0x } } }",
       "1:45: expected a value (integer, string or GUID) after the operator"},
      {"session S { enable P { payload E all { a eq 12abc } } }",
       "1:45: expected a value (integer, string or GUID) after the operator"},
      {"session S { enable P { payload E all { a eq - 1 } } }",
       "1:45: expected a value (integer, string or GUID) after the operator"},
      {"session S { enable P { payload E all { a between 1, } } }",
       "1:53: expected an integer after ','"},
      {"session S { enable P { payload E all { a is {123} } } }",
       "1:45: malformed GUID (expected {XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX})"},
      // where expressions
      {"session S { enable P { payload E where ; } }", "1:40: expected a predicate, 'not' or '('"},
      {"session S { enable P { payload E where a eq 1 and ; } }",
       "1:51: expected a predicate, 'not' or '('"},
      {"session S { enable P { payload E where a eq 1 or } } }",
       "1:50: expected a predicate, 'not' or '('"},
      {"session S { enable P { payload E where not ; } }",
       "1:44: expected a predicate, 'not' or '('"},
      {"session S { enable P { payload E where ( ) ; } }",
       "1:42: expected a predicate, 'not' or '('"},
      {"session S { enable P { payload E where not eq; } }",
       "1:46: expected an operator after field name 'eq'"},
      {"session S { enable P { payload E where Level 5; } }",
       "1:46: expected an operator after field name 'Level'"},
      {"session S { enable P { payload E where (a eq 1; } }", "1:47: expected ')'"},
      {"session S { enable P { payload E where ((a eq 1) or b eq 2; } }", "1:59: expected ')'"},
      {"session S { enable P { payload E where (a eq 1)); } }",
       "1:48: expected 'and', 'or' or ';'"},
      {"session S { enable P { payload E where a eq 1 b eq 2; } }",
       "1:47: expected 'and', 'or' or ';'"},
      {"session S { enable P { payload E where a eq 1 } }", "1:47: expected 'and', 'or' or ';'"},
      {"session S { enable P { payload E where " + std::string(201, '(') + "a eq 1",
       "1:240: expression nesting exceeds the limit of 200"},
      {"session S { enable P { payload E where " + std::string(200, '(') + "not a eq 1",
       "1:240: expression nesting exceeds the limit of 200"},
      // strings and escapes
      {"session S { enable P { exe \"abc\n\"; } }", "1:28: unterminated string"},
      {"provider \"abc", "1:10: unterminated string"},
      {"provider \"abc\\\"", "1:10: unterminated string"},
      {"provider \"abc\\", "1:10: unterminated string"},
      {"session S { enable P { exe \"a\\qb\"; } }",
       "1:30: invalid escape sequence (expected \\\", \\\\, \\n, \\t, \\xHH or \\u{H...})"},
      {"session S { enable P { exe \"a\\x4\"; } }",
       "1:30: invalid escape sequence (expected \\\", \\\\, \\n, \\t, \\xHH or \\u{H...})"},
      {"session S { enable P { exe \"a\\u{}\"; } }",
       "1:30: invalid escape sequence (expected \\\", \\\\, \\n, \\t, \\xHH or \\u{H...})"},
      {"session S { enable P { exe \"a\\u0041\"; } }",
       "1:30: invalid escape sequence (expected \\\", \\\\, \\n, \\t, \\xHH or \\u{H...})"},
      {"session S { enable P { exe \"a\\u{110000}\"; } }",
       "1:30: invalid code point in \\u{...} escape (surrogate or above U+10FFFF)"},
      {"session S { enable P { exe \"ab\\u{D800}\"; } }",
       "1:31: invalid code point in \\u{...} escape (surrogate or above U+10FFFF)"},
      {"session S { enable P { exe \"\\u{FFFFFFFFFFFFFFFFFFFF41}\"; } }",
       "1:29: invalid code point in \\u{...} escape (surrogate or above U+10FFFF)"},
      {"provider \"a\\u{dfff}\" {}",
       "1:12: invalid code point in \\u{...} escape (surrogate or above U+10FFFF)"},
      // integers
      {"session S { enable P { pid 18446744073709551616; } }",
       "1:28: integer literal does not fit in 64 bits"},
      {"session S { enable P { pid 0x10000000000000000; } }",
       "1:28: integer literal does not fit in 64 bits"},
      {"session S { enable P level=99999999999999999999999; }",
       "1:28: integer literal does not fit in 64 bits"},
      {"session S { enable P { payload E where a eq -18446744073709551616; } }",
       "1:45: integer literal does not fit in 64 bits"},
      {"session S { enable P { payload E all { a between 1,18446744073709551616 } } }",
       "1:52: integer literal does not fit in 64 bits"},
      {"provider P { event E (id=1) { a: uint8[99999999999999999999]; } }",
       "1:40: integer literal does not fit in 64 bits"},
      // source validation
      {std::string("provider P {\0}", 14), "1:13: NUL byte in source"},
      {"provider P { # \xff\n}", "1:16: invalid UTF-8 (byte 0xFF)"},
      {"provider \xe2\x82", "1:10: invalid UTF-8 (byte 0xE2)"},
      {"# \xc3\xa9 \xc0\xaf", "1:5: invalid UTF-8 (byte 0xC0)"},
      {"\n\n  \xed\xa0\x80", "3:3: invalid UTF-8 (byte 0xED)"},
      {"# \xf4\x90\x80\x80", "1:3: invalid UTF-8 (byte 0xF4)"},
  };
  return cases;
}

TEST(DiagTest, Table) {
  for (const DiagCase& c : diag_cases()) EXPECT_EQ(diag_of(c.script), c.diag) << c.script;
}

// True when `message` is an instance of `pattern` ({name} / {limit} match anything).
bool matches(std::string_view pattern, std::string_view message) {
  for (std::string_view hole : {"{name}", "{limit}"}) {
    const size_t at = pattern.find(hole);
    if (at == std::string_view::npos) continue;
    const std::string_view head = pattern.substr(0, at);
    const std::string_view tail = pattern.substr(at + hole.size());
    return message.size() >= head.size() + tail.size() && message.starts_with(head) &&
           message.ends_with(tail);
  }
  return pattern == message;
}

// Every message of errors.h is produced by at least one row of the table.
TEST(DiagTest, MessageCoverage) {
  std::vector<std::string> seen;
  for (const DiagCase& c : diag_cases()) {
    const size_t at = c.diag.find(": ");
    seen.push_back(c.diag.substr(at + 2));
  }
  for (const char* pattern : internal::kAllErrorMessages) {
    bool found = false;
    for (const std::string& m : seen) found = found || matches(pattern, m);
    EXPECT_TRUE(found) << "no test row for: " << pattern;
  }
  std::set<std::string_view> unique(internal::kAllErrorMessages.begin(),
                                    internal::kAllErrorMessages.end());
  EXPECT_EQ(unique.size(), internal::kAllErrorMessages.size()) << "messages must be distinct";
}

TEST(DiagTest, Limits) {
  ParseLimits small;
  small.max_nesting = 3;
  const std::string head = "session S { enable P { payload E where ";
  EXPECT_EQ(diag_of(head + "not (not a eq 1); } }", small), "ok");
  EXPECT_EQ(diag_of(head + "not (not (a eq 1)); } }", small),
            "1:49: expression nesting exceeds the limit of 3");
  EXPECT_EQ(diag_of(head + "not a eq 1 and not b eq 2 and (not c eq 3); } }", small), "ok");
  EXPECT_EQ(diag_of(head + std::string(200, '(') + "a eq 1" + std::string(200, ')') + "; } }"),
            "ok");
  small.max_source_bytes = 10;
  EXPECT_EQ(diag_of("provider P {}", small), "1:1: source is 13 bytes, more than the limit of 10");
  small.max_source_bytes = 13;
  EXPECT_EQ(diag_of("provider P {}", small), "ok");
}

// A UTF-8 byte-order mark at the start is skipped: the script parses, and line 1's columns
// count from after it; anywhere else U+FEFF is an ordinary (unexpected) character.
TEST(DiagTest, LeadingByteOrderMarkIsSkipped) {
  const std::string bom = "\xEF\xBB\xBF";
  EXPECT_EQ(diag_of(bom + "provider P { event E (id=1) { A: uint32; } }"), "ok");
  EXPECT_EQ(diag_of(bom), "ok");
  EXPECT_EQ(diag_of(bom + "provider P x"), "1:12: expected '{' after provider name");
  EXPECT_EQ(diag_of(bom + "hello"), "1:1: expected 'import', 'provider' or 'session'");
  EXPECT_EQ(diag_of(bom + "\nprovider P x"), "2:12: expected '{' after provider name");
  EXPECT_EQ(diag_of(bom + bom + "provider P {}"),
            "1:1: expected 'import', 'provider' or 'session'");
  EXPECT_EQ(diag_of("provider P {} " + bom), "1:15: expected 'import', 'provider' or 'session'");
  const SourceFile source("b.pfs", bom + "provider P x");
  const ParseOutput out = parse_script(source);
  ASSERT_EQ(out.diagnostics.size(), 1u);
  EXPECT_EQ(source.render(out.diagnostics[0]),
            "b.pfs:1:12: error: expected '{' after provider name\n"
            "provider P x\n"
            "           ^\n");
}

TEST(DiagTest, RenderFormat) {
  const SourceFile source("dir/x.pfs",
                          "provider P {\n\tevent E (id=1) {\n\t  Level uint32; }\n}\n");
  const ParseOutput out = parse_script(source);
  ASSERT_EQ(out.diagnostics.size(), 1u);
  EXPECT_EQ(source.render(out.diagnostics[0]),
            "dir/x.pfs:3:10: error: expected ':' after field name 'Level'\n"
            "\t  Level uint32; }\n"
            "\t        ^\n");
}

// A missing `;` is reported where clang reports it: at the end of the previous token (past
// whitespace, comments and line breaks), with a fix-it line under the caret.
TEST(DiagTest, MissingTerminatorFixIt) {
  const SourceFile source("x.pfs", "provider P {\n\tevent E (id=1) { N: uint32  # count\n} }\n");
  const ParseOutput out = parse_script(source);
  ASSERT_EQ(out.diagnostics.size(), 1u);
  EXPECT_EQ(out.diagnostics[0].fixit, ";");
  EXPECT_EQ(source.render(out.diagnostics[0]),
            "x.pfs:2:28: error: expected ';' to end the declaration of field 'N'\n"
            "\tevent E (id=1) { N: uint32  # count\n"
            "\t                          ^\n"
            "\t                          ;\n");
  // No fix-it where `;` is one choice among several.
  const SourceFile other("y.pfs", "session S { enable P { payload E all { a eq 1 b eq 2 } } }");
  const ParseOutput o = parse_script(other);
  ASSERT_EQ(o.diagnostics.size(), 2u);  // and the note at the block's '{'
  EXPECT_EQ(o.diagnostics[0].fixit, "");
  EXPECT_EQ(o.diagnostics[0].pos.column, 47u);
  // A `#` inside a string on the line is no comment.
  const SourceFile quoted("z.pfs", "session S { enable P { exe \"a#b\"\n } }");
  const ParseOutput q = parse_script(quoted);
  ASSERT_EQ(q.diagnostics.size(), 1u);
  EXPECT_EQ(q.diagnostics[0].pos.line, 1u);
  EXPECT_EQ(q.diagnostics[0].pos.column, 33u);
}

// "L:C: note" of the diagnostic after the error, or "" when there is none.
std::string note_of(std::string_view script) {
  const SourceFile source("t.pfs", std::string(script));
  const ParseOutput out = parse_script(source);
  if (out.diagnostics.size() < 2) return "";
  EXPECT_EQ(out.diagnostics.size(), 2u);
  EXPECT_EQ(out.diagnostics[0].severity, Severity::Error);
  const Diagnostic& d = out.diagnostics[1];
  EXPECT_EQ(d.severity, Severity::Note);
  return std::to_string(d.pos.line) + ":" + std::to_string(d.pos.column) + ": " + d.message;
}

// A closing rule that fails gets clang's note at the innermost open delimiter; other
// errors (inside a block too) get none.
TEST(DiagTest, UnclosedDelimiterNote) {
  struct Case {
    std::string script, diag, note;
  };
  const std::vector<Case> cases = {
      {"provider P {", "1:13: expected 'event' or '}' in provider body", "1:12: to match this '{'"},
      {"provider P {\n  event E (id=1) {\n    A: uint32;\n",
       "4:1: expected a field declaration or '}' in event body", "2:18: to match this '{'"},
      {"provider P { event E (id=1 version=2) {} }",
       "1:28: expected ',' or ')' after event attribute", "1:22: to match this '('"},
      {"provider P { event E (id=1) {} event F (id=2) {} ",
       "1:50: expected 'event' or '}' in provider body", "1:12: to match this '{'"},
      {"session S {\n  enable P level=4",
       "2:19: expected an option (level, any, all, "
       "properties), ';' or '{' after 'enable'",
       ""},
      {"session S {\n  enable P;\n", "3:1: expected 'enable' or '}' in session body",
       "1:11: to match this '{'"},
      {"session S { enable P { pid 4;\n",
       "2:1: expected a filter (pid, exe, package_id, "
       "app_id, event_id, stack_id, payload) or '}'",
       "1:22: to match this '{'"},
      {"session S { enable P properties=(sid stack_trace) ; }",
       "1:38: expected ',' or ')' after property name", "1:33: to match this '('"},
      {"session S { enable P { payload E all { a eq 1 b eq 2 } } }",
       "1:47: expected ';' or '}' after predicate", "1:38: to match this '{'"},
      {"session S { enable P { payload E where (a eq 1 and (b eq 2 or c eq 3); } }",
       "1:70: expected ')'", "1:40: to match this '('"},
      {"session S { enable P { payload E where ((a eq 1) and (b eq 2); } }", "1:62: expected ')'",
       "1:40: to match this '('"},
      // Errors that are not about a closer: no note.
      {"provider P { event E (id=1) { N: uint32 } }",
       "1:40: expected ';' to end the declaration of field 'N'", ""},
      {"session S { enable P { payload E where a eq ; } }",
       "1:45: expected a value (integer, string or GUID) after the operator", ""},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(diag_of(c.script), c.diag) << c.script;
    EXPECT_EQ(note_of(c.script), c.note) << c.script;
  }
  const SourceFile source("x.pfs", "session S {\n\tenable P { pid 4;\n");
  const ParseOutput out = parse_script(source);
  ASSERT_EQ(out.diagnostics.size(), 2u);
  EXPECT_EQ(source.render(out.diagnostics[0]) + source.render(out.diagnostics[1]),
            "x.pfs:3:1: error: expected a filter (pid, exe, package_id, app_id, event_id, "
            "stack_id, payload) or '}'\n"
            "\n"
            "^\n"
            "x.pfs:2:11: note: to match this '{'\n"
            "\tenable P { pid 4;\n"
            "\t         ^\n");
}

TEST(DiagTest, ScriptIsEmptyAfterError) {
  const SourceFile source("t.pfs", "provider P {} session S { enable P x }");
  const ParseOutput out = parse_script(source);
  EXPECT_FALSE(out.ok());
  EXPECT_EQ(out.diagnostics.size(), 1u);
  EXPECT_EQ(out.diagnostics[0].severity, Severity::Error);
}

}  // namespace
}  // namespace pfc::test
