// grammar/ast.h — the parsed script, exactly as written, with source positions. Produced
// by grammar/parse.h, read by compiler/check. Names are not resolved and values are not
// converted here. Expressions are stored flat (post-order) so no later stage recurses.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/scope_kinds.h"
#include "grammar/source.h"
#include "pfc/enable.h"

namespace pfc::ast {

struct Name {
  std::string text;  // quoted names are unquoted and unescaped
  SourcePos pos;
};

// An integer literal: decimal or hex, optionally negative, magnitude ≤ 2^64 - 1.
struct Int {
  uint64_t magnitude = 0;
  bool negative = false;
  SourcePos pos;
};

struct String {
  std::string value;  // UTF-8, escapes resolved
  SourcePos pos;
};

struct GuidLit {
  std::string text;  // as written, with braces, e.g. "{0E95CFBC-58D4-44BA-BE40-E63A853536DF}"
  SourcePos pos;
};

// --- providers ---------------------------------------------------------------------

enum class AttrKind : uint8_t { Id, Version, Level, Keyword, Opcode, Task, Channel };

struct Attr {
  AttrKind kind;
  Int value;  // level names are stored as their numbers (log_always 0 … verbose 5)
  SourcePos pos;
};

// `[4]` / `[Count]` / `length=8` / `length=Len`.
struct ExtentRef {
  std::optional<Int> fixed;
  std::optional<Name> field;
  SourcePos pos;
};

// An event's fields are one list in source order; a structure (`Name: struct { … }`,
// docs/language.md §3 "TraceLogging providers") is followed by its members, as in
// TraceLogging metadata.
struct Field {
  Name name;
  Name type;  // spelled type name; compiler/check maps it to an InType. Structure: `struct`
  std::optional<ExtentRef> count;
  std::optional<ExtentRef> length;
  SourcePos pos;
  bool is_struct = false;
  uint32_t end = 0;     // index after the structure's last member; own index + 1 otherwise
  uint32_t parent = 0;  // index + 1 of the enclosing structure, 0 at the event's level
};

struct Event {
  Name name;
  std::vector<Attr> attrs;
  std::vector<Field> fields;
  SourcePos pos;
};

struct Provider {
  Name name;
  std::optional<GuidLit> guid;
  bool legacy = false;
  bool tracelogging = false;  // events told apart by name (docs/language.md §3)
  std::vector<Event> events;
  SourcePos pos;
};

// --- sessions ----------------------------------------------------------------------

enum class OptionKind : uint8_t { Level, Any, All, Properties };

struct Option {
  OptionKind kind;
  Int value;                     // Level / Any / All
  std::vector<Name> properties;  // Properties: spelled property names
  SourcePos pos;
};

// One per predicate (two for `in` lists), so it is kept small: a 50 MB one-line script
// holds millions of them (docs/limits.md).
struct Value {
  enum class Kind : uint8_t { Int, IntPair, String, Guid, Field };
  Int lo;  // Int, IntPair
  Int hi;  // IntPair
  // String: the UTF-8 value, escapes resolved. Guid: as written, with braces, e.g.
  // "{0E95CFBC-58D4-44BA-BE40-E63A853536DF}". Field: another field of the event (a bare
  // name), `BytesOut gt BytesIn`. Empty for Int and IntPair.
  std::string text;
  SourcePos pos;  // where the value starts
  Kind kind = Kind::Int;
};

struct Predicate {
  Name field;
  PayloadOp op;  // as written: never a Field* operator (the checker chooses those)
  SourcePos op_pos;
  Value value;              // In / NotIn: the last list item (list holds them all)
  std::vector<Value> list;  // In / NotIn: every value, in order (≥ 1); otherwise empty
  SourcePos pos;
};

// Flat boolean expression in post-order (children before parents; root is last).
struct ExprNode {
  enum class Kind : uint8_t { Pred, And, Or, Not };
  Kind kind = Kind::Pred;
  uint32_t index = 0;  // Pred: index into Expr::preds; others: first entry in Expr::kids
  uint32_t count = 0;  // And/Or: number of children (≥ 2 when from `where`); Not: 1
  SourcePos pos;
};

struct Expr {
  // A deque, not a vector: growing never copies the predicates parsed so far, and there is
  // no doubling slack (a 50 MB one-line script has millions of them).
  std::deque<Predicate> preds;
  std::vector<ExprNode> nodes;
  std::vector<uint32_t> kids;
};

struct EventRef {
  std::optional<Name> name;  // `payload Foo ...`
  std::optional<Int> id;     // `payload id=3 version=1 ...`
  std::optional<Int> version;
  SourcePos pos;
};

// The scope filters first, in ScopeKind order (base/scope_kinds.h), then the others.
enum class FilterKind : uint8_t {
  Pid,
  Exe,
  PackageId,
  AppId,
  EventId = internal::kScopeKindCount,
  StackId,
  Payload
};
using internal::ScopeKind;
constexpr FilterKind scope_filter(ScopeKind k) { return FilterKind(k); }
static_assert(scope_filter(ScopeKind::Pid) == FilterKind::Pid &&
                  scope_filter(ScopeKind::Exe) == FilterKind::Exe &&
                  scope_filter(ScopeKind::PackageId) == FilterKind::PackageId &&
                  scope_filter(ScopeKind::AppId) == FilterKind::AppId,
              "FilterKind's scope names are their ScopeKinds");
constexpr bool is_name_scope(FilterKind k) {
  return size_t(k) >= internal::kFirstNameScope && size_t(k) < internal::kScopeKindCount;
}
// Each kind's keyword, indexed by FilterKind: the grammar's keyword (rules.h), the AST
// dump's and the checker's name for the filter; the scope kinds' from their table.
inline constexpr std::array<std::string_view, size_t(FilterKind::Payload) + 1> kFilterKindNames =
    [] {
      std::array<std::string_view, size_t(FilterKind::Payload) + 1> names{};
      for (const internal::ScopeKindInfo& s : internal::kScopeKinds)
        names[size_t(scope_filter(s.kind))] = s.name;
      names[size_t(FilterKind::EventId)] = "event_id";
      names[size_t(FilterKind::StackId)] = "stack_id";
      names[size_t(FilterKind::Payload)] = "payload";
      return names;
    }();
constexpr std::string_view filter_kind_name(FilterKind k) { return kFilterKindNames[size_t(k)]; }
enum class PayloadForm : uint8_t { All, Any, Where };  // `all {…}`, `any {…}`, `where expr`
enum class Group : uint8_t { Any, All };

struct Filter {
  FilterKind kind;
  SourcePos pos;
  std::vector<Int> ints;  // Pid, EventId, StackId
  String text;            // name scopes (is_name_scope: ';'-separated as in ETW)
  bool filter_in = true;  // EventId, StackId: `in` = true, `not in` = false
  // Payload:
  EventRef event;
  PayloadForm form = PayloadForm::All;
  std::optional<Group> group;  // `group=` as written (absent = any)
  SourcePos group_pos;
  Expr expr;  // All/Any: one And/Or node over the block's predicates (also for one predicate)
};

struct Enable {
  Name provider;
  std::vector<Option> options;
  std::vector<Filter> filters;
  SourcePos pos;
};

struct Session {
  Name name;
  std::vector<Enable> enables;
  SourcePos pos;
};

// `import "file.man";` — an ETW instrumentation manifest whose providers join the schema.
struct Import {
  String path;  // as written; resolved relative to the importing script's directory
  SourcePos pos;
};

struct Script {
  std::vector<Import> imports;      // in source order
  std::vector<Provider> providers;  // in source order
  std::vector<Session> sessions;    // in source order
};

}  // namespace pfc::ast
