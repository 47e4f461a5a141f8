// etw/beside.h — files installed beside libpfc_etw (docs/etw.md "Engine"): found from the
// directory of the object this code is linked into — libpfc_etw.so's own directory, or the
// program's (/proc/self/exe) when libpfc_etw.a is linked statically — so that an unpacked
// or relocated install works without configuration.
#pragma once

#include <filesystem>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>

namespace pfc::etw {

// The directory of the shared library holding this code, or of the program when it is
// linked into the program itself. Empty when neither can be found.
std::filesystem::path own_directory();

// True when own_directory() is `root` or below it (both canonical): a library or program
// of the build tree, which may use the build tree's files.
bool own_directory_within(const std::filesystem::path& root);

// The first `own_directory() / rel` (rel from `relative`, in order; normalised) that
// `usable` accepts, then the first of `fallbacks` (absolute paths compiled in: the install
// directory, the build tree) that it accepts; "" when none is.
std::string find_beside(std::initializer_list<std::string_view> relative,
                        std::initializer_list<std::string_view> fallbacks,
                        const std::function<bool(const std::string&)>& usable);

}  // namespace pfc::etw
