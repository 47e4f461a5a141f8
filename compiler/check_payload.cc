// compiler/check_payload.cc — the payload-filter part of the semantic checker: resolves the
// filtered event (by name or id/version), each predicate's field, operator and value
// (compiler/convert.h), and copies the post-order expression into a PayloadFilter.
#include <algorithm>

#include "base/quote.h"
#include "compiler/check_context.h"
#include "compiler/convert.h"
#include "compiler/suggest.h"

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

// Resolves one predicate; false when it was reported (or its field's type was).
bool check_predicate(const ast::Predicate& ap, const EventDef& ev, const EventIndex& ix,
                     PayloadPredicate& out, CheckContext& cx) {
  auto it = ix.fields.find(ap.field.text);
  if (it == ix.fields.end()) {
    auto names = names_of(ev.fields, [](const FieldDef& f) { return std::string_view(f.name); });
    cx.error(ap.field.pos, "unknown field " + quote_text(ap.field.text) + " in event " +
                               quote_text(ev.name) + did_you_mean(ap.field.text, names));
    return false;
  }
  if (!ix.field_ok[it->second]) return false;  // unknown type, already reported
  const FieldDef& field = ev.fields[it->second];
  if (field.count.present()) {
    cx.error(ap.field.pos, "field " + quote_text(field.name) +
                               " is an array; payload predicates need a scalar field");
    return false;
  }
  out.field = it->second;
  const PayloadOpInfo* op = find_payload_op(static_cast<uint16_t>(ap.op));
  if (op == nullptr) {
    cx.error(ap.op_pos, "internal error: unknown payload operator");
    return false;
  }
  out.op = op->op;
  if (!payload_op_applies(field.type, out.op)) {
    cx.error(ap.op_pos, "operator '" + std::string(payload_op_name(out.op)) +
                            "' cannot be applied to field " + quote_text(field.name) +
                            " of type '" + std::string(in_type_name(field.type)) + "'");
    return false;
  }
  ConvertResult value = convert_value(field.name, field.type, out.op, ap.value);
  if (!value) {
    cx.error(ap.value.pos, std::move(value.error()));
    return false;
  }
  out.value = std::move(*value);
  return true;
}

// Copies the post-order node list, checking the invariants PayloadExpr promises.
bool copy_nodes(const ast::Expr& in, PayloadExpr& out) {
  out.kids = in.kids;
  out.nodes.reserve(in.nodes.size());
  for (size_t i = 0; i < in.nodes.size(); ++i) {
    const ast::ExprNode& n = in.nodes[i];
    using K = ast::ExprNode::Kind;
    if (n.kind == K::Pred) {
      if (n.index >= in.preds.size()) return false;
    } else {
      if (n.count == 0 || (n.kind == K::Not && n.count != 1)) return false;
      if (n.index > in.kids.size() || n.count > in.kids.size() - n.index) return false;
      for (uint32_t k = 0; k < n.count; ++k) {
        if (in.kids[n.index + k] >= i) return false;
      }
    }
    out.nodes.push_back(
        {static_cast<PayloadExpr::Node::Kind>(n.kind), n.index, n.kind == K::Pred ? 0 : n.count});
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
  out.group_all = filter.group == ast::Group::All;
  bool ok = true;
  out.expr.preds.resize(filter.expr.preds.size());
  for (size_t i = 0; i < filter.expr.preds.size(); ++i) {
    ok = check_predicate(filter.expr.preds[i], ev, ix, out.expr.preds[i], cx) && ok;
  }
  if (!copy_nodes(filter.expr, out.expr)) {
    cx.error(filter.pos, "internal error: malformed payload expression");
    return;
  }
  if (ok) params.payload.push_back(std::move(out));
}

}  // namespace pfc::internal
