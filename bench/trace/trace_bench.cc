// bench/trace/trace_bench.cc — costs of the system-wide ETW API (docs/namespace.md), as
// ratios in one run (docs/performance.md):
//   Trace_EventWrite_Delivered    one EventWrite into the session's ring while a consumer
//                                 process drains it (p50/p99 counters from rdtsc, ns)
//   Trace_EventWrite_Unwanted     EventWrite of an event no session wants
//   Trace_EventEnabled_Disabled   EventEnabled of a disabled event
//   Trace_EndToEnd_2Providers     events/s from two provider processes to one consumer
//   Trace_File_2Providers         events/s from two provider processes into a sequential
//                                 log-file session (docs/logfile.md), until STOP returned
//                                 with the file closed; the file is kept at
//                                 $PFC_BENCH_LOGFILE when set (scripts/bench-logfile)
//   Trace_EndToEnd_Offered/K,     the same two runs with the writers paced at K k events/s
//   Trace_File_Offered/K          in all: events lost at a rate below the unpaced one
//   Trace_*_MaxNoLoss             the highest paced rate with nothing lost (bisection)
//   Trace_EnableToCallback        EnableTraceEx2 here → enable callback in another process
// Children are this binary re-executed with a role argument (`--role=consumer NAME`,
// `--role=writer TAG N RATE`, `--role=callback TAG`), in a private PFC_TRACE_DIR.
#include <benchmark/benchmark.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "pfc/etw/evntcons.h"
#include "pfc/etw/evntprov.h"
#include "pfc/etw/evntrace.h"

namespace {

std::string g_self;  // argv[0]

struct Properties {
  EVENT_TRACE_PROPERTIES props;
  WCHAR name[64];
  WCHAR file[512];
};

void widen(const char* s, WCHAR* out) {
  size_t i = 0;
  for (; s[i] != 0 && i < 63; ++i) out[i] = static_cast<WCHAR>(s[i]);
  out[i] = 0;
}

Properties properties(uint32_t buffer_kb, uint32_t buffers) {
  Properties p{};
  p.props.Wnode.BufferSize = sizeof p;
  p.props.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
  p.props.LogFileMode = EVENT_TRACE_REAL_TIME_MODE;
  p.props.LoggerNameOffset = offsetof(Properties, name);
  p.props.BufferSize = buffer_kb;
  p.props.MaximumBuffers = buffers;
  return p;
}

GUID guid_of(unsigned tag) { return GUID{tag, 0, 0x4000, {0x80, 0, 0, 0, 0, 0, 0, 9}}; }

TRACEHANDLE start(const char* name, uint32_t buffer_kb = 1024, uint32_t buffers = 64) {
  Properties p = properties(buffer_kb, buffers);
  WCHAR w[64];
  widen(name, w);
  TRACEHANDLE h = 0;
  if (StartTraceW(&h, w, &p.props) != 0) std::abort();
  return h;
}

void stop(TRACEHANDLE h) {
  Properties p = properties(0, 0);
  (void)ControlTraceW(h, nullptr, &p.props, EVENT_TRACE_CONTROL_STOP);
}

// `own_session`: the child calls setsid(), as a process started from another terminal is
// in its own session — and so, with the kernel's autogroup scheduling, gets its own share
// of the CPU instead of a third of the writers' (the file session host is always in its own
// session: trace/host.h).
pid_t spawn(std::vector<std::string> args, int* out_fd = nullptr, bool own_session = false) {
  int fds[2] = {-1, -1};
  if (out_fd != nullptr && ::pipe(fds) != 0) std::abort();
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (own_session) (void)::setsid();
    if (out_fd != nullptr) ::dup2(fds[1], 1);
    std::vector<char*> argv{g_self.data()};
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(g_self.c_str(), argv.data());
    ::_exit(127);
  }
  if (out_fd != nullptr) {
    ::close(fds[1]);
    *out_fd = fds[0];
  }
  return pid;
}

// Waits for `pid` and returns the CPU time (user + system) it used, in ns.
double wait_cpu_ns(pid_t pid) {
  struct rusage ru {};
  if (::wait4(pid, nullptr, 0, &ru) != pid) return 0;
  const auto ns = [](const timeval& t) { return t.tv_sec * 1e9 + t.tv_usec * 1e3; };
  return ns(ru.ru_utime) + ns(ru.ru_stime);
}

// CPU time (ns) a live process used so far (/proc/PID/stat utime + stime); 0 if unknown.
double proc_cpu_ns(pid_t pid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  FILE* f = std::fopen(path, "r");
  if (f == nullptr) return 0;
  char buf[1024] = {0};
  const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  const char* p = std::strrchr(buf, ')');
  if (n == 0 || p == nullptr) return 0;
  unsigned long long utime = 0, stime = 0;
  // after ")": state, then fields 4..13, then utime (14) and stime (15)
  if (std::sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) !=
      2)
    return 0;
  return static_cast<double>(utime + stime) * 1e9 / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

// The pid of the file session host of PFC_TRACE_DIR (its marker c-…-PID-START-host).
pid_t host_pid() {
  for (const auto& e : std::filesystem::directory_iterator(std::getenv("PFC_TRACE_DIR"))) {
    const std::string name = e.path().filename().string();
    unsigned long long inst = 0, start = 0;
    unsigned pid = 0;
    if (name.ends_with("-host") &&
        std::sscanf(name.c_str(), "c-%llu-%u-%llu-host", &inst, &pid, &start) == 3)
      return static_cast<pid_t>(pid);
  }
  return 0;
}

void reap(pid_t pid) {
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
}

// The calibrated length of one rdtsc tick in ns.
double ns_per_tick() {
  const auto t0 = std::chrono::steady_clock::now();
  const uint64_t c0 = __rdtsc();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const uint64_t c1 = __rdtsc();
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(c1 - c0);
}

void percentiles(benchmark::State& state, std::vector<uint64_t>& ticks, double scale) {
  if (ticks.empty()) return;
  std::sort(ticks.begin(), ticks.end());
  state.counters["p50_ns"] = static_cast<double>(ticks[ticks.size() / 2]) * scale;
  state.counters["p99_ns"] = static_cast<double>(ticks[ticks.size() * 99 / 100]) * scale;
}

// ---- child roles ---------------------------------------------------------------------

std::atomic<uint64_t> g_consumed{0};

void WINAPI count_event(PEVENT_RECORD) { g_consumed.fetch_add(1, std::memory_order_relaxed); }

int role_consumer(const char* name) {
  WCHAR w[64];
  widen(name, w);
  EVENT_TRACE_LOGFILEW f{};
  f.LoggerName = w;
  f.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME | PROCESS_TRACE_MODE_EVENT_RECORD;
  f.EventRecordCallback = count_event;
  TRACEHANDLE h = OpenTraceW(&f);
  if (h == INVALID_PROCESSTRACE_HANDLE) return 1;
  std::printf("open\n");
  std::fflush(stdout);
  (void)ProcessTrace(&h, 1, nullptr, nullptr);
  CloseTrace(h);
  std::printf("%llu\n", static_cast<unsigned long long>(g_consumed.load()));
  return 0;
}

std::atomic<int> g_enabled{0};
int g_callback_fd = -1;  // the callback role reports on stdout

void NTAPI note_enable(LPCGUID, ULONG is_enabled, UCHAR, ULONGLONG, ULONGLONG,
                       PEVENT_FILTER_DESCRIPTOR, PVOID) {
  g_enabled.store(static_cast<int>(is_enabled));
  const char c = is_enabled != 0 ? '1' : '0';
  if (g_callback_fd >= 0) (void)!::write(g_callback_fd, &c, 1);
}

// Sleeps until `due` (CLOCK_MONOTONIC ns) when that is still ahead.
void sleep_until_ns(uint64_t due) {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  if (static_cast<uint64_t>(now.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(now.tv_nsec) >=
      due)
    return;
  const timespec at{static_cast<time_t>(due / 1'000'000'000u),
                    static_cast<long>(due % 1'000'000'000u)};
  while (::clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, nullptr) == EINTR) {
  }
}

uint64_t mono_now_ns() {
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<uint64_t>(t.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(t.tv_nsec);
}

// `count` events of 32 payload bytes once a session enables the provider; `rate` > 0 paces
// them at that many events/s (checked every kPaceBatch events: the writer sleeps when it is
// ahead, and catches up without sleeping when it is behind), 0 writes as fast as it can.
constexpr uint64_t kPaceBatch = 256;
int role_writer(unsigned tag, uint64_t count, uint64_t rate) {
  GUID g = guid_of(tag);
  REGHANDLE h;
  if (EventRegister(&g, note_enable, nullptr, &h) != 0) return 1;
  while (g_enabled.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, 1, 0, 0, 4, 0, 0, 0);
  uint64_t payload[4] = {1, 2, 3, 4};
  EVENT_DATA_DESCRIPTOR data;
  EventDataDescCreate(&data, payload, sizeof payload);
  const uint64_t start = mono_now_ns();
  for (uint64_t i = 0; i < count; ++i) {
    if (rate != 0 && i % kPaceBatch == 0)
      sleep_until_ns(
          start + static_cast<uint64_t>(static_cast<double>(i) * 1e9 / static_cast<double>(rate)));
    payload[0] = i;
    (void)EventWrite(h, &d, 1, &data);
  }
  // How long the writes took (stdout: the benchmark reads it; the writer's real rate).
  std::printf("%llu\n", static_cast<unsigned long long>(mono_now_ns() - start));
  EventUnregister(h);
  return 0;
}

int role_callback(unsigned tag) {
  GUID g = guid_of(tag);
  REGHANDLE h;
  if (EventRegister(&g, note_enable, nullptr, &h) != 0) return 1;
  ::pause();  // killed by the benchmark
  return 0;
}

// ---- benchmarks ----------------------------------------------------------------------

void Trace_EventWrite_Delivered(benchmark::State& state) {
  TRACEHANDLE s = start("bench_delivered");
  GUID g = guid_of(0x901);
  REGHANDLE h;
  EventRegister(&g, nullptr, nullptr, &h);
  EnableTraceEx2(s, &g, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 5000, nullptr);
  int out = -1;
  const pid_t consumer = spawn({"--role=consumer", "bench_delivered"}, &out);
  char buf[16];
  (void)!::read(out, buf, 5);  // "open\n"
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, 1, 0, 0, 4, 0, 0, 0);
  uint64_t payload[4] = {1, 2, 3, 4};
  EVENT_DATA_DESCRIPTOR data;
  EventDataDescCreate(&data, payload, sizeof payload);
  std::vector<uint64_t> ticks;
  ticks.reserve(1 << 22);
  for ([[maybe_unused]] auto _ : state) {
    const uint64_t t0 = __rdtsc();
    EventWrite(h, &d, 1, &data);
    const uint64_t t1 = __rdtsc();
    if (ticks.size() < ticks.capacity()) ticks.push_back(t1 - t0);
  }
  Properties p = properties(0, 0);
  QueryTraceW(s, nullptr, &p.props);
  state.counters["lost"] = p.props.EventsLost;
  stop(s);
  ::waitpid(consumer, nullptr, 0);
  ::close(out);
  EventUnregister(h);
  percentiles(state, ticks, ns_per_tick());
}
BENCHMARK(Trace_EventWrite_Delivered)->Iterations(2'000'000)->UseRealTime();

void Trace_EventWrite_Unwanted(benchmark::State& state) {
  GUID g = guid_of(0x902);
  REGHANDLE h;
  EventRegister(&g, nullptr, nullptr, &h);
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, 1, 0, 0, 4, 0, 0, 0);
  uint64_t payload = 7;
  EVENT_DATA_DESCRIPTOR data;
  EventDataDescCreate(&data, &payload, sizeof payload);
  for ([[maybe_unused]] auto _ : state) benchmark::DoNotOptimize(EventWrite(h, &d, 1, &data));
  EventUnregister(h);
}
BENCHMARK(Trace_EventWrite_Unwanted);

void Trace_EventEnabled_Disabled(benchmark::State& state) {
  GUID g = guid_of(0x903);
  REGHANDLE h;
  EventRegister(&g, nullptr, nullptr, &h);
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, 1, 0, 0, 4, 0, 0, 0);
  for ([[maybe_unused]] auto _ : state) benchmark::DoNotOptimize(EventEnabled(h, &d));
  EventUnregister(h);
}
BENCHMARK(Trace_EventEnabled_Disabled);

// CPU time per event of the writers (both, incl. start-up) and of the consumer or host,
// and the rate their sum allows on this machine's cores when nothing else runs: numbers
// a loaded machine distorts far less than wall time.
void cpu_counters(benchmark::State& state, double writers_ns, double reader_ns, double events) {
  state.counters["writer_cpu_ns_ev"] = writers_ns / events;
  state.counters["reader_cpu_ns_ev"] = reader_ns / events;
  if (writers_ns + reader_ns > 0)
    state.counters["cpu_bound_ev_s"] = events * 1e9 *
                                       static_cast<double>(std::thread::hardware_concurrency()) /
                                       (writers_ns + reader_ns);
}

// The number a child printed on its stdout (`fd`, closed here); 0 if none.
double read_number(int fd) {
  char buf[64] = {0};
  size_t got = 0;
  for (ssize_t n; got < sizeof buf - 1 && (n = ::read(fd, buf + got, sizeof buf - 1 - got)) > 0;)
    got += static_cast<size_t>(n);
  ::close(fd);
  return std::strtod(buf, nullptr);
}

// What two writer processes did: their CPU time and how long the slower one's writes took.
struct Writers {
  double cpu_ns = 0;
  double write_ns = 0;
};

// Two writer processes of provider guid_of(tag), `per_writer` events each (paced at
// `rate_per_writer` events/s each; 0: unpaced), once `session` enables it; `t0` is when
// the enable was issued.
Writers run_two_writers(TRACEHANDLE session, unsigned tag, uint64_t per_writer,
                        uint64_t rate_per_writer, std::chrono::steady_clock::time_point& t0) {
  const std::vector<std::string> args{"--role=writer", std::to_string(tag),
                                      std::to_string(per_writer), std::to_string(rate_per_writer)};
  int out_a = -1, out_b = -1;
  const pid_t a = spawn(args, &out_a);
  const pid_t b = spawn(args, &out_b);
  GUID g = guid_of(tag);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // both registered
  t0 = std::chrono::steady_clock::now();
  EnableTraceEx2(session, &g, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, 5000, nullptr);
  Writers w;
  w.write_ns = std::max(read_number(out_a), read_number(out_b));
  w.cpu_ns = wait_cpu_ns(a) + wait_cpu_ns(b);
  return w;
}

// One run of two writers into a session and what came out of it.
struct Run {
  double secs = 0;  // enable → everything delivered (real time) / file closed (file)
  double kept = 0;  // events delivered to the consumer / written to the file
  double lost = 0;  // EventsLost
  double writers_ns = 0;
  double written_ev_s = 0;  // the rate the writers achieved (events / the slower one's time)
  double reader_ns = 0;     // the consumer, or the host just before STOP
  double buffers_written = 0;
};

// Two writers (`rate` events/s in all, 0: unpaced) → one real-time consumer, 64 MB rings.
Run end_to_end(uint64_t per_writer, uint64_t rate) {
  Run r;
  TRACEHANDLE s = start("bench_e2e", 1024, 64);  // a 64 MB ring per writer
  int out = -1;
  const pid_t consumer = spawn({"--role=consumer", "bench_e2e"}, &out, true);
  char buf[64] = {0};
  (void)!::read(out, buf, 5);
  std::chrono::steady_clock::time_point t0;
  const Writers w = run_two_writers(s, 2308, per_writer, rate / 2, t0);
  r.writers_ns = w.cpu_ns;
  r.written_ev_s = w.write_ns > 0 ? 2e9 * static_cast<double>(per_writer) / w.write_ns : 0;
  Properties p = properties(0, 0);
  QueryTraceW(s, nullptr, &p.props);
  stop(s);
  const ssize_t n = ::read(out, buf, sizeof buf - 1);
  const auto t1 = std::chrono::steady_clock::now();
  r.reader_ns = wait_cpu_ns(consumer);
  ::close(out);
  r.secs = std::chrono::duration<double>(t1 - t0).count();
  r.kept = n > 0 ? std::strtod(buf, nullptr) : 0;
  r.lost = p.props.EventsLost;
  return r;
}

// Two writers (`rate` events/s in all, 0: unpaced) → a sequential log-file session (64 MB
// rings, 1 MB file buffers) at `path`, until STOP returned with the file closed.
Run file_session(uint64_t per_writer, uint64_t rate, const std::string& path) {
  Run r;
  Properties p = properties(1024, 64);
  p.props.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
  p.props.LogFileNameOffset = offsetof(Properties, file);
  for (size_t i = 0; i < path.size() && i < 511; ++i) p.file[i] = static_cast<WCHAR>(path[i]);
  WCHAR name[64];
  widen("bench_file", name);
  TRACEHANDLE s = 0;
  if (StartTraceW(&s, name, &p.props) != 0) std::abort();
  std::chrono::steady_clock::time_point t0;
  const Writers w = run_two_writers(s, 2310, per_writer, rate / 2, t0);
  r.writers_ns = w.cpu_ns;
  r.written_ev_s = w.write_ns > 0 ? 2e9 * static_cast<double>(per_writer) / w.write_ns : 0;
  r.reader_ns = proc_cpu_ns(host_pid());  // before STOP: the rest is ≤ 2 ms of events
  Properties q = properties(0, 0);
  (void)ControlTraceW(s, nullptr, &q.props, EVENT_TRACE_CONTROL_STOP);  // host closed the file
  r.secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.lost = q.props.EventsLost;
  r.kept = 2.0 * static_cast<double>(per_writer) - r.lost;
  r.buffers_written = q.props.BuffersWritten;
  return r;
}

std::string bench_file_path() {
  const char* keep = std::getenv("PFC_BENCH_LOGFILE");
  if (keep != nullptr) return keep;
  const char* dir = std::getenv("PFC_TRACE_DIR");  // main sets it before any benchmark runs
  if (dir == nullptr) throw std::logic_error("bench_file_path: PFC_TRACE_DIR is not set");
  return std::string(dir) + "/bench.etl";
}

void report(benchmark::State& state, const Run& r, uint64_t per_writer) {
  state.SetIterationTime(r.secs);
  state.counters["events_per_s"] = r.kept / r.secs;
  state.counters["lost"] = r.lost;
  state.counters["written_ev_s"] = r.written_ev_s;
  cpu_counters(state, r.writers_ns, r.reader_ns, 2.0 * static_cast<double>(per_writer));
}

void Trace_EndToEnd_2Providers(benchmark::State& state) {
  const uint64_t per_writer = 2'000'000;
  for ([[maybe_unused]] auto _ : state) {
    const Run r = end_to_end(per_writer, 0);
    report(state, r, per_writer);
    state.counters["delivered"] = r.kept;
  }
}
BENCHMARK(Trace_EndToEnd_2Providers)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);

void Trace_File_2Providers(benchmark::State& state) {
  const uint64_t per_writer = 2'000'000;
  const std::string path = bench_file_path();
  for ([[maybe_unused]] auto _ : state) {
    const Run r = file_session(per_writer, 0, path);
    report(state, r, per_writer);
    state.counters["buffers_written"] = r.buffers_written;
    state.counters["file_mb"] = static_cast<double>(std::filesystem::file_size(path)) / (1 << 20);
  }
  if (std::getenv("PFC_BENCH_LOGFILE") == nullptr) std::filesystem::remove(path);
}
BENCHMARK(Trace_File_2Providers)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);

// The same at a fixed offered rate (the argument, in k events/s for both writers
// together): does the consumer or the host keep up, and how many events are lost?
// `events_per_s` is what was delivered over the whole run (≈ the offered rate when
// nothing is lost); `lost` is the goal's "none lost".
// The offered rates of the *_Offered benchmarks (k events/s, both writers), one run each.
void offered_rates(benchmark::internal::Benchmark* b) {
  for (const int k : {2000, 3000, 4000, 5000, 6000}) b->Arg(k);
  b->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
}

void Trace_EndToEnd_Offered(benchmark::State& state) {
  const uint64_t per_writer = 2'000'000, rate = static_cast<uint64_t>(state.range(0)) * 1000;
  for ([[maybe_unused]] auto _ : state) report(state, end_to_end(per_writer, rate), per_writer);
  state.counters["offered_ev_s"] = static_cast<double>(rate);
}
BENCHMARK(Trace_EndToEnd_Offered)->Apply(offered_rates);

void Trace_File_Offered(benchmark::State& state) {
  const uint64_t per_writer = 2'000'000, rate = static_cast<uint64_t>(state.range(0)) * 1000;
  const std::string path = bench_file_path();
  for ([[maybe_unused]] auto _ : state)
    report(state, file_session(per_writer, rate, path), per_writer);
  state.counters["offered_ev_s"] = static_cast<double>(rate);
  if (std::getenv("PFC_BENCH_LOGFILE") == nullptr) std::filesystem::remove(path);
}
BENCHMARK(Trace_File_Offered)->Apply(offered_rates);

// The highest rate at which nothing was lost, found by bisection of the offered rate
// between 1 and 12 M/s over `kSearchSteps` runs of 2 × 1 M events each (the goal's 5 M/s
// first). A run counts at the rate the writers achieved (written_ev_s), which is below the
// offered one when they cannot keep the pace: max_no_loss_ev_s is the highest achieved
// rate of a run with nothing lost, first_loss_ev_s the lowest achieved rate of a run that
// lost events (0: none did). One run per rate, so on a busy machine these are samples.
constexpr int kSearchSteps = 7;
template <typename RunAt>
void search_no_loss(benchmark::State& state, RunAt&& run_at) {
  for ([[maybe_unused]] auto _ : state) {
    double lo = 0, hi = 12'000'000, secs = 0, best = 0, first_loss = 0;
    for (int i = 0; i < kSearchSteps; ++i) {
      const double mid = i == 0 ? 5'000'000 : (lo + hi) / 2;
      const Run r = run_at(static_cast<uint64_t>(mid));
      secs += r.secs;
      if (r.lost == 0 && r.kept == 2'000'000) {
        lo = mid;
        best = std::max(best, r.written_ev_s);
      } else {
        hi = mid;
        first_loss = first_loss == 0 ? r.written_ev_s : std::min(first_loss, r.written_ev_s);
      }
    }
    state.SetIterationTime(secs);
    state.counters["max_no_loss_ev_s"] = best;
    state.counters["first_loss_ev_s"] = first_loss;
    state.counters["max_offered_no_loss_ev_s"] = lo;
  }
}

void Trace_EndToEnd_MaxNoLoss(benchmark::State& state) {
  search_no_loss(state, [](uint64_t rate) { return end_to_end(1'000'000, rate); });
}
BENCHMARK(Trace_EndToEnd_MaxNoLoss)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);

void Trace_File_MaxNoLoss(benchmark::State& state) {
  const std::string path = bench_file_path();
  search_no_loss(state, [&path](uint64_t rate) { return file_session(1'000'000, rate, path); });
  if (std::getenv("PFC_BENCH_LOGFILE") == nullptr) std::filesystem::remove(path);
}
BENCHMARK(Trace_File_MaxNoLoss)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);

void Trace_EnableToCallback(benchmark::State& state) {
  TRACEHANDLE s = start("bench_enable");
  int out = -1;
  const pid_t child = spawn({"--role=callback", "2309"}, &out);
  GUID g = guid_of(2309);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // registered
  std::vector<uint64_t> ticks;
  const double scale = ns_per_tick();
  int round = 0;
  for ([[maybe_unused]] auto _ : state) {
    const ULONG code =
        round++ % 2 == 0 ? EVENT_CONTROL_CODE_ENABLE_PROVIDER : EVENT_CONTROL_CODE_DISABLE_PROVIDER;
    const uint64_t t0 = __rdtsc();
    EnableTraceEx2(s, &g, code, 5, 0, 0, 0, nullptr);
    char c = 0;
    if (::read(out, &c, 1) != 1) break;
    ticks.push_back(__rdtsc() - t0);
  }
  reap(child);
  ::close(out);
  stop(s);
  percentiles(state, ticks, scale);
}
BENCHMARK(Trace_EnableToCallback)->Iterations(200)->UseRealTime()->Unit(benchmark::kMicrosecond);

}  // namespace

int main(int argc, char** argv) {
  g_self = argv[0];
  if (argc >= 3 && std::strcmp(argv[1], "--role=consumer") == 0) return role_consumer(argv[2]);
  if (argc >= 5 && std::strcmp(argv[1], "--role=writer") == 0)
    return role_writer(static_cast<unsigned>(std::atoi(argv[2])),
                       std::strtoull(argv[3], nullptr, 10), std::strtoull(argv[4], nullptr, 10));
  if (argc >= 3 && std::strcmp(argv[1], "--role=callback") == 0) {
    g_callback_fd = 1;
    return role_callback(static_cast<unsigned>(std::atoi(argv[2])));
  }
  // A PFC_TRACE_DIR the caller set is used as it is (and left in place). Otherwise a fresh
  // one on tmpfs, like the default namespace (/dev/shm or $XDG_RUNTIME_DIR): rings on a
  // disk file system would measure page write-back. It is removed at the end.
  char tmpl[] = "/dev/shm/pfc-bench-trace-XXXXXX";
  const char* given = std::getenv("PFC_TRACE_DIR");
  const char* dir = given != nullptr && *given != '\0' ? nullptr : ::mkdtemp(tmpl);
  if (dir == nullptr && (given == nullptr || *given == '\0')) return 1;
  if (dir != nullptr) ::setenv("PFC_TRACE_DIR", dir, 1);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (dir != nullptr) std::filesystem::remove_all(dir);
  return 0;
}
