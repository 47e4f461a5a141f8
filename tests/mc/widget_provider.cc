/* tests/mc/widget_provider.cc — widget_provider.c compiled as C++ (mc_provider_cxx). */
#include "widget_provider.c" /* NOLINT(bugprone-suspicious-include): compiled as C++ */
