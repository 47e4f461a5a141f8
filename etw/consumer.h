// etw/consumer.h — what the pfc command needs from a consumer handle beyond the C API
// (etw/consumer.cc): the text of the problem that ended or refused a log-file read. Not
// exported.
#pragma once

#include <cstdint>
#include <string>

namespace pfc::etw {

// For a handle opened on a log file (or on a file session), after ProcessTrace returned
// and before CloseTrace: why reading ended early — the reader's damage report ("FILE:
// damaged buffer ... at offset N"), or the warning "FILE: file not closed: writer died or
// still writing ..." — and whether it was damage (an error) rather than the warning.
// Empty when the file was read to its end or the handle is not a file.
struct ConsumerProblem {
  std::string text;
  bool damaged = false;
};
ConsumerProblem consumer_problem(uint64_t handle);

// Why the calling thread's last OpenTraceW of a log file failed with ERROR_BAD_FORMAT: the
// reader's text naming the file ("FILE: not a pfc trace log file (docs/logfile.md)", "FILE:
// log file version 2 is not supported (this pfc reads version 3)", "FILE: damaged log file
// header (CRC)", ...); "" otherwise.
std::string open_problem();

}  // namespace pfc::etw
