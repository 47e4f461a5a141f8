/* tests/porting/main.cc — main.c compiled as C++ (porting_cxx_test): selectany objects are
 * C++17 inline variables, __inline functions are inline. Standard C++ headers included
 * after the ETW headers must still compile (sal.h leaves libstdc++'s names alone). */
#include "main.c" /* NOLINT(bugprone-suspicious-include): compiled as C++ */

#include <algorithm>
#include <istream>
#include <string>
