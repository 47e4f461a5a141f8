// compiler/check_payload.cc — the payload-filter part of the semantic checker: resolves the
// filtered event (by name or id/version), each predicate's field, operator and value
// (compiler/convert.h), and copies the post-order expression into a PayloadFilter.
#include <algorithm>

#include "base/quote.h"
#include "base/suggest.h"
#include "compiler/check_context.h"
#include "compiler/convert.h"
#include "compiler/regex_pred.h"
#include "runtime/glob.h"

namespace pfc::internal {
namespace {

static_assert(static_cast<int>(PayloadExpr::Node::Kind::Not) ==
                  static_cast<int>(ast::ExprNode::Kind::Not) &&
              static_cast<int>(PayloadExpr::Node::Kind::Or) ==
                  static_cast<int>(ast::ExprNode::Kind::Or));

// The event a payload filter names, or nullopt (reported).
std::optional<uint32_t> resolve_event(const ast::EventRef& ref, uint32_t provider,
                                      CheckContext& cx) {
  const ProviderDef& p = cx.schema().providers[provider];
  const ProviderIndex& pix = cx.providers[provider];
  if (ref.name) {
    auto it = pix.events.find(ref.name->text);
    if (it != pix.events.end()) return it->second;
    auto names = names_of(p.events, [](const EventDef& e) { return std::string_view(e.name); });
    cx.error(ref.name->pos, "unknown event " + quote_text(ref.name->text) + " in provider " +
                                quote_text(p.name) + did_you_mean(ref.name->text, names));
    return std::nullopt;
  }
  if (!ref.id) return std::nullopt;
  if (p.tracelogging) {
    cx.error(ref.pos, "events of TraceLogging provider " + quote_text(p.name) +
                          " are told apart by name, not by id: write 'payload EVENT'");
    return std::nullopt;
  }
  bool ok = check_unsigned(cx, *ref.id, 0xFFFF, "event id");
  if (ref.version) ok = check_unsigned(cx, *ref.version, 0xFF, "event version") && ok;
  if (!ok) return std::nullopt;
  const auto id = static_cast<uint16_t>(ref.id->magnitude);
  const auto version = static_cast<uint8_t>(ref.version ? ref.version->magnitude : 0);
  auto it = pix.by_id.find(uint32_t{id} << 8 | version);
  if (it != pix.by_id.end()) return it->second;
  std::string hint;
  auto other = std::ranges::find_if(p.events, [id](const EventDef& e) { return e.desc.id == id; });
  if (other != p.events.end()) {
    hint = "; event " + quote_text(other->name) + " has id " + std::to_string(id) +
           " and version " + std::to_string(other->desc.version);
  }
  cx.error(ref.pos, "provider " + quote_text(p.name) + " has no event with id " +
                        std::to_string(id) + " and version " + std::to_string(version) + hint);
  return std::nullopt;
}

// Reports a name that is no field of the event: a structure (which has no value of its
// own), a member of a field that is no structure, a member a structure does not declare
// (the longest declared prefix of the path decides; the error is at the member), or an
// unknown field.
void report_unknown_field(const ast::Name& name, const EventDef& ev, const EventIndex& ix,
                          CheckContext& cx) {
  const std::string& text = name.text;
  const std::string in_event = " of event " + quote_text(ev.name);
  if (auto s = ix.structs.find(text); s != ix.structs.end()) {
    const std::string prefix = text + ".";
    std::string members;
    for (const std::string& m : s->second) {
      if (!members.empty()) members += ", ";
      members += quote_text(prefix + m);
    }
    cx.error(name.pos, "structure " + quote_text(text) + in_event +
                           " has no value to compare; compare one of its members (" + members +
                           ")");
    return;
  }
  for (size_t dot = text.rfind('.'); dot != std::string::npos && dot > 0;
       dot = text.rfind('.', dot - 1)) {
    const std::string prefix = text.substr(0, dot), member = text.substr(dot + 1);
    if (auto s = ix.structs.find(prefix); s != ix.structs.end()) {
      std::vector<std::string_view> names(s->second.begin(), s->second.end());
      cx.error(name_char_pos(cx, name.pos, dot + 1), "structure " + quote_text(prefix) + in_event +
                                                         " has no member " + quote_text(member) +
                                                         did_you_mean(member, names));
      return;
    }
    if (auto f = ix.fields.find(prefix); f != ix.fields.end()) {
      cx.error(name_char_pos(cx, name.pos, dot + 1),
               "field " + quote_text(prefix) + in_event + " has type '" +
                   std::string(in_type_name(ev.fields[f->second].type)) +
                   "', not a structure: it has no member " + quote_text(member));
      return;
    }
  }
  auto names = names_of(ev.fields, [](const FieldDef& f) { return std::string_view(f.name); });
  cx.error(name.pos, "unknown field " + quote_text(text) + " in event " + quote_text(ev.name) +
                         did_you_mean(text, names));
}

// The field a predicate names, or null (reported). `what` is the role, for the message.
const FieldDef* resolve_field(const ast::Name& name, const EventDef& ev, const EventIndex& ix,
                              uint32_t& index, CheckContext& cx) {
  auto it = ix.fields.find(name.text);
  if (it == ix.fields.end()) {
    report_unknown_field(name, ev, ix, cx);
    return nullptr;
  }
  if (!ix.field_ok[it->second]) return nullptr;  // unknown type, already reported
  const FieldDef& field = ev.fields[it->second];
  if (field.count.present()) {
    cx.error(name.pos, "field " + quote_text(field.name) +
                           " is an array; payload predicates need a scalar field");
    return nullptr;
  }
  index = it->second;
  return &field;
}

// `A gt B` with B a field name: both scalar integers of the event; signed against 64-bit
// unsigned has no common 64-bit comparison and is rejected.
bool check_field_value(const ast::Predicate& ap, const FieldDef& field, const EventDef& ev,
                       const EventIndex& ix, PayloadPredicate& out, CheckContext& cx) {
  if (static_cast<uint16_t>(out.op) > static_cast<uint16_t>(PayloadOp::Ge)) {
    cx.error(ap.op_pos, "operator '" + std::string(payload_op_name(out.op)) +
                            "' cannot compare two fields; eq, ne, le, gt, lt and ge can");
    return false;
  }
  uint32_t other = 0;
  const FieldDef* f2 = resolve_field(ast::Name{ap.value.text, ap.value.pos}, ev, ix, other, cx);
  if (f2 == nullptr) return false;
  switch (field_pair_issue(field, *f2)) {
    case FieldPairIssue::None: break;
    case FieldPairIssue::FirstNotInteger:
    case FieldPairIssue::SecondNotInteger: {
      const bool first = field_pair_issue(field, *f2) == FieldPairIssue::FirstNotInteger;
      const FieldDef& f = first ? field : *f2;
      cx.error(first ? ap.field.pos : ap.value.pos,
               "field " + quote_text(f.name) + " of type '" + std::string(in_type_name(f.type)) +
                   "' cannot be compared with another field; only integer fields can");
      return false;
    }
    case FieldPairIssue::SignedWide:
      cx.error(ap.op_pos, "cannot compare signed and 64-bit unsigned fields " +
                              quote_text(field.name) + " and " + quote_text(f2->name));
      return false;
  }
  out.op = field_op_of(out.op);
  out.value.lo = other;
  return true;
}

// `matches` / `regex` patterns are checked here so a bad one is reported at its position.
bool check_pattern(const ast::Predicate& ap, PayloadOp op, CheckContext& cx) {
  const std::string& text = ap.value.text;
  const bool cs = payload_op_has(op, kCaseSensitive);
  if (op == PayloadOp::Matches || op == PayloadOp::MatchesCs) {
    GlobResult g = compile_glob(text, !cs);
    if (g.error.empty()) return true;
    cx.error(string_char_pos(cx, ap.value.pos, g.error_at), g.error);
    return false;
  }
  RegexResult re = compile_regex(text, cs);
  if (re.re) return true;
  // RE2 names the offending part of the pattern (error_arg), not its offset: its first
  // occurrence is where it starts (the whole pattern for a missing ')').
  const size_t at = re.error_arg.empty() ? std::string::npos : text.find(re.error_arg);
  const SourcePos pos =
      at == std::string::npos ? ap.value.pos : string_char_pos(cx, ap.value.pos, at);
  cx.error(pos, "invalid regex: " + re.error);
  return false;
}

// Converts one literal (the predicate's value or an `in` list item) into `out`.
bool convert_one(const ast::Predicate& ap, const ast::Value& v, const FieldDef& field,
                 PayloadPredicate& out, CheckContext& cx) {
  if (v.kind == ast::Value::Kind::Field) {
    cx.error(v.pos, "a field name cannot be a value here");
    return false;
  }
  if (payload_op_has(out.op, kPatternOp)) {
    if (v.kind != ast::Value::Kind::String) {
      cx.error(v.pos,
               "operator '" + std::string(payload_op_name(out.op)) + "' needs a string pattern");
      return false;
    }
    if (!check_pattern(ap, out.op, cx)) return false;
  }
  ConvertResult value = convert_value(field.name, field.type, out.op, v);
  if (!value) {
    cx.error(v.pos, std::move(value.error()));
    return false;
  }
  out.value = std::move(*value);
  return true;
}

// Resolves one predicate into `out`: one PayloadPredicate, or one per item of an `in` /
// `not in` list (Eq/Is resp. Ne/IsNot, combined by the caller with or / and). False when
// it was reported (or its field's type was).
bool check_predicate(const ast::Predicate& ap, const EventDef& ev, const EventIndex& ix,
                     std::vector<PayloadPredicate>& out, CheckContext& cx) {
  uint32_t index = 0;
  const FieldDef* field = resolve_field(ap.field, ev, ix, index, cx);
  if (field == nullptr) return false;
  const PayloadOpInfo* op = find_payload_op(static_cast<uint16_t>(ap.op));
  if (op == nullptr) {
    cx.error(ap.op_pos, "internal error: unknown payload operator");
    return false;
  }
  if (!payload_op_applies(field->type, op->op)) {
    // `==` / `!=` on a string or GUID: the word operators are `is` / `isnot`.
    const bool text = payload_value_kind(field->type) != ValueKind::Integer;
    const std::string hint = !text                     ? ""
                             : op->op == PayloadOp::Eq ? "; use 'is'"
                             : op->op == PayloadOp::Ne ? "; use 'isnot'"
                                                       : "";
    cx.error(ap.op_pos, "operator '" + std::string(payload_op_name(op->op)) +
                            "' cannot be applied to field " + quote_text(field->name) +
                            " of type '" + std::string(in_type_name(field->type)) + "'" + hint);
    return false;
  }
  if ((op->flags & kListOp) == 0) {
    PayloadPredicate& p = out.emplace_back();
    p.field = index;
    p.op = op->op;
    if (ap.value.kind == ast::Value::Kind::Field)
      return check_field_value(ap, *field, ev, ix, p, cx);
    return convert_one(ap, ap.value, *field, p, cx);
  }
  const bool integer = payload_value_kind(field->type) == ValueKind::Integer;
  const bool in = op->op == PayloadOp::In;
  const PayloadOp each =
      integer ? (in ? PayloadOp::Eq : PayloadOp::Ne) : (in ? PayloadOp::Is : PayloadOp::IsNot);
  bool ok = true;
  for (const ast::Value& v : ap.list) {
    PayloadPredicate& p = out.emplace_back();
    p.field = index;
    p.op = each;
    ok = convert_one(ap, v, *field, p, cx) && ok;
  }
  return ok;
}

// The checked predicates of one expression: AST predicate i became flat[first[i] ..
// first[i + 1]) (one predicate, or the items of an `in` list). One vector for all, not one
// per predicate: a 50 MB script has millions of them.
struct Expansions {
  std::vector<PayloadPredicate> flat;
  std::vector<uint32_t> first{0};
};

// True when the Pred nodes name predicates 0, 1, 2, … in order, as every parsed expression
// does: the expansions are then already in PayloadExpr order and move instead of being
// copied.
bool preds_in_order(const ast::Expr& in) {
  uint32_t next = 0;
  for (const ast::ExprNode& n : in.nodes) {
    if (n.kind == ast::ExprNode::Kind::Pred && n.index != next++) return false;
  }
  return next == in.preds.size();
}

// Copies the post-order node list, checking the invariants PayloadExpr promises, and
// replaces each predicate with its expansion (one predicate, or the items of an `in` list
// under one Or — `not in`: And — node). Takes the predicates out of `preds`.
bool copy_nodes(const ast::Expr& in, Expansions& preds, PayloadExpr& out) {
  using K = ast::ExprNode::Kind;
  const size_t total = preds.flat.size();
  // Extra items of `in` lists (a predicate expands to at least one).
  const size_t lists = total - std::min(total, in.preds.size());
  const bool in_order = preds_in_order(in);
  if (in_order) {
    out.preds = std::move(preds.flat);
  } else {
    out.preds.reserve(total);
  }
  out.nodes.reserve(in.nodes.size() + 2 * lists);
  out.kids.reserve(in.kids.size() + lists + in.preds.size());
  std::vector<uint32_t> at(in.nodes.size());  // new index of each node
  for (size_t i = 0; i < in.nodes.size(); ++i) {
    const ast::ExprNode& n = in.nodes[i];
    if (n.kind == K::Pred) {
      if (n.index >= in.preds.size()) return false;
      const uint32_t begin = preds.first[n.index];
      const uint32_t count = preds.first[n.index + 1] - begin;
      if (count == 0) return false;
      const uint32_t first_kid = static_cast<uint32_t>(out.kids.size());
      for (uint32_t k = 0; k < count; ++k) {
        if (count > 1) out.kids.push_back(static_cast<uint32_t>(out.nodes.size()));
        const auto index = in_order ? begin + k : static_cast<uint32_t>(out.preds.size());
        if (!in_order) out.preds.push_back(std::move(preds.flat[begin + k]));
        out.nodes.push_back({PayloadExpr::Node::Kind::Pred, index, 0});
      }
      if (count > 1) {
        const bool any = in.preds[n.index].op == PayloadOp::In;
        out.nodes.push_back(
            {any ? PayloadExpr::Node::Kind::Or : PayloadExpr::Node::Kind::And, first_kid, count});
      }
    } else {
      if (n.count == 0 || (n.kind == K::Not && n.count != 1)) return false;
      if (n.index > in.kids.size() || n.count > in.kids.size() - n.index) return false;
      const uint32_t first_kid = static_cast<uint32_t>(out.kids.size());
      for (uint32_t k = 0; k < n.count; ++k) {
        if (in.kids[n.index + k] >= i) return false;
        out.kids.push_back(at[in.kids[n.index + k]]);
      }
      out.nodes.push_back({static_cast<PayloadExpr::Node::Kind>(n.kind), first_kid, n.count});
    }
    at[i] = static_cast<uint32_t>(out.nodes.size() - 1);
  }
  return !out.nodes.empty();
}

}  // namespace

void check_payload_filter(const ast::Filter& filter, uint32_t provider, EnableParams& params,
                          CheckContext& cx) {
  const std::optional<uint32_t> event = resolve_event(filter.event, provider, cx);
  if (!event) return;
  const EventDef& ev = cx.schema().providers[provider].events[*event];
  const EventIndex& ix = cx.providers[provider].event_index[*event];
  PayloadFilter out;
  out.event_id = ev.desc.id;
  out.event_version = ev.desc.version;
  if (cx.schema().providers[provider].tracelogging) out.event_name = ev.name;
  out.group_all = filter.group == ast::Group::All;
  bool ok = true;
  Expansions preds;
  preds.flat.reserve(filter.expr.preds.size());
  preds.first.reserve(filter.expr.preds.size() + 1);
  for (const ast::Predicate& ap : filter.expr.preds) {
    ok = check_predicate(ap, ev, ix, preds.flat, cx) && ok;
    preds.first.push_back(static_cast<uint32_t>(preds.flat.size()));
  }
  if (!ok) return;
  if (!copy_nodes(filter.expr, preds, out.expr)) {
    cx.error(filter.pos, "internal error: malformed payload expression");
    return;
  }
  if (ok) params.payload.push_back(std::move(out));
}

}  // namespace pfc::internal
