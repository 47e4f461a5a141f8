// tests/cli/stream_test.cc — `pfc` on real volumes and in pipelines, run as processes:
// memory bounded independently of the input (a capture 10× larger than the RSS limit
// streamed through a pipe), first output before the input ends, write errors (closed
// pipe, /dev/full), closed stdin, a file truncated mid-line, and the input limits (B3:
// /dev/zero as script and events, a 4 GB sparse capture). Peak memory comes from the
// child's rusage; a hang is caught by a generous kill timer, never by timing assertions.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "process.h"
#include "tests/sanitizer.h"

namespace pfc::test {
namespace {

namespace fs = std::filesystem;

const char* const kScript = R"(provider P {11111111-2222-3333-4444-555555555555} {
    event E (id=1, level=4) { N: uint32; S: wstring; }
}
session A { enable P level=verbose { payload E all { N eq 7 } } }
session B { enable P level=verbose; }
)";

struct Child {
  pid_t pid = -1;
  int in = -1;   // write end of the child's stdin (-1: none)
  int out = -1;  // read end of the child's stdout (-1: none)
};

// Starts pfc with `args`; stdin/stdout are pipes when asked, else /dev/null.
Child start(const std::vector<std::string>& args, bool pipe_in, bool pipe_out) {
  int in[2] = {-1, -1}, out[2] = {-1, -1};
  if (pipe_in) {
    EXPECT_EQ(pipe2(in, O_CLOEXEC), 0);
  }
  if (pipe_out) {
    EXPECT_EQ(pipe2(out, O_CLOEXEC), 0);
  }
  Child c;
  c.pid = fork();
  if (c.pid == 0) {
    const int devnull = open("/dev/null", O_RDWR);
    if (devnull < 0) _exit(126);
    dup2(pipe_in ? in[0] : devnull, 0);
    dup2(pipe_out ? out[1] : devnull, 1);
    std::vector<char*> argv = {const_cast<char*>(PFC_BINARY)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(PFC_BINARY, argv.data());
    _exit(127);
  }
  if (pipe_in) close(in[0]), c.in = in[1];
  if (pipe_out) close(out[1]), c.out = out[0];
  return c;
}

struct Finished {
  int exit_code = -1;
  long max_rss_kb = 0;
};

// Waits for the child (killing it after `limit_s` seconds: a hang guard only).
Finished finish(const Child& c, int limit_s = 300) {
  Finished f;
  int status = 0;
  rusage usage{};
  for (int waited = 0; waited < limit_s * 10; ++waited) {
    const pid_t r = wait4(c.pid, &status, WNOHANG, &usage);
    if (r == c.pid) {
      if (WIFEXITED(status)) f.exit_code = WEXITSTATUS(status);
      f.max_rss_kb = usage.ru_maxrss;
      return f;
    }
    usleep(100000);
  }
  kill(c.pid, SIGKILL);
  wait4(c.pid, &status, 0, &usage);
  ADD_FAILURE() << "pfc did not finish within " << limit_s << " s";
  return f;
}

bool write_all(int fd, const void* data, size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = write(fd, p, size);
    if (n <= 0) return false;
    p += n;
    size -= size_t(n);
  }
  return true;
}

void put_le(std::string& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(char(v >> (8 * i)));
}

// CRC-32 of `count` copies of a block whose CRC is `crc` and length `len` (doubling).
uint32_t crc_of_copies(uint32_t crc, uint64_t len, uint64_t count) {
  uint32_t result = 0;
  uint64_t result_len = 0;
  uint32_t power = crc;  // CRC of 2^k copies
  uint64_t power_len = len;
  for (; count != 0; count >>= 1) {
    if (count & 1) {
      result = result_len == 0 ? power : uint32_t(crc32_combine(result, power, z_off_t(power_len)));
      result_len += power_len;
    }
    power = uint32_t(crc32_combine(power, power, z_off_t(power_len)));
    power_len *= 2;
  }
  return result;
}

// One record of the capture format (docs/cli.md): provider 0, event 1, N = 7 and S = "hi"
// padded to make a 100-byte record.
std::string record() {
  std::string payload;
  put_le(payload, 7, 4);
  for (int i = 0; i < 23; ++i) put_le(payload, 'x', 2);
  put_le(payload, 0, 2);
  std::string r;
  put_le(r, payload.size(), 4);
  put_le(r, 0, 2);                                       // provider
  put_le(r, 0, 2);                                       // flags
  put_le(r, 1, 2);                                       // id
  r += std::string{char(0), char(0), char(4), char(0)};  // version, channel, level, opcode
  put_le(r, 0, 2);                                       // task
  put_le(r, 0, 8);                                       // keyword
  put_le(r, 100, 4);                                     // pid
  put_le(r, 200, 4);                                     // tid
  put_le(r, 0, 8);                                       // timestamp
  put_le(r, 0xFFFFFFFF, 4);                              // no exe
  put_le(r, 0, 4);
  return r + payload;
}

// The header and provider table of a capture of `count` copies of record().
std::string capture_head(uint64_t count) {
  const std::string guid = {char(0x11), char(0x11), char(0x11), char(0x11), char(0x22), char(0x22),
                            char(0x33), char(0x33), char(0x44), char(0x44), char(0x55), char(0x55),
                            char(0x55), char(0x55), char(0x55), char(0x55)};
  const std::string rec = record();
  const uint32_t rec_crc =
      uint32_t(crc32(0, reinterpret_cast<const Bytef*>(rec.data()), uInt(rec.size())));
  const uint32_t table_crc = uint32_t(crc32(0, reinterpret_cast<const Bytef*>(guid.data()), 16));
  const uint32_t crc = uint32_t(crc32_combine(table_crc, crc_of_copies(rec_crc, rec.size(), count),
                                              z_off_t(rec.size() * count)));
  std::string h = "\x89PFCCAP\n";
  put_le(h, 1, 2);
  put_le(h, 40, 2);
  put_le(h, 1, 4);
  put_le(h, 0, 4);
  put_le(h, crc, 4);
  put_le(h, count, 8);
  put_le(h, 16 + rec.size() * count, 8);
  return h + guid;
}

class Stream : public testing::Test {
 protected:
  void SetUp() override { write("s.pfs", kScript); }
  std::string path(const std::string& name) const { return scratch_.path(name); }
  void write(const std::string& name, const std::string& text) const { scratch_.write(name, text); }
  ScratchDir scratch_{"pfc_stream"};
  fs::path dir_ = scratch_.dir();
};

// 13 M records of 100 bytes (1.3 GB) through a pipe, more than ten times the 120 MB the
// run may use at its peak: nothing is held per event.
TEST_F(Stream, MemoryIsBoundedIndependentlyOfTheInput) {
  constexpr uint64_t kRecords = 13'000'000;
  constexpr long kRssLimitKb = 120 * 1024;
  const std::string rec = record();
  ASSERT_EQ(rec.size(), 100u);
  ASSERT_GE(kRecords * rec.size() / 1024, uint64_t(10 * kRssLimitKb));
  Child c =
      start({"run", path("s.pfs"), "--events", "-", "--count", "--engine", "interp"}, true, true);
  std::string out;
  std::thread reader([&] {
    char buf[4096];
    for (ssize_t n; (n = read(c.out, buf, sizeof buf)) > 0;) out.append(buf, size_t(n));
  });
  const std::string head = capture_head(kRecords);
  bool written = write_all(c.in, head.data(), head.size());
  std::string block;
  for (int i = 0; i < 10000; ++i) block += rec;
  for (uint64_t i = 0; written && i < kRecords / 10000; ++i)
    written = write_all(c.in, block.data(), block.size());
  close(c.in);
  const Finished f = finish(c);
  reader.join();
  close(c.out);
  EXPECT_TRUE(written);
  EXPECT_EQ(f.exit_code, 0);
  EXPECT_EQ(out.rfind("{\"events\":13000000,\"matched\":13000000,", 0), 0u) << out;
  EXPECT_NE(out.find("\"A\":{\"delivered\":13000000,"), std::string::npos) << out;
  EXPECT_LT(f.max_rss_kb, kRssLimitKb * kMemoryFactor) << "peak RSS in kB";
}

// The first decision is written while the input is still open (pfc flushes before it
// waits for more input).
TEST_F(Stream, FirstLineBeforeTheInputEnds) {
  Child c = start({"run", path("s.pfs"), "--events", "-"}, true, true);
  const std::string line = "{\"provider\":\"P\",\"event\":\"E\",\"fields\":{\"N\":7}}\n";
  ASSERT_TRUE(write_all(c.in, line.data(), line.size()));
  pollfd p{c.out, POLLIN, 0};
  ASSERT_EQ(poll(&p, 1, 60000), 1) << "no output while the input is open";
  char buf[256];
  const ssize_t n = read(c.out, buf, sizeof buf);
  EXPECT_EQ(std::string(buf, size_t(std::max<ssize_t>(n, 0))),
            "{\"seq\":0,\"sessions\":[\"A\",\"B\"],\"stack\":[]}\n");
  close(c.in);
  EXPECT_EQ(finish(c).exit_code, 0);
  close(c.out);
}

// `pfc run … | head -1`: the reader goes away; pfc stops quietly with exit 1.
TEST_F(Stream, ClosedPipeEndsTheRunQuietly) {
  std::string lines;
  for (int i = 0; i < 200000; ++i)
    lines += "{\"provider\":\"P\",\"event\":\"E\",\"fields\":{\"N\":7}}\n";
  write("many.jsonl", lines);
  Child c = start({"run", path("s.pfs"), "--events", path("many.jsonl")}, false, true);
  char buf[64];
  ASSERT_GT(read(c.out, buf, sizeof buf), 0);
  close(c.out);
  EXPECT_EQ(finish(c).exit_code, 1);
}

TEST_F(Stream, FullDiskIsAnError) {
  write("one.jsonl", "{\"provider\":\"P\",\"event\":\"E\",\"fields\":{\"N\":7}}\n");
  const ProcessResult r = run_process(
      PFC_BINARY, {"run", path("s.pfs"), "--events", path("one.jsonl"), "-o", "/dev/full"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "pfc: error: cannot write /dev/full: No space left on device\n");
  const ProcessResult gen = run_process(
      PFC_BINARY, {"gen", path("s.pfs"), "--count", "10", "--seed", "1", "-o", "/dev/full"});
  EXPECT_EQ(gen.exit_code, 1);
  EXPECT_NE(gen.err.find("cannot write /dev/full: No space left on device"), std::string::npos)
      << gen.err;
  EXPECT_TRUE(fs::is_character_file("/dev/full")) << "a failed gen must not remove a device";
}

// Every command's standard output (written through std::cout or an OutputFile) keeps the
// errno of a failed write: a closed pipe is a silent exit 1, a full disk names its reason
// (docs/cli.md "Output").
TEST_F(Stream, EveryCommandReportsItsStdoutWriteErrorByItsReason) {
  const std::vector<std::vector<std::string>> commands = {
      {"compile", path("s.pfs"), "--emit", "ast"},
      {"compile", path("s.pfs"), "--emit", "ir"},
      {"state", path("s.pfs")},
      {"run", path("s.pfs"), "--events", path("one.jsonl")},
      {"gen", path("s.pfs"), "--count", "3", "--seed", "1", "-o", path("g.cap")},
      {"--help"},
      {"trace", "start", "--help"},
      {"--version"}};
  write("one.jsonl", "{\"provider\":\"P\",\"event\":\"E\",\"fields\":{\"N\":7}}\n");
  for (const std::vector<std::string>& args : commands) {
    const ProcessResult piped = run_process(PFC_BINARY, args, "", StdoutTo::ClosedPipe);
    EXPECT_EQ(piped.exit_code, 1) << args[0] << ' ' << args.back();
    EXPECT_EQ(piped.err, "") << args[0] << ' ' << args.back();
    const ProcessResult full = run_process(PFC_BINARY, args, "", StdoutTo::DevFull);
    EXPECT_EQ(full.exit_code, 1) << args[0] << ' ' << args.back();
    EXPECT_EQ(full.err, "pfc: error: cannot write <stdout>: No space left on device\n")
        << args[0] << ' ' << args.back();
  }
}

TEST_F(Stream, ClosedStdinIsAnError) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int devnull = open("/dev/null", O_WRONLY);
    if (devnull < 0) _exit(126);
    dup2(devnull, 1);
    dup2(devnull, 2);
    close(devnull);
    close(0);  // pfc starts with no standard input at all
    execl(PFC_BINARY, PFC_BINARY, "run", path("s.pfs").c_str(), "--events", "-", nullptr);
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);
}

TEST_F(Stream, TruncatedLineIsReportedAfterTheEventsBeforeIt) {
  write("cut.jsonl",
        "{\"provider\":\"P\",\"event\":\"E\",\"fields\":{\"N\":7}}\n"
        "{\"provider\":\"P\",\"event\":\"E\",\"fields\":{\"N\":1}}\n"
        "{\"provider\":\"P\",\"event\":\"E\",\"fie");
  const ProcessResult r =
      run_process(PFC_BINARY, {"run", "s.pfs", "--events", "cut.jsonl"}, dir_.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out,
            "{\"seq\":0,\"sessions\":[\"A\",\"B\"],\"stack\":[]}\n{\"seq\":1,\"sessions\":[\"B\"],"
            "\"stack\":[]}\n");
  EXPECT_EQ(r.err.rfind("cut.jsonl:3:", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("malformed JSON"), std::string::npos) << r.err;
}

// B3: a non-regular file is read only up to the limit.
TEST_F(Stream, DevZeroIsReadOnlyUpToTheLimit) {
  const Child script = start({"check", "/dev/zero"}, false, false);
  const Finished s = finish(script, 120);
  EXPECT_EQ(s.exit_code, 1);
  EXPECT_LT(s.max_rss_kb, 600 * 1024 * kMemoryFactor);
  const ProcessResult events =
      run_process(PFC_BINARY, {"run", path("s.pfs"), "--events", "/dev/zero"});
  EXPECT_EQ(events.exit_code, 1);
  EXPECT_NE(events.err.find("is longer than the limit of 41943040 bytes"), std::string::npos)
      << events.err;
  const ProcessResult check = run_process(PFC_BINARY, {"check", "/dev/zero"});
  EXPECT_EQ(
      check.err,
      "pfc: error: cannot read /dev/zero: larger than the limit of 134217728 bytes for a script\n");
}

// B3: a 4 GB sparse capture (a valid empty capture followed by a hole) is rejected from its
// size before any record is read.
TEST_F(Stream, SparseCaptureIsRejectedWithoutReadingIt) {
  std::string head = capture_head(0);
  write("sparse.cap", head);
  fs::resize_file(path("sparse.cap"), uint64_t{4} << 30);
  const Child c = start({"run", path("s.pfs"), "--events", path("sparse.cap")}, false, false);
  const Finished f = finish(c, 120);
  EXPECT_EQ(f.exit_code, 1);
  EXPECT_LT(f.max_rss_kb, 600 * 1024 * kMemoryFactor);
  const ProcessResult r =
      run_process(PFC_BINARY, {"run", path("s.pfs"), "--events", path("sparse.cap")});
  EXPECT_NE(r.err.find("unexpected bytes after the body"), std::string::npos) << r.err;
}

// Issue 12: a 10 M-element JSON array in an event's fields is rejected without parsing it
// (1.5 GB before); a JSON array of 1 M events streams like JSON Lines.
TEST_F(Stream, HugeJsonArraysStayBounded) {
  {
    std::ofstream f(path("fields.jsonl"));
    f << "{\"provider\":\"P\",\"event\":\"E\",\"fields\":{\"N\":[";
    for (int i = 0; i < 10'000'000; ++i) f << (i == 0 ? "0" : ",0");
    f << "]}}\n";
  }
  const Finished fields =
      finish(start({"run", path("s.pfs"), "--events", path("fields.jsonl")}, false, false), 120);
  EXPECT_EQ(fields.exit_code, 1);
  EXPECT_LT(fields.max_rss_kb, 300 * 1024 * kMemoryFactor);
  {
    std::ofstream f(path("array.json"));
    f << "[\n";
    for (int i = 0; i < 1'000'000; ++i)
      f << (i == 0 ? "" : ",\n") << "{\"provider\":\"P\",\"event\":\"E\",\"fields\":{\"N\":7}}";
    f << "\n]\n";
  }
  Child c = start({"run", path("s.pfs"), "--events", path("array.json"), "--count"}, false, true);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = read(c.out, buf, sizeof buf)) > 0;) out.append(buf, size_t(n));
  const Finished array = finish(c, 300);
  close(c.out);
  EXPECT_EQ(array.exit_code, 0);
  EXPECT_EQ(out.rfind("{\"events\":1000000,\"matched\":1000000,", 0), 0u) << out;
  EXPECT_LT(array.max_rss_kb, 120 * 1024 * kMemoryFactor);
}

// Generated events (every type, undeclared ids, cut payloads) written by --output events
// and routed again give the same decisions: decoded fields where the payload decodes
// exactly, payload_hex (and id/version for undeclared events) where it does not.
TEST_F(Stream, EventsOutputOfACaptureRoutesTheSame) {
  write("types.pfs", R"(provider T {22222222-2222-3333-4444-555555555555} {
    event A (id=1, level=4) { I8: int8; U64: uint64; F: float; D: double; B: bool; G: guid;
      P: pointer; FT: filetime; ST: systemtime; SID: sid; H: hexint32; W: wstring; S: string; }
    event Shaped (id=2, level=2) { N: uint16; Items: int32[N]; Fixed: int16[3]; W5: wstring length=5;
      Len: uint8; Name: string length=Len; Blob: binary length=4; Names: wstring[2]; }
}
session X { enable T level=4 { payload A any { I8 lt 0; W contains "a"; U64 gt 1000 } } }
session Y { enable T level=verbose { payload Shaped all { N ge 1 } } }
session Z { enable T; }
)");
  const std::string d = dir_.string();
  ASSERT_EQ(run_process(PFC_BINARY,
                        {"gen", "types.pfs", "--count", "3000", "--seed", "8", "-o", "t.cap"}, d)
                .exit_code,
            0);
  const ProcessResult events = run_process(
      PFC_BINARY, {"run", "types.pfs", "--events", "t.cap", "--output", "events", "-o", "t.jsonl"},
      d);
  ASSERT_EQ(events.exit_code, 0) << events.err;
  const std::string text = read_text(path("t.jsonl"));
  EXPECT_NE(text.find("\"fields\":{\"I8\":"), std::string::npos);
  EXPECT_NE(text.find("\"payload_hex\":"), std::string::npos);
  EXPECT_NE(text.find("\"id\":"), std::string::npos) << "undeclared ids are written as id/version";
  const ProcessResult original =
      run_process(PFC_BINARY, {"run", "types.pfs", "--events", "t.cap"}, d);
  const ProcessResult again =
      run_process(PFC_BINARY, {"run", "types.pfs", "--events", "t.jsonl"}, d);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  std::string kept;
  for (size_t at = 0; at < original.out.size();) {
    const size_t end = original.out.find('\n', at);
    const std::string line = original.out.substr(at, end - at);
    if (line.find("\"sessions\":[]") == std::string::npos)
      kept += line.substr(line.find(",\"sessions\"")) + "\n";
    at = end + 1;
  }
  std::string routed;
  for (size_t at = 0; at < again.out.size();) {
    const size_t end = again.out.find('\n', at);
    routed += again.out.substr(at, end - at)
                  .substr(again.out.substr(at, end - at).find(",\"sessions\"")) +
              "\n";
    at = end + 1;
  }
  EXPECT_FALSE(kept.empty());
  EXPECT_EQ(routed, kept);
}

// --output capture, then that capture routed again: the same decisions for what it kept.
TEST_F(Stream, CaptureOutputRoutesTheSame) {
  ASSERT_EQ(
      run_process(PFC_BINARY, {"gen", "s.pfs", "--count", "500", "--seed", "4", "-o", "g.cap"},
                  dir_.string())
          .exit_code,
      0);
  const ProcessResult kept = run_process(
      PFC_BINARY,
      {"run", "s.pfs", "--events", "g.cap", "--output", "capture", "--session", "A", "-o", "a.cap"},
      dir_.string());
  ASSERT_EQ(kept.exit_code, 0) << kept.err;
  const ProcessResult all =
      run_process(PFC_BINARY, {"run", "s.pfs", "--events", "g.cap", "--count"}, dir_.string());
  const ProcessResult again =
      run_process(PFC_BINARY, {"run", "s.pfs", "--events", "a.cap", "--count"}, dir_.string());
  ASSERT_EQ(again.exit_code, 0) << again.err;
  const auto delivered_a = [](const std::string& out) {
    const size_t at = out.find("\"A\":{\"delivered\":");
    return out.substr(at, out.find(',', at) - at);
  };
  EXPECT_EQ(delivered_a(again.out), delivered_a(all.out));
  const size_t events_end = again.out.find(',');
  EXPECT_EQ(again.out.substr(0, events_end), "{\"events\":" + delivered_a(all.out).substr(17));
}

}  // namespace
}  // namespace pfc::test
