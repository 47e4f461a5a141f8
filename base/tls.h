// base/tls.h — PFC_TLS_HOT: the initial-exec TLS model for a thread_local that the event
// write path reads per event. In a shared library (libpfc_etw.so, -fPIC) every other
// access calls __tls_get_addr (≈ 14 instructions, about ten calls per EventWrite); with
// initial-exec it is one load from the thread pointer. The variable then lives in the
// static TLS block: a library loaded at start-up has it; one loaded by dlopen takes it
// from glibc's reserve for this (a few hundred bytes), so keep these variables small.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define PFC_TLS_HOT __attribute__((tls_model("initial-exec")))
#else
#define PFC_TLS_HOT
#endif
