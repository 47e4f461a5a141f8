// grammar/source.cc — SourceFile: line table, byte offset → (line, code-point column), and
// the diagnostic renderer (docs/cli.md "Diagnostics") used by every stage.
#include "grammar/source.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "base/utf8.h"

namespace pfc {
namespace {

// Long lines get a column checkpoint about every kColumnStride bytes.
constexpr size_t kColumnStride = 256;

uint32_t clamp32(size_t v) {
  return static_cast<uint32_t>(std::min<size_t>(v, std::numeric_limits<uint32_t>::max()));
}

const uint8_t* bytes(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

// True when the code point must not be echoed verbatim (C0/C1 controls except tab, DEL).
bool is_hidden(char32_t cp) { return (cp < 0x20 && cp != '\t') || (cp >= 0x7F && cp < 0xA0); }

}  // namespace

SourceFile::SourceFile(std::string name, std::string text)
    : name_(std::move(name)), text_(std::move(text)) {
  bom_ = text_.starts_with(kUtf8Bom) ? kUtf8Bom.size() : 0;
  line_starts_.push_back(clamp32(bom_));
  const char* base = text_.data();
  const size_t size = text_.size();
  size_t start = bom_;
  while (start <= size) {
    const void* nl = start < size ? std::memchr(base + start, '\n', size - start) : nullptr;
    const size_t end = nl ? static_cast<size_t>(static_cast<const char*>(nl) - base) : size;
    if (end - start > kColumnStride) {
      // Record checkpoints at sequence starts inside this long line.
      uint32_t column = 1;
      size_t next_mark = start + kColumnStride;
      for (size_t i = start; i < end;) {
        if (i >= next_mark) {
          column_marks_.emplace_back(clamp32(i), column);
          next_mark = i + kColumnStride;
        }
        i += utf8_step_length(bytes(text_) + i, end - i);
        ++column;
      }
    }
    if (!nl) break;
    start = end + 1;
    line_starts_.push_back(clamp32(start));
  }
}

SourcePos SourceFile::position(size_t offset) const {
  offset = std::min(offset, text_.size());
  SourcePos pos;
  pos.offset = clamp32(offset);
  const auto line_it = std::upper_bound(line_starts_.begin(), line_starts_.end(), pos.offset);
  if (line_it == line_starts_.begin()) return pos;  // inside the BOM: 1:1
  const size_t line_index = static_cast<size_t>(line_it - line_starts_.begin()) - 1;
  pos.line = clamp32(line_index + 1);
  size_t scan = line_starts_[line_index];
  uint32_t column = 1;
  // Start from the last checkpoint at or before `offset` on the same line, if any.
  const auto mark_it = std::upper_bound(
      column_marks_.begin(), column_marks_.end(), pos.offset,
      [](uint32_t off, const std::pair<uint32_t, uint32_t>& m) { return off < m.first; });
  if (mark_it != column_marks_.begin()) {
    const auto& mark = *(mark_it - 1);
    if (mark.first >= scan) scan = mark.first, column = mark.second;
  }
  while (scan < offset) {
    scan += utf8_step_length(bytes(text_) + scan, text_.size() - scan);
    ++column;
  }
  pos.column = column;
  return pos;
}

std::string_view SourceFile::line_text(uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  const size_t start = line_starts_[line - 1];
  size_t end = line < line_starts_.size() ? line_starts_[line] - 1 : text_.size();
  if (end > start && text_[end - 1] == '\r') --end;
  return std::string_view(text_).substr(start, end - start);
}

void echo_window(std::string_view text, size_t at, size_t& begin, size_t& end) {
  const auto starts_sequence = [&](size_t i) {
    return i >= text.size() || (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
  };
  if (at - begin > kMaxEchoSide) {
    begin = at - kMaxEchoSide;
    while (begin < at && !starts_sequence(begin)) ++begin;
  }
  if (end - at > kMaxEchoSide) {
    end = at + kMaxEchoSide;
    while (end > at && !starts_sequence(end)) --end;
  }
}

size_t SourceFile::caret_byte(const Diagnostic& d, std::string_view line) const {
  // Diagnostics made by position() carry the byte offset: use it when it agrees.
  const size_t start = static_cast<size_t>(line.data() - text_.data());
  if (d.pos.offset >= start && d.pos.offset - start <= line.size()) {
    const SourcePos at = position(d.pos.offset);
    if (at.line == d.pos.line && at.column == d.pos.column) return d.pos.offset - start;
  }
  size_t i = 0;
  for (uint32_t column = 1; column < d.pos.column && i < line.size(); ++column)
    i += utf8_step_length(reinterpret_cast<const uint8_t*>(line.data()) + i, line.size() - i);
  return i;
}

std::string SourceFile::render(const Diagnostic& d) const {
  std::string out = name_ + ":" + std::to_string(d.pos.line) + ":" + std::to_string(d.pos.column) +
                    ": " + std::string(severity_name(d.severity)) + ": " + d.message + "\n";
  std::string_view line = line_text(d.pos.line);
  uint32_t caret_column = d.pos.column;
  if (line.size() > 2 * kMaxEchoSide) {
    const size_t at = caret_byte(d, line);
    size_t begin = 0, end = line.size();
    echo_window(line, at, begin, end);
    // Columns before the window are not echoed: count the caret from the window's start.
    caret_column = d.pos.column - (position(line.data() - text_.data() + begin).column - 1);
    line = line.substr(begin, end - begin);
  }
  const auto* p = reinterpret_cast<const uint8_t*>(line.data());
  std::string caret;
  uint32_t column = 1;
  for (size_t i = 0; i < line.size(); ++column) {
    char32_t cp = 0;
    const size_t len = decode_utf8_sequence(p + i, line.size() - i, &cp);
    if (len == 0 || is_hidden(cp)) {
      out.push_back('?');
    } else {
      out.append(line.substr(i, len));
    }
    if (column < caret_column) caret.push_back(len != 0 && cp == '\t' ? '\t' : ' ');
    i += len == 0 ? 1 : len;
  }
  for (; column < caret_column; ++column) caret.push_back(' ');
  out += "\n" + caret + "^\n";
  if (!d.fixit.empty()) out += caret + d.fixit + "\n";  // clang's fix-it line
  return out;
}

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

}  // namespace pfc
