// fuzz/ir_wire/ir_wire_fuzzer.cc — decode_program (compiler/ir_wire.h) on arbitrary bytes:
// never a crash; a refusal is one line starting "IR wire form"; what decodes passed the
// verifier, re-encodes to exactly the input (the form is canonical) and runs on the
// interpreter. Seeds: fuzz/corpus/ir_wire/ (tests/jit/make_fuzz_seeds.cc).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "compiler/interp.h"
#include "compiler/ir_wire.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto program = pfc::ir::decode_program(bytes);
  if (!program) {
    const std::string& m = program.error().message;
    if (m.rfind("IR wire form", 0) != 0 || m.find('\n') != std::string::npos) {
      std::fprintf(stderr, "ir_wire_fuzzer: bad refusal: %s\n", m.c_str());
      std::abort();
    }
    return 0;
  }
  if (pfc::ir::encode_program(*program) != bytes) {
    std::fprintf(stderr, "ir_wire_fuzzer: mismatch: the decoded program re-encodes differently\n");
    std::abort();
  }
  auto interp = pfc::Interpreter::create(std::move(*program));
  if (!interp) {
    std::fprintf(stderr, "ir_wire_fuzzer: a verified program was refused: %s\n",
                 interp.error().message.c_str());
    std::abort();
  }
  pfc::Event event;
  event.payload.assign(data, data + std::min<size_t>(size, 64));
  (void)(*interp)->route(event.view());
  return 0;
}
