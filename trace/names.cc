// trace/names.cc — see names.h.
#include "trace/names.h"

#include <charconv>
#include <limits>

namespace pfc::trace {
namespace {

// Reads decimal digits from the front of `s` up to the next '-' or the end; advances `s`
// past them (and past the '-'). nullopt for no digits, a non-digit, or overflow.
std::optional<uint64_t> take_number(std::string_view& s, bool& more) {
  const size_t end = s.find('-');
  const std::string_view digits = s.substr(0, end);
  if (digits.empty() || digits.front() < '0' || digits.front() > '9') return std::nullopt;
  uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return std::nullopt;
  more = end != std::string_view::npos;
  s.remove_prefix(more ? end + 1 : s.size());
  return v;
}

}  // namespace

std::string object_name(char kind, std::optional<uint64_t> instance, const ProcessKey& process,
                        std::string_view rest) {
  std::string name{kind, '-'};
  if (instance) name += std::to_string(*instance) + '-';
  name += std::to_string(process.pid) + '-' + std::to_string(process.start);
  if (!rest.empty()) (name += '-') += rest;
  return name;
}

std::optional<ObjectName> parse_object_name(std::string_view name, char kind, bool with_instance) {
  if (name.size() < 2 || name[0] != kind || name[1] != '-') return std::nullopt;
  std::string_view s = name.substr(2);
  ObjectName out;
  bool more = false;
  if (with_instance) {
    out.instance = take_number(s, more);
    if (!out.instance || !more) return std::nullopt;
  }
  const std::optional<uint64_t> pid = take_number(s, more);
  if (!pid || !more || *pid > std::numeric_limits<uint32_t>::max()) return std::nullopt;
  const std::optional<uint64_t> start = take_number(s, more);
  if (!start) return std::nullopt;
  if (more && s.empty()) return std::nullopt;  // a trailing '-'
  out.process = ProcessKey{uint32_t(*pid), *start};
  out.rest = s;
  return out;
}

std::string bell_name(uint64_t instance) { return "b-" + std::to_string(instance); }

std::optional<uint64_t> parse_bell_name(std::string_view name) {
  if (name.size() < 2 || name[0] != 'b' || name[1] != '-') return std::nullopt;
  std::string_view s = name.substr(2);
  bool more = false;
  const std::optional<uint64_t> instance = take_number(s, more);
  return more ? std::nullopt : instance;
}

}  // namespace pfc::trace
