// fuzz/common/fdp_entropy.h — gen::Entropy over libFuzzer's FuzzedDataProvider, so the
// structure-aware route fuzzer turns every input into a routing case (tests/oracle/gen.h).
// An exhausted provider yields zeros: small cases, never a failure.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>
#include "tests/oracle/gen.h"

namespace pfc::fuzz {

class FdpEntropy final : public gen::Entropy {
 public:
  explicit FdpEntropy(FuzzedDataProvider& fdp) : fdp_(fdp) {}
  uint64_t next(uint64_t n) override {
    return n <= 1 ? 0 : fdp_.ConsumeIntegralInRange<uint64_t>(0, n - 1);
  }
  uint64_t bits64() override { return fdp_.ConsumeIntegral<uint64_t>(); }

 private:
  FuzzedDataProvider& fdp_;
};

}  // namespace pfc::fuzz
