// grammar/rules.h — the PEGTL grammar of filter scripts (docs/language.md §2), one rule per line.
// Only rules live here: grammar/actions.h feeds the builder, grammar/errors.h names every
// must<> point. No rule recurses: `where` expressions are a flat operand/operator sequence
// whose parentheses and `not`s are balanced and depth-checked through the parser state.
#pragma once

#include <cstddef>
#include <tao/pegtl.hpp>
#include <utility>

#include "base/payload_ops.h"
#include "grammar/ast.h"

namespace pfc::internal::rules {

namespace p = tao::pegtl;

// One rule per line, however long (docs/style.md §6): clang-format keeps its hands off.
// clang-format off

// --- state-reading rules (zero-width; the state is the grammar Builder) -------------------

// Succeeds while one more `(` or `not` stays within the nesting limit.
struct nesting_ok : p::success {
  template <p::apply_mode, p::rewind_mode, template <typename...> class,
            template <typename...> class, typename Input, typename State>
  static bool match(Input& /*in*/, State& state) { return state.can_nest(); }
};
// Succeeds when a `(` of the current `where` expression is still open.
struct paren_open_pending : p::success {
  template <p::apply_mode, p::rewind_mode, template <typename...> class,
            template <typename...> class, typename Input, typename State>
  static bool match(Input& /*in*/, State& state) { return state.open_parens() > 0; }
};
// Succeeds when a structure of the current event declaration is still open.
struct struct_open_pending : p::success {
  template <p::apply_mode, p::rewind_mode, template <typename...> class,
            template <typename...> class, typename Input, typename State>
  static bool match(Input& /*in*/, State& state) { return state.open_structs() > 0; }
};
// Succeeds when every `(` of the current `where` expression is closed.
struct parens_closed : p::success {
  template <p::apply_mode, p::rewind_mode, template <typename...> class,
            template <typename...> class, typename Input, typename State>
  static bool match(Input& /*in*/, State& state) { return state.open_parens() == 0; }
};

// --- lexical --------------------------------------------------------------------------

struct comment : p::seq<p::one<'#'>, p::star<p::not_one<'\n'>>> {};
struct blank : p::sor<p::plus<p::space>, comment> {};
struct skip : p::star<blank> {};
struct name_first : p::sor<p::alpha, p::one<'_'>> {};
struct name_rest : p::sor<p::alnum, p::one<'_', '.', '-'>> {};
struct ident : p::seq<name_first, p::star<name_rest>> {};
template <typename Str> struct kw : p::seq<Str, p::not_at<name_rest>, skip> {};
template <char... Cs> struct sym : p::seq<p::string<Cs...>, skip> {};

struct hex_int : p::seq<p::one<'0'>, p::one<'x', 'X'>, p::plus<p::xdigit>> {};
struct dec_int : p::plus<p::digit> {};
struct int_lit : p::seq<p::opt<p::one<'-'>>, p::sor<hex_int, dec_int>, p::not_at<name_rest>> {};

struct string_closed : p::seq<p::one<'"'>, p::star<p::sor<p::seq<p::one<'\\'>, p::not_one<'\n'>>, p::not_one<'"', '\\', '\n'>>>, p::one<'"'>> {};
struct string_terminated : p::at<string_closed> {};
struct escape_unicode : p::seq<p::one<'u'>, p::one<'{'>, p::plus<p::xdigit>, p::one<'}'>> {};
struct escape_valid : p::seq<p::one<'\\'>, p::sor<p::one<'"', '\\', 'n', 't'>, p::seq<p::one<'x'>, p::xdigit, p::xdigit>, escape_unicode>> {};
struct escape_check : p::at<escape_valid> {};
struct string_escape : p::seq<p::at<p::one<'\\'>>, p::must<escape_check>, escape_valid> {};
struct string_plain : p::plus<p::not_one<'"', '\\', '\n'>> {};
struct quoted : p::seq<p::at<p::one<'"'>>, p::must<string_terminated>, p::one<'"'>, p::star<p::sor<string_plain, string_escape>>, p::one<'"'>> {};
struct name : p::sor<ident, quoted> {};

struct guid_lit : p::seq<p::one<'{'>, p::rep<8, p::xdigit>, p::one<'-'>, p::rep<4, p::xdigit>, p::one<'-'>, p::rep<4, p::xdigit>, p::one<'-'>, p::rep<4, p::xdigit>, p::one<'-'>, p::rep<12, p::xdigit>, p::one<'}'>> {};
struct guid_check : p::at<guid_lit> {};

struct list_sep : sym<','> {};
struct int_value : int_lit {};

// --- level names (attribute and option values) ---------------------------------------

struct level_log_always : kw<TAO_PEGTL_ISTRING("log_always")> {};
struct level_critical : kw<TAO_PEGTL_ISTRING("critical")> {};
struct level_error : kw<TAO_PEGTL_ISTRING("error")> {};
struct level_warning : kw<TAO_PEGTL_ISTRING("warning")> {};
struct level_info : kw<TAO_PEGTL_ISTRING("info")> {};
struct level_verbose : kw<TAO_PEGTL_ISTRING("verbose")> {};
struct level_name : p::sor<level_log_always, level_critical, level_error, level_warning, level_info, level_verbose> {};
struct level_or_int : p::sor<level_name, p::seq<int_value, skip>> {};

// --- providers ------------------------------------------------------------------------

struct event_word : kw<TAO_PEGTL_ISTRING("event")> {};
struct provider_kw : kw<TAO_PEGTL_ISTRING("provider")> {};
struct provider_name : name {};
struct provider_guid_lit : guid_lit {};
struct provider_guid : p::seq<p::at<p::one<'{'>, p::xdigit>, p::not_at<p::one<'{'>, event_word>, p::must<guid_check>, provider_guid_lit, skip> {};
struct provider_legacy : kw<TAO_PEGTL_ISTRING("legacy")> {};
struct provider_tracelogging : kw<TAO_PEGTL_ISTRING("tracelogging")> {};
struct provider_open : sym<'{'> {};
struct provider_close : sym<'}'> {};

struct event_kw : event_word {};
struct event_name : name {};
struct event_attrs_open : sym<'('> {};
struct attr_id : kw<TAO_PEGTL_ISTRING("id")> {};
struct attr_version : kw<TAO_PEGTL_ISTRING("version")> {};
struct attr_level : kw<TAO_PEGTL_ISTRING("level")> {};
struct attr_keyword : kw<TAO_PEGTL_ISTRING("keyword")> {};
struct attr_opcode : kw<TAO_PEGTL_ISTRING("opcode")> {};
struct attr_task : kw<TAO_PEGTL_ISTRING("task")> {};
struct attr_channel : kw<TAO_PEGTL_ISTRING("channel")> {};
struct attr_key : p::sor<attr_id, attr_version, attr_level, attr_keyword, attr_opcode, attr_task, attr_channel> {};
struct attr_eq : sym<'='> {};
struct attr_value : level_or_int {};
struct event_attr : p::seq<attr_key, p::must<attr_eq>, p::must<attr_value>> {};
struct event_attrs_close : sym<')'> {};
struct event_open : sym<'{'> {};
struct event_close : sym<'}'> {};

struct field_name : name {};
struct field_colon : sym<':'> {};
struct field_type : name {};
struct count_open : sym<'['> {};
struct count_fixed : int_lit {};
struct count_field : name {};
struct count_value : p::seq<p::sor<count_fixed, count_field>, skip> {};
struct count_close : sym<']'> {};
struct field_count : p::seq<count_open, p::must<count_value>, p::must<count_close>> {};
struct length_kw : kw<TAO_PEGTL_ISTRING("length")> {};
struct length_eq : sym<'='> {};
struct length_fixed : int_lit {};
struct length_field : name {};
struct length_value : p::seq<p::sor<length_fixed, length_field>, skip> {};
struct field_length : p::seq<length_kw, p::must<length_eq>, p::must<length_value>> {};
struct field_end : sym<';'> {};
// `Name: struct { fields }` (TraceLogging events): the fields that follow, up to the `}`
// that closes it, are its members. Flat like `where`: the builder counts open structures.
struct struct_kw : kw<TAO_PEGTL_ISTRING("struct")> {};
struct struct_open : sym<'{'> {};
struct struct_close : p::seq<struct_open_pending, p::one<'}'>, skip> {};
struct field_struct : p::seq<struct_kw, p::must<struct_open>> {};
struct field_scalar : p::seq<p::must<field_type>, skip, p::opt<field_count>, p::opt<field_length>, p::must<field_end>> {};
struct field_decl : p::seq<field_name, skip, p::must<field_colon>, p::sor<field_struct, field_scalar>> {};
struct event_item : p::sor<struct_close, field_decl> {};

struct event_decl : p::seq<event_kw, p::must<event_name>, skip, p::must<event_attrs_open>, p::must<event_attr>, p::star<list_sep, p::must<event_attr>>, p::must<event_attrs_close>, p::must<event_open>, p::star<event_item>, p::must<event_close>> {};
struct provider_decl : p::seq<provider_kw, p::must<provider_name>, skip, p::opt<provider_guid>, p::opt<p::sor<provider_legacy, provider_tracelogging>>, p::must<provider_open>, p::star<event_decl>, p::must<provider_close>> {};

// --- predicates (shared by `all`/`any` blocks and `where`) ------------------------------

struct not_word : kw<TAO_PEGTL_ISTRING("not")> {};
// An operator's keyword, spelled as the operator table spells it (base/payload_ops.h).
template <PayloadOp Op, size_t... I> p::istring<payload_op_name(Op)[I]...> op_spelling(std::index_sequence<I...>);
template <PayloadOp Op> struct op_word : kw<decltype(op_spelling<Op>(std::make_index_sequence<payload_op_name(Op).size()>()))> {};
// Predicate operator Op, written in any of its forms (actions.h hands Op to the builder).
template <PayloadOp Op, typename... Forms> struct op : p::sor<Forms...> {};
using op_eq = op<PayloadOp::Eq, sym<'=', '='>, op_word<PayloadOp::Eq>>;
using op_ne = op<PayloadOp::Ne, sym<'!', '='>, op_word<PayloadOp::Ne>>;
using op_le = op<PayloadOp::Le, sym<'<', '='>, op_word<PayloadOp::Le>>;
using op_ge = op<PayloadOp::Ge, sym<'>', '='>, op_word<PayloadOp::Ge>>;
using op_lt = op<PayloadOp::Lt, sym<'<'>, op_word<PayloadOp::Lt>>;
using op_gt = op<PayloadOp::Gt, sym<'>'>, op_word<PayloadOp::Gt>>;
using op_between = op<PayloadOp::Between, op_word<PayloadOp::Between>>;
using op_notbetween = op<PayloadOp::NotBetween, op_word<PayloadOp::NotBetween>, p::seq<not_word, op_word<PayloadOp::Between>>>;
using op_modulo = op<PayloadOp::Modulo, op_word<PayloadOp::Modulo>>;
using op_contains = op<PayloadOp::Contains, op_word<PayloadOp::Contains>>;
using op_doesntcontain = op<PayloadOp::DoesntContain, op_word<PayloadOp::DoesntContain>>;
using op_is = op<PayloadOp::Is, op_word<PayloadOp::Is>>;
using op_isnot = op<PayloadOp::IsNot, op_word<PayloadOp::IsNot>>;
// pfc extensions (docs/language.md §3.1). `.cs` forms are single tokens: `.` is a name
// character, so `is.cs` never matches `is`, and no valid script had a `.cs` operator.
using op_startswith = op<PayloadOp::StartsWith, op_word<PayloadOp::StartsWith>>;
using op_endswith = op<PayloadOp::EndsWith, op_word<PayloadOp::EndsWith>>;
using op_matches = op<PayloadOp::Matches, op_word<PayloadOp::Matches>>;
using op_regex = op<PayloadOp::Regex, op_word<PayloadOp::Regex>>;
using op_is_cs = op<PayloadOp::IsCs, op_word<PayloadOp::IsCs>>;
using op_isnot_cs = op<PayloadOp::IsNotCs, op_word<PayloadOp::IsNotCs>>;
using op_contains_cs = op<PayloadOp::ContainsCs, op_word<PayloadOp::ContainsCs>>;
using op_doesntcontain_cs = op<PayloadOp::DoesntContainCs, op_word<PayloadOp::DoesntContainCs>>;
using op_startswith_cs = op<PayloadOp::StartsWithCs, op_word<PayloadOp::StartsWithCs>>;
using op_endswith_cs = op<PayloadOp::EndsWithCs, op_word<PayloadOp::EndsWithCs>>;
using op_matches_cs = op<PayloadOp::MatchesCs, op_word<PayloadOp::MatchesCs>>;
using op_regex_cs = op<PayloadOp::RegexCs, op_word<PayloadOp::RegexCs>>;
struct pred_op : p::sor<op_eq, op_ne, op_le, op_ge, op_lt, op_gt, op_between, op_notbetween, op_modulo, op_contains, op_doesntcontain, op_is, op_isnot, op_startswith, op_endswith, op_matches, op_regex, op_is_cs, op_isnot_cs, op_contains_cs, op_doesntcontain_cs, op_startswith_cs, op_endswith_cs, op_matches_cs, op_regex_cs> {};

struct value_int : int_lit {};
struct value_hi : int_lit {};
struct value_hi_tok : p::seq<value_hi, skip> {};
struct value_pair : p::seq<value_int, skip, p::opt<list_sep, p::must<value_hi_tok>>> {};
struct value_string : quoted {};
struct value_guid_lit : guid_lit {};
struct value_guid : p::seq<p::at<p::one<'{'>>, p::must<guid_check>, value_guid_lit, skip> {};
struct value_field : ident {};  // field-to-field comparison: a bare name only ("x" is a string)
struct pred_value : p::sor<value_guid, p::seq<value_string, skip>, value_pair, p::seq<value_field, skip>> {};
struct value_start : p::sor<p::digit, p::one<'-', '"', '{'>> {};
// `in` / `not in` lists: one or more literals (no pairs, no field names).
using op_in = op<PayloadOp::In, op_word<PayloadOp::In>>;
using op_notin = op<PayloadOp::NotIn, p::seq<not_word, op_word<PayloadOp::In>>>;
struct list_value_int : int_lit {};
struct list_value : p::sor<value_guid, p::seq<value_string, skip>, p::seq<list_value_int, skip>> {};
struct list_item : list_value {};
struct in_tail : p::seq<p::sor<op_in, op_notin>, p::must<list_value>, p::star<list_sep, p::must<list_item>>> {};
struct pred_field : name {};
struct pred : p::seq<pred_field, skip, p::sor<in_tail, p::seq<p::must<pred_op>, p::must<pred_value>>>> {};

// --- `where` expressions: operand { ("and" | "or") operand } ----------------------------

// `not` followed by an operator and the start of a value is a field called `not`.
struct not_is_field : p::seq<not_word, p::sor<pred_op, op_in, op_notin>, value_start> {};
struct prefix_not : p::seq<p::not_at<not_is_field>, not_word> {};
struct prefix_open : sym<'('> {};
struct prefix : p::seq<p::at<p::sor<p::one<'('>, prefix_not>>, p::must<nesting_ok>, p::sor<prefix_open, prefix_not>> {};
struct expr_pred : pred {};
struct close_paren : p::seq<paren_open_pending, p::one<')'>, skip> {};
struct operand : p::seq<p::star<prefix>, p::must<expr_pred>, p::star<close_paren>> {};
struct op_and : kw<TAO_PEGTL_ISTRING("and")> {};
struct op_or : kw<TAO_PEGTL_ISTRING("or")> {};
struct expr : p::seq<operand, p::star<p::sor<op_and, op_or>, operand>> {};

// --- sessions ---------------------------------------------------------------------------

struct session_kw : kw<TAO_PEGTL_ISTRING("session")> {};
struct session_name : name {};
struct session_open : sym<'{'> {};
struct session_close : sym<'}'> {};
struct enable_kw : kw<TAO_PEGTL_ISTRING("enable")> {};
struct enable_name : name {};

struct option_eq : sym<'='> {};
struct option_level_kw : kw<TAO_PEGTL_ISTRING("level")> {};
struct option_level_value : level_or_int {};
struct option_level : p::seq<option_level_kw, p::must<option_eq>, p::must<option_level_value>> {};
struct option_any_kw : kw<TAO_PEGTL_ISTRING("any")> {};
struct option_any_value : p::seq<int_value, skip> {};
struct option_any : p::seq<option_any_kw, p::must<option_eq>, p::must<option_any_value>> {};
struct option_all_kw : kw<TAO_PEGTL_ISTRING("all")> {};
struct option_all_value : p::seq<int_value, skip> {};
struct option_all : p::seq<option_all_kw, p::must<option_eq>, p::must<option_all_value>> {};
struct option_properties_kw : kw<TAO_PEGTL_ISTRING("properties")> {};
struct props_open : sym<'('> {};
struct prop_name : name {};
struct props_close : sym<')'> {};
struct option_properties : p::seq<option_properties_kw, p::must<option_eq>, p::must<props_open>, p::must<prop_name>, skip, p::star<list_sep, p::must<prop_name>, skip>, p::must<props_close>> {};
struct enable_option : p::sor<option_level, option_any, option_all, option_properties> {};

// A filter's keyword, spelled as ast::kFilterKindNames spells it (actions.h begins the filter).
template <ast::FilterKind K, size_t... I> p::istring<ast::filter_kind_name(K)[I]...> filter_spelling(std::index_sequence<I...>);
template <ast::FilterKind K> struct filter_word : kw<decltype(filter_spelling<K>(std::make_index_sequence<ast::filter_kind_name(K).size()>()))> {};

using pid_kw = filter_word<ast::FilterKind::Pid>;
struct list_int : int_lit {};
struct pid_value : p::seq<list_int, skip> {};
struct pid_end : sym<';'> {};
struct pid_filter : p::seq<pid_kw, p::must<pid_value>, p::star<list_sep, p::must<pid_value>>, p::must<pid_end>> {};

// The keywords of the name scopes (exe, package_id, ...: every scope kind but pid,
// base/scope_kinds.h).
template <size_t... I> p::sor<filter_word<ast::scope_filter(ast::ScopeKind(internal::kFirstNameScope + I))>...> name_scope_words(std::index_sequence<I...>);
struct name_scope_kw : decltype(name_scope_words(std::make_index_sequence<internal::kScopeKindCount - internal::kFirstNameScope>())) {};
struct filter_text : quoted {};
struct filter_string : p::seq<filter_text, skip> {};
struct filter_text_end : sym<';'> {};
struct text_filter : p::seq<name_scope_kw, p::must<filter_string>, p::must<filter_text_end>> {};

using event_id_kw = filter_word<ast::FilterKind::EventId>;
using stack_id_kw = filter_word<ast::FilterKind::StackId>;
struct id_not : not_word {};
struct id_in : kw<TAO_PEGTL_ISTRING("in")> {};
struct id_value : p::seq<list_int, skip> {};
struct id_end : sym<';'> {};
struct id_filter : p::seq<p::sor<event_id_kw, stack_id_kw>, p::opt<id_not>, p::must<id_in>, p::must<id_value>, p::star<list_sep, p::must<id_value>>, p::must<id_end>> {};

using payload_kw = filter_word<ast::FilterKind::Payload>;
struct ref_id_kw : kw<TAO_PEGTL_ISTRING("id")> {};
struct ref_eq : sym<'='> {};
struct ref_id_value : p::seq<int_value, skip> {};
struct ref_version_kw : kw<TAO_PEGTL_ISTRING("version")> {};
struct ref_version_eq : sym<'='> {};
struct ref_version_value : p::seq<int_value, skip> {};
struct ref_version : p::seq<ref_version_kw, p::must<ref_version_eq>, p::must<ref_version_value>> {};
struct event_ref_id : p::seq<ref_id_kw, ref_eq, p::must<ref_id_value>, p::opt<ref_version>> {};
struct event_ref_name : name {};
struct event_ref : p::sor<event_ref_id, p::seq<event_ref_name, skip>> {};
struct form_all : kw<TAO_PEGTL_ISTRING("all")> {};
struct form_any : kw<TAO_PEGTL_ISTRING("any")> {};
struct block_open : sym<'{'> {};
struct block_pred : pred {};
struct block_sep : sym<';'> {};
struct block_close : sym<'}'> {};
struct group_kw : kw<TAO_PEGTL_ISTRING("group")> {};
struct group_eq : sym<'='> {};
struct group_all : kw<TAO_PEGTL_ISTRING("all")> {};
struct group_any : kw<TAO_PEGTL_ISTRING("any")> {};
struct group_value : p::sor<group_all, group_any> {};
struct payload_group : p::seq<group_kw, p::must<group_eq>, p::must<group_value>> {};
struct payload_end : sym<';'> {};
struct payload_block : p::seq<p::sor<form_all, form_any>, p::must<block_open>, p::must<block_pred>, p::star<block_sep, block_pred>, p::opt<block_sep>, p::must<block_close>, p::opt<payload_group>, p::opt<payload_end>> {};
struct form_where : kw<TAO_PEGTL_ISTRING("where")> {};
struct where_end : sym<';'> {};
struct payload_where : p::seq<form_where, expr, p::must<parens_closed>, p::must<where_end>> {};
struct payload_form : p::sor<payload_block, payload_where> {};
struct payload_filter : p::seq<payload_kw, p::must<event_ref>, p::must<payload_form>> {};

struct filter : p::sor<pid_filter, text_filter, id_filter, payload_filter> {};
struct enable_end : sym<';'> {};
struct enable_open : sym<'{'> {};
struct enable_close : sym<'}'> {};
struct enable_body : p::sor<enable_end, p::seq<enable_open, p::star<filter>, p::must<enable_close>>> {};
struct enable_decl : p::seq<enable_kw, p::must<enable_name>, skip, p::star<enable_option>, p::must<enable_body>> {};
struct session_decl : p::seq<session_kw, p::must<session_name>, skip, p::must<session_open>, p::star<enable_decl>, p::must<session_close>> {};

// --- imports --------------------------------------------------------------------------

struct import_kw : kw<TAO_PEGTL_ISTRING("import")> {};
struct import_path : quoted {};
struct import_string : p::seq<import_path, skip> {};
struct import_end : sym<';'> {};
struct import_decl : p::seq<import_kw, p::must<import_string>, p::must<import_end>> {};

// --- script -----------------------------------------------------------------------------

struct script_end : p::eof {};
struct grammar : p::seq<skip, p::star<p::sor<import_decl, provider_decl, session_decl>>, p::must<script_end>> {};
// clang-format on

}  // namespace pfc::internal::rules
