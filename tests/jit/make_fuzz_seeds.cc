// tests/jit/make_fuzz_seeds.cc — writes the seed corpora of the ir_wire and native_file fuzz
// targets (fuzz/ir_wire, fuzz/native_file) from the golden corpus:
//   build/ci/tests/jit/make_fuzz_seeds fuzz/corpus
// writes fuzz/corpus/ir_wire/<case>.irw (every program's wire form) and
// fuzz/corpus/native_file/<case>.pfcn (the first eight programs compiled for this host) and
// fuzz/corpus/native_file/hsdb_program.hsdb (the string database file of
// fuzz/native_file/hsdb_program.h's program, for this host's Hyperscan).
// The output is committed; rerun after a change of either format.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "compiler/ir_wire.h"
#include "compiler/jit/shared_code.h"
#include "compiler/str_match.h"
#include "fuzz/native_file/hsdb_program.h"
#include "tests/compiler/corpus.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_fuzz_seeds CORPUS_DIR\n");
    return 2;
  }
  namespace fs = std::filesystem;
  const fs::path root = argv[1];
  fs::create_directories(root / "ir_wire");
  fs::create_directories(root / "native_file");
  size_t n = 0;
  for (const pfc::testing::CorpusProgram& c : pfc::testing::golden_programs()) {
    std::string name = c.name.substr(c.name.find('/') + 1);
    for (char& ch : name) ch = ch == ' ' ? '_' : ch;
    const std::string wire = pfc::ir::encode_program(c.program);
    std::ofstream(root / "ir_wire" / (name + ".irw"), std::ios::binary) << wire;
    if (n++ >= 8) continue;
    auto file = pfc::compile_shared(c.program, pfc::program_key(wire));
    if (!file) {
      std::fprintf(stderr, "%s: %s\n", c.name.c_str(), file.error().message.c_str());
      return 1;
    }
    std::ofstream(root / "native_file" / (name + ".pfcn"), std::ios::binary) << *file;
  }
  const pfc::ir::Program hsdb = pfc::fuzz::hsdb_program(false);
  const std::string databases =
      pfc::internal::serialize_str_databases(hsdb, pfc::program_key(pfc::ir::encode_program(hsdb)));
  if (databases.empty()) {
    std::fprintf(stderr, "hsdb_program: no Hyperscan databases (libhs not loaded?)\n");
    return 1;
  }
  std::ofstream(root / "native_file" / "hsdb_program.hsdb", std::ios::binary) << databases;
  return 0;
}
