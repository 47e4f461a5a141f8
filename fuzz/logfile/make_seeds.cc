// fuzz/logfile/make_seeds.cc — writes the log-file fuzzer's seeds into DIR (argv[1]) with
// the real writer (trace::LogWriter): a closed sequential file, an unclosed one, a full one
// (size limit), a circular one that wrapped, two writers' chunks merged by the readers, one with
// schemas, files whose schemas were rewritten into the reserved room (closed, unclosed, one schema
// left out), and a few damaged copies.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "trace/logfile.h"

namespace {

using namespace pfc;

std::string g_dir;
constexpr uint32_t kRounds = ~0u;  // make()'s `events` for add_rounds' file

// Event i as its own chunk (LogWriter::add), timestamps in order.
void add(trace::LogWriter& w, uint32_t i) {
  trace::EventRecord h{};
  h.ts = i;
  h.id = static_cast<uint16_t>(i % 5);
  h.pid = 100;
  h.filetime = 133'000'000'000'000'000 + i;
  h.payload_len = 4 + i % 13;
  h.stack_count = i % 9 == 0 ? 1 : 0;
  std::vector<uint8_t> payload(h.payload_len, static_cast<uint8_t>(i));
  const uint64_t stack = i;
  (void)w.add(h, payload.data(), reinterpret_cast<const uint8_t*>(&stack));
}

// Two writers' runs of records as the session host moves them: chunks of several records,
// interleaved timestamps across the chunks, a horizon after each round; each writer's
// records name entries of its table (two entries; the stream chunks define them).
void add_rounds(trace::LogWriter& w, uint32_t rounds) {
  trace::TableEntry table[2];
  table[0].id = 1;
  table[1].id = 2;
  table[1].keyword = 0x10;
  for (uint32_t round = 0; round < rounds; ++round) {
    for (uint32_t stream = 0; stream < 2; ++stream) {
      std::vector<uint8_t> run;
      for (uint32_t k = 0; k < 3; ++k) {
        const uint64_t value = k;
        const trace::RecordParts parts{.payload = &value, .payload_len = 4};
        const size_t at = run.size();
        run.resize(at + trace::record_bytes(parts), 0);
        auto* h = reinterpret_cast<trace::RecordHead*>(run.data() + at);
        h->size = trace::record_bytes(parts);
        h->state = trace::kRecordEvent;
        h->ts = round * 100 + k * 2 + stream;
        trace::fill_record(h, 7, 0, static_cast<uint8_t>(k % 2), parts);
      }
      const trace::StreamInfo info{.pid = 100 + stream,
                                   .mono_base = 0,
                                   .ft_base = 133'000'000'000'000'000,
                                   .table = table,
                                   .count = 2};
      trace::EntrySet used;
      used.add(0);
      used.add(1);
      if (run.size() > w.room(stream, used)) (void)w.next_buffer();
      (void)w.add_chunk(run.data(), static_cast<uint32_t>(run.size()), 3, stream, info, used);
    }
    w.set_horizon(round * 100 + 50);
  }
}

// With `rewrite`: 8 KB of schema room, and set_schemas after the events (one schema too
// large for the room: left out, section 3).
std::vector<uint8_t> make(bool circular, uint64_t max, uint32_t events, bool close, bool schemas,
                          bool rewrite = false) {
  const std::string tmp = g_dir + "/.tmp";
  trace::UniqueFd fd(::open(tmp.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600));
  trace::LogInfo info;
  info.session = u"Seed";
  info.file_name = u"/tmp/seed.etl";
  info.buffer_size = trace::kMinLogBuffer;
  info.circular = circular;
  info.max_bytes = max;
  if (schemas) info.schemas.push_back({Guid{1, 2, 3, {4}}, trace::kSchemaPfcScript, "P", {'x'}});
  if (rewrite) info.schema_room = 8192;
  auto w = trace::LogWriter::create(std::move(fd), info);
  if (!w) std::abort();
  if (events == kRounds) add_rounds(*w, 40);
  else
    for (uint32_t i = 0; i < events; ++i) add(*w, i);
  if (rewrite)
    (void)w->set_schemas({{Guid{5}, trace::kSchemaPfcExtension, {}, {'P', 'F', 'C', 'X'}},
                          {Guid{6}, trace::kSchemaManifest, "M", std::vector<uint8_t>(9000, 'm')},
                          {Guid{7}, trace::kSchemaPfcScript, "S", {'p'}}});
  if (close) {
    (void)w->close(1, 0);
  } else {
    (void)w->flush();
  }
  std::vector<uint8_t> out;
  FILE* f = std::fopen(tmp.c_str(), "rb");
  int c;
  while ((c = std::fgetc(f)) != EOF) out.push_back(static_cast<uint8_t>(c));
  std::fclose(f);
  std::remove(tmp.c_str());
  return out;
}

void save(const std::string& name, const std::vector<uint8_t>& b) {
  FILE* f = std::fopen((g_dir + "/" + name + ".bin").c_str(), "wb");
  std::fwrite(b.data(), 1, b.size(), f);
  std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  g_dir = argv[1];
  const auto seq = make(false, 0, 120, true, false);
  save("sequential_closed", seq);
  save("sequential_unclosed", make(false, 0, 120, false, false));
  save("sequential_full", make(false, 4096 + 2 * 4096, 300, true, false));
  save("circular_wrapped", make(true, 4096 + 3 * 4096, 400, true, false));
  save("with_schemas", make(false, 0, 10, true, true));
  save("rewritten_closed", make(false, 0, 50, true, false, true));
  save("rewritten_unclosed", make(false, 0, 50, false, false, true));
  save("empty_closed", make(false, 0, 0, true, false));
  save("two_streams_closed", make(false, 0, kRounds, true, false));
  save("two_streams_unclosed", make(false, 0, kRounds, false, false));
  auto bad = seq;
  bad[4096 + 40] ^= 0xFF;  // a record inside buffer 0
  save("damaged_record", bad);
  bad = seq;
  bad[4096 + 16] = 0xFF;  // buffer 0's used
  save("damaged_used", bad);
  save("cut_mid_buffer", std::vector<uint8_t>(seq.begin(), seq.begin() + 4096 + 5000));
  save("schemas_only", trace::encode_schemas({{Guid{7}, 2, "Q", {1, 2, 3}}}));
  return 0;
}
