// base/wire_reader.h — a bounds-checked little-endian reader for pfc's binary forms that
// report where they are wrong (the IR wire form, compiler/ir_wire.h; compiled program
// files, compiler/native_file.h). It never reads outside its bytes: the first failed read
// or check records the byte offset and what was expected there, and every later read
// returns zeroes, so decoders check ok() once where convenient.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/le.h"

namespace pfc {

class WireReader {
 public:
  explicit WireReader(std::string_view bytes) : data_(bytes) {}

  template <typename T>
  T get(std::string_view what) {
    if (!ok() || remaining() < sizeof(T)) {
      fail(what);
      return T{};
    }
    T v = load_le<T>(reinterpret_cast<const uint8_t*>(data_.data() + pos_));
    pos_ += sizeof(T);
    return v;
  }
  uint8_t u8(std::string_view what) { return get<uint8_t>(what); }
  uint16_t u16(std::string_view what) { return get<uint16_t>(what); }
  uint32_t u32(std::string_view what) { return get<uint32_t>(what); }
  uint64_t u64(std::string_view what) { return get<uint64_t>(what); }

  // A u32 element count whose elements take at least `min_size` bytes each (≥ 1): fails
  // at the count's offset when they cannot all fit in the remaining bytes, so callers may
  // reserve the count.
  uint32_t count(std::string_view what, size_t min_size) {
    const size_t at = pos_;
    const uint32_t n = u32(what);
    if (ok() && n > remaining() / min_size) fail_at(at, std::string(what) + " that fits the input");
    return ok() ? n : 0;
  }
  // The next `n` bytes (empty after a failure).
  std::string_view bytes(size_t n, std::string_view what) {
    if (!ok() || remaining() < n) {
      fail(what);
      return {};
    }
    std::string_view v = data_.substr(pos_, n);
    pos_ += n;
    return v;
  }
  // A u32 byte length and that many bytes.
  std::string_view string(std::string_view what) { return bytes(count(what, 1), what); }

  void fail(std::string_view what) { fail_at(pos_, what); }
  void fail_at(size_t at, std::string_view what) {
    if (!ok()) return;
    error_at_ = at;
    error_ = "expected " + std::string(what);
  }
  // Fails unless every byte was read.
  void expect_end(std::string_view what) {
    if (ok() && remaining() != 0) fail(what);
  }

  // The bytes not yet read.
  std::string_view rest() const { return data_.substr(pos_); }
  bool ok() const { return error_.empty(); }
  size_t pos() const { return pos_; }
  size_t remaining() const { return data_.size() - pos_; }
  // "byte N: expected WHAT" of the first failure.
  std::string error() const { return "byte " + std::to_string(error_at_) + ": " + error_; }

 private:
  std::string_view data_;
  size_t pos_ = 0;
  size_t error_at_ = 0;
  std::string error_;
};

}  // namespace pfc
