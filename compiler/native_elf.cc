// compiler/native_elf.cc — check_shared_object (compiler/native_file.h): what a compiled
// program's shared object may contain before the dynamic loader sees it. Every offset and
// size is checked against the bytes before it is read; the checks are the loader's view
// (program headers, the dynamic section, the GNU hash table and the dynamic symbols it
// reaches), not the section headers, which the loader ignores.
#include <elf.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "base/quote.h"
#include "compiler/native_file.h"

namespace pfc {

namespace {

class ElfCheck {
 public:
  ElfCheck(std::string_view elf, size_t slots) : elf_(elf), slots_(slots) {}
  Result<void> run();

 private:
  template <typename T>
  std::optional<T> at(uint64_t off) const {
    if (off > elf_.size() || elf_.size() - off < sizeof(T)) return std::nullopt;
    T v;
    std::memcpy(&v, elf_.data() + off, sizeof v);
    return v;
  }
  // The file offset of [vaddr, vaddr + size) when a PT_LOAD segment's file bytes hold it.
  std::optional<uint64_t> file_offset(uint64_t vaddr, uint64_t size) const;
  // The PT_LOAD segment whose memory holds [vaddr, vaddr + size).
  const Elf64_Phdr* segment_of(uint64_t vaddr, uint64_t size) const;
  Result<void> header();
  Result<void> segments();
  Result<void> dynamic();
  Result<void> dynamic_tag(const Elf64_Dyn& d);
  Result<void> relocations();
  Result<uint64_t> symbol_count() const;
  Result<void> symbols();
  Result<void> symbol(const Elf64_Sym& s, std::string_view name);
  std::optional<std::string_view> name(uint32_t off) const;

  std::string_view elf_;
  size_t slots_;
  Elf64_Ehdr eh_{};
  std::vector<Elf64_Phdr> ph_;
  const Elf64_Phdr* dyn_ = nullptr;
  uint64_t rela_ = 0, relasz_ = 0, relaent_ = 0, symtab_ = 0, syment_ = 0, strtab_ = 0, strsz_ = 0,
           gnu_hash_ = 0;
  bool route_ = false, table_ = false;
};

bool fits(uint64_t off, uint64_t size, uint64_t total) {
  return off <= total && size <= total - off;
}

std::optional<uint64_t> ElfCheck::file_offset(uint64_t vaddr, uint64_t size) const {
  for (const Elf64_Phdr& p : ph_) {
    if (p.p_type != PT_LOAD || vaddr < p.p_vaddr) continue;
    if (fits(vaddr - p.p_vaddr, size, p.p_filesz)) return p.p_offset + (vaddr - p.p_vaddr);
  }
  return std::nullopt;
}

const Elf64_Phdr* ElfCheck::segment_of(uint64_t vaddr, uint64_t size) const {
  for (const Elf64_Phdr& p : ph_) {
    if (p.p_type == PT_LOAD && vaddr >= p.p_vaddr && fits(vaddr - p.p_vaddr, size, p.p_memsz))
      return &p;
  }
  return nullptr;
}

Result<void> ElfCheck::header() {
  auto eh = at<Elf64_Ehdr>(0);
  if (!eh) return make_error("shorter than an ELF header");
  eh_ = *eh;
  if (std::memcmp(eh_.e_ident, ELFMAG, SELFMAG) != 0 || eh_.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh_.e_ident[EI_DATA] != ELFDATA2LSB || eh_.e_ident[EI_VERSION] != EV_CURRENT)
    return make_error("not a little-endian ELF64 file");
  if (eh_.e_type != ET_DYN || eh_.e_machine != EM_X86_64)
    return make_error("not an x86-64 shared object");
  if (eh_.e_phentsize != sizeof(Elf64_Phdr) || eh_.e_phnum == 0 ||
      !fits(eh_.e_phoff, uint64_t{eh_.e_phnum} * sizeof(Elf64_Phdr), elf_.size()))
    return make_error("program headers outside the file");
  for (uint16_t i = 0; i < eh_.e_phnum; ++i)
    ph_.push_back(*at<Elf64_Phdr>(eh_.e_phoff + uint64_t{i} * sizeof(Elf64_Phdr)));
  return {};
}

Result<void> ElfCheck::segments() {
  bool stack = false;
  for (const Elf64_Phdr& p : ph_) {
    if (p.p_type == PT_INTERP) return make_error("has an interpreter (PT_INTERP)");
    if (p.p_type == PT_TLS) return make_error("has thread-local storage (PT_TLS)");
    if (p.p_type == PT_GNU_STACK) {
      if (p.p_flags & PF_X) return make_error("asks for an executable stack");
      stack = true;
    }
    if (p.p_type == PT_LOAD && (p.p_flags & PF_W) && (p.p_flags & PF_X))
      return make_error("has a segment both writable and executable");
    if ((p.p_type == PT_LOAD || p.p_type == PT_DYNAMIC) &&
        (!fits(p.p_offset, p.p_filesz, elf_.size()) || p.p_filesz > p.p_memsz))
      return make_error("a segment lies outside the file");
    if (p.p_type == PT_DYNAMIC) {
      if (dyn_) return make_error("has two dynamic sections");
      dyn_ = &p;
    }
  }
  if (!stack) return make_error("has no PT_GNU_STACK (the loader would make the stack executable)");
  if (!dyn_) return make_error("has no dynamic section");
  return {};
}

Result<void> ElfCheck::dynamic_tag(const Elf64_Dyn& d) {
  switch (d.d_tag) {
    case DT_NEEDED: return make_error("needs another library (DT_NEEDED)");
    case DT_INIT:
    case DT_FINI:
    case DT_INIT_ARRAY:
    case DT_FINI_ARRAY:
    case DT_PREINIT_ARRAY: return make_error("has initialisation or finalisation code");
    case DT_TEXTREL: return make_error("has text relocations (DT_TEXTREL)");
    case DT_JMPREL:
    case DT_PLTRELSZ:
    case DT_PLTREL:
    case DT_PLTGOT:
      if (d.d_un.d_val != 0) return make_error("has PLT relocations");
      return {};
    case DT_FLAGS:
      if (d.d_un.d_val & (DF_TEXTREL | DF_STATIC_TLS))
        return make_error("has DF_TEXTREL or DF_STATIC_TLS");
      return {};
    case DT_RELA: rela_ = d.d_un.d_ptr; return {};
    case DT_RELASZ: relasz_ = d.d_un.d_val; return {};
    case DT_RELAENT: relaent_ = d.d_un.d_val; return {};
    case DT_SYMTAB: symtab_ = d.d_un.d_ptr; return {};
    case DT_SYMENT: syment_ = d.d_un.d_val; return {};
    case DT_STRTAB: strtab_ = d.d_un.d_ptr; return {};
    case DT_STRSZ: strsz_ = d.d_un.d_val; return {};
    case DT_GNU_HASH: gnu_hash_ = d.d_un.d_ptr; return {};
    case DT_RELACOUNT:
    case DT_FLAGS_1:
    case DT_BIND_NOW:
    case DT_DEBUG: return {};
    default:
      return make_error("has dynamic tag " + std::to_string(d.d_tag) + ", which is not allowed");
  }
}

Result<void> ElfCheck::dynamic() {
  for (uint64_t off = 0;; off += sizeof(Elf64_Dyn)) {
    if (!fits(off, sizeof(Elf64_Dyn), dyn_->p_filesz))
      return make_error("the dynamic section has no DT_NULL");
    const Elf64_Dyn d = *at<Elf64_Dyn>(dyn_->p_offset + off);
    if (d.d_tag == DT_NULL) break;
    if (auto ok = dynamic_tag(d); !ok) return ok;
  }
  if (!symtab_ || syment_ != sizeof(Elf64_Sym) || !strtab_ || !gnu_hash_)
    return make_error("has no dynamic symbol table, string table or GNU hash table");
  if (!file_offset(strtab_, strsz_)) return make_error("the string table lies outside the file");
  return {};
}

// Only R_X86_64_RELATIVE, without a symbol, patching 8 bytes inside a writable segment.
Result<void> ElfCheck::relocations() {
  if (relasz_ == 0) return {};
  if (relaent_ != sizeof(Elf64_Rela) || relasz_ % sizeof(Elf64_Rela) != 0)
    return make_error("has a malformed relocation table");
  auto base = file_offset(rela_, relasz_);
  if (!base) return make_error("the relocation table lies outside the file");
  for (uint64_t off = 0; off < relasz_; off += sizeof(Elf64_Rela)) {
    const Elf64_Rela r = *at<Elf64_Rela>(*base + off);
    if (ELF64_R_TYPE(r.r_info) != R_X86_64_RELATIVE || ELF64_R_SYM(r.r_info) != 0)
      return make_error("has relocation type " + std::to_string(ELF64_R_TYPE(r.r_info)) +
                        " (only R_X86_64_RELATIVE is allowed)");
    const Elf64_Phdr* seg = segment_of(r.r_offset, 8);
    if (!seg || !(seg->p_flags & PF_W))
      return make_error("has a relocation outside its writable segments");
  }
  return {};
}

// The number of dynamic symbols the GNU hash table reaches (what dlsym can find): past the
// largest bucket's chain, or symoffset when every bucket is empty.
Result<uint64_t> ElfCheck::symbol_count() const {
  auto head = file_offset(gnu_hash_, 16);
  if (!head) return make_error("the GNU hash table lies outside the file");
  const uint32_t nbuckets = *at<uint32_t>(*head), symoffset = *at<uint32_t>(*head + 4);
  const uint32_t bloom = *at<uint32_t>(*head + 8);
  const uint64_t buckets_at = gnu_hash_ + 16 + uint64_t{bloom} * 8;
  auto buckets = file_offset(buckets_at, uint64_t{nbuckets} * 4);
  if (!buckets) return make_error("the GNU hash buckets lie outside the file");
  uint64_t last = 0;
  for (uint32_t i = 0; i < nbuckets; ++i)
    last = std::max<uint64_t>(last, *at<uint32_t>(*buckets + 4 * i));
  if (last == 0) return symoffset;
  if (last < symoffset) return make_error("a GNU hash bucket is below its symbol offset");
  for (uint64_t n = last;; ++n) {
    auto chain = file_offset(buckets_at + uint64_t{nbuckets} * 4 + (n - symoffset) * 4, 4);
    if (!chain) return make_error("a GNU hash chain runs outside the file");
    if (*at<uint32_t>(*chain) & 1) return n + 1;
  }
}

std::optional<std::string_view> ElfCheck::name(uint32_t off) const {
  if (off >= strsz_) return std::nullopt;
  const std::string_view strings = elf_.substr(*file_offset(strtab_, strsz_), strsz_);
  const size_t end = strings.find('\0', off);
  if (end == std::string_view::npos) return std::nullopt;
  return strings.substr(off, end - off);
}

Result<void> ElfCheck::symbol(const Elf64_Sym& s, std::string_view n) {
  const unsigned type = ELF64_ST_TYPE(s.st_info);
  if (s.st_shndx == SHN_UNDEF) return make_error("has an undefined symbol " + quote_text(n));
  if (type == STT_TLS || type == STT_GNU_IFUNC)
    return make_error("has a thread-local or indirect-function symbol " + quote_text(n));
  if (n == "pfc_route") {
    const Elf64_Phdr* seg = segment_of(s.st_value, std::max<uint64_t>(s.st_size, 1));
    if (type != STT_FUNC || !seg || !(seg->p_flags & PF_X))
      return make_error("pfc_route is not a function in an executable segment");
    route_ = true;
  } else if (n == "pfc_table") {
    // An empty table is never written, and the linker may place it past every segment.
    const Elf64_Phdr* seg = segment_of(s.st_value, s.st_size);
    const bool writable = slots_ == 0 || (seg && (seg->p_flags & PF_W));
    if (type != STT_OBJECT || s.st_size != slots_ * 8 || s.st_value % 8 != 0 || !writable)
      return make_error("pfc_table is not " + std::to_string(slots_) +
                        " aligned pointers in a writable segment");
    table_ = true;
  }
  return {};
}

Result<void> ElfCheck::symbols() {
  auto count = symbol_count();
  if (!count) return std::unexpected(count.error());
  auto base = file_offset(symtab_, 0);
  if (!base || *count > (elf_.size() - *base) / sizeof(Elf64_Sym) ||
      !file_offset(symtab_, *count * sizeof(Elf64_Sym)))
    return make_error("the dynamic symbol table lies outside the file");
  for (uint64_t i = 1; i < *count; ++i) {
    const Elf64_Sym s = *at<Elf64_Sym>(*base + i * sizeof(Elf64_Sym));
    auto n = name(s.st_name);
    if (!n) return make_error("a dynamic symbol's name lies outside the string table");
    if (auto ok = symbol(s, *n); !ok) return ok;
  }
  if (!route_ || !table_) return make_error("does not define pfc_route and pfc_table");
  return {};
}

Result<void> ElfCheck::run() {
  for (auto step : {&ElfCheck::header, &ElfCheck::segments, &ElfCheck::dynamic,
                    &ElfCheck::relocations, &ElfCheck::symbols}) {
    if (auto ok = (this->*step)(); !ok) return ok;
  }
  return {};
}

}  // namespace

Result<void> check_shared_object(std::string_view elf, size_t table_slots) {
  if (auto ok = ElfCheck(elf, table_slots).run(); !ok)
    return make_error("the shared object " + ok.error().message);
  return {};
}

}  // namespace pfc
