// compiler/pool_index.h — internal to the lowering: a hash index over a pool (a vector) of
// values, for hash-consing without a second copy of the keys. The table holds only 32-bit
// indices into the pool; lookups hash the probe and compare it with pool entries. Open
// addressing, load factor at most 1/2, so a lookup is O(1) expected and the index costs
// at most 16 bytes per entry (a std::map of the keys took about 80).
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

  // The index of a pool entry equal to `probe`, or kNone.
  uint32_t find(const std::vector<T>& pool, const T& probe) const {
    if (slots_.empty()) return kNone;
    const size_t mask = slots_.size() - 1;
    for (size_t i = Traits::hash(probe) & mask;; i = (i + 1) & mask) {
      const uint32_t at = slots_[i];
      if (at == kNone) return kNone;
      if (Traits::equal(pool[at], probe)) return at;
    }
  }

  // Indexes pool[index] (not already indexed).
  void insert(const std::vector<T>& pool, uint32_t index) {
    if (2 * (size_ + 1) > slots_.size()) grow(pool);
    place(pool, index);
    ++size_;
  }

  // Forgets every entry; O(entries), not O(capacity).
  void clear() {
    for (size_t i : used_) slots_[i] = kNone;
    used_.clear();
    size_ = 0;
  }

 private:
  void place(const std::vector<T>& pool, uint32_t index) {
    const size_t mask = slots_.size() - 1;
    size_t i = Traits::hash(pool[index]) & mask;
    while (slots_[i] != kNone) i = (i + 1) & mask;
    slots_[i] = index;
    used_.push_back(static_cast<uint32_t>(i));
  }

  void grow(const std::vector<T>& pool) {
    std::vector<uint32_t> entries;
    entries.reserve(size_);
    for (size_t i : used_) entries.push_back(slots_[i]);
    slots_.assign(slots_.empty() ? 16 : 2 * slots_.size(), kNone);
    used_.clear();
    for (uint32_t index : entries) place(pool, index);
  }

  std::vector<uint32_t> slots_;  // kNone or an index into the pool
  std::vector<uint32_t> used_;   // occupied slots, for clear() and grow()
  size_t size_ = 0;
};

}  // namespace pfc::internal
