// tests/tdh/tdh_pred_test.cc — pfc_tdh_int_pred (every operator, signed and unsigned edge
// values), pfc_tdh_str_pred (every operator, UTF-16 and 8-bit, case folding, invalid
// UTF-8, surrogates, empty strings, declared lengths, truncation) and pfc_tdh_guid_pred.
#include <gtest/gtest.h>

#include "base/utf8.h"
#include "payload_builder.h"
#include "pfc/enable.h"
#include "pfc/guid.h"
#include "pfc/schema.h"
#include "runtime/casefold.h"
#include "runtime/str_search.h"
#include "runtime/tdh.h"

namespace pfc {
namespace {

using testing::exact_copy;
using testing::Payload;

constexpr uint64_t kNoLen = PFC_TDH_NO_LENGTH;

uint32_t op(PayloadOp o) { return static_cast<uint32_t>(o); }

int ipred(PayloadOp o, bool is_signed, int64_t v, int64_t lo, int64_t hi = 0) {
  return pfc_tdh_int_pred(op(o), is_signed, static_cast<uint64_t>(v), static_cast<uint64_t>(lo),
                          static_cast<uint64_t>(hi));
}
int upred(PayloadOp o, uint64_t v, uint64_t lo, uint64_t hi = 0) {
  return pfc_tdh_int_pred(op(o), 0, v, lo, hi);
}

TEST(TdhIntPred, ComparisonsSigned) {
  using enum PayloadOp;
  struct Row {
    PayloadOp o;
    int64_t v, lo, hi;
    int expected;
  };
  const Row rows[] = {
      {Eq, -1, -1, 0, 1},
      {Eq, -1, 1, 0, 0},
      {Ne, -1, 1, 0, 1},
      {Ne, 5, 5, 0, 0},
      {Le, -2, -1, 0, 1},
      {Le, -1, -1, 0, 1},
      {Le, 0, -1, 0, 0},
      {Gt, 0, -1, 0, 1},
      {Gt, -1, -1, 0, 0},
      {Lt, INT64_MIN, INT64_MAX, 0, 1},
      {Lt, INT64_MAX, INT64_MIN, 0, 0},
      {Ge, INT64_MIN, INT64_MIN, 0, 1},
      {Ge, -5, 3, 0, 0},
      {Between, -3, -3, 3, 1},
      {Between, 3, -3, 3, 1},
      {Between, 0, -3, 3, 1},
      {Between, -4, -3, 3, 0},
      {Between, 4, -3, 3, 0},
      {Between, INT64_MIN, INT64_MIN, INT64_MAX, 1},
      {NotBetween, -4, -3, 3, 1},
      {NotBetween, 4, -3, 3, 1},
      {NotBetween, -3, -3, 3, 0},
      {NotBetween, 3, -3, 3, 0},
      {Modulo, 10, 5, 0, 1},
      {Modulo, 11, 5, 0, 0},
      {Modulo, -10, 5, 0, 1},
      {Modulo, -10, -5, 0, 1},
      {Modulo, 0, 7, 0, 1},
      {Modulo, INT64_MIN, -1, 0, 1},
      {Modulo, INT64_MAX, -1, 0, 1},
      {Modulo, INT64_MIN, 2, 0, 1},
      {Modulo, INT64_MAX, 2, 0, 0},
      {Modulo, 5, 0, 0, 0},  // lo 0 is rejected by the compiler; stays defined
  };
  for (const Row& r : rows) {
    EXPECT_EQ(ipred(r.o, true, r.v, r.lo, r.hi), r.expected)
        << static_cast<int>(r.o) << " " << r.v << " " << r.lo << " " << r.hi;
  }
}

TEST(TdhIntPred, ComparisonsUnsigned) {
  using enum PayloadOp;
  const uint64_t m = UINT64_MAX;
  EXPECT_EQ(upred(Eq, m, m), 1);
  EXPECT_EQ(upred(Lt, 0, m), 1);
  EXPECT_EQ(upred(Gt, m, 0), 1);  // signed, this would be -1 > 0
  EXPECT_EQ(ipred(Gt, true, -1, 0), 0);
  EXPECT_EQ(upred(Le, m, m - 1), 0);
  EXPECT_EQ(upred(Ge, m - 1, m), 0);
  EXPECT_EQ(upred(Ne, 0, m), 1);
  EXPECT_EQ(upred(Between, m, 1, m), 1);
  EXPECT_EQ(upred(Between, 0, 1, m), 0);
  EXPECT_EQ(upred(NotBetween, 0, 1, m), 1);
  EXPECT_EQ(upred(Between, 7, 7, 16), 1);
  EXPECT_EQ(upred(Between, 16, 7, 16), 1);
  EXPECT_EQ(upred(Between, 17, 7, 16), 0);
  EXPECT_EQ(upred(Modulo, m, m), 1);
  EXPECT_EQ(upred(Modulo, m - 1, m), 0);  // unsigned: no "-1" shortcut
  EXPECT_EQ(upred(Modulo, 0, m), 1);
  EXPECT_EQ(upred(Modulo, 1u << 20, 1024), 1);
  EXPECT_EQ(upred(Modulo, (1u << 20) + 1, 1024), 0);
}

TEST(TdhIntPred, NonIntegerOperatorsAreFalse) {
  for (uint32_t o : {9u, 20u, 21u, 30u, 31u, 32u, 0xFFFFFFFFu}) {
    EXPECT_EQ(pfc_tdh_int_pred(o, 0, 1, 1, 1), 0) << o;
    EXPECT_EQ(pfc_tdh_int_pred(o, 1, 1, 1, 1), 0) << o;
  }
}

// Runs pfc_tdh_str_pred on an exact copy of `p` with needle fold_utf8(needle_utf8).
int spred(const Payload& p, uint64_t off, InType t, PayloadOp o, std::string_view needle_utf8,
          uint64_t length = kNoLen) {
  auto buf = exact_copy(p.bytes, p.size());
  const std::u32string needle = fold_utf8(needle_utf8);
  return pfc_tdh_str_pred(buf.get(), p.size(), off, static_cast<uint32_t>(t), length, op(o),
                          needle.data(), needle.size(), needle_links(needle).data());
}

// The four operators' results on one field, as "IS ISNOT CONTAINS DOESNTCONTAIN" bits.
std::string all_ops(const Payload& p, uint64_t off, InType t, std::string_view needle,
                    uint64_t length = kNoLen) {
  std::string out;
  for (PayloadOp o :
       {PayloadOp::Is, PayloadOp::IsNot, PayloadOp::Contains, PayloadOp::DoesntContain}) {
    out += static_cast<char>('0' + spred(p, off, t, o, needle, length));
  }
  return out;
}

struct StrRow {
  std::u16string field;  // also used, as UTF-8, for the 8-bit variant
  const char* needle;
  const char* expected;  // IS ISNOT CONTAINS DOESNTCONTAIN
};

std::string to_utf8(const std::u16string& s) {
  std::string out;
  EXPECT_TRUE(utf16_to_utf8(s, out, Unpaired::Reject));
  return out;
}

TEST(TdhStrPred, OperatorsOnBothEncodings) {
  const StrRow rows[] = {
      {u"User", "User", "1010"},
      {u"User", "user", "1010"},
      {u"USER", "uSeR", "1010"},
      {u"User", "Use", "0110"},
      {u"User", "ser", "0110"},
      {u"User", "Users", "0101"},
      {u"User", "xUser", "0101"},
      {u"User", "", "0110"},  // the empty needle is contained in everything
      {u"", "", "1010"},
      {u"", "a", "0101"},
      {u"aaab", "aab", "0110"},  // overlapping restart
      {u"abababc", "ababc", "0110"},
      {u"UNIVERSAL", "UNI", "0110"},
      {u"\u00C9t\u00C9", "\u00e9T\u00e9", "1010"},            // É folds to é
      {u"\u03A3\u03C2", "\u03C3\u03C3", "1010"},              // Σς ≡ σσ
      {u"\u0414\u043E\u043C", "\u0434\u041E\u041C", "1010"},  // Дом ≡ дОМ
      {u"Stra\u1E9Ee", "STRA\u00DFE", "1010"},                // ẞ ≡ ß
      {u"100\u212A", "100k", "1010"},                         // Kelvin sign ≡ k
      {u"x\U0001F600y", "\U0001F600", "0110"},                // supplementary
      {u"\U00010400", "\U00010428", "1010"},                  // Deseret case pair
      {u"stra\u00DFe", "strasse", "0101"},                    // simple folding: ß is not ss
  };
  for (const StrRow& r : rows) {
    SCOPED_TRACE(r.needle);
    Payload w;
    w.u8(0xEE).wstr(r.field).u16(0x4141);
    EXPECT_EQ(all_ops(w, 1, InType::UnicodeString, r.needle), r.expected) << "UTF-16";
    Payload a;
    a.u8(0xEE).str(to_utf8(r.field)).u8(0x41);
    EXPECT_EQ(all_ops(a, 1, InType::AnsiString, r.needle), r.expected) << "8-bit";
  }
}

TEST(TdhStrPred, UnpairedSurrogatesDecodeAsThemselves) {
  Payload p;
  p.raw({0x00, 0xD8, 'a', 0, 0x00, 0xDC, 0, 0});  // D800 'a' DC00
  const std::u32string needle = {0xD800, U'A', 0xDC00};
  const std::u32string lone = {0xDC00};
  const std::u32string folded_a = {U'a'};
  auto call = [&](PayloadOp o, const std::u32string& n) {
    return pfc_tdh_str_pred(p.bytes.data(), p.size(), 0, 1, kNoLen, op(o), n.data(), n.size(),
                            needle_links(n).data());
  };
  EXPECT_EQ(call(PayloadOp::Is, needle), 0);  // needles arrive folded: 'A' never matches
  const std::u32string folded = {0xD800, U'a', 0xDC00};
  EXPECT_EQ(call(PayloadOp::Is, folded), 1);
  EXPECT_EQ(call(PayloadOp::Contains, lone), 1);
  EXPECT_EQ(call(PayloadOp::Contains, folded_a), 1);
  // A high surrogate at the very end (no room for a low one).
  Payload q;
  q.raw({'x', 0, 0x3D, 0xD8, 0, 0});
  const std::u32string hi = {0xD83D};
  EXPECT_EQ(pfc_tdh_str_pred(q.bytes.data(), q.size(), 0, 1, kNoLen, op(PayloadOp::Contains),
                             hi.data(), hi.size(), needle_links(hi).data()),
            1);
}

TEST(TdhStrPred, InvalidUtf8BytesMatchAsEscapes) {
  Payload p;
  p.str(
      "a\xFF"
      "b\xC3");  // invalid byte, then a truncated sequence at the end
  EXPECT_EQ(spred(p, 0, InType::AnsiString, PayloadOp::Is,
                  "A\xFF"
                  "B\xC3"),
            1);
  EXPECT_EQ(spred(p, 0, InType::AnsiString, PayloadOp::Contains, "\xFF"), 1);
  EXPECT_EQ(spred(p, 0, InType::AnsiString, PayloadOp::Contains, "\xC3"), 1);
  EXPECT_EQ(spred(p, 0, InType::AnsiString, PayloadOp::Contains, "\xC3\xBF"), 0);
  EXPECT_EQ(spred(p, 0, InType::AnsiString, PayloadOp::Contains, "ab"), 0);
}

TEST(TdhStrPred, DeclaredLengthsAndEmbeddedNul) {
  Payload w;
  w.wstr(u"abc", false).wstr(u"de", false);  // "abcde", no terminator anywhere
  EXPECT_EQ(all_ops(w, 0, InType::UnicodeString, "abc", 3), "1010");
  EXPECT_EQ(all_ops(w, 0, InType::UnicodeString, "abcde", 5), "1010");
  EXPECT_EQ(all_ops(w, 0, InType::UnicodeString, "", 0), "1010");
  EXPECT_EQ(all_ops(w, 0, InType::UnicodeString, "abcdef", 6), "0000");  // does not fit
  EXPECT_EQ(all_ops(w, 0, InType::UnicodeString, "abc"), "0000");        // no terminator
  // A fixed-length field padded with NULs: the value stops at the first NUL.
  Payload pad;
  pad.wstr(u"ab").u16(0).u16('z');  // a b 0 0 z, length 5
  EXPECT_EQ(all_ops(pad, 0, InType::UnicodeString, "ab", 5), "1010");
  EXPECT_EQ(all_ops(pad, 0, InType::UnicodeString, "z", 5), "0101");
  Payload a;
  a.str("ab", false).u8(0).str("z", false);
  EXPECT_EQ(all_ops(a, 0, InType::AnsiString, "ab", 4), "1010");
  EXPECT_EQ(all_ops(a, 0, InType::AnsiString, "z", 4), "0101");
  EXPECT_EQ(all_ops(a, 0, InType::AnsiString, "a", 1), "1010");
  EXPECT_EQ(all_ops(a, 0, InType::AnsiString, "", 5), "0000");
}

TEST(TdhStrPred, UndecodableIsFalseForEveryOperator) {
  Payload p;
  p.wstr(u"abc", false).u8(0);  // odd trailing byte, no terminator
  EXPECT_EQ(all_ops(p, 0, InType::UnicodeString, "x"), "0000");
  EXPECT_EQ(all_ops(p, 0, InType::UnicodeString, ""), "0000");
  EXPECT_EQ(all_ops(p, PFC_TDH_BAD_OFFSET, InType::UnicodeString, "x"), "0000");
  EXPECT_EQ(all_ops(p, p.size() + 1, InType::AnsiString, "x"), "0000");
  EXPECT_EQ(all_ops(p, 0, InType::UnicodeString, "", UINT64_MAX / 2 + 1), "0000");  // overflow
  Payload s;
  s.str("abc", false);
  EXPECT_EQ(all_ops(s, 0, InType::AnsiString, "abc"), "0000");
  EXPECT_EQ(all_ops(s, 3, InType::AnsiString, ""), "0000");
  EXPECT_EQ(all_ops(s, 0, InType::UInt32, "abc"), "0000");  // not a string type
  EXPECT_EQ(pfc_tdh_str_pred(nullptr, 0, 0, 2, kNoLen, op(PayloadOp::IsNot), nullptr, 0, nullptr),
            0);
  EXPECT_EQ(pfc_tdh_str_pred(nullptr, 0, 0, 2, 0, op(PayloadOp::Is), nullptr, 0, nullptr), 1);
}

TEST(TdhStrPred, TruncationNeverReadsOutOfBounds) {
  Payload p;
  p.u8(1).wstr(u"Hello \u00C9\U0001F600 world");
  const std::u32string needle = fold_utf8("world");
  for (uint64_t n = 0; n <= p.size(); ++n) {
    auto buf = exact_copy(p.bytes, n);
    for (PayloadOp o :
         {PayloadOp::Is, PayloadOp::IsNot, PayloadOp::Contains, PayloadOp::DoesntContain}) {
      const int r = pfc_tdh_str_pred(buf.get(), n, 1, 1, kNoLen, op(o), needle.data(),
                                     needle.size(), needle_links(needle).data());
      const int expected_full = o == PayloadOp::IsNot || o == PayloadOp::Contains;
      EXPECT_EQ(r, n == p.size() ? expected_full : 0) << n << " " << static_cast<int>(o);
    }
  }
}

TEST(TdhStrPred, OtherOperatorsAreFalse) {
  Payload p;
  p.str("a");
  for (PayloadOp o : {PayloadOp::Eq, PayloadOp::Ne, PayloadOp::Modulo}) {
    EXPECT_EQ(spred(p, 0, InType::AnsiString, o, "a"), 0);
  }
}

TEST(TdhGuidPred, IsAndIsNot) {
  const Guid g = *Guid::parse("{0E95CFBC-58D4-44BA-BE40-E63A853536DF}");
  const auto bytes = g.to_bytes();
  Payload p;
  p.u8(0);
  p.bytes.insert(p.bytes.end(), bytes.begin(), bytes.end());
  auto other = bytes;
  other[15] ^= 1;
  for (uint64_t n = 0; n <= p.size(); ++n) {
    auto buf = exact_copy(p.bytes, n);
    const bool fits = n == p.size();
    EXPECT_EQ(pfc_tdh_guid_pred(buf.get(), n, 1, op(PayloadOp::Is), bytes.data()), fits ? 1 : 0);
    EXPECT_EQ(pfc_tdh_guid_pred(buf.get(), n, 1, op(PayloadOp::IsNot), bytes.data()), 0);
    EXPECT_EQ(pfc_tdh_guid_pred(buf.get(), n, 1, op(PayloadOp::Is), other.data()), 0);
    EXPECT_EQ(pfc_tdh_guid_pred(buf.get(), n, 1, op(PayloadOp::IsNot), other.data()), fits ? 1 : 0);
  }
  EXPECT_EQ(pfc_tdh_guid_pred(p.bytes.data(), p.size(), PFC_TDH_BAD_OFFSET, op(PayloadOp::IsNot),
                              other.data()),
            0);
  EXPECT_EQ(pfc_tdh_guid_pred(p.bytes.data(), p.size(), 1, op(PayloadOp::Eq), bytes.data()), 0);
}

}  // namespace
}  // namespace pfc
