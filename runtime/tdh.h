// runtime/tdh.h — TDH payload decoding primitives (docs/semantics.md §6), shared by the
// reference interpreter and JIT-compiled code (registered as absolute symbols), so both
// engines decode and compare with the same code. All functions are bounds-checked against
// `size`, never read outside [payload, payload + size), never allocate, never throw.
#pragma once

#include <cstdint>

extern "C" {

// Sentinels shared with compiler/ir.h (kBadOffset) and the length/count arguments.
#define PFC_TDH_BAD_OFFSET (~UINT64_C(0))
#define PFC_TDH_NO_LENGTH (~UINT64_C(0))

// A length read from another field, as the `length` argument below: the value ~0 would
// read as PFC_TDH_NO_LENGTH ("none declared"), so it becomes ~0 - 1 — which, like every
// length of 2^63 or more, cannot fit any payload and makes the field undecodable.
static inline uint64_t pfc_tdh_field_length(uint64_t value) {
  return value == PFC_TDH_NO_LENGTH ? PFC_TDH_NO_LENGTH - 1 : value;
}

// Offset just past a field of TDH in-type `in_type` (pfc::InType) with `count` elements
// (1 for a scalar) starting at `off`. `length` is the field's length in characters
// (strings) or bytes (binary), or PFC_TDH_NO_LENGTH when none was declared (strings are
// then NUL-terminated; the terminator must lie inside the payload). Returns
// PFC_TDH_BAD_OFFSET when `off` is bad or the field does not fit.
uint64_t pfc_tdh_skip(const uint8_t* payload, uint64_t size, uint64_t off, uint32_t in_type,
                      uint64_t count, uint64_t length);

// pfc_tdh_skip(payload, size, off, 1, 1, PFC_TDH_NO_LENGTH): one NUL-terminated wstring,
// the field generated code most often steps over (no in-type, count or length to test).
uint64_t pfc_tdh_skip_wstr(const uint8_t* payload, uint64_t size, uint64_t off);

// Scalar integer-like field at `off` (ints, bool, hexint, filetime, pointer), sign- or
// zero-extended to 64 bits. Sets *ok = 0 (and returns 0) when it does not fit.
uint64_t pfc_tdh_load_int(const uint8_t* payload, uint64_t size, uint64_t off, uint32_t in_type,
                          int* ok);

// Integer predicate (PAYLOAD_OPERATOR `op` on integer fields; docs/semantics.md §2.2) on an
// already-loaded value; `is_signed` selects signed comparison.
int pfc_tdh_int_pred(uint32_t op, int is_signed, uint64_t value, uint64_t lo, uint64_t hi);

// String predicate (CONTAINS, DOESNTCONTAIN, IS, ISNOT, STARTSWITH, ENDSWITH, MATCHES and
// their case-sensitive `.cs` forms; not REGEX, which is compiler/regex_pred.h's) on the
// scalar string field at `off` (in_type 1 = UTF-16LE, 2 = 8-bit/UTF-8), compared after
// simple Unicode case folding (`.cs` forms: without) against `needle` (already folded
// unless `.cs`, UTF-32, `needle_len` code points; MATCHES: a compiled glob, runtime/glob.h).
// `links` are the needle's KMP failure links (runtime/str_search.h needle_links,
// `needle_len` entries); CONTAINS / DOESNTCONTAIN / ENDSWITH need them (linear time in
// field + needle), the others ignore them (may be null). MATCHES is O(field × needle).
// Returns 1 when the predicate holds, else 0 (JIT code relies on exactly 0 or 1); 0 when
// the field cannot be decoded, whatever the operator.
int pfc_tdh_str_pred(const uint8_t* payload, uint64_t size, uint64_t off, uint32_t in_type,
                     uint64_t length, uint32_t op, const char32_t* needle, uint64_t needle_len,
                     const uint32_t* links);

// pfc_tdh_str_pred fused with the skip of the same field: returns exactly what
// pfc_tdh_str_pred returns and stores into *next (never null) exactly what
// pfc_tdh_skip(payload, size, off, in_type, 1, length) returns — the offset just past the
// field (terminator included; off + length units when a length is given, even if the value
// stops at an embedded NUL), or PFC_TDH_BAD_OFFSET — locating the field's end only once.
int pfc_tdh_str_pred_next(const uint8_t* payload, uint64_t size, uint64_t off, uint32_t in_type,
                          uint64_t length, uint32_t op, const char32_t* needle, uint64_t needle_len,
                          const uint32_t* links, uint64_t* next);

// pfc_tdh_str_pred_next for the common case of a short literal on a NUL-terminated UTF-16
// field (in_type 1, length PFC_TDH_NO_LENGTH): `op_len` = op | needle_len << 16 with op
// IS, ISNOT, CONTAINS or DOESNTCONTAIN and needle_len 1..PFC_TDH_SHORT_NEEDLE; `needle`
// holds the folded needle's code points, each ASCII, non-zero and its own case folding,
// 16 bits each (code point i in bits 16i..16i+15). Returns what pfc_tdh_str_pred_next
// returns for that needle and stores the same *next, with register arguments only and a
// unit-by-unit compare (an ASCII code point can only match one UTF-16 unit).
#define PFC_TDH_SHORT_NEEDLE 4
int pfc_tdh_wstr_short_pred_next(const uint8_t* payload, uint64_t size, uint64_t off,
                                 uint64_t needle, uint32_t op_len, uint64_t* next);

// The characters of the string field at `off` (in_type 1 or 2), as pfc_tdh_str_pred sees
// them: returns 1 and stores the end of its characters in *end ([off, *end): terminator and
// anything from an embedded NUL on excluded); stores in *next what pfc_tdh_skip returns for
// the field. Returns 0 (only *next stored) when the field cannot be decoded. For helpers
// that need the field's bytes (the regex predicate, compiler/regex_pred.h).
int pfc_tdh_string_bounds(const uint8_t* payload, uint64_t size, uint64_t off, uint32_t in_type,
                          uint64_t length, uint64_t* end, uint64_t* next);

// GUID predicate (IS / ISNOT) on the 16-byte field at `off` against `value16` (payload
// byte order). Returns 0 when the field does not fit.
int pfc_tdh_guid_pred(const uint8_t* payload, uint64_t size, uint64_t off, uint32_t op,
                      const uint8_t* value16);

}  // extern "C"
