/* tests/porting/second.c — the second translation unit of the porting test (main.c): it
 * defines the selectany objects of porting.h again and the functions declared there. */
#include "porting.h"

BOOL WINAPI Porting_Fill(PWSTR out, size_t cch, PCWSTR text) {
  return SUCCEEDED(StringCchCopy(out, cch, text != NULL ? text : TEXT("(none)")));
}

PortingAddresses* __cdecl Porting_Addresses(PortingAddresses* out) {
  out->handle = &Porting_Handle;
  out->enable_bits = Porting_EnableBits;
  out->plain = Porting_Plain;
  out->counter = &Porting_Counter;
  out->guid = &Porting_Guid;
  out->levels = Porting_Levels;
  out->twice_21 = Porting_Twice(21);
  return out;
}

VOID CALLBACK Porting_Sum(const void* data, ULONG size, ULONG* sum, PVOID context) {
  UNREFERENCED_PARAMETER(context);
  *sum = 0;
  for (ULONG i = 0; i < size; ++i) *sum += ((const BYTE*)data)[i];
}

#ifndef __cplusplus
ULONG NTAPI Porting_Legacy(ULONG a, ULONG* b, const ULONG* v, ULONG n, PULONG c) {
  ULONG total = a;
  for (ULONG i = 0; i < n; ++i) total += v[i];
  *b = total;
  if (c != NULL) *c = n;
  return total;
}
#endif
