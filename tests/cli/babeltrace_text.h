// tests/cli/babeltrace_text.h — the text babeltrace2 prints for a CTF trace
// (`babeltrace2 --clock-gmt --clock-date DIR`, sink.text.pretty) parsed back into values,
// and the comparison of one such event with the `pfc trace show` line of the same event
// (docs/logfile.md "Viewing with babeltrace2" lists the mapping; the normalisations where
// the two formats differ are stated at compare_with_show).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace pfc::test {

using BtJson = nlohmann::ordered_json;

struct BtEvent {
  std::string time;  // "2026-11-28 11:43:42.923073700" (UTC)
  std::string name;
  BtJson context;  // the event context's members
  BtJson fields;   // the payload's members (empty object when none)
};

// A recursive-descent reader of sink.text.pretty's values: { a = v, ... } structs,
// [ [0] = v, ... ] arrays, "..." strings (C escapes), ( "label" : container = N ) enums
// (read as their label), integers in decimal or 0x hex, floating-point numbers.
class BtParser {
 public:
  explicit BtParser(const std::string& text) : s_(text) {}

  std::optional<BtEvent> event() {
    BtEvent e;
    if (!take("[")) return std::nullopt;
    const size_t close = s_.find(']', i_);
    if (close == std::string::npos) return std::nullopt;
    e.time = s_.substr(i_, close - i_);
    i_ = close + 1;
    space();
    if (take("(")) i_ = s_.find(')', i_) + 1;  // the delta
    space();
    const size_t colon = s_.find(": {", i_);
    if (colon == std::string::npos) return std::nullopt;
    e.name = s_.substr(i_, colon - i_);
    i_ = colon + 2;
    auto context = value();
    if (!context) return std::nullopt;
    e.context = *context;
    e.fields = BtJson::object();
    if (take(",")) {
      auto fields = value();
      if (!fields) return std::nullopt;
      e.fields = *fields;
    }
    space();
    if (i_ != s_.size()) return std::nullopt;
    return e;
  }

 private:
  void space() {
    while (i_ < s_.size() && s_[i_] == ' ') ++i_;
  }
  bool take(const char* token) {
    space();
    const std::string t(token);
    if (s_.compare(i_, t.size(), t) != 0) return false;
    i_ += t.size();
    return true;
  }

  std::optional<BtJson> value() {
    space();
    if (i_ >= s_.size()) return std::nullopt;
    if (take("{")) return members();
    if (take("[")) return elements();
    if (take("(")) {  // an enum: ( "label" : container = N )
      auto label = string();
      const size_t close = s_.find(')', i_);
      if (!label || close == std::string::npos) return std::nullopt;
      i_ = close + 1;
      return BtJson(*label);
    }
    if (s_[i_] == '"') {
      auto text = string();
      if (!text) return std::nullopt;
      return BtJson(*text);
    }
    return number();
  }

  std::optional<BtJson> members() {
    BtJson out = BtJson::object();
    if (take("}")) return out;
    do {
      space();
      const size_t eq = s_.find(" = ", i_);
      if (eq == std::string::npos) return std::nullopt;
      const std::string name = s_.substr(i_, eq - i_);
      i_ = eq + 3;
      auto v = value();
      if (!v) return std::nullopt;
      out[name] = *v;
    } while (take(","));
    if (!take("}")) return std::nullopt;
    return out;
  }

  std::optional<BtJson> elements() {
    BtJson out = BtJson::array();
    if (take("]")) return out;
    do {
      if (!take("[")) return std::nullopt;
      i_ = s_.find("] = ", i_);
      if (i_ == std::string::npos) return std::nullopt;
      i_ += 4;
      auto v = value();
      if (!v) return std::nullopt;
      out.push_back(*v);
    } while (take(","));
    if (!take("]")) return std::nullopt;
    return out;
  }

  std::optional<std::string> string() {
    if (!take("\"")) return std::nullopt;
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_++];
      if (c == '\\' && i_ < s_.size()) {
        c = s_[i_++];
        if (c == 'n') c = '\n';
        else if (c == 't') c = '\t';
        else if (c == 'r') c = '\r';
      }
      out += c;
    }
    if (!take("\"")) return std::nullopt;
    return out;
  }

  std::optional<BtJson> number() {
    const size_t start = i_;
    while (i_ < s_.size() && s_[i_] != ',' && s_[i_] != ' ' && s_[i_] != '}' && s_[i_] != ']') ++i_;
    const std::string t = s_.substr(start, i_ - start);
    if (t.empty()) return std::nullopt;
    if (t.starts_with("0x")) return BtJson(std::stoull(t.substr(2), nullptr, 16));
    if (t.find_first_of(".eEn") != std::string::npos) return BtJson(std::stod(t));
    if (t[0] == '-') return BtJson(std::stoll(t));
    return BtJson(std::stoull(t));
  }

  std::string s_;
  size_t i_ = 0;
};

// babeltrace2's path, searched in PATH ("" when absent: scripts/bootstrap installs it).
inline std::string babeltrace2_path() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path != nullptr ? path : "/usr/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = dir + "/babeltrace2";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

// Every line of babeltrace2's output as an event (a line that does not parse fails the
// test).
inline std::vector<BtEvent> parse_babeltrace(const std::string& out) {
  std::vector<BtEvent> events;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    auto e = BtParser(line).event();
    EXPECT_TRUE(e.has_value()) << "babeltrace2 line not understood: " << line;
    if (e) events.push_back(std::move(*e));
  }
  return events;
}

// A schema field name as the CTF trace names it (cli/ctf_writer.h ctf_identifier, without
// the leading '_' viewers strip).
inline std::string bt_member_name(const std::string& name) {
  std::string out;
  for (const char c : name) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

// `bt` (a babeltrace2 value) against `show` (the events-file JSON of the same value).
// Normalisations: a boolean is an enum whose label is "true"/"false"; a number printed in
// hex (hex in-types, keyword) compares as the same integer; a SYSTEMTIME struct compares
// member by member with show's 8-element array; a binary element {length, data} compares
// its data.
inline void expect_same_value(const BtJson& bt, const BtJson& show, const std::string& where) {
  if (show.is_boolean()) {
    EXPECT_EQ(bt, show.get<bool>() ? "true" : "false") << where;
  } else if (show.is_number_float()) {
    ASSERT_TRUE(bt.is_number()) << where << ": " << bt.dump();
    EXPECT_EQ(bt.get<double>(), show.get<double>()) << where;
  } else if (show.is_number_unsigned()) {
    EXPECT_EQ(bt.get<uint64_t>(), show.get<uint64_t>()) << where;
  } else if (show.is_number_integer()) {
    EXPECT_EQ(bt.get<int64_t>(), show.get<int64_t>()) << where;
  } else if (show.is_string()) {
    EXPECT_EQ(bt, show.get<std::string>()) << where;
  } else if (show.is_array() && bt.is_object() && bt.contains("data")) {
    expect_same_value(bt["data"], show, where);
  } else if (show.is_array()) {
    ASSERT_EQ(bt.size(), show.size()) << where << ": " << bt.dump();
    size_t k = 0;
    for (const auto& item : bt.is_object() ? BtJson(BtJson::array()) : bt) {
      expect_same_value(item, show[k], where + "[" + std::to_string(k) + "]");
      ++k;
    }
    if (bt.is_object())
      for (const auto& [name, item] : bt.items()) {
        expect_same_value(item, show[k], std::string(where).append(".").append(name));
        ++k;
      }
  } else {
    ADD_FAILURE() << where << ": unexpected value " << show.dump();
  }
}

// The payload: show's "fields" member by member (a babeltrace2 member NAME_count or
// NAME_length before an array or binary must hold its size), or show's "payload_hex"
// against the raw class's payload bytes.
inline void expect_same_payload(const BtEvent& bt, const BtJson& show, const std::string& where) {
  if (show.contains("payload_hex")) {
    const std::string hex = show["payload_hex"];
    ASSERT_TRUE(bt.fields.contains("payload")) << where << ": " << bt.fields.dump();
    EXPECT_EQ(bt.fields["payload_length"].get<size_t>(), hex.size() / 2) << where;
    std::string bytes;
    for (const auto& b : bt.fields["payload"]) {
      static const char* digits = "0123456789abcdef";
      bytes += digits[b.get<unsigned>() >> 4];
      bytes += digits[b.get<unsigned>() & 15];
    }
    EXPECT_EQ(bytes, hex) << where;
    return;
  }
  const BtJson& fields = show["fields"];
  auto it = bt.fields.begin();
  for (const auto& [name, v] : fields.items()) {
    const std::string member = bt_member_name(name);
    ASSERT_NE(it, bt.fields.end()) << where << ": no member for " << name;
    if (it.key() == member + "_count" || it.key() == member + "_length") {
      EXPECT_EQ(it.value().get<size_t>(), v.size()) << where << "." << it.key();
      ++it;
      ASSERT_NE(it, bt.fields.end()) << where << ": no member for " << name;
    }
    EXPECT_EQ(it.key(), member) << where;
    expect_same_value(it.value(), v, std::string(where).append(".").append(name));
    ++it;
  }
  EXPECT_EQ(it, bt.fields.end()) << where << ": extra members in " << bt.fields.dump();
}

// show's "ts" (2026-11-28T11:43:42.9230737Z) as babeltrace2 prints the same instant with
// --clock-gmt --clock-date (2026-11-28 11:43:42.923073700): the clock counts ns, so the
// 100 ns digits gain two zeros.
inline std::string bt_time_of_show(const std::string& ts) {
  std::string out = ts;
  if (out.size() == 28 && out[10] == 'T' && out.back() == 'Z') {
    out[10] = ' ';
    out.pop_back();
    out += "00";
  }
  return out;
}

// One event: its name (PROVIDER:EVENT, or PROVIDER:id=N,version=V without a schema), time,
// pid, tid, cpu, descriptor and payload.
inline void compare_with_show(const BtEvent& bt, const BtJson& show, const std::string& where) {
  const std::string event = show.contains("event")
                                ? show["event"].get<std::string>()
                                : "id=" + std::to_string(show["id"].get<int>()) +
                                      ",version=" + std::to_string(show["version"].get<int>());
  EXPECT_EQ(bt.name, show["provider"].get<std::string>() + ":" + event) << where;
  EXPECT_EQ(bt.time, bt_time_of_show(show["ts"])) << where;
  for (const char* member :
       {"pid", "tid", "cpu", "id", "version", "channel", "level", "opcode", "task"})
    EXPECT_EQ(bt.context[member].get<uint64_t>(), show[member].get<uint64_t>())
        << where << "." << member;
  EXPECT_EQ(bt.context["keyword"].get<uint64_t>(),
            std::stoull(show["keyword"].get<std::string>().substr(2), nullptr, 16))
      << where;
  const std::string provider = show["provider"];
  if (provider.starts_with("{")) {
    EXPECT_EQ(bt.context["provider_guid"], provider) << where;
  }
  expect_same_payload(bt, show, where);
}

}  // namespace pfc::test
