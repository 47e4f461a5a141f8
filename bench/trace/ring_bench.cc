// bench/trace/ring_bench.cc — what a session host pays per record on one core, with no
// other process involved (docs/performance.md "System-wide tracing throughput"): two rings
// filled in turn, as two writers at the same pace fill them, then merged by timestamp
//   Ring_Write            reserve + fill + commit of one 32-byte-payload record
//   Ring_Drain/0          SessionRings::drain, each record taken and dropped
//   Ring_Drain/1          the same, each record added to a log file (LogWriter::add)
//   Ring_Move             the session host's way: each ring's runs moved into a log file
//                         (move_runs: RingReader::span + LogWriter::add_chunk), unmerged
// Times are per record. Cross-process costs (lines moving between cores, the writers'
// pace) are bench_trace's; these are the floor under them.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "trace/host.h"
#include "trace/logfile.h"
#include "trace/merge.h"

namespace pfc::trace {
namespace {

constexpr uint64_t kInstance = 9;
constexpr uint32_t kPayload = 32;
constexpr int kBatch = 100'000;  // records per ring per timed pass: 14 MB, past the L2

struct Namespace {
  std::string path;
  Namespace() {
    char tmpl[] = "/dev/shm/pfc-ring-bench-XXXXXX";
    path = ::mkdtemp(tmpl);
    ::setenv("PFC_TRACE_DIR", path.c_str(), 1);
  }
  ~Namespace() { std::filesystem::remove_all(path); }
};

RingWriter make_ring(const TraceDir& dir, uint32_t pid) {
  auto w = RingWriter::create(dir, kInstance, ProcessKey{pid, 1000 + pid}, 64u << 20);
  if (!w) std::abort();
  return std::move(*w);
}

void put(RingWriter& w, uint64_t value) {
  const TableEntry entry = make_entry(Guid{}, 1, 0, 0, 4, 0, 0, 0x10, 0);
  uint8_t payload[kPayload];
  std::memset(payload, static_cast<int>(value), kPayload);
  const RecordParts parts{.payload = payload, .payload_len = kPayload};
  const uint8_t index = w.entry_of(entry);  // the table's entry, as EventWrite's
  RecordHead* r = w.reserve(record_bytes(parts));
  if (r == nullptr) std::abort();
  fill_record(r, 1, 0, index, parts);
  RingWriter::commit(r);
}

// `n` records into each ring, in turn.
void fill(std::vector<RingWriter>& rings, int n) {
  for (int i = 0; i < n; ++i)
    for (RingWriter& w : rings) put(w, static_cast<uint64_t>(i));
}

void Ring_Write(benchmark::State& state) {
  Namespace ns;
  auto dir = TraceDir::open();
  std::vector<RingWriter> rings;
  rings.push_back(make_ring(*dir, 101));
  auto reader = RingReader::open(*dir, ring_name(kInstance, ProcessKey{101, 1101}));
  for ([[maybe_unused]] auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    fill(rings, kBatch);
    const auto t1 = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count() / kBatch);
    while (reader->peek() != nullptr) reader->pop();
  }
}
BENCHMARK(Ring_Write)->UseManualTime()->Unit(benchmark::kNanosecond)->Iterations(20);

void Ring_Drain(benchmark::State& state) {
  Namespace ns;
  auto dir = TraceDir::open();
  auto store = StateStore::open(*dir);  // no session in it: stopped, every record ready
  std::vector<RingWriter> rings;
  rings.push_back(make_ring(*dir, 101));
  rings.push_back(make_ring(*dir, 102));
  SessionRings session(kInstance);
  session.scan(*dir, *store, 1);
  LogInfo info;
  info.session = u"bench";
  info.buffer_size = 1u << 20;
  const std::string file = ns.path + "/bench.etl";
  auto log = LogWriter::create(UniqueFd(::open(file.c_str(), O_RDWR | O_CREAT, 0600)), info);
  if (!log) std::abort();
  const bool to_log = state.range(0) != 0;
  for ([[maybe_unused]] auto _ : state) {
    fill(rings, kBatch);
    const auto t0 = std::chrono::steady_clock::now();
    const size_t n = session.drain(1, ~size_t{0}, [&](RingReader&, const RingReader::View& v) {
      if (to_log) (void)log->add(v.header, v.payload, v.stack);
    });
    const auto t1 = std::chrono::steady_clock::now();
    if (n != 2u * kBatch) std::abort();
    state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count() / static_cast<double>(n));
    if (to_log) {  // emptied between passes: the writer goes on in fresh pages, as a log does
      (void)log->flush();
      if (::truncate(file.c_str(), 0) != 0) std::abort();
    }
  }
}
BENCHMARK(Ring_Drain)
    ->Arg(0)
    ->Arg(1)
    ->UseManualTime()
    ->Unit(benchmark::kNanosecond)
    ->Iterations(20);

void Ring_Move(benchmark::State& state) {
  Namespace ns;
  auto dir = TraceDir::open();
  std::vector<RingWriter> rings;
  rings.push_back(make_ring(*dir, 101));
  rings.push_back(make_ring(*dir, 102));
  std::vector<RingReader> readers;
  for (uint32_t pid : {101u, 102u})
    readers.push_back(std::move(*RingReader::open(*dir, ring_name(kInstance, {pid, 1000 + pid}))));
  LogInfo info;
  info.session = u"bench";
  info.buffer_size = 1u << 20;
  const std::string file = ns.path + "/bench.etl";
  auto log = LogWriter::create(UniqueFd(::open(file.c_str(), O_RDWR | O_CREAT, 0600)), info);
  if (!log) std::abort();
  for ([[maybe_unused]] auto _ : state) {
    fill(rings, kBatch);
    const auto t0 = std::chrono::steady_clock::now();
    uint64_t n = 0;
    for (uint32_t i = 0; i < readers.size(); ++i)
      n += move_runs(readers[i], *log, ~uint64_t{0}, i).events;
    const auto t1 = std::chrono::steady_clock::now();
    if (n != 2u * kBatch) std::abort();
    state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count() / static_cast<double>(n));
    (void)log->flush();  // emptied between passes, as in Ring_Drain/1
    if (::truncate(file.c_str(), 0) != 0) std::abort();
  }
}
BENCHMARK(Ring_Move)->UseManualTime()->Unit(benchmark::kNanosecond)->Iterations(20);

}  // namespace
}  // namespace pfc::trace

BENCHMARK_MAIN();
