// tests/grammar/rules_test.cc — static checks of the PEGTL grammar: no rule can loop without
// consuming input (analyze), and keywords stay usable as names.
#include "grammar/rules.h"

#include <gtest/gtest.h>

#include <tao/pegtl/contrib/analyze.hpp>

#include "tests/grammar/test_util.h"

namespace pfc::test {
namespace {

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
  for (const std::string w : words) {  // NOLINT: builds a string from const char*
    const std::string script = "provider " + w + " { event " + w + " (id=1) { " + w + ": " + w +
                               "; } }\nsession " + w + " { enable " + w + " { payload " + w +
                               " all { " + w + " eq 1 } payload " + w + " where " + w +
                               " eq 1 and " + w + " eq 2; } }";
    const std::string n = w;
    EXPECT_EQ(dump_of(script), "(provider " + n + " (event " + n + " (id 1) (field " + n + " " + n +
                                   ")))\n" + "(session " + n + " (enable " + n + " (payload " + n +
                                   " all (and (eq " + n + " 1))) (payload " + n +
                                   " where (and (eq " + n + " 1) (eq " + n + " 2)))))\n")
        << w;
  }
}

}  // namespace
}  // namespace pfc::test
