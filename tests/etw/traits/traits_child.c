/* tests/etw/traits/traits_child.c — the processes of the etw.traits_* tests (traits.sh,
 * docs/etw.md "Provider traits"). `traits_child write` registers provider A
 * {00000700-0000-4000-8000-000000000001}, gives it traits (name "Pfc.Test.Traits", group
 * {11223344-5566-7788-99AA-BBCCDDEEFF00}) with EventSetInformation, registers provider B
 * {00000700-0000-4000-8000-000000000002} without traits, and writes events 1 and 2 of A and
 * 3 of B (a UInt32 payload each) into whatever session enables them. `traits_child read
 * FILE` prints per event of the log file its id, payload size, and the PROV_TRAITS item's
 * name and group read with EtwGetTraitFromProviderTraits ("none" without the item). */
#include <stdio.h>
#include <string.h>

#include "pfc/etw/evntcons.h"
#include "pfc/etw/evntprov.h"
#include "pfc/etw/evntrace.h"

static const GUID kA = {0x700, 0, 0x4000, {0x80, 0, 0, 0, 0, 0, 0, 1}};
static const GUID kB = {0x700, 0, 0x4000, {0x80, 0, 0, 0, 0, 0, 0, 2}};
static const UCHAR kTraits[] = {37,   0,    'P',  'f',  'c',  '.',  'T',  'e',  's',  't',
                                '.',  'T',  'r',  'a',  'i',  't',  's',  0,    19,   0,
                                1,    0x44, 0x33, 0x22, 0x11, 0x66, 0x55, 0x88, 0x77, 0x99,
                                0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF, 0x00};

static int write_one(REGHANDLE h, USHORT id, ULONG value) {
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, id, 0, 0, 4, 0, 0, 0);
  EVENT_DATA_DESCRIPTOR data;
  EventDataDescCreate(&data, &value, sizeof value);
  const ULONG rc = EventWrite(h, &d, 1, &data);
  if (rc != 0) fprintf(stderr, "EventWrite %u failed with %lu\n", id, (unsigned long)rc);
  return rc == 0;
}

static int write_events(void) {
  REGHANDLE a = 0, b = 0;
  if (EventRegister(&kA, NULL, NULL, &a) != 0 || EventRegister(&kB, NULL, NULL, &b) != 0) {
    fprintf(stderr, "EventRegister failed\n");
    return 1;
  }
  const ULONG rc = EventSetInformation(a, EventProviderSetTraits, (PVOID)kTraits, sizeof kTraits);
  if (rc != 0) {
    fprintf(stderr, "EventSetInformation failed with %lu\n", (unsigned long)rc);
    return 1;
  }
  const int ok = write_one(a, 1, 10) && write_one(a, 2, 20) && write_one(b, 3, 30);
  EventUnregister(a);
  EventUnregister(b);
  return ok ? 0 : 1;
}

static void WINAPI print_event(PEVENT_RECORD r) {
  printf("id=%u size=%u", r->EventHeader.EventDescriptor.Id, r->UserDataLength);
  const EVENT_HEADER_EXTENDED_DATA_ITEM* item = NULL;
  for (USHORT i = 0; i < r->ExtendedDataCount; ++i)
    if (r->ExtendedData[i].ExtType == EVENT_HEADER_EXT_TYPE_PROV_TRAITS) item = &r->ExtendedData[i];
  if (item == NULL) {
    printf(" traits=none\n");
    return;
  }
  const char* blob = (const char*)(uintptr_t)item->DataPtr;
  printf(" traits=%u name=%s", item->DataSize, blob + 2);
  PVOID trait = NULL;
  USHORT size = 0;
  EtwGetTraitFromProviderTraits((PVOID)blob, EtwProviderTraitTypeGroup, &trait, &size);
  if (trait != NULL && size == sizeof(GUID)) {
    GUID g; /* the blob is packed: the trait's data has no alignment */
    memcpy(&g, trait, sizeof g);
    printf(" group={%08X-%04X-%04X-%02X%02X-%02X%02X%02X%02X%02X%02X}", (unsigned)g.Data1, g.Data2,
           g.Data3, g.Data4[0], g.Data4[1], g.Data4[2], g.Data4[3], g.Data4[4], g.Data4[5],
           g.Data4[6], g.Data4[7]);
  }
  printf("\n");
}

static int read_file(const char* path) {
  WCHAR name[512];
  size_t n = strlen(path);
  if (n >= 512) return 1;
  for (size_t i = 0; i <= n; ++i) name[i] = (WCHAR)(unsigned char)path[i];
  EVENT_TRACE_LOGFILEW f;
  memset(&f, 0, sizeof f);
  f.LogFileName = name;
  f.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
  f.EventRecordCallback = print_event;
  TRACEHANDLE h = OpenTraceW(&f);
  if (h == INVALID_PROCESSTRACE_HANDLE) {
    fprintf(stderr, "OpenTraceW failed with %lu\n", (unsigned long)GetLastError());
    return 1;
  }
  const ULONG rc = ProcessTrace(&h, 1, NULL, NULL);
  CloseTrace(h);
  if (rc != 0) fprintf(stderr, "ProcessTrace failed with %lu\n", (unsigned long)rc);
  return rc == 0 ? 0 : 1;
}

int main(int argc, char** argv) {
  if (argc == 2 && strcmp(argv[1], "write") == 0) return write_events();
  if (argc == 3 && strcmp(argv[1], "read") == 0) return read_file(argv[2]);
  fprintf(stderr, "usage: traits_child write | read FILE\n");
  return 2;
}
