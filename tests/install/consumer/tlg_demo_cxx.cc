// tests/install/consumer/tlg_demo_cxx.cc — tlg_demo.c compiled as C++: <TraceLoggingProvider.h>
// and its use as C++ sources include and write them.
#include "tlg_demo.c"
