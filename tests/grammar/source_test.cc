// tests/grammar/source_test.cc — SourceFile: offsets → (line, code-point column), line text,
// and the diagnostic rendering of docs/cli.md "Diagnostics" (control bytes, invalid UTF-8, tabs).
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "base/utf8.h"
#include "grammar/source.h"

namespace pfc {
namespace {

// Reference implementation: scan from the start of the text.
SourcePos naive_position(const std::string& text, size_t offset) {
  SourcePos pos;
  pos.offset = static_cast<uint32_t>(offset);
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  for (size_t i = 0; i < offset;) {
    if (p[i] == '\n') {
      ++pos.line, pos.column = 1, ++i;
      continue;
    }
    i += utf8_step_length(p + i, text.size() - i);
    ++pos.column;
  }
  return pos;
}

TEST(SourceTest, Positions) {
  const SourceFile f("a.pfs", "ab\r\n\xc3\xa9x\n\n\xff\xffz");
  const struct {
    size_t offset;
    uint32_t line, column;
  } cases[] = {{0, 1, 1}, {1, 1, 2}, {2, 1, 3},  {4, 2, 1},  {6, 2, 2},  {7, 2, 3},
               {8, 3, 1}, {9, 4, 1}, {10, 4, 2}, {11, 4, 3}, {12, 4, 4}, {99, 4, 4}};
  for (const auto& c : cases) {
    const SourcePos p = f.position(c.offset);
    EXPECT_EQ(p.line, c.line) << c.offset;
    EXPECT_EQ(p.column, c.column) << c.offset;
  }
  EXPECT_EQ(f.position(99).offset, 12u);
  EXPECT_EQ(f.line_text(1), "ab");
  EXPECT_EQ(f.line_text(2), "\xc3\xa9x");
  EXPECT_EQ(f.line_text(3), "");
  EXPECT_EQ(f.line_text(4), "\xff\xffz");
  EXPECT_EQ(f.line_text(0), "");
  EXPECT_EQ(f.line_text(5), "");
  const SourceFile empty("e.pfs", "");
  EXPECT_EQ(empty.position(0).line, 1u);
  EXPECT_EQ(empty.position(0).column, 1u);
  const SourceFile trailing("t.pfs", "x\n");
  EXPECT_EQ(trailing.position(2).line, 2u);
  EXPECT_EQ(trailing.position(2).column, 1u);
}

// Long lines use checkpoints; they must agree with a plain scan everywhere.
TEST(SourceTest, LongLinesMatchNaiveScan) {
  std::mt19937 rng(3);
  const std::string pieces[] = {"a",    "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
                                "\xff", "\xe2\x82", "\n",           "\t"};
  for (int round = 0; round < 20; ++round) {
    std::string text;
    const size_t n = 500 + rng() % 3000;
    for (size_t i = 0; i < n; ++i) {
      const size_t k = rng() % 100;
      text += k < 90 ? pieces[k % 6] : pieces[6 + k % 2];
      if (round % 2 == 0 && text.back() == '\n') text.back() = 'b';  // some single-line texts
    }
    const SourceFile f("l.pfs", text);
    for (size_t off = 0; off <= text.size(); off += 1 + rng() % 17) {
      const SourcePos got = f.position(off);
      const SourcePos want = naive_position(text, off);
      ASSERT_EQ(got.line, want.line) << off;
      ASSERT_EQ(got.column, want.column) << off;
    }
  }
}

TEST(SourceTest, Render) {
  const SourceFile f("dir/f.pfs", "a\tb\x01\xff\xc3\xa9 c\r\nnext");
  Diagnostic d{Severity::Error, f.position(8), "bad thing"};  // the 'c'
  EXPECT_EQ(d.pos.column, 8u);
  EXPECT_EQ(f.render(d), "dir/f.pfs:1:8: error: bad thing\na\tb??\xc3\xa9 c\n \t     ^\n");
  d = Diagnostic{Severity::Warning, f.position(f.text().size()), "at end"};
  EXPECT_EQ(f.render(d), "dir/f.pfs:2:5: warning: at end\nnext\n    ^\n");
  d = Diagnostic{Severity::Note, SourcePos{1, 12, 0}, "past the end"};
  EXPECT_EQ(f.render(d), "dir/f.pfs:1:12: note: past the end\na\tb??\xc3\xa9 c\n \t         ^\n");
  EXPECT_EQ(severity_name(Severity::Error), "error");
  EXPECT_EQ(severity_name(Severity::Warning), "warning");
  EXPECT_EQ(severity_name(Severity::Note), "note");
}

// A line longer than 2 × kMaxEchoSide bytes is echoed only around the caret, with the caret
// under the same character, whether the diagnostic carries its byte offset or only a column.
TEST(SourceTest, RenderWindowsLongLines) {
  std::string line;
  // Numbers (so every window occurs once in the line) and a 2-byte 'é' after every 7th.
  for (int i = 0; i < 200; ++i) line += std::to_string(i) + (i % 7 == 0 ? "\xc3\xa9" : " ");
  size_t at = line.size() / 2;  // a sequence start in the middle
  while ((static_cast<unsigned char>(line[at]) & 0xC0) == 0x80) ++at;
  const SourceFile f("w.pfs", "first\n" + line + "\nlast");
  const Diagnostic with_offset{Severity::Error, f.position(6 + at), "here"};
  const Diagnostic column_only{Severity::Error, SourcePos{2, with_offset.pos.column, 0}, "here"};
  for (const Diagnostic& d : {with_offset, column_only}) {
    const std::string out = f.render(d);
    const size_t body = out.find('\n') + 1;
    const size_t caret = out.find('\n', body) + 1;
    const std::string echoed = out.substr(body, caret - 1 - body);
    const std::string carets = out.substr(caret, out.size() - 1 - caret);
    EXPECT_LE(echoed.size(), 2 * kMaxEchoSide);
    EXPECT_NE(line.find(echoed), std::string::npos);
    // The caret's column in the echo is the number of code points before it, plus one.
    const size_t before = line.find(echoed);
    EXPECT_EQ(carets.size(), utf8_to_utf32(line.substr(before, at - before)).size() + 1) << out;
    EXPECT_EQ(carets.back(), '^');
  }
  // At the end of the long line: the window ends there, the caret one past the last byte.
  const Diagnostic at_end{Severity::Error, f.position(6 + line.size()), "end"};
  const std::string out = f.render(at_end);
  EXPECT_NE(out.find(line.substr(line.size() - 100) + "\n"), std::string::npos);
  EXPECT_EQ(out.substr(out.size() - 2), "^\n");
  // A short line is echoed whole, as before.
  const Diagnostic first{Severity::Error, f.position(2), "short"};
  EXPECT_EQ(f.render(first), "w.pfs:1:3: error: short\nfirst\n  ^\n");
}

}  // namespace
}  // namespace pfc
