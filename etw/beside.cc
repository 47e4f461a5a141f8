// etw/beside.cc — see beside.h.
#include "etw/beside.h"

#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>

namespace pfc::etw {

std::filesystem::path own_directory() {
  Dl_info info{};
  link_map* map = nullptr;
  if (::dladdr1(reinterpret_cast<void*>(&own_directory), &info, reinterpret_cast<void**>(&map),
                RTLD_DL_LINKMAP) == 0 ||
      map == nullptr)
    return {};
  if (map->l_name != nullptr && map->l_name[0] != '\0') {  // a shared library
    std::error_code ec;
    const std::filesystem::path path = std::filesystem::absolute(map->l_name, ec);
    return ec ? std::filesystem::path() : path.parent_path();
  }
  // The program itself (its link map has no name): a static link of libpfc_etw.a.
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return {};
  return std::filesystem::path(std::string(buf, static_cast<size_t>(n))).parent_path();
}

bool own_directory_within(const std::filesystem::path& root) {
  std::error_code ec;
  const std::filesystem::path dir = std::filesystem::weakly_canonical(own_directory(), ec);
  if (ec || dir.empty()) return false;
  const std::filesystem::path top = std::filesystem::weakly_canonical(root, ec);
  if (ec || top.empty()) return false;
  return std::mismatch(top.begin(), top.end(), dir.begin(), dir.end()).first == top.end();
}

std::string find_beside(std::initializer_list<std::string_view> relative,
                        std::initializer_list<std::string_view> fallbacks,
                        const std::function<bool(const std::string&)>& usable) {
  const std::filesystem::path dir = own_directory();
  if (!dir.empty()) {
    for (std::string_view rel : relative) {
      const std::string candidate = (dir / rel).lexically_normal().string();
      if (usable(candidate)) return candidate;
    }
  }
  for (std::string_view path : fallbacks)
    if (!path.empty() && usable(std::string(path))) return std::string(path);
  return "";
}

}  // namespace pfc::etw
