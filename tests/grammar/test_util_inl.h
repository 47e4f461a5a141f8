// tests/grammar/test_util_inl.h — template part of test_util.h (AST position walk).
#pragma once

namespace pfc::test {

template <typename F>
void for_each_pos(const ast::Script& s, F&& f) {
  for (const auto& p : s.providers) {
    f(p.pos), f(p.name.pos);
    if (p.guid) f(p.guid->pos);
    for (const auto& e : p.events) {
      f(e.pos), f(e.name.pos);
      for (const auto& a : e.attrs) f(a.pos), f(a.value.pos);
      for (const auto& fd : e.fields) {
        f(fd.pos), f(fd.name.pos), f(fd.type.pos);
        for (const auto* x : {&fd.count, &fd.length}) {
          if (!*x) continue;
          f((*x)->pos);
          if ((*x)->fixed) f((*x)->fixed->pos);
          if ((*x)->field) f((*x)->field->pos);
        }
      }
    }
  }
  for (const auto& s2 : s.sessions) {
    f(s2.pos), f(s2.name.pos);
    for (const auto& en : s2.enables) {
      f(en.pos), f(en.provider.pos);
      for (const auto& o : en.options) {
        f(o.pos);
        if (o.kind == ast::OptionKind::Properties) {
          for (const auto& n : o.properties) f(n.pos);
        } else {
          f(o.value.pos);
        }
      }
      for (const auto& fl : en.filters) {
        f(fl.pos);
        for (const auto& i : fl.ints) f(i.pos);
        if (fl.kind == ast::FilterKind::Exe || fl.kind == ast::FilterKind::PackageId ||
            fl.kind == ast::FilterKind::AppId) {
          f(fl.text.pos);
        }
        if (fl.kind != ast::FilterKind::Payload) continue;
        f(fl.event.pos);
        if (fl.event.name) f(fl.event.name->pos);
        if (fl.event.id) f(fl.event.id->pos);
        if (fl.event.version) f(fl.event.version->pos);
        if (fl.group) f(fl.group_pos);
        for (const auto& pr : fl.expr.preds)
          f(pr.pos), f(pr.field.pos), f(pr.op_pos), f(pr.value.pos);
        for (const auto& n : fl.expr.nodes) f(n.pos);
      }
    }
  }
}

}  // namespace pfc::test
