/* tests/porting/second.cc — second.c compiled as C++ (porting_cxx_test). */
#include "second.c" /* NOLINT(bugprone-suspicious-include): compiled as C++ */
