// bench/limit/bpf_router.cc — BPF assembler, header-check emitter and the per-session
// bpf_filter() router of the peer baseline.
#include "bench/limit/bpf_router.h"

#include <cstdio>
#include <cstdlib>

namespace pfc::bench {

void append_be(std::vector<uint8_t>& out, uint64_t v, unsigned size) {
  for (unsigned i = size; i-- > 0;) out.push_back(uint8_t(v >> (8 * i)));
}

std::vector<uint8_t> bpf_header(const EventView& e) {
  std::vector<uint8_t> out;
  append_be(out, e.desc.id, 2);
  out.push_back(e.desc.level);
  out.push_back(e.desc.version);
  append_be(out, e.desc.keyword >> 32, 4);
  append_be(out, e.desc.keyword & 0xFFFFFFFF, 4);
  append_be(out, e.pid, 4);
  return out;
}

int BpfAsm::label() {
  labels_.push_back(-1);
  return int(labels_.size() - 1);
}

void BpfAsm::bind(int label) { labels_.at(size_t(label)) = int(code_.size()); }

void BpfAsm::stmt(uint16_t code, uint32_t k) {
  code_.push_back(bpf_insn{code, 0, 0, k});
  pending_.push_back({kNext, kNext, false});
}

void BpfAsm::jump(uint16_t op, uint32_t k, int jt, int jf) {
  code_.push_back(bpf_insn{uint16_t(BPF_JMP | op | BPF_K), 0, 0, k});
  pending_.push_back({jt, jf, false});
}

void BpfAsm::ja(int target) {
  code_.push_back(bpf_insn{uint16_t(BPF_JMP | BPF_JA), 0, 0, 0});
  pending_.push_back({target, kNext, true});
}

std::vector<bpf_insn> BpfAsm::finish() const {
  std::vector<bpf_insn> out = code_;
  auto offset = [&](size_t pc, int target, uint32_t limit) -> uint32_t {
    if (target == kNext) return 0;
    const int to = labels_.at(size_t(target));
    if (to <= int(pc) || uint32_t(to - int(pc) - 1) > limit) {
      std::fprintf(stderr, "bpf: bad jump from %zu to label %d\n", pc, target);
      std::abort();
    }
    return uint32_t(to - int(pc) - 1);
  };
  for (size_t pc = 0; pc < out.size(); ++pc) {
    const Pending& p = pending_[pc];
    if (p.always) {
      out[pc].k = offset(pc, p.jt, 0xFFFFFFFF);
    } else {
      out[pc].jt = uint8_t(offset(pc, p.jt, 255));
      out[pc].jf = uint8_t(offset(pc, p.jf, 255));
    }
  }
  return out;
}

void BpfRouter::add_session(uint32_t slot, std::vector<bpf_insn> program) {
  if (!bpf_validate(program.data(), int(program.size()))) {
    std::fprintf(stderr, "bpf: bpf_validate rejects the program of slot %u\n", slot);
    std::abort();
  }
  sessions_.push_back({uint64_t{1} << slot, std::move(program)});
}

RouteResult BpfRouter::route(const uint8_t* record, uint32_t size) const {
  uint64_t mask = 0;
  for (const Session& s : sessions_)
    if (bpf_filter(s.program.data(), record, size, size) != 0) mask |= s.bit;
  return {mask, 0};
}

namespace {

// Level (docs/semantics.md §1.1): event level 0 always passes; session level 0 means every level.
void emit_level(BpfAsm& a, uint8_t level, int reject) {
  if (level == 0) return;
  const int ok = a.label();
  a.stmt(BPF_LD | BPF_B | BPF_ABS, 2);
  a.jump(BPF_JEQ, 0, ok, BpfAsm::kNext);
  a.jump(BPF_JGT, level, reject, ok);
  a.bind(ok);
}

// Keyword (docs/semantics.md §1.2) over the two 32-bit halves at offsets 4 (high) and 8 (low).
void emit_keyword(BpfAsm& a, const EnableParams& p, int reject) {
  const bool ignore0 = (p.properties & enable_property::kIgnoreKeyword0) != 0;
  const int ok = a.label(), nonzero = a.label(), zero = a.label();
  a.stmt(BPF_LD | BPF_W | BPF_ABS, 4);
  a.jump(BPF_JEQ, 0, BpfAsm::kNext, nonzero);
  a.stmt(BPF_LD | BPF_W | BPF_ABS, 8);
  a.jump(BPF_JEQ, 0, zero, nonzero);
  a.bind(zero);
  a.ja(ignore0 ? reject : ok);
  a.bind(nonzero);
  if (p.any != 0) {
    const int any_ok = a.label();
    a.stmt(BPF_LD | BPF_W | BPF_ABS, 4);
    a.jump(BPF_JSET, uint32_t(p.any >> 32), any_ok, BpfAsm::kNext);
    a.stmt(BPF_LD | BPF_W | BPF_ABS, 8);
    a.jump(BPF_JSET, uint32_t(p.any), any_ok, reject);
    a.bind(any_ok);
    const uint32_t halves[2] = {uint32_t(p.all >> 32), uint32_t(p.all)};
    for (int h = 0; h < 2; ++h) {
      if (halves[h] == 0) continue;
      a.stmt(BPF_LD | BPF_W | BPF_ABS, h == 0 ? 4 : 8);
      a.stmt(BPF_ALU | BPF_AND | BPF_K, halves[h]);
      a.jump(BPF_JEQ, halves[h], BpfAsm::kNext, reject);
    }
  }
  a.bind(ok);
}

// A membership test of the value loaded by `load` at `offset` against `values`.
void emit_in(BpfAsm& a, uint16_t load, uint32_t offset, const std::vector<uint32_t>& values,
             bool keep, int reject) {
  const int hit = a.label(), done = a.label();
  a.stmt(BPF_LD | load | BPF_ABS, offset);
  for (uint32_t v : values) a.jump(BPF_JEQ, v, hit, BpfAsm::kNext);
  a.ja(keep ? reject : done);
  a.bind(hit);
  if (!keep) a.ja(reject);
  a.bind(done);
}

}  // namespace

void emit_header_checks(BpfAsm& a, const EnableParams& p, int reject) {
  emit_level(a, p.level, reject);
  emit_keyword(a, p, reject);
  if (p.pids) emit_in(a, BPF_W, 12, *p.pids, true, reject);
  if (p.event_ids) {
    std::vector<uint32_t> ids(p.event_ids->ids.begin(), p.event_ids->ids.end());
    emit_in(a, BPF_H, 0, ids, p.event_ids->filter_in, reject);
  }
}

}  // namespace pfc::bench
