// compiler/native_file.cc — content keys, the host CPU's identity, the helper list and the
// compiled-program file format (compiler/native_file.h; the format is documented in
// docs/jit.md "Compiled program files"). XXH3 is used header-only (XXH_INLINE_ALL), so
// libpfc_etw.so needs no libxxhash.
#include "compiler/native_file.h"

#include <cpuid.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "base/le.h"
#include "base/wire_reader.h"
#include "compiler/interp.h"
#include "compiler/regex_pred.h"
#include "compiler/str_match.h"
#include "runtime/tdh.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace pfc {

std::array<uint8_t, 16> xxh128(std::string_view bytes) {
  XXH128_canonical_t c;
  XXH128_canonicalFromHash(&c, XXH3_128bits(bytes.data(), bytes.size()));
  std::array<uint8_t, 16> out;
  std::memcpy(out.data(), c.digest, out.size());
  return out;
}

namespace {

constexpr std::string_view kFileMagic = "PFCNATV\n";
constexpr uint32_t kFileFormat = 1;
constexpr size_t kHashAt = kFileMagic.size() + 4;

void append_u32(std::string& out, uint32_t v) {
  char b[4];
  store_le(reinterpret_cast<uint8_t*>(b), v);
  out.append(b, 4);
}

void append_u64(std::string& out, uint64_t v) {
  char b[8];
  store_le(reinterpret_cast<uint8_t*>(b), v);
  out.append(b, 8);
}

void append_string(std::string& out, std::string_view s) {
  append_u32(out, static_cast<uint32_t>(s.size()));
  out.append(s);
}

}  // namespace

const char* const kNativeCodeVersion = "pfc-native-2";

std::string ProgramKey::hex() const {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (uint8_t b : bytes) {
    s += kDigits[b >> 4];
    s += kDigits[b & 15];
  }
  return s;
}

// The hash of the three parts, each length-prefixed (no two inputs share bytes), fed to
// the hash piece by piece (the same hash as of their concatenation, without copying the IR).
ProgramKey program_key(std::string_view ir_wire_bytes) {
  XXH3_state_t state;
  XXH3_128bits_reset(&state);
  for (std::string_view part :
       {ir_wire_bytes, std::string_view(kNativeCodeVersion), std::string_view(cpu_identity())}) {
    std::string prefix;
    append_u32(prefix, static_cast<uint32_t>(part.size()));
    XXH3_128bits_update(&state, prefix.data(), prefix.size());
    XXH3_128bits_update(&state, part.data(), part.size());
  }
  XXH128_canonical_t c;
  XXH128_canonicalFromHash(&c, XXH3_128bits_digest(&state));
  ProgramKey key;
  std::memcpy(key.bytes.data(), c.digest, key.bytes.size());
  return key;
}

namespace {

struct CpuFeature {
  const char* name;
  unsigned leaf;
  unsigned subleaf;
  unsigned reg;  // 0 eax, 1 ebx, 2 ecx, 3 edx
  unsigned bit;
};

// The cpuid bits LLVM's host detection (llvm::sys::getHostCPUFeatures) turns into the
// features code generation may use.
constexpr CpuFeature kFeatures[] = {
    {"sse3", 1, 0, 2, 0},
    {"pclmul", 1, 0, 2, 1},
    {"ssse3", 1, 0, 2, 9},
    {"fma", 1, 0, 2, 12},
    {"cx16", 1, 0, 2, 13},
    {"sse4.1", 1, 0, 2, 19},
    {"sse4.2", 1, 0, 2, 20},
    {"movbe", 1, 0, 2, 22},
    {"popcnt", 1, 0, 2, 23},
    {"aes", 1, 0, 2, 25},
    {"xsave", 1, 0, 2, 26},
    {"osxsave", 1, 0, 2, 27},
    {"avx", 1, 0, 2, 28},
    {"f16c", 1, 0, 2, 29},
    {"rdrnd", 1, 0, 2, 30},
    {"cmov", 1, 0, 3, 15},
    {"sse", 1, 0, 3, 25},
    {"sse2", 1, 0, 3, 26},
    {"bmi", 7, 0, 1, 3},
    {"avx2", 7, 0, 1, 5},
    {"bmi2", 7, 0, 1, 8},
    {"avx512f", 7, 0, 1, 16},
    {"avx512dq", 7, 0, 1, 17},
    {"adx", 7, 0, 1, 19},
    {"avx512ifma", 7, 0, 1, 21},
    {"avx512cd", 7, 0, 1, 28},
    {"sha", 7, 0, 1, 29},
    {"avx512bw", 7, 0, 1, 30},
    {"avx512vl", 7, 0, 1, 31},
    {"avx512vbmi", 7, 0, 2, 1},
    {"avx512vbmi2", 7, 0, 2, 6},
    {"gfni", 7, 0, 2, 8},
    {"vaes", 7, 0, 2, 9},
    {"vpclmulqdq", 7, 0, 2, 10},
    {"avx512vnni", 7, 0, 2, 11},
    {"avx512bitalg", 7, 0, 2, 12},
    {"avx512vpopcntdq", 7, 0, 2, 14},
    {"avx512fp16", 7, 0, 3, 23},
    {"avxvnni", 7, 1, 0, 4},
    {"lzcnt", 0x80000001, 0, 2, 5},
    {"sse4a", 0x80000001, 0, 2, 6},
    {"prfchw", 0x80000001, 0, 2, 8},
    {"xop", 0x80000001, 0, 2, 11},
    {"fma4", 0x80000001, 0, 2, 16},
    {"tbm", 0x80000001, 0, 2, 21},
};

// CPUID leaves, each executed once: in a virtual machine every CPUID traps to the
// hypervisor (3.6 µs on the 2-core test machine), and the identity tests 45 bits of a
// handful of leaves: read bit by bit, they would cost a provider a third of a millisecond
// on its way to its first enabled event (docs/performance.md "pfc against LTTng-UST").
class Cpuid {
 public:
  std::array<unsigned, 4> operator()(unsigned leaf, unsigned subleaf) {
    for (const Leaf& l : leaves_)
      if (l.leaf == leaf && l.subleaf == subleaf) return l.regs;
    Leaf l{leaf, subleaf, {}};
    if (max_of(leaf & 0x80000000u) >= leaf)
      __cpuid_count(leaf, subleaf, l.regs[0], l.regs[1], l.regs[2], l.regs[3]);
    leaves_.push_back(l);
    return l.regs;
  }

 private:
  struct Leaf {
    unsigned leaf, subleaf;
    std::array<unsigned, 4> regs;
  };
  // The highest standard (base 0) or extended (base 0x80000000) leaf.
  unsigned max_of(unsigned base) {
    unsigned& m = base == 0 ? max_std_ : max_ext_;
    if (m == kUnknown) m = __get_cpuid_max(base, nullptr);
    return m;
  }
  static constexpr unsigned kUnknown = 0xFFFFFFFFu;
  unsigned max_std_ = kUnknown, max_ext_ = kUnknown;
  std::vector<Leaf> leaves_;
};

// The OS-enabled register state (XCR0): LLVM drops AVX / AVX-512 features without it.
uint64_t xcr0(Cpuid& cpuid) {
  if ((cpuid(1, 0)[2] & (1u << 27)) == 0) return 0;
  uint32_t lo = 0, hi = 0;
  __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (uint64_t{hi} << 32) | lo;
}

std::string compute_cpu_identity() {
  Cpuid cpuid;
  const std::array<unsigned, 4> v = cpuid(0, 0);
  char vendor[13] = {};
  std::memcpy(vendor, &v[1], 4);
  std::memcpy(vendor + 4, &v[3], 4);
  std::memcpy(vendor + 8, &v[2], 4);
  const unsigned sig = cpuid(1, 0)[0];
  unsigned family = (sig >> 8) & 0xF, model = (sig >> 4) & 0xF;
  if (family == 0xF) family += (sig >> 20) & 0xFF;
  if (family >= 6) model += ((sig >> 16) & 0xF) << 4;
  std::string s = std::string(vendor) + " family " + std::to_string(family) + " model " +
                  std::to_string(model) + " stepping " + std::to_string(sig & 0xF);
  for (const CpuFeature& f : kFeatures)
    if (cpuid(f.leaf, f.subleaf)[f.reg] & (1u << f.bit)) s += std::string(" ") + f.name;
  char buf[32];
  std::snprintf(buf, sizeof buf, " xcr0=%llx", static_cast<unsigned long long>(xcr0(cpuid) & 0xFF));
  return s + buf;
}

}  // namespace

const std::string& cpu_identity() {
  static const std::string identity = compute_cpu_identity();
  return identity;
}

std::span<const NativeHelper> native_helpers() {
  static const NativeHelper kHelpers[] = {
      {"pfc_tdh_skip", reinterpret_cast<void*>(&pfc_tdh_skip)},
      {"pfc_tdh_load_int", reinterpret_cast<void*>(&pfc_tdh_load_int)},
      {"pfc_tdh_str_pred_next", reinterpret_cast<void*>(&pfc_tdh_str_pred_next)},
      {"pfc_tdh_wstr_short_pred_next", reinterpret_cast<void*>(&pfc_tdh_wstr_short_pred_next)},
      {"pfc_ir_mask_map", reinterpret_cast<void*>(&pfc_ir_mask_map)},
      {"pfc_ir_mask_range", reinterpret_cast<void*>(&pfc_ir_mask_range)},
      {"pfc_ir_str_in", reinterpret_cast<void*>(&pfc_ir_str_in)},
      {"pfc_ir_str_index", reinterpret_cast<void*>(&pfc_ir_str_index)},
      {"pfc_ir_pred_regex_next", reinterpret_cast<void*>(&pfc_ir_pred_regex_next)},
      {"pfc_ir_mask_strs_next", reinterpret_cast<void*>(&pfc_ir_mask_strs_next)},
      {"pfc_tdh_skip_wstr", reinterpret_cast<void*>(&pfc_tdh_skip_wstr)},
  };
  return kHelpers;
}

// Layout: magic, u32 format, XXH3-128 of the rest, then the key, the code version string,
// u64 compile_us, the target string, u32 slot count and per slot u8 kind + u32 index, and
// the ELF bytes (u64 length). Integers little-endian, strings u32 length + bytes.
std::string write_native_file(const ProgramKey& key, std::string_view target, uint64_t compile_us,
                              std::span<const TableSlot> slots, std::string_view elf) {
  std::string body(reinterpret_cast<const char*>(key.bytes.data()), key.bytes.size());
  append_string(body, kNativeCodeVersion);
  append_u64(body, compile_us);
  append_string(body, target);
  append_u32(body, static_cast<uint32_t>(slots.size()));
  for (const TableSlot& s : slots) {
    body += static_cast<char>(s.kind);
    append_u32(body, s.index);
  }
  append_u64(body, elf.size());
  body.append(elf);
  std::string out(kFileMagic);
  append_u32(out, kFileFormat);
  const std::array<uint8_t, 16> hash = xxh128(body);
  out.append(reinterpret_cast<const char*>(hash.data()), hash.size());
  return out + body;
}

namespace {

void read_slots(WireReader& r, std::vector<TableSlot>& slots) {
  slots.resize(r.count("a table slot count", 5));
  for (TableSlot& s : slots) {
    const size_t at = r.pos();
    const uint8_t kind = r.u8("a table slot kind");
    if (kind > static_cast<uint8_t>(TableSlotKind::StrMap))
      r.fail_at(at, "a table slot kind (0 to 5)");
    s.kind = static_cast<TableSlotKind>(kind);
    s.index = r.u32("a table slot index");
    if (s.kind == TableSlotKind::Helper && s.index >= native_helpers().size())
      r.fail_at(at + 1, "a helper index below " + std::to_string(native_helpers().size()));
  }
}

void read_header(WireReader& r, NativeFile& f) {
  if (r.bytes(kFileMagic.size(), "the file magic") != kFileMagic) r.fail_at(0, "the file magic");
  if (r.ok() && r.u32("the format") != kFileFormat)
    r.fail_at(kFileMagic.size(), "compiled program format " + std::to_string(kFileFormat));
  std::string_view hash = r.bytes(16, "the hash");
  if (r.ok() && std::memcmp(hash.data(), xxh128(r.rest()).data(), 16) != 0)
    r.fail_at(kHashAt, "the XXH3-128 of the bytes after it");
  std::string_view key = r.bytes(16, "the program key");
  if (r.ok()) std::memcpy(f.key.bytes.data(), key.data(), 16);
  const size_t version_at = r.pos();
  if (r.string("the code version") != kNativeCodeVersion)
    r.fail_at(version_at, std::string("code version ") + kNativeCodeVersion);
  f.compile_us = r.u64("the compile time");
  f.target = std::string(r.string("the target"));
}

}  // namespace

Result<NativeFile> parse_native_file(std::string_view bytes) {
  WireReader r(bytes);
  NativeFile f;
  read_header(r, f);
  read_slots(r, f.slots);
  const uint64_t size = r.u64("the ELF size");
  if (r.ok() && size != r.remaining()) r.fail_at(r.pos() - 8, "the ELF size to end the file");
  f.elf = r.bytes(r.remaining(), "the ELF object");
  if (!r.ok()) return make_error("compiled program file, " + r.error());
  if (auto ok = check_shared_object(f.elf, f.slots.size()); !ok)
    return make_error("compiled program file: " + ok.error().message);
  return f;
}

Result<NativeFile> parse_native_file_of(std::string_view bytes, std::string_view key_hex) {
  auto file = parse_native_file(bytes);
  if (file && file->key.hex() != key_hex)
    return make_error("it holds the code of program " + file->key.hex());
  return file;
}

}  // namespace pfc
