// tests/trace/names_test.cc — the namespace's file names: what object_name writes,
// parse_object_name reads back, and nothing else.
#include "trace/names.h"

#include <gtest/gtest.h>

namespace pfc::trace {
namespace {

TEST(ObjectNames, RoundTrip) {
  const ProcessKey p{4294967295u, 18446744073709551615ull};
  EXPECT_EQ(object_name('r', 7, p), "r-7-4294967295-18446744073709551615");
  EXPECT_EQ(object_name('p', std::nullopt, ProcessKey{12, 34}), "p-12-34");
  EXPECT_EQ(object_name('c', 0, ProcessKey{1, 2}, "host"), "c-0-1-2-host");

  const auto r = parse_object_name("r-7-4294967295-18446744073709551615", 'r', true);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->instance, 7u);
  EXPECT_EQ(r->process, p);
  EXPECT_TRUE(r->rest.empty());

  const auto c = parse_object_name("c-3-10-20-host", 'c', true);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->rest, "host");
  const auto h = parse_object_name("c-3-10-20-5-x", 'c', true);  // a rest may hold '-'
  ASSERT_TRUE(h);
  EXPECT_EQ(h->process, (ProcessKey{10, 20}));
  EXPECT_EQ(h->rest, "5-x");

  const auto q = parse_object_name("p-12-34", 'p', false);
  ASSERT_TRUE(q);
  EXPECT_FALSE(q->instance);
  EXPECT_EQ(q->process, (ProcessKey{12, 34}));
}

TEST(ObjectNames, RejectsWhatIsNotWritten) {
  for (const char* bad : {"", "r", "r-", "r-1", "r-1-2", "r-1-2-", "x-1-2-3", "r-1--3", "r-+1-2-3",
                          "r- 1-2-3", "r-1-2-3x", "r-1-4294967296-3", "r-1-2-18446744073709551616",
                          "r-0x1-2-3", "r-1-2-3-", "R-1-2-3"})
    EXPECT_FALSE(parse_object_name(bad, 'r', true)) << bad;
  EXPECT_FALSE(parse_object_name("p-1", 'p', false));
  const auto extra = parse_object_name("p-1-2-3", 'p', false);  // callers check `rest`
  ASSERT_TRUE(extra);
  EXPECT_EQ(extra->rest, "3");
}

}  // namespace
}  // namespace pfc::trace
