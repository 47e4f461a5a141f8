// fuzz/etw_blob/seed_build.h — building blocks of the etw_blob seed generator
// (make_seeds.cc, broken_seeds.cc): predicates and filters over blob_schema.h, each filter
// with the layout its blob carries, and the outcome a seed is meant to have.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "etw/payload_blob.h"

namespace pfc::fuzz::seeds {

using etw::BlobContents;
using etw::BlobFilter;
using etw::BlobPredicate;

// What a seed does: Resolves — decodes and resolves both against blob_schema() and with no
// schema (the layout alone); LayoutOnly — resolves with no schema but not against
// blob_schema() (another provider, or a layout disagreeing with the schema); DecodesOnly —
// decodes, resolves neither way; Rejected — decode_blob refuses it.
enum class Expect { Resolves, LayoutOnly, DecodesOnly, Rejected };

struct Seed {
  std::string name;
  std::vector<uint8_t> bytes;
  Expect expect = Expect::Resolves;
};

// An integer predicate on the field of blob_schema()'s event 1 version 0 of type t.
BlobPredicate ip(InType t, PayloadOp op, uint64_t lo, uint64_t hi = 0);
// A string predicate; `field` defaults to the field of type t.
BlobPredicate sp(InType t, PayloadOp op, std::string text, uint16_t field = 0xFFFF);
// A GUID predicate on the GUID field.
BlobPredicate gp(PayloadOp op, std::string_view guid);
// `p` on field `field` instead.
BlobPredicate at(BlobPredicate p, uint16_t field);

// The layout a filter on (id, version) testing `preds` carries: the schema event's fields
// up to the highest tested one (etw::blob_layout); for events blob_schema() lacks, fields
// 0..highest tested, each tested one scalar of its predicate's type, the others UInt32.
std::vector<FieldDef> layout_for(uint16_t id, uint8_t version,
                                 const std::vector<BlobPredicate>& preds);

BlobFilter filt(std::vector<BlobPredicate> preds, bool any = false, bool all = false,
                uint16_t id = 1, uint8_t version = 0);
// A filter carrying `layout` instead of layout_for()'s.
BlobFilter with_layout(BlobFilter f, std::vector<FieldDef> layout);
BlobContents blob(std::vector<BlobFilter> filters);  // blob_schema()'s provider

// One scalar layout field (count/length absent unless given).
FieldDef lf(InType t, Extent length = {}, Extent count = {});
inline Extent fixed(uint32_t n) { return {Extent::Kind::Fixed, n}; }
inline Extent from(uint32_t field) { return {Extent::Kind::Field, field}; }

// Valid blobs with one structural field changed (broken_seeds.cc).
std::vector<Seed> structural_seeds();

}  // namespace pfc::fuzz::seeds
