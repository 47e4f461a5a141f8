/* TraceLoggingProvider.h — TraceLogging for pfc's ETW-compatible API (docs/etw.md
 * "TraceLogging"): self-describing events whose field names and types travel with each
 * event, written with the macros of the Windows SDK header of the same name. With
 * `pkg-config --cflags pfc-etw`, `#include <TraceLoggingProvider.h>` finds this file.
 *
 *   TRACELOGGING_DEFINE_PROVIDER(g_hProvider, "MyCompany.MyComponent",
 *       (0xce5fa4ea, 0xab00, 0x5402, 0x8b, 0x76, 0x9f, 0x76, 0xac, 0x85, 0x8f, 0xb5));
 *   TraceLoggingRegister(g_hProvider);
 *   TraceLoggingWrite(g_hProvider, "MyEvent", TraceLoggingLevel(4),
 *       TraceLoggingInt32(x, "X"), TraceLoggingString(name, "Name"));
 *   TraceLoggingUnregister(g_hProvider);
 *
 * Every event is written with EventWriteTransfer (TraceLoggingWriteEx: EventWriteEx):
 * data descriptor 0 the provider traits (EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA:
 * UINT16 size, the provider name, the traits), 1 the event metadata (…_EVENT_METADATA:
 * UINT16 size, tag bytes, the event name, per field its name, in-type byte (0x80: an
 * out-type byte follows; 0x20 constant count, 0x40 variable count, 0x60 custom: the low
 * bits are the protocol), out-type byte (0x80: tag bytes follow), tags, constant count or
 * custom schema), then zero to two descriptors per field (a UINT16 count or byte size
 * before variable-length data). wchar_t strings are a compile error (WCHAR is char16_t). The
 * metadata is a static constant built by the preprocessor; argument expressions are
 * evaluated only when a session enables the event's level and keyword. The event
 * descriptor: Id 0, Version 0, Channel 11, Level (default 5), Opcode, Task 0, Keyword.
 * Up to 99 fields per event. */
#ifndef PFC_ETW_TRACELOGGINGPROVIDER_H
#define PFC_ETW_TRACELOGGINGPROVIDER_H

#include <stddef.h> /* wchar_t */
#include <string.h>

#include "evntprov.h"

#ifdef __cplusplus
#include <type_traits>
extern "C++" {
template <class T>
struct _tlgTypeOf;
}
#endif

/* ---- Providers ---- */

/* The storage behind a TraceLoggingHProvider; only these macros and functions touch it. */
struct _tlgProvider {
  REGHANDLE RegHandle;
  const UINT8* Traits; /* the provider traits blob */
  GUID ProviderId;
};
typedef const struct _tlgProvider* TraceLoggingHProvider;

#define _tlg_GUID_INIT(l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8)       \
  {                                                                     \
    (l), (w1), (w2), { (b1), (b2), (b3), (b4), (b5), (b6), (b7), (b8) } \
  }
#define _tlg_PACKED __attribute__((packed))

/* Declares a provider handle defined elsewhere with TRACELOGGING_DEFINE_PROVIDER. */
#define TRACELOGGING_DECLARE_PROVIDER(hProvider) extern TraceLoggingHProvider const hProvider

/* Defines `hProvider` for the provider `providerName` (a string literal, UTF-8) with the
 * GUID given as a parenthesized list of its 11 parts, optionally followed by one provider
 * trait: TraceLoggingOptionGroup(11 GUID parts), the provider group, or
 * TraceLoggingOptionTrait(traitType, ctype, (value)). The traits travel with every event
 * (EVENT_HEADER_EXT_TYPE_PROV_TRAITS: UINT16 size, the name, per trait UINT16 size, UINT8
 * type, the value). */
#define TRACELOGGING_DEFINE_PROVIDER(hProvider, ...)                          \
  TRACELOGGING_DEFINE_PROVIDER_STORAGE(_tlgStorage_##hProvider, __VA_ARGS__); \
  TRACELOGGING_DECLARE_PROVIDER(hProvider);                                   \
  TraceLoggingHProvider const hProvider = &_tlgStorage_##hProvider
/* Defines the static storage `storage` of a provider (arguments as above); `&storage` is
 * its TraceLoggingHProvider. */
#define TRACELOGGING_DEFINE_PROVIDER_STORAGE(storage, ...) \
  _tlg_CALL(_tlg_CAT(_tlg_PROV_, _tlg_NARG(__VA_ARGS__)), (storage, __VA_ARGS__))
#define _tlg_PROV_2(s, name, id) _tlg_PROV(s, name, id, (_tlgOptNone, ~, ~, ~))
#define _tlg_PROV_3(s, name, id, option) _tlg_PROV(s, name, id, option)
#define _tlg_PROV(s, name, id, option)                                                             \
  static const struct _tlg_PACKED {                                                                \
    UINT16 Size;                                                                                   \
    char Name[sizeof(name)];                                                                       \
    _tlg_CALLO(_tlg_CAT(_tlg_OPTD_, _tlg_CLS option), (_tlg_ARGS option))                          \
  } _tlgTraits_##s = {(UINT16)sizeof(_tlgTraits_##s),                                              \
                      name _tlg_CALLO(_tlg_CAT(_tlg_OPTI_, _tlg_CLS option), (_tlg_ARGS option))}; \
  static struct _tlgProvider s = {0, (const UINT8*)&_tlgTraits_##s, _tlg_GUID_INIT id}
#define _tlg_OPTD__tlgOptNone(...)
#define _tlg_OPTI__tlgOptNone(...)
#define _tlg_OPTD__tlgOption(type, ct, value) \
  UINT16 TraitSize;                           \
  UINT8 TraitType;                            \
  ct TraitValue;
#define _tlg_OPTI__tlgOption(type, ct, value) \
  , (UINT16)(sizeof(ct) + 3), (UINT8)(type), _tlg_FLAT value
#define _tlg_FLAT(...) __VA_ARGS__
/* A provider trait (the provider traits' documented layout): `traitType` 128..255 for a
 * custom one, `value` the parenthesized initializer of a `ctype`. */
#define TraceLoggingOptionTrait(traitType, ctype, value) (_tlgOption, traitType, ctype, value)
/* The provider's group (trait type 1, EtwProviderTraitTypeGroup): 11 GUID parts. */
#define TraceLoggingOptionGroup(g1, g2, g3, g4, g5, g6, g7, g8, g9, g10, g11) \
  TraceLoggingOptionTrait(                                                    \
      1, GUID, ({(g1), (g2), (g3), {(g4), (g5), (g6), (g7), (g8), (g9), (g10), (g11)}}))

#ifndef S_OK
#define S_OK ((HRESULT)0)
#endif
#ifndef HRESULT_FROM_WIN32
#define HRESULT_FROM_WIN32(x) \
  ((HRESULT)(x) <= 0 ? (HRESULT)(x) : (HRESULT)(((x)&0x0000FFFF) | (7 << 16) | 0x80000000))
#endif

/* Registers the provider and sets its traits (EventSetInformation, EventProviderSetTraits:
 * its events' descriptor types count from then on): S_OK, or HRESULT_FROM_WIN32 of
 * EventRegister's error. As the SDK's, it ignores EventSetInformation's answer. */
static inline HRESULT TraceLoggingRegisterEx(TraceLoggingHProvider hProvider,
                                             PENABLECALLBACK EnableCallback,
                                             PVOID CallbackContext) {
  struct _tlgProvider* p = (struct _tlgProvider*)hProvider;
  ULONG rc = EventRegister(&p->ProviderId, EnableCallback, CallbackContext, &p->RegHandle);
  if (rc != 0) return HRESULT_FROM_WIN32(rc);
  (void)EventSetInformation(p->RegHandle, EventProviderSetTraits, (PVOID)(UINT_PTR)p->Traits,
                            (ULONG)(p->Traits[0] | p->Traits[1] << 8));
  return (HRESULT)0;
}
/* EventSetInformation on the provider's registration: S_OK, or HRESULT_FROM_WIN32 of its
 * error (ERROR_INVALID_PARAMETER when the provider is not registered). */
static inline HRESULT TraceLoggingSetInformation(TraceLoggingHProvider hProvider,
                                                 EVENT_INFO_CLASS informationClass,
                                                 PVOID pvInformation, ULONG cbInformation) {
  ULONG rc =
      EventSetInformation(hProvider->RegHandle, informationClass, pvInformation, cbInformation);
  return rc == 0 ? (HRESULT)0 : HRESULT_FROM_WIN32(rc);
}
static inline HRESULT TraceLoggingRegister(TraceLoggingHProvider hProvider) {
  /* NOLINTNEXTLINE(modernize-use-nullptr): C as well */
  return TraceLoggingRegisterEx(hProvider, NULL, NULL);
}
static inline void TraceLoggingUnregister(TraceLoggingHProvider hProvider) {
  struct _tlgProvider* p = (struct _tlgProvider*)hProvider;
  if (p->RegHandle != 0) (void)EventUnregister(p->RegHandle);
  p->RegHandle = 0;
}
/* Whether some session enables events of `level` and `keyword` (0: any keyword). */
static inline BOOLEAN TraceLoggingProviderEnabled(TraceLoggingHProvider hProvider, UCHAR level,
                                                  ULONGLONG keyword) {
  return hProvider->RegHandle != 0 && EventProviderEnabled(hProvider->RegHandle, level, keyword);
}
/* The provider's GUID (by value, as the SDK header returns it). */
static inline GUID TraceLoggingProviderId(TraceLoggingHProvider hProvider) {
  return hProvider->ProviderId;
}

#include "tlg_pp.h" /* _tlg_FOR, _tlg_NARG and the other preprocessor helpers */

/* ---- Data descriptors ---- */

static inline void _tlgDescSet(EVENT_DATA_DESCRIPTOR* d, const void* p, ULONG size) {
  d->Ptr = (ULONGLONG)(UINT_PTR)p;
  d->Size = size;
  d->Reserved = 0;
}
/* A NUL-terminated string of `unit`-byte characters, its terminator included; NULL is
 * written as an empty string (as Windows' header does). */
static inline void _tlgDescStr(EVENT_DATA_DESCRIPTOR* d, const void* s, size_t unit) {
  static const UINT16 empty = 0;
  size_t n = 0;
  if (s == NULL) { /* NOLINT(modernize-use-nullptr): C as well */
    _tlgDescSet(d, &empty, (ULONG)unit);
    return;
  }
  if (unit == 1) {
    n = strlen((const char*)s);
  } else {
    while (((const UINT16*)s)[n] != 0) ++n;
  }
  _tlgDescSet(d, s, (ULONG)((n + 1) * unit));
}
/* `v` when an attribute argument gave one (v != 0), else `prev`: the last one wins. */
static inline int _tlgLast(int prev, int v) { return v != 0 ? v : prev; }
static inline void _tlgDescMeta(EVENT_DATA_DESCRIPTOR* d, const UINT8* blob, UCHAR type) {
  _tlgDescSet(d, blob, (ULONG)(blob[0] | blob[1] << 8));
  d->Reserved = type;
}

#include "tlg_fields.h" /* the field and event-attribute macros */

/* ---- Passes over an event's arguments ---- */

/* Event attributes: level + 1, opcode + 1 and channel + 1 (the last one given wins, as on
 * Windows; 0: none given), the keywords OR-ed. */
#define _tlg_LAST_OF(var, pass, ...) \
  int var = 0;                       \
  _tlg_FOR(pass, __VA_ARGS__)(void) var
#define _tlg_P_LVL(k, t) _tlg_CALLP(_tlg_CAT(_tlg_LVL_, _tlg_CLS t), (_tlg_ARGS t))
#define _tlg_LVL_E(l, kw, o, c, tag, et) _tlgLevel1 = _tlgLast(_tlgLevel1, (l));
#define _tlg_LVL_F(...)
#define _tlg_LVL_D(...)
#define _tlg_P_KW(k, t) _tlg_CALLP(_tlg_CAT(_tlg_KW_, _tlg_CLS t), (_tlg_ARGS t))
#define _tlg_KW_E(l, kw, o, c, tag, et) | (ULONGLONG)(kw)
#define _tlg_KW_F(...)
#define _tlg_KW_D(...)
#define _tlg_P_OPC(k, t) _tlg_CALLP(_tlg_CAT(_tlg_OPC_, _tlg_CLS t), (_tlg_ARGS t))
#define _tlg_OPC_E(l, kw, o, c, tag, et) _tlgOpcode1 = _tlgLast(_tlgOpcode1, (o));
#define _tlg_OPC_F(...)
#define _tlg_OPC_D(...)
#define _tlg_P_CHAN(k, t) _tlg_CALLP(_tlg_CAT(_tlg_CHAN_, _tlg_CLS t), (_tlg_ARGS t))
#define _tlg_CHAN_E(l, kw, o, c, tag, et) _tlgChannel1 = _tlgLast(_tlgChannel1, (c));
#define _tlg_CHAN_F(...)
#define _tlg_CHAN_D(...)
/* Event tags: the TraceLoggingEventTag values OR-ed (as on Windows); with any, three
 * chained high bytes, then the low byte; without, one 0 byte. _tlg_HASTAG is 1 when some
 * argument is a TraceLoggingEventTag, else 0. */
#define _tlg_P_TAGC(k, t) _tlg_CALLP(_tlg_CAT(_tlg_TAGC_, _tlg_CLS t), (_tlg_ARGS t))
#define _tlg_TAGC_E(l, kw, o, c, tag, et) _tlg_CAT(_tlg_TAGC_, et)
#define _tlg_TAGC_ET0
#define _tlg_TAGC_ET1 , 1
#define _tlg_TAGC_F(...)
#define _tlg_TAGC_D(...)
#define _tlg_HASTAG(...) _tlg_SECOND(0 _tlg_FOR(_tlg_P_TAGC, __VA_ARGS__), 0)
#define _tlg_P_TAGV(k, t) _tlg_CALLP(_tlg_CAT(_tlg_TAGV_, _tlg_CLS t), (_tlg_ARGS t))
#define _tlg_TAGV_E(l, kw, o, c, tag, et) | (tag)
#define _tlg_TAGV_F(...)
#define _tlg_TAGV_D(...)
#define _tlg_TAGDECL_0
#define _tlg_TAGDECL_1 UINT8 _tlgEventTag[3];
/* The tag bytes' initializers. */
#define _tlg_TAGS_INIT(...) \
  _tlg_TAGS_INIT_(_tlg_HASTAG(__VA_ARGS__), (0 _tlg_FOR(_tlg_P_TAGV, __VA_ARGS__)))
#define _tlg_TAGS_INIT_(has, tags) _tlg_CAT(_tlg_TAGINIT_, has)(tags)(UINT8)((tags)&0x7F)
#define _tlg_TAGINIT_0(tags)
#define _tlg_TAGINIT_1(tags)                                                         \
  {(UINT8)((((tags) >> 21) & 0x7F) | 0x80), (UINT8)((((tags) >> 14) & 0x7F) | 0x80), \
   (UINT8)((((tags) >> 7) & 0x7F) | 0x80)},
#define _tlg_TAGS4(t)                                                           \
  {                                                                             \
    (UINT8)((((t) >> 21) & 0x7F) | 0x80), (UINT8)((((t) >> 14) & 0x7F) | 0x80), \
        (UINT8)((((t) >> 7) & 0x7F) | 0x80), (UINT8)((t)&0x7F)                  \
  }

/* Field metadata: name, in-type byte, [out-type byte, [4 tag bytes]], [constant count]. */
#define _tlg_P_MD(k, t) _tlg_CALLP(_tlg_CAT(_tlg_MD_, _tlg_CLS t), (k, _tlg_ARGS t))
#define _tlg_MD_E(...)
#define _tlg_MD_D(...)
#define _tlg_MD_F(k, kind, ct, in, out, form, name, tags, a, b) \
  char _tlgName##k[sizeof(name)];                               \
  UINT8 _tlgIn##k;                                              \
  _tlg_CAT(_tlg_OTD_, form)(k) _tlg_CAT(_tlg_CCD_, kind)(k, b)
#define _tlg_OTD_O0T0(k)
#define _tlg_OTD_O1T0(k) UINT8 _tlgOut##k;
#define _tlg_OTD_O0T1(k) \
  UINT8 _tlgOut##k;      \
  UINT8 _tlgTags##k[4];
#define _tlg_OTD_O1T1(k) _tlg_OTD_O0T1(k)
#define _tlg_P_MI(k, t) _tlg_CALLP(_tlg_CAT(_tlg_MI_, _tlg_CLS t), (_tlg_ARGS t))
#define _tlg_MI_E(...)
#define _tlg_MI_D(...)
#define _tlg_MI_F(kind, ct, in, out, form, name, tags, a, b)                         \
  , name,                                                                            \
      (UINT8)((in) | _tlg_CAT(_tlg_OTC_, form)) _tlg_CAT(_tlg_OTI_, form)(out, tags) \
          _tlg_CAT(_tlg_CCI_, kind)(b)
#define _tlg_OTC_O0T0 0
#define _tlg_OTC_O1T0 0x80
#define _tlg_OTC_O0T1 0x80
#define _tlg_OTC_O1T1 0x80
#define _tlg_OTI_O0T0(out, tags)
#define _tlg_OTI_O1T0(out, tags) , (UINT8)(out)
#define _tlg_OTI_O0T1(out, tags) , (UINT8)((out) | 0x80), _tlg_TAGS4(tags)
#define _tlg_OTI_O1T1(out, tags) _tlg_OTI_O0T1(out, tags)
#define _tlg_CCD_FARR(k, b) UINT16 _tlgCount##k;
#define _tlg_CCI_FARR(b) , (UINT16)(b)
#define _tlg_CCD_CUSTOM(k, b) \
  UINT16 _tlgSchemaSize##k;   \
  UINT8 _tlgSchema##k[_tlg_CALLX(_tlg_B2, b)];
#define _tlg_CCI_CUSTOM(b) \
  , (UINT16)(_tlg_CALLX(_tlg_B2, b)), { _tlg_CALLX(_tlg_FLAT, _tlg_B3 b) }
/* (value byte count, schema byte count, (schema bytes)) of TraceLoggingCustom */
#define _tlg_B1(x, y, z) x
#define _tlg_B2(x, y, z) y
#define _tlg_B3(x, y, z) z
#define _tlg_CCD_VAL(k, b)
#define _tlg_CCI_VAL(b)
#define _tlg_CCD_STR(k, b)
#define _tlg_CCI_STR(b)
#define _tlg_CCD_CSTR(k, b)
#define _tlg_CCI_CSTR(b)
#define _tlg_CCD_BIN(k, b)
#define _tlg_CCI_BIN(b)
#define _tlg_CCD_BUF(k, b)
#define _tlg_CCI_BUF(b)
#define _tlg_CCD_SID(k, b)
#define _tlg_CCI_SID(b)
#define _tlg_CCD_PFIELD(k, b)
#define _tlg_CCI_PFIELD(b)
#define _tlg_CCD_PMETA(k, b)
#define _tlg_CCI_PMETA(b)
#define _tlg_CCD_VARR(k, b)
#define _tlg_CCI_VARR(b)
#define _tlg_CCD_STRUCT(k, b)
#define _tlg_CCI_STRUCT(b)
#define _tlg_CCD_TVAL(k, b)
#define _tlg_CCI_TVAL(b)

/* Data descriptors per field: how many, and the statements that fill them. */
#define _tlg_P_ND(k, t) _tlg_CALLP(_tlg_CAT(_tlg_ND_, _tlg_CLS t), (_tlg_ARGS t))
#define _tlg_ND_E(...)
/* _tlg_ND_D and _tlg_ND_F are terms of the sum `2 _tlg_FOR(_tlg_P_ND, ...)` (_tlgD's size):
 * parenthesised, `2 (+1)` would not parse. */
#define _tlg_ND_D(...) +1 /* NOLINT(bugprone-macro-parentheses): see above */
#define _tlg_ND_F(kind, ...) +_tlg_CAT(_tlg_ND_, kind) /* NOLINT(bugprone-macro-parentheses) */
#define _tlg_ND_VAL 1
#define _tlg_ND_STR 1
#define _tlg_ND_CSTR 2
#define _tlg_ND_BIN 2
#define _tlg_ND_VARR 2
#define _tlg_ND_FARR 1
#define _tlg_ND_STRUCT 0
#define _tlg_ND_TVAL 1
#define _tlg_ND_BUF 2
#define _tlg_ND_SID 1
#define _tlg_ND_CUSTOM 2
#define _tlg_ND_PFIELD 1
#define _tlg_ND_PMETA 0
#define _tlg_P_DATA(k, t) _tlg_CALLP(_tlg_CAT(_tlg_DATA_, _tlg_CLS t), (k, _tlg_ARGS t))
#define _tlg_DATA_E(...)
#define _tlg_DATA_D(k, p, cb, type)                  \
  const void* const _tlgV##k = (p);                  \
  _tlgDescSet(&_tlgD[_tlgN], _tlgV##k, (ULONG)(cb)); \
  _tlgD[_tlgN++].Reserved = (type);
#define _tlg_DATA_F(k, kind, ct, in, out, form, name, tags, a, b) \
  _tlg_CAT(_tlg_DATA_, kind)(k, ct, in, a, b)
#define _tlg_DATA_VAL(k, ct, in, a, b) \
  ct const _tlgV##k = (a);             \
  _tlgDescSet(&_tlgD[_tlgN++], &_tlgV##k, (ULONG)sizeof(ct));
#define _tlg_DATA_STR(k, ct, in, a, b)                \
  _tlg_NOT_WCHAR_T(a) const ct* const _tlgV##k = (a); \
  _tlgDescStr(&_tlgD[_tlgN++], _tlgV##k, sizeof(ct));
#define _tlg_DATA_CSTR(k, ct, in, a, b)               \
  _tlg_NOT_WCHAR_T(a) const ct* const _tlgV##k = (a); \
  UINT16 const _tlgL##k = (UINT16)((b) * sizeof(ct)); \
  _tlgDescSet(&_tlgD[_tlgN++], &_tlgL##k, 2);         \
  _tlgDescSet(&_tlgD[_tlgN++], _tlgV##k, _tlgL##k);
#define _tlg_DATA_BIN(k, ct, in, a, b)        \
  const void* const _tlgV##k = (a);           \
  UINT16 const _tlgL##k = (UINT16)(b);        \
  _tlgDescSet(&_tlgD[_tlgN++], &_tlgL##k, 2); \
  _tlgDescSet(&_tlgD[_tlgN++], _tlgV##k, _tlgL##k);
#define _tlg_DATA_VARR(k, ct, in, a, b)          \
  const void* const _tlgV##k = (const void*)(a); \
  UINT16 const _tlgL##k = (UINT16)(b);           \
  _tlgDescSet(&_tlgD[_tlgN++], &_tlgL##k, 2);    \
  _tlgDescSet(&_tlgD[_tlgN++], _tlgV##k, (ULONG)(_tlgL##k * sizeof(ct)));
#define _tlg_DATA_FARR(k, ct, in, a, b)          \
  const void* const _tlgV##k = (const void*)(a); \
  _tlgDescSet(&_tlgD[_tlgN++], _tlgV##k, (ULONG)((b) * sizeof(ct)));
#define _tlg_DATA_STRUCT(k, ct, in, a, b)
#define _tlg_DATA_BUF(k, ct, in, a, b)              \
  ct const* const _tlgP##k = (a);                   \
  UINT16 const _tlgL##k = (UINT16)_tlgP##k->Length; \
  _tlgDescSet(&_tlgD[_tlgN++], &_tlgL##k, 2);       \
  _tlgDescSet(&_tlgD[_tlgN++], _tlgP##k->Buffer, _tlgL##k);
#define _tlg_DATA_SID(k, ct, in, a, b)             \
  const UINT8* const _tlgV##k = (const UINT8*)(a); \
  _tlgDescSet(&_tlgD[_tlgN++], _tlgV##k, (ULONG)(8u + 4u * _tlgV##k[1]));
#define _tlg_DATA_CUSTOM(k, ct, in, a, b)                   \
  const void* const _tlgV##k = (a);                         \
  UINT16 const _tlgL##k = (UINT16)(_tlg_CALLX(_tlg_B1, b)); \
  _tlgDescSet(&_tlgD[_tlgN++], &_tlgL##k, 2);               \
  _tlgDescSet(&_tlgD[_tlgN++], _tlgV##k, _tlgL##k);
#define _tlg_DATA_PFIELD(k, ct, in, a, b)              \
  _tlg_PACKED_IN(in) const void* const _tlgV##k = (a); \
  _tlgDescSet(&_tlgD[_tlgN++], _tlgV##k, (ULONG)(b));
#define _tlg_DATA_PMETA(k, ct, in, a, b) _tlg_PACKED_IN(in)
/* A packed field's in-type (a constant): a scalar or string type, TlgInVcount allowed
 * (not for Binary: TDH cannot decode arrays of it), no structure (PackedStruct). */
#define _tlg_PACKED_IN(in)                                                                    \
  _tlg_SASSERT(((in) & ~0x5F) == 0 && ((in)&31) != 0 && ((in)&31) != 16 && ((in)&31) != 24 && \
                   ((in)&31) < 26 && (in) != (14 | 64),                                       \
               "TraceLoggingPacked*: the in-type must be a TlgIn value (| TlgInVcount, "      \
               "but not for TlgInBINARY)")
#ifdef __cplusplus
#define _tlg_SASSERT(cond, msg) static_assert(cond, msg);
#else
#define _tlg_SASSERT(cond, msg) _Static_assert(cond, msg);
#endif
#define _tlg_DATA_TVAL(k, ct, in, a, b) \
  auto const _tlgV##k = (a);            \
  _tlgValueDesc(&_tlgD[_tlgN++], _tlgV##k);

/* Strings are char or WCHAR (char16_t, u"..."); a wchar_t string (L"...", 32-bit on
 * Linux) is a compile error naming the fix (docs/porting.md "WCHAR strings"). */
#define _tlg_WCHAR_T_MSG                                                                      \
  "TraceLogging string fields take char or WCHAR (char16_t) strings: write u\"...\" instead " \
  "of L\"...\" (wchar_t is 32-bit on Linux; docs/porting.md)"
#ifdef __cplusplus
#define _tlg_NOT_WCHAR_T(a)                                                               \
  static_assert(                                                                          \
      !std::is_same_v<std::remove_cv_t<std::remove_pointer_t<std::decay_t<decltype(a)>>>, \
                      wchar_t>,                                                           \
      _tlg_WCHAR_T_MSG);
#else
#define _tlg_NOT_WCHAR_T(a) \
  _Static_assert(!_Generic((a), wchar_t * : 1, const wchar_t* : 1, default : 0), _tlg_WCHAR_T_MSG);
#endif

/* The in-types and out-types of the TraceLoggingPacked* macros (the SDK header's names;
 * TDH_INTYPE's numbers for the in-types). */
enum TlgIn_t {
  TlgInNULL = 0,
  TlgInUNICODESTRING = 1,
  TlgInANSISTRING = 2,
  TlgInINT8 = 3,
  TlgInUINT8 = 4,
  TlgInINT16 = 5,
  TlgInUINT16 = 6,
  TlgInINT32 = 7,
  TlgInUINT32 = 8,
  TlgInINT64 = 9,
  TlgInUINT64 = 10,
  TlgInFLOAT = 11,
  TlgInDOUBLE = 12,
  TlgInBOOL32 = 13,
  TlgInBINARY = 14,
  TlgInGUID = 15,
  TlgInFILETIME = 17,
  TlgInSYSTEMTIME = 18,
  TlgInSID = 19,
  TlgInHEXINT32 = 20,
  TlgInHEXINT64 = 21,
  TlgInCOUNTEDSTRING = 22,
  TlgInCOUNTEDANSISTRING = 23,
  TlgInCOUNTEDBINARY = 25,
  TlgInINTPTR = TlgInINT64,
  TlgInUINTPTR = TlgInUINT64,
  TlgInPOINTER = TlgInHEXINT64,
  TlgInLONG = TlgInINT32,
  TlgInULONG = TlgInUINT32,
  TlgInHEXLONG = TlgInHEXINT32,
  TlgInVcount = 64 /* OR-ed in: a variable array (a UINT16 count, then the elements) */
};
enum TlgOut_t {
  TlgOutNULL = 0,
  TlgOutNOPRINT = 1,
  TlgOutSTRING = 2,
  TlgOutBOOLEAN = 3,
  TlgOutHEX = 4,
  TlgOutPID = 5,
  TlgOutTID = 6,
  TlgOutPORT = 7,
  TlgOutIPV4 = 8,
  TlgOutIPV6 = 9,
  TlgOutSOCKETADDRESS = 10,
  TlgOutXML = 11,
  TlgOutJSON = 12,
  TlgOutWIN32ERROR = 13,
  TlgOutNTSTATUS = 14,
  TlgOutHRESULT = 15,
  TlgOutFILETIME = 16,
  TlgOutSIGNED = 17,
  TlgOutUNSIGNED = 18,
  TlgOutDATETIME_CULTURE_INSENSITIVE = 33,
  TlgOutUTF8 = 35,
  TlgOutPKCS7_WITH_TYPE_INFO = 36,
  TlgOutCODE_POINTER = 37,
  TlgOutDATETIME_UTC = 38
};

/* ---- Writing ---- */

/* Writes the event `eventName` (a string literal) with the fields and attributes given. */
#define TraceLoggingWrite(hProvider, ...) \
  _tlg_WRITE(hProvider, _tlg_SEND_T, (NULL, NULL), __VA_ARGS__)
/* As TraceLoggingWrite, with an activity ID and a related activity ID (either NULL). */
#define TraceLoggingWriteActivity(hProvider, ...) _tlg_WA1(hProvider, __VA_ARGS__)
#define _tlg_WA1(h, name, ...) _tlg_WA2(h, name, __VA_ARGS__)
#define _tlg_WA2(h, name, act, ...)                          \
  _tlg_WRITE(h, _tlg_SEND_T, (act, _tlg_FIRST(__VA_ARGS__)), \
             name _tlg_CALL(_tlg_CAT(_tlg_TAIL_, _tlg_NARG(__VA_ARGS__)), (__VA_ARGS__)))
/* As TraceLoggingWriteActivity, written with EventWriteEx and its filter and flags:
 * TraceLoggingWriteEx(hProvider, "name", filter, flags, activity, related, args...). */
#define TraceLoggingWriteEx(hProvider, ...) _tlg_WX1(hProvider, __VA_ARGS__)
#define _tlg_WX1(h, name, ...) _tlg_WX2(h, name, __VA_ARGS__)
#define _tlg_WX2(h, name, filter, flags, act, ...)                          \
  _tlg_WRITE(h, _tlg_SEND_X, (filter, flags, act, _tlg_FIRST(__VA_ARGS__)), \
             name _tlg_CALL(_tlg_CAT(_tlg_TAIL_, _tlg_NARG(__VA_ARGS__)), (__VA_ARGS__)))
#define _tlg_SEND_T(reg, ed, n, d, act, rel) EventWriteTransfer(reg, ed, (act), (rel), n, d)
#define _tlg_SEND_X(reg, ed, n, d, filter, flags, act, rel) \
  EventWriteEx(reg, ed, (filter), (flags), (act), (rel), n, d)

#define _tlg_WRITE(hProvider, send, sendArgs, ...)                                                 \
  do {                                                                                             \
    TraceLoggingHProvider const _tlgProv = (hProvider);                                            \
    _tlg_LAST_OF(_tlgLevel1, _tlg_P_LVL, __VA_ARGS__);                                             \
    ULONGLONG const _tlgKeyword = 0 _tlg_FOR(_tlg_P_KW, __VA_ARGS__);                              \
    UCHAR const _tlgLevel = (UCHAR)(_tlgLevel1 != 0 ? _tlgLevel1 - 1 : 5);                         \
    if (TraceLoggingProviderEnabled(_tlgProv, _tlgLevel, _tlgKeyword)) {                           \
      static const struct _tlg_PACKED {                                                            \
        UINT16 _tlgSize;                                                                           \
        _tlg_CAT(_tlg_TAGDECL_, _tlg_HASTAG(__VA_ARGS__)) UINT8 _tlgTag;                           \
        char _tlgName[sizeof(_tlg_FIRST(__VA_ARGS__))];                                            \
        _tlg_FOR(_tlg_P_MD, __VA_ARGS__)                                                           \
      } _tlgMeta = {(UINT16)sizeof(_tlgMeta), _tlg_TAGS_INIT(__VA_ARGS__),                         \
                    _tlg_FIRST(__VA_ARGS__) _tlg_FOR(_tlg_P_MI, __VA_ARGS__)};                     \
      EVENT_DATA_DESCRIPTOR _tlgD[2 _tlg_FOR(_tlg_P_ND, __VA_ARGS__)];                             \
      ULONG _tlgN = 2;                                                                             \
      EVENT_DESCRIPTOR _tlgEd;                                                                     \
      _tlg_LAST_OF(_tlgOpcode1, _tlg_P_OPC, __VA_ARGS__);                                          \
      _tlg_LAST_OF(_tlgChannel1, _tlg_P_CHAN, __VA_ARGS__);                                        \
      _tlg_FOR(_tlg_P_DATA, __VA_ARGS__)                                                           \
          _tlgDescMeta(&_tlgD[0], _tlgProv->Traits, EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA); \
      _tlgDescMeta(&_tlgD[1], (const UINT8*)&_tlgMeta, EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA); \
      _tlgEd.Id = 0;                                                                               \
      _tlgEd.Version = 0;                                                                          \
      _tlgEd.Channel = (UCHAR)(_tlgChannel1 != 0 ? _tlgChannel1 - 1 : 11);                         \
      _tlgEd.Level = _tlgLevel;                                                                    \
      _tlgEd.Opcode = (UCHAR)(_tlgOpcode1 != 0 ? _tlgOpcode1 - 1 : 0);                             \
      _tlgEd.Task = 0;                                                                             \
      _tlgEd.Keyword = _tlgKeyword;                                                                \
      (void)_tlg_CALLX(send, (_tlgProv->RegHandle, &_tlgEd, _tlgN, _tlgD, _tlg_FLAT sendArgs));    \
    }                                                                                              \
  } while (0)

#ifdef __cplusplus
/* TraceLoggingValue(value, name?, description?, tags?): the field type follows from the
 * value's C++ type — bool (UInt8, Boolean), char (UInt8, String), char16_t (UInt16,
 * String), the integer types by size and sign, float, double, GUID, FILETIME, SYSTEMTIME,
 * `char*` (AnsiString), `char16_t*` (UnicodeString), any other pointer (HexInt64). */
#define TraceLoggingValue(...)                                                             \
  _tlg_CALL(_tlg_FIELD,                                                                    \
            (TVAL, UINT8, _tlgTypeOf<std::decay_t<decltype(_tlg_FIRST(__VA_ARGS__))>>::In, \
             _tlgTypeOf<std::decay_t<decltype(_tlg_FIRST(__VA_ARGS__))>>::Out, O1,         \
             _tlg_NDT(__VA_ARGS__), _tlg_FIRST(__VA_ARGS__), ~))
extern "C++" {
template <UINT8 in, UINT8 out>
struct _tlgType {
  static constexpr UINT8 In = in;
  static constexpr UINT8 Out = out;
};
template <class T>
struct _tlgTypeOf : _tlgType<sizeof(T) == 1   ? (std::is_signed_v<T> ? 3 : 4)
                             : sizeof(T) == 2 ? (std::is_signed_v<T> ? 5 : 6)
                             : sizeof(T) == 4 ? (std::is_signed_v<T> ? 7 : 8)
                                              : (std::is_signed_v<T> ? 9 : 10),
                             0> {
  static_assert(std::is_integral_v<T>, "TraceLoggingValue: no TraceLogging type for this type");
  static_assert(!std::is_same_v<T, wchar_t>,
                "TraceLoggingValue: wchar_t is 32-bit on Linux; use char16_t (u'x')");
};
template <>
struct _tlgTypeOf<bool> : _tlgType<4, 3> {};
template <>
struct _tlgTypeOf<char> : _tlgType<4, 2> {};
template <>
struct _tlgTypeOf<char16_t> : _tlgType<6, 2> {};
template <>
struct _tlgTypeOf<float> : _tlgType<11, 0> {};
template <>
struct _tlgTypeOf<double> : _tlgType<12, 0> {};
template <>
struct _tlgTypeOf<GUID> : _tlgType<15, 0> {};
template <>
struct _tlgTypeOf<FILETIME> : _tlgType<17, 0> {};
template <>
struct _tlgTypeOf<SYSTEMTIME> : _tlgType<18, 0> {};
template <class T>
struct _tlgTypeOf<T*> : _tlgType<21, 0> {
  static_assert(!std::is_same_v<std::remove_cv_t<T>, wchar_t>, _tlg_WCHAR_T_MSG);
};
template <>
struct _tlgTypeOf<char*> : _tlgType<2, 0> {};
template <>
struct _tlgTypeOf<const char*> : _tlgType<2, 0> {};
template <>
struct _tlgTypeOf<char16_t*> : _tlgType<1, 0> {};
template <>
struct _tlgTypeOf<const char16_t*> : _tlgType<1, 0> {};

template <class T>
inline void _tlgValueDesc(EVENT_DATA_DESCRIPTOR* d, const T& v) {
  static_assert(sizeof(T) == 8 || !std::is_pointer_v<T>, "pointers are 8 bytes");
  _tlgDescSet(d, static_cast<const void*>(&v), (ULONG)sizeof(T));
}
inline void _tlgValueDesc(EVENT_DATA_DESCRIPTOR* d, const char* v) { _tlgDescStr(d, v, 1); }
inline void _tlgValueDesc(EVENT_DATA_DESCRIPTOR* d, char* v) { _tlgDescStr(d, v, 1); }
inline void _tlgValueDesc(EVENT_DATA_DESCRIPTOR* d, const char16_t* v) { _tlgDescStr(d, v, 2); }
inline void _tlgValueDesc(EVENT_DATA_DESCRIPTOR* d, char16_t* v) { _tlgDescStr(d, v, 2); }
}
#endif

#endif /* PFC_ETW_TRACELOGGINGPROVIDER_H */
