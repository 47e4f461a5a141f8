// bench/limit/bpf_router.h — the peer baseline: classic BPF programs run by libpcap's
// bpf_filter(), one hand-assembled program per session (BPF returns one verdict, so N
// sessions need N programs), over big-endian copies of the benchmark records.
#pragma once

#include <sys/types.h>  // u_int, u_char: pcap/bpf.h expects them declared

#include <pcap/bpf.h>

#include <cstdint>
#include <vector>

#include "pfc/enable.h"
#include "pfc/event.h"

namespace pfc::bench {

// Big-endian record for BPF: u16 id @0, u8 level @2, u8 version @3, u32 keyword high @4,
// u32 keyword low @8, u32 pid @12, then the payload fields (each converted to big-endian by
// the workload, in payload order; a truncated payload is truncated here the same way).
inline constexpr uint32_t kBpfHeaderSize = 16;
std::vector<uint8_t> bpf_header(const EventView& e);
void append_be(std::vector<uint8_t>& out, uint64_t v, unsigned size);

// A tiny assembler with forward labels (BPF jumps only go forward).
class BpfAsm {
 public:
  static constexpr int kNext = -1;  // jump target "the next instruction"
  int label();
  void bind(int label);
  void stmt(uint16_t code, uint32_t k);
  // Conditional jump (BPF_JMP | op | BPF_K) to label jt if true, jf if false.
  void jump(uint16_t op, uint32_t k, int jt, int jf);
  void ja(int target);
  // Resolves labels; aborts on a backward or too-long jump (a bug in the workload).
  std::vector<bpf_insn> finish() const;

 private:
  struct Pending {
    int jt;
    int jf;
    bool always;
  };
  std::vector<bpf_insn> code_;
  std::vector<Pending> pending_;  // per instruction
  std::vector<int> labels_;       // label → instruction index (-1 unbound)
};

class BpfRouter {
 public:
  // Adds session `slot`'s program; aborts if bpf_validate rejects it.
  void add_session(uint32_t slot, std::vector<bpf_insn> program);
  // Runs every session's program over `record`.
  RouteResult route(const uint8_t* record, uint32_t size) const;

  std::vector<std::vector<uint8_t>> records;  // one per workload event, same order

 private:
  struct Session {
    uint64_t bit;
    std::vector<bpf_insn> program;
  };
  std::vector<Session> sessions_;
};

// Emits the header checks of one session (docs/semantics.md §1.1–§1.4) into `a`, jumping to
// `reject` when one fails and falling through when all pass. `params` must use only level,
// any/all, ignore_keyword_0, pids and event-ID sets.
void emit_header_checks(BpfAsm& a, const EnableParams& params, int reject);

}  // namespace pfc::bench
