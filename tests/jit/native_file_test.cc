// tests/jit/native_file_test.cc — compiled-program files (compiler/native_file.h): the file
// round-trips and refuses every flipped byte and every truncation; check_shared_object
// refuses shared objects made at test time with clang-19 and ld.lld-19 that break one of
// its rules (an undefined symbol, absolute or symbol relocations, DT_NEEDED, initialisers,
// TLS, an executable stack, a writable and executable segment) and accepts what
// compile_shared makes. Code with an unresolved or absolute relocation is never accepted.
#include <elf.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "compiler/ir_wire.h"
#include "compiler/jit/shared_code.h"
#include "compiler/native_file.h"
#include "tests/jit/jit_test_util.h"

namespace pfc::testing {
namespace {

namespace fs = std::filesystem;

// A source with pfc_route and a two-slot pfc_table, as the checker wants them.
constexpr const char* kBase =
    "void* pfc_table[2];\n"
    "unsigned long pfc_route(const void* e, unsigned long* s) { *s = 0; return 0; }\n";

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Compiles kBase + `c_source` (and `asm_source`, when given) with clang-19 and links a
// shared object with ld.lld-19 and `link_flags`; fails the test when a tool fails.
std::string shared_object(const std::string& c_source, const std::string& link_flags,
                          const std::string& cc_flags = "-O1", const std::string& asm_source = "") {
  EXPECT_FALSE(std::string_view(PFC_TEST_CLANG).empty() || std::string_view(PFC_TEST_LLD).empty())
      << "clang-19 and ld.lld-19 are needed (scripts/bootstrap installs them)";
  char pattern[] = "/tmp/pfc-elf-test-XXXXXX";
  if (mkdtemp(pattern) == nullptr) {
    ADD_FAILURE() << "mkdtemp: " << std::strerror(errno);
    return {};
  }
  const fs::path dir = pattern;
  std::ofstream(dir / "a.c") << kBase << c_source;
  std::string objects = (dir / "a.o").string();
  std::string cmd = std::string(PFC_TEST_CLANG) + " -c -fPIC " + cc_flags + " " +
                    (dir / "a.c").string() + " -o " + objects;
  if (!asm_source.empty()) {
    std::ofstream(dir / "b.s") << asm_source;
    cmd += " && " + std::string(PFC_TEST_CLANG) + " -c " + (dir / "b.s").string() + " -o " +
           (dir / "b.o").string();
    objects += " " + (dir / "b.o").string();
  }
  cmd += " && " + std::string(PFC_TEST_LLD) + " -shared --hash-style=gnu -z noexecstack " +
         link_flags + " -o " + (dir / "a.so").string() + " " + objects;
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::string elf = read_all(dir / "a.so");
  fs::remove_all(dir);
  return elf;
}

std::string refusal(const std::string& elf, size_t slots = 2) {
  auto r = check_shared_object(elf, slots);
  return r ? "accepted" : r.error().message;
}

TEST(CheckSharedObject, AcceptsTheMinimalObject) {
  const std::string elf = shared_object("", "-z now");
  EXPECT_EQ(refusal(elf), "accepted");
  EXPECT_EQ(refusal(elf, 3),
            "the shared object pfc_table is not 3 aligned pointers in a writable segment");
}

TEST(CheckSharedObject, RefusesUnresolvedAndAbsoluteRelocations) {
  EXPECT_EQ(refusal(shared_object("int x; int* px = &x;\n", "-z now")),
            "the shared object has relocation type 1 (only R_X86_64_RELATIVE is allowed)");
  EXPECT_EQ(refusal(shared_object("int y; int gety(void) { return y; }\n", "-z now")),
            "the shared object has relocation type 6 (only R_X86_64_RELATIVE is allowed)");
  EXPECT_EQ(refusal(shared_object("extern int f(void); int g(void) { return f(); }\n", "-z now")),
            "the shared object has PLT relocations");
  EXPECT_EQ(refusal(shared_object("int h(void) { return 1; } int k(void) { return h() + 1; }\n",
                                  "-z lazy", "-O0 -fsemantic-interposition")),
            "the shared object has PLT relocations");
}

TEST(CheckSharedObject, RefusesAnUndefinedSymbolWithoutRelocation) {
  const std::string elf = shared_object("", "-z now", "-O1", ".globl undef_sym\n.data\n.quad 0\n");
  EXPECT_EQ(refusal(elf), "the shared object has an undefined symbol 'undef_sym'");
}

TEST(CheckSharedObject, RefusesLoadTimeEffects) {
  EXPECT_EQ(refusal(shared_object("", "-z now /lib/x86_64-linux-gnu/libm.so.6")),
            "the shared object needs another library (DT_NEEDED)");
  EXPECT_EQ(refusal(shared_object(
                "__attribute__((constructor)) static void c(void) { pfc_table[0] = 0; }\n",
                "-z now", "-O0")),
            "the shared object has initialisation or finalisation code");
  EXPECT_EQ(refusal(shared_object("__thread int t; int get(void) { return t; }\n", "-z now")),
            "the shared object has thread-local storage (PT_TLS)");
  EXPECT_EQ(refusal(shared_object("", "-z now -z execstack")),
            "the shared object asks for an executable stack");
  EXPECT_EQ(
      refusal(shared_object("", "-z now", "-O1", ".section .wx,\"awx\",@progbits\n.quad 0\n")),
      "the shared object has a segment both writable and executable");
  EXPECT_EQ(refusal(shared_object("", "-z now -soname=x.so")),
            "the shared object has dynamic tag 14, which is not allowed");
}

// The end of the bytes the loader maps: of the file's last loadable segment.
size_t loaded_end(const std::string& elf) {
  Elf64_Ehdr eh;
  std::memcpy(&eh, elf.data(), sizeof eh);
  size_t end = 0;
  for (size_t i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    std::memcpy(&ph, elf.data() + eh.e_phoff + i * sizeof ph, sizeof ph);
    if (ph.p_type == PT_LOAD) end = std::max<size_t>(end, ph.p_offset + ph.p_filesz);
  }
  return end;
}

// Section headers and the like after the loaded bytes are what the loader ignores; any cut
// into the loaded bytes is refused.
TEST(CheckSharedObject, EveryTruncationOfTheLoadedBytesIsRefused) {
  const std::string elf = shared_object("", "-z now");
  const size_t end = loaded_end(elf);
  ASSERT_GT(end, 500u);
  for (size_t n = 0; n < end; ++n) EXPECT_NE(refusal(elf.substr(0, n)), "accepted") << n;
}

// A real compiled-program file (a program calling a helper through the table).
std::string compiled_file() {
  ProgramBuilder b;
  b.program().str_sets.push_back(ir::StrSet{{"a.exe"}, true});
  b.effect(ir::Op::Deliver, b.emit(ir::Op::StrIn, 0, 0), 0);
  const ir::Program p = b.finish();
  auto bytes = compile_shared(p, program_key(ir::encode_program(p)));
  EXPECT_TRUE(bytes.has_value()) << bytes.error().message;
  return bytes ? *bytes : std::string();
}

TEST(NativeFile, RoundTrips) {
  const std::string elf = shared_object("", "-z now");
  ProgramKey key;
  for (size_t i = 0; i < key.bytes.size(); ++i) key.bytes[i] = static_cast<uint8_t>(i * 17);
  const std::vector<TableSlot> slots = {{TableSlotKind::Helper, 3}, {TableSlotKind::Regex, 9}};
  const std::string bytes = write_native_file(key, "x86_64 cpu +f", 1234, slots, elf);
  auto f = parse_native_file(bytes);
  ASSERT_TRUE(f.has_value()) << f.error().message;
  EXPECT_EQ(f->key, key);
  EXPECT_EQ(key.hex(), "00112233445566778899aabbccddeeff");
  EXPECT_EQ(f->target, "x86_64 cpu +f");
  EXPECT_EQ(f->compile_us, 1234u);
  EXPECT_EQ(f->slots, slots);
  EXPECT_EQ(f->elf, elf);
}

TEST(NativeFile, EveryFlippedByteAndEveryTruncationIsRefused) {
  const std::string good = compiled_file();
  ASSERT_TRUE(parse_native_file(good).has_value());
  for (size_t i = 0; i < good.size(); ++i) {
    for (uint8_t x : {uint8_t{0x01}, uint8_t{0x80}, uint8_t{0xFF}}) {
      std::string bad = good;
      bad[i] = static_cast<char>(bad[i] ^ x);
      ASSERT_FALSE(parse_native_file(bad).has_value()) << "byte " << i << " ^ " << int(x);
    }
  }
  for (size_t n = 0; n < good.size(); ++n) {
    auto r = parse_native_file(std::string_view(good).substr(0, n));
    ASSERT_FALSE(r.has_value()) << n;
    ASSERT_EQ(r.error().message.rfind("compiled program file, byte ", 0), 0u) << r.error().message;
  }
}

TEST(NativeFile, KeysDependOnProgramVersionAndCpu) {
  EXPECT_EQ(program_key("abc"), program_key("abc"));
  EXPECT_NE(program_key("abc"), program_key("abd"));
  EXPECT_NE(program_key(""), program_key(std::string(1, '\0')));
  EXPECT_NE(cpu_identity().find(" family "), std::string::npos) << cpu_identity();
  EXPECT_EQ(program_key("abc").hex().size(), 32u);
}

// The key is XXH3-128 (canonical bytes) of the three parts, each after its u32 LE length:
// computed here over the concatenation, as the cache's file names always were.
TEST(NativeFile, KeyIsTheHashOfTheLengthPrefixedParts) {
  for (const std::string& wire : {std::string(), std::string("abc"), std::string(70000, 'x')}) {
    std::string input;
    for (std::string_view part : {std::string_view(wire), std::string_view(kNativeCodeVersion),
                                  std::string_view(cpu_identity())}) {
      for (unsigned i = 0; i < 4; ++i) input += static_cast<char>(part.size() >> (8 * i));
      input += part;
    }
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, XXH3_128bits(input.data(), input.size()));
    EXPECT_EQ(std::memcmp(program_key(wire).bytes.data(), c.digest, 16), 0) << wire.size();
  }
}

TEST(NativeFile, HelpersAreTheOnesCodeCalls) {
  std::set<std::string> names;
  for (const NativeHelper& h : native_helpers()) {
    EXPECT_NE(h.address, nullptr) << h.name;
    names.insert(h.name);
  }
  EXPECT_EQ(names.size(), native_helpers().size());
  EXPECT_TRUE(names.contains("pfc_ir_str_in"));
}

}  // namespace
}  // namespace pfc::testing
