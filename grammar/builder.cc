// grammar/builder.cc — AST construction for the grammar actions: literal decoding (integers,
// string escapes, quoted names) and the flat post-order `where` tree (ast.h ExprNode).
#include "grammar/builder.h"

#include <cassert>
#include <optional>

#include "base/hex.h"
#include "base/integer_text.h"
#include "base/utf8.h"
#include "grammar/errors.h"

namespace pfc::internal {
namespace {

// The value of a hex digit the grammar has already checked.
uint32_t hex_digit(char c) { return static_cast<uint32_t>(hex_digit_value(c)); }

// A name as shown inside a one-line message: control characters escaped, long names cut
// at a code point boundary.
std::string display_name(std::string_view text) {
  constexpr size_t kMaxShown = 80;
  std::string out;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (out.size() >= kMaxShown && (c & 0xC0) != 0x80) return out + "...";
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7F) {
      append_byte_escape(out, c, HexCase::Upper);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

}  // namespace

Builder::Builder(const SourceFile& source, const ParseLimits& limits)
    : source_(source), base_(source.text().data()), limit_(limits.max_nesting), frames_(1) {}

uint32_t Builder::offset(const char* at) const { return static_cast<uint32_t>(at - base_); }

// Positions are mostly requested in increasing order, so scan forward from the previous
// one (linear over the whole parse); anything earlier asks the SourceFile's line table.
SourcePos Builder::pos(const char* at) {
  const uint32_t target = offset(at);
  if (target < cursor_.offset) return source_.position(target);
  const auto* text = reinterpret_cast<const uint8_t*>(base_);
  const size_t size = source_.text().size();
  SourcePos c = cursor_;
  while (c.offset < target) {
    const uint8_t byte = text[c.offset];
    if (byte == '\n') {
      ++c.line, c.column = 1, ++c.offset;
    } else {
      c.offset += static_cast<uint32_t>(
          byte < 0x80 ? 1 : utf8_step_length(text + c.offset, size - c.offset));
      ++c.column;
    }
  }
  if (c.offset != target) return source_.position(target);  // inside a sequence: rare
  cursor_ = c;
  return c;
}

// --- literals ---------------------------------------------------------------------------

ast::Int Builder::parse_int(std::string_view tok) {
  ast::Int value;
  value.pos = pos(tok.data());
  size_t i = 0;
  if (tok[i] == '-') value.negative = true, ++i;
  // The grammar lets only well-formed digits through, so only an overflow can fail here.
  const std::optional<ParsedUnsigned> digits = parse_unsigned_text(tok.substr(i));
  if (!digits || digits->overflow) {
    throw BuildError{offset(tok.data()), std::string(kIntOverflowMessage)};
  }
  value.magnitude = digits->value;
  return value;
}

// Decodes a quoted token (quotes included) whose escapes the grammar has already checked.
std::string Builder::decode_string(std::string_view tok) const {
  std::string out;
  out.reserve(tok.size());
  const std::string_view body = tok.substr(1, tok.size() - 2);
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\') {
      out.push_back(body[i]);
      continue;
    }
    const char kind = body[++i];
    if (kind == 'n') {
      out.push_back('\n');
    } else if (kind == 't') {
      out.push_back('\t');
    } else if (kind == 'x') {
      append_utf8(out, hex_digit(body[i + 1]) * 16 + hex_digit(body[i + 2]));
      i += 2;
    } else if (kind == 'u') {
      const size_t escape_at = i - 1;
      uint32_t cp = 0;
      bool valid = true;
      for (i += 2; body[i] != '}'; ++i) {
        if (cp > 0x10FFFF) valid = false;  // stop growing; keeps cp from overflowing
        if (valid) cp = cp * 16 + hex_digit(body[i]);
      }
      if (!valid || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        throw BuildError{offset(body.data() + escape_at), std::string(kBadCodePointMessage)};
      }
      append_utf8(out, cp);
    } else {
      out.push_back(kind);  // '"' or '\\'
    }
  }
  return out;
}

ast::Name Builder::make_name(std::string_view tok) {
  ast::Name name;
  name.pos = pos(tok.data());
  name.text = tok.front() == '"' ? decode_string(tok) : std::string(tok);
  return name;
}

void Builder::int_literal(std::string_view tok) { pending_int_ = parse_int(tok); }

void Builder::level_name(uint64_t level, const char* at) {
  pending_int_ = ast::Int{level, false, pos(at)};
}

// --- providers --------------------------------------------------------------------------

void Builder::begin_import(const char* at) { script_.imports.emplace_back().pos = pos(at); }

void Builder::import_path(std::string_view tok) {
  script_.imports.back().path = ast::String{decode_string(tok), pos(tok.data())};
}

void Builder::begin_provider(const char* at) { script_.providers.emplace_back().pos = pos(at); }

void Builder::provider_name(std::string_view tok) {
  script_.providers.back().name = make_name(tok);
}

void Builder::provider_guid(std::string_view tok) {
  script_.providers.back().guid = ast::GuidLit{std::string(tok), pos(tok.data())};
}

void Builder::provider_legacy() { script_.providers.back().legacy = true; }
void Builder::provider_tracelogging() { script_.providers.back().tracelogging = true; }

void Builder::begin_event(const char* at) {
  structs_.clear();
  script_.providers.back().events.emplace_back().pos = pos(at);
}

void Builder::event_name(std::string_view tok) {
  script_.providers.back().events.back().name = make_name(tok);
}

void Builder::attr_key(ast::AttrKind kind, const char* at) {
  attr_kind_ = kind;
  attr_pos_ = pos(at);
}

void Builder::attr_value() {
  script_.providers.back().events.back().attrs.push_back(
      ast::Attr{attr_kind_, pending_int_, attr_pos_});
}

void Builder::field_name(std::string_view tok) {
  std::vector<ast::Field>& fields = script_.providers.back().events.back().fields;
  ast::Field& field = fields.emplace_back();
  field.name = make_name(tok);
  field.pos = field.name.pos;
  field.end = static_cast<uint32_t>(fields.size());
  field.parent = structs_.empty() ? 0 : structs_.back() + 1;
  current_name_ = display_name(field.name.text);
}

void Builder::field_type(std::string_view tok) {
  script_.providers.back().events.back().fields.back().type = make_name(tok);
}

void Builder::field_struct(const char* at) {
  std::vector<ast::Field>& fields = script_.providers.back().events.back().fields;
  fields.back().is_struct = true;
  fields.back().type = ast::Name{"struct", pos(at)};
  structs_.push_back(static_cast<uint32_t>(fields.size() - 1));
}

void Builder::close_struct() {
  std::vector<ast::Field>& fields = script_.providers.back().events.back().fields;
  fields[structs_.back()].end = static_cast<uint32_t>(fields.size());
  structs_.pop_back();
}

void Builder::count_fixed(std::string_view tok) {
  const ast::Int value = parse_int(tok);
  script_.providers.back().events.back().fields.back().count =
      ast::ExtentRef{value, std::nullopt, value.pos};
}

void Builder::count_field(std::string_view tok) {
  ast::Name name = make_name(tok);
  const SourcePos at = name.pos;
  script_.providers.back().events.back().fields.back().count =
      ast::ExtentRef{std::nullopt, std::move(name), at};
}

void Builder::length_fixed(std::string_view tok) {
  const ast::Int value = parse_int(tok);
  script_.providers.back().events.back().fields.back().length =
      ast::ExtentRef{value, std::nullopt, value.pos};
}

void Builder::length_field(std::string_view tok) {
  ast::Name name = make_name(tok);
  const SourcePos at = name.pos;
  script_.providers.back().events.back().fields.back().length =
      ast::ExtentRef{std::nullopt, std::move(name), at};
}

// --- sessions ---------------------------------------------------------------------------

void Builder::begin_session(const char* at) { script_.sessions.emplace_back().pos = pos(at); }

void Builder::session_name(std::string_view tok) { script_.sessions.back().name = make_name(tok); }

void Builder::begin_enable(const char* at) {
  script_.sessions.back().enables.emplace_back().pos = pos(at);
}

void Builder::enable_name(std::string_view tok) {
  script_.sessions.back().enables.back().provider = make_name(tok);
}

void Builder::option_key(ast::OptionKind kind, const char* at) {
  ast::Option& option = script_.sessions.back().enables.back().options.emplace_back();
  option.kind = kind;
  option.pos = pos(at);
}

void Builder::option_value() {
  script_.sessions.back().enables.back().options.back().value = pending_int_;
}

void Builder::property(std::string_view tok) {
  script_.sessions.back().enables.back().options.back().properties.push_back(make_name(tok));
}

// --- filters ----------------------------------------------------------------------------

ast::Filter& Builder::filter() { return script_.sessions.back().enables.back().filters.back(); }

void Builder::begin_filter(ast::FilterKind kind, const char* at) {
  ast::Filter& f = script_.sessions.back().enables.back().filters.emplace_back();
  f.kind = kind;
  f.pos = pos(at);
}

void Builder::filter_int(std::string_view tok) { filter().ints.push_back(parse_int(tok)); }

void Builder::filter_text(std::string_view tok) {
  filter().text = ast::String{decode_string(tok), pos(tok.data())};
}

void Builder::filter_not_in() { filter().filter_in = false; }

void Builder::event_ref_id() { filter().event.id = pending_int_; }

void Builder::event_ref_version() { filter().event.version = pending_int_; }

void Builder::event_ref_name(std::string_view tok) { filter().event.name = make_name(tok); }

void Builder::event_ref(const char* at) { filter().event.pos = pos(at); }

void Builder::payload_block(ast::PayloadForm form, const char* at) {
  filter().form = form;
  block_pos_ = pos(at);
}

void Builder::close_block() {
  ast::Expr& e = expr();
  std::vector<uint32_t> kids;
  kids.reserve(e.preds.size());
  for (uint32_t i = 0; i < e.preds.size(); ++i) {
    kids.push_back(emit(ast::ExprNode::Kind::Pred, i, e.preds[i].pos));
  }
  const auto kind =
      filter().form == ast::PayloadForm::All ? ast::ExprNode::Kind::And : ast::ExprNode::Kind::Or;
  emit_group(kind, kids, block_pos_);
}

void Builder::group(ast::Group group, const char* at) {
  filter().group = group;
  filter().group_pos = pos(at);
}

// --- predicates -------------------------------------------------------------------------

void Builder::pred_field(std::string_view tok) {
  ast::Predicate& pred = expr().preds.emplace_back();
  pred.field = make_name(tok);
  pred.pos = pred.field.pos;
  current_name_ = display_name(pred.field.text);
}

void Builder::pred_op(PayloadOp op, const char* at) {
  predicate().op = op;
  predicate().op_pos = pos(at);
}

void Builder::value_int(std::string_view tok) {
  ast::Value& v = predicate().value;
  v.kind = ast::Value::Kind::Int;
  v.lo = parse_int(tok);
  v.pos = v.lo.pos;
}

void Builder::value_hi(std::string_view tok) {
  ast::Value& v = predicate().value;
  v.kind = ast::Value::Kind::IntPair;
  v.hi = parse_int(tok);
}

void Builder::value_string(std::string_view tok) {
  ast::Value& v = predicate().value;
  v.kind = ast::Value::Kind::String;
  v.text = decode_string(tok);
  v.pos = pos(tok.data());
}

void Builder::value_guid(std::string_view tok) {
  ast::Value& v = predicate().value;
  v.kind = ast::Value::Kind::Guid;
  v.text = std::string(tok);
  v.pos = pos(tok.data());
}

void Builder::value_field(std::string_view tok) {
  ast::Value& v = predicate().value;
  v.kind = ast::Value::Kind::Field;
  ast::Name name = make_name(tok);
  v.text = std::move(name.text);
  v.pos = name.pos;
}

void Builder::list_value() { predicate().list.push_back(predicate().value); }

// --- expression nodes -------------------------------------------------------------------

uint32_t Builder::emit(ast::ExprNode::Kind kind, uint32_t index, SourcePos at) {
  ast::Expr& e = expr();
  e.nodes.push_back(ast::ExprNode{kind, index, kind == ast::ExprNode::Kind::Not ? 1u : 0u, at});
  return static_cast<uint32_t>(e.nodes.size() - 1);
}

uint32_t Builder::emit_group(ast::ExprNode::Kind kind, const std::vector<uint32_t>& kids,
                             SourcePos at) {
  ast::Expr& e = expr();
  const auto first = static_cast<uint32_t>(e.kids.size());
  e.kids.insert(e.kids.end(), kids.begin(), kids.end());
  e.nodes.push_back(ast::ExprNode{kind, first, static_cast<uint32_t>(kids.size()), at});
  return static_cast<uint32_t>(e.nodes.size() - 1);
}

// --- `where` expressions ----------------------------------------------------------------

void Builder::begin_where(const char* /*at*/) {
  filter().form = ast::PayloadForm::Where;
  frame_count_ = 1;
  frames_[0].clear();
  nesting_ = 0;
}

void Builder::push_not(const char* at) {
  frames_[frame_count_ - 1].nots.push_back(pos(at));
  ++nesting_;
}

void Builder::open_paren(const char* /*at*/) {
  if (frames_.size() == frame_count_) frames_.emplace_back();
  frames_[frame_count_++].clear();
  ++nesting_;
}

void Builder::where_pred() {
  ast::Expr& e = expr();
  const auto index = static_cast<uint32_t>(e.preds.size() - 1);
  complete_operand(emit(ast::ExprNode::Kind::Pred, index, e.preds.back().pos));
}

// Applies the pending `not`s of the innermost level (innermost first) and appends the
// operand to that level's `and` chain.
void Builder::complete_operand(uint32_t node) {
  Frame& frame = frames_[frame_count_ - 1];
  while (!frame.nots.empty()) {
    const uint32_t kid_slot = static_cast<uint32_t>(expr().kids.size());
    expr().kids.push_back(node);
    node = emit(ast::ExprNode::Kind::Not, kid_slot, frame.nots.back());
    frame.nots.pop_back();
    --nesting_;
  }
  frame.and_items.push_back(node);
}

void Builder::op_or() {
  Frame& frame = frames_[frame_count_ - 1];
  const std::vector<uint32_t>& items = frame.and_items;
  const uint32_t chain = items.size() == 1 ? items.front()
                                           : emit_group(ast::ExprNode::Kind::And, items,
                                                        expr().nodes[items.front()].pos);
  frame.or_items.push_back(chain);
  frame.and_items.clear();
}

// Closes the innermost level: its last `and` chain, then its `or` list. Returns the root.
uint32_t Builder::close_level(Frame& frame) {
  op_or();
  const std::vector<uint32_t>& items = frame.or_items;
  return items.size() == 1
             ? items.front()
             : emit_group(ast::ExprNode::Kind::Or, items, expr().nodes[items.front()].pos);
}

void Builder::close_paren() {
  assert(frame_count_ > 1);
  const uint32_t node = close_level(frames_[frame_count_ - 1]);
  --frame_count_;
  --nesting_;
  complete_operand(node);
}

void Builder::end_where() {
  assert(frame_count_ == 1 && frames_[0].nots.empty());
  close_level(frames_[0]);
}

}  // namespace pfc::internal
