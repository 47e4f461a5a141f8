// compiler/hs_image.h — the Hyperscan databases of a program's string maps
// (compiler/str_match.h) serialised for the namespace's cache of compiled programs
// (docs/namespace.md "Compiled programs", docs/jit.md "String indexing"): the compile
// service, which builds every database when it decodes a request, writes them beside the
// program's code as `prog-KEY.hsdb`; a provider process deserialises each database whose
// entry passes every check instead of compiling it, and compiles the others itself.
//
// Each entry carries a database key: XXH3-128 over the Hyperscan version (hs_version()),
// the platform the database targets (hs_populate_platform()) and the database's
// expressions with their flags, in order. A process uses an entry only when that key is
// the one it computes for its own database from its own library and CPU; the file's
// program key must be the name it was found under, and an XXH3-128 of the bytes guards
// against damage before Hyperscan sees any of them.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "compiler/hs_loader.h"
#include "compiler/native_file.h"

namespace pfc {

using HsDbKey = std::array<uint8_t, 16>;

// The key of a database of `exprs` compiled with `flags` (one per expression) by `hs` for
// this process's platform.
HsDbKey hs_database_key(const internal::HsApi& hs, const std::vector<std::string>& exprs,
                        const std::vector<unsigned>& flags);

// One serialised database: of string map `map`, case rule `rule` (0: the caseless
// database, 1: the `.cs` one).
struct HsImageEntry {
  uint32_t map = 0;
  uint8_t rule = 0;
  HsDbKey key{};
  // For each Hyperscan pattern id of the database, the index of its expression among the
  // ones the key covers (strictly increasing: the expressions Hyperscan rejected are
  // missing, and each process tests their patterns on their own).
  std::vector<uint32_t> kept;
  std::string_view bytes;  // hs_serialize_database's output
};

struct HsImage {
  ProgramKey program;
  std::vector<HsImageEntry> entries;  // views into the parsed bytes
  // The entry of (map, rule), or null.
  const HsImageEntry* find(uint32_t map, uint8_t rule) const;
};

// The file's bytes. Layout: magic "PFCHSDB\n", u32 format, XXH3-128 of the rest, the
// program key, u32 entry count, per entry u32 map, u8 rule, the 16-byte database key, u32
// kept count and the kept indices (u32 each), u64 size and the serialised database.
// Integers little-endian.
std::string write_hs_image(const ProgramKey& program, const std::vector<HsImageEntry>& entries);
// Checks magic, format, hash and bounds, and that the program key is `key_hex` (the name
// it was found under); an Error names the first fault with its byte offset. The database
// bytes are Hyperscan's to check (hs_deserialize_database checks its own version,
// platform and CRC).
Result<HsImage> parse_hs_image(std::string_view bytes, std::string_view key_hex);

}  // namespace pfc
