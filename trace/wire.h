// trace/wire.h — little-endian byte writer and bounds-checked reader for the namespace's
// shared files. The reader never reads outside its span: after the first failed read
// ok() is false and every later read returns zeroes, so decoders check ok() once at the
// end (hostile input: docs/namespace.md §5).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "base/le.h"
#include "pfc/guid.h"

namespace pfc::trace {

class ByteWriter {
 public:
  template <typename T>
  requires std::is_trivially_copyable_v<T>
  void put(const T& v) { append_le(out_, v); }
  void bytes(const std::vector<uint8_t>& b) {
    put<uint32_t>(static_cast<uint32_t>(b.size()));
    out_.insert(out_.end(), b.begin(), b.end());
  }
  void u16string(const std::u16string& s) {
    put<uint32_t>(static_cast<uint32_t>(s.size()));
    for (char16_t c : s) put<uint16_t>(static_cast<uint16_t>(c));
  }
  std::vector<uint8_t>& data() { return out_; }

 private:
  std::vector<uint8_t> out_;
};

class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}

  template <typename T>
  requires std::is_trivially_copyable_v<T> T get() {
    T v{};
    if (!ok_ || static_cast<size_t>(end_ - p_) < sizeof(T)) {
      ok_ = false;
      return v;
    }
    v = load_le<T>(p_);
    p_ += sizeof(T);
    return v;
  }
  // A length-prefixed byte string of at most `max` bytes.
  std::vector<uint8_t> bytes(size_t max) {
    const uint32_t n = get<uint32_t>();
    if (!ok_ || n > max || static_cast<size_t>(end_ - p_) < n) {
      ok_ = false;
      return {};
    }
    std::vector<uint8_t> b(p_, p_ + n);
    p_ += n;
    return b;
  }
  std::u16string u16string(size_t max_units) {
    const uint32_t n = get<uint32_t>();
    if (!ok_ || n > max_units || static_cast<size_t>(end_ - p_) / 2 < n) {
      ok_ = false;
      return {};
    }
    std::u16string s(n, u'\0');
    for (auto& c : s) c = static_cast<char16_t>(get<uint16_t>());
    return s;
  }
  bool ok() const { return ok_; }
  bool at_end() const { return p_ == end_; }
  void fail() { ok_ = false; }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
  bool ok_ = true;
};

}  // namespace pfc::trace
