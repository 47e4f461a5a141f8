// fuzz/parse/parse_fuzzer.cc — libFuzzer target for grammar/parse.h. The first byte picks the
// mode: raw bytes (validation, lexing) or a token sequence built from the language's words
// (reaches deep grammar states). Checks parse_script's contract: never crashes, at most one
// diagnostic, every position inside the input and agreeing with SourceFile::position, and
// renders/dumps without failing.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "grammar/dump.h"
#include "grammar/parse.h"

namespace {

// Budget: inputs above this size only repeat what smaller ones cover (linear-time
// behaviour on large inputs is covered by tests/grammar).
constexpr size_t kMaxInput = 1 << 16;

constexpr const char* kTokens[] = {"provider ",
                                   "session ",
                                   "enable ",
                                   "event ",
                                   "payload ",
                                   "where ",
                                   "all ",
                                   "any ",
                                   "not ",
                                   "and ",
                                   "or ",
                                   "( ",
                                   ") ",
                                   "{ ",
                                   "} ",
                                   "; ",
                                   ", ",
                                   "= ",
                                   "== ",
                                   "!= ",
                                   "<= ",
                                   "< ",
                                   "eq ",
                                   "between ",
                                   "notbetween ",
                                   "is ",
                                   "isnot ",
                                   "contains ",
                                   "in ",
                                   "id ",
                                   "version ",
                                   "level ",
                                   "verbose ",
                                   "pid ",
                                   "exe ",
                                   "event_id ",
                                   "stack_id ",
                                   "group ",
                                   "legacy ",
                                   "length ",
                                   "[ ",
                                   "] ",
                                   ": ",
                                   "uint32 ",
                                   "wstring ",
                                   "properties ",
                                   "x ",
                                   "Level ",
                                   "\"s\\n\" ",
                                   "\"\\u{1F600}\" ",
                                   "\"open ",
                                   "1 ",
                                   "-2 ",
                                   "0x1F ",
                                   "18446744073709551616 ",
                                   "{0E95CFBC-58D4-44BA-BE40-E63A853536DF} ",
                                   "{37A5} ",
                                   "# c\n",
                                   "\n",
                                   "\t",
                                   "\xc3\xa9 ",
                                   "\xff"};
constexpr size_t kTokenCount = sizeof(kTokens) / sizeof(kTokens[0]);

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "parse_fuzzer: %s\n", what);
  std::abort();
}

void check(const std::string& text) {
  const pfc::SourceFile source("fuzz.pfs", text);
  const pfc::ParseOutput out = pfc::parse_script(source);
  if (out.diagnostics.size() > 2) fail("more than an error and a note");
  if (out.diagnostics.size() == 2 && (out.diagnostics[1].severity != pfc::Severity::Note ||
                                      out.diagnostics[0].severity != pfc::Severity::Error))
    fail("second diagnostic is not a note after the error");
  for (const pfc::Diagnostic& d : out.diagnostics) {
    if (d.pos.offset > text.size()) fail("diagnostic outside the input");
    const pfc::SourcePos p = source.position(d.pos.offset);
    if (p.line != d.pos.line || p.column != d.pos.column) fail("diagnostic line/column");
    if (d.message.empty() || d.message.find('\n') != std::string::npos) fail("bad message");
    (void)source.render(d);
  }
  if (out.ok()) (void)pfc::dump_ast(out.script);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > kMaxInput) return 0;  // nothing to pick a mode from / over budget
  if (data[0] % 2 == 0) {
    check(std::string(reinterpret_cast<const char*>(data + 1), size - 1));
    return 0;
  }
  std::string text;
  for (size_t i = 1; i < size; ++i) text += kTokens[data[i] % kTokenCount];
  check(text);
  return 0;
}
