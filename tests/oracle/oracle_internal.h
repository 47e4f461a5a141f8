// tests/oracle/oracle_internal.h — the oracle's private pieces: text decoding and case
// folding (oracle_text.cc) and the payload decoder and predicates (oracle_payload.cc).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pfc/enable.h"
#include "pfc/event.h"
#include "pfc/schema.h"

namespace pfc::oracle_internal {

// The alphabet needles (string predicate values) must be drawn from: ASCII, Latin-1,
// Latin Extended-A, Greek and Coptic, Cyrillic (U+0000–U+017F, U+0370–U+04FF).
bool in_needle_alphabet(char32_t c);

// Simple case folding (CaseFolding.txt C + S), exact for the needle alphabet and for every
// code point whose folding lands in the folded alphabet; any other code point maps to
// something outside the folded alphabet (itself), so comparisons against needles from the
// alphabet come out exactly as with full simple folding. oracle_test checks this.
char32_t fold(char32_t c);

// Code points of UTF-8 bytes (invalid byte b → U+DC00 + b, decoding resumes at the next
// byte) and of UTF-16LE bytes (size even; lone surrogates kept as they are).
std::u32string decode_utf8(std::string_view bytes);
std::u32string decode_utf16le(const uint8_t* p, size_t size);

// One decoded field of the payload: where it is, whether it fits, and for scalars of
// predicate types the value.
struct Decoded {
  bool ok = false;             // the field (all its elements) lies inside the payload
  uint64_t begin = 0;          // byte offset
  uint64_t end = 0;            // one past its last byte
  uint64_t int_value = 0;      // integer-like scalars, as 64-bit two's complement
  std::u32string text;         // string scalars: the characters (before folding)
  std::vector<uint8_t> bytes;  // GUID scalars: the 16 bytes
};

// Decodes every field of `event` from `payload` in order. A field after one that does not
// fit does not fit either.
std::vector<Decoded> decode_payload(const EventDef& event, const uint8_t* payload, uint64_t size);

// docs/semantics.md §2.1–§2.2 for one predicate on a decoded field.
bool eval_predicate(const FieldDef& field, const Decoded& value, const PayloadPredicate& pred);

// Glob match of the whole text (docs/semantics.md §2.2 `matches`); false for a pattern the
// checker would reject. `fold_case`: compare simple case foldings.
bool glob_match(const std::string& pattern, const std::u32string& text, bool fold_case);

// RE2-style unanchored search for patterns of the subset the generator writes (oracle_pattern.cc);
// nullopt for a pattern outside it. `eight_bit`: the text is an 8-bit field (invalid bytes
// match nothing, as in RE2's UTF-8 mode).
std::optional<bool> regex_match(const std::string& pattern, const std::u32string& text,
                                bool fold_case, bool eight_bit);

// Field-to-field comparisons (FieldEq … FieldGe; the other field's index in value.lo).
bool eval_field_predicate(const EventDef& event, const std::vector<Decoded>& values,
                          const PayloadPredicate& pred);

// TDH type facts, restated from docs/semantics.md §6 (not runtime/schema.cc).
uint32_t type_size(InType t);  // 0 for variable-size types
bool type_is_integer(InType t);
bool type_is_signed(InType t);
bool type_is_string(InType t);

}  // namespace pfc::oracle_internal
