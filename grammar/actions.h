// grammar/actions.h — PEGTL actions: each matched rule calls one Builder method with the
// rule's position or text. Nothing else happens here (docs/style.md §6). Actions sit only on
// rules that cannot be backtracked over once matched (see rules.h), except inside at<>,
// where PEGTL disables them.
#pragma once

#include <string_view>

#include <tao/pegtl.hpp>

#include "grammar/builder.h"
#include "grammar/rules.h"

namespace pfc::internal {

template <typename Rule>
struct action : tao::pegtl::nothing<Rule> {};

template <typename Input>
std::string_view token(const Input& in) {
  return std::string_view(in.begin(), in.size());
}

// PFC_ACTION(rule, statement): `in` is the action input, `b` the Builder.
#define PFC_ACTION(rule, statement)                                                    \
  template <>                                                                          \
  struct action<rules::rule> {                                                         \
    template <typename Input>                                                          \
    static void apply([[maybe_unused]] const Input& in, [[maybe_unused]] Builder& b) { \
      statement;                                                                       \
    }                                                                                  \
  };

// Literals and level names.
PFC_ACTION(int_value, b.int_literal(token(in)))
PFC_ACTION(level_log_always, b.level_name(0, in.begin()))
PFC_ACTION(level_critical, b.level_name(1, in.begin()))
PFC_ACTION(level_error, b.level_name(2, in.begin()))
PFC_ACTION(level_warning, b.level_name(3, in.begin()))
PFC_ACTION(level_info, b.level_name(4, in.begin()))
PFC_ACTION(level_verbose, b.level_name(5, in.begin()))

// Imports.
PFC_ACTION(import_kw, b.begin_import(in.begin()))
PFC_ACTION(import_path, b.import_path(token(in)))

// Providers, events, fields.
PFC_ACTION(provider_kw, b.begin_provider(in.begin()))
PFC_ACTION(provider_name, b.provider_name(token(in)))
PFC_ACTION(provider_guid_lit, b.provider_guid(token(in)))
PFC_ACTION(provider_legacy, b.provider_legacy())
PFC_ACTION(provider_tracelogging, b.provider_tracelogging())
PFC_ACTION(event_kw, b.begin_event(in.begin()))
PFC_ACTION(event_name, b.event_name(token(in)))
PFC_ACTION(attr_id, b.attr_key(ast::AttrKind::Id, in.begin()))
PFC_ACTION(attr_version, b.attr_key(ast::AttrKind::Version, in.begin()))
PFC_ACTION(attr_level, b.attr_key(ast::AttrKind::Level, in.begin()))
PFC_ACTION(attr_keyword, b.attr_key(ast::AttrKind::Keyword, in.begin()))
PFC_ACTION(attr_opcode, b.attr_key(ast::AttrKind::Opcode, in.begin()))
PFC_ACTION(attr_task, b.attr_key(ast::AttrKind::Task, in.begin()))
PFC_ACTION(attr_channel, b.attr_key(ast::AttrKind::Channel, in.begin()))
PFC_ACTION(attr_value, b.attr_value())
PFC_ACTION(field_name, b.field_name(token(in)))
PFC_ACTION(field_type, b.field_type(token(in)))
PFC_ACTION(struct_kw, b.field_struct(in.begin()))
PFC_ACTION(struct_open, b.open_delim(in.begin()))
PFC_ACTION(struct_close, (b.close_struct(), b.close_delim()))
PFC_ACTION(count_fixed, b.count_fixed(token(in)))
PFC_ACTION(count_field, b.count_field(token(in)))
PFC_ACTION(length_fixed, b.length_fixed(token(in)))
PFC_ACTION(length_field, b.length_field(token(in)))

// Sessions, enables, options.
PFC_ACTION(session_kw, b.begin_session(in.begin()))
PFC_ACTION(session_name, b.session_name(token(in)))
PFC_ACTION(enable_kw, b.begin_enable(in.begin()))
PFC_ACTION(enable_name, b.enable_name(token(in)))
PFC_ACTION(option_level_kw, b.option_key(ast::OptionKind::Level, in.begin()))
PFC_ACTION(option_any_kw, b.option_key(ast::OptionKind::Any, in.begin()))
PFC_ACTION(option_all_kw, b.option_key(ast::OptionKind::All, in.begin()))
PFC_ACTION(option_properties_kw, b.option_key(ast::OptionKind::Properties, in.begin()))
PFC_ACTION(option_level_value, b.option_value())
PFC_ACTION(option_any_value, b.option_value())
PFC_ACTION(option_all_value, b.option_value())
PFC_ACTION(prop_name, b.property(token(in)))

// Filters.
PFC_ACTION(list_int, b.filter_int(token(in)))
PFC_ACTION(filter_text, b.filter_text(token(in)))
PFC_ACTION(id_not, b.filter_not_in())
PFC_ACTION(ref_id_value, b.event_ref_id())
PFC_ACTION(ref_version_value, b.event_ref_version())
PFC_ACTION(event_ref_name, b.event_ref_name(token(in)))
PFC_ACTION(event_ref, b.event_ref(in.begin()))
PFC_ACTION(form_all, b.payload_block(ast::PayloadForm::All, in.begin()))
PFC_ACTION(form_any, b.payload_block(ast::PayloadForm::Any, in.begin()))
PFC_ACTION(block_open, b.open_delim(in.begin()))
PFC_ACTION(block_close, (b.close_block(), b.close_delim()))
PFC_ACTION(group_all, b.group(ast::Group::All, in.begin()))
PFC_ACTION(group_any, b.group(ast::Group::Any, in.begin()))

// Predicates.
PFC_ACTION(pred_field, b.pred_field(token(in)))
PFC_ACTION(value_field, b.value_field(token(in)))
PFC_ACTION(list_value_int, b.value_int(token(in)))
PFC_ACTION(list_value, b.list_value())
PFC_ACTION(list_item, b.list_value())
PFC_ACTION(value_int, b.value_int(token(in)))
PFC_ACTION(value_hi, b.value_hi(token(in)))
PFC_ACTION(value_string, b.value_string(token(in)))
PFC_ACTION(value_guid_lit, b.value_guid(token(in)))

// `where` expressions.
PFC_ACTION(form_where, b.begin_where(in.begin()))
PFC_ACTION(prefix_not, b.push_not(in.begin()))
PFC_ACTION(prefix_open, (b.open_paren(in.begin()), b.open_delim(in.begin())))
PFC_ACTION(expr_pred, b.where_pred())
PFC_ACTION(close_paren, (b.close_paren(), b.close_delim()))
PFC_ACTION(op_or, b.op_or())
PFC_ACTION(payload_where, b.end_where())

// Delimiters, for the "to match this '{'" note (errors.h).
PFC_ACTION(provider_open, b.open_delim(in.begin()))
PFC_ACTION(provider_close, b.close_delim())
PFC_ACTION(event_attrs_open, b.open_delim(in.begin()))
PFC_ACTION(event_attrs_close, b.close_delim())
PFC_ACTION(event_open, b.open_delim(in.begin()))
PFC_ACTION(event_close, b.close_delim())
PFC_ACTION(session_open, b.open_delim(in.begin()))
PFC_ACTION(session_close, b.close_delim())
PFC_ACTION(enable_open, b.open_delim(in.begin()))
PFC_ACTION(enable_close, b.close_delim())
PFC_ACTION(props_open, b.open_delim(in.begin()))
PFC_ACTION(props_close, b.close_delim())

#undef PFC_ACTION

// Every filter keyword: the filter it begins.
template <ast::FilterKind K>
struct action<rules::filter_word<K>> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.begin_filter(K, in.begin());
  }
};

// Every predicate operator: the operator the rule stands for.
template <PayloadOp Op, typename... Forms>
struct action<rules::op<Op, Forms...>> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.pred_op(Op, in.begin());
  }
};

}  // namespace pfc::internal
