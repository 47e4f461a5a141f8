// compiler/native_load.cc — load_native (compiler/native_file.h): a checked compiled
// program file's shared object, copied into a sealed memfd and loaded with the system's
// dynamic loader; its pfc_table filled from this process's helpers and program.
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "compiler/native_file.h"

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif

namespace pfc {

namespace {

std::string errno_text(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

// The address slot `s` names in this process, or an Error when `program` has no such entry.
Result<void*> slot_address(const TableSlot& s, const ir::Program& program) {
  auto out_of_range = [&](const char* pool, size_t size) {
    return make_error("table slot names " + std::string(pool) + " " + std::to_string(s.index) +
                      " of " + std::to_string(size));
  };
  switch (s.kind) {
    case TableSlotKind::Helper:
      if (s.index >= native_helpers().size())
        return out_of_range("helper", native_helpers().size());
      return native_helpers()[s.index].address;
    case TableSlotKind::IntSetValues:
      if (s.index >= program.int_sets.size())
        return out_of_range("int set", program.int_sets.size());
      return const_cast<uint64_t*>(program.int_sets[s.index].values.data());
    case TableSlotKind::StrSet:
      if (s.index >= program.str_sets.size())
        return out_of_range("string set", program.str_sets.size());
      return const_cast<ir::StrSet*>(&program.str_sets[s.index]);
    case TableSlotKind::MaskMap:
      if (s.index >= program.mask_maps.size())
        return out_of_range("mask map", program.mask_maps.size());
      return const_cast<ir::MaskMap*>(&program.mask_maps[s.index]);
    case TableSlotKind::RangeMap:
      if (s.index >= program.range_maps.size())
        return out_of_range("range map", program.range_maps.size());
      return const_cast<ir::RangeMap*>(&program.range_maps[s.index]);
    case TableSlotKind::Regex:
      if (s.index >= program.str_preds.size() || !program.str_preds[s.index].regex)
        return make_error("table slot names string predicate " + std::to_string(s.index) +
                          ", which is no regex predicate");
      return const_cast<re2::RE2*>(program.str_preds[s.index].regex.get());
    case TableSlotKind::StrMap:
      if (s.index >= program.str_maps.size())
        return out_of_range("string map", program.str_maps.size());
      return const_cast<ir::StrMap*>(&program.str_maps[s.index]);
  }
  return make_error("table slot of unknown kind " + std::to_string(static_cast<int>(s.kind)));
}

// A sealed memfd holding `bytes`, or an Error. MFD_EXEC first: kernels with
// vm.memfd_noexec set would otherwise make the file non-executable; older kernels reject
// the flag (EINVAL) and are asked again without it.
Result<int> sealed_memfd(std::string_view bytes) {
  const unsigned flags = MFD_CLOEXEC | MFD_ALLOW_SEALING;
  int fd = memfd_create("pfc-native", flags | MFD_EXEC);
  if (fd < 0 && errno == EINVAL) fd = memfd_create("pfc-native", flags);
  if (fd < 0) return make_error(errno_text("cannot create a memfd for compiled code"));
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      auto e = make_error(errno_text("cannot write compiled code to a memfd"));
      close(fd);
      return e;
    }
    done += static_cast<size_t>(n);
  }
  if (fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
    auto e = make_error(errno_text("cannot seal the memfd of compiled code"));
    close(fd);
    return e;
  }
  return fd;
}

}  // namespace

LoadedNative::~LoadedNative() {
  dlclose(handle_);
  close(fd_);
}

Result<std::unique_ptr<LoadedNative>> load_native(const NativeFile& file,
                                                  const ir::Program& program) {
  if (auto ok = check_shared_object(file.elf, file.slots.size()); !ok)
    return std::unexpected(ok.error());
  std::vector<void*> table;
  for (const TableSlot& s : file.slots) {
    auto address = slot_address(s, program);
    if (!address) return std::unexpected(address.error());
    table.push_back(*address);
  }
  auto fd = sealed_memfd(file.elf);
  if (!fd) return std::unexpected(fd.error());
  // The fd stays open while the code is loaded: the loader recognises an object by the
  // path it was opened under, and a reused /proc/self/fd/N must never name a loaded one.
  const std::string path = "/proc/self/fd/" + std::to_string(*fd);
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    close(*fd);
    return make_error(std::string("cannot load compiled code: ") + (why ? why : "unknown error"));
  }
  std::unique_ptr<LoadedNative> loaded(new LoadedNative(handle, *fd, nullptr));
  auto* fn = reinterpret_cast<SharedRouteFn>(dlsym(handle, "pfc_route"));
  auto* slots = static_cast<void**>(dlsym(handle, "pfc_table"));
  if (!fn || !slots) return make_error("compiled code lacks pfc_route or pfc_table");
  std::copy(table.begin(), table.end(), slots);
  loaded->fn_ = fn;
  return loaded;
}

}  // namespace pfc
