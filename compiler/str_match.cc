// compiler/str_match.cc — see str_match.h; the exactness argument is docs/jit.md "String
// indexing".
//
// A text is scanned one of two ways:
//  * ASCII text (every code unit below 0x80: code units are code points, simple case
//    folding is ASCII lower-casing): its bytes (UTF-16 narrowed) against `ascii_`, where a
//    literal is its needle's bytes (HS_FLAG_CASELESS unless `.cs`: ASCII-caseless is
//    exactly folding on ASCII text), a glob its exact translation over bytes, and a regex
//    of the conservative subset (regex_for_prefilter) a HS_FLAG_PREFILTER candidate
//    confirmed by RE2 on those bytes (RE2's own input for an ASCII text). Needles and globs
//    that can only match a character outside ASCII are left out: they cannot hold.
//  * Any other text: its code points (as the predicates decode them), folded for `fold_`
//    and as they are for `plain_`, written as generalised UTF-8 (surrogates encoded like
//    other code points), against the literals' needles written the same way: UTF-8 is
//    self-synchronising, so a byte match is a code-point match. Globs and regexes are
//    tested on their own on such texts (`wide_`).
#include "compiler/str_match.h"

#include <hs/hs.h>
#include <re2/re2.h>
#include <re2/set.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <span>
#include <string>

#include "base/ascii.h"
#include "base/utf8.h"
#include "compiler/regex_pred.h"
#include "runtime/casefold.h"
#include "runtime/glob.h"
#include "runtime/payload_ops.h"
#include "runtime/tdh.h"

namespace pfc::internal {

struct StrMatcher::Db {
  hs_database_t* db = nullptr;
  std::vector<uint32_t> pattern;  // Hyperscan id → index into patterns_
  std::vector<uint8_t> confirm;   // id → 1: a prefilter candidate, confirmed with RE2
  std::vector<uint8_t> at_end;    // id → 1: counts only for a match ending at the text's end
  uint64_t full = 0;  // the masks of its patterns when none is a candidate, else 0 (on_match)
  ~Db() { hs_free_database(db); }
};

// RE2::Set of the regexes of one case rule (compile_regex's options), and for each set
// index the pattern.
struct StrMatcher::Sets {
  std::unique_ptr<RE2::Set> fold, cs;
  std::vector<uint32_t> fold_ids, cs_ids;
  std::vector<uint32_t> all;  // every regex pattern (the fallback)
};

namespace {

using PO = PayloadOp;

RE2::Options set_options(bool case_sensitive) {
  RE2::Options o;
  o.set_encoding(RE2::Options::EncodingUTF8);
  o.set_case_sensitive(case_sensitive);
  o.set_log_errors(false);
  return o;
}

bool is_literal(PO op) {
  switch (op) {
    case PO::Contains:
    case PO::StartsWith:
    case PO::EndsWith:
    case PO::Is:
    case PO::ContainsCs:
    case PO::StartsWithCs:
    case PO::EndsWithCs:
    case PO::IsCs: return true;
    default: return false;
  }
}
bool is_glob(PO op) { return op == PO::Matches || op == PO::MatchesCs; }
bool is_regex(PO op) { return op == PO::Regex || op == PO::RegexCs; }
bool folds(PO op) { return !payload_op_has(op, kCaseSensitive); }

// Generalised UTF-8: the UTF-8 bit layout for every value up to U+10FFFF, surrogates too.
void put_cp(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += char(c);
  } else if (c < 0x800) {
    out += char(0xC0 | (c >> 6));
    out += char(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += char(0xE0 | (c >> 12));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  } else {
    out += char(0xF0 | (c >> 18));
    out += char(0x80 | ((c >> 12) & 0x3F));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  }
}

void put_byte(std::string& out, uint8_t b) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[b >> 4];
  out += kHex[b & 15];
}

// Whether a literal operator anchors its needle at the text's end (ENDSWITH, IS): such a
// pattern is compiled without an end anchor and its matches count only when they end at
// the text's end (on_match): the database holds no end anchors at all.
bool ends_at_end(PO op) {
  return op == PO::EndsWith || op == PO::EndsWithCs || op == PO::Is || op == PO::IsCs;
}

// A literal's expression over `bytes` with the operator's start anchor.
std::string literal_expr(PO op, const std::string& bytes) {
  std::string out;
  const bool start =
      op == PO::StartsWith || op == PO::StartsWithCs || op == PO::Is || op == PO::IsCs;
  if (start) out += "\\A";
  for (char c : bytes) put_byte(out, uint8_t(c));
  return out;
}

// The ASCII bytes x whose (folded, when `fold`) code point glob token `code[i]` matches.
std::vector<uint8_t> glob_token_bytes(const std::u32string& code, size_t i, bool fold) {
  std::vector<uint8_t> out;
  const char32_t t = code[i];
  for (uint32_t x = 1; x < 0x80; ++x) {  // no text holds NUL (it ends the text)
    const char32_t c = fold ? fold_case(x) : x;
    bool hit = false;
    if (t == kGlobAny) {
      hit = true;
    } else if (t == kGlobClass || t == kGlobNotClass) {
      bool in = false;
      for (size_t r = 0; r < code[i + 1]; ++r)
        in = in || (c >= code[i + 2 + 2 * r] && c <= code[i + 3 + 2 * r]);
      hit = in == (t == kGlobClass);
    } else {
      hit = t == c;
    }
    if (hit) out.push_back(uint8_t(x));
  }
  return out;
}

// A glob's exact expression over ASCII bytes (HS_FLAG_DOTALL) but for the end anchor (its
// matches count at the text's end only, as ends_at_end's), or "" when it cannot match any
// ASCII text (a token no ASCII character matches).
std::string glob_ascii_expr(const std::u32string& code, bool fold) {
  std::string out = "\\A";
  for (size_t i = 0; i < code.size();) {
    const char32_t t = code[i];
    if (t == kGlobStar) {
      out += ".*";
      ++i;
      continue;
    }
    const std::vector<uint8_t> bytes = glob_token_bytes(code, i, fold);
    if (bytes.empty()) return "";
    if (bytes.size() == 1) {
      put_byte(out, bytes[0]);
    } else {
      out += '[';
      for (uint8_t b : bytes) put_byte(out, b);
      out += ']';
    }
    i = (t == kGlobClass || t == kGlobNotClass) ? i + 2 + 2 * code[i + 1] : i + 1;
  }
  return out;
}

// Alternatives of byte sequences matching exactly the generalised UTF-8 of the code points
// [lo, hi] (the split of Go's regexp/syntax: one length class, then ranges whose lower
// bytes each span [80-BF]).
void utf8_ranges(char32_t lo, char32_t hi, std::vector<std::string>& alts) {
  static constexpr char32_t kLast[] = {0x7F, 0x7FF, 0xFFFF};
  for (char32_t last : kLast) {
    if (lo <= last && hi > last) {
      utf8_ranges(lo, last, alts);
      utf8_ranges(last + 1, hi, alts);
      return;
    }
  }
  for (int i = 1; i < 4; ++i) {
    const char32_t m = (char32_t{1} << (6 * i)) - 1;
    if ((lo & ~m) == (hi & ~m)) continue;
    if ((lo & m) != 0) {
      utf8_ranges(lo, lo | m, alts);
      utf8_ranges((lo | m) + 1, hi, alts);
      return;
    }
    if ((hi & m) != m) {
      utf8_ranges(lo, (hi & ~m) - 1, alts);
      utf8_ranges(hi & ~m, hi, alts);
      return;
    }
  }
  std::string a, b, out;
  put_cp(a, lo);
  put_cp(b, hi);
  for (size_t j = 0; j < a.size(); ++j) {
    if (a[j] == b[j]) {
      put_byte(out, uint8_t(a[j]));
      continue;
    }
    out += '[';
    put_byte(out, uint8_t(a[j]));
    out += '-';
    put_byte(out, uint8_t(b[j]));
    out += ']';
  }
  alts.push_back(std::move(out));
}

// The code points glob class token `code[i]` matches, as sorted disjoint ranges.
std::vector<std::pair<char32_t, char32_t>> class_ranges(const std::u32string& code, size_t i) {
  std::vector<std::pair<char32_t, char32_t>> r;
  for (size_t k = 0; k < code[i + 1]; ++k) r.push_back({code[i + 2 + 2 * k], code[i + 3 + 2 * k]});
  std::sort(r.begin(), r.end());
  std::vector<std::pair<char32_t, char32_t>> merged;
  for (const auto& [lo, hi] : r) {
    if (lo > hi) continue;
    if (!merged.empty() && lo <= merged.back().second + 1)
      merged.back().second = std::max(merged.back().second, hi);
    else merged.push_back({lo, hi});
  }
  if (code[i] == kGlobClass) return merged;
  std::vector<std::pair<char32_t, char32_t>> out;  // the complement within [0, U+10FFFF]
  char32_t next = 0;
  for (const auto& [lo, hi] : merged) {
    if (lo > 0x10FFFF) break;
    if (lo > next) out.push_back({next, lo - 1});
    next = std::min<char32_t>(hi, 0x10FFFF) + 1;
  }
  if (next <= 0x10FFFF) out.push_back({next, 0x10FFFF});
  return out;
}

// A glob's exact expression over generalised UTF-8 text (HS_FLAG_DOTALL; no end anchor, as
// glob_ascii_expr), the text folded when the glob is: `?` any one encoded code point, a
// class the alternatives of its ranges' byte sequences, `*` any bytes (every later token
// starts at a lead byte, so it resumes at a code point). "" for a class that is empty.
std::string glob_utf8_expr(const std::u32string& code) {
  static constexpr char kAny[] =
      "(?:[\\x00-\\x7f]|[\\xc0-\\xdf][\\x80-\\xbf]|[\\xe0-\\xef][\\x80-\\xbf]{2}|"
      "[\\xf0-\\xf7][\\x80-\\xbf]{3})";
  std::string out = "\\A";
  for (size_t i = 0; i < code.size();) {
    const char32_t t = code[i];
    if (t == kGlobStar) {
      out += ".*";
      ++i;
    } else if (t == kGlobAny) {
      out += kAny;
      ++i;
    } else if (t == kGlobClass || t == kGlobNotClass) {
      std::vector<std::string> alts;
      for (const auto& [lo, hi] : class_ranges(code, i)) utf8_ranges(lo, hi, alts);
      if (alts.empty()) return "";
      out += "(?:";
      for (size_t a = 0; a < alts.size(); ++a) out += (a ? "|" : "") + alts[a];
      out += ')';
      i += 2 + 2 * code[i + 1];
    } else {
      std::string bytes;
      put_cp(bytes, t);
      for (char c : bytes) put_byte(out, uint8_t(c));
      ++i;
    }
  }
  return out;
}

// Whether an RE2 pattern (already accepted by RE2) lies in the subset where Hyperscan's
// prefilter reading matches at least where RE2 matches, on ASCII text: ASCII only; escapes
// of punctuation and \d \D \w \s \b \B \A \n \t \r \f (no \W or \S, whose case-folded
// RE2 forms hold k, s; no \s inside a class, where Hyperscan's \v would differ); groups
// `(`, `(?:`, `(?flags)` / `(?flags:` of i, m, s; counted repeats `{n}`, `{n,}`, `{n,m}`;
// no end anchor (`$`, `\z`: the databases hold none, see ends_at_end).
bool regex_for_prefilter(std::string_view p) {
  bool in_class = false;
  for (size_t i = 0; i < p.size(); ++i) {
    const auto c = uint8_t(p[i]);
    if (c >= 0x80 || c == 0) return false;
    if (c == '\\') {
      if (++i == p.size()) return false;
      const char e = p[i];
      if (!is_ascii_alnum(e) && e > ' ' && e < 0x7F) continue;  // punctuation
      if (std::string_view("dDwntrf").find(e) != std::string_view::npos) continue;
      if (!in_class && std::string_view("sbBA").find(e) != std::string_view::npos) continue;
      return false;
    }
    if (in_class) {
      if (c == '[' && i + 1 < p.size() && p[i + 1] == ':') return false;
      if (c == ']') in_class = false;
      continue;
    }
    if (c == '$') return false;
    if (c == '[') {
      in_class = true;
      if (i + 1 < p.size() && p[i + 1] == '^') ++i;
      if (i + 1 < p.size() && p[i + 1] == ']') ++i;  // a leading ']' is literal
    } else if (c == '(' && i + 1 < p.size() && p[i + 1] == '?') {
      size_t j = i + 2;
      while (j < p.size() && std::string_view("ims-").find(p[j]) != std::string_view::npos) ++j;
      if (j == p.size() || (p[j] != ':' && p[j] != ')')) return false;
      i = j;
    } else if (c == '{') {
      size_t j = i + 1;
      const size_t digits = j;
      while (j < p.size() && is_ascii_digit(p[j])) ++j;
      if (j == digits) return false;
      if (j < p.size() && p[j] == ',') {
        ++j;
        while (j < p.size() && is_ascii_digit(p[j])) ++j;
      }
      if (j == p.size() || p[j] != '}') return false;
      i = j;
    }
  }
  return !in_class;
}

// Scratch space: Hyperscan needs, per scanning thread, scratch space at least as large
// as every database it scans needs. A process-wide prototype grows for every database a
// matcher builds; a thread clones it again when it has grown since the thread's copy
// (one atomic load per scan otherwise).
std::mutex g_scratch_mu;
hs_scratch_t* g_proto = nullptr;     // guarded by g_scratch_mu
std::atomic<uint64_t> g_version{0};  // raised whenever g_proto grows

void grow_prototype(const hs_database_t* db) {
  std::lock_guard lock(g_scratch_mu);
  if (hs_alloc_scratch(db, &g_proto) == HS_SUCCESS) g_version.fetch_add(1);
}

// Per-thread scan state: the scratch clone and the text buffers, which grow and never
// shrink, so a steady state allocates nothing.
struct ThreadState {
  hs_scratch_t* scratch = nullptr;
  uint64_t version = 0;
  std::string narrow, folded, plain, utf8;
  std::vector<uint32_t> candidates;
  std::vector<int> set_hits;
  ~ThreadState() { hs_free_scratch(scratch); }
};
ThreadState& thread_state() {
  thread_local ThreadState s;
  return s;
}

// The thread's scratch, fit for every database built so far (null if cloning failed).
hs_scratch_t* thread_scratch(ThreadState& ts) {
  if (ts.scratch != nullptr && ts.version == g_version.load(std::memory_order_acquire))
    return ts.scratch;
  std::lock_guard lock(g_scratch_mu);
  hs_free_scratch(ts.scratch);
  ts.scratch = nullptr;
  if (g_proto == nullptr || hs_clone_scratch(g_proto, &ts.scratch) != HS_SUCCESS) return nullptr;
  ts.version = g_version.load();
  return ts.scratch;
}

// One database's patterns before compiling.
struct DbSpec {
  std::vector<std::string> exprs;
  std::vector<unsigned> flags;
  std::vector<uint32_t> pattern;
  std::vector<uint8_t> confirm;
  std::vector<uint8_t> at_end;
  // Pattern k as expression e: a prefilter candidate when `c`, counted at the text's end
  // only when `end` (every match reported then; else the first one only).
  void add(std::string e, unsigned f, uint32_t k, bool c, bool end) {
    exprs.push_back(std::move(e));
    flags.push_back(f | HS_FLAG_ALLOWEMPTY | (end ? 0 : HS_FLAG_SINGLEMATCH));
    pattern.push_back(k);
    confirm.push_back(c ? 1 : 0);
    at_end.push_back(end ? 1 : 0);
  }
};

// Compiles `spec`; an expression Hyperscan rejects moves its pattern to `rejected` and the
// rest is compiled again. Null when nothing is left.
std::unique_ptr<StrMatcher::Db> compile(DbSpec spec, const std::vector<uint64_t>& masks,
                                        std::vector<uint32_t>& rejected) {
  while (!spec.exprs.empty()) {
    std::vector<const char*> exprs;
    std::vector<unsigned> ids;
    for (size_t i = 0; i < spec.exprs.size(); ++i) {
      exprs.push_back(spec.exprs[i].c_str());
      ids.push_back(unsigned(i));
    }
    hs_database_t* db = nullptr;
    hs_compile_error_t* err = nullptr;
    const hs_error_t rc =
        hs_compile_multi(exprs.data(), spec.flags.data(), ids.data(), unsigned(exprs.size()),
                         HS_MODE_BLOCK, nullptr, &db, &err);
    if (rc == HS_SUCCESS) {
      grow_prototype(db);
      auto out = std::make_unique<StrMatcher::Db>();
      out->db = db;
      out->pattern = std::move(spec.pattern);
      out->confirm = std::move(spec.confirm);
      out->at_end = std::move(spec.at_end);
      for (uint8_t c : out->confirm) out->full |= c != 0 ? ~uint64_t{0} : 0;
      if (out->full == 0)
        for (uint32_t k : out->pattern) out->full |= masks[k];
      else out->full = 0;
      return out;
    }
    const int bad = err != nullptr ? err->expression : -1;
    hs_free_compile_error(err);
    if (bad < 0 || size_t(bad) >= spec.exprs.size()) {  // not one pattern's fault: all alone
      rejected.insert(rejected.end(), spec.pattern.begin(), spec.pattern.end());
      return nullptr;
    }
    rejected.push_back(spec.pattern[size_t(bad)]);
    spec.exprs.erase(spec.exprs.begin() + bad);
    spec.flags.erase(spec.flags.begin() + bad);
    spec.pattern.erase(spec.pattern.begin() + bad);
    spec.confirm.erase(spec.confirm.begin() + bad);
    spec.at_end.erase(spec.at_end.begin() + bad);
  }
  return nullptr;
}

struct ScanCtx {
  const StrMatcher::Db* db;
  unsigned long long n;  // the text's length
  const std::vector<StrMatcher::Pattern>* patterns;
  uint64_t acc;
  std::vector<uint32_t>* candidates;
};

// Records a match; stops the scan (nonzero) once every pattern of the database is known
// to hold.
int on_match(unsigned id, unsigned long long, unsigned long long to, unsigned, void* ctx) {
  auto* c = static_cast<ScanCtx*>(ctx);
  if (c->db->at_end[id] != 0 && to != c->n) return 0;
  const uint32_t k = c->db->pattern[id];
  if (c->db->confirm[id] == 0) {
    c->acc |= (*c->patterns)[k].mask;
    return c->db->full != 0 && (c->acc & c->db->full) == c->db->full ? 1 : 0;
  }
  if (c->candidates->empty() || c->candidates->back() != k) c->candidates->push_back(k);
  return 0;
}

// Whether pattern `p` holds for the field: the predicate's own helper.
bool holds(const ir::StrPred& p, const uint8_t* payload, uint64_t size, uint64_t off,
           uint32_t in_type, uint64_t length) {
  uint64_t next = 0;
  if (p.regex)
    return pfc_ir_pred_regex_next(payload, size, off, in_type, length, p.regex.get(), &next) != 0;
  return pfc_tdh_str_pred(payload, size, off, in_type, length, uint32_t(p.op), p.folded.data(),
                          p.folded.size(), p.links.data()) != 0;
}

// The code points of [b, e) (unit 2: UTF-16LE, 1: 8-bit, decoded as the predicates do),
// folded when `fold`, as generalised UTF-8 into `out`.
void transcode(const uint8_t* b, const uint8_t* e, uint32_t unit, bool fold, std::string& out) {
  out.clear();
  while (b < e) {
    char32_t c = unit == 2 ? decode_utf16le_step(b, e) : decode_utf8_step(b, e);
    put_cp(out, fold ? fold_case(c) : c);
  }
}

}  // namespace

StrMatcher::~StrMatcher() = default;

std::shared_ptr<const StrMatcher> StrMatcher::build(const ir::StrMap& map,
                                                    const std::vector<ir::StrPred>& str_preds) {
  std::shared_ptr<StrMatcher> m(new StrMatcher());
  DbSpec ascii, fold, plain;
  for (size_t i = 0; i < map.preds.size(); ++i) {
    const ir::StrPred& p = str_preds[map.preds[i]];
    const auto k = uint32_t(m->patterns_.size());
    m->patterns_.push_back({p, map.masks[i]});
    const bool f = folds(p.op);
    if (is_literal(p.op)) {
      if (p.folded.empty()) {  // holds on every text (IS: on the empty one)
        m->always_.push_back(k);
        continue;
      }
      std::string bytes;
      bool ascii_only = true;
      for (char32_t c : p.folded) {
        put_cp(bytes, c);
        ascii_only = ascii_only && c < 0x80;
      }
      const bool end = ends_at_end(p.op);
      if (ascii_only) ascii.add(literal_expr(p.op, bytes), f ? HS_FLAG_CASELESS : 0, k, false, end);
      (f ? fold : plain).add(literal_expr(p.op, bytes), 0, k, false, end);
    } else if (is_glob(p.op)) {
      if (std::string e = glob_utf8_expr(p.folded); !e.empty())
        (f ? fold : plain).add(std::move(e), HS_FLAG_DOTALL, k, false, true);
      else m->wide_.push_back(k);
      if (std::string e = glob_ascii_expr(p.folded, f); !e.empty())
        ascii.add(std::move(e), HS_FLAG_DOTALL, k, false, true);
    } else if (is_regex(p.op) && p.regex) {
      if (!m->sets_) {
        m->sets_ = std::make_unique<Sets>();
        m->sets_->fold = std::make_unique<RE2::Set>(set_options(false), RE2::UNANCHORED);
        m->sets_->cs = std::make_unique<RE2::Set>(set_options(true), RE2::UNANCHORED);
      }
      RE2::Set& set = f ? *m->sets_->fold : *m->sets_->cs;
      if (set.Add(re2::StringPiece(p.text), nullptr) < 0) {
        m->always_.push_back(k);
        continue;
      }
      (f ? m->sets_->fold_ids : m->sets_->cs_ids).push_back(k);
      m->sets_->all.push_back(k);
      if (regex_for_prefilter(p.text))
        ascii.add(p.text, HS_FLAG_PREFILTER | (f ? HS_FLAG_CASELESS : 0), k, true, false);
      else m->sets_on_ascii_ = true;
    } else {
      m->always_.push_back(k);
    }
  }
  // RE2 sets that do not compile: their regexes are tested on their own.
  if (m->sets_ && !(m->sets_->fold->Compile() && m->sets_->cs->Compile())) {
    for (uint32_t k : m->sets_->all) m->always_.push_back(k);
    m->sets_.reset();
    m->sets_on_ascii_ = false;
  }
  // A pattern a database rejects is tested on its own wherever that database would have
  // tested it: always_ covers both kinds of text.
  std::vector<uint32_t> rejected;
  m->ascii_ = compile(std::move(ascii), map.masks, rejected);
  m->fold_ = compile(std::move(fold), map.masks, rejected);
  m->plain_ = compile(std::move(plain), map.masks, rejected);
  for (uint32_t k : rejected) {
    std::erase(m->wide_, k);
    if (m->sets_ &&
        std::find(m->sets_->all.begin(), m->sets_->all.end(), k) != m->sets_->all.end()) {
      m->sets_on_ascii_ = true;  // a regex the prefilter database rejected: the sets test it
      continue;
    }
    if (std::find(m->always_.begin(), m->always_.end(), k) == m->always_.end())
      m->always_.push_back(k);
  }
  return m;
}

uint64_t StrMatcher::scan(const Db& db, const uint8_t* data, uint64_t n, uint64_t acc,
                          bool* ok) const {
  ThreadState& ts = thread_state();
  ts.candidates.clear();
  ScanCtx ctx{&db, n, &patterns_, acc, &ts.candidates};
  const char* text = reinterpret_cast<const char*>(data);
  hs_scratch_t* scratch = thread_scratch(ts);
  const hs_error_t rc = scratch == nullptr
                            ? HS_INVALID
                            : hs_scan(db.db, text, unsigned(n), 0, scratch, on_match, &ctx);
  if (rc != HS_SUCCESS && rc != HS_SCAN_TERMINATED) {
    *ok = false;
    return acc;
  }
  std::sort(ts.candidates.begin(), ts.candidates.end());
  ts.candidates.erase(std::unique(ts.candidates.begin(), ts.candidates.end()), ts.candidates.end());
  for (uint32_t k : ts.candidates) {
    const Pattern& p = patterns_[k];
    if ((p.mask & ~ctx.acc) != 0 &&
        RE2::PartialMatch(re2::StringPiece(text, size_t(n)), *p.pred.regex))
      ctx.acc |= p.mask;
  }
  return ctx.acc;
}

// The regexes through the RE2 sets: on the text's UTF-8 (UTF-16 converted with unpaired
// surrogates as U+FFFD, 8-bit text as it is: pfc_ir_pred_regex_next's input). *ok false
// when a set cannot decide (RE2's DFA out of memory): the caller tests each pattern.
uint64_t StrMatcher::sets(const uint8_t* b, const uint8_t* e, uint32_t unit, bool ascii,
                          uint64_t acc, bool* ok) const {
  ThreadState& ts = thread_state();
  re2::StringPiece text(reinterpret_cast<const char*>(b), size_t(e - b));
  if (unit == 2 && ascii) {
    text = re2::StringPiece(ts.narrow.data(), size_t(e - b) / 2);
  } else if (unit == 2) {
    ts.utf8.clear();
    utf16le_to_utf8(std::span<const uint8_t>(b, size_t(e - b)), ts.utf8, Unpaired::Replace);
    text = re2::StringPiece(ts.utf8);
  }
  const std::pair<const RE2::Set*, const std::vector<uint32_t>*> both[] = {
      {sets_->fold.get(), &sets_->fold_ids}, {sets_->cs.get(), &sets_->cs_ids}};
  for (const auto& [set, ids] : both) {
    if (ids->empty()) continue;
    // First whether any regex matches (RE2 allocates nothing for that), then which ones
    // (RE2 allocates the set of matches per call: only on texts some regex matches).
    RE2::Set::ErrorInfo info{};
    ts.set_hits.clear();
    const bool any = set->Match(text, nullptr, &info);
    if (info.kind == RE2::Set::kNoError && any) set->Match(text, &ts.set_hits, &info);
    if (info.kind != RE2::Set::kNoError) {
      *ok = false;
      return acc;
    }
    for (int h : ts.set_hits) acc |= patterns_[(*ids)[size_t(h)]].mask;
  }
  return acc;
}

uint64_t StrMatcher::each(const std::vector<uint32_t>& ids, const uint8_t* payload, uint64_t size,
                          uint64_t off, uint32_t in_type, uint64_t length, uint64_t acc) const {
  for (uint32_t k : ids) {
    const Pattern& p = patterns_[k];
    if ((p.mask & ~acc) != 0 && holds(p.pred, payload, size, off, in_type, length)) acc |= p.mask;
  }
  return acc;
}

uint64_t StrMatcher::match(const uint8_t* payload, uint64_t size, uint64_t off, uint32_t in_type,
                           uint64_t length, const uint8_t* b, const uint8_t* e) const {
  const uint32_t unit = in_type == 1 ? 2 : 1;
  const auto n = uint64_t(e - b) / unit;
  bool ok = n > 0 && n <= 0xFFFFFFFFu / 4;  // hs_scan takes an unsigned length
  uint64_t acc = 0;
  if (ok) {
    ThreadState& ts = thread_state();
    const uint8_t* text = b;
    unsigned high = 0;
    if (unit == 2) {
      if (ts.narrow.size() < n) ts.narrow.resize(n);
      auto* out = reinterpret_cast<uint8_t*>(ts.narrow.data());
      for (uint64_t i = 0; i < n; ++i) {
        const unsigned u = unsigned(b[2 * i]) | unsigned(b[2 * i + 1]) << 8;
        high |= u;
        out[i] = uint8_t(u);
      }
      text = out;
    } else {
      for (uint64_t i = 0; i < n; ++i) high |= b[i];
    }
    if (high < 0x80) {
      if (ascii_) acc = scan(*ascii_, text, n, acc, &ok);
      if (ok && sets_on_ascii_) acc = sets(b, e, unit, true, acc, &ok);
    } else {
      if (ok && fold_) {
        transcode(b, e, unit, true, ts.folded);
        acc = scan(*fold_, reinterpret_cast<const uint8_t*>(ts.folded.data()), ts.folded.size(),
                   acc, &ok);
      }
      if (ok && plain_) {
        transcode(b, e, unit, false, ts.plain);
        acc = scan(*plain_, reinterpret_cast<const uint8_t*>(ts.plain.data()), ts.plain.size(), acc,
                   &ok);
      }
      if (ok && sets_) acc = sets(b, e, unit, false, acc, &ok);
      if (ok) acc = each(wide_, payload, size, off, in_type, length, acc);
    }
  }
  if (!ok) {  // the empty text, or a scan that failed: every pattern on its own
    acc = 0;
    for (uint32_t k = 0; k < patterns_.size(); ++k)
      if (holds(patterns_[k].pred, payload, size, off, in_type, length)) acc |= patterns_[k].mask;
    return acc;
  }
  return each(always_, payload, size, off, in_type, length, acc);
}

void attach_str_matchers(ir::Program& prog) {
  for (ir::StrMap& m : prog.str_maps) m.matcher = StrMatcher::build(m, prog.str_preds);
}

}  // namespace pfc::internal

using pfc::internal::StrMatcher;

extern "C" {

uint64_t pfc_ir_mask_strs_each(const uint8_t* payload, uint64_t size, uint64_t off,
                               uint32_t in_type, uint64_t length, const pfc::ir::StrMap* map,
                               const pfc::ir::StrPred* str_preds, uint64_t* next) {
  uint64_t end = 0;
  if (!pfc_tdh_string_bounds(payload, size, off, in_type, length, &end, next)) return map->base;
  uint64_t acc = map->base;
  for (size_t i = 0; i < map->preds.size(); ++i)
    if ((map->masks[i] & ~acc) != 0 &&
        pfc::internal::holds(str_preds[map->preds[i]], payload, size, off, in_type, length))
      acc |= map->masks[i];
  return acc;
}

uint64_t pfc_ir_mask_strs_next(const uint8_t* payload, uint64_t size, uint64_t off,
                               uint32_t in_type, uint64_t length, const pfc::ir::StrMap* map,
                               uint64_t* next) {
  uint64_t end = 0;
  if (!pfc_tdh_string_bounds(payload, size, off, in_type, length, &end, next)) return map->base;
  return map->base |
         map->matcher->match(payload, size, off, in_type, length, payload + off, payload + end);
}
}
