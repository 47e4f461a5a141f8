// trace/logfile.h — the log file of a file session (docs/logfile.md): a versioned,
// self-describing header (session, clock, start/end time, pointer size, buffer size,
// counters, typed sections such as provider schemas), then fixed-size buffers, each with a
// header (sequence number, used bytes, event count, CRC-32, merge horizon) holding chunks:
// runs of whole event records of one ring, packed (trace/packed.h), as the session host
// moved them. LogWriter is used by the session host (one process owns the
// file); LogReader is used by every reader: it merges the chunks by timestamp as it reads
// and never trusts the file: every length, count and CRC is checked, and damage ends the
// events with a problem text.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/error.h"
#include "pfc/guid.h"
#include "trace/ring.h"
#include "trace/sys.h"

namespace pfc::trace {

// 4: packed records (trace/packed.h) after a base timestamp in each records chunk (version
// 3's chunks held the rings' records as they are, 40 bytes for the sample event, 28 now).
inline constexpr uint32_t kLogVersion = 5;
inline constexpr uint32_t kLogHeaderSize = 128;
inline constexpr uint32_t kLogBufferHeaderSize = 48;
inline constexpr uint32_t kLogChunkHeaderSize = 16;
// Chunk kinds (the chunk header's last u32): a run of records of one stream, or a stream's
// definition (its process, clock pair and table entries) that records after it name.
inline constexpr uint32_t kChunkRecords = 0;
inline constexpr uint32_t kChunkStream = 1;
// A records chunk's body: u64 base (monotonic ns; records' deltas count from it), u32 tid,
// u16 cpu (the thread of its records that carry none), u16 0, then its packed records,
// then zeroes to a multiple of 8. A chunk takes at most its ring records' bytes plus
// kPackedChunkSlack (a packed record is at least 2 bytes smaller than its ring record;
// the body's head and the padding add at most 23).
inline constexpr uint32_t kPackedChunkBase = 16;
inline constexpr uint32_t kPackedChunkSlack = 24;
inline constexpr uint32_t kStreamChunkHead = 24;   // u32 pid, u32 0, the clock pair
inline constexpr uint32_t kStreamChunkEntry = 48;  // u32 index, u32 0, the entry
inline constexpr uint32_t kMinLogBuffer = 4u << 10;
inline constexpr uint32_t kMaxLogBuffer = 16u << 20;
inline constexpr uint32_t kMaxLogSections = 16u << 20;   // bytes of the section area
inline constexpr uint32_t kLogBufferMagic = 0x46554250;  // "PBUF"
inline constexpr uint64_t kMaxCircularSlots = 1u << 20;
// The writer builds whole buffers in memory and writes complete ones together, up to this
// many bytes in one write (one buffer when buffers are larger), with O_DIRECT where the
// file system takes it (docs/logfile.md "How a buffer reaches the file").
inline constexpr uint32_t kLogBatchBytes = 1u << 20;
inline constexpr uint32_t kLogClockFiletime = 1;  // TimeStamp: FILETIME (CLOCK_REALTIME)
inline constexpr uint32_t kLogModeCircular = 1;   // header flag

// The first bytes of every log file (also what format detection looks for).
inline constexpr char kLogMagic[8] = {'P', 'F', 'C', '-', 'L', 'O', 'G', '\n'};
bool is_log_file(const uint8_t* data, size_t size);

// A provider's schema as a section of the file: opaque bytes of a known kind.
inline constexpr uint32_t kSchemaPfcScript = 1;  // a filter script's text (.pfs)
inline constexpr uint32_t kSchemaManifest = 2;   // an instrumentation manifest (XML)
// The pfc enable extension's bytes as published with an enable (docs/etw.md "The pfc enable
// extension"): its schema part names the provider's events and fields. What the session
// host records for `pfc trace enable --script`.
inline constexpr uint32_t kSchemaPfcExtension = 3;
// The session host reserves this much room after the sections it writes at creation, for
// the schemas of the enables it sees later (LogWriter::set_schemas).
inline constexpr uint32_t kLogSchemaRoom = 56u << 10;
struct ProviderSchema {
  Guid provider;
  uint32_t kind = 0;
  std::string name;           // UTF-8, the provider's name when known
  std::vector<uint8_t> data;  // at most kMaxLogSections bytes in all
  bool operator==(const ProviderSchema&) const = default;
};
std::vector<uint8_t> encode_schemas(const std::vector<ProviderSchema>& schemas);
Result<std::vector<ProviderSchema>> decode_schemas(const uint8_t* data, size_t size);

// What the header says (the counters and end time are final only when `closed`).
struct LogInfo {
  uint32_t version = kLogVersion;
  std::u16string session;
  std::u16string file_name;  // as the controller gave it
  uint32_t buffer_size = 64u << 10;
  uint32_t data_offset = 0;  // where buffer 0 begins
  bool circular = false;
  uint64_t max_bytes = 0;  // 0: no limit (sequential)
  uint32_t pointer_size = sizeof(void*);
  uint32_t clock = kLogClockFiletime;
  uint32_t log_file_mode = 0;  // the session's EVENT_TRACE_PROPERTIES.LogFileMode
  int64_t start_time = 0;      // FILETIME
  int64_t end_time = 0;        // FILETIME, set at close
  bool closed = false;
  uint64_t buffers_written = 0;
  uint64_t events_written = 0;
  uint64_t events_lost = 0;       // dropped in the rings, plus those a full file could not take
  uint64_t log_buffers_lost = 0;  // buffers a full file could not take
  std::vector<ProviderSchema> schemas;
  uint32_t schemas_left_out = 0;  // schemas that did not fit the section area (section 3)
  // Writer only, not stored: bytes reserved before data_offset for set_schemas.
  uint32_t schema_room = 0;
};

// ---- writing (the session host) -------------------------------------------------------

// Fills in what a writer decides before it writes (buffer_size clamped to
// [kMinLogBuffer, kMaxLogBuffer], version, clock, pointer size, data_offset) and checks the
// layout: a circular file needs room for 2 to kMaxCircularSlots buffers within max_bytes.
// The error names the size problem and the sizes that would do. LogWriter::create applies
// it; StartTraceW checks it before it touches the file (etw/file_session.cc).
Result<void> plan_log_layout(LogInfo& info);

class LogWriter {
 public:
  // Truncates the writable file `fd`, sets its mode to 0600, writes the header (not
  // closed) and owns the fd. The layout is plan_log_layout's (its error when it fails,
  // before the file is touched).
  static Result<LogWriter> create(UniqueFd fd, LogInfo info);

  // Adds a chunk: `events` whole event records of one ring, in the ring's layout
  // (`stream`: the host's number for it; `info` its process, clock pair and table; `used`
  // entries of that table, every one the records name among them: the session host passes
  // the whole table, EntrySet::first), `bytes` of them, at most room(stream, used). Each
  // record is checked and packed (trace/packed.h); one that is not whole (a writer that
  // scribbled on it), names an entry outside `used` or has a payload over 64 KB is left
  // out and counted lost. Before them, when the current buffer does not define the stream
  // yet or lacks some of the entries, a stream chunk with the stream's process, clock pair
  // and those entries: every buffer defines what its records use, so a reader can start at
  // any buffer (circular files). It writes nothing (a buffer goes to the file once it is
  // complete: next_buffer, write_complete, flush, whose failed write is returned once and
  // makes the file count as full, every later buffer lost and counted), so it does not
  // fail; a full sequential file counts the events lost when their buffer ends.
  Result<void> add_chunk(const uint8_t* records, uint32_t bytes, uint32_t events, uint32_t stream,
                         const StreamInfo& info, const EntrySet& used);
  // Adds a chunk of `events` packed records (trace/packed.h) as a window ring holds them,
  // `bytes` of them with timestamps counted from `base` and the thread `thread` where they
  // carry none, copied as they are (their readers check them), after the stream chunk the
  // buffer needs, as add_chunk. At most room(stream, used) bytes.
  void add_packed(uint64_t base, const PackedThread& thread, const uint8_t* records, uint32_t bytes,
                  uint32_t events, uint32_t stream, const StreamInfo& info, const EntrySet& used);
  // Ring record bytes the current buffer can still take in one more chunk, packed (0:
  // none)...
  uint32_t room() const;
  // ... of stream `stream` naming the entries `used` (after the stream chunk that needs).
  uint32_t room(uint32_t stream, const EntrySet& used) const;
  // The bytes of the stream chunk such a chunk needs first (0: none).
  uint32_t stream_chunk_bytes(uint32_t stream, const EntrySet& used) const;
  // Whether the current buffer holds nothing yet.
  bool empty() const { return used_ == 0; }
  // Completes the current buffer (when it holds events) and starts the next one; complete
  // buffers are written kLogBatchBytes at a time (write_complete writes them at once).
  Result<void> next_buffer() { return finish_buffer(); }
  // Writes the complete buffers held in memory (the session host calls it when a round
  // found little to move, so a reader following the file waits at most a round for them).
  Result<void> write_complete();
  // Raises the merge horizon the next buffer header carries: every record with a timestamp
  // at or below it is in that buffer or an earlier one (docs/logfile.md "Merging").
  void set_horizon(uint64_t ts) { horizon_ = std::max(horizon_, ts); }
  // Counts one event lost that no buffer can take (larger than a buffer).
  void lose_event() { info_.events_lost++; }
  void lose_events(uint32_t n) { info_.events_lost += n; }
  // Adds one event as a chunk of its own, in a new buffer when it does not fit, and raises
  // the horizon to its timestamp (tests and seeds: events added in timestamp order read
  // back in that order). Its record carries its table entry inline, in a stream of its
  // pid and a clock pair that gives its FILETIME (streams numbered from kAddStreams).
  // False when it is lost at once (larger than a buffer, or a payload over 64 KB).
  Result<bool> add(const EventRecord& header, const uint8_t* payload, const uint8_t* stack);
  static constexpr uint32_t kAddStreams = 0x80000000u;
  // Replaces the provider schemas and rewrites the header and sections (one pwrite at
  // offset 0; readers re-read the sections when their CRC changed). The section area
  // cannot grow past data_offset: schemas are taken in order and one that does not fit is
  // left out (counted in schemas_left_out, section 3) while later ones that fit are kept.
  // A failed write keeps the schemas as they were (and tries to write them back).
  Result<void> set_schemas(std::vector<ProviderSchema> schemas);
  // Completes the current buffer when it holds events and writes every complete buffer (a
  // flush timer, or STOP).
  Result<void> flush();
  // Flushes and writes the final header: closed, end_time, counters. `ring_lost` adds the
  // events the session's rings dropped.
  Result<void> close(int64_t end_time, uint64_t ring_lost);
  const LogInfo& info() const { return info_; }
  bool pending() const { return events_ != 0 || staged_ != 0; }
  // Whether complete buffers go to the file with O_DIRECT (the file system took it).
  bool direct() const { return direct_; }

 private:
  // Completes the current buffer in memory (zeroes after its chunks, its header and CRC)
  // and holds it for the next batch write; a buffer a full sequential file cannot take is
  // lost and counted instead.
  Result<void> finish_buffer();
  // Packs add_chunk's records at `out` after the body's head (base: the first record's
  // timestamp; thread: its thread and CPU), which it writes: the body's bytes (a multiple of
  // 8); `packed`: the records it holds.
  static uint32_t pack(const uint8_t* records, uint32_t bytes, uint32_t events,
                       const StreamInfo& info, const EntrySet& used, uint8_t* out,
                       uint32_t& packed);
  uint64_t slots() const;  // circular: buffers that fit in max_bytes

  UniqueFd fd_;
  LogInfo info_;
  // The file offset of the buffer of sequence `seq`.
  uint64_t offset_of(uint64_t seq) const;
  // Whether the buffer of sequence `seq` may be written (a sequential file's maximum size).
  bool fits(uint64_t seq) const;
  // The current buffer's memory (after the complete ones held for the batch).
  uint8_t* current() const { return batch_.get() + uint64_t{staged_} * info_.buffer_size; }
  // Appends bytes to the current buffer's chunks (the caller checked the room).
  void append(const uint8_t* p, uint32_t n);
  void lose_buffer(uint32_t events);  // a buffer's events, lost and counted
  // Writes `n` bytes at `offset` without O_DIRECT (the header and sections, a cleared
  // buffer header).
  Result<void> write_buffered(const uint8_t* p, size_t n, uint64_t offset);
  void set_direct(bool on);
  // The entries of `stream` the current buffer defines; null: the stream is not defined.
  const EntrySet* defined(uint32_t stream) const;
  void add_stream_chunk(uint32_t stream, const StreamInfo& info, const EntrySet& used);

  // The streams the current buffer defines, and their entries it holds.
  std::vector<std::pair<uint32_t, EntrySet>> defined_;
  std::vector<StreamInfo> add_streams_;  // add()'s streams, by number − kAddStreams

  // batch_slots_ buffers of memory (4 KB aligned, for O_DIRECT): the complete buffers held
  // (staged_, of sequences first_staged_ on, their events in staged_events_), then the
  // current one.
  std::unique_ptr<uint8_t, void (*)(void*)> batch_{nullptr, &std::free};
  uint32_t batch_slots_ = 1;
  uint32_t staged_ = 0;
  uint64_t first_staged_ = 0;
  std::vector<uint32_t> staged_events_;
  uint32_t used_ = 0;  // chunk bytes of the current buffer
  uint64_t horizon_ = 0;
  uint32_t events_ = 0;    // of the current buffer
  uint64_t sequence_ = 0;  // the current buffer's
  bool full_ = false;
  bool direct_ = false;
};

// The header bytes (fixed part + sections) of `info`, and their parse (used by the writer,
// the reader and the fuzzer).
std::vector<uint8_t> encode_log_header(const LogInfo& info);
// Parses and checks the fixed header; `size` may be larger. sections_bytes() tells how
// many bytes after the fixed header hold the sections.
Result<LogInfo> decode_log_header(const uint8_t* data, size_t size, uint32_t* sections_bytes);
Result<void> decode_log_sections(const uint8_t* data, size_t size, LogInfo& info);

// ---- reading --------------------------------------------------------------------------

// Where a reader gets the bytes from: a file (pread, any offset) or a stream that can only
// go forward (a pipe: sequential files only).
class LogInput {
 public:
  virtual ~LogInput() = default;
  // Reads up to n bytes at `offset`; fewer only at the end of the input. The reader never
  // asks for 0 bytes (so `out` is never null).
  virtual Result<size_t> read_at(uint64_t offset, uint8_t* out, size_t n) = 0;
  virtual bool seekable() const = 0;
};
// A file descriptor read with pread (owned).
std::unique_ptr<LogInput> fd_input(UniqueFd fd);

class LogReader {
 public:
  // Reads and checks the header; the error names `display` ("FILE: not a pfc log file ...").
  static Result<LogReader> open(std::unique_ptr<LogInput> input, std::string display);

  enum class Step : uint8_t {
    Event,    // `next` filled the view (valid until the next call)
    Pending,  // nothing more now: the file is not closed (being written, or its writer died)
    End,      // the file is closed and every event was read
    Damaged,  // the rest of the file is unreadable: problem() says why
  };
  // Events come merged by timestamp (ties: the order they are in the file): a record is
  // returned once the horizon of a buffer read says no later buffer holds an older one,
  // and every record read so far once the file ended or its damage was reached.
  Step next(RingReader::View& out);
  // After Pending, for a reader that stops following: the records read but held back for
  // the merge (an unfinished file: their horizon never came) are returned by next() from
  // now on, then Pending again. False when none is held.
  bool release_held();
  // After Pending: re-reads the header (a writer may have closed the file meanwhile) so
  // next() can go on.
  Result<void> refresh();

  const LogInfo& info() const { return info_; }
  const std::string& problem() const { return problem_; }
  uint64_t buffers_read() const { return buffers_read_; }
  uint64_t events_read() const { return events_read_; }
  // The warning a reader prints after Pending when it does not follow the file.
  std::string not_closed_warning() const;
  // True when the sections of a file not closed failed their checks (its writer died while
  // rewriting them): the events are read without the session name and schemas.
  bool sections_lost() const { return sections_lost_; }
  // Circular files read while being written: buffers the writer overwrote before this
  // reader got to them (their sequence numbers were skipped).
  uint64_t buffers_overwritten() const { return buffers_overwritten_; }
  // The warning a follower prints when buffers_overwritten() is not 0.
  std::string overwritten_warning() const;

 private:
  Step load_next_buffer();
  Step load_circular_buffer();
  enum class Peek : uint8_t { Nothing, Next, Lapped };
  Peek peek_next_slot();
  Step check_buffer(uint64_t offset, size_t got);
  // Checks every chunk and record of the buffer just read and adds its chunks to the merge.
  bool take_buffer();
  Step emit(RingReader::View& out);
  Step damaged(const std::string& what);
  Result<void> order_circular();
  Result<void> order_closed_circular();
  Step end_of_file();
  uint64_t slots() const;  // circular
  Result<LogInfo> read_header();
  void keep_sections(LogInfo& info) const;  // the sections read before, into `info`
  // buffer_'s bytes to read the next buffer into (another vector while runs hold it).
  uint8_t* fresh_buffer();

  // A stream as its chunks defined it: process, clock pair, the entries defined so far.
  struct Stream {
    StreamInfo info;
    std::vector<TableEntry> table = std::vector<TableEntry>(kMaxTableEntries);
    EntrySet defined;
  };
  bool take_stream(uint32_t stream, const uint8_t* p, uint32_t bytes, uint32_t n);
  // One chunk being merged: its `left` records from `pos` on in a buffer read, their
  // timestamps counted from `base`, `ts` the timestamp of the record at `pos`; `order`
  // breaks ties (file order).
  struct Run {
    std::shared_ptr<const std::vector<uint8_t>> buffer;
    const Stream* stream = nullptr;
    uint32_t pos = 0, left = 0;
    uint64_t base = 0, ts = 0, order = 0;
    PackedThread thread;  // the chunk's
  };
  static bool run_after(const Run& a, const Run& b);
  static constexpr uint64_t kMaxHeldBytes = 64u << 20;
  bool holding_too_much() const;
  std::unique_ptr<LogInput> input_;
  std::string display_;
  LogInfo info_;
  std::shared_ptr<std::vector<uint8_t>> buffer_;              // the buffer read last
  std::vector<std::shared_ptr<std::vector<uint8_t>>> spare_;  // buffers to read into again
  std::shared_ptr<const std::vector<uint8_t>> current_;       // holds the last view's bytes
  std::vector<Run> runs_;                                     // a min-heap by (ts, order)
  std::unordered_map<uint32_t, Stream> streams_;              // node-based: Run::stream stays
  uint64_t next_order_ = 0;
  uint64_t horizon_ = 0;            // the largest horizon of the buffers read
  bool release_all_ = false;        // release_held() was called
  uint64_t events_loaded_ = 0;      // events of the buffers read
  uint64_t buffer_offset_ = 0;      // where buffer_ was read from
  uint64_t next_index_ = 0;         // the next buffer slot (sequential) / order entry
  uint64_t expected_sequence_ = 0;  // the next buffer's sequence (sequential: slot i holds i)
  // Circular: (sequence, slot) of the buffers not yet read, by sequence, from the last scan
  // of the slot headers (every sequence ≥ expected_sequence_ found then).
  std::vector<std::pair<uint64_t, uint64_t>> order_;
  bool ordered_ = false;
  bool checked_ = false;  // the last scan checked a closed file against its header
  std::string gap_;       // what that check found wrong, raised after order_ is read
  uint64_t buffers_overwritten_ = 0;
  bool done_ = false;
  bool sections_lost_ = false;
  bool have_sections_ = false;
  uint32_t sections_crc_ = 0;  // of the sections last read
  std::string problem_;
  uint64_t buffers_read_ = 0;
  uint64_t events_read_ = 0;
};

}  // namespace pfc::trace
