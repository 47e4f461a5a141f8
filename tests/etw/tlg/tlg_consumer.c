/* tests/tlg/tlg_consumer.c — the reading process of the tlg.roundtrip_* tests
 * (roundtrip.sh): decodes TraceLogging events with TDH alone, as Windows consumers do (no
 * manifest; docs/etw.md "TraceLogging"). `tlg_consumer LOGFILE` reads a log file;
 * `tlg_consumer --session NAME READY` opens the real-time session NAME, creates READY and
 * reads until the session stops. Per event it prints the descriptor, the extended items,
 * the provider traits after the name, TdhGetEventInformation's names and every property
 * (structure members indented, array elements indexed, a custom schema in hex) formatted
 * with TdhFormatProperty, and for a few properties what
 * TdhGetPropertySize / TdhGetProperty return. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pfc/etw/evntcons.h"
#include "pfc/etw/evntrace.h"
#include "pfc/etw/tdh.h"
#include "tests/utf16_out.h"

static int g_failed = 0;

static void indent(int depth) {
  for (int i = 0; i < depth; ++i) printf("  ");
}

/* Prints one element of non-structure property p at *data; false on failure. */
static int print_value(PTRACE_EVENT_INFO info, const EVENT_PROPERTY_INFO* p, PBYTE* data,
                       PBYTE end) {
  ULONG size = 0;
  USHORT used = 0;
  WCHAR* text = NULL;
  ULONG rc = TdhFormatProperty(info, NULL, 8, p->nonStructType.InType, p->nonStructType.OutType,
                               p->length, (USHORT)(end - *data), *data, &size, NULL, &used);
  if (rc == ERROR_INSUFFICIENT_BUFFER) {
    text = (WCHAR*)malloc(size);
    rc = text == NULL
             ? ERROR_OUTOFMEMORY
             : TdhFormatProperty(info, NULL, 8, p->nonStructType.InType, p->nonStructType.OutType,
                                 p->length, (USHORT)(end - *data), *data, &size, text, &used);
  }
  if (rc != ERROR_SUCCESS) {
    printf("TdhFormatProperty failed with %lu: %s\n", (unsigned long)rc,
           PfcTdhGetLastErrorMessage());
    free(text);
    return 0;
  }
  put16(text);
  putchar('\n');
  *data += used;
  free(text);
  return 1;
}

/* Prints property i and its elements (members of structures at depth + 1). */
static int print_property(PTRACE_EVENT_INFO info, USHORT i, PBYTE* data, PBYTE end, int depth) {
  const EVENT_PROPERTY_INFO* p = &info->EventPropertyInfoArray[i];
  ULONG count = 1;
  if (p->Flags & PropertyParamFixedCount) count = p->count;
  if (p->Flags & PropertyParamCount) {
    if (p->countPropertyIndex != i || end - *data < 2) return 0;
    count = (ULONG)((*data)[0] | (*data)[1] << 8); /* the UINT16 before the elements */
    *data += 2;
  }
  indent(depth);
  put16(at(info, p->NameOffset));
  if (p->Flags & PropertyStruct) {
    printf(" {%u members", p->structType.NumOfStructMembers);
  } else {
    printf(" (in %u, out %u", p->nonStructType.InType, p->nonStructType.OutType);
  }
  if (p->Flags & (PropertyParamCount | PropertyParamFixedCount))
    printf(", %s count %lu", (p->Flags & PropertyParamCount) ? "variable" : "fixed",
           (unsigned long)count);
  if (p->Flags & PropertyHasTags) printf(", tags 0x%X", (unsigned)p->Tags);
  if (p->Flags & PropertyHasCustomSchema) { /* UINT16 protocol, UINT16 size, the schema */
    const BYTE* c = (const BYTE*)info + p->customSchemaType.CustomSchemaOffset;
    const unsigned n = c[2] | c[3] << 8;
    printf(", custom protocol %u schema", c[0] | c[1] << 8);
    for (unsigned k = 0; k < n; ++k) printf(" %02X", c[4 + k]);
  }
  printf(p->Flags & PropertyStruct ? "}\n" : ")\n");
  for (ULONG k = 0; k < count; ++k) {
    if (p->Flags & PropertyStruct) {
      for (USHORT m = 0; m < p->structType.NumOfStructMembers; ++m)
        if (!print_property(info, (USHORT)(p->structType.StructStartIndex + m), data, end,
                            depth + 1))
          return 0;
    } else {
      indent(depth + 1);
      if (count != 1 || (p->Flags & (PropertyParamCount | PropertyParamFixedCount)))
        printf("[%lu] ", (unsigned long)k);
      if (!print_value(info, p, data, end)) return 0;
    }
  }
  return 1;
}

/* Prints what TdhGetPropertySize and TdhGetProperty say of `name` (element `index`). */
static void print_lookup(PEVENT_RECORD ev, const WCHAR* name, const char* label, ULONG index) {
  PROPERTY_DATA_DESCRIPTOR d;
  memset(&d, 0, sizeof d);
  d.PropertyName = (ULONGLONG)(ULONG_PTR)name;
  d.ArrayIndex = index;
  ULONG size = 0;
  BYTE bytes[64];
  ULONG rc = TdhGetPropertySize(ev, 0, NULL, 1, &d, &size);
  if (rc == ERROR_SUCCESS && size <= sizeof bytes)
    rc = TdhGetProperty(ev, 0, NULL, 1, &d, size, bytes);
  printf("  lookup %s: ", label);
  if (rc != ERROR_SUCCESS) {
    printf("error %lu\n", (unsigned long)rc);
    return;
  }
  printf("%lu bytes", (unsigned long)size);
  for (ULONG i = 0; i < size && i < sizeof bytes; ++i) printf(" %02X", bytes[i]);
  putchar('\n');
}

static int same16(const WCHAR* a, const WCHAR* b) {
  while (*a != 0 && *a == *b) ++a, ++b;
  return *a == *b;
}

static void print_guid(const char* label, const GUID* g) {
  printf("  %s: %08X-%04X-%04X\n", label, (unsigned)g->Data1, g->Data2, g->Data3);
}

/* The provider traits item after its name: each trait's type and bytes. */
static void print_traits(PEVENT_RECORD ev) {
  for (USHORT i = 0; i < ev->ExtendedDataCount; ++i) {
    const EVENT_HEADER_EXTENDED_DATA_ITEM* e = &ev->ExtendedData[i];
    if (e->ExtType != EVENT_HEADER_EXT_TYPE_PROV_TRAITS) continue;
    const BYTE* p = (const BYTE*)(ULONG_PTR)e->DataPtr;
    size_t at = 2 + strlen((const char*)p + 2) + 1;
    while (at + 3 <= e->DataSize) {
      const unsigned size = p[at] | p[at + 1] << 8;
      printf("  trait %u:", p[at + 2]);
      for (unsigned k = 3; k < size && at + k < e->DataSize; ++k) printf(" %02X", p[at + k]);
      putchar('\n');
      at += size < 3 ? 3 : size;
    }
  }
}

static void WINAPI on_event(PEVENT_RECORD ev) {
  const EVENT_DESCRIPTOR* d = &ev->EventHeader.EventDescriptor;
  int traits = 0, schema = 0;
  for (USHORT i = 0; i < ev->ExtendedDataCount; ++i) {
    if (ev->ExtendedData[i].ExtType == EVENT_HEADER_EXT_TYPE_PROV_TRAITS) ++traits;
    if (ev->ExtendedData[i].ExtType == EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL) ++schema;
  }
  ULONG size = 0;
  ULONG rc = TdhGetEventInformation(ev, 0, NULL, NULL, &size);
  PTRACE_EVENT_INFO info = rc == ERROR_INSUFFICIENT_BUFFER ? (PTRACE_EVENT_INFO)malloc(size) : NULL;
  if (info != NULL) rc = TdhGetEventInformation(ev, 0, NULL, info, &size);
  if (info == NULL || rc != ERROR_SUCCESS) {
    printf("TdhGetEventInformation failed with %lu: %s\n", (unsigned long)rc,
           PfcTdhGetLastErrorMessage());
    g_failed = 1;
    free(info);
    return;
  }
  printf("Event: ");
  put16(at(info, info->EventNameOffset));
  printf(" (%s)\n", info->DecodingSource == DecodingSourceTlg ? "DecodingSourceTlg" : "other");
  printf("  Provider: ");
  put16(at(info, info->ProviderNameOffset));
  printf("\n  id %u version %u channel %u level %u opcode %u task %u keyword 0x%llX\n", d->Id,
         d->Version, d->Channel, d->Level, d->Opcode, d->Task, (unsigned long long)d->Keyword);
  printf("  items: traits %d, schema %d; tags 0x%X; %lu of %lu properties at top level; %u bytes\n",
         traits, schema, (unsigned)info->Tags, (unsigned long)info->TopLevelPropertyCount,
         (unsigned long)info->PropertyCount, ev->UserDataLength);
  print_traits(ev);
  static const GUID none;
  if (memcmp(&ev->EventHeader.ActivityId, &none, sizeof none) != 0)
    print_guid("activity", &ev->EventHeader.ActivityId);
  for (USHORT i = 0; i < ev->ExtendedDataCount; ++i)
    if (ev->ExtendedData[i].ExtType == EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID)
      print_guid("related", (const GUID*)(ULONG_PTR)ev->ExtendedData[i].DataPtr);
  PBYTE data = (PBYTE)ev->UserData, end = data + ev->UserDataLength;
  for (USHORT i = 0; i < info->TopLevelPropertyCount; ++i) {
    if (!print_property(info, i, &data, end, 1)) {
      g_failed = 1;
      break;
    }
  }
  if (data != end) {
    printf("  the properties did not take the event's %u bytes\n", ev->UserDataLength);
    g_failed = 1;
  }
  if (same16(at(info, info->EventNameOffset), u"Arrays")) {
    print_lookup(ev, u"Ints", "Ints", 0xFFFFFFFFu);
    print_lookup(ev, u"Ints", "Ints[2]", 2);
    print_lookup(ev, u"Fixed", "Fixed[1]", 1);
    print_lookup(ev, u"Chars", "Chars[3]", 3);
    print_lookup(ev, u"Nope", "Nope", 0xFFFFFFFFu);
  }
  free(info);
}

static void widen(const char* s, WCHAR* out) {
  size_t i = 0;
  for (; s[i] != 0 && i < 1023; ++i) out[i] = (unsigned char)s[i];
  out[i] = 0;
}

int main(int argc, char** argv) {
  const int session = argc == 4 && strcmp(argv[1], "--session") == 0;
  if (!session && argc != 2) {
    fprintf(stderr, "usage: tlg_consumer LOGFILE | --session NAME READY\n");
    return 2;
  }
  WCHAR name[1024] = {0};
  widen(argv[session ? 2 : 1], name);
  EVENT_TRACE_LOGFILEW trace;
  memset(&trace, 0, sizeof trace);
  if (session) {
    trace.LoggerName = name;
    trace.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD | PROCESS_TRACE_MODE_REAL_TIME;
  } else {
    trace.LogFileName = name;
    trace.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
  }
  trace.EventRecordCallback = on_event;
  TRACEHANDLE h = OpenTraceW(&trace);
  if (h == INVALID_PROCESSTRACE_HANDLE) {
    fprintf(stderr, "OpenTrace failed with %lu\n", (unsigned long)GetLastError());
    return 1;
  }
  if (session) {
    FILE* ready = fopen(argv[3], "w");
    if (ready == NULL) {
      CloseTrace(h);
      return 1;
    }
    fclose(ready);
  }
  ULONG rc = ProcessTrace(&h, 1, NULL, NULL);
  CloseTrace(h);
  if (rc != ERROR_SUCCESS) {
    fprintf(stderr, "ProcessTrace failed with %lu\n", (unsigned long)rc);
    return 1;
  }
  return g_failed;
}
