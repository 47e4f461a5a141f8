/* tests/porting/era_provider.cc — era_provider.c compiled as C++ (porting_era_cxx_test). */
#include "era_provider.c" /* NOLINT(bugprone-suspicious-include): compiled as C++ */
