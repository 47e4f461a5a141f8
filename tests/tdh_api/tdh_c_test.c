/* tests/tdh_api/tdh_c_test.c — pfc/etw/tdh.h compiled as C11 (-Wall -Wextra -Werror) and
 * linked against libpfc_etw.so: layout and values, and the exported functions' basic
 * error codes. argv[1] is the example manifest's path. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "pfc/etw/tdh.h"

_Static_assert(sizeof(PAYLOAD_FILTER_PREDICATE) == 24, "PAYLOAD_FILTER_PREDICATE size");
_Static_assert(offsetof(PAYLOAD_FILTER_PREDICATE, CompareOp) == 8, "CompareOp offset");
_Static_assert(offsetof(PAYLOAD_FILTER_PREDICATE, Value) == 16, "Value offset");
_Static_assert(PAYLOADFIELD_DOESNTCONTAIN == 21 && PAYLOADFIELD_ISNOT == 31, "operators");
_Static_assert(TDH_INTYPE_SID == 19 && TDH_OUTTYPE_UTF8 == 35, "TDH types");

static int failures;
#define EXPECT(cond)                                                     \
  do {                                                                   \
    if (!(cond)) {                                                       \
      fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                        \
    }                                                                    \
  } while (0)

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  WCHAR path[260];
  size_t n = strlen(argv[1]);
  if (n >= 260) return 2;
  for (size_t i = 0; i <= n; ++i) path[i] = (WCHAR)(unsigned char)argv[1][i];
  EXPECT(TdhLoadManifest(NULL) == ERROR_INVALID_PARAMETER);
  EXPECT(TdhLoadManifest(path) == ERROR_SUCCESS);
  EXPECT(PfcTdhGetLastErrorMessage()[0] == 0);
  static const GUID provider = {
      0x37a59b93, 0xbb25, 0x4cee, {0x97, 0xaa, 0x8b, 0x6a, 0xcd, 0x0c, 0x4d, 0xf8}};
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, 1, 0, 0, 1, 0, 0, 0);
  WCHAR field[] = u"Level";
  WCHAR value[] = u"7,16";
  PAYLOAD_FILTER_PREDICATE p = {field, PAYLOADFIELD_BETWEEN, value};
  PVOID filter = NULL;
  EXPECT(TdhCreatePayloadFilter(&provider, &d, FALSE, 1, &p, &filter) == ERROR_SUCCESS);
  EVENT_FILTER_DESCRIPTOR desc;
  memset(&desc, 0, sizeof desc);
  EXPECT(TdhAggregatePayloadFilters(1, &filter, NULL, &desc) == ERROR_SUCCESS);
  EXPECT(desc.Type == EVENT_FILTER_TYPE_PAYLOAD && desc.Size > 0 && desc.Size <= 4096);
  EXPECT(TdhCleanupPayloadEventFilterDescriptor(&desc) == ERROR_SUCCESS);
  EXPECT(TdhDeletePayloadFilter(&filter) == ERROR_SUCCESS && filter == NULL);
  p.CompareOp = PAYLOADFIELD_CONTAINS;
  EXPECT(TdhCreatePayloadFilter(&provider, &d, FALSE, 1, &p, &filter) == ERROR_INVALID_PARAMETER);
  EXPECT(PfcTdhGetLastErrorMessage()[0] != 0);
  EXPECT(TdhUnloadManifest(path) == ERROR_SUCCESS);
  EXPECT(TdhCreatePayloadFilter(&provider, &d, FALSE, 1, &p, &filter) == ERROR_FILE_NOT_FOUND);
  if (failures == 0) printf("ok\n");
  return failures == 0 ? 0 : 1;
}
