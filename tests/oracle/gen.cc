// tests/oracle/gen.cc — see gen.h. Three parts: the schema (gen_schema), sessions and their
// filters (gen_params, gen_expr, gen_value), and events with payloads (gen_event,
// encode_field, mutate).
#include "tests/oracle/gen.h"

#include <algorithm>
#include <optional>
#include <set>

namespace pfc::gen {
namespace {

const std::vector<InType> kAllTypes = {
    InType::UnicodeString, InType::AnsiString, InType::Int8,       InType::UInt8,  InType::Int16,
    InType::UInt16,        InType::Int32,      InType::UInt32,     InType::Int64,  InType::UInt64,
    InType::Float,         InType::Double,     InType::Boolean,    InType::Binary, InType::Guid,
    InType::Pointer,       InType::FileTime,   InType::SystemTime, InType::Sid,    InType::HexInt32,
    InType::HexInt64};
// Types weighted towards the ones predicates apply to.
const std::vector<InType> kCommonTypes = {InType::UnicodeString, InType::AnsiString, InType::Int8,
                                          InType::UInt8,         InType::Int16,      InType::Int32,
                                          InType::UInt32,        InType::Int64,      InType::UInt64,
                                          InType::Guid,          InType::Boolean};

const std::vector<uint64_t> kKeywords = {
    0, 0, 1, 2, 3, 0x10, 0x8000000000000000ull, 0x100000000ull, 0xFFFFFFFFull, ~uint64_t{0}};
const std::vector<uint32_t> kPids = {0, 1, 2, 42, 0xFFFFFFFFu};
const std::vector<std::string> kExePaths = {
    "",  "a.exe", "A.EXE",       "C:\\Windows\\a.exe", "/usr/bin/A.exe", "dir/", "\xC3\xA9.exe",
    "b", "x\\b",  "\xC3\x89.exe"};
const std::vector<std::string> kExeNames = {"a.exe", "A.exe", "b", "B", "\xC3\xA9.exe", "c"};
const std::vector<std::string> kIdentities = {"", "Pkg", "pkg", "PKG_1", "app!x", "App!X"};
const std::vector<std::string> kIdentityNames = {"Pkg", "pkg", "PKG_1", "app!x", "App!X"};
const std::vector<std::string> kEventNames = {"E0", "E1", "E2", "e0", "X"};     // filter lists
const std::vector<std::string> kViewNames = {"E0", "E1", "E2", "e0", "X", ""};  // event names
const std::vector<uint16_t> kIds = {0, 1, 2, 3, 7};

// Words for needles and field text, all inside the oracle's needle alphabet.
const std::vector<std::u32string> kWords = {
    U"",       U"a",      U"A",      U"ab",     U"AB",     U"User",   U"uSER",   U"UNI",
    U"uni",    U"\u00E9", U"\u00C9", U"\u00DF", U"\u017F", U"s",      U"S",      U"k",
    U"K",      U"\u03C3", U"\u03A3", U"\u03C2", U"\u0416", U"\u0436", U"\u0451", U"\u0401",
    U"\u00B5", U"\u03BC", U"\u00FF", U"\u0178", U"a b",    U"x-y",    U"\u0130", U"i"};

const std::vector<Guid> kGuids = {
    Guid{0x0E95CFBC, 0x58D4, 0x44BA, {0xBE, 0x40, 0xE6, 0x3A, 0x85, 0x35, 0x36, 0xDF}},
    Guid{0x37A59B93, 0xBB25, 0x4CEE, {0x97, 0xAA, 0x8B, 0x6A, 0xCD, 0x0C, 0x4D, 0xF8}}, Guid{}};

bool is_int(InType t) {
  switch (t) {
    case InType::Int8:
    case InType::UInt8:
    case InType::Int16:
    case InType::UInt16:
    case InType::Int32:
    case InType::UInt32:
    case InType::Int64:
    case InType::UInt64:
    case InType::Boolean:
    case InType::HexInt32:
    case InType::HexInt64:
    case InType::FileTime:
    case InType::Pointer: return true;
    default: return false;
  }
}
bool is_signed(InType t) {
  return t == InType::Int8 || t == InType::Int16 || t == InType::Int32 || t == InType::Int64;
}
bool is_string(InType t) { return t == InType::UnicodeString || t == InType::AnsiString; }
// Types a count or length may come from (docs/semantics.md §3).
bool is_extent_source(InType t) { return t >= InType::Int8 && t <= InType::UInt64; }
uint32_t width(InType t) {
  switch (t) {
    case InType::Int8:
    case InType::UInt8: return 1;
    case InType::Int16:
    case InType::UInt16: return 2;
    case InType::Int32:
    case InType::UInt32:
    case InType::Boolean:
    case InType::HexInt32:
    case InType::Float: return 4;
    case InType::Guid:
    case InType::SystemTime: return 16;
    default: return 8;
  }
}
// The type's range as 64-bit two's complement [lo, hi] (signed types: sign-extended); a
// type wider than 64 bits (GUID, SYSTEMTIME) gets the whole 64-bit range.
void type_range(InType t, uint64_t* lo, uint64_t* hi) {
  const uint32_t bits = 8 * width(t);
  if (t == InType::Boolean) {
    *lo = 0;
    *hi = 1;
    return;
  }
  if (is_signed(t)) {
    *hi = bits >= 64 ? (~uint64_t{0} >> 1) : (uint64_t{1} << (bits - 1)) - 1;
    *lo = ~*hi;
    return;
  }
  *lo = 0;
  *hi = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}
bool less(InType t, uint64_t a, uint64_t b) {
  return is_signed(t) ? static_cast<int64_t>(a) < static_cast<int64_t>(b) : a < b;
}

// An integer of type t: mostly small (so predicates and counts hit), sometimes extreme.
uint64_t gen_int(Entropy& in, InType t) {
  uint64_t lo = 0, hi = 0;
  type_range(t, &lo, &hi);
  switch (in.next(8)) {
    case 0: return lo;
    case 1: return hi;
    case 2: {  // any value of the type: truncate, then sign-extend signed types
      const uint32_t bits = 8 * width(t);
      uint64_t v = in.bits64() & hi;
      if (is_signed(t) && bits < 64) v = (in.bits64() & ((uint64_t{1} << bits) - 1));
      if (is_signed(t) && bits < 64 && (v >> (bits - 1)) != 0) v |= ~uint64_t{0} << bits;
      if (is_signed(t) && bits == 64) v = in.bits64();
      return v;
    }
    case 3: return is_signed(t) ? ~uint64_t{0} : in.next(std::min<uint64_t>(hi, 6) + 1);
    default: return in.next(std::min<uint64_t>(hi, 5) + 1);
  }
}

std::string utf8(const std::u32string& s) {
  std::string out;
  for (char32_t c : s) {
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return out;
}

std::u32string gen_text(Entropy& in) {
  std::u32string s = in.pick(kWords);
  if (in.chance(30)) s += in.pick(kWords);
  if (in.chance(10)) s = in.pick(kWords) + s;
  return s;
}

// ---- schema ------------------------------------------------------------------------

FieldDef gen_field(Entropy& in, const std::vector<FieldDef>& earlier, uint32_t index) {
  FieldDef f;
  f.name = "f" + std::to_string(index);
  f.type = in.chance(60) ? in.pick(kCommonTypes) : in.pick(kAllTypes);
  std::vector<uint32_t> sources;
  for (uint32_t i = 0; i < earlier.size(); ++i) {
    if (is_extent_source(earlier[i].type) && !earlier[i].count.present()) sources.push_back(i);
  }
  auto extent = [&](uint32_t max_fixed) {
    Extent e;
    if (!sources.empty() && in.chance(50)) {
      e.kind = Extent::Kind::Field;
      e.value = in.pick(sources);
    } else {
      e.kind = Extent::Kind::Fixed;
      e.value = static_cast<uint32_t>(in.next(max_fixed + 1));
    }
    return e;
  };
  if (in.chance(15)) f.count = extent(3);
  if (f.type == InType::Binary || (is_string(f.type) && in.chance(30))) f.length = extent(5);
  return f;
}

ProviderDef gen_schema(Entropy& in, const Limits& lim) {
  ProviderDef p;
  p.name = "P";
  p.guid = kGuids[1];
  p.legacy = in.chance(8);
  const uint64_t n = 1 + in.next(lim.max_events);
  std::set<std::pair<uint16_t, uint8_t>> keys;
  for (uint64_t i = 0; i < n; ++i) {
    EventDef e;
    e.desc.id = in.pick(kIds);
    e.desc.version = static_cast<uint8_t>(in.next(3));
    if (!keys.insert({e.desc.id, e.desc.version}).second) continue;  // (id, version) taken
    e.name = "E" + std::to_string(p.events.size());
    e.desc.level = static_cast<uint8_t>(in.next(7));
    e.desc.keyword = in.pick(kKeywords);
    e.desc.opcode = static_cast<uint8_t>(in.next(3));
    e.desc.task = static_cast<uint16_t>(in.next(3));
    e.desc.channel = static_cast<uint8_t>(in.next(3));
    const uint64_t nf = in.next(lim.max_fields + 1);
    for (uint32_t j = 0; j < nf; ++j) e.fields.push_back(gen_field(in, e.fields, j));
    p.events.push_back(std::move(e));
  }
  return p;
}

// ---- sessions ----------------------------------------------------------------------

// A glob over the word alphabet: words with `*`, `?` and small sets spliced in (also ranges
// across letters and non-letters, and members whose foldings are other members' or the
// alphabet's: KELVIN SIGN, ſ in [R-T]).
std::u32string gen_glob(Entropy& in) {
  static const std::vector<std::u32string> kParts = {
      U"*",    U"?",     U"[a-k]", U"[!a]",           U"[\u00E9s]", U"\\*",   U"[]x]",
      U"[x-]", U"[A-z]", U"[Z-a]", U"[\u212A\u00C9]", U"[R-T]",     U"[!A-Z]"};
  std::u32string s;
  const uint64_t n = 1 + in.next(4);
  for (uint64_t i = 0; i < n; ++i) {
    if (in.chance(50)) s += in.pick(kParts);
    else s += in.pick(kWords);
  }
  return s;
}

// A regex of the subset the oracle matches (oracle_pattern.cc): letters of the word
// alphabet (no U+0130: RE2 and simple folding agree on every other), `.`, lower-case sets,
// quantifiers, optional anchors. Punctuation in words is escaped.
std::u32string gen_regex(Entropy& in) {
  static const std::vector<std::u32string> kAtoms = {U".", U"[a-f]", U"[s-z0-9]", U"\\-", U"\\ "};
  std::u32string s = in.chance(30) ? U"^" : U"";
  const uint64_t n = 1 + in.next(4);
  for (uint64_t i = 0; i < n; ++i) {
    if (in.chance(40)) {
      s += in.pick(kAtoms);
    } else {
      for (char32_t c : in.pick(kWords)) {
        if (c == 0x0130) continue;
        if (c == U' ' || c == U'-') s += U'\\';
        s += c;
      }
    }
    const bool after_atom =
        !s.empty() && s.back() != U'^' && s.back() != U'*' && s.back() != U'+' && s.back() != U'?';
    if (after_atom && in.chance(30)) s += in.pick(std::vector<std::u32string>{U"*", U"+", U"?"});
  }
  if (in.chance(30)) s += U"$";
  return s;
}

PayloadValue gen_value(Entropy& in, InType t, PayloadOp op) {
  PayloadValue v;
  if (op == PayloadOp::Matches || op == PayloadOp::MatchesCs) {
    v.text = utf8(gen_glob(in));
  } else if (op == PayloadOp::Regex || op == PayloadOp::RegexCs) {
    v.text = utf8(gen_regex(in));
  } else if (is_string(t)) {
    v.text = utf8(gen_text(in));
  } else if (t == InType::Guid) {
    v.guid = in.pick(kGuids);
  } else if (op == PayloadOp::Modulo) {
    do v.lo = gen_int(in, t);
    while (v.lo == 0 && in.next(4) != 0);
    if (v.lo == 0) v.lo = 1;  // modulo 0 is a compile error
  } else {
    v.lo = gen_int(in, t);
    v.hi = gen_int(in, t);
    if (op != PayloadOp::Between && op != PayloadOp::NotBetween) v.hi = 0;
    else if (less(t, v.hi, v.lo)) std::swap(v.lo, v.hi);
  }
  return v;
}

PayloadOp gen_op(Entropy& in, InType t) {
  static const std::vector<PayloadOp> kIntOps = {
      PayloadOp::Eq, PayloadOp::Ne,      PayloadOp::Le,         PayloadOp::Gt,    PayloadOp::Lt,
      PayloadOp::Ge, PayloadOp::Between, PayloadOp::NotBetween, PayloadOp::Modulo};
  static const std::vector<PayloadOp> kStrOps = {PayloadOp::Contains, PayloadOp::DoesntContain,
                                                 PayloadOp::Is, PayloadOp::IsNot};
  // pfc's script-only string operators (docs/language.md §3.1).
  static const std::vector<PayloadOp> kStrExtOps = {
      PayloadOp::StartsWith,   PayloadOp::EndsWith,
      PayloadOp::Matches,      PayloadOp::Regex,
      PayloadOp::IsCs,         PayloadOp::IsNotCs,
      PayloadOp::ContainsCs,   PayloadOp::DoesntContainCs,
      PayloadOp::StartsWithCs, PayloadOp::EndsWithCs,
      PayloadOp::MatchesCs,    PayloadOp::RegexCs};
  static const std::vector<PayloadOp> kGuidOps = {PayloadOp::Is, PayloadOp::IsNot};
  if (is_int(t)) return in.pick(kIntOps);
  if (is_string(t)) return in.chance(40) ? in.pick(kStrExtOps) : in.pick(kStrOps);
  return in.pick(kGuidOps);
}

// Integer fields that `field` may be compared with (the checker's rule: not signed against
// 64-bit unsigned), when `field` is an integer field.
std::vector<uint32_t> comparable_fields(const EventDef& e, const std::vector<uint32_t>& fields,
                                        uint32_t field) {
  std::vector<uint32_t> out;
  const InType a = e.fields[field].type;
  if (!is_int(a)) return out;
  auto wide_unsigned = [](InType t) {
    return t == InType::UInt64 || t == InType::HexInt64 || t == InType::FileTime ||
           t == InType::Pointer;
  };
  for (uint32_t f : fields) {
    const InType b = e.fields[f].type;
    if (!is_int(b)) continue;
    if ((is_signed(a) && wide_unsigned(b)) || (wide_unsigned(a) && is_signed(b))) continue;
    out.push_back(f);
  }
  return out;
}

// A post-order expression over predicates on the scalar predicate fields of `e`, built
// with an explicit stack (no recursion): push predicates, fold the top of the stack into
// and/or/not nodes, and finally into one root.
PayloadExpr gen_expr(Entropy& in, const EventDef& e, const Limits& lim, bool flat) {
  PayloadExpr x;
  std::vector<uint32_t> fields;
  for (uint32_t i = 0; i < e.fields.size(); ++i) {
    const FieldDef& f = e.fields[i];
    if (!f.count.present() && (is_int(f.type) || is_string(f.type) || f.type == InType::Guid)) {
      fields.push_back(i);
    }
  }
  if (fields.empty()) return x;  // empty expression: the filter passes its event
  std::vector<uint32_t> stack;
  uint64_t left = 1 + in.next(lim.max_preds);
  auto combine = [&](PayloadExpr::Node::Kind kind, uint32_t k) {
    PayloadExpr::Node n{kind, static_cast<uint32_t>(x.kids.size()), k};
    for (uint32_t i = 0; i < k; ++i) x.kids.push_back(stack[stack.size() - k + i]);
    stack.resize(stack.size() - k);
    stack.push_back(static_cast<uint32_t>(x.nodes.size()));
    x.nodes.push_back(n);
  };
  while (left > 0 || stack.size() > 1) {
    const uint64_t choice = in.next(4);
    if (left > 0 && (stack.empty() || choice < 2 || flat)) {
      const uint32_t field = in.pick(fields);
      const InType t = e.fields[field].type;
      auto push_pred = [&](PayloadPredicate p) {
        x.preds.push_back(std::move(p));
        stack.push_back(static_cast<uint32_t>(x.nodes.size()));
        x.nodes.push_back(
            {PayloadExpr::Node::Kind::Pred, static_cast<uint32_t>(x.preds.size() - 1), 0});
      };
      const std::vector<uint32_t> others = comparable_fields(e, fields, field);
      if (!flat && is_int(t) && in.chance(15)) {  // `in` / `not in`, as the checker expands them
        const bool any = in.chance(50);
        const uint32_t k = static_cast<uint32_t>(2 + in.next(4));
        for (uint32_t i = 0; i < k; ++i) {
          const PayloadOp op = any ? PayloadOp::Eq : PayloadOp::Ne;
          push_pred({field, op, gen_value(in, t, op)});
        }
        combine(any ? PayloadExpr::Node::Kind::Or : PayloadExpr::Node::Kind::And, k);
      } else if (!others.empty() && in.chance(15)) {  // field-to-field
        static const std::vector<PayloadOp> kFieldOps = {PayloadOp::FieldEq, PayloadOp::FieldNe,
                                                         PayloadOp::FieldLe, PayloadOp::FieldGt,
                                                         PayloadOp::FieldLt, PayloadOp::FieldGe};
        PayloadPredicate p{field, in.pick(kFieldOps), {}};
        p.value.lo = in.pick(others);
        push_pred(std::move(p));
      } else {
        const PayloadOp op = gen_op(in, t);
        push_pred({field, op, gen_value(in, t, op)});
      }
      --left;
    } else if (flat) {  // TdhCreatePayloadFilter shape: one and/or over every predicate
      combine(choice == 2 ? PayloadExpr::Node::Kind::And : PayloadExpr::Node::Kind::Or,
              static_cast<uint32_t>(stack.size()));
    } else if (choice == 2 || stack.size() < 2) {
      combine(PayloadExpr::Node::Kind::Not, 1);
    } else {
      const uint32_t k = static_cast<uint32_t>(2 + in.next(std::min<size_t>(stack.size(), 4) - 1));
      combine(in.chance(50) ? PayloadExpr::Node::Kind::And : PayloadExpr::Node::Kind::Or, k);
    }
  }
  if (!flat && in.chance(10)) combine(PayloadExpr::Node::Kind::Or, 1);  // one-child or
  return x;
}

std::vector<uint16_t> gen_ids(Entropy& in) {
  std::vector<uint16_t> ids;
  const uint64_t n = 1 + in.next(3);
  for (uint64_t i = 0; i < n; ++i) {
    const uint16_t id = in.pick(kIds);
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  }
  return ids;
}

template <typename T>
std::vector<T> gen_list(Entropy& in, const std::vector<T>& pool) {
  std::vector<T> out;
  const uint64_t n = 1 + in.next(3);
  for (uint64_t i = 0; i < n; ++i) {
    const T& v = in.pick(pool);
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  return out;
}

EventNameFilter gen_name_filter(Entropy& in) {
  EventNameFilter f;
  f.level = in.chance(50) ? 0 : static_cast<uint8_t>(in.next(6));
  f.any = in.chance(50) ? 0 : in.pick(kKeywords);
  f.all = in.chance(70) ? 0 : in.pick(kKeywords);
  f.filter_in = in.chance(50);
  f.names = gen_list(in, kEventNames);
  return f;
}

EnableParams gen_params(Entropy& in, const ProviderDef& p, const Limits& lim) {
  EnableParams e;
  static const std::vector<uint8_t> kLevels = {0, 0, 1, 2, 3, 4, 5, 255};
  e.level = in.pick(kLevels);
  e.any = in.chance(40) ? 0 : in.pick(kKeywords);
  e.all = in.chance(70) ? 0 : in.pick(kKeywords);
  static const std::vector<uint32_t> kProps = {enable_property::kStackTrace,
                                               enable_property::kIgnoreKeyword0,
                                               enable_property::kSid, enable_property::kTsId};
  for (uint32_t prop : kProps) {
    if (in.chance(25)) e.properties |= prop;
  }
  if (p.legacy && !lim.legacy_quirks) e.all = 0, e.properties = 0;
  if (in.chance(15)) e.pids = gen_list(in, kPids);
  if (in.chance(15)) e.exe_names = gen_list(in, kExeNames);
  if (in.chance(10)) e.package_ids = gen_list(in, kIdentityNames);
  if (in.chance(10)) e.app_ids = gen_list(in, kIdentityNames);
  if (in.chance(20)) e.event_ids = EventIdFilter{in.chance(50), gen_ids(in)};
  if (in.chance(10)) e.event_names = gen_name_filter(in);
  if (in.chance(25)) e.stack_ids = EventIdFilter{in.chance(50), gen_ids(in)};
  if (in.chance(10)) e.stack_names = gen_name_filter(in);
  if (in.chance(10)) {
    e.stack_level_kw =
        LevelKeywordFilter{static_cast<uint8_t>(in.next(6)), in.chance(50) ? 0 : in.pick(kKeywords),
                           in.chance(70) ? 0 : in.pick(kKeywords), in.chance(50)};
  }
  const uint64_t nf = p.events.empty() ? 0 : in.next(lim.max_filters + 1);
  for (uint64_t i = 0; i < nf; ++i) {
    const EventDef& ev = in.pick(p.events);
    const bool group_all = in.chance(40);  // "all" group: flat, as `where` has no group=
    PayloadFilter f{ev.desc.id, ev.desc.version, group_all,
                    gen_expr(in, ev, lim, group_all || in.chance(50))};
    if (f.expr.empty() && in.chance(80)) continue;  // mostly skip filters with no predicate
    e.payload.push_back(std::move(f));
  }
  return e;
}

// A pattern sweep (docs/ir.md §4 "String indexing"): 64 sessions, each with one random
// pattern (contains, startswith, endswith, is, matches, regex or a `.cs` form, now and then
// doesntcontain) on one scalar string field; nullopt when the schema has none.
std::optional<std::vector<SessionEntry>> gen_pattern_sweep(Entropy& in, const ProviderDef& p) {
  static const std::vector<PayloadOp> kOps = {
      PayloadOp::Contains,     PayloadOp::StartsWith,   PayloadOp::EndsWith,
      PayloadOp::Is,           PayloadOp::Matches,      PayloadOp::Regex,
      PayloadOp::ContainsCs,   PayloadOp::StartsWithCs, PayloadOp::EndsWithCs,
      PayloadOp::IsCs,         PayloadOp::MatchesCs,    PayloadOp::RegexCs,
      PayloadOp::DoesntContain};
  std::vector<std::pair<const EventDef*, uint32_t>> fields;
  for (const EventDef& ev : p.events)
    for (uint32_t f = 0; f < ev.fields.size(); ++f)
      if (is_string(ev.fields[f].type) && !ev.fields[f].count.present())
        fields.emplace_back(&ev, f);
  if (fields.empty()) return std::nullopt;
  const auto [ev, field] = in.pick(fields);
  std::vector<SessionEntry> out;
  for (uint32_t slot = 0; slot < 64; ++slot) {
    const PayloadOp op = in.pick(kOps);
    PayloadFilter f{ev->desc.id, ev->desc.version, in.chance(50), {}};
    f.expr.preds = {PayloadPredicate{field, op, gen_value(in, ev->fields[field].type, op)}};
    f.expr.nodes = {{PayloadExpr::Node::Kind::Pred, 0, 0}};
    EnableParams params;
    params.payload = {std::move(f)};
    out.emplace_back(slot, std::move(params));
  }
  return out;
}

std::vector<SessionEntry> gen_sessions(Entropy& in, const ProviderDef& p, const Limits& lim) {
  if (lim.pattern_sweeps && in.chance(10))
    if (auto sweep = gen_pattern_sweep(in, p)) return std::move(*sweep);
  std::vector<SessionEntry> out;
  const uint64_t n = 1 + in.next(lim.max_sessions);
  const bool spread = in.chance(30);
  std::set<uint32_t> used;
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t slot = spread ? static_cast<uint32_t>(in.next(64)) : static_cast<uint32_t>(i);
    if (!used.insert(slot).second) continue;  // slot taken: one session fewer
    out.emplace_back(slot, gen_params(in, p, lim));
  }
  return out;
}

// ---- events ------------------------------------------------------------------------

void put_le(std::vector<uint8_t>& out, uint64_t v, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

void put_text(Entropy& in, std::vector<uint8_t>& out, const FieldDef& f, const Extent& len,
              uint64_t len_value) {
  const std::u32string text = gen_text(in);
  std::vector<uint8_t> units;
  if (f.type == InType::UnicodeString) {
    for (char32_t c : text) {
      if (c >= 0x10000) {
        put_le(units, 0xD800 + ((c - 0x10000) >> 10), 2);
        put_le(units, 0xDC00 + ((c - 0x10000) & 0x3FF), 2);
      } else {
        put_le(units, c, 2);
      }
    }
    if (in.chance(5)) put_le(units, 0xD800 + in.next(0x800), 2);  // a lone surrogate
  } else {
    for (char c : utf8(text)) units.push_back(static_cast<uint8_t>(c));
    if (in.chance(5)) units.push_back(static_cast<uint8_t>(0x80 + in.next(0x80)));  // invalid
  }
  const uint64_t unit = f.type == InType::UnicodeString ? 2 : 1;
  if (!len.present()) {
    out.insert(out.end(), units.begin(), units.end());
    put_le(out, 0, static_cast<uint32_t>(unit));
    return;
  }
  const uint64_t bytes = std::min<uint64_t>(len_value, 64) * unit;
  units.resize(bytes, 0);  // NUL-padded or cut to the length
  out.insert(out.end(), units.begin(), units.end());
}

// Appends one element of `f`; `ref` is the value of the field's length source.
void put_element(Entropy& in, std::vector<uint8_t>& out, const FieldDef& f, uint64_t len_value,
                 bool is_source) {
  if (is_int(f.type)) {
    uint64_t v = is_source && in.chance(90) ? in.next(4) : gen_int(in, f.type);
    if (f.type == InType::Boolean && in.chance(5)) v = 2;  // not 0/1: still an integer
    put_le(out, v, width(f.type));
  } else if (is_string(f.type)) {
    put_text(in, out, f, f.length, len_value);
  } else if (f.type == InType::Guid) {
    const Guid g = in.chance(80) ? in.pick(kGuids) : Guid{static_cast<uint32_t>(in.bits64())};
    put_le(out, g.data1, 4);
    put_le(out, g.data2, 2);
    put_le(out, g.data3, 2);
    out.insert(out.end(), g.data4.begin(), g.data4.end());
  } else if (f.type == InType::Sid) {
    const uint64_t n = in.next(3);
    out.push_back(1);
    out.push_back(static_cast<uint8_t>(n));
    for (uint64_t i = 0; i < 6 + 4 * n; ++i) out.push_back(static_cast<uint8_t>(in.next(256)));
  } else if (f.type == InType::Binary) {
    for (uint64_t i = 0; i < std::min<uint64_t>(len_value, 64); ++i) {
      out.push_back(static_cast<uint8_t>(in.next(256)));
    }
  } else {
    for (uint32_t i = 0; i < width(f.type); ++i) out.push_back(static_cast<uint8_t>(in.next(256)));
  }
}

// A payload that matches `def` (counts and lengths consistent with their source fields,
// capped at 16 elements / 64 units).
std::vector<uint8_t> encode(Entropy& in, const EventDef& def) {
  std::vector<uint8_t> out;
  std::vector<uint64_t> values(def.fields.size(), 0);
  std::vector<bool> sources(def.fields.size(), false);
  for (const FieldDef& f : def.fields) {
    if (f.count.kind == Extent::Kind::Field) sources[f.count.value] = true;
    if (f.length.kind == Extent::Kind::Field) sources[f.length.value] = true;
  }
  for (size_t i = 0; i < def.fields.size(); ++i) {
    const FieldDef& f = def.fields[i];
    auto value_of = [&](const Extent& e) {
      return e.kind == Extent::Kind::Field ? values[e.value] : e.value;
    };
    const uint64_t count = f.count.present() ? std::min<uint64_t>(value_of(f.count), 16) : 1;
    const uint64_t len = value_of(f.length);
    for (uint64_t k = 0; k < count; ++k) {
      const size_t before = out.size();
      put_element(in, out, f, len, sources[i]);
      if (k == 0 && is_int(f.type)) {  // remember the scalar's value, sign-extended
        uint64_t v = 0;
        for (uint32_t b = 0; b < width(f.type); ++b) v |= uint64_t{out[before + b]} << (8 * b);
        const uint32_t bits = 8 * width(f.type);
        if (is_signed(f.type) && bits < 64 && (v >> (bits - 1)) != 0) v |= ~uint64_t{0} << bits;
        values[i] = v;
      }
    }
  }
  return out;
}

void mutate(Entropy& in, std::vector<uint8_t>& p) {
  const uint64_t how = in.next(100);
  if (how < 60) return;  // valid
  if (how < 72 && !p.empty()) {
    p.resize(in.next(p.size()));  // truncated
  } else if (how < 82 && !p.empty()) {
    for (uint64_t i = 0, n = 1 + in.next(3); i < n; ++i) p[in.next(p.size())] ^= 1 + in.next(255);
  } else if (how < 90) {
    for (uint64_t i = 0, n = 1 + in.next(4); i < n; ++i)
      p.push_back(static_cast<uint8_t>(in.next(256)));
  } else {
    p.resize(in.next(41));
    for (uint8_t& b : p) b = static_cast<uint8_t>(in.next(256));
  }
}

Event gen_event(Entropy& in, const ProviderDef& p) {
  Event e;
  const EventDef* def = nullptr;
  if (!p.events.empty() && in.chance(80)) {
    def = &in.pick(p.events);
    e.desc = def->desc;
    e.name = in.chance(90) ? def->name : in.pick(kViewNames);
    if (in.chance(15)) e.desc.level = static_cast<uint8_t>(in.next(7));
    if (in.chance(15)) e.desc.keyword = in.pick(kKeywords);
    e.payload = encode(in, *def);
  } else {
    e.desc.id = in.pick(kIds);
    e.desc.version = static_cast<uint8_t>(in.next(3));
    e.desc.level = static_cast<uint8_t>(in.next(7));
    e.desc.keyword = in.pick(kKeywords);
    e.name = in.pick(kViewNames);
    const EventDef* same = nullptr;
    for (const EventDef& d : p.events) {
      if (d.desc.id == e.desc.id && d.desc.version == e.desc.version) same = &d;
    }
    if (same != nullptr) e.payload = encode(in, *same);
  }
  mutate(in, e.payload);
  e.pid = in.pick(kPids);
  e.tid = static_cast<uint32_t>(in.next(3));
  e.exe = in.pick(kExePaths);
  e.package_id = in.pick(kIdentities);
  e.app_id = in.pick(kIdentities);
  return e;
}

}  // namespace

Case generate(Entropy& in, const Limits& limits) {
  Case c;
  c.spec.provider = gen_schema(in, limits);
  c.spec.sessions = gen_sessions(in, c.spec.provider, limits);
  const uint64_t n = 1 + in.next(limits.max_test_events);
  for (uint64_t i = 0; i < n; ++i) c.events.push_back(gen_event(in, c.spec.provider));
  return c;
}

}  // namespace pfc::gen
