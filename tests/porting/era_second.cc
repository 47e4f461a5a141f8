/* tests/porting/era_second.cc — era_second.c compiled as C++ (porting_era_cxx_test). */
#include "era_second.c" /* NOLINT(bugprone-suspicious-include): compiled as C++ */
