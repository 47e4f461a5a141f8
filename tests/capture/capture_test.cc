// tests/capture/capture_test.cc — the binary capture format: write → read round trip,
// a table of malformed files with the exact error they must give, truncation at every byte
// of a small file, and random corruption (always an error, never a crash).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "base/crc32.h"
#include "runtime/capture.h"

namespace pfc {
namespace {

const Guid kA = *Guid::parse("{0E95CFBC-58D4-44BA-BE40-E63A853536DF}");
const Guid kB = *Guid::parse("{37A59B93-BB25-4CEE-97AA-8B6ACD0C4DF8}");

Event make_event(uint16_t id, uint8_t level, uint64_t keyword, uint32_t pid, std::string exe,
                 std::vector<uint8_t> payload) {
  Event e;
  e.desc = EventDescriptor{id, 2, 3, level, 5, 0x1234, keyword};
  e.pid = pid;
  e.tid = pid + 1;
  e.exe = std::move(exe);
  e.payload = std::move(payload);
  return e;
}

std::vector<Event> sample_events() {
  return {make_event(1, 4, 0x8000000000000001, 100, "C:\\a\\app.exe", {1, 2, 3}),
          make_event(2, 0, 0, 7, "", {}),
          make_event(65535, 255, ~uint64_t{0}, 0xFFFFFFFF, "C:\\a\\app.exe", {9, 8, 7, 6, 5})};
}

std::vector<uint8_t> sample_file() {
  CaptureWriter w;
  const uint16_t a = *w.add_provider(kA);
  const uint16_t b = *w.add_provider(kB);
  const std::vector<Event> events = sample_events();
  EXPECT_TRUE(w.add(a, events[0], 10).has_value());
  EXPECT_TRUE(w.add(b, events[1], 20).has_value());
  EXPECT_TRUE(w.add(a, events[2], 30).has_value());
  return w.finish();
}

// Recomputes the body checksum after a deliberate edit, so that the structural check is
// what the test sees.
void fix_crc(std::vector<uint8_t>& f) {
  const uint32_t crc = crc32(std::span(f).subspan(kCaptureHeaderSize));
  store_le(&f[internal::capture_header::kBodyCrc], crc, 4);
}

std::string open_error(const std::vector<uint8_t>& f) {
  auto r = CaptureReader::open(f);
  return r ? std::string("ok") : r.error().message;
}

TEST(Capture, RoundTrip) {
  const std::vector<uint8_t> file = sample_file();
  ASSERT_TRUE(is_capture(file));
  auto reader = CaptureReader::open(file);
  ASSERT_TRUE(reader.has_value()) << reader.error().message;
  EXPECT_EQ(reader->record_count(), 3u);
  ASSERT_EQ(reader->providers().size(), 2u);
  EXPECT_EQ(reader->providers()[1], kB);
  EXPECT_EQ(reader->strings().size(), 1u);  // the exe path is stored once
  const std::vector<Event> events = sample_events();
  const uint16_t providers[] = {0, 1, 0};
  const uint64_t stamps[] = {10, 20, 30};
  CaptureRecord rec;
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < events.size(); ++i) {
      ASSERT_TRUE(reader->next(rec));
      const EventView want = events[i].view();
      EXPECT_EQ(rec.provider, providers[i]);
      EXPECT_EQ(rec.timestamp, stamps[i]);
      EXPECT_EQ(rec.event.desc, want.desc);
      EXPECT_EQ(rec.event.pid, want.pid);
      EXPECT_EQ(rec.event.tid, want.tid);
      EXPECT_EQ(rec.event.exe.view(), want.exe.view());
      EXPECT_EQ(std::vector<uint8_t>(rec.event.payload, rec.event.payload + rec.event.payload_size),
                events[i].payload);
    }
    EXPECT_FALSE(reader->next(rec));
    reader->rewind();
  }
}

TEST(Capture, EmptyCapture) {
  const std::vector<uint8_t> file = CaptureWriter().finish();
  EXPECT_EQ(file.size(), kCaptureHeaderSize);
  auto reader = CaptureReader::open(file);
  ASSERT_TRUE(reader.has_value()) << reader.error().message;
  CaptureRecord rec;
  EXPECT_FALSE(reader->next(rec));
}

TEST(Capture, WriterRejectsUnknownProvider) {
  CaptureWriter w;
  auto r = w.add(0, Event{}, 0);
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message, "capture: provider index 0 was never added");
}

TEST(Capture, JsonIsNotACapture) {
  const std::string json = R"({"provider":"P"})";
  EXPECT_FALSE(is_capture(std::span(reinterpret_cast<const uint8_t*>(json.data()), json.size())));
}

// Offsets in sample_file(): header 40, providers 40..72, string 0 at 72 (4 + 12 bytes),
// record 0 at 88 (48 + 3), record 1 at 139 (48 + 0), record 2 at 187 (48 + 5), end 240.
struct Malformed {
  const char* name;
  void (*edit)(std::vector<uint8_t>&);
  const char* error;
};

const Malformed kMalformed[] = {
    {"bad magic", [](auto& f) { f[1] = 'X'; },
     "capture: not a pfc capture file (bad magic at offset 0)"},
    {"version", [](auto& f) { f[8] = 2; },
     "capture: unsupported version 2 at offset 8 (this pfc reads version 1)"},
    {"header size", [](auto& f) { f[10] = 41; },
     "capture: header size 41 at offset 10, expected 40"},
    {"string length",
     [](auto& f) {
       store_le(&f[72], 1000, 4);
       fix_crc(f);
     },
     "capture: string 0 at offset 72: length 1000 runs past the end of the file"},
    {"provider index",
     [](auto& f) {
       f[139 + 4] = 2;
       fix_crc(f);
     },
     "capture: record 1 at offset 139: provider index 2 out of range (2 providers)"},
    {"exe index",
     [](auto& f) {
       f[187 + 40] = 1;
       fix_crc(f);
     },
     "capture: record 2 at offset 187: exe index 1 out of range (1 strings)"},
    {"reserved",
     [](auto& f) {
       f[88 + 44] = 1;
       fix_crc(f);
     },
     "capture: record 0 at offset 88: reserved fields are not zero"},
    {"payload size",
     [](auto& f) {
       store_le(&f[187], 6, 4);
       fix_crc(f);
     },
     "capture: record 2 at offset 187: payload of 6 bytes runs past the end of the file (5 bytes "
     "left)"},
    {"record count", [](auto& f) { f[24] = 4; },
     "capture: the file ends at offset 240 after 3 of 4 records (truncated)"},
    {"trailing bytes",
     [](auto& f) {
       f.push_back(0);
       fix_crc(f);
     },
     "capture: 1 unexpected bytes at offset 240 after the last of 3 records"},
    {"body size", [](auto& f) { f[32] = 1; },
     "capture: body size 1 at offset 32 does not match the 200 bytes after the header"},
    {"payload byte", [](auto& f) { f[187 + 48] ^= 0x40; },
     "capture: checksum mismatch: the header (offset 20) says 0x"},
};

TEST(Capture, MalformedFilesNameTheProblem) {
  const std::vector<uint8_t> good = sample_file();
  ASSERT_EQ(good.size(), 240u);
  for (const Malformed& m : kMalformed) {
    std::vector<uint8_t> f = good;
    m.edit(f);
    const std::string error = open_error(f);
    EXPECT_EQ(error.substr(0, std::string(m.error).size()), m.error) << m.name;
  }
}

TEST(Capture, TruncationAtEveryByteIsAnError) {
  const std::vector<uint8_t> good = sample_file();
  for (size_t n = 0; n < good.size(); ++n) {
    const std::vector<uint8_t> f(good.begin(), good.begin() + long(n));
    const std::string error = open_error(f);
    EXPECT_NE(error, "ok") << "truncated at " << n;
    EXPECT_EQ(error.rfind("capture: ", 0), 0u) << error;
    if (n >= 88 && n < good.size()) {
      // Inside the records: the message names the record and its offset.
      EXPECT_TRUE(error.find("record") != std::string::npos) << n << ": " << error;
      EXPECT_TRUE(error.find("offset") != std::string::npos) << n << ": " << error;
    }
  }
}

TEST(Capture, RandomCorruptionIsAlwaysDetected) {
  const std::vector<uint8_t> good = sample_file();
  std::mt19937 rng(12345);
  for (int trial = 0; trial < 5000; ++trial) {
    std::vector<uint8_t> f = good;
    const int edits = 1 + int(rng() % 4);
    for (int k = 0; k < edits; ++k) f[rng() % f.size()] ^= uint8_t(1 + rng() % 255);
    // Several edits could in principle cancel in the CRC; single-byte edits never do.
    const std::string error = open_error(f);
    if (edits == 1) {
      EXPECT_NE(error, "ok") << "trial " << trial;
    }
    if (error == "ok") continue;
    EXPECT_EQ(error.rfind("capture: ", 0), 0u) << error;
  }
}

TEST(Capture, RandomBytesNeverCrash) {
  std::mt19937 rng(777);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<uint8_t> f(kCaptureMagic.begin(), kCaptureMagic.end());
    f.resize(8 + rng() % 300);
    for (size_t i = 8; i < f.size(); ++i) f[i] = uint8_t(rng());
    if (f.size() > 10) {
      f[8] = 1;
      f[9] = 0;
      f[10] = 40;
      f[11] = 0;
    }
    auto r = CaptureReader::open(f);
    if (r) {  // only if everything, checksum included, happened to be consistent
      CaptureRecord rec;
      while (r->next(rec)) {
      }
    }
  }
}

}  // namespace
}  // namespace pfc
