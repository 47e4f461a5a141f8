// compiler/native_file.h — compiled routing programs shared through the trace namespace
// (docs/namespace.md "Compiled programs"): the content key, the file format, and loading a
// file's code into this process with the system's dynamic loader. No LLVM: provider
// processes load code here that the compile service (compiler/jit/shared_code.h) made.
//
// Code is shared, data is per process: the generated function reaches everything that has
// an address in one process (runtime helpers, pool objects of the ir::Program) through a
// table of pointers in the shared object's own data, `pfc_table`, which load_native fills
// from the loading process's helpers and its own copy of the program. The code itself
// holds no absolute address and the object no relocation but R_X86_64_RELATIVE.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "compiler/ir.h"
#include "compiler/native_fn.h"
#include "pfc/event.h"

namespace pfc {

// The generated function (compiler/native_fn.h), as the in-process JIT makes it.
using SharedRouteFn = NativeRouteFn;

// What a provider asks the namespace for: a hash (XXH3-128) of the program's wire bytes
// (compiler/ir_wire.h), kNativeCodeVersion and cpu_identity(). Equal keys ⇒ the same
// code is correct for both programs on this host.
struct ProgramKey {
  std::array<uint8_t, 16> bytes{};
  std::string hex() const;  // 32 lowercase hex digits: the cache file's name stem
  friend bool operator==(const ProgramKey&, const ProgramKey&) = default;
};
ProgramKey program_key(std::string_view ir_wire_bytes);
// XXH3-128 of `bytes`, canonical (big-endian) byte order: the keys and file hashes of the
// namespace's program cache (header-only xxhash: libpfc_etw.so needs no libxxhash).
std::array<uint8_t, 16> xxh128(std::string_view bytes);
// Raised whenever generated code, the table's slots or the file format change meaning.
extern const char* const kNativeCodeVersion;
// The CPU the code may assume: vendor, family/model and the feature bits code generation
// uses (from cpuid), on one line. Computed once per process.
const std::string& cpu_identity();

// One slot of the per-process table: a runtime helper (index into native_helpers()) or
// the address of a pool entry of the loading process's ir::Program.
enum class TableSlotKind : uint8_t {
  Helper,        // index: native_helpers()[index].address
  IntSetValues,  // index: program.int_sets[index].values.data()
  StrSet,        // index: &program.str_sets[index]
  MaskMap,       // index: &program.mask_maps[index]
  RangeMap,      // index: &program.range_maps[index]
  Regex,         // index: program.str_preds[index].regex.get() (a REGEX / REGEX.CS predicate)
  StrMap,        // index: &program.str_maps[index]
};
struct TableSlot {
  TableSlotKind kind = TableSlotKind::Helper;
  uint32_t index = 0;
  friend bool operator==(const TableSlot&, const TableSlot&) = default;
};

// The C helpers generated code may call, in table order, with their addresses in this
// process (the interpreter calls the same functions).
struct NativeHelper {
  const char* name;
  void* address;
};
std::span<const NativeHelper> native_helpers();

// A compiled program file: header (magic, format version, key, target text, compile time,
// table slots, the XXH3-128 of everything after the hash) followed by an ELF shared object
// exporting `pfc_route` (a SharedRouteFn) and `pfc_table` (slots.size() pointers).
struct NativeFile {
  ProgramKey key;
  std::string target;  // the code generator's target: triple, CPU and features
  uint64_t compile_us = 0;
  std::vector<TableSlot> slots;
  std::string_view elf;  // into the parsed bytes
};
std::string write_native_file(const ProgramKey& key, std::string_view target, uint64_t compile_us,
                              std::span<const TableSlot> slots, std::string_view elf);
// Checks magic, version, hash and bounds, then the shared object (check_shared_object).
// An Error names what is wrong; the caller keeps interpreting.
Result<NativeFile> parse_native_file(std::string_view bytes);
// parse_native_file, and the file's key must be `key_hex` (the name it was found under):
// the check every process makes before it runs a file's code, and the compile service
// makes again when a process refused the file.
Result<NativeFile> parse_native_file_of(std::string_view bytes, std::string_view key_hex);

// Accepts only an x86-64 ELF64 ET_DYN object whose every offset and size lies inside
// `elf`, with: no DT_NEEDED, DT_INIT/FINI/(PRE)INIT_ARRAY, DT_TEXTREL or PT_INTERP/PT_TLS;
// no loadable segment both writable and executable; no undefined dynamic symbol; no
// relocation but R_X86_64_RELATIVE (so nothing is resolved and nothing absolute is
// patched at load); `pfc_route` defined in an executable segment and `pfc_table` of
// `table_slots` pointers in a writable one. An Error names the first violation.
Result<void> check_shared_object(std::string_view elf, size_t table_slots);

// Code of one file, loaded into this process. Destroying it unloads the code: no thread
// may still be running fn() (the router retires programs through its EpochDomain).
class LoadedNative {
 public:
  ~LoadedNative();
  LoadedNative(const LoadedNative&) = delete;
  LoadedNative& operator=(const LoadedNative&) = delete;
  SharedRouteFn fn() const { return fn_; }

 private:
  friend Result<std::unique_ptr<LoadedNative>> load_native(const NativeFile&, const ir::Program&);
  LoadedNative(void* handle, int fd, SharedRouteFn fn) : handle_(handle), fd_(fd), fn_(fn) {}
  void* handle_;
  int fd_;  // the sealed memfd the code was loaded from, open while it is loaded
  SharedRouteFn fn_;
};

// Copies file.elf into a sealed memfd (so the bytes checked are the bytes run, and a
// noexec namespace directory does not matter), loads it with dlopen(RTLD_NOW|RTLD_LOCAL)
// of /proc/self/fd/N, checks each slot against `program` (kind known, index in range,
// Regex slots name a regex predicate) and fills pfc_table. `program` must outlive the
// result and stay unmodified. Fails with an Error saying why (including a kernel that
// refuses executable memfds); never runs code of a file that failed a check.
Result<std::unique_ptr<LoadedNative>> load_native(const NativeFile& file,
                                                  const ir::Program& program);

}  // namespace pfc
