/* tlg_fields.h — the field and event-attribute macros of TraceLoggingProvider.h (docs/etw.md
 * "TraceLogging"): what each TraceLogging* argument of TraceLoggingWrite expands to. Names
 * start with _tlg_ or TraceLogging; include TraceLoggingProvider.h, not this file. */
#ifndef PFC_ETW_TLG_FIELDS_H
#define PFC_ETW_TLG_FIELDS_H

/* ---- Fields ----
 * A field argument is a tuple (F, kind, C type, in-type, out-type, form, name, tags, a, b)
 * — form O0/O1 (an out-type byte) and T0/T1 (tag bytes); a, b the kind's values — and an
 * event argument (E, level + 1, keyword, opcode + 1, channel + 1, tags, ET0/ET1). */

/* [value,] name?, description?, tags? -> name, tags, T0/T1 (the name defaults to #value). */
#define _tlg_NDT(...) _tlg_CALL(_tlg_CAT(_tlg_NDT_, _tlg_NARG(__VA_ARGS__)), (__VA_ARGS__))
#define _tlg_NDT_1(v) #v, 0, T0
#define _tlg_NDT_2(v, n) n, 0, T0
#define _tlg_NDT_3(v, n, d) n, 0, T0
#define _tlg_NDT_4(v, n, d, t) n, (t), T1
/* pointer, count/size, name?, description?, tags? */
#define _tlg_NDTB(...) _tlg_CALL(_tlg_CAT(_tlg_NDTB_, _tlg_NARG(__VA_ARGS__)), (__VA_ARGS__))
#define _tlg_NDTB_2(p, c) #p, 0, T0
#define _tlg_NDTB_3(p, c, n) n, 0, T0
#define _tlg_NDTB_4(p, c, n, d) n, 0, T0
#define _tlg_NDTB_5(p, c, n, d, t) n, (t), T1
/* name, description?, tags? (structures) */
#define _tlg_NDS(...) _tlg_CALL(_tlg_CAT(_tlg_NDS_, _tlg_NARG(__VA_ARGS__)), (__VA_ARGS__))
#define _tlg_NDS_1(n) n, 0, T0
#define _tlg_NDS_2(n, d) n, 0, T0
#define _tlg_NDS_3(n, d, t) n, (t), T1
/* p, x, y, name?, description?, tags? (name default #p) — and with 4 and 5 leading
 * arguments. */
#define _tlg_NDT3(...) _tlg_CALL(_tlg_CAT(_tlg_NDT3_, _tlg_NARG(__VA_ARGS__)), (__VA_ARGS__))
#define _tlg_NDT3_3(p, x, y) #p, 0, T0
#define _tlg_NDT3_4(p, x, y, n) n, 0, T0
#define _tlg_NDT3_5(p, x, y, n, d) n, 0, T0
#define _tlg_NDT3_6(p, x, y, n, d, t) n, (t), T1
#define _tlg_NDT4(...) _tlg_CALL(_tlg_CAT(_tlg_NDT4_, _tlg_NARG(__VA_ARGS__)), (__VA_ARGS__))
#define _tlg_NDT4_4(p, x, y, z) #p, 0, T0
#define _tlg_NDT4_5(p, x, y, z, n) n, 0, T0
#define _tlg_NDT4_6(p, x, y, z, n, d) n, 0, T0
#define _tlg_NDT4_7(p, x, y, z, n, d, t) n, (t), T1
#define _tlg_NDT5(...) _tlg_CALL(_tlg_CAT(_tlg_NDT5_, _tlg_NARG(__VA_ARGS__)), (__VA_ARGS__))
#define _tlg_NDT5_5(p, x, y, z, w) #p, 0, T0
#define _tlg_NDT5_6(p, x, y, z, w, n) n, 0, T0
#define _tlg_NDT5_7(p, x, y, z, w, n, d) n, 0, T0
#define _tlg_NDT5_8(p, x, y, z, w, n, d, t) n, (t), T1
/* x, name, description?, tags? (a required name after one leading argument). */
#define _tlg_NDS2(...) _tlg_CALL(_tlg_CAT(_tlg_NDS2_, _tlg_NARG(__VA_ARGS__)), (__VA_ARGS__))
#define _tlg_NDS2_2(x, n) n, 0, T0
#define _tlg_NDS2_3(x, n, d) n, 0, T0
#define _tlg_NDS2_4(x, n, d, t) n, (t), T1
#define _tlg_NDS3(...) _tlg_CALL(_tlg_CAT(_tlg_NDS3_, _tlg_NARG(__VA_ARGS__)), (__VA_ARGS__))
#define _tlg_NDS3_3(x, y, n) n, 0, T0
#define _tlg_NDS3_4(x, y, n, d) n, 0, T0
#define _tlg_NDS3_5(x, y, n, d, t) n, (t), T1
/* The second to fifth argument. */
#define _tlg_SECOND(...) _tlg_SECOND_(__VA_ARGS__, ~, ~)
#define _tlg_SECOND_(x, y, ...) y
#define _tlg_A3(...) _tlg_A3_(__VA_ARGS__, ~, ~, ~)
#define _tlg_A3_(x, y, z, ...) z
#define _tlg_A4(...) _tlg_A4_(__VA_ARGS__, ~, ~, ~, ~)
#define _tlg_A4_(x, y, z, w, ...) w
#define _tlg_A5(...) _tlg_A5_(__VA_ARGS__, ~, ~, ~, ~, ~)
#define _tlg_A5_(x, y, z, w, v, ...) v

#define _tlg_FIELD(kind, ct, in, out, of, name, tags, tf, a, b) \
  (F, kind, ct, in, out, _tlg_CAT(of, tf), name, tags, a, b)
#define _tlg_SCALAR(ct, in, out, of, ...) \
  _tlg_CALL(_tlg_FIELD, (VAL, ct, in, out, of, _tlg_NDT(__VA_ARGS__), _tlg_FIRST(__VA_ARGS__), ~))
#define _tlg_STRING(ct, in, out, of, ...) \
  _tlg_CALL(_tlg_FIELD, (STR, ct, in, out, of, _tlg_NDT(__VA_ARGS__), _tlg_FIRST(__VA_ARGS__), ~))
#define _tlg_COUNTED(kind, ct, in, out, of, ...)                                                 \
  _tlg_CALL(_tlg_FIELD, (kind, ct, in, out, of, _tlg_NDTB(__VA_ARGS__), _tlg_FIRST(__VA_ARGS__), \
                         _tlg_SECOND(__VA_ARGS__)))
#define _tlg_VARRAY(ct, in, out, of, ...) _tlg_COUNTED(VARR, ct, (in) | 0x40, out, of, __VA_ARGS__)
#define _tlg_FARRAY(ct, in, out, of, ...) _tlg_COUNTED(FARR, ct, (in) | 0x20, out, of, __VA_ARGS__)
#define _tlg_EVT(lvl1, kw, op1, ch1, tag, et) (E, lvl1, kw, op1, ch1, tag, et)

/* Event attributes. */
#define TraceLoggingLevel(eventLevel) _tlg_EVT(((eventLevel) + 1), 0, 0, 0, 0, ET0)
#define TraceLoggingKeyword(eventKeyword) _tlg_EVT(0, (eventKeyword), 0, 0, 0, ET0)
#define TraceLoggingOpcode(eventOpcode) _tlg_EVT(0, 0, ((eventOpcode) + 1), 0, 0, ET0)
#define TraceLoggingChannel(eventChannel) _tlg_EVT(0, 0, 0, ((eventChannel) + 1), 0, ET0)
/* The low 28 bits are used; several are OR-ed. */
#define TraceLoggingEventTag(eventTag) _tlg_EVT(0, 0, 0, 0, (eventTag), ET1)
/* Documentation only: not part of the event (as on Windows, where they go to the PDB). */
#define TraceLoggingDescription(description) _tlg_EVT(0, 0, 0, 0, 0, ET0)
#define TraceLoggingCustomAttribute(key, value) _tlg_EVT(0, 0, 0, 0, 0, ET0)

/* A structure: the next `fieldCount` field arguments (1..127) are its members. */
#define TraceLoggingStruct(fieldCount, ...) \
  _tlg_CALL(_tlg_FIELD, (STRUCT, UINT8, 24, (fieldCount), O1, _tlg_NDS(__VA_ARGS__), ~, ~))

/* Binary data: a UINT16 byte count, then the bytes. BinaryEx(pointer, byte count,
 * out-type, ...) sets the out-type (a TlgOut value). */
#define TraceLoggingBinary(...) _tlg_COUNTED(BIN, UINT8, 14, 0, O0, __VA_ARGS__)
#define TraceLoggingBinaryEx(...)                                                          \
  _tlg_CALL(_tlg_FIELD, (BIN, UINT8, 14, _tlg_A3(__VA_ARGS__), O1, _tlg_NDT3(__VA_ARGS__), \
                         _tlg_FIRST(__VA_ARGS__), _tlg_SECOND(__VA_ARGS__)))
/* Binary data of a structure with the members Buffer (the bytes) and Length (their
 * count): BinaryBuffer(pointer to it, its type, ...), BinaryBufferEx(pointer, type,
 * out-type, ...). AnsiString / UnicodeString take a pointer to a STRING / UNICODE_STRING
 * (any structure with those members; Length in bytes): counted 8-bit / UTF-16 strings. */
#define TraceLoggingBinaryBuffer(...)                                                      \
  _tlg_CALL(_tlg_FIELD, (BUF, _tlg_SECOND(__VA_ARGS__), 14, 0, O0, _tlg_NDTB(__VA_ARGS__), \
                         _tlg_FIRST(__VA_ARGS__), ~))
#define TraceLoggingBinaryBufferEx(...)                                               \
  _tlg_CALL(_tlg_FIELD, (BUF, _tlg_SECOND(__VA_ARGS__), 14, _tlg_A3(__VA_ARGS__), O1, \
                         _tlg_NDT3(__VA_ARGS__), _tlg_FIRST(__VA_ARGS__), ~))
#define TraceLoggingAnsiString(...)                                              \
  _tlg_CALL(_tlg_FIELD, (BUF, __typeof__(*(_tlg_FIRST(__VA_ARGS__))), 23, 0, O0, \
                         _tlg_NDT(__VA_ARGS__), _tlg_FIRST(__VA_ARGS__), ~))
#define TraceLoggingUnicodeString(...)                                           \
  _tlg_CALL(_tlg_FIELD, (BUF, __typeof__(*(_tlg_FIRST(__VA_ARGS__))), 22, 0, O0, \
                         _tlg_NDT(__VA_ARGS__), _tlg_FIRST(__VA_ARGS__), ~))
/* A SID (pointer to one in Windows' layout: revision, sub-authority count, 6-byte
 * authority, the 4-byte sub-authorities), written as its 8 + 4 x count bytes. */
#define TraceLoggingSid(...) \
  _tlg_CALL(_tlg_FIELD, (SID, UINT8, 19, 0, O0, _tlg_NDT(__VA_ARGS__), _tlg_FIRST(__VA_ARGS__), ~))
/* A value serialized by a custom protocol: TraceLoggingCustom(pointer, byte count,
 * protocol 0..31, (schema bytes), schema byte count, ...). The in-type byte is the
 * protocol | 0x60, the schema follows in the metadata (UINT16 count, the bytes); the
 * value is written as Binary. */
#define TraceLoggingCustom(...)                                                        \
  _tlg_CALL(_tlg_FIELD, (CUSTOM, UINT8, (((_tlg_A3(__VA_ARGS__)) & 31) | 0x60), 0, O0, \
                         _tlg_NDT5(__VA_ARGS__), _tlg_FIRST(__VA_ARGS__),              \
                         (_tlg_SECOND(__VA_ARGS__), _tlg_A5(__VA_ARGS__), _tlg_A4(__VA_ARGS__))))
#define TRACELOGGING_PROTOCOL_MICROSOFT_RESERVED0 0
#define TRACELOGGING_PROTOCOL_MICROSOFT_RESERVED1 1
#define TRACELOGGING_PROTOCOL_MICROSOFT_RESERVED2 2
#define TRACELOGGING_PROTOCOL_MICROSOFT_RESERVED3 3
#define TRACELOGGING_PROTOCOL_MICROSOFT_RESERVED4 4

/* Manually packed fields (the SDK header's advanced macros; in-types and out-types are
 * the TlgIn / TlgOut values, TlgInVcount for an array): PackedField(pointer, byte count,
 * in-type, ...) and PackedFieldEx(pointer, byte count, in-type, out-type, ...) write
 * metadata and data; PackedMetadata(in-type, name, ...) and PackedMetadataEx(in-type,
 * out-type, name, ...) only the metadata; PackedStruct(fieldCount, name, ...) and
 * PackedStructArray (a variable array of them) a structure's metadata;
 * PackedData(pointer, byte count) and PackedDataEx(pointer, byte count, descriptor type)
 * only data. The data must match the metadata: e.g. an array of strings is a UINT16
 * count, then the NUL-terminated strings. */
#define TraceLoggingPackedField(...)                                                         \
  _tlg_CALL(_tlg_FIELD, (PFIELD, UINT8, _tlg_A3(__VA_ARGS__), 0, O0, _tlg_NDT3(__VA_ARGS__), \
                         _tlg_FIRST(__VA_ARGS__), _tlg_SECOND(__VA_ARGS__)))
#define TraceLoggingPackedFieldEx(...)                                                 \
  _tlg_CALL(_tlg_FIELD,                                                                \
            (PFIELD, UINT8, _tlg_A3(__VA_ARGS__), ((_tlg_A4(__VA_ARGS__)) & 0x7F), O1, \
             _tlg_NDT4(__VA_ARGS__), _tlg_FIRST(__VA_ARGS__), _tlg_SECOND(__VA_ARGS__)))
#define TraceLoggingPackedMetadata(...) \
  _tlg_CALL(_tlg_FIELD,                 \
            (PMETA, UINT8, _tlg_FIRST(__VA_ARGS__), 0, O0, _tlg_NDS2(__VA_ARGS__), ~, ~))
#define TraceLoggingPackedMetadataEx(...)                       \
  _tlg_CALL(_tlg_FIELD, (PMETA, UINT8, _tlg_FIRST(__VA_ARGS__), \
                         ((_tlg_SECOND(__VA_ARGS__)) & 0x7F), O1, _tlg_NDS3(__VA_ARGS__), ~, ~))
#define TraceLoggingPackedStruct(fieldCount, ...) \
  _tlg_CALL(_tlg_FIELD, (STRUCT, UINT8, 24, (fieldCount), O1, _tlg_NDS(__VA_ARGS__), ~, ~))
#define TraceLoggingPackedStructArray(fieldCount, ...) \
  _tlg_CALL(_tlg_FIELD, (STRUCT, UINT8, 24 | 0x40, (fieldCount), O1, _tlg_NDS(__VA_ARGS__), ~, ~))
#define TraceLoggingPackedData(pValue, cbValue) (D, pValue, cbValue, 0)
#define TraceLoggingPackedDataEx(pValue, cbValue, dataDescType) (D, pValue, cbValue, dataDescType)
#define TraceLoggingSocketAddress(...) _tlg_COUNTED(BIN, UINT8, 14, 10, O1, __VA_ARGS__)
#define TraceLoggingIPv6Address(...) \
  _tlg_CALL(_tlg_FIELD, (BIN, UINT8, 14, 9, O1, _tlg_NDT(__VA_ARGS__), _tlg_FIRST(__VA_ARGS__), 16))
/* NUL-terminated strings (NULL: empty) and counted ones (pointer, character count). */
#define TraceLoggingString(...) _tlg_STRING(CHAR, 2, 0, O0, __VA_ARGS__)
#define TraceLoggingUtf8String(...) _tlg_STRING(CHAR, 2, 35, O1, __VA_ARGS__)
#define TraceLoggingWideString(...) _tlg_STRING(WCHAR, 1, 0, O0, __VA_ARGS__)
#define TraceLoggingString16(...) _tlg_STRING(WCHAR, 1, 0, O0, __VA_ARGS__)
#define TraceLoggingCountedString(...) _tlg_COUNTED(CSTR, CHAR, 23, 0, O0, __VA_ARGS__)
#define TraceLoggingCountedUtf8String(...) _tlg_COUNTED(CSTR, CHAR, 23, 35, O1, __VA_ARGS__)
#define TraceLoggingCountedWideString(...) _tlg_COUNTED(CSTR, WCHAR, 22, 0, O0, __VA_ARGS__)
#define TraceLoggingCountedString16(...) _tlg_COUNTED(CSTR, WCHAR, 22, 0, O0, __VA_ARGS__)
/* Pointers (8 bytes, hex). */
#define TraceLoggingPointer(...)                                        \
  _tlg_CALL(_tlg_FIELD, (VAL, UINT64, 21, 0, O0, _tlg_NDT(__VA_ARGS__), \
                         (UINT64)(UINT_PTR)(_tlg_FIRST(__VA_ARGS__)), ~))
#define TraceLoggingCodePointer(...)                                     \
  _tlg_CALL(_tlg_FIELD, (VAL, UINT64, 21, 37, O1, _tlg_NDT(__VA_ARGS__), \
                         (UINT64)(UINT_PTR)(_tlg_FIRST(__VA_ARGS__)), ~))
/* Scalars: value, name?, description?, tags? — and their arrays: pointer, count, ... */
#define TraceLoggingInt8(...) _tlg_SCALAR(INT8, 3, 0, O0, __VA_ARGS__)
#define TraceLoggingUInt8(...) _tlg_SCALAR(UINT8, 4, 0, O0, __VA_ARGS__)
#define TraceLoggingInt16(...) _tlg_SCALAR(INT16, 5, 0, O0, __VA_ARGS__)
#define TraceLoggingUInt16(...) _tlg_SCALAR(UINT16, 6, 0, O0, __VA_ARGS__)
#define TraceLoggingInt32(...) _tlg_SCALAR(INT32, 7, 0, O0, __VA_ARGS__)
#define TraceLoggingUInt32(...) _tlg_SCALAR(UINT32, 8, 0, O0, __VA_ARGS__)
#define TraceLoggingInt64(...) _tlg_SCALAR(INT64, 9, 0, O0, __VA_ARGS__)
#define TraceLoggingUInt64(...) _tlg_SCALAR(UINT64, 10, 0, O0, __VA_ARGS__)
#define TraceLoggingIntPtr(...) _tlg_SCALAR(INT_PTR, 9, 0, O0, __VA_ARGS__)
#define TraceLoggingUIntPtr(...) _tlg_SCALAR(UINT_PTR, 10, 0, O0, __VA_ARGS__)
#define TraceLoggingLong(...) _tlg_SCALAR(LONG, 7, 0, O0, __VA_ARGS__)
#define TraceLoggingULong(...) _tlg_SCALAR(ULONG, 8, 0, O0, __VA_ARGS__)
#define TraceLoggingHexInt8(...) _tlg_SCALAR(INT8, 4, 4, O1, __VA_ARGS__)
#define TraceLoggingHexUInt8(...) _tlg_SCALAR(UINT8, 4, 4, O1, __VA_ARGS__)
#define TraceLoggingHexInt16(...) _tlg_SCALAR(INT16, 6, 4, O1, __VA_ARGS__)
#define TraceLoggingHexUInt16(...) _tlg_SCALAR(UINT16, 6, 4, O1, __VA_ARGS__)
#define TraceLoggingHexInt32(...) _tlg_SCALAR(INT32, 20, 0, O0, __VA_ARGS__)
#define TraceLoggingHexUInt32(...) _tlg_SCALAR(UINT32, 20, 0, O0, __VA_ARGS__)
#define TraceLoggingHexInt64(...) _tlg_SCALAR(INT64, 21, 0, O0, __VA_ARGS__)
#define TraceLoggingHexUInt64(...) _tlg_SCALAR(UINT64, 21, 0, O0, __VA_ARGS__)
#define TraceLoggingHexIntPtr(...) _tlg_SCALAR(INT_PTR, 21, 0, O0, __VA_ARGS__)
#define TraceLoggingHexUIntPtr(...) _tlg_SCALAR(UINT_PTR, 21, 0, O0, __VA_ARGS__)
#define TraceLoggingHexLong(...) _tlg_SCALAR(LONG, 20, 0, O0, __VA_ARGS__)
#define TraceLoggingHexULong(...) _tlg_SCALAR(ULONG, 20, 0, O0, __VA_ARGS__)
#define TraceLoggingFloat32(...) _tlg_SCALAR(FLOAT, 11, 0, O0, __VA_ARGS__)
#define TraceLoggingFloat64(...) _tlg_SCALAR(DOUBLE, 12, 0, O0, __VA_ARGS__)
#define TraceLoggingBool(...) _tlg_SCALAR(BOOL, 13, 0, O0, __VA_ARGS__)
#define TraceLoggingBoolean(...) _tlg_SCALAR(BOOLEAN, 4, 3, O1, __VA_ARGS__)
#define TraceLoggingChar(...) _tlg_SCALAR(CHAR, 4, 2, O1, __VA_ARGS__)
#define TraceLoggingWChar(...) _tlg_SCALAR(WCHAR, 6, 2, O1, __VA_ARGS__)
#define TraceLoggingChar16(...) _tlg_SCALAR(WCHAR, 6, 2, O1, __VA_ARGS__)
#define TraceLoggingPid(...) _tlg_SCALAR(UINT32, 8, 5, O1, __VA_ARGS__)
#define TraceLoggingTid(...) _tlg_SCALAR(UINT32, 8, 6, O1, __VA_ARGS__)
#define TraceLoggingPort(...) _tlg_SCALAR(UINT16, 6, 7, O1, __VA_ARGS__)
#define TraceLoggingIPv4Address(...) _tlg_SCALAR(UINT32, 8, 8, O1, __VA_ARGS__)
#define TraceLoggingWinError(...) _tlg_SCALAR(UINT32, 8, 13, O1, __VA_ARGS__)
#define TraceLoggingNTStatus(...) _tlg_SCALAR(LONG, 8, 14, O1, __VA_ARGS__)
#define TraceLoggingHResult(...) _tlg_SCALAR(HRESULT, 7, 15, O1, __VA_ARGS__)
#define TraceLoggingFileTime(...) _tlg_SCALAR(FILETIME, 17, 0, O0, __VA_ARGS__)
#define TraceLoggingFileTimeUtc(...) _tlg_SCALAR(FILETIME, 17, 38, O1, __VA_ARGS__)
#define TraceLoggingSystemTime(...) _tlg_SCALAR(SYSTEMTIME, 18, 0, O0, __VA_ARGS__)
#define TraceLoggingSystemTimeUtc(...) _tlg_SCALAR(SYSTEMTIME, 18, 38, O1, __VA_ARGS__)
#define TraceLoggingGuid(...) _tlg_SCALAR(GUID, 15, 0, O0, __VA_ARGS__)
/* Arrays: a UINT16 element count before the elements (Array) or a count fixed at
 * compile time, stored in the metadata (FixedArray). */
#define TraceLoggingInt8Array(...) _tlg_VARRAY(INT8, 3, 0, O0, __VA_ARGS__)
#define TraceLoggingInt8FixedArray(...) _tlg_FARRAY(INT8, 3, 0, O0, __VA_ARGS__)
#define TraceLoggingUInt8Array(...) _tlg_VARRAY(UINT8, 4, 0, O0, __VA_ARGS__)
#define TraceLoggingUInt8FixedArray(...) _tlg_FARRAY(UINT8, 4, 0, O0, __VA_ARGS__)
#define TraceLoggingInt16Array(...) _tlg_VARRAY(INT16, 5, 0, O0, __VA_ARGS__)
#define TraceLoggingInt16FixedArray(...) _tlg_FARRAY(INT16, 5, 0, O0, __VA_ARGS__)
#define TraceLoggingUInt16Array(...) _tlg_VARRAY(UINT16, 6, 0, O0, __VA_ARGS__)
#define TraceLoggingUInt16FixedArray(...) _tlg_FARRAY(UINT16, 6, 0, O0, __VA_ARGS__)
#define TraceLoggingInt32Array(...) _tlg_VARRAY(INT32, 7, 0, O0, __VA_ARGS__)
#define TraceLoggingInt32FixedArray(...) _tlg_FARRAY(INT32, 7, 0, O0, __VA_ARGS__)
#define TraceLoggingUInt32Array(...) _tlg_VARRAY(UINT32, 8, 0, O0, __VA_ARGS__)
#define TraceLoggingUInt32FixedArray(...) _tlg_FARRAY(UINT32, 8, 0, O0, __VA_ARGS__)
#define TraceLoggingInt64Array(...) _tlg_VARRAY(INT64, 9, 0, O0, __VA_ARGS__)
#define TraceLoggingInt64FixedArray(...) _tlg_FARRAY(INT64, 9, 0, O0, __VA_ARGS__)
#define TraceLoggingUInt64Array(...) _tlg_VARRAY(UINT64, 10, 0, O0, __VA_ARGS__)
#define TraceLoggingUInt64FixedArray(...) _tlg_FARRAY(UINT64, 10, 0, O0, __VA_ARGS__)
#define TraceLoggingIntPtrArray(...) _tlg_VARRAY(INT_PTR, 9, 0, O0, __VA_ARGS__)
#define TraceLoggingIntPtrFixedArray(...) _tlg_FARRAY(INT_PTR, 9, 0, O0, __VA_ARGS__)
#define TraceLoggingUIntPtrArray(...) _tlg_VARRAY(UINT_PTR, 10, 0, O0, __VA_ARGS__)
#define TraceLoggingUIntPtrFixedArray(...) _tlg_FARRAY(UINT_PTR, 10, 0, O0, __VA_ARGS__)
#define TraceLoggingLongArray(...) _tlg_VARRAY(LONG, 7, 0, O0, __VA_ARGS__)
#define TraceLoggingLongFixedArray(...) _tlg_FARRAY(LONG, 7, 0, O0, __VA_ARGS__)
#define TraceLoggingULongArray(...) _tlg_VARRAY(ULONG, 8, 0, O0, __VA_ARGS__)
#define TraceLoggingULongFixedArray(...) _tlg_FARRAY(ULONG, 8, 0, O0, __VA_ARGS__)
#define TraceLoggingHexInt8Array(...) _tlg_VARRAY(INT8, 4, 4, O1, __VA_ARGS__)
#define TraceLoggingHexInt8FixedArray(...) _tlg_FARRAY(INT8, 4, 4, O1, __VA_ARGS__)
#define TraceLoggingHexUInt8Array(...) _tlg_VARRAY(UINT8, 4, 4, O1, __VA_ARGS__)
#define TraceLoggingHexUInt8FixedArray(...) _tlg_FARRAY(UINT8, 4, 4, O1, __VA_ARGS__)
#define TraceLoggingHexInt16Array(...) _tlg_VARRAY(INT16, 6, 4, O1, __VA_ARGS__)
#define TraceLoggingHexInt16FixedArray(...) _tlg_FARRAY(INT16, 6, 4, O1, __VA_ARGS__)
#define TraceLoggingHexUInt16Array(...) _tlg_VARRAY(UINT16, 6, 4, O1, __VA_ARGS__)
#define TraceLoggingHexUInt16FixedArray(...) _tlg_FARRAY(UINT16, 6, 4, O1, __VA_ARGS__)
#define TraceLoggingHexInt32Array(...) _tlg_VARRAY(INT32, 20, 0, O0, __VA_ARGS__)
#define TraceLoggingHexInt32FixedArray(...) _tlg_FARRAY(INT32, 20, 0, O0, __VA_ARGS__)
#define TraceLoggingHexUInt32Array(...) _tlg_VARRAY(UINT32, 20, 0, O0, __VA_ARGS__)
#define TraceLoggingHexUInt32FixedArray(...) _tlg_FARRAY(UINT32, 20, 0, O0, __VA_ARGS__)
#define TraceLoggingHexInt64Array(...) _tlg_VARRAY(INT64, 21, 0, O0, __VA_ARGS__)
#define TraceLoggingHexInt64FixedArray(...) _tlg_FARRAY(INT64, 21, 0, O0, __VA_ARGS__)
#define TraceLoggingHexUInt64Array(...) _tlg_VARRAY(UINT64, 21, 0, O0, __VA_ARGS__)
#define TraceLoggingHexUInt64FixedArray(...) _tlg_FARRAY(UINT64, 21, 0, O0, __VA_ARGS__)
#define TraceLoggingHexIntPtrArray(...) _tlg_VARRAY(INT_PTR, 21, 0, O0, __VA_ARGS__)
#define TraceLoggingHexIntPtrFixedArray(...) _tlg_FARRAY(INT_PTR, 21, 0, O0, __VA_ARGS__)
#define TraceLoggingHexUIntPtrArray(...) _tlg_VARRAY(UINT_PTR, 21, 0, O0, __VA_ARGS__)
#define TraceLoggingHexUIntPtrFixedArray(...) _tlg_FARRAY(UINT_PTR, 21, 0, O0, __VA_ARGS__)
#define TraceLoggingHexLongArray(...) _tlg_VARRAY(LONG, 20, 0, O0, __VA_ARGS__)
#define TraceLoggingHexLongFixedArray(...) _tlg_FARRAY(LONG, 20, 0, O0, __VA_ARGS__)
#define TraceLoggingHexULongArray(...) _tlg_VARRAY(ULONG, 20, 0, O0, __VA_ARGS__)
#define TraceLoggingHexULongFixedArray(...) _tlg_FARRAY(ULONG, 20, 0, O0, __VA_ARGS__)
#define TraceLoggingFloat32Array(...) _tlg_VARRAY(FLOAT, 11, 0, O0, __VA_ARGS__)
#define TraceLoggingFloat32FixedArray(...) _tlg_FARRAY(FLOAT, 11, 0, O0, __VA_ARGS__)
#define TraceLoggingFloat64Array(...) _tlg_VARRAY(DOUBLE, 12, 0, O0, __VA_ARGS__)
#define TraceLoggingFloat64FixedArray(...) _tlg_FARRAY(DOUBLE, 12, 0, O0, __VA_ARGS__)
#define TraceLoggingBoolArray(...) _tlg_VARRAY(BOOL, 13, 0, O0, __VA_ARGS__)
#define TraceLoggingBoolFixedArray(...) _tlg_FARRAY(BOOL, 13, 0, O0, __VA_ARGS__)
#define TraceLoggingBooleanArray(...) _tlg_VARRAY(BOOLEAN, 4, 3, O1, __VA_ARGS__)
#define TraceLoggingBooleanFixedArray(...) _tlg_FARRAY(BOOLEAN, 4, 3, O1, __VA_ARGS__)
#define TraceLoggingCharArray(...) _tlg_VARRAY(CHAR, 4, 2, O1, __VA_ARGS__)
#define TraceLoggingCharFixedArray(...) _tlg_FARRAY(CHAR, 4, 2, O1, __VA_ARGS__)
#define TraceLoggingWCharArray(...) _tlg_VARRAY(WCHAR, 6, 2, O1, __VA_ARGS__)
#define TraceLoggingWCharFixedArray(...) _tlg_FARRAY(WCHAR, 6, 2, O1, __VA_ARGS__)
#define TraceLoggingChar16Array(...) _tlg_VARRAY(WCHAR, 6, 2, O1, __VA_ARGS__)
#define TraceLoggingChar16FixedArray(...) _tlg_FARRAY(WCHAR, 6, 2, O1, __VA_ARGS__)
#define TraceLoggingFileTimeArray(...) _tlg_VARRAY(FILETIME, 17, 0, O0, __VA_ARGS__)
#define TraceLoggingFileTimeFixedArray(...) _tlg_FARRAY(FILETIME, 17, 0, O0, __VA_ARGS__)
#define TraceLoggingFileTimeUtcArray(...) _tlg_VARRAY(FILETIME, 17, 38, O1, __VA_ARGS__)
#define TraceLoggingFileTimeUtcFixedArray(...) _tlg_FARRAY(FILETIME, 17, 38, O1, __VA_ARGS__)
#define TraceLoggingSystemTimeArray(...) _tlg_VARRAY(SYSTEMTIME, 18, 0, O0, __VA_ARGS__)
#define TraceLoggingSystemTimeFixedArray(...) _tlg_FARRAY(SYSTEMTIME, 18, 0, O0, __VA_ARGS__)
#define TraceLoggingSystemTimeUtcArray(...) _tlg_VARRAY(SYSTEMTIME, 18, 38, O1, __VA_ARGS__)
#define TraceLoggingSystemTimeUtcFixedArray(...) _tlg_FARRAY(SYSTEMTIME, 18, 38, O1, __VA_ARGS__)
#define TraceLoggingGuidArray(...) _tlg_VARRAY(GUID, 15, 0, O0, __VA_ARGS__)
#define TraceLoggingGuidFixedArray(...) _tlg_FARRAY(GUID, 15, 0, O0, __VA_ARGS__)
#define TraceLoggingPointerArray(...) _tlg_VARRAY(UINT64, 21, 0, O0, __VA_ARGS__)
#define TraceLoggingPointerFixedArray(...) _tlg_FARRAY(UINT64, 21, 0, O0, __VA_ARGS__)
#define TraceLoggingCodePointerArray(...) _tlg_VARRAY(UINT64, 21, 37, O1, __VA_ARGS__)
#define TraceLoggingCodePointerFixedArray(...) _tlg_FARRAY(UINT64, 21, 37, O1, __VA_ARGS__)

#endif /* PFC_ETW_TLG_FIELDS_H */
