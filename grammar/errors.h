// grammar/errors.h — one message per must<> point of grammar/rules.h, and the PEGTL control
// class that raises them. Messages may name the field being declared or compared ({name})
// or the nesting limit ({limit}); both come from the builder (the parser state).
#pragma once

#include <array>
#include <string>
#include <string_view>

#include <tao/pegtl.hpp>

#include "grammar/ast.h"
#include "grammar/rules.h"

namespace pfc::internal {

// "expected a filter (pid, exe, ...) or '}'": the keywords of ast::kFilterKindNames.
inline constexpr std::string_view kFilterListHead = "expected a filter (";
inline constexpr std::string_view kFilterListTail = ") or '}'";
constexpr size_t enable_close_message_size() {
  size_t n = kFilterListHead.size() + kFilterListTail.size() + 1;  // + NUL
  for (std::string_view k : ast::kFilterKindNames) n += k.size() + 2;
  return n - 2;  // no ", " before the first keyword
}
inline constexpr auto kEnableCloseMessage = [] {
  std::array<char, enable_close_message_size()> text{};
  size_t n = 0;
  const auto put = [&](std::string_view s) {
    for (const char c : s) text[n++] = c;
  };
  put(kFilterListHead);
  for (std::string_view k : ast::kFilterKindNames) {
    if (n != kFilterListHead.size()) put(", ");
    put(k);
  }
  put(kFilterListTail);
  return text;  // NUL-terminated: the last element stays '\0'
}();

// X(rule, message): every rule that appears inside must<>, with its diagnostic.
#define PFC_GRAMMAR_ERRORS(X)                                                                   \
  X(script_end, "expected 'import', 'provider' or 'session'")                                   \
  X(import_string, "expected a quoted manifest path after 'import'")                            \
  X(import_end, "expected ';' after the import path")                                           \
  X(provider_name, "expected a provider name after 'provider'")                                 \
  X(guid_check, "malformed GUID (expected {XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX})")             \
  X(provider_open, "expected '{' after provider name")                                          \
  X(provider_close, "expected 'event' or '}' in provider body")                                 \
  X(event_name, "expected an event name after 'event'")                                         \
  X(event_attrs_open, "expected '(' after event name")                                          \
  X(event_attr,                                                                                 \
    "expected an event attribute (id, version, level, keyword, opcode, task or channel)")       \
  X(attr_eq, "expected '=' after event attribute name")                                         \
  X(attr_value,                                                                                 \
    "expected an integer or a level name (log_always, critical, error, warning, info, "         \
    "verbose)")                                                                                 \
  X(event_attrs_close, "expected ',' or ')' after event attribute")                             \
  X(event_open, "expected '{' after event attributes")                                          \
  X(event_close, "expected a field declaration or '}' in event body")                           \
  X(field_colon, "expected ':' after field name '{name}'")                                      \
  X(field_type, "expected a type name or 'struct' after ':'")                                   \
  X(struct_open, "expected '{' after 'struct'")                                                 \
  X(count_value, "expected an integer or a field name after '['")                               \
  X(count_close, "expected ']' after array count")                                              \
  X(length_eq, "expected '=' after 'length'")                                                   \
  X(length_value, "expected an integer or a field name after 'length='")                        \
  X(field_end, "expected ';' to end the declaration of field '{name}'")                         \
  X(session_name, "expected a session name after 'session'")                                    \
  X(session_open, "expected '{' after session name")                                            \
  X(session_close, "expected 'enable' or '}' in session body")                                  \
  X(enable_name, "expected a provider name after 'enable'")                                     \
  X(option_eq, "expected '=' after option name")                                                \
  X(option_level_value, "expected an integer or a level name after 'level='")                   \
  X(option_any_value, "expected an integer after 'any='")                                       \
  X(option_all_value, "expected an integer after 'all='")                                       \
  X(props_open, "expected '(' after 'properties='")                                             \
  X(prop_name, "expected a property name")                                                      \
  X(props_close, "expected ',' or ')' after property name")                                     \
  X(enable_body, "expected an option (level, any, all, properties), ';' or '{' after 'enable'") \
  X(enable_close, kEnableCloseMessage.data())                                                   \
  X(pid_value, "expected a process id (integer)")                                               \
  X(pid_end, "expected ',' or ';' after process id")                                            \
  X(filter_string, "expected a string after the filter keyword")                                \
  X(filter_text_end, "expected ';' after the filter string")                                    \
  X(id_in, "expected 'in' or 'not in'")                                                         \
  X(id_value, "expected an id (integer)")                                                       \
  X(id_end, "expected ',' or ';' after id")                                                     \
  X(event_ref, "expected an event name or 'id=' after 'payload'")                               \
  X(ref_id_value, "expected an integer after 'id='")                                            \
  X(ref_version_eq, "expected '=' after 'version'")                                             \
  X(ref_version_value, "expected an integer after 'version='")                                  \
  X(payload_form, "expected 'all', 'any' or 'where' after the payload event")                   \
  X(block_open, "expected '{' after 'all' or 'any'")                                            \
  X(block_pred, "expected a predicate (field name, operator, value)")                           \
  X(block_close, "expected ';' or '}' after predicate")                                         \
  X(group_eq, "expected '=' after 'group'")                                                     \
  X(group_value, "expected 'all' or 'any' after 'group='")                                      \
  X(expr_pred, "expected a predicate, 'not' or '('")                                            \
  X(nesting_ok, "expression nesting exceeds the limit of {limit}")                              \
  X(parens_closed, "expected ')'")                                                              \
  X(where_end, "expected 'and', 'or' or ';'")                                                   \
  X(pred_op, "expected an operator after field name '{name}'")                                  \
  X(pred_value, "expected a value (integer, string or GUID) after the operator")                \
  X(value_hi_tok, "expected an integer after ','")                                              \
  X(list_value, "expected a value (integer, string or GUID) after 'in'")                        \
  X(list_item, "expected a value (integer, string or GUID) after ','")                          \
  X(string_terminated, "unterminated string")                                                   \
  X(escape_check, "invalid escape sequence (expected \\\", \\\\, \\n, \\t, \\xHH or \\u{H...})")

// Messages the builder raises itself (bad literals found while building the AST).
inline constexpr std::string_view kIntOverflowMessage = "integer literal does not fit in 64 bits";
inline constexpr std::string_view kBadCodePointMessage =
    "invalid code point in \\u{...} escape (surrogate or above U+10FFFF)";

template <typename Rule>
inline constexpr const char* error_message = nullptr;

#define PFC_GRAMMAR_ERROR_SPECIALIZATION(rule, text) \
  template <>                                        \
  inline constexpr const char* error_message<rules::rule> = text;
PFC_GRAMMAR_ERRORS(PFC_GRAMMAR_ERROR_SPECIALIZATION)
#undef PFC_GRAMMAR_ERROR_SPECIALIZATION

// Every must<> message, for tests that check each one is reachable.
#define PFC_GRAMMAR_ERROR_TEXT(rule, text) text,
inline constexpr std::array kAllErrorMessages = {PFC_GRAMMAR_ERRORS(PFC_GRAMMAR_ERROR_TEXT)};
#undef PFC_GRAMMAR_ERROR_TEXT

// Replaces {name} and {limit} in a message with values from the builder.
template <typename State>
std::string expand_message(std::string_view text, const State& state) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.substr(i, 6) == "{name}") {
      out += state.current_name(), i += 5;
    } else if (text.substr(i, 7) == "{limit}") {
      out += std::to_string(state.nesting_limit()), i += 6;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

// Rules that close a `{` or `(`: their failure gets a "to match this" note at the opener.
template <typename Rule>
inline constexpr bool closes_delimiter = false;
#define PFC_CLOSES(rule) \
  template <>            \
  inline constexpr bool closes_delimiter<rules::rule> = true;
PFC_CLOSES(provider_close)
PFC_CLOSES(event_attrs_close)
PFC_CLOSES(event_close)
PFC_CLOSES(session_close)
PFC_CLOSES(enable_close)
PFC_CLOSES(props_close)
PFC_CLOSES(block_close)
PFC_CLOSES(parens_closed)
#undef PFC_CLOSES

// PEGTL control: normal<> behaviour, except that a failed must<Rule> raises the rule's
// message (and, for a closing rule, marks the delimiter it could not close). A must<>
// point without a message is a compile error.
template <typename Rule>
struct control : tao::pegtl::normal<Rule> {
  template <typename Input, typename State>
  [[noreturn]] static void raise(const Input& in, State& state) {
    static_assert(error_message<Rule> != nullptr, "must<> point without an error message");
    if constexpr (closes_delimiter<Rule>) state.mark_unclosed();
    throw tao::pegtl::parse_error(expand_message(error_message<Rule>, state), in);
  }
};

}  // namespace pfc::internal
