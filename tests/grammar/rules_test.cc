// tests/grammar/rules_test.cc — static checks of the PEGTL grammar: no rule can loop without
// consuming input (analyze), and keywords stay usable as names.
#include "grammar/rules.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <tao/pegtl/contrib/analyze.hpp>

#include "tests/grammar/test_util.h"

namespace pfc::test {
namespace {

// pattern with every '@' replaced by word.
std::string with_word(std::string_view pattern, std::string_view word) {
  std::string out;
  for (char c : pattern) {
    if (c == '@') out += word;
    else out += c;
  }
  return out;
}

TEST(RulesTest, AnalyzeFindsNoProblems) {
  EXPECT_EQ(tao::pegtl::analyze<internal::rules::grammar>(), 0u);
}

// Every keyword and operator word is accepted wherever a name is expected.
TEST(RulesTest, KeywordsAreNotReserved) {
  const char* words[] = {"provider",   "session",
                         "enable",     "event",
                         "legacy",     "id",
                         "version",    "level",
                         "keyword",    "opcode",
                         "task",       "channel",
                         "log_always", "critical",
                         "error",      "warning",
                         "info",       "verbose",
                         "length",     "any",
                         "all",        "properties",
                         "pid",        "exe",
                         "package_id", "app_id",
                         "event_id",   "stack_id",
                         "payload",    "not",
                         "in",         "group",
                         "where",      "and",
                         "or",         "eq",
                         "ne",         "le",
                         "gt",         "lt",
                         "ge",         "between",
                         "notbetween", "modulo",
                         "contains",   "doesntcontain",
                         "is",         "isnot",
                         "uint32",     "NOT",
                         "And",        "WHERE",
                         "LEGACY",     "tracelogging"};
  for (const char* w : words) {
    EXPECT_EQ(dump_of(with_word("provider @ { event @ (id=1) { @: @; } }\n"
                                "session @ { enable @ { payload @ all { @ eq 1 } "
                                "payload @ where @ eq 1 and @ eq 2; } }",
                                w)),
              with_word("(provider @ (event @ (id 1) (field @ @)))\n"
                        "(session @ (enable @ (payload @ all (and (eq @ 1))) "
                        "(payload @ where (and (eq @ 1) (eq @ 2)))))\n",
                        w))
        << w;
  }
}

}  // namespace
}  // namespace pfc::test
