// etw/enable_ext_decode.cc — decode_ext (enable_ext.h): every offset and count is checked
// against the size before use; all reads are memcpy inside [data, data + size).
#include <cstring>
#include <memory>
#include <set>
#include <string>

#include "base/utf8.h"
#include "etw/enable_ext.h"
#include "etw/payload_blob.h"

namespace pfc::etw {
namespace {

struct Header {
  uint32_t filters = 0, preds = 0, nodes = 0, kids = 0;
  uint32_t layout_at = 0, schema_at = 0, strings_at = 0, strings_size = 0;
  size_t preds_at() const { return kExtHeaderSize + size_t{kExtFilterSize} * filters; }
  size_t nodes_at() const { return preds_at() + size_t{kBlobPredicateSize} * preds; }
  size_t kids_at() const { return nodes_at() + size_t{kExtNodeSize} * nodes; }
  // Where the layouts end: the schema, or the string table.
  uint32_t layouts_end() const { return schema_at != 0 ? schema_at : strings_at; }
};

bool decode_header(const uint8_t* d, size_t size, Header& h) {
  if (size < kExtHeaderSize || size > kExtMaxBytes) return false;
  if (load_le<uint32_t>(d) != kExtMagic || load_le<uint16_t>(d + 4) != kExtVersion ||
      load_le<uint16_t>(d + 6) != kExtHeaderSize || load_le<uint32_t>(d + 8) != size ||
      load_le<uint32_t>(d + 12) != blob_checksum(d, size))
    return false;
  uint32_t w[8];
  std::memcpy(w, d + 32, sizeof w);
  h = Header{w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]};
  // Each count is below size, so the sums below cannot overflow 64 bits.
  if (h.filters > size || h.preds > size || h.nodes > size || h.kids > size) return false;
  const uint64_t tables = h.kids_at() + uint64_t{4} * h.kids;
  return h.layout_at == tables && h.strings_at >= h.layout_at &&
         (h.schema_at == 0 || (h.schema_at >= h.layout_at && h.schema_at <= h.strings_at)) &&
         uint64_t{h.strings_at} + h.strings_size == size;
}

struct Strings {
  const uint8_t* data;
  uint32_t size;
  // The string at (offset, length) in `at`: inside the table, non-empty UTF-8.
  bool get(const uint8_t* at, std::string& out) const {
    const uint32_t off = load_le<uint32_t>(at), len = load_le<uint32_t>(at + 4);
    if (len == 0 || off > size || len > size - off) return false;
    out.assign(reinterpret_cast<const char*>(data + off), len);
    return is_valid_utf8(out);
  }
};

// One filter record's ranges, checked to continue the previous filter's.
struct Ranges {
  uint32_t pred = 0, npred = 0, node = 0, nnode = 0, kid = 0, nkid = 0;
};

bool decode_ranges(const uint8_t* f, const Header& h, Ranges& next, Ranges& r) {
  std::memcpy(&r, f + 4, sizeof r);
  if (r.pred != next.pred || r.node != next.node || r.kid != next.kid || r.npred == 0 ||
      r.nnode == 0 || (f[3] & ~6u) != 0)
    return false;
  if (r.npred > h.preds - r.pred || r.nnode > h.nodes - r.node || r.nkid > h.kids - r.kid)
    return false;
  next.pred += r.npred, next.node += r.nnode, next.kid += r.nkid;
  return true;
}

// The nodes of one expression (post-order; indices relative to the filter): a tree whose
// root is the last node, every other node a child exactly once.
bool decode_nodes(const uint8_t* d, const Header& h, const Ranges& r, PayloadExpr& e) {
  std::vector<uint32_t> uses(r.nnode, 0);
  for (uint32_t k = 0; k < r.nkid; ++k)
    e.kids.push_back(load_le<uint32_t>(d + h.kids_at() + 4 * (size_t{r.kid} + k)));
  for (uint32_t i = 0; i < r.nnode; ++i) {
    const uint8_t* n = d + h.nodes_at() + size_t{kExtNodeSize} * (r.node + i);
    if (n[0] > static_cast<uint8_t>(PayloadExpr::Node::Kind::Not) || n[1] != 0 ||
        load_le<uint16_t>(n + 2) != 0)
      return false;
    PayloadExpr::Node node{static_cast<PayloadExpr::Node::Kind>(n[0]), load_le<uint32_t>(n + 4),
                           load_le<uint32_t>(n + 8)};
    if (node.kind == PayloadExpr::Node::Kind::Pred) {
      if (node.index >= r.npred || node.count != 0) return false;
    } else {
      if (node.count == 0 || (node.kind == PayloadExpr::Node::Kind::Not && node.count != 1))
        return false;
      if (node.index > r.nkid || node.count > r.nkid - node.index) return false;
      for (uint32_t k = 0; k < node.count; ++k) {
        const uint32_t kid = e.kids[node.index + k];
        if (kid >= i || ++uses[kid] != 1) return false;
      }
    }
    e.nodes.push_back(node);
  }
  for (uint32_t i = 0; i + 1 < r.nnode; ++i)
    if (uses[i] != 1) return false;
  return uses[r.nnode - 1] == 0;
}

struct Decoded {
  BlobFilter blob;
  PayloadExpr expr;
  bool named = false;  // flag 4: blob.event_id is the index of a TraceLogging schema event
};

bool decode_filters(const uint8_t* d, const Header& h, std::vector<Decoded>& out) {
  Ranges next;
  const Strings s{d + h.strings_at, h.strings_size};
  for (uint32_t i = 0; i < h.filters; ++i) {
    const uint8_t* f = d + kExtHeaderSize + size_t{kExtFilterSize} * i;
    Ranges r;
    if (!decode_ranges(f, h, next, r)) return false;
    Decoded x;
    x.blob.event_id = load_le<uint16_t>(f);
    x.blob.event_version = f[2];
    x.blob.group_all = (f[3] & 2) != 0;
    x.named = (f[3] & 4) != 0;
    x.blob.preds.reserve(r.npred);
    for (uint32_t k = 0; k < r.npred; ++k) {
      BlobPredicate p;
      const uint8_t* at = d + h.preds_at() + size_t{kBlobPredicateSize} * (r.pred + k);
      if (!decode_predicate(at, s.data, s.size, BlobOps::Script, p)) return false;
      x.blob.preds.push_back(std::move(p));
    }
    if (!decode_nodes(d, h, r, x.expr)) return false;
    out.push_back(std::move(x));
  }
  return next.pred == h.preds && next.node == h.nodes && next.kid == h.kids;
}

bool decode_event_fields(const uint8_t* d, const Header& h, size_t& at, uint32_t count,
                         EventDef& e) {
  if (!decode_fields(d, h.strings_at, at, count, e.fields)) return false;
  if ((h.strings_at - at) / 8 < count) return false;
  const Strings s{d + h.strings_at, h.strings_size};
  std::set<std::string> names;
  for (FieldDef& f : e.fields) {
    if (!s.get(d + at, f.name) || !names.insert(f.name).second) return false;
    at += 8;
  }
  return true;
}

bool decode_schema(const uint8_t* d, const Header& h, const Guid& guid, ProviderDef& p) {
  size_t at = h.schema_at;
  if (h.strings_at - at < 16) return false;
  const Strings s{d + h.strings_at, h.strings_size};
  const uint32_t events = load_le<uint32_t>(d + at + 8), flags = load_le<uint32_t>(d + at + 12);
  if (!s.get(d + at, p.name) || flags > 2) return false;  // legacy 1 or tracelogging 2
  p.guid = guid;
  p.legacy = flags == 1;
  p.tracelogging = flags == 2;
  at += 16;
  if ((h.strings_at - at) / kExtEventSize < events) return false;
  std::vector<uint32_t> counts;
  std::set<std::string> names;
  std::set<std::pair<uint16_t, uint8_t>> keys;
  for (uint32_t i = 0; i < events; ++i, at += kExtEventSize) {
    const uint8_t* e = d + at;
    EventDef ev;
    if (!s.get(e, ev.name) || load_le<uint32_t>(e + 28) != 0) return false;
    ev.desc.id = load_le<uint16_t>(e + 8);
    ev.desc.version = e[10];
    ev.desc.level = e[11];
    ev.desc.opcode = e[12];
    ev.desc.channel = e[13];
    ev.desc.task = load_le<uint16_t>(e + 14);
    ev.desc.keyword = load_le<uint64_t>(e + 16);
    if (!names.insert(ev.name).second ||
        (!p.tracelogging && !keys.insert({ev.desc.id, ev.desc.version}).second))
      return false;
    counts.push_back(load_le<uint32_t>(e + 24));
    p.events.push_back(std::move(ev));
  }
  for (uint32_t i = 0; i < events; ++i)
    if (!decode_event_fields(d, h, at, counts[i], p.events[i])) return false;
  return at == h.strings_at;
}

// A TraceLogging filter (docs/etw.md "The pfc enable extension", flag 4): its event is the
// schema's event `index`, whose fields its layout must have (names from the schema); the
// filter is keyed by that event's name.
bool name_filter(const ProviderDef& schema, uint32_t index, PayloadFilter& pf) {
  if (index >= schema.events.size() || pf.event_version != 0) return false;
  const EventDef& ev = schema.events[index];
  if (!pf.layout || pf.layout->fields.size() != ev.fields.size()) return false;
  for (size_t i = 0; i < ev.fields.size(); ++i)
    if (!same_field(pf.layout->fields[i], ev.fields[i])) return false;
  pf.event_id = 0;
  pf.event_name = ev.name;
  pf.layout = std::make_shared<EventDef>(ev);
  return true;
}

}  // namespace

std::optional<ExtContents> decode_ext(const uint8_t* d, size_t size, const ProviderDef* loaded) {
  Header h;
  if (d == nullptr || !decode_header(d, size, h)) return std::nullopt;
  ExtContents out;
  out.provider = Guid::from_bytes(d + 16);
  if (loaded != nullptr && !(loaded->guid == out.provider)) return std::nullopt;
  std::vector<Decoded> filters;
  if (!decode_filters(d, h, filters)) return std::nullopt;
  if (h.schema_at != 0) {
    ProviderDef p;
    if (!decode_schema(d, h, out.provider, p)) return std::nullopt;
    out.schema = std::move(p);
  }
  size_t at = h.layout_at;
  std::vector<BlobFilter> blobs;  // filters[i]'s, moved out of it
  blobs.reserve(filters.size());
  for (Decoded& x : filters) {
    if (!decode_layout(d, h.layouts_end(), at, x.blob)) return std::nullopt;
    blobs.push_back(std::move(x.blob));
  }
  if (at != h.layouts_end() || !blob_layouts_agree(blobs)) return std::nullopt;
  for (size_t i = 0; i < filters.size(); ++i) {
    PayloadFilter pf;
    // A TraceLogging provider's filters are all named, by events of its schema; the
    // loaded manifest does not describe TraceLogging events.
    const bool tracelogging = out.schema && out.schema->tracelogging;
    Decoded& x = filters[i];
    if (x.named != tracelogging) return std::nullopt;
    if (!resolve_blob_filter(blobs[i], x.named ? nullptr : loaded, x.expr.preds, pf))
      return std::nullopt;
    if (x.named && !name_filter(*out.schema, blobs[i].event_id, pf)) return std::nullopt;
    pf.expr = std::move(x.expr);
    out.payload.push_back(std::move(pf));
  }
  return out;
}

}  // namespace pfc::etw
