// fuzz/etw_blob/broken_seeds.cc — the etw_blob seeds that break one decoder check each:
// valid blobs with one field or byte range changed (checksum recomputed unless the checksum
// is the point), and blobs whose contents violate a layout rule (payload_blob.h).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "etw_blob/blob_schema.h"
#include "etw_blob/seed_build.h"

namespace pfc::fuzz::seeds {
namespace {

template <typename T>
void patch(std::vector<uint8_t>& b, size_t at, T v) {
  std::memcpy(b.data() + at, &v, sizeof v);
}

template <typename T>
T peek(const std::vector<uint8_t>& b, size_t at) {
  T v;
  std::memcpy(&v, b.data() + at, sizeof v);
  return v;
}

void rechecksum(std::vector<uint8_t>& b) {
  patch<uint32_t>(b, etw::kBlobChecksumOffset, etw::blob_checksum(b.data(), b.size()));
}

// base(): filters @48 and @56; predicates @64 (uint32), @88 (the wstring), @112 (int16);
// filter 1's layout @136 (8 fields: count @136, reserved @138, field i @140 + 12·i, so its
// untested field 1, an AnsiString, is @152: type @152, count kind @154, length kind @155,
// count value @156, length value @160); filter 2's layout @236 (5 fields); text @300
// ("abc"); 303 bytes.
constexpr size_t kLayout1 = 136, kField1 = 152, kLayout2 = 236, kText = 300, kSize = 303;

BlobContents base() {
  using enum PayloadOp;
  return blob({filt({ip(InType::UInt32, Eq, 1), sp(InType::UnicodeString, Contains, "abc")}),
               filt({ip(InType::Int16, Between, static_cast<uint64_t>(-1), 1)}, true)});
}

// The offsets above, checked: a format change must fail here, not produce seeds that break
// something other than what their names say.
void check_base_offsets() {
  const std::vector<uint8_t> b = etw::encode_blob(base());
  if (b.size() != kSize || peek<uint32_t>(b, 44) != kLayout1 || peek<uint32_t>(b, 36) != kText ||
      peek<uint16_t>(b, kLayout1) != 8 || peek<uint16_t>(b, kLayout2) != 5 ||
      peek<uint16_t>(b, kField1) != static_cast<uint16_t>(InType::AnsiString)) {
    std::fprintf(stderr, "broken_seeds.cc: base()'s offsets changed; update them\n");
    std::exit(1);
  }
}

using Edit = std::function<void(std::vector<uint8_t>&)>;

// The byte-edited seeds of base(): header, filter and predicate tables.
void table_edits(const std::function<void(std::string, const Edit&)>& edit) {
  edit("magic", [](auto& b) { b[0] ^= 1; });
  edit("version_1", [](auto& b) { patch<uint16_t>(b, 4, 1); });  // v1 blobs carry no layouts
  edit("version_3", [](auto& b) { patch<uint16_t>(b, 4, 3); });
  edit("header_size", [](auto& b) { patch<uint16_t>(b, 6, 40); });
  edit("total_size", [](auto& b) { patch<uint32_t>(b, 8, kSize - 1); });
  edit("checksum", [](auto& b) { b[12] ^= 1; });
  edit("strings_offset", [](auto& b) { patch<uint32_t>(b, 36, kText - 1); });
  edit("strings_offset_in_layouts", [](auto& b) {  // consistent sizes, layouts cut short
    patch<uint32_t>(b, 36, kText - 1);
    patch<uint32_t>(b, 40, 4);
  });
  edit("strings_size", [](auto& b) { patch<uint32_t>(b, 40, 2); });
  edit("layout_offset", [](auto& b) { patch<uint32_t>(b, 44, kLayout1 + 1); });
  edit("layout_offset_0", [](auto& b) { patch<uint32_t>(b, 44, 0); });
  edit("filter_flags", [](auto& b) { b[48 + 3] = 4; });
  edit("filter_first", [](auto& b) { patch<uint16_t>(b, 56 + 4, 1); });
  edit("filter_count_9", [](auto& b) { patch<uint16_t>(b, 48 + 6, 9); });
  edit("pred_total", [](auto& b) {  // drop filter 2's entry: 3 predicates, 2 used
    b.erase(b.begin() + 56, b.begin() + 64);
    patch<uint16_t>(b, 32, 1);
    patch<uint32_t>(b, 8, static_cast<uint32_t>(b.size()));
    patch<uint32_t>(b, 36, kText - 8);
    patch<uint32_t>(b, 44, kLayout1 - 8);
  });
  edit("pred_reserved", [](auto& b) { patch<uint16_t>(b, 64 + 6, 1); });
  edit("unknown_op", [](auto& b) { patch<uint16_t>(b, 64 + 2, 9); });
  edit("unknown_type_0", [](auto& b) { patch<uint16_t>(b, 64 + 4, 0); });
  edit("unknown_type_22", [](auto& b) { patch<uint16_t>(b, 112 + 4, 22); });
  edit("single_value_hi", [](auto& b) { patch<uint64_t>(b, 64 + 16, 1); });
  edit("string_past_table", [](auto& b) { patch<uint64_t>(b, 88 + 8, 1); });
  edit("string_offset_huge", [](auto& b) { patch<uint64_t>(b, 88 + 8, UINT64_MAX); });
  edit("string_length_huge", [](auto& b) { patch<uint64_t>(b, 88 + 16, UINT64_MAX - 1); });
}

// The byte-edited seeds of base(): the layout table.
void layout_edits(const std::function<void(std::string, const Edit&)>& edit) {
  edit("layout_count_0", [](auto& b) { patch<uint16_t>(b, kLayout1, 0); });
  edit("layout_count_1025", [](auto& b) { patch<uint16_t>(b, kLayout1, 1025); });
  edit("layout_reserved", [](auto& b) { patch<uint16_t>(b, kLayout1 + 2, 1); });
  edit("layout_type_0", [](auto& b) { patch<uint16_t>(b, kField1, 0); });
  edit("layout_type_22", [](auto& b) { patch<uint16_t>(b, kField1, 22); });
  edit("layout_count_kind_3", [](auto& b) { b[kField1 + 2] = 3; });
  edit("layout_length_kind_3", [](auto& b) { b[kField1 + 3] = 3; });
  edit("layout_no_count_with_value", [](auto& b) { patch<uint32_t>(b, kField1 + 4, 5); });
  edit("layout_no_length_with_value", [](auto& b) { patch<uint32_t>(b, kField1 + 8, 5); });
  edit("layout_length_later_field", [](auto& b) {
    b[kField1 + 3] = 2;
    patch<uint32_t>(b, kField1 + 8, 2);
  });
  edit("layout_length_itself", [](auto& b) {
    b[kField1 + 3] = 2;
    patch<uint32_t>(b, kField1 + 8, 1);
  });
  edit("layout_count_later_field", [](auto& b) {
    b[kField1 + 2] = 2;
    patch<uint32_t>(b, kField1 + 4, 7);
  });
  edit("layout_gap", [](auto& b) {  // 4 bytes between the layouts and the strings
    b.insert(b.begin() + kText, 4, 0);
    patch<uint32_t>(b, 8, static_cast<uint32_t>(b.size()));
    patch<uint32_t>(b, 36, kText + 4);
  });
  edit("layout_missing", [](auto& b) {  // filter 2's layout cut out
    b.erase(b.begin() + kLayout2, b.begin() + kText);
    patch<uint32_t>(b, 8, static_cast<uint32_t>(b.size()));
    patch<uint32_t>(b, 36, kLayout2);
  });
}

// Contents that encode_blob writes as given but decode_blob refuses.
void content_seeds(const std::function<void(std::string, const BlobContents&)>& add) {
  using enum PayloadOp;
  add("zero_filters", blob({}));
  add("empty_filter", blob({filt({})}));
  add("9_preds", blob({filt(std::vector<BlobPredicate>(9, ip(InType::UInt8, Eq, 1)))}));
  add("layout_empty", blob({with_layout(filt({ip(InType::UInt32, Eq, 1)}), {})}));
  // blob_layout stops at the event's last field (22): field 23 lies beyond the layout.
  add("layout_field_beyond", blob({filt({at(ip(InType::UInt32, Eq, 1), 23)})}));
  BlobFilter shorter = filt({ip(InType::UInt32, Eq, 1)});
  shorter.layout.pop_back();
  add("layout_field_beyond_short", blob({shorter}));
  add("layout_type_mismatch",
      blob({filt({at(ip(InType::UInt32, Eq, 1), type_field(InType::Int32))})}));
  add("layout_array_tested", blob({filt({at(ip(InType::UInt32, Eq, 1), kArrayField)})}));
  // Layouts no manifest could declare: a length from a string, a count from an array or a
  // hexInt32, a length on an integer, binary without a length; and two filters on one
  // event whose layouts disagree.
  auto odd = [](std::vector<FieldDef> layout) {
    layout.push_back(lf(InType::UInt32));
    const auto last = static_cast<uint16_t>(layout.size() - 1);
    return blob(
        {with_layout(filt({at(ip(InType::UInt32, Eq, 1), last)}, false, false, 3), layout)});
  };
  add("layout_length_from_string", odd({lf(InType::AnsiString), lf(InType::Binary, from(0))}));
  add("layout_count_from_array",
      odd({lf(InType::UInt8, {}, fixed(2)), lf(InType::UInt8, {}, from(0))}));
  add("layout_count_from_hexint32", odd({lf(InType::HexInt32), lf(InType::UInt8, {}, from(0))}));
  add("layout_length_on_int", odd({lf(InType::UInt32, fixed(3))}));
  add("layout_binary_without_length", odd({lf(InType::Binary)}));
  add("layouts_disagree",
      blob({filt({ip(InType::UInt8, Eq, 1)}, false, false, 9),
            with_layout(filt({at(ip(InType::UInt32, Eq, 2), 1)}, true, false, 9),
                        {lf(InType::Int32), lf(InType::UInt32)})}));
  add("layout_unknown_event_array_tested",
      blob({with_layout(filt({ip(InType::UInt8, Eq, 1)}, false, false, 3),
                        {lf(InType::UInt32), lf(InType::UInt8, {}, fixed(2))})}));
}

}  // namespace

std::vector<Seed> structural_seeds() {
  check_base_offsets();
  std::vector<Seed> out;
  auto edit = [&out](std::string name, const Edit& change) {
    std::vector<uint8_t> b = etw::encode_blob(base());
    change(b);
    if (name != "checksum") rechecksum(b);
    out.push_back({"broken_" + name, std::move(b), Expect::Rejected});
  };
  table_edits(edit);
  layout_edits(edit);
  content_seeds([&out](std::string name, const BlobContents& c) {
    out.push_back({"broken_" + std::move(name), etw::encode_blob(c), Expect::Rejected});
  });
  // Decoded contents whose canonical encoding differs from the input (shared or
  // unreferenced string bytes). Tables end at 48 + 8 + 48 = 104; the second predicate's
  // a/b words are @88 and @96.
  using enum PayloadOp;
  const BlobContents twice = blob({filt(
      {sp(InType::UnicodeString, Contains, "abc"), at(sp(InType::AnsiString, Is, "abc"), 1)})});
  struct Odd {
    const char* name;
    size_t at;
    uint64_t value;
  };
  for (const Odd& o : {Odd{"odd_shared_text", 88, 0}, Odd{"odd_unreferenced_text", 96, 1}}) {
    std::vector<uint8_t> b = etw::encode_blob(twice);
    patch<uint64_t>(b, o.at, o.value);
    rechecksum(b);
    out.push_back({o.name, std::move(b), Expect::Resolves});
  }
  return out;
}

}  // namespace pfc::fuzz::seeds
