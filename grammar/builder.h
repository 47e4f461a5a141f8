// grammar/builder.h — constructs the AST (grammar/ast.h) while PEGTL parses. It is the parser
// state: grammar/actions.h calls exactly one method per matched rule, and the state-reading
// rules ask it about `where` nesting. Internal to grammar/.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "grammar/ast.h"
#include "grammar/parse.h"
#include "grammar/source.h"

namespace pfc::internal {

// Thrown by the Builder for a malformed literal (integer overflow, bad code point); parse.cc
// turns it into a Diagnostic like a parse_error.
struct BuildError {
  uint32_t offset;
  std::string message;
};

// Not thread-safe; one Builder per parse. Token arguments are views into the source text
// (`at` / `tok.data()` must point into it). Methods may throw BuildError.
class Builder {
 public:
  Builder(const SourceFile& source, const ParseLimits& limits);

  ast::Script take_script() { return std::move(script_); }

  // Parser-state queries (rules.h, errors.h).
  bool can_nest() const { return nesting_ < limit_; }
  uint32_t open_parens() const { return static_cast<uint32_t>(frame_count_ - 1); }
  uint32_t nesting_limit() const { return limit_; }
  const std::string& current_name() const { return current_name_; }

  // Open `{` / `(` delimiters, innermost last (offsets into the source). A failed must<>
  // of a closing rule (errors.h) marks the innermost one, for the "to match this" note.
  void open_delim(const char* at) { delims_.push_back(offset(at)); }
  void close_delim() {
    if (!delims_.empty()) delims_.pop_back();
  }
  void mark_unclosed() { unclosed_ = delims_.empty() ? kNoDelim : delims_.back(); }
  // Offset of the delimiter an error could not close, or kNoDelim.
  static constexpr uint32_t kNoDelim = UINT32_MAX;
  uint32_t unclosed() const { return unclosed_; }

  // Literals: remembered until a context method consumes them.
  void int_literal(std::string_view tok);
  void level_name(uint64_t level, const char* at);

  // Providers.
  void begin_import(const char* at);
  void import_path(std::string_view tok);
  void begin_provider(const char* at);
  void provider_name(std::string_view tok);
  void provider_guid(std::string_view tok);
  void provider_legacy();
  void provider_tracelogging();
  void begin_event(const char* at);
  void event_name(std::string_view tok);
  void attr_key(ast::AttrKind kind, const char* at);
  void attr_value();
  void field_name(std::string_view tok);
  void field_type(std::string_view tok);
  // `struct` after a field's `:` (`at`): the field is a structure; the fields up to the
  // matching close_struct() are its members.
  void field_struct(const char* at);
  void close_struct();
  uint32_t open_structs() const { return static_cast<uint32_t>(structs_.size()); }
  void count_fixed(std::string_view tok);
  void count_field(std::string_view tok);
  void length_fixed(std::string_view tok);
  void length_field(std::string_view tok);

  // Sessions, enables, options.
  void begin_session(const char* at);
  void session_name(std::string_view tok);
  void begin_enable(const char* at);
  void enable_name(std::string_view tok);
  void option_key(ast::OptionKind kind, const char* at);
  void option_value();
  void property(std::string_view tok);

  // Filters.
  void begin_filter(ast::FilterKind kind, const char* at);
  void filter_int(std::string_view tok);
  void filter_text(std::string_view tok);
  void filter_not_in();
  void event_ref_id();
  void event_ref_version();
  void event_ref_name(std::string_view tok);
  void event_ref(const char* at);
  void payload_block(ast::PayloadForm form, const char* at);
  void close_block();
  void group(ast::Group group, const char* at);

  // Predicates.
  void pred_field(std::string_view tok);
  void pred_op(PayloadOp op, const char* at);
  void value_int(std::string_view tok);
  void value_hi(std::string_view tok);
  void value_string(std::string_view tok);
  void value_guid(std::string_view tok);
  void value_field(std::string_view tok);
  void list_value();  // appends the value just parsed to the `in` list

  // `where` expressions (flat; see rules.h): operands, prefixes and operators in order.
  void begin_where(const char* at);
  void push_not(const char* at);
  void open_paren(const char* at);
  void where_pred();
  void close_paren();
  void op_or();
  void end_where();

 private:
  // One open parenthesis level of a `where` expression (level 0 = the whole expression).
  struct Frame {
    std::vector<SourcePos> nots;      // pending `not`s, applied to the next operand
    std::vector<uint32_t> and_items;  // operands of the current `and` chain
    std::vector<uint32_t> or_items;   // finished `and` chains of this level
    void clear() { nots.clear(), and_items.clear(), or_items.clear(); }
  };

  SourcePos pos(const char* at);
  uint32_t offset(const char* at) const;
  ast::Int parse_int(std::string_view tok);
  std::string decode_string(std::string_view tok) const;
  ast::Name make_name(std::string_view tok);
  ast::Filter& filter();
  ast::Expr& expr() { return filter().expr; }
  ast::Predicate& predicate() { return expr().preds.back(); }
  uint32_t emit(ast::ExprNode::Kind kind, uint32_t index, SourcePos at);
  uint32_t emit_group(ast::ExprNode::Kind kind, const std::vector<uint32_t>& kids, SourcePos at);
  uint32_t close_level(Frame& frame);
  void complete_operand(uint32_t node);

  const SourceFile& source_;
  const char* base_;
  SourcePos cursor_;  // last position handed out; later offsets are found by scanning on
  uint32_t limit_;
  ast::Script script_;
  ast::Int pending_int_;
  ast::AttrKind attr_kind_ = ast::AttrKind::Id;
  SourcePos attr_pos_;
  SourcePos block_pos_;        // `all` / `any` of the payload block being parsed
  std::string current_name_;   // field being declared or compared, shown in messages
  std::vector<Frame> frames_;  // reused across expressions; frames_[0..frame_count_) live
  size_t frame_count_ = 1;
  uint32_t nesting_ = 0;  // open parentheses + pending `not`s
  std::vector<uint32_t> delims_;
  std::vector<uint32_t> structs_;  // the current event's open structures (field indices)
  uint32_t unclosed_ = kNoDelim;
};

}  // namespace pfc::internal
