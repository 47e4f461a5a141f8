/* tests/etw/provider_info_test.c — EventSetInformation and TraceLoggingSetInformation
 * (docs/etw.md "Provider traits"), following Microsoft's pages:
 * - EventSetInformation (learn.microsoft.com/windows/win32/api/evntprov/
 *   nf-evntprov-eventsetinformation): ERROR_SUCCESS; ERROR_INVALID_PARAMETER for a handle
 *   that is not a provider registration, NULL EventInformation with a nonzero length, or a
 *   length the class refuses; ERROR_NOT_SUPPORTED for a class it does not recognize.
 * - EVENT_INFO_CLASS (…/api/evntprov/ne-evntprov-event_info_class): ETW ignores a data
 *   descriptor's Type (reads it as 0) unless EventProviderSetTraits or
 *   EventProviderUseDescriptorType (a BOOLEAN) said otherwise.
 * - Provider Traits (learn.microsoft.com/windows/win32/etw/provider-traits): the blob is
 *   UINT16 size, the NUL-terminated UTF-8 name, traits of UINT16 size, UINT8 type, data
 *   (type 1: the group GUID); traits are set once per registration and "included in every
 *   event written for the provider" (EVENT_HEADER_EXT_TYPE_PROV_TRAITS).
 * - TraceLoggingSetInformation (…/api/traceloggingprovider/
 *   nf-traceloggingprovider-traceloggingsetinformation): EventSetInformation's result as an
 *   HRESULT; the provider must be registered. */
#define _GNU_SOURCE
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "etw_test.h"
#include "etw_util.h"
#include "pfc/etw/TraceLoggingProvider.h"

/* {00000600-0000-4000-8000-000000000001}, test_guid(0x600, 1). */
TRACELOGGING_DEFINE_PROVIDER(g_tlg_info, "Pfc.Test.SetInformation",
                             (0x00000600, 0, 0x4000, 0x80, 0, 0, 0, 0, 0, 0, 0x01));

/* Traits "Pfc.Test.Traits" with the group {11223344-5566-7788-99AA-BBCCDDEEFF00}. */
static const UCHAR kTraits[] = {37,   0,    'P',  'f',  'c',  '.',  'T',  'e',  's',  't',
                                '.',  'T',  'r',  'a',  'i',  't',  's',  0,    19,   0,
                                1,    0x44, 0x33, 0x22, 0x11, 0x66, 0x55, 0x88, 0x77, 0x99,
                                0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF, 0x00};
static const GUID kGroup = {
    0x11223344, 0x5566, 0x7788, {0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF, 0x00}};

/* `size` bytes of `blob` copied to the very end of a readable page followed by one that is
 * not: a read past the blob faults. Freed by guarded_free. */
static UCHAR* guarded_copy(const void* blob, size_t size) {
  const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  UCHAR* p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(p != MAP_FAILED);
  CHECK_EQ(mprotect(p + page, page, PROT_NONE), 0);
  memcpy(p + page - size, blob, size);
  return p + page - size;
}
static void guarded_free(UCHAR* at) {
  const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  UCHAR* base = (UCHAR*)((uintptr_t)at & ~(uintptr_t)(page - 1));
  if ((uintptr_t)at % page == 0) base -= page; /* a 0-byte copy sits at the page's end */
  munmap(base, 2 * page);
}

static ULONG legacy_noop_callback(WMIDPREQUESTCODE code, PVOID context, ULONG* size, PVOID buffer) {
  (void)code, (void)context, (void)size, (void)buffer;
  return ERROR_SUCCESS;
}

static ULONG set_traits(REGHANDLE h, const void* blob, size_t size) {
  UCHAR* copy = guarded_copy(blob, size);
  const ULONG rc = EventSetInformation(h, EventProviderSetTraits, copy, (ULONG)size);
  guarded_free(copy);
  return rc;
}

TEST(set_information_classes_and_handles) {
  GUID g = test_guid(0x601, 1);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), 0);
  BOOLEAN yes = TRUE;
  /* Classes other than the two: ERROR_NOT_SUPPORTED, whatever the other arguments. */
  CHECK_EQ(EventSetInformation(h, EventProviderBinaryTrackInfo, NULL, 0), ERROR_NOT_SUPPORTED);
  CHECK_EQ(EventSetInformation(h, EventProviderSetReserved1, NULL, 0), ERROR_NOT_SUPPORTED);
  CHECK_EQ(EventSetInformation(h, MaxEventInfo, &yes, 1), ERROR_NOT_SUPPORTED);
  CHECK_EQ(EventSetInformation(h, (EVENT_INFO_CLASS)77, &yes, 1), ERROR_NOT_SUPPORTED);
  CHECK_EQ(EventSetInformation(0, (EVENT_INFO_CLASS)-1, NULL, 0), ERROR_NOT_SUPPORTED);
  /* NULL EventInformation with a nonzero length. */
  CHECK_EQ(EventSetInformation(h, EventProviderUseDescriptorType, NULL, 1),
           ERROR_INVALID_PARAMETER);
  CHECK_EQ(EventSetInformation(h, EventProviderSetTraits, NULL, sizeof kTraits),
           ERROR_INVALID_PARAMETER);
  /* Handles that are not a live EventRegister registration. */
  CHECK_EQ(EventSetInformation(0, EventProviderUseDescriptorType, &yes, 1),
           ERROR_INVALID_PARAMETER);
  CHECK_EQ(EventSetInformation(h ^ 0x10000, EventProviderUseDescriptorType, &yes, 1),
           ERROR_INVALID_PARAMETER);
  TRACEHANDLE legacy = 0;
  TRACE_GUID_REGISTRATION reg = {&g, NULL};
  CHECK_EQ(RegisterTraceGuidsW(legacy_noop_callback, NULL, &g, 1, &reg, NULL, NULL, &legacy), 0);
  CHECK_EQ(EventSetInformation(legacy, EventProviderUseDescriptorType, &yes, 1),
           ERROR_INVALID_PARAMETER);
  CHECK_EQ(UnregisterTraceGuids(legacy), 0);
  /* EventProviderUseDescriptorType takes a BOOLEAN: one byte. */
  CHECK_EQ(EventSetInformation(h, EventProviderUseDescriptorType, NULL, 0),
           ERROR_INVALID_PARAMETER);
  ULONG wide = 1;
  CHECK_EQ(EventSetInformation(h, EventProviderUseDescriptorType, &wide, sizeof wide),
           ERROR_INVALID_PARAMETER);
  CHECK_EQ(EventSetInformation(h, EventProviderUseDescriptorType, &yes, 1), ERROR_SUCCESS);
  CHECK_EQ(EventUnregister(h), 0);
  CHECK_EQ(EventSetInformation(h, EventProviderUseDescriptorType, &yes, 1),
           ERROR_INVALID_PARAMETER);
}

/* Every malformed blob is refused with ERROR_INVALID_PARAMETER and read only inside its
 * length (each sits at the end of a readable page); the good one is taken once. */
TEST(set_traits_validates_the_blob) {
  GUID g = test_guid(0x602, 1);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), 0);
  static const struct {
    UCHAR bytes[48];
    size_t size;
  } bad[] = {
      {{0}, 0},                           /* empty */
      {{2, 0}, 2},                        /* no name */
      {{3, 0, 'P'}, 3},                   /* a name without its NUL */
      {{5, 0, 'P', 0, 0}, 4},             /* the size word larger than the length */
      {{3, 0, 'P', 0}, 4},                /* the size word smaller */
      {{4, 0, 0xC3, 0}, 4},               /* a name that is not UTF-8 */
      {{5, 0, 'P', 0, 3}, 5},             /* a trait cut in its size word */
      {{6, 0, 'P', 0, 2, 0}, 6},          /* a trait of fewer than 3 bytes */
      {{7, 0, 'P', 0, 9, 0, 1}, 7},       /* a trait running past the blob */
      {{9, 0, 'P', 0, 5, 0, 1, 1, 2}, 9}, /* a group trait that is no GUID */
      {{8, 0, 'P', 0, 5, 0, 200, 7}, 8},  /* the last trait cut by the blob's end */
      {{8, 0, 'P', 0, 3, 0, 200, 0}, 8},  /* a trait, then a stray byte */
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    if (set_traits(h, bad[i].bytes, bad[i].size) != ERROR_INVALID_PARAMETER) {
      char what[64];
      snprintf(what, sizeof what, "bad traits blob %zu accepted", i);
      etw_test_fail(__FILE__, __LINE__, what);
    }
  }
  /* A length of more than 0xFFFF bytes cannot match the size word. */
  CHECK_EQ(EventSetInformation(h, EventProviderSetTraits, (PVOID)kTraits, 0x10000 + 37),
           ERROR_INVALID_PARAMETER);
  /* A custom trait (128..255) of any size, and the name alone, are fine. */
  const UCHAR custom[] = {9, 0, 'P', 0, 5, 0, 200, 1, 2};
  CHECK_EQ(set_traits(h, custom, sizeof custom), ERROR_SUCCESS);
  /* Once per registration. */
  CHECK_EQ(set_traits(h, kTraits, sizeof kTraits), ERROR_ALREADY_EXISTS);
  CHECK_EQ(EventUnregister(h), 0);
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), 0);
  const UCHAR name_only[] = {4, 0, 'P', 0};
  CHECK_EQ(set_traits(h, name_only, sizeof name_only), ERROR_SUCCESS);
  CHECK_EQ(EventUnregister(h), 0);
}

/* What the consumer saw of one event: its payload size and its items. */
typedef struct {
  int count;
  struct {
    USHORT size;
    USHORT flags;
    USHORT traits_size; /* 0: no PROV_TRAITS item */
    UCHAR traits[64];
    int schema_tl; /* an EVENT_SCHEMA_TL item */
  } e[8];
} Items;

static void WINAPI collect_items(PEVENT_RECORD r) {
  Items* it = (Items*)r->UserContext;
  if (it->count >= 8) return;
  int i = it->count++;
  it->e[i].size = r->UserDataLength;
  it->e[i].flags = r->EventHeader.Flags;
  it->e[i].traits_size = 0;
  it->e[i].schema_tl = 0;
  for (USHORT k = 0; k < r->ExtendedDataCount; ++k) {
    const EVENT_HEADER_EXTENDED_DATA_ITEM* x = &r->ExtendedData[k];
    if (x->ExtType == EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL) it->e[i].schema_tl = 1;
    if (x->ExtType == EVENT_HEADER_EXT_TYPE_PROV_TRAITS && x->DataSize <= 64) {
      it->e[i].traits_size = x->DataSize;
      memcpy(it->e[i].traits, (const void*)(uintptr_t)x->DataPtr, x->DataSize);
    }
  }
}

/* A provider's traits reach the consumer with every event as its PROV_TRAITS item, the
 * payload unchanged; another provider's events carry none. A payload too large to carry
 * them as well in one record (docs/etw.md "Provider traits") is delivered without them. */
TEST(traits_reach_the_consumer_with_every_event) {
  GUID g = test_guid(0x603, 1), plain = test_guid(0x603, 2);
  REGHANDLE h, p;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), 0);
  CHECK_EQ(EventRegister(&plain, NULL, NULL, &p), 0);
  CHECK_EQ(EventSetInformation(h, EventProviderSetTraits, (PVOID)kTraits, sizeof kTraits), 0);
  TRACEHANDLE s = start_session(u"pi_traits");
  Items got = {0};
  TRACEHANDLE r = open_consumer_with(u"pi_traits", collect_items, &got);
  CHECK_EQ(EnableTraceEx2(s, &g, 1, TRACE_LEVEL_VERBOSE, 0, 0, INFINITE, NULL), 0);
  CHECK_EQ(EnableTraceEx2(s, &plain, 1, TRACE_LEVEL_VERBOSE, 0, 0, INFINITE, NULL), 0);
  CHECK_EQ(write_event(h, 1, 4, 0, 0xAABBCCDD), 0);
  CHECK_EQ(write_event(p, 2, 4, 0, 7), 0);
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, 3, 0, 0, 4, 0, 0, 0);
  CHECK_EQ(EventWrite(h, &d, 0, NULL), 0); /* no payload: the item all the same */
  static UCHAR big[0xFFFF - 80];
  EVENT_DATA_DESCRIPTOR data;
  EventDataDescCreate(&data, big, sizeof big);
  CHECK_EQ(EventWrite(h, &d, 1, &data), 0);
  EventDataDescCreate(&data, big, sizeof big - sizeof kTraits - 4); /* just fits */
  CHECK_EQ(EventWrite(h, &d, 1, &data), 0);
  stop_session(s);
  drain(r);
  CHECK_EQ(got.count, 5);
  CHECK_EQ(got.e[0].size, 4);
  CHECK_EQ(got.e[0].traits_size, sizeof kTraits);
  CHECK(memcmp(got.e[0].traits, kTraits, sizeof kTraits) == 0);
  CHECK(got.e[0].flags & EVENT_HEADER_FLAG_EXTENDED_INFO);
  CHECK(!got.e[0].schema_tl);
  CHECK_EQ(got.e[1].size, 4);
  CHECK_EQ(got.e[1].traits_size, 0);
  CHECK(!(got.e[1].flags & EVENT_HEADER_FLAG_EXTENDED_INFO));
  CHECK_EQ(got.e[2].size, 0);
  CHECK_EQ(got.e[2].traits_size, sizeof kTraits);
  CHECK_EQ(got.e[3].size, sizeof big);
  CHECK_EQ(got.e[3].traits_size, 0);
  CHECK_EQ(got.e[4].size, sizeof big - sizeof kTraits - 4);
  CHECK_EQ(got.e[4].traits_size, sizeof kTraits);
  /* The group, read as Windows' evntcons.h helper reads it. */
  PVOID trait = NULL;
  USHORT size = 0;
  EtwGetTraitFromProviderTraits(got.e[0].traits, EtwProviderTraitTypeGroup, &trait, &size);
  CHECK_EQ(size, sizeof(GUID));
  CHECK(trait != NULL && memcmp(trait, &kGroup, sizeof kGroup) == 0);
  EtwGetTraitFromProviderTraits(got.e[0].traits, EtwProviderTraitDecodeGuid, &trait, &size);
  CHECK(trait == NULL);
  CHECK_EQ(size, 0);
  CHECK_EQ(EventUnregister(h), 0);
  CHECK_EQ(EventUnregister(p), 0);
}

/* EtwGetTraitFromProviderTraits stops at a trait that is too small or overruns the size
 * its first word gives, and reads nothing past that size. */
TEST(get_trait_stays_inside_the_blob) {
  PVOID trait = (PVOID)1;
  USHORT size = 1;
  const UCHAR small[] = {7, 0, 'P', 0, 2, 0, 1};
  UCHAR* at = guarded_copy(small, sizeof small);
  EtwGetTraitFromProviderTraits(at, 1, &trait, &size);
  CHECK(trait == NULL);
  CHECK_EQ(size, 0);
  guarded_free(at);
  const UCHAR over[] = {8, 0, 'P', 0, 9, 0, 1, 5};
  at = guarded_copy(over, sizeof over);
  EtwGetTraitFromProviderTraits(at, 1, &trait, &size);
  CHECK(trait == NULL);
  guarded_free(at);
  const UCHAR unterminated[] = {4, 0, 'P', 'Q'};
  at = guarded_copy(unterminated, sizeof unterminated);
  EtwGetTraitFromProviderTraits(at, 1, &trait, &size);
  CHECK(trait == NULL);
  guarded_free(at);
  /* A 65,535-byte name without its NUL: no trait, none found by wrapping around. */
  static UCHAR longest[0xFFFF];
  memset(longest, 200, sizeof longest);
  longest[0] = longest[1] = 0xFF;
  EtwGetTraitFromProviderTraits(longest, 200, &trait, &size);
  CHECK(trait == NULL);
  const UCHAR second[] = {11, 0, 'P', 0, 3, 0, 200, 4, 0, 1, 9};
  at = guarded_copy(second, sizeof second);
  EtwGetTraitFromProviderTraits(at, 1, &trait, &size);
  CHECK(trait == at + 10);
  CHECK_EQ(size, 1);
  guarded_free(at);
}

/* A TraceLogging event metadata blob naming event "E" with no fields. */
static const UCHAR kMeta[] = {5, 0, 0, 'E', 0};

/* Writes one event whose first descriptor is typed EVENT_METADATA. */
static void write_typed(REGHANDLE h) {
  const ULONG value = 9;
  EVENT_DATA_DESCRIPTOR data[2];
  EventDataDescCreate(&data[0], kMeta, sizeof kMeta);
  data[0].Type = EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA;
  EventDataDescCreate(&data[1], &value, sizeof value);
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, 0, 0, 11, 4, 0, 0, 0);
  CHECK_EQ(EventWrite(h, &d, 2, data), 0);
}

/* The descriptors' Type is read as 0 (the bytes are payload) until
 * EventProviderUseDescriptorType TRUE, and again after FALSE. */
TEST(descriptor_type_counts_only_when_set) {
  GUID g = test_guid(0x604, 1);
  REGHANDLE h;
  CHECK_EQ(EventRegister(&g, NULL, NULL, &h), 0);
  TRACEHANDLE s = start_session(u"pi_types");
  Items got = {0};
  TRACEHANDLE r = open_consumer_with(u"pi_types", collect_items, &got);
  CHECK_EQ(EnableTraceEx2(s, &g, 1, TRACE_LEVEL_VERBOSE, 0, 0, INFINITE, NULL), 0);
  write_typed(h);
  BOOLEAN on = TRUE, off = FALSE;
  CHECK_EQ(EventSetInformation(h, EventProviderUseDescriptorType, &on, 1), 0);
  write_typed(h);
  CHECK_EQ(EventSetInformation(h, EventProviderUseDescriptorType, &off, 1), 0);
  write_typed(h);
  stop_session(s);
  drain(r);
  CHECK_EQ(got.count, 3);
  CHECK_EQ(got.e[0].size, sizeof kMeta + 4);
  CHECK(!got.e[0].schema_tl);
  CHECK_EQ(got.e[1].size, 4);
  CHECK(got.e[1].schema_tl);
  CHECK_EQ(got.e[2].size, sizeof kMeta + 4);
  CHECK(!got.e[2].schema_tl);
  CHECK_EQ(EventUnregister(h), 0);
}

/* TraceLoggingSetInformation forwards to EventSetInformation on the provider's handle;
 * TraceLoggingRegister has set the provider's traits already. */
TEST(tracelogging_set_information_forwards) {
  BOOLEAN on = TRUE;
  CHECK_EQ(TraceLoggingSetInformation(g_tlg_info, EventProviderUseDescriptorType, &on, 1),
           HRESULT_FROM_WIN32(ERROR_INVALID_PARAMETER)); /* not registered */
  CHECK_EQ(TraceLoggingRegister(g_tlg_info), S_OK);
  CHECK_EQ(TraceLoggingSetInformation(g_tlg_info, EventProviderUseDescriptorType, &on, 1), S_OK);
  CHECK_EQ(TraceLoggingSetInformation(g_tlg_info, EventProviderSetTraits, (PVOID)kTraits,
                                      sizeof kTraits),
           HRESULT_FROM_WIN32(ERROR_ALREADY_EXISTS));
  CHECK_EQ(TraceLoggingSetInformation(g_tlg_info, EventProviderBinaryTrackInfo, NULL, 0),
           HRESULT_FROM_WIN32(ERROR_NOT_SUPPORTED));
  CHECK_EQ(TraceLoggingSetInformation(g_tlg_info, EventProviderUseDescriptorType, &on, 2),
           HRESULT_FROM_WIN32(ERROR_INVALID_PARAMETER));
  TraceLoggingUnregister(g_tlg_info);
}
