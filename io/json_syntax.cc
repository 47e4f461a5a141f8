// io/json_syntax.cc — nlohmann::json SAX pass that records the first error.
#include "io/json_syntax.h"

#include <cmath>

#include <nlohmann/json.hpp>

namespace pfc::io {
namespace {

using nlohmann::json;

// Accepts every value; keeps the first error. A number too large for a double is an error
// here, as it is for the fast parser.
class ErrorSax : public nlohmann::json_sax<json> {
 public:
  std::optional<JsonSyntaxError> error;

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t value, const string_t& text) override {
    if (std::isfinite(value)) return true;
    error = JsonSyntaxError{0, "number overflow parsing '" + text + "'"};
    return false;
  }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& ex) override {
    error = JsonSyntaxError{position == 0 ? 0 : position - 1, ex.what()};
    return false;
  }
};

// "[json.exception.parse_error.101] parse error at line 1, column 6: syntax error …" →
// "syntax error …", made one clean line.
std::string clean(std::string text) {
  if (text.rfind("[json.exception.", 0) == 0) {
    const size_t close = text.find("] ");
    if (close != std::string::npos) text = text.substr(close + 2);
  }
  if (text.rfind("parse error", 0) == 0) {
    const size_t colon = text.find(": ");
    if (colon != std::string::npos) text = text.substr(colon + 2);
  }
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7F) c = '?';
  return text;
}

}  // namespace

std::optional<JsonSyntaxError> json_syntax_error(std::string_view text) {
  ErrorSax sax;
  json::sax_parse(text.begin(), text.end(), &sax, json::input_format_t::json, true, false);
  if (sax.error) {
    sax.error->offset = std::min(sax.error->offset, text.size());
    sax.error->message = clean(std::move(sax.error->message));
  }
  return sax.error;
}

}  // namespace pfc::io
