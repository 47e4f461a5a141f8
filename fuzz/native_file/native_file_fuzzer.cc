// fuzz/native_file/native_file_fuzzer.cc — parse_native_file and check_shared_object
// (compiler/native_file.h) on arbitrary bytes; nothing is ever loaded. Each input is tried
// as given (almost always refused by the hash), with its hash fixed up (so the header and
// the ELF checks behind it are reached), and as a bare shared object. Never a crash; every
// refusal is one line; what parses re-writes to the same bytes. Seeds:
// fuzz/corpus/native_file/ (tests/jit/make_fuzz_seeds.cc).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "compiler/native_file.h"

namespace {

constexpr size_t kHashAt = 12;  // after the magic and the format (docs/jit.md)

void check_refusal(const pfc::Error& e) {
  if (e.message.empty() || e.message.find('\n') != std::string::npos) {
    std::fprintf(stderr, "native_file_fuzzer: bad refusal: %s\n", e.message.c_str());
    std::abort();
  }
}

void parse(const std::string& bytes) {
  auto f = pfc::parse_native_file(bytes);
  if (!f) return check_refusal(f.error());
  if (pfc::write_native_file(f->key, f->target, f->compile_us, f->slots, f->elf) != bytes) {
    std::fprintf(stderr, "native_file_fuzzer: mismatch: a parsed file re-writes differently\n");
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  parse(bytes);
  if (bytes.size() >= kHashAt + 16) {
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(
        &c, XXH3_128bits(bytes.data() + kHashAt + 16, bytes.size() - kHashAt - 16));
    bytes.replace(kHashAt, 16, reinterpret_cast<const char*>(c.digest), 16);
    parse(bytes);
  }
  for (size_t slots : {size_t{0}, size_t{1}, size_t{4}}) {
    if (auto ok = pfc::check_shared_object(
            std::string_view(reinterpret_cast<const char*>(data), size), slots);
        !ok)
      check_refusal(ok.error());
  }
  return 0;
}
