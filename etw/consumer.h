// etw/consumer.h — what a consumer handle keeps about the problem that ended or refused a
// log-file read (etw/consumer.cc); the C API reads it with the pfc extension
// PfcGetTraceProblem (pfc/etw/pfc_etw_ext.h, docs/etw.md "pfc extensions").
#pragma once

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

}  // namespace pfc::etw
