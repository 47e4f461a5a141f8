// tests/grammar/hostile_test.cc — the parser on hostile input: random bytes, token soup and
// mutations of a valid script (fixed seeds), NUL bytes, invalid UTF-8, deep nesting, huge
// inputs. Every run must end in success or exactly one diagnostic inside the input.
#include <algorithm>
#include <chrono>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "grammar/dump.h"
#include "tests/grammar/test_util.h"

namespace pfc::test {
namespace {

const char kSample[] =
    "provider Example-Provider {37a59b93-bb25-4cee-97aa-8b6acd0c4df8} {\n"
    "    event Example_Event_1 (id=1, level=1) { Initiator: wstring; Level: uint32; }\n"
    "    event Example_Event_2 (id=2, level=1) { Title: wstring; InstanceId: guid; }\n"
    "}\n"
    "session MyTrace {\n"
    "    enable Example-Provider level=verbose properties=(stack_trace) {\n"
    "        pid 1, 2; exe \"a.exe\"; event_id not in 3;\n"
    "        payload Example_Event_1 all { Initiator is \"User\"; Level between 7,16 }\n"
    "        payload id=2 where not (Title contains \"\\u{e9}\" or Level eq 0x10) and x ne -1;\n"
    "    }\n"
    "}\n";

// Parses `text` and checks the invariants every input must satisfy. Returns ok().
bool check_invariants(const std::string& text) {
  const SourceFile source("h.pfs", text);
  const ParseOutput out = parse_script(source);
  // At most one error, then at most one note (at an earlier, unclosed delimiter).
  EXPECT_LE(out.diagnostics.size(), 2u);
  if (out.diagnostics.size() == 2) {
    EXPECT_EQ(out.diagnostics[1].severity, Severity::Note);
    EXPECT_LT(out.diagnostics[1].pos.offset, out.diagnostics[0].pos.offset);
  }
  for (const Diagnostic& d : out.diagnostics) {
    EXPECT_LE(d.pos.offset, text.size());
    const SourcePos expected = source.position(d.pos.offset);
    EXPECT_EQ(d.pos.line, expected.line);
    EXPECT_EQ(d.pos.column, expected.column);
    EXPECT_FALSE(d.message.empty());
    EXPECT_EQ(d.message.find('\n'), std::string::npos);
    const std::string rendered = source.render(d);
    // Message, source line, caret line, and a fix-it line when there is a fix-it.
    EXPECT_EQ(std::count(rendered.begin(), rendered.end(), '\n'), d.fixit.empty() ? 3 : 4);
  }
  if (out.ok()) {
    for_each_pos(out.script, [&](const SourcePos& p) {
      EXPECT_LE(p.offset, text.size());
      const SourcePos expected = source.position(p.offset);
      EXPECT_EQ(p.line, expected.line);
      EXPECT_EQ(p.column, expected.column);
    });
    dump_ast(out.script);
  }
  return out.ok();
}

TEST(HostileTest, RandomBytes) {
  std::mt19937_64 rng(20240601);
  for (int i = 0; i < 2000; ++i) {
    std::string text(rng() % 200, '\0');
    for (char& c : text) c = static_cast<char>(rng());
    check_invariants(text);
  }
}

TEST(HostileTest, RandomPrintable) {
  std::mt19937_64 rng(7);
  const std::string alphabet = "{}()[];:,=<>!-\"\\#\n \tab01xX9_.é";
  for (int i = 0; i < 2000; ++i) {
    std::string text;
    const size_t n = rng() % 120;
    for (size_t k = 0; k < n; ++k) text += alphabet[rng() % alphabet.size()];
    check_invariants(text);
  }
}

// Sequences of real tokens reach deep into the grammar.
TEST(HostileTest, TokenSoup) {
  const std::vector<std::string> tokens = {
      "provider",   "session",  "enable",
      "event",      "payload",  "where",
      "all",        "any",      "not",
      "and",        "or",       "(",
      ")",          "{",        "}",
      ";",          ",",        "=",
      "==",         "eq",       "between",
      "is",         "in",       "id",
      "level",      "verbose",  "pid",
      "exe",        "event_id", "group",
      "legacy",     "length",   "[",
      "]",          ":",        "uint8",
      "x",          "\"s\"",    "1",
      "-2",         "0x1F",     "{0E95CFBC-58D4-44BA-BE40-E63A853536DF}",
      "properties", "sid",      "version",
      "not between"};
  std::mt19937_64 rng(99);
  std::set<std::string> messages;
  for (int i = 0; i < 3000; ++i) {
    std::string text = i % 2 ? "session S { enable P { payload E " : "provider P { ";
    const size_t n = rng() % 30;
    for (size_t k = 0; k < n; ++k) text += tokens[rng() % tokens.size()] + " ";
    if (!check_invariants(text)) messages.insert(diag_of(text).substr(diag_of(text).find(' ')));
  }
  EXPECT_GE(messages.size(), 20u);  // the soup reaches many different must<> points
}

TEST(HostileTest, MutatedSample) {
  ASSERT_TRUE(check_invariants(kSample));
  std::mt19937_64 rng(5);
  for (int i = 0; i < 3000; ++i) {
    std::string text = kSample;
    for (int m = 0; m < 1 + static_cast<int>(rng() % 3); ++m) {
      const size_t at = rng() % text.size();
      switch (rng() % 4) {
        case 0: text.erase(at, 1 + rng() % 4); break;
        case 1: text.insert(at, 1, static_cast<char>(rng())); break;
        case 2: text[at] = static_cast<char>(rng() % 128); break;
        default: text.insert(at, text.substr(rng() % text.size(), rng() % 16)); break;
      }
      if (text.empty()) text = "x";
    }
    check_invariants(text);
  }
}

TEST(HostileTest, NulAndInvalidUtf8Everywhere) {
  const std::string sample = kSample;
  for (size_t at = 0; at < sample.size(); at += 7) {
    for (const std::string& bad : {std::string(1, '\0'), std::string("\xff"), std::string("\xc3"),
                                   std::string("\xe2\x82")}) {
      std::string text = sample;
      text.insert(at, bad);
      const SourceFile source("h.pfs", text);
      const ParseOutput out = parse_script(source);
      ASSERT_EQ(out.diagnostics.size(), 1u);
      EXPECT_EQ(out.diagnostics[0].pos.offset, at) << at;
      check_invariants(text);
    }
  }
}

std::string where_script(const std::string& expr) {
  return "session S { enable P { payload E where " + expr + "; } }";
}

TEST(HostileTest, DeepNesting) {
  const std::string limit = "expression nesting exceeds the limit of 200";
  EXPECT_EQ(diag_of(where_script(std::string(100000, '(') + "a eq 1")), "1:240: " + limit);
  std::string nots;
  for (int i = 0; i < 100000; ++i) nots += "not ";
  EXPECT_EQ(diag_of(where_script(nots + "a eq 1")), "1:840: " + limit);
  std::string mixed;
  for (int i = 0; i < 50000; ++i) mixed += "not (";
  EXPECT_EQ(diag_of(where_script(mixed + "a eq 1")), "1:540: " + limit);
  EXPECT_EQ(diag_of(where_script("a eq 1" + std::string(100000, ')'))),
            "1:46: expected 'and', 'or' or ';'");
  std::string opens;  // many parentheses opened and closed again never nest deeply
  for (int i = 0; i < 50000; ++i) opens += "(a eq 1) and ";
  EXPECT_EQ(diag_of(where_script(opens + "a eq 1")), "ok");
  EXPECT_EQ(diag_of(std::string(100000, '{')), "1:1: expected 'import', 'provider' or 'session'");
  EXPECT_EQ(diag_of("provider P " + std::string(100000, '{')),
            "1:13: expected 'event' or '}' in provider body");
}

TEST(HostileTest, LongChainsAndLines) {
  std::string chain = "a eq 1";
  for (int i = 0; i < 100000; ++i) chain += i % 2 ? " and a eq 1" : " or a eq 1";
  const SourceFile source("c.pfs", where_script(chain));
  const ParseOutput out = parse_script(source);
  ASSERT_TRUE(out.ok());
  const ast::Expr& e = out.script.sessions[0].enables[0].filters[0].expr;
  EXPECT_EQ(e.preds.size(), 100001u);
  EXPECT_EQ(e.nodes.back().kind, ast::ExprNode::Kind::Or);
  EXPECT_EQ(e.nodes.back().count, 50001u);

  // One 1 MB line: positions must stay linear (column checkpoints + builder cursor).
  std::string pids = "session S { enable P { pid 0";
  while (pids.size() < (1u << 20)) pids += ", 12345";
  EXPECT_TRUE(check_invariants(pids + "; } }"));
  EXPECT_EQ(diag_of(pids + " x } }"),
            "1:" + std::to_string(pids.size() + 2) + ": expected ',' or ';' after process id");
}

// A generated ~10 MB script with every construct parses (linear time).
TEST(HostileTest, TenMegabyteScript) {
  std::string text = "provider P {37a59b93-bb25-4cee-97aa-8b6acd0c4df8} {\n";
  for (int i = 0; i < 1000; ++i) {
    text += "  event E" + std::to_string(i) + " (id=" + std::to_string(i) +
            ", level=verbose) { A: uint32; B: wstring; C: uint64[4]; D: binary length=A; }\n";
  }
  text += "}\nsession S {\n enable P level=5 any=0xff {\n";
  size_t filters = 0;
  while (text.size() < 10'000'000) {
    const std::string n = std::to_string(filters);
    text.append("  payload E")
        .append(std::to_string(filters % 1000))
        .append(" where (A eq ")
        .append(n)
        .append(" or not B contains \"x")
        .append(n)
        .append("\") and C between 1,")
        .append(n)
        .append(" or D isnot {0E95CFBC-58D4-44BA-BE40-E63A853536DF};\n");
    text.append("  payload E1 all { A eq ").append(n).append("; B is \"\\u{e9}\"; } group=all;\n");
    filters += 2;
  }
  text += " }\n}\n";
  const SourceFile source("big.pfs", std::move(text));
  const auto start = std::chrono::steady_clock::now();
  const ParseOutput out = parse_script(source);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  ASSERT_TRUE(out.ok()) << source.render(out.diagnostics[0]);
  EXPECT_EQ(out.script.sessions[0].enables[0].filters.size(), filters);
  EXPECT_EQ(out.script.providers[0].events.size(), 1000u);
  RecordProperty("parse_ms", static_cast<int>(ms));
}

}  // namespace
}  // namespace pfc::test
