// compiler/str_match.cc — see str_match.h; the exactness argument is docs/jit.md "String
// indexing".
//
// Literals with ASCII needles go to AsciiLiterals on UTF-16 text narrowed a byte per unit
// (wide_narrow) or on the transcoding below for 8-bit text. For the others every text is
// transcoded into its code points as the predicates decode them, folded for
// the caseless database and as they are for the `.cs` one, written as generalised UTF-8 (surrogates
// encoded like other code points), and scanned against the literals' needles written the same way
// (UTF-8 is self-synchronising, so a byte match is a code-point match) and the globs' exact
// translations. Regexes go through RE2 sets: RE2 itself, on the input pfc_ir_pred_regex_next gives
// it.
#include "compiler/str_match.h"

#include <re2/re2.h>
#include <re2/set.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <span>
#include <string>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "base/payload_ops.h"
#include "base/utf8.h"
#include "compiler/hs_image.h"
#include "compiler/hs_loader.h"
#include "compiler/regex_pred.h"
#include "compiler/str_expr.h"
#include "runtime/casefold.h"
#include "runtime/glob.h"
#include "runtime/tdh.h"
#include "runtime/wide_search.h"

namespace pfc::internal {

struct StrMatcher::Db {
  const HsApi* hs = nullptr;  // the library the database came from (never null)
  hs_database_t* db = nullptr;
  std::vector<uint32_t> pattern;  // Hyperscan id → index into patterns_
  std::vector<uint8_t> at_end;    // id → 1: counts only for a match ending at the text's end
  uint64_t full = 0;              // the masks of all its patterns (on_match)
  HsDbKey key{};                  // of its Spec (hs_database_key)
  std::vector<uint32_t> kept;     // Hyperscan id → index of its expression in the Spec
  ~Db() { hs->free_database(db); }
};

struct StrMatcher::Dbs {
  std::unique_ptr<Db> fold, plain;  // either may be null
  std::vector<uint32_t> rejected;   // their patterns tested on their own
};

// One database's patterns before compiling.
struct StrMatcher::Spec {
  std::vector<std::string> exprs;
  std::vector<unsigned> flags;
  std::vector<uint32_t> pattern;
  std::vector<uint8_t> at_end;
  // Pattern k as expression e, counted at the text's end only when `end` (every match
  // reported then; else the first one only).
  void add(std::string e, unsigned f, uint32_t k, bool end) {
    exprs.push_back(std::move(e));
    flags.push_back(f | HS_FLAG_ALLOWEMPTY | (end ? 0 : HS_FLAG_SINGLEMATCH));
    pattern.push_back(k);
    at_end.push_back(end ? 1 : 0);
  }
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

// Whether a literal's (folded) needle is ASCII without U+0000: searchable in UTF-16 text
// narrowed by wide_narrow (runtime/wide_search.h says why that is exact).
bool ascii_needle(const std::u32string& needle) {
  return std::all_of(needle.begin(), needle.end(), [](char32_t c) { return c - 1 < 0x7F; });
}

// Scratch space: Hyperscan needs, per scanning thread, scratch space at least as large
// as every database it scans needs. A process-wide prototype grows for every database a
// matcher builds; a thread clones it again when it has grown since the thread's copy
// (one atomic load per scan otherwise).
std::mutex g_scratch_mu;
hs_scratch_t* g_proto = nullptr;     // guarded by g_scratch_mu
std::atomic<uint64_t> g_version{0};  // raised whenever g_proto grows

// False when the prototype cannot grow (no memory): the database must not be scanned.
bool grow_prototype(const HsApi& hs, const hs_database_t* db) {
  std::lock_guard lock(g_scratch_mu);
  if (hs.alloc_scratch(db, &g_proto) != HS_SUCCESS) return false;
  g_version.fetch_add(1);
  return true;
}

// Per-thread scan state: the scratch clone and the text buffers, which grow and never
// shrink, so a steady state allocates nothing.
struct ThreadState {
  hs_scratch_t* scratch = nullptr;
  uint64_t version = 0;
  std::string folded, plain, utf8, narrow;
  std::vector<int> set_hits;
  ~ThreadState() {
    if (scratch != nullptr) hyperscan()->free_scratch(scratch);  // loaded, as it made it
  }
};
ThreadState& thread_state() {
  thread_local ThreadState s;
  return s;
}

// The thread's scratch, fit for every database built so far (null if cloning failed).
hs_scratch_t* thread_scratch(const HsApi& hs, ThreadState& ts) {
  if (ts.scratch != nullptr && ts.version == g_version.load(std::memory_order_acquire))
    return ts.scratch;
  std::lock_guard lock(g_scratch_mu);
  if (ts.scratch != nullptr) hs.free_scratch(ts.scratch);
  ts.scratch = nullptr;
  if (g_proto == nullptr || hs.clone_scratch(g_proto, &ts.scratch) != HS_SUCCESS) return nullptr;
  ts.version = g_version.load();
  return ts.scratch;
}

using DbSpec = StrMatcher::Spec;

// The database `db` of `spec`'s expressions `kept` (by Hyperscan id), with the thread
// scratch prototype grown for it; null, `kept`'s patterns rejected, when it cannot grow
// (no memory: the database must not be scanned).
std::unique_ptr<StrMatcher::Db> make_db(const HsApi& hs, hs_database_t* db, const DbSpec& spec,
                                        const HsDbKey& key, std::vector<uint32_t> kept,
                                        const std::vector<uint64_t>& masks,
                                        std::vector<uint32_t>& rejected) {
  if (!grow_prototype(hs, db)) {
    hs.free_database(db);
    for (uint32_t i : kept) rejected.push_back(spec.pattern[i]);
    return nullptr;
  }
  auto out = std::make_unique<StrMatcher::Db>();
  out->hs = &hs;
  out->db = db;
  for (uint32_t i : kept) {
    out->pattern.push_back(spec.pattern[i]);
    out->at_end.push_back(spec.at_end[i]);
    out->full |= masks[spec.pattern[i]];
  }
  out->key = key;
  out->kept = std::move(kept);
  return out;
}

// Compiles `spec`; an expression Hyperscan rejects moves its pattern to `rejected` and the
// rest is compiled again. Null when nothing is left.
std::unique_ptr<StrMatcher::Db> compile(const HsApi& hs, const DbSpec& spec, const HsDbKey& key,
                                        const std::vector<uint64_t>& masks,
                                        std::vector<uint32_t>& rejected) {
  std::vector<uint32_t> kept(spec.exprs.size());
  for (size_t i = 0; i < kept.size(); ++i) kept[i] = uint32_t(i);
  while (!kept.empty()) {
    std::vector<const char*> exprs;
    std::vector<unsigned> flags, ids;
    for (size_t i = 0; i < kept.size(); ++i) {
      exprs.push_back(spec.exprs[kept[i]].c_str());
      flags.push_back(spec.flags[kept[i]]);
      ids.push_back(unsigned(i));
    }
    hs_database_t* db = nullptr;
    hs_compile_error_t* err = nullptr;
    const hs_error_t rc =
        hs.compile_multi(exprs.data(), flags.data(), ids.data(), unsigned(exprs.size()),
                         HS_MODE_BLOCK, nullptr, &db, &err);
    if (rc == HS_SUCCESS) return make_db(hs, db, spec, key, std::move(kept), masks, rejected);
    const int bad = err != nullptr ? err->expression : -1;
    hs.free_compile_error(err);
    if (bad < 0 || size_t(bad) >= kept.size()) {  // not one pattern's fault: all alone
      for (uint32_t i : kept) rejected.push_back(spec.pattern[i]);
      return nullptr;
    }
    rejected.push_back(spec.pattern[kept[size_t(bad)]]);
    kept.erase(kept.begin() + bad);
  }
  return nullptr;
}

// The database of `spec` deserialised from `entry`: its key must be `key` (this process's
// Hyperscan version and platform, `spec`'s expressions), its kept indices within `spec`,
// and Hyperscan must accept its bytes. Null with `why` set otherwise; the expressions the
// entry does not keep (Hyperscan rejected them) move their patterns to `rejected`.
std::unique_ptr<StrMatcher::Db> load(const HsApi& hs, const DbSpec& spec, const HsDbKey& key,
                                     const HsImageEntry& entry, const std::vector<uint64_t>& masks,
                                     std::vector<uint32_t>& rejected, std::string& why) {
  if (entry.key != key) {
    why = "its key is not this process's (another Hyperscan version, platform or patterns)";
    return nullptr;
  }
  if (entry.kept.empty() || entry.kept.back() >= spec.exprs.size()) {
    why = "its kept expressions are not this database's";
    return nullptr;
  }
  hs_database_t* db = nullptr;
  if (const hs_error_t rc = hs.deserialize_database(entry.bytes.data(), entry.bytes.size(), &db);
      rc != HS_SUCCESS) {
    why = "Hyperscan refused it (error " + std::to_string(rc) + ")";
    return nullptr;
  }
  std::vector<uint32_t> kept(entry.kept.begin(), entry.kept.end());
  for (size_t i = 0, k = 0; i < spec.exprs.size(); ++i) {
    if (k < kept.size() && kept[k] == i) ++k;
    else rejected.push_back(spec.pattern[i]);
  }
  return make_db(hs, db, spec, key, std::move(kept), masks, rejected);
}

// The ASCII literals of one case rule (pattern index, literal) as an AsciiLiterals filter,
// or null when there are none; beyond AsciiLiterals::kMax they go into `spec` instead.
std::unique_ptr<AsciiLiterals> ascii_literals(
    const std::vector<std::pair<uint32_t, AsciiLiteral>>& lits, DbSpec& spec) {
  if (lits.empty()) return nullptr;
  if (lits.size() > AsciiLiterals::kMax) {
    for (const auto& [k, l] : lits) {
      const PO op =
          l.start ? (l.end ? PO::Is : PO::StartsWith) : (l.end ? PO::EndsWith : PO::Contains);
      spec.add(literal_expr(op, l.bytes), 0, k, l.end);
    }
    return nullptr;
  }
  std::vector<AsciiLiteral> out;
  out.reserve(lits.size());
  for (const auto& [k, l] : lits) out.push_back(l);
  return std::make_unique<AsciiLiterals>(std::move(out));
}

struct ScanCtx {
  const StrMatcher::Db* db;
  unsigned long long n;  // the text's length
  const std::vector<StrMatcher::Pattern>* patterns;
  uint64_t acc;
};

// Records a match; stops the scan (nonzero) once every pattern of the database is known
// to hold.
int on_match(unsigned id, unsigned long long, unsigned long long to, unsigned, void* ctx) {
  auto* c = static_cast<ScanCtx*>(ctx);
  if (c->db->at_end[id] != 0 && to != c->n) return 0;
  c->acc |= (*c->patterns)[c->db->pattern[id]].mask;
  return (c->acc & c->db->full) == c->db->full ? 1 : 0;
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
// fold_case through a small per-thread cache (texts repeat their few non-ASCII letters).
char32_t fold_cached(char32_t c) {
  struct Entry {
    char32_t from = 0, to = 0;  // from 0: empty (0 is ASCII, never asked)
  };
  thread_local Entry cache[256];
  Entry& slot = cache[(c ^ (c >> 8)) & 0xFF];
  if (slot.from != c) slot = {c, fold_case(c)};
  return slot.to;
}

// Writes the code points of [b, e) (kUnit 2: UTF-16LE, 1: 8-bit, decoded as the
// predicates do), folded when kFold, as generalised UTF-8 into `out` (room for 3 bytes per
// input byte); returns the bytes written. Runs of ASCII units go a vector block at a time
// (SSE2, the x86-64 baseline).
#if defined(__SSE2__)
// ASCII-lower-cases the bytes of `x` (all below 0x80) when kFold.
template <bool kFold>
inline __m128i lower_ascii(__m128i x) {
  if (!kFold) return x;
  const __m128i t = _mm_sub_epi8(x, _mm_set1_epi8('A'));  // signed: -65..62
  const __m128i upper =
      _mm_and_si128(_mm_cmpgt_epi8(t, _mm_set1_epi8(-1)), _mm_cmplt_epi8(t, _mm_set1_epi8(26)));
  return _mm_add_epi8(x, _mm_and_si128(upper, _mm_set1_epi8(0x20)));
}

// Copies (lower-cased when kFold) the ASCII units that begin the next block at b to o — a
// block is 8 UTF-16 units or 16 bytes, and [b, e) must hold a whole one — and returns the
// input bytes they take (a block's worth when all its units are below 0x80). The store
// may write a whole block's bytes; the caller's buffer has room.
template <uint32_t kUnit, bool kFold>
inline size_t ascii_prefix(const uint8_t* b, uint8_t* o) {
  const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b));
  if (kUnit == 2) {
    const __m128i high = _mm_and_si128(x, _mm_set1_epi16(int16_t(0xFF80)));
    const unsigned ascii = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi16(high, _mm_setzero_si128())));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(o), lower_ascii<kFold>(_mm_packus_epi16(x, x)));
    return ascii == 0xFFFF ? 16 : size_t(std::countr_zero(~ascii) & ~1);
  }
  const unsigned other = unsigned(_mm_movemask_epi8(x));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(o), lower_ascii<kFold>(x));
  return other == 0 ? 16 : size_t(std::countr_zero(other));
}
#else
// Without SSE2 every unit goes the scalar way.
template <uint32_t kUnit, bool kFold>
inline size_t ascii_prefix(const uint8_t*, uint8_t*) {
  return 0;
}
#endif

template <uint32_t kUnit, bool kFold>
size_t transcode_into(const uint8_t* b, const uint8_t* e, uint8_t* out) {
  uint8_t* o = out;
  while (b < e) {
    if (e - b >= 16) {
      const size_t used = ascii_prefix<kUnit, kFold>(b, o);
      b += used;
      o += used / kUnit;
      if (used == 16 || b >= e) continue;
    }
    const unsigned u = kUnit == 2 ? unsigned(b[0]) | unsigned(b[1]) << 8 : b[0];
    if (u < 0x80) {
      *o++ = uint8_t(kFold && u - 'A' < 26 ? u + 32 : u);
      b += kUnit;
      continue;
    }
    char32_t c = kUnit == 2 ? decode_utf16le_step(b, e) : decode_utf8_step(b, e);
    if (kFold) c = fold_cached(c);
    o = put_cp_raw(o, c);
  }
  return size_t(o - out);
}

// transcode_into for a field's unit (2: UTF-16LE, 1: 8-bit) into `buf` (grown as needed,
// with AsciiLiterals::kPad bytes to spare after the text).
uint8_t* transcode(const uint8_t* b, const uint8_t* e, uint32_t unit, bool fold, std::string& buf,
                   size_t* n) {
  const size_t room = 3 * size_t(e - b) + 16 + AsciiLiterals::kPad;
  if (buf.size() < room) buf.resize(room);
  auto* out = reinterpret_cast<uint8_t*>(buf.data());
  if (unit == 2)
    *n = fold ? transcode_into<2, true>(b, e, out) : transcode_into<2, false>(b, e, out);
  else *n = fold ? transcode_into<1, true>(b, e, out) : transcode_into<1, false>(b, e, out);
  return out;
}

}  // namespace

bool is_str_map_op(PayloadOp op) { return is_literal(op) || is_glob(op) || is_regex(op); }

StrMatcher::~StrMatcher() = default;

std::shared_ptr<const StrMatcher> StrMatcher::build(const ir::StrMap& map,
                                                    const std::vector<ir::StrPred>& str_preds,
                                                    Databases databases) {
  std::shared_ptr<StrMatcher> m(new StrMatcher());
  DbSpec fold, plain;
  std::vector<std::pair<uint32_t, AsciiLiteral>> fold_ascii, plain_ascii;
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
      for (char32_t c : p.folded) put_cp(bytes, c);
      if (ascii_needle(p.folded)) {
        (f ? fold_ascii : plain_ascii)
            .push_back({k, {bytes, starts_at_start(p.op), ends_at_end(p.op), map.masks[i]}});
        continue;
      }
      (f ? fold : plain).add(literal_expr(p.op, bytes), 0, k, ends_at_end(p.op));
    } else if (is_glob(p.op)) {
      if (std::string e = glob_utf8_expr(p.folded); !e.empty())
        (f ? fold : plain).add(std::move(e), HS_FLAG_DOTALL, k, true);
      else m->always_.push_back(k);
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
    } else {
      m->always_.push_back(k);
    }
  }
  // RE2 sets that do not compile: their regexes are tested on their own.
  if (m->sets_ && !(m->sets_->fold->Compile() && m->sets_->cs->Compile())) {
    for (uint32_t k : m->sets_->all) m->always_.push_back(k);
    m->sets_.reset();
  }
  m->fold_ascii_ = ascii_literals(fold_ascii, fold);
  m->plain_ascii_ = ascii_literals(plain_ascii, plain);
  auto fold_spec = std::make_unique<Spec>(std::move(fold));
  auto plain_spec = std::make_unique<Spec>(std::move(plain));
  if (databases == Databases::Compile) {
    m->install(std::move(fold_spec), std::move(plain_spec), nullptr, 0, "", nullptr);
    return m;
  }
  for (const Spec* spec : {fold_spec.get(), plain_spec.get()})
    m->pending_.insert(m->pending_.end(), spec->pattern.begin(), spec->pattern.end());
  m->fold_spec_ = std::move(fold_spec);
  m->plain_spec_ = std::move(plain_spec);
  return m;
}

void StrMatcher::install_databases(const HsImage* image, uint32_t map_index,
                                   const std::string& missing, HsDbCounts& counts) const {
  std::unique_ptr<Spec> fold, plain;
  {
    std::lock_guard lock(install_mu_);
    if (!fold_spec_) return;  // installed already
    fold = std::move(fold_spec_);
    plain = std::move(plain_spec_);
  }
  install(std::move(fold), std::move(plain), image, map_index, missing, &counts);
}

// Each case rule's database from `image` (when given and its entry passes the checks) or
// compiled; `counts` null: no image is expected (a Compile matcher). A pattern no database
// holds is tested on its own; without Hyperscan (compiler/hs_loader.h) every one.
void StrMatcher::install(std::unique_ptr<Spec> fold, std::unique_ptr<Spec> plain,
                         const HsImage* image, uint32_t map_index, const std::string& missing,
                         HsDbCounts* counts) const {
  auto dbs = std::make_unique<Dbs>();
  const HsApi* hs = fold->exprs.empty() && plain->exprs.empty() ? nullptr : hyperscan();
  std::vector<uint64_t> masks;
  masks.reserve(patterns_.size());
  for (const Pattern& p : patterns_) masks.push_back(p.mask);
  const std::pair<const Spec*, std::unique_ptr<Db>*> rules[] = {{fold.get(), &dbs->fold},
                                                                {plain.get(), &dbs->plain}};
  for (uint8_t rule = 0; rule < 2; ++rule) {
    const Spec& spec = *rules[rule].first;
    if (spec.exprs.empty()) continue;
    if (hs == nullptr) {
      dbs->rejected.insert(dbs->rejected.end(), spec.pattern.begin(), spec.pattern.end());
      continue;
    }
    const HsDbKey key = hs_database_key(*hs, spec.exprs, spec.flags);
    std::unique_ptr<Db>& db = *rules[rule].second;
    if (counts != nullptr) {
      std::string why = missing;
      const HsImageEntry* entry = image != nullptr ? image->find(map_index, rule) : nullptr;
      if (image != nullptr && entry == nullptr) why = "it has no entry for this database";
      std::vector<uint32_t> rejected;
      if (entry != nullptr) db = load(*hs, spec, key, *entry, masks, rejected, why);
      if (db) {
        dbs->rejected.insert(dbs->rejected.end(), rejected.begin(), rejected.end());
        ++counts->loaded;
        continue;
      }
      ++counts->refused;
      counts->why = "string map " + std::to_string(map_index) + (rule == 0 ? " caseless" : " .cs") +
                    " database: " + why;
      ++counts->compiled;
    }
    db = compile(*hs, spec, key, masks, dbs->rejected);
  }
  std::lock_guard lock(install_mu_);
  dbs_owned_ = std::move(dbs);
  dbs_.store(dbs_owned_.get(), std::memory_order_release);
}

// The serialised form of each database, appended to `out`.
struct StrMatcher::Image {
  std::vector<HsImageEntry> entries;
  std::vector<std::unique_ptr<char, decltype(&std::free)>> bytes;  // hs_serialize_database's
};

void StrMatcher::serialize(uint32_t map_index, Image& out) const {
  const Dbs* dbs = dbs_.load(std::memory_order_acquire);
  if (dbs == nullptr) return;
  const Db* rules[] = {dbs->fold.get(), dbs->plain.get()};
  for (uint8_t rule = 0; rule < 2; ++rule) {
    const Db* db = rules[rule];
    if (db == nullptr) continue;
    char* bytes = nullptr;
    size_t size = 0;
    // Allocated with Hyperscan's misc allocator, malloc unless a program set another.
    if (db->hs->serialize_database(db->db, &bytes, &size) != HS_SUCCESS) continue;
    out.bytes.emplace_back(bytes, &std::free);
    out.entries.push_back({map_index, rule, db->key, db->kept, std::string_view(bytes, size)});
  }
}

uint64_t StrMatcher::scan(const Db& db, const uint8_t* data, uint64_t n, uint64_t acc,
                          bool* ok) const {
  if ((acc & db.full) == db.full) return acc;  // nothing it could add
  ThreadState& ts = thread_state();
  ScanCtx ctx{&db, n, &patterns_, acc};
  const char* text = reinterpret_cast<const char*>(data);
  hs_scratch_t* scratch = thread_scratch(*db.hs, ts);
  const hs_error_t rc = scratch == nullptr
                            ? HS_INVALID
                            : db.hs->scan(db.db, text, unsigned(n), 0, scratch, on_match, &ctx);
  if (rc != HS_SUCCESS && rc != HS_SCAN_TERMINATED) {
    *ok = false;
    return acc;
  }
  return ctx.acc;
}

// The databases of one case rule (`fold`: the caseless one) on [b, e): `ascii` on UTF-16
// text narrowed by wide_narrow, `utf8` on the generalised UTF-8 transcoding — and, for 8-bit
// text, `ascii` on that transcoding as well (an ASCII byte in it is a whole code point).
uint64_t StrMatcher::scan_rule(const AsciiLiterals* ascii, const Db* utf8, bool fold,
                               const uint8_t* b, const uint8_t* e, uint32_t unit, uint64_t acc,
                               bool* ok) const {
  ThreadState& ts = thread_state();
  if (ascii != nullptr && (acc & ascii->full()) == ascii->full()) ascii = nullptr;
  if (ascii != nullptr && unit == 2) {
    const auto n = size_t(e - b) / 2;
    if (ts.narrow.size() < n + AsciiLiterals::kPad) ts.narrow.resize(n + AsciiLiterals::kPad);
    auto* out = reinterpret_cast<uint8_t*>(ts.narrow.data());
    wide_narrow(b, e, fold, out);
    acc = ascii->match(out, n, acc);
    ascii = nullptr;
  }
  if (ascii == nullptr && utf8 == nullptr) return acc;
  size_t n = 0;
  uint8_t* text = transcode(b, e, unit, fold, fold ? ts.folded : ts.plain, &n);
  if (ascii != nullptr) acc = ascii->match(text, n, acc);
  if (utf8 != nullptr) acc = scan(*utf8, text, n, acc, ok);
  return acc;
}

// The regexes through the RE2 sets: on the text's UTF-8 (UTF-16 converted with unpaired
// surrogates as U+FFFD, 8-bit text as it is: pfc_ir_pred_regex_next's input). *ok false
// when a set cannot decide (RE2's DFA out of memory): the caller tests each pattern.
uint64_t StrMatcher::sets(const uint8_t* b, const uint8_t* e, uint32_t unit, uint64_t acc,
                          bool* ok) const {
  ThreadState& ts = thread_state();
  re2::StringPiece text(reinterpret_cast<const char*>(b), size_t(e - b));
  if (unit == 2) {
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
  // hs_scan takes an unsigned length (a transcoded text has at most 3 bytes per input byte).
  bool ok = b < e && uint64_t(e - b) <= 0xFFFFFFFFu / 4;
  uint64_t acc = 0;
  const Dbs* dbs = dbs_.load(std::memory_order_acquire);
  const Db* fold = dbs != nullptr ? dbs->fold.get() : nullptr;
  const Db* plain = dbs != nullptr ? dbs->plain.get() : nullptr;
  if (ok) acc = scan_rule(fold_ascii_.get(), fold, true, b, e, unit, acc, &ok);
  if (ok) acc = scan_rule(plain_ascii_.get(), plain, false, b, e, unit, acc, &ok);
  if (ok && sets_) acc = sets(b, e, unit, acc, &ok);
  if (!ok) {  // the empty text, or a scan that failed: every pattern on its own
    acc = 0;
    for (const Pattern& p : patterns_)
      if (holds(p.pred, payload, size, off, in_type, length)) acc |= p.mask;
    return acc;
  }
  acc = each(always_, payload, size, off, in_type, length, acc);
  return each(dbs != nullptr ? dbs->rejected : pending_, payload, size, off, in_type, length, acc);
}

void attach_str_matchers(ir::Program& prog) {
  for (ir::StrMap& m : prog.str_maps) m.matcher = StrMatcher::build(m, prog.str_preds);
}

std::string serialize_str_databases(const ir::Program& prog, const ProgramKey& key) {
  StrMatcher::Image image;
  for (size_t i = 0; i < prog.str_maps.size(); ++i)
    if (prog.str_maps[i].matcher) prog.str_maps[i].matcher->serialize(uint32_t(i), image);
  return image.entries.empty() ? std::string() : write_hs_image(key, image.entries);
}

HsDbCounts install_str_databases(const ir::Program& prog, const HsImage* image,
                                 const std::string& missing) {
  HsDbCounts counts;
  for (size_t i = 0; i < prog.str_maps.size(); ++i)
    if (prog.str_maps[i].matcher)
      prog.str_maps[i].matcher->install_databases(image, uint32_t(i), missing, counts);
  return counts;
}

}  // namespace pfc::internal

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
