// grammar/dump.cc — the one-line S-expression AST dump (docs/language.md "AST dump").
// Expressions are printed with an explicit stack; nothing here recurses on the input.
#include "grammar/dump.h"

#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/ascii.h"
#include "base/hex.h"
#include "base/payload_ops.h"

namespace pfc {
namespace {

bool is_bare_name(std::string_view s) {
  if (s.empty()) return false;
  if (!(is_ascii_alpha(s[0]) || s[0] == '_')) return false;
  for (const char c : s) {
    if (!(is_ascii_alnum(c) || c == '_' || c == '.' || c == '-')) return false;
  }
  return true;
}

void put_quoted(std::string& out, std::string_view s) {
  out.push_back('"');
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out.push_back('\\'), out.push_back(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (u < 0x20 || u == 0x7F) {
      out += "\\u";
      append_hex(out, u, 4);
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
}

void put_name(std::string& out, std::string_view name) {
  if (is_bare_name(name)) {
    out += name;
  } else {
    put_quoted(out, name);
  }
}

void put_name(std::string& out, const ast::Name& name) { put_name(out, name.text); }

void put_int(std::string& out, const ast::Int& v) {
  if (v.negative) out.push_back('-');
  out += std::to_string(v.magnitude);
}

void put_guid(std::string& out, std::string_view text) {
  for (const char c : text) out.push_back(ascii_upper(c));
}

void put_guid(std::string& out, const ast::GuidLit& g) { put_guid(out, g.text); }

const char* attr_name(ast::AttrKind k) {
  static constexpr const char* kNames[] = {"id",     "version", "level",  "keyword",
                                           "opcode", "task",    "channel"};
  static_assert(std::size(kNames) == static_cast<size_t>(ast::AttrKind::Channel) + 1);
  return kNames[static_cast<size_t>(k)];
}

// The operator table's spelling (base/payload_ops.h), but `not in` as one word.
std::string_view op_name(PayloadOp op) {
  return op == PayloadOp::NotIn ? "notin" : internal::payload_op_name(op);
}

void put_extent(std::string& out, const char* what, const std::optional<ast::ExtentRef>& e) {
  if (!e) return;
  out += std::string(" (") + what + " ";
  if (e->fixed) put_int(out, *e->fixed);
  if (e->field) put_name(out, *e->field);
  out.push_back(')');
}

void put_provider(std::string& out, const ast::Provider& p) {
  out += "(provider ";
  put_name(out, p.name);
  if (p.guid) out.push_back(' '), put_guid(out, *p.guid);
  if (p.legacy) out += " legacy";
  if (p.tracelogging) out += " tracelogging";
  for (const ast::Event& e : p.events) {
    out += " (event ";
    put_name(out, e.name);
    for (const ast::Attr& a : e.attrs) {
      out += std::string(" (") + attr_name(a.kind) + " ";
      put_int(out, a.value);
      out.push_back(')');
    }
    std::vector<uint32_t> open;  // ends of the structures being written
    for (uint32_t i = 0; i < e.fields.size(); ++i) {
      const ast::Field& f = e.fields[i];
      out += f.is_struct ? " (struct " : " (field ";
      put_name(out, f.name);
      if (f.is_struct) {
        open.push_back(f.end);
      } else {
        out.push_back(' ');
        put_name(out, f.type);
        put_extent(out, "count", f.count);
        put_extent(out, "length", f.length);
        out.push_back(')');
      }
      if (f.is_struct && f.end == i + 1) out.push_back(')'), open.pop_back();
      while (!open.empty() && open.back() == i + 1) out.push_back(')'), open.pop_back();
    }
    out.push_back(')');
  }
  out += ")\n";
}

void put_value(std::string& out, const ast::Value& v) {
  switch (v.kind) {
    case ast::Value::Kind::Int: put_int(out, v.lo); break;
    case ast::Value::Kind::IntPair:
      put_int(out, v.lo), out.push_back(' '), put_int(out, v.hi);
      break;
    case ast::Value::Kind::String: put_quoted(out, v.text); break;
    case ast::Value::Kind::Guid: put_guid(out, v.text); break;
    case ast::Value::Kind::Field:
      out += "(field ";
      put_name(out, v.text);
      out.push_back(')');
      break;
  }
}

void put_predicate(std::string& out, const ast::Predicate& p) {
  out += "(";
  out += op_name(p.op);
  out += " ";
  put_name(out, p.field);
  if (p.list.empty()) out.push_back(' '), put_value(out, p.value);
  for (const ast::Value& v : p.list) out.push_back(' '), put_value(out, v);
  out.push_back(')');
}

// Pre-order walk of the post-order node array with an explicit stack of (node, next kid).
void put_expr(std::string& out, const ast::Expr& e) {
  if (e.nodes.empty()) return;
  std::vector<std::pair<uint32_t, uint32_t>> stack = {
      {static_cast<uint32_t>(e.nodes.size() - 1), 0}};
  while (!stack.empty()) {
    auto& [index, next] = stack.back();
    const ast::ExprNode& node = e.nodes[index];
    if (node.kind == ast::ExprNode::Kind::Pred) {
      put_predicate(out, e.preds[node.index]);
      stack.pop_back();
      continue;
    }
    if (next == 0) {
      out += node.kind == ast::ExprNode::Kind::And  ? "(and"
             : node.kind == ast::ExprNode::Kind::Or ? "(or"
                                                    : "(not";
    }
    if (next < node.count) {
      const uint32_t kid = e.kids[node.index + next];
      ++next;
      out.push_back(' ');
      stack.emplace_back(kid, 0);  // invalidates index/next; not used again this turn
    } else {
      out.push_back(')');
      stack.pop_back();
    }
  }
}

void put_filter(std::string& out, const ast::Filter& f) {
  using K = ast::FilterKind;
  out += " (";
  out += ast::filter_kind_name(f.kind);
  if (f.kind == K::EventId || f.kind == K::StackId) out += f.filter_in ? " in" : " not in";
  for (const ast::Int& v : f.ints) out.push_back(' '), put_int(out, v);
  if (ast::is_name_scope(f.kind)) {
    out.push_back(' '), put_quoted(out, f.text.value);
  }
  if (f.kind == K::Payload) {
    out.push_back(' ');
    if (f.event.name) {
      put_name(out, *f.event.name);
    } else {
      out += "(id ";
      if (f.event.id) put_int(out, *f.event.id);
      if (f.event.version) out += " version ", put_int(out, *f.event.version);
      out.push_back(')');
    }
    static constexpr const char* kForms[] = {" all ", " any ", " where "};
    out += kForms[static_cast<size_t>(f.form)];
    put_expr(out, f.expr);
    if (f.group) out += *f.group == ast::Group::All ? " (group all)" : " (group any)";
  }
  out.push_back(')');
}

void put_session(std::string& out, const ast::Session& s) {
  out += "(session ";
  put_name(out, s.name);
  for (const ast::Enable& en : s.enables) {
    out += " (enable ";
    put_name(out, en.provider);
    for (const ast::Option& o : en.options) {
      static constexpr const char* kNames[] = {"level", "any", "all", "properties"};
      out += std::string(" (") + kNames[static_cast<size_t>(o.kind)];
      if (o.kind == ast::OptionKind::Properties) {
        for (const ast::Name& n : o.properties) out.push_back(' '), put_name(out, n);
      } else {
        out.push_back(' '), put_int(out, o.value);
      }
      out.push_back(')');
    }
    for (const ast::Filter& f : en.filters) put_filter(out, f);
    out.push_back(')');
  }
  out += ")\n";
}

}  // namespace

std::string dump_ast(const ast::Script& script) {
  std::string out;
  for (const ast::Import& i : script.imports) {
    out += "(import ";
    put_quoted(out, i.path.value);
    out += ")\n";
  }
  for (const ast::Provider& p : script.providers) put_provider(out, p);
  for (const ast::Session& s : script.sessions) put_session(out, s);
  return out;
}

}  // namespace pfc
