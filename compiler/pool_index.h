// compiler/pool_index.h — internal to the lowering: a hash index over a pool (a vector) of
// values, for hash-consing without a second copy of the keys. The table holds 32-bit
// indices into the pool with 32 bits of each entry's hash; lookups hash the probe once and
// compare it with pool entries whose stored hash bits match, and growing never hashes an
// entry again. Open addressing, load factor at most 1/2, so a lookup is O(1) expected and
// the index costs at most 36 bytes per entry (a std::map of the keys took about 80).
#pragma once

#include <cstdint>
#include <vector>

namespace pfc::internal {

// Mixes one more 64-bit word into a hash (splitmix64's finalizer over h ^ v).
inline uint64_t hash_mix(uint64_t h, uint64_t v) {
  uint64_t z = h ^ (v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2));
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// `Traits` provides static uint64_t hash(const T&) and static bool equal(const T&, const T&).
template <typename T, typename Traits>
class PoolIndex {
 public:
  static constexpr uint32_t kNone = ~uint32_t{0};

  // The index of a pool entry equal to `probe`, or kNone; `h` is Traits::hash(probe).
  uint32_t find(const std::vector<T>& pool, const T& probe, uint64_t h) const {
    if (slots_.empty()) return kNone;
    const size_t mask = slots_.size() - 1;
    const auto bits = static_cast<uint32_t>(h);
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (s.index == kNone) return kNone;
      if (s.hash == bits && Traits::equal(pool[s.index], probe)) return s.index;
    }
  }
  uint32_t find(const std::vector<T>& pool, const T& probe) const {
    return find(pool, probe, Traits::hash(probe));
  }

  // Indexes pool[index] (not already indexed); `h` is Traits::hash(pool[index]).
  void insert(uint32_t index, uint64_t h) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    place(Slot{index, static_cast<uint32_t>(h)});
    ++size_;
  }
  void insert(const std::vector<T>& pool, uint32_t index) {
    insert(index, Traits::hash(pool[index]));
  }

  // Room for `n` entries without growing (an estimate: more still grow the table).
  void reserve(size_t n) {
    size_t want = 16;
    while (want < 2 * n) want *= 2;
    if (want <= slots_.size()) return;
    std::vector<Slot> entries;
    entries.reserve(size_);
    for (size_t i : used_) entries.push_back(slots_[i]);
    rebuild(want, entries);
  }

  // Forgets every entry; O(entries), not O(capacity).
  void clear() {
    for (size_t i : used_) slots_[i] = Slot{};
    used_.clear();
    size_ = 0;
  }

 private:
  struct Slot {
    uint32_t index = kNone;  // kNone or an index into the pool
    uint32_t hash = 0;       // the entry's hash, its low 32 bits
  };

  // The table's size is at most 2^32 slots, so the low 32 bits choose the first slot.
  void place(Slot s) {
    const size_t mask = slots_.size() - 1;
    size_t i = s.hash & mask;
    while (slots_[i].index != kNone) i = (i + 1) & mask;
    slots_[i] = s;
    used_.push_back(static_cast<uint32_t>(i));
  }

  void grow() {
    std::vector<Slot> entries;
    entries.reserve(size_);
    for (size_t i : used_) entries.push_back(slots_[i]);
    rebuild(slots_.empty() ? 16 : 2 * slots_.size(), entries);
  }

  // The table at `size` slots (a power of two) holding `entries`, by their stored hashes.
  void rebuild(size_t size, const std::vector<Slot>& entries) {
    slots_.assign(size, Slot{});
    used_.clear();
    used_.reserve(size / 2);
    for (const Slot& s : entries) place(s);
  }

  std::vector<Slot> slots_;
  std::vector<uint32_t> used_;  // occupied slots, for clear() and grow()
  size_t size_ = 0;
};

}  // namespace pfc::internal
