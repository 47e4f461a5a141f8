/* tests/tdh_api/tdh_decode_consumer.c — the reading process of the tdh_api.decode_* tests
 * (decode.sh): a consumer written the way Windows ETW consumers decode events (docs/etw.md "TDH
 * decoding"). `tdh_decode_consumer LOGFILE [MANIFEST]` loads MANIFEST, when given, with
 * TdhLoadManifest (else the log file's recorded schemas decode) and opens LOGFILE with OpenTrace;
 * `tdh_decode_consumer --session NAME READY` opens the real-time session NAME (its published
 * schemas decode), creates the file READY once it is open, and reads until the session stops. For
 * every event it prints TdhGetEventInformation's names and each top-level property formatted with
 * TdhFormatProperty: lengths and array sizes from other properties read with
 * TdhGetPropertySize / TdhGetProperty, maps from TdhGetEventMapInformation with the
 * trailing space of manifest map texts removed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pfc/etw/evntcons.h"
#include "pfc/etw/evntrace.h"
#include "pfc/etw/tdh.h"
#include "tests/utf16_out.h"

static int g_failed = 0;

static void line(const char* label, const WCHAR* text) {
  printf("%s: ", label);
  put16(text != NULL ? text : (const WCHAR*)u"-");
  putchar('\n');
}

/* The value of the scalar integer property `index` (a length or a count). */
static ULONG value_of(PEVENT_RECORD ev, PTRACE_EVENT_INFO info, USHORT index, ULONG* out) {
  PROPERTY_DATA_DESCRIPTOR d;
  memset(&d, 0, sizeof d);
  d.PropertyName = (ULONGLONG)(ULONG_PTR)at(info, info->EventPropertyInfoArray[index].NameOffset);
  d.ArrayIndex = 0xFFFFFFFFu;
  ULONG size = 0;
  ULONG rc = TdhGetPropertySize(ev, 0, NULL, 1, &d, &size);
  if (rc != ERROR_SUCCESS) return rc;
  if (size > sizeof *out) return ERROR_INVALID_DATA;
  *out = 0;
  return TdhGetProperty(ev, 0, NULL, 1, &d, size, (PBYTE)out);
}

/* The map of property i, its texts without Windows' trailing space, or NULL. */
static PEVENT_MAP_INFO map_of(PEVENT_RECORD ev, PTRACE_EVENT_INFO info, USHORT i) {
  ULONG name = info->EventPropertyInfoArray[i].nonStructType.MapNameOffset;
  if (name == 0) return NULL;
  ULONG size = 0;
  if (TdhGetEventMapInformation(ev, (PWSTR)at(info, name), NULL, &size) !=
      ERROR_INSUFFICIENT_BUFFER)
    return NULL;
  PEVENT_MAP_INFO map = (PEVENT_MAP_INFO)malloc(size);
  if (map == NULL || TdhGetEventMapInformation(ev, (PWSTR)at(info, name), map, &size) != 0) {
    free(map);
    return NULL;
  }
  for (ULONG e = 0; e < map->EntryCount; ++e) {
    WCHAR* s = (WCHAR*)at(map, map->MapEntryArray[e].OutputOffset);
    size_t n = 0;
    while (s[n] != 0) ++n;
    if (n > 0 && s[n - 1] == u' ') s[n - 1] = 0;
  }
  return map;
}

/* Prints property i (every element of an array); returns the data after it, or NULL. */
static PBYTE print_property(PEVENT_RECORD ev, PTRACE_EVENT_INFO info, USHORT i, PBYTE data,
                            PBYTE end) {
  const EVENT_PROPERTY_INFO* p = &info->EventPropertyInfoArray[i];
  ULONG length = p->length, count = p->count;
  if ((p->Flags & PropertyParamLength) && value_of(ev, info, p->lengthPropertyIndex, &length))
    return NULL;
  if ((p->Flags & PropertyParamCount) && value_of(ev, info, p->countPropertyIndex, &count))
    return NULL;
  PEVENT_MAP_INFO map = map_of(ev, info, i);
  for (ULONG k = 0; k < count && data != NULL; ++k) {
    ULONG size = 0;
    USHORT used = 0;
    WCHAR* text = NULL;
    ULONG rc = TdhFormatProperty(info, map, 8, p->nonStructType.InType, p->nonStructType.OutType,
                                 (USHORT)length, (USHORT)(end - data), data, &size, NULL, &used);
    if (rc == ERROR_INSUFFICIENT_BUFFER) {
      text = (WCHAR*)malloc(size);
      rc = text == NULL
               ? ERROR_OUTOFMEMORY
               : TdhFormatProperty(info, map, 8, p->nonStructType.InType, p->nonStructType.OutType,
                                   (USHORT)length, (USHORT)(end - data), data, &size, text, &used);
    }
    if (rc == ERROR_SUCCESS) {
      printf("  ");
      put16(at(info, p->NameOffset));
      if (p->Flags & (PropertyParamCount | PropertyParamFixedCount))
        printf("[%lu]", (unsigned long)k);
      line("", text);
      data += used;
    } else {
      printf("  TdhFormatProperty failed with %lu: %s\n", (unsigned long)rc,
             PfcTdhGetLastErrorMessage());
      data = NULL;
    }
    free(text);
  }
  free(map);
  return data;
}

static void WINAPI on_event(PEVENT_RECORD ev) {
  ULONG size = 0;
  ULONG rc = TdhGetEventInformation(ev, 0, NULL, NULL, &size);
  PTRACE_EVENT_INFO info = rc == ERROR_INSUFFICIENT_BUFFER ? (PTRACE_EVENT_INFO)malloc(size) : NULL;
  if (info != NULL) rc = TdhGetEventInformation(ev, 0, NULL, info, &size);
  if (info == NULL || rc != ERROR_SUCCESS) {
    printf("event %u: TdhGetEventInformation failed with %lu\n", ev->EventHeader.EventDescriptor.Id,
           (unsigned long)rc);
    g_failed = 1;
    free(info);
    return;
  }
  printf("Event ID: %u (%s)\n", info->EventDescriptor.Id,
         info->DecodingSource == DecodingSourceXMLFile ? "DecodingSourceXMLFile" : "other");
  line("Provider", at(info, info->ProviderNameOffset));
  line("Event", at(info, info->EventNameOffset));
  line("Level", at(info, info->LevelNameOffset));
  line("Task", at(info, info->TaskNameOffset));
  line("Opcode", at(info, info->OpcodeNameOffset));
  for (const WCHAR* k = at(info, info->KeywordsNameOffset); k != NULL && *k != 0;) {
    line("Keyword", k);
    while (*k != 0) ++k;
    ++k;
  }
  line("Message", at(info, info->EventMessageOffset));
  PBYTE data = (PBYTE)ev->UserData;
  PBYTE end = data + ev->UserDataLength;
  for (USHORT i = 0; i < info->TopLevelPropertyCount && data != NULL; ++i)
    data = print_property(ev, info, i, data, end);
  if (data != end) {
    printf("  the properties did not take the event's %u bytes\n", ev->UserDataLength);
    g_failed = 1;
  }
  free(info);
}

/* The ASCII text s as a WCHAR string in out (1024 units). */
static void widen(const char* s, WCHAR* out) {
  size_t i = 0;
  for (; s[i] != 0 && i < 1023; ++i) out[i] = (unsigned char)s[i];
  out[i] = 0;
}

int main(int argc, char** argv) {
  const int session = argc == 4 && strcmp(argv[1], "--session") == 0;
  if (!session && argc != 2 && argc != 3) {
    fprintf(stderr, "usage: tdh_decode_consumer LOGFILE [MANIFEST] | --session NAME READY\n");
    return 2;
  }
  WCHAR file[1024] = {0}, manifest[1024] = {0};
  widen(argv[session ? 2 : 1], file);
  if (argc == 3) widen(argv[2], manifest);
  ULONG rc = argc == 3 ? TdhLoadManifest(manifest) : ERROR_SUCCESS;
  if (rc != ERROR_SUCCESS) {
    fprintf(stderr, "TdhLoadManifest failed with %lu: %s\n", (unsigned long)rc,
            PfcTdhGetLastErrorMessage());
    return 1;
  }
  EVENT_TRACE_LOGFILEW trace;
  memset(&trace, 0, sizeof trace);
  if (session) {
    trace.LoggerName = file;
    trace.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD | PROCESS_TRACE_MODE_REAL_TIME;
  } else {
    trace.LogFileName = file;
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
      fprintf(stderr, "cannot create %s\n", argv[3]);
      CloseTrace(h);
      return 1;
    }
    fclose(ready);
  }
  rc = ProcessTrace(&h, 1, NULL, NULL);
  CloseTrace(h);
  if (rc != ERROR_SUCCESS) {
    fprintf(stderr, "ProcessTrace failed with %lu\n", (unsigned long)rc);
    return 1;
  }
  return g_failed;
}
