// etw/enable_ext.cc — see enable_ext.h. Predicate records, field records and layouts are
// the payload blob's (etw/payload_blob.h); this file adds the expression trees, the
// schema section and the container around them.
#include "etw/enable_ext.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "base/payload_ops.h"
#include "etw/payload_blob.h"

namespace pfc::etw {
namespace {

// A string reference (u32 offset, u32 length) into the string table being built.
void put_string(std::vector<uint8_t>& out, size_t at, const std::string& s, std::string& strings) {
  store_le<uint32_t>(out, at, static_cast<uint32_t>(strings.size()));
  store_le<uint32_t>(out, at + 4, static_cast<uint32_t>(s.size()));
  strings += s;
}

uint32_t count_of(const ExtContents& c, size_t (*of)(const PayloadExpr&)) {
  size_t n = 0;
  for (const PayloadFilter& f : c.payload) n += of(f.expr);
  return static_cast<uint32_t>(n);
}

size_t preds_of(const PayloadExpr& e) { return e.preds.size(); }
size_t nodes_of(const PayloadExpr& e) { return e.nodes.size(); }
size_t kids_of(const PayloadExpr& e) { return e.kids.size(); }

BlobPredicate blob_predicate(const PayloadPredicate& p, const EventDef& layout) {
  BlobPredicate b;
  b.field = static_cast<uint16_t>(p.field);
  b.op = p.op;
  b.type = p.field < layout.fields.size() ? layout.fields[p.field].type : InType::UInt32;
  b.value = p.value;
  return b;
}

// The index in the schema of a TraceLogging filter's event (the filter record's Id with
// flag 4), or nullopt when the contents have no TraceLogging schema declaring it.
std::optional<uint16_t> named_index(const ExtContents& c, const PayloadFilter& f) {
  if (!c.schema || !c.schema->tracelogging) return std::nullopt;
  for (size_t i = 0; i < c.schema->events.size() && i <= 0xFFFF; ++i)
    if (c.schema->events[i].name == f.event_name) return static_cast<uint16_t>(i);
  return std::nullopt;
}

// Filter, predicate, node and kid tables (they follow the header back to back).
void put_tables(const ExtContents& c, std::vector<uint8_t>& out, std::string& strings) {
  size_t f_at = kExtHeaderSize;
  size_t p_at = f_at + kExtFilterSize * c.payload.size();
  size_t n_at = p_at + kBlobPredicateSize * count_of(c, preds_of);
  size_t k_at = n_at + kExtNodeSize * count_of(c, nodes_of);
  uint32_t first_pred = 0, first_node = 0, first_kid = 0;
  for (const PayloadFilter& f : c.payload) {
    const PayloadExpr& e = f.expr;
    const bool named = !f.event_name.empty();
    store_le<uint16_t>(out, f_at, named ? *named_index(c, f) : f.event_id);
    out[f_at + 2] = f.event_version;
    out[f_at + 3] = static_cast<uint8_t>((f.group_all ? 2 : 0) | (named ? 4 : 0));
    const uint32_t words[6] = {first_pred, uint32_t(e.preds.size()),
                               first_node, uint32_t(e.nodes.size()),
                               first_kid,  uint32_t(e.kids.size())};
    std::memcpy(out.data() + f_at + 4, words, sizeof words);
    f_at += kExtFilterSize;
    first_pred += words[1], first_node += words[3], first_kid += words[5];
    for (const PayloadPredicate& p : e.preds) {
      put_blob_predicate(out, p_at, blob_predicate(p, *f.layout), strings);
      p_at += kBlobPredicateSize;
    }
    for (const PayloadExpr::Node& n : e.nodes) {
      out[n_at] = static_cast<uint8_t>(n.kind);
      store_le<uint32_t>(out, n_at + 4, n.index);
      store_le<uint32_t>(out, n_at + 8, n.count);
      n_at += kExtNodeSize;
    }
    for (uint32_t k : e.kids) {
      store_le<uint32_t>(out, k_at, k);
      k_at += 4;
    }
  }
}

void put_schema(const ProviderDef& p, std::vector<uint8_t>& out, std::string& strings) {
  size_t at = out.size();
  out.resize(at + 16 + kExtEventSize * p.events.size());
  put_string(out, at, p.name, strings);
  store_le<uint32_t>(out, at + 8, static_cast<uint32_t>(p.events.size()));
  store_le<uint32_t>(out, at + 12, (p.legacy ? 1u : 0u) | (p.tracelogging ? 2u : 0u));
  at += 16;
  for (const EventDef& e : p.events) {
    put_string(out, at, e.name, strings);
    store_le<uint16_t>(out, at + 8, e.desc.id);
    out[at + 10] = e.desc.version;
    out[at + 11] = e.desc.level;
    out[at + 12] = e.desc.opcode;
    out[at + 13] = e.desc.channel;
    store_le<uint16_t>(out, at + 14, e.desc.task);
    store_le<uint64_t>(out, at + 16, e.desc.keyword);
    store_le<uint32_t>(out, at + 24, static_cast<uint32_t>(e.fields.size()));
    at += kExtEventSize;
  }
  for (const EventDef& e : p.events) {
    append_fields(out, e.fields);
    at = out.size();
    out.resize(at + 8 * e.fields.size());
    for (const FieldDef& f : e.fields) {
      put_string(out, at, f.name, strings);
      at += 8;
    }
  }
}

}  // namespace

ExtContents ext_from_script(const ProviderDef& schema, const std::vector<PayloadFilter>& payload) {
  ExtContents c;
  c.provider = schema.guid;
  c.schema = schema;
  for (PayloadFilter f : payload) {
    const EventDef* ev = f.event_name.empty() ? schema.find_event(f.event_id, f.event_version)
                                              : schema.find_event(f.event_name);
    if (ev != nullptr && !f.layout && !f.event_name.empty()) {
      f.layout = std::make_shared<EventDef>(*ev);  // every field: found by name at run time
      c.payload.push_back(std::move(f));
      continue;
    }
    if (ev != nullptr && !f.layout) {
      uint32_t n = 0;
      for (const PayloadPredicate& p : f.expr.preds) {
        n = std::max(n, p.field + 1);
        if (internal::payload_op_has(p.op, internal::kFieldOp))
          n = std::max(n, static_cast<uint32_t>(std::min<uint64_t>(p.value.lo + 1, UINT32_MAX)));
      }
      auto layout = std::make_shared<EventDef>(*ev);
      layout->fields.resize(std::min<size_t>(n, ev->fields.size()));
      f.layout = std::move(layout);
    }
    c.payload.push_back(std::move(f));
  }
  return c;
}

std::optional<std::vector<uint8_t>> encode_ext(const ExtContents& c) {
  for (const PayloadFilter& f : c.payload) {
    if (!f.layout || f.layout->fields.size() > kBlobMaxLayoutFields) return std::nullopt;
    if (!f.event_name.empty() && !named_index(c, f)) return std::nullopt;
  }
  const size_t tables = kExtHeaderSize + kExtFilterSize * c.payload.size() +
                        kBlobPredicateSize * count_of(c, preds_of) +
                        kExtNodeSize * count_of(c, nodes_of) + 4 * size_t{count_of(c, kids_of)};
  if (tables > kExtMaxBytes) return std::nullopt;
  std::vector<uint8_t> out(tables);
  std::string strings;
  put_tables(c, out, strings);
  for (const PayloadFilter& f : c.payload) append_layout(out, f.layout->fields);
  const size_t schema_at = c.schema ? out.size() : 0;
  if (c.schema) put_schema(*c.schema, out, strings);
  const size_t strings_at = out.size();
  out.insert(out.end(), strings.begin(), strings.end());
  if (out.size() > kExtMaxBytes) return std::nullopt;
  store_le<uint32_t>(out, 0, kExtMagic);
  store_le<uint16_t>(out, 4, kExtVersion);
  store_le<uint16_t>(out, 6, static_cast<uint16_t>(kExtHeaderSize));
  store_le<uint32_t>(out, 8, static_cast<uint32_t>(out.size()));
  std::memcpy(out.data() + 16, c.provider.to_bytes().data(), 16);
  const uint32_t words[8] = {uint32_t(c.payload.size()), count_of(c, preds_of),
                             count_of(c, nodes_of),      count_of(c, kids_of),
                             uint32_t(tables),           uint32_t(schema_at),
                             uint32_t(strings_at),       uint32_t(strings.size())};
  std::memcpy(out.data() + 32, words, sizeof words);
  store_le<uint32_t>(out, 12, blob_checksum(out.data(), out.size()));
  return out;
}

}  // namespace pfc::etw
