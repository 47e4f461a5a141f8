// etw/tdh_manifest.cc — TdhLoadManifest, TdhUnloadManifest, TdhLoadManifestFromBinary,
// TdhLoadManifestFromMemory, TdhUnloadManifestFromMemory and PfcTdhGetLastErrorMessage:
// manifests are parsed by runtime/manifest.h into the process-wide TdhStore.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "etw/guard.h"
#include "etw/tdh_store.h"
#include "pfc/etw/tdh.h"
#include "runtime/manifest.h"

namespace pfc::etw {
namespace {

constexpr size_t kMaxPath = 260;  // MAX_PATH

// The UTF-8 form of a NUL-terminated UTF-16 path; false for NULL, empty, too long or
// unpaired surrogates.
bool path_from(const WCHAR* p, std::string& out) {
  if (p == nullptr) return false;
  const size_t n = u16_length(p, kMaxPath);
  if (n == 0 || n > kMaxPath) return false;
  for (size_t i = 0; i < n; ++i) {
    const bool high = p[i] >= 0xD800 && p[i] <= 0xDBFF;
    const bool low = p[i] >= 0xDC00 && p[i] <= 0xDFFF;
    if (low) return false;
    if (high && !(i + 1 < n && p[i + 1] >= 0xDC00 && p[i + 1] <= 0xDFFF)) return false;
    if (high) ++i;
  }
  out = u16_to_utf8(std::u16string(p, n));
  return true;
}

bool read_file(const std::string& path, std::string& out) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  out = std::move(text).str();
  return !in.bad();
}

// Parses `text` and stores its providers under `key`.
uint32_t load_text(std::string_view text, const std::string& key, std::string_view name) {
  std::vector<ManifestProviderInfo> info;
  auto parsed = parse_manifest(text, info);
  if (!parsed) return tdh_result(ERROR_XML_PARSE_ERROR, parsed.error().to_string(name));
  TdhStore::get().put(key, std::move(*parsed), std::move(info));
  return tdh_result(ERROR_SUCCESS);
}

uint32_t load_path(const WCHAR* wpath, bool embedded) {
  std::string path;
  if (!path_from(wpath, path)) {
    return tdh_result(ERROR_INVALID_PARAMETER,
                      "the path is NULL, empty, longer than MAX_PATH "
                      "(260) characters or not valid UTF-16");
  }
  std::string text;
  if (!read_file(path, text))
    return tdh_result(ERROR_FILE_NOT_FOUND, path + ": cannot read the file");
  std::string_view xml = text;
  if (embedded) {
    const std::optional<std::string_view> found = find_embedded_manifest(text);
    if (!found)
      return tdh_result(ERROR_XML_PARSE_ERROR, path + ": no embedded instrumentation manifest");
    xml = *found;
  }
  return load_text(xml, "file:" + path, path);
}

std::string memory_key(LPCVOID data, ULONG size) {
  return "mem:" + std::string(static_cast<const char*>(data), size);
}

}  // namespace
}  // namespace pfc::etw

using namespace pfc::etw;

extern "C" {

TDHSTATUS TdhLoadManifest(PWSTR Manifest) {
  return guarded([&] { return load_path(Manifest, false); }, fail_tdh);
}

TDHSTATUS TdhLoadManifestFromBinary(PWSTR BinaryPath) {
  return guarded([&] { return load_path(BinaryPath, true); }, fail_tdh);
}

TDHSTATUS TdhUnloadManifest(PWSTR Manifest) {
  return guarded(
      [&]() -> TDHSTATUS {
        std::string path;
        if (!path_from(Manifest, path)) return tdh_result(ERROR_INVALID_PARAMETER, "invalid path");
        if (!TdhStore::get().erase("file:" + path))
          return tdh_result(ERROR_FILE_NOT_FOUND, path + ": no manifest loaded from this path");
        return tdh_result(ERROR_SUCCESS);
      },
      fail_tdh);
}

TDHSTATUS TdhLoadManifestFromMemory(LPCVOID pData, ULONG cbData) {
  return guarded(
      [&]() -> TDHSTATUS {
        if (pData == nullptr || cbData == 0) return tdh_result(ERROR_INVALID_PARAMETER, "no data");
        return load_text(std::string_view(static_cast<const char*>(pData), cbData),
                         memory_key(pData, cbData), "<memory>");
      },
      fail_tdh);
}

TDHSTATUS TdhUnloadManifestFromMemory(LPCVOID pData, ULONG cbData) {
  return guarded(
      [&]() -> TDHSTATUS {
        if (pData == nullptr || cbData == 0) return tdh_result(ERROR_INVALID_PARAMETER, "no data");
        if (!TdhStore::get().erase(memory_key(pData, cbData)))
          return tdh_result(ERROR_NOT_FOUND, "no manifest was loaded from these bytes");
        return tdh_result(ERROR_SUCCESS);
      },
      fail_tdh);
}

const char* PfcTdhGetLastErrorMessage(void) { return tdh_message(); }

}  // extern "C"
