// runtime/tlg.cc — reading TraceLogging metadata and walking event data by it
// (runtime/tlg.h). The blob layouts are TraceLoggingDynamic.h's `EventMetadata` and
// `ProviderMetadata` (docs/etw.md "TraceLogging").
#include "runtime/tlg.h"

#include <algorithm>
#include <cstring>

#include "base/le.h"
#include "base/utf8.h"

namespace pfc::tlg {
namespace {

// A cursor over a blob that names the byte of the first problem.
class Reader {
 public:
  Reader(const uint8_t* p, size_t size) : p_(p), size_(size) {}
  bool at_end() const { return pos_ >= size_; }
  size_t pos() const { return pos_; }
  bool u8(uint8_t& v) {
    if (pos_ + 1 > size_) return false;
    v = p_[pos_++];
    return true;
  }
  bool u16(uint16_t& v) {
    if (pos_ + 2 > size_) return false;
    v = load_le<uint16_t>(p_ + pos_);
    pos_ += 2;
    return true;
  }
  bool skip(size_t n) {
    if (n > size_ - pos_) return false;
    pos_ += n;
    return true;
  }
  bool bytes(size_t n, std::string& out) {
    if (n > size_ - pos_) return false;
    out.assign(reinterpret_cast<const char*>(p_ + pos_), n);
    pos_ += n;
    return true;
  }
  // A NUL-terminated UTF-8 string; false when unterminated or not UTF-8.
  bool text(std::string& out) {
    const void* nul = std::memchr(p_ + pos_, 0, size_ - pos_);
    if (nul == nullptr) return false;
    const size_t n = static_cast<const uint8_t*>(nul) - (p_ + pos_);
    out.assign(reinterpret_cast<const char*>(p_ + pos_), n);
    if (!is_valid_utf8(out)) return false;
    pos_ += n + 1;
    return true;
  }
  // Chained tag bytes: 7 bits each, the high bit set on all but the last, at most 4.
  bool tags(uint32_t& out) {
    out = 0;
    for (int shift = 21;; shift -= 7) {
      uint8_t b = 0;
      if (shift < 0 || !u8(b)) return false;
      out |= static_cast<uint32_t>(b & 0x7F) << shift;
      if ((b & 0x80) == 0) return true;
    }
  }
  std::string fail(size_t at, const std::string& what) const {
    return "byte " + std::to_string(at) + ": expected " + what;
  }

 private:
  const uint8_t* p_;
  size_t size_;
  size_t pos_ = 0;
};

// Reads one field's metadata (name, in/out bytes, tags, count, custom schema).
std::expected<Field, std::string> read_field(Reader& r) {
  Field f;
  const size_t at = r.pos();
  if (!r.text(f.name)) return std::unexpected(r.fail(at, "a NUL-terminated UTF-8 field name"));
  const size_t in_at = r.pos();
  uint8_t in = 0;
  if (!r.u8(in)) return std::unexpected(r.fail(in_at, "the in-type of field '" + f.name + "'"));
  f.in_type = in & kInTypeMask;
  f.arity = in & kArityMask;
  if (f.arity == kArityCustom) {
    f.protocol = f.in_type;
    f.in_type = kInBinary;
  } else if (f.in_type == kInNull || f.in_type >= kInTypeCount ||
             f.in_type == kInPointerUnsupported) {
    return std::unexpected(r.fail(
        in_at, "a known in-type for field '" + f.name + "', not " + std::to_string(f.in_type)));
  }
  if ((in & kInChain) != 0) {
    uint8_t out = 0;
    if (!r.u8(out)) return std::unexpected(r.fail(r.pos(), "the out-type of '" + f.name + "'"));
    f.out_type = out & 0x7F;
    if ((out & kOutChain) != 0 && !r.tags(f.tags))
      return std::unexpected(r.fail(r.pos(), "the tags of field '" + f.name + "'"));
  }
  if (f.in_type == kInStruct && f.out_type == 0) {
    return std::unexpected(
        r.fail(in_at, "structure '" + f.name + "' with a member count of 1 to 127"));
  }
  if (f.arity == kArityCcount && !r.u16(f.ccount))
    return std::unexpected(r.fail(r.pos(), "the element count of '" + f.name + "'"));
  if (f.arity == kArityCustom) {
    uint16_t n = 0;
    const size_t schema_at = r.pos();
    if (!r.u16(n) || !r.bytes(n, f.schema))
      return std::unexpected(r.fail(schema_at, "the custom schema of '" + f.name + "'"));
  }
  return f;
}

}  // namespace

std::expected<EventMeta, std::string> parse_event(const uint8_t* p, size_t size) {
  Reader r(p, size);
  uint16_t declared = 0;
  if (!r.u16(declared) || declared != size) {
    return std::unexpected(
        r.fail(0, "a size word equal to the metadata's " + std::to_string(size) + " bytes"));
  }
  EventMeta m;
  if (!r.tags(m.tags)) return std::unexpected(r.fail(2, "the event tags (at most 4 bytes)"));
  const size_t name_at = r.pos();
  if (!r.text(m.name)) return std::unexpected(r.fail(name_at, "a NUL-terminated UTF-8 name"));
  struct Open {
    uint32_t index;
    uint32_t left;
  };
  std::vector<Open> open;  // the structures whose members are being read
  while (!r.at_end()) {
    const size_t at = r.pos();
    auto f = read_field(r);
    if (!f) return std::unexpected(f.error());
    const auto index = static_cast<uint32_t>(m.fields.size());
    f->end = index + 1;
    if (!open.empty()) {
      f->parent = open.back().index + 1;
      --open.back().left;
    }
    const bool is_struct = f->in_type == kInStruct;
    const uint32_t members = f->out_type;
    m.fields.push_back(std::move(*f));
    if (is_struct) {
      if (open.size() >= kMaxDepth) {
        return std::unexpected(
            r.fail(at, "at most " + std::to_string(kMaxDepth) + " nested structures"));
      }
      open.push_back({index, members});
    }
    while (!open.empty() && open.back().left == 0) {
      m.fields[open.back().index].end = static_cast<uint32_t>(m.fields.size());
      open.pop_back();
    }
  }
  if (!open.empty()) {
    return std::unexpected(r.fail(size, "the members of structure '" +
                                            m.fields[open.back().index].name + "' (" +
                                            std::to_string(open.back().left) + " missing)"));
  }
  return m;
}

std::expected<std::string, std::string> parse_provider(const uint8_t* p, size_t size) {
  Reader r(p, size);
  uint16_t declared = 0;
  if (!r.u16(declared) || declared != size) {
    return std::unexpected(
        r.fail(0, "a size word equal to the traits' " + std::to_string(size) + " bytes"));
  }
  std::string name;
  if (!r.text(name)) return std::unexpected(r.fail(2, "a NUL-terminated UTF-8 provider name"));
  while (!r.at_end()) {
    const size_t at = r.pos();
    uint16_t n = 0;
    if (!r.u16(n) || n < 3 || !r.skip(n - 2))
      return std::unexpected(r.fail(at, "a trait of at least 3 bytes inside the traits"));
  }
  return name;
}

std::string_view event_name(const uint8_t* p, size_t size) {
  size_t i = 2;
  while (i < size && (p[i] & 0x80) != 0) ++i;
  ++i;  // the last tag byte
  if (i >= size) return {};
  const void* nul = std::memchr(p + i, 0, size - i);
  if (nul == nullptr) return {};
  return {reinterpret_cast<const char*>(p + i),
          static_cast<size_t>(static_cast<const uint8_t*>(nul) - (p + i))};
}

uint32_t fixed_size(uint8_t in_type) {
  switch (in_type) {
    case kInInt8:
    case kInUInt8: return 1;
    case kInInt16:
    case kInUInt16: return 2;
    case kInInt32:
    case kInUInt32:
    case kInFloat:
    case kInBool32:
    case kInHexInt32: return 4;
    case kInInt64:
    case kInUInt64:
    case kInDouble:
    case kInHexInt64:
    case kInFileTime: return 8;
    case kInGuid:
    case kInSystemTime: return 16;
    default: return 0;
  }
}

bool Walker::count(uint32_t i, uint64_t off, uint64_t& n, uint64_t& first) const {
  const Field& f = meta_.fields[i];
  first = off;
  n = 1;
  if (f.arity == kArityCcount) n = f.ccount;
  if (f.arity != kArityVcount) return true;
  if (off + 2 > size_) return false;
  n = load_le<uint16_t>(data_ + off);
  first = off + 2;
  return true;
}

namespace {

// Skips `n` elements of the non-structure field `f` at `off`.
bool skip_values(const Field& f, uint64_t n, const uint8_t* data, size_t size, uint64_t& off) {
  const uint32_t fixed = fixed_size(f.in_type);
  if (fixed != 0 && f.arity != kArityCustom) {
    if (n > (size - std::min<uint64_t>(off, size)) / fixed) return false;
    off += n * fixed;
    return true;
  }
  for (uint64_t e = 0; e < n; ++e) {
    uint64_t len = 0;
    if (off > size) return false;
    if (f.arity == kArityCustom || f.in_type == kInBinary || f.in_type == kInCountedString ||
        f.in_type == kInCountedAnsiString || f.in_type == kInCountedBinary) {
      if (off + 2 > size) return false;
      len = 2 + uint64_t{load_le<uint16_t>(data + off)};
    } else if (f.in_type == kInAnsiString) {
      const void* nul = off < size ? std::memchr(data + off, 0, size - off) : nullptr;
      if (nul == nullptr) return false;
      len = static_cast<uint64_t>(static_cast<const uint8_t*>(nul) - (data + off)) + 1;
    } else if (f.in_type == kInUnicodeString) {
      uint64_t k = off;
      while (k + 2 <= size && load_le<uint16_t>(data + k) != 0) k += 2;
      if (k + 2 > size) return false;
      len = k + 2 - off;
    } else if (f.in_type == kInSid) {
      if (off + 8 > size) return false;
      len = 8 + 4 * uint64_t{data[off + 1]};
    } else {
      return false;
    }
    if (len > size - off) return false;
    off += len;
  }
  return true;
}

}  // namespace

// Skips `elements` elements of field `i` at `off`. A structure's element is its members'
// values in order; nested structures are walked with an explicit stack of frames (the
// structure, its next member, its elements left), never by recursion.
bool Walker::walk(uint32_t i, uint64_t elements, uint64_t& off) const {
  const std::vector<Field>& fs = meta_.fields;
  if (fs[i].in_type != kInStruct) return skip_values(fs[i], elements, data_, size_, off);
  struct Frame {
    uint32_t s, cur;
    uint64_t left;
  };
  std::vector<Frame> stack;
  if (elements != 0) stack.push_back({i, i + 1, elements});
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.cur >= fs[top.s].end) {
      if (--top.left == 0) stack.pop_back();
      else top.cur = top.s + 1;
      continue;
    }
    const uint32_t j = top.cur;
    top.cur = fs[j].end;
    uint64_t n = 0, first = 0;
    if (!count(j, off, n, first)) return false;
    off = first;
    if (fs[j].in_type == kInStruct) {
      if (n != 0) stack.push_back({j, j + 1, n});
    } else if (!skip_values(fs[j], n, data_, size_, off)) {
      return false;
    }
  }
  return true;
}

bool Walker::skip_element(uint32_t i, uint64_t off, uint64_t& next) const {
  next = off;
  return walk(i, 1, next);
}

bool Walker::skip_field(uint32_t i, uint64_t off, uint64_t& next) const {
  uint64_t n = 0;
  if (!count(i, off, n, next)) return false;
  return walk(i, n, next);
}

bool split(const uint8_t* p, uint32_t size, Split& out) {
  if (size < 4) return false;
  const uint16_t traits = load_le<uint16_t>(p + size - 4);
  const uint16_t meta = load_le<uint16_t>(p + size - 2);
  const uint64_t tail = uint64_t{traits} + meta + 4;
  if (tail > size) return false;
  out.payload = p;
  out.payload_size = static_cast<uint32_t>(size - tail);
  out.traits = p + out.payload_size;
  out.traits_size = traits;
  out.meta = out.traits + traits;
  out.meta_size = meta;
  return true;
}

void append_trailer(std::vector<uint8_t>& out, uint16_t traits_size, uint16_t meta_size) {
  append_le(out, traits_size, 2);
  append_le(out, meta_size, 2);
}

}  // namespace pfc::tlg
