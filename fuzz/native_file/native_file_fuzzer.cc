// fuzz/native_file/native_file_fuzzer.cc — the namespace's program-cache files on arbitrary
// bytes. Compiled program files: parse_native_file and check_shared_object
// (compiler/native_file.h); nothing is ever loaded. Each input is tried as given (almost
// always refused by the hash), with its hash fixed up (so the header and the ELF checks
// behind it are reached), and as a bare shared object. Never a crash; every refusal is one
// line; what parses re-writes to the same bytes. String database files
// (compiler/hs_image.h): parse_hs_image on the input as given and with its program key and
// hash fixed up; and the input spliced into the serialised databases of the compile
// service's own file for hsdb_program.h's program (xor-ed over them, and replacing them,
// under their valid keys) — every parsed file is installed into that program as a
// provider does (hs_deserialize_database on the fuzzed bytes): never a crash, each
// database loaded or compiled, and the matcher's masks those of each pattern on its own.
// Seeds: fuzz/corpus/native_file/ (tests/jit/make_fuzz_seeds.cc).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "compiler/hs_image.h"
#include "compiler/ir_wire.h"
#include "compiler/native_file.h"
#include "compiler/str_match.h"
#include "native_file/hsdb_program.h"
#include "runtime/tdh.h"

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

void fix_hash(std::string& bytes) {
  XXH128_canonical_t c;
  XXH128_canonicalFromHash(&c,
                           XXH3_128bits(bytes.data() + kHashAt + 16, bytes.size() - kHashAt - 16));
  bytes.replace(kHashAt, 16, reinterpret_cast<const char*>(c.digest), 16);
}

// The compile service's database file of hsdb_program.h's program, and its key.
struct Service {
  pfc::ir::Program program = pfc::fuzz::hsdb_program(false);
  pfc::ProgramKey key = pfc::program_key(pfc::ir::encode_program(program));
  std::string file = pfc::internal::serialize_str_databases(program, key);
};
const Service& service() {
  static const Service* s = new Service();
  return *s;
}

// A provider's install of `bytes` as the program's file: a refusal is one line; what
// parses installs (each database loaded or compiled) into a matcher that gives the masks
// of each pattern tested on its own.
void install(const std::string& bytes) {
  const Service& s = service();
  auto image = pfc::parse_hs_image(bytes, s.key.hex());
  if (!image) return check_refusal(image.error());
  const pfc::ir::Program prog = pfc::fuzz::hsdb_program(true);
  const pfc::internal::HsDbCounts n = pfc::internal::install_str_databases(prog, &*image, "");
  if (n.loaded + n.compiled != 2 || n.refused != n.compiled ||
      n.why.find('\n') != std::string::npos) {
    std::fprintf(stderr, "native_file_fuzzer: install counted loaded %u compiled %u refused %u\n",
                 n.loaded, n.compiled, n.refused);
    std::abort();
  }
  const pfc::ir::StrMap& map = prog.str_maps.at(0);
  for (const char16_t* text : {u"Stra\u00DFe w40 W41", u"\u00C9LAN user w3", u"Xser", u""}) {
    std::vector<uint8_t> payload;
    for (const char16_t* c = text;; ++c) {
      payload.push_back(uint8_t(*c));
      payload.push_back(uint8_t(*c >> 8));
      if (*c == 0) break;
    }
    uint64_t next = 0, next_each = 0;
    if (pfc_ir_mask_strs_next(payload.data(), payload.size(), 0, 1, PFC_TDH_NO_LENGTH, &map,
                              &next) != pfc_ir_mask_strs_each(payload.data(), payload.size(), 0, 1,
                                                              PFC_TDH_NO_LENGTH, &map,
                                                              prog.str_preds.data(), &next_each) ||
        next != next_each) {
      std::fprintf(stderr, "native_file_fuzzer: mismatch after installing databases\n");
      std::abort();
    }
  }
}

// The input as a database file (given, then with the program key and hash fixed up), and
// spliced into the service's databases.
void databases(const std::string& input) {
  const Service& s = service();
  install(input);
  constexpr size_t kKeyAt = kHashAt + 16;
  if (input.size() >= kKeyAt + 16) {
    std::string fixed = input;
    fixed.replace(kKeyAt, 16, reinterpret_cast<const char*>(s.key.bytes.data()), 16);
    fix_hash(fixed);
    install(fixed);
  }
  auto image = pfc::parse_hs_image(s.file, s.key.hex());
  if (!image || input.empty()) return;
  std::vector<std::string_view> originals;
  for (const pfc::HsImageEntry& e : image->entries) originals.push_back(e.bytes);
  for (bool replace : {false, true}) {
    std::vector<std::string> dbs;
    for (std::string_view original : originals) {
      std::string db = replace ? input : std::string(original);
      for (size_t i = 0; !replace && i < db.size() && i < input.size(); ++i) db[i] ^= input[i];
      dbs.push_back(std::move(db));
    }
    for (size_t i = 0; i < dbs.size(); ++i) image->entries[i].bytes = dbs[i];
    install(pfc::write_hs_image(s.key, image->entries));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  parse(bytes);
  databases(bytes);
  if (bytes.size() >= kHashAt + 16) {
    fix_hash(bytes);
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
