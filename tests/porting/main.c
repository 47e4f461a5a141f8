/* tests/porting/main.c — the Windows SDK compatibility of the ETW headers, as a porter
 * builds with them (docs/porting.md): two translation units (with second.c) that both
 * define the same selectany objects, SAL and calling-convention macros in declarations,
 * strsafe's unsuffixed names, FileTimeToSystemTime, StringFromGUID2, and the WCHAR helpers.
 * Compiled as C11 (porting_c_test) and, through main.cc / second.cc, as C++
 * (porting_cxx_test). Exits 0 when every check holds; otherwise names each failed check. */
#include <stdio.h>

#include "porting.h"

static int failures = 0;

#define CHECK(condition)                                                            \
  do {                                                                              \
    if (!(condition)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
      ++failures;                                                                   \
    }                                                                               \
  } while (0)

/* The WCHAR string s equals the UTF-16 literal expected. */
static int wide_equal(PCWSTR s, PCWSTR expected) {
  size_t i = 0;
  for (; s[i] != 0 && s[i] == expected[i]; ++i) {
  }
  return s[i] == expected[i];
}

/* One object per name in the program, zero-filled or initialised, shared by both units. */
static void check_selectany(void) {
  PortingAddresses other;
  CHECK(Porting_Addresses(&other) == &other);
  CHECK(other.handle == &Porting_Handle);
  CHECK(other.enable_bits == Porting_EnableBits);
  CHECK(other.plain == Porting_Plain);
  CHECK(other.counter == &Porting_Counter);
  CHECK(other.guid == &Porting_Guid);
  CHECK(other.levels == Porting_Levels);
  CHECK(Porting_Handle == 0 && Porting_EnableBits[0] == 0 && Porting_Plain[3] == 0);
  CHECK(Porting_Counter == 41 && Porting_Guid.Data1 == 0x6B0D5E3Cu && Porting_Levels[3] == 2);
  CHECK((uintptr_t)Porting_EnableBits % 64 == 0); /* DECLSPEC_CACHEALIGN */
  Porting_Handle = 7;
  *other.counter += 1;
  other.plain[1] = 9;
  CHECK(*other.handle == 7 && Porting_Counter == 42 && Porting_Plain[1] == 9);
  CHECK(other.twice_21 == 42 && Porting_Twice(5) == 10);
}

static void check_declarations(void) {
  WCHAR buffer[8];
  CHECK(Porting_Fill(buffer, ARRAYSIZE(buffer), NULL) && wide_equal(buffer, u"(none)"));
  CHECK(!Porting_Fill(buffer, 3, TEXT("abc")) && wide_equal(buffer, u"ab"));
  BYTE bytes[3] = {1, 2, 250};
  ULONG sum = 0;
  Porting_Sum(bytes, sizeof bytes, &sum, NULL);
  CHECK(sum == 253);
#ifndef __cplusplus
  ULONG values[2] = {10, 20}, total = 0, count = 0;
  CHECK(Porting_Legacy(1, &total, values, 2, &count) == 31 && total == 31 && count == 2);
#endif
}

static void check_strsafe(void) {
  WCHAR w[16];
  size_t length = 0;
  CHECK(StringCchCopy(w, 4, u"too long") == STRSAFE_E_INSUFFICIENT_BUFFER && wide_equal(w, u"too"));
  CHECK(StringCbCopy(w, sizeof w, u"abc") == S_OK && wide_equal(w, u"abc"));
  CHECK(StringCchCat(w, ARRAYSIZE(w), u"def") == S_OK && wide_equal(w, u"abcdef"));
  CHECK(StringCbCat(w, 8 * sizeof(WCHAR), u"ghij") == STRSAFE_E_INSUFFICIENT_BUFFER &&
        wide_equal(w, u"abcdefg"));
  CHECK(StringCchLength(w, ARRAYSIZE(w), &length) == S_OK && length == 7);
  CHECK(StringCbLength(w, sizeof w, &length) == S_OK && length == 7 * sizeof(WCHAR));
  CHECK(StringCchLength(w, 7, &length) == STRSAFE_E_INVALID_PARAMETER);
  CHECK(StringCchCopy(w, 0, u"x") == STRSAFE_E_INVALID_PARAMETER);

  /* Windows' wide printf: %s a WCHAR string, %hs / %S a CHAR one, %lu 32 bits. */
  WCHAR f[96];
  HRESULT hr = StringCchPrintf(f, ARRAYSIZE(f), u"%s=%d %hs %S %lu %I64u %5.2f [%-3c] %p %x %%",
                               u"w\u00e9de", -5, "n\xc3\xa4rrow", "S", (ULONG)7, (ULONGLONG)1 << 40,
                               3.14159, u'x', (void*)NULL, 255);
  CHECK(hr == S_OK && wide_equal(f,
                                 u"w\u00e9de=-5 n\u00e4rrow S 7 1099511627776  3.14 [x  ] "
                                 u"0000000000000000 ff %"));
  CHECK(StringCchPrintf(f, ARRAYSIZE(f), u"[%*d|%-*ls|%.2s|%s]", 4, 42, 3, u"a", u"xyz",
                        (PCWSTR)NULL) == S_OK &&
        wide_equal(f, u"[  42|a  |xy|(null)]"));
  CHECK(StringCchPrintf(f, ARRAYSIZE(f), u"%hc%C%lc|%+05d|%#x|%lld|%zu|%*d|%hhu|%hd|%.3e", 'n', 'N',
                        u'\u00e9', 42, 255, -((LONGLONG)1 << 40), (size_t)7, -3, 1, 257, 65537,
                        1234.5) == S_OK &&
        wide_equal(f, u"nN\u00e9|+0042|0xff|-1099511627776|7|1  |1|1|1.234e+03"));
  CHECK(StringCchPrintf(f, 6, u"%d", 1234567) == STRSAFE_E_INSUFFICIENT_BUFFER &&
        wide_equal(f, u"12345"));
  CHECK(StringCbPrintf(f, 4 * sizeof(WCHAR), u"ab%s", u"cd") == STRSAFE_E_INSUFFICIENT_BUFFER &&
        wide_equal(f, u"abc"));
  int written = 0;
  CHECK(StringCchPrintf(f, ARRAYSIZE(f), u"ab%n", &written) == STRSAFE_E_INVALID_PARAMETER &&
        wide_equal(f, u"ab"));
  CHECK(StringCchPrintf(f, ARRAYSIZE(f), u"%q") == STRSAFE_E_INVALID_PARAMETER);
  CHECK(StringCchPrintf(f, ARRAYSIZE(f), u"%1000001d", 1) == STRSAFE_E_INVALID_PARAMETER);
  CHECK(StringCchPrintf(f, 8, u"%1000000d", 1) == STRSAFE_E_INSUFFICIENT_BUFFER &&
        wide_equal(f, u"       "));
  char a[8];
  CHECK(StringCchPrintfA(a, sizeof a, "%s-%d", "abc", 12) == S_OK && strcmp(a, "abc-12") == 0);
  CHECK(StringCbPrintfA(a, 4, "%d", 12345) == STRSAFE_E_INSUFFICIENT_BUFFER &&
        strcmp(a, "123") == 0);
}

/* FileTimeToSystemTime: FILETIME counts 100-ns intervals since 1601-01-01 UTC
 * (https://learn.microsoft.com/en-us/windows/win32/api/minwinbase/ns-minwinbase-filetime);
 * the Unix epoch is 116444736000000000 of them
 * (https://learn.microsoft.com/en-us/windows/win32/sysinfo/converting-a-time-t-value-to-a-file-time);
 * the value must be less than 0x8000000000000000, otherwise the function fails
 * (https://learn.microsoft.com/en-us/windows/win32/api/timezoneapi/nf-timezoneapi-filetimetosystemtime).
 * The other expected dates were computed with Python's datetime (proleptic Gregorian). */
static int system_time_is(ULONGLONG value, WORD year, WORD month, WORD day_of_week, WORD day,
                          WORD hour, WORD minute, WORD second, WORD ms) {
  FILETIME ft = {(DWORD)value, (DWORD)(value >> 32)};
  SYSTEMTIME st;
  memset(&st, 0xAB, sizeof st);
  return FileTimeToSystemTime(&ft, &st) && st.wYear == year && st.wMonth == month &&
         st.wDayOfWeek == day_of_week && st.wDay == day && st.wHour == hour &&
         st.wMinute == minute && st.wSecond == second && st.wMilliseconds == ms;
}

static void check_file_time(void) {
  CHECK(system_time_is(0, 1601, 1, 1, 1, 0, 0, 0, 0)); /* a Monday */
  CHECK(system_time_is(116444736000000000ull, 1970, 1, 4, 1, 0, 0, 0, 0));
  CHECK(system_time_is(125963012967890000ull, 2000, 2, 2, 29, 12, 34, 56, 789));
  CHECK(system_time_is(157520160000000000ull - 1, 2100, 2, 0, 28, 23, 59, 59, 999));
  CHECK(system_time_is(157520160000000000ull, 2100, 3, 1, 1, 0, 0, 0, 0));
  CHECK(system_time_is(0x7FFFFFFFFFFFFFFFull, 30828, 9, 4, 14, 2, 48, 5, 477));
  FILETIME ft = {0, 0x80000000u};
  SYSTEMTIME st;
  SetLastError(ERROR_SUCCESS);
  CHECK(!FileTimeToSystemTime(&ft, &st) && GetLastError() == ERROR_INVALID_PARAMETER);
}

static void check_guid_string(void) {
  WCHAR text[40];
  CHECK(StringFromGUID2(&Porting_Guid, text, ARRAYSIZE(text)) == 39 &&
        wide_equal(text, u"{6B0D5E3C-8F1A-4B6E-9C2D-3A4F5B6C7D8F}"));
  CHECK(StringFromGUID2(&Porting_Guid, text, 39) == 39);
  text[0] = u'?';
  CHECK(StringFromGUID2(&Porting_Guid, text, 38) == 0 && text[0] == u'?');
  CHECK(StringFromGUID2(&GUID_NULL, text, 39) == 39 &&
        wide_equal(text, u"{00000000-0000-0000-0000-000000000000}"));
}

static void check_wchar(void) {
  PCWSTR text = u"h\u00e9llo \U0001F600";
  CHECK(pfc_wcslen(text) == 8 && wcslen(text) == 8 && _tcslen(_T("abc")) == 3);
  CHECK(wcslen(L"wide") == 4); /* wchar_t strings keep the C library's wcslen */
  char utf8[16];
  CHECK(pfc_utf16_to_utf8(text, utf8, sizeof utf8) == 11 &&
        strcmp(utf8, "h\xc3\xa9llo \xf0\x9f\x98\x80") == 0);
  CHECK(pfc_utf16_to_utf8(text, utf8, 10) == 11 && strcmp(utf8, "h\xc3\xa9llo ") == 0);
  CHECK(pfc_utf16_to_utf8(u"a\xD800z", utf8, sizeof utf8) == 5 &&
        strcmp(utf8, "a\xef\xbf\xbdz") == 0);
  WCHAR back[16];
  CHECK(pfc_utf8_to_utf16("h\xc3\xa9llo \xf0\x9f\x98\x80", back, ARRAYSIZE(back)) == 8 &&
        wide_equal(back, text));
  CHECK(pfc_utf8_to_utf16("\xf0\x9f\x98\x80", back, 2) == 2 && back[0] == 0);
  CHECK(pfc_utf8_to_utf16("a\xff\xc0\xafz", back, ARRAYSIZE(back)) == 5 &&
        wide_equal(back, u"a\xFFFD\xFFFD\xFFFDz"));

  char arg0[] = "prog", arg1[] = "h\xc3\xa9llo", arg2[] = "\xff", arg3[] = "";
  char* argv[] = {arg0, arg1, arg2, arg3, NULL};
  PWSTR* wide = pfc_wide_argv(4, argv);
  CHECK(wide != NULL);
  if (wide != NULL) {
    CHECK(wide_equal(wide[0], u"prog") && wide_equal(wide[1], u"h\u00e9llo") &&
          wide_equal(wide[2], u"\xFFFD") && wide_equal(wide[3], u"") && wide[4] == NULL);
  }
  pfc_free_wide_argv(wide);
  CHECK(pfc_wide_argv(-1, argv) == NULL);
}

int main(void) {
  check_selectany();
  check_declarations();
  check_strsafe();
  check_file_time();
  check_guid_string();
  check_wchar();
  if (failures == 0) printf("porting: every check passed\n");
  return failures == 0 ? 0 : 1;
}
