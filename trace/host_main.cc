// trace/host_main.cc — the `pfc-trace-host` executable (trace/host.h).
#include "trace/host.h"

int main(int argc, char** argv) { return pfc::trace::host_main(argc, argv); }
